// The "Notifications" dialog: where this player is told that it is their turn in a turn-based
// game (an e-mail address, verified by a link first; a webhook such as a Discord channel's; mail
// as a daily digest). PUT /api/players/me/notifications.

import { api } from "./api.js";
import { h, toast } from "./ui.js";

/** The top bar's button that opens the dialog. */
export function notificationsButton() {
  return h("button", { class: "btn ghost small", type: "button", "data-testid": "notifications",
                       title: "Be told by e-mail or webhook when it is your turn in a turn-based game",
                       onclick: () => openNotifications() },
    h("span", { "aria-hidden": "true" }, "✉"), h("span", { class: "rename-text" }, " Notifications"));
}

function status(stored) {
  if (!stored.email) return "No address: no mail is sent.";
  return stored.email_verified ? `Mail goes to ${stored.email}.`
    : `Check the mailbox of ${stored.email}: open the link in our mail to confirm it. Nothing else is sent before.`;
}

export async function openNotifications() {
  let stored;
  try {
    stored = await api("GET", "/api/players/me/notifications");
  } catch (err) {
    toast(err.message);
    return;
  }
  const dialog = h("dialog", { class: "dialog", "data-testid": "notifications-dialog" });
  const email = h("input", { id: "notify-email", type: "email", maxlength: 254, value: stored.email || "",
                             autocomplete: "email", placeholder: "you@example.org" });
  const hook = h("input", { id: "notify-webhook", type: "url", maxlength: 2000, value: stored.webhook || "",
                            placeholder: "https://discord.com/api/webhooks/…" });
  const digest = h("input", { id: "notify-digest", type: "checkbox", checked: stored.digest });
  const said = h("p", { class: "hint", "data-testid": "notifications-status", role: "status" }, status(stored));
  const close = () => { dialog.close(); dialog.remove(); };
  dialog.append(h("form", { method: "dialog", onsubmit: async (e) => {
    e.preventDefault();
    try {
      stored = await api("PUT", "/api/players/me/notifications", {
        email: email.value.trim() || null, webhook: hook.value.trim() || null, digest: digest.checked });
      said.textContent = status(stored);
      toast("Notifications saved.", "info");
    } catch (err) {
      said.textContent = err.message;
    }
  } }, h("h2", {}, "Notifications"),
    h("p", { class: "hint" }, "In turn-based games we tell you when it is your turn (if you are not looking at "
      + "the game), when a quarter of your time is left, and when the game ends. Nothing about the game "
      + "itself is sent: only its name, the result at the end and a link."),
    h("div", { class: "field" }, h("label", { for: "notify-email" }, "E-mail address"), email),
    h("div", { class: "field check" }, digest, h("label", { for: "notify-digest" }, "One mail a day (a digest)")),
    h("div", { class: "field" }, h("label", { for: "notify-webhook" }, "Webhook (Discord, Slack or any https URL)"), hook),
    said,
    h("div", { class: "row end" },
      h("button", { class: "btn ghost", type: "button", onclick: close }, "Close"),
      h("button", { class: "btn primary", type: "submit", "data-testid": "notifications-save" }, "Save"))));
  document.body.append(dialog);
  dialog.showModal();
}
