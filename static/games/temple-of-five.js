// Temple of Five: your pyramid seen from above beside the five open blessing cards, one prompt
// for the step you are in, the private draft, and the other pyramids below.
import { h, plural, replace } from "/static/ui.js";

const CSS_HREF = "/static/games/temple-of-five.css";
const SYMBOL = { red: "▲", yellow: "★", green: "●", blue: "■", white: "◆" };
// Each seat's priests: a colour no god uses and a symbol of their own (colour is never alone).
const SEAT_SYMBOL = ["✚", "✖", "♥", "♣"];
// The view names the gods as the book does (view.god_names); this is only a fallback.
const GOD = { red: "God of Fire", yellow: "God of Hunting", green: "God of Vegetation",
              blue: "God of Water", white: "Supreme God" };
const godName = (view, god) => (view.god_names && view.god_names[god]) || GOD[god];
const SLOTS = {
  1: [0, 1, 2].flatMap((j) => [0, 1, 2].map((i) => [1 + 2 * i, 1 + 2 * j])),
  2: [0, 1].flatMap((j) => [0, 1].map((i) => [2 + 2 * i, 2 + 2 * j])),
  3: [[3, 3]],
};
const OFFSETS = [[0, 0], [1, 0], [1, 1], [0, 1]]; // a tile's faces, clockwise from top-left
const EFFECTS = { reuse: "reuse a chain holding your priest", bonus2: "draw two ◇2 pieces",
                  three: "use 3 chains this turn", private: "a private blessing card" };

function faces(tile) { return Array.isArray(tile) ? tile : tile.faces; }
function rotated(f, r) { return r ? [...f.slice(4 - r), ...f.slice(0, 4 - r)] : [...f]; }
const n = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

function miniTile(f, label) {
  const order = [0, 1, 3, 2]; // grid order: top-left, top-right, bottom-left, bottom-right
  return h("span", { class: "tof-mini", role: "img", "aria-label": label },
    order.map((k) => h("span", { class: `tof-msp tof-${f[k] || "empty"}` }, f[k] ? SYMBOL[f[k]] : "")));
}

function tileText(f) {
  const named = f.filter(Boolean);
  return named.length ? named.join(", ") : "no decoration";
}

function priestToken(ctx, seat, extra = "", piece = null) {
  return h("span", { class: `tof-priest tof-seat${seat}${extra}`, title: `priest of ${ctx.name(seat)}`,
                     "data-piece": piece, "data-piece-from": piece ? `priests:${seat}` : null },
    SEAT_SYMBOL[seat]);
}

/** Name an element for static/motion.js (it keeps the name across redraws). */
function pieceAs(el, name, from = null) {
  el.dataset.piece = name;
  if (from) el.dataset.pieceFrom = from;
  return el;
}

/** A tile's name for static/motion.js: its faces and effect (twins are never animated). */
function tilePiece(tile) {
  return `tile:${faces(tile).map((f) => f || "-").join(".")}${tile.effect ? `:${tile.effect}` : ""}`;
}

/** Every chain on a board seen from above: [{cells: ["x,y", …], colour}] (2+ spaces). */
function chainsOf(top) {
  const seen = new Set();
  const out = [];
  for (let y = 0; y < 8; y += 1) {
    for (let x = 0; x < 8; x += 1) {
      const colour = top[y][x][1];
      if (!colour || seen.has(`${x},${y}`)) continue;
      const group = [`${x},${y}`];
      const stack = [[x, y]];
      seen.add(`${x},${y}`);
      while (stack.length) {
        const [cx, cy] = stack.pop();
        for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]]) {
          const key = `${nx},${ny}`;
          if (nx < 0 || ny < 0 || nx > 7 || ny > 7 || seen.has(key) || top[ny][nx][1] !== colour) continue;
          seen.add(key); group.push(key); stack.push([nx, ny]);
        }
      }
      if (group.length >= 2) out.push({ cells: group, colour });
    }
  }
  return out;
}

function slotOf(level, x, y) {
  return SLOTS[level].findIndex(([sx, sy]) => x >= sx && x <= sx + 1 && y >= sy && y <= sy + 1);
}

function slotCells(level, slot) {
  const [x0, y0] = SLOTS[level][slot];
  return OFFSETS.map(([dx, dy]) => [x0 + dx, y0 + dy]);
}

