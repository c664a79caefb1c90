"""Rooms over REST: codes, seats, hosts, bots, public listing, and their refusals."""

from __future__ import annotations

import re

from tests.api.client import Api

CODE = re.compile(r"^[a-hj-km-np-z2-9]{3}-[a-hj-km-np-z2-9]{3}-[a-hj-km-np-z2-9]{3}$")


async def test_games_are_listed_with_their_options_schema(api: Api) -> None:
    games = await api.call("GET", "/api/games")
    lucent = next(g for g in games if g["id"] == "gem-pyramid")
    assert (lucent["min_players"], lucent["max_players"]) == (2, 5)
    assert {"points", "wildcard", "geomancer"} <= set(lucent["options_schema"]["properties"])


async def test_private_rooms_have_readable_unguessable_codes_and_are_not_listed(api: Api) -> None:
    host = await api.player("Host")
    codes = {(await api.call("POST", "/api/rooms", host["token"], 201,
                             json={"game": "gem-pyramid"}))["code"] for _ in range(20)}
    assert len(codes) == 20 and all(CODE.match(c) for c in codes)
    listed = {r["code"] for r in await api.call("GET", "/api/rooms")}
    assert not codes & listed


async def test_public_room_is_listed_until_full(api: Api) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2, "private": False})
    assert room["code"] in {r["code"] for r in await api.call("GET", "/api/rooms")}
    joined = await api.call("POST", f"/api/rooms/{room['code']}/join", guest["token"])
    assert [s["player"]["name"] for s in joined["seats"]] == ["Host", "Guest"]
    assert room["code"] not in {r["code"] for r in await api.call("GET", "/api/rooms")}


async def test_codes_are_accepted_as_people_type_them(api: Api) -> None:
    host = await api.player("Host")
    room = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    typed = room["code"].upper().replace("-", " ")
    assert (await api.call("GET", f"/api/rooms/{typed}"))["code"] == room["code"]


async def test_only_the_host_adds_bots_and_starts(api: Api) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 3})
    code = room["code"]
    await api.call("POST", f"/api/rooms/{code}/join", guest["token"])
    refused = await api.call("POST", f"/api/rooms/{code}/bots", guest["token"], 403,
                             json={"seat": 2})
    assert refused["error"]["code"] == "not_host"
    refused = await api.call("POST", f"/api/rooms/{code}/start", guest["token"], 403)
    assert refused["error"]["code"] == "not_host"
    refused = await api.call("POST", f"/api/rooms/{code}/start", host["token"], 409)
    assert refused["error"]["code"] == "seats_empty"
    with_bot = await api.call("POST", f"/api/rooms/{code}/bots", host["token"], json={"seat": 2})
    assert with_bot["seats"][2]["bot"] == "normal"
    started = await api.start(code, host)
    assert started["status"] == "active"


async def test_full_started_and_unknown_rooms_answer_clear_errors(api: Api) -> None:
    host, guest, late = [await api.player(n) for n in ("Host", "Guest", "Late")]
    code = await api.room_with("gem-pyramid", [host, guest])
    full = await api.call("POST", f"/api/rooms/{code}/join", late["token"], 409)
    assert full["error"]["code"] == "room_full" and full["error"]["message"]
    await api.start(code, host)
    started = await api.call("POST", f"/api/rooms/{code}/join", late["token"], 409)
    assert started["error"]["code"] == "room_started"
    unknown = await api.call("GET", "/api/rooms/zzz-zzz-zzz", expect=404)
    assert unknown["error"]["code"] == "room_not_found"
    nonsense = await api.call("GET", "/api/rooms/not-a-code!", expect=404)
    assert nonsense["error"]["code"] == "room_not_found"


async def test_bad_requests_are_refused_with_codes(api: Api) -> None:
    host = await api.player("Host")
    cases = [
        ({"game": "chess"}, 404, "unknown_game"),
        ({"game": "gem-pyramid", "seats": 6}, 422, "bad_seats"),
        ({"game": "gem-pyramid", "options": {"games": 99}}, 422, "bad_options"),
        ({"game": "gem-pyramid", "options": {"wildcard": "maybe"}}, 422, "bad_options"),
        ({"seats": 2}, 422, "bad_request"),
    ]
    for body, status, code in cases:
        refused = await api.call("POST", "/api/rooms", host["token"], status, json=body)
        assert refused["error"]["code"] == code, body
        assert refused["error"]["message"]
    assert (await api.call("POST", "/api/rooms", None, 401,
                           json={"game": "gem-pyramid"}))["error"]["code"] == "no_token"
    assert (await api.call("POST", "/api/rooms", "forged", 401,
                           json={"game": "gem-pyramid"}))["error"]["code"] == "bad_token"
    assert (await api.call("POST", "/api/players", json={"name": ""},
                           expect=422))["error"]["code"] == "bad_request"


async def test_leaving_a_lobby_frees_the_seat_and_passes_the_host_on(api: Api) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    code = await api.room_with("gem-pyramid", [host, guest])
    room = await api.call("POST", f"/api/rooms/{code}/leave", host["token"])
    assert room["host"] == guest["id"] and room["seats"][0]["player"] is None


async def test_play_again_opens_one_new_room_for_everyone(api: Api) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    code = await api.room_with("gem-pyramid", [host, guest], options={"wildcard": True})
    first = await api.call("POST", f"/api/rooms/{code}/again", guest["token"], 201)
    second = await api.call("POST", f"/api/rooms/{code}/again", host["token"], 201)
    assert first["code"] == second["code"] != code
    assert first["options"]["wildcard"] is True
    assert (await api.call("GET", f"/api/rooms/{code}"))["next_room"] == first["code"]
