"""The storage seam: everything the server stores and reads, behind narrow doors by capability
(`PlayerStore`, `RoomStore`, `MoveStore`, `ChatStore`, `PresenceStore`, `AdminStore`,
`StoreLife`; `Store` joins them for the Hall). A service is typed against the door it uses.

Chosen once at start (`app.store.choice.open_store`): `PostgresStore` (app/store/postgres/) for
production, several processes, the fast path; `SqliteStore` (app/store/sqlite.py) for one
process on a file. Services call these methods and never ask which database is behind them.

The rarer paths (leaving, votes and handovers, rematches, the move log, replays, chat lines,
the admin's actions and the audit log, turn clocks, heartbeats, take-backs) are methods too,
written once in the ORM (`app.store.shared.SharedPaths` and `app.store.table.TablePaths`, which
both stores inherit). What differs between the two databases (the hot path) each store writes
itself. Nothing outside app/store touches SQLAlchemy or a session: the seam is these methods.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol, TypeVar

from app.core.snapshot import Snapshot
from app.core.views import PlayerView, RoomView
from app.store.hub import Hub

# The chat lines a socket is greeted with.
CHAT_HISTORY = 100

# A room's seats as the move pipeline sees them: seat -> (player id, bot).
Seats = Mapping[int, tuple[str | None, str | None]]


class Written(Protocol):
    """What the store needs of a judged move to write it (`app.play.moves.Judged`)."""

    seat: int
    state: Any
    status: str
    events: list[dict[str, Any]]
    now: datetime
    banks: dict[str, float] | None
    timed_out: int | None
    # Notifications the move makes due (app.notify.policy.Notice: kind, seat, due_at), written
    # into the outbox in the move's transaction; empty for every live room's move.
    notices: Sequence[Any]


# A judged move (`app.play.moves.Judged`), as the store writes it.
W = TypeVar("W", bound=Written)


class AlreadyApplied(Exception):
    """This client id already made a move: the answer is the version it made then."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


class DuplicateMove(Exception):
    """The same client id raced itself past the refusal check; the first one was written."""


@dataclass(frozen=True, slots=True)
class SeatCounted:
    """What counting a seat's socket found."""

    ledger: int | None  # its seat_sockets row (None: not the seat's player, nothing counted)
    votes: bool | None  # whether the room has votes on record (None: not read)
    chat: ChatRead | None  # the socket's chat greeting, when read in the same statement
    # The `room` message and the state as the count left them, when the store knows them
    # without reading (None: the caller reads them).
    room: tuple[dict[str, Any], Snapshot] | None = None


@dataclass(frozen=True, slots=True)
class ChatRead:
    """A room's last chat lines (oldest first; each with id, at, player_id, name, seat, text)
    and the name (None: a visitor) of every spectator connection."""

    lines: list[Any]
    watchers: list[str | None]


# A seat action of `app.core.rooms` (`*_seats`): changes the room and its seats in place.
SeatAction = Callable[..., None]

# Whether a player may say a line in a room, given the room, the player and their seat (None:
# a spectator); raises ApiError to refuse (`app.table.chat`).
LineCheck = Callable[[Any, PlayerView, int | None], None]


@dataclass(frozen=True, slots=True)
class LogRead:
    """A room's move log as one viewer asks for it: the room, the viewer's seat (None: a
    spectator) and the move rows (version, seat, client_id, move, events), in version order."""

    room: Any
    seat: int | None
    rows: list[Any]


@dataclass(frozen=True, slots=True)
class RoomLog:
    """A room, its seat count and its move rows in version order (up to a version)."""

    room: Any
    seats: int
    rows: list[Any]


