// Bot levels on the page: the seat's tag ("Bot · normal"), what a level does, the host's choice,
// the room's stand-in level. A seat's `bot` is its level's name (older rooms say "random").

import { api } from "./api.js";
import { h } from "./ui.js";

export const BOT_LEVELS = {
  easy: "thinks briefly and makes mistakes",
  normal: "thinks about half a second a move",
  hard: "thinks about two seconds a move",
};
export const DEFAULT_BOT_LEVEL = "normal";

/** The seat's tag: "Bot · normal". */
export function botTag(level) {
  return level ? `Bot · ${level}` : "Bot";
}

/** A tag's tooltip: what that bot does. */
export function botTitle(level) {
  const what = BOT_LEVELS[level] || (level === "random" ? "plays a random legal move" : "plays on its own");
  return `A ${level || ""} bot: it ${what}, and sees only what its seat may see.`;
}

/** What a stand-in bot at `level` will do, said in a sentence's words ("a normal bot", "an easy
 * bot"). */
export function botWords(level) {
  if (!level) return "a bot";
  return `${/^[aeiou]/.test(level) ? "an" : "a"} ${level} bot`;
}

/** A "Bot level" select; `onChange(level)` on each pick. `id` keeps several apart on one page;
 * `label` and `testid` say what the level is for. */
export function botLevelChoice(current, onChange, id = "bot-level-choice", label = "Bot level",
                               testid = "bot-level-choice") {
  const select = h("select", { id, "data-testid": testid, "data-key": id,
                               onchange: (e) => onChange(e.target.value) },
    Object.entries(BOT_LEVELS).map(([level, what]) =>
      h("option", { value: level, title: `It ${what}.`, selected: level === (current || DEFAULT_BOT_LEVEL) },
        `${level[0].toUpperCase()}${level.slice(1)}`)));
  return h("div", { class: "field inline-field bot-level" }, h("label", { for: id }, label), select);
}

/** A new room's stand-in level (a platform option, beside the turn clock): the bot that plays for
 * a player who leaves or whom the table votes out. Sent only once picked: left alone, the room
 * gets the server's default (BOT_LEVEL, normal unless the server says otherwise). */
export function standinChoice(id) {
  let picked = null;
  const el = botLevelChoice(DEFAULT_BOT_LEVEL, (level) => { picked = level; }, id,
                            "Stand-in bot", "standin-choice");
  el.title = "The bot that plays for a player who leaves, or whom the table votes out when they are away";
  return { el, read: () => (picked ? { standin_level: picked } : {}) };
}

/** The waiting room's line on the room's stand-in level (`room.standin_level`). */
export function standinText(room) {
  const level = room.standin_level || DEFAULT_BOT_LEVEL;
  const what = BOT_LEVELS[level] ? ` (it ${BOT_LEVELS[level]})` : "";
  return `If a player leaves mid-game, or is away and the table votes, ${botWords(level)}${what} plays their seat.`;
}

/** The room's stand-in bot in a sentence's words ("a normal bot"): it also chooses the move of
 * a seat whose turn clock runs out. */
export function standinWords(room) {
  return botWords(room?.standin_level || DEFAULT_BOT_LEVEL);
}

/** "Play vs computer": a private room with you in seat 1 and a bot of `level` in every other
 * seat (and in yours, should you leave), started at once; answers the started room. */
export async function playVsComputer(game, seats, level, options) {
  const room = await api("POST", "/api/rooms", { game: game.id, seats, private: true, options,
                                                 standin_level: level });
  for (let seat = 1; seat < seats; seat += 1) {
    await api("POST", `/api/rooms/${room.code}/bots`, { seat, level });
  }
  return api("POST", `/api/rooms/${room.code}/start`);
}
