"""Asked take-backs over websockets, on SQLite and Postgres (issue 39, point 7): a player asks
to take back their last move once the next player has moved; the others accept or decline;
never across revealed information; a stale or lapsed ask is refused; bots accept."""

from __future__ import annotations

import itertools
from typing import Any

from tests.api.client import Api, Conn
from tests.server import postgres_database, running_server
from tests.take_backs import takeable_placement

_ids = itertools.count()
TRIO = ["Alice", "Bob", "Carol"]


async def _send(conn: Conn, kind: str, version: int | None = None, **more: Any
                ) -> dict[str, Any]:
    assert conn.state is not None
    await conn.send({"type": kind, "id": f"t{next(_ids)}",
                     "version": conn.state["version"] if version is None else version, **more})
    return await conn.reply()


async def _ask(conn: Conn, version: int | None = None) -> dict[str, Any]:
    return await _send(conn, "takeback_ask", version)


async def _answer(conn: Conn, accept: bool, version: int | None = None) -> dict[str, Any]:
    return await _send(conn, "takeback_answer", version, accept=accept)


async def _at(conns: list[Conn], version: int) -> None:
    for conn in conns:
        await conn.until(lambda c: c.state["version"] == version)


def _views(conns: list[Conn]) -> list[Any]:
    return [(c.state["view"], c.state["legal_moves"], c.state["to_act"]) for c in conns]


async def _close(conns: list[Conn]) -> None:
    for conn in conns:
        await conn.close()


async def _rush_trio(api: Api) -> tuple[str, list[Conn], Conn]:
    """Temple Rush for three: a round is one block each, at once; only its end draws."""
    code, _, conns, watcher = await api.seated_table("temple-rush", TRIO)
    assert conns[0].state["to_act"] == [0, 1, 2]
    return code, conns, watcher


async def test_asked_after_the_next_player_moved_and_accepted_by_all(api: Api) -> None:
    code, conns, watcher = await _rush_trio(api)
    alice, bob, carol = conns
    everyone = [*conns, watcher]
    deal = _views(everyone)
    assert (await alice.move(alice.state["legal_moves"][0]))["version"] == 1
    await _at(everyone, 1)
    assert (await bob.move(bob.state["legal_moves"][0]))["version"] == 2
    await _at(everyone, 2)
    free = await _send(alice, "undo")
    assert free["code"] == "cannot_undo", "another seat moved: the free take-back is gone"

    asked = await _ask(alice)
    assert asked["type"] == "ack" and asked["version"] == 2, "nothing goes back before answers"
    for conn in everyone:
        await conn.until(lambda c: (c.takeback or {}).get("status") == "open")
    ask = carol.takeback
    assert ask["seat"] == 0 and ask["move"] == 1 and ask["name"] == "Alice"
    assert sorted(ask["waiting"]) == [1, 2] and ask["version"] == 2
    again = await _ask(bob)
    assert again["code"] == "takeback_pending", "one ask at a time"
    refused = await _answer(alice, True)
    assert refused["code"] == "not_asked", "the asker does not answer their own ask"

    accepted = await _answer(bob, True)
    assert accepted["type"] == "ack" and accepted["version"] == 2
    await carol.until(lambda c: c.takeback["accepted"] == [1])
    assert carol.state["version"] == 2, "Carol has not answered yet"
    assert (await _answer(carol, True))["version"] == 0
    await _at(everyone, 0)
    assert _views(everyone) == deal, "the game went back for everyone, to before Alice's move"
    for conn in everyone:
        await conn.until(lambda c: (c.takeback or {}).get("status") == "done")
    assert await api.call("GET", f"/api/rooms/{code}/moves") == []
    told = "Alice took back move 1: "
    for conn in everyone:
        await conn.until(lambda c: any(n["text"].startswith(told) and n["version"] == 0
                                       and "Bob and Carol agreed" in n["text"]
                                       for n in (c.room or {}).get("admin_log") or []))
    audit = await api.admin("GET", f"/audit?room={code}")
    assert [a["action"] for a in reversed(audit) if a["action"].startswith("take")] == [
        "takeback_ask", "takeback_answer", "takeback_answer", "take_back"]
    await _close(everyone)


async def test_declined_and_stale_and_lapsed_asks(api: Api) -> None:
    code, conns, watcher = await _rush_trio(api)
    alice, bob, carol = conns
    everyone = [*conns, watcher]
    assert (await alice.move(alice.state["legal_moves"][0]))["type"] == "ack"
    await _at(everyone, 1)
    assert (await bob.move(bob.state["legal_moves"][0]))["type"] == "ack"
    await _at(everyone, 2)

    stale = await _ask(alice, version=1)
    assert stale["code"] == "stale" and alice.takeback is None
    assert (await _ask(alice))["type"] == "ack"
    await alice.until(lambda c: c.takeback is not None)
    assert (await _answer(bob, True))["type"] == "ack"
    assert (await _answer(carol, False))["version"] == 2
    for conn in everyone:
        await conn.until(lambda c: c.takeback["status"] == "declined")
    assert alice.takeback["declined"] == 2
    assert (await _answer(bob, True))["code"] == "no_takeback"
    assert len(await api.call("GET", f"/api/rooms/{code}/moves")) == 2, "nothing went back"

    # Asked again (a new ask after a decline), then lapsed by a move: answers come too late.
    assert (await _ask(bob))["type"] == "ack"
    await carol.until(lambda c: c.takeback["status"] == "open" and c.takeback["seat"] == 1)
    lapsed_at = carol.state["version"]
    assert (await carol.move(carol.state["legal_moves"][0]))["type"] == "ack"  # ends the round
    await _at(everyone, 3)
    assert (await _answer(alice, True, version=lapsed_at))["code"] == "stale"
    assert (await _answer(alice, True))["code"] == "no_takeback"
    assert len(await api.call("GET", f"/api/rooms/{code}/moves")) == 3
    await _close(everyone)


