"""Issue 23, the server's half: each logged move names who made it as the seat was held then
(kept after a reclaim), the log answers only what a page lacks (`after`), the admin's actions
are lines of the room's story with a true `closed_reason`, and a deserted clocked room does not
play itself out."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.api.client import Api, Conn
from tests.api.test_clocks import wait_for_version
from tests.server import database, running_server


async def _log(api: Api, code: str, after: int | None = None) -> list[dict[str, Any]]:
    query = "" if after is None else f"?after={after}"
    return await api.call("GET", f"/api/rooms/{code}/moves{query}")


async def _move(conn: Conn) -> None:
    """The first legal move of this socket's seat, on the state it holds."""
    assert conn.state is not None
    reply = await conn.move(conn.state["legal_moves"][0])
    assert reply["type"] == "ack", reply


async def _at(conns: list[Conn], version: int) -> None:
    """Each socket holds the game in play at `version` or later (a socket opened in the lobby
    holds the lobby's state, version 0 too, until the start's state reaches it)."""
    for conn in conns:
        await conn.until(lambda c: c.state is not None and c.state["status"] == "active"
                         and c.state["version"] >= version)


async def test_each_move_names_who_made_it_then_even_after_a_reclaim(api: Api) -> None:
    people = [await api.player("Ann"), await api.player("Bob")]
    code = await api.room_with("gem-pyramid", people)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    await _at(conns, 0)
    first = conns[0].state["to_act"][0]
    await _move(conns[first])  # v1: a person's own move
    await _at(conns, 1)
    acting = conns[0].state["to_act"][0]
    await api.admin("POST", f"/rooms/{code}/zombie", json={"seat": acting})  # v2: the admin's
    await _at(conns, 2)
    await api.admin("POST", f"/rooms/{code}/bot", json={"seat": 0})
    deadline = time.monotonic() + 60
    while not any(e["by"]["bot"] for e in await _log(api, code)):  # the bot plays Ann's seat
        assert time.monotonic() < deadline, "the bot never moved"
        state = conns[1].state
        if state["status"] == "active" and state["to_act"] == [1] and state["legal_moves"]:
            await _move(conns[1])
            await conns[1].until(lambda c, v=state["version"]: c.state["version"] > v)
        await asyncio.sleep(0.2)
    await api.call("POST", f"/api/rooms/{code}/reclaim", people[0]["token"])
    # The room pushed on the socket (on Postgres read by one statement) tells the same story.
    told = (await api.call("GET", f"/api/rooms/{code}"))["admin_log"]
    assert [n["text"] for n in told] == [
        f"The admin played the default move for {['Ann', 'Bob'][acting]}.",
        "The admin handed Ann's seat to a bot."]
    await conns[1].until(lambda c: c.room is not None and c.room["admin_log"] == told)
    log = await _log(api, code)
    names = ["Ann", "Bob"]
    assert log[0]["by"] == {"name": names[first], "bot": False, "via": None}
    assert log[1]["by"] == {"name": names[acting], "bot": False, "via": "admin"}
    bot_moves = [e for e in log if e["by"]["bot"]]
    assert bot_moves and all(e["seat"] == 0 and e["by"] == {
        "name": "Bot for Ann", "bot": True, "via": None} for e in bot_moves), \
        "the bot's moves stay the bot's after Ann took her seat back"
    # The page asks only for what it lacks.
    assert await _log(api, code, after=1) == log[1:]
    assert await _log(api, code, after=len(log)) == []
    assert (await api.call("GET", f"/api/rooms/{code}/moves?after=-1", expect=422))
    # The replay frames and the admin's log carry the same `by`.
    replay = await api.admin("GET", f"/rooms/{code}/replay")
    assert [f["by"] for f in replay["frames"][1:]] == [e["by"] for e in log]
    inside = await api.admin("GET", f"/rooms/{code}")
    assert [m["by"] for m in inside["log"]] == [e["by"] for e in log]
    for conn in conns:
        await conn.close()


async def test_admin_actions_are_lines_of_the_story_and_say_why_a_room_closed(api: Api) -> None:
    people = [await api.player("Cara"), await api.player("Dan")]
    code = await api.room_with("gem-pyramid", people)
    await api.start(code, people[0])
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["admin_log"] == [] and room["closed_reason"] is None
    names, forced = ["Cara", "Dan"], []
    for _ in range(2):
        acting = (await api.admin("GET", f"/rooms/{code}"))["to_act"][0]
        await api.admin("POST", f"/rooms/{code}/zombie", json={"seat": acting})
        forced.append(names[acting])
    room = await api.call("GET", f"/api/rooms/{code}")
    assert [(n["version"], n["text"]) for n in room["admin_log"]] == [
        (0, f"The admin played the default move for {forced[0]}."),
        (1, f"The admin played the default move for {forced[1]}.")]
    await api.admin("POST", f"/rooms/{code}/bot", json={"seat": 0})
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["admin_log"][-1]["text"] == "The admin handed Cara's seat to a bot."
    assert room["admin_log"][-1]["version"] == 2
    assert [n["action"] for n in room["admin_log"]] == ["zombie", "zombie", "bot"]
    version = room["version"]
    await api.admin("POST", f"/rooms/{code}/rollback", json={"version": 1})
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["admin_log"][-1]["text"] == "The admin rolled the game back to move 1."
    assert [n["version"] for n in room["admin_log"]] == [0, 1, 1, 1], (
        f"lines after the moves undone ({version} -> 1) are placed at move 1")
    await api.admin("POST", f"/rooms/{code}/abort")
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["status"] == "aborted"
    assert room["closed_reason"] == "The admin closed this room."
    assert room["admin_log"][-1]["text"] == "The admin closed this room."
    assert all(n["at"] for n in room["admin_log"])
    # A closed room's seats are not handed to bots (the console offers no such button either).
    refused = await api.admin("POST", f"/rooms/{code}/bot", expect=409, json={"seat": 1})
    assert refused["error"]["code"] == "not_playing", refused
    after = await api.call("GET", f"/api/rooms/{code}")
    assert after["seats"][1]["bot"] is None and after["admin_log"] == room["admin_log"]



