// Hints against the computer: in a room where every other seat is a bot, "Hint" asks the server
// for the move the normal bot would make for this seat, marks it on the board (the renderer's
// `targets`) and says it in words, with the bot's reckoning where the game gives one.

import { api } from "./api.js";
import { markTargets, targetsOf } from "./targets.js";
import { h, toast } from "./ui.js";

/** Whether this seat plays against the computer alone (never offered beside another person). */
export function hintsOffered(room, seat) {
  return seat !== null && Boolean(room?.seats?.length) && room.seats.every((s) => s.seat === seat || s.bot);
}

/** The banner's "Hint" button, while it is my turn against the computer. */
export function hintButton(page, ctx) {
  if (!ctx.myTurn || !hintsOffered(page.room, page.mySeat())) return null;
  const asking = page.hintAsking === ctx.version;
  return h("button", { class: "btn hint-btn", "data-testid": "hint", disabled: asking,
                       title: "Show the move the normal bot would make for you",
                       onclick: () => askHint(page, ctx.version) }, asking ? "Thinking…" : "💡 Hint");
}

async function askHint(page, version) {
  page.hintAsking = version;
  page.draw();
  try {
    page.hint = await api("POST", `/api/rooms/${page.code}/hint`);
  } catch (err) {
    toast(err.message);
  } finally {
    page.hintAsking = null;
    page.draw();
  }
}

/** After each drawing of the board: the hint marked and said above it, for as long as its move
 *  is still mine to make (another seat's move in a simultaneous step leaves it standing). */
export function showHint(page) {
  const hint = page.hint;
  if (!hint || !page.boardEl || hint.version > (page.state?.version ?? -1)) return;
  if (!(page.state.to_act || []).includes(page.state.seat)) { page.hint = null; return; } // my turn ended
  const wanted = JSON.stringify(hint.move);
  if (!(page.state.legal_moves || []).some((m) => JSON.stringify(m) === wanted)) return;
  markTargets(page.boardEl, targetsOf(page.renderer, hint.move, page.state.view), "hint-target");
  page.boardEl.prepend(h("p", { class: "hint-line", "data-testid": "hint-text", role: "status" },
    h("strong", {}, "Hint — the computer's move: "), `${page.words(hint.text)}.`,
    hint.reason ? h("span", { class: "hint-reason" }, ` ${page.words(hint.reason)}`) : null));
}
