// One room in the admin console: its seats and connections, the full state, the move log with
// a preview of any version, and the actions that unstick it (each asks first, each is audited).

import { heldAt } from "./absence.js";
import { adminApi } from "./admin-api.js";
import { auditTable, confirmAction, jsonBlock, seatChips, seatName, timeCell } from "./admin-ui.js";
import { h, holdDuringPress, plural, replace, toast } from "./ui.js";

/** The replay page at `version`, as the admin (same tab: the session token stays with it). */
function replayLink(code, version) {
  return `/r/${encodeURIComponent(code)}/replay?admin=1&v=${version}`;
}

/** Open room `code` inside the console; `shell` draws the page frame, `onDenied` signs out. */
export function openAdminRoom(root, code, { shell, onDenied }) {
  const page = { disposed: false, data: null, audit: [], preview: null };
  const body = h("div", { class: "admin-room", "data-testid": "room-detail" }, h("p", { class: "loading" }, "Loading the room…"));
  shell(h("p", {}, h("a", { href: "/admin#", "data-testid": "back" }, "← All rooms")), body);
  // Reloaded every 10 s: never between the press and release of a click.
  const presses = holdDuringPress(root, () => draw());

  function fail(err) {
    if (!onDenied(err)) toast(err.message);
  }

  async function load() {
    try {
      const [data, audit] = await Promise.all([
        adminApi("GET", `/rooms/${encodeURIComponent(code)}`),
        adminApi("GET", `/audit?room=${encodeURIComponent(code)}`)]);
      if (page.disposed) return;
      const seen = JSON.stringify([data, audit]);
      if (seen === page.seen) return; // nothing new: keep what the admin unfolded
      Object.assign(page, { data, audit, seen });
      if (page.preview && page.preview.version > data.room.version) page.preview = null;
      presses.draw();
    } catch (err) {
      if (err.code === "room_not_found") replace(body, h("p", { class: "empty" }, err.message));
      else fail(err);
    }
  }

  /** Confirm, run the action, say what happened, reload. */
  async function act(title, text, label, method, path, json, done) {
    if (!(await confirmAction(title, text, label))) return;
    try {
      const result = await adminApi(method, `/rooms/${encodeURIComponent(page.data.room.code)}${path}`, json);
      toast(done(result), "info");
    } catch (err) {
      fail(err);
    }
    await load();
  }

  async function preview(version) {
    try {
      page.preview = await adminApi("GET", `/rooms/${encodeURIComponent(page.data.room.code)}/versions/${version}`);
      draw();
      body.querySelector("[data-testid=preview]")?.scrollIntoView({ block: "nearest" });
    } catch (err) {
      fail(err);
    }
  }

  function seatsCard(data) {
    const room = data.room;
    const active = room.status === "active";
    return h("section", { class: "card", "data-testid": "seats" },
      h("h2", {}, "Seats"),
      h("div", { class: "scroll-x" }, h("table", { class: "admin-table" },
        h("thead", {}, h("tr", {}, ["Seat", "Held by", "Sockets", "To act", "Actions"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, data.players.map((p) => {
          const acting = data.to_act.includes(p.seat);
          const who = seatName(p);
          return h("tr", { "data-testid": "seat-row", "data-seat": p.seat, "data-acting": String(acting) },
            h("td", {}, p.seat + 1),
            h("td", {}, seatChips([p], data.to_act)),
            h("td", {}, p.bot ? "bot" : String(p.connections)),
            h("td", {}, acting ? "yes" : ""),
            h("td", {}, h("div", { class: "row" },
              p.bot || !active ? null : h("button", { class: "btn small", "data-testid": "act-bot",
                onclick: () => act(`Hand seat ${p.seat + 1} to a bot?`, handOverText(who, data.handover_hold_seconds),
                  "Hand to a bot", "POST", "/bot", { seat: p.seat }, () => `Seat ${p.seat + 1} is now played by a bot.`) },
                "Hand to a bot"),
              active && acting ? h("button", { class: "btn small", "data-testid": "act-zombie",
                title: "The game's own default move for the seat (what a bot falls back on)",
                onclick: () => act(`Play the default move for seat ${p.seat + 1}?`,
                  `The game's default move (a pass or its simplest legal move, not a bot's choice) is made for ${who}, as if they had chosen it.`,
                  "Play the default move", "POST", "/zombie", { seat: p.seat },
                  (r) => `Played the default move: version ${r.version}.`) }, "Play the default move for the seat to act") : null)));
        })))));
  }

  function logCard(data) {
    const room = data.room;
    const name = (seat) => seatName(data.players[seat] || { seat });
    // Who made the move: as recorded with it (`by`), else as the seat's handovers tell it.
    const mover = (m) => (m.seat === null ? null : m.by || heldAt(room.handovers, m.seat, m.version));
    const rows = [{ version: 0, seat: null, text: "The game is dealt.", at: null }, ...data.log].reverse();
    return h("section", { class: "card", "data-testid": "log" },
      h("h2", {}, `Move log (${data.log.length})`),
      h("p", { class: "hint" }, "Preview a version to see its full state; a rollback to it starts from that preview."),
      h("div", { class: "scroll-y" }, h("table", { class: "admin-table" },
        h("thead", {}, h("tr", {}, ["Version", "Who", "Move", "When", ""].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, rows.map((m) => h("tr", { "data-testid": "log-row", "data-version": m.version,
                                                   class: page.preview?.version === m.version ? "picked" : "" },
          h("td", {}, m.version),
          h("td", {}, m.seat === null ? "" : mover(m)?.name || name(m.seat), mover(m)?.bot ? h("span", { class: "tag bot" }, "bot") : null),
          h("td", {}, m.text, (m.client_id?.startsWith("~admin:") || m.client_id?.startsWith("admin:")) ? h("span", { class: "tag" }, "admin") : null),
          h("td", {}, m.at ? timeCell(m.at) : ""),
          h("td", {}, data.state === null ? null : h("div", { class: "row" },
            h("button", { class: "btn small ghost", "data-testid": "preview-version",
                          onclick: () => preview(m.version) }, "Preview"),
            h("a", { class: "btn small ghost", href: replayLink(room.code, m.version), "data-testid": "replay-from",
                     title: "Step through the game from this version" }, "Replay")))))))));
  }

  function previewCard(data) {
    const p = page.preview;
    if (!p) return null;
    // Rolling back to the current version only makes sense to revive an errored room; a closed
    // room (aborted, or finished with its replay public) is not rolled back: no button for it.
    const closed = ["aborted", "finished"].includes(data.room.status);
    const current = p.version === data.room.version && data.room.status !== "errored";
    return h("section", { class: "card preview", "data-testid": "preview", "data-version": p.version },
      h("h2", {}, `State at version ${p.version}`),
      h("p", {}, p.outcome ? "The game is over at this version." : `To act: ${p.to_act.map((s) => seatName(data.players[s])).join(", ") || "nobody"}.`),
      jsonBlock(p.state),
      closed ? h("p", { class: "hint", "data-testid": "no-rollback" },
        `This room is ${data.room.status}: it is not rolled back.`) : null,
      h("div", { class: "row" },
        closed ? null : h("button", { class: "btn primary", "data-testid": "rollback", disabled: current,
          onclick: () => act(`Roll back to version ${p.version}?`,
            `The ${plural(data.room.version - p.version, "move")} after version ${p.version} ${data.room.version - p.version === 1 ? "is" : "are"} deleted and the game goes on from the state shown.`,
            "Roll back", "POST", "/rollback", { version: p.version },
            (r) => `Rolled back to version ${r.version}; the room is ${r.status}.`) },
          current ? "This is the current version" : p.version === data.room.version
            ? `Resume from version ${p.version}` : `Roll back to version ${p.version}`),
        h("button", { class: "btn ghost", onclick: () => { page.preview = null; draw(); } }, "Close the preview")));
  }

  function draw() {
    const data = page.data;
    const room = data.room;
    replace(body,
      h("section", { class: "card admin-head" },
        h("h1", {}, room.code, " ", h("span", { class: `status ${room.status}`, "data-testid": "room-status" }, room.status)),
        h("p", {}, `${room.game} · version `, h("strong", { "data-testid": "room-version" }, room.version),
          " · last move ", timeCell(data.last_move_at), " · created ", timeCell(data.created_at)),
        h("div", { class: "row" },
          h("a", { class: "btn small", href: `/r/${room.code}`, target: "_blank", rel: "noopener" }, "Open as a spectator"),
          data.state === null ? null : h("a", { class: "btn small", href: replayLink(room.code, room.version),
            "data-testid": "open-replay" }, "Replay"),
          h("button", { class: "btn small", "data-testid": "refresh", onclick: load }, "Refresh"),
          ["aborted", "finished"].includes(room.status) ? null : h("button", { class: "btn small danger", "data-testid": "act-abort",
            onclick: () => act(`Abort ${room.code}?`, "The room closes for everyone; no more moves are accepted.",
              "Abort the room", "POST", "/abort", undefined, () => "The room is aborted.") }, "Abort"))),
      data.error ? h("section", { class: "card errored" }, h("h2", {}, "Traceback"),
        h("pre", { class: "trace", "data-testid": "traceback" }, data.error)) : null,
      seatsCard(data),
      previewCard(data),
      logCard(data),
      h("section", { class: "card", "data-testid": "state" }, h("h2", {}, "Full state (unfiltered)"),
        data.state === null ? h("p", { class: "empty" }, "Not dealt yet.") : jsonBlock(data.state),
        h("p", { class: "hint" }, `Seed ${data.seed}`)),
      actionsCard(page.audit));
  }

  load();
  const timer = setInterval(() => { if (!document.querySelector("dialog[open]")) load(); }, 10000);
  return { dispose() { page.disposed = true; clearInterval(timer); presses.dispose(); } };
}

/** The hand-over dialog's sentence: what the player, the table and the admin will all read
 * (the seat is the bot's for the hold, then its player may take it back). */
function handOverText(who, holdSeconds) {
  const minutes = Math.round((holdSeconds || 0) / 60);
  const hold = holdSeconds ? `from ${minutes >= 1 ? plural(minutes, "minute") : plural(Math.round(holdSeconds), "second")} after this`
    : "at any time";
  return `A bot plays ${who}'s seat from now on. ${who} and the others at the table read that the admin handed it to a bot; ${who} can take the seat back ${hold}.`;
}

/** The actions taken on the room; admins' looks inside it (audited `read` lines) are counted
 *  apart, so that a watched room's actions are not buried under its reads. */
function actionsCard(audit) {
  const actions = audit.filter((a) => a.action !== "read");
  const looks = audit.length - actions.length;
  return h("section", { class: "card" }, h("h2", {}, "Admin actions on this room"),
    auditTable(actions, false),
    looks ? h("p", { class: "hint", "data-testid": "audit-looks" },
      `Admins looked inside this game ${looks} time${looks === 1 ? "" : "s"} (each look is in the audit log).`) : null);
}
