// "Your turn" signals beyond the tab title: an optional beep (WebAudio, no sound file) and a
// browser notification when the page is hidden. Both are off until the player turns them on.

import { h } from "./ui.js";

const SOUND = "ziggurat.sound";
const NOTIFY = "ziggurat.notify";

export class TurnSignals {
  constructor(title) {
    this.title = title;
    this.was = false;
    this.audio = null;
    this.beeps = 0;
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
      this.sound ? "♪ Sound on" : "♪ Sound off");
    const canNotify = "Notification" in window;
    const notify = canNotify ? h("button", { type: "button", class: `btn ghost small signal${this.notify ? " on" : ""}`,
                                             "data-testid": "notify-toggle", "aria-pressed": String(this.notify),
                                             title: "A notification when it is your turn and this tab is hidden",
                                             onclick: () => this.toggleNotify() },
      this.notify ? "Alerts on" : "Alerts off") : null;
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
    }
    this.draw();
  }

  /** Called on every redraw; signals only when the turn becomes mine. */
  update(myTurn) {
    if (myTurn && !this.was) {
      if (this.sound) this.beep();
      if (this.notify && document.visibilityState === "hidden") this.notification();
    }
    this.was = myTurn;
  }

  beep() {
    try {
      this.audio ??= new AudioContext();
      const osc = this.audio.createOscillator();
      const gain = this.audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.12, this.audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, this.audio.currentTime + 0.25);
      osc.connect(gain).connect(this.audio.destination);
      osc.start();
      osc.stop(this.audio.currentTime + 0.25);
      this.beeps += 1;
      document.documentElement.dataset.beeps = String(this.beeps);
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
