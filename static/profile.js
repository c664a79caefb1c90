// A player's profile, `/p/<id>`: games played and won and the rating per game with a small
// chart of its history, the last 20 games, the head-to-head record against me, "Add friend".

import { api, ApiError, games, me } from "./api.js";
import { topbar } from "./lobby.js";
import { changeText } from "./social.js";
import { h, navigate, replace, toast } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";

/** Render the profile of player `id` into `root`; returns {dispose}. */
export function openProfile(root, id) {
  let alive = true;

  async function load() {
    replace(root, topbar(me(), null), h("p", { class: "loading" }, "Opening the profile…"));
    if (!me()) {
      replace(root, topbar(null, null), h("main", { class: "lobby" }, h("section", { class: "card hero" },
        h("h1", {}, "Profiles are for players"),
        h("p", {}, "Pick a name in the lobby first, then open this link again."),
        h("button", { class: "btn primary", onclick: () => navigate("/") }, "Go to the lobby"))));
      return;
    }
    let profile, titles;
    try {
      [profile, titles] = await Promise.all([api("GET", `/api/players/${encodeURIComponent(id)}`), games()]);
    } catch (err) {
      if (!alive) return;
      const missing = err instanceof ApiError && err.status === 404;
      replace(root, topbar(me(), null), h("main", { class: "lobby" }, h("section", { class: "card hero", "data-testid": "profile-missing" },
        h("h1", {}, missing ? "No such player" : "Could not open the profile"), h("p", {}, err.message))));
      return;
    }
    if (!alive) return;
    draw(profile, Object.fromEntries(titles.map((g) => [g.id, g.title])));
  }

  function draw(profile, titles) {
    document.title = `${profile.name} — Ziggurat`;
    const mine = profile.id === me()?.id;
    const title = (game) => titles[game] || game;
    replace(root, topbar(me(), null), h("main", { class: "lobby profile", "data-testid": "profile" },
      h("section", { class: "card wide profile-head" },
        h("h1", { "data-testid": "profile-name" }, profile.name),
        mine ? h("p", { class: "hint" }, "This is you. Send this page's link to friends so they can add you.")
          : friendButton(profile),
        profile.head_to_head ? h("p", { class: "h2h", "data-testid": "head-to-head" },
          `You against ${profile.name}: ${profile.head_to_head.won} won, ${profile.head_to_head.lost} lost`,
          profile.head_to_head.drawn ? `, ${profile.head_to_head.drawn} even` : "",
          ` in ${profile.head_to_head.played} game${profile.head_to_head.played === 1 ? "" : "s"}.`) : null),
      !profile.visible ? h("section", { class: "card wide", "data-testid": "profile-private" },
        h("p", {}, `${profile.name}'s games are shown to their friends and to people who played with them.`))
        : h("section", { class: "card wide", "aria-labelledby": "games-title" },
          h("h2", { id: "games-title" }, "Games"),
          Object.keys(profile.games).length ? h("table", { class: "profile-games", "data-testid": "profile-games" },
            h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Played"), h("th", {}, "Won"),
              h("th", {}, "Rating"), h("th", {}, "History"))),
            h("tbody", {}, Object.entries(profile.games).map(([game, g]) => h("tr", { "data-game": game },
              h("th", { scope: "row" }, title(game)), h("td", {}, g.played), h("td", {}, g.won),
              h("td", { "data-testid": "profile-rating" }, g.rating === null ? "—" : g.rating.toFixed(1)),
              h("td", {}, chart(profile.history[game] || [])))))) : h("p", { class: "empty" }, "No rated games yet.")),
      profile.visible ? h("section", { class: "card wide", "aria-labelledby": "recent-title" },
        h("h2", { id: "recent-title" }, "Last games"),
        profile.recent.length ? h("ul", { class: "room-list", "data-testid": "profile-recent" }, profile.recent.map((g) =>
          h("li", { class: `room-row result-${g.result}`, "data-code": g.code },
            h("span", { class: "room-game" }, title(g.game)),
            h("span", { class: "room-host" }, g.result === "won" ? "Won" : `Lost (place ${g.rank})`,
              g.standin ? " · a bot stood in" : "", " · ", new Date(g.at).toLocaleDateString()),
            h("span", { class: "room-seats" }, `${g.rating.toFixed(1)} (${changeText(g.change)})`),
            h("a", { class: "btn small", href: g.replay }, "Replay")))) : h("p", { class: "empty" }, "No games yet.")) : null));
  }

  function friendButton(profile) {
    const button = h("button", { class: `btn ${profile.friend ? "ghost" : "primary"}`, "data-testid": "friend-button",
      onclick: async () => {
        button.disabled = true;
        try {
          if (profile.friend) await api("DELETE", `/api/players/me/friends/${encodeURIComponent(profile.id)}`);
          else await api("POST", "/api/players/me/friends", { id: profile.id });
          toast(profile.friend ? `${profile.name} is no longer among your friends.` : `${profile.name} is now among your friends.`, "info");
          await load();
        } catch (err) {
          toast(err.message);
          button.disabled = false;
        }
      } }, profile.friend ? "Remove friend" : "Add friend");
    return h("div", { class: "row" }, button,
      h("a", { class: "btn ghost", href: "/friends", onclick: (e) => { e.preventDefault(); navigate("/friends"); } }, "Your friends"));
  }

  load();
  return { dispose() { alive = false; } };
}

/** An inline SVG line of a rating's history (from the start, one point per game). */
function chart(points) {
  const width = 160, height = 40, pad = 4;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("data-testid", "rating-chart");
  svg.setAttribute("role", "img");
  if (!points.length) return svg;
  // Every rating starts at 0 (openskill's mu 25, sigma 25/3): the line starts there.
  const values = [0, ...points.map((p) => p.rating)];
  svg.setAttribute("aria-label", `Rating after each game: ${values.slice(1).join(", ")}`);
  const low = Math.min(0, ...values), high = Math.max(...values, low + 1);
  const x = (i) => pad + (values.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (values.length - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  const last = document.createElementNS(SVG, "circle");
  last.setAttribute("cx", x(values.length - 1).toFixed(1));
  last.setAttribute("cy", y(values[values.length - 1]).toFixed(1));
  last.setAttribute("r", "3");
  last.setAttribute("fill", "currentColor");
  svg.append(last);
  return svg;
}
