"""The Postgres store: rooms held in memory, prepared statements on a raw asyncpg pool, moves
written by group commit. Every path here is one statement (one round trip) where the SQLite
store takes a transaction of several: on this machine a round trip costs more CPU than judging
a move, so the set-up of a room and every move are counted in statements.

The modules beside this one each own one statement family: `roomcache` (the rooms held and a
move's write), `groupcommit` (moves of many rooms in one statement), `roomread` (the `room`
message), `seatwrite` (joins, starts, bots seated), `seatcount` (socket counts),
`newplayers` (new players, by group commit),
`connections` (the pool). The rarer paths use the SQLAlchemy engine, as on SQLite.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import asyncpg

from app.core import rooms
from app.core.rooms import room_deadlines
from app.core.snapshot import Snapshot
from app.errors import ApiError
from app.store.base import (
    CHAT_HISTORY,
    AlreadyApplied,
    ChatRead,
    DuplicateMove,
    RoomView,
    SeatAction,
    SeatCounted,
    Seats,
    W,
)
from app.store.hub import PostgresHub
from app.store.models import Player, utcnow
from app.store.postgres import roomread, seatcount, seatwrite
from app.store.postgres.newplayers import NewPlayers
from app.store.postgres.players import Tokens
from app.store.postgres.roomcache import CachedRoom, RoomCache
from app.store.shared import SharedPaths
from app.store.tokens import new_player

# $1 code, $2 game, $3 options, $4 host, $5 private, $6 seed, $7 now, $8 turn clock,
# $9 clock increment, $10 the seats' players in seat order (None: empty), $11 stand-in level,
# $12 pace. The seats reference the room: their foreign keys are checked at the end of the
# statement, after both inserts. The seats come from an array, not `generate_series(0, n - 1)`:
# a prepared statement's generic plan guesses 1,000 rows for that series (10 for an array), so
# it cost more than the plans made for each room's values and Postgres planned every room anew
# (0.14 ms of its CPU a room, a third of the statement's).
_NEW_ROOM = """
WITH r AS (
  INSERT INTO rooms (code, game, options, status, host_id, private, seed, version, created_at,
                     updated_at, spectators_muted, turn_clock, clock_increment, standin_level,
                     pace)
  VALUES ($1, $2, $3, 'lobby', $4, $5, $6, 0, $7, $7, false, $8, $9, $11, $12) RETURNING code
)
INSERT INTO seats (room_code, seat, player_id, connections)
SELECT r.code, s.n - 1, s.player_id, 0
FROM r, unnest($10::text[]) WITH ORDINALITY AS s(player_id, n)
RETURNING xmin::text"""

_ADMIT = """
SELECT r.code, p.id, p.created_at, d.renewed_at AS token_renewed_at, d.id AS device_id,
       d.revoked_at, s.seat
FROM rooms r LEFT JOIN devices d ON d.token_hash = $2 LEFT JOIN players p ON p.id = d.player_id
     LEFT JOIN seats s ON s.room_code = r.code AND s.player_id = p.id
