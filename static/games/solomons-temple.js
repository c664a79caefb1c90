// Solomon's Temple: a prompt that names the decision in front of you and what each answer does,
// the moves grouped by what they are about, both cities (gates, armies, the Temple's pieces),
// the cards in play and your hand. In your turn your opponent attacks your city (the book's
// "II. Military Phase (Your opponent's turn)"); steps nobody can act in are skipped by the rules.
// The rules skip a step only when what anyone can see shows it has nothing (issue 33); a player
// may ask this page to pass for them when their own hand has nothing ("Pass for me").
import { h, plural, replace } from "/static/ui.js";

// Per browser, so per player (the browser keeps one identity): off until the player turns it on.
const AUTO_PASS = "ziggurat.solomons-temple.auto-pass";
const WAYS_OUT = ["pass", "end_military", "to_military"];

function autoPassOn() { return localStorage.getItem(AUTO_PASS) === "on"; }

/** The move this page sends by itself: the seat's only move when it is a way out and the player
 * chose "Pass for me when I have nothing"; once a version. */
function autoPass(ctx) {
  const only = ctx.legalMoves.length === 1 ? ctx.legalMoves[0] : null;
  if (!only || !WAYS_OUT.includes(only.type) || !autoPassOn() || ctx.pending || ctx.tutorial) return;
  if (ctx.local.autoPassed === ctx.version) return;
  ctx.local.autoPassed = ctx.version;
  setTimeout(() => ctx.play(only).catch(() => {}), 0);
}

function autoPassToggle(ctx) {
  if (ctx.seat === null || ctx.tutorial) return "";  // a tutorial's every step is the learner's
  const on = autoPassOn();
  return h("label", { class: "st-autopass", title: "Your opponent can then tell from the speed of "
      + "your answer that you held nothing to play there." },
    h("input", { type: "checkbox", "data-testid": "auto-pass", checked: on, onchange: (e) => {
      localStorage.setItem(AUTO_PASS, e.target.checked ? "on" : "off");
      ctx.rerender();
    } }),
    " Pass for me when I have nothing",
    h("span", { class: "st-autopass-note" }, " (your opponent can then tell you held nothing)"));
}

const GATES = [0, 2, 4];
const TEMPLE = [1, 2, 3];
const COMPASS = { n: "north", s: "south", e: "east", w: "west" };
const STRUCTURES = ["Porch", "Pillar Boaz", "Pillar Jachin", "Main Hall", "Holy of Holies"];
const FURNISHINGS = {
  Porch: ["Bronze Sea", "Bronze Lavers"], "Pillar Boaz": ["Capital of Boaz"],
  "Pillar Jachin": ["Capital of Jachin"],
  "Main Hall": ["Table of Showbread", "Golden Lampstand", "Altar of Incense"],
  "Holy of Holies": ["Ark of the Covenant", "Cherubim", "Veil"],
};
const PHASE = {
  main: "Phase I · cards", military: "Phase II · attack", sack: "Phase II · attack",
  siege_move: "Phase II · attack", defend: "Phase II · defence", relocate: "Phase II · defence",
  build: "Phase III · building", sin: "Phase III · building", answer: "Phase III · building",
  place: "Phase III · building", discard: "Phase IV · discards", over: "Game over",
};

/** The one name of a board space (the rules' log uses the same words). */
function where(r, c) {
  if (r === 0) return `outside the wall, column ${c + 1}`;
  if (r === 1) return GATES.includes(c) ? `gate ${GATES.indexOf(c) + 1}` : `the wall, column ${c + 1}`;
  if (r === 4) return `beside the Temple, column ${c + 1}`;
  return `in the city, row ${r - 1}, column ${c + 1}`;
}

