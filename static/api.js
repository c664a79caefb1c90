// The REST half of the wire contract, and the browser's anonymous identity.

const KEY = "ziggurat.player";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The stored identity {id, name, token}, or null before a name is chosen. */
export function me() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    return null;
  }
}

export function remember(player) {
  localStorage.setItem(KEY, JSON.stringify(player));
  return player;
}

const SIGNED_OUT = "ziggurat.signedOut";

/** This device was signed out (here, or from another device): forget its player; the lobby
 * says so once. */
export function signedOutHere() {
  localStorage.removeItem(KEY);
  sessionStorage.setItem(SIGNED_OUT, "1");
}

/** Whether this device was just signed out (asked once: the answer is then forgotten). */
export function wasSignedOut() {
  const was = sessionStorage.getItem(SIGNED_OUT) === "1";
  sessionStorage.removeItem(SIGNED_OUT);
  return was;
}

/** Make a new player with this name (a fresh identity) and keep it. */
export async function createPlayer(name) {
  return remember(await request("POST", "/api/players", { name }, null));
}

let renewing = null;

/** The stored token was refused (a reset database, or it expired): quietly become a new player,
 * same name. */
export async function renewPlayer() {
  const old = me();
  if (!old) return null;
  renewing ??= createPlayer(old.name).finally(() => { renewing = null; });
  return renewing;
}

/** Check the stored token once at start: past half its life, push its expiry back (the token
 * stays the same); if the server no longer knows it, become a new player. */
export async function checkIdentity() {
  const player = me();
  if (!player) return null;
  try {
    let found = await request("GET", "/api/players/me", undefined, player.token);
    if (found.renew_after && Date.parse(found.renew_after) <= Date.now()) {
      found = await request("POST", "/api/players/me/renew", undefined, player.token);
    }
    if (found.name !== player.name) remember({ ...player, name: found.name });
    return me();
  } catch (err) {
    if (err instanceof ApiError && err.code === "signed_out") { signedOutHere(); return null; }
    if (err instanceof ApiError && err.status === 401) return renewPlayer();
    return player; // offline or a server hiccup: keep what we have
  }
}

async function request(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers,
                                   body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection and try again.");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data?.error;
    throw new ApiError(response.status, err?.code || "http_error",
                       err?.message || `The server answered ${response.status}.`);
  }
  return data;
}

/** Call the API as the stored player (if any); a refused token is renewed once, silently. */
export async function api(method, path, body) {
  const player = me();
  try {
    return await request(method, path, body, player?.token);
  } catch (err) {
    if (player && err instanceof ApiError && err.code === "signed_out") signedOutHere();
    if (player && err instanceof ApiError && (err.code === "bad_token" || err.code === "token_expired")) {
      const fresh = await renewPlayer();
      return request(method, path, body, fresh?.token);
    }
    throw err;
  }
}

let gamesList = null;

/** GET /api/games, fetched once per page load. */
export function games() {
  gamesList ??= api("GET", "/api/games").catch((err) => { gamesList = null; throw err; });
  return gamesList;
}

export async function gameInfo(id) {
  return (await games()).find((g) => g.id === id) || { id, title: id, min_players: 1,
                                                      max_players: 1, options_schema: {} };
}
