// One player on every device: the top bar's menu ("Use on another device", "Your devices",
// "Add a passkey"), the link landing page (/link#CODE), signing in with a code or a passkey,
// and "Your games" from the server.

import { api, ApiError, me, remember, signedOutHere } from "./api.js";
import { clockText } from "./clock.js";
import { copyText, h, navigate, replace, toast } from "./ui.js";

const STATUS_WORDS = { lobby: "waiting for players", active: "in play", finished: "finished",
                       errored: "paused by an error" };

function dialog(title, ...body) {
  const box = h("dialog", { class: "dialog devices-dialog", "aria-label": title });
  const close = () => { box.close(); box.remove(); };
  box.append(h("div", { class: "dialog-body" },
    h("div", { class: "dialog-head" }, h("h2", {}, title),
      h("button", { class: "btn ghost small", "aria-label": "Close", "data-testid": "dialog-close", onclick: close }, "×")),
    ...body));
  box.addEventListener("close", () => box.remove());
  document.body.append(box);
  box.showModal();
  return { box, close };
}

/** The menu button of the top bar, for a device with a player. */
export function deviceMenu() {
  const menu = h("details", { class: "device-menu", "data-testid": "device-menu" },
    h("summary", { class: "btn ghost small", title: "This player on your other devices" },
      h("span", { "aria-hidden": "true" }, "☰"), h("span", { class: "menu-text" }, " Devices")),
    h("div", { class: "menu-items" },
      h("button", { class: "btn ghost small", "data-testid": "link-device",
                    onclick: () => { menu.open = false; linkDialog(); } }, "Use on another device"),
      h("button", { class: "btn ghost small", "data-testid": "my-devices",
                    onclick: () => { menu.open = false; devicesDialog(); } }, "Your devices"),
      h("button", { class: "btn ghost small", "data-testid": "add-passkey",
                    onclick: () => { menu.open = false; addPasskey(); } }, "Add a passkey")));
  return menu;
}

/** A code, a link and a QR code that sign another device in as this player. */
async function linkDialog() {
  let link;
  try {
    link = await api("POST", "/api/players/me/links");
  } catch (err) {
    toast(err.message);
    return;
  }
  const left = h("span", { "data-testid": "link-expiry" });
  const { box } = dialog("Use on another device",
    h("p", { class: "hint" }, "On your phone or other computer, scan this code, open the link, or type the code "
      + "on the start page and press \u201cUse code\u201d. It works once, for ten minutes."),
    h("div", { class: "link-show" },
      h("img", { class: "link-qr", alt: "QR code of the link", "data-testid": "link-qr",
                 src: `data:image/svg+xml;base64,${btoa(link.qr_svg)}` }),
      h("div", { class: "link-words" },
        h("div", { class: "link-code", "data-testid": "link-code" }, link.code),
        h("input", { class: "link-url", readonly: true, value: link.url, "aria-label": "Link",
                     "data-testid": "link-url", onfocus: (e) => e.target.select() }),
        h("button", { class: "btn small", onclick: async () => {
          if (await copyText(link.url)) toast("Link copied.", "info");
          else toast("Copy the link by hand.");
        } }, "Copy link"),
        left)));
  const tick = () => {
    const ms = Date.parse(link.expires_at) - Date.now();
    if (!box.isConnected) return;
    left.textContent = ms > 0 ? `Expires in ${Math.ceil(ms / 60000)} min` : "Expired: close and make a new one.";
    if (ms > 0) setTimeout(tick, 15000);
  };
  tick();
}

