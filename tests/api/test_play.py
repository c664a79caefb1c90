"""Playing over websockets: whole games, bots, exactly-once moves, staleness, reconnects."""

from __future__ import annotations

import random

import pytest

from games import REGISTRY
from tests.api.client import Api, play_to_end


@pytest.mark.parametrize("players", [2, 3, 4, 5])
async def test_random_lucent_games_complete_through_the_contract(api: Api, players: int) -> None:
    people = [await api.player(f"P{n}") for n in range(players)]
    code = await api.room_with("gem-pyramid", people)
    conns = [await api.connect(code, p["token"]) for p in people]
    watcher = await api.connect(code)
    await api.start(code, people[0])
    moves = await play_to_end(conns, random.Random(players))
    await watcher.until(lambda c: c.state["status"] == "finished")
    outcome = watcher.state["outcome"]
    assert outcome["winners"] and len(outcome["scores"]) == players
    assert all(c.state["outcome"] == outcome for c in conns)
    assert watcher.state["view"]["hand"] is None, "a spectator sees no hand"
    log = await api.call("GET", f"/api/rooms/{code}/moves")
    assert [entry["version"] for entry in log] == list(range(1, moves + 1))
    assert all(entry["text"].startswith("placed a") for entry in log)
    for conn in [*conns, watcher]:
        await conn.close()


GAME_CASES = [(game_id, players) for game_id, game in sorted(REGISTRY.items())
              if game_id != "gem-pyramid"
              for players in range(game.min_players, game.max_players + 1)]


@pytest.mark.parametrize(("game_id", "players"), GAME_CASES)
async def test_random_games_of_every_game_complete_through_the_contract(
        api: Api, game_id: str, players: int) -> None:
    people = [await api.player(f"P{n}") for n in range(players)]
    code = await api.room_with(game_id, people)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    moves = await play_to_end(conns, random.Random(f"{game_id}{players}"))
    outcome = conns[0].state["outcome"]
    assert outcome is not None and len(outcome["scores"]) == players
    log = await api.call("GET", f"/api/rooms/{code}/moves")
    assert len(log) == moves and all(isinstance(entry["text"], str) for entry in log)
    for conn in conns:
        await conn.close()


async def test_each_seat_sees_its_own_hand_only(api: Api) -> None:
    _, _, (ca, cb) = await api.started_pair()
    assert ca.state["seat"] == 0 and cb.state["seat"] == 1
    assert sum(ca.state["view"]["hand"].values()) == 22
    assert ca.state["legal_moves"] and not cb.state["legal_moves"]
    assert "hands" not in ca.state["view"]
    await ca.close()
    await cb.close()


async def test_bots_play_their_seats(api: Api) -> None:
    host = await api.player("Host")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 3})
    for seat in (1, 2):
        await api.call("POST", f"/api/rooms/{room['code']}/bots", host["token"],
                       json={"seat": seat})
    conn = await api.connect(room["code"], host["token"])
    await api.start(room["code"], host)
    await play_to_end([conn], random.Random(7))
    log = await api.call("GET", f"/api/rooms/{room['code']}/moves")
    assert {entry["seat"] for entry in log} == {0, 1, 2}
    await conn.close()


async def test_a_retried_move_id_is_applied_once(api: Api) -> None:
    code, _, (ca, cb) = await api.started_pair()
    move = ca.state["legal_moves"][0]
    first = await ca.move(move, move_id="same-id")
    again = await ca.move(move, version=0, move_id="same-id")
    assert first == again == {"type": "ack", "id": "same-id", "version": 1}
    room = await api.call("GET", f"/api/rooms/{code}")
    assert room["version"] == 1
    await ca.close()
    await cb.close()


async def test_a_move_on_an_old_version_is_refused_as_stale_with_the_fresh_state(
        api: Api) -> None:
    code, _, (ca, cb) = await api.started_pair()
    assert (await ca.move(ca.state["legal_moves"][0]))["type"] == "ack"
    await cb.until(lambda c: c.state["version"] == 1)
    assert (await cb.move(cb.state["legal_moves"][0]))["type"] == "ack"
    await ca.until(lambda c: c.state["version"] == 2)
    reply = await ca.move(ca.state["legal_moves"][0], version=1)
    assert reply["code"] == "stale" and reply["message"]
    assert ca.state["version"] == 2
    assert (await api.call("GET", f"/api/rooms/{code}"))["version"] == 2
    await ca.close()
    await cb.close()


async def test_seat_is_held_through_a_reconnect_and_presence_is_broadcast(api: Api) -> None:
    code, (_, b), (ca, cb) = await api.started_pair()
    await ca.until(lambda c: c.room and all(s["connected"] for s in c.room["seats"]))
    assert (await ca.move(ca.state["legal_moves"][0]))["type"] == "ack"
    await cb.close()
    await ca.until(lambda c: not c.room["seats"][1]["connected"])
    back = await api.connect(code, b["token"])
    await back.until(lambda c: c.state is not None and c.state["version"] == 1)
    assert back.state["seat"] == 1 and back.state["legal_moves"], "the seat is still B's"
    await ca.until(lambda c: c.room["seats"][1]["connected"])
    await ca.close()
    await back.close()
