"""The room service: codes, seats, joining, bots, starting, rematches, the `room` payload, as
rules on plain attributes (the store reads and writes the rows: `app.store.orm`). Routes stay
thin."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from random import Random
from types import SimpleNamespace
from typing import Any

from pydantic import ValidationError

from app.config import get_settings
from app.core.absence import seat_handed, standin_level
from app.core.pace import LIVE, check_pace, pace_of, turn_based
from app.core.seat_clocks import seat_deadlines, starting_banks, wire_deadlines
from app.core.tablelog import admin_log, closed_reason
from app.errors import ApiError
from app.utc import utcnow
from bots.levels import DEFAULT_LEVEL, LEVELS
from games import REGISTRY, Game, IllegalMove
from games.protocol import match_rng

# 31 symbols with no 0/o, 1/l/i look-alikes: 9 of them carry 44.6 bits, read aloud as abc-def-ghj.
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 9


def new_room_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:3]}-{raw[3:6]}-{raw[6:]}"


def normalize_code(raw: str) -> str:
    """Accept a code as people type it: any case, with or without dashes or spaces."""
    letters = "".join(ch for ch in raw.lower() if ch.isalnum())
    if len(letters) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in letters):
        raise ApiError(404, "room_not_found", f"There is no room with the code {raw!r}.")
    return f"{letters[:3]}-{letters[3:6]}-{letters[6:]}"


def game_or_error(game_id: str) -> Game:
    game = REGISTRY.get(game_id)
    if game is None:
        raise ApiError(404, "unknown_game", f"There is no game called {game_id!r} here.")
    return game


def validate_options(game: Game, raw: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """Options as the game's model normalises them, checked against the player count."""
    try:
        options = game.Options.model_validate(raw or {})
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"])
        text = problem["msg"].removeprefix("Value error, ")
        raise ApiError(422, "bad_options", f"{where}: {text}" if where else text) from None
    try:
        game.setup(players, options, Random(0))  # a trial deal, discarded
    except IllegalMove as exc:
        raise ApiError(422, exc.code, exc.message) from None
    return options.model_dump()


AWAY_AFTER = 3  # timeouts in a row that mark a seat away


def payload_from(room: Any, seats: Sequence[Any], away: set[int],
                 absence: dict[int, dict[str, Any]],
                 handovers: list[dict[str, Any]], actions: Sequence[Any] = ()) -> dict[str, Any]:
    """The wire `room` object from what was read: the room's columns, its seats (with
    `player_name`) in order, the away seats, the absence fields (`absence_fields`) and the
    room's audit lines (action, version, detail, at) in the order written (`tablelog`)."""
    return {
        "code": room.code,
        "game": room.game,
        "options": room.options,
        "status": room.status,
        "host": room.host_id,
        "private": room.private,
        "seats": [{"seat": seat.seat,
                   "player": ({"id": seat.player_id, "name": seat.player_name}
                              if seat.player_id is not None else None),
                   "bot": seat.bot,
                   "connected": seat.bot is not None or seat.connections > 0,
                   "away": seat.seat in away and not turn_based(room),  # nobody is, there
                   "clock_bank": (room.clock_banks or {}).get(str(seat.seat)),
                   **absence.get(seat.seat, {})}
                  for seat in seats],
        "version": room.version,
        "next_room": room.next_room,
        "spectators_muted": room.spectators_muted,
        "turn_clock": room.turn_clock,
        "turn_deadline": clock_deadline(room),
        "clock_increment": room.clock_increment,
        "standin_level": standin_level(room),
        "pace": pace_of(room),
        "handovers": handovers,
        "admin_log": admin_log(actions),
        "closed_reason": closed_reason(room, seats,
                                       any(a.action == "abort" for a in actions)),
    }


def room_deadlines(room: Any) -> dict[str, str]:
    """When each seat to act runs out of time, as the `state` message carries it."""
    if room.status != "active" or not room.turn_clock or room.state is None:
        return {}
    try:
        acting = REGISTRY[room.game].to_act(room.state)
    except Exception:  # the rules fail: the push that follows errors the room
        return {}
    return wire_deadlines(seat_deadlines(room.turn_clock, room.clock_increment, room.clock_banks,
                                         room.last_move_at, acting))


