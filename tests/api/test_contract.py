"""The wire contract (design.md section 4), item by item: the shapes, codes and rules of play
that clients we never see are written against. Each test names the contract line it pins."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.core.snapshot import Snapshot, state_messages
from app.errors import install_handlers
from app.play.locks import Steps
from games import REGISTRY
from games.protocol import match_rng
from tests.api.client import Api, Conn, play_to_end

ROOM_KEYS = {"code", "game", "options", "status", "host", "seats", "version"}
SEAT_KEYS = {"seat", "player", "bot", "connected"}
STATE_KEYS = {"type", "version", "seat", "status", "view", "to_act", "legal_moves", "outcome",
              "events"}


def assert_room(room: dict[str, Any]) -> None:
    """`{"code","game","options","status","host","seats":[{"seat","player":{"id","name"}|null,
    "bot":str|null,"connected"}],"version"}`"""
    assert set(room) >= ROOM_KEYS, ROOM_KEYS - set(room)
    assert isinstance(room["code"], str) and isinstance(room["game"], str)
    assert isinstance(room["options"], dict) and isinstance(room["version"], int)
    assert room["status"] in {"lobby", "active", "finished", "aborted", "errored"}
    assert isinstance(room["host"], str)
    for number, seat in enumerate(room["seats"]):
        assert set(seat) >= SEAT_KEYS, SEAT_KEYS - set(seat)
        assert seat["seat"] == number
        assert seat["player"] is None or set(seat["player"]) >= {"id", "name"}
        assert seat["bot"] is None or isinstance(seat["bot"], str)
        assert isinstance(seat["connected"], bool)


def assert_state(state: dict[str, Any], seat: int | None) -> None:
    """`{"type":"state","version","seat","status","view","to_act","legal_moves","outcome",
    "events"}`; `legal_moves` is that seat's list, empty for others and spectators."""
    assert set(state) >= STATE_KEYS, STATE_KEYS - set(state)
    assert state["type"] == "state" and state["seat"] == seat
    assert isinstance(state["version"], int)
    assert all(isinstance(s, int) for s in state["to_act"])
    assert all(isinstance(m, dict) and isinstance(m.get("type"), str)
               for m in state["legal_moves"])
    if seat is None or seat not in state["to_act"] or state["status"] != "active":
        assert state["legal_moves"] == []
    assert all(isinstance(e, dict) and isinstance(e["text"], str) for e in state["events"])


async def test_players_games_and_rooms_have_the_contracts_shapes(api: Api) -> None:
    response = await api.http.post("/api/players", json={"name": "Host"})
    assert response.status_code == 201
    host = response.json()
    assert {"id", "name", "token"} <= set(host) and host["name"] == "Host"
    assert all(isinstance(host[k], str) and host[k] for k in ("id", "name", "token"))
    guest = await api.player("Guest")

    games = await api.call("GET", "/api/games")
    assert {g["id"] for g in games} == set(REGISTRY)
    for game in games:
        assert isinstance(game["title"], str) and isinstance(game["options_schema"], dict)
        assert isinstance(game["min_players"], int) and isinstance(game["max_players"], int)

    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "options": {}, "seats": 3,
                                "private": False})
    assert_room(room)
    assert (room["game"], room["status"], room["host"], room["version"]) == (
        "gem-pyramid", "lobby", host["id"], 0)
    assert room["seats"][0]["player"] == {"id": host["id"], "name": "Host"}
    assert [s["player"] for s in room["seats"][1:]] == [None, None]
    code = room["code"]
    fetched = await api.call("GET", f"/api/rooms/{code}")
    assert_room(fetched)
    assert {k: fetched[k] for k in ROOM_KEYS} == {k: room[k] for k in ROOM_KEYS}
    listed = await api.call("GET", "/api/rooms")
    assert all(r["status"] == "lobby" for r in listed)
    assert code in {r["code"] for r in listed}, "a public room with a free seat is listed"

    joined = await api.call("POST", f"/api/rooms/{code}/join", guest["token"], json={"seat": 2})
    assert_room(joined)
    assert joined["seats"][2]["player"] == {"id": guest["id"], "name": "Guest"}
    with_bot = await api.call("POST", f"/api/rooms/{code}/bots", host["token"],
                              json={"seat": 1})
    assert_room(with_bot)
    assert isinstance(with_bot["seats"][1]["bot"], str) and with_bot["seats"][1]["connected"]
    assert code not in {r["code"] for r in await api.call("GET", "/api/rooms")}, "full"
    started = await api.start(code, host)
    assert_room(started)
    assert started["status"] == "active"


