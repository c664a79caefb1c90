"""The host's view (app/ops): `/metrics` after a played game, and stuck rooms in the console."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from types import SimpleNamespace

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update
from sqlalchemy.ext.asyncio import create_async_engine

from app.ops.stuck import _why_stuck
from app.store.models import Room, Seat, utcnow
from games import REGISTRY
from tests.api.client import Api, play_to_end
from tests.server import ADMIN_TOKEN, Server, database, running_server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest) -> Iterator[tuple[Server, str]]:
    with database(request.param) as url, running_server(url, STUCK_MINUTES="30") as srv:
        yield srv, url


@pytest.fixture
async def api(served: tuple[Server, str]) -> AsyncIterator[Api]:
    client = Api(served[0].url)
    yield client
    await client.close()


async def _scrape(api: Api) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of this process's metrics, parsed by prometheus_client's own parser."""
    response = await api.http.get("/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.text)
            for sample in family.samples}


def _value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_show_a_played_game(api: Api) -> None:
    before = await _scrape(api)
    _, _, conns = await api.started_pair()
    # A refusal by code: the seat not to act moves.
    idle = next(c for c in conns if not c.state["legal_moves"])
    refused = await idle.move({"type": "pass"})
    assert refused["code"] == "not_your_turn"
    live = await _scrape(api)
    assert _value(live, "ziggurat_sockets_open") >= 2
    moves = await play_to_end(conns, random.Random(40))
    after = await _scrape(api)
    committed = "ziggurat_moves_committed_total"
    assert _value(after, committed, game="gem-pyramid", source="player") \
        - _value(before, committed, game="gem-pyramid", source="player") == moves
    assert _value(after, "ziggurat_moves_refused_total", code="not_your_turn") \
        - _value(before, "ziggurat_moves_refused_total", code="not_your_turn") == 1
    # every acked move was timed, and none took longer than the top bucket's bound
    acks = _value(after, "ziggurat_move_ack_seconds_count") \
        - _value(before, "ziggurat_move_ack_seconds_count")
    assert acks == moves
    assert _value(after, "ziggurat_rooms", status="finished", game="gem-pyramid") >= 1
    assert ("ziggurat_rest_gate_wait_seconds_count", ()) in after
    for conn in conns:
        await conn.close()


async def test_metrics_count_bot_decisions(api: Api) -> None:
    before = await _scrape(api)
    host = await api.player("Host")
    code = (await api.call("POST", "/api/rooms", host["token"], 201,
                           json={"game": "gem-pyramid", "seats": 2}))["code"]
    await api.call("POST", f"/api/rooms/{code}/bots", host["token"],
                   json={"seat": 1, "level": "random"})
    conn = await api.connect(code, host["token"])
    await api.start(code, host)
    await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
    assert (await conn.move(conn.state["legal_moves"][0]))["type"] == "ack"
    await conn.until(lambda c: c.state["version"] >= 2)  # the bot answered
    after = await _scrape(api)
    for name, labels in (("ziggurat_bot_decisions_total", {"level": "random",
                                                           "outcome": "inline"}),
                         ("ziggurat_moves_committed_total", {"game": "gem-pyramid",
                                                             "source": "bot"})):
        assert _value(after, name, **labels) > _value(before, name, **labels)
    await conn.close()


async def test_metrics_show_the_loop_lag_and_the_collections(api: Api) -> None:
    before = await _scrape(api)
    await asyncio.sleep(0.3)  # the probe ticks every 20 ms
    after = await _scrape(api)
    assert _value(after, "ziggurat_loop_lag_seconds_count") >= \
        _value(before, "ziggurat_loop_lag_seconds_count") + 5
    assert ("ziggurat_gc_pause_seconds_count", (("generation", "0"),)) in after


