"""Hints against the computer: offered only where every other seat is a bot, and the hint is
the very move the `normal` bot would choose for the seat (same seed, same engine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import bots
from app.learn.hints import HINT_LEVEL
from games import REGISTRY
from tests.api.client import Api
from tests.server import Server, database, running_server

# So few iterations that the search always ends on its cap, never on the clock: the server's
# choice can then be replayed here exactly.
SCALE = 0.002


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with database(request.param) as url, running_server(url, BOT_BUDGET_SCALE=str(SCALE)) as srv:
        yield srv


async def test_a_hint_is_the_normal_bots_move_against_the_computer(api: Api) -> None:
    me = await api.player("Learner")
    room = await api.call("POST", "/api/rooms", me["token"], 201,
                          json={"game": "five-realms", "seats": 2})
    code = room["code"]
    await api.call("POST", f"/api/rooms/{code}/bots", me["token"], json={"seat": 1})
    conn = await api.connect(code, me["token"])
    await api.start(code, me)
    # Whoever opens, the bot is done once the turn is mine (it moves only in its own turn).
    await conn.until(lambda c: c.state is not None and 0 in c.state["to_act"])
    version = conn.state["version"]
    hint = await api.call("POST", f"/api/rooms/{code}/hint", me["token"])
    inside = await api.admin("GET", f"/rooms/{code}")
    assert inside["room"]["version"] == version
    assert hint["version"] == version and hint["seat"] == 0 and hint["level"] == HINT_LEVEL
    game, state = REGISTRY["five-realms"], inside["state"]
    assert hint["move"] in game.legal_moves(state, 0)
    cap = max(1, round(bots.LEVELS[HINT_LEVEL].iterations * SCALE))
    seed = f"{inside['seed']}:{version}:0"  # the seat's seed at this version, as a bot's
    expected = bots.choose(game, state, 0, HINT_LEVEL, seed, iterations=cap, timed=False)
    assert hint["move"] == expected
    assert hint["text"] == game.describe(expected)
    assert "to win after it" in hint["reason"]  # 5 Realms' evaluation gives its reckoning
    # Asking changes nothing at the table.
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == version
    await conn.close()


async def test_no_hint_at_a_table_with_another_person(api: Api) -> None:
    people = [await api.player("Ada"), await api.player("Bo")]
    code = await api.room_with("gem-pyramid", people)
    await api.start(code, people[0])
    refused = await api.call("POST", f"/api/rooms/{code}/hint", people[0]["token"], expect=403)
    assert refused["error"]["code"] == "hint_not_offered"
    watcher = await api.player("Cy")
    outside = await api.call("POST", f"/api/rooms/{code}/hint", watcher["token"], expect=403)
    assert outside["error"]["code"] == "not_seated"
    anonymous = await api.call("POST", f"/api/rooms/{code}/hint", expect=401)
    assert anonymous["error"]["code"] == "no_token"
    unknown = await api.call("POST", "/api/rooms/zzz-zzz-zzz/hint", people[0]["token"], expect=404)
    assert unknown["error"]["code"] == "room_not_found"
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 0
