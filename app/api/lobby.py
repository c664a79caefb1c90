"""Players, games and rooms: the REST half of the wire contract."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field, StringConstraints, model_validator

from app.api.bounds import MAX_SEAT
from app.api.deps import (
    Address,
    CurrentPlayer,
    FreshPlayer,
    HallDep,
    MaybePlayer,
    client_host,
    hall_of,
)
from app.core import rooms
from app.core.pace import LIVE
from app.guard.auth import hash_token, new_token, token_times
from app.guard.names import clean_name
from app.people import devices
from app.people.labels import device_label
from app.table import lobby
from app.table.clocks import MAX_CLOCK_INCREMENT, MAX_TURN_CLOCK, MIN_TURN_CLOCK
from app.table.rules_help import rules_of
from bots.levels import DEFAULT_LEVEL
from games import REGISTRY

router = APIRouter(prefix="/api")
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class NewPlayer(BaseModel):
    name: Name


class NewRoom(BaseModel):
    game: str
    options: dict[str, Any] | None = None
    # No bounds here: the game's own range is checked by `rooms.new_room`, so that any seat
    # count it cannot seat is the contract's 422 `bad_seats`, not a generic `bad_request`.
    seats: int | None = None
    private: bool = True
    # Seconds per move; None (the default) plays without a clock. See TURN_CLOCK_PRESETS.
    turn_clock: int | None = Field(None, ge=MIN_TURN_CLOCK, le=MAX_TURN_CLOCK)
    # Fischer clock: with an increment, turn_clock is each seat's starting bank and every move
    # a seat makes adds this many seconds to it (app/core/seat_clocks.py).
    clock_increment: int | None = Field(None, ge=0, le=MAX_CLOCK_INCREMENT)
    # The level of the bot that stands in for a player who leaves or is voted out (a platform
    # option, not the game's: bots.LEVELS); None: the server's BOT_LEVEL.
    standin_level: str | None = None
    # "live" (the default) or "turn-based": a game over days (app/core/pace.py); a turn-based
    # room needs a turn_clock of an hour to a week.
    pace: str = LIVE

    @model_validator(mode="after")
    def _bank_for_increment(self) -> NewRoom:
        if self.clock_increment is not None and self.turn_clock is None:
            raise ValueError("a Fischer clock needs a bank: give turn_clock in seconds too")
        return self


class SeatChoice(BaseModel):
    seat: int | None = Field(None, ge=0, le=MAX_SEAT)


class BotSeat(BaseModel):
    seat: int = Field(ge=0, le=MAX_SEAT)


class NewBot(BotSeat):
    level: str = DEFAULT_LEVEL  # easy, normal, hard (bots.LEVELS)


@router.get("/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


@router.post("/players", status_code=201)
async def create_player(body: NewPlayer, request: Request) -> dict[str, str | None]:
    """One INSERT, no ORM session: the benchmark's rooms each start with two of these."""
    hall, where = hall_of(request), client_host(request)
    hall.quotas.spend("players", where)
    token = new_token()
    player = await hall.players.add_player(clean_name(body.name), hash_token(token),
                                           device_label(request.headers.get("user-agent")))
    return {"id": player.id, "name": player.name, "token": token,
            **token_times(player, hall.settings.token_ttl)}


@router.get("/players/me")
async def whoami(player: FreshPlayer, request: Request) -> dict[str, str | None]:
    """Who the token names; the browser asks once per page load, which is when its device was
    last seen (`app.people.devices`)."""
    hall = hall_of(request)
    await devices.seen(request.app.state.hall.people, player)
    return {"id": player.id, "name": player.name, **token_times(player, hall.settings.token_ttl)}


@router.post("/players/me/renew")
async def renew_token(player: FreshPlayer, hall: HallDep) -> dict[str, str | None]:
    """Push the token's expiry TOKEN_TTL_DAYS from now; the token stays the same."""
    return await lobby.renew_token(hall, player)


@router.get("/games")
async def list_games() -> list[dict[str, Any]]:
    return [{"id": g.id, "title": g.title, "description": g.description,
             "min_players": g.min_players, "max_players": g.max_players,
             "options_schema": g.Options.model_json_schema()}
            for g in REGISTRY.values()]