WHERE r.code = $1"""

_HAS_VOTES = "SELECT EXISTS (SELECT 1 FROM seat_votes WHERE room_code = $1)"
_HISTORY = ("SELECT id, at, player_id, name, seat, text FROM chat_messages WHERE room_code = $1 "
            "ORDER BY id DESC LIMIT $2")
_WATCHERS = ("SELECT p.name FROM watchers w LEFT JOIN players p ON p.id = w.player_id "
             "WHERE w.room_code = $1")
_GREETING = "SELECT " + seatcount.GREETING_COLUMNS

# A refusal or a lost write reads the room afresh and judges again, this many times at most.
_ATTEMPTS = 5


class PostgresStore(SharedPaths):
    """The store for Postgres (see the module's docstring); one per process."""

    single_writer = False

    def __init__(self, url: str, origin: str) -> None:
        super().__init__(url)
        self.origin = origin
        dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
        self.hub = PostgresHub(dsn)
        self.cache = RoomCache(dsn, origin)
        self.tokens = Tokens()
        self.lobbies = seatwrite.Lobbies()
        self.new_players: NewPlayers | None = None

    async def start(self, on_notify: Callable[[str], Awaitable[None]]) -> None:
        await self.cache.start()
        self.new_players = NewPlayers(self.cache.pool)
        await self.hub.start(on_notify)

    async def stop(self) -> None:
        await self.hub.stop()
        await self.cache.stop()
        await self.engine.dispose()

    def _notice(self, code: str) -> str:
        return f"room:{code}:{self.origin}"

    # -- players ----------------------------------------------------------------------------

    async def add_player(self, name: str, token_hash: str,
                         device_label: str | None) -> Player:
        """Written with the other players made at the same moment (`newplayers`)."""
        player = new_player(name, token_hash, device_label)
        assert self.new_players is not None, "PostgresStore.start() was not awaited"
        await self.new_players.add(player.id, player.name, player.token_hash,
                                   player.created_at, player.device_id, player.device_label)
        self.tokens.remember(player)
        return player

    async def player_by_token(self, token: str | None, ttl: timedelta | None,
                              fresh: bool = False) -> Player | None:
        """Remembered in this process unless `fresh` (`players.Tokens`)."""
        return await self.tokens.player(self.cache.pool, token, ttl, fresh)

    def forget_device(self, device_id: str) -> None:
        self.tokens.forget_device(device_id)

    # -- rooms and seats -----------------------------------------------------------------------

    async def add_room(self, host: Player, game: str, options: dict[str, Any] | None,
                       seats: int | None, private: bool, turn_clock: int | None,
                       clock_increment: int | None,
                       standin: str | None = None, pace: str = "live") -> dict[str, Any]:
        """One statement, and the answer needs no reading; the room is held as made, with its
        rows' version (`seatwrite.Lobbies`), so that the join and the start need none either."""
        room, made = rooms.new_room(host, game, options, seats, private, turn_clock,
                                    clock_increment, standin, pace)
        xmin = await self.cache.pool.fetchval(
            _NEW_ROOM, room.code, room.game, room.options, room.host_id, room.private, room.seed,
            room.created_at, room.turn_clock, room.clock_increment,
            [seat.player_id for seat in made],
            room.standin_level, room.pace)
        self.lobbies.hold(seatwrite.made_row(room, made, host.name, xmin))
        return rooms.new_room_payload(room, made, host)

    async def change_seats(self, code: str, action: SeatAction,
                           *args: Any) -> tuple[dict[str, Any], Snapshot] | None:
        """A read (none if the room is held in the lobby) and one write; in the lobby also the
        answer, held (`seatwrite.change`)."""
        code = rooms.normalize_code(code)
        done = await seatwrite.change(self.cache.pool, self.lobbies, code, self._notice(code),
                                      action, *args)
        if done is None:
            return None
        payload, held = done
        self.cache.hold(held)
        return {"type": "room", "room": payload}, _snapshot_of(held)

    async def admit(self, code: str, token_hash: str | None,
                    ttl: timedelta | None = None) -> Any | None:
        """From memory when the room is held in play or in the lobby and the token's player is
        remembered (`players.Tokens`), else one statement. The seat held is the seat as this
        process last wrote, read or was told of it: a socket admitted on a seat its player
        has just left is counted on none (the count checks the player) and re-bound by the next
        `room` message, as when a seat changes between the statement and the count."""
        held = self.cache.get(code)
        if held is not None and held.status in ("lobby", "active"):
            # Rooms are deleted only days after they closed, and every process forgets a room
            # it is told closed; a held room in play or in the lobby exists.
            if token_hash is None:
                return SimpleNamespace(code=code, id=None, created_at=None, device_id=None,
                                       revoked_at=None, token_renewed_at=None, seat=None)
            player = self.tokens.held(token_hash, ttl)
            if player is not None:
                seat = next((n for n, (pid, _) in held.seats.items() if pid == player.id),
                            None)
                return SimpleNamespace(code=code, id=player.id, created_at=player.created_at,
                                       token_renewed_at=player.token_renewed_at,
                                       device_id=player.device_id, revoked_at=None, seat=seat)
        row = await self.cache.pool.fetchrow(_ADMIT, code, token_hash)
        return None if row is None else SimpleNamespace(**dict(row.items()))

    async def room_message(self, code: str) -> dict[str, Any] | None:
        payload = await roomread.room_payload(self.cache.pool, code)
        return None if payload is None else {"type": "room", "room": payload}

    async def load_snapshot(self, code: str) -> Snapshot | None:
        """As committed now, also refreshing the room held."""
        held = await self.cache.load(code)
        return None if held is None else _snapshot_of(held)

    async def room_and_snapshot(self, code: str) -> tuple[dict[str, Any], Snapshot] | None:
        """One statement, which also refreshes the room held: a start, a socket count and a
        greeting each need both."""
        read = await roomread.room_and_held(self.cache.pool, code)
        if read is None:
            return None
        payload, held = read
        self.cache.hold(held)
        return {"type": "room", "room": payload}, _snapshot_of(held)

    def forget(self, code: str) -> None:
        self.cache.forget(code)
        self.lobbies.forget(code)

    # -- moves ----------------------------------------------------------------------------

    async def commit_move(self, code: str, seat: int | None, player_id: str | None,
                          client_id: str, move: Any,
                          judge: Callable[[RoomView, Seats], W]) -> tuple[int, W]:
        """Judge against the room this process holds, then one conditional statement.

        A refusal or a lost write (another writer came first) reads the room afresh and judges
        again, so a stale room in memory can cost a move one read but never decide it."""
        cache = self.cache
        room, fresh = cache.get(code), False
        for _ in range(_ATTEMPTS):
            if room is None:
                room, fresh = await cache.load(code), True
                if room is None:
                    raise ApiError(404, "room_not_found", "That room does not exist.")
            try:
                j = judge(room, room.seats)
            except ApiError:
                if not fresh:
                    room = None
                    continue
                earlier = await cache.earlier(code, client_id, seat, player_id)
                if earlier is not None:
                    raise AlreadyApplied(earlier) from None
                raise
            try:
                written = await cache.write(
                    room, state=j.state, status=j.status, seat=j.seat,
                    player_id=None if seat is not None else player_id, client_id=client_id,
                    move=move, events=j.events, now=j.now, banks=j.banks,
                    timed_out=j.timed_out, notices=j.notices, ends=self.game_end)
            except asyncpg.UniqueViolationError:
                raise DuplicateMove() from None
            if written:
                if room.version == 1:
                    self.lobbies.forget(code)  # set up: its copy for set-up is done with
                return room.version, j
            room = None
        raise ApiError(409, "conflict", "The room changed under this move; try again.")

    async def earlier_move(self, code: str, client_id: str, seat: int | None,
                           player_id: str | None) -> int | None:
        return await self.cache.earlier(code, client_id, seat, player_id)

    async def bot_view(self, code: str) -> tuple[RoomView, dict[int, str]] | None:
        """The room as held (a stale one is judged again by the pipeline)."""
        room = self.cache.get(code) or await self.cache.load(code)
        if room is None:
            return None
        return room, {s: bot for s, (_, bot) in room.seats.items() if bot}

    # -- sockets, presence and votes ------------------------------------------------------------

    def register(self, code: str, delta: int) -> None:
        """Moves and counts NOTIFY only when the counts hold more sockets than this process's."""
        self.cache.registered.add(code, delta)

    async def seat_connected(self, code: str, seat: int, player_id: str | None) -> SeatCounted:
        """One statement, NOTIFY only if others listen, the greeting read with it; in a lobby
        room held here as current (`seatwrite.Lobbies.current`), the `room` message too."""
        counted = await seatcount.connect(self.cache.pool, code, seat, player_id, self.origin,
                                          self.cache.registered[code])
        room = None
        if counted.seat is not None:
            row = self.lobbies.current(code, seat, player_id, counted.seat, counted.room_xmin,
                                       counted.others, not counted.votes and not counted.told)
            if row is not None:  # a room being set up, held as the count left it
                payload, held = seatwrite.answer_of(row)
                self.cache.hold(held)
                room = {"type": "room", "room": payload}, _snapshot_of(held)
        return SeatCounted(counted.ledger, counted.votes, counted.chat, room)

    async def seat_disconnected(self, code: str, seat: int, player_id: str | None,
                                ledger: int) -> bool:
        gone, row = await seatcount.disconnect(self.cache.pool, code, seat, player_id,
                                               self.origin, self.cache.registered[code],
                                               ledger, utcnow())
        if row is not None:
            self.lobbies.counted(code, seat, player_id, *row)
        return gone

    async def has_votes(self, code: str) -> bool:
        held = self.cache.get(code)
        if held is not None and held.status != "active":
            # Votes count only mid-game (`orm.recount`); a room held here that ended, or
            # has not started, is forgotten by any change that could make it active again.
            return False
        return bool(await self.cache.pool.fetchval(_HAS_VOTES, code))

    # -- chat ------------------------------------------------------------------------------

    async def chat_history(self, code: str) -> list[Any]:
        rows = await self.cache.pool.fetch(_HISTORY, code, CHAT_HISTORY)
        return [SimpleNamespace(**dict(r.items())) for r in reversed(rows)]

    async def watcher_names(self, code: str) -> list[str | None]:
        return [name for (name,) in await self.cache.pool.fetch(_WATCHERS, code)]

    async def chat_greeting(self, code: str) -> ChatRead:
        """One statement: every player's socket reads both when it opens."""
        return seatcount.chat_read(await self.cache.pool.fetchrow(_GREETING, code))


def _snapshot_of(held: CachedRoom) -> Snapshot:
    return Snapshot(held.code, held.game, held.status, held.version, held.state, held.events,
                    room_deadlines(held), held.timed_out, held.clock_banks)
