"""Absent players: a grace period, a majority vote hands the seat to a bot, the player returns.

The vote lives in the database: it can be cast on one process and completed on another, or
after every process restarted.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.api.client import Api, Conn
from tests.server import Server, database, postgres_database, running_server

GRACE = {"ABSENT_GRACE_SECONDS": "1.5"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with database(request.param) as url, running_server(url, **GRACE) as srv:
        yield srv


async def _table(api: Api, players: int, **body: Any
                 ) -> tuple[str, list[dict[str, Any]], list[Conn]]:
    """A started Lucent room of `players`, each connected; `body`: more of the room's creation
    (its stand-in level)."""
    people = [await api.player(name) for name in ["Ann", "Bo", "Cy", "Di"][:players]]
    code = await api.room_with("gem-pyramid", people, **body)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    for conn in conns:
        await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
        await conn.until(lambda c: c.room is not None
                         and all(s["connected"] for s in c.room["seats"]))
    return code, people, conns


async def _until_vote_opens(conn: Conn, seat: int) -> None:
    """Wait for the room to show `seat` absent, then for its grace period to pass."""
    await conn.until(lambda c: c.room["seats"][seat]["vote_after"] is not None)
    opens = datetime.fromisoformat(conn.room["seats"][seat]["vote_after"])
    await asyncio.sleep(max(0.0, (opens - datetime.now(UTC)).total_seconds()) + 0.05)


async def test_a_majority_hands_an_absent_seat_to_a_bot_and_the_player_takes_it_back(
        api: Api) -> None:
    code, people, conns = await _table(api, 3)
    seat2 = conns[0].room["seats"][2]
    assert seat2["absent_since"] is None and seat2["replaced"] is None
    await conns[2].close()
    await conns[0].until(lambda c: c.room["seats"][2]["absent_since"] is not None)
    assert conns[0].room["seats"][2]["votes_needed"] == 2, "a majority of the two present"
    too_soon = await api.call("POST", f"/api/rooms/{code}/vote", people[0]["token"], 409,
                              json={"seat": 2})
    assert too_soon["error"]["code"] == "too_soon"
    await _until_vote_opens(conns[0], 2)

    room = await api.call("POST", f"/api/rooms/{code}/vote", people[0]["token"], json={"seat": 2})
    assert room["seats"][2]["votes"] == [0] and room["seats"][2]["bot"] is None
    await conns[1].until(lambda c: c.room["seats"][2]["votes"] == [0])
    room = await api.call("POST", f"/api/rooms/{code}/vote", people[1]["token"], json={"seat": 2})
    assert room["seats"][2]["bot"] is not None and room["seats"][2]["player"] is None
    assert room["seats"][2]["replaced"] == {"id": people[2]["id"], "name": "Cy", "cause": "vote",
                                            "reclaim_after": None}
    assert [(h["seat"], h["kind"], h["cause"], h["player"]["name"])
            for h in room["handovers"]] == [(2, "bot", "vote", "Cy")]
    for conn in conns[:2]:  # both sockets hear of it at once: banner and log line
        await conn.until(lambda c: len(c.room["handovers"]) == 1)

    # Cy comes back: watching until they take the seat back, then playing it again.
    back = await api.connect(code, people[2]["token"])
    await back.until(lambda c: c.state is not None and c.room is not None)
    assert back.state["seat"] is None and back.room["seats"][2]["replaced"]["id"] == people[2]["id"]
    room = await api.call("POST", f"/api/rooms/{code}/reclaim", people[2]["token"])
    assert room["seats"][2]["player"]["id"] == people[2]["id"] and room["seats"][2]["bot"] is None
    assert room["seats"][2]["replaced"] is None
    assert [h["kind"] for h in room["handovers"]] == ["bot", "back"]
    await back.until(lambda c: c.state["seat"] == 2)
    await conns[0].until(lambda c: len(c.room["handovers"]) == 2)
    again = await api.call("POST", f"/api/rooms/{code}/reclaim", people[2]["token"], 409)
    assert again["error"]["code"] == "nothing_to_reclaim"
    for mover in (conns[0], conns[1], back):  # and Cy plays the seat again, in turn
        await mover.until(lambda c: bool(c.state["legal_moves"]))
        reply = await mover.move(mover.state["legal_moves"][0])
        assert reply["type"] == "ack", reply
    assert back.state["seat"] == 2
    for conn in [*conns[:2], back]:
        await conn.close()


async def test_the_room_chooses_its_stand_in_level_and_says_it(api: Api) -> None:
    host = await api.player("Host")
    bad = await api.call("POST", "/api/rooms", host["token"], 422,
                         json={"game": "gem-pyramid", "standin_level": "grandmaster"})
    assert bad["error"]["code"] == "bad_level"
    plain = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    assert plain["standin_level"] == "normal", "the server's BOT_LEVEL"
    made = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "standin_level": "hard"})
    assert made["standin_level"] == "hard"
    assert (await api.call("GET", f"/api/rooms/{made['code']}"))["standin_level"] == "hard"
    conn = await api.connect(made["code"], host["token"])
    await conn.until(lambda c: c.room is not None)
    assert conn.room["standin_level"] == "hard"
    await conn.close()


async def test_a_voted_in_bot_plays_at_the_rooms_stand_in_level(api: Api) -> None:
    code, people, conns = await _table(api, 2, standin_level="easy")
    await conns[1].close()
    await _until_vote_opens(conns[0], 1)
    room = await api.call("POST", f"/api/rooms/{code}/vote", people[0]["token"], json={"seat": 1})
    assert room["seats"][1]["bot"] == "easy" and room["seats"][1]["replaced"]["name"] == "Bo"
    await conns[0].until(lambda c: c.room["seats"][1]["bot"] == "easy")
    await conns[0].close()


async def test_every_stand_in_plays_at_the_rooms_level_and_a_rematch_keeps_it(api: Api) -> None:
    code, people, conns = await _table(api, 3, standin_level="greedy")
    await api.admin("POST", f"/rooms/{code}/bot", json={"seat": 1})
    room = await api.call("POST", f"/api/rooms/{code}/leave", people[2]["token"])
    assert [s["bot"] for s in room["seats"]] == [None, "greedy", "greedy"]
    assert [(h["seat"], h["cause"]) for h in room["handovers"]] == [(1, "admin"), (2, "left")]
    again = await api.call("POST", f"/api/rooms/{code}/again", people[0]["token"], 201)
    assert again["standin_level"] == "greedy"
    for conn in conns:
        await conn.close()


async def test_votes_are_refused_where_they_make_no_sense(api: Api) -> None:
    code, people, conns = await _table(api, 2)
    watcher = await api.player("Eve")
    for token, seat, status, error in [(people[0]["token"], 1, 409, "not_absent"),
                                       (people[0]["token"], 0, 409, "own_seat"),
                                       (watcher["token"], 1, 403, "not_seated"),
                                       (people[0]["token"], 7, 422, "bad_seat")]:
        body = await api.call("POST", f"/api/rooms/{code}/vote", token, status,
                              json={"seat": seat})
        assert body["error"]["code"] == error
    for conn in conns:
        await conn.close()


async def test_a_player_who_leaves_mid_game_is_in_the_log_and_cannot_reclaim(api: Api) -> None:
    code, people, conns = await _table(api, 2)
    room = await api.call("POST", f"/api/rooms/{code}/leave", people[1]["token"])
    assert [(h["seat"], h["kind"], h["cause"]) for h in room["handovers"]] == [(1, "bot", "left")]
    assert room["seats"][1]["replaced"] is None, "leaving is for good"
    await conns[0].until(lambda c: len(c.room["handovers"]) == 1)
    body = await api.call("POST", f"/api/rooms/{code}/reclaim", people[1]["token"], 409)
    assert body["error"]["code"] == "nothing_to_reclaim"
    for conn in conns:
        await conn.close()


async def test_a_vote_lapses_when_the_absent_player_comes_back(api: Api) -> None:
    code, people, conns = await _table(api, 3)
    await conns[2].close()
    await _until_vote_opens(conns[0], 2)
    room = await api.call("POST", f"/api/rooms/{code}/vote", people[0]["token"], json={"seat": 2})
    assert room["seats"][2]["votes"] == [0]
    back = await api.connect(code, people[2]["token"])
    await conns[0].until(lambda c: c.room["seats"][2]["absent_since"] is None)
    await back.close()  # gone again: the vote cast on the earlier absence no longer counts
    await _until_vote_opens(conns[0], 2)
    assert conns[0].room["seats"][2]["votes"] == []
    room = await api.call("POST", f"/api/rooms/{code}/vote", people[1]["token"], json={"seat": 2})
    assert room["seats"][2]["votes"] == [1] and room["seats"][2]["bot"] is None
    for conn in conns[:2]:
        await conn.close()


async def test_a_voter_leaving_makes_the_votes_cast_a_majority(api: Api) -> None:
    code, people, conns = await _table(api, 3)
    await conns[2].close()
    await _until_vote_opens(conns[0], 2)
    room = await api.call("POST", f"/api/rooms/{code}/vote", people[0]["token"], json={"seat": 2})
    assert room["seats"][2]["votes"] == [0] and room["seats"][2]["votes_needed"] == 2
    await conns[1].close()  # Bo goes: Ann's vote alone is a majority of those still here
    await conns[0].until(lambda c: c.room["seats"][2]["bot"] is not None)
    assert [(h["seat"], h["kind"], h["cause"], h["player"]["name"])
            for h in conns[0].room["handovers"]] == [(2, "bot", "vote", "Cy")]
    await conns[0].close()


async def test_a_voter_coming_back_makes_their_vote_count_again(api: Api) -> None:
    code, people, conns = await _table(api, 4)
    await conns[3].close()
    await _until_vote_opens(conns[1], 3)
    await api.call("POST", f"/api/rooms/{code}/vote", people[0]["token"], json={"seat": 3})
    await conns[0].close()  # Ann's vote lapses while she is away...
    await conns[1].until(lambda c: c.room["seats"][3]["votes"] == [])
    room = await api.call("POST", f"/api/rooms/{code}/vote", people[1]["token"], json={"seat": 3})
    assert room["seats"][3]["votes"] == [1] and room["seats"][3]["bot"] is None
    back = await api.connect(code, people[0]["token"])  # ... and counts again: 2 of 3
    await conns[1].until(lambda c: c.room["seats"][3]["bot"] is not None)
    for conn in (back, conns[1], conns[2]):
        await conn.close()


async def test_votes_made_a_majority_by_leavers_on_two_processes_hand_the_seat_once() -> None:
    with postgres_database() as url, running_server(url, **GRACE) as one, \
            running_server(url, **GRACE) as two:
        apis = [Api(one.url), Api(two.url)]
        people = [await apis[0].player(n) for n in ("Ann", "Bo", "Cy", "Di")]
        code = await apis[0].room_with("gem-pyramid", people)
        conns = [await apis[n // 2 % 2].connect(code, p["token"]) for n, p in enumerate(people)]
        await apis[0].start(code, people[0])
        for conn in conns:
            await conn.until(lambda c: c.room and all(s["connected"] for s in c.room["seats"]))
        await conns[2].close()
        await _until_vote_opens(conns[0], 2)
        room = await apis[0].call("POST", f"/api/rooms/{code}/vote", people[0]["token"],
                                  json={"seat": 2})
        assert room["seats"][2]["votes"] == [0] and room["seats"][2]["votes_needed"] == 2
        # Bo (on one process) and Di (on the other) go at once: each process counts its leaver.
        await asyncio.gather(conns[1].close(), conns[3].close())
        await conns[0].until(lambda c: c.room["seats"][2]["bot"] is not None)
        await conns[0].until(lambda c: not any(c.room["seats"][s]["connected"] for s in (1, 3)))
        room = await apis[1].call("GET", f"/api/rooms/{code}")
        assert [(h["seat"], h["kind"], h["cause"]) for h in room["handovers"]] == [
            (2, "bot", "vote")]
        await conns[0].close()
        for api in apis:
            await api.close()


async def test_a_vote_crosses_processes_and_outlives_a_restart() -> None:
    with postgres_database() as url:
        with running_server(url, **GRACE) as one, running_server(url, **GRACE) as two:
            apis = [Api(one.url), Api(two.url)]
            people = [await apis[0].player(n) for n in ("Ann", "Bo", "Cy")]
            code = await apis[0].room_with("gem-pyramid", people)
            conns = [await apis[n % 2].connect(code, p["token"]) for n, p in enumerate(people)]
            await apis[1].start(code, people[0])
            for conn in conns:
                await conn.until(lambda c: c.room and all(s["connected"]
                                                          for s in c.room["seats"]))
            await conns[2].close()
            await _until_vote_opens(conns[1], 2)  # seen on the other process
            room = await apis[1].call("POST", f"/api/rooms/{code}/vote", people[0]["token"],
                                      json={"seat": 2})
            assert room["seats"][2]["votes"] == [0]
            await conns[0].until(lambda c: c.room["seats"][2]["votes"] == [0])
            # Ann (the voter) leaves first, and Bo sees it: were Bo uncounted first, Ann's vote
            # alone would be a majority of those present and hand the seat over now.
            await conns[0].close()
            await conns[1].until(lambda c: not c.room["seats"][0]["connected"])
            await conns[1].close()
            for api in apis:
                await api.close()
        with running_server(url, **GRACE) as again:
            api = Api(again.url)
            # Bo is back (counted) before Ann: Ann's socket, counted with nobody else present,
            # would make her standing vote a majority on its own and hand the seat over.
            conns = [await api.connect(code, people[1]["token"])]
            await conns[0].until(lambda c: c.room and c.room["seats"][1]["connected"])
            conns.insert(0, await api.connect(code, people[0]["token"]))
            await conns[0].until(lambda c: c.room and c.room["seats"][2]["votes"] == [0]
                                 and c.room["seats"][1]["connected"])
            room = await api.call("POST", f"/api/rooms/{code}/vote", people[1]["token"],
                                  json={"seat": 2})
            assert room["seats"][2]["replaced"]["name"] == "Cy"
            room = await api.call("POST", f"/api/rooms/{code}/reclaim", people[2]["token"])
            assert room["seats"][2]["player"]["name"] == "Cy"
            assert [h["kind"] for h in room["handovers"]] == ["bot", "back"]
            for conn in conns:
                await conn.close()
            await api.close()


async def test_a_crashed_process_gives_its_seats_back() -> None:
    """A process killed with sockets open: another process notices it stopped beating, takes
    its sockets off the counts, and the table can vote."""
    fast = {**GRACE, "PRESENCE_TIMEOUT_SECONDS": "2"}
    with postgres_database() as url, running_server(url, **fast) as two:
        survivor = Api(two.url)
        with running_server(url, **fast) as one:
            doomed = Api(one.url)
            people = [await survivor.player(n) for n in ("Ann", "Bo")]
            code = await survivor.room_with("gem-pyramid", people)
            lost = await doomed.connect(code, people[0]["token"])
            bo = await survivor.connect(code, people[1]["token"])
            await survivor.start(code, people[0])
            fan = await doomed.connect(code)
            await bo.until(lambda c: c.room and all(s["connected"] for s in c.room["seats"]))
            await bo.until(lambda c: c.watchers is not None and c.watchers["count"] == 1)
            assert one.proc is not None
            one.proc.send_signal(signal.SIGKILL)
            one.proc.wait(10)
            for conn in (lost, fan):
                assert conn.reader is not None
                conn.reader.cancel()
            await doomed.close()
        await bo.until(lambda c: not c.room["seats"][0]["connected"])
        await bo.until(lambda c: c.watchers["count"] == 0)
        await _until_vote_opens(bo, 0)
        room = await survivor.call("POST", f"/api/rooms/{code}/vote", people[1]["token"],
                                   json={"seat": 0})
        assert room["seats"][0]["replaced"]["name"] == "Ann"
        await bo.close()
        await survivor.close()