async def test_state_messages_carry_every_field_for_seats_and_spectators(api: Api) -> None:
    code, _, (ca, cb) = await api.started_pair()
    watcher = await api.connect(code)
    await watcher.until(lambda c: c.state is not None and c.state["status"] == "active")
    for conn, seat in ((ca, 0), (cb, 1), (watcher, None)):
        assert_state(conn.state, seat)
        assert conn.state["status"] == "active" and conn.state["outcome"] is None
        assert conn.state["to_act"] == [0]
    assert ca.state["legal_moves"], "the seat to act gets its legal moves"
    ack = await ca.move(ca.state["legal_moves"][0], move_id="shape-1")
    assert ack == {"type": "ack", "id": "shape-1", "version": 1}
    for conn, seat in ((ca, 0), (cb, 1), (watcher, None)):
        await conn.until(lambda c: c.state["version"] == 1)
        assert_state(conn.state, seat)
        assert conn.state["to_act"] == [1]
    assert cb.state["legal_moves"] and not ca.state["legal_moves"]
    for conn in (ca, cb, watcher):
        await conn.close()


async def test_refusals_echo_the_move_id_with_a_code_and_a_sentence(api: Api) -> None:
    code, _, (ca, cb) = await api.started_pair()
    reply = await cb.move(ca.state["legal_moves"][0], move_id="early-1")
    assert set(reply) == {"type", "id", "code", "message"}
    assert (reply["type"], reply["id"], reply["code"]) == ("error", "early-1", "not_your_turn")
    assert isinstance(reply["message"], str) and reply["message"]
    reply = await ca.move({"type": "nonsense"}, move_id="odd-1")
    assert (reply["id"], reply["code"]) == ("odd-1", "illegal_move")
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 0
    await ca.close()
    await cb.close()


async def test_a_player_with_a_token_but_no_seat_is_not_seated(api: Api) -> None:
    code, _, (ca, cb) = await api.started_pair()
    outsider = await api.player("Outsider")
    conn = await api.connect(code, outsider["token"])
    await conn.until(lambda c: c.state is not None)
    assert_state(conn.state, None)
    reply = await conn.move(ca.state["legal_moves"][0])
    assert reply["code"] == "not_seated"
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 0
    for each in (ca, cb, conn):
        await each.close()


async def test_a_retried_id_answers_its_first_result_from_a_new_socket_even_when_legal_again(
        api: Api) -> None:
    """Exactly once: a retried id returns the first result, whatever the retry carries."""
    code, (a, _), (ca, cb) = await api.started_pair()
    assert await ca.move(ca.state["legal_moves"][0], move_id="once") == {
        "type": "ack", "id": "once", "version": 1}
    await cb.until(lambda c: c.state["version"] == 1)
    assert (await cb.move(cb.state["legal_moves"][0]))["version"] == 2
    await ca.close()
    again = await api.connect(code, a["token"])
    await again.until(lambda c: c.state is not None and c.state["version"] == 2)
    legal_now = again.state["legal_moves"][0]
    assert await again.move(legal_now, move_id="once") == {
        "type": "ack", "id": "once", "version": 1}, "a legal retry is still the first move"
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 2
    assert len(await api.call("GET", f"/api/rooms/{code}/moves")) == 2
    assert (await again.move(legal_now, move_id="fresh"))["version"] == 3, "play goes on"
    await again.close()
    await cb.close()


async def test_a_stale_move_is_refused_and_the_fresh_state_pushed_again(api: Api) -> None:
    code, _, (ca, cb) = await api.started_pair()
    await ca.move(ca.state["legal_moves"][0])
    await cb.until(lambda c: c.state["version"] == 1)
    await cb.move(cb.state["legal_moves"][0])
    await ca.until(lambda c: c.state["version"] == 2)
    states = ca.states
    reply = await ca.move(ca.state["legal_moves"][0], version=1, move_id="old-view")
    assert (reply["code"], reply["id"]) == ("stale", "old-view")
    await ca.until(lambda c: c.states > states)
    assert ca.state["version"] == 2 and ca.state["legal_moves"]
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 2
    await ca.close()
    await cb.close()


