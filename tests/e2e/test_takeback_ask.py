"""An asked take-back in the browser (issue 39, point 7): in Temple Rush for three, Ada and
Bea each lay a block; Ada presses "Ask to take back", Bea and Cy each press Accept, and every
table goes back to before Ada's block, with the log line naming the move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import Client
from tests.e2e.test_temple_rush import create_temple_rush

pytestmark = pytest.mark.e2e
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _table(client: Client) -> str:
    state = client.state()
    return json.dumps([state["view"], state["legal_moves"], state["to_act"]], sort_keys=True)


def _move(client: Client, version: int) -> None:
    """Lay the first block offered, sent as the page sends moves; wait for its ack."""
    client.page.evaluate(
        """v => window.ziggurat.sendRaw({type: 'move', id: 'e2e-' + v, version: v,
                                          move: window.ziggurat.state.legal_moves[0]})""",
        version)
    client.page.wait_for_function("v => window.ziggurat.page.myVersions.has(v)", arg=version + 1)


def test_ask_to_take_back_and_everyone_accepts(open_client) -> None:
    ada, bea, cy = open_client("ada"), open_client("bea"), open_client("cy")
    ada.choose_name("Ada")
    link = create_temple_rush(ada, 3)
    bea.take_seat_from_link(link, "Bea")
    cy.take_seat_from_link(link, "Cy")
    expect(ada.page.get_by_test_id("seats").locator(".dot.open")).to_have_count(3)
    ada.page.get_by_test_id("start").click()
    everyone = (ada, bea, cy)
    for client in everyone:
        client.wait_version(0)
        client.page.wait_for_function("() => window.ziggurat.state?.status === 'active'")
    deal = [_table(client) for client in everyone]

    _move(ada, 0)
    expect(bea.page.get_by_test_id("ask-take-back")).to_have_count(0)  # Bea has not moved
    _move(bea, 1)
    for client in everyone:
        client.wait_version(2)
    expect(ada.page.get_by_test_id("take-back")).to_have_count(0)  # Bea moved since: not free
    ada.page.get_by_test_id("ask-take-back").click()
    expect(ada.page.get_by_test_id("takeback-notice")).to_contain_text(
        "You asked to take back move 1")
    for client in (bea, cy):
        expect(client.page.get_by_test_id("takeback-notice")).to_contain_text(
            "Ada asks to take back move 1")
    bea.page.screenshot(path=str(SCREENSHOTS / "takeback-ask.png"))
    bea.page.get_by_test_id("takeback-accept").click()
    expect(bea.page.get_by_test_id("takeback-accept")).to_have_count(0)
    expect(ada.page.get_by_test_id("takeback-notice")).to_contain_text("Waiting for Cy…")
    cy.page.get_by_test_id("takeback-accept").click()
    for client, before in zip(everyone, deal, strict=True):
        client.wait_version(0)
        assert _table(client) == before, f"{client.label}'s table did not go back"
        expect(client.page.get_by_test_id("takeback-notice")).to_be_empty()
        line = client.page.get_by_test_id("admin-line").filter(has_text="Ada took back move 1:")
        expect(line).to_contain_text("Bea and Cy agreed")
        assert not client.page_errors, client.page_errors