/** Who holds a card now: most priests, a tie to the leftmost among the tied (the book's rule). */
function majority(priests) {
  const placed = priests.filter((p) => p !== null);
  if (!placed.length) return null;
  const count = (s) => placed.filter((p) => p === s).length;
  const best = Math.max(...placed.map(count));
  const seat = placed.find((p) => count(p) === best);
  const tied = new Set(placed.filter((p) => count(p) === best)).size > 1;
  return { seat, count: best, tied };
}

function cardsFor(view, me, colour) {
  const out = Object.entries(view.open).filter(([, c]) => c && (c.god === "white" || c.god === colour));
  if (me.private && (me.private.god === "white" || me.private.god === colour)) out.push(["private", me.private]);
  return out;
}

/** Why a chain is not offered this turn, or null when it is. */
function chainReason(view, me, chain, offered) {
  if (offered) return null;
  const limit = me.effect === "three" ? 3 : 2;
  if (me.used >= limit) return `you have used ${limit} chains this turn`;
  if (me.priests < 2) return `a chain needs 2 priests in reserve (you have ${me.priests})`;
  const mine = new Set(me.chains.map(([x, y]) => `${x},${y}`));
  if (chain.cells.some((c) => mine.has(c))) return "your priest already stands on it";
  const cards = cardsFor(view, me, chain.colour);
  if (!cards.length) return "no open card of its colour or of the Supreme God";
  return "every free cell on its god's card and the Supreme God's needs a longer chain";
}

