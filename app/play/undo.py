"""Take-backs: a socket's `undo` frame, judged here on the replayed log and written by the
store in one transaction (`Store.take_back`).

A player takes back their own last step: the room's newest move row must be theirs (nobody
moved since), made by them (not a bot, the clock or the admin), from the version they saw, and
the platform's rule must hold for it (`app.core.offers.may_take_back`: no randomness drawn, the
game's `undoable`, still their turn). The state before it is rebuilt from the seed and the log
without it (`games.protocol.replay`, as the admin's rollback does), the move row is deleted,
the room goes back one version, and a `take_back` line joins the room's audit log ("Alice took
back …"), all committed before the acknowledgement. Every process then re-sends the state even
at the older version (a `reset`, as after a rollback). A retried undo id answers with its first
result, read from that audit line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool

from app.context import Context
from app.core import rooms
from app.core.client_ids import PLATFORM_PREFIX, check_player_id
from app.core.offers import may_take_back, refused_at_once, remember
from app.core.views import MoveView, SeatView, StoredRoom
from app.errors import ApiError
from app.play.moves import refuse_frame
from app.play.sockets import Client
from games import REGISTRY, Game
from games.protocol import State, match_rng, replay


async def on_undo_frame(hall: Context, client: Client, message: dict[str, Any]) -> None:
    """A socket's `undo` frame: answered `ack` (with the version the room went back to) once
    committed and pushed, or `error` (`cannot_undo` says why)."""
    raw_id = message.get("id")
    try:
        undo_id = check_player_id(raw_id)
        version = message.get("version")
        if type(version) is not int:
            raise ApiError(400, "bad_message", "An undo needs the 'version' of the state it "
                           "was asked on, as a whole number.")
        if client.player_id is None:
            raise ApiError(403, "not_seated", "You are watching: only seated players take "
                           "back a move.")
        if refused_at_once(client.room, version, client.seat):  # no lock, no replay
            raise ApiError(409, "cannot_undo", "That move cannot be taken back: another seat "
                           "moved since, or it drew something at random or showed something "
                           "new, or your turn has ended.")
        made = await take_back(hall, client.room, client.player_id, undo_id, version)
    except ApiError as exc:
        await refuse_frame(hall, client, exc, raw_id)
        return
    client.send({"type": "ack", "id": undo_id, "version": made})


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the replay found: the state before the last move, and whether the move before
    that one may be taken back in turn."""

    before: State
    next_undoable: bool


@dataclass(frozen=True, slots=True)
class Undone:
    """A judged take-back, as the store writes it (`app.store.base.Undoing`): the state and
    clock banks before the move, the audit line's actor and detail; and, for this process,
    the seat whose move before may be taken back in turn (None: none)."""

    before: State
    banks: dict[str, float] | None
    actor: str
    detail: dict[str, Any]
    next_seat: int | None


def _rebuild(game: Game, room: StoredRoom, players: int, rows: list[MoveView],
             seat: int) -> Replayed:
    """Replay the log without its last move, judging the take-back on the way (sync: run in a
    thread, a long game's replay is not free)."""
    options = game.Options.model_validate(room.options)
    last = rows[-1]
    earlier = replay(game, players, options, room.seed,
                     ((row.seat, row.move) for row in rows[:-2]))
    before = earlier
    next_undoable = False
    if len(rows) >= 2:
        prior = rows[-2]
        rng = match_rng(room.seed, prior.version)
        before, _ = game.apply(earlier, prior.seat, prior.move, rng)
        next_undoable = (prior.seat == seat and not prior.client_id.startswith(PLATFORM_PREFIX)
                         and may_take_back(game, earlier, seat, prior.move, before, rng.drew))
    rng = match_rng(room.seed, last.version)
    after, _ = game.apply(before, seat, last.move, rng)
    if rng.drew:
        raise ApiError(409, "cannot_undo", "That move drew something at random (a card, a die, "
                       "a tile): it cannot be taken back.")
    if game.outcome(after) is not None or seat not in game.to_act(after):
        raise ApiError(409, "cannot_undo", "Your turn has ended: that move cannot be taken "
                       "back any more.")
    if not game.undoable(before, seat, last.move):
        raise ApiError(409, "cannot_undo", "That move showed the table something new or ended "
                       "a round: the rules do not let it be taken back.")
    return Replayed(before, next_undoable)


