// Turn clocks: the countdown shown beside the seat to act, and the lobby's preset choice.
import { h } from "./ui.js";

/** Presets offered when creating a room (seconds per move; 0 = no clock, the default). */
export const CLOCK_PRESETS = [
  [0, "No clock"], [30, "30 s per move"], [120, "2 min per move"],
  [600, "10 min per move"], [86400, "1 day per move"],
];

/** "1:05", "12 s", "3 h 20 min", "1 d 2 h": the time left, as a player reads it. */
export function formatLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

/** The countdown element for a seat to act; refreshed by tickClocks. */
export function clockBadge(deadline) {
  const left = Date.parse(deadline) - Date.now();
  return h("span", { class: `turn-clock${left < 10000 ? " low" : ""}`, "data-testid": "turn-clock",
                     "data-deadline": deadline, title: "Time left for this move; when it runs out a standard move is played for this seat" },
    formatLeft(left));
}

/** Update every countdown under root (called once a second). */
export function tickClocks(root) {
  for (const el of root.querySelectorAll("[data-testid=turn-clock]")) {
    const left = Date.parse(el.dataset.deadline) - Date.now();
    el.textContent = formatLeft(left);
    el.classList.toggle("low", left < 10000);
  }
}

/** The lobby's select for a new room; read() gives the body field (null = no clock). */
export function clockChoice(id) {
  const select = h("select", { id, name: "turn_clock", "data-testid": "turn-clock-choice" },
    CLOCK_PRESETS.map(([value, label]) => h("option", { value: String(value) }, label)));
  return {
    el: h("div", { class: "field inline-field" }, h("label", { for: id }, "Turn clock"), select),
    read: () => Number(select.value) || null,
  };
}

/**
 * The deadline of the move at the state's version. The room message carries the server's
 * deadline, but it is only re-sent when seats change; for a newer version the clock restarted
 * when the move landed, which is (within the push's latency) when this page first saw it.
 */
export class TurnClock {
  constructor() {
    this.version = null;
    this.seenAt = 0;
  }

  saw(version) {
    if (version !== this.version) {
      this.version = version;
      this.seenAt = Date.now();
    }
  }

  deadline(room, state) {
    if (!room?.turn_clock || state?.status !== "active") return null;
    if (room.turn_deadline && room.version === state.version) return room.turn_deadline;
    return new Date(this.seenAt + room.turn_clock * 1000).toISOString();
  }
}
