"""An absent player in the browser: the others vote a bot in (at the stand-in level the room was
made with); the player comes back and takes the seat back. Everyone reads what happened in the
banner and the log."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, lucent_pair, whose_turn
from tests.server import ADMIN_TOKEN, Server, database, running_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """A server of its own: a one-second grace period instead of a minute."""
    with database("sqlite") as url, running_server(url, ABSENT_GRACE_SECONDS="1") as srv:
        yield srv


def test_the_table_votes_a_bot_in_and_the_player_takes_the_seat_back(open_client,
                                                                     server) -> None:
    ann, cy, link = lucent_pair(open_client, standin="easy")
    expect(cy.page.get_by_test_id("pyramid")).to_be_visible()
    for _ in range(2):  # a round first: the hand-overs below come after move 2
        whose_turn(ann, {ann.seat: ann, cy.seat: cy}).play_one_gem()
    ann.wait_version(2)

    cy.page.close()  # the laptop lid closes
    vote = ann.page.get_by_test_id("vote-bot")
    expect(ann.page.get_by_test_id("absent")).to_contain_text("Cy")
    expect(ann.page.get_by_test_id("absent")).to_contain_text("If you do, an easy bot")
    vote.click()
    expect(ann.page.get_by_test_id("replaced-seat")).to_contain_text("A bot is playing for Cy")
    expect(ann.page.locator("[data-testid=player][data-seat='1']").get_by_test_id("bot-level")
           ).to_have_text("Bot · easy")
    expect(ann.page.get_by_test_id("handover-line")).to_have_text(
        "Cy was away: the other players voted a bot into the seat.")

    cy.come_back(link)
    expect(cy.page.get_by_test_id("replaced-me")).to_contain_text("You were away")
    cy.page.get_by_test_id("reclaim").click()
    expect(cy.page.locator(APP)).to_have_attribute("data-seat", "1")
    expect(cy.page.get_by_test_id("replaced-me")).to_have_count(0)
    expect(ann.page.get_by_test_id("handover-line").first).to_have_text(
        "Cy is back and took the seat over from the bot.")
    expect(ann.page.get_by_test_id("returned")).to_have_text(
        "Cy is back and plays their own seat again.")
    expect(ann.page.locator("[data-testid=player][data-seat='1'] .dot.open")).to_be_visible()
    cy.shot("absent-player-back")
    # Old news once the table has played a round since (issue 39.9): it does not stay.
    for _ in range(2):
        whose_turn(ann, {ann.seat: ann, cy.seat: cy}).play_one_gem()
    expect(ann.page.get_by_test_id("returned")).to_have_count(0)
    expect(ann.page.get_by_test_id("handover-line").first).to_have_text(
        "Cy is back and took the seat over from the bot.")  # the log keeps it

    # The admin rolls the game back to the deal: the hand-overs happened before the rollback,
    # so they sit at move 0 under its line, never above the moves played after it (39.6).
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    httpx.post(f"{server.url}/api/admin/rooms/{link.rsplit('/', 1)[1]}/rollback", headers=admin,
               json={"version": 0}).raise_for_status()
    ann.wait_version(0)
    lines = ann.page.locator("[data-testid=log] > li")
    expect(lines.first).to_have_text("The admin rolled the game back to move 0.")
    handovers = ann.page.get_by_test_id("handover-line")
    expect(handovers).to_have_count(2)
    for i in range(2):
        expect(handovers.nth(i)).to_have_attribute("data-version", "0")
    whose_turn(ann, {ann.seat: ann, cy.seat: cy}).play_one_gem()
    expect(lines.first).to_have_attribute("data-version", "1")  # the new move is on top
    assert not ann.page_errors and not cy.page_errors