export default {
  stylesheet: CSS_HREF,

  /** Where a move is clicked (tutorials and hints mark these), in click order: a tile, its
   *  turns and its slot (a finger taps the slot twice, or "Place here"); a chain's space twice
   *  (show the chain, then stand on it); a card's cells, then "Place"; and so on. */
  targets(move, view) {
    const space = ([x, y]) => `[data-testid="tof-sp-${x}-${y}"]`;
    switch (move.type) {
      case "assign": return [`[data-key="assign-${move.tile}-${move.to}"]`];
      case "place": {
        const at = SLOTS[view.level]?.[move.slot];
        return [`[data-testid="tof-pick-${move.tile}"]`, ...Array(move.rot).fill('[data-testid="tof-rotate"]'),
          ...(at ? [space(at), '[data-testid="tof-place-here"]'] : [])];
      }
      case "blank": return [`[data-testid="tof-pick-${move.tile}"]`, '[data-key="blank"]'];
      case "chain": return [space([move.x, move.y]), space([move.x, move.y])];
      case "occupy": return [...move.cells.map((i) => `[data-testid="tof-cell-${move.card}-${i}"]`), '[data-testid="tof-occupy"]'];
      case "bonus": return [`[data-key="piece-${move.piece}"]`, ...move.cells.map(space)];
      case "pass": return ['[data-testid="tof-pass"]'];
      case "goal": return [`[data-key="goal-${move.side}"]`];
      case "private": return [`[data-key="private-${move.god}"]`];
      default: return [];
    }
  },

  render(container, view, ctx) {
    const L = ctx.local;
    L.rot = L.rot || 0;
    this._ctx = ctx;
    this.installKeys();
    const me = ctx.seat === null ? null : view.seats[ctx.seat];
    this.syncSelection(view, me, ctx);
    const last = this.lastMove(view, ctx);
    replace(container, h("div", { class: "tof", "data-testid": "tof-board" },
      h("div", { class: "tof-top" },
        h("p", { class: "tof-status", "data-testid": "tof-status" }, this.status(view, ctx)),
        this.prompt(view, me, ctx)),
      h("div", { class: `tof-main${me ? "" : " tof-watching"}` },
        me ? h("div", { class: "tof-left" },
          this.pyramid(view, ctx.seat, ctx, true, last),
          this.controls(view, me, ctx)) : null,
        h("div", { class: "tof-right" },
          this.cards(view, ctx, last),
          this.privateChoice(view, ctx),
          this.goalChoice(view, ctx))),
      h("div", { class: "tof-others" }, view.seats.map((_, s) => s === ctx.seat ? null
        : this.pyramid(view, s, ctx, false, last)))));
  },

  /** The latest move worth marking: the view's `last` (there after a reload too), else the
   *  events of the last push (a server from before `last` existed). */
  lastMove(view, ctx) {
    if (view.last !== undefined) return view.last;
    const marked = (ctx.events || []).map((e) => e.data).filter((d) => d && d.kind);
    return marked.length ? marked[marked.length - 1] : null;
  },

  /** Partial choices survive only while they still make sense: a placement clears the tile
   *  choice (it never moves to another tile by itself), a new step clears everything. */
  syncSelection(view, me, ctx) {
    const L = ctx.local;
    const step = `${view.round}:${view.phase}:${view.turn}`;
    if (L.step !== step) {
      Object.assign(L, { step, tile: null, preview: null, hover: null, chain: null, card: null, cells: [],
                         piece: null, bcells: [] });
    }
    const placing = (me && me.placing) || [];
    if (L.placingCount !== placing.length) {
      L.placingCount = placing.length;
      L.tile = placing.length === 1 ? 0 : null;
      L.preview = null;
      L.hover = null;
    }
    if (me && me.pending === null) { L.card = null; L.cells = []; }
    if (L.piece === undefined || (me && (!me.reserve || L.piece >= me.reserve.length))) { L.piece = null; L.bcells = []; }
  },

  installKeys() {
    if (this._keys) return;
    this._keys = true;
    document.addEventListener("keydown", (e) => {
      const ctx = this._ctx;
      if (!ctx || !(e.key === "r" || e.key === "R") || e.target.closest("input, textarea")) return;
      if (!ctx.legalMoves.some((m) => m.type === "place")) return;
      ctx.local.rot = ((ctx.local.rot || 0) + 1) % 4;
      ctx.rerender();
    });
  },

  status(view, ctx) {
    if (view.phase === "over") return "Game over — the temple is complete";
    const step = view.phase === "draft" ? "materials exchange (secret)"
      : view.phase === "build" ? "construction" : `priests: ${ctx.name(view.turn)}'s turn`;
    return `Round ${view.round} of ${view.rounds} · level ${view.level} · ${step} · first player: ${ctx.name(view.first)}`;
  },

  neighbours(view, ctx) {
    const count = view.players;
    const s = ctx.seat;
    return { left: ctx.name((s + 1) % count), right: ctx.name((s - 1 + count) % count) };
  },

  destLabel(view, ctx, to) {
    if (to === "keep") return "Keep";
    if (to === "discard") return "Discard";
    const { left, right } = this.neighbours(view, ctx);
    if (view.players === 2) return `Give to ${left}`;
    return to === "left" ? `Give to ${left} (left)` : `Give to ${right} (right)`;
  },

  /** One sentence (and its reasons) for the decision in front of this seat. */
  prompt(view, me, ctx) {
    const L = ctx.local;
    const moves = ctx.legalMoves;
    const lines = [];
    let main = "";
    const waiting = (what) => {
      // In a replay nobody acts, "you" neither: every seat to act is named, as the ▶ marks.
      const others = ctx.toAct.filter((s) => ctx.replay || s !== ctx.seat).map((s) => ctx.name(s));
      return others.length ? `Waiting for ${others.join(", ")} ${what}.` : "";
    };
    if (view.phase === "over") {
      main = "The game is over: see the scores.";
    } else if (!me) {
      main = view.phase === "priests" ? `${ctx.name(view.turn)} is placing priests.`
        : view.phase === "draft" ? "Everyone is passing on tiles in secret." : "Everyone is building.";
    } else if (moves.some((m) => m.type === "goal")) {
      main = "Choose the side of your ultimate goal card (kept secret until everyone has chosen).";
    } else if (view.phase === "draft") {
      const dests = [...new Set(moves.filter((m) => m.type === "assign").map((m) => m.to))];
      const chosen = Object.values(me.sent || {}).some((tiles) => tiles.length);
      if (dests.length && chosen) {
        main = `Your next tile: ${dests.map((to) => `“${this.destLabel(view, ctx, to)}”`).join(" or ")}.`;
      } else if (dests.length) {
        const level = view.level;
        const { left, right } = this.neighbours(view, ctx);
        main = level === 3 ? "Keep 1 special tile and discard the other."
          : level === 2 ? `Keep 1 tile and give 1 to ${left} (left).`
            : view.players === 2 ? `Keep 1 tile and give 2 to ${left}.`
              : `Keep 1 tile, give 1 to ${left} (left) and 1 to ${right} (right).`;
      } else main = waiting("to pass on their tiles") || "The tiles change hands…";
    } else if (view.phase === "build") {
      if (moves.some((m) => m.type === "place" || m.type === "blank")) {
        const left = me.placing.length;
        main = L.tile === null
          ? `Construction: pick one of your ${n(left, "tile")} to build.`
          : "Turn the tile (R or ⟳); point at a slot (or tap it) to see the tile there; click it (or tap again) to build." +
            (view.level === 3 ? " Or lay it face down as 4 empty spaces." : "");
      } else main = waiting("to finish building") || "";
    } else if (view.turn === ctx.seat && moves.length) {
      const limit = me.effect === "three" ? 3 : 2;
      if (me.pending) {
        const cards = cardsFor(view, me, me.pending.colour).map(([, c]) => godName(view, c.god));
        const picked = L.cells.length ? L.cells.reduce((sum, i) => sum + this.cardByKey(view, me, L.card).cells[i].n, 0) : 0;
        main = `${me.pending.colour[0].toUpperCase()}${me.pending.colour.slice(1)} chain of ${me.pending.length}: ` +
          `pick cells of one card (${cards.join(" or ")}) adding up to at most ${me.pending.length}` +
          (picked ? ` — picked ${picked}` : "") + ", then “Place priests here”.";
      } else if (L.chain) {
        const chain = chainsOf(me.top).find((c) => c.cells.includes(L.chain.join(",")));
        main = chain ? `Chain of ${chain.cells.length} (${chain.colour}): click the space of the chain where your priest stands.`
          : "Pick a chain.";
      } else {
        const chains = moves.filter((m) => m.type === "chain");
        main = `Your priest turn — chain ${me.used + 1} of ${limit}, ${n(me.priests, "priest")} in reserve. ` +
          (chains.length ? "Click a chain on your pyramid (outlined in blue)" : "No chain can be used now") +
          (moves.some((m) => m.type === "bonus") ? ", lay a bonus piece" : "") +
          ", or end your turn.";
        // The chains not offered, grouped by why: "▲2 ●2: no free cell of 2 or less …".
        const offered = new Set(chains.map((m) => `${m.x},${m.y}`));
        const byReason = new Map();
        for (const chain of chainsOf(me.top)) {
          const why = chainReason(view, me, chain, chain.cells.some((c) => offered.has(c)));
          if (why) byReason.set(why, [...(byReason.get(why) || []), `${SYMBOL[chain.colour]}${chain.cells.length}`]);
        }
        for (const [why, names] of byReason) lines.push(`Not offered ${names.join(" ")}: ${why}`);
      }
    } else if (view.phase === "priests") {
      main = `${ctx.name(view.turn)} is placing priests.`;
    }
    const pass = moves.some((m) => m.type === "pass") && !(me && me.pending)
      ? h("button", { class: "btn", "data-key": "pass", "data-legal": "true", "data-testid": "tof-pass",
        onclick: () => ctx.play({ type: "pass" }).catch(() => {}) }, "End my priest turn") : null;
    return h("div", { class: `tof-prompt${ctx.myTurn ? " tof-yours" : ""}`, "data-testid": "tof-prompt" },
      h("p", { "data-testid": L.chain && !(me && me.pending) ? "tof-chain" : null }, main), pass,
      lines.length ? h("ul", { class: "tof-reasons", "data-testid": "tof-reasons" }, lines.map((t) => h("li", {}, t))) : null);
  },

  cardByKey(view, me, key) {
    return key === "private" ? me.private : view.open[key];
  },

  cards(view, ctx, last) {
    const occupy = ctx.legalMoves.filter((m) => m.type === "occupy");
    const L = ctx.local;
    const me = ctx.seat === null ? null : view.seats[ctx.seat];
    const entries = Object.entries(view.open);
    if (me && me.private) entries.push(["private", me.private]);
    return h("div", { class: "tof-cards", "data-testid": "tof-cards" }, entries.map(([key, card]) => {
      if (!card) {
        return h("div", { class: "tof-card tof-closed", "data-testid": `tof-card-${key}` },
          `${SYMBOL[key]} ${godName(view, key)}: no cards left`);
      }
      const picked = L.card === key ? L.cells || [] : [];
      const move = occupy.find((m) => m.card === key &&
        m.cells.length === picked.length && m.cells.every((c) => picked.includes(c)));
      const lead = majority(card.priests);
      const pickedSum = picked.reduce((sum, i) => sum + card.cells[i].n, 0);
      let why = null;
      if (me && me.pending && !occupy.some((m) => m.card === key)) {
        why = card.god !== "white" && card.god !== me.pending.colour
          ? `not for a ${me.pending.colour} chain`
          : `no free cell of ${me.pending.length} or less`;
      }
      const fresh = last && last.kind === "occupy" && last.card === card.id ? last.cells : [];
      return h("div", { class: `tof-card tof-god-${card.god}${why ? " tof-dim" : ""}`, "data-testid": `tof-card-${key}` },
        h("div", { class: "tof-card-head" },
          h("span", { class: "tof-card-name" }, `${SYMBOL[card.god]} ${key === "private" ? "Your private card" : godName(view, card.god)}`),
          h("span", { class: "tof-pts", title: "minimal chain to fill it at once · points won / points unfinished · cards left in the deck" },
            `min ${card.min} · ${card.big}/${card.small} pts · ${view.decks[card.god] ?? 0} left`)),
        h("div", { class: "tof-cells" }, card.cells.map((cell, i) => {
          const priest = card.priests[i];
          const can = occupy.some((m) => m.card === key && m.cells.includes(i));
          return h("button", {
            class: `tof-cell${picked.includes(i) ? " tof-picked" : ""}${priest !== null ? " tof-taken" : ""}` +
              (fresh.includes(i) ? " tof-last" : ""),
            disabled: !can, "data-key": `cell-${key}-${i}`, "data-legal": can ? "true" : null,
            "data-testid": `tof-cell-${key}-${i}`, "data-priest": priest === null ? null : String(priest),
            "aria-label": `cell ${cell.n}${cell.bonus ? `, ${cell.bonus}-space bonus` : ""}` +
              (priest !== null ? `, priest of ${ctx.name(priest)}` : ", free"),
            onclick: () => {
              if (L.card !== key) { L.card = key; L.cells = []; }
              L.cells = L.cells.includes(i) ? L.cells.filter((c) => c !== i) : [...L.cells, i];
              ctx.rerender();
            },
          }, h("b", {}, String(cell.n)), cell.bonus ? h("small", { class: "tof-bonus" }, `◇${cell.bonus}`) : null,
          priest !== null ? priestToken(ctx, priest, "", `priest:${key}:${i}`) : null);
        })),
        h("div", { class: "tof-card-foot" },
          h("span", { class: "tof-majority", "data-testid": `tof-majority-${key}` }, lead
            ? [priestToken(ctx, lead.seat, " tof-small"), ` ${ctx.name(lead.seat)} leads with ${lead.count}` +
              (lead.tied ? " (tie: leftmost priest)" : "")]
            : "No priests yet"),
          why ? h("span", { class: "tof-why" }, why) : null,
          picked.length && !move ? h("span", { class: "tof-why" }, `${pickedSum} is more than the chain allows`) : null,
          move ? h("button", { class: "btn primary small", "data-key": `occupy-${key}`, "data-legal": "true",
            "data-testid": "tof-occupy", onclick: () => { L.card = null; L.cells = [];
              ctx.play(move).catch(() => {}); } }, `Place ${n(picked.length, "priest")} here (${pickedSum})`) : null));
    }));
  },

  goalChoice(view, ctx) {
    const sides = ctx.legalMoves.filter((m) => m.type === "goal");
    const mine = ctx.seat !== null && view.seats[ctx.seat].goal;
    if (!view.goals || (!sides.length && !mine)) return null;
    const text = (side) => `Side ${side}: ${view.goals[side].join("; ")}`;
    if (!sides.length) return h("p", { class: "tof-goal", "data-testid": "tof-goal" }, `Your ultimate goal — ${text(mine)}`);
    return h("div", { class: "tof-panel", "data-testid": "tof-goal-choice" },
      sides.map((m) => h("button", { class: "btn", "data-key": `goal-${m.side}`, "data-legal": "true",
        onclick: () => ctx.play(m).catch(() => {}) }, text(m.side))));
  },

  privateChoice(view, ctx) {
    const takes = ctx.legalMoves.filter((m) => m.type === "private");
    if (!takes.length) return null;
    return h("div", { class: "tof-panel", "data-testid": "tof-private-choice" },
      h("p", {}, "Your effect tile: take the top card of a deck as a private card only you may fill:"),
      takes.map((m) => h("button", { class: "btn", "data-key": `private-${m.god}`, "data-legal": "true",
        onclick: () => ctx.play(m).catch(() => {}) }, `${SYMBOL[m.god]} ${godName(view, m.god)}`)));
  },

  /** The draft, the tiles to build and the bonus reserve: what is in your hands. */
  controls(view, me, ctx) {
    const L = ctx.local;
    const assigns = ctx.legalMoves.filter((m) => m.type === "assign");
    const blanks = ctx.legalMoves.filter((m) => m.type === "blank");
    const parts = [];
    const sent = me.sent || {};
    const chosen = ["keep", "left", "right", "discard"].flatMap((to) => (sent[to] || []).map((tile) =>
      h("div", { class: "tof-handtile tof-chosen", "data-testid": `tof-sent-${to}`, title: "already chosen",
                 "data-piece": tilePiece(tile) },
        miniTile(faces(tile), `${this.destLabel(view, ctx, to)}: ${tileText(faces(tile))}`),
        h("small", {}, to === "keep" ? "kept" : to === "discard" ? "discarded" : this.destLabel(view, ctx, to).replace(/^Give to /, "to ")))));
    if ((me.hand && me.hand.length) || chosen.length) {
      parts.push(h("div", { class: "tof-panel", "data-testid": "tof-hand" },
        h("p", { class: "tof-label" }, me.hand && me.hand.length ? "Your draw (only you see it)" : "Your choices"),
        h("div", { class: "tof-row" }, (me.hand || []).map((tile, t) =>
          h("div", { class: "tof-handtile tof-draft", "data-piece": tilePiece(tile) },
            h("div", { class: "tof-draft-tile" }, miniTile(faces(tile), `drawn tile: ${tileText(faces(tile))}`),
              tile.effect ? h("small", {}, EFFECTS[tile.effect] || tile.effect) : null),
            h("div", { class: "tof-draft-buttons" }, assigns.filter((m) => m.tile === t).map((m) => h("button", {
              class: "btn small", "data-key": `assign-${t}-${m.to}`, "data-legal": "true",
              onclick: () => ctx.play(m).catch(() => {}) }, this.destLabel(view, ctx, m.to)))))),
          chosen)));
    }
    if (me.placing && me.placing.length) {
      parts.push(h("div", { class: "tof-panel", "data-testid": "tof-placing" },
        h("p", { class: "tof-label" }, "Tiles to build"),
        h("div", { class: "tof-row" }, me.placing.map((tile, t) =>
          h("button", { class: `tof-handtile${L.tile === t ? " tof-picked" : ""}`, "data-key": `pick-${t}`,
            "data-piece": tilePiece(tile),
            "data-testid": `tof-pick-${t}`, "aria-pressed": L.tile === t ? "true" : "false",
            onclick: () => { L.tile = t; L.preview = null; ctx.rerender(); } },
            miniTile(rotated(faces(tile), L.tile === t ? L.rot : 0), `tile to place: ${tileText(faces(tile))}`),
            tile.effect ? h("small", {}, EFFECTS[tile.effect] || tile.effect) : null)),
          h("button", { class: "btn small", "data-key": "rotate", "data-testid": "tof-rotate",
            onclick: () => { L.rot = (L.rot + 1) % 4; ctx.rerender(); } }, "Rotate ⟳"),
          L.preview !== null && L.tile !== null ? h("button", { class: "btn primary small", "data-key": "place-here",
            "data-testid": "tof-place-here", onclick: () => this.placeAt(ctx, L.preview) }, "Place here") : null,
          blanks.filter((m) => m.tile === L.tile).map((m) => h("button", {
            class: "btn small", "data-key": "blank", "data-legal": "true",
            onclick: () => { L.tile = null; ctx.play(m).catch(() => {}); } }, "Place face down (4 empty spaces)")))));
    }
    if (me.reserve && me.reserve.length) {
      const usable = new Set(ctx.legalMoves.filter((m) => m.type === "bonus").map((m) => m.piece));
      // The rules offer the first piece of each size and colour: a twin stands for it.
      const canon = (p) => me.reserve.findIndex((q) => q.size === p.size && q.colour === p.colour);
      parts.push(h("div", { class: "tof-panel" },
        h("p", { class: "tof-label" }, "Bonus decorations (hidden from others)" +
          (L.piece !== null && L.piece !== undefined ? ": click each empty space it should cover" : "")),
        h("div", { class: "tof-row" }, me.reserve.map((p, i) => h("button", {
          class: `tof-handtile tof-piece tof-${p.colour}${L.piece === canon(p) ? " tof-picked" : ""}`, "data-key": `piece-${i}`,
          disabled: !usable.has(canon(p)), "aria-pressed": L.piece === canon(p) ? "true" : "false",
          onclick: () => { L.piece = L.piece === canon(p) ? null : canon(p); L.bcells = []; ctx.rerender(); } },
          `${SYMBOL[p.colour]} ${p.size}-space`)))));
    }
    return parts.length ? h("div", { class: "tof-controls" }, parts) : null;
  },

  placeAt(ctx, slot) {
    const L = ctx.local;
    const move = ctx.legalMoves.find((m) => m.type === "place" && m.tile === L.tile && m.slot === slot && m.rot === L.rot);
    if (!move) return;
    L.tile = null; L.preview = null; L.rot = 0;
    ctx.play(move).catch(() => {});
  },

  /** The four spaces a slot's tile would cover, marked with the tile's faces (the ghost). */
  ghost(grid, view, tile, rot, slot, on) {
    if (!grid || tile === undefined || slot < 0) return;
    const f = rotated(faces(tile), rot);
    slotCells(view.level, slot).forEach(([x, y], k) => {
      const el = grid.querySelector(`[data-xy="${x},${y}"]`);
      if (!el) return;
      if (on) { el.dataset.ghost = f[k] || "empty"; el.dataset.ghostSym = f[k] ? SYMBOL[f[k]] : ""; }
      else { delete el.dataset.ghost; delete el.dataset.ghostSym; }
    });
  },

  /** Pointing at a free slot (mouse or keyboard focus) shows the ghost there; leaving hides it
   *  unless that slot was tapped. Drawn in place, without a redraw under the pointer. */
  point(e, view, tile, slot, on) {
    const L = this._ctx.local;
    const grid = e.currentTarget.parentNode;
    if (on) {
      if (L.hover !== null && L.hover !== undefined && L.hover !== slot && L.preview !== L.hover) {
        this.ghost(grid, view, tile, L.rot, L.hover, false);
      }
      L.hover = slot;
      this.ghost(grid, view, tile, L.rot, slot, true);
    } else if (L.hover === slot) {
      L.hover = null;
      if (L.preview !== slot) this.ghost(grid, view, tile, L.rot, slot, false);
    }
  },

  pyramid(view, s, ctx, mine, last) {
    const L = ctx.local;
    const seat = view.seats[s];
    const top = seat.top;
    const moves = mine ? ctx.legalMoves : [];
    const tile = mine && L.tile !== null && seat.placing ? seat.placing[L.tile] : undefined;
    const places = tile === undefined ? [] : moves.filter((m) => m.type === "place" && m.tile === L.tile && m.rot === L.rot);
    const chains = moves.filter((m) => m.type === "chain");
    const bonus = moves.filter((m) => m.type === "bonus" && m.piece === L.piece);
    const chainHere = L.chain ? chainsOf(top).find((c) => c.cells.includes(L.chain.join(","))) : null;
    const hover = mine && chainHere ? chainHere.cells : [];
    const picked = (mine && L.bcells) || [];
    const has = (cells, px, py) => cells.some(([cx, cy]) => cx === px && cy === py);
    const fitting = bonus.filter((m) => picked.every(([px, py]) => has(m.cells, px, py)));
    const priests = new Set(seat.chains.map(([x, y]) => `${x},${y}`));
    const fresh = last && last.seat === s && last.kind !== "occupy" && Array.isArray(last.cells) ? last.cells : [];
    const building = view.phase === "build";
    const borderLevel = building ? view.level : Math.min(view.level, 1);
    // The ghost: a slot tapped once (L.preview) or pointed at (L.hover, kept across redraws).
    const shownSlot = L.preview !== null ? L.preview : L.hover;
    const preview = mine && tile !== undefined && shownSlot !== null && shownSlot !== undefined &&
      places.some((m) => m.slot === shownSlot) ? slotCells(view.level, shownSlot) : [];
    const previewFaces = preview.length ? rotated(faces(tile), L.rot) : [];
    const spaces = [];
    for (let y = 0; y < 8; y += 1) {
      for (let x = 0; x < 8; x += 1) {
        const spot = top[y][x];
        const key = `${x},${y}`;
        const slot = slotOf(view.level, x, y);
        const place = places.find((m) => m.slot === slot);
        const chain = chains.find((m) => m.x === x && m.y === y);
        const piece = fitting.find((m) => has(m.cells, x, y));
        const action = piece || place || chain;
        const edge = slotOf(borderLevel, x, y) >= 0 ? SLOTS[borderLevel][slotOf(borderLevel, x, y)] : null;
        const classes = [`tof-sp tof-${spot[1] || "empty"} tof-l${spot[0]}`];
        if (edge) {
          if (x === edge[0]) classes.push("tof-bl"); if (x === edge[0] + 1) classes.push("tof-br");
          if (y === edge[1]) classes.push("tof-bt"); if (y === edge[1] + 1) classes.push("tof-bb");
          if (building && slot >= 0 && places.length && place) classes.push("tof-free");
        }
        if (hover.includes(key) || has(picked, x, y)) classes.push("tof-hl");
        if (has(fresh, x, y)) classes.push("tof-last");
        if (!chainHere && chain && L.piece === null) classes.push("tof-chainable");
        const k = preview.findIndex(([px, py]) => px === x && py === y);
        const label = `${spot[1] ? `${spot[1]} decoration` : "empty space"}, level ${spot[0]}` +
          (priests.has(key) ? `, priest of ${ctx.name(s)}` : "") + ` (${x},${y})`;
        spaces.push(h(mine ? "button" : "span", {
          class: classes.join(" "),
          "data-xy": key,
          // static/motion.js: the spaces a tile just covered come from that tile (else drop in).
          "data-piece": has(fresh, x, y) ? `laid:${s}:${key}` : null,
          "data-piece-from": has(fresh, x, y) ? "tile:*" : null,
          "data-key": mine ? `sp-${key}` : null, "data-legal": mine && action ? "true" : null,
          "data-testid": mine ? `tof-sp-${x}-${y}` : null,
          "data-ghost": k >= 0 ? (previewFaces[k] || "empty") : null,
          "data-ghost-sym": k >= 0 ? (previewFaces[k] ? SYMBOL[previewFaces[k]] : "") : null,
          disabled: mine ? !action : null, "aria-label": mine ? label : null,
          onmouseenter: place ? (e) => this.point(e, view, tile, slot, true) : null,
          onmouseleave: place ? (e) => this.point(e, view, tile, slot, false) : null,
          onfocus: place ? (e) => this.point(e, view, tile, slot, true) : null,
          onblur: place ? (e) => this.point(e, view, tile, slot, false) : null,
          onpointerdown: place ? (e) => { this._pointer = e.pointerType; } : null,
          onclick: mine ? (e) => {
            if (piece) {
              const next = has(picked, x, y) ? picked.filter(([px, py]) => px !== x || py !== y) : [...picked, [x, y]];
              const done = bonus.find((m) => m.cells.length === next.length &&
                next.every(([px, py]) => has(m.cells, px, py)));
              if (done) { L.piece = null; L.bcells = []; ctx.play(done).catch(() => {}); return; }
              L.bcells = next; ctx.rerender(); return;
            }
            if (place) {
              // A mouse has shown the ghost on hover: one click places. A finger (or a key)
              // sees it first: the first tap previews, a second tap (or "Place here") places.
              const sawGhost = this._pointer === "mouse" && e.detail > 0;
              this._pointer = null;
              if (sawGhost || L.preview === slot) { this.placeAt(ctx, slot); return; }
              L.preview = slot; ctx.rerender(); return;
            }
            if (chain) {
              if (chainHere && chainHere.cells.includes(key)) {
                L.chain = null; ctx.play(chain).catch(() => {});
              } else { L.chain = [x, y]; ctx.rerender(); }
            }
          } : null,
        }, spot[1] ? h("span", { class: "tof-sym" }, SYMBOL[spot[1]]) : null,
        priests.has(key) ? priestToken(ctx, s, " tof-on-board", `priest:${s}:${key}`) : null));
      }
    }
    const won = seat.won.map((c) => h("span", { class: `tof-won tof-${c.god}`, title: `${godName(view, c.god)}: ${c.big} points` },
      `${SYMBOL[c.god]}${c.big}`));
    const score = Array.isArray(view.scores) ? view.scores[s] : null;
    return h("div", { class: `tof-pyr${mine ? " tof-mine" : ""}`, "data-testid": `tof-pyramid-${s}` },
      h("div", { class: "tof-pyr-head" },
        h("b", {}, mine ? "Your pyramid" : ctx.name(s)), " ",
        pieceAs(priestToken(ctx, s, " tof-small"), `priests:${s}`), // where its priests walk from
        ` ${n(seat.priests, "priest")} · ${seat.reserve_count} bonus` + (score !== null ? ` · ${score} pts` : "") +
          (seat.goal ? ` · goal ${seat.goal}` : "") + (seat.effect ? ` · effect: ${EFFECTS[seat.effect] || seat.effect}` : ""),
        won.length ? h("span", { class: "tof-wonrow" }, " · won ", won) : null,
        !mine && seat.private ? ` · private ${SYMBOL[seat.private.god]} card` : null),
      h("div", { class: "tof-grid" }, spaces));
  },

  playerBadge(view, seat) {
    const s = view.seats[seat];
    return `${plural(s.priests, "priest")} · ${plural(s.won.length, "card")}`;
  },
};
