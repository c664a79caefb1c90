"""Issue 11: `connected` follows a socket's seat through leaving, joining again and sitting down."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.api.client import Api, Conn


def _seat(conn: Conn, number: int) -> dict[str, Any]:
    assert conn.room is not None
    return conn.room["seats"][number]


async def _settled(api: Api, code: str, check: Any) -> dict[str, Any]:
    """The room once `check(room)` holds (counts move a moment after the seat does)."""
    for _ in range(100):
        room = await api.call("GET", f"/api/rooms/{code}")
        if check(room):
            return room
        await asyncio.sleep(0.05)
    raise AssertionError(f"never settled: {room}")


async def test_leaving_and_joining_again_on_one_socket_stays_connected(api: Api) -> None:
    host, guest = await api.player("H"), await api.player("G")
    code = (await api.call("POST", "/api/rooms", host["token"], 201,
                           json={"game": "gem-pyramid", "seats": 3}))["code"]
    await api.call("POST", f"/api/rooms/{code}/join", guest["token"], json={"seat": 1})
    conn = await api.connect(code, guest["token"])
    await conn.until(lambda c: c.room is not None and _seat(c, 1)["connected"])
    await api.call("POST", f"/api/rooms/{code}/leave", guest["token"])
    await api.call("POST", f"/api/rooms/{code}/join", guest["token"], json={"seat": 2})
    room = await _settled(api, code, lambda r: r["seats"][2]["connected"])
    assert not room["seats"][1]["connected"]
    await conn.close()
    await _settled(api, code, lambda r: not r["seats"][2]["connected"])


async def test_a_watcher_who_sits_down_counts_as_connected_not_watching(api: Api) -> None:
    host, guest = await api.player("H"), await api.player("G")
    code = (await api.call("POST", "/api/rooms", host["token"], 201,
                           json={"game": "gem-pyramid", "seats": 2}))["code"]
    host_conn = await api.connect(code, host["token"])
    conn = await api.connect(code, guest["token"])
    await host_conn.until(lambda c: c.watchers is not None and c.watchers["count"] == 1)
    await api.call("POST", f"/api/rooms/{code}/join", guest["token"])
    await _settled(api, code, lambda r: r["seats"][1]["connected"])
    await host_conn.until(lambda c: c.watchers is not None and c.watchers["count"] == 0)
    await conn.close()
    await _settled(api, code, lambda r: not r["seats"][1]["connected"])
    await host_conn.close()


async def test_sockets_opened_with_the_start_end_on_the_room_as_it_is(api: Api) -> None:
    """The load generator's set-up: both sockets and the start at once. However the counts, the
    start and their `room` messages interleave (on Postgres, messages built from the writes
    and reads), every socket's last `room` message has the game started and both seats
    connected, as the room has them."""
    for trial in range(10):
        people = [await api.player(f"S{trial}"), await api.player(f"T{trial}")]
        code = await api.room_with("gem-pyramid", people)
        *conns, _ = await asyncio.gather(
            *(api.connect(code, p["token"]) for p in people), api.start(code, people[0]))
        for conn in conns:
            await conn.until(lambda c: c.room is not None and c.room["status"] == "active"
                             and all(s["connected"] for s in c.room["seats"])
                             and c.state is not None and c.state["status"] == "active",
                             timeout=10)
        await asyncio.sleep(0.05)  # nothing older comes after
        for conn in conns:
            assert conn.room is not None and conn.room["status"] == "active"
            assert all(s["connected"] for s in conn.room["seats"]), conn.room
        for conn in conns:
            await conn.close()