function label(m, step) {
  const card = m.card || "";
  const gate = "gate" in m ? ` on gate ${m.gate + 1}` : "";
  switch (m.type) {
    case "play": return card === "Filling of the Holy of Holies" ? "Fill the Holy of Holies (win)" : `Lay down ${card}`;
    case "offer": return `Offer ${card}`;
    case "evil": return `${card} on your opponent`;
    case "levite": return card ? `Levite: fetch ${card}` : "Levite (no Structure in your pile)";
    case "peace_take": return `Take ${card}`;
    case "peace_give": return `Give back ${card}`;
    case "build_now": return `Build ${card}${gate} now (King)`;
    case "announce": return `Build ${card}${gate}` + (m.with ? ` + ${m.with}` : "") + (m.cooperation ? " (Cooperation)" : "");
    case "place": return `Build ${card}${gate}` + (m.with ? ` + ${m.with}` : "") + (m.cooperation ? " (Cooperation)" : "");
    case "fast_take": return `Take back ${card}`;
    case "army": return "New army at the north gate";
    case "move": return `Army ${m.army + 1} ${COMPASS[m.dir]}`;
    case "destroy": return `Army ${m.army + 1} destroys ` + (m.target === "temple" ? "the Temple" : `gate ${m.target + 1}`);
    case "sack": return `Carry off ${card}`;
    case "relocate": return m.stay ? `Army ${m.army + 1} stays` : `Army ${m.army + 1} → ${where(m.row, m.col)}`;
    case "passage": return `Army ${m.army + 1}: Secret Passage`;
    case "siege": return "Lay Siege";
    case "siege_move": return `Army ${m.army + 1} ${COMPASS[m.dir]} (siege)`;
    case "siege_break": return `Siege breaks gate ${m.gate + 1}`;
    case "drop_siege": return "Give up the siege";
    case "israelite": return "Israelite Army";
    case "israelite2": return "Two Israelite Armies";
    case "sin": return `Sin: ${card}`;
    case "burnt": return "Burnt Offering";
    case "scapegoat": return "Send the Scapegoat";
    case "blemish": return "Blemished Animal";
    case "discard": return `Discard ${card}`;
    case "reshuffle": return "Reshuffle hand";
    case "to_military": return "Done: to the attack";
    case "end_military": return "End the attack";
    case "skip_build": return step === "build" ? "Discard cards, then end the turn (no build)" : "No build: discard";
    case "end_turn": return step === "build" ? "End turn now (keep every card)" : "End turn";
    case "pass": return { sin: "No Sin: let it be built", answer: "Let the Sin stand", blemish: "Let it stand",
      defend: "No Israelite Army", instant: "Nothing now", peace_take: "Take nothing", siege_move: "No siege move" }[step] || "Pass";
    default: return m.type;
  }
}

// Moves grouped by what they are about; the group's first decision is the page's main button.
const GROUPS = [
  ["Build", ["announce", "place", "build_now", "play:Filling of the Holy of Holies"]],
  ["Answer", ["sin", "burnt", "scapegoat", "blemish", "israelite", "israelite2", "relocate", "sack", "peace_take", "peace_give"]],
  ["Armies", ["army", "move", "passage", "destroy", "siege", "siege_break", "siege_move", "drop_siege"]],
  ["Cards", ["play", "offer", "evil", "levite", "fast_take", "discard", "reshuffle"]],
  ["Go on", ["to_military", "end_military", "skip_build", "end_turn", "pass"]],
];
function group(m) {
  for (const [name, kinds] of GROUPS) {
    if (kinds.includes(`${m.type}:${m.card}`) || kinds.includes(m.type)) return name;
  }
  return "Cards";
}

function key(m) { return Object.entries(m).map(([k, v]) => `${k}=${v}`).join(";"); }

function moveButton(m, step, ctx, primary) {
  const go = GROUPS[4][1].includes(m.type);
  return h("button", {
    class: `btn small st-move st-${m.type}` + (primary ? " primary" : "") + (go ? " ghost" : ""),
    "data-legal": "true", "data-key": key(m), "data-testid": `move-${m.type}`, "aria-label": label(m, step),
    onclick: () => ctx.play(m).catch(() => {}),
  }, label(m, step));
}

/** A hand that cannot build (Phase III with no piece to announce): discarding is what frees it,
 * so "Discard cards" leads, as the page's main button, before "End turn now". */
