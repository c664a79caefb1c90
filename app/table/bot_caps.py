"""How many bot games one player, and one network address, may keep going at once.

Why (issue 33): seating bots (`POST /api/rooms/{code}/bots`) and choosing a room's stand-in level
had no cap, and six all-`hard` rooms of one player (seat bots, start, leave) slowed every other
room's bots tenfold. `bot_share` makes the pool fair between owners; this caps what one owner
may put in it. A bot game is a room in the lobby or under way, hosted by the player, with a bot
seat or a turn clock (whose stand-in searches for every late seat). The per-player count is
read from the database, so it holds across processes; the addresses a player seated bots from
are remembered in this process only (as the REST quotas are: `app.guard.quotas`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from app.errors import ApiError

TOO_MANY = "too_many_bot_games"
ADDRESSES_KEPT = 10_000  # addresses remembered before the oldest are forgotten
HOSTS_PER_ADDRESS = 64  # players remembered per address (a NAT's many players)


class BotGames(Protocol):
    """Counts bot games (implemented by `app.store.bot_games.SqlBotGames`)."""

    async def count(self, hosts: Collection[str], besides: str | None) -> int:
        """Bot games (see the module) hosted by any of `hosts`, the room `besides` apart."""


class BotCaps:
    """Refuse a bot game past `per_player` for its host or `per_address` for the address it
    is asked from (0: no cap)."""

    def __init__(self, games: BotGames, per_player: int, per_address: int) -> None:
        self._games = games
        self._per_player, self._per_address = per_player, per_address
        self._hosts: dict[str, list[str]] = {}  # address -> players seen there, oldest first

    async def check(self, player_id: str, address: str, room: str | None = None) -> None:
        """429 `too_many_bot_games` if one more bot game (in `room`, a new room if None) is
        past a cap; a room that already counts is not counted twice."""
        hosts = self._remember(address, player_id)
        if self._per_player and await self._games.count([player_id], room) >= self._per_player:
            raise ApiError(429, TOO_MANY, f"You already have {self._per_player} games with bots "
                           "or turn clocks going; finish or leave one first.")
        if self._per_address and await self._games.count(hosts, room) >= self._per_address:
            raise ApiError(429, TOO_MANY, "Too many games with bots or turn clocks are going "
                           "from your network address; finish one first.")

    def _remember(self, address: str, player_id: str) -> list[str]:
        hosts = self._hosts.pop(address, [])  # re-inserted: the most recent address last
        if player_id not in hosts:
            hosts = [*hosts, player_id][-HOSTS_PER_ADDRESS:]
        self._hosts[address] = hosts
        if len(self._hosts) > ADDRESSES_KEPT:
            del self._hosts[next(iter(self._hosts))]
        return hosts
