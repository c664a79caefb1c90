"""Who beat whom (issue 37): ratings written with the move that ends a game, bots rated per
level, aborted games not rated, the rebuild command, profiles and their privacy, friends,
invitations and the series score. Every test runs on SQLite and on Postgres."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from app.store.db import make_engine, make_sessionmaker
from app.store.social import SocialSql
from tests.api.client import Api, Conn, play_to_end
from tests.server import ADMIN_TOKEN, Server, database, running_server

ROOT = Path(__file__).resolve().parents[2]
MODEL = PlackettLuce()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest) -> Iterator[tuple[Server, str]]:
    """A server and its database's URL (the rebuild command runs against it)."""
    with database(request.param) as url, running_server(url) as srv:
        yield srv, url


@pytest.fixture
async def api(served: tuple[Server, str]) -> Any:
    client = Api(served[0].url)
    yield client
    await client.close()


async def _play(api: Api, people: list[dict[str, Any]], seed: int) -> tuple[str, list[Conn]]:
    """A Lucent game of these players, played to its end with random legal moves."""
    code = await api.room_with("gem-pyramid", people)
    conns = [await api.connect(code, p["token"]) for p in people]
    await api.start(code, people[0])
    await play_to_end(conns, random.Random(seed))
    return code, conns


def _ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 1)


async def test_ratings_after_two_three_and_four_seat_games_with_ties(api: Api) -> None:
    people = [await api.player(f"R{n}") for n in range(4)]
    expected: dict[str, Any] = {}  # openskill by hand, game after game
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        code, conns = await _play(api, people[:seats], seed)
        ranking = conns[0].state["outcome"]["ranking"]
        winners = conns[0].state["outcome"]["winners"]
        if seats > 2:  # Lucent: one winner, every other seat shares the second place
            assert sorted(ranking).count(2) == seats - 1
        teams = [[expected.get(p["id"], MODEL.rating())] for p in people[:seats]]
        rated = MODEL.rate(teams, ranks=[float(r) for r in ranking])
        before = {p["id"]: _ordinal(t[0].mu, t[0].sigma)
                  for p, t in zip(people[:seats], teams, strict=True)}
        for p, [after] in zip(people[:seats], rated, strict=True):
            expected[p["id"]] = after
        got = await api.call("GET", f"/api/rooms/{code}/ratings")
        assert [r["seat"] for r in got] == list(range(seats))
        for row, p in zip(got, people[:seats], strict=True):
            assert row["id"] == p["id"] and row["rater"] == p["id"]
            assert row["rank"] == ranking[row["seat"]]
            assert row["won"] == (row["seat"] in winners)
            after = expected[p["id"]]
            assert row["rating"] == _ordinal(after.mu, after.sigma)
            assert row["change"] == round(row["rating"] - before[p["id"]], 1)
            assert row["standin"] is False
        for conn in conns:
            await conn.close()
    me = await api.call("GET", f"/api/players/{people[0]['id']}", people[0]["token"])
    assert me["name"] == "R0" and me["visible"] is True
    lucent = me["games"]["gem-pyramid"]
    assert lucent["played"] == 3 and 0 <= lucent["won"] <= 3
    assert lucent["rating"] == _ordinal(expected[people[0]["id"]].mu,
                                        expected[people[0]["id"]].sigma)
    assert [g["game"] for g in me["recent"]] == ["gem-pyramid"] * 3
    assert {g["result"] for g in me["recent"]} <= {"won", "lost"}
    assert all(g["replay"] == f"/r/{g['code']}/replay" for g in me["recent"])
    assert len(me["history"]["gem-pyramid"]) == 3
    # R3 played only the last game with R0: the head-to-head is from the viewer's side.
    theirs = await api.call("GET", f"/api/players/{people[0]['id']}", people[3]["token"])
    assert theirs["head_to_head"]["played"] == 1
    assert theirs["games"] == me["games"]


