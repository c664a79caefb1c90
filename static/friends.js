// The friends page, `/friends`: your friends and whether they are in a room now, "Invite to a
// room", remove; your friend link and adding by link; "People you played with"; a leaderboard
// per game among you and your friends.

import { api, games, me } from "./api.js";
import { topbar } from "./lobby.js";
import { playerLink } from "./social.js";
import { copyText, h, navigate, replace, toast } from "./ui.js";

/** Render the friends page into `root`; returns {dispose}. */
export function openFriends(root) {
  let alive = true;
  let board = null; // the game the leaderboard shows

  async function load() {
    const player = me();
    if (!player) { navigate("/"); return; }
    let friends, played, known, rooms, mine;
    try {
      [friends, played, known, rooms, mine] = await Promise.all([
        api("GET", "/api/players/me/friends"), api("GET", "/api/players/me/played-with"), games(),
        api("GET", "/api/players/me/rooms"), // every room I sit in, from any device
        api("GET", `/api/players/${encodeURIComponent(player.id)}`).catch(() => null)]);
    } catch (err) {
      if (alive) replace(root, topbar(player, null), h("main", { class: "lobby" },
        h("section", { class: "card" }, h("p", {}, `Could not load your friends: ${err.message}`))));
      return;
    }
    if (!alive) return;
    // The leaderboard opens on the game I played most.
    const most = Object.entries(mine?.games || {}).sort((a, b) => b[1].played - a[1].played)[0]?.[0];
    board ??= most || known[0]?.id;
    const open = rooms.filter((r) => r && (r.status === "lobby" || r.status === "active")
      && r.seats.some((s) => s.player?.id === player.id));
    const titles = Object.fromEntries(known.map((g) => [g.id, g.title]));
    const friendIds = new Set(friends.map((f) => f.id));
    document.title = "Friends — Ziggurat";
    replace(root, topbar(player, null), h("main", { class: "lobby friends", "data-testid": "friends-page" },
      h("section", { class: "card wide", "aria-labelledby": "friends-title" },
        h("h1", { id: "friends-title" }, "Your friends"),
        friends.length ? h("ul", { class: "room-list", "data-testid": "friends" }, friends.map((f) =>
          h("li", { class: "room-row friend", "data-player": f.id },
            h("span", { class: `dot ${f.online ? "open" : "closed"}`, "aria-hidden": "true" }),
            h("span", { class: "room-game" }, playerLink(f.id, f.name)),
            h("span", { class: "room-host", "data-testid": "friend-status" }, f.online ? "in a room now" : "not in a room"),
            open.length ? inviteButton(f, open, titles) : null,
            h("button", { class: "btn small ghost", "data-testid": "remove-friend", onclick: () => remove(f) }, "Remove"))))
          : h("p", { class: "empty" }, "No friends yet: add people you played with, or send them your link.")),
      h("section", { class: "card", "aria-labelledby": "add-title" },
        h("h2", { id: "add-title" }, "Add a friend"),
        h("p", { class: "hint" }, "Your link — a friend who opens it can add you:"),
        h("div", { class: "row" },
          h("input", { class: "invite-link", readonly: true, value: `${location.origin}/p/${player.id}`,
                       "aria-label": "Your friend link", "data-testid": "my-friend-link", onfocus: (e) => e.target.select() }),
          h("button", { class: "btn", onclick: () => copyText(`${location.origin}/p/${player.id}`).then(() => toast("Link copied.", "info")) }, "Copy")),
        addForm()),
      h("section", { class: "card", "aria-labelledby": "played-title" },
        h("h2", { id: "played-title" }, "People you played with"),
        played.length ? h("ul", { class: "room-list", "data-testid": "played-with" }, played.map((p) =>
          h("li", { class: "room-row", "data-player": p.id },
            h("span", { class: "room-game" }, playerLink(p.id, p.name)),
            friendIds.has(p.id) ? h("span", { class: "tag" }, "friend")
              : h("button", { class: "btn small", "data-testid": "add-played", onclick: () => add(p.id) }, "Add friend"))))
          : h("p", { class: "empty" }, "Nobody yet: play a game!")),
      h("section", { class: "card", "aria-labelledby": "board-title" },
        h("h2", { id: "board-title" }, "Leaderboard"),
        h("select", { "aria-label": "Game", "data-testid": "board-game",
                      onchange: (e) => { board = e.target.value; drawBoard(); } },
          known.map((g) => h("option", { value: g.id, selected: g.id === board }, g.title))),
        boardEl)));
    drawBoard();
  }

  const boardEl = h("ol", { class: "leaderboard", "data-testid": "leaderboard" });

  async function drawBoard() {
    if (!board) return;
    try {
      const rows = await api("GET", `/api/players/me/leaderboard?game=${encodeURIComponent(board)}`);
      if (!alive) return;
      replace(boardEl, rows.map((r) => h("li", {}, playerLink(r.id, r.name), " ",
        h("span", { class: "board-rating" }, r.rating === null ? "unrated" : r.rating.toFixed(1)))));
    } catch (err) {
      toast(err.message);
    }
  }

  function addForm() {
    const input = h("input", { name: "friend", placeholder: "Paste a friend's link or id", "aria-label": "Friend's link or id",
                               "data-testid": "add-friend-input", required: true });
    return h("form", { class: "row", onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      const id = text.match(/\/p\/([^/?#]+)/)?.[1] || text;
      if (id) add(decodeURIComponent(id));
    } }, input, h("button", { class: "btn primary", type: "submit", "data-testid": "add-friend" }, "Add"));
  }

  function inviteButton(friend, rooms, titles) {
    return h("button", { class: "btn small", "data-testid": "invite-friend", onclick: async () => {
      const room = rooms[0]; // the room I sat in most recently
      try {
        await api("POST", "/api/players/me/invites", { id: friend.id, code: room.code });
        toast(`${friend.name} is invited to ${titles[room.game] || room.game} (${room.code}).`, "info");
      } catch (err) {
        toast(err.message);
      }
    } }, "Invite to a room");
  }

  async function add(id) {
    try {
      await api("POST", "/api/players/me/friends", { id });
      toast("Friend added.", "info");
      await load();
    } catch (err) {
      toast(err.message);
    }
  }

  async function remove(friend) {
    try {
      await api("DELETE", `/api/players/me/friends/${encodeURIComponent(friend.id)}`);
      await load();
    } catch (err) {
      toast(err.message);
    }
  }

  replace(root, topbar(me(), null), h("p", { class: "loading" }, "Opening your friends…"));
  load();
  return { dispose() { alive = false; } };
}
