"""Issue 11: ids, names and characters an outsider could use against the server."""

from __future__ import annotations

import asyncio

import pytest

from tests.api.client import Api
from tests.server import WS_MAX_SIZE


@pytest.mark.parametrize("move_id", ["~bot:1:1", "~admin:0:0"])
async def test_a_player_cannot_use_the_platforms_move_ids(api: Api, move_id: str) -> None:
    _, _, (ca, cb) = await api.started_pair()
    reply = await ca.move(ca.state["legal_moves"][0], move_id=move_id)
    assert reply["type"] == "error" and reply["code"] == "reserved_id"
    assert ca.state["version"] == 0, "a refused move changes nothing"
    await ca.close()
    await cb.close()


async def test_a_nul_in_a_move_id_is_refused_with_a_code_and_the_socket_stays(api: Api) -> None:
    _, _, (ca, cb) = await api.started_pair()
    reply = await ca.move(ca.state["legal_moves"][0], move_id="a\x00b")
    assert reply["code"] == "bad_characters"
    assert (await ca.move(ca.state["legal_moves"][0]))["type"] == "ack"
    await ca.close()
    await cb.close()


@pytest.mark.parametrize("name", ["A\x00B", "Bob\u202e", "\u200bAlice", "x\x07", "A\u2066B"])
async def test_names_with_invisible_bidi_or_control_characters_are_refused(
        api: Api, name: str) -> None:
    body = await api.call("POST", "/api/players", json={"name": name}, expect=422)
    assert body["error"]["code"] == "bad_name"


async def test_names_are_normalised(api: Api) -> None:
    body = await api.call("POST", "/api/players", json={"name": "  Ame\u0301lie   Poulain "},
                          expect=201)
    assert body["name"] == "Am\u00e9lie Poulain"


async def test_frames_over_the_cap_close_the_socket_at_the_websocket_layer(api: Api) -> None:
    _, _, (ca, cb) = await api.started_pair()
    await ca.send("x" * (WS_MAX_SIZE + 1))
    assert ca.reader is not None
    await asyncio.wait_for(ca.reader, 10)
    assert ca.ws.close_code == 1009
    await cb.close()


@pytest.mark.parametrize("query", ["stalled_minutes=inf", "stalled_minutes=nan",
                                   "stalled_minutes=-inf"])
async def test_admin_room_search_refuses_infinite_minutes(api: Api, query: str) -> None:
    body = await api.admin("GET", f"/rooms?{query}", expect=422)
    assert body["error"]["code"] == "bad_request"


async def test_seats_and_versions_beyond_32_bits_are_refused_not_500(api: Api) -> None:
    code, people, conns = await api.started_pair()
    huge = 2**31
    await api.admin("POST", f"/rooms/{code}/bot", json={"seat": huge}, expect=422)
    await api.admin("POST", f"/rooms/{code}/zombie", json={"seat": huge}, expect=422)
    await api.admin("GET", f"/rooms/{code}/versions/{huge}", expect=422)
    await api.admin("GET", f"/rooms/{code}/replay?seat={huge}", expect=422)
    await api.call("GET", f"/api/rooms/{code}/replay?seat={huge}", expect=422)
    await api.call("POST", f"/api/rooms/{code}/join", people[0]["token"], 422,
                   json={"seat": huge})
    for conn in conns:
        await conn.close()


@pytest.mark.parametrize("query", ["q=a%00b", "status=a%00b", "q=%07"])
async def test_control_characters_in_admin_searches_are_refused_not_500(
        api: Api, query: str) -> None:
    """Postgres text cannot hold a NUL: it must be a 422, not a database error."""
    body = await api.admin("GET", f"/rooms?{query}", expect=422)
    assert body["error"]["code"] == "bad_request" and body["error"]["message"]


async def test_control_characters_in_the_admin_name_are_dropped_not_500(api: Api) -> None:
    code, _, conns = await api.started_pair()
    await api.admin("POST", f"/rooms/{code}/abort", headers={"X-Admin-Name": "Ro%00se%07"})
    audit = await api.admin("GET", f"/audit?room={code}")
    assert audit[0]["actor"] == "Rose"
    for conn in conns:
        await conn.close()


BODIES = [b"{not json", b"[1, 2]", b'"text"', b"null", b'{"seat": "one"}', b'{"seat": 1.5}',
          b'{"seat": [1]}', b'{"seat": null}', b'{"muted": "maybe"}', b"\xff\xfe"]


@pytest.mark.parametrize("route", ["join", "leave", "bots", "remove", "start", "vote",
                                   "reclaim", "again", "chat/mute"])
async def test_malformed_bodies_never_500_and_change_nothing(api: Api, route: str) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    code = (await api.call("POST", "/api/rooms", host["token"], 201,
                           json={"game": "gem-pyramid"}))["code"]
    before = await api.call("GET", f"/api/rooms/{code}")
    for token in (host["token"], guest["token"]):
        for body in BODIES:
            response = await api.http.post(
                f"/api/rooms/{code}/{route}", content=body,
                headers={"Authorization": f"Bearer {token}",
                         "content-type": "application/json"})
            assert response.status_code < 500, (route, body, response.text)
            if response.status_code >= 400:
                error = response.json()["error"]
                assert error["code"] and error["message"], (route, body)
    after = await api.call("GET", f"/api/rooms/{code}")
    if route not in {"join", "leave", "again"}:  # those take no body: they may act
        assert after["seats"] == before["seats"] and after["status"] == before["status"]
