"""On a phone-sized screen, one person plays Lucent against bots, partly by keyboard."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP

pytestmark = pytest.mark.e2e
PHONE_WIDTH = 390


def _fits_the_screen(client) -> None:
    width = client.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"the page is {width}px wide on a {PHONE_WIDTH}px screen"


def test_a_phone_player_beats_or_loses_to_bots(open_client) -> None:
    me = open_client("phone", phone=True)
    me.choose_name("Mo")
    _fits_the_screen(me)
    me.shot("phone-lobby")
    me.create_lucent(seats=3, variants=("wildcard",))
    for bots in (1, 2):
        me.page.get_by_test_id("add-bot").first.click()
        expect(me.page.get_by_test_id("seats").locator(".tag.bot")).to_have_count(bots)
    expect(me.page.get_by_test_id("waiting-room")).to_contain_text("Variants: Wildcard")
    _fits_the_screen(me)
    me.shot("phone-waiting-room")
    me.page.get_by_test_id("start").click()
    expect(me.page.get_by_test_id("pyramid")).to_be_visible()

    # My first turn by keyboard alone: Enter on a gem jumps to a glowing slot; Enter places it.
    app = me.page.locator(APP)
    expect(app).to_have_attribute("data-my-turn", "true")
    before = me.version
    me.page.locator("[data-testid=hand-gem]:not([disabled])").first.focus()
    me.page.keyboard.press("Enter")
    expect(me.page.locator(".slot.target:focus")).to_have_count(1)
    me.shot("phone-game")
    _fits_the_screen(me)
    me.page.keyboard.press("Enter")
    expect(app).not_to_have_attribute("data-version", str(before))

    # The rest by tapping, while the bots answer, to the end of the game.
    end = me.page.get_by_test_id("end-screen")
    for _ in range(60):
        # Two bots answer first, each within its budget or the pool's fallback grace (5 s), the
        # first after the pool's workers start: generous, since CI may run several times slower.
        expect(me.page.locator(f"{APP}[data-my-turn=true], [data-testid=end-screen]").first
               ).to_be_visible(timeout=60_000)
        if end.count():
            break
        me.play_one_gem()
    expect(end).to_be_visible()
    expect(end.get_by_test_id("scores").locator("tbody tr")).to_have_count(3)
    expect(me.page.get_by_test_id("player")).to_have_count(3)
    expect(me.page.locator("[data-testid=player] .tag.bot")).to_have_count(2)
    # In one step in the page: a redraw after the end (a `room` message) replaces the end
    # screen's node, and Playwright's scroll, which waits for a node to be stable, then fails on
    # the detached one.
    me.page.evaluate("document.querySelector('[data-testid=end-screen]').scrollIntoView()")
    _fits_the_screen(me)
    me.shot("phone-end")
    assert not me.page_errors
