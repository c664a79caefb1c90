// The lobby: your name, the games with their variants, new rooms, joining by code, open rooms.

import { api, ApiError, createPlayer, games, me, wasSignedOut } from "./api.js";
import { botLevelChoice, DEFAULT_BOT_LEVEL, playVsComputer, standinChoice } from "./bots.js";
import { clockChoice, clockText } from "./clock.js";
import { deviceMenu, signInChoices, yourGamesCard } from "./devices.js";
import { notificationsButton } from "./notify.js";
import { learnLink, rulesButton } from "./rules.js";
import { h, holdDuringPress, navigate, replace, toast } from "./ui.js";

const REFRESH_MS = 4000;

/** Render the lobby into `root`; returns {dispose}. */
export function openLobby(root) {
  let alive = true;
  let timer = null;
  const openList = h("div", { class: "open-rooms", "data-testid": "open-rooms" });
  let openRooms = null; // the last answer: {rooms, titles} or {error}
  const signedOut = wasSignedOut();
  // The list is refreshed every few seconds: never between the press and release of a click.
  const presses = holdDuringPress(root, drawOpen);

  function draw() {
    if (!alive) return;
    document.title = "Ziggurat — board games with friends";
    const player = me();
    replace(root,
      topbar(player, draw),
      // A first visit sees the games (and "Play vs computer") at once; the name is asked when
      // it is needed (creating, joining, playing), or given here up front.
      h("main", { class: "lobby" },
        !player && signedOut ? h("section", { class: "card notice", "data-testid": "signed-out" },
          h("h2", {}, "This device was signed out"),
          h("p", {}, "Your player was signed out here from another of your devices. Pick a name to play as someone "
            + "new, or sign in again with a code or a passkey.")) : null,
        player ? null : nameCard(draw),
        player ? yourGamesCard(titles) : null,
        player ? invitesCard() : null,
        joinCard(),
        h("section", { class: "card", "aria-labelledby": "open-title" },
          h("h2", { id: "open-title" }, "Public rooms waiting for players"),
          openList),
        h("section", { class: "card wide", "aria-labelledby": "new-room" },
          h("h2", { id: "new-room" }, "Start a new room"),
          h("p", { class: "hint" }, "Pick a game, set it up, then send the invite link to your friends."),
          gameCards())));
    refreshOpen();
  }

  /** The lobby's actions need a name: ask for one first, if this browser has none yet. */
  needName = () => (me() ? Promise.resolve() : askName().then(() => draw()));

  async function refreshOpen() {
    clearTimeout(timer);
    if (!alive) return;
    try {
      const [rooms, known] = await Promise.all([api("GET", "/api/rooms"), games()]);
      openRooms = { rooms, titles: Object.fromEntries(known.map((g) => [g.id, g.title])) };
    } catch (err) {
      openRooms = { error: err };
    }
    if (!alive) return;
    presses.draw();
    timer = setTimeout(refreshOpen, REFRESH_MS);
  }

  function drawOpen() {
    if (!alive || !openRooms) return;
    const { rooms, titles, error } = openRooms;
    if (error) {
      replace(openList, h("p", { class: "empty" }, `Could not load rooms: ${error.message}`));
      return;
    }
    replace(openList, rooms.length ? h("ul", { class: "room-list", "data-scroll": "open-rooms" }, rooms.map((room) => {
      const host = room.seats.find((s) => s.player?.id === room.host)?.player?.name || "someone";
      const taken = room.seats.filter((s) => s.player || s.bot).length;
      return h("li", { class: "room-row", "data-code": room.code },
        h("span", { class: "room-game" }, titles[room.game] || room.game),
        h("span", { class: "room-host" }, `hosted by ${host}`,
          clockText(room) ? h("span", { class: "room-clock", "data-testid": "room-clock" },
            room.pace === "turn-based" ? ` · ${clockText(room)}` : ` · turn clock: ${clockText(room)}`) : null),
        h("span", { class: "room-seats" }, `${taken}/${room.seats.length} seats`),
        h("button", { class: "btn small", onclick: () => joinRoom(room.code) }, "Join"));
    })) : h("p", { class: "empty" }, "No public rooms right now. Make one, or invite friends to a private room."));
  }

  draw();
  return { dispose() { alive = false; clearTimeout(timer); presses.dispose(); } };
}

// Set by the open lobby: ask a nameless visitor for a name, then redraw with it.
let needName = () => (me() ? Promise.resolve() : askName());

