// Turn clocks: the countdown shown beside the seat to act, and the lobby's preset choice.
import { h } from "./ui.js";

/**
 * Presets offered when creating a room: "seconds per move", or "bank+increment" for a Fischer
 * clock (each player's own bank, plus the increment for every move they make); "0" = no clock.
 */
export const CLOCK_PRESETS = [
  ["0", "No clock"], ["30", "30 s per move"], ["120", "2 min per move"],
  ["600", "10 min per move"], ["86400", "1 day per move"],
  ["300+5", "5 min + 5 s a move (Fischer)"], ["900+10", "15 min + 10 s a move (Fischer)"],
  // Turn-based rooms: a game over days, players told by mail or webhook when it is their turn.
  ["tb:43200", "Turn-based: 12 h a move"], ["tb:86400", "Turn-based: 1 day a move"],
  ["tb:259200", "Turn-based: 3 days a move"],
];

/** "1:05", "12 s", "3 h 20 min", "1 d 2 h": the time left, as a player reads it. */
export function formatLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

/** When a countdown counts as "low": a quarter of the room's clock, between 10 s and 5 min. */
export function lowMs(room) {
  const seconds = room?.turn_clock || 0;
  return Math.min(300_000, Math.max(10_000, seconds * 250));
}

/** How a room's clock reads in the lobby and the waiting room, or null without one. */
export function clockText(room) {
  if (!room?.turn_clock) return null;
  if (room.pace === "turn-based") {
    const preset = CLOCK_PRESETS.find(([value]) => value === `tb:${room.turn_clock}`);
    return preset ? preset[1] : `Turn-based: ${formatLeft(room.turn_clock * 1000)} a move`;
  }
  const key = room.clock_increment != null ? `${room.turn_clock}+${room.clock_increment}` : String(room.turn_clock);
  const preset = CLOCK_PRESETS.find(([value]) => value === key);
  if (preset) return preset[1];
  return room.clock_increment != null
    ? `${formatLeft(room.turn_clock * 1000)} + ${room.clock_increment} s a move (Fischer)`
    : `${formatLeft(room.turn_clock * 1000)} per move`;
}

/** The countdown element for a seat to act; refreshed by tickClocks. */
export function clockBadge(deadline, low = 10000) {
  const left = Date.parse(deadline) - Date.now();
  return h("span", { class: `turn-clock${left < low ? " low" : ""}`, "data-testid": "turn-clock",
                     "data-deadline": deadline, "data-low": String(low),
                     title: "Time left for this move; when it runs out the room's stand-in bot moves for this seat" },
    formatLeft(left));
}

/** Update every countdown under root (called once a second). */
export function tickClocks(root) {
  for (const el of root.querySelectorAll("[data-testid=turn-clock]")) {
    const left = Date.parse(el.dataset.deadline) - Date.now();
    el.textContent = formatLeft(left);
    el.classList.toggle("low", left < Number(el.dataset.low || 10000));
  }
}

/** A Fischer seat's bank while it is not to act: the time it has left. */
export function bankBadge(seconds) {
  return h("span", { class: "turn-clock bank", "data-testid": "clock-bank",
                     title: "Time left in this player's bank (it grows with every move they make)" },
    formatLeft(seconds * 1000));
}

/** The lobby's select for a new room; read() gives the body fields (turn_clock null = no clock). */
export function clockChoice(id) {
  const select = h("select", { id, name: "turn_clock", "data-testid": "turn-clock-choice" },
    CLOCK_PRESETS.map(([value, label]) => h("option", { value }, label)));
  return {
    el: h("div", { class: "field inline-field" }, h("label", { for: id }, "Turn clock"), select),
    read: () => {
      if (select.value.startsWith("tb:")) {
        return { turn_clock: Number(select.value.slice(3)), clock_increment: null, pace: "turn-based" };
      }
      const [bank, increment] = select.value.split("+").map(Number);
      return { turn_clock: bank || null, clock_increment: bank && increment !== undefined ? increment : null };
    },
  };
}
