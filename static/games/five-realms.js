// 5 Realms: the floating Alkane square, the collected cards, councils, Titans, influence columns
// and every effect's choice as a worded prompt. Renderer interface: see gem-pyramid.js / room.js.
//
// Character sides are secrets: this file only ever shows a name the view carries (`name` is null
// for a card the viewer has not seen), so nothing hidden can leak from here.

import { h, replace } from "/static/ui.js";

const CSS_HREF = "/static/games/five-realms.css";

/** Every banner: a hue AND a symbol AND its name in text, so colour is never the only cue. */
export const BANNERS = {
  reptile: { symbol: "◆", label: "Reptile" },
  feline: { symbol: "●", label: "Feline" },
  raptor: { symbol: "▲", label: "Raptor" },
  ursid: { symbol: "■", label: "Ursid" },
  marine: { symbol: "≈", label: "Marine" },
  imperial: { symbol: "✦", label: "Imperial Order" },
  religious: { symbol: "✚", label: "Religious Order" },
};

/** What each character does, in a line (character types, never a hidden card's name). */
const EFFECTS = {
  king: (r) => `end of game: more ${r} influence than the opponent → +3 castles`,
  queen: (r) => `3rd, 4th and 5th ${r} influence → +1 castle each`,
  witch: (r) => `3rd and 5th ${r} influence → take a card from the discard pile`,
  warrior: (r) => `4th ${r} influence → steal 1 castle or destroy an opposing character or Titan`,
  titan: () => "Titan: +1 castle when recruited; 5 different Titans win at once",
  colonel: () => "+1 castle per new line of influence; end: more lines → +2",
  general: () => "an extra turn per new line of influence",
  captain: () => "+1 castle per realm where you lead, when recruited and at the end",
  marshal: () => "end: more Imperial Order characters in the council → +3",
  popess: () => "4th influence of any realm → +2 castles",
  warrior_monk: () => "when recruited: steal 1 or destroy; end: more warriors → steal 2",
  gaia: () => "Titan: +1 castle; end: more Titans → +1",
  ouranos: () => "Titan: +1 castle",
};
const TITAN_KINDS = new Set(["titan", "gaia", "ouranos"]);

