"""Issue 11: concurrent joins and "play again" on SQLite (where FOR UPDATE is a no-op) and
Postgres: one seat per player, one 200 per seat, one next room."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.api.client import Api


async def _post(api: Api, path: str, token: str, body: Any = None) -> Any:
    return await api.http.post(path, headers={"Authorization": f"Bearer {token}"}, json=body)


async def test_twenty_players_racing_for_the_last_seat_one_gets_it(api: Api) -> None:
    host = await api.player("Host")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2})
    racers = [await api.player(f"R{n}") for n in range(20)]
    answers = await asyncio.gather(*(_post(api, f"/api/rooms/{room['code']}/join", r["token"])
                                     for r in racers))
    assert sorted(a.status_code for a in answers) == [200] + [409] * 19
    seats = (await api.call("GET", f"/api/rooms/{room['code']}"))["seats"]
    winner = next(r for r, a in zip(racers, answers, strict=True) if a.status_code == 200)
    assert seats[1]["player"]["id"] == winner["id"]


async def test_one_player_joining_three_seats_at_once_holds_one(api: Api) -> None:
    host = await api.player("Host")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 4})
    greedy = await api.player("Greedy")
    await asyncio.gather(*(_post(api, f"/api/rooms/{room['code']}/join", greedy["token"],
                                 {"seat": n}) for n in (1, 2, 3)))
    seats = (await api.call("GET", f"/api/rooms/{room['code']}"))["seats"]
    assert sum(s["player"] is not None and s["player"]["id"] == greedy["id"]
               for s in seats) == 1


async def test_two_simultaneous_play_agains_make_one_room(api: Api) -> None:
    code, people, conns = await api.started_pair()
    answers = await asyncio.gather(*(_post(api, f"/api/rooms/{code}/again", p["token"])
                                     for p in people))
    assert {a.status_code for a in answers} <= {200, 201}
    assert len({a.json()["code"] for a in answers}) == 1
    for conn in conns:
        await conn.close()
