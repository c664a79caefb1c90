// Lucent (gem-pyramid): the pyramid over the Focus Gem, your hand, and the legal places to play.
// Renderer interface: see README.md in this folder.

import { h, replace, toast } from "/static/ui.js";

/** Every gem kind: a hue AND a symbol, so colours can be told apart without colour vision. */
export const GEMS = {
  red: { symbol: "▲", label: "red" },
  blue: { symbol: "●", label: "blue" },
  green: { symbol: "♣", label: "green" },
  yellow: { symbol: "★", label: "yellow" },
  purple: { symbol: "◆", label: "purple" },
  wild: { symbol: "✱", label: "Wildcard" },
  geomancer: { symbol: "⬢", label: "Geomancer" },
};
const ORDER = Object.keys(GEMS);

function gem(kind, extra = "") {
  const info = GEMS[kind] || { symbol: "?", label: kind };
  return h("span", { class: `gem gem-${kind} ${extra}`, "data-gem": kind, role: "img",
                     "aria-label": `${info.label} gem` }, h("span", { "aria-hidden": "true" }, info.symbol));
}

function rowName(row) {
  return row === 0 ? "the base row" : `row ${row + 1}`;
}

function gemsWord(n) {
  return `${n} gem${n === 1 ? "" : "s"}`;
}

/** Name a gem for static/motion.js: it keeps `name` across redraws; a new one comes `from` the
 *  piece of that name (the hand's gem of its kind), or drops in ("drop"). */
function pieceOf(el, name, from = null) {
  el.dataset.piece = name;
  if (from) el.dataset.pieceFrom = from;
  return el;
}

/** The last placement of this game: the view's `last` (there after a reload too), else this
 *  state's events (a server from before `last` existed). */
function lastPlaced(view, events) {
  if (view.last) return view.last;
  if (view.last === null) return null; // a fresh pyramid: the events are the old game's
  for (let i = events.length - 1; i >= 0; i--) {
    const data = events[i].data;
    if (data && Number.isInteger(data.row) && Number.isInteger(data.pos)) return data;
  }
  return null;
}

