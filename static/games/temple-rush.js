// Temple Rush: the temple cards in their holders, the dice of the round, your build zones (pick a
// block, turn it, drop it on a highlighted cell), the powers, everyone else's zones, and the
// lightning race. Renderer interface: render(container, view, ctx) and playerBadge(view, seat).
//
// Grids are side views: layer 0 at the bottom. A move's (col, row) is the block's lowest, leftmost
// cell; a flat block runs right from there, a block stood on end runs up.

import { h, replace } from "/static/ui.js";

const CSS_HREF = "/static/games/temple-rush.css";
const COLOURS = {
  green: { label: "Green", mark: "♣" },
  blue: { label: "Blue", mark: "●" },
  red: { label: "Red", mark: "▲" },
  brown: { label: "Brown", mark: "■" },
  lightning: { label: "Lightning", mark: "⚡" },
};
const POWERS = { hammer: "Hammer & Chisel", bag: "Bag", mortar: "Mortar", "hammer+mortar": "Hammer & Chisel and the Mortar" };
/** What each power token does, as a tooltip on its chip (once per game; unused ones score 1). */
const POWER_TIPS = {
  hammer: "Hammer & Chisel: place a block of another size than your die shows, or swap a placed block for one of another size. Once per game.",
  bag: "Bag: borrow the top two blocks of another player's construction to finish one of your temples at once. Once per game.",
  mortar: "Mortar: place a block joined to nothing in one zone; loose blocks are fine there until you complete its temple. Once per game.",
};
const DIRS = { flat: "Flat", upright: "On end" };
const SIZES = [1, 2, 3, 4];
const ACTED = { place: "placed a block", exchange: "exchanged a block", bag: "completed a temple with the Bag",
  complete: "completed a temple", pass: "passed", rebuild: "completed a temple by rebuilding" };
// A completed temple's seat first chooses its bonus block ("bonus" moves), then waits.

