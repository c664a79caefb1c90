"""Several server processes on one Postgres, and crashes: nothing acknowledged is lost."""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator

import pytest

from tests.api.client import Api, play_to_end
from tests.server import Server, postgres_database, running_server


@pytest.fixture(scope="module")
def two_servers() -> Iterator[tuple[Server, Server]]:
    with postgres_database() as url, running_server(url) as one, running_server(url) as two:
        yield one, two


@pytest.mark.parametrize("players", [2, 3, 4, 5])
async def test_two_processes_serve_one_room(two_servers: tuple[Server, Server],
                                            players: int) -> None:
    apis = [Api(two_servers[0].url), Api(two_servers[1].url)]
    people = [await apis[0].player(f"P{n}") for n in range(players)]
    code = await apis[0].room_with("gem-pyramid", people)
    # Alternate seats between the processes: every move crosses from one to the other.
    conns = [await apis[n % 2].connect(code, p["token"]) for n, p in enumerate(people)]
    watchers = [await api.connect(code) for api in apis]
    await apis[1].start(code, people[0])
    await play_to_end(conns, random.Random(players))
    for watcher in watchers:
        await watcher.until(lambda c: c.state["status"] == "finished")
    assert watchers[0].state["outcome"] == watchers[1].state["outcome"]
    for conn in [*conns, *watchers]:
        await conn.close()
    for api in apis:
        await api.close()


async def test_acknowledged_moves_survive_a_crash() -> None:
    with postgres_database() as url:
        server = Server(url).start()
        api = Api(server.url)
        a, b = await api.player("A"), await api.player("B")
        code = await api.room_with("gem-pyramid", [a, b])
        conns = [await api.connect(code, p["token"]) for p in (a, b)]
        await api.start(code, a)
        for conn in conns:  # the lobby's state is at version 0 too, with nobody to act
            await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
        acked = 0
        chooser = random.Random(3)
        for _ in range(10):
            for conn in conns:
                await conn.until(lambda c, v=acked: c.state and c.state["version"] == v)
            mover = next(c for c in conns if c.state["legal_moves"])
            reply = await mover.move(chooser.choice(mover.state["legal_moves"]))
            assert reply["type"] == "ack"
            acked = reply["version"]
        await conns[0].until(lambda c: c.state["version"] == acked)  # the mover may be conns[1]
        seen = conns[0].state["view"]
        assert server.proc is not None
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        await api.close()
        with running_server(url) as again:
            api = Api(again.url)
            room = await api.call("GET", f"/api/rooms/{code}")
            assert room["version"] == acked == 10
            back = await api.connect(code, a["token"])
            await back.until(lambda c: c.state is not None)
            assert back.state["view"]["rows"] == seen["rows"]
            await back.close()
            await api.close()


async def test_chat_crosses_processes(two_servers: tuple[Server, Server]) -> None:
    """A line said on one process reaches sockets on the other (NOTIFY carries only its id)."""
    apis = [Api(two_servers[0].url), Api(two_servers[1].url)]
    people = [await apis[0].player("Talker"), await apis[0].player("Listener")]
    code = await apis[0].room_with("gem-pyramid", people)
    talker = await apis[0].connect(code, people[0]["token"])
    listener = await apis[1].connect(code, people[1]["token"])
    await listener.until(lambda c: c.state is not None)
    await talker.send({"type": "chat", "text": "across the wire"})
    await listener.until(lambda c: [m["text"] for m in c.chat] == ["across the wire"])
    assert listener.chat[0]["name"] == "Talker"
    # Who is watching counts spectators on every process, names and all.
    fan = await apis[0].player("Fan")
    watchers = [await apis[1].connect(code, fan["token"]), await apis[0].connect(code)]
    await talker.until(lambda c: c.watchers is not None and c.watchers["count"] == 2)
    await listener.until(lambda c: c.watchers is not None and c.watchers["count"] == 2)
    assert talker.watchers["names"] == listener.watchers["names"] == ["Fan"]
    await watchers[0].close()
    await talker.until(lambda c: c.watchers["count"] == 1 and c.watchers["names"] == [])
    await watchers[1].close()
    await listener.until(lambda c: c.watchers["count"] == 0)
    for conn in (talker, listener):
        await conn.close()
    for api in apis:
        await api.close()