/** Invitations from friends to their rooms (app/social/friends.py); hidden when there are none. */
function invitesCard() {
  const list = h("ul", { class: "room-list" });
  const card = h("section", { class: "card", "aria-labelledby": "invites-title", "data-testid": "invites", hidden: true },
    h("h2", { id: "invites-title" }, "Invitations"), list);
  Promise.all([games(), api("GET", "/api/players/me/invites")]).then(([known, invites]) => {
    const titles = Object.fromEntries(known.map((g) => [g.id, g.title]));
    if (!invites.length) return;
    card.hidden = false;
    replace(list, invites.map((i) => h("li", { class: "room-row", "data-code": i.code },
      h("span", { class: "room-game" }, titles[i.game] || i.game),
      h("span", { class: "room-host" }, `from ${i.from.name}`),
      h("span", { class: "room-seats" }, i.code),
      h("button", { class: "btn small", onclick: () => navigate(`/r/${i.code}`) }, "Open"))));
  }).catch(() => card.remove());
  return card;
}

/** A dialog asking for a name; resolves once the player is made, rejects when dismissed. */
function askName() {
  return new Promise((resolve, reject) => {
    const dialog = h("dialog", { class: "dialog", "data-testid": "ask-name" });
    const close = () => { dialog.close(); dialog.remove(); };
    dialog.addEventListener("cancel", () => { dialog.remove(); reject(new Error("no name")); });
    dialog.append(h("h2", {}, "First, your name"),
      h("p", { class: "hint" }, "Your friends see it at the table."),
      nameForm(null, "Continue", () => { close(); resolve(); }, { key: "ask-name-input" }),
      h("div", { class: "row end" }, h("button", { class: "btn ghost", type: "button",
        onclick: () => { close(); reject(new Error("no name")); } }, "Cancel")));
    document.body.append(dialog);
    dialog.showModal();
  });
}

async function titles() {
  return Object.fromEntries((await games()).map((g) => [g.id, g.title]));
}

/** The header bar shared by every page. */
export function topbar(player, onRename, extra = null, renameOptions = {}) {
  return h("header", { class: "topbar" },
    h("a", { class: "brand", href: "/", title: "Back to the lobby",
             onclick: (e) => { e.preventDefault(); navigate("/"); } },
      h("span", { class: "brand-mark", "aria-hidden": "true" }), h("span", { class: "brand-name" }, "Ziggurat")),
    extra,
    // Not in a room's header, where a phone has no room to spare.
    player && !extra ? h("a", { class: "btn ghost small friends-link", href: "/friends", "data-testid": "friends-link",
                      onclick: (e) => { e.preventDefault(); navigate("/friends"); } }, "Friends") : null,
    player ? h("div", { class: "me" },
      h("span", { class: "me-name", "data-testid": "my-name", title: "Your display name" }, player.name),
      deviceMenu(),
      notificationsButton(),
      onRename ? h("button", { class: "btn ghost small rename", "data-testid": "change-name", title: "Change name",
                               onclick: () => renameDialog(onRename, renameOptions) },
        h("span", { class: "rename-icon", "aria-hidden": "true" }, "✎"), h("span", { class: "rename-text" }, " Change name")) : null)
      : null);
}

function nameCard(after) {
  const input = h("input", { id: "name-input", name: "name", maxlength: 40, required: true,
                             autocomplete: "nickname", placeholder: "e.g. Nefertiti" });
  async function submit(e) {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) { toast("Type a name first."); return; }
    try {
      await createPlayer(name);
      after();
    } catch (err) {
      toast(err.message);
    }
  }
  return h("section", { class: "card hero" },
    h("h1", {}, "Play temple-building board games with friends"),
    h("p", {}, "Make a private room, send the link, and play in the browser — on a laptop or a phone."),
    h("form", { class: "name-form", onsubmit: submit },
      h("label", { for: "name-input" }, "What should your friends call you?"),
      h("div", { class: "row" }, input, h("button", { class: "btn primary", type: "submit" }, "Continue"))),
    signInChoices(after));
}

/** A form that asks for a name and makes a player; used by the lobby and by room pages. */
export function nameForm(label, buttonText, after, { placeholder = "Your name", key = "name-form-input" } = {}) {
  const input = h("input", { name: "name", maxlength: 40, placeholder, "aria-label": "Your name",
                             "data-key": key,
                             autocomplete: "nickname", required: true });
  return h("form", { class: "name-form inline", onsubmit: async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) { toast("Type a name first."); return; }
    try {
      await createPlayer(name);
      await after();
    } catch (err) {
      toast(err.message);
    }
  } }, label ? h("span", { class: "hint" }, label) : null, h("div", { class: "row" }, input,
    h("button", { class: "btn primary", type: "submit" }, buttonText)));
}