function ensureCss() {
  if (document.querySelector(`link[href="${CSS_HREF}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href: CSS_HREF }));
}

function bannerInfo(banner) {
  return BANNERS[banner] || { symbol: "?", label: banner || "unknown" };
}

/** "● Feline" as a small chip. */
function bannerTag(banner, extra = "") {
  const info = bannerInfo(banner);
  return h("span", { class: `fr-tag b-${banner} ${extra}` },
    h("span", { class: "fr-sym", "aria-hidden": "true" }, info.symbol), ` ${info.label}`);
}

function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

function effectText(card) {
  const fn = card && card.character ? EFFECTS[card.character] : null;
  return fn ? fn(bannerInfo(card.banner).label) : "";
}

/** A card as a tile: banner always, character name only if the view gives it. */
function cardTile(card, opts = {}) {
  const info = bannerInfo(card.banner);
  const fresh = opts.fresh && opts.fresh.has(card.card);
  return h("div", {
    class: `fr-card b-${card.banner}${opts.extra ? ` ${opts.extra}` : ""}${fresh ? " fresh" : ""}`,
    "data-testid": opts.testid || "fr-card", "data-card": card.card, "data-banner": card.banner,
    "data-recent": fresh ? "true" : null,
    // static/motion.js: a card slides where it goes (a collected one, from its Alkane spot).
    "data-piece": `card:${card.card}`, "data-piece-from": `alkane:${card.card}`,
    title: card.name ? `${card.name}: ${effectText(card)}` : `${info.label} banner`, // what a piece means, on hover
  },
  h("span", { class: "fr-card-banner" }, h("span", { class: "fr-sym", "aria-hidden": "true" }, info.symbol),
    ` ${info.label}`),
  card.name ? h("strong", { class: "fr-card-name" }, card.name)
    : opts.hideNote === false ? null : h("span", { class: "fr-card-hidden" }, "character hidden"),
  opts.effect && card.name ? h("span", { class: "fr-card-effect" }, effectText(card)) : null,
  opts.note ? h("span", { class: "fr-card-note" }, opts.note) : null,
  fresh ? h("span", { class: "fr-card-note fr-fresh-note" }, "just taken") : null);
}

/** The latest turn (`view.recent`): who played it, the card placed, the cards taken. */
function recentOf(view) {
  const r = view.recent;
  return r ? { seat: r.seat, placed: r.placed, cards: new Set(r.cards || []) } : null;
}

/** Every card the view names, by id (for labelling moves that carry only ids). */
function cardIndex(view) {
  const index = new Map();
  const add = (c) => { if (c && c.card && (!index.has(c.card) || c.name)) index.set(c.card, c); };
  view.hand.forEach(add);
  view.discard.cards.forEach(add);
  for (const p of view.players) { p.council.forEach(add); p.titans.forEach(add); }
  if (view.pending?.card && typeof view.pending.card === "object") add(view.pending.card);
  for (const e of view.pending?.entries || []) add({ card: e.card, name: e.name, banner: null });
  return index;
}

function cardLabel(index, id) {
  const c = index.get(id);
  if (!c) return "a hidden card";
  if (c.name) return c.name;
  return `a hidden ${bannerInfo(c.banner).label} card`;
}

function genericLabel(move) {
  const { type, ...rest } = move;
  const bits = Object.entries(rest).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${type}${bits.length ? ` — ${bits.join(", ")}` : ""}`;
}

export default {
  /** Loaded by the shell before the first drawing where it supports this; ensureCss() otherwise. */
  stylesheet: CSS_HREF,

  /** Where a move is clicked (tutorials and hints mark these): every move is a button of its own. */
  targets(move) {
    return [`[data-testid="fr-move"][data-move="${CSS.escape(JSON.stringify(move))}"]`];
  },

  render(container, view, ctx) {
    ensureCss();
    const me = ctx.seat !== null && ctx.seat !== undefined && view.players[ctx.seat] ? ctx.seat : null;
    const legal = ctx.myTurn ? ctx.legalMoves : [];
    const index = cardIndex(view);
    const offered = new Set();
    const button = (move, label, attrs = {}) => {
      offered.add(move);
      const json = JSON.stringify(move);
      return h("button", {
        class: `btn fr-move ${attrs.class || ""}`, type: "button", "data-testid": "fr-move",
        "data-legal": "true", "data-move": json, "data-key": `move-${json}`, "aria-label": attrs.aria || null,
        onclick: () => ctx.play(move).catch(() => {}),
      }, label);
    };
    const seatsInOrder = me === null ? view.players.map((p) => p.seat) : [me, 1 - me];
    const recent = recentOf(view);

    const square = this.square(view, ctx, legal, button, recent, me);
    const prompt = this.prompt(view, ctx, legal, index, button, me);
    // Anything legal the nicer controls did not show still gets a labelled button.
    const leftovers = legal.filter((m) => !offered.has(m));
    if (leftovers.length) {
      prompt.append(h("div", { class: "fr-options fr-fallback" },
        leftovers.map((m) => button(m, genericLabel(m)))));
    }
    const asked = ctx.myTurn && view.pending ? `${ctx.version}:${view.pending.kind}` : null;
    replace(container, h("div", { class: "fr", "data-testid": "five-realms" },
      prompt,
      h("div", { class: "fr-common" }, square, this.piles(view)),
      view.hand.length ? this.hand(view, ctx) : null,
      this.influence(view, ctx, seatsInOrder, recent),
      h("div", { class: "fr-players" }, seatsInOrder.map((s) => this.player(view, ctx, s, me, recent)))));
    // A new question for me (after the other player's turn, or the next step of mine): make sure
    // it is on screen, which matters on a phone where the board is taller than the screen.
    if (asked && ctx.local.asked !== asked) {
      const top = prompt.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight * 0.5) prompt.scrollIntoView({ block: "start" });
      // Keyboard users lost focus with the button they pressed: hand it to the first choice.
      const active = document.activeElement;
      if (!active || active === document.body || container.contains(active)) {
        container.querySelector("[data-testid=fr-move]")?.focus({ preventScroll: true });
      }
    }
    ctx.local.asked = asked;
  },

  // -- the question of the moment ------------------------------------------------------------

  prompt(view, ctx, legal, index, button, me) {
    const box = h("section", { class: `fr-prompt${ctx.myTurn ? " mine" : ""}`, "data-testid": "fr-prompt",
                               "aria-live": "polite" });
    const p = view.pending;
    const just = (ctx.events || []).map((e) => ctx.words(e.text));
    if (just.length) {
      box.append(h("ul", { class: "fr-events", "aria-label": "What just happened" },
        just.slice(view.over ? -10 : -4).map((t) => h("li", {}, t))));
    }
    if (!p || view.over || ctx.status === "finished") {
      const scores = view.players.map((pl) => `${ctx.name(pl.seat)}: ${plural(pl.castles, "castle")}`).join(" · ");
      box.append(h("h2", { class: "fr-question" }, "The game is over."), h("p", { class: "hint" }, scores));
      return box;
    }
    const actor = ctx.name(p.seat);
    const opp = 1 - p.seat;
    const oppName = me === opp ? "you" : ctx.name(opp);
    const oppPossessive = me === opp ? "your" : `${ctx.name(opp)}'s`;
    if (ctx.pending) {
      box.append(h("h2", { class: "fr-question" }, "Sending your move…"));
      return box;
    }
    if (!ctx.myTurn) {
      box.append(h("h2", { class: "fr-question" }, this.waitingText(view, ctx, actor, oppPossessive, me)));
      return box;
    }
    const ask = (text, ...rest) => box.append(h("h2", { class: "fr-question" }, text),
      ...rest.filter((el) => el !== null && el !== undefined && el !== false));
    const options = (...buttons) => h("div", { class: "fr-options" }, buttons);
    const of = (type) => legal.filter((m) => m.type === type);
    switch (p.kind) {
      case "place": {
        const top = view.deck.top_banner;
        ask(`Your turn: place the drawn ${bannerInfo(top).label} card on a glowing “Place here” spot of Alkane.`,
          h("p", { class: "fr-drawn" }, "Drawn card: ", bannerTag(top),
            h("span", { class: "fr-note" }, " (its character side stays hidden)")),
          h("p", { class: "hint" }, "It must touch a card and Alkane must stay within 3 × 3. "
            + "Touching its own banner collects that connected group; otherwise you pick a neighbouring banner."));
        break;
      }
      case "collect": {
        ask("Your card touches several banners: which do you collect?",
          options(of("collect").map((m) => {
            const opt = (p.options || []).find((o) => o.banner === m.banner);
            const n = opt ? opt.cards.length : 0;
            return button(m, [h("span", { class: "fr-sym", "aria-hidden": "true" }, bannerInfo(m.banner).symbol),
              ` Collect the ${bannerInfo(m.banner).label} banners (${plural(n, "card")})`], { class: `b-${m.banner}` });
          })));
        break;
      }
      case "action":
      case "witch_use": {
        const what = p.kind === "action" ? `You collected ${plural(view.hand.length, "card")}`
          : `Your Witch picked ${cardLabel(index, view.hand[0]?.card)}`;
        ask(`${what}: recruit or influence?`,
          options(legal.map((m) => {
            if (m.type === "recruit") {
              return button(m, p.kind === "action" ? "Recruit — look at their characters and take one into your council"
                : "Recruit — take this character");
            }
            if (m.type === "influence") {
              return button(m, `Influence — add ${plural(view.hand.length, "banner")} to your realm columns`);
            }
            return null;
          })),
          p.can_influence === false ? h("p", { class: "hint" },
            "You cannot influence with these: Religious Order banners never influence, and Imperial Order banners need a column you already have.") : null);
        break;
      }
      case "recruit": {
        const council = view.players[p.seat].council.length;
        const choosable = new Set(of("choose").map((m) => m.card));
        const blocked = view.hand.filter((c) => !choosable.has(c.card));
        ask("Recruit one of the collected characters, or none (the others go to the discard pile).",
          options(legal.map((m) => {
            if (m.type === "choose") {
              const c = index.get(m.card);
              return button(m, [h("strong", {}, `Recruit ${cardLabel(index, m.card)}`),
                c && c.name ? h("span", { class: "fr-move-note" }, effectText(c)) : null],
              { class: `fr-recruit b-${c?.banner || ""}` });
            }
            if (m.type === "decline") return button(m, "Recruit nobody — discard them all", { class: "ghost" });
            return null;
          })),
          blocked.length ? h("p", { class: "hint" }, "You already have: ",
            blocked.map((c) => c.name || "a hidden card").join(", "), " (the same character cannot sit twice).") : null,
          council >= 4 ? h("p", { class: "hint" }, "Your council is full (4): recruiting a non-Titan makes you discard one of its members next.") : null);
        break;
      }
      case "replace": {
        ask(`Your council is full: discard one of its members to make room for ${p.card?.name || "the new character"}.`,
          options(of("replace").map((m) => {
            const c = index.get(m.card);
            return button(m, [h("strong", {}, `Discard ${cardLabel(index, m.card)}`),
              c && c.name ? h("span", { class: "fr-move-note" }, effectText(c)) : null],
            { class: `b-${c?.banner || ""}` });
          })));
        break;
      }
      case "wild": {
        const counts = view.players[p.seat].influence_counts;
        ask(`Imperial Order ✦ banner (${plural(view.hand.length, "left")}): add it to which of your columns?`,
          options(of("wild").map((m) => button(m, [
            h("span", { class: "fr-sym", "aria-hidden": "true" }, bannerInfo(m.realm).symbol),
            ` ${bannerInfo(m.realm).label} column (${counts[m.realm]} → ${counts[m.realm] + 1})`], { class: `b-${m.realm}` }))));
        break;
      }
      case "order": {
        ask("Several council effects fired: which one resolves next?",
          options(of("resolve").map((m) => {
            const entry = (p.entries || []).find((e) => e.card === m.card);
            const c = index.get(m.card);
            const times = entry && entry.times > 1 ? ` ×${entry.times}` : "";
            return button(m, [h("strong", {}, `${cardLabel(index, m.card)}${times}`),
              c ? h("span", { class: "fr-move-note" }, effectText(c)) : null]);
          })));
        break;
      }
      case "strike": {
        const source = p.card?.name || "Warrior";
        const victim = view.players[opp];
        ask(`${source}: steal 1 castle from ${oppName}, or destroy one of ${oppPossessive} characters or Titans?`,
          options(legal.map((m) => {
            if (m.type === "steal") {
              return button(m, `${source}: steal 1 castle (${ctx.name(opp)} has ${plural(victim.castles, "castle")})`);
            }
            if (m.type === "destroy") {
              const titan = victim.titans.some((c) => c.card === m.card);
              return button(m, `${source}: destroy ${oppPossessive} ${cardLabel(index, m.card)}${titan ? " (Titan)" : ""}`,
                { class: "danger" });
            }
            return null;
          })));
        break;
      }
      case "witch": {
        ask(`Your Witch looks at the discard pile (${plural(view.discard.count, "card")}): take one.`,
          options(of("pick").map((m) => {
            const c = index.get(m.card);
            return button(m, [h("span", { class: "fr-sym", "aria-hidden": "true" }, bannerInfo(c?.banner).symbol),
              ` Take ${cardLabel(index, m.card)}`],
            { class: `fr-pick b-${c?.banner || ""}`,
              aria: `Take ${cardLabel(index, m.card)}, a ${bannerInfo(c?.banner).label} banner` });
          })));
        break;
      }
      default:
        ask(p.prompt || "Your move:");
    }
    return box;
  },

  waitingText(view, ctx, actor, oppPossessive, me) {
    const p = view.pending;
    const spectator = me === null;
    switch (p.kind) {
      case "place": return `${actor} is placing the drawn ${bannerInfo(view.deck.top_banner).label} card on Alkane.`;
      case "collect": return `${actor} is choosing which neighbouring banner to collect.`;
      case "action": return `${actor} is choosing to recruit or to influence with ${plural(view.hand.length, "card")}.`;
      case "recruit": return `${actor} is looking at the collected characters to recruit one.`;
      case "replace": return `${actor}'s council is full: they are choosing one to discard.`;
      case "wild": return `${actor} is placing Imperial Order banners in their columns.`;
      case "order": return `${actor} is choosing the order of their council effects.`;
      case "strike": return `${p.card?.name || "A Warrior"} of ${actor}: they will steal a castle or destroy one of ${spectator ? `${oppPossessive}` : "your"} characters or Titans.`;
      case "witch": return `${actor}'s Witch is looking through the discard pile.`;
      case "witch_use": return `${actor} is deciding what to do with the card their Witch picked.`;
      default: return `${actor} is playing…`;
    }
  },

  // -- Alkane, the floating square -----------------------------------------------------------

  square(view, ctx, legal, button, recent, me) {
    const places = legal.filter((m) => m.type === "place");
    const cards = view.square.cards;
    const spots = places.length ? places.map((m) => ({ x: m.x, y: m.y, move: m }))
      : view.square.legal_spots.map((s) => ({ ...s, move: null }));
    const xs = [...cards.map((c) => c.x), ...spots.map((s) => s.x)];
    const ys = [...cards.map((c) => c.y), ...spots.map((s) => s.y)];
    const minX = Math.min(0, ...xs); const maxX = Math.max(0, ...xs);
    const minY = Math.min(0, ...ys); const maxY = Math.max(0, ...ys);
    const at = new Map(cards.map((c) => [`${c.x},${c.y}`, c]));
    const open = new Map(spots.map((s) => [`${s.x},${s.y}`, s]));
    const last = view.last ? `${view.last[0]},${view.last[1]}` : null;
    const collectable = new Map();
    if (view.pending?.kind === "collect") {
      for (const o of view.pending.options || []) for (const c of o.cards) collectable.set(c, o.banner);
    }
    const top = view.deck.top_banner;
    const grid = h("div", { class: "fr-grid", "data-testid": "alkane", role: "group",
                            "aria-label": "Alkane, the floating square of banner cards",
                            style: { "--cols": String(maxX - minX + 1), "--rows": String(maxY - minY + 1) } });
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const key = `${x},${y}`;
        const card = at.get(key);
        const pos = { "grid-column": String(x - minX + 1), "grid-row": String(y - minY + 1) };
        if (card) {
          const info = bannerInfo(card.banner);
          const isLast = key === last;
          // The card placed in the latest turn, still on Alkane once its collection is done.
          const placedBefore = !isLast && recent && recent.placed === card.card;
          const by = placedBefore ? (recent.seat === me ? "you" : ctx.name(recent.seat)) : null;
          const pick = collectable.get(card.card);
          grid.append(h("div", {
            class: `fr-cell fr-banner b-${card.banner}${isLast ? " last" : ""}${placedBefore ? " recent" : ""}${pick ? " pickable" : ""}`,
            "data-testid": "alkane-card", "data-x": x, "data-y": y, "data-banner": card.banner, style: pos,
            "data-recent": placedBefore ? "true" : null,
            "data-piece": `alkane:${card.card}`, "data-piece-from": "deck", // a placed card leaves the deck
            title: placedBefore ? `The latest card placed, by ${by}` : null,
          }, h("span", { class: "fr-big-sym", "aria-hidden": "true" }, info.symbol),
          h("span", { class: "fr-cell-name" }, info.label),
          isLast ? h("span", { class: "fr-cell-note" }, "just placed") : null,
          placedBefore ? h("span", { class: "fr-cell-note fr-recent-note" }, `placed by ${by}`) : null));
        } else if (open.has(key)) {
          const spot = open.get(key);
          if (spot.move) {
            grid.append(button(spot.move, [h("span", { class: "fr-big-sym", "aria-hidden": "true" }, bannerInfo(top).symbol),
              h("span", { class: "fr-cell-name" }, "Place here")], {
              class: `fr-cell fr-spot b-${top}`,
              aria: `Place the ${bannerInfo(top).label} card here: column ${x - minX + 1}, row ${y - minY + 1}`,
            }));
            grid.lastChild.dataset.x = x;
            grid.lastChild.dataset.y = y;
            Object.assign(grid.lastChild.style, { gridColumn: pos["grid-column"], gridRow: pos["grid-row"] });
          } else {
            grid.append(h("div", { class: "fr-cell fr-open", "data-x": x, "data-y": y, style: pos,
                                   title: "a spot the card may go" }, h("span", { class: "sr-only" }, "open spot")));
          }
        } else {
          grid.append(h("div", { class: "fr-cell fr-empty", style: pos, "aria-hidden": "true" }));
        }
      }
    }
    return h("section", { class: "fr-alkane", "aria-labelledby": "fr-alkane-title" },
      h("h3", { class: "fr-title", id: "fr-alkane-title" }, "Alkane",
        h("span", { class: "fr-count" }, plural(cards.length, "card"))),
      h("div", { class: "fr-grid-wrap" }, grid));
  },

  piles(view) {
    const seen = view.discard.cards.filter((c) => c.name);
    return h("section", { class: "fr-piles", "aria-label": "Deck and discard pile" },
      h("div", { class: "fr-pile", "data-testid": "fr-deck", "data-piece": "deck" },
        h("span", { class: "fr-pile-label" }, "Deck"),
        h("strong", { class: "fr-pile-count" }, plural(view.deck.count, "card")),
        view.deck.next_banner ? h("span", { "data-testid": "fr-next-banner" }, "next: ", bannerTag(view.deck.next_banner)) : h("span", {}, "empty")),
      h("div", { class: "fr-pile", "data-testid": "fr-discard" },
        h("span", { class: "fr-pile-label" }, "Discard pile"),
        h("strong", { class: "fr-pile-count" }, plural(view.discard.count, "card")),
        view.discard.top_banner ? h("span", {}, "top: ", bannerTag(view.discard.top_banner)) : h("span", {}, "empty"),
        seen.length ? h("details", { class: "fr-discard-list" },
          h("summary", {}, `Characters you know there (${seen.length})`),
          h("ul", {}, seen.map((c) => h("li", {}, bannerTag(c.banner), " ", c.name)))) : null));
  },

  hand(view, ctx) {
    const p = view.pending;
    const whose = p ? (p.seat === ctx.seat ? "Your" : `${ctx.name(p.seat)}'s`) : "The";
    const title = p && p.kind === "witch_use" ? `${whose} card picked by the Witch` : `${whose} collected cards`;
    return h("section", { class: "fr-hand", "data-testid": "fr-hand", "aria-label": title },
      h("h3", { class: "fr-title" }, title, h("span", { class: "fr-count" }, plural(view.hand.length, "card"))),
      h("div", { class: "fr-cards" }, view.hand.map((c) => cardTile(c, { effect: true }))));
  },

  // -- influence, both players per realm ------------------------------------------------------

  influence(view, ctx, seats, recent) {
    const head = seats.map((s) => (s === ctx.seat ? "You" : ctx.name(s)));
    const isNew = (c) => recent && recent.cards.has(c.card);
    const pips = (column) => h("span", { class: "fr-pips", "aria-hidden": "true" },
      column.map((c) => h("span", { class: `fr-pip b-${c.banner}${isNew(c) ? " fresh" : ""}`,
                                    title: `${bannerInfo(c.banner).label}${isNew(c) ? " (just added)" : ""}` },
        bannerInfo(c.banner).symbol)));
    const added = (column) => column.filter(isNew).length;
    const rows = view.realms.map((realm) => {
      const counts = seats.map((s) => view.players[s].influence_counts[realm]);
      return h("tr", { "data-realm": realm },
        h("th", { scope: "row" }, bannerTag(realm)),
        seats.map((s, i) => {
          const pl = view.players[s];
          const column = pl.influence[realm];
          const other = counts[1 - i];
          const wild = column.filter((c) => c.banner === "imperial").length;
          const lead = counts[i] > other;
          return h("td", { class: lead ? "lead" : "" },
            h("span", { class: "fr-num" }, String(counts[i])), " ", pips(column),
            wild ? h("span", { class: "fr-note" }, ` (${wild} Imperial)`) : null,
            added(column) ? h("span", { class: "fr-note fr-added", "data-testid": "fr-added" }, ` +${added(column)} just now`) : null,
            lead ? h("span", { class: "fr-note fr-lead" }, " leads") : null,
            pl.throne === realm ? h("span", { class: "tag fr-throne-tag" }, "Throne") : null);
        }));
    });
    const lines = h("tr", { class: "fr-lines" }, h("th", { scope: "row" }, "Lines (shortest column)"),
      seats.map((s) => h("td", {}, String(view.players[s].lines))));
    return h("section", { class: "fr-influence", "data-testid": "fr-influence", "data-scroll": "fr-influence", "aria-labelledby": "fr-inf-title" },
      h("h3", { class: "fr-title", id: "fr-inf-title" }, "Influence columns"),
      h("table", { class: "fr-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Realm"), head.map((n) => h("th", { scope: "col" }, n)))),
        h("tbody", {}, rows, lines)));
  },

  // -- a player's public side ------------------------------------------------------------------

  player(view, ctx, seat, me, recent) {
    const pl = view.players[seat];
    const you = seat === me;
    const throneCount = pl.influence_counts[pl.throne];
    const acting = view.pending && view.pending.seat === seat;
    return h("section", { class: `fr-player${you ? " you" : ""}${acting ? " acting" : ""}`, "data-testid": "fr-player",
                          "data-seat": seat, "aria-label": `${ctx.name(seat)}${you ? " (you)" : ""}` },
      h("header", { class: "fr-player-head" },
        h("h3", {}, ctx.name(seat), you ? h("span", { class: "tag you" }, "you") : null,
          acting ? h("span", { class: "tag fr-acting" }, "to play") : null),
        h("span", { class: "fr-castles", "data-testid": "fr-castles" }, h("span", { "aria-hidden": "true" }, "♜ "),
          plural(pl.castles, "castle"))),
      h("p", { class: "fr-throne" }, h("strong", {}, "Throne Room: "), bannerTag(pl.throne), " — ",
        throneCount >= 3 ? "its +2 castles are earned" : `+2 castles at the 3rd ${bannerInfo(pl.throne).label} influence (${throneCount}/3)`),
      h("h4", {}, `Council (${pl.council.length}/4)`),
      pl.council.length ? h("div", { class: "fr-cards" }, pl.council.map((c) => cardTile(c, { effect: true, fresh: recent?.cards })))
        : h("p", { class: "hint" }, "No character yet."),
      h("h4", {}, `Titans (${pl.titans.length}/5)`),
      pl.titans.length ? h("div", { class: "fr-cards" }, pl.titans.map((c) => cardTile(c, { effect: false, fresh: recent?.cards })))
        : h("p", { class: "hint" }, "No Titan yet."));
  },

  playerBadge(view, seat) {
    const pl = view.players[seat];
    if (!pl) return "";
    // The castles show beside the name from the view's `scores` (the room's players panel).
    const castles = Array.isArray(view.scores) ? [] : [plural(pl.castles, "castle")];
    return [...castles, `council ${pl.council.length}/4`, plural(pl.titans.length, "Titan")].join(" · ");
  },
};
