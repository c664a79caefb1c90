// The room chat beside the log: lines arrive over the room's websocket (`chat_history` on
// connect, then `chat`), are drawn as text nodes only, and are said with {type: "chat", text}.
// Also who is watching (`watchers`), the host's mute switch, and an unread marker on phones.

import { nameForm } from "./lobby.js";
import { playerLink } from "./social.js";
import { h, replace } from "./ui.js";

export const MAX_CHAT_CHARS = 300;

export class ChatPanel {
  /** `page` gives: send(message), me(), room, mySeat(), name(seat), mute(muted), named() (a
   * visitor just picked a name here). */
  constructor(page) {
    this.page = page;
    this.lines = [];
    this.unread = 0;
    this.watchers = { count: 0, names: [] };
    this.listEl = h("ol", { class: "chat-list", "data-testid": "chat-list", "aria-live": "polite" });
    this.watchEl = h("p", { class: "watchers hint", "data-testid": "watchers" });
    // No maxlength: the browser would cut a long paste silently; the counter says it instead.
    this.input = h("input", { class: "chat-input", name: "chat", autocomplete: "off",
                              "aria-label": "Chat message", placeholder: "Say something…",
                              "aria-describedby": "chat-count",
                              "data-testid": "chat-input", "data-key": "chat-input", oninput: () => this.count() });
    this.sendBtn = h("button", { class: "btn small", type: "submit", "data-testid": "chat-send" }, "Send");
    this.form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say(); } },
      this.input, this.sendBtn);
    this.countEl = h("p", { class: "hint chat-count", id: "chat-count", "data-testid": "chat-count", "aria-live": "polite" });
    this.noteEl = h("p", { class: "hint chat-note", "data-testid": "chat-note" });
    this.nameEl = h("div", { class: "chat-name", "data-testid": "chat-name" });
    this.mutedEl = h("p", { class: "hint chat-muted", "data-testid": "spectators-muted" },
      "The host has muted spectators: they can read the chat but not write.");
    this.muteEl = h("label", { class: "chat-mute hint" });
    this.el = h("aside", { class: "chat", "aria-label": "Chat", "data-testid": "chat" },
      h("h2", { class: "panel-title" }, "Chat"), this.watchEl, this.listEl, this.noteEl, this.nameEl, this.form,
      this.countEl, this.mutedEl, this.muteEl);
    this.count();
    this.badge = h("span", { class: "chat-unread", "data-testid": "chat-unread", hidden: true });
    this.fab = h("button", { class: "chat-fab btn", type: "button", "data-testid": "chat-fab",
                             "aria-label": "Go to the chat", onclick: () => this.reveal() }, "Chat ", this.badge);
    this.seen = new IntersectionObserver((entries) => {
      this.visible = entries.some((e) => e.isIntersecting);
      this.fab.hidden = this.visible; // on a phone, never cover the chat it leads to
      if (this.visible) this.markRead();
    });
    this.seen.observe(this.listEl);
  }

  dispose() {
    this.seen.disconnect();
  }

  /** Take the chat-related socket messages; returns whether the message was one. */
  onMessage(message) {
    if (message.type === "chat_history") {
      this.lines = message.messages || [];
      this.drawLines();
      return true;
    }
    if (message.type === "chat") {
      if (this.lines.some((l) => l.id === message.message.id)) return true;
      this.lines.push(message.message);
      this.drawLines();
      if (message.message.player !== this.page.me()?.id && !this.visible) {
        this.unread += 1;
        this.drawBadge();
      }
      return true;
    }
    if (message.type === "watchers") {
      this.watchers = { count: message.count, names: message.names || [] };
      this.drawWatchers();
      return true;
    }
    return false;
  }

  say() {
    const text = this.input.value.trim();
    if (!text || text.length > MAX_CHAT_CHARS) return;
    if (this.page.send({ type: "chat", text })) {
      this.input.value = "";
      this.count();
    }
  }

  /** "120/300" under the box; past the limit it says by how much, and Send waits. */
  count() {
    const n = this.input.value.trim().length;
    const over = n - MAX_CHAT_CHARS;
    this.countEl.textContent = over > 0 ? `${n}/${MAX_CHAT_CHARS}: ${over} too many characters; shorten it to send.`
      : `${n}/${MAX_CHAT_CHARS}`;
    this.countEl.hidden = n === 0;
    this.countEl.classList.toggle("over", over > 0);
    this.sendBtn.disabled = this.input.disabled || over > 0;
  }

  /** Redraw what depends on the room: who may talk, the host's switch. */
  update() {
    const room = this.page.room;
    const player = this.page.me();
    if (!room) return;
    const spectator = this.page.mySeat() === null;
    const host = player && room.host === player.id;
    const muted = Boolean(room.spectators_muted) && spectator && !host;
    // A visitor without a name gets a field right here, unless the waiting room already asks
    // for one to take a seat. The form lives as long as the page: a redraw never wipes a
    // half-typed name.
    const seatForm = room.status === "lobby" && room.seats.some((x) => !x.player && !x.bot);
    let note = "";
    if (!player) note = seatForm ? "Pick a name above to take a seat and chat." : "Pick a name to chat:";
    else if (muted) note = "The host has muted spectators; you can read along.";
    this.noteEl.textContent = note;
    this.noteEl.hidden = !note;
    this.nameForm ??= nameForm("", "Save name", () => this.page.named(),
      { placeholder: "Name to chat with", key: "chat-name-input" });
    if (!player && !this.nameEl.contains(this.nameForm)) replace(this.nameEl, this.nameForm);
    this.nameEl.hidden = Boolean(player) || seatForm;
    this.input.disabled = Boolean(note);
    this.mutedEl.hidden = !(room.spectators_muted && !spectator);
    this.count();
    if (host) {
      replace(this.muteEl, h("input", { type: "checkbox", "data-testid": "mute-spectators",
                                        checked: Boolean(room.spectators_muted),
                                        onchange: (e) => this.page.mute(e.target.checked) }),
        " Mute spectators");
      this.muteEl.hidden = false;
    } else {
      this.muteEl.hidden = true;
    }
  }

  drawLines() {
    const myId = this.page.me()?.id;
    replace(this.listEl, this.lines.map((line) => h("li", {
      class: `chat-line${line.player === myId ? " mine" : ""}${line.seat === null ? " watcher" : ""}`,
      "data-testid": "chat-line" },
      h("span", { class: "chat-who" }, playerLink(line.player, line.seat === null ? `${line.name} (watching)` : this.page.name(line.seat))),
      h("span", { class: "chat-text" }, line.text))));
    this.listEl.scrollTop = this.listEl.scrollHeight;
  }

  drawWatchers() {
    const { count, names } = this.watchers;
    const anonymous = count - names.length;
    const who = [...names, ...(anonymous > 0 ? [`${anonymous} visitor${anonymous > 1 ? "s" : ""}`] : [])];
    this.watchEl.textContent = count ? `${count} watching: ${who.join(", ")}` : "No one else is watching.";
    this.watchEl.dataset.count = String(count);
  }

  drawBadge() {
    this.badge.hidden = this.unread === 0;
    this.badge.textContent = this.unread ? String(this.unread) : "";
    this.fab.classList.toggle("has-unread", this.unread > 0);
  }

  markRead() {
    this.unread = 0;
    this.drawBadge();
  }

  reveal() {
    this.el.scrollIntoView({ block: "end", behavior: "smooth" });
    if (!this.input.disabled) this.input.focus({ preventScroll: true });
    this.markRead();
  }
}