async def test_bots_are_rated_per_level_and_aborted_games_are_not(api: Api) -> None:
    host = await api.player("Solo")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 3})
    code = room["code"]
    for seat, level in ((1, "easy"), (2, "normal")):
        await api.call("POST", f"/api/rooms/{code}/bots", host["token"],
                       json={"seat": seat, "level": level})
    conn = await api.connect(code, host["token"])
    await api.start(code, host)
    await play_to_end([conn], random.Random(7))
    rows = await api.call("GET", f"/api/rooms/{code}/ratings")
    assert [r["rater"] for r in rows] == [host["id"], "bot:easy", "bot:normal"]
    assert [r["id"] for r in rows] == [host["id"], None, None]
    await conn.close()

    # An aborted game: no result for anyone, and the profile does not count it.
    other = await api.player("Quitter")
    code2 = await api.room_with("gem-pyramid", [host, other])
    conns = [await api.connect(code2, p["token"]) for p in (host, other)]
    await api.start(code2, host)
    await conns[0].until(lambda c: c.state is not None and c.state["status"] == "active")
    await api.admin("POST", f"/rooms/{code2}/abort")
    await conns[0].until(lambda c: c.state["status"] == "aborted")
    assert await api.call("GET", f"/api/rooms/{code2}/ratings") == []
    profile = await api.call("GET", f"/api/players/{host['id']}", host["token"])
    assert profile["games"]["gem-pyramid"]["played"] == 1
    assert [g["code"] for g in profile["recent"]] == [code]
    for c in conns:
        await c.close()


async def test_the_rebuild_command_gives_the_same_numbers(api: Api,
                                                         served: tuple[Server, str]) -> None:
    people = [await api.player(f"B{n}") for n in range(3)]
    codes = []
    for seats, seed in ((2, 11), (3, 12), (2, 13)):
        code, conns = await _play(api, people[:seats], seed)
        codes.append(code)
        for conn in conns:
            await conn.close()
    before = [await api.call("GET", f"/api/rooms/{c}/ratings") for c in codes]
    profiles = [await api.call("GET", f"/api/players/{p['id']}", p["token"]) for p in people]
    # Wreck every number, then rebuild with the documented command.
    engine = make_engine(served[1])
    social = SocialSql(engine, make_sessionmaker(engine))
    wrecked = {r.id: (1.0, 1.0, 1.0, 1.0) for r in await social.every_result()}
    await social.rewrite({}, wrecked)
    assert await api.call("GET", f"/api/rooms/{codes[0]}/ratings") != before[0]
    await social.close()
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "app.social.rebuild"], cwd=ROOT,
        env={**os.environ, "DATABASE_URL": served[1]}, capture_output=True, text=True,
        timeout=120)
    assert done.returncode == 0, done.stderr
    assert "rebuilt the ratings of" in done.stdout
    assert [await api.call("GET", f"/api/rooms/{c}/ratings") for c in codes] == before
    assert [await api.call("GET", f"/api/players/{p['id']}", p["token"])
            for p in people] == profiles
    # And the next game is rated from the rebuilt ratings as from the originals.
    code, conns = await _play(api, people[:2], 14)
    rows = await api.call("GET", f"/api/rooms/{code}/ratings")
    assert rows[0]["rating"] - rows[0]["change"] == pytest.approx(
        profiles[0]["games"]["gem-pyramid"]["rating"], abs=0.11)
    for conn in conns:
        await conn.close()


async def test_a_stand_in_seat_is_rated_as_its_player_and_noted(api: Api) -> None:
    stays, leaves = await api.player("Stays"), await api.player("Leaves")
    code = await api.room_with("gem-pyramid", [stays, leaves])
    conn = await api.connect(code, stays["token"])
    await api.start(code, stays)
    await api.call("POST", f"/api/rooms/{code}/leave", leaves["token"])
    await play_to_end([conn], random.Random(5))
    rows = await api.call("GET", f"/api/rooms/{code}/ratings")
    assert [(r["rater"], r["standin"]) for r in rows] == [(stays["id"], False),
                                                           (leaves["id"], True)]
    profile = await api.call("GET", f"/api/players/{leaves['id']}", leaves["token"])
    assert profile["recent"][0]["standin"] is True
    await conn.close()


