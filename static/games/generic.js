// A fallback renderer for games that do not have their own yet: the view as data, and every
// legal move as a button. Good enough to play any game; a real renderer replaces it.

import { h, replace } from "/static/ui.js";

function label(move) {
  const { type, ...rest } = move;
  const bits = Object.entries(rest).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${type}${bits.length ? ` — ${bits.join(", ")}` : ""}`;
}

export default {
  render(container, view, ctx) {
    replace(container, h("div", { class: "generic" },
      ctx.myTurn ? h("div", { class: "generic-moves" },
        h("h3", {}, "Your moves"),
        h("div", { class: "move-buttons" }, ctx.legalMoves.map((move, i) => h("button", {
          class: "btn small", "data-testid": "legal-move", "data-key": `move-${i}`,
          onclick: () => ctx.play(move).catch(() => {}),
        }, label(move))))) : null,
      h("details", { class: "generic-view", open: true },
        h("summary", {}, "What you can see"),
        h("pre", {}, JSON.stringify(view, null, 2)))));
  },
};
