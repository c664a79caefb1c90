// The replay page at /r/<code>/replay: a finished game stepped through move by move, drawn by
// the game's own renderer, from the seat the viewer picks. `?admin=1` (signed in at /admin)
// replays any room that has started, at any version. `?seat=N&v=K` open a seat and a version.

import { api, ApiError, me } from "./api.js";
import { heldAt } from "./absence.js";
import { adminApi, adminSession } from "./admin-api.js";
import { loadRenderer } from "./renderers.js";
import { h, replace, toast } from "./ui.js";

const AUTOPLAY_MS = 900;
const root = document.getElementById("app");
const code = decodeURIComponent(location.pathname.match(/^\/r\/([^/]+)\/replay/)[1]);
const params = new URLSearchParams(location.search);
const asAdmin = params.get("admin") === "1" && adminSession() !== null;

const page = { data: null, seat: null, index: 0, renderer: null, local: {}, timer: null };

function fetchReplay(seat) {
  const query = seat === null ? "" : `?seat=${seat}`;
  return asAdmin ? adminApi("GET", `/rooms/${encodeURIComponent(code)}/replay${query}`)
    : api("GET", `/api/rooms/${encodeURIComponent(code)}/replay${query}`);
}

function name(seat) {
  const s = page.data?.room.seats[seat];
  if (!s) return `Seat ${seat + 1}`;
  if (s.player) return s.player.name;
  if (s.bot) return s.replaced ? `Bot for ${s.replaced.name}` : `Bot ${seat + 1}`;
  return `Seat ${seat + 1}`;
}

/** "Seat 2" in rule texts as names; `names` overrides seats (the mover as the seat was held then). */
function words(text, names = {}) {
  return String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => {
    const seat = Number(n) - 1;
    if (names[seat]) return names[seat];
    return page.data?.room.seats[seat] ? name(seat) : whole;
  });
}

function frame() {
  return page.data.frames[page.index];
}

function ctx() {
  const f = frame();
  const room = page.data.room;
  const player = me();
  return {
    seat: page.seat, legalMoves: [], toAct: f.to_act, myTurn: false,
    players: room.seats.map((s) => ({
      seat: s.seat, name: name(s.seat), bot: s.bot, connected: true, host: s.player?.id === room.host,
      you: Boolean(player && s.player?.id === player.id), empty: !s.player && !s.bot })),
    replay: true, // renderers: nobody here may act, "you" included; name every seat to act
    play: () => Promise.reject(new Error("This is a replay.")),
    status: f.outcome ? "finished" : "active", version: f.version, outcome: f.outcome,
    options: room.options, events: f.events, pending: false, local: page.local,
    rerender: () => drawBoard(), name, words,
  };
}

/** Load every frame as `seat` saw it, keeping the version being looked at. */
async function load(seat, version) {
  stop();
  try {
    page.data = await fetchReplay(seat);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return closed(err.message);
    toast(err.message);
    return;
  }
  page.seat = seat;
  const last = page.data.frames.length - 1;
  page.index = Math.max(0, Math.min(last, version ?? last));
  page.renderer ??= await loadRenderer(page.data.room.game);
  skeleton();
  draw();
}

function closed(message) {
  replace(root, bar(), h("main", { class: "admin-main" }, h("section", { class: "card", "data-testid": "replay-closed" },
    h("h1", {}, "No replay yet"), h("p", {}, message),
    h("a", { class: "btn primary", href: `/r/${encodeURIComponent(code)}` }, "Back to the room"))));
}

function bar() {
  return h("header", { class: "topbar" },
    h("a", { class: "brand", href: "/" }, h("span", { class: "brand-mark", "aria-hidden": "true" }), "Ziggurat"),
    h("div", { class: "room-title" }, h("span", { class: "room-game-title" }, "Replay"),
      h("a", { class: "code-chip", href: `/r/${encodeURIComponent(code)}` }, code),
      asAdmin ? h("a", { class: "btn small ghost", href: `/admin#room=${encodeURIComponent(code)}`, "data-testid": "back-to-admin" },
        "← Admin console") : null));
}

