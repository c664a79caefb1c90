"""The move pipeline, top to bottom: a socket's `move` frame, the checks, the rules, the one
write, the acknowledgement and the fan-out.

A move is committed before anyone hears of it: take the room's lock (one writer per room in
this process), judge it (status, seat, turn, staleness, then the rules and the clocks), write
the state and the move row through the store (`hall.moves.commit_move`, with the notification
for the other processes), then push the new state to this process's sockets and acknowledge
the mover. A retried client id answers with the first result. Bots and the turn clock submit
through the same `submit_move`.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, replace
from datetime import datetime
from random import Random
from typing import Any

from app.context import Context
from app.core.client_ids import check_player_id
from app.core.offers import may_take_back, remember
from app.core.pace import turn_based
from app.core.seat_clocks import (
    CLOCK_ID_PREFIX,
    LATE_GRACE_SECONDS,
    seat_deadlines,
    settle_banks,
    wire_deadlines,
)
from app.core.snapshot import Snapshot
from app.core.views import RoomView
from app.errors import ApiError
from app.notify.policy import Notice, move_notices
from app.ops.metrics import MOVE_ACK_SECONDS, MOVES_REFUSED, count_committed
from app.play.sockets import Client, error_frame
from app.store.base import AlreadyApplied, DuplicateMove, Seats
from app.utc import as_utc, utcnow
from games import REGISTRY, IllegalMove
from games.protocol import is_legal, match_rng


@dataclass(frozen=True, slots=True)
class Mover:
    """Who is moving: a player (seat looked up) or the platform on behalf of a seat.

    `bot`: a bot's move, which may land only while a bot still holds the seat (its player may
    have taken it back while the move was in flight). The clock and the admin act for whoever
    holds the seat."""

    player_id: str | None = None
    seat: int | None = None
    bot: bool = False


class RuleError(Exception):
    """A rule module raised something other than IllegalMove: the room must be errored."""


async def on_move_frame(hall: Context, client: Client, message: dict[str, Any]) -> None:
    """A socket's `move` frame: answered `ack` once committed and pushed, or `error`."""
    raw_id = message.get("id")
    began = time.perf_counter()
    try:
        move_id, version, move = _move_fields(message)
        made = await submit_move(hall, client.room, Mover(player_id=client.player_id),
                                 move_id, version, move)
    except ApiError as exc:
        MOVES_REFUSED.labels(exc.code).inc()
        await refuse_frame(hall, client, exc, raw_id)
        return
    client.send({"type": "ack", "id": move_id, "version": made})
    MOVE_ACK_SECONDS.observe(time.perf_counter() - began)


async def refuse_frame(hall: Context, client: Client, exc: ApiError, raw_id: object) -> None:
    """Answer a refused frame (a move, an undo, a take-back ask or answer) with its error; a
    `stale` one also gets the room as it is now, even at its version, so its page catches up
    before it tries again."""
    client.send(error_frame(exc.code, exc.message, raw_id if isinstance(raw_id, str) else None))
    if exc.code == "stale":
        snap = await hall.load_snapshot(client.room)
        if snap is not None:
            hall.push(snap, force=True, only=client)


