// Absent players: the notice under the turn banner (vote a bot in, take my seat back) and the
// log lines saying who was replaced and who came back. All of it is read from the room message.
import { BOT_LEVELS, botWords, DEFAULT_BOT_LEVEL } from "./bots.js";
import { h, replace } from "./ui.js";

const RETURN_SHOWN_MS = 60_000; // how long "X is back" stays under the banner

/** What a stand-in bot at `level` does, for the banners: it plays for the seat, from that seat's
 * own view, until its player takes it back. */
function standInDoes(level) {
  const what = BOT_LEVELS[level] ? ` (it ${BOT_LEVELS[level]})` : "";
  return `${botWords(level)}${what} plays their moves, seeing only what their seat may see`;
}

/** Seconds until `iso`, rounded up; 0 once it has passed. */
function secondsUntil(iso) {
  return Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
}

/** The log line for one handover (`room.handovers[i]`). */
export function handoverText(handover) {
  const who = handover.player.name;
  if (handover.kind === "back") return `${who} is back and took the seat over from the bot.`;
  if (handover.cause === "vote") return `${who} was away: the other players voted a bot into the seat.`;
  if (handover.cause === "left") return `${who} left the game; a bot plays the seat.`;
  return `${who}'s seat was handed to a bot by the admin.`;
}

/** Who held `seat` when the move numbered `version` was made, read from the room's handovers
 * (a handover at version N changes the holder for moves after N): `{name, bot}`, or null when
 * the seat never changed hands (its holder now made every move). */
export function heldAt(handovers, seat, version) {
  const mine = (handovers || []).filter((o) => o.seat === seat).sort((a, b) => a.version - b.version);
  if (!mine.length) return null;
  const before = mine.filter((o) => o.version < version);
  const last = before[before.length - 1];
  // Before the first change the seat was held the other way round from what that change made.
  const botHeld = last ? last.kind !== "back" : mine[0].kind === "back";
  const person = (last || mine[0]).player.name;
  return botHeld ? { name: `Bot for ${person}`, bot: true } : { name: person, bot: false };
}

export class AbsenceNotice {
  /** page: { room, version, me(), mySeat(), name(seat), roomAction(what, body, button), reclaim(button) } */
  constructor(page) {
    this.page = page;
    this.el = h("div", { class: "absence", "data-testid": "absence", role: "status" });
    this.waitingOn = null; // a grace period being counted down: redraw when it ends
    this.showingReturn = false; // an "X is back" line: redraw when it is old news
  }

  /** Called once a second: redraw only when something on show changes with time. */
  tick() {
    if (this.waitingOn !== null || this.showingReturn || this.holding) this.update();
  }

  update() {
    const { room } = this.page;
    const player = this.page.me();
    this.waitingOn = null;
    this.showingReturn = false;
    this.holding = false; // a seat the admin handed over, not yet to be taken back
    if (!room || room.status !== "active") {
      replace(this.el, room?.status === "finished" ? this.replacedLine(room, player, false) : null);
      return;
    }
    const mine = this.page.mySeat();
    const lines = [this.replacedLine(room, player, true)];
    for (const seat of room.seats) {
      if (!seat.absent_since || seat.seat === mine) continue;
      lines.push(this.absentLine(seat, mine));
    }
    for (const seat of room.seats) {
      if (seat.replaced && seat.replaced.id !== player?.id) {
        const who = seat.replaced.name;
        const held = this.heldUntil(seat);
        const why = seat.replaced.cause === "admin" ? `The admin handed ${who}'s seat to a bot`
          : seat.replaced.cause === "left" ? `${who} left the game, so a bot plays their seat`
          : `A bot is playing for ${who}, who was away`;
        lines.push(h("p", { class: "absence-line", "data-testid": "replaced-seat" },
          `${why}: ${standInDoes(seat.bot)}; ${held ? `${who} can take the seat back from ${held}.` : "they can take the seat back when they return."}`));
      }
    }
    lines.push(this.returnLine(room));
    replace(this.el, lines);
  }

