// Asked take-backs (issue 39, point 7): the "Ask to take back" button in the turn banner, and
// the notice under it while an ask is answered (Accept / Decline for those asked). The server
// says what is asked in `takeback` messages; an ask lives at the version it was made on, so a
// state at another version ends it on screen too.
import { h, replace, toast } from "./ui.js";

export class TakebackAsks {
  /** page: { state, log, myVersions, mySeat(), name(seat), ask(message) } — `ask` sends a frame and
   * settles on its ack or error (the error already shown as a toast). */
  constructor(page) {
    this.page = page;
    this.current = null; // the last ask the server told of
    this.el = h("div", { class: "takeback-notice", "data-testid": "takeback-notice", role: "status" });
  }

  /** A socket message: true when it was ours. */
  onMessage(message) {
    if (message.type !== "takeback") return false;
    const ask = message.ask;
    const mine = this.page.mySeat();
    if (ask?.status === "declined" && ask.seat === mine && this.current?.status === "open") {
      toast(`${this.page.name(ask.declined)} declined: move ${ask.move} stands.`, "info");
    }
    this.current = ask;
    this.update();
    return true;
  }

  /** The open ask at the version on screen, if any. */
  open() {
    const ask = this.current;
    return ask && ask.status === "open" && ask.version === this.page.state?.version ? ask : null;
  }

  /** The banner's button: shown to a seated player who has a move of their own on the board,
   * when the free take-back is not offered and nobody is asking already. */
  button(ctx) {
    const mine = this.page.mySeat();
    if (ctx.status !== "active" || mine === null || ctx.canUndo || ctx.pending || this.open()) return null;
    const moved = [...this.page.myVersions].some((v) => v <= ctx.version)
      || [...this.page.log.values()].some((entry) => entry.seat === mine && entry.version <= ctx.version);
    if (!moved) return null;
    return h("button", { class: "btn ghost small", "data-testid": "ask-take-back", "data-key": "ask-take-back",
      title: "Ask the other players to take back your last move (only if nothing hidden was shown since)",
      onclick: () => this.page.ask({ type: "takeback_ask" }).catch(() => {}) }, "↶ Ask to take back");
  }

  update() {
    // The game went back past the ask (a rollback): it is void, even once play reaches its
    // version again.
    if (this.current && (this.page.state?.version ?? Infinity) < this.current.version) this.current = null;
    const ask = this.open();
    if (!ask) { replace(this.el); return; }
    const mine = this.page.mySeat();
    const what = `move ${ask.move} (${ask.what})`;
    const waiting = ask.waiting.filter((seat) => !ask.accepted.includes(seat));
    const names = waiting.map((seat) => this.page.name(seat)).join(" and ");
    let line;
    if (ask.seat === mine) {
      line = [`You asked to take back ${what}. Waiting for ${names}…`];
    } else if (waiting.includes(mine)) {
      line = [`${this.page.name(ask.seat)} asks to take back ${what}. The game goes back to before it, for everyone.`,
        h("button", { class: "btn small primary", "data-testid": "takeback-accept", "data-key": "takeback-accept",
          onclick: () => this.page.ask({ type: "takeback_answer", accept: true }).catch(() => {}) }, "Accept"),
        h("button", { class: "btn small ghost", "data-testid": "takeback-decline", "data-key": "takeback-decline",
          onclick: () => this.page.ask({ type: "takeback_answer", accept: false }).catch(() => {}) }, "Decline")];
    } else {
      line = [`${this.page.name(ask.seat)} asks to take back ${what}; waiting for ${names}.`];
    }
    replace(this.el, h("p", { class: "takeback-line", "data-seat": ask.seat }, ...line));
  }
}
