"""Issue 24 item 7: two processes on one Postgres; the process driving an all-bot room's bots is
killed (-9). The survivor's heartbeat reaps the dead process and wakes the bots of the rooms it
may have driven, so they keep moving (before, the room froze for good)."""

from __future__ import annotations

import asyncio
import signal
import time

from tests.api.client import Api
from tests.server import postgres_database, running_server

# Slow bots keep the games going well past the kill; a short presence timeout reaps quickly.
ENV = {"PRESENCE_TIMEOUT_SECONDS": "2", "BOT_DELAY_MS": "1000"}


async def _all_bot_room(api: Api, name: str) -> str:
    """A started room whose seats are all bots, woken (driven) by `api`'s process."""
    host = await api.player(name)
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2})
    await api.call("POST", f"/api/rooms/{room['code']}/bots", host["token"], json={"seat": 1})
    await api.start(room["code"], host)
    await api.call("POST", f"/api/rooms/{room['code']}/leave", host["token"])  # a bot takes it
    return room["code"]


async def test_bots_of_a_killed_process_are_driven_by_the_survivor() -> None:
    with postgres_database() as url, running_server(url, **ENV) as doomed, \
            running_server(url, **ENV) as survivor:
        first, second = Api(doomed.url), Api(survivor.url)
        codes = [await _all_bot_room(first, f"Host{n}") for n in range(2)]
        for code in codes:
            room = await second.call("GET", f"/api/rooms/{code}")
            assert all(s["bot"] for s in room["seats"]) and room["status"] == "active"
        assert doomed.proc is not None
        doomed.proc.send_signal(signal.SIGKILL)
        doomed.proc.wait()
        await first.close()
        at_kill = {code: (await second.call("GET", f"/api/rooms/{code}"))["version"]
                   for code in codes}
        deadline = time.monotonic() + 120  # generous: a loaded machine, never a speed claim
        moved: set[str] = set()
        while time.monotonic() < deadline and moved != set(codes):
            await asyncio.sleep(1)
            for code in codes:
                room = await second.call("GET", f"/api/rooms/{code}")
                if room["version"] >= at_kill[code] + 2:  # two moves: more than one in flight
                    moved.add(code)
        assert moved == set(codes), f"frozen rooms: {set(codes) - moved}\n{survivor.log()}"
        await second.close()