async def test_profiles_show_games_only_to_friends_and_table_mates(api: Api) -> None:
    owner, mate, stranger, friend = [await api.player(n) for n in
                                     ("Owner", "Mate", "Stranger", "Pal")]
    code, conns = await _play(api, [owner, mate], 21)
    for conn in conns:
        await conn.close()
    path = f"/api/players/{owner['id']}"
    seen = await api.call("GET", path, mate["token"])
    assert seen["visible"] is True and seen["games"]["gem-pyramid"]["played"] == 1
    assert seen["head_to_head"]["played"] == 1
    # Nothing of a game's state reaches a profile: results only.
    assert set(seen["recent"][0]) == {"code", "game", "result", "rank", "rating", "change",
                                      "standin", "at", "replay"}
    hidden = await api.call("GET", path, stranger["token"])
    assert hidden["name"] == "Owner" and hidden["visible"] is False
    assert hidden["games"] == {} and hidden["recent"] == [] and hidden["history"] == {}
    assert (await api.call("GET", path, friend["token"]))["visible"] is False
    # Being added as a friend by the owner opens the profile; adding the owner does not.
    await api.call("POST", "/api/players/me/friends", stranger["token"], 201,
                   json={"id": owner["id"]})
    assert (await api.call("GET", path, stranger["token"]))["visible"] is False
    await api.call("POST", "/api/players/me/friends", owner["token"], 201,
                   json={"id": friend["id"]})
    assert (await api.call("GET", path, friend["token"]))["visible"] is True
    await api.call("GET", path, expect=401)
    missing = await api.call("GET", "/api/players/nobody", owner["token"], 404)
    assert missing["error"]["code"] == "player_not_found"
    # The admin removes the owner's name: the results stay, anonymous.
    refused = await api.call("DELETE", f"/api/admin/players/{owner['id']}/name",
                             owner["token"], 403)
    assert refused["error"]["code"] == "not_admin"
    assert (await api.call("GET", path, owner["token"]))["name"] == "Owner"
    gone = await api.http.delete(f"/api/admin/players/{owner['id']}/name",
                                 headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert gone.status_code == 204
    after = await api.call("GET", path, mate["token"])
    assert after["name"] == "Anonymous" and after["games"] == seen["games"]
    room = await api.call("GET", f"/api/rooms/{code}")
    log = await api.call("GET", f"/api/rooms/{code}/moves")
    assert "Owner" not in str(room) and "Owner" not in str(log)
    assert any(entry["by"]["name"] == "Anonymous" for entry in log)


async def test_friends_online_invites_and_the_leaderboard(api: Api) -> None:
    me, pal, other = [await api.player(n) for n in ("Me", "Pal", "Other")]
    base = "/api/players/me/friends"
    for body, code in (({"id": me["id"]}, "self_friend"), ({"id": "nobody"}, "player_not_found"),
                       ({"id": 3}, "bad_player"), ([1], "bad_body")):
        refused = await api.call("POST", base, me["token"],
                                 404 if code == "player_not_found" else 422, json=body)
        assert refused["error"]["code"] == code
    assert await api.call("GET", base, me["token"]) == []
    await api.call("POST", base, me["token"], 201, json={"id": pal["id"]})
    await api.call("POST", base, me["token"], 201, json={"id": pal["id"]})  # twice: no error
    assert await api.call("GET", base, me["token"]) == [
        {"id": pal["id"], "name": "Pal", "online": False}]
    # Online: in a room now, with a socket open.
    code, conns = await _play(api, [me, pal], 31)
    played = await api.call("GET", "/api/players/me/played-with", me["token"])
    assert played == [{"id": pal["id"], "name": "Pal"}]
    for conn in conns:
        await conn.close()
    room = await api.call("POST", "/api/rooms", me["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2})
    pal_room = await api.call("POST", "/api/rooms", pal["token"], 201,
                              json={"game": "gem-pyramid", "seats": 2})
    pal_conn = await api.connect(pal_room["code"], pal["token"])
    await pal_conn.until(lambda c: c.room is not None)
    friends_now = await api.call("GET", base, me["token"])
    assert friends_now == [{"id": pal["id"], "name": "Pal", "online": True}]
    await pal_conn.close()
    # An invitation reaches the friend's lobby; only to friends, only to one's own room.
    refused = await api.call("POST", "/api/players/me/invites", me["token"], 403,
                             json={"id": other["id"], "code": room["code"]})
    assert refused["error"]["code"] == "not_a_friend"
    refused = await api.call("POST", "/api/players/me/invites", other["token"], 403,
                             json={"id": me["id"], "code": room["code"]})
    assert refused["error"]["code"] == "not_seated"
    await api.call("POST", "/api/players/me/invites", me["token"], 201,
                   json={"id": pal["id"], "code": room["code"]})
    inbox = await api.call("GET", "/api/players/me/invites", pal["token"])
    assert [(i["code"], i["from"]["id"], i["game"]) for i in inbox] == [
        (room["code"], me["id"], "gem-pyramid")]
    assert await api.call("GET", "/api/players/me/invites", other["token"]) == []
    # The leaderboard: me and my friends, best first.
    board = await api.call("GET", "/api/players/me/leaderboard?game=gem-pyramid", me["token"])
    ratings = {r["id"]: r["rating"] for r in await api.call("GET", f"/api/rooms/{code}/ratings")}
    assert [row["id"] for row in board] == sorted(ratings, key=lambda i: -ratings[i])
    assert all(row["rating"] == ratings[row["id"]] for row in board)
    gone = await api.http.delete(f"{base}/{pal['id']}",
                                 headers={"Authorization": f"Bearer {me['token']}"})
    assert gone.status_code == 204
    again = await api.http.delete(f"{base}/{pal['id']}",
                                  headers={"Authorization": f"Bearer {me['token']}"})
    assert again.status_code == 404 and again.json()["error"]["code"] == "not_a_friend"
    assert await api.call("GET", base, me["token"]) == []


async def test_play_again_keeps_a_series(api: Api) -> None:
    a, b = await api.player("Ann"), await api.player("Bob")
    winners: dict[str, int] = {a["id"]: 0, b["id"]: 0}
    code, conns = await _play(api, [a, b], 41)
    for seat in conns[0].state["outcome"]["winners"]:
        winners[[a, b][seat]["id"]] += 1
    for conn in conns:
        await conn.close()
    for seed in (42, 43):
        made = await api.call("POST", f"/api/rooms/{code}/again", b["token"], 201)
        code = made["code"]
        host = b if made["host"] == b["id"] else a
        guest = a if host is b else b
        await api.call("POST", f"/api/rooms/{code}/join", guest["token"])
        conns = [await api.connect(code, p["token"]) for p in (a, b)]
        await api.start(code, host)
        await play_to_end(conns, random.Random(seed))
        outcome_seats = (await api.call("GET", f"/api/rooms/{code}"))["seats"]
        for seat in conns[0].state["outcome"]["winners"]:
            winners[outcome_seats[seat]["player"]["id"]] += 1
        for conn in conns:
            await conn.close()
    series = await api.call("GET", f"/api/rooms/{code}/series")
    assert series["games"] == 3
    assert {s["id"]: s["wins"] for s in series["score"]} == winners
    assert {s["name"] for s in series["score"]} == {"Ann", "Bob"}
    fresh = await api.call("POST", "/api/rooms", a["token"], 201,
                           json={"game": "gem-pyramid", "seats": 2})
    assert await api.call("GET", f"/api/rooms/{fresh['code']}/series") == {"games": 0,
                                                                          "score": []}
    unknown = await api.call("GET", "/api/rooms/ZZZZZZ/series", expect=404)
    assert unknown["error"]["code"] == "room_not_found"
