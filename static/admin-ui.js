// Small pieces the admin console draws in several places: times, seats, the audit table, a
// folded JSON tree and a confirmation dialog.

import { h } from "./ui.js";

function ago(when) {
  if (!when) return "never";
  const seconds = Math.max(0, (Date.now() - Date.parse(when)) / 1000);
  if (seconds < 60) return `${Math.round(seconds)} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${(seconds / 3600).toFixed(1)} h ago`;
  return `${(seconds / 86400).toFixed(1)} days ago`;
}

/** A relative time ("5 min ago") with the exact local time on hover. */
export function timeCell(when) {
  return h("time", { datetime: when || "", title: when ? new Date(when).toLocaleString() : "" }, ago(when));
}

/** A seat's display name as the admin needs it: the person, else the bot, else empty. */
export function seatName(p) {
  if (p.name) return p.name;
  if (p.bot) return p.replaced ? `Bot for ${p.replaced}` : `Bot ${p.seat + 1}`; // as the table names it
  return `empty seat ${p.seat + 1}`;
}

/** Seats as chips: name, bot, connected dot, and a ▶ on the seats to act. */
export function seatChips(players, toAct) {
  return h("ul", { class: "chips" }, players.map((p) => {
    const acting = toAct.includes(p.seat);
    const status = `${p.connected ? "connected" : "not connected"}${acting ? ", to act" : ""}`;
    return h("li", { class: `chip${acting ? " acting" : ""}`, "data-seat": p.seat,
                     "data-acting": String(acting), "data-connected": String(p.connected), title: status },
      acting ? h("span", { "aria-hidden": "true" }, "▶ ") : null,
      h("span", { class: `dot ${p.connected ? "open" : "closed"}` }), " ", seatName(p),
      p.bot ? h("span", { class: "tag bot" }, "bot") : null,
      h("span", { class: "sr-only" }, ` (${status})`));
  }));
}

const ACTION_WORDS = {
  bot: (d) => `handed seat ${d.seat + 1} to a bot`,
  zombie: (d) => `played the default move for seat ${d.seat + 1} (made version ${d.made})`,
  rollback: (d) => `rolled back to version ${d.to} (dropped ${d.dropped} move${d.dropped === 1 ? "" : "s"})`,
  abort: (d) => `aborted the room (it was ${d.status})`,
};

/** The audit log, newest first: who, what, when, room, version. */
export function auditTable(actions, withRoom) {
  if (!actions.length) return h("p", { class: "empty" }, "No admin actions yet.");
  return h("div", { class: "scroll-x" }, h("table", { class: "admin-table", "data-testid": "audit" },
    h("thead", {}, h("tr", {}, ["When", "Who", "What", withRoom ? "Room" : null, "At version"]
      .filter(Boolean).map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, actions.map((a) => h("tr", { "data-testid": "audit-row", "data-action": a.action },
      h("td", {}, timeCell(a.at)),
      h("td", {}, a.actor),
      h("td", {}, (ACTION_WORDS[a.action] || (() => a.action))(a.detail || {})),
      withRoom ? h("td", {}, h("a", { href: `#room=${a.room}` }, a.room)) : null,
      h("td", {}, a.version ?? "—"))))));
}

/** A JSON value pretty-printed (two-space indents), in a scrolling block. */
export function jsonBlock(value) {
  return h("pre", { class: "json-block", "data-testid": "json" }, JSON.stringify(value, null, 2));
}

/** Ask before acting: resolves true only on the confirm button. */
export function confirmAction(title, text, confirmLabel) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "dialog", "data-testid": "confirm-dialog", "aria-labelledby": "confirm-title" },
      h("form", { method: "dialog" },
        h("h2", { id: "confirm-title" }, title),
        h("p", {}, text),
        h("div", { class: "row end" },
          h("button", { class: "btn ghost", value: "no", "data-testid": "confirm-no" }, "Cancel"),
          h("button", { class: "btn primary", value: "yes", "data-testid": "confirm-yes" }, confirmLabel))));
    dialog.addEventListener("close", () => { dialog.remove(); resolve(dialog.returnValue === "yes"); });
    document.body.append(dialog);
    dialog.showModal();
  });
}
