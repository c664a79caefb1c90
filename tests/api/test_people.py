"""Issue 35: one player on several devices. Link codes, the devices list, signing a device out
(REST and its sockets, also across two processes), "Your games", passkey challenges, and the
migration that turns every player's one token into their first device."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text

from app.guard.auth import hash_token
from app.store.db import make_engine
from app.store.models import utcnow
from tests.api.client import Api, Conn, play_to_end
from tests.api.softkey import SoftPasskey
from tests.server import Server, database, postgres_database, running_server

PHONE = {"User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                       "(KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"}
LAPTOP = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"}
ORIGIN = "https://games.example.org"  # the module's servers' PUBLIC_URL
CLOSE_WITHIN = 5  # seconds: a signed-out device's sockets close within this, on every process
TRIES = 20  # link codes an address may try per minute in this module's server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest) -> Iterator[tuple[Server, str]]:
    with database(request.param) as url, running_server(
            url, PUBLIC_URL=ORIGIN, LINKS_PER_MINUTE_PER_PLAYER="4",
            LINK_TRIES_PER_MINUTE_PER_ADDRESS=str(TRIES)) as srv:
        yield srv, url


@pytest.fixture
async def api(served: tuple[Server, str]) -> AsyncIterator[Api]:
    client = Api(served[0].url)
    yield client
    await client.close()


async def _player(api: Api, name: str) -> dict[str, Any]:
    response = await api.http.post("/api/players", json={"name": name}, headers=LAPTOP)
    assert response.status_code == 201, response.text
    return response.json()


async def _link(api: Api, player: dict[str, Any]) -> dict[str, Any]:
    """A second device for `player`, signed in by a link code: its `{id, name, token}`."""
    link = await api.call("POST", "/api/players/me/links", player["token"], 201)
    return await api.call("POST", "/api/players/link", json={"code": link["code"]},
                          headers=PHONE)


async def _sql(url: str, statement: str, **params: Any) -> list[Any]:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            result = await conn.execute(text(statement), params)
            return list(result.all()) if result.returns_rows else []
    finally:
        await engine.dispose()


async def _closed(conn: Conn) -> int:
    """The close code of a socket the server closes, waited for."""
    assert conn.reader is not None
    await asyncio.wait_for(conn.reader, CLOSE_WITHIN)
    return conn.ws.close_code


async def test_a_link_code_signs_another_device_in_as_the_same_player(api: Api) -> None:
    laptop = await _player(api, "Ann")
    link = await api.call("POST", "/api/players/me/links", laptop["token"], 201)
    assert set(link) >= {"code", "url", "expires_at"}
    assert link["url"] == f"https://games.example.org/link#{link['code']}", "PUBLIC_URL"
    assert link["qr_svg"].startswith("<svg") and "</svg>" in link["qr_svg"]
    life = utcnow() + timedelta(minutes=10) - _when(link["expires_at"])
    assert timedelta(0) <= life < timedelta(minutes=1), "a code lasts ten minutes"

    typed = link["code"].lower().replace("-", " ")  # as a person may type it
    phone = await api.call("POST", "/api/players/link", json={"code": typed}, headers=PHONE)
    assert (phone["id"], phone["name"]) == (laptop["id"], "Ann")
    assert phone["token"] != laptop["token"], "each device gets a token of its own"
    assert phone["expires_at"]
    me = await api.call("GET", "/api/players/me", phone["token"])
    assert me["id"] == laptop["id"]

    again = await api.call("POST", "/api/players/link", json={"code": link["code"]},
                           expect=410)
    assert again["error"]["code"] == "link_used", "a code works once"
    unknown = await api.call("POST", "/api/players/link", json={"code": "AAAA-AAAA"},
                             expect=404)
    assert unknown["error"]["code"] == "link_unknown"
    short = await api.call("POST", "/api/players/link", json={"code": "ABC"}, expect=422)
    assert short["error"]["code"] == "bad_link_code"
    refused = await api.call("POST", "/api/players/me/links", expect=401)
    assert refused["error"]["code"] == "no_token"


async def test_an_expired_link_code_is_refused(api: Api, served: tuple[Server, str]) -> None:
    player = await _player(api, "Late")
    link = await api.call("POST", "/api/players/me/links", player["token"], 201)
    await _sql(served[1], "UPDATE link_codes SET expires_at = :at",
               at=utcnow() - timedelta(seconds=1))
    body = await api.call("POST", "/api/players/link", json={"code": link["code"]}, expect=410)
    assert body["error"]["code"] == "link_expired"


async def test_link_codes_are_rate_limited_per_player(api: Api) -> None:
    player = await _player(api, "Eager")
    for _ in range(4):
        await api.call("POST", "/api/players/me/links", player["token"], 201)
    body = await api.call("POST", "/api/players/me/links", player["token"], 429)
    assert body["error"]["code"] == "rate_limited"


async def test_the_devices_list_and_signing_one_out(api: Api, served: tuple[Server, str]
                                                    ) -> None:
    laptop = await _player(api, "Bo")
    phone = await _link(api, laptop)
    listed = await api.call("GET", "/api/players/me/devices", laptop["token"])
    assert [d["current"] for d in listed] == [True, False], "this device first"
    assert [d["label"] for d in listed] == ["Firefox on Linux", "Chrome on Android"]
    assert all(set(d) >= {"id", "label", "created_at", "last_seen", "current"}
               for d in listed)
    phone_id = listed[1]["id"]
    rows = await _sql(served[1], "SELECT token_hash FROM devices WHERE id = :id", id=phone_id)
    assert rows == [(hash_token(phone["token"]),)], "only the token's hash is kept"

    room = await api.call("POST", "/api/rooms", laptop["token"], 201, json={"game": "gem-pyramid"})
    socket = await api.connect(room["code"], phone["token"])
    await socket.until(lambda c: c.room is not None)
    response = await api.http.delete(f"/api/players/me/devices/{phone_id}",
                                     headers={"Authorization": f"Bearer {laptop['token']}"})
    assert response.status_code == 204
    refused = await api.call("GET", "/api/players/me", phone["token"], 401)
    assert refused["error"]["code"] == "signed_out", "refused at once"
    assert await _closed(socket) == 4401, "its open socket is closed"
    reopened = await api.connect(room["code"], phone["token"])
    assert (await reopened.reply())["code"] == "signed_out"
    assert await _closed(reopened) == 4401
    assert (await api.call("GET", "/api/players/me", laptop["token"]))["id"] == laptop["id"]
    assert [d["id"] for d in await api.call("GET", "/api/players/me/devices",
                                            laptop["token"])] == [listed[0]["id"]]
    gone = await api.call("DELETE", f"/api/players/me/devices/{phone_id}", laptop["token"], 404)
    assert gone["error"]["code"] == "device_not_found"
    other = await _player(api, "Stranger")
    theirs = await api.call("DELETE", f"/api/players/me/devices/{listed[0]['id']}",
                            other["token"], 404)
    assert theirs["error"]["code"] == "device_not_found", "nobody signs out another's device"


async def test_sign_out_everywhere_else(api: Api) -> None:
    laptop = await _player(api, "Cy")
    phones = [await _link(api, laptop) for _ in range(2)]
    body = await api.call("POST", "/api/players/me/devices/sign-out-others", phones[0]["token"])
    assert body == {"signed_out": 2}
    for gone in (laptop, phones[1]):
        refused = await api.call("GET", "/api/players/me", gone["token"], 401)
        assert refused["error"]["code"] == "signed_out"
    assert len(await api.call("GET", "/api/players/me/devices", phones[0]["token"])) == 1


async def test_each_device_renews_its_own_token(api: Api, served: tuple[Server, str]) -> None:
    laptop = await _player(api, "Hal")
    phone = await _link(api, laptop)
    await _sql(served[1], "UPDATE devices SET renewed_at = :at WHERE player_id = :id",
               at=utcnow() - timedelta(days=20), id=laptop["id"])
    renewed = await api.call("POST", "/api/players/me/renew", phone["token"])
    assert _when(renewed["expires_at"]) > utcnow() + timedelta(days=29)
    kept = await api.call("GET", "/api/players/me", laptop["token"])
    assert _when(kept["expires_at"]) < utcnow() + timedelta(days=11), \
        "renewing the phone's token leaves the laptop's as it was"


async def test_your_games_come_from_the_server_most_urgent_first(api: Api) -> None:
    me, other = await _player(api, "Di"), await _player(api, "Ed")
    lobby = await api.call("POST", "/api/rooms", me["token"], 201, json={"game": "gem-pyramid"})
    finished = await api.room_with("gem-pyramid", [me, other])
    conns = [await api.connect(finished, p["token"]) for p in (me, other)]
    await api.start(finished, me)
    await play_to_end(conns, random.Random(35))
    waiting = await api.room_with("gem-pyramid", [other, me], turn_clock=600)
    mine = await api.room_with("gem-pyramid", [me, other], turn_clock=600)
    for code in (waiting, mine):
        await api.start(code, me if code == mine else other)
    await api.call("POST", "/api/rooms", other["token"], 201, json={"game": "gem-pyramid"})

    phone = await _link(api, me)  # whatever device it was joined from
    games = await api.call("GET", "/api/players/me/rooms", phone["token"])
    order = [g["code"] for g in games]
    assert order == [mine, waiting, lobby["code"], finished], "only the player's, in order"
    first = games[0]
    assert first["your_turn"] is True and first["status"] == "active"
    assert first["deadline"], "your turn shows the time left on its clock"
    assert first["players"] == ["Di", "Ed"] and first["game"] == "gem-pyramid"
    assert first["seats"][0]["player"]["id"] == me["id"], "the room's public fields too"
    assert games[1]["your_turn"] is False and games[1]["deadline"] is None
    assert games[2]["status"] == "lobby"
    result = games[3]["result"]
    assert games[3]["status"] == "finished" and result["rank"] in (1, 2)
    assert result["won"] == (result["rank"] == 1)
    for conn in conns:
        await conn.close()


async def test_passkey_challenges_are_single_use_and_checked(api: Api) -> None:
    player = await _player(api, "Fay")
    made = await api.call("POST", "/api/players/me/passkeys/options", player["token"])
    options = made["options"]
    assert options["rp"] == {"id": "games.example.org", "name": "Ziggurat"}, "from PUBLIC_URL"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
              "response": {"clientDataJSON": "AAAA", "attestationObject": "AAAA"}}
    bad = await api.call("POST", "/api/players/me/passkeys", player["token"], 400,
                         json={"challenge_id": made["challenge_id"], "credential": forged})
    assert bad["error"]["code"] == "bad_passkey"
    used = await api.call("POST", "/api/players/me/passkeys", player["token"], 400,
                          json={"challenge_id": made["challenge_id"], "credential": forged})
    assert used["error"]["code"] == "bad_challenge", "a challenge is answered once"
    asked = await api.call("POST", "/api/players/passkeys/options")
    assert asked["options"]["rpId"] == "games.example.org"
    unknown = await api.call("POST", "/api/players/passkeys/sign-in", expect=401,
                             json={"challenge_id": asked["challenge_id"], "credential": forged})
    assert unknown["error"]["code"] == "unknown_passkey"


async def test_a_passkey_signs_a_new_device_in_as_its_player(api: Api) -> None:
    player = await _player(api, "Gus")
    key = SoftPasskey()
    asked = await api.call("POST", "/api/players/me/passkeys/options", player["token"])
    made = await api.call("POST", "/api/players/me/passkeys", player["token"], 201, json={
        "challenge_id": asked["challenge_id"], "credential": key.create(asked["options"], ORIGIN)})
    assert made["id"]
    again = await api.call("POST", "/api/players/me/passkeys/options", player["token"])
    assert [c["id"] for c in again["options"]["excludeCredentials"]] == [made["id"]]

    asked = await api.call("POST", "/api/players/passkeys/options")
    answer = key.get(asked["options"], ORIGIN)
    device = await api.call("POST", "/api/players/passkeys/sign-in", headers=PHONE,
                            json={"challenge_id": asked["challenge_id"], "credential": answer})
    assert (device["id"], device["name"]) == (player["id"], "Gus")
    assert device["token"] != player["token"]
    assert (await api.call("GET", "/api/players/me", device["token"]))["id"] == player["id"]
    replayed = await api.call("POST", "/api/players/passkeys/sign-in", expect=400,
                              json={"challenge_id": asked["challenge_id"], "credential": answer})
    assert replayed["error"]["code"] == "bad_challenge", "a challenge signs in once"

    asked = await api.call("POST", "/api/players/passkeys/options")
    elsewhere = key.get(asked["options"], "https://evil.example.org")
    refused = await api.call("POST", "/api/players/passkeys/sign-in", expect=401,
                             json={"challenge_id": asked["challenge_id"], "credential": elsewhere})
    assert refused["error"]["code"] == "bad_passkey", "another site's answer is refused"
    assert len(await api.call("GET", "/api/players/me/devices", player["token"])) == 2

    for junk in ({}, {"id": made["id"], "response": {"clientDataJSON": 5}}):
        asked = await api.call("POST", "/api/players/passkeys/options")
        refused = await api.call("POST", "/api/players/passkeys/sign-in", expect=401,
                                 json={"challenge_id": asked["challenge_id"], "credential": junk})
        assert refused["error"]["code"] in ("unknown_passkey", "bad_passkey")
    asked = await api.call("POST", "/api/players/me/passkeys/options", player["token"])
    refused = await api.call("POST", "/api/players/me/passkeys", player["token"], 400,
                             json={"challenge_id": asked["challenge_id"], "credential": {}})
    assert refused["error"]["code"] == "bad_passkey", "a malformed answer is a 400, not a 500"


async def test_link_code_tries_are_rate_limited_per_address(api: Api) -> None:
    """Last in the module: it spends the address's tries. The bucket refills TRIES a minute, so
    a slow machine earns a few more tries while it sends: they are counted, not assumed away."""
    started = time.monotonic()
    answers = [await api.http.post("/api/players/link", json={"code": "ZZZZ-ZZZZ"})
               for _ in range(2 * TRIES)]
    refilled = (time.monotonic() - started) * TRIES / 60
    statuses = [a.status_code for a in answers]
    assert set(statuses) == {404, 429}, statuses
    # Earlier tests of the module tried codes from this address too: at most TRIES are left.
    assert statuses.count(404) <= TRIES + refilled + 1, statuses
    assert statuses[0] == 404, "the address had tries left"
    limited = next(a for a in answers if a.status_code == 429)
    assert limited.json()["error"]["code"] == "rate_limited"


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


# -- across processes -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_servers() -> Iterator[tuple[Server, Server]]:
    with postgres_database() as url, running_server(url) as one, running_server(url) as two:
        yield one, two


async def test_signing_out_closes_the_devices_sockets_on_another_process(
        two_servers: tuple[Server, Server]) -> None:
    here, there = Api(two_servers[0].url), Api(two_servers[1].url)
    laptop = await here.player("Gil")
    phone = await _link(here, laptop)
    room = await here.call("POST", "/api/rooms", laptop["token"], 201,
                           json={"game": "gem-pyramid"})
    # The other process knows the phone's token (it holds players by token) and its socket.
    assert (await there.call("POST", "/api/rooms", phone["token"], 201,
                             json={"game": "gem-pyramid"}))["host"] == laptop["id"]
    socket = await there.connect(room["code"], phone["token"])
    await socket.until(lambda c: c.room is not None)
    phone_id = next(d["id"] for d in await here.call("GET", "/api/players/me/devices",
                                                     laptop["token"]) if not d["current"])
    response = await here.http.delete(f"/api/players/me/devices/{phone_id}",
                                      headers={"Authorization": f"Bearer {laptop['token']}"})
    assert response.status_code == 204
    assert (await here.call("GET", "/api/players/me", phone["token"], 401)
            )["error"]["code"] == "signed_out"
    assert await _closed(socket) == 4401, "closed by the other process within 5 s"
    refused = await there.call("POST", "/api/rooms", phone["token"], 401,
                               json={"game": "gem-pyramid"})
    assert refused["error"]["code"] == "signed_out", "the other process forgot its copy"
    assert (await there.call("GET", "/api/players/me", laptop["token"]))["id"] == laptop["id"]
    for api in (here, there):
        await api.close()


# -- the migration --------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_players_and_tokens_from_before_keep_working(kind: str) -> None:
    from alembic import command

    from app.store.migrate import alembic_config

    token = "a-token-issued-before-devices-existed"
    with database(kind) as url:
        await asyncio.to_thread(command.upgrade, alembic_config(url), "0013")
        await _sql(url, "INSERT INTO players (id, name, token_hash, created_at, token_renewed_at)"
                   " VALUES ('old1', 'Old', :hash, :made, :renewed)", hash=hash_token(token),
                   made=utcnow() - timedelta(days=20), renewed=utcnow() - timedelta(days=2))
        await _sql(url, "INSERT INTO rooms (code, game, options, status, host_id, private, seed,"
                   " version, created_at, updated_at, spectators_muted) VALUES ('abc-def-ghj',"
                   " 'gem-pyramid', '{}', 'lobby', 'old1', true, 's', 0, :at, :at, false)",
                   at=utcnow())
        await _sql(url, "INSERT INTO seats (room_code, seat, player_id, connections) VALUES"
                   " ('abc-def-ghj', 0, 'old1', 0), ('abc-def-ghj', 1, NULL, 0)")
        with running_server(url) as server:  # migrates to head on start
            api = Api(server.url)
            me = await api.call("GET", "/api/players/me", token)
            assert (me["id"], me["name"]) == ("old1", "Old")
            assert _when(me["expires_at"]) > utcnow() + timedelta(days=27), \
                "the token keeps its renewal time"
            devices = await api.call("GET", "/api/players/me/devices", token)
            assert [d["current"] for d in devices] == [True]
            games = await api.call("GET", "/api/players/me/rooms", token)
            assert [(g["code"], g["seat"]) for g in games] == [("abc-def-ghj", 0)]
            conn = await api.connect("abc-def-ghj", token)
            await conn.until(lambda c: c.room is not None and c.room["seats"][0]["connected"])
            await conn.close()
            await api.close()
