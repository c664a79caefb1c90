"""Replay in Chromium: a finished game stepped through move by move, from each seat's view."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP

pytestmark = pytest.mark.e2e


def _bots_game(base: str) -> tuple[str, dict]:
    """A Lucent room that two bots play (the host hands over its seat); not yet finished."""
    with httpx.Client(base_url=base, timeout=20) as http:
        host = http.post("/api/players", json={"name": "Rhea"}).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        code = http.post("/api/rooms", headers=auth,
                         json={"game": "gem-pyramid", "seats": 2}).json()["code"]
        http.post(f"/api/rooms/{code}/bots", headers=auth, json={"seat": 1})
        assert http.post(f"/api/rooms/{code}/start", headers=auth).status_code == 200
        return code, host


def _wait_finished(base: str, code: str, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        room = httpx.get(f"{base}/api/rooms/{code}").json()
        if room["status"] == "finished":
            return room["version"]
        time.sleep(0.2)
    raise AssertionError(f"the bots did not finish {code}")


def test_step_through_a_finished_game(open_client, server) -> None:
    code, host = _bots_game(server.url)
    viewer = open_client("viewer")
    page = viewer.page
    # While the game runs, the replay page shows nothing of it.
    page.goto(f"{server.url}/r/{code}/replay")
    expect(page.get_by_test_id("replay-closed")).to_contain_text("once the game is over")
    expect(page.get_by_test_id("board")).to_have_count(0)

    httpx.post(f"{server.url}/api/rooms/{code}/leave",
               headers={"Authorization": f"Bearer {host['token']}"})  # a bot finishes for Rhea
    last = _wait_finished(server.url, code)
    page.goto(f"{server.url}/r/{code}")  # the end screen leads to the replay
    page.get_by_test_id("end-screen").get_by_test_id("open-replay").click()
    app = page.locator(APP)
    expect(app).to_have_attribute("data-version", str(last))
    expect(page.get_by_test_id("replay-outcome")).to_be_visible()
    expect(app).to_have_attribute("data-view-seat", "")  # a visitor starts as a spectator
    filled = page.locator("[data-testid=pyramid] .slot.filled")

    page.get_by_test_id("replay-first").click()
    expect(app).to_have_attribute("data-version", "0")
    expect(filled).to_have_count(1)  # the Focus Gem, dealt at the bottom
    for version in (1, 2, 3):
        page.get_by_test_id("replay-next").click()
        expect(app).to_have_attribute("data-version", str(version))
        expect(filled).to_have_count(1 + version)
        expect(page.get_by_test_id("replay-text")).to_contain_text("Bot")
    page.get_by_test_id("replay-prev").click()
    expect(filled).to_have_count(3)
    expect(page.get_by_test_id("hand-gem")).to_have_count(0)  # a spectator sees no hand

    # Once the game is over, any seat's view may be picked: the first seat's hand appears.
    page.locator("[data-testid=view-seat][data-seat='0']").click()
    expect(app).to_have_attribute("data-view-seat", "0")
    expect(app).to_have_attribute("data-version", "2")
    expect(page.get_by_test_id("hand-gem").first).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(app).to_have_attribute("data-version", "3")
    page.get_by_test_id("replay-last").click()
    expect(app).to_have_attribute("data-version", str(last))
    expect(page.get_by_test_id("replay-outcome")).to_be_visible()
    viewer.shot("replay")
    assert not viewer.page_errors
