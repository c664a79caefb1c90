"""Issue 24 item 6: seat changes on Postgres with two server processes. Each seat change takes
the room's row lock and then reads the seats in a statement of its own, so it sees what the
other process committed while it waited (before, it read the seats as they were before the
wait: two joiners were both told they had the last seat, a start found no empty seat)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.api.client import Api
from tests.server import Server, postgres_database, running_server

TRIALS = 10


@pytest.fixture(scope="module")
def two_servers() -> Iterator[tuple[Server, Server]]:
    with postgres_database() as url, running_server(url) as one, running_server(url) as two:
        yield one, two


@pytest.fixture
async def apis(two_servers: tuple[Server, Server]) -> AsyncIterator[list[Api]]:
    clients = [Api(two_servers[0].url), Api(two_servers[1].url)]
    yield clients
    for client in clients:
        await client.close()


async def _post(api: Api, path: str, token: str, body: Any = None) -> Any:
    return await api.http.post(path, headers={"Authorization": f"Bearer {token}"}, json=body)


async def test_two_joiners_on_two_processes_one_gets_the_last_seat(apis: list[Api]) -> None:
    for trial in range(TRIALS):
        host = await apis[0].player(f"Host{trial}")
        room = await apis[0].call("POST", "/api/rooms", host["token"], 201,
                                  json={"game": "gem-pyramid", "seats": 2})
        racers = [await apis[n].player(f"R{trial}-{n}") for n in (0, 1)]
        answers = await asyncio.gather(*(
            _post(apis[n], f"/api/rooms/{room['code']}/join", racers[n]["token"])
            for n in (0, 1)))
        assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
        winner = racers[[a.status_code for a in answers].index(200)]
        seats = (await apis[1].call("GET", f"/api/rooms/{room['code']}"))["seats"]
        assert seats[1]["player"]["id"] == winner["id"]


async def test_one_player_joining_three_seats_on_two_processes_holds_one(
        apis: list[Api]) -> None:
    for trial in range(TRIALS):
        host = await apis[0].player(f"Host{trial}")
        room = await apis[0].call("POST", "/api/rooms", host["token"], 201,
                                  json={"game": "gem-pyramid", "seats": 4})
        greedy = await apis[0].player(f"Greedy{trial}")
        answers = await asyncio.gather(*(
            _post(apis[n % 2], f"/api/rooms/{room['code']}/join", greedy["token"], {"seat": n})
            for n in (1, 2, 3)))
        # Joining again while seated changes nothing (200); never a 500.
        assert {a.status_code for a in answers} <= {200, 409}, [a.text for a in answers]
        seats = (await apis[1].call("GET", f"/api/rooms/{room['code']}"))["seats"]
        assert sum(s["player"] is not None and s["player"]["id"] == greedy["id"]
                   for s in seats) == 1


async def test_a_start_racing_a_remove_never_starts_with_an_empty_seat(apis: list[Api]) -> None:
    for trial in range(TRIALS):
        host = await apis[0].player(f"Host{trial}")
        room = await apis[0].call("POST", "/api/rooms", host["token"], 201,
                                  json={"game": "gem-pyramid", "seats": 3})
        code = room["code"]
        for seat in (1, 2):
            await apis[0].call("POST", f"/api/rooms/{code}/bots", host["token"],
                               json={"seat": seat})
        removed, started = await asyncio.gather(
            _post(apis[0], f"/api/rooms/{code}/remove", host["token"], {"seat": 2}),
            _post(apis[1], f"/api/rooms/{code}/start", host["token"]))
        assert removed.status_code in (200, 409), removed.text
        assert started.status_code in (200, 409), started.text
        after = await apis[1].call("GET", f"/api/rooms/{code}")
        if after["status"] != "lobby":
            assert all(s["player"] is not None or s.get("bot") for s in after["seats"]), after
            assert removed.status_code == 409  # the start came first: nothing to remove
        else:
            assert started.status_code == 409 and started.json()["error"]["code"] == "seats_empty"
