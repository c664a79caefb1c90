"""Issue 11: a socket's seat follows the seats table, so a player who leaves (or whose seat the
admin hands to a bot) receives nothing more of that seat's secrets."""

from __future__ import annotations

import pytest

from games import REGISTRY
from tests.api.client import Api, Conn


async def _seated_room(api: Api, game_id: str) -> tuple[str, list[dict], list[Conn], Conn]:
    """As few players as the game takes (at least two), and a spectator."""
    names = [f"P{n}" for n in range(max(2, REGISTRY[game_id].min_players))]
    return await api.seated_table(game_id, names)


async def _sees_only_what_a_spectator_sees(gone: Conn, watcher: Conn) -> None:
    await gone.until(lambda c: c.state["seat"] is None)
    assert gone.state["legal_moves"] == []
    version = gone.state["version"]
    await watcher.until(lambda c: c.state["version"] >= version)
    await gone.until(lambda c: c.state["version"] >= watcher.state["version"])
    assert gone.state["view"] == watcher.state["view"], "the old seat's secrets leaked"


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
async def test_a_player_who_leaves_a_game_sees_no_more_of_the_seat(
        api: Api, game_id: str) -> None:
    code, people, conns, watcher = await _seated_room(api, game_id)
    assert conns[1].state["seat"] == 1
    await api.call("POST", f"/api/rooms/{code}/leave", people[1]["token"])
    await _sees_only_what_a_spectator_sees(conns[1], watcher)
    for conn in [*conns, watcher]:
        await conn.close()


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
async def test_a_player_replaced_by_the_admin_sees_no_more_of_the_seat(
        api: Api, game_id: str) -> None:
    code, _, conns, watcher = await _seated_room(api, game_id)
    await api.admin("POST", f"/rooms/{code}/bot", json={"seat": 1})
    await _sees_only_what_a_spectator_sees(conns[1], watcher)
    for conn in [*conns, watcher]:
        await conn.close()
