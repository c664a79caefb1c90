// The room shell shared by every game: waiting room, seats, board, log, errors, reconnect, end.

import { api, ApiError, gameInfo, me, renewPlayer } from "./api.js";
import { checkSignedOut } from "./devices.js";
import { joinRoom, nameForm, topbar } from "./lobby.js";
import { AbsenceNotice, handoverText, heldAt } from "./absence.js";
import { botLevelChoice, botTag, botTitle, DEFAULT_BOT_LEVEL, standinText, standinWords } from "./bots.js";
import { ChatPanel } from "./chat.js";
import { hintButton, showHint } from "./hints.js";
import { bankBadge, clockBadge, clockText, lowMs, tickClocks } from "./clock.js";
import { loadRenderer } from "./renderers.js";
import { rulesButton } from "./rules.js";
import { TurnSignals } from "./signals.js";
import { changeText, playerLink, roomSocial, seriesText } from "./social.js";
import { TakebackAsks } from "./takeback.js";
import * as motion from "./motion.js";
import { copyText, h, holdDuringPress, keepFocus, navigate, plural, replace, toast, uid } from "./ui.js";

const PING_MS = 10000; // a ping every 10 s, a pong due within 5 s; after an "offline" event, within 3 s
const MOVE_TIMEOUT_MS = 10000;
const MAX_BACKOFF_MS = 10000;
const RECONNECT_NOW = 1012; // the server restarts (a rolling upgrade): reconnect at once, through the proxy
const LOG_FETCH_MS = 300; // until the state push carries the move's own line, one log fetch per burst

/** Open the room page for `code` inside `root`; returns {dispose}. */
export function openRoom(root, code) {
  const page = new RoomPage(root, code);
  page.start();
  return page;
}