function clogged(view, ctx) {
  return view.step === "build" && !ctx.legalMoves.some((m) => m.type === "announce");
}

function movesPanel(view, ctx) {
  if (!ctx.legalMoves.length) return h("div", { class: "st-moves", "data-testid": "moves" });
  const groups = new Map(GROUPS.map(([name]) => [name, []]));
  const stuck = clogged(view, ctx);
  const moves = stuck ? [...ctx.legalMoves].sort((a, b) => (b.type === "skip_build") - (a.type === "skip_build")) : ctx.legalMoves;
  for (const m of moves) groups.get(group(m)).push(m);
  let first = true;
  const rows = [];
  for (const [name, moves] of groups) {
    if (!moves.length) continue;
    const primary = first && name !== "Go on" && !stuck;
    rows.push(h("div", { class: "st-group" }, h("span", { class: "st-group-name" }, name),
      h("div", { class: "st-group-moves" }, moves.map((m, i) => moveButton(m, view.step, ctx,
        stuck ? m.type === "skip_build" : primary && i === 0)))));
    first = false;
  }
  return h("div", { class: "st-moves", "data-testid": "moves" }, rows);
}

function armiesText(side) {
  if (!side.armies.length) return "no enemy army stands in your city's board";
  return side.armies.map((a, i) => `army ${i + 1} ${where(a[0], a[1])}`).join(", ");
}

/** Why a held Burnt Offering cannot be offered now (or ""). */
function burntBlocked(view, seat) {
  const s = view.sides[seat];
  if (!(s.hand || []).includes("Burnt Offering")) return "";
  const p = s.play;
  if (p.fast && !p.fast_wait && p.fast < 3) return "Pray and Fast forbids good cards";
  if (p.evil_priest) return "an Evil Priest stands in your Priest's place";
  if (!p.priest && !p.altar) return "you have no Priest and no Altar in play";
  if (!p.priest) return "you have no Priest in play";
  if (!p.altar) return "you have no Altar in play";
  if (p.unclean) return "your Priest is Unclean this turn";
  return "";
}

/** What the deciding seat is asked, and what its answers do. */
function prompt(view, ctx) {
  const me = ctx.seat, opp = 1 - me, them = ctx.name(opp);
  const mine = view.sides[me], theirs = view.sides[opp];
  switch (view.step) {
    case "main": return `Phase I: lay down cards (Priest, Altar, Prophet, Kings, offerings…), then go on: ${them} attacks your city next.`;
    case "military": return `Phase II: you attack ${them}'s city (${armiesText(theirs).replace("your city's board", "there")}). Bring a new army to the north gate, move each army one space, then end the attack.`;
    case "sack": return `The Temple of ${them} is sacked: choose ${view.sack} Furnishing(s) to send back into their draw pile.`;
    case "siege_move": return "The siege broke a gate: move one army one more space, or not.";
    case "defend": return `Phase II, your defence: ${armiesText(mine)}. One Israelite Army lets you move each army inside the walls to any free space; two send every army home.`;
    case "relocate": { const a = mine.armies[view.relocate[0]];
      return `Israelite Army: where does army ${view.relocate[0] + 1} (${where(a[0], a[1])}) go? Click a free space of your city or a button.`; }
    case "build": return ctx.legalMoves.some((m) => m.type === "announce")
      ? "Phase III: build a piece (your opponent may answer with a Sin; they do not see which), or end your turn without building."
      : "Phase III: you hold no piece you can build (a Structure, a Furnishing whose Structure stands, a Guarded Gate for an open gate). Discard up to two cards to draw fresh ones next turn, or end your turn keeping your hand.";
    case "sin": return `${them} announced a build: play one Sin to stop it (they may atone), or let it be built.`;
    case "answer": return `${them} played the Sin ${view.sin} against your build: atone with a Burnt Offering or the Scapegoat, or the Sin stands and you do not build.`;
    case "blemish": return `${them} offered a ${view.offering}: a Blemished Animal negates it.`;
    case "instant": return `${ctx.name(view.turn)}'s turn: you may play an instant now (it is your only chance before they could make an offering).`;
    case "place": return "The build goes ahead: choose the piece.";
    case "discard": return "Phase IV: discard up to two cards, then end your turn.";
    case "peace_take": return "Peace Offering: take a good card from your draw pile.";
    case "peace_give": return "Peace Offering: give a good card from your hand back.";
    default: return "";
  }
}

