"""The notification package's narrow storage protocol: channels, the outbox's claims and
marks, mail caps, digests, and what a due row is checked against. One SQLAlchemy
implementation serves SQLite and Postgres (`app/store/notify.py`, opened by
`app.store.choice.open_notify_store`), returning rows with the attributes below; the move's own
outbox rows are written by the move's statement (`app/store/outbox.py`)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class Channels(Protocol):
    """A player's stored settings."""

    email: str | None
    email_verified: bool
    webhook: str | None
    digest: bool
    verify_token: str | None
    unsubscribe_token: str | None


class Due(Protocol):
    """An outbox row as a worker claimed it."""

    id: int
    kind: str
    channel: str
    player_id: str
    room_code: str | None
    version: int | None
    seat: int | None
    attempts: int
    address: str | None
    due_at: datetime


class SeatFacts(Protocol):
    """What a due row about a seat is judged against, as committed now."""

    status: str
    version: int
    game: str
    player_id: str | None  # who holds the seat now
    connections: int
    absent_since: datetime | None
    names: dict[int, str]  # the seated players' names, by seat


class NotifyStore(Protocol):
    async def channels(self, player_id: str) -> Channels | None: ...

    async def save_channels(self, player_id: str, email: str | None, verified: bool,
                            webhook: str | None, digest: bool, verify_token: str | None,
                            unsubscribe_token: str | None, verify_key: str | None,
                            now: datetime) -> None:
        """Write the settings; with `verify_key`, the verification mail's outbox row (due
        now, to `email`) in the same transaction."""

    async def verify(self, token: str) -> bool:
        """The address whose link holds `token` is verified (False: no such link)."""

    async def unsubscribe(self, token: str) -> bool:
        """Mail stops for the address whose mails carry `token`: the address is forgotten and
        its unsent mails dropped (False: no such token)."""

    async def claim(self, now: datetime, until: datetime, limit: int) -> list[Due]:
        """Due rows nobody holds (pending and due, or claimed by a worker whose claim ran
        out), claimed until `until`; on Postgres `FOR UPDATE SKIP LOCKED`."""

    async def settle(self, ids: list[int], status: str, now: datetime,
                     address: str | None = None, error: str | None = None) -> None:
        """Rows done with: sent, dropped, failed or held (for a digest)."""

    async def retry(self, row_id: int, due_at: datetime, error: str | None,
                    attempt: bool = True) -> None:
        """Back to pending, due again at `due_at` (`attempt`: the try counts)."""

    async def mails_sent(self, player_id: str, address: str,
                         since: datetime) -> tuple[int, int]:
        """Mails sent since then to this player, and to this address."""

    async def hold_for_digest(self, row_id: int, player_id: str, now: datetime,
                              digest_due: datetime) -> None:
        """Hold the row for the player's digest, and make sure a digest row is pending."""

    async def prune(self, before: datetime) -> None:
        """Forget the rows settled (sent, dropped, failed) that were made before `before`."""

    async def held(self, player_id: str) -> list[Due]:
        """The rows held for the player's digest, oldest first."""

    async def seat_facts(self, code: str, seat: int | None) -> SeatFacts | None:
        """The room and the seat as committed now (None: the room is gone)."""

    async def add(self, player_id: str, kind: str, room_code: str | None,
                  version: int | None, seat: int | None, due_at: datetime,
                  now: datetime) -> int:
        """Rows of `kind` due at `due_at` on each of the player's channels, unless there are
        already (an invitation, a game's first turn); how many were added."""
