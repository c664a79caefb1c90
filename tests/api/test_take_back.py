"""Take-backs over websockets, on SQLite and Postgres (issue 22, item 3): a player's own last
step, while still their turn, nobody else moved since, and no randomness drawn."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from app.core.offers import may_take_back
from games import REGISTRY
from games.protocol import match_rng
from tests.api.client import Api, Conn
from tests.take_backs import takeable_placement

_ids = itertools.count()
PAIR = ["Alice", "Bob"]


async def _undo(conn: Conn, version: int | None = None, undo_id: str | None = None
                ) -> dict[str, Any]:
    assert conn.state is not None
    await conn.send({"type": "undo", "id": undo_id or f"u{next(_ids)}",
                     "version": conn.state["version"] if version is None else version})
    return await conn.reply()


def _views(conns: list[Conn]) -> list[Any]:
    return [(c.state["view"], c.state["legal_moves"], c.state["to_act"]) for c in conns]


async def _at(conns: list[Conn], version: int) -> None:
    for conn in conns:
        await conn.until(lambda c: c.state["version"] == version)


async def _takeable_place(api: Api, code: str, seat: int) -> dict[str, Any] | None:
    """A placement `seat` may take back at the deal, judged on the room's state and seed."""
    return takeable_placement(await api.admin("GET", f"/rooms/{code}"), seat)


async def _deal_with_a_takeable_place(api: Api) -> tuple[str, list[Conn], Conn, dict[str, Any]]:
    """A seated five-realms table whose first placement may be taken back (deals are random;
    about one in a hundred has none), and that placement."""
    for _deal in range(30):
        code, _, conns, watcher = await api.seated_table("five-realms", PAIR)
        [seat] = conns[0].state["to_act"]
        place = await _takeable_place(api, code, seat)
        if place is not None:
            return code, conns, watcher, place
        for conn in [*conns, watcher]:
            await conn.close()
    pytest.fail("no deal in 30 had a first placement that may be taken back")


async def test_a_step_is_taken_back_and_every_view_is_restored(api: Api) -> None:
    code, conns, watcher, place = await _deal_with_a_takeable_place(api)
    everyone = [*conns, watcher]
    [seat] = conns[0].state["to_act"]
    mover, other = conns[seat], conns[1 - seat]
    before = _views(everyone)
    assert not mover.state["can_undo"], "nothing to take back at the deal"
    assert (await mover.move(place))["version"] == 1
    await _at(everyone, 1)
    assert mover.state["can_undo"] is True
    assert other.state["can_undo"] is False and watcher.state["can_undo"] is False
    assert _views(everyone) != before, "the placement changed the table"

    reply = await _undo(mover, undo_id="take-1")
    assert reply == {"type": "ack", "id": "take-1", "version": 0}
    await _at(everyone, 0)
    assert _views(everyone) == before, "every seat and the spectator see the deal again"
    assert not mover.state["can_undo"]
    assert await api.call("GET", f"/api/rooms/{code}/moves") == []

    audit = await api.admin("GET", f"/audit?room={code}")
    [line] = [a for a in audit if a["action"] == "take_back"]
    assert line["actor"] == ("Alice", "Bob")[seat]
    assert line["detail"]["text"].startswith("Alice took back" if seat == 0 else "Bob took back")
    assert line["version"] == 1 and line["detail"]["made"] == 0
    told = f"{('Alice', 'Bob')[seat]} took back move 1: "  # the line names the move
    for conn in everyone:  # the players' log: the room's admin_log, after move 0
        await conn.until(lambda c: any(n["text"].startswith(told) and n["version"] == 0
                                       for n in (c.room or {}).get("admin_log") or []))

    # The same id again answers the first result and takes back nothing more.
    assert (await mover.move(place))["version"] == 1
    await _at(everyone, 1)
    assert await _undo(mover, undo_id="take-1") == {"type": "ack", "id": "take-1", "version": 0}
    assert len(await api.call("GET", f"/api/rooms/{code}/moves")) == 1
    for conn in everyone:
        await conn.close()


async def test_no_take_back_once_another_seat_moved_or_from_a_stale_view(api: Api) -> None:
    _, _, conns, watcher = await api.seated_table("five-realms", PAIR)
    [first] = conns[0].state["to_act"]
    # Play the first seat's whole turn, then one step of the other's.
    while conns[first].state["to_act"] == [first]:
        version = conns[first].state["version"]
        assert (await conns[first].move(conns[first].state["legal_moves"][0]))["type"] == "ack"
        await _at([*conns, watcher], version + 1)
    second = conns[1 - first]
    assert second.state["to_act"] == [1 - first] and not conns[first].state["can_undo"]
    refused = await _undo(conns[first])
    assert refused["code"] == "cannot_undo" and "turn has ended" in refused["message"]
    version = second.state["version"]
    assert (await second.move(second.state["legal_moves"][0]))["type"] == "ack"
    await _at(conns, version + 1)
    stale = await _undo(second, version=version)
    assert stale["code"] == "stale"
    refused = await _undo(conns[first])
    assert refused["code"] == "cannot_undo" and "another seat" in refused["message"]
    for conn in [*conns, watcher]:
        await conn.close()


