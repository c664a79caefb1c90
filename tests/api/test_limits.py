"""Issue 11: per-identity and per-address limits, and the throttle on guessing.

One server with the limits lowered; each test speaks from its own address (uvicorn takes
X-Forwarded-For from a trusted local proxy), so the tests do not spend each other's quotas.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import websockets

from tests.api.client import Api
from tests.server import ADMIN_TOKEN, Server, database, running_server

LIMITS = {"PLAYERS_PER_MINUTE_PER_ADDRESS": "5", "ROOMS_PER_MINUTE_PER_PLAYER": "2",
          "ROOMS_PER_MINUTE_PER_ADDRESS": "3", "JOINS_PER_MINUTE_PER_PLAYER": "2",
          "JOINS_PER_MINUTE_PER_ADDRESS": "3", "FAILURES_PER_MINUTE_PER_ADDRESS": "4",
          "SOCKETS_PER_PLAYER": "2", "SOCKETS_PER_ANONYMOUS_ADDRESS": "2", "SOCKETS_PER_ROOM": "5"}
_addresses = (f"10.11.0.{n}" for n in itertools.count(1))


@pytest.fixture(scope="module")
def limited_server() -> Iterator[Server]:
    with database("postgres") as url, running_server(url, **LIMITS) as srv:
        yield srv


@pytest.fixture
async def api(limited_server: Server) -> AsyncIterator[Api]:
    """A client with an address of its own."""
    client = Api(limited_server.url)
    client.http.headers["X-Forwarded-For"] = next(_addresses)
    yield client
    await client.close()


def assert_limited(body: dict[str, Any]) -> None:
    assert body["error"]["code"] == "rate_limited"
    assert "wait" in body["error"]["message"]


async def test_new_players_per_address_are_limited(api: Api) -> None:
    for n in range(5):
        await api.player(f"P{n}")
    assert_limited(await api.call("POST", "/api/players", json={"name": "P6"}, expect=429))
    other = Api(str(api.http.base_url))
    other.http.headers["X-Forwarded-For"] = next(_addresses)
    await other.player("elsewhere")
    await other.close()


async def test_new_rooms_per_player_and_per_address_are_limited(api: Api) -> None:
    first, second = await api.player("A"), await api.player("B")
    for _ in range(2):
        await api.call("POST", "/api/rooms", first["token"], 201, json={"game": "gem-pyramid"})
    body = await api.call("POST", "/api/rooms", first["token"], 429,
                          json={"game": "gem-pyramid"})
    assert_limited(body)
    assert "You have made too many new rooms" in body["error"]["message"]
    room = await api.call("POST", "/api/rooms", second["token"], 201,
                          json={"game": "gem-pyramid"})
    body = await api.call("POST", "/api/rooms", second["token"], 429,
                          json={"game": "gem-pyramid"})
    assert "from your network address" in body["error"]["message"]
    assert_limited(await api.call("POST", f"/api/rooms/{room['code']}/again",
                                  second["token"], 429))


async def test_joins_per_player_and_per_address_are_limited(api: Api) -> None:
    host, guest, third = await api.player("H"), await api.player("G"), await api.player("T")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 3})
    join = f"/api/rooms/{room['code']}/join"
    await api.call("POST", join, guest["token"])
    await api.call("POST", join, guest["token"])  # a retry counts too
    assert_limited(await api.call("POST", join, guest["token"], 429))
    await api.call("POST", join, third["token"])
    assert_limited(await api.call("POST", join, third["token"], 429))


async def test_guessing_room_codes_is_throttled_right_answers_included(
        api: Api, limited_server: Server) -> None:
    host = await api.player("H")
    room = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    for n in range(4):
        await api.call("GET", f"/api/rooms/abc-def-gh{n + 2}", expect=404)
    assert_limited(await api.call("GET", f"/api/rooms/{room['code']}", expect=429))
    async with websockets.connect(
            f"{limited_server.ws_url}/api/rooms/{room['code']}/ws",
            additional_headers={"X-Forwarded-For": api.http.headers["X-Forwarded-For"]}) as ws:
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4429
    await api.call("GET", "/api/games")  # the rest of the API is still open to this address
    other = Api(str(api.http.base_url))
    other.http.headers["X-Forwarded-For"] = next(_addresses)
    await other.call("GET", f"/api/rooms/{room['code']}")
    await other.close()


async def test_unknown_rooms_over_the_websocket_count_as_guesses(
        api: Api, limited_server: Server) -> None:
    where = {"X-Forwarded-For": api.http.headers["X-Forwarded-For"]}
    for n in range(4):
        async with websockets.connect(f"{limited_server.ws_url}/api/rooms/abc-def-gh{n + 2}/ws",
                                      additional_headers=where) as ws:
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await ws.recv()
            assert ws.close_code == 4404
    await api.call("GET", "/api/rooms/abc-def-ghj", expect=429)


async def test_guessing_the_admin_token_is_throttled(api: Api) -> None:
    for _ in range(4):
        await api.call("GET", "/api/admin/rooms", "not-the-token", expect=403)
    assert_limited(await api.call("GET", "/api/admin/rooms", ADMIN_TOKEN, expect=429))


async def _open(server: Server, code: str, address: str, token: str | None = None) -> Any:
    query = f"?token={token}" if token else ""
    ws = await websockets.connect(f"{server.ws_url}/api/rooms/{code}/ws{query}",
                                  additional_headers={"X-Forwarded-For": address})
    first = json.loads(await ws.recv())
    return ws, first


async def _refused(server: Server, code: str, address: str, token: str | None = None) -> None:
    ws, first = await _open(server, code, address, token)
    assert first["type"] == "error" and first["code"] == "too_many_connections", first
    with pytest.raises(websockets.ConnectionClosed):
        await ws.recv()
    assert ws.close_code == 4429


async def _room(api: Api) -> tuple[str, dict[str, Any]]:
    host = await api.player("H")
    room = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    return room["code"], host


async def test_sockets_per_player_are_capped(api: Api, limited_server: Server) -> None:
    code, host = await _room(api)
    here = api.http.headers["X-Forwarded-For"]
    held = [(await _open(limited_server, code, here, host["token"]))[0] for _ in range(2)]
    await _refused(limited_server, code, here, host["token"])
    await held.pop().close()
    for _ in range(50):  # the server notices the close a moment later
        ws, first = await _open(limited_server, code, here, host["token"])
        held.append(ws)
        if first["type"] != "error":
            break
        await asyncio.sleep(0.1)
    assert first["type"] != "error", "the freed place was never given back"
    for ws in held:
        await ws.close()


async def test_anonymous_sockets_per_address_and_sockets_per_room_are_capped(
        api: Api, limited_server: Server) -> None:
    code, _ = await _room(api)
    here = api.http.headers["X-Forwarded-For"]
    held = [(await _open(limited_server, code, here))[0] for _ in range(2)]
    await _refused(limited_server, code, here)
    others = [next(_addresses) for _ in range(4)]
    held += [(await _open(limited_server, code, where))[0] for where in others[:3]]
    await _refused(limited_server, code, others[3])  # six would be one too many in one room
    for ws in held:
        await ws.close()