export default {
  stylesheet: "/static/games/gem-pyramid.css",

  render(container, view, ctx) {
    const local = ctx.local;
    const legal = ctx.myTurn ? ctx.legalMoves.filter((m) => m.type === "place") : [];
    const playable = new Set(legal.map((m) => m.gem));
    if (local.selected && !playable.has(local.selected)) local.selected = null;
    if (!local.selected && playable.size === 1) local.selected = [...playable][0];
    const targets = new Map(legal.filter((m) => m.gem === local.selected).map((m) => [`${m.row}:${m.pos}`, m]));
    const openAny = new Set(legal.map((m) => `${m.row}:${m.pos}`));
    if (local.gameNo !== undefined && view.game_no > local.gameNo) {
      toast(`Game ${view.game_no} of ${view.games} is dealt: a fresh pyramid, fresh hands.`, "info");
    }
    local.gameNo = view.game_no;
    const last = lastPlaced(view, ctx.events);
    const fresh = local.shownVersion !== undefined && local.shownVersion !== ctx.version;
    local.shownVersion = ctx.version; // animate a new gem once, not on every redraw

    const play = (move) => {
      local.selected = null; // the next turn starts from a clean hand, whatever the answer
      ctx.play(move).catch(() => {});
    };

    const pyramid = h("div", { class: "pyramid", "data-testid": "pyramid", role: "group",
                               "aria-label": "The pyramid; the base row is at the bottom" });
    for (let row = view.rows.length - 1; row >= 0; row--) {
      const line = h("div", { class: "prow", "data-row": row });
      view.rows[row].forEach((kind, pos) => {
        const key = `${row}:${pos}`;
        const isFocus = row === view.focus.row && pos === view.focus.pos;
        const isLast = last && last.row === row && last.pos === pos;
        const classes = ["slot", isFocus ? "focus" : "", isLast ? "last" : "", isLast && fresh ? "fresh" : ""];
        const target = targets.get(key);
        if (kind) {
          const who = isLast && Number.isInteger(last.seat) ? ctx.name(last.seat) : null;
          line.append(h("div", { class: [...classes, "filled"].join(" "), "data-row": row, "data-pos": pos,
                                 "data-testid": "slot", "data-last": isLast ? "true" : null,
                                 title: who ? `Last move: ${who} placed this ${GEMS[kind]?.label || kind} gem` : null },
            pieceOf(gem(kind), `gem:${key}`, isLast ? (last.seat === ctx.seat ? `hand:${kind}` : "drop") : null),
            isLast ? h("span", { class: "sr-only" }, who ? ` (last placed, by ${who})` : " (last placed)") : null));
        } else if (target) {
          line.append(h("button", {
            class: [...classes, "target", `tint-${target.gem}`].join(" "), "data-row": row, "data-pos": pos,
            "data-testid": "slot", "data-legal": "true", "data-key": `slot-${key}`,
            "aria-label": `Place your ${GEMS[target.gem]?.label || target.gem} gem on ${rowName(row)}, slot ${pos + 1}`,
            onclick: () => play(target),
          }, h("span", { class: "ghost", "aria-hidden": "true" }, GEMS[target.gem]?.symbol || "?")));
        } else {
          line.append(h("div", { class: [...classes, "empty", openAny.has(key) ? "open" : ""].join(" "),
                                 "data-row": row, "data-pos": pos, "data-testid": "slot" },
            isFocus ? h("span", { class: "focus-label" }, "Focus") : null));
        }
      });
      pyramid.append(line);
    }

    const parts = [];
    if (view.games > 1 || view.scored) {
      parts.push(h("p", { class: "lucent-series" },
        view.games > 1 ? `Game ${view.game_no} of ${view.games}` : "Scored game",
        view.scored ? " · a point for emptying your hand and for placing the last gem" : "",
        view.scored && ctx.options.geomancer ? ", and one more for a Geomancer played as your last card" : ""));
    }
    parts.push(h("div", { class: "pyramid-wrap" }, pyramid));
    parts.push(this.prompt(view, ctx, local, playable));
    if (last && Number.isInteger(last.seat) && last.gem) {
      parts.push(h("p", { class: "hint lucent-last", "data-testid": "lucent-last-move" }, "Last move: ",
        last.seat === ctx.seat ? "you" : ctx.name(last.seat), " placed ", gem(last.gem, "small"),
        ` ${GEMS[last.gem]?.label || last.gem} on ${rowName(last.row)}, slot ${last.pos + 1} (outlined).`));
    }
    if (view.hand) parts.push(this.hand(view, ctx, local, playable, pyramid));
    parts.push(legend(view, ctx));
    replace(container, h("div", { class: "lucent", onkeydown: (event) => {
      if (event.key === "Escape" && local.selected) { // put the gem back; focus returns to the hand
        const kind = local.selected;
        local.selected = null;
        ctx.rerender();
        container.querySelector(`[data-key="hand-${kind}"]`)?.focus();
      }
    } }, parts));
  },

  prompt(view, ctx, local, playable) {
    let text;
    if (ctx.status !== "active") text = ctx.status === "finished" ? "The game is over." : "";
    else if (ctx.pending) text = "Placing…";
    else if (ctx.myTurn && local.selected) text = `Now pick a glowing slot for your ${GEMS[local.selected].label} gem.`;
    else if (ctx.myTurn) text = "Your turn: pick a gem from your hand.";
    else if (ctx.seat !== null && view.out[ctx.seat]) text = "You are out of this game; watch how it ends.";
    else if (ctx.seat === null) text = `${ctx.name(view.turn)} is placing a gem. Hands are hidden from watchers.`;
    else text = `${ctx.name(view.turn)} is placing a gem…`;
    return h("p", { class: `prompt${ctx.myTurn ? " mine" : ""}`, "data-testid": "prompt" }, text,
      ctx.myTurn && playable.size === 0 ? " (no legal play)" : "");
  },

  hand(view, ctx, local, playable, pyramid) {
    const kinds = ORDER.filter((k) => (view.hand[k] || 0) > 0);
    const choose = (kind) => (event) => {
      local.selected = kind;
      ctx.rerender();
      if (event.detail === 0) { // chosen by keyboard: jump to the first place it can go
        document.querySelector(".pyramid .slot.target")?.focus();
      }
    };
    return h("div", { class: "hand", "aria-label": "Your hand" },
      h("h3", { class: "hand-title" }, "Your hand", h("span", { class: "count" }, gemsWord(kinds.reduce((n, k) => n + view.hand[k], 0)))),
      kinds.length ? h("div", { class: "hand-gems" }, kinds.map((kind) => {
        const can = ctx.myTurn && playable.has(kind);
        return h("button", {
          class: `hand-gem${local.selected === kind && can ? " selected" : ""}`, "data-testid": "hand-gem",
          "data-kind": kind, "data-key": `hand-${kind}`, disabled: !can,
          "aria-pressed": String(local.selected === kind && can),
          title: ctx.myTurn && !can ? "No legal place for this gem right now" : `${GEMS[kind].label} gem`,
          onclick: choose(kind),
        }, pieceOf(gem(kind), `hand:${kind}`), h("span", { class: "hand-count" }, `×${view.hand[kind]}`),
        h("span", { class: "sr-only" }, ` ${GEMS[kind].label}`));
      })) : h("p", { class: "hint" }, "Your hand is empty."));
  },

  /** Where a move is clicked (tutorials and hints mark these): its gem in the hand, then its slot. */
  targets(move) {
    if (move.type !== "place") return [];
    return [`[data-testid="hand-gem"][data-kind="${move.gem}"]`, `.slot[data-row="${move.row}"][data-pos="${move.pos}"]`];
  },

  playerBadge(view, seat) {
    const bits = [gemsWord(view.hand_sizes[seat])];
    if (view.out[seat]) bits.push("out");
    // Points show beside the name from the view's `scores` (the room's players panel).
    if (view.scored && !Array.isArray(view.scores)) bits.push(`${view.points[seat]} pt${view.points[seat] === 1 ? "" : "s"}`);
    return bits.join(" · ");
  },
};

function legend(view, ctx) {
  const kinds = [...view.colours];
  if (ctx.options.wildcard) kinds.push("wild");
  if (ctx.options.geomancer || ctx.options.geomancer_focus) kinds.push("geomancer");
  return h("details", { class: "legend" },
    h("summary", {}, "How to play"),
    h("ul", { class: "legend-gems" }, kinds.map((k) => h("li", {}, gem(k, "small"), GEMS[k].label))),
    h("p", {}, "The first gem goes on the Focus spot in the middle of the base row. Base-row gems go next to a gem already there. "
      + "A gem on a higher row rests on two gems and must match the colour of one of them (wild gems match anything). "
      + "If you cannot play, you are out. Whoever places the last gem wins"
      + (view.scored ? " a point; the most points win." : ".")));
}