async def test_no_take_back_of_a_move_that_drew_randomness(api: Api) -> None:
    code, _, conns, watcher = await api.seated_table("solomons-temple", PAIR)
    inside = await api.admin("GET", f"/rooms/{code}")
    game = REGISTRY["solomons-temple"]
    state, seed = inside["state"], inside["seed"]
    # Find, with the room's own seed, a move of the seat to act that draws from the RNG.
    for _ in range(40):
        [seat] = game.to_act(state)
        drawing = None
        for move in game.legal_moves(state, seat):
            rng = match_rng(seed, conns[seat].state["version"] + 1)
            game.apply(state, seat, move, rng)
            if rng.drew:
                drawing = move
                break
        version = conns[seat].state["version"]
        move = drawing or game.legal_moves(state, seat)[0]
        assert (await conns[seat].move(move))["type"] == "ack"
        await _at([*conns, watcher], version + 1)
        state = (await api.admin("GET", f"/rooms/{code}"))["state"]
        if drawing is not None:
            break
    else:
        raise AssertionError("no move drew randomness in 40 steps")
    assert not conns[seat].state["can_undo"]
    refused = await _undo(conns[seat])
    assert refused["code"] == "cannot_undo" and "random" in refused["message"]
    assert len(await api.call("GET", f"/api/rooms/{code}/moves")) == version + 1
    for conn in [*conns, watcher]:
        await conn.close()


async def test_a_spectator_cannot_take_back(api: Api) -> None:
    _, _, conns, watcher = await api.seated_table("five-realms", PAIR)
    refused = await _undo(watcher)
    assert refused["code"] == "not_seated"
    for conn in [*conns, watcher]:
        await conn.close()


async def test_a_take_back_gives_back_the_fischer_increment(api: Api) -> None:
    for _deal in range(30):  # deals are random: find one whose first placement may be undone
        people = [await api.player("Alice"), await api.player("Bob")]
        code = await api.room_with("five-realms", people, turn_clock=600, clock_increment=30)
        conns = [await api.connect(code, p["token"]) for p in people]
        await api.start(code, people[0])
        for conn in conns:
            await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
        [seat] = conns[0].state["to_act"]
        place = await _takeable_place(api, code, seat)
        if place is not None:
            break
        for conn in conns:
            await conn.close()
    else:
        pytest.fail("no deal in 30 had a first placement that may be taken back")
    mover = conns[seat]
    assert (await mover.move(place))["type"] == "ack"
    await mover.until(lambda c: c.state["version"] == 1)
    earned = mover.state["clock_banks"][str(seat)]  # seconds left, increment included
    assert (await _undo(mover))["type"] == "ack"
    await mover.until(lambda c: c.state["version"] == 0)
    # Both as of the taken-back move's time: time spent stays spent, the 30 s go back.
    assert round(earned - mover.state["clock_banks"][str(seat)], 3) == 30
    for conn in conns:
        await conn.close()


def _two_steps(game: Any, state: dict, seat: int, seed: str) -> list[dict] | None:
    """Two steps in a row that `seat` may take back from `state`, chosen with the room's seed
    as the server will judge them, or None when this deal has none."""
    steps = []
    for version in (1, 2):
        for move in game.legal_moves(state, seat):
            rng = match_rng(seed, version)
            after, _ = game.apply(state, seat, move, rng)
            if may_take_back(game, state, seat, move, after, rng.drew):
                steps.append(move)
                state = after
                break
        else:
            return None
    return steps


async def test_several_steps_of_one_turn_are_taken_back_one_by_one(api: Api) -> None:
    game = REGISTRY["five-realms"]
    for _deal in range(30):  # deals are random: find one whose first turn has two such steps
        code, _, conns, watcher = await api.seated_table("five-realms", PAIR)
        [seat] = conns[0].state["to_act"]
        inside = await api.admin("GET", f"/rooms/{code}")
        steps = _two_steps(game, inside["state"], seat, inside["seed"])
        if steps is not None:
            break
        for conn in [*conns, watcher]:
            await conn.close()
    else:
        pytest.fail("no deal in 30 had a first turn of two steps that may be taken back")
    mover = conns[seat]
    deal = _views([*conns, watcher])
    for version, step in enumerate(steps, start=1):
        assert (await mover.move(step))["version"] == version
        await _at([*conns, watcher], version)
        assert mover.state["can_undo"]
    assert (await _undo(mover))["version"] == 1
    await _at([*conns, watcher], 1)
    assert mover.state["can_undo"], "the turn's first step may be taken back in turn"
    assert (await _undo(mover))["version"] == 0
    await _at([*conns, watcher], 0)
    assert _views([*conns, watcher]) == deal and not mover.state["can_undo"]
    for conn in [*conns, watcher]:
        await conn.close()