function lastMove(view) {
  // The last move as everyone may see it (view.last): which army or gate moved, which piece
  // was built.
  const out = { cells: new Set(), pieces: new Set() };
  for (const d of view.last ? [view.last] : []) {
    const attacked = 1 - d.seat;
    if (["move", "siege_move", "passage", "destroy"].includes(d.type)) out.cells.add(`${attacked}:army:${d.army}`);
    if (d.type === "army") out.cells.add(`${attacked}:cell:0,2`);
    if (d.type === "relocate") out.cells.add(`${d.seat}:cell:${d.row},${d.col}`);
    if (["place", "build_now"].includes(d.type) && d.card) {
      if ("gate" in d) out.cells.add(`${d.seat}:cell:1,${GATES[d.gate]}`);
      out.pieces.add(`${d.seat}:${d.card}`);
      if (d.with) out.pieces.add(`${d.seat}:${d.with}`);
    }
  }
  return out;
}

function boardGrid(side, seat, view, ctx, last) {
  const targets = seat === ctx.seat
    ? new Map(ctx.legalMoves.filter((m) => m.type === "relocate").map((m) => [`${m.row},${m.col}`, m]))
    : new Map();
  const cells = [];
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      const army = side.armies.findIndex((a) => a[0] === r && a[1] === c);
      let cls = "st-cell", text = "";
      if (r === 0) cls += " st-outside";
      if (r === 1) {
        const g = GATES.indexOf(c);
        if (g < 0) cls += " st-wall";
        else if (side.guarded[g]) { cls += " st-guarded"; text = `▣${g + 1}`; }
        else { cls += " st-gate"; text = `${g + 1}`; }
      }
      if (r >= 2 && r <= 3) cls += " st-city";
      if (r === 4 && TEMPLE.includes(c)) { cls += " st-temple"; text = c === 2 ? "⌂" : ""; }
      if (army >= 0) { cls += " st-army"; text = `⚔${army + 1}`; }
      if (army >= 0 && view.step === "relocate" && view.relocate[0] === army && seat === view.turn) cls += " st-marked";
      if (last.cells.has(`${seat}:cell:${r},${c}`) || (army >= 0 && last.cells.has(`${seat}:army:${army}`))) cls += " st-last";
      const name = where(r, c) + (army >= 0 ? `, army ${army + 1}` : "");
      const target = targets.get(`${r},${c}`);
      if (target) {
        cells.push(h("button", { class: `${cls} st-target`, "aria-label": label(target), title: name,
          onclick: () => ctx.play(target).catch(() => {}) }, text || "·"));
        continue;
      }
      // static/motion.js: an army keeps its name, so a step slides it; a new one drops in.
      const shown = army >= 0 ? h("span", { class: "st-army-piece", "data-piece": `army:${seat}:${army}`,
                                            "data-piece-from": "drop" }, text) : text;
      cells.push(h("span", { class: cls, title: name, "aria-label": name }, shown));
    }
  }
  return h("div", { class: "st-grid", "data-testid": `grid-${seat}` }, cells);
}

function templeList(side, seat, last) {
  return h("ul", { class: "st-temple-list", "data-testid": `temple-${seat}` }, STRUCTURES.map((st) => {
    const built = side.structures.includes(st);
    const furn = FURNISHINGS[st];
    const have = furn.filter((f) => side.furnishings.includes(f));
    const fresh = [st, ...furn].some((p) => last.pieces.has(`${seat}:${p}`));
    return h("li", { class: "st-piece" + (built ? " built" : "") + (fresh ? " st-last" : ""),
      title: `${st}: ${built ? "built" : "not built"}; ${have.join(", ") || "no Furnishing"}` },
      h("span", { class: "st-piece-name" }, built ? "▣ " : "▢ ", st),
      h("span", { class: "st-piece-furn" }, `${have.length}/${furn.length}`));
  }));
}