function ensureStyles() {
  if (document.querySelector(`link[href="${CSS_HREF}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href: CSS_HREF }));
}

// -- small pieces ---------------------------------------------------------------------------

function cardName(card) {
  if (!card) return "no card";
  const c = COLOURS[card.colour] || { label: card.colour, mark: "?" };
  return `${c.label} temple, ${card.value} points`;
}

function cardChip(card, extra = "") {
  const c = COLOURS[card.colour] || { label: card.colour, mark: "?" };
  return h("span", { class: `tr-chip tr-c-${card.colour} ${extra}`, title: cardName(card) },
    h("span", { "aria-hidden": "true" }, c.mark), ` ${c.label} ${card.value}`);
}

function dieText(face) {
  if (face === null || face === undefined) return "—";
  return face === "star" ? "★ any block" : `${face} block`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The cells a block covers: flat runs right, on end runs up. */
function cover(size, col, row, dir) {
  return Array.from({ length: size }, (_, i) => (dir === "upright" ? [col, row + i] : [col + i, row]));
}

function moveKey(m) {
  return `${m.col}:${m.row}`;
}

/** Grid of a silhouette with blocks on it; `anchors` (Map "c:r" → handler info) become buttons. */
function grid({ card, blocks = [], small = false, anchors = null, blockActions = null, label = "", testid = "tr-grid",
                zone = "", last = null, piece = null }) {
  if (!card && !blocks.length) return h("span", { class: "hint tr-no-card" }, "no card");
  let width = card?.width || 0;
  let height = card?.height || 0;
  for (const b of blocks) for (const [c, r] of b.cells) { width = Math.max(width, c + 1); height = Math.max(height, r + 1); }
  width = Math.max(width, 1);
  height = Math.max(height, 1);
  const inside = new Set((card?.cells || []).map(([c, r]) => `${c}:${r}`));
  const filled = new Set(blocks.flatMap((b) => b.cells.map(([c, r]) => `${c}:${r}`)));
  const el = h("div", {
    class: `tr-grid${small ? " small" : ""}${card ? ` tr-c-${card.colour}` : ""}`, role: "group",
    "aria-label": label, "data-testid": testid, "data-zone": zone,
    style: { "grid-template-columns": `repeat(${width}, var(--cell))`, "grid-template-rows": `repeat(${height}, var(--cell))` },
  });
  const at = (c, r) => ({ "grid-column": `${c + 1}`, "grid-row": `${height - r}` });
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const key = `${c}:${r}`;
      el.append(h("div", { class: `tr-cell ${inside.has(key) ? "in" : "out"}${filled.has(key) ? " filled" : ""}`,
                           "data-c": c, "data-r": r, style: at(c, r), "aria-hidden": "true" }));
    }
  }
  for (const b of blocks) {
    const upright = b.dir === "upright" && b.size > 1;
    const style = {
      "grid-column": `${b.col + 1} / span ${upright ? 1 : b.size}`,
      "grid-row": `${height - b.row - (upright ? b.size : 1) + 1} / span ${upright ? b.size : 1}`,
    };
    const fresh = last && last.col === b.col && last.row === b.row && last.size === b.size && last.dir === b.dir;
    const text = `1x${b.size} block${b.size > 1 ? (upright ? " on end" : " flat") : ""}${fresh ? " (the last move)" : ""}`;
    const act = blockActions?.get(b.id);
    // static/motion.js: a block keeps its name across redraws; a new one lands from above.
    const moves = piece ? { "data-piece": `${piece}:${b.id}`, "data-piece-from": "drop" } : {};
    if (act) {
      el.append(h("button", { class: `tr-block s${b.size} ${act.kind}${act.pressed ? " on" : ""}`, style,
                              "data-testid": `tr-${act.kind}`, "data-zone": zone, "data-block": b.id,
                              "data-key": `${act.kind}-${zone}-${b.id}`, "data-legal": "true",
                              "aria-pressed": act.pressed === undefined ? null : String(act.pressed),
                              "aria-label": act.label(text), title: act.label(text), onclick: act.onclick, ...moves },
        h("span", { "aria-hidden": "true" }, act.mark)));
    } else {
      el.append(h("div", { class: `tr-block s${b.size}${b.borrowed ? " borrowed" : ""}${fresh ? " last" : ""}`, style, title: text,
                           "data-testid": fresh ? "tr-last" : null, ...moves },
        small ? null : h("span", { "aria-hidden": "true" }, b.size)));
    }
  }
  if (anchors) {
    for (const [key, a] of anchors) {
      const [c, r] = key.split(":").map(Number);
      const btn = h("button", {
        class: "tr-anchor", style: at(c, r), "data-testid": "tr-anchor", "data-zone": zone, "data-col": c,
        "data-row": r, "data-key": `anchor-${zone}-${key}`, "aria-label": a.label, title: a.label,
        onclick: a.onclick,
      }, h("span", { "aria-hidden": "true" }, "+"));
      const show = (on) => () => {
        for (const [cc, rr] of a.cells) el.querySelector(`.tr-cell[data-c="${cc}"][data-r="${rr}"]`)?.classList.toggle("preview", on);
      };
      btn.addEventListener("mouseenter", show(true));
      btn.addEventListener("mouseleave", show(false));
      btn.addEventListener("focus", show(true));
      btn.addEventListener("blur", show(false));
      el.append(btn);
    }
  }
  return el;
}

function supplyLine(supply) {
  return h("span", { class: "tr-supply" }, SIZES.map((s) => h("span", { class: `tr-supply-item${supply[`1x${s}`] ? "" : " none"}` },
    h("span", { class: `tr-mini s${s}`, "aria-hidden": "true" }), `1x${s} ×${supply[`1x${s}`] ?? 0}`)));
}

function scoreLine(score) {
  if (!score) return null;
  const parts = [`cards ${score.cards}`];
  if (score.tokens) parts.push(`tokens ${score.tokens}`);
  parts.push(`bonus ${score.bonus}`);
  if (score.powers !== undefined) parts.push(`powers ${score.powers}`);
  if (score.cooperative) parts.push(`shared ${score.cooperative}`);
  return h("span", { class: "tr-score" }, h("strong", {}, `${score.total} pts`), ` (${parts.join(" + ")})`);
}

function wonLine(cards, tokens = [], bonus = []) {
  return h("div", { class: "tr-won" },
    h("span", { class: "tr-k" }, "Won: "),
    cards.length ? cards.map((c) => cardChip(c)) : h("span", { class: "hint" }, "no cards yet"),
    tokens.map((t) => h("span", { class: "tr-chip token" }, `token ${t}`)),
    h("span", { class: "tr-k" }, " Bonus: "),
    bonus.length ? bonus.map((b) => h("span", { class: "tr-chip bonus" }, `1x${b.size} (+${b.size})`))
      : h("span", { class: "hint" }, "none"));
}

function powersLine(powers) {
  const names = Object.keys(powers || {});
  if (!names.length) return null;
  return h("div", { class: "tr-powers" }, h("span", { class: "tr-k" }, "Powers: "),
    names.map((p) => h("span", { class: `tr-chip power ${powers[p]}`, title: POWER_TIPS[p] || "", "data-testid": "power" },
      `${POWERS[p] || p}: ${powers[p]}`)));
}

// -- the renderer ---------------------------------------------------------------------------

export default {
  render(container, view, ctx) {
    ensureStyles();
    const local = ctx.local;
    remember(view, ctx, local);
    const me = ctx.seat !== null && ctx.seat !== undefined && view.seats[ctx.seat] ? ctx.seat : null;
    const parts = [
      this.status(view, ctx, me),
      this.rebuilding(view, ctx, me),
      this.race(view, ctx, local),
      this.news(view, ctx, local),
      this.holders(view),
      me !== null ? this.mine(view, ctx, local, me) : h("p", { class: "hint" }, "You are watching: every board is public."),
      this.others(view, ctx, me, local),
      legend(),
    ];
    replace(container, h("div", { class: `temple-rush phase-${view.phase}${me !== null ? " seated" : ""}`, "data-testid": "temple-rush",
                                  "data-phase": view.phase }, parts));
  },

  /** Where a move is clicked (tutorials and hints mark these), in click order. */
  targets(move) {
    const mode = (name) => `[data-key="mode-${name}"]`;
    const size = `[data-testid="tr-size"][data-size="${move.size}"]`;
    const dir = move.size > 1 ? [`[data-testid="tr-dir"][data-dir="${move.dir}"]`] : [];
    const zone = move.zone === undefined ? "" : `[data-zone="${move.zone}"]`;
    switch (move.type) {
      case "place": case "rebuild": case "race":
        return [...(move.power ? [mode(move.power)] : []), size, ...dir,
          `[data-testid="tr-anchor"]${zone}[data-col="${move.col}"][data-row="${move.row}"]`];
      case "bonus": return [`[data-testid="tr-bonus"][data-block="${move.block}"]`];
      case "exchange": case "chisel": return [mode(move.type), `[data-testid="tr-${move.type}"]${zone}[data-block="${move.block}"]`];
      case "bag": return [`[data-testid="tr-bag"]${zone}[data-seat="${move.seat}"][data-from-zone="${move.from_zone}"]`];
      case "pass": return ['[data-testid="tr-pass"]'];
      case "return": return ['[data-testid="tr-return"]'];
      case "withdraw": return ['[data-testid="tr-withdraw"]'];
      default: return [];
    }
  },

  playerBadge(view, seat) {
    const s = view.seats[seat];
    if (!s) return "";
    const bits = [plural(s.cards.length, "card")]; // the points are the shell's running score, beside it
    if (view.phase === "build" && view.acted[seat]) bits.push(`✓ ${view.acted[seat]}`);
    if (view.phase === "rebuild" && view.to_act.includes(seat)) bits.push("rebuilding");
    if (view.phase === "lightning" && view.lightning?.out[seat]) bits.push("out of the race");
    return bits.join(" · ");
  },

  status(view, ctx, me) {
    const dice = view.seats.map((s, i) => h("li", { class: `tr-die${i === me ? " mine" : ""}`, "data-testid": "tr-die" },
      h("span", { class: "who" }, i === me ? "You" : ctx.name(i)), h("span", { class: "face" }, dieText(view.dice[i]))));
    if (view.robot) {
      dice.push(h("li", { class: "tr-die robot", "data-testid": "tr-die" }, h("span", { class: "who" }, "Robot"),
        h("span", { class: "face" }, dieText(view.robot.die))));
    }
    let line;
    if (view.phase === "over") line = `Game over. ${view.end_reason || ""}`;
    else if (view.phase === "rebuild") line = `End of round ${view.round} · a card was won: rebuilding before the next roll`;
    else line = `Round ${view.round} · ${plural(view.deck_count, "card")} left in the deck`;
    const quiet = view.phase !== "over" && view.quiet_rounds >= Math.max(3, view.stall_rounds - 5)
      ? h("p", { class: "hint" }, `No temple won for ${view.quiet_rounds} rounds; the game ends after ${view.stall_rounds}.`) : null;
    return h("section", { class: "tr-status", "aria-label": "This round" },
      h("p", { class: "tr-round", "data-testid": "tr-round" }, line),
      view.phase === "build" ? h("div", { class: "tr-dice-wrap" }, h("span", { class: "tr-k" }, "Dice: "),
        h("ul", { class: "tr-dice" }, dice)) : null,
      quiet);
  },

  /** The rebuild phase: right after a card was won, before the next dice (book: the others "may
   *  now rebuild their figure" to the card that replaces it). */
  rebuilding(view, ctx, me) {
    if (view.phase !== "rebuild") return null;
    const names = view.to_act.map((s) => (s === me ? "you" : ctx.name(s)));
    const who = names.join(" and ");
    return h("section", { class: "tr-rebuild-banner", "data-testid": "tr-rebuild", role: "status" },
      h("h2", {}, h("span", { "aria-hidden": "true" }, "⟲ "), "A card was won: rebuild now"),
      h("p", {}, `Before the next roll, ${who} may rebuild blocks from the won temple into the new card that replaced it, `
        + "or return them to the supply. A rebuild that completes the new temple wins it at once; the next round is played as usual."));
  },

  news(view, ctx, local) {
    const lines = local.news && local.news.round === view.round ? local.news.lines : [];
    if (!lines.length) return null;
    return h("ul", { class: "tr-news", "data-testid": "tr-news", "aria-live": "polite" }, lines.map((t) => h("li", {}, t)));
  },

  race(view, ctx, local) {
    const race = view.lightning;
    if (!race) {
      // The move that wins a race also ends it: the result lives on in view.last_race. Shown in
      // the round right after the race (or at the end, if the race ended the game).
      const done = view.last_race;
      if (!done || view.round - done.round > 1) return null;
      const winner = done.winner;
      const who = winner === null ? "No one" : winner === ctx.seat ? "You" : ctx.name(winner);
      return h("section", { class: "tr-race-banner finished", "data-testid": "tr-race-result", role: "status",
                            "data-winner": winner === null ? "none" : winner },
        h("h2", {}, h("span", { "aria-hidden": "true" }, "⚡ "), "Lightning race over"),
        h("p", {}, winner === null ? `No one finished the lightning temple (${cardName(done.card)}).`
          : `${who} finished the lightning temple (${cardName(done.card)}) first and `
            + `${winner === ctx.seat ? "win" : "wins"} the lightning card (3 points)!`));
    }
    const total = race.card.cells.length;
    const racers = view.seats.map((s, i) => {
      const built = race.builds[i].reduce((n, b) => n + b.size, 0);
      return h("li", { class: `tr-racer${race.out[i] ? " out" : ""}${i === ctx.seat ? " mine" : ""}`, "data-testid": "tr-racer" },
        h("span", { class: "who" }, i === ctx.seat ? "You" : ctx.name(i)),
        h("span", { class: "tr-bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": total, "aria-valuenow": built },
          h("span", { style: { width: `${Math.round((100 * built) / total)}%` } })),
        h("span", { class: "tr-racer-n" }, race.out[i] ? "out" : `${built}/${total} cells`),
        i === ctx.seat ? null : grid({ card: race.card, blocks: race.builds[i], small: true,
                                       last: lastBlocks(view)[i]?.zone === "race" ? lastBlocks(view)[i] : null,
                                       label: `${ctx.name(i)}'s lightning build`, testid: "tr-race-grid-other",
                                       piece: `race${i}` }));
    });
    return h("section", { class: "tr-race-banner", "data-testid": "tr-race", role: "status" },
      h("h2", {}, h("span", { "aria-hidden": "true" }, "⚡ "), "Lightning race!"),
      h("p", {}, `Everyone builds the ${cardName(race.card)} at once — first to finish wins the lightning card (3 points).`),
      h("ol", { class: "tr-racers" }, racers));
  },

  holders(view) {
    const race = view.lightning;
    const items = view.holders.map((card, z) => {
      const racing = race && race.holder === z;
      return h("li", { class: `tr-holder${card ? ` tr-c-${card.colour}` : " empty"}`, "data-testid": "tr-holder" },
        h("div", { class: "tr-holder-title" }, `Holder ${z + 1}`),
        card ? cardChip(card) : h("span", { class: "hint" }, racing ? "⚡ raced for now" : "empty"),
        card ? grid({ card, small: true, label: `Holder ${z + 1}: ${cardName(card)}`, testid: "tr-card" }) : null);
    });
    return h("section", { class: "tr-holders-wrap", "aria-label": "Temple cards" },
      h("h3", {}, view.solo ? "Your temple cards" : "Temple cards"),
      h("ol", { class: "tr-holders" }, items));
  },

  // -- my side ----------------------------------------------------------------------------

  mine(view, ctx, local, me) {
    const seat = view.seats[me];
    const moves = ctx.myTurn ? ctx.legalMoves : [];
    const lightning = view.phase === "lightning";
    const play = (move) => {
      local.choose = null;
      ctx.play(move).then(() => { local.mode = null; local.choose = null; }, () => {});
      ctx.rerender();
    };

    // What may be placed in the current mode (plain, Hammer & Chisel, Mortar, or take back).
    const placing = moves.filter((m) => (lightning ? m.type === "race" : m.type === "place" || m.type === "rebuild"));
    const modes = new Set(placing.map((m) => m.power || null));
    const exchangeMoves = moves.filter((m) => m.type === "exchange");
    if (exchangeMoves.length) modes.add("exchange");
    const chiselMoves = moves.filter((m) => m.type === "chisel");
    if (chiselMoves.length) modes.add("chisel");
    if (local.mode && !modes.has(local.mode)) local.mode = null;
    const mode = local.mode || null;
    const blockModes = new Set(["exchange", "chisel"]);  // modes that act on a placed block
    const candidates = blockModes.has(mode) ? [] : placing.filter((m) => (m.power || null) === mode);
    const sizes = SIZES.filter((s) => candidates.some((m) => m.size === s));
    const dieFace = view.dice[me];
    const dieSize = dieFace && dieFace !== "star" ? Number(dieFace.slice(2)) : null;
    if (!sizes.includes(local.size)) local.size = sizes.includes(dieSize) ? dieSize : sizes[sizes.length - 1] ?? null;
    const dirs = ["flat", "upright"].filter((d) => candidates.some((m) => m.size === local.size && m.dir === d));
    if (!dirs.includes(local.dir)) local.dir = dirs[0] ?? null;
    const chosen = candidates.filter((m) => m.size === local.size && m.dir === local.dir);

    const anchorsFor = (zone) => {
      const out = new Map();
      const group = new Map();
      for (const m of chosen) {
        if (!lightning && m.zone !== zone) continue;
        const key = moveKey(m);
        if (!group.has(key)) group.set(key, []);
        group.get(key).push(m);
      }
      for (const [key, list] of group) {
        const m = list[0];
        const where = `column ${m.col + 1}, layer ${m.row + 1}${lightning ? "" : ` of zone ${zone + 1}`}`;
        const from = list.length === 1 && m.from_zone !== undefined ? `, moved from zone ${m.from_zone + 1}` : "";
        const power = m.power ? ` using the ${POWERS[m.power]}` : "";
        out.set(key, {
          cells: cover(m.size, m.col, m.row, m.dir),
          label: `Place the 1x${m.size} block ${m.size > 1 ? `${DIRS[m.dir].toLowerCase()} ` : ""}at ${where}${from}${power}`,
          onclick: () => {
            if (list.length === 1) play(m);
            else { local.choose = { zone, key }; ctx.rerender(); }
          },
        });
      }
      return out;
    };
    const blockActionsFor = (zone) => {
      if (mode === "exchange") {
        return new Map(exchangeMoves.filter((m) => m.zone === zone).map((m) => [m.block, {
          kind: "exchange", mark: "↺",
          label: (text) => `Exchange this wrong ${text} for a correct block from your supply (uses your turn)`,
          onclick: () => play(m) }]));
      }
      if (mode === "chisel") {
        return new Map(chiselMoves.filter((m) => m.zone === zone).map((m) => [m.block, {
          kind: "chisel", mark: "⚒",
          label: (text) => `Hammer & Chisel: take this ${text} out of zone ${zone + 1}, then lay a block of another size`,
          onclick: () => play(m) }]));
      }
      return null;
    };

    const wrongZones = new Set(exchangeMoves.map((m) => m.zone));
    const lastOf = lastBlocks(view);
    const controls = this.controls(view, ctx, local, me,
      { moves, modes, mode, sizes, dirs, candidates, lightning, play, dieFace, blockModes, wrongZones });
    let boards;
    if (lightning) {
      const race = view.lightning;
      const out = race.out[me];
      boards = h("div", { class: "tr-zones" }, h("div", { class: "tr-zone race" },
        h("h4", {}, `⚡ Your lightning build — ${cardName(race.card)}`),
        out ? h("p", { class: "hint" }, "You are out of this race.") : null,
        grid({ card: race.card, blocks: race.builds[me], anchors: anchorsFor(null), zone: "race", testid: "tr-race-grid",
               piece: `race${me}`,
               last: lastOf[me]?.zone === "race" ? lastOf[me] : null,
               label: `Your lightning build for the ${cardName(race.card)}` })),
        seat.zones.some((z) => z.blocks.length) ? h("div", { class: "tr-zone small" },
          h("p", { class: "hint tr-wait-note" },
            "Your constructions wait for the race; a block missing from your supply is borrowed from them."),
          h("div", { class: "tr-zones small" }, seat.zones.map((z) => h("div", { class: "tr-zone small" },
            h("span", { class: "tr-zone-title" }, `Zone ${z.zone + 1}`),
            grid({ card: view.holders[z.zone], blocks: z.blocks, small: true, piece: `s${me}z${z.zone}`,
                   label: `Your zone ${z.zone + 1}: ${cardName(view.holders[z.zone])}` }))))) : null);
    } else {
      boards = h("div", { class: "tr-zones" }, seat.zones.map((z) => {
        const card = view.holders[z.zone];
        const cells = card ? card.cells.length : 0;
        const built = z.blocks.reduce((n, b) => n + b.size, 0);
        const wrong = wrongZones.has(z.zone);
        return h("div", { class: `tr-zone${z.complete ? " complete" : ""}${wrong ? " wrong" : ""}`, "data-testid": "tr-zone",
                          "data-zone": z.zone, "data-wrong": wrong ? "true" : null },
          h("h4", {}, `Zone ${z.zone + 1} — `, card ? cardChip(card) : h("span", { class: "hint" }, "no card"),
            card ? h("span", { class: "tr-zone-info" }, `${built}/${cells} cells`) : null),
          h("p", { class: "tr-zone-info" }, [
            z.mortar ? "Mortar active (loose blocks allowed)" : null,
            seat.held[z.zone]?.length ? `to rebuild: ${seat.held[z.zone].map((b) => `1x${b.size}`).join(", ")}` : null,
            wrong ? h("strong", { class: "tr-wrong" }, "✗ built wrong: it can no longer be finished in one piece") : null,
            z.complete ? h("strong", { class: "tr-complete" }, "✓ Temple complete!") : null,
          ].filter(Boolean).flatMap((part, i) => (i ? [" · ", part] : [part]))),
          grid({ card, blocks: z.blocks, anchors: anchorsFor(z.zone), blockActions: blockActionsFor(z.zone), zone: z.zone,
                 piece: `s${me}z${z.zone}`,
                 last: lastOf[me]?.zone === z.zone ? lastOf[me] : null,
                 label: `Your zone ${z.zone + 1}: ${cardName(card)}; ${built} of ${cells} cells built` }));
      }));
    }
    return h("section", { class: `tr-me${ctx.myTurn ? " acting" : ""}`, "data-testid": "tr-me", "aria-label": "Your side" },
      h("h3", {}, "You", h("span", { class: "tr-head-score" }, scoreLine(seat.score))),
      controls,
      boards,
      h("div", { class: "tr-me-facts" },
        h("div", {}, h("span", { class: "tr-k" }, "Supply: "), supplyLine(seat.supply)),
        wonLine(seat.cards, seat.tokens, seat.bonus),
        powersLine(seat.powers)));
  },

  controls(view, ctx, local, me, k) {
    const { moves, modes, mode, sizes, dirs, candidates, lightning, play, dieFace, blockModes, wrongZones } = k;
    if (view.phase === "over") return null;
    if (!ctx.myTurn) {
      let text;
      if (ctx.pending) text = "Sending…";
      else if (view.phase === "rebuild") {
        const waiting = view.to_act.map((s) => ctx.name(s)).join(" and ");
        text = `A card was won. Waiting for ${waiting} to rebuild into the new temple; then the next dice are rolled…`;
      }
      else if (lightning) text = view.lightning.out[me] ? "You are out of the race; watch who finishes first." : "Waiting…";
      else if (view.acted[me]) {
        const waiting = view.to_act.map((s) => ctx.name(s)).join(" and ");
        text = `You ${ACTED[view.acted[me]] || view.acted[me]} this round.${waiting ? ` Waiting for ${waiting}…` : ""}`;
      } else text = "Waiting…";
      return h("p", { class: "tr-prompt", "data-testid": "tr-prompt" }, text);
    }
    if (local.choose) {
      const list = candidates.filter((m) => m.size === local.size && m.dir === local.dir
        && (lightning || m.zone === local.choose.zone) && moveKey(m) === local.choose.key);
      if (list.length > 1) {
        return h("div", { class: "tr-controls" },
          h("p", { class: "tr-prompt mine" }, `No 1x${local.size} in your supply: which construction gives it up?`),
          h("div", { class: "row" }, list.map((m) => h("button", {
            class: "btn", "data-testid": "tr-source", "data-from-zone": m.from_zone, "data-block": m.block,
            onclick: () => play(m) }, `Take the 1x${m.size} from zone ${m.from_zone + 1}`)),
          h("button", { class: "btn ghost", onclick: () => { local.choose = null; ctx.rerender(); } }, "Cancel")));
      }
      local.choose = null;
    }
    const bonusMoves = moves.filter((m) => m.type === "bonus");
    if (bonusMoves.length) {
      const blocks = view.seats[me].zones[bonusMoves[0].zone]?.blocks || [];
      const sizeOf = (m) => blocks.find((b) => b.id === m.block)?.size;
      return h("div", { class: "tr-controls", "data-testid": "tr-controls" },
        h("p", { class: "tr-prompt mine", "data-testid": "tr-prompt" },
          "Temple complete! Choose the block of it that goes to your bonus area (it scores its size; one of each size)."),
        h("div", { class: "tr-pick" }, bonusMoves.map((m) => h("button", {
          class: "btn small", "data-testid": "tr-bonus", "data-zone": m.zone, "data-block": m.block,
          onclick: () => play(m) }, `Bank a 1x${sizeOf(m)} block (+${sizeOf(m)})`))));
    }
    const swap = view.seats[me].swap;
    const back = moves.find((m) => m.type === "return");
    const held = back ? view.seats[me].held[back.zone] : [];
    const wrongList = [...wrongZones].map((z) => z + 1).join(" and ");
    const prompt = lightning ? "Race! Pick a block, turn it, drop it on a + cell. Each block you place counts."
      : mode === "exchange" ? `Building mistake in zone ${wrongList}: press a block marked ↺ to take it out, then lay a correct block `
        + "from your supply where the + cells show (only blocks that put the temple right are offered). This uses your turn: no die block."
      : back ? `Before the next roll: another player won the card you were building in zone ${back.zone + 1}. Rebuild your blocks `
        + `(${held.map((b) => `1x${b.size}`).join(", ")}) into the new temple one at a time, joined together, or return the rest `
        + "to your supply. If they complete it, you win it and still play the next round."
      : swap ? `Lay the block that replaces the 1x${swap.size} you took out of zone ${swap.zone + 1}`
        + (swap.by === "chisel" ? " (another size; then you still play your die)."
          : ": the + cells show the correct blocks (this uses your turn).")
      : mode === "chisel" ? "Hammer & Chisel: press a block marked ⚒ to take it out; then lay one of another size."
      : sizes.length ? `Your die: ${dieText(dieFace)}. Pick a block, turn it, then press a + cell in a zone.`
      : "No block of your die fits anywhere right now.";
    const toggle = (name, text) => h("button", {
      class: `btn small tr-mode${mode === name ? " on" : ""}`, "data-testid": "tr-mode", "data-mode": name,
      "aria-pressed": String(mode === name), "data-key": `mode-${name}`,
      onclick: () => { local.mode = mode === name ? null : name; ctx.rerender(); } }, text);
    const modeButtons = [];
    if (!lightning && modes.has(null) && mode) {
      modeButtons.push(h("button", { class: "btn small tr-mode", "data-testid": "tr-mode", "data-mode": "plain",
        "data-key": "mode-plain", onclick: () => { local.mode = null; ctx.rerender(); } }, "Place the die's block"));
    }
    if (modes.has("hammer")) modeButtons.push(toggle("hammer", "Use Hammer & Chisel (another size)"));
    if (modes.has("mortar")) modeButtons.push(toggle("mortar", "Use Mortar (a loose block)"));
    if (modes.has("hammer+mortar")) modeButtons.push(toggle("hammer+mortar", "Use Hammer & Chisel and Mortar (another size, loose)"));
    if (modes.has("exchange")) modeButtons.push(toggle("exchange", "↺ Exchange a wrong block"));
    if (modes.has("chisel")) modeButtons.push(toggle("chisel", "⚒ Hammer & Chisel: swap a placed block"));
    const bags = moves.filter((m) => m.type === "bag");
    const pass = moves.find((m) => m.type === "pass");
    const withdraw = moves.find((m) => m.type === "withdraw");
    const supply = back ? Object.fromEntries(SIZES.map((s) => [`1x${s}`, held.filter((b) => b.size === s).length]))
      : view.seats[me].supply;
    return h("div", { class: "tr-controls", "data-testid": "tr-controls" },
      h("p", { class: "tr-prompt mine", "data-testid": "tr-prompt" }, prompt),
      wrongZones.size && mode !== "exchange" ? h("p", { class: "tr-mistake", "data-testid": "tr-mistake" },
        `Zone ${wrongList} can no longer be finished in one piece. You may correct it instead of placing your die's block: `
        + "“↺ Exchange a wrong block” (this uses your turn).") : null,
      mode === "hammer" ? h("p", { class: "hint" }, "Hammer & Chisel: place a block of a size the die does not show. The token is spent.") : null,
      mode === "mortar" ? h("p", { class: "hint" }, "Mortar: this block need not sit on or under the others in that zone; Mortar stays active there until you complete it.") : null,
      mode === "hammer+mortar" ? h("p", { class: "hint" }, "Both tokens: a block of a size the die does not show, not joined to the others in that zone. Both are spent (Mortar stays active there).") : null,
      mode === "chisel" ? h("p", { class: "hint" }, "The block goes back to your supply; then lay a block of another size from your supply "
        + "anywhere in that temple. The token is spent; you still play your die this round.") : null,
      !blockModes.has(mode) && sizes.length ? h("div", { class: "tr-pick", role: "group", "aria-label": "Block" },
        h("span", { class: "tr-k" }, "Block: "),
        SIZES.map((s) => {
          const can = sizes.includes(s);
          const borrowed = can && !supply[`1x${s}`]
            && (lightning || candidates.some((m) => m.size === s && m.from_zone !== undefined));
          return h("button", {
            class: `btn small tr-size${local.size === s && can ? " on" : ""}`, "data-testid": "tr-size", "data-size": s,
            "data-key": `size-${s}`, disabled: !can, "aria-pressed": String(local.size === s && can),
            onclick: () => { local.size = s; ctx.rerender(); },
          }, h("span", { class: `tr-mini s${s}`, "aria-hidden": "true" }), `1x${s}`,
          h("span", { class: "tr-count" }, borrowed ? " (from a zone)" : ` ×${supply[`1x${s}`] ?? 0}`));
        })) : null,
      !blockModes.has(mode) && sizes.length && local.size > 1 ? h("div", { class: "tr-pick", role: "group", "aria-label": "Turn the block" },
        h("span", { class: "tr-k" }, "Turn: "),
        ["flat", "upright"].map((d) => h("button", {
          class: `btn small tr-dir${local.dir === d ? " on" : ""}`, "data-testid": "tr-dir", "data-dir": d, "data-key": `dir-${d}`,
          disabled: !dirs.includes(d), "aria-pressed": String(local.dir === d),
          onclick: () => { local.dir = d; ctx.rerender(); },
        }, h("span", { class: `tr-turn ${d}`, "aria-hidden": "true" }), DIRS[d]))) : null,
      modeButtons.length ? h("div", { class: "tr-pick" }, modeButtons) : null,
      bags.length ? h("div", { class: "tr-pick" }, bags.map((m) => h("button", {
        class: "btn small", "data-testid": "tr-bag", "data-zone": m.zone, "data-seat": m.seat, "data-from-zone": m.from_zone,
        onclick: () => play(m),
      }, `Use the Bag: complete zone ${m.zone + 1} with the top two blocks of ${ctx.name(m.seat)}'s zone ${m.from_zone + 1}`))) : null,
      h("div", { class: "tr-pick" },
        pass ? h("button", { class: "btn ghost", "data-testid": "tr-pass", "data-key": "pass", onclick: () => play(pass) },
          "Pass this round") : null,
        back ? h("button", { class: "btn ghost", "data-testid": "tr-return", "data-zone": back.zone, "data-key": "return",
          onclick: () => play(back) }, `Return the rest to the supply (${held.length} block${held.length === 1 ? "" : "s"})`) : null,
        withdraw ? h("button", { class: "btn ghost", "data-testid": "tr-withdraw", "data-key": "withdraw", onclick: () => play(withdraw) },
          "Give up the race") : null));
  },

  // -- everyone else ----------------------------------------------------------------------

  /** Everyone else's boards, each folded into a one-line summary (name, score, what they did)
   *  that opens on a tap: open by default on a wide screen, closed on a phone. */
  others(view, ctx, me, local) {
    local.open = local.open || {};
    const wide = typeof window === "undefined" || window.innerWidth > 760;
    const lastOf = lastBlocks(view);
    const panels = view.seats.filter((s) => s.seat !== me).map((s) => {
      const acted = view.phase === "build" ? view.acted[s.seat] : null;
      const doing = view.phase === "build" ? `Die: ${dieText(view.dice[s.seat])} · ${acted ? `✓ ${ACTED[acted] || acted}` : "thinking…"}`
        : view.phase === "rebuild" && view.to_act.includes(s.seat) ? "rebuilding…" : "";
      const open = local.open[s.seat] ?? wide;
      return h("details", { class: "tr-other", "data-testid": "tr-other", "data-seat": s.seat, open,
                            ontoggle: (e) => { local.open[s.seat] = e.currentTarget.open; } },
        h("summary", {}, h("strong", {}, ctx.name(s.seat)), h("span", { class: "tr-head-score" }, scoreLine(s.score)),
          doing ? h("span", { class: "tr-other-state" }, ` · ${doing}`) : null),
        h("div", { class: "tr-zones small" }, s.zones.map((z) => {
          const card = view.holders[z.zone];
          const last = lastOf[s.seat]?.zone === z.zone ? lastOf[s.seat] : null;
          return h("div", { class: "tr-zone small" },
            h("span", { class: "tr-zone-title" }, `Zone ${z.zone + 1}${z.mortar ? " · Mortar" : ""}${z.complete ? " · ✓ complete" : ""}`),
            grid({ card, blocks: z.blocks, small: true, last, piece: `s${s.seat}z${z.zone}`,
                   label: `${ctx.name(s.seat)}'s zone ${z.zone + 1}: ${cardName(card)}` }));
        })),
        h("div", {}, h("span", { class: "tr-k" }, "Supply: "), supplyLine(s.supply)),
        wonLine(s.cards, s.tokens, s.bonus),
        powersLine(s.powers));
    });
    const robot = view.robot;
    if (robot) {
      panels.push(h("section", { class: "tr-other robot", "data-testid": "tr-robot" },
        h("h4", {}, "Robot", h("span", { class: "tr-head-score" }, scoreLine(robot.score))),
        h("p", { class: "tr-other-state" }, `Die: ${dieText(robot.die)} · ${plural(robot.deck_count, "card")} left in its deck`),
        h("div", { class: "tr-zones small" }, h("div", { class: "tr-zone small" },
          h("span", { class: "tr-zone-title" }, "Its temple: ", robot.card ? cardChip(robot.card) : "none"),
          grid({ card: robot.card, blocks: robot.zone, small: true, piece: "robot", label: `The Robot's zone: ${cardName(robot.card)}` }))),
        h("div", {}, h("span", { class: "tr-k" }, "Supply: "), supplyLine(robot.supply)),
        wonLine(robot.cards, [], robot.bonus)));
    }
    if (!panels.length) return null;
    return h("section", { class: "tr-others", "aria-label": "Other players" }, panels);
  },
};

