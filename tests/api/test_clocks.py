"""Turn clocks: a seat that runs out of time plays its zombie move, once, on any process."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

from tests.api.client import Api
from tests.server import postgres_database, running_server


async def wait_for_version(api: Api, code: str, version: int, within: float) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        room = await api.call("GET", f"/api/rooms/{code}")
        if room["version"] >= version or time.monotonic() > deadline:
            return room
        await asyncio.sleep(0.1)


async def test_an_idle_seat_times_out_through_the_pipeline(api: Api) -> None:
    people = [await api.player("Slow"), await api.player("Slower")]
    code = await api.room_with("gem-pyramid", people, turn_clock=1)
    lobby = await api.call("GET", f"/api/rooms/{code}")
    assert lobby["turn_clock"] == 1 and lobby["turn_deadline"] is None, "no clock before start"
    conns = [await api.connect(code, p["token"]) for p in people]
    started = time.monotonic()
    await api.start(code, people[0])
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["version"] == 0 and datetime.fromisoformat(room["turn_deadline"])
    for conn in conns:  # the room message on the socket carries the deadline too
        await conn.until(lambda c: c.room and c.room["turn_deadline"] is not None)
    room = await wait_for_version(api, code, 2, within=10)
    assert room["version"] >= 2
    # The push itself says whose time ran out (a live log line) and the next deadline.
    await conns[0].until(lambda c: c.state["version"] >= 2)
    assert conns[0].state["timed_out_seat"] in (0, 1)
    assert set(conns[0].state["deadlines"]) == {str(s) for s in conns[0].state["to_act"]}
    assert not any(s["away"] for s in room["seats"]), "one timeout does not make a seat away"
    # Three timeouts in a row mark each seat away, on the sockets too.
    room = await wait_for_version(api, code, 6, within=15)
    assert [s["away"] for s in room["seats"]] == [True, True]
    await conns[1].until(lambda c: all(s["away"] for s in c.room["seats"]))
    # One timeout per second of clock at most: never two processes' (or ticks') worth.
    assert room["version"] <= (time.monotonic() - started) / 1 + 1
    log = await api.call("GET", f"/api/rooms/{code}/moves")
    assert [e["seat"] for e in log[:2]] == [0, 1]
    assert all(e["timed_out"] for e in log)
    for conn in conns:
        await conn.close()


async def test_a_seat_that_moves_in_time_is_not_timed_out(api: Api) -> None:
    people = [await api.player("Quick"), await api.player("Quicker")]
    code = await api.room_with("gem-pyramid", people, turn_clock=3)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    await conns[0].until(lambda c: c.state is not None and c.state["legal_moves"])
    reply = await conns[0].move(conns[0].state["legal_moves"][0])
    assert reply["type"] == "ack"
    log = await api.call("GET", f"/api/rooms/{code}/moves")
    assert [e["timed_out"] for e in log] == [False]
    assert not any(s["away"] for s in (await api.call("GET", f"/api/rooms/{code}"))["seats"])
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["turn_deadline"] is not None
    for conn in conns:
        await conn.close()


async def test_a_fischer_clock_keeps_a_bank_per_seat(api: Api) -> None:
    people = [await api.player("Blitz"), await api.player("Bullet")]
    code = await api.room_with("gem-pyramid", people, turn_clock=2, clock_increment=600)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    await conns[0].until(lambda c: c.state is not None and c.state["legal_moves"])
    state = conns[0].state
    assert list(state["deadlines"]) == ["0"] and state["timed_out_seat"] is None
    assert state["clock_banks"] == {"0": 2, "1": 2}
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["clock_increment"] == 600 and room["turn_deadline"] == state["deadlines"]["0"]
    assert [s["clock_bank"] for s in room["seats"]] == [2, 2]
    reply = await conns[0].move(state["legal_moves"][0])
    assert reply["type"] == "ack"
    # Seat 0 moved in time and gained the increment; seat 1 does not, and runs out of its 2 s.
    await conns[0].until(lambda c: c.state["version"] >= 2)
    assert conns[0].state["timed_out_seat"] == 1
    room = await api.call("GET", f"/api/rooms/{code}")
    bank0, bank1 = (s["clock_bank"] for s in room["seats"])
    assert 600 < bank0 <= 602 and bank1 == 600
    assert conns[1].state["clock_banks"] == {"0": bank0, "1": bank1}
    deadline = datetime.fromisoformat(conns[0].state["deadlines"]["0"])
    assert (deadline - datetime.now(UTC)).total_seconds() > 500, "seat 0 keeps its bank"
    log = await api.call("GET", f"/api/rooms/{code}/moves")
    assert [(e["seat"], e["timed_out"]) for e in log] == [(0, False), (1, True)]
    await api.call("POST", "/api/rooms", people[0]["token"], 422,
                   json={"game": "gem-pyramid", "clock_increment": 5})
    for conn in conns:
        await conn.close()


async def test_no_clock_by_default(api: Api) -> None:
    people = [await api.player("Calm"), await api.player("Calmer")]
    code = await api.room_with("gem-pyramid", people)
    await api.start(code, people[0])
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["turn_clock"] is None and room["turn_deadline"] is None
    await api.call("POST", "/api/rooms", people[0]["token"], 422,
                   json={"game": "gem-pyramid", "turn_clock": 0})


async def test_clocks_fire_once_across_two_processes_and_a_restart() -> None:
    with postgres_database() as url:
        with running_server(url) as one, running_server(url) as two:
            apis = [Api(one.url), Api(two.url)]
            people = [await apis[0].player("Gone"), await apis[0].player("Away")]
            code = await apis[0].room_with("gem-pyramid", people, turn_clock=1)
            started = time.monotonic()
            await apis[1].start(code, people[0])
            room = await wait_for_version(apis[0], code, 4, within=15)
            elapsed = time.monotonic() - started
            assert 4 <= room["version"] <= elapsed + 1, "each deadline fired exactly once"
            log = await apis[1].call("GET", f"/api/rooms/{code}/moves")
            assert [e["version"] for e in log] == list(range(1, len(log) + 1))
            assert all(e["timed_out"] for e in log)
            for api in apis:
                await api.close()
        # Both processes are down while the next deadline passes; a fresh process honours it.
        await asyncio.sleep(1.5)
        with running_server(url) as again:
            api = Api(again.url)
            before = (await api.call("GET", f"/api/rooms/{code}"))["version"]
            room = await wait_for_version(api, code, before + 1, within=10)
            assert room["version"] >= before + 1
            await api.close()


async def test_the_host_removes_a_player_from_the_waiting_room(api: Api) -> None:
    host, guest = await api.player("Host"), await api.player("Idle")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2})
    code = room["code"]
    await api.call("POST", f"/api/rooms/{code}/join", guest["token"])
    refused = await api.call("POST", f"/api/rooms/{code}/remove", guest["token"], 403,
                             json={"seat": 0})
    assert refused["error"] == {"code": "not_host", "message": "Only the host can remove players."}
    await api.call("POST", f"/api/rooms/{code}/remove", host["token"], 409, json={"seat": 0})
    room = await api.call("POST", f"/api/rooms/{code}/remove", host["token"], json={"seat": 1})
    assert room["seats"][1]["player"] is None
    await api.call("POST", f"/api/rooms/{code}/bots", host["token"], json={"seat": 1})
    await api.start(code, host)
    await api.call("POST", f"/api/rooms/{code}/remove", host["token"], 409, json={"seat": 1})