function inPlay(p) {
  const out = [];
  if (p.prophet) out.push(["✡", `Prophet ${p.prophet}`]);
  if (p.priest) out.push(["✝", p.unclean ? "Priest (Unclean this turn)" : "Priest"]);
  if (p.evil_priest) out.push(["☠", "Evil Priest"]);
  if (p.altar) out.push(["▲", "Altar" + (p.bad_offering ? " (Bad Offering on it)" : "")]);
  else if (p.bad_offering) out.push(["☠", "Bad Offering waits for the next Altar"]);
  if (p.david) out.push(["♔", "King David"]);
  if (p.solomon) out.push(["♔", "King Solomon"]);
  // Capricorn, the goat, as text (U+FE0E): a symbol font has it where no emoji font is installed.
  if (p.scapegoat) out.push(["\u2651\uFE0E", `Scapegoat (${p.scapegoat === "active" ? "active" : "sideways, not yet active"})`]);
  if (p.fast) out.push(["☾", p.fast_wait ? "Pray and Fast (counts from the next turn)" : `Pray and Fast (turn ${Math.min(p.fast, 3)} of 3)`]);
  if (p.siege) out.push(["⚑", `Lay Siege (turn ${p.siege})`]);
  return out;
}

function sidePanel(view, seat, ctx, last) {
  const s = view.sides[seat];
  const score = pieces(view, seat);
  const chips = inPlay(s.play);
  return h("section", { class: "st-side" + (seat === view.turn ? " on-turn" : ""), "data-testid": `side-${seat}` },
    h("h3", {}, `${ctx.name(seat)}'s city`, seat === ctx.seat ? " (you)" : "",
      h("span", { class: "st-score", title: "Temple pieces built (5 Structures + 10 Furnishings)" }, `${score}/15`)),
    h("div", { class: "st-board" }, boardGrid(s, seat, view, ctx, last), templeList(s, seat, last)),
    h("div", { class: "st-inplay", "data-testid": `inplay-${seat}` },
      chips.length ? chips.map(([sym, t]) => h("span", { class: "st-chip" }, h("b", {}, sym), " ", t))
        : h("span", { class: "st-none" }, "No cards in play")),
    h("div", { class: "st-meta" }, `Hand ${s.hand_size} · pile ${s.deck_size} · discards ${s.discard.length}`,
      s.discard.length ? ` (last: ${s.discard[s.discard.length - 1]})` : ""));
}

/** Temple pieces built (5 Structures + 10 Furnishings): what decides the game. */
function pieces(view, seat) {
  const s = view.sides[seat];
  return (view.pieces || [])[seat] ?? s.structures.length + s.furnishings.length;
}

/** How the game ends, in words: the Filling, or the turn limit's larger Temple. */
function endRule(view) {
  return "To win: build all 15 Temple pieces (5 Structures, 10 Furnishings), then play the Filling of the Holy of Holies. "
    + `If nobody has by the end of turn ${view.turn_limit}, the larger Temple wins (equal Temples: a draw).`;
}

/** From 20 turns before the limit: how many are left and who the limit would make the winner. */
function limitWarning(view, ctx) {
  if (view.step === "over" || view.turn_no < view.turn_limit - 20) return null;
  const left = view.turn_limit - view.turn_no;
  const [a, b] = [pieces(view, 0), pieces(view, 1)];
  const now = a === b ? `the Temples are equal (${plural(a, "piece")} each): a draw`
    : `${ctx.name(a > b ? 0 : 1)} would win (${plural(Math.max(a, b), "piece")} to ${Math.min(a, b)})`;
  return h("div", { class: "st-limit", role: "status", "data-testid": "turn-limit" },
    `Turn ${view.turn_no} of ${view.turn_limit}: `,
    left ? `${plural(left, "more turn")} after this one. ` : "the last turn. ",
    `At the end of turn ${view.turn_limit} the larger Temple wins; as it stands, ${now}.`);
}