@router.get("/games/{game_id}/rules")
async def game_rules(game_id: str) -> dict[str, Any]:
    """The game's rules for players (markdown), with its reconstructions marked."""
    return rules_of(game_id)


@router.post("/rooms", status_code=201)
async def create_room(body: NewRoom, player: CurrentPlayer, request: Request) -> dict[str, Any]:
    hall, where = hall_of(request), client_host(request)
    hall.quotas.spend("rooms", where, player.id)
    if body.standin_level is not None or body.turn_clock is not None:
        await hall.bot_caps.check(player.id, where)
    return await hall.rooms.add_room(player, body.game, body.options, body.seats, body.private,
                                     body.turn_clock, body.clock_increment, body.standin_level,
                                     body.pace)


@router.get("/rooms")
async def open_rooms(hall: HallDep) -> list[dict[str, Any]]:
    return await lobby.open_rooms(hall)


@router.get("/rooms/{code}")
async def get_room(code: str, hall: HallDep) -> dict[str, Any]:
    return await lobby.room(hall, code)


async def _seat_change(code: str, hall: HallDep, action: Any, *args: Any) -> dict[str, Any]:
    """`_change` for an action on the room and its seats alone (`rooms.*_seats`): the store
    runs it in one short transaction (on Postgres on the raw pool, with no ORM session)."""
    return await lobby.change_seats(hall, rooms.normalize_code(code), action, *args)


@router.post("/rooms/{code}/join")
async def join_room(code: str, player: CurrentPlayer, request: Request,
                    body: SeatChoice | None = None) -> dict[str, Any]:
    hall, where = hall_of(request), client_host(request)
    hall.quotas.spend("joins", where, player.id)
    return await _seat_change(code, hall, rooms.join_seats, player,
                              body.seat if body else None)


@router.post("/rooms/{code}/leave")
async def leave_room(code: str, player: CurrentPlayer, hall: HallDep) -> dict[str, Any]:
    return await lobby.leave(hall, code, player)


@router.post("/rooms/{code}/bots")
async def add_bot(code: str, body: NewBot, player: CurrentPlayer, hall: HallDep,
                  where: Address) -> dict[str, Any]:
    await hall.bot_caps.check(player.id, where, rooms.normalize_code(code))
    return await _seat_change(code, hall, rooms.bot_seats, player, body.seat, body.level)


@router.post("/rooms/{code}/remove")
async def remove_from_seat(code: str, body: BotSeat, player: CurrentPlayer,
                           hall: HallDep) -> dict[str, Any]:
    return await _seat_change(code, hall, rooms.free_seats, player, body.seat)


@router.post("/rooms/{code}/vote")
async def vote_for_bot(code: str, body: BotSeat, player: CurrentPlayer,
                       hall: HallDep) -> dict[str, Any]:
    """Vote to hand an absent player's seat to a bot; a majority of those present hands it."""
    return await lobby.vote(hall, code, player, body.seat)


@router.post("/rooms/{code}/reclaim")
async def reclaim_seat(code: str, player: CurrentPlayer, hall: HallDep) -> dict[str, Any]:
    """A replaced player takes their seat back from the bot."""
    return await lobby.reclaim(hall, code, player)


@router.post("/rooms/{code}/start")
async def start_room(code: str, player: CurrentPlayer, request: Request) -> dict[str, Any]:
    hall = hall_of(request)
    payload = await _seat_change(code, hall, rooms.start_seats, player)
    hall.bots.wake(payload["code"])
    await hall.notify.started(payload)  # a turn-based game's first seats to act are told
    return payload


@router.post("/rooms/{code}/again", status_code=201)
async def play_again(code: str, player: CurrentPlayer, hall: HallDep,
                     where: Address) -> dict[str, Any]:
    """A new room for the same game and options; the old room points everyone to it."""
    return await lobby.play_again(hall, code, player, where)


@router.get("/rooms/{code}/moves")
async def move_log(code: str, hall: HallDep, viewer: MaybePlayer,
                   after: Annotated[int, Query(ge=0)] = 0) -> list[dict[str, Any]]:
    """The log as this caller may see it: redacted while playing, whole once finished; only
    the versions after `after` (a page that holds the rest asks for the new lines only)."""
    return await lobby.move_log(hall, code, viewer, after)
