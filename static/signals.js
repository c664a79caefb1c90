// "Your turn" signals beyond the tab title: an optional beep (WebAudio, no sound file) and a
// browser notification when the page is hidden. Both are off until the player turns them on.

import { h, toast } from "./ui.js";

const SOUND = "ziggurat.sound";
const NOTIFY = "ziggurat.notify";

export class TurnSignals {
  constructor(title) {
    this.title = title;
    this.audio = null;
    this.beeps = 0;
    this.warnings = 0;
    this.notes = 0;
    this.el = h("span", { class: "signals" });
    this.draw();
  }

  get sound() { return localStorage.getItem(SOUND) === "on"; }
  get notify() { return localStorage.getItem(NOTIFY) === "on" && window.Notification?.permission === "granted"; }

  draw() {
    const sound = h("button", { type: "button", class: `btn ghost small signal${this.sound ? " on" : ""}`,
                                "data-testid": "sound-toggle", "aria-pressed": String(this.sound),
                                title: "Beep when it is your turn", onclick: () => this.toggleSound() },
      h("span", { "aria-hidden": "true" }, "♪"), h("span", { class: "signal-text" }, this.sound ? " Sound on" : " Sound off"));
    const canNotify = "Notification" in window;
    const notify = canNotify ? h("button", { type: "button", class: `btn ghost small signal${this.notify ? " on" : ""}`,
                                             "data-testid": "notify-toggle", "aria-pressed": String(this.notify),
                                             title: window.Notification?.permission === "denied"
                                               ? "Notifications are blocked for this site in the browser's settings"
                                               : "A notification when it is your turn and this tab is hidden",
                                             onclick: () => this.toggleNotify() },
      h("span", { class: "signal-icon", "aria-hidden": "true" }, "⚑"),
      h("span", { class: "signal-text" }, "Alerts", this.notify ? " on" : " off")) : null;
    this.el.replaceChildren(sound, ...(notify ? [notify] : []));
  }

  toggleSound() {
    localStorage.setItem(SOUND, this.sound ? "off" : "on");
    if (this.sound) this.beep(); // the click unlocks audio, and lets the player hear it
    this.draw();
  }

  async toggleNotify() {
    if (this.notify) {
      localStorage.setItem(NOTIFY, "off");
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      localStorage.setItem(NOTIFY, answer === "granted" ? "on" : "off");
      if (answer !== "granted") {
        toast("This browser blocks notifications from Ziggurat, so alerts stay off. Allow them in the "
          + "site settings (the icon left of the address), then try again.");
      }
    }
    this.draw();
  }

  /** Called with every `state` message (and the one before it, and the versions this page's
   * own moves made, from their acks): signals only when the turn comes to this seat from
   * someone else — not while my own move awaits its answer, not between the steps of my own
   * turn. A push may skip versions: then the turn came back if someone moved after a move of
   * mine; in a simultaneous step others moving while I still choose is no new turn. */
  update(state, previous, myVersions) {
    if (!toAct(state)) return;
    let came = !toAct(previous) || previous.seat !== state.seat || state.version < previous.version;
    let mineSeen = false;
    for (let v = (previous?.version ?? 0) + 1; !came && v <= state.version; v += 1) {
      if (myVersions.has(v)) mineSeen = true;
      else if (mineSeen) came = true;
    }
    if (!came) return;
    if (this.sound) this.beep();
    if (this.notify && document.visibilityState === "hidden") this.notification();
  }

  /** Time is running low on my move: a lower double tone (only with Sound on). */
  warn() {
    if (!this.sound) return;
    this.tone(440, 0);
    this.tone(440, 0.3);
    this.warnings += 1;
    document.documentElement.dataset.warnings = String(this.warnings);
  }

  /** The "your turn" beep; counted on <html data-beeps> (tests and the curious read it). */
  beep() {
    this.tone(880, 0);
    this.beeps += 1;
    document.documentElement.dataset.beeps = String(this.beeps);
  }

  tone(frequency, delay) {
    try {
      this.audio ??= new AudioContext();
      const osc = this.audio.createOscillator();
      const gain = this.audio.createGain();
      const start = this.audio.currentTime + delay;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.12, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.25);
      osc.connect(gain).connect(this.audio.destination);
      osc.start(start);
      osc.stop(start + 0.25);
    } catch (err) {
      console.warn("no sound", err);
    }
  }

  notification() {
    try {
      const note = new Notification("Your turn", { body: `${this.title} on Ziggurat`, tag: "ziggurat-turn" });
      note.onclick = () => { window.focus(); note.close(); };
      this.notes += 1;
      document.documentElement.dataset.notes = String(this.notes);
    } catch (err) {
      console.warn("no notification", err);
    }
  }
}

/** Whether this `state` message has its own seat to act. */
function toAct(state) {
  return Boolean(state) && state.status === "active" && state.seat !== null && (state.to_act || []).includes(state.seat);
}