class RoomPage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.room = null;
    this.state = null;
    this.shown = null; // the state the board was last drawn from (a redraw may wait: a press)
    this.game = null;
    this.renderer = null;
    this.ws = null;
    this.conn = "connecting";
    this.attempts = 0;
    this.pending = new Map();
    this.log = new Map();
    this.myVersions = new Set(); // versions this page's own moves made (from their acks)
    this.local = {};
    this.botLevel = DEFAULT_BOT_LEVEL; // the level "Add a bot" seats (the host's choice)
    this.disposed = false;
    this.timers = new Set();
    // Messages redraw the page; a redraw waits while a press is down, so no click is lost.
    this.presses = holdDuringPress(root, () => this.drawNow());
    this.onVisible = () => {
      if (document.visibilityState !== "visible") return;
      if (this.conn === "open") this.probe(5000); // a phone waking up: is the socket still alive?
      else this.reconnectNow();
    };
    this.onOnline = () => { if (this.conn !== "open") this.reconnectNow(); };
    this.onOffline = () => this.wentOffline();
  }

  // -- lifecycle ---------------------------------------------------------------------------

  async start() {
    replace(this.root, topbar(me(), null), h("p", { class: "loading" }, "Opening the room…"));
    try {
      this.room = await api("GET", `/api/rooms/${encodeURIComponent(this.code)}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return this.notFound(err.message);
      toast(err.message);
      return this.later(() => this.start(), 3000);
    }
    if (this.disposed) return;
    this.code = this.room.code;
    if (location.pathname !== `/r/${this.code}`) history.replaceState({}, "", `/r/${this.code}`);
    [this.game, this.renderer] = await Promise.all([gameInfo(this.room.game), loadRenderer(this.room.game)]);
    if (this.disposed) return;
    this.skeleton();
    this.draw();
    this.connect();
    this.loadSocial();
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
    window.ziggurat = this.debugHandle();
    this.clockTicker = setInterval(() => {
      if (this.playersEl) tickClocks(this.playersEl);
      if (this.bannerEl) { tickClocks(this.bannerEl); this.checkLowTime(); this.measureSticky(); }
      this.absence?.tick();
    }, 1000);
  }

  dispose() {
    this.disposed = true;
    for (const t of this.timers) clearTimeout(t);
    clearInterval(this.pinger);
    clearInterval(this.clockTicker);
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    this.chat?.dispose();
    this.presses.dispose();
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
    if (window.ziggurat?.page === this) delete window.ziggurat;
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); if (!this.disposed) fn(); }, ms);
    this.timers.add(t);
    return t;
  }

  notFound(message) {
    this.dispose(); // nothing to reconnect to
    replace(this.root, topbar(me(), null), h("main", { class: "lobby" },
      h("section", { class: "card hero", "data-testid": "not-found" },
        h("h1", {}, "No such room"),
        h("p", {}, message),
        h("p", {}, "Check the code with the friend who invited you, or start a room of your own."),
        h("button", { class: "btn primary", onclick: () => navigate("/") }, "Go to the lobby"))));
  }

  /** For tests and for the curious: the live socket and what it last heard. */
  debugHandle() {
    return {
      page: this,
      get room() { return this.page.room; },
      get state() { return this.page.state; },
      sendRaw: (message) => this.ws?.send(typeof message === "string" ? message : JSON.stringify(message)),
    };
  }

  // -- the socket --------------------------------------------------------------------------

  connect() {
    if (this.disposed) return;
    const player = me();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // The token travels as a subprotocol, not in the URL, so that it stays out of logs.
    const protocols = player ? ["ziggurat", `bearer.${player.token}`] : [];
    const ws = new WebSocket(`${scheme}//${location.host}/api/rooms/${this.code}/ws`, protocols);
    this.ws = ws;
    this.wsSeat = undefined; // unknown until this socket's first state message
    this.setConn("connecting");
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempts = 0;
      this.setConn("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.probe(PING_MS / 2), PING_MS);
      this.loadLog(true); // what happened while we were away, as this seat may now see it
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      clearInterval(this.pinger);
      clearTimeout(this.probeTimer);
      this.probeTimer = null;
      this.failPending("The connection dropped before the server answered; check the board and try again.");
      if (this.disposed) return;
      if (this.badToken) {
        this.badToken = false;
        renewPlayer().finally(() => this.scheduleReconnect(0));
      } else if (event.code === 4404) {
        this.notFound("This room no longer exists.");
      } else if (event.code === RECONNECT_NOW) {
        this.scheduleReconnect(Math.random() * 250); // a restart: back at once, not all at once
      } else if (event.code === 4401) { // signed out from another device, or a refused token
        checkSignedOut().then((out) => {
          if (this.disposed) return;
          if (out) navigate("/");
          else this.scheduleReconnect();
        });
      } else {
        this.scheduleReconnect();
      }
    };
  }

  scheduleReconnect(delay) {
    const wait = delay ?? Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempts) * (0.75 + Math.random() / 2);
    this.attempts += 1;
    this.setConn("closed", wait);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = this.later(() => this.connect(), wait);
  }

  /** Drop the socket and open a fresh one at once (after taking a seat, or on coming back). */
  reconnectNow() {
    if (this.disposed) return;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.probeTimer);
    this.probeTimer = null;
    const old = this.ws;
    this.ws = null;
    old?.close(1000);
    clearInterval(this.pinger);
    this.connect();
  }

  /** Ping; with no pong within `ms` the socket is half-dead (sleeping laptop, lost Wi-Fi): renew it. */
  probe(ms) {
    if (this.probeTimer) return;
    if (!this.send({ type: "ping" })) return;
    this.probeTimer = this.later(() => {
      this.probeTimer = null;
      this.failPending("The connection dropped before the server answered; check the board and try again.");
      this.reconnectNow();
    }, ms);
  }

  /** The browser says it lost its network. The flag is often wrong (a server on this very
   * machine, friends on one laptop), so the socket decides: stop taking moves at once, ping, and
   * go on if the pong comes; with no pong the probe renews the socket. */
  wentOffline() {
    if (this.disposed || this.conn !== "open") return;
    this.setConn("checking");
    clearTimeout(this.probeTimer);
    this.timers.delete(this.probeTimer);
    this.probeTimer = null;
    this.probe(3000);
  }

  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  setConn(conn, wait = 0) {
    const changed = this.conn !== conn;
    this.conn = conn;
    if (changed) this.draw(); // moves are offered only while live
    this.root.dataset.conn = conn;
    if (!this.connEl) return;
    const text = conn === "open" ? "Live" : conn === "connecting" ? "Connecting…"
      : conn === "checking" ? "Checking the connection…"
      : `Offline — retrying in ${Math.max(1, Math.round(wait / 1000))} s`;
    replace(this.connEl, h("span", { class: `dot ${conn === "checking" ? "connecting" : conn}`, "aria-hidden": "true" }),
      h("span", { class: conn === "open" ? "conn-text" : "" }, text),
      conn === "closed" ? h("button", { class: "btn ghost small", onclick: () => this.reconnectNow() }, "Retry now") : null);
  }

  onMessage(message) {
    if (this.chat?.onMessage(message)) return;
    if (this.asks?.onMessage(message)) return;
    switch (message.type) {
      case "room":
        this.room = message.room;
        this.checkSeat();
        this.draw();
        break;
      case "state":
        this.onState(message);
        break;
      case "pong":
        clearTimeout(this.probeTimer);
        this.timers.delete(this.probeTimer);
        this.probeTimer = null;
        if (this.conn === "checking") this.setConn("open"); // the socket still works
        break;
      case "ack":
        if (message.version != null) this.myVersions.add(message.version); // for "your turn" signals
        this.settle(message.id, null);
        break;
      case "error":
        this.onError(message);
        break;
      default:
        break;
    }
  }

  onState(message) {
    const previous = this.state;
    this.state = message;
    this.wsSeat = message.seat;
    if (previous && message.version < previous.version) {
      // A take-back (one step, by a seat that is to act again) or the admin's rollback: the
      // later moves are gone, and the table is told so.
      // The room message (pushed first) names a take-back in its newest admin_log line.
      const mover = this.log.get(previous.version)?.seat;
      const newest = (this.room?.admin_log || []).at(-1);
      const tookBack = newest ? newest.version === message.version && newest.text.includes(" took back")
        : previous.version - message.version === 1 && mover != null && (message.to_act || []).includes(mover);
      for (const version of this.log.keys()) if (version > message.version) this.log.delete(version);
      for (const version of this.myVersions) if (version > message.version) this.myVersions.delete(version);
      const mine = [...this.pending.values()].some((p) => p.kind === "undo"); // its ack follows
      if (tookBack) toast(mine ? "You took back your last step." : newest?.text || `${this.name(mover)} took back a step.`, "info");
      else {
        this.rolledBack = { from: previous.version, to: message.version };
        toast(`The game was rolled back to move ${message.version}.`, "info");
      }
    }
    if (message.entry?.version === message.version) {
      this.log.set(message.version, message.entry); // the server sent the move's own line
    } else if (message.version > 0 && !this.log.get(message.version)?.text) {
      // Until the log answers, show what the push told: its events (the move's line follows).
      const timedOut = message.timed_out_seat != null ? { seat: message.timed_out_seat, timed_out: true } : {};
      this.log.set(message.version, { version: message.version, events: message.events || [], partial: true, ...timedOut });
    }
    if (previous && previous.status !== message.status) this.loadLog(true); // the log opened up
    else if (this.logGap()) this.loadLogSoon(); // a move's own line is missing
    this.signals.update(message, previous, this.myVersions);
    this.checkSeat();
    this.draw();
  }

  /** Whether some move up to the current version lacks its own line in the log. */
  logGap() {
    const top = this.state?.version ?? 0;
    for (let v = top; v > this.logComplete(); v -= 1) if (!this.log.get(v)?.text) return true;
    return false;
  }

  /** The highest version up to which every move's line is known (the log's complete prefix). */
  logComplete() {
    let v = 0;
    while (this.log.get(v + 1)?.text) v += 1;
    return v;
  }

  onError(message) {
    if (message.code === "bad_token" || message.code === "token_expired") {
      this.badToken = true; // the socket closes next; we renew the player and reconnect
      return;
    }
    if (message.code === "room_not_found") return this.notFound(message.message);
    this.settle(message.id, message);
    toast(message.message || `The server refused that (${message.code}).`);
  }

  /** The room says I hold a seat but my socket does not know it (joined elsewhere): reconnect. */
  checkSeat() {
    const mine = this.mySeat();
    if (mine !== null && this.wsSeat === null && this.conn === "open" && this.reseatFor !== mine) {
      this.reseatFor = mine;
      this.reconnectNow();
    }
  }

  // -- moves -------------------------------------------------------------------------------

  /** Send a move; resolves on ack, rejects with the server's error (already shown as a toast). */
  play(move) {
    return this.ask({ type: "move", move });
  }

  /** Take back my last step (offered while the state says `can_undo`); acked like a move. */
  undo() {
    return this.ask({ type: "undo" });
  }

  /** Send a move or an undo with a fresh id and the version I saw; settled by its ack/error. */
  ask(message) {
    if (!this.state) return Promise.reject(new Error("no state yet"));
    if (this.conn !== "open") {
      toast("You are offline; reconnecting. Try again in a moment.");
      return Promise.reject(new Error("offline"));
    }
    const id = uid();
    return new Promise((resolve, reject) => {
      const timer = this.later(() => {
        this.settle(id, { code: "timeout", message: "The server did not answer in time." });
        toast("The server did not answer that move in time; reconnecting.");
        this.reconnectNow();
      }, MOVE_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer, kind: message.type });
      // The version of the board the player chose from.
      this.send({ ...message, id, version: (this.shown ?? this.state).version });
      this.draw();
    });
  }

  settle(id, error) {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    this.timers.delete(waiting.timer);
    if (error) waiting.reject(Object.assign(new Error(error.message), { code: error.code }));
    else waiting.resolve();
    this.draw(); // the state may have arrived before its ack: "Your turn!" and data-my-turn too
  }

  failPending(message) {
    for (const id of [...this.pending.keys()]) this.settle(id, { code: "disconnected", message });
  }

  // -- the move log ------------------------------------------------------------------------

  /** Fetch the missing lines shortly: moves in quick succession (bots, a race) share a fetch. */
  loadLogSoon() {
    if (this.logTimer) return;
    this.logTimer = this.later(() => { this.logTimer = null; this.loadLog(); }, LOG_FETCH_MS);
  }

  /** Fetch the log's missing lines from the server (`after` = what we already hold whole; a
   * server that ignores it answers the whole log, which merges the same). */
  async loadLog(whole = false) {
    this.logWhole ||= whole;
    if (this.logLoading) { this.logAgain = true; return; }
    this.logLoading = true;
    try {
      const after = this.logWhole ? 0 : this.logComplete();
      this.logWhole = false;
      const entries = await api("GET", `/api/rooms/${this.code}/moves${after ? `?after=${after}` : ""}`);
      const top = this.state?.version ?? Infinity;
      for (const entry of entries) if (entry.version <= top) this.log.set(entry.version, entry);
      this.drawLog();
      if (this.status() === "finished") this.drawEnd(this.ctx()); // the end screen reads the log
    } catch (err) {
      console.warn("could not load the move log", err);
    } finally {
      this.logLoading = false;
      if (this.logAgain) { this.logAgain = false; this.loadLog(); }
    }
  }

  // -- who is who --------------------------------------------------------------------------

  mySeat() {
    const player = me();
    const seat = player && this.room?.seats.find((s) => s.player?.id === player.id);
    return seat ? seat.seat : null;
  }

  name(seat) {
    const s = this.room?.seats[seat];
    if (!s) return `Seat ${seat + 1}`;
    if (s.player) {
      const same = this.room.seats.filter((o) => o.player?.name === s.player.name).length;
      return same > 1 ? `${s.player.name} (${seat + 1})` : s.player.name;
    }
    if (s.bot) return s.replaced ? `Bot for ${s.replaced.name}` : `Bot ${seat + 1}`;
    return `Seat ${seat + 1}`;
  }

  /** Rule texts say "Seat 2"; people read names (`names` overrides some seats: a log line
   * names the mover as the seat was held then). */
  words(text, names = {}) {
    return String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => {
      const seat = Number(n) - 1;
      if (names[seat]) return names[seat];
      return this.room?.seats[seat] ? this.name(seat) : whole;
    });
  }

  players() {
    const player = me();
    return (this.room?.seats || []).map((s) => ({
      seat: s.seat, id: s.player?.id ?? null, name: this.name(s.seat), bot: s.bot, connected: s.connected,
      host: s.player?.id === this.room.host, you: Boolean(player && s.player?.id === player.id),
      empty: !s.player && !s.bot, away: Boolean(s.away),
    }));
  }

  ctx() {
    const state = this.state;
    const pending = this.pending.size > 0;
    const seat = state?.seat ?? null;
    const active = state?.status === "active" && this.status() === "active";
    const toAct = active ? state.to_act || [] : [];
    const live = active && this.conn === "open" && !pending;
    return {
      seat,
      legalMoves: live ? state.legal_moves || [] : [],
      toAct,
      myTurn: live && seat !== null && toAct.includes(seat),
      canUndo: live && seat !== null && state.can_undo === true,
      players: this.players(),
      play: (move) => this.play(move),
      undo: () => this.undo(),
      status: this.status(),
      version: state?.version ?? 0,
      outcome: state?.outcome || null,
      options: this.room?.options || {},
      events: state?.events || [],
      pending,
      local: this.local,
      rerender: () => this.drawBoard(),
      name: (s) => this.name(s),
      words: (text) => this.words(text),
    };
  }

  // -- drawing -----------------------------------------------------------------------------

  skeleton() {
    this.connEl = h("div", { class: "conn", "data-testid": "conn", role: "status" });
    this.bannerEl = h("div", { class: "banner", "data-testid": "banner", role: "status" });
    this.absence = this.makeAbsence();
    this.asks = new TakebackAsks(this);
    this.playersEl = h("aside", { class: "players", "aria-label": "Players" });
    this.centerEl = h("div", { class: "center" });
    this.endEl = h("div", { class: "end-slot" });
    this.boardEl = h("section", { class: "board", "data-testid": "board", "aria-label": "Board" });
    this.logEl = h("aside", { class: "log", "aria-label": "Moves so far" });
    this.chat = this.makeChat();
    this.signals = new TurnSignals(this.game.title);
    const codeChip = h("button", { class: "code-chip", title: "Copy the invite link", "data-testid": "code-chip",
                                   onclick: () => this.copyInvite() }, this.code);
    this.titleEl = h("div", { class: "room-title" },
      h("span", { class: "room-game-title" }, this.game.title), codeChip,
      this.seriesEl = h("span", { class: "series-chip", "data-testid": "series-score", hidden: true }),
      h("span", { class: "topbar-break", "aria-hidden": "true" }), // phones: the second line starts here
      // A phone shows the icon alone (the word stays the button's name): two header lines at most.
      rulesButton(this.room.game, [h("span", { "aria-hidden": "true" }, "?"),
                                   h("span", { class: "signal-text" }, " Rules")]),
      this.signals.el, this.connEl);
    this.topEl = this.topbar();
    replace(this.root,
      this.topEl,
      this.bannerEl,
      this.absence.el,
      this.asks.el,
      h("main", { class: "room" }, this.playersEl, this.centerEl,
        h("div", { class: "side" }, this.logEl, this.chat.el)));
    this.setConn(this.conn);
  }

  /** The header: the game, the code, rules, signals, the connection and my name (renamable). */
  topbar() {
    return topbar(me(), () => this.named(), this.titleEl, {
      warning: "You hold a seat in this room: with a new name this browser can no longer play it.",
      seated: () => this.mySeat() !== null,
    });
  }

  /** I just picked (or changed) my name on this page: show it, and reopen the socket as me. */
  named() {
    this.refreshTop();
    this.reseatFor = null;
    this.draw();
    this.reconnectNow();
  }

  /** Draw the header again (my name changed). */
  refreshTop() {
    const top = this.topbar();
    this.topEl.replaceWith(top);
    this.topEl = top;
  }

  makeChat() {
    const page = this;
    return new ChatPanel({
      send: (message) => page.send(message),
      me,
      get room() { return page.room; },
      mySeat: () => page.mySeat(),
      name: (seat) => page.name(seat),
      mute: (muted) => page.roomAction("chat/mute", { muted }),
      named: () => page.named(),
    });
  }

  makeAbsence() {
    const page = this;
    return new AbsenceNotice({
      get room() { return page.room; },
      get version() { return page.state?.version; }, // the game's version now (the room's lags)
      me,
      mySeat: () => page.mySeat(),
      name: (seat) => page.name(seat),
      roomAction: (what, body, button) => page.roomAction(what, body, button),
      reclaim: (button) => page.reclaim(button),
    });
  }

  inviteUrl() {
    return `${location.origin}/r/${this.code}`;
  }

  async copyInvite() {
    if (await copyText(this.inviteUrl())) toast("Invite link copied. Send it to your friends!", "info");
    else toast("Could not copy; select the link and copy it by hand.");
  }

  async shareInvite() {
    try {
      await navigator.share({ title: `${this.game.title} on Ziggurat`,
                              text: `Come and play ${this.game.title} with me!`, url: this.inviteUrl() });
    } catch (err) {
      if (err?.name !== "AbortError") this.copyInvite();
    }
  }

  draw() {
    this.presses.draw();
  }

  drawNow() {
    if (this.disposed || !this.room || !this.boardEl) return;
    keepFocus(this.root, () => this.drawAll());
  }

  /** The room's status: the state's once dealt, but a room the server closed is closed even
   * before (or without) a last state push. */
  status() {
    if (this.room?.status === "aborted") return "aborted";
    return this.state?.status && this.state.status !== "lobby" ? this.state.status : this.room?.status;
  }

  drawAll() {
    const status = this.status();
    const ctx = this.ctx();
    Object.assign(this.root.dataset, {
      status, version: String(ctx.version), myTurn: String(ctx.myTurn),
      seat: this.mySeat() === null ? "" : String(this.mySeat()),
    });
    this.root.classList.toggle("phase-lobby", status === "lobby");
    this.chat.update();
    document.title = `${ctx.myTurn ? "● Your turn — " : ""}${this.game.title} · Ziggurat`;
    this.drawBanner(status, ctx);
    this.absence.update();
    this.asks.update();
    if (status === "lobby") {
      replace(this.playersEl);
      replace(this.logEl);
      replace(this.centerEl, this.waitingRoom());
      return;
    }
    if (status === "aborted") {
      replace(this.centerEl, h("section", { class: "card closed", "data-testid": "closed" }, h("h2", {}, "This room was closed"),
        h("p", {}, this.closedText()),
        h("button", { class: "btn primary", onclick: () => navigate("/") }, "Back to the lobby")));
      if (this.state?.view) { this.drawPlayers(ctx); this.drawLog(); }
      return;
    }
    if (!this.centerEl.contains(this.boardEl)) replace(this.centerEl, this.endEl, this.boardEl);
    this.drawPlayers(ctx);
    this.drawEnd(ctx);
    this.drawBoard();
    this.drawLog();
  }

  drawBanner(status, ctx) {
    const mine = this.mySeat();
    let text;
    let kind = "";
    let clock = null;
    if (status === "lobby") {
      if (mine === null) text = "You are visiting. Take a seat to play, or stay and watch.";
      else if (this.room.host === me()?.id) text = "Invite friends or add bots, then start the game.";
      else text = `You're in! Waiting for ${this.hostName()} to start the game.`;
    } else if (status === "active") {
      const acting = ctx.toAct.map((s) => this.name(s)).join(" and ");
      if (ctx.myTurn) { text = "Your turn!"; kind = "turn"; }
      else if (mine === null) text = `You are watching. ${acting ? `${acting} to play.` : ""}`;
      else text = acting ? `Waiting for ${acting}…` : "Waiting…";
      clock = this.bannerClock(ctx);
    } else if (status === "finished") {
      text = "Game over.";
      kind = "done";
    } else if (status === "errored") {
      text = "The game hit an error in its rules and is paused. The admin can see what went wrong.";
      kind = "bad";
    } else if (status === "aborted") {
      text = this.closedText();
      kind = "bad";
    }
    this.bannerEl.className = `banner ${kind}`;
    // Every game's take-back, drawn here once for all renderers (the server says when).
    const takeBack = ctx.canUndo ? h("button", { class: "btn take-back", "data-testid": "take-back",
      title: "Take back your last step (nobody has seen anything new since)",
      onclick: () => this.undo().catch(() => {}) }, "↶ Take back") : null;
    // A phone's Chat button (shown with unread lines) rides in the sticky banner: never over the board.
    replace(this.bannerEl, h("span", { class: "banner-text" }, text), takeBack, this.asks?.button(ctx),
      hintButton(this, ctx), clock, this.chat.fab);
    this.checkLowTime();
    this.measureSticky();
  }

  /** Sticky controls sit just under the sticky banner (and the banner, on a desktop, under the
   * sticky header), whatever their heights: kept in --banner-h and --topbar-h. */
  measureSticky() {
    const style = document.documentElement.style;
    style.setProperty("--banner-h", `${this.bannerEl.offsetHeight || 40}px`);
    const top = this.topEl && getComputedStyle(this.topEl).position === "sticky" ? this.topEl.offsetHeight : 0;
    style.setProperty("--topbar-h", `${top}px`);
  }

  /** The time left of the seat to act, in the sticky banner: mine if I am to act, else the
   * first clocked seat to act ("Bob: 0:41"). */
  bannerClock(ctx) {
    const deadlines = this.state?.deadlines || {};
    const mine = this.state?.seat;
    const seat = ctx.toAct.includes(mine) && deadlines[mine] ? mine : ctx.toAct.find((s) => deadlines[s]);
    if (seat === undefined || seat === null || !deadlines[seat]) return null;
    return h("span", { class: "banner-clock", "data-testid": "banner-clock", "data-seat": seat },
      seat === mine ? "Time left: " : `${this.name(seat)}: `, clockBadge(deadlines[seat], lowMs(this.room)));
  }

  /** Once a second: with my own move's time running low, say so in the banner and, with Sound
   * on, warn once per deadline. */
  checkLowTime() {
    const seat = this.state?.seat;
    const deadline = this.state?.status === "active" && this.conn !== "closed" ? this.state.deadlines?.[seat] : null;
    const left = deadline ? Date.parse(deadline) - Date.now() : Infinity;
    const low = this.ctx().myTurn && left > 0 && left < lowMs(this.room);
    if (this.bannerEl && this.bannerEl.classList.contains("low") !== low) {
      this.bannerEl.classList.toggle("low", low);
      const text = this.bannerEl.querySelector(".banner-text");
      if (text) text.textContent = low ? "Your turn — time is running out!" : "Your turn!";
    }
    if (low && this.warnedFor !== deadline) {
      this.warnedFor = deadline;
      this.signals.warn();
    }
  }

  /** Why the room is closed, as true as the client can tell until the server says (`closed_reason`). */
  closedText() {
    if (this.room?.closed_reason) return this.words(this.room.closed_reason);
    return (this.state?.version ?? this.room?.version ?? 0) > 0 || this.state?.view
      ? "This room was closed before the game ended; no more moves can be played."
      : "This room was closed before the game started.";
  }

  hostName() {
    const host = this.room.seats.find((s) => s.player?.id === this.room.host);
    return host ? this.name(host.seat) : "the host";
  }

  drawPlayers(ctx) {
    const view = this.state?.view;
    const badge = (seat) => {
      if (!view || !this.renderer.playerBadge) return null;
      try {
        return this.renderer.playerBadge(view, seat, ctx);
      } catch {
        return null;
      }
    };
    // A running score when the view has one ("scores": one number per seat).
    const scores = Array.isArray(view?.scores) && view.scores.every((x) => typeof x === "number") ? view.scores : null;
    replace(this.playersEl, h("h2", { class: "panel-title" }, "Players"),
      h("ol", { class: "seats" }, ctx.players.map((p) => {
        const acting = ctx.toAct.includes(p.seat);
        return h("li", { class: `seat-row${acting ? " acting" : ""}${p.you ? " you" : ""}`,
                         "data-testid": "player", "data-seat": p.seat, "data-acting": String(acting) },
          h("span", { class: "turn-mark", "aria-hidden": "true" }, acting ? "▶" : ""),
          h("span", { class: `dot ${p.connected ? "open" : "closed"}`,
                      title: p.connected ? "connected" : "not connected" }),
          h("span", { class: "who" },
            h("span", { class: "seat-name" }, playerLink(p.id, p.name),
              h("span", { class: "sr-only" }, p.connected ? " (connected)" : " (not connected)"),
              acting ? h("span", { class: "sr-only" }, " — to play") : null),
            p.you ? h("span", { class: "tag you" }, "you") : null,
            p.bot ? h("span", { class: "tag bot", "data-testid": "bot-level", title: botTitle(p.bot) }, botTag(p.bot)) : null,
            p.host ? h("span", { class: "tag host" }, "host") : null,
            p.away ? h("span", { class: "tag away", "data-testid": "away",
                                 title: "Ran out of time on the last moves in a row" }, "away") : null,
            this.seatClock(p.seat, acting)),
          scores ? h("span", { class: "seat-score", "data-testid": "seat-score", "data-seat": p.seat,
                               title: "Score so far" }, scoreText(scores[p.seat] ?? 0)) : null,
          h("span", { class: "seat-badge" }, badge(p.seat)));
      })));
  }

  /** The countdown beside a seat to act; with a Fischer clock, the bank of every other seat. */
  seatClock(seat, acting) {
    const deadline = this.state?.status === "active" ? this.state.deadlines?.[seat] : null;
    if (acting && deadline) return clockBadge(deadline, lowMs(this.room));
    const bank = this.state?.clock_banks?.[seat];
    return this.state?.status === "active" && bank != null ? bankBadge(bank) : null;
  }

  drawBoard() {
    if (!this.state || this.state.status === "lobby" || !this.state.view || !this.boardEl) return;
    try {
      this.shown = this.state;
      const before = motion.measure(this.boardEl); // pieces that move (static/motion.js)
      this.renderer.render(this.boardEl, this.state.view, this.ctx());
      motion.play(this.boardEl, before);
      showHint(this);
    } catch (err) {
      console.error(err);
      replace(this.boardEl, h("p", { class: "empty" }, `This board could not be drawn: ${err.message}`));
    }
  }

  /** Who made a logged move: the name the server recorded with it (`by`, as the seat was held
   * at that version), else as the room's handovers tell it, else the seat's holder now. */
  moverName(entry) {
    return entry.by?.name || heldAt(this.room?.handovers, entry.seat, entry.version)?.name || this.name(entry.seat);
  }

  /** The lines of one logged move: its own line ("Bob kept a tile."), then its events, then a
   * note if the clock played it. (A move still waiting for its line is not drawn: `drawLog`.) */
  entryLines(entry) {
    const mover = entry.seat == null ? null : this.moverName(entry);
    // Every seat named as it was held when the move was made, not as it is held now.
    const own = {};
    for (const s of this.room?.seats || []) {
      const then = heldAt(this.room.handovers, s.seat, entry.version);
      if (then) own[s.seat] = then.name;
    }
    if (entry.seat != null) own[entry.seat] = mover;
    const lines = [];
    if (entry.text && entry.seat != null) lines.push({ text: `${mover} ${this.words(entry.text, own)}.`, to: null, own: true });
    for (const e of entry.events || []) lines.push({ text: this.words(e.text, own), to: e.to ?? null });
    if (entry.timed_out) lines.push({ text: `${mover ?? this.name(entry.seat)} ran out of time: ${standinWords(this.room)} chose the move.`, to: null });
    return lines;
  }

  drawLog() {
    if (!this.logEl || this.room?.status === "lobby") return;
    const lines = [];
    const between = this.betweenLines();
    // A move's events wait for its own line (fetched shortly), so they never show above it.
    const shown = [...this.log.values()].filter((e) => !e.partial).map((e) => e.version);
    const versions = new Set([...shown, ...between.map((o) => o.version)]);
    const last = Math.max(0, ...[...this.log.keys()].filter((v) => v <= (this.state?.version ?? Infinity)));
    for (const version of [...versions].sort((a, b) => b - a)) {
      // What happened after move N (a seat changing hands, an admin's action) is newer than move N:
      // above it in this newest-first list, the newest first.
      for (const o of between.filter((b) => b.version === version)) {
        lines.push(o.handover
          ? h("li", { class: "handover", "data-testid": "handover-line", "data-version": version },
            h("span", { class: "log-n" }), h("span", {}, handoverText(o.handover)))
          : h("li", { class: "admin-note", "data-testid": "admin-line", "data-version": version },
            h("span", { class: "log-n" }), h("span", {}, this.words(o.text))));
      }
      const entry = this.log.get(version);
      if (!entry || entry.partial) continue;
      const newest = version === last;
      this.entryLines(entry).forEach((t, i) => lines.push(h("li", {
        class: [t.to ? "private" : "", newest ? "last" : "", t.own ? "" : "event"].filter(Boolean).join(" ") || null,
        "data-testid": "log-line", "data-version": version, "data-last": newest ? "true" : null,
        "data-to": t.to ? t.to.join(",") : null },
        i === 0 ? h("span", { class: "log-n" }, `${version}`) : h("span", { class: "log-n" }),
        h("span", { class: "log-text" }, t.text,
          newest && i === 0 ? h("span", { class: "tag last-tag", "data-testid": "last-move" }, "last move") : null),
        t.to ? h("span", { class: "tag", "data-testid": "private-tag" }, this.whoSaw(t.to)) : null)));
    }
    if (this.rolledBack && !this.room?.admin_log) { // until the server logs admin actions itself
      lines.unshift(h("li", { class: "admin-note", "data-testid": "rollback-line" }, h("span", { class: "log-n" }),
        h("span", {}, `The game was rolled back from move ${this.rolledBack.from} to move ${this.rolledBack.to}.`)));
    }
    if (this.state && this.state.status !== "lobby") {
      lines.push(h("li", { class: "start" }, h("span", { class: "log-n" }, "0"), h("span", {}, "The game begins.")));
    }
    replace(this.logEl, h("h2", { class: "panel-title" }, "Moves"),
      h("ol", { class: "log-list", "data-testid": "log", "data-scroll": "log", "data-scroll-from": "end", reversed: true }, lines));
  }

  /** The lines between moves, newest first: the admin's actions (`admin_log`) and seats changing
   * hands (`handovers`). One line per admin action: the admin's hand-over is said by its admin
   * line, not again by its handover. A rollback to move N places what happened before it (and
   * after move N) at N, below the rollback's own line: its bot moves come after it. */
  betweenLines() {
    const notes = (this.room?.admin_log || []).map((n) => ({ version: n.version, at: n.at, text: n.text, action: n.action }));
    const rollbacks = notes.filter((n) => n.action === "rollback");
    const told = Array.isArray(this.room?.admin_log); // the server writes an admin line per action
    const handovers = (this.room?.handovers || [])
      .filter((o) => !(told && o.kind === "bot" && o.cause === "admin"))
      .map((o) => {
        const later = rollbacks.filter((r) => Date.parse(r.at) >= Date.parse(o.at)).map((r) => r.version);
        return { version: Math.min(o.version, ...later), at: o.at, handover: o };
      });
    return [...notes, ...handovers].sort((a, b) => b.version - a.version || Date.parse(b.at) - Date.parse(a.at));
  }

  /** Whose private line this is: "only you" for mine; after the game, others' lines by name. */
  whoSaw(seats) {
    const mine = this.mySeat();
    const names = seats.map((seat) => (seat === mine ? "you" : this.name(seat)));
    return `only ${names.join(" & ")}`;
  }

  /** Per seat, the score's categories (outcome.breakdown), players as columns in rank order. */
  breakdownTable(outcome, order) {
    const parts = outcome?.breakdown;
    if (!parts || !order.length) return null;
    const categories = [];
    for (const seat of order) {
      for (const name of Object.keys(parts[seat.seat] || {})) if (!categories.includes(name)) categories.push(name);
    }
    if (!categories.length) return null;
    return h("details", { class: "breakdown", open: true, "data-testid": "breakdown" },
      h("summary", {}, "Score breakdown"),
      h("div", { class: "rules-table" }, h("table", { class: "scores breakdown-table" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), order.map((r) => h("th", { "data-seat": r.seat }, this.name(r.seat))))),
        h("tbody", {},
          categories.map((name) => h("tr", { "data-category": name }, h("th", { scope: "row" }, this.words(name)),
            order.map((r) => h("td", {}, formatScore(parts[r.seat]?.[name] ?? 0))))),
          h("tr", { class: "total", "data-category": "total" }, h("th", { scope: "row" }, "Total"),
            order.map((r) => h("td", { "data-testid": "breakdown-total", "data-seat": r.seat }, formatScore(r.score))))))));
  }

  drawEnd(ctx) {
    const outcome = ctx.outcome;
    if (!outcome && this.state?.status !== "finished") { replace(this.endEl); return; }
    const mine = this.mySeat();
    const winners = outcome?.winners || [];
    const away = this.clockPlayedMe();
    const won = winners.includes(mine);
    const title = won && away ? "The game ended while you were away"
      : won ? (winners.length > 1 ? "You share the win!" : "You win!")
      : winners.length ? `${winners.map((s) => this.name(s)).join(" and ")} win${winners.length > 1 ? "" : "s"}!`
      : "Game over";
    const order = outcome ? outcome.ranking.map((rank, seat) => ({ rank, seat, score: outcome.scores[seat] }))
      .sort((a, b) => a.rank - b.rank || a.seat - b.seat) : [];
    if (!this.endShown) {
      this.endShown = true;
      if (this.state?.status === "finished") {
        requestAnimationFrame(() => this.endEl.scrollIntoView({ block: "nearest", behavior: "smooth" }));
      }
    }
    const next = this.room.next_room;
    const canAgain = mine !== null || this.room.host === me()?.id;
    if (this.state?.status === "finished" && !this.socialAtEnd) {
      this.socialAtEnd = true; // the ratings were written with the move that ended the game
      this.loadSocial();
    }
    const rated = Object.fromEntries((this.social?.ratings || []).map((r) => [r.seat, r]));
    const series = seriesText(this.social?.series);
    replace(this.endEl, h("section", { class: "card end", "data-testid": "end-screen", "aria-labelledby": "end-title" },
      h("h2", { id: "end-title" }, won && !away ? h("span", { class: "crown", "aria-hidden": "true" }, "★ ") : null, title),
      away ? h("p", { class: "away-note", "data-testid": "away-at-end" },
        `The turn clock played your last ${plural(away, "move")} for you`,
        won ? `; the table ranks you ${winners.length > 1 ? "joint " : ""}first.` : ".") : null,
      outcome?.reason ? h("p", { class: "reason", "data-testid": "end-reason" }, this.words(outcome.reason)) : null,
      order.length ? h("table", { class: "scores", "data-testid": "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Score"),
          Object.keys(rated).length ? h("th", {}, "Rating") : null)),
        h("tbody", {}, order.map((r) => h("tr", { class: winners.includes(r.seat) ? "winner" : "" },
          h("td", {}, r.rank), h("td", {}, playerLink(this.room.seats[r.seat]?.player?.id, this.name(r.seat))),
          h("td", {}, formatScore(r.score)),
          rated[r.seat] ? h("td", { class: "rating", "data-testid": "rating-change", "data-seat": r.seat },
            `${rated[r.seat].rating.toFixed(1)} `,
            h("span", { class: `change ${rated[r.seat].change < 0 ? "down" : "up"}` }, `(${changeText(rated[r.seat].change)})`),
            rated[r.seat].standin ? h("span", { class: "tag", title: "A bot played this seat for part of the game" }, "stand-in") : null)
            : Object.keys(rated).length ? h("td", {}) : null)))) : null,
      series ? h("p", { class: "series-line", "data-testid": "end-series" }, "Series: ", h("strong", {}, series)) : null,
      this.breakdownTable(outcome, order),
      h("div", { class: "row" },
        next ? h("button", { class: "btn primary", "data-testid": "join-next", "data-key": "join-next", onclick: () => this.joinNext(next) },
          mine !== null ? "Join the next game" : "Watch the next game")
          : canAgain ? h("button", { class: "btn primary", "data-testid": "play-again", "data-key": "play-again", onclick: () => this.playAgain() }, "Play again")
          : null,
        this.state?.status === "finished" ? h("a", { class: "btn ghost", href: `/r/${this.code}/replay`, "data-testid": "open-replay" },
          "Watch the replay") : null,
        h("button", { class: "btn ghost", onclick: () => navigate("/") }, "Back to the lobby"))));
  }

  /** How many of my seat's last moves in a row the turn clock played (0: I made my last move). */
  clockPlayedMe() {
    const mine = this.mySeat();
    if (mine === null) return 0;
    const moves = [...this.log.values()].filter((e) => e.seat === mine && e.text).sort((a, b) => b.version - a.version);
    let count = 0;
    while (count < moves.length && moves[count].timed_out) count += 1;
    return count;
  }

  /** The room's series score (header and end screen) and, once over, its ratings. */
  async loadSocial() {
    const got = await roomSocial(this.code);
    if (this.disposed) return;
    this.social = got;
    const text = seriesText(got.series);
    this.seriesEl.hidden = !text;
    this.seriesEl.textContent = text ? `Series ${text}` : "";
    this.draw();
  }

  async playAgain() {
    try {
      const room = await api("POST", `/api/rooms/${this.code}/again`);
      navigate(`/r/${room.code}`);
    } catch (err) {
      toast(err.message);
    }
  }

  joinNext(code) {
    if (this.mySeat() !== null) joinRoom(code);
    else navigate(`/r/${code}`);
  }

  // -- the waiting room (status lobby) ------------------------------------------------------

  waitingRoom() {
    const room = this.room;
    const player = me();
    const mine = this.mySeat();
    const isHost = player && room.host === player.id;
    const empty = room.seats.filter((s) => !s.player && !s.bot);
    const link = h("input", { class: "invite-link", readonly: true, value: this.inviteUrl(),
                              "aria-label": "Invite link", "data-testid": "invite-link",
                              onfocus: (e) => e.target.select() });
    const options = Object.entries(room.options || {});
    const schema = this.game.options_schema?.properties || {};
    const chosen = options.filter(([k, v]) => typeof v !== "boolean" && v !== null && v !== schema[k]?.default);
    return h("section", { class: "card waiting", "data-testid": "waiting-room" },
      h("div", { class: "row" }, h("h2", {}, `${this.game.title} — waiting for players`),
        rulesButton(room.game, "How to play")),
      h("div", { class: "invite" },
        h("label", { class: "hint" }, "Send this link to your friends:"),
        h("div", { class: "row" }, link,
          h("button", { class: "btn", "data-testid": "copy-link", "data-key": "copy-link", onclick: () => this.copyInvite() }, "Copy link"),
          navigator.share ? h("button", { class: "btn", "data-key": "share-link", onclick: () => this.shareInvite() }, "Share…") : null),
        h("p", { class: "hint" }, "Or tell them the code ", h("strong", { class: "code" }, room.code),
          room.private ? " — this room is private." : " — this room is public: anyone in the lobby can join.")),
      options.some(([, v]) => v === true) ? h("p", { class: "variants-used" }, "Variants: ",
        options.filter(([, v]) => v === true).map(([k]) => schema[k]?.title || k).join(", ")) : null,
      // Non-yes/no options (a number, a choice such as Temple of Five's first player) show their
      // value when it is not the default: a yes/no list cannot say which seat was picked.
      chosen.length ? h("p", { class: "variants-used", "data-testid": "options-chosen" }, "Settings: ",
        chosen.map(([k, v]) => `${schema[k]?.title || k}: ${v}`).join(", ")) : null,
      clockText(room) ? h("p", { class: "clock-note", "data-testid": "clock-note" }, "Turn clock: ", h("strong", {}, clockText(room)),
        ` — when a player's time runs out, ${standinWords(room)} chooses their move.`) : null,
      h("p", { class: "hint", "data-testid": "standin-note" }, standinText(room)),
      h("ol", { class: "lobby-seats", "data-testid": "seats" }, room.seats.map((s) => h("li", {
        class: `lobby-seat${s.player || s.bot ? " taken" : ""}`, "data-seat": s.seat },
        h("span", { class: "seat-no" }, s.seat + 1),
        s.player || s.bot ? h("span", { class: `dot ${s.connected ? "open" : "closed"}`,
                                        title: s.connected ? "connected" : "not connected" }) : null,
        h("span", { class: "seat-name" }, s.player || s.bot ? playerLink(s.player?.id, this.name(s.seat)) : "Empty seat"),
        player && s.player?.id === player.id ? h("span", { class: "tag you" }, "you") : null,
        s.bot ? h("span", { class: "tag bot", "data-testid": "bot-level", title: botTitle(s.bot) }, botTag(s.bot)) : null,
        s.player?.id === room.host ? h("span", { class: "tag host" }, "host") : null,
        isHost && !s.player && !s.bot ? h("button", { class: "btn small", "data-testid": "add-bot", "data-key": `add-bot-${s.seat}`,
          onclick: (e) => this.roomAction("bots", { seat: s.seat, level: this.botLevel }, e.currentTarget) }, "Add a bot") : null,
        isHost && (s.bot || (s.player && s.player.id !== room.host)) ? h("button", { class: "btn small", "data-testid": "remove-seat",
          "data-key": `remove-${s.seat}`, onclick: (e) => this.roomAction("remove", { seat: s.seat }, e.currentTarget) }, "Remove") : null))),
      isHost && empty.length ? botLevelChoice(this.botLevel, (level) => { this.botLevel = level; }) : null,
      h("div", { class: "row actions" },
        isHost ? h("button", { class: "btn primary big", "data-testid": "start", "data-key": "start", disabled: empty.length > 0,
                               onclick: (e) => this.roomAction("start", {}, e.currentTarget) }, "Start the game") : null,
        mine === null && empty.length && player ? h("button", { class: "btn primary big", "data-testid": "take-seat", "data-key": "take-seat",
          onclick: () => this.takeSeat() }, "Take a seat") : null,
        mine !== null && !isHost ? h("button", { class: "btn ghost", onclick: () => this.leaveSeat() }, "Leave seat") : null),
      mine === null && empty.length && !player ? this.seatForm() : null,
      mine === null && !empty.length ? h("p", { class: "hint" }, "Every seat is taken; you can watch the game.") : null,
      isHost && empty.length ? h("p", { class: "hint" }, `Fill every seat — with friends or bots — to start. ${empty.length} empty.`) : null);
  }

  /** One form for the page's life: redraws on every seat change must not wipe a half-typed name. */
  seatForm() {
    this.nameFormEl ??= nameForm("Pick a name to take a seat:", "Take a seat", () => {
      this.refreshTop();
      return this.takeSeat();
    });
    return this.nameFormEl;
  }

  async roomAction(what, body, button = null) {
    if (button) button.disabled = true; // one press, one request: no "seat taken" on a double tap
    try {
      this.room = await api("POST", `/api/rooms/${this.code}/${what}`, body);
      this.draw();
    } catch (err) {
      toast(err.message);
    } finally {
      if (button) button.disabled = false;
    }
  }

  async takeSeat() {
    try {
      this.room = await api("POST", `/api/rooms/${this.code}/join`, {});
      this.reseatFor = this.mySeat();
      this.draw();
      this.reconnectNow(); // the server learns my seat when the socket opens
    } catch (err) {
      toast(err.message);
    }
  }

  /** Take my seat back from the bot that played it while I was away. */
  async reclaim(button) {
    await this.roomAction("reclaim", {}, button);
    if (this.mySeat() === null) return;
    this.reseatFor = this.mySeat();
    this.reconnectNow(); // the server counts my seat's socket again
  }

  async leaveSeat() {
    try {
      this.room = await api("POST", `/api/rooms/${this.code}/leave`);
      this.draw();
      this.reconnectNow();
    } catch (err) {
      toast(err.message);
    }
  }
}

function formatScore(score) {
  return Number.isInteger(score) ? String(score) : score.toFixed(1);
}

/** "1 pt", "5 pts", "2.5 pts". */
function scoreText(score) {
  return `${formatScore(score)} ${score === 1 ? "pt" : "pts"}`;
}
