"""A bot's moves stay the bot's: after the friend takes the seat back, the log still says which
moves the bot made, live and after a reload (read from the room's handovers until the server
records the mover with each move)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client, lucent_pair
from tests.server import Server, database, running_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """A server of its own: a one-second grace period before the table may vote a bot in."""
    with database("sqlite") as url, running_server(url, ABSENT_GRACE_SECONDS="1",
                                                   BOT_DELAY_MS="40") as srv:
        yield srv


def own_lines(client: Client) -> dict[int, str]:
    """Each move's own line in the log (version -> text)."""
    lines = client.page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=log-line]')].map((li) => [li.dataset.version, li.innerText])""")
    found: dict[int, str] = {}
    for version, text in lines:
        found.setdefault(int(version), re.sub(r"\s+", " ", text).strip())
    return found


def test_the_bots_moves_stay_the_bots_after_the_friend_takes_the_seat_back(open_client) -> None:
    ann, cy, link = lucent_pair(open_client)
    ann.play_one_gem()  # move 1: Ann's; now Cy is to play, and Cy has gone
    cy.page.close()
    ann.page.get_by_test_id("vote-bot").click()
    ann.wait_version(2)  # move 2: the bot's, for Cy
    ann.play_one_gem()  # move 3
    ann.wait_version(4)  # move 4: the bot's again

    cy.come_back(link)
    cy.page.get_by_test_id("reclaim").click()
    expect(cy.page.locator(APP)).to_have_attribute("data-seat", "1")
    cy.wait_live()
    ann.play_one_gem()  # move 5
    cy.play_one_gem()  # move 6: Cy's own
    ann.wait_version(6)

    for client in (ann, cy):
        for attempt in ("live", "after a reload"):
            client.page.wait_for_function(
                "() => !window.ziggurat.page.logGap() && !window.ziggurat.page.logLoading")
            lines = own_lines(client)
            assert lines[2].startswith("2 Bot for Cy placed"), (attempt, lines[2])
            assert lines[4].startswith("4 Bot for Cy placed"), (attempt, lines[4])
            assert lines[6].startswith("6 Cy placed"), (attempt, lines[6])
            assert lines[1].startswith("1 Ann placed"), (attempt, lines[1])
            if attempt == "live":
                client.page.reload()
                client.wait_version(6)
    assert not ann.page_errors and not cy.page_errors
