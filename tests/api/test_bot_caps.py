"""Issue 33, medium: one player (or one address) may keep only so many bot games going: seating
bots and choosing a stand-in level had no cap, and one player's hard rooms slowed every room's
bots. On SQLite and on Postgres."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator

import pytest
from sqlalchemy.sql.elements import BindParameter

from app.hall import Hall
from app.store.choice import open_bot_games
from tests.api.client import Api
from tests.server import Server, database, running_server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def capped(request: pytest.FixtureRequest) -> Iterator[Server]:
    with database(request.param) as url, running_server(
            url, BOT_GAMES_PER_PLAYER="2", BOT_GAMES_PER_ADDRESS="3") as srv:
        yield srv


@pytest.fixture
async def api(capped: Server) -> AsyncIterator[Api]:
    client = Api(capped.url)
    yield client
    await client.close()


async def _room(api: Api, host: dict[str, str], **body: object) -> str:
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 3, **body})
    return room["code"]


async def _bot(api: Api, host: dict[str, str], code: str, seat: int, expect: int = 200) -> dict:
    return await api.call("POST", f"/api/rooms/{code}/bots", host["token"], expect,
                          json={"seat": seat, "level": "hard"})


async def test_bot_games_are_capped_per_player_and_per_address(api: Api) -> None:
    abuser, other = await api.player("Abuser"), await api.player("Other")
    first, second, third = [await _room(api, abuser) for _ in range(3)]
    await _bot(api, abuser, first, 1)
    await _bot(api, abuser, second, 1)
    await _bot(api, abuser, first, 2)  # a room already counted is not counted twice
    refused = await _bot(api, abuser, third, 1, expect=429)
    assert refused["error"]["code"] == "too_many_bot_games"
    assert "2 games" in refused["error"]["message"]
    room = await api.call("GET", f"/api/rooms/{third}")
    assert [s["bot"] for s in room["seats"]] == [None, None, None], "nothing changed"
    refused = await api.call("POST", "/api/rooms", abuser["token"], 429,
                             json={"game": "gem-pyramid", "standin_level": "hard"})
    assert refused["error"]["code"] == "too_many_bot_games"
    assert (await _room(api, abuser)) != third, "a room without bots or clock is still fine"

    # Another player at the same address: the address holds three.
    await _bot(api, other, await _room(api, other), 1)
    refused = await _bot(api, other, await _room(api, other), 1, expect=429)
    assert "network address" in refused["error"]["message"]

    # A bot game that ends frees its place.
    await api.call("POST", f"/api/rooms/{first}/leave", abuser["token"])
    await _bot(api, abuser, third, 1)


# The names the count's bind parameters have, built once or per call (`Room.host_id.in_()`
# names its own `host_id`): what the hall's own tasks leave meanwhile (a sweep's `.in_()`)
# is not the count's, and would fail this test on a slow machine.
_COUNTS_KEYS = {"hosts", "besides", "host_id"}


async def test_counting_bot_games_leaves_no_cycle(hall: Hall) -> None:
    """The count runs at every bot seat and stand-in level asked for: its statement is built
    once (app/store/bot_games.py), so no call leaves bind parameters in cycles for the
    collector to freeze for good (app/ops/collector.py)."""
    games = open_bot_games(hall.store)
    for besides in (None, "ROOM"):
        await games.count(["p"], besides)  # compiled once, as any statement is
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for hosts in (["p"], ["p", "q"], ["p", "q", "r"]):
            await games.count(hosts, None)
            await games.count(hosts, "ROOM")
        gc.collect()
        left = sum(isinstance(o, BindParameter) and o._orig_key in _COUNTS_KEYS
                   for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == 0