def clock_deadline(room: Any) -> str | None:
    """The first deadline of the seats to act (ISO 8601, UTC), or None with no clock running."""
    deadlines = room_deadlines(room)
    return min(deadlines.values(), key=datetime.fromisoformat) if deadlines else None


@dataclass
class RoomMade:
    """A room as `new_room` makes it: the columns the store writes (`app.store.orm.create_room`
    makes its row of exactly these) and the payload reads; the others start empty."""

    code: str
    game: str
    status: str
    host_id: str
    private: bool
    seed: str
    version: int
    options: dict[str, Any]
    turn_clock: int | None
    clock_increment: int | None
    created_at: datetime
    updated_at: datetime
    spectators_muted: bool
    next_room: str | None
    clock_banks: dict[str, float] | None
    standin_level: str
    pace: str


@dataclass
class SeatMade:
    """A seat of a room just made: the host's, or empty."""

    room_code: str
    seat: int
    connections: int
    bot: str | None
    player_id: str | None


def new_room(host: Any, game_id: str, options: dict[str, Any] | None, seat_count: int | None,
             private: bool, turn_clock: int | None = None, clock_increment: int | None = None,
             standin: str | None = None, pace: str = LIVE) -> tuple[RoomMade, list[SeatMade]]:
    """A room and its seats as they will be stored (plain values: the store writes them), the
    host in seat 0; every column set here, so that the payload can be built without reading back.
    `standin`: the level of the bots that stand in for players (None: the server's BOT_LEVEL,
    written down now, so that the room keeps it if the setting changes)."""
    game = game_or_error(game_id)
    check_pace(pace, turn_clock, clock_increment)
    seat_count = seat_count if seat_count is not None else game.min_players
    if not game.min_players <= seat_count <= game.max_players:
        raise ApiError(422, "bad_seats", f"{game.title} is for {game.min_players} to "
                       f"{game.max_players} players, not {seat_count}.")
    now = utcnow()
    room = RoomMade(code=new_room_code(), game=game_id, status="lobby", host_id=host.id,
                    private=private, seed=secrets.token_hex(16), version=0,
                    options=validate_options(game, options, seat_count), turn_clock=turn_clock,
                    clock_increment=clock_increment, created_at=now, updated_at=now,
                    spectators_muted=False, next_room=None, clock_banks=None,
                    standin_level=known_level(standin) if standin else get_settings().bot_level,
                    pace=pace)
    seats = [SeatMade(room_code=room.code, seat=n, connections=0, bot=None,
                      player_id=host.id if n == 0 else None) for n in range(seat_count)]
    return room, seats


def new_room_payload(room: RoomMade, seats: list[SeatMade], host: Any) -> dict[str, Any]:
    """The wire `room` object of a room just made (nothing to read: nobody else is in it)."""
    named = [SimpleNamespace(seat=s.seat, player_id=s.player_id, bot=None, connections=0,
                             player_name=host.name if s.player_id else None) for s in seats]
    return payload_from(room, named, set(), {}, [])


def _lobby_only(room: Any, action: str) -> None:
    if room.status != "lobby":
        raise ApiError(409, "room_started", f"You cannot {action}: this game has already "
                       "started." if room.status == "active" else
                       f"You cannot {action}: this room is {room.status}.")


def _host_only(room: Any, player: Any, action: str) -> None:
    if room.host_id != player.id:
        raise ApiError(403, "not_host", f"Only the host can {action}.")


def _seat(seats: list[Any], number: int) -> Any:
    for seat in seats:
        if seat.seat == number:
            return seat
    raise ApiError(422, "bad_seat", f"This room has no seat {number}.")