async def test_never_across_revealed_information(api: Api) -> None:
    """Temple Rush for two: the second block of a round ends it, and the end draws (dice,
    cards): neither player may ask to go back past it."""
    code, _, conns, watcher = await api.seated_table("temple-rush", ["Alice", "Bob"])
    alice, bob = conns
    assert (await alice.move(alice.state["legal_moves"][0]))["type"] == "ack"
    await _at([*conns, watcher], 1)
    assert (await bob.move(bob.state["legal_moves"][0]))["type"] == "ack"
    await _at([*conns, watcher], 2)
    for conn in conns:
        refused = await _ask(conn)
        assert refused["code"] == "cannot_take_back" and "Move 2" in refused["message"]
        assert "random" in refused["message"]
    assert (await _ask(watcher))["code"] == "not_seated"
    assert (await _answer(watcher, True))["code"] == "not_seated"
    assert (await _send(alice, "takeback_answer", accept="yes"))["code"] == "bad_message"
    assert (await _send(alice, "takeback_ask", version="2"))["code"] == "bad_message"
    assert len(await api.call("GET", f"/api/rooms/{code}/moves")) == 2
    assert watcher.takeback is None, "a refused ask tells nobody anything"
    await _close([*conns, watcher])


async def test_bots_accept_at_once(api: Api) -> None:
    """Alice against a bot in 5 Realms: her ask is carried out at once."""
    for _deal in range(30):
        alice = await api.player("Alice")
        room = await api.call("POST", "/api/rooms", alice["token"], 201,
                              json={"game": "five-realms", "seats": 2})
        code = room["code"]
        await api.call("POST", f"/api/rooms/{code}/bots", alice["token"], json={"seat": 1})
        conn = await api.connect(code, alice["token"])
        await api.start(code, alice)
        await conn.until(lambda c: c.state is not None and c.state["to_act"] == [0])
        place = takeable_placement(await api.admin("GET", f"/rooms/{code}"), 0)
        if place is not None:
            break
        await conn.close()
    else:
        raise AssertionError("no deal in 30 had a first placement that reveals nothing")
    deal = conn.state["view"]
    made = (await conn.move(place))["version"]
    await conn.until(lambda c: c.state["version"] == made)
    asked = await _ask(conn)
    assert asked["type"] == "ack" and asked["version"] == made - 1
    await conn.until(lambda c: c.state["version"] == made - 1)
    assert conn.state["view"] == deal, "back to before her placement (the bot may have begun)"
    await conn.until(lambda c: any("(the bots agreed)" in n["text"]
                                   for n in (c.room or {}).get("admin_log") or []))
    assert conn.takeback["status"] == "done"
    await conn.close()


async def test_an_ask_does_not_survive_a_rollback_replayed_to_its_version(api: Api) -> None:
    """Asked at move 2; the admin rolls back to 0 and both lay other blocks: the room is at
    version 2 again, but the ask was about moves that are gone."""
    code, conns, watcher = await _rush_trio(api)
    alice, bob, carol = conns
    everyone = [*conns, watcher]
    for version, conn in enumerate((alice, bob), start=1):
        assert (await conn.move(conn.state["legal_moves"][0]))["type"] == "ack"
        await _at(everyone, version)
    assert (await _ask(alice))["type"] == "ack"
    await carol.until(lambda c: (c.takeback or {}).get("status") == "open")
    await api.admin("POST", f"/rooms/{code}/rollback", json={"version": 0})
    await _at(everyone, 0)
    for version, conn in enumerate((alice, bob), start=1):
        assert (await conn.move(conn.state["legal_moves"][-1]))["type"] == "ack"
        await _at(everyone, version)
    refused = await _answer(carol, True)
    assert refused["code"] == "no_takeback" and "changed" in refused["message"]
    assert len(await api.call("GET", f"/api/rooms/{code}/moves")) == 2
    await _close(everyone)


async def test_an_ask_crosses_processes_on_postgres() -> None:
    """Alice and Bob on one server process, Carol on another, one Postgres: Carol hears of the
    ask and accepts on hers; the game goes back on both."""
    with postgres_database() as url, running_server(url) as one, running_server(url) as two:
        apis = [Api(one.url), Api(two.url)]
        people = [await apis[0].player(name) for name in TRIO]
        code = await apis[0].room_with("temple-rush", people)
        conns = [await apis[n // 2].connect(code, p["token"]) for n, p in enumerate(people)]
        await apis[0].start(code, people[0])
        for conn in conns:
            await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
        alice, bob, carol = conns
        deal = _views(conns)
        for version, conn in enumerate((alice, bob), start=1):
            assert (await conn.move(conn.state["legal_moves"][0]))["type"] == "ack"
            await _at(conns, version)
        assert (await _ask(alice))["type"] == "ack"
        await carol.until(lambda c: (c.takeback or {}).get("status") == "open")
        assert (await _answer(bob, True))["type"] == "ack"
        await carol.until(lambda c: c.takeback["accepted"] == [1])
        assert (await _answer(carol, True))["version"] == 0
        await _at(conns, 0)
        assert _views(conns) == deal
        await alice.until(lambda c: (c.takeback or {}).get("status") == "done")
        await alice.until(lambda c: any("Bob and Carol agreed" in n["text"]
                                        for n in (c.room or {}).get("admin_log") or []))
        await _close(conns)
        for api in apis:
            await api.close()
