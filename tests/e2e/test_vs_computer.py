"""From the lobby, "Play vs computer" on Lucent's card: a started room with you and a `normal` bot,
played to the end (issue 26). The bot thinks in the server's pool; the test server runs bots at
a tenth of their search (BOT_BUDGET_SCALE, tests/server.py) so that the game stays short."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP

pytestmark = pytest.mark.e2e


def test_a_whole_lucent_game_against_a_normal_bot_from_the_lobby(open_client) -> None:
    me = open_client("solo")
    me.choose_name("Sol")
    card = me.page.locator("[data-game=gem-pyramid]")
    vs = card.get_by_test_id("vs-computer")
    # Lucent's smallest table with a bot in it: two players, you and the computer.
    expect(vs.get_by_test_id("vs-seats")).to_have_value("2")
    expect(vs.get_by_test_id("bot-level-choice")).to_have_value("normal")
    vs.get_by_test_id("bot-level-choice").select_option("normal")
    me.shot("vs-computer-card")
    vs.get_by_test_id("play-vs-computer").click()

    # No waiting room: the game is on, with the bot's level on its seat.
    expect(me.page.get_by_test_id("pyramid")).to_be_visible()
    me.wait_live()
    assert me.seat == 0
    players = me.page.get_by_test_id("player")
    expect(players).to_have_count(2)
    expect(players.nth(1).get_by_test_id("bot-level")).to_have_text("Bot · normal")
    expect(players.nth(0).get_by_test_id("bot-level")).to_have_count(0)

    end = me.page.get_by_test_id("end-screen")
    mine = 0
    for _ in range(80):  # Lucent is short: each player places a handful of gems
        expect(me.page.locator(f"{APP}[data-my-turn=true], [data-testid=end-screen]").first
               ).to_be_visible(timeout=60_000)  # the bot's turn; a loaded machine is slow
        if end.count():
            break
        me.play_one_gem()
        mine += 1
    expect(end).to_be_visible()
    state = me.state()
    assert state["status"] == "finished"
    assert mine > 0 and me.version > mine, "the bot played its share of the moves"
    expect(end.get_by_test_id("scores").locator("tbody tr")).to_have_count(2)
    me.shot("vs-computer-end")
    assert not me.page_errors
