// Who beat whom, on the room pages: links from names to profiles, the rating change after a
// game, and the series score across "Play again".

import { api } from "./api.js";
import { h, navigate } from "./ui.js";

/** A name that opens the player's profile (`/p/<id>`); plain text for a bot or an empty seat. */
export function playerLink(id, text) {
  if (!id) return text;
  const path = `/p/${encodeURIComponent(id)}`;
  return h("a", { class: "player-link", href: path, "data-testid": "player-link", "data-player": id,
                  onclick: (e) => {
                    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
                    e.preventDefault();
                    navigate(path);
                  } }, text);
}

/** "+3.2", "−1.5", "±0": a rating's change after a game. */
export function changeText(change) {
  if (!change) return "±0";
  return change > 0 ? `+${change.toFixed(1)}` : `−${Math.abs(change).toFixed(1)}`;
}

/** The series score, "Ann 3 – 2 Bob" (three or more: "Ann 2 · Bob 1 · Cy 0"); null before a
 * game of the series has ended. */
export function seriesText(series) {
  if (!series?.games) return null;
  const score = series.score;
  if (score.length === 2) return `${score[0].name} ${score[0].wins} – ${score[1].wins} ${score[1].name}`;
  return score.map((s) => `${s.name} ${s.wins}`).join(" · ");
}

/** GET a room's series and its ratings (empty when not rated); never throws. */
export async function roomSocial(code) {
  const [series, ratings] = await Promise.all([
    api("GET", `/api/rooms/${encodeURIComponent(code)}/series`).catch(() => null),
    api("GET", `/api/rooms/${encodeURIComponent(code)}/ratings`).catch(() => []),
  ]);
  return { series, ratings };
}
