"""Issue 23, clocks that tell the truth: a clocked room everyone left does not play itself out
(the clock stops, and starts the turn over when a player comes back), and a player whose last
moves the clock played is told so on the end screen, never just "You win!"."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import Client
from tests.server import Server, database, running_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """A server of its own: a one-second absence grace, after which a room is deserted."""
    with database("sqlite") as url, running_server(url, ABSENT_GRACE_SECONDS="1") as srv:
        yield srv


def _clocked_room(server: Server, turn_clock: int) -> tuple[str, list[dict]]:
    """A started two-player Gem Pyramid room with a clock, made over the API (nobody on it)."""
    with httpx.Client(base_url=server.url) as http:
        people = [http.post("/api/players", json={"name": n}).json() for n in ("Ann", "Bob")]
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
        room = http.post("/api/rooms", headers=auth[0], json={
            "game": "gem-pyramid", "seats": 2, "turn_clock": turn_clock}).json()
        http.post(f"/api/rooms/{room['code']}/join", headers=auth[1]).raise_for_status()
        http.post(f"/api/rooms/{room['code']}/start", headers=auth[0]).raise_for_status()
    return room["code"], people


def _as(client: Client, person: dict) -> Client:
    """This browser profile is `person` (the identity the lobby would have stored)."""
    identity = {"id": person["id"], "name": person["name"], "token": person["token"]}
    client.page.add_init_script(f"localStorage.setItem('ziggurat.player', "
                                f"{json.dumps(json.dumps(identity))})")
    return client


def _room(server: Server, code: str) -> dict:
    return httpx.get(f"{server.url}/api/rooms/{code}").json()


def test_a_deserted_clocked_room_waits_for_its_players(open_client, server: Server) -> None:
    code, people = _clocked_room(server, turn_clock=2)
    deadline = time.monotonic() + 60
    while _room(server, code)["turn_deadline"] is not None:  # everyone is gone: it stops
        assert time.monotonic() < deadline, "the clock never stopped"
        time.sleep(0.2)
    paused = _room(server, code)["version"]
    fan = open_client("fan")
    fan.page.goto(f"{server.url}/r/{code}")
    fan.wait_live()
    expect(fan.page.get_by_test_id("turn-clock")).to_have_count(0)
    time.sleep(5)  # two and a half turns of this clock
    assert _room(server, code)["version"] == paused, "nobody's moves were played meanwhile"
    expect(fan.page.get_by_text("ran out of time")).to_have_count(0)
    fan.shot("deserted-clock-waits")
    # Ann comes back: the clock runs again, the seat to act's countdown shows.
    ann = _as(open_client("ann"), people[0])
    ann.page.goto(f"{server.url}/r/{code}")
    ann.wait_live()
    expect(ann.page.locator("[data-testid=player][data-acting=true]")
           .get_by_test_id("turn-clock")).to_be_visible()
    assert not fan.page_errors and not ann.page_errors


def test_a_player_away_for_the_ending_is_told_the_clock_played_for_them(
        open_client, server: Server) -> None:
    code, people = _clocked_room(server, turn_clock=1)
    ann = _as(open_client("ann"), people[0])  # Ann keeps the page open but never moves
    ann.page.goto(f"{server.url}/r/{code}")
    expect(ann.page.get_by_test_id("end-screen")).to_be_visible(timeout=180_000)
    bob = _as(open_client("bob"), people[1])  # Bob was never there
    bob.page.goto(f"{server.url}/r/{code}")
    for who in (ann, bob):
        note = who.page.get_by_test_id("away-at-end")
        expect(note).to_contain_text("The turn clock played your last")
        title = who.page.locator("#end-title")
        expect(title).not_to_have_text("★ You win!")
    bob.shot("away-at-end")
    log = httpx.get(f"{server.url}/api/rooms/{code}/moves").json()
    assert log and all(e["by"]["via"] == "clock" for e in log)
    assert not ann.page_errors and not bob.page_errors
