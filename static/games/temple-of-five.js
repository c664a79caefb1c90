// Temple of Five: your pyramid seen from above, the five open blessing cards, the private draft.
import { h, replace } from "/static/ui.js";

const CSS_HREF = "/static/games/temple-of-five.css";
const SYMBOL = { red: "▲", yellow: "★", green: "●", blue: "■", white: "◆" };
// The view names the gods as the book does (view.god_names); this is only a fallback.
const GOD = { red: "God of Fire", yellow: "God of Hunting", green: "God of Vegetation",
              blue: "God of Water", white: "Supreme God" };
const godName = (view, god) => (view.god_names && view.god_names[god]) || GOD[god];
const SLOTS = {
  1: [0, 1, 2].flatMap((j) => [0, 1, 2].map((i) => [1 + 2 * i, 1 + 2 * j])),
  2: [0, 1].flatMap((j) => [0, 1].map((i) => [2 + 2 * i, 2 + 2 * j])),
  3: [[3, 3]],
};
const DEST = { keep: "Keep", left: "Give left", right: "Give right", discard: "Discard" };

function faces(tile) { return Array.isArray(tile) ? tile : tile.faces; }
function rotated(f, r) { return r ? [...f.slice(4 - r), ...f.slice(0, 4 - r)] : [...f]; }

function miniTile(f, label) {
  const order = [0, 1, 3, 2]; // grid order: top-left, top-right, bottom-left, bottom-right
  return h("span", { class: "tof-mini", "aria-label": label },
    order.map((k) => h("span", { class: `tof-sp tof-${f[k] || "empty"}` }, f[k] ? SYMBOL[f[k]] : "")));
}

function chainAt(top, x, y) {
  const colour = top[y][x] && top[y][x][1];
  if (!colour) return [];
  const seen = new Set([`${x},${y}`]);
  const stack = [[x, y]];
  while (stack.length) {
    const [cx, cy] = stack.pop();
    for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]]) {
      const key = `${nx},${ny}`;
      if (nx < 0 || ny < 0 || nx > 7 || ny > 7 || seen.has(key)) continue;
      if (top[ny][nx] && top[ny][nx][1] === colour) { seen.add(key); stack.push([nx, ny]); }
    }
  }
  return [...seen];
}

function slotOf(level, x, y) {
  return SLOTS[level].findIndex(([sx, sy]) => x >= sx && x <= sx + 1 && y >= sy && y <= sy + 1);
}

