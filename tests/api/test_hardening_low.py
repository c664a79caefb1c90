"""Issue 24's cheap low items, on SQLite and Postgres: a finished game cannot be rolled back;
chat's limit is per player, not per socket; the admin's looks inside a live game are audited;
an admin's hand-over to a bot is not undone by the player's immediate reclaim."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta

import pytest

from app.table.chat import CHAT_BURST, CHAT_PER_SECOND
from tests.api.client import Api, Conn, play_to_end
from tests.server import Server, database, running_server

HOLD = 600  # ADMIN_HANDOVER_HOLD_SECONDS (the other test servers run with 0)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def held_server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with database(request.param) as url, \
            running_server(url, ADMIN_HANDOVER_HOLD_SECONDS=str(HOLD)) as srv:
        yield srv


@pytest.fixture
async def api(held_server: Server) -> AsyncIterator[Api]:
    client = Api(held_server.url)
    yield client
    await client.close()


async def test_a_finished_game_cannot_be_rolled_back(api: Api) -> None:
    people = [await api.player("A"), await api.player("B")]
    code = await api.room_with("gem-pyramid", people)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    await play_to_end(conns, random.Random(24))
    refused = await api.admin("POST", f"/rooms/{code}/rollback", expect=409, json={"version": 1})
    assert refused["error"]["code"] == "game_finished"
    assert "replay" in refused["error"]["message"]
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["status"] == "finished"
    for conn in conns:
        await conn.close()


async def _outcomes(sockets: list[Conn], lines: list[str]) -> list[bool]:
    """Each line's outcome, said (True) or refused for chatting too fast (False), once every
    line is accounted for: seen in the chat, or one `chat_rate_limited` error on the socket
    that sent it (line n went on socket n mod 3). An error names no line, and a refusal sent
    to its socket may overtake the broadcast of a line said before it: so lines are not judged
    one at a time, but counted per socket until the counts add up."""
    sent = [len(lines[k::3]) for k in range(3)]
    refused = [0, 0, 0]
    while True:
        for k, conn in enumerate(sockets):
            while not conn.replies.empty():
                if conn.replies.get_nowait().get("code") == "chat_rate_limited":
                    refused[k] += 1
        seen = {m["text"] for conn in sockets for m in conn.chat}
        if all(sum(t in seen for t in lines[k::3]) + refused[k] == sent[k] for k in range(3)):
            return [text in seen for text in lines]
        await asyncio.sleep(0.05)


async def test_chat_is_limited_per_player_over_all_their_sockets(api: Api) -> None:
    code, people, (ca, cb) = await api.started_pair()
    sockets = [ca, *[await api.connect(code, people[0]["token"]) for _ in range(2)]]
    # Each socket alone stays within the burst; together they are three times over it.
    lines = [f"line {n}" for n in range(3 * CHAT_BURST)]
    began = time.monotonic()
    for n, text in enumerate(lines):
        await sockets[n % 3].send({"type": "chat", "text": text})
    said = await asyncio.wait_for(_outcomes(sockets, lines), 30)
    elapsed = time.monotonic() - began
    assert sum(said) <= CHAT_BURST + CHAT_PER_SECOND * elapsed + 1, (said, elapsed)
    assert not all(said)
    for conn in [*sockets, cb]:
        await conn.close()


async def test_the_admins_looks_inside_a_live_game_are_audited(api: Api) -> None:
    code, _, conns = await api.started_pair()
    who = {"X-Admin-Name": "Auditor"}
    await api.admin("GET", f"/rooms/{code}", headers=who)
    await api.admin("GET", f"/rooms/{code}/versions/0", headers=who)
    await api.admin("GET", f"/rooms/{code}/replay?seat=1", headers=who)
    reads = [a for a in await api.admin("GET", f"/audit?room={code}") if a["action"] == "read"]
    assert [(a["actor"], a["detail"]["what"]) for a in reversed(reads)] == [
        ("Auditor", "room"), ("Auditor", "version"), ("Auditor", "replay")]
    assert reads[0]["detail"]["seat"] == 1 and reads[1]["detail"]["version"] == 0
    # The console re-reads an open room every few seconds: the same look at the same version
    # is one line, a look at another part is a new one.
    await api.admin("GET", f"/rooms/{code}/replay?seat=1", headers=who)
    await api.admin("GET", f"/rooms/{code}/replay?seat=0", headers=who)
    reads = [a for a in await api.admin("GET", f"/audit?room={code}") if a["action"] == "read"]
    assert [a["detail"].get("seat") for a in reads[:2]] == [0, 1]
    assert len(reads) == 4
    # Once the room is closed nothing is hidden from anyone playing: not logged.
    await api.admin("POST", f"/rooms/{code}/abort")
    await api.admin("GET", f"/rooms/{code}")
    after = [a for a in await api.admin("GET", f"/audit?room={code}") if a["action"] == "read"]
    assert len(after) == 4
    for conn in conns:
        await conn.close()


async def test_an_admin_hand_over_is_not_undone_by_an_immediate_reclaim(api: Api) -> None:
    code, people, conns = await api.started_pair()
    await api.admin("POST", f"/rooms/{code}/bot", json={"seat": 0})
    refused = await api.call("POST", f"/api/rooms/{code}/reclaim", people[0]["token"], 409)
    assert refused["error"]["code"] == "held_by_admin"
    assert "UTC" in refused["error"]["message"] and f"{HOLD / 60:g} minutes" \
        in refused["error"]["message"]
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["seats"][0]["bot"] and room["seats"][0]["player"] is None
    # One truth (issue 39): the seat says why a bot holds it and from when its player may take
    # it back, the time the refusal names; the console names the bot as the table does.
    replaced = room["seats"][0]["replaced"]
    assert replaced["cause"] == "admin", replaced
    until = datetime.fromisoformat(replaced["reclaim_after"])
    assert until - datetime.fromisoformat(room["handovers"][-1]["at"]) == timedelta(seconds=HOLD)
    assert f"{until:%H:%M} UTC" in refused["error"]["message"]
    inside = await api.admin("GET", f"/rooms/{code}")
    assert inside["handover_hold_seconds"] == HOLD
    assert [p["replaced"] for p in inside["players"]] == [people[0]["name"], None]
    for conn in conns:
        await conn.close()