function handPanel(view, ctx) {
  if (ctx.seat === null) return h("p", { class: "st-spectator" }, "You are watching: hands are hidden.");
  const hand = view.sides[ctx.seat].hand || [];
  const counted = {};
  for (const c of hand) counted[c] = (counted[c] || 0) + 1;
  return h("section", { class: "st-hand", "data-testid": "hand" },
    h("h3", {}, `Your hand (${hand.length})`),
    h("div", { class: "st-cards" }, Object.entries(counted).sort().map(([card, n]) =>
      h("div", { class: "st-card", "data-card": card },
        h("div", { class: "st-card-name" }, card, n > 1 ? ` ×${n}` : ""),
        h("div", { class: "st-card-text" }, view.texts[card] || "")))));
}

export default {
  /** Where a move is clicked (tutorials and hints mark these): its button in the moves panel. */
  targets(move) {
    return [`[data-key="${CSS.escape(key(move))}"]`];
  },

  stylesheet: "/static/games/solomons-temple.css",

  render(container, view, ctx) {
    const actor = view.actor;
    const mine = ctx.seat !== null && ctx.seat === actor && ctx.legalMoves.length > 0;
    const last = lastMove(view);
    const phase = PHASE[view.step] || PHASE[view.step === "instant" || view.step === "blemish" ? "main" : "over"];
    const status = h("div", { class: "st-status", "data-testid": "status" },
      h("b", {}, `Turn ${view.turn_no} of ${view.turn_limit} · ${ctx.name(view.turn)}'s turn`), ` · ${phase}`,
      actor !== null && actor !== view.turn ? ` · ${ctx.name(actor)} answers` : "",
      view.sin ? ` · Sin: ${view.sin}` : "", view.grain ? " · Grain Offering on the Altar" : "");
    const goal = h("div", { class: "st-goal", "data-testid": "goal" }, endRule(view, ctx));
    const limit = limitWarning(view, ctx);
    const die = view.die
      ? h("div", { class: "st-die " + view.die.face, "data-testid": "die" },
          h("span", { class: "st-die-face" }, view.die.face === "star" ? "✡" : "†"),
          ` ${ctx.name(view.die.by)}'s Prophet die: `,
          view.die.face === "star" ? "Star of David, the people listen: no attack this turn." : "Sword, the people do not listen: the attack may go on.")
      : "";
    const why = ctx.seat !== null && ctx.seat === view.turn ? burntBlocked(view, ctx.seat) : "";
    const ask = mine ? h("div", { class: "st-prompt", "data-testid": "window" }, prompt(view, ctx),
      why && (["build", "answer", "main", "place"].includes(view.step) || (view.step === "discard" && view.sin && !view.built))
        ? h("div", { class: "st-why", "data-testid": "burnt-why" }, `Your Burnt Offering cannot be offered: ${why}.`) : "")
      : h("div", { class: "st-wait" }, actor === null ? "" : `Waiting for ${ctx.name(actor)}…`);
    // Your city first, but the city under attack first while you attack it.
    const attacking = ["military", "sack", "siege_move"].includes(view.step) && ctx.seat === actor;
    const first = ctx.seat === null ? 0 : attacking ? view.turn : ctx.seat;
    const order = [first, 1 - first];
    replace(container, h("div", { class: "st-root" },
      h("div", { class: "st-top" }, status, limit, goal, die, ask, movesPanel(view, ctx), autoPassToggle(ctx)),
      h("div", { class: "st-sides" }, order.map((s) => sidePanel(view, s, ctx, last))),
      handPanel(view, ctx)));
    if (mine) autoPass(ctx);
  },

  playerBadge(view, seat) {
    const s = view.sides[seat];
    return `Temple ${pieces(view, seat)}/15 · ${plural(s.hand_size, "card")}`;
  },
};
