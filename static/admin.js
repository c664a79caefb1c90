// The admin console at /admin: sign in with the admin token, find rooms (errored and stalled
// first), open one (admin-room.js), read the audit log. Routes: `#` the rooms, `#room=<code>`.

import { ApiError } from "./api.js";
import { adminApi, adminSession, signIn, signOut } from "./admin-api.js";
import { openAdminRoom } from "./admin-room.js";
import { auditTable, seatChips, timeCell } from "./admin-ui.js";
import { clearToasts, h, holdDuringPress, replace, toast } from "./ui.js";

const root = document.getElementById("app");
const STALL_KEY = "ziggurat.admin.stalled";
const STATUS_ORDER = ["active", "lobby", "finished", "aborted"];
let page = null;

function route() {
  page?.dispose?.();
  page = null;
  if (!adminSession()) return signInPage();
  const match = location.hash.match(/^#room=([^&]+)$/);
  page = match ? openAdminRoom(root, decodeURIComponent(match[1]), { shell, onDenied })
    : roomsPage();
}

/** A refused token (changed on the server, or mistyped): back to the sign-in form. */
function onDenied(err) {
  if (err instanceof ApiError && (err.code === "not_admin" || err.code === "admin_disabled")) {
    signOut();
    toast(err.message);
    route();
    return true;
  }
  return false;
}

function shell(...children) {
  const session = adminSession();
  replace(root,
    h("header", { class: "topbar" },
      h("a", { class: "brand", href: "/admin#" }, h("span", { class: "brand-mark", "aria-hidden": "true" }), "Ziggurat admin"),
      session ? h("div", { class: "me" },
        h("span", { class: "me-name", "data-testid": "admin-name" }, session.name || "admin"),
        h("button", { class: "btn ghost small", "data-testid": "sign-out",
                      onclick: () => { signOut(); location.hash = ""; route(); } }, "Sign out")) : null),
    h("main", { class: "admin-main" }, ...children));
}

function signInPage() {
  const token = h("input", { id: "admin-token", type: "password", autocomplete: "current-password",
                             required: true, "data-testid": "admin-token" });
  const name = h("input", { id: "admin-who", maxlength: 40, autocomplete: "nickname",
                            placeholder: "e.g. Sam", "data-testid": "admin-who" });
  async function submit(event) {
    event.preventDefault();
    const session = { token: token.value.trim(), name: name.value.trim() || "admin" };
    try {
      await adminApi("GET", "/rooms?status=errored", undefined, session);
    } catch (err) {
      toast(err.message);
      return;
    }
    signIn(session.token, session.name);
    clearToasts(); // "That is not the admin token" is old news once signed in
    route();
  }
  shell(h("section", { class: "card admin-signin", "data-testid": "admin-signin" },
    h("h1", {}, "Admin sign-in"),
    h("p", { class: "hint" }, "The token is the server's ADMIN_TOKEN. It is kept in this tab only and forgotten when the tab closes."),
    h("form", { class: "admin-form", onsubmit: submit },
      h("label", { for: "admin-token" }, "Admin token"), token,
      h("label", { for: "admin-who" }, "Your name, for the audit log"), name,
      h("button", { class: "btn primary", type: "submit" }, "Sign in"))));
  token.focus();
}

function roomsPage() {
  const state = { disposed: false, rooms: [], audit: [], stuck: [] };
  const stalled = h("input", { type: "number", min: 0, step: "any", id: "stalled-minutes",
                               value: sessionStorage.getItem(STALL_KEY) || "10", "data-testid": "stalled-minutes" });
  const search = h("input", { type: "search", id: "room-search", placeholder: "code or player name",
                              maxlength: 40, "data-testid": "room-search" });
  const list = h("div", { class: "admin-lists", "data-testid": "room-lists" }, h("p", { class: "loading" }, "Loading rooms…"));
  const audit = h("section", { class: "card" });
  let timer = null;
  // Refreshed every 15 s: never between the press and release of a click, unfolded kept.
  const presses = holdDuringPress(root, () => draw());

  async function load() {
    clearTimeout(timer);
    const q = search.value.trim();
    try {
      const [rooms, actions, stuck] = await Promise.all([
        adminApi("GET", `/rooms${q ? `?q=${encodeURIComponent(q)}` : ""}`),
        adminApi("GET", "/audit?limit=30"), adminApi("GET", "/stuck")]);
      if (state.disposed) return;
      state.rooms = rooms;
      state.stuck = stuck;
      state.audit = actions;
      presses.draw();
    } catch (err) {
      if (!onDenied(err)) toast(err.message);
    }
    if (!state.disposed) timer = setTimeout(load, 15000);
  }

  function isStalled(room, minutes) {
    const last = Date.parse(room.last_move_at || room.updated_at);
    return room.status === "active" && Date.now() - last >= minutes * 60000;
  }

  function table(rooms, kind) {
    return h("table", { class: "admin-table" },
      h("thead", {}, h("tr", {}, ["Room", "Game", "Players (▶ to act)", "Version", "Last move", "Status"]
        .map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rooms.map((room) => h("tr", { "data-testid": "room-row", "data-code": room.code, "data-kind": kind },
        h("td", {}, h("a", { class: "code-link", href: `#room=${room.code}`, "data-testid": "open-room" }, room.code)),
        h("td", {}, room.game),
        h("td", {}, seatChips(room.players, room.to_act)),
        h("td", {}, room.version),
        h("td", {}, timeCell(room.last_move_at)),
        h("td", {}, h("span", { class: `status ${room.status}` }, room.status),
          room.error ? h("details", { class: "trace", "data-key": `trace-${room.code}` }, h("summary", {}, "traceback"),
            h("pre", { "data-testid": "traceback" }, room.error)) : null)))));
  }

  function section(title, rooms, kind, hint) {
    if (!rooms.length) return null;
    // kind-…: a bare "lobby" or "finished" class would pick up the shell's styles of that name.
    return h("section", { class: `card admin-section kind-${kind}`, "data-testid": `section-${kind}` },
      h("h2", {}, `${title} (${rooms.length})`), hint ? h("p", { class: "hint" }, hint) : null,
      h("div", { class: "scroll-x" }, table(rooms, kind)));
  }

  /** Rooms the server finds stuck (GET /api/admin/stuck), each with why, one click from its page. */
  function stuckSection() {
    if (!state.stuck.length) return null;
    return h("section", { class: "card admin-section kind-stuck", "data-testid": "section-stuck" },
      h("h2", {}, `Stuck (${state.stuck.length})`),
      h("p", { class: "hint" }, "Errored, a bot or a clock that stopped moving, or a long wait with no clock; longest stuck first."),
      h("div", { class: "scroll-x" }, h("table", { class: "admin-table" },
        h("thead", {}, h("tr", {}, ["Room", "Game", "Why", "Since"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, state.stuck.map((room) => h("tr", { "data-testid": "stuck-row", "data-code": room.code, "data-kind": room.kind },
          h("td", {}, h("a", { class: "code-link", href: `#room=${room.code}`, "data-testid": "open-room" }, room.code)),
          h("td", {}, room.game),
          h("td", { "data-testid": "stuck-reason" }, room.reason),
          h("td", {}, timeCell(room.since))))))));
  }

  function draw() {
    const minutes = Math.max(0, Number(stalled.value) || 0);
    const rooms = state.rooms;
    const errored = rooms.filter((r) => r.status === "errored");
    const stuck = rooms.filter((r) => isStalled(r, minutes))
      .sort((a, b) => Date.parse(a.last_move_at || a.updated_at) - Date.parse(b.last_move_at || b.updated_at));
    const rest = rooms.filter((r) => r.status !== "errored" && !stuck.includes(r));
    const titles = { active: "Playing", lobby: "Waiting to start", finished: "Finished", aborted: "Aborted" };
    replace(list,
      rooms.length ? null : h("p", { class: "empty" }, "No rooms match."),
      stuckSection(),
      section("Errored", errored, "errored", "A rule module raised: the room is paused. Read the traceback, then roll back or abort."),
      section("Stalled", stuck, "stalled", `Playing, with no move for ${minutes} minutes or more; oldest first.`),
      STATUS_ORDER.map((status) => section(titles[status], rest.filter((r) => r.status === status), status)));
    replace(audit, h("h2", {}, "Recent admin actions"), auditTable(state.audit, true));
  }

  stalled.addEventListener("input", () => { sessionStorage.setItem(STALL_KEY, stalled.value); draw(); });
  let typing = null;
  search.addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(load, 250); });
  shell(
    h("section", { class: "card admin-toolbar" },
      h("h1", {}, "Rooms"),
      h("div", { class: "row" },
        h("label", { for: "room-search" }, "Search"), search,
        h("label", { for: "stalled-minutes" }, "Stalled after (minutes)"), stalled,
        h("button", { class: "btn small", "data-testid": "refresh", onclick: load }, "Refresh"))),
    list, audit);
  load();
  return { dispose() { state.disposed = true; clearTimeout(timer); presses.dispose(); } };
}

window.addEventListener("hashchange", route);
route();