@dataclass(frozen=True, slots=True)
class AdminRooms:
    """The rooms the admin's list shows, and each room's seats as the console shows them."""

    rooms: list[Any]
    players: dict[str, list[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class AdminRoom:
    """Everything the admin's look inside one room shows."""

    room: Any
    seats: list[Any]
    rows: list[Any]
    payload: dict[str, Any]
    players: list[dict[str, Any]]


# An admin's rollback: the state rebuilt from the room's seed and the kept move rows (room, seat
# count, rows), and whether the game is over in it (`app.admin.console`).
Rebuild = Callable[[Any, int, list[Any]], tuple[Any, bool]]


@dataclass(frozen=True, slots=True)
class ReplayRead:
    """What a replay is rebuilt from: the room, its seat count, its move rows in version order
    and its wire `room` object."""

    room: Any
    seats: int
    rows: list[Any]
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Reaped:
    """What the reaper took back from processes whose heartbeat stopped."""

    dead: list[str]  # the processes found dead (their rows now deleted by this reaper)
    orphans: list[str]  # the active rooms with a bot seat: a dead process may have driven them
    sockets: int  # seat sockets of stopped processes uncounted
    rooms: set[str]  # the rooms whose seats' counts changed
    watched: set[str]  # the rooms whose spectators changed


class Undoing(Protocol):
    """What the store needs of a judged take-back to write it (`app.play.undo.Undone`)."""

    before: Any  # the state before the move taken back
    banks: dict[str, float] | None  # the clock banks once it is taken back
    actor: str  # the audit line's actor (the player's name)
    detail: dict[str, Any]  # the audit line's detail: "id" (the undo id), "player", "made", ...


# A judged take-back (`app.play.undo.Undone`), as the store writes it.
U = TypeVar("U", bound=Undoing)


class StoreLife(Protocol):
    """What the Hall starts and stops, and the store's few facts: its hub, its name, whether
    it has one writer, the game-end hook."""

    hub: Hub  # notifications between processes (LISTEN/NOTIFY, or none with one process)
    origin: str  # this process's name in notifications
    single_writer: bool  # one writer at a time for all rooms (SQLite), not one per room
    # Results and ratings of the move that ends a game, in its transaction (None: not rated).
    game_end: GameEnd | None

    async def start(self, on_notify: Callable[[str], Awaitable[None]]) -> None: ...
    async def stop(self) -> None: ...


class PlayerStore(Protocol):
    """Players by token (the sign-in path of every request and socket)."""

    # -- players ----------------------------------------------------------------------------
    async def add_player(self, name: str, token_hash: str,
                         device_label: str | None) -> PlayerView:
        """A new player, made now, with their first device (the token's); the player as
        stored (and, on Postgres, remembered by token)."""
    async def player_by_token(self, token: str | None, ttl: timedelta | None,
                              fresh: bool = False) -> PlayerView | None:
        """The token's player (None: no token; 401 if unknown or expired). A store may
        answer from a copy it holds; `fresh` reads the renewal time as committed now."""
    async def renew_token(self, device_id: str, at: datetime) -> None:
        """Push the device's token expiry back (each device renews its own)."""
    def forget_device(self, device_id: str) -> None:
        """The device was signed out: a copy of its player held by token goes (Postgres)."""


class RoomStore(Protocol):
    """Rooms and their seats: made, joined, left, read, closed (app/table's lobby, app/api)."""

    # -- rooms and seats -----------------------------------------------------------------------
    async def add_room(self, host: PlayerView, game: str, options: dict[str, Any] | None,
                       seats: int | None, private: bool, turn_clock: int | None,
                       clock_increment: int | None,
                       standin: str | None = None, pace: str = "live") -> dict[str, Any]:
        """Store a new room; its wire `room` object. `standin`: the level of the bots that stand
        in for its players (None: the server's BOT_LEVEL); `pace`: `app.core.pace`."""
    async def change_seats(self, code: str, action: SeatAction,
                           *args: Any) -> tuple[dict[str, Any], Snapshot] | None:
        """Run a seat action on the room as committed, commit it and tell every process; the
        `room` message and the state as the commit left them when the store knows them
        without reading (None: the caller reads them)."""
    async def admit(self, code: str, token_hash: str | None,
                    ttl: timedelta | None = None) -> Any | None:
        """The room (None: none), with the token's player (id, created_at, token_renewed_at;
        None if unknown) and their seat: what a socket opening needs. `ttl`: the tokens' life,
        for a store that may answer from players it remembers (one it would judge expired is
        read again)."""
    async def room_message(self, code: str) -> dict[str, Any] | None: ...
    async def load_snapshot(self, code: str) -> Snapshot | None: ...
    async def room_and_snapshot(self, code: str) -> tuple[dict[str, Any], Snapshot] | None: ...
    def forget(self, code: str) -> None:
        """Someone changed the room's seats or status: what is held of it is stale."""
    async def active_rooms(self) -> list[str]:
        """The codes of the rooms being played (their bots carry on after a restart)."""
    async def mark_errored(self, code: str, error: str) -> bool:
        """Pause a room whose rules raised, keeping the traceback; False if it was already
        paused (or is gone)."""
    async def close_idle_rooms(self, lobby_before: datetime | None,
                               quiet_before: datetime | None, now: datetime) -> list[str]:
        """Abort the waiting rooms unchanged since `lobby_before` and the games with no move
        since `quiet_before` (None: none), telling every process; their codes. The statement
        itself re-checks, so sweeps at once, or a move meanwhile, do no harm."""
    async def delete_closed_rooms(self, before: datetime) -> None:
        """Delete rooms over (with their log, seats and chat) quiet since `before`."""
    async def open_rooms(self) -> list[dict[str, Any]]:
        """The newest public rooms in the lobby, as wire `room` objects."""
    async def leave_room(self, code: str, player: PlayerView) -> str:
        """The player leaves their seat (`app.core.rooms.leave_seats`); the room's code. Like every
        change below: under the room's row lock, committed with the room's notification."""
    async def rematch(self, code: str, player: PlayerView) -> tuple[str, dict[str, Any], bool]:
        """The room that follows this one, made now unless it already was: the old room's code,
        the new room's wire object, and whether it was made now."""
    async def set_spectators_muted(self, code: str, host: PlayerView, muted: bool) -> str: ...


class MoveStore(Protocol):
    """Moves, the move log and replays, take-backs: the hot path (app/play) and its reads."""

    # -- moves ----------------------------------------------------------------------------
    async def commit_move(self, code: str, seat: int | None, player_id: str | None,
                          client_id: str, move: Any,
                          judge: Callable[[RoomView, Seats], W]) -> tuple[int, W]:
        """Judge (`judge`, which raises ApiError to refuse) and write one move durably, with
        the notification that tells the other processes; the version it made, and the
        judgement written (the store may judge again on a fresher read). The mover is a seat
        the platform acts for
        (`seat`) or a player (`player_id`). Raises what `judge` raises, AlreadyApplied or
        DuplicateMove."""
    async def earlier_move(self, code: str, client_id: str, seat: int | None,
                           player_id: str | None) -> int | None:
        """The version this client id already made in the room (for that seat or player)."""
    async def bot_view(self, code: str) -> tuple[RoomView, dict[int, str]] | None:
        """The room as a bot judges it, and its bot seats with their level (None: no such
        room)."""

    # -- the log and replays ------------------------------------------------------------------
    async def move_log(self, code: str, viewer_id: str | None, after: int = 0) -> LogRead:
        """The room, the viewer's seat and the moves after version `after`."""
    async def replay_source(self, code: str) -> ReplayRead: ...

    # -- take-backs ----------------------------------------------------------------------------
    async def take_back(self, code: str, player_id: str, undo_id: str,
                        judge: Callable[[Any, list[Any], list[Any], str | None], Awaitable[U]]
                        ) -> tuple[int, U | None]:
        """Judge (`judge`, on the locked room, its seats, its move rows in version order and the
        player's name; raises ApiError to refuse) and write a player's take-back of the room's
        last move: the row deleted, the room one version back with the state and banks judged,
        the audit line, committed with the `reset` notification; then what is held of the room
        is forgotten. The version the room is at after, and the judgement (None: this undo id
        of this player already went back, to that version)."""


class ChatStore(Protocol):
    """A room's chat lines and its spectators (app/table/chat.py)."""

    # -- chat ------------------------------------------------------------------------------
    async def chat_history(self, code: str) -> list[Any]:
        """The room's last CHAT_HISTORY lines, oldest first."""
    async def watcher_names(self, code: str) -> list[str | None]: ...
    async def chat_greeting(self, code: str) -> ChatRead: ...
    async def say(self, code: str, player_id: str, text: str, check: LineCheck) -> Any:
        """Store one line (refused by `check`, or a 404 with no such room or player) with the
        notification that names it; the stored line (id, at, player_id, name, seat, text)."""
    async def chat_line(self, line_id: int) -> Any | None:
        """One stored line by its id (another process's: its notification names it)."""
    async def watch(self, code: str, player_id: str | None) -> int:
        """Record a spectator connection (a `watchers` row) and tell every process; its id."""
    async def unwatch(self, code: str, row_id: int | None) -> None:
        """Drop a spectator connection's row (None: none was recorded) and tell every process."""


class PresenceStore(Protocol):
    """Who is here: seat sockets, votes and hand-overs, turn clocks, heartbeats and the
    reaper (app/table's heartbeat and clocks)."""

    # -- sockets, presence and votes ------------------------------------------------------------
    def register(self, code: str, delta: int) -> None:
        """This process counted (+1) or uncounted (-1) one of its sockets in the room."""
    async def seat_connected(self, code: str, seat: int, player_id: str | None) -> SeatCounted: ...
    async def seat_disconnected(self, code: str, seat: int, player_id: str | None,
                                ledger: int) -> bool:
        """Count one socket less unless a reaper already did; whether it was still counted."""
    async def has_votes(self, code: str) -> bool: ...
    async def vote(self, code: str, voter: PlayerView, seat: int) -> str:
        """Record a vote to hand an absent seat to a bot, handing it on a majority
        (`app.store.orm.vote`); the room's code."""
    async def reclaim(self, code: str, player: PlayerView) -> str:
        """A replaced player takes their seat back from the bot; the room's code."""

    # -- turn clocks ---------------------------------------------------------------------------
    async def running_clocks(self) -> list[Any]:
        """The active rooms with a turn clock: code, turn_clock, clock_increment, clock_banks,
        last_move_at. Not their states: every clock tick (twice a second) reads this."""
    async def clocked_rooms(self, codes: list[str]) -> list[tuple[Any, list[Any]]]:
        """Those of the rooms still active, whole, each with its seats."""
    async def pause_clock(self, code: str, version: int, last_move_at: datetime | None,
                          now: datetime) -> bool:
        """Stop the room's clock (no deadline while last_move_at is NULL) if it is still at that
        version and turn; whether it stopped (then every process is told)."""
    async def resume_clocks(self, codes: list[str], now: datetime) -> list[str]:
        """Start the paused clocks again of those rooms where a seated player is connected; their
        codes (every process is told)."""
    async def tell_room(self, code: str) -> None:
        """Tell every process the room changed (a timeout moved its deadline, marked a seat
        away)."""

    # -- heartbeats, the reaper and votes --------------------------------------------------------
    async def beat(self) -> None:
        """This process is alive (its `processes` row, made on the first beat)."""
    async def stop_beating(self) -> None:
        """This process stops cleanly: its row goes."""
    async def reap(self, before: datetime) -> Reaped:
        """Delete the processes that last beat before `before`, and uncount the seat sockets and
        spectators of processes with no row left, once whichever reapers run at once, telling
        every process."""
    async def recount_votes(self, code: str) -> bool:
        """Hand over the absent seats whose votes are a majority now (`orm.recount`), under
        the room's row lock; whether any was (then every process is told)."""


class AdminStore(Protocol):
    """The admin's reads and actions, and the audit log (app/admin, app/ops)."""

    # -- the admin's actions and the audit log ---------------------------------------------------
    # Each action writes its audit line in its own transaction, with the room's notification.
    async def admin_rooms(self, status: str | None, quiet_since: datetime | None,
                          q: str | None) -> AdminRooms:
        """Rooms by status, active ones quiet since a time, or found by (part of) a code or a
        player's name; without a status or time, the live rooms longest quiet first, then the
        newest of the rest."""
    async def admin_room(self, code: str) -> AdminRoom: ...
    async def room_log(self, code: str, upto: int | None = None) -> RoomLog: ...
    async def room_row(self, code: str) -> Any:
        """The room's columns as stored (a 404 if there is none)."""
    async def audit_log(self, code: str | None, limit: int) -> list[Any]:
        """Audit lines (id, at, actor, action, room_code, version, detail), newest first."""
    async def audit_look(self, code: str, actor: str, statuses: tuple[str, ...],
                         detail: dict[str, Any]) -> None:
        """A `read` audit line for an admin's look inside the room, if its status is one of
        `statuses` (nothing for another room, or none at all)."""
    async def admin_hand_to_bot(self, code: str, seat_no: int, actor: str) -> str: ...
    async def admin_note_zombie(self, code: str, seat: int, seen: int, move: Any, made: int,
                                actor: str) -> None:
        """The audit line of a default move the pipeline already committed."""
    async def admin_roll_back(self, code: str, version: int, actor: str,
                              rebuild: Rebuild) -> tuple[str, str]:
        """Drop the moves after `version`, set the state `rebuild` makes; the room's code and
        new status (every process is told to push the state even at an old version)."""
    async def admin_abort(self, code: str, actor: str) -> str: ...


class Store(StoreLife, PlayerStore, RoomStore, MoveStore, ChatStore, PresenceStore, AdminStore,
            Protocol):
    """All the doors at once: what a store implements and the Hall holds. A consumer is typed
    against the narrow door it uses (each at most 20 methods, tests/test_layout.py)."""


# -- a game's end: results and ratings (app/store/results.py; app/social/ends.py decides) ------


class EndSeat(NamedTuple):
    """A seat as the game ends: who holds it, and the player it was handed over from during
    the game (its first hand-over's; None: it never changed hands)."""

    seat: int
    player_id: str | None
    bot: str | None
    replaced_id: str | None
    handed_from: str | None


class Placing(NamedTuple):
    """One seat's result: the rater (a player id or a bot level's pseudo-player), its rank."""

    seat: int
    rater: str
    player_id: str | None
    rank: int
    won: bool
    standin: bool


class GameEnd(Protocol):
    start: tuple[float, float]  # a new rater's (mu, sigma)
    # A bot level's pseudo-rater is this + the level: Postgres reads a game's ratings before it
    # asks `placings` (`app.store.results.PG_END_READ`), so it guesses the raters by it.
    bot_prefix: str

    def placings(self, game: str, state: Any, seats: Sequence[EndSeat]) -> list[Placing]:
        """The rated seats (none: the game is not rated)."""

    def rate(self, placings: Sequence[tuple[str, int]],
             priors: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        """Each rater's (mu, sigma) after the game."""
