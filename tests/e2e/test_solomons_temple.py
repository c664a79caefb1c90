"""Two friends play a whole (short) game of Solomon's Temple by clicking, one on a phone.

The room is created through the lobby with a 24-turn limit; its seed is then fixed in the
database (before the start) to one where the deterministic player of `solomon_strategy` meets a
Sin answered by a Burnt Offering. Every step, the page of the seat to act offers exactly its legal
moves as buttons, the other page none; the strategy's move is clicked. A spectator sees no hand.
"""

from __future__ import annotations

import json
import sqlite3
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import ARTIFACTS, Client
from tests.e2e.solomon_strategy import choose

pytestmark = pytest.mark.e2e
SEED = "solomon-e2e-15"  # found by replaying `choose` over seeds: a Burnt Offering on move 120
TURN_LIMIT = 24
PHONE_WIDTH = 390
MAX_STEPS = 400
SETTLED = "v => window.ziggurat.state.version > v && !window.ziggurat.page.pending.size"
CAUGHT_UP = "v => window.ziggurat.state.version >= v"  # the next mover may be the other page


def move_key(move: dict) -> str:
    """The renderer's data-key of a move button (`k=v` pairs in the move's own order)."""
    return ";".join(f"{k}={v}" for k, v in move.items())


def create_room(client: Client) -> str:
    card = client.page.locator("[data-game=solomons-temple]")
    expect(card).to_be_visible()
    Client.open_variants(card)
    card.locator("input[name=turn_limit]").fill(str(TURN_LIMIT))
    card.get_by_test_id("create-room").click()
    expect(client.page.get_by_test_id("waiting-room")).to_be_visible()
    return client.page.get_by_test_id("invite-link").input_value()


def fix_seed(server, link: str) -> None:
    """Set the waiting room's seed so the game is the one the seed search found."""
    path = server._env["DATABASE_URL"].split("///", 1)[1]
    code = link.rstrip("/").rsplit("/", 1)[-1]
    with sqlite3.connect(path) as db:
        changed = db.execute("UPDATE rooms SET seed = ? WHERE code = ?", (SEED, code)).rowcount
    assert changed == 1, f"no room {code}"


def offered(client: Client) -> list[str]:
    return client.page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=moves] [data-legal=true]')]"
        ".map((b) => b.dataset.key)")


def test_two_friends_play_solomons_temple_to_the_end(open_client, server) -> None:
    started = time.monotonic()
    host = open_client("host")
    guest = open_client("guest", phone=True)
    host.choose_name("Ada")
    link = create_room(host)
    host.wait_live()
    guest.take_seat_from_link(link, "Bea")
    expect(host.page.get_by_test_id("seats").locator(".dot.open")).to_have_count(2)
    fix_seed(server, link)
    host.page.get_by_test_id("start").click()
    for client in (host, guest):
        expect(client.page.get_by_test_id("hand")).to_be_visible()
        expect(client.page.get_by_test_id("grid-0")).to_be_visible()
    seated = {c.seat: c for c in (host, guest)}
    assert sorted(seated) == [0, 1]
    assert host.state()["view"]["turn_limit"] == TURN_LIMIT

    steps, windows, watched = 0, 0, False
    while True:
        assert steps < MAX_STEPS
        state = host.state()
        if state["status"] == "finished":
            break
        mover = seated[state["to_act"][0]]
        other = guest if mover is host else host
        mine = mover.state()
        assert sorted(offered(mover)) == sorted(move_key(m) for m in mine["legal_moves"])
        assert offered(other) == []
        move = choose(mine["legal_moves"])
        if mine["view"]["step"] in ("sin", "answer", "blemish", "defend", "instant"):
            windows += 1
            expect(mover.page.get_by_test_id("window")).to_be_visible()
            expect(mover.page.locator('[data-key="type=pass"]')).to_be_visible()
        if move["type"] == "burnt" and not watched:
            watched = True
            mover.page.screenshot(path=str(ARTIFACTS / "solomons-temple-answer.png"))
            spectator = open_client("spectator")
            spectator.page.goto(link)
            expect(spectator.page.get_by_test_id("side-0")).to_be_visible()
            expect(spectator.page.get_by_text("hands are hidden")).to_be_visible()
            assert spectator.page.get_by_test_id("hand").count() == 0
            assert all(side["hand"] is None for side in spectator.state()["view"]["sides"])
        version = mine["version"]
        mover.page.locator(f'[data-key="{move_key(move)}"]').first.click()
        mover.page.wait_for_function(SETTLED, arg=version)
        other.page.wait_for_function(CAUGHT_UP, arg=mover.state()["version"])
        steps += 1
        if steps == 30:
            width = guest.page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE_WIDTH, f"the page is {width}px wide on a phone"

    assert watched, "the game never reached a Burnt Offering"
    assert windows > 0
    log = host.page.locator("body").inner_text()
    assert "answered with a Burnt Offering" in log and "answered with the Sin" in log
    for client in (host, guest):
        assert not client.page_errors, client.page_errors
    host.page.screenshot(path=str(ARTIFACTS / "solomons-temple-end.png"), full_page=True)
    print(json.dumps({"steps": steps, "windows": windows, "seconds": time.monotonic() - started}))
