// Solomon's Temple: both boards (Temple, gates, armies), cards in play, your hand, and the
// reaction windows (a Sin, an answer, a Blemished Animal, Israelite Armies, instants such as the
// evil cards and the Peace and Guilt Offerings in the opponent's turn) with a Pass button.
import { h, replace } from "/static/ui.js";

const STEP = {
  main: "Phase I: play cards", military: "Phase II: attack", defend: "Phase II: the defender (Israelite Armies)",
  build: "Phase III: build", sin: "A build is announced: sin against it?",
  answer: "A Sin was played: atone for it?", blemish: "An animal offering was made: blemish it?",
  place: "Phase III: place a piece", discard: "Phase IV: discard up to two",
  peace_take: "Peace Offering: take a card", peace_give: "Peace Offering: give a card back",
  instant: "Instant window for the player not on turn",
  sack: "The Temple is sacked: choose a Furnishing to carry off",
  relocate: "Israelite Army: click a free space (or a button) for the marked army",
  siege_move: "The siege broke a gate: move one army one extra space, or pass",
  over: "Game over",
};
// The status line is read by both players; the prompt only by the seat asked (the "instant"
// window's prompt speaks to the player not on turn, so it says so there alone).
const ASK = { instant: "Your opponent's turn: play an instant now?" };
const WINDOWS = new Set(["defend", "sin", "answer", "blemish", "instant"]);
// Steps that ask for a choice (shown as a prompt like a window): the Peace Offering's exchange
// may be made in the opponent's turn, where nothing else says it is this seat's move.
const CHOICES = new Set(["sack", "relocate", "siege_move", "peace_take", "peace_give"]);

function where(r, c) {
  if (r === 0) return `outside the wall, column ${c + 1}`;
  if (r === 1) return `gate ${GATES.indexOf(c) + 1}`;
  return `in the city, row ${r + 1}, column ${c + 1}`;
}
const COMPASS = { n: "north", s: "south", e: "east", w: "west" };
const GATES = [0, 2, 4];
const TEMPLE = [1, 2, 3];

function label(m, step) {
  const card = m.card || "";
  switch (m.type) {
    case "play": return `Play ${card}`;
    case "offer": return `Make a ${card}`;
    case "evil": return `Play ${card} on opponent`;
    case "levite": return card ? `Levite: take ${card}` : "Levite: search (no Structure in your pile)";
    case "peace_take": return `Take ${card}`;
    case "peace_give": return `Give back ${card}`;
    case "build_now": return `Build ${card} now` + ("gate" in m ? ` on gate ${m.gate + 1}` : "");
    case "place": return `Build ${card}` + ("gate" in m ? ` on gate ${m.gate + 1}` : "") + (m.with ? ` + ${m.with}` : "")
      + (m.cooperation ? " with Cooperation" : "");
    case "fast_take": return `Take back ${card}`;
    case "army": return "Place a Babylonian Army";
    case "move": return `Army ${m.army + 1} ${COMPASS[m.dir]}`;
    case "destroy": return `Army ${m.army + 1} destroys ` + (m.target === "temple" ? "the Temple" : `gate ${m.target + 1}`);
    case "sack": return `Carry off ${card}`;
    case "relocate": return m.stay ? `Army ${m.army + 1} stays where it is` : `Army ${m.army + 1} → ${where(m.row, m.col)}`;
    case "passage": return `Army ${m.army + 1}: Secret Passage`;
    case "siege": return "Lay Siege";
    case "siege_move": return `Army ${m.army + 1} ${COMPASS[m.dir]} (siege move)`;
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
    case "to_military": return "Go to the attack";
    case "end_military": return "End the attack";
    case "announce": return "Announce a build";
    case "skip_build": return "Do not build";
    case "end_turn": return "End turn";
    case "pass": return step === "peace_take" ? "Take nothing (the Peace Offering ends)" : "Pass";
    default: return m.type;
  }
}

function key(m) { return Object.entries(m).map(([k, v]) => `${k}=${v}`).join(";"); }

function moveButton(m, step, ctx) {
  return h("button", {
    class: `st-move st-${m.type}`, "data-legal": "true", "data-key": key(m),
    "data-testid": `move-${m.type}`, "aria-label": label(m, step),
    onclick: () => ctx.play(m).catch(() => {}),
  }, label(m, step));
}

// During an Israelite Army's re-location the defender may also click a free space of their own
// grid (the buttons below offer the same moves).
function relocateTargets(seat, ctx) {
  if (seat !== ctx.seat) return new Map();
  return new Map(ctx.legalMoves.filter((m) => m.type === "relocate").map((m) => [`${m.row},${m.col}`, m]));
}

