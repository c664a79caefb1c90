// "Learn by playing": a game's tutorial (/learn/<game id>) on the real board. Each step's board
// comes from the server (the rule module replaying the tutorial's script) and is drawn by the
// game's own renderer, as in a room; a click that makes a move is judged by the server: the
// step's move goes on, another legal move is answered with why not, an illegal one with the
// rules' reason.

import { api, gameInfo, me } from "./api.js";
import { playVsComputer } from "./bots.js";
import { nameForm, topbar } from "./lobby.js";
import { loadRenderer } from "./renderers.js";
import { rulesButton } from "./rules.js";
import { markTargets, targetsOf } from "./targets.js";
import { h, navigate, replace, toast } from "./ui.js";

/** Open the tutorial of `gameId` inside `root`; returns {dispose}. */
export function openLearn(root, gameId) {
  const page = new LearnPage(root, gameId);
  page.start();
  return page;
}

class LearnPage {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.step = null; // the server's step payload
    this.feedback = null; // {kind: "right" | "wrong" | "illegal", text}
    this.pending = false;
    this.local = {};
    this.disposed = false;
  }

  async start() {
    replace(this.root, topbar(me(), null), h("p", { class: "loading" }, "Opening the tutorial…"));
    try {
      [this.game, this.renderer, this.step] = await Promise.all([
        gameInfo(this.gameId), loadRenderer(this.gameId), api("GET", `/api/learn/${encodeURIComponent(this.gameId)}/steps/0`)]);
    } catch (err) {
      replace(this.root, topbar(me(), null), h("main", { class: "lobby" }, h("section", { class: "card hero", "data-testid": "not-found" },
        h("h1", {}, err.code === "tutorial_unavailable" ? "Tutorial out of order" : "No such tutorial"), h("p", {}, err.message),
        h("button", { class: "btn primary", onclick: () => navigate("/") }, "Go to the lobby"))));
      return;
    }
    if (this.disposed) return;
    document.title = `Learn ${this.game.title} — Ziggurat`;
    this.stepEl = h("section", { class: "card learn-step", "data-testid": "learn-step", "aria-live": "polite" });
    this.playersEl = h("div", { class: "learn-players", "data-testid": "learn-players" });
    this.boardEl = h("section", { class: "board", "data-testid": "board", "aria-label": "Board" });
    this.boardEl.addEventListener("click", (event) => this.clickedOffMove(event));
    replace(this.root, topbar(me(), null, h("div", { class: "room-title" },
      h("span", { class: "room-game-title" }, `Learn ${this.game.title}`), rulesButton(this.gameId))),
    h("main", { class: "learn" }, this.stepEl, this.playersEl, this.boardEl));
    this.draw();
    window.zigguratLearn = { page: this, targets: () => this.targets() };
  }

  dispose() {
    this.disposed = true;
    if (window.zigguratLearn?.page === this) delete window.zigguratLearn;
  }

  /** The selectors of the step's move on the board (the tutorial's own, else the renderer's). */
  targets() {
    if (this.step.done) return [];
    return this.step.highlight || targetsOf(this.renderer, this.step.expect, this.step.view);
  }

  /** The tutorial's names; the learner's seat goes by the player's own name when there is one
   *  (renderers write "<name>'s turn"). */
  names(seat) {
    if (seat === this.step?.seat && me()) return me().name;
    return this.step?.names?.[seat] ?? `Seat ${seat + 1}`;
  }

  ctx() {
    const step = this.step;
    const live = !step.done && !this.pending;
    const seat = step.seat;
    const toAct = step.done ? [] : step.to_act;
    return {
      seat,
      legalMoves: live ? step.legal_moves : [],
      toAct,
      myTurn: live && toAct.includes(seat),
      canUndo: false,
      players: step.names.map((_, s) => ({ seat: s, name: this.names(s), bot: s === seat ? null : "tutorial", connected: true,
                                              host: s === seat, you: s === seat, empty: false, away: false })),
      play: (move) => this.play(move),
      undo: () => Promise.reject(new Error("no take-backs in a tutorial")),
      status: step.outcome ? "finished" : "active",
      version: step.version,
      outcome: step.outcome,
      options: step.options || {},
      events: step.events || [],
      pending: this.pending,
      tutorial: true,
      local: this.local,
      rerender: () => this.drawBoard(),
      name: (s) => this.names(s),
      words: (text) => String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => this.names(Number(n) - 1) ?? whole),
    };
  }

  /** A move from the board: the server judges it against the step. */
  async play(move) {
    if (this.pending || this.step.done) throw new Error("not now");
    this.pending = true;
    this.drawBoard();
    let answer;
    try {
      answer = await api("POST", `/api/learn/${encodeURIComponent(this.gameId)}/steps/${this.step.step}/try`, { move });
    } catch (err) {
      this.pending = false;
      toast(err.message);
      this.drawBoard();
      throw err;
    }
    this.pending = false;
    if (answer.result === "right") {
      this.step = answer.next;
      this.feedback = answer.message ? { kind: "right", text: answer.message } : null;
      this.draw();
      return;
    }
    this.feedback = { kind: answer.result, text: answer.message };
    this.draw();
    throw Object.assign(new Error(answer.message), { code: answer.result });
  }

  /** A marked place clicked while it takes nothing (a slot before its piece is chosen, or with
   *  another one chosen): said, not silently ignored. */
  clickedOffMove(event) {
    const marked = event.target.closest?.(".learn-target");
    if (!marked || this.step.done || this.pending || marked.matches("button:not([disabled]), [data-legal=true]")) return;
    this.feedback = { kind: "wrong", text: "That place takes nothing yet: click the marked things in order, the first one first." };
    this.drawStep();
  }

  draw() {
    this.drawStep();
    this.drawPlayers();
    this.drawBoard();
  }

  drawStep() {
    const step = this.step;
    const feedback = this.feedback && h("p", {
      class: `learn-feedback ${this.feedback.kind}`, "data-testid": "learn-feedback", "data-kind": this.feedback.kind, role: "status",
    }, h("span", { class: "learn-mark", "aria-hidden": "true" }, this.feedback.kind === "right" ? "✓ " : "✗ "), this.feedback.text);
    if (step.done) {
      replace(this.stepEl, feedback,
        h("h2", { "data-testid": "learn-ready" }, "You're ready"),
        h("p", { class: "learn-say" }, step.say),
        this.playButton());
      return;
    }
    replace(this.stepEl,
      h("div", { class: "learn-progress" },
        h("span", { "data-testid": "learn-count" }, `Step ${step.step + 1} of ${step.steps}`),
        h("progress", { max: step.steps, value: step.step, "aria-hidden": "true" }),
        step.step > 0 ? h("button", { class: "btn ghost small", "data-key": "learn-restart", onclick: () => this.restart() },
          "Start over") : null),
      step.step === 0 && step.intro ? h("p", { class: "hint" }, step.intro) : null,
      feedback,
      h("p", { class: "learn-say", "data-testid": "learn-say" }, step.say));
  }

  async restart() {
    try {
      this.step = await api("GET", `/api/learn/${encodeURIComponent(this.gameId)}/steps/0`);
    } catch (err) {
      toast(err.message);
      return;
    }
    this.feedback = null;
    this.local = {};
    this.scrolledFor = undefined;
    this.draw();
    window.scrollTo(0, 0);
  }

  /** "Play vs computer" for this game, at its smallest table with a bot (a name first if need be). */
  playButton() {
    const go = async (button) => {
      if (button) button.disabled = true;
      const seats = Math.min(Math.max(2, this.game.min_players), this.game.max_players);
      try {
        const room = await playVsComputer(this.game, seats, "normal", this.step.options || {});
        navigate(`/r/${room.code}`);
      } catch (err) {
        toast(err.message);
        if (button) button.disabled = false;
      }
    };
    const label = `Play ${this.game.title} against the computer`;
    if (!me()) return nameForm("Pick a name, then play against the computer:", label, () => go(null));
    return h("div", { class: "row" },
      h("button", { class: "btn primary big", "data-testid": "learn-play", onclick: (e) => go(e.currentTarget) }, label),
      h("button", { class: "btn ghost", onclick: () => navigate("/") }, "Back to the lobby"));
  }

  drawPlayers() {
    const ctx = this.ctx();
    replace(this.playersEl, ctx.players.map((p) => {
      let badge = null;
      try { badge = this.renderer.playerBadge?.(this.step.view, p.seat, ctx) ?? null; } catch { badge = null; }
      return h("span", { class: `learn-player${ctx.toAct.includes(p.seat) ? " to-act" : ""}`, "data-seat": p.seat },
        h("strong", {}, p.name), p.you && p.name !== "You" ? h("span", { class: "tag you" }, "you") : null,
        badge ? h("span", { class: "hint" }, " ", badge) : null);
    }));
  }

  drawBoard() {
    if (this.disposed) return;
    const ctx = this.ctx();
    try {
      this.renderer.render(this.boardEl, this.step.view, ctx);
    } catch (err) {
      replace(this.boardEl, h("p", { class: "error" }, `Could not draw the board: ${err.message}`));
      return;
    }
    const first = markTargets(this.boardEl, this.targets());
    if (first && this.scrolledFor !== this.step.step) { // a new step: bring its target into view
      this.scrolledFor = this.step.step;
      if (this.step.step > 0) first.scrollIntoView({ block: "nearest" });
    }
  }
}
