"""On Postgres, players by token, remembered in this process: a room's set-up reads no token.

Why: a new room is two players made, then the host's room, the guest's join and the host's start,
each of which read the caller's token (one statement each, three of a set-up's round trips).
A player row never changes but for its renewal time, and a renewal only pushes the token's
expiry later, so a remembered row can only judge a token expired too early, never too late:
such a token is read again before it is refused. A device signed out is forgotten at once, in
every process (`forget_device`, told through the hub). Routes that report
the expiry (`/players/me`, renewal) read afresh (`fresh`), since another process may have
renewed the token since.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import timedelta

from app.guard.auth import check_found, expires_at, hash_token
from app.recent import keep
from app.store.models import Player, utcnow
from app.store.postgres.connections import Connections
from app.store.tokens import player_from_pool

# Players remembered, least recently used let go: a set-up reads its players within a second
# of making them, and a player (an ORM object) is about a kilobyte.
HELD = 2_048


class Tokens:
    """The players this process made or read lately, by token hash."""

    def __init__(self) -> None:
        self._players: OrderedDict[str, Player] = OrderedDict()
        # Devices signed out lately: a read that was under way when one was signed out must not
        # put its player back here (its token would pass in this process until let go).
        self._signed_out: OrderedDict[str, None] = OrderedDict()

    def remember(self, player: Player) -> None:
        if player.device_id not in self._signed_out:
            keep(self._players, player.token_hash, player, HELD)

    def held(self, token_hash: str, ttl: timedelta | None) -> Player | None:
        """The player remembered for `token_hash` if their token has not expired by what is
        remembered (None: unknown here, or to be read again)."""
        held = self._players.get(token_hash)
        if held is None or (ttl is not None and expires_at(held, ttl) <= utcnow()):
            return None
        self._players.move_to_end(token_hash)
        return held

    def forget_device(self, device_id: str) -> None:
        """The device was signed out (here or in another process): its token is read again,
        and refused."""
        keep(self._signed_out, device_id, None, HELD)
        for token_hash in [h for h, p in self._players.items() if p.device_id == device_id]:
            del self._players[token_hash]

    async def player(self, pool: Connections, token: str | None, ttl: timedelta | None,
                     fresh: bool) -> Player | None:
        """The token's player (None: no token), refused 401 if unknown or expired."""
        if not token:
            return None
        held = None if fresh else self._players.get(hash_token(token))
        if held is not None and (ttl is None or expires_at(held, ttl) > utcnow()):
            self._players.move_to_end(held.token_hash)
            return held
        player = await player_from_pool(pool, token, None)
        if player is not None:
            self.remember(player)
        return check_found(player, ttl)
