// Bot levels on the page: the seat's tag ("bot · normal"), what a level does, the host's choice.
// A seat's `bot` is its level's name (older rooms say "random").

import { api } from "./api.js";
import { h } from "./ui.js";

export const BOT_LEVELS = {
  easy: "thinks briefly and makes mistakes",
  normal: "thinks about half a second a move",
  hard: "thinks about two seconds a move",
};
export const DEFAULT_BOT_LEVEL = "normal";

/** The seat's tag: "bot · normal". */
export function botTag(level) {
  return level ? `bot · ${level}` : "bot";
}

/** A tag's tooltip: what that bot does. */
export function botTitle(level) {
  const what = BOT_LEVELS[level] || (level === "random" ? "plays a random legal move" : "plays on its own");
  return `A ${level || ""} bot: it ${what}, and sees only what its seat may see.`;
}

/** What a stand-in bot at `level` will do, said in a sentence's words ("a normal bot"). */
export function botWords(level) {
  return level ? `a ${level} bot` : "a bot";
}

/** A "Bot level" select; `onChange(level)` on each pick. `id` keeps several apart on one page. */
export function botLevelChoice(current, onChange, id = "bot-level-choice") {
  const select = h("select", { id, "data-testid": "bot-level-choice", "data-key": id,
                               onchange: (e) => onChange(e.target.value) },
    Object.entries(BOT_LEVELS).map(([level, what]) =>
      h("option", { value: level, title: `It ${what}.`, selected: level === (current || DEFAULT_BOT_LEVEL) },
        `${level[0].toUpperCase()}${level.slice(1)}`)));
  return h("div", { class: "field inline-field bot-level" }, h("label", { for: id }, "Bot level"), select);
}

/** "Play vs computer": a private room with you in seat 1 and a bot of `level` in every other
 * seat, started at once; answers the started room. */
export async function playVsComputer(game, seats, level, options) {
  const room = await api("POST", "/api/rooms", { game: game.id, seats, private: true, options });
  for (let seat = 1; seat < seats; seat += 1) {
    await api("POST", `/api/rooms/${room.code}/bots`, { seat, level });
  }
  return api("POST", `/api/rooms/${room.code}/start`);
}
