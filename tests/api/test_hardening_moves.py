"""Issue 24, item 1: a move equal to a legal one only by Python's `==` (2.0 or true for 2) is
refused by the platform, and the room plays on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.client import Api, Conn


def _int_field(move: dict[str, Any]) -> str | None:
    return next((key for key, value in move.items() if type(value) is int), None)


async def _seat_with_an_int_move(conns: list[Conn]) -> tuple[Conn, dict[str, Any], str]:
    """Play first legal moves until a seat to act has a legal move with a whole number in it
    (both games offer one at once or within a few moves)."""
    for _ in range(60):
        for conn in conns:
            assert conn.state is not None
            for move in conn.state["legal_moves"]:
                key = _int_field(move)
                if key is not None:
                    return conn, move, key
        mover = next(c for c in conns if c.state and c.state["legal_moves"])
        seen = mover.state["version"]
        assert (await mover.move(mover.state["legal_moves"][0]))["type"] == "ack"
        for conn in conns:
            await conn.until(lambda c, seen=seen: c.state["version"] > seen)
    raise AssertionError("no legal move with a whole number came up")


@pytest.mark.parametrize("game", ["temple-of-five", "gem-pyramid"])
@pytest.mark.parametrize("loose", [float, bool, str])
async def test_a_move_equal_only_loosely_is_illegal_and_the_room_stays_active(
        api: Api, game: str, loose: type) -> None:
    code, _, conns = await api.started_pair(game)
    conn, move, key = await _seat_with_an_int_move(conns)
    version = conn.state["version"]
    reply = await conn.move({**move, key: loose(move[key])})
    assert reply["type"] == "error" and reply["code"] == "illegal_move", reply
    assert reply["message"]
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["status"] == "active" and room["version"] == version, "nothing was applied"
    assert (await conn.move(move))["type"] == "ack", "the exact move still plays"
    stored = (await api.admin("GET", f"/rooms/{code}"))["log"][-1]["move"]
    assert stored == move and type(stored[key]) is int, "the move is stored as offered"
    for each in conns:
        await each.close()