function boardGrid(side, seat, view, ctx) {
  const targets = relocateTargets(seat, ctx);
  const cells = [];
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      const army = side.armies.findIndex((a) => a[0] === r && a[1] === c);
      let cls = "st-cell", text = "";
      if (r === 0) cls += " st-outside";
      if (r === 1) {
        const g = GATES.indexOf(c);
        if (g < 0) { cls += " st-wall"; text = "#"; }
        else if (side.guarded[g]) { cls += " st-guarded"; text = `G${g + 1}`; }
        else { cls += " st-gate"; text = `g${g + 1}`; }
      }
      if (r === 4 && TEMPLE.includes(c)) { cls += " st-temple"; text = "T"; }
      if (army >= 0) { cls += " st-army"; text = `A${army + 1}`; }
      if (army >= 0 && view.step === "relocate" && view.relocate[0] === army
          && seat !== view.turn) { cls += " st-marked"; text = `▶A${army + 1}`; }
      const target = targets.get(`${r},${c}`);
      if (target) {
        cells.push(h("button", {
          class: `${cls} st-target`, "aria-label": label(target),
          onclick: () => ctx.play(target).catch(() => {}),
        }, text || "·"));
        continue;
      }
      cells.push(h("span", { class: cls, "aria-label": army >= 0 ? `army ${army + 1}` : "" }, text));
    }
  }
  return h("div", { class: "st-grid", "data-testid": `grid-${seat}` }, cells);
}

function inPlay(p) {
  const out = [];
  if (p.priest) out.push("Priest");
  if (p.evil_priest) out.push("Evil Priest!");
  if (p.altar) out.push("Altar" + (p.bad_offering ? " (Bad Offering on it)" : ""));
  else if (p.bad_offering) out.push("Bad Offering (spoils the next offering on a new Altar)");
  if (p.prophet) out.push(`Prophet ${p.prophet}`);
  if (p.david) out.push("King David");
  if (p.solomon) out.push("King Solomon");
  if (p.scapegoat) out.push(`Scapegoat (${p.scapegoat === "active" ? "active" : "sideways"})`);
  if (p.unclean) out.push("Unclean");
  if (p.fast) out.push(p.fast_wait ? "Pray and Fast (counts from the next turn)" : `Pray and Fast (turn ${Math.min(p.fast, 3)} of 3)`);
  if (p.siege) out.push(`Lay Siege (turn ${p.siege})`);
  return out;
}

function sidePanel(view, seat, ctx) {
  const s = view.sides[seat];
  const temple = h("div", { class: "st-temple-list" },
    h("div", {}, h("b", {}, "Structures: "), s.structures.join(", ") || "none"),
    h("div", {}, h("b", {}, "Furnishings: "), s.furnishings.join(", ") || "none"));
  return h("section", { class: "st-side", "data-testid": `side-${seat}` },
    h("h3", {}, `${ctx.name(seat)}'s city`, seat === ctx.seat ? " (you)" : ""),
    h("div", { class: "st-meta" },
      `Hand ${s.hand_size} · pile ${s.deck_size} · discards ${s.discard.length} · `,
      `Temple ${s.structures.length}/5 + ${s.furnishings.length}/10`),
    boardGrid(s, seat, view, ctx), temple,
    h("div", { class: "st-inplay", "data-testid": `inplay-${seat}` },
      inPlay(s.play).map((t) => h("span", { class: "st-chip" }, t))),
    s.discard.length ? h("div", { class: "st-discard" }, "Last discard: ", s.discard[s.discard.length - 1]) : "");
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
        h("div", { class: "st-card-name" }, card, n > 1 ? ` x${n}` : ""),
        h("div", { class: "st-card-text" }, view.texts[card] || "")))));
}

export default {
  stylesheet: "/static/games/solomons-temple.css",

  render(container, view, ctx) {
    const actor = view.actor;
    const mine = ctx.seat !== null && ctx.seat === actor;
    const window = WINDOWS.has(view.step) || CHOICES.has(view.step);
    const who = actor === null ? "" : `${ctx.name(actor)} to move`;
    const prompt = window && mine
      ? h("div", { class: "st-prompt", "data-testid": "window" }, ASK[view.step] || STEP[view.step],
          view.step === "blemish" && view.offering ? ` (${view.offering})`
            : view.step === "sack" ? ` (${view.sack} left)`
            : view.step === "relocate" ? ` (army ${view.relocate[0] + 1}; ${view.relocate.length} left)`
            : view.sin ? ` (${view.sin})` : "")
      : "";
    const die = view.die
      ? h("div", { class: "st-die", "data-testid": "die" },
          `Prophet die (${ctx.name(view.die.by)}, turn ${view.die.turn}): ${view.die.roll} `,
          view.die.face === "star" ? "✡ Star of David: the people listen" : "† Sword: the attack goes on")
      : "";
    const status = h("div", { class: "st-status", "data-testid": "status" },
      `Turn ${view.turn_no} · ${ctx.name(view.turn)}'s turn · ${STEP[view.step]} · ${who}`,
      view.sin ? ` · Sin in play: ${view.sin}` : "", view.grain ? " · Grain Offering on the Altar" : "");
    const moves = h("div", { class: "st-moves", "data-testid": "moves" },
      ctx.legalMoves.map((m) => moveButton(m, view.step, ctx)));
    const order = ctx.seat === 1 ? [1, 0] : [0, 1];
    replace(container, h("div", { class: "st-root" }, status, die, prompt, moves,
      handPanel(view, ctx), h("div", { class: "st-sides" }, order.map((s) => sidePanel(view, s, ctx)))));
  },

  playerBadge(view, seat) {
    const s = view.sides[seat];
    return `${s.structures.length + s.furnishings.length}/15 built · ${s.hand_size} cards`;
  },
};