def _mine_to_take_back(room: StoredRoom, seats: list[SeatView], rows: list[MoveView],
                       player_id: str, seen_version: int) -> tuple[int, MoveView]:
    """The generic checks: the player's seat and the move row they may ask to take back."""
    if room.status != "active" or room.state is None:
        raise ApiError(409, "cannot_undo", "The game is not being played: there is nothing to "
                       "take back.")
    seat = next((s.seat for s in seats if s.player_id == player_id), None)
    if seat is None:
        raise ApiError(403, "not_seated", "You are watching: only seated players take back a "
                       "move.")
    if seen_version != room.version:
        raise ApiError(409, "stale", "The game moved on since you asked; here is the current "
                       "state.")
    last = rows[-1] if rows else None
    if last is None or last.seat != seat:
        raise ApiError(409, "cannot_undo", "The last move is not yours: once another seat has "
                       "moved, yours stands.")
    if last.client_id.startswith(PLATFORM_PREFIX):
        raise ApiError(409, "cannot_undo", "That move was made for you (by the clock, a bot or "
                       "the admin): it cannot be taken back.")
    return seat, last


def _banks_after(room: StoredRoom, seat: int) -> dict[str, float] | None:
    """Time spent stays spent, but the increment the move earned goes with it: else taking back
    and moving again would wind a Fischer clock up at will."""
    if room.clock_banks is None or not room.clock_increment:
        return room.clock_banks
    banks = dict(room.clock_banks)
    banks[str(seat)] = max(0.0, banks.get(str(seat), 0.0) - room.clock_increment)
    return banks


def _judge(player_id: str, undo_id: str, seen_version: int
           ) -> Callable[[StoredRoom, list[SeatView], list[MoveView], str | None],
                         Awaitable[Undone]]:
    """The take-back's judgement, run by the store on the locked room, its seats, its move
    rows and the player's name: the generic checks, the replay, and the audit line (the
    players' log sentence, and the id's first result)."""

    async def judge(room: StoredRoom, seats: list[SeatView], rows: list[MoveView],
                    name: str | None) -> Undone:
        seat, last = _mine_to_take_back(room, seats, rows, player_id, seen_version)
        game = REGISTRY[room.game]
        replayed = await run_in_threadpool(_rebuild, game, room, len(seats), rows, seat)
        name = name or f"Seat {seat + 1}"
        shown = game.redact_move(last.move, seat, None)  # the sentence is for everyone
        what = game.describe(shown) if shown is not None else "a hidden move"
        return Undone(replayed.before, _banks_after(room, seat), name[:40],
                      {"id": undo_id, "player": player_id, "seat": seat, "move": last.move,
                       "made": room.version - 1,
                       "text": f"{name} took back move {room.version}: {what}"},
                      seat if replayed.next_undoable else None)

    return judge


async def take_back(hall: Context, code: str, player_id: str, undo_id: str,
                    seen_version: int) -> int:
    """Take back the player's last move in room `code`; the version the room is at after."""
    code = rooms.normalize_code(code)
    async with hall.locks.get(code):
        made, undone = await hall.moves.take_back(code, player_id, undo_id,
                                                  _judge(player_id, undo_id, seen_version))
        if undone is None:  # this undo id already took a move back
            return made
        # Under the lock still (the store forgot the room it held before the take-back).
        remember(code, made, undone.next_seat)
    await hall.after_room_change(code, force_state=True)
    return made
