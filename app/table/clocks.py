"""Turn clocks: when a seat's time runs out, the room's stand-in bot moves for it, through the
pipeline.

The deadlines are derived from the database (rooms.last_move_at plus rooms.turn_clock, or plus
each seat's Fischer bank: app.core.seat_clocks), so they survive a restart. Every process watches;
the move's platform id `~clock:<version>:<seat>` plus the pipeline's version check and
exactly-once keys let exactly one of them land it.

The move is the one a bot at the room's stand-in level (`rooms.standin_level`, else BOT_LEVEL)
would choose, decided in the bot pool (`BotThinker.decide`, ahead of every queued bot search:
a late seat's move never waits behind other rooms' bots, `bot_share`); should the bot service
fail, the game's `zombie_move` plays.
A decision takes up to its level's budget, so each room is timed out in a task of its own:
one room's thinking never holds up another room's clock.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from app.context import Context
from app.core.absence import absent_from, standin_level, vote_opens
from app.core.client_ids import platform_id
from app.core.seat_clocks import LATE_GRACE_SECONDS, earliest_deadline, seat_deadlines
from app.core.views import SeatView, StoredRoom
from app.errors import ApiError
from app.ops.metrics import CLOCK_TIMEOUTS
from app.play.moves import Mover, submit_move
from app.table.bots import BotThinker, seed_of
from app.utc import utcnow
from games import REGISTRY
from games.protocol import Move

log = logging.getLogger(__name__)
MIN_TURN_CLOCK = 1
MAX_TURN_CLOCK = 7 * 24 * 3600
MAX_CLOCK_INCREMENT = 3600
TICK_SECONDS = 0.5


class TurnClocks:
    """One watcher task per process: looks for rooms whose clock ran out and times them out."""

    def __init__(self, hall: Context, thinker: BotThinker) -> None:
        self._hall = hall
        self._thinker = thinker
        self._task: asyncio.Task[None] | None = None
        # The rooms whose late seats this process is timing out (their stand-in thinking): a
        # later sweep leaves them alone, so a room is never timed out twice at once here.
        self._timing_out: dict[str, asyncio.Task[None]] = {}

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for task in list(self._timing_out.values()):
            task.cancel()

    async def _watch(self) -> None:
        while True:
            try:
                await self.fire_expired()
            except Exception:
                log.exception("turn clock sweep failed")
            await asyncio.sleep(TICK_SECONDS)

    async def fire_expired(self) -> None:
        now = utcnow()
        due, paused = await self._past_earliest_deadline(now)
        if paused:
            await self._resume(paused, now)
        due = [code for code in due if code not in self._timing_out]
        if not due:
            return
        for room, seats in await self._hall.presence.clocked_rooms(due):
            try:  # one room whose rules raise must not hold up the other rooms' clocks
                deadlines = seat_deadlines(room.turn_clock, room.clock_increment,
                                           room.clock_banks, room.last_move_at,
                                           REGISTRY[room.game].to_act(room.state))
                bots = {s.seat for s in seats if s.bot is not None}
                late = [seat for seat, deadline in sorted(deadlines.items())
                        if (now - deadline).total_seconds() >= LATE_GRACE_SECONDS
                        and seat not in bots]
                if late and deserted(room, seats, now):
                    await self._pause(room, now)
                elif late:
                    self._time_out_later(room, late)
            except Exception:
                log.exception("turn clock of room %s failed", room.code)

    def _time_out_later(self, room: StoredRoom, late: list[int]) -> None:
        """Time the room's late seats out in a task of its own (their stand-in thinks first)."""
        task = asyncio.get_running_loop().create_task(self._time_out_seats(room, late))
        self._timing_out[room.code] = task
        task.add_done_callback(lambda _: self._timing_out.pop(room.code, None))

    async def _time_out_seats(self, room: StoredRoom, late: list[int]) -> None:
        try:
            for seat in late:
                await self._time_out(room, seat)
        except Exception:
            log.exception("turn clock of room %s failed", room.code)

    async def _past_earliest_deadline(self, now: datetime) -> tuple[list[str], list[str]]:
        """The running clocks' rooms where some seat may have run out of time, and the paused
        ones (`_pause`). Read without their states: every tick would otherwise load every
        clocked game's whole state."""
        clocks = await self._hall.presence.running_clocks()
        return ([room.code for room in clocks
                 if (earliest := earliest_deadline(room.turn_clock, room.clock_increment,
                                                   room.clock_banks, room.last_move_at))
                 is not None and earliest <= now],
                [room.code for room in clocks if room.last_move_at is None])

    async def _pause(self, room: StoredRoom, now: datetime) -> None:
        """Nobody seated is at the table: stop the clock instead of playing stand-in moves for
        everyone (no deadline while `last_move_at` is NULL; `_resume` starts the turn over)."""
        if await self._hall.presence.pause_clock(room.code, room.version, room.last_move_at, now):
            log.info("room %s: clock paused at version %d, nobody at the table", room.code,
                     room.version)
            await self._hall.after_room_change(room.code, force_state=True)

    async def _resume(self, codes: list[str], now: datetime) -> None:
        """A seated person is back in a paused room: its turn starts over, whole."""
        for code in await self._hall.presence.resume_clocks(codes, now):
            log.info("room %s: clock resumed", code)
            await self._hall.after_room_change(code, force_state=True)

    async def _time_out(self, room: StoredRoom, seat: int) -> None:
        move = await self._standin_move(room, seat)
        try:
            await submit_move(self._hall, room.code, Mover(seat=seat),
                              platform_id("clock", room.version, seat), room.version, move)
            CLOCK_TIMEOUTS.inc()
            log.info("room %s: seat %d ran out of time at version %d", room.code, seat,
                     room.version)
            # the new deadline, and seats marked away, reach every process
            await self._hall.presence.tell_room(room.code)
            await self._hall.after_room_change(room.code)
        except ApiError as exc:  # another process (or a last-second move) got there first
            log.debug("clock move in %s refused: %s", room.code, exc.code)

    async def _standin_move(self, room: StoredRoom, seat: int) -> Move:
        """The move the room's stand-in bot chooses for `seat`, seeded as a bot seat's would be
        (`seed_of`); the game's zombie move should the bot service fail."""
        try:
            return await self._thinker.decide(room.game, room.state, seat, standin_level(room),
                                              seed_of(room, seat), urgent=True)
        except Exception:
            log.exception("stand-in for a timed-out seat in %s failed; playing the zombie move",
                          room.code)
            return REGISTRY[room.game].zombie_move(room.state, seat)


def deserted(room: StoredRoom, seats: list[SeatView], now: datetime) -> bool:
    """Every seated person (not bots) has been disconnected for longer than the absence grace
    (ABSENT_GRACE_SECONDS, after which the others could vote a bot in): a reload or a short
    drop-out is not desertion, so the clock then still plays for a seat that runs out."""
    people = [s for s in seats if s.player_id is not None]
    if not people:
        return False
    for seat in people:
        since = absent_from(seat, room)
        if since is None or vote_opens(since) > now:
            return False
    return True