const els = {};

function skeleton() {
  if (els.board && root.contains(els.board)) return;
  els.step = h("span", { class: "replay-step", "data-testid": "replay-step", "aria-live": "polite" });
  els.slider = h("input", { type: "range", min: 0, step: 1, "aria-label": "Version", "data-testid": "replay-slider",
                            oninput: () => go(Number(els.slider.value)) });
  els.play = h("button", { class: "btn small", "data-testid": "replay-play", onclick: () => (page.timer ? stop() : play()) });
  els.seats = h("div", { class: "row seat-picker", role: "group", "aria-label": "Whose view" });
  els.board = h("section", { class: "board replay-board", "data-testid": "board", "aria-label": "Board" });
  els.move = h("section", { class: "card", "data-testid": "replay-move", "aria-label": "This move" });
  els.players = h("section", { class: "card", "aria-label": "Players" });
  els.problem = h("p", { class: "hint", role: "status" });
  const button = (label, testid, aria, fn) => h("button", { class: "btn small", "data-testid": testid, "aria-label": aria, onclick: fn }, label);
  replace(root, bar(), h("main", { class: "replay" },
    h("section", { class: "card replay-controls" },
      h("div", { class: "row" },
        button("«", "replay-first", "First version", () => go(0)),
        button("◀", "replay-prev", "Previous move", () => go(page.index - 1)),
        els.play,
        button("▶", "replay-next", "Next move", () => go(page.index + 1)),
        button("»", "replay-last", "Last version", () => go(page.data.frames.length - 1)),
        els.slider, els.step),
      h("div", { class: "row" }, h("span", { class: "hint" }, "Seen by:"), els.seats),
      els.problem),
    els.board,
    h("aside", { class: "replay-side" }, els.move, els.players)));
}

function go(index) {
  const last = page.data.frames.length - 1;
  const next = Math.max(0, Math.min(last, index));
  if (next === page.index) return;
  page.index = next;
  draw();
}

function play() {
  if (page.index >= page.data.frames.length - 1) page.index = 0;
  page.timer = setInterval(() => {
    if (page.index >= page.data.frames.length - 1) return stop();
    go(page.index + 1);
  }, AUTOPLAY_MS);
  draw();
}

function stop() {
  clearInterval(page.timer);
  page.timer = null;
  if (els.play) replace(els.play, "▷ Play");
}

function drawBoard() {
  try {
    page.renderer.render(els.board, frame().view, ctx());
    // A replay takes no moves: a renderer's own controls (a tile to pick, Rotate, a bonus piece)
    // are drawn as what they are here, not usable.
    for (const control of els.board.querySelectorAll("button, input, select")) control.disabled = true;
  } catch (err) {
    console.error(err);
    replace(els.board, h("p", { class: "empty" }, `This board could not be drawn: ${err.message}`));
  }
}