async def test_metrics_need_a_token(api: Api) -> None:
    anonymous = await api.http.get("/metrics")
    assert anonymous.status_code == 403 and anonymous.json()["error"]["code"] == "not_admin"
    wrong = await api.http.get("/metrics", headers={"Authorization": "Bearer not-the-token-1"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "not_admin"
    assert ADMIN_TOKEN not in wrong.text


async def _backdate(url: str, code: str, minutes: float, **room: object) -> None:
    """Make a room look quiet for `minutes` (and change its columns) in the database itself."""
    engine = create_async_engine(url)
    long_ago = utcnow() - timedelta(minutes=minutes)
    async with engine.begin() as conn:
        await conn.execute(update(Room).where(Room.code == code).values(
            updated_at=long_ago, last_move_at=long_ago, **room))
    await engine.dispose()


async def _bot_in_seat(url: str, code: str, seat: int) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(update(Seat).where(Seat.room_code == code, Seat.seat == seat)
                           .values(bot="normal", player_id=None))
    await engine.dispose()


async def _started(api: Api, *names: str) -> str:
    people = [await api.player(name) for name in names]
    code = await api.room_with("gem-pyramid", people)
    await api.start(code, people[0])
    return code


async def test_stuck_rooms_are_listed_with_their_reason(api: Api,
                                                        served: tuple[Server, str]) -> None:
    url = served[1]
    waiting = await _started(api, "Slowpoke", "Other")
    broken = await _started(api, "E1", "E2")
    silent_bot = await _started(api, "B1", "B2")
    fresh = await _started(api, "F1", "F2")
    await _backdate(url, waiting, 120)  # two hours on seat 0's move, no clock: over 30 min
    await _backdate(url, broken, 5, status="errored", error="Traceback: boom")
    await _bot_in_seat(url, silent_bot, 0)  # a bot holds the seat to act and never moved
    await _backdate(url, silent_bot, 10)
    stuck = await api.admin("GET", "/stuck")
    rows = {r["code"]: r for r in stuck}
    assert fresh not in rows, "a game whose move came a moment ago is not stuck"
    assert rows[waiting]["kind"] == "idle" and rows[waiting]["seat"] == 0
    assert "Slowpoke (seat 0)" in rows[waiting]["reason"]
    assert "no turn clock" in rows[waiting]["reason"]
    assert rows[broken]["kind"] == "errored" and "rule module raised" in rows[broken]["reason"]
    assert rows[silent_bot]["kind"] == "bot" and rows[silent_bot]["seat"] == 0
    # the longest stuck first
    order = [r["code"] for r in stuck]
    assert order.index(waiting) < order.index(silent_bot) < order.index(broken)
    refused = await api.call("GET", "/api/admin/stuck", "not-" + ADMIN_TOKEN, 403)
    assert refused["error"]["code"] == "not_admin"


def test_a_clock_long_past_and_a_silent_bot_are_stuck() -> None:
    now = utcnow()
    room = SimpleNamespace(game="gem-pyramid", state=None, turn_clock=60, clock_increment=None,
                           clock_banks=None, last_move_at=now - timedelta(minutes=10),
                           updated_at=now - timedelta(minutes=10))
    game = REGISTRY["gem-pyramid"]
    room.state = game.setup(2, game.Options(), random.Random(1))
    people = [{"seat": 0, "name": "Ann", "bot": None}, {"seat": 1, "name": None, "bot": "hard"}]
    kind, seat, since, reason = _why_stuck(room, people, now, 60)
    assert (kind, seat) == ("clock", 0) and "ran out 9 min ago" in reason
    assert since == room.last_move_at + timedelta(seconds=60)
    room.turn_clock = None  # no clock: a person waits 10 minutes, under the setting's hour
    assert _why_stuck(room, people, now, 60) is None
    assert _why_stuck(room, people, now, 5)[0] == "idle"
    bots = [{"seat": 0, "name": None, "bot": "hard"}, people[1]]
    kind, seat, _, reason = _why_stuck(room, bots, now, 60)
    assert (kind, seat) == ("bot", 0) and "10 min without moving" in reason
    room.last_move_at = room.updated_at = now - timedelta(seconds=30)
    assert _why_stuck(room, bots, now, 60) is None  # a bot thinking for 30 s is not stuck