function when(iso) {
  return new Date(iso).toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

function ago(iso) {
  const min = Math.round((Date.now() - Date.parse(iso)) / 60000);
  if (min < 2) return "just now";
  if (min < 60) return `${min} min ago`;
  return min < 24 * 60 ? `${Math.round(min / 60)} h ago` : when(iso);
}

/** The player's signed-in devices, each with "Sign out", and "Sign out everywhere else". */
async function devicesDialog() {
  const list = h("ul", { class: "device-list", "data-testid": "device-list" }, h("li", { class: "empty" }, "Loading…"));
  const { close } = dialog("Your devices",
    h("p", { class: "hint" }, "Every browser signed in as you. Sign out one you lost or no longer use: it stops "
      + "playing as you at once."), list,
    h("div", { class: "row end" }, h("button", { class: "btn small", "data-testid": "sign-out-others",
      onclick: async () => {
        try {
          const { signed_out: n } = await api("POST", "/api/players/me/devices/sign-out-others");
          toast(n ? `Signed out ${n} other device${n === 1 ? "" : "s"}.` : "No other device was signed in.", "info");
          draw();
        } catch (err) { toast(err.message); }
      } }, "Sign out everywhere else")));
  async function draw() {
    try {
      const devices = await api("GET", "/api/players/me/devices");
      replace(list, devices.map((d) => h("li", { class: "device-row", "data-testid": "device", "data-device": d.id },
        h("div", {}, h("strong", {}, d.label), d.current ? h("span", { class: "badge" }, "this device") : null,
          h("div", { class: "hint" }, `Added ${when(d.created_at)} · seen ${ago(d.last_seen)}`)),
        h("button", { class: "btn ghost small", "data-testid": "sign-out-device", onclick: async () => {
          try {
            await api("DELETE", `/api/players/me/devices/${d.id}`);
            if (d.current) { close(); signedOutHere(); navigate("/"); return; }
            toast(`Signed out ${d.label}.`, "info");
            draw();
          } catch (err) { toast(err.message); }
        } }, "Sign out"))));
    } catch (err) {
      replace(list, h("li", { class: "empty" }, err.message));
    }
  }
  draw();
}

/** Add a passkey to this player (the browser asks to make one). */
async function addPasskey() {
  if (!window.PublicKeyCredential?.parseCreationOptionsFromJSON) {
    toast("This browser cannot make passkeys (it needs a secure address: https, or localhost).");
    return;
  }
  try {
    const { challenge_id: id, options } = await api("POST", "/api/players/me/passkeys/options");
    const made = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    await api("POST", "/api/players/me/passkeys", { challenge_id: id, credential: made.toJSON() });
    toast("Passkey added: sign in with it on any device that has it.", "info");
  } catch (err) {
    toast(err instanceof ApiError ? err.message : `No passkey was made (${err.name || err.message}).`);
  }
}

/** Sign this device in with a passkey: no name, no code. */
export async function passkeySignIn(after) {
  if (!window.PublicKeyCredential?.parseRequestOptionsFromJSON) {
    toast("This browser cannot use passkeys here (it needs a secure address: https, or localhost).");
    return;
  }
  try {
    const { challenge_id: id, options } = await api("POST", "/api/players/passkeys/options");
    const found = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    remember(await api("POST", "/api/players/passkeys/sign-in", { challenge_id: id, credential: found.toJSON() }));
    toast(`Signed in as ${me().name}.`, "info");
    after();
  } catch (err) {
    toast(err instanceof ApiError ? err.message : `No passkey was used (${err.name || err.message}).`);
  }
}

/** Sign this device in with a code from another device. */
export async function useCode(code) {
  remember(await api("POST", "/api/players/link", { code }));
  return me();
}

/** "Have a code?" and "Sign in with a passkey", under the name form of a new device. */
export function signInChoices(after) {
  const input = h("input", { name: "link-code", placeholder: "ABCD-EFGH", maxlength: 12, "aria-label": "Code from your other device",
                             autocomplete: "one-time-code", autocapitalize: "characters", spellcheck: false,
                             "data-testid": "link-code-input" });
  return h("div", { class: "sign-in-choices" },
    h("form", { class: "name-form inline", onsubmit: async (e) => {
      e.preventDefault();
      if (!input.value.trim()) { toast("Type the code your other device shows."); return; }
      try { await useCode(input.value.trim()); after(); } catch (err) { toast(err.message); }
    } }, h("span", { class: "hint" }, "Already playing on another device? Type the code it shows under "
        + "\u201cUse on another device\u201d."),
      h("div", { class: "row" }, input, h("button", { class: "btn", type: "submit" }, "Use code"))),
    h("button", { class: "btn ghost", type: "button", "data-testid": "passkey-sign-in",
                  onclick: () => passkeySignIn(after) }, "Sign in with a passkey"));
}

/** The page a link opens (/link#CODE): sign this device in as the code's player. */
export function openLink(root) {
  const code = decodeURIComponent(location.hash.slice(1));
  const current = me();
  const go = async () => {
    try {
      const player = await useCode(code);
      history.replaceState(null, "", "/");
      toast(`This device now plays as ${player.name}.`, "info");
      navigate("/");
    } catch (err) {
      toast(err.message);
    }
  };
  replace(root, h("main", { class: "lobby" }, h("section", { class: "card hero", "data-testid": "link-landing" },
    h("h1", {}, "Use this device"),
    code ? h("p", {}, "Your other device sent this link. Continue to play here as the same player, with every game "
      + "you have there.") : h("p", {}, "This link has no code in it; make a new one on your other device."),
    current ? h("p", { class: "hint" }, `This browser plays as ${current.name} now; it will switch to the player of the link.`) : null,
    code ? h("div", { class: "row" }, h("span", { class: "link-code" }, code),
      h("button", { class: "btn primary", "data-testid": "use-link", onclick: go }, "Continue")) : null,
    h("p", {}, h("a", { href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } }, "Back to the start page")))));
  return { dispose() {} };
}