function draw() {
  const f = frame();
  const frames = page.data.frames;
  const c = ctx();
  Object.assign(root.dataset, { version: String(f.version), viewSeat: page.seat === null ? "" : String(page.seat),
                                last: String(frames[frames.length - 1].version) });
  els.slider.max = String(frames.length - 1);
  els.slider.value = String(page.index);
  replace(els.step, `Version ${f.version} of ${frames[frames.length - 1].version}`);
  replace(els.play, page.timer ? "❚❚ Pause" : "▷ Play");
  replace(els.seats, [null, ...page.data.room.seats.map((s) => s.seat)].map((seat) =>
    h("button", { class: "btn small", "aria-pressed": String(seat === page.seat), "data-testid": "view-seat",
                  "data-seat": seat === null ? "" : seat, "data-key": `seat-${seat}`,
                  onclick: () => seat !== page.seat && load(seat, page.index) },
      seat === null ? "Spectator" : name(seat))));
  replace(els.problem, page.data.error || "");
  drawBoard();
  const over = f.outcome;
  // Who made this move, as the seat was held then (`by` when the server recorded it, else the
  // room's handovers).
  const held = f.seat === null ? null : f.by || heldAt(page.data.room.handovers, f.seat, f.version);
  const mover = f.seat === null ? null : held?.name || name(f.seat);
  const own = f.seat === null ? {} : { [f.seat]: mover };
  replace(els.move, h("h2", { class: "panel-title" }, f.version === 0 ? "The deal" : `Move ${f.version}`),
    f.seat === null ? h("p", {}, words(f.text)) : null,
    f.seat !== null ? h("p", { "data-testid": "replay-text" }, `${mover} ${words(f.text, own)}.`,
      held?.bot ? h("span", { class: "tag bot" }, "bot") : null) : null,
    f.events.length ? h("ul", { class: "replay-events", "data-testid": "replay-events" }, f.events.map((e) =>
      h("li", { class: e.to ? "private" : "" }, words(e.text, own), e.to ? h("span", { class: "tag" }, `only ${e.to.map(name).join(", ")}`) : null))) : null,
    over ? h("div", { "data-testid": "replay-outcome" }, h("h3", {}, over.winners.length ? `${over.winners.map(name).join(" and ")} win${over.winners.length > 1 ? "" : "s"}` : "Game over"),
      over.reason ? h("p", { class: "hint" }, words(over.reason)) : null) : null);
  const scores = Array.isArray(f.view?.scores) && f.view.scores.every((x) => typeof x === "number") ? f.view.scores : null;
  replace(els.players, h("h2", { class: "panel-title" }, "Players"),
    h("ol", { class: "seats" }, c.players.map((p) => {
      const acting = f.to_act.includes(p.seat);
      let badge = null;
      try {
        badge = page.renderer.playerBadge?.(f.view, p.seat, c) ?? null;
      } catch {
        badge = null;
      }
      return h("li", { class: `seat-row${acting ? " acting" : ""}`, "data-seat": p.seat },
        h("span", { class: "turn-mark", "aria-hidden": "true" }, acting ? "▶" : ""),
        h("span", { class: "who" }, h("span", { class: "seat-name" }, p.name), p.bot ? h("span", { class: "tag bot" }, "bot") : null,
          over ? h("span", { class: "tag" }, `${over.scores[p.seat]} pts`) : null),
        // The running score, as the table showed it at this move (a view's `scores`).
        scores && !over ? h("span", { class: "seat-score", "data-testid": "replay-score", "data-seat": p.seat },
          `${scores[p.seat] ?? 0} ${scores[p.seat] === 1 ? "pt" : "pts"}`) : null,
        h("span", { class: "seat-badge" }, badge));
    })));
  const url = new URL(location.href);
  url.searchParams.set("v", String(f.version));
  if (page.seat === null) url.searchParams.delete("seat"); else url.searchParams.set("seat", String(page.seat));
  history.replaceState({}, "", url);
}

document.addEventListener("keydown", (event) => {
  if (!page.data || event.target.closest?.("input, textarea, select")) return;
  if (event.key === "ArrowRight") go(page.index + 1);
  if (event.key === "ArrowLeft") go(page.index - 1);
});

/** Whose view to open with: ?seat=, else the viewer's own seat, else a spectator's. */
async function start() {
  const raw = params.get("seat");
  let seat = raw !== null && raw !== "" ? Number(raw) : null;
  if (seat === null && !asAdmin && me()) {
    try {
      const room = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
      seat = room.seats.find((s) => s.player?.id === me().id)?.seat ?? null;
    } catch {
      seat = null;
    }
  }
  const v = params.get("v");
  await load(seat, v === null ? null : Number(v));
}

start();