  /** After a player takes their seat back, everyone reads that they are back: for at most a
   * minute, and only until the table has played a round since (the log keeps the line). */
  returnLine(room) {
    const last = room.handovers?.[room.handovers.length - 1];
    if (last?.kind !== "back") return null;
    // Timed by this page's own clock from when it first showed the line (a device's clock may
    // be minutes off the server's), and counted in moves from the state this page holds (the
    // room message, and its version, is not pushed on every move).
    if (this.returnShown?.at !== last.at) this.returnShown = { at: last.at, since: Date.now() };
    if (Date.now() - this.returnShown.since > RETURN_SHOWN_MS) return null;
    if ((this.page.version ?? room.version) - last.version >= room.seats.length) return null;
    this.showingReturn = true;
    return h("p", { class: "absence-line back", "data-testid": "returned" },
      `${last.player.name} is back and plays their own seat again.`);
  }

  /** The banner for the player whose seat a bot took: why, and the way back. */
  replacedLine(room, player, playing) {
    const seat = player && room.seats.find((s) => s.replaced?.id === player.id);
    if (!seat) return null;
    const handover = [...(room.handovers || [])].reverse().find((o) => o.seat === seat.seat && o.kind !== "back");
    const cause = seat.replaced.cause || handover?.cause;
    const why = cause === "admin" ? "The admin handed your seat to a bot"
      : cause === "left" ? "You left the game, so a bot plays your seat"
      : "You were away, so the other players voted a bot into your seat";
    // A seat the admin handed over stays the bot's a while: say until when, and offer the
    // button only once the server will take it (no button that refuses).
    const held = playing ? this.heldUntil(seat) : null;
    return h("p", { class: "absence-line mine", "data-testid": "replaced-me" },
      playing ? `${why}: ${botWords(seat.bot)} plays for you${held ? `; you can take your seat back from ${held}.` : " until you come back. "}`
        : `${why}; the bot finished the game for you.`,
      playing && !held ? h("button", { class: "btn primary small", "data-testid": "reclaim", "data-key": "reclaim",
                                       onclick: (e) => this.page.reclaim(e.currentTarget) }, "Take my seat back") : null);
  }

  /** "20:01 (in 9 min)" while the admin's hold on a handed-over seat lasts, else null. */
  heldUntil(seat) {
    const at = seat.replaced?.reclaim_after;
    const left = at ? Date.parse(at) - Date.now() : 0;
    if (left <= 0) return null;
    this.holding = true;
    const time = new Date(Date.parse(at)).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return `${time} (in ${left < 60_000 ? `${Math.ceil(left / 1000)} s` : `${Math.ceil(left / 60_000)} min`})`;
  }

  absentLine(seat, mine) {
    const name = this.page.name(seat.seat);
    // The bot a vote would seat plays at the room's stand-in level (chosen when it was made).
    const level = this.page.room.standin_level || DEFAULT_BOT_LEVEL;
    const wait = secondsUntil(seat.vote_after);
    const tally = `${seat.votes.length} of ${seat.votes_needed} votes`;
    if (wait > 0) {
      this.waitingOn = seat.seat;
      return h("p", { class: "absence-line", "data-testid": "absent" },
        `${name} lost the connection. If they are not back in ${wait} s, you can vote to let a bot play for them: ${standInDoes(level)}.`);
    }
    const voted = mine !== null && seat.votes.includes(mine);
    return h("p", { class: "absence-line", "data-testid": "absent" },
      `${name} is away. Let a bot play for them? If you do, ${standInDoes(level)}, until they take the seat back. (${tally}; a majority of the players here decides.) `,
      mine === null ? null : h("button", {
        class: "btn small", "data-testid": "vote-bot", "data-key": `vote-${seat.seat}`, disabled: voted,
        onclick: (e) => this.page.roomAction("vote", { seat: seat.seat }, e.currentTarget),
      }, voted ? "You voted" : `Vote: bot for ${name}`));
  }
}