async def test_the_move_log_is_redacted_while_playing_and_whole_once_finished(
        api: Api) -> None:
    """`GET /api/rooms/{code}/moves`: the log as each caller may see it (full once finished).
    Temple of Five hides which tile a seat passed or placed from everyone else."""
    people = [await api.player("A"), await api.player("B")]
    code = await api.room_with("temple-of-five", people)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    await conns[0].until(lambda c: c.state is not None and c.state["status"] == "active")
    mine = conns[0].state["legal_moves"][0]
    assert (await conns[0].move(mine))["type"] == "ack"
    own = await api.call("GET", f"/api/rooms/{code}/moves", people[0]["token"])
    other = await api.call("GET", f"/api/rooms/{code}/moves", people[1]["token"])
    anyone = await api.call("GET", f"/api/rooms/{code}/moves")
    assert own[0]["move"] == mine, "a seat sees its own move"
    assert other[0]["move"] == anyone[0]["move"] == {"type": mine["type"]}
    assert {"version", "seat", "move", "text", "events"} <= set(own[0])
    await play_to_end(conns, random.Random(5))
    whole = await api.call("GET", f"/api/rooms/{code}/moves")
    assert whole[0]["move"] == mine, "once finished the log is whole"
    assert len(whole) == conns[0].state["version"]
    reply = await conns[1].move({"type": "assign", "tile": 0, "to": "keep"})
    assert reply["code"] == "game_over", "a move after the end is refused"
    for conn in conns:
        assert conn.state["status"] == "finished" and conn.state["to_act"] == []
        assert conn.state["outcome"] is not None and conn.state["legal_moves"] == []
        await conn.close()


ROUTES = [("GET", "/api/rooms/{code}", None), ("POST", "/api/rooms/{code}/join", None),
          ("POST", "/api/rooms/{code}/leave", None), ("POST", "/api/rooms/{code}/bots",
                                                      {"seat": 1}),
          ("POST", "/api/rooms/{code}/start", None), ("GET", "/api/rooms/{code}/moves", None),
          ("POST", "/api/rooms/{code}/again", None), ("POST", "/api/rooms/{code}/vote",
                                                      {"seat": 1}),
          ("POST", "/api/rooms/{code}/reclaim", None), ("GET", "/api/rooms/{code}/chat", None),
          ("GET", "/api/rooms/{code}/replay", None)]


async def test_every_room_route_refuses_an_unknown_room_with_room_not_found(api: Api) -> None:
    player = await api.player("Guesser")
    for method, path, body in ROUTES:
        refused = await api.call(method, path.format(code="zzz-zzz-zzz"), player["token"],
                                 404, json=body)
        assert refused["error"]["code"] == "room_not_found", path
        assert refused["error"]["message"]


AUTH_ROUTES = [("POST", "/api/rooms", {"game": "gem-pyramid"}),
               *[(m, p, b) for m, p, b in ROUTES if m == "POST"],
               ("POST", "/api/rooms/{code}/chat/mute", {"muted": True})]


@pytest.mark.parametrize(("token", "expected"), [(None, "no_token"), ("forged", "bad_token")])
async def test_every_player_route_needs_a_valid_token(api: Api, token: str | None,
                                                      expected: str) -> None:
    host = await api.player("Host")
    code = (await api.call("POST", "/api/rooms", host["token"], 201,
                           json={"game": "gem-pyramid"}))["code"]
    for method, path, body in AUTH_ROUTES:
        refused = await api.call(method, path.format(code=code), token, 401, json=body)
        assert refused["error"]["code"] == expected, path
    room = await api.call("GET", f"/api/rooms/{code}")
    assert [s["player"] for s in room["seats"]] == [{"id": host["id"], "name": "Host"}, None]


