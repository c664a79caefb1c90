"""Bad input over the websocket: each refusal has a code, changes nothing, and the
connection stays usable."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import pytest
import websockets

from tests.api.client import Api
from tests.server import Server, database, running_server

BAD = [
    ("{not json", "bad_message"),
    ("[1, 2]", "bad_message"),
    (json.dumps({"no": "type"}), "bad_message"),
    (json.dumps({"type": "dance"}), "unknown_type"),
    (json.dumps({"type": "move"}), "bad_message"),
    (json.dumps({"type": "move", "id": 5, "version": 0, "move": {}}), "bad_message"),
    (json.dumps({"type": "move", "id": "x", "version": "0", "move": {}}), "bad_message"),
    (json.dumps({"type": "move", "id": "x", "version": 0, "move": "place"}), "bad_message"),
    (json.dumps({"type": "move", "id": "x" * 65, "version": 0, "move": {}}), "bad_message"),
    (json.dumps({"type": "move", "id": "y", "version": 0, "move": {"type": "place"}}),
     "illegal_move"),
    (json.dumps({"type": "move", "id": "z", "version": 0,
                 "move": {"type": "place", "gem": "red", "row": 8, "pos": 0}}), "illegal_move"),
    ("x" * 20_000, "message_too_large"),
]


async def test_malformed_messages_are_refused_and_change_nothing(api: Api) -> None:
    code, _, (ca, _) = await api.started_pair()
    for raw, expected in BAD:
        await ca.send(raw)
        reply = await ca.reply()
        assert reply["type"] == "error" and reply["code"] == expected, (raw[:60], reply)
        assert reply["message"]
    await ca.ws.send(b"\x00binary")
    assert (await ca.reply())["code"] == "bad_message"
    await ca.send({"type": "ping"})
    assert (await ca.reply()) == {"type": "pong"}, "the connection is still usable"
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 0


async def test_moves_out_of_turn_and_by_spectators_are_refused(api: Api) -> None:
    code, _, (ca, cb) = await api.started_pair()
    legal = ca.state["legal_moves"][0]
    reply = await cb.move(legal)
    assert reply["code"] == "not_your_turn"
    watcher = await api.connect(code)
    await watcher.until(lambda c: c.state is not None)
    assert (await watcher.move(legal))["code"] == "not_seated"
    assert watcher.state["legal_moves"] == []
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 0
    assert (await ca.move(legal))["type"] == "ack", "the right seat still can"


@pytest.fixture(scope="module")
def strict_server() -> Iterator[Server]:
    """A server with a tight flood limit: 5 messages a second, bursts of 20."""
    with database("sqlite") as url, running_server(url, RATE_PER_SECOND="5",
                                                   RATE_BURST="20") as server:
        yield server


async def test_floods_are_rate_limited_and_the_connection_recovers(
        strict_server: Server) -> None:
    api = Api(strict_server.url)
    _, _, (ca, _) = await api.started_pair()
    started = time.monotonic()
    for _ in range(100):
        await ca.send({"type": "ping"})
    replies = [await ca.reply() for _ in range(100)]
    elapsed = time.monotonic() - started
    codes = {r.get("code") for r in replies if r["type"] == "error"}
    assert codes == {"rate_limited"}
    pongs = sum(r["type"] == "pong" for r in replies)
    # The burst of 20, plus what 5 a second refilled while the server worked through them.
    assert 20 <= pongs <= 20 + 5 * elapsed + 1, (pongs, elapsed)
    await asyncio.sleep(1)
    await ca.send({"type": "ping"})
    assert await ca.reply() == {"type": "pong"}
    await api.close()


async def test_binary_and_oversize_frames_count_against_the_rate_limit(
        strict_server: Server) -> None:
    api = Api(strict_server.url)
    _, _, (ca, _) = await api.started_pair()
    for n in range(60):
        await ca.ws.send(b"\x00" * 10 if n % 2 else "x" * 20_000)
    codes = [(await ca.reply())["code"] for _ in range(60)]
    assert "rate_limited" in codes, "binary and oversize frames bypassed the rate limit"
    await api.close()


@pytest.mark.parametrize(("path", "code"), [("zzz-zzz-zzz", "room_not_found"),
                                            ("bogus", "room_not_found")])
async def test_unknown_rooms_are_refused_on_connect(api: Api, path: str, code: str) -> None:
    async with websockets.connect(f"{api.ws_base}/api/rooms/{path}/ws") as ws:
        reply = json.loads(await ws.recv())
        assert reply["type"] == "error" and reply["code"] == code


async def test_bad_tokens_are_refused_on_connect(api: Api) -> None:
    host = await api.player("Host")
    room = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    async with websockets.connect(f"{api.ws_base}/api/rooms/{room['code']}/ws?token=forged") as ws:
        reply = json.loads(await ws.recv())
        assert reply["code"] == "bad_token"


async def test_moves_before_the_start_are_refused(api: Api) -> None:
    a, b = await api.player("A"), await api.player("B")
    code = await api.room_with("gem-pyramid", [a, b])
    ca = await api.connect(code, a["token"])
    await ca.until(lambda c: c.state is not None)
    assert ca.state["status"] == "lobby" and ca.state["view"] is None
    reply = await ca.move({"type": "place", "gem": "red", "row": 0, "pos": 4})
    assert reply["code"] == "not_started"