async def test_a_host_leaving_the_waiting_room_is_the_reason_given(api: Api) -> None:
    host = await api.player("Host")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2})
    await api.call("POST", f"/api/rooms/{room['code']}/leave", host["token"])
    room = await api.call("GET", f"/api/rooms/{room['code']}")
    assert room["status"] == "aborted" and room["admin_log"] == []
    assert room["closed_reason"] == "The host left before the game started."


async def _deserted_room_waits(kind: str) -> None:
    with database(kind) as url, running_server(url, ABSENT_GRACE_SECONDS="1") as srv:
        api = Api(srv.url)
        people = [await api.player("Gone"), await api.player("Away")]
        code = await api.room_with("gem-pyramid", people, turn_clock=1)
        conns = [await api.connect(code, p["token"]) for p in people]
        await api.start(code, people[0])
        await _at(conns, 2)  # with the players at the table the clock plays for them
        for conn in conns:
            await conn.close()
        # Deserted: the clock stops at the next deadline past the grace, and stays stopped.
        deadline = time.monotonic() + 60
        while (await api.call("GET", f"/api/rooms/{code}"))["turn_deadline"] is not None:
            assert time.monotonic() < deadline, "the clock never paused"
            await asyncio.sleep(0.2)
        paused = await api.call("GET", f"/api/rooms/{code}")
        await asyncio.sleep(4)  # four whole turns of this clock
        still = await api.call("GET", f"/api/rooms/{code}")
        assert still["version"] == paused["version"] and still["status"] == "active"
        assert still["turn_deadline"] is None
        # Someone comes back: the turn starts over and the clock runs again.
        back = await api.connect(code, people[0]["token"])
        room = await wait_for_version(api, code, paused["version"] + 1, within=30)
        assert room["version"] > paused["version"]
        log = await _log(api, code)
        assert all(e["timed_out"] and e["by"]["via"] == "clock" for e in log)
        await back.close()
        await api.close()


async def test_a_deserted_clocked_room_does_not_play_itself_out_sqlite() -> None:
    await _deserted_room_waits("sqlite")


async def test_a_deserted_clocked_room_does_not_play_itself_out_postgres() -> None:
    await _deserted_room_waits("postgres")


def test_admin_lines_are_placed_after_the_move_they_followed() -> None:
    """A take-back of move 3 reads after move 2; a rollback to 1 brings the lines of the moves
    it undid down to 1; lines without a sentence (older audit rows) are not shown."""
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from app.core.tablelog import admin_log

    at = datetime(2026, 11, 25, tzinfo=UTC)

    def row(action: str, version: int, **detail: Any) -> SimpleNamespace:
        return SimpleNamespace(action=action, version=version, detail=detail, at=at)

    notes = admin_log([
        row("zombie", 0, text="The admin played the default move for Ann.", made=1),
        row("take_back", 3, text="Bob took back: a gem.", made=2),
        row("bot", 2),  # written before sentences were
        row("zombie", 2, text="The admin played the default move for Bob.", made=3),
        row("rollback", 3, text="The admin rolled the game back to move 1.", to=1),
    ])
    assert [(n["version"], n["text"]) for n in notes] == [
        (0, "The admin played the default move for Ann."), (1, "Bob took back: a gem."),
        (1, "The admin played the default move for Bob."),
        (1, "The admin rolled the game back to move 1.")]


async def test_postgres_one_statement_room_read_tells_the_same_admin_story() -> None:
    """`roomread` (one statement) and the session path build the same `admin_log` and
    `closed_reason`, take-backs and lines without a sentence included."""
    from app.core import rooms
    from app.store import orm
    from app.store.models import AdminAction, Player
    from tests.api.inprocess import hall_on
    from tests.api.test_room_read import _both

    async with hall_on("postgres") as hall:
        async with hall.store.sessions() as session, session.begin():
            players = [Player(id=f"t{n}", name=f"T{n}", token_hash=f"th{n}") for n in range(2)]
            session.add_all(players)
            code = (await orm.create_room(session, players[0], "gem-pyramid", None, 2,
                                            True)).code
        await hall.store.change_seats(code, rooms.join_seats, players[1], None)
        await hall.store.change_seats(code, rooms.start_seats, players[0])
        async with hall.store.sessions() as session, session.begin():
            for action, version, detail in (
                    ("zombie", 0, {"text": "The admin played the default move for T0.",
                                   "made": 1}),
                    ("take_back", 2, {"text": "T1 took back: a gem.", "made": 1}),
                    ("bot", 1, {"seat": 1}),
                    ("rollback", 3, {"text": "The admin rolled the game back to move 0.",
                                     "to": 0}),
                    ("abort", 0, {"text": "The admin closed this room."})):
                session.add(AdminAction(actor="admin", action=action, room_code=code,
                                        version=version, detail=detail))
            room = await orm.get_room(session, code, for_update=True)
            room.status = "aborted"
        hall.store.forget(code)
        by_session, by_statement = await _both(hall, code)
        assert by_statement["admin_log"] == by_session["admin_log"]
        assert [(n["version"], n["text"]) for n in by_statement["admin_log"]] == [
            (0, "The admin played the default move for T0."), (0, "T1 took back: a gem."),
            (0, "The admin rolled the game back to move 0."), (0, "The admin closed this room.")]
        assert by_statement["closed_reason"] == by_session["closed_reason"] == \
            "The admin closed this room."