export default {
  stylesheet: CSS_HREF,

  render(container, view, ctx) {
    const L = ctx.local;
    L.rot = L.rot || 0;
    const me = ctx.seat === null ? null : view.seats[ctx.seat];
    const moves = ctx.legalMoves;
    const status = view.phase === "over" ? "Game over"
      : `Round ${view.round}/${view.rounds} · level ${view.level} · ` +
        (view.phase === "draft" ? "materials exchange (hidden)"
          : view.phase === "build" ? "construction" : `priests: ${ctx.name(view.turn)} to play`);
    replace(container, h("div", { class: "tof", "data-testid": "tof-board" },
      h("p", { class: "tof-status", "data-testid": "tof-status" }, status,
        ` · first player: ${ctx.name(view.first)}`),
      this.cards(view, ctx),
      this.privateChoice(view, ctx),
      this.goalChoice(view, ctx),
      me ? this.hand(view, me, ctx) : null,
      me ? this.pyramid(view, ctx.seat, ctx, true) : null,
      h("div", { class: "tof-others" }, view.seats.map((_, s) => s === ctx.seat ? null
        : this.pyramid(view, s, ctx, false))),
      moves.some((m) => m.type === "pass")
        ? h("button", { class: "btn", "data-key": "pass", "data-legal": "true",
            "data-testid": "tof-pass", onclick: () => ctx.play({ type: "pass" }).catch(() => {}) },
            "End my priest turn") : null));
  },

  cards(view, ctx) {
    const occupy = ctx.legalMoves.filter((m) => m.type === "occupy");
    const L = ctx.local;
    const entries = Object.entries(view.open).filter(([, c]) => c);
    const mine = ctx.seat !== null && view.seats[ctx.seat].private;
    if (mine) entries.push(["private", mine]);
    return h("div", { class: "tof-cards", "data-testid": "tof-cards" }, entries.map(([key, card]) => {
      const picked = L.card === key ? L.cells || [] : [];
      const move = occupy.find((m) => m.card === key &&
        m.cells.length === picked.length && m.cells.every((c) => picked.includes(c)));
      return h("div", { class: `tof-card tof-${card.god}`, "data-testid": `tof-card-${key}` },
        h("div", { class: "tof-card-head" }, `${SYMBOL[card.god]} ${key === "private" ? "Private" : godName(view, card.god)}`,
          h("span", { class: "tof-pts" }, ` min ${card.min} · ${card.big}/${card.small} pts · ${view.decks[card.god] ?? 0} left`)),
        h("div", { class: "tof-cells" }, card.cells.map((cell, i) => {
          const priest = card.priests[i];
          const can = occupy.some((m) => m.card === key && m.cells.includes(i));
          return h("button", {
            class: `tof-cell${picked.includes(i) ? " tof-picked" : ""}`, disabled: !can,
            "data-key": `cell-${key}-${i}`, "data-legal": can ? "true" : null,
            "aria-label": `cell ${cell.n}${cell.bonus ? `, ${cell.bonus}-space bonus` : ""}` +
              (priest !== null ? `, priest of ${ctx.name(priest)}` : ""),
            onclick: () => {
              if (L.card !== key) { L.card = key; L.cells = []; }
              L.cells = L.cells.includes(i) ? L.cells.filter((c) => c !== i) : [...L.cells, i];
              ctx.rerender();
            },
          }, h("b", {}, String(cell.n)), cell.bonus ? h("small", {}, `◇${cell.bonus}`) : null,
          priest !== null ? h("span", { class: `tof-priest tof-seat${priest}` }, `♙${priest + 1}`) : null);
        })),
        move ? h("button", { class: "btn", "data-key": `occupy-${key}`, "data-legal": "true",
          "data-testid": "tof-occupy", onclick: () => { L.card = null; L.cells = [];
            ctx.play(move).catch(() => {}); } }, "Place priests here") : null);
    }));
  },

  goalChoice(view, ctx) {
    const sides = ctx.legalMoves.filter((m) => m.type === "goal");
    const mine = ctx.seat !== null && view.seats[ctx.seat].goal;
    if (!view.goals || (!sides.length && !mine)) return null;
    const text = (side) => `Side ${side}: ${view.goals[side].join("; ")}`;
    if (!sides.length) return h("p", { class: "tof-goal", "data-testid": "tof-goal" }, `Your ultimate goal — ${text(mine)}`);
    return h("div", { class: "tof-hand", "data-testid": "tof-goal-choice" },
      h("p", {}, "Choose the side of your ultimate goal card (secret until everyone has chosen):"),
      sides.map((m) => h("button", { class: "btn", "data-key": `goal-${m.side}`, "data-legal": "true",
        onclick: () => ctx.play(m).catch(() => {}) }, text(m.side))));
  },

  privateChoice(view, ctx) {
    const takes = ctx.legalMoves.filter((m) => m.type === "private");
    if (!takes.length) return null;
    return h("div", { class: "tof-hand", "data-testid": "tof-private-choice" },
      h("p", {}, "Your effect tile: take the top card of a deck as a private card only you may fill:"),
      takes.map((m) => h("button", { class: "btn", "data-key": `private-${m.god}`, "data-legal": "true",
        onclick: () => ctx.play(m).catch(() => {}) }, `${SYMBOL[m.god]} ${godName(view, m.god)}`)));
  },

  hand(view, me, ctx) {
    const L = ctx.local;
    const assigns = ctx.legalMoves.filter((m) => m.type === "assign");
    const blanks = ctx.legalMoves.filter((m) => m.type === "blank");
    const parts = [];
    if (me.hand && me.hand.length) {
      parts.push(h("p", {}, "Your draw (only you see it):"));
      parts.push(h("div", { class: "tof-hand", "data-testid": "tof-hand" }, me.hand.map((tile, t) =>
        h("div", { class: "tof-handtile" }, miniTile(faces(tile), "drawn tile"),
          tile.effect ? h("small", {}, tile.effect) : null,
          assigns.filter((m) => m.tile === t).map((m) => h("button", {
            class: "btn", "data-key": `assign-${t}-${m.to}`, "data-legal": "true",
            onclick: () => ctx.play(m).catch(() => {}) },
            view.players === 2 && m.to === "left" ? "Give" : DEST[m.to]))))));
    }
    if (me.placing && me.placing.length) {
      L.tile = Math.min(L.tile || 0, me.placing.length - 1);
      parts.push(h("p", {}, "Tiles to build (pick one, rotate with R or the button, then click a slot):"));
      parts.push(h("div", { class: "tof-hand", "data-testid": "tof-placing" }, me.placing.map((tile, t) =>
        h("button", { class: `tof-handtile${L.tile === t ? " tof-picked" : ""}`, "data-key": `pick-${t}`,
          onclick: () => { L.tile = t; ctx.rerender(); } },
          miniTile(rotated(faces(tile), L.tile === t ? L.rot : 0), "tile to place")))));
      parts.push(h("button", { class: "btn", "data-key": "rotate", "data-testid": "tof-rotate",
        onkeydown: null, onclick: () => { L.rot = (L.rot + 1) % 4; ctx.rerender(); } }, "Rotate ⟳"));
      blanks.filter((m) => m.tile === L.tile).forEach((m) => parts.push(h("button", {
        class: "btn", "data-key": "blank", "data-legal": "true",
        onclick: () => ctx.play(m).catch(() => {}) }, "Place face down (4 empty spaces)")));
    }
    if (me.reserve && me.reserve.length) {
      parts.push(h("p", {}, "Bonus decorations (hidden): pick one, then click each empty space it should cover:"));
      parts.push(h("div", { class: "tof-hand" }, me.reserve.map((p, i) => h("button", {
        class: `tof-handtile${L.piece === i ? " tof-picked" : ""}`, "data-key": `piece-${i}`,
        onclick: () => { L.piece = L.piece === i ? null : i; L.bcells = []; ctx.rerender(); } },
        `${SYMBOL[p.colour]} ${p.size}-space`))));
    }
    if (!this._keys) {
      this._keys = true;
      document.addEventListener("keydown", (e) => {
        if ((e.key === "r" || e.key === "R") && this._ctx) {
          this._ctx.local.rot = ((this._ctx.local.rot || 0) + 1) % 4; this._ctx.rerender();
        }
      });
    }
    this._ctx = ctx;
    return h("div", { class: "tof-private" }, parts);
  },

  pyramid(view, s, ctx, mine) {
    const L = ctx.local;
    const seat = view.seats[s];
    const top = seat.top;
    const moves = mine ? ctx.legalMoves : [];
    const places = moves.filter((m) => m.type === "place" && m.tile === (L.tile || 0) && m.rot === L.rot);
    const chains = moves.filter((m) => m.type === "chain");
    const bonus = moves.filter((m) => m.type === "bonus" && m.piece === L.piece);
    const hover = L.chain ? chainAt(top, ...L.chain) : [];
    const picked = (mine && L.bcells) || [];
    const has = (cells, px, py) => cells.some(([cx, cy]) => cx === px && cy === py);
    const fitting = bonus.filter((m) => picked.every(([px, py]) => has(m.cells, px, py)));
    const priests = new Set(seat.chains.map(([x, y]) => `${x},${y}`));
    const rows = [];
    for (let y = 0; y < 8; y += 1) {
      for (let x = 0; x < 8; x += 1) {
        const spot = top[y][x];
        const key = `${x},${y}`;
        const place = places.find((m) => m.slot === slotOf(view.level, x, y));
        const chain = chains.find((m) => m.x === x && m.y === y);
        const piece = fitting.find((m) => has(m.cells, x, y));
        const action = piece || place || chain;
        const label = `${spot[1] || "empty"} level ${spot[0]}`;
        rows.push(h(mine ? "button" : "span", {
          class: `tof-sp tof-${spot[1] || "empty"} tof-l${spot[0]}` +
            (hover.includes(key) || has(picked, x, y) ? " tof-hl" : ""),
          "data-key": mine ? `sp-${key}` : null, "data-legal": mine && action ? "true" : null,
          "data-testid": mine ? `tof-sp-${x}-${y}` : null,
          disabled: mine ? !action : null, "aria-label": mine ? `${label} (${x},${y})` : null,
          onclick: mine ? () => {
            if (piece) {
              const next = has(picked, x, y) ? picked.filter(([px, py]) => px !== x || py !== y)
                : [...picked, [x, y]];
              const done = bonus.find((m) => m.cells.length === next.length &&
                next.every(([px, py]) => has(m.cells, px, py)));
              if (done) { L.piece = null; L.bcells = []; ctx.play(done).catch(() => {}); return; }
              L.bcells = next; ctx.rerender(); return;
            }
            if (place) { ctx.play(place).catch(() => {}); L.rot = 0; return; }
            if (chain) {
              if (L.chain && chainAt(top, ...L.chain).includes(key)) {
                L.chain = null; ctx.play(chain).catch(() => {});
              } else { L.chain = [x, y]; ctx.rerender(); }
            }
          } : null,
        }, spot[1] ? SYMBOL[spot[1]] : "", priests.has(key) ? h("span", { class: "tof-priest" }, "♙") : null));
      }
    }
    const won = seat.won.map((c) => `${SYMBOL[c.god]}${c.big}`).join(" ");
    return h("div", { class: `tof-pyr${mine ? " tof-mine" : ""}`, "data-testid": `tof-pyramid-${s}` },
      h("div", { class: "tof-pyr-head" }, `${ctx.name(s)}: ${seat.priests} priests · ` +
        `${seat.reserve_count} bonus · won ${won || "none"}` + (seat.goal ? ` · goal ${seat.goal}` : "")),
      mine && hover.length ? h("p", { "data-testid": "tof-chain" },
        `Chain of ${hover.length} — click the space for your priest to use it`) : null,
      h("div", { class: "tof-grid" }, rows));
  },

  playerBadge(view, seat) {
    const s = view.seats[seat];
    return `${s.priests} priests · ${s.won.length} cards`;
  },
};