async def test_an_aborted_game_has_nobody_to_act(api: Api) -> None:
    """`to_act`: the seats that may move now; in a closed room nobody may."""
    code, _, (ca, cb) = await api.started_pair()
    await api.admin("POST", f"/rooms/{code}/abort")
    for conn in (ca, cb):
        await conn.until(lambda c: c.state["status"] == "aborted")
        assert conn.state["to_act"] == [] and conn.state["legal_moves"] == []
    assert (await ca.move({"type": "place", "gem": "red", "row": 0, "pos": 3}))["code"] == \
        "game_over"
    await ca.close()
    await cb.close()


@pytest.mark.parametrize("seats", [0, -1, 17, 2**40])
async def test_a_seat_count_the_game_cannot_seat_is_bad_seats(api: Api, seats: int) -> None:
    host = await api.player("Host")
    refused = await api.call("POST", "/api/rooms", host["token"], 422,
                             json={"game": "gem-pyramid", "seats": seats})
    assert refused["error"]["code"] == "bad_seats"


async def test_an_unexpected_failure_still_answers_in_the_error_shape() -> None:
    """Errors: HTTP status + `{"error": {"code", "message"}}`, even for a bug (no traceback)."""
    app = FastAPI()
    install_handlers(app)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("secret detail")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get("/boom")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal_error"
    assert "secret" not in response.text


async def test_a_move_on_an_old_version_is_stale_even_when_the_turn_has_passed(
        api: Api) -> None:
    """A seat that chose on an old view is told `stale` (and sent the fresh state), not merely
    `not_your_turn`; on the current version it is `not_your_turn`."""
    code, _, (ca, cb) = await api.started_pair()
    first = ca.state["legal_moves"][0]
    await ca.move(first)
    await ca.until(lambda c: c.state["version"] == 1)
    states = ca.states
    assert (await ca.move(first, version=0))["code"] == "stale"
    await ca.until(lambda c: c.states > states)
    assert (await ca.move(first, version=1))["code"] == "not_your_turn"
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 1
    await ca.close()
    await cb.close()


async def _temple_of_five(api: Api) -> tuple[str, list[Conn]]:
    """A started two-seat Temple of Five room: it opens on a simultaneous exchange step."""
    people = [await api.player("A"), await api.player("B")]
    code = await api.room_with("temple-of-five", people)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    for conn in conns:
        await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
    assert conns[0].state["to_act"] == [0, 1], "the game opens on a simultaneous step"
    return code, conns


async def test_in_a_simultaneous_step_both_seats_moving_on_one_version_are_accepted(
        api: Api) -> None:
    """Simultaneous steps: `to_act` holds several seats, each move is applied on arrival and a
    move made on an older version is judged against the current state."""
    code, (ca, cb) = await _temple_of_five(api)
    mine, theirs = ca.state["legal_moves"][0], cb.state["legal_moves"][0]
    assert (await ca.move(mine, version=0))["type"] == "ack"
    reply = await cb.move(theirs, version=0)
    assert reply["type"] == "ack", reply
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 2
    await ca.close()
    await cb.close()


def test_a_simultaneous_step_is_remembered_only_while_it_lasts() -> None:
    steps = Steps()
    assert steps.began("r", 5) == 5, "unknown: the step begins at the current version"
    steps.moved("r", 6, 5)  # a move inside a step that began at version 5
    assert steps.began("r", 6) == 5
    assert steps.began("r", 7) == 7, "another writer made version 7: unknown again"
    steps.moved("r", 7, None)  # the seats to act grew: a new step
    assert steps.began("r", 7) == 7


def test_private_events_and_moves_reach_only_their_seat() -> None:
    """`state`: events as each seat may see them; `legal_moves` that seat's list only."""
    game = REGISTRY["gem-pyramid"]
    state = game.setup(2, game.Options(), match_rng("seed", 0))
    snap = Snapshot("abc-def-ghj", game.id, "active", 1, state,
                    [{"text": "public", "to": None, "data": None},
                     {"text": "secret", "to": [0], "data": {"card": "x"}}])
    seen = state_messages(snap, (0, 1, None))
    assert [e["text"] for e in seen[0]["events"]] == ["public", "secret"]
    assert [e["text"] for e in seen[1]["events"]] == ["public"]
    assert [e["text"] for e in seen[None]["events"]] == ["public"]
    assert seen[0]["legal_moves"] == game.legal_moves(state, 0)
    assert seen[1]["legal_moves"] == seen[None]["legal_moves"] == []
    assert seen[None]["view"] == game.view(state, None)
