"""Issue 11: tokens outside the URL (a websocket subprotocol), token expiry and renewal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest
import websockets

from tests.api.client import Api
from tests.server import Server, postgres_database, running_server

TTL_DAYS = 30


@pytest.fixture(scope="module")
def db_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


@pytest.fixture(scope="module")
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url, TOKEN_TTL_DAYS=str(TTL_DAYS)) as srv:
        yield srv


async def _renewed_days_ago(db_url: str, player_id: str, days: float) -> None:
    """Pretend the token was issued (or last renewed) `days` ago."""
    conn = await asyncpg.connect(db_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute("UPDATE devices SET renewed_at = $1 WHERE player_id = $2",
                           datetime.now(UTC) - timedelta(days=days), player_id)
    finally:
        await conn.close()


async def test_the_token_can_travel_as_a_subprotocol(api: Api, server: Server) -> None:
    host = await api.player("H")
    room = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    async with websockets.connect(f"{server.ws_url}/api/rooms/{room['code']}/ws",
                                  subprotocols=["ziggurat", f"bearer.{host['token']}"]) as ws:
        assert ws.subprotocol == "ziggurat", "the server never echoes the token back"
        greeting = json.loads(await ws.recv())
        assert greeting["type"] == "room"
        assert greeting["room"]["seats"][0]["connected"], "the socket counts as the host's"


async def test_a_new_token_says_when_it_expires(api: Api) -> None:
    player = await api.player("P")
    expires = datetime.fromisoformat(player["expires_at"])
    assert timedelta(days=TTL_DAYS - 1) < expires - datetime.now(UTC) <= timedelta(days=TTL_DAYS)
    assert datetime.fromisoformat(player["renew_after"]) < expires


async def test_an_expired_token_is_refused_over_rest_and_websocket(
        api: Api, db_url: str) -> None:
    player = await api.player("Old")
    room = await api.call("POST", "/api/rooms", player["token"], 201,
                          json={"game": "gem-pyramid"})
    await _renewed_days_ago(db_url, player["id"], TTL_DAYS + 1)
    body = await api.call("GET", "/api/players/me", player["token"], 401)
    assert body["error"]["code"] == "token_expired"
    body = await api.call("POST", "/api/players/me/renew", player["token"], 401)
    assert body["error"]["code"] == "token_expired", "an expired token cannot renew itself"
    conn = await api.connect(room["code"], player["token"])
    assert (await conn.reply())["code"] == "token_expired"
    assert conn.reader is not None
    await conn.reader
    assert conn.ws.close_code == 4401


async def test_renewing_pushes_the_expiry_back_and_keeps_the_token(
        api: Api, db_url: str) -> None:
    player = await api.player("Regular")
    await _renewed_days_ago(db_url, player["id"], TTL_DAYS - 1)
    before = await api.call("GET", "/api/players/me", player["token"])
    assert datetime.fromisoformat(before["renew_after"]) < datetime.now(UTC)
    after = await api.call("POST", "/api/players/me/renew", player["token"])
    assert datetime.fromisoformat(after["expires_at"]) > \
        datetime.fromisoformat(before["expires_at"]) + timedelta(days=TTL_DAYS - 2)
    assert (await api.call("GET", "/api/players/me", player["token"]))["id"] == player["id"]
