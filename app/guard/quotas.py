"""Abuse limits per identity and per address: REST quotas and the failed-guess throttle.

Counts live in this process's memory, so that a limit costs no database round trip: with
several processes each counts on its own (the effective limit is the setting times the number
of processes). Every limit is "so many per minute", refilled steadily, and 0 turns it off.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from fastapi.responses import JSONResponse

from app.config import Settings
from app.errors import ApiError, error_body

PRUNE_AT = 10_000  # keys kept before full (idle) buckets are forgotten
RATE_LIMITED = "rate_limited"
GUESS_CODES = frozenset({"room_not_found", "not_admin"})  # failures that look like guessing


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class Buckets:
    """Token buckets by key: `per_minute` actions at once, then one every 60/per_minute s."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, _Bucket] = {}

    def _refilled(self, key: str, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[key] = _Bucket(float(self.per_minute), now)
        bucket.tokens = min(self.per_minute,
                            bucket.tokens + (now - bucket.at) * self.per_minute / 60)
        bucket.at = now
        return bucket

    def _prune(self, now: float) -> None:
        """Forget keys whose buckets have refilled: they behave exactly like new ones."""
        self._buckets = {k: b for k, b in self._buckets.items()
                         if b.tokens + (now - b.at) * self.per_minute / 60 < self.per_minute}

    def take(self, key: str) -> bool:
        """Spend one action for `key`; False (nothing spent) when its bucket is dry."""
        if self.per_minute <= 0:
            return True
        bucket = self._refilled(key, time.monotonic())
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def dry(self, key: str) -> bool:
        """Whether `key` has no action left right now (spends nothing)."""
        return self.per_minute > 0 and self._refilled(key, time.monotonic()).tokens < 1


ACTIONS = {"players": "new players", "rooms": "new rooms", "joins": "joins"}


class Quotas:
    """The REST limits (players, rooms, joins) and the throttle on failed guesses."""

    def __init__(self, settings: Settings) -> None:
        self._by_player = {"rooms": Buckets(settings.rooms_per_minute_per_player),
                           "joins": Buckets(settings.joins_per_minute_per_player)}
        self._by_address = {"players": Buckets(settings.players_per_minute_per_address),
                            "rooms": Buckets(settings.rooms_per_minute_per_address),
                            "joins": Buckets(settings.joins_per_minute_per_address)}
        self.failures = Buckets(settings.failures_per_minute_per_address)

    def spend(self, action: str, address: str, player_id: str | None = None) -> None:
        """Count one `action`, or refuse it with 429 `rate_limited` if a limit is reached."""
        if player_id is not None and action in self._by_player \
                and not self._by_player[action].take(player_id):
            raise limited(f"You have made too many {ACTIONS[action]} in the last minute; "
                          "wait a little and try again.")
        if not self._by_address[action].take(address):
            raise limited(f"Too many {ACTIONS[action]} from your network address in the last "
                          "minute; wait a little and try again.")

    def failed(self, code: str, address: str) -> None:
        """A refusal that a guesser would see (unknown room, wrong admin token): count it."""
        if code in GUESS_CODES:
            self.failures.take(address)

    def guessing(self, address: str) -> bool:
        return self.failures.dry(address)


def limited(message: str) -> ApiError:
    return ApiError(429, RATE_LIMITED, message)


GUESSING = limited("Too many wrong room codes or admin tokens from your network address; "
                   "wait a minute and try again.")
GUESSED_PATHS = ("/api/rooms/", "/api/admin", "/metrics")


def client_address(scope: dict[str, Any]) -> str:
    """The caller's address (uvicorn puts a trusted proxy's X-Forwarded-For here)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


class GuessThrottle:
    """ASGI middleware: an address that has failed too many guesses is refused every room-code
    and admin route for a while, right answers included, so that guessing stops paying."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        """Not a coroutine: a websocket passes on without a frame of this one held for its
        life (memory per socket)."""
        if scope["type"] in ("http", "websocket") and scope["path"].startswith(GUESSED_PATHS):
            hall = getattr(scope["app"].state, "hall", None)
            if hall is not None and hall.quotas.guessing(client_address(scope)):
                return _refuse(scope, receive, send)
        return self.app(scope, receive, send)


async def _refuse(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """429 over HTTP; a websocket is accepted and closed with 4429, which a client can read."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 4429, "reason": "rate limited"})
        return
    response = JSONResponse(error_body(GUESSING.code, GUESSING.message), status_code=429)
    await response(scope, receive, send)
