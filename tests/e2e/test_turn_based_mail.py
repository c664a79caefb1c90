"""A turn-based game in the browser, told by mail: Cy confirms an address in the Notifications
dialog and closes the tab; Ann moves; Cy's mailbox (a real SMTP server in the test process)
receives "your turn", and its link opens the room on Cy's turn in a fresh browser profile signed
in as Cy (the token seeded into its storage, as a second device of Cy's would hold it)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.pages import APP, Client
from tests.notify.parts import WAIT, Mailbox, links, server_for, started, text_of
from tests.server import Server, database

pytestmark = pytest.mark.e2e
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ADDRESS = "cy@example.org"


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox().start()
    yield box
    box.stop()


@pytest.fixture(scope="module")
def server(mailbox: Mailbox) -> Iterator[Server]:
    with database("sqlite") as url, started(server_for(url, mailbox)) as srv:
        yield srv


def _mail(mailbox: Mailbox, subject: str):
    deadline = time.monotonic() + WAIT
    while True:
        found = [m for m in mailbox.to(ADDRESS) if subject in m["Subject"]]
        if found:
            return found[-1]
        assert time.monotonic() < deadline, f"no mail {subject!r} to {ADDRESS}"
        time.sleep(0.05)


def test_your_turn_by_mail_opens_the_room_on_another_device(
        open_client, browser: Browser, mailbox: Mailbox) -> None:
    ann: Client = open_client("ann")
    ann.choose_name("Ann")
    card = ann.page.locator("[data-game=gem-pyramid]")
    card.locator("input[name=seats]").fill("2")
    card.get_by_test_id("turn-clock-choice").select_option("tb:86400")
    link = ann.create_from(card)
    expect(ann.page.get_by_test_id("clock-note")).to_contain_text("Turn-based: 1 day a move")

    cy: Client = open_client("cy")
    cy.take_seat_from_link(link, "Cy")
    cy.page.get_by_test_id("notifications").click()
    dialog = cy.page.get_by_test_id("notifications-dialog")
    dialog.locator("#notify-email").fill(ADDRESS)
    dialog.get_by_test_id("notifications-save").click()
    expect(dialog.get_by_test_id("notifications-status")).to_contain_text("Check the mailbox")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    dialog.screenshot(path=str(SCREENSHOTS / "notifications-dialog.png"))
    dialog.get_by_role("button", name="Close").click()
    [confirm] = links(_mail(mailbox, "Confirm your address"))
    identity = json.loads(cy.page.evaluate("localStorage.getItem('ziggurat.player')"))

    ann.page.get_by_test_id("start").click()
    expect(cy.page.locator(APP)).to_have_attribute("data-version", "0")
    checked = cy.page.context.new_page()
    checked.goto(confirm)
    expect(checked.locator("h1")).to_have_text("Address confirmed")
    checked.close()
    cy.page.close()  # Cy closes the tab, and Ann's page sees Cy go
    expect(ann.page.locator("[data-testid=player][data-seat='1'] .dot.open")).to_have_count(0)

    ann.play_one_gem()
    mail = _mail(mailbox, "Your turn")
    room_link = next(u for u in links(mail) if "/r/" in u)
    assert room_link == link.split("?")[0] and "Lucent" in text_of(mail)

    # A second device of Cy's: a fresh profile holding Cy's token.
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    other.add_init_script(
        f"localStorage.setItem('ziggurat.player', {json.dumps(json.dumps(identity))})")
    page = other.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(room_link)
    expect(page.locator(APP)).to_have_attribute("data-seat", "1")
    expect(page.locator(APP)).to_have_attribute("data-my-turn", "true")
    expect(page.get_by_test_id("absent")).to_have_count(0)  # nobody is away in turn-based play
    other.close()
    assert not ann.page_errors and not errors