function timeLeft(iso) {
  const s = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

function resultText(result) {
  if (!result) return "finished";
  if (result.won) return "you won";
  const nth = ["", "1st", "2nd", "3rd"][result.rank] || `${result.rank}th`;
  return `you came ${nth}`;
}

/** "Your games": every room where this player holds a seat, as the server knows them. */
export function yourGamesCard(titles) {
  const list = h("ul", { class: "room-list", "data-scroll": "your-games" });
  const card = h("section", { class: "card wide", "aria-labelledby": "yours-title", "data-testid": "your-games" },
    h("h2", { id: "yours-title" }, "Your games"), list);
  api("GET", "/api/players/me/rooms").then(async (rooms) => {
    const names = await titles();
    if (!rooms.length) { card.remove(); return; }
    replace(list, rooms.map((room) => {
      const others = room.seats.filter((s) => s.seat !== room.seat && (s.player || s.bot))
        .map((s) => s.player?.name || "Bot").join(", ");
      const status = room.your_turn
        ? h("span", { class: "badge turn", "data-testid": "your-turn" }, "Your turn",
          room.deadline ? ` · ${timeLeft(room.deadline)} left` : "")
        : h("span", {}, room.status === "finished" ? resultText(room.result)
          : room.status === "active" ? "waiting for others" : STATUS_WORDS[room.status] || room.status);
      return h("li", { class: "room-row", "data-code": room.code, "data-testid": "your-game" },
        h("span", { class: "room-game" }, names[room.game] || room.game),
        h("span", { class: "room-host" }, status, others ? ` · with ${others}` : "",
          clockText(room) ? ` · ${clockText(room)}` : "", room.pace === "turn-based" ? " · turn-based" : ""),
        h("span", { class: "room-seats" }, room.code),
        h("button", { class: `btn small${room.your_turn ? " primary" : ""}`, onclick: () => navigate(`/r/${room.code}`) },
          room.your_turn ? "Play" : room.status === "finished" ? "Open" : "Resume"));
    }));
  }).catch(() => card.remove());
  return card;
}

/** A socket closed with 4401: the token was refused. Signed out from another device? Then
 *  this browser forgets its player; any other refusal is the caller's to handle. */
export async function checkSignedOut() {
  try {
    await api("GET", "/api/players/me");
    return false;
  } catch (err) {
    return err instanceof ApiError && err.code === "signed_out";
  }
}