def _move_fields(message: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
    move_id = check_player_id(message.get("id"))
    version, move = message.get("version"), message.get("move")
    if type(version) is not int:
        raise ApiError(400, "bad_message", "A move needs the 'version' of the state it was "
                       "chosen on, as a whole number.")
    if not isinstance(move, dict):
        raise ApiError(400, "bad_message", "A move needs a 'move' object.")
    return move_id, version, move


async def submit_move(hall: Context, code: str, mover: Mover, client_id: str,
                      seen_version: int | None, move: Any) -> int:
    """Apply one move durably; returns the version it made (or made the first time)."""
    steps = hall.locks.steps

    def judge(room: RoomView, seats: Seats) -> Judged:
        """The checks and the rules, on the room as the store read it (the store may call
        this again on a fresher read)."""
        seat = mover.seat if mover.seat is not None else next(
            (s for s, (player, _) in seats.items()
             if mover.player_id and player == mover.player_id), None)
        _check_bot(mover, seats.get(seat, (None, None))[1] if seat is not None else None)
        j = _judge(room, seats, seat, client_id, seen_version, move,
                   steps.began(code, room.version),
                   mover.player_id is not None and not mover.bot)
        # Before the commit: a read of the new version may be pushed before this move's own
        # push. A commit that then fails leaves an offer for a version this move never made;
        # the next move judged here at that version replaces it, and `undo` re-checks anyway.
        remember(code, room.version + 1, j.seat if j.undoable and player_moves else None)
        if turn_based(room):  # live rooms never notify: nothing to work out
            j = replace(j, notices=move_notices(
                room.turn_clock, j.now, REGISTRY[room.game].to_act(j.state) if not j.over
                else (), seats, j.over, hall.settings.notify_after_seconds))
        return j

    player_moves = mover.player_id is not None and not mover.bot

    async with hall.locks.get(code):
        try:  # the one write: durable before anyone hears of it
            version, j = await hall.moves.commit_move(code, mover.seat, mover.player_id,
                                                      client_id, move, judge)
        except AlreadyApplied as done:
            return done.version
        except DuplicateMove:
            # The same client id raced itself past the refusal check: answer the first result.
            version = await hall.moves.earlier_move(code, client_id, mover.seat,
                                                    mover.player_id)
            if version is None:
                raise ApiError(409, "conflict", "The room changed under this move; try again.")\
                    from None
            return version
        except RuleError as exc:
            await hall.mark_errored(code, exc.__cause__ or exc)
            raise ApiError(409, "room_errored", "The game hit an internal error; the room is "
                           "paused for the admin.") from None
        count_committed(j.game, _source(mover, client_id))
        steps.moved(code, version, j.step)
        hall.push(Snapshot(code, j.game, j.status, version, j.state, j.events, j.deadlines,
                           j.timed_out, j.banks))
    if j.bots_to_act:
        hall.bots.wake(code)
    return version


def _source(mover: Mover, client_id: str) -> str:
    """Who made a committed move, for the metrics: a player, a bot, the clock or the admin."""
    if mover.bot:
        return "bot"
    if mover.player_id is not None:
        return "player"
    return "clock" if client_id.startswith(CLOCK_ID_PREFIX) else "admin"


@dataclass(frozen=True, slots=True)
class Judged:
    """A move the generic checks and the rules accepted, and what it makes."""

    game: str
    seat: int
    state: Any
    status: str
    over: bool
    events: list[dict[str, Any]]
    now: datetime
    banks: dict[str, float] | None
    deadlines: dict[str, str]
    step: int | None  # the version the simultaneous step it leaves the room in began at
    timed_out: int | None  # the seat whose clock made this move (see Snapshot)
    bots_to_act: bool
    undoable: bool  # the seat may take this move back (app.core.offers), if a player made it
    # What the move makes due (app.notify.policy), for the outbox; only turn-based rooms'.
    notices: tuple[Notice, ...] = ()


def _judge(room: RoomView, seats: Seats, seat: int | None, client_id: str,
           seen_version: int | None, move: Any, step_began: int, person: bool) -> Judged:
    """The generic checks (status, seated, time, turn, staleness), the rules, and the clocks.

    `person`: a player's own move (not a bot's, the clock's or the admin's), which is refused
    once its seat's time ran out."""
    _check_room(room)
    if seat is None:
        raise ApiError(403, "not_seated", "You are watching: only seated players move.")
    now = utcnow()
    late = _check_time(room, seat, client_id, seen_version, person, now)
    new_state, events, acted, drew = _apply(room, seat, seen_version, move, step_began)
    game = REGISTRY[room.game]
    try:
        over = game.outcome(new_state) is not None
        acting = game.to_act(new_state)
        banks, deadlines = _clock(room, seat, acting if not over else (), now, late)
        undoable = may_take_back(game, room.state, seat, move, new_state, drew)
    except Exception as exc:
        raise RuleError() from exc
    step = step_began if len(acted) > 1 and frozenset(acting) <= acted else None
    return Judged(room.game, seat, new_state, "finished" if over else room.status, over,
                  [e.to_json() for e in events], now, banks, deadlines, step,
                  seat if client_id.startswith(CLOCK_ID_PREFIX) else None,
                  not over and any(seats.get(s, (None, None))[1] for s in acting), undoable)


def _check_time(room: RoomView, seat: int, client_id: str, seen_version: int | None,
                person: bool, now: datetime) -> bool:
    """Judge the move against its seat's deadline as the room stands now, at commit (the
    store judges again on a fresher read whenever another write came first). Returns whether
    a player's move is late (past the deadline, within `LATE_GRACE_SECONDS`): it earns no
    Fischer increment. The clock's move does (as before): a seat whose bank ran out plays on
    with the increment, or every later turn of it would be timed out at once.

    The clock's move lands only on the very version it was chosen on, for a seat still to act
    whose deadline (plus the grace) has passed: a seat that moved, or whose clock a newer move
    reset, owes nothing (issue 24: zombie moves landed after the seat's own). A player's move
    past the grace is refused `out_of_time`; the clock then moves for the seat."""
    try:
        acting = REGISTRY[room.game].to_act(room.state)
    except Exception as exc:
        raise RuleError() from exc
    deadline = seat_deadlines(room.turn_clock, room.clock_increment, room.clock_banks,
                              room.last_move_at, [seat] if seat in acting else []).get(seat)
    past = None if deadline is None else (now - deadline).total_seconds()
    if client_id.startswith(CLOCK_ID_PREFIX):
        if seen_version != room.version or past is None or past < LATE_GRACE_SECONDS:
            raise ApiError(409, "clock_not_due", "This seat's time has not run out: it moved, "
                           "or a newer move reset its clock.")
        return False
    if past is None or past <= 0:
        return False
    if person and past > LATE_GRACE_SECONDS:
        raise ApiError(409, "out_of_time", "Too late: your time for this move ran out (a "
                       f"move may arrive at most {LATE_GRACE_SECONDS:g} s after its "
                       "deadline); the clock moves for you.")
    return True


def _clock(room: RoomView, seat: int, acting: Any, now: Any,
           late: bool) -> tuple[Any, dict[str, str]]:
    """A Fischer clock's banks after this move (a late move earns no increment), and the
    deadlines of the seats to act next."""
    banks = room.clock_banks
    if banks is not None and room.clock_increment is not None:
        last = room.last_move_at
        elapsed = (now - as_utc(last)).total_seconds() if last is not None else 0.0
        banks = settle_banks(banks, REGISTRY[room.game].to_act(room.state), seat, elapsed,
                             0 if late else room.clock_increment)
    return banks, wire_deadlines(seat_deadlines(room.turn_clock, room.clock_increment, banks,
                                                now, acting))


def _check_bot(mover: Mover, bot: str | None) -> None:
    """A bot's move made for a seat a player holds again is refused (the bot driver takes
    `not_seated` as the table having moved on)."""
    if mover.bot and bot is None:
        raise ApiError(403, "not_seated", "A player holds this seat again; the bot stands down.")


def _check_room(room: RoomView) -> None:
    refusals = {
        "lobby": ("not_started", "The game has not started yet."),
        "finished": ("game_over", "The game is over."),
        "aborted": ("game_over", "This room was closed."),
        "errored": ("room_errored", "The game hit an internal error; the room is paused for "
                    "the admin."),
    }
    if room.status in refusals:
        code, message = refusals[room.status]
        raise ApiError(409, code, message)


def _apply(room: RoomView, seat: int, seen_version: int | None, move: Any,
           step_began: int) -> tuple[Any, list, frozenset[int], bool]:
    """The rules' new state and events, the seats that were to act, and whether the move drew
    from the RNG."""
    game = REGISTRY[room.game]
    try:
        acting = game.to_act(room.state)
    except Exception as exc:
        raise RuleError() from exc
    # In a turn-based step a move made on an older view is refused; in a simultaneous step
    # (several seats to act, or one left of them: `Steps`) it is judged against the current
    # state. Staleness comes before the turn: a seat that moved on an old view is told so (and
    # sent the fresh state) even when the turn has passed to someone else since.
    if seen_version is not None and len(acting) == 1 and not (
            step_began <= seen_version <= room.version):
        raise ApiError(409, "stale", "The game moved on since you chose that; here is the "
                       "current state.")
    if seat not in acting:
        raise ApiError(409, "not_your_turn", "It is not your turn.")
    try:
        legal = game.legal_moves(room.state, seat)
    except Exception as exc:
        raise RuleError() from exc
    if not is_legal(move, legal):
        raise ApiError(422, "illegal_move", _why_illegal(game, room.state, seat, move, legal))
    rng = match_rng(room.seed, room.version + 1)
    try:
        return (*game.apply(room.state, seat, move, rng), acting, rng.drew)
    except IllegalMove as exc:
        raise ApiError(422, "illegal_move", exc.message) from None
    except Exception as exc:
        raise RuleError() from exc


def _why_illegal(game: Any, state: Any, seat: int, move: Any, legal: list[Any]) -> str:
    """A sentence for a move that is not exactly one of the legal moves (legality is decided
    here, once, for every game). The game's own refusal names the reason when it has one; a
    move it would have taken, or choked on (a float where an index belongs), gets ours."""
    if move in legal:  # equal by Python's ==, but not in JSON: 2.0 or true for 2
        return ("That move matches a legal one only loosely: send it exactly as offered (a "
                "whole number as a whole number, true/false only where the game uses them).")
    try:
        game.apply(state, seat, move, Random(0))
    except IllegalMove as exc:
        return exc.message
    except Exception:  # refused whatever the rule module did: it never errors the room
        pass
    return "That is not one of your legal moves now."


def error_text(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))