/** Keep this round's news (cards won, bonus blocks, new cards) from the latest events. The race
 *  result is not remembered here: it is in view.last_race. */
function remember(view, ctx, local) {
  if (local.seenVersion === ctx.version) return;
  local.seenVersion = ctx.version;
  const news = (ctx.events || []).filter((e) => e.data && (e.data.won || e.data.bonus || e.data.cooperative
    || typeof e.data.lightning === "boolean" || e.data.card !== undefined || e.data.over)).map((e) => ctx.words(e.text));
  if (news.length) local.news = { round: view.round, lines: news };
}

/** The block each seat laid last (view.last), by seat; a race block's zone is "race". Drawn
 *  highlighted on that seat's board while the block is still there. */
function lastBlocks(view) {
  return (view.last || []).map((b) => (b ? { ...b, zone: b.type === "race" ? "race" : b.zone } : null));
}

function legend() {
  return h("details", { class: "legend tr-legend" },
    h("summary", {}, "How to play"),
    h("p", {}, "Each round the dice are rolled and everyone places the block their die shows (★ = any size) into one of their build zones, "
      + "all at the same time. Blocks must stay inside the temple's outline and sit on top of or under one of your blocks already in that zone (side by side does not join). "
      + "Pick a block size, turn it flat or on end, then press a + cell: that cell is the block's lowest, leftmost square."),
    h("p", {}, "Fill a temple exactly to win its card (Green 3, Blue 4, Red 5, Brown 6 points). You choose one of its blocks for "
      + "your bonus area (1–4 points, one block of each size at most); the rest go back to your supply. "
      + "Each unused power token is worth 1 point at the end."),
    h("p", {}, "Powers, once per game: Hammer & Chisel places another size than the die; Mortar lets blocks float loose in one zone; "
      + "the Bag borrows another player's top two blocks to finish your temple."),
    h("p", {}, "⚡ When the lightning card comes up, everyone races to build the card beneath it, block after block. "
      + "The first to finish wins the lightning card (3 points)."));
}