def join_seats(room: Any, seats: list[Any], player: Any, wanted: int | None) -> None:
    """Seat `player` (in seat `wanted`, or the first free one). Like every `*_seats` action, it
    only reads and sets attributes of the room and its seats, so that Postgres can run it on
    plain rows (`app.store.postgres.seatwrite`) and SQLite on ORM objects."""
    if any(s.player_id == player.id for s in seats):
        return  # already seated: joining again (a second tab, a retry) changes nothing
    _lobby_only(room, "join")
    if wanted is not None:
        seat = _seat(seats, wanted)
        if seat.player_id or seat.bot:
            raise ApiError(409, "seat_taken", f"Seat {wanted} is already taken.")
    else:
        free = [s for s in seats if not s.player_id and not s.bot]
        if not free:
            raise ApiError(409, "room_full", "Every seat in this room is taken.")
        seat = free[0]
    seat.player_id = player.id


def leave_seats(room: Any, seats: list[Any], player: Any) -> int | None:
    """Leave a seat: in the lobby it frees up; in a game a bot takes over the seat, also in a
    game paused by its rules (errored): the admin may resume it, and every seat must then have
    someone to move. The seat a bot took (its hand-over is to be logged), else None."""
    mine = [s for s in seats if s.player_id == player.id]
    if not mine:
        raise ApiError(409, "not_seated", "You do not hold a seat in this room.")
    seat = mine[0]
    seat.player_id = None
    seat.connections = 0
    handed = None
    if room.status in ("active", "errored"):
        seat.bot = standin_level(room)
        seat_handed(room)
        handed = seat.seat
    humans = [s for s in seats if s.player_id]
    if room.host_id == player.id:
        if humans:
            room.host_id = humans[0].player_id
        elif room.status == "lobby":
            room.status = "aborted"
    return handed


def known_level(level: str) -> str:
    """`level` if the engine has it (a seated bot's, a room's stand-in), else 422 `bad_level`."""
    if level not in LEVELS:
        raise ApiError(422, "bad_level", f"There is no bot level {level!r}; the levels are "
                       f"{', '.join(LEVELS)}.")
    return level


def bot_seats(room: Any, seats: list[Any], player: Any, number: int,
              level: str = DEFAULT_LEVEL) -> None:
    """The host seats a bot of `level` (the seat's `bot` holds the level's name)."""
    _host_only(room, player, "add bots")
    _lobby_only(room, "add a bot")
    known_level(level)
    seat = _seat(seats, number)
    if seat.player_id or seat.bot:
        raise ApiError(409, "seat_taken", f"Seat {number} is already taken.")
    seat.bot = level


def free_seats(room: Any, seats: list[Any], player: Any, number: int) -> None:
    """The host frees a seat in the waiting room (a player who wandered off, or a bot)."""
    _host_only(room, player, "remove players")
    _lobby_only(room, "remove a player")
    seat = _seat(seats, number)
    if seat.player_id == room.host_id:
        raise ApiError(409, "host_seat", "The host cannot remove themselves; leave instead.")
    if not seat.player_id and not seat.bot:
        raise ApiError(409, "seat_empty", f"Seat {number} is already empty.")
    seat.player_id, seat.bot, seat.connections = None, None, 0


def start_seats(room: Any, seats: list[Any], player: Any) -> None:
    _host_only(room, player, "start the game")
    _lobby_only(room, "start")
    empty = [s.seat for s in seats if not s.player_id and not s.bot]
    if empty:
        raise ApiError(409, "seats_empty", "Every seat needs a player or a bot before the game "
                       f"starts; empty: {', '.join(str(n) for n in empty)}.")
    game = REGISTRY[room.game]
    options = game.Options.model_validate(room.options)
    room.state = game.setup(len(seats), options, match_rng(room.seed, 0))
    room.status = "active"
    room.version = 0
    room.last_move_at = utcnow()  # the first turn's clock starts now
    room.clock_banks = starting_banks(room.turn_clock, room.clock_increment, len(seats))
    for seat in seats:  # a player who never opened the game is absent from the start
        seat.absent_since = room.last_move_at if seat.connections == 0 else None