/** Ask for a new name; `warning` is said first when `seated()` (a seat stays with the old name). */
function renameDialog(after, { warning = null, seated = () => false } = {}) {
  const old = me();
  const dialog = h("dialog", { class: "dialog" });
  const input = h("input", { name: "name", maxlength: 40, value: old?.name || "", "aria-label": "New name" });
  dialog.append(h("form", { method: "dialog", onsubmit: async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (name && name !== old?.name) {
      try { await createPlayer(name); } catch (err) { toast(err.message); }
    }
    dialog.close();
    dialog.remove();
    after();
  } }, h("h2", {}, "Change your name"),
    warning && seated() ? h("p", { class: "rename-warning", "data-testid": "rename-warning" }, warning) : null,
    h("p", { class: "hint" }, "A new name makes you a new player here: seats you hold in rooms now stay "
      + "with your old name, and this browser will no longer play them."),
    input,
    h("div", { class: "row end" },
      h("button", { class: "btn ghost", type: "button", onclick: () => { dialog.close(); dialog.remove(); } }, "Cancel"),
      h("button", { class: "btn primary", type: "submit" }, "Save"))));
  document.body.append(dialog);
  dialog.showModal();
}

/** A code as typed, or a whole invite link pasted in. */
function codeFrom(text) {
  const found = text.trim().match(/\/r\/([^/?#\s]+)/);
  return (found ? found[1] : text).trim();
}

function joinCard() {
  const input = h("input", { id: "code-input", name: "code", placeholder: "abc-def-ghj or an invite link",
                             autocomplete: "off", autocapitalize: "none", spellcheck: false });
  return h("section", { class: "card", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, "Got an invite?"),
    h("form", { class: "join-form", onsubmit: (e) => {
      e.preventDefault();
      const code = codeFrom(input.value);
      if (!code) { toast("Type the room code your friend sent you."); return; }
      joinRoom(code);
    } },
      h("label", { for: "code-input" }, "Room code or link"),
      h("div", { class: "row" }, input, h("button", { class: "btn primary", type: "submit" }, "Join room"))));
}

/** Take a free seat if there is one, then open the room (to watch, if it is full or started). */
export async function joinRoom(code) {
  try {
    await needName();
  } catch {
    return; // no name given: stay in the lobby
  }
  try {
    const room = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
    if (room.status === "lobby") {
      try {
        await api("POST", `/api/rooms/${room.code}/join`, {});
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        toast(`${err.message} You can watch instead.`, "info");
      }
    }
    navigate(`/r/${room.code}`);
  } catch (err) {
    toast(err.message);
  }
}

function gameCards() {
  const box = h("div", { class: "games", "data-testid": "games" }, h("p", { class: "empty" }, "Loading games…"));
  games().then((list) => replace(box, list.map(gameCard)))
    .catch((err) => replace(box, h("p", { class: "empty" }, `Could not load the games: ${err.message}`)));
  return box;
}

function gameCard(game) {
  const id = (name) => `${game.id}-${name}`;
  const seats = h("input", { id: id("seats"), name: "seats", type: "number", min: game.min_players,
                             max: game.max_players, value: String(Math.min(Math.max(3, game.min_players), game.max_players)),
                             inputmode: "numeric", required: true });
  const privacy = h("input", { id: id("private"), name: "private", type: "checkbox", checked: true });
  const variants = optionControls(game);
  const clock = clockChoice(id("clock"));
  const standin = standinChoice(id("standin"));
  async function create(e) {
    e.preventDefault();
    const count = Number(seats.value);
    if (!Number.isInteger(count) || count < game.min_players || count > game.max_players) {
      toast(`${game.title} is for ${game.min_players} to ${game.max_players} players.`);
      seats.focus();
      return;
    }
    try {
      await needName();
    } catch {
      return;
    }
    try {
      const room = await api("POST", "/api/rooms", { game: game.id, seats: count,
                                                     private: privacy.checked, options: variants.read(),
                                                     ...clock.read(), ...standin.read() });
      navigate(`/r/${room.code}`);
    } catch (err) {
      toast(err.message);
    }
  }
  const players = game.min_players === game.max_players ? `${game.min_players} players`
    : `${game.min_players}–${game.max_players} players`;
  return h("form", { class: "game-card", "data-game": game.id, onsubmit: create },
    h("div", { class: "game-head" },
      h("h3", {}, game.title),
      rulesButton(game.id, "How to play"),
      h("span", { class: "pill" }, players)),
    game.description ? h("p", { class: "game-desc" }, game.description) : null,
    h("p", { class: "game-learn" }, learnLink(game.id), h("span", { class: "hint" }, " a guided first game on the real board")),
    h("div", { class: "field inline-field" },
      h("label", { for: id("seats") }, "Seats"), seats),
    variants.el,
    clock.el,
    standin.el,
    h("div", { class: "field check" }, privacy,
      h("label", { for: id("private") }, "Private room (only people with the link can join)")),
    h("button", { class: "btn primary", type: "submit", "data-testid": "create-room" }, `Create a ${game.title} room`),
    vsComputer(game, variants));
}

/** "Play vs computer": you and bots at the game's smallest table with a bot (changeable), the
 * level chosen, started at once; the card's variants apply. */
function vsComputer(game, variants) {
  const id = (name) => `${game.id}-vs-${name}`;
  const smallest = Math.min(Math.max(2, game.min_players), game.max_players);
  const seats = h("input", { id: id("seats"), type: "number", min: smallest, max: game.max_players,
                             value: String(smallest), inputmode: "numeric", "data-testid": "vs-seats" });
  let level = DEFAULT_BOT_LEVEL;
  async function play(e) {
    const button = e.currentTarget;
    const count = Number(seats.value);
    if (!Number.isInteger(count) || count < smallest || count > game.max_players) {
      toast(`Against the computer, ${game.title} is for ${smallest} to ${game.max_players} players.`);
      seats.focus();
      return;
    }
    try {
      await needName();
    } catch {
      return;
    }
    button.disabled = true;
    try {
      const room = await playVsComputer(game, count, level, variants.read());
      navigate(`/r/${room.code}`);
    } catch (err) {
      toast(err.message);
      button.disabled = false;
    }
  }
  return h("div", { class: "vs-computer", "data-testid": "vs-computer" },
    h("h4", {}, "Or play against the computer"),
    h("div", { class: "field inline-field" }, h("label", { for: id("seats") }, "Players, you included"), seats),
    botLevelChoice(level, (picked) => { level = picked; }, id("level")),
    h("button", { class: "btn", type: "button", "data-testid": "play-vs-computer", onclick: play },
      "Play vs computer"));
}

/** An option's label and help: a description written "Name: what it does" gives both (its name
 * reads better than the title pydantic makes of the field's name); else the title, and the
 * description as help. */
function optionWords(name, spec) {
  const title = spec.title || name;
  const description = (spec.description || "").trim();
  const named = description.match(/^([^:.]{1,40}): (.+)$/s);
  if (named) return { label: named[1], text: named[2].charAt(0).toUpperCase() + named[2].slice(1) };
  return { label: title, text: description && description !== title ? description : null };
}

/** Form controls for a game's options_schema (pydantic JSON schema), and a reader for them. */
function optionControls(game) {
  const props = game.options_schema?.properties || {};
  const readers = [];
  const fields = Object.entries(props).map(([name, spec]) => {
    const inputId = `${game.id}-opt-${name}`;
    const { label, text } = optionWords(name, spec);
    // The option's description (the game's pydantic Field description) as help beside it.
    const help = text ? h("p", { class: "option-help hint", id: `${inputId}-help`, "data-testid": "option-help" }, text) : null;
    const described = help ? `${inputId}-help` : null;
    if (spec.type === "boolean") {
      const box = h("input", { id: inputId, name, type: "checkbox", checked: Boolean(spec.default), "aria-describedby": described });
      readers.push(() => [name, box.checked]);
      return h("div", { class: "field check" }, box, h("div", { class: "option-text" }, h("label", { for: inputId }, label), help));
    }
    if (spec.type === "integer" || spec.type === "number") {
      const input = h("input", { id: inputId, name, type: "number", inputmode: "numeric",
                                 min: spec.minimum ?? spec.exclusiveMinimum, max: spec.maximum ?? spec.exclusiveMaximum,
                                 step: spec.type === "integer" ? 1 : "any",
                                 value: spec.default !== undefined ? String(spec.default) : "" });
      readers.push(() => [name, input.value === "" ? undefined : Number(input.value)]);
      return h("div", { class: "option" }, h("div", { class: "field inline-field" }, h("label", { for: inputId }, label), input), help);
    }
    if (Array.isArray(spec.enum)) {
      const select = h("select", { id: inputId, name },
        spec.enum.map((v) => h("option", { value: String(v), selected: v === spec.default }, String(v))));
      readers.push(() => [name, spec.enum.find((v) => String(v) === select.value)]);
      return h("div", { class: "option" }, h("div", { class: "field inline-field" }, h("label", { for: inputId }, label), select), help);
    }
    const input = h("input", { id: inputId, name, value: spec.default ?? "" });
    readers.push(() => [name, input.value]);
    return h("div", { class: "option" }, h("div", { class: "field" }, h("label", { for: inputId }, label), input), help);
  });
  // Open on wide screens; folded on phones, where three games' variants make a long page.
  const el = fields.length ? h("details", { class: "variants", open: !matchMedia("(max-width: 760px)").matches },
    h("summary", {}, `Variants (${fields.length})`), h("div", { class: "variant-fields" }, fields)) : null;
  return { el, read: () => Object.fromEntries(readers.map((r) => r()).filter(([, v]) => v !== undefined)) };
}
