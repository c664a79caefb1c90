"""What the players read when the admin steps in: a rollback, a hand-over and an abort each
told as it happened (the browser's side; the server's own log lines for them come later)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client
from tests.server import ADMIN_TOKEN

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def test_players_read_the_true_story_of_a_rollback_a_handover_and_an_abort(
        open_client, server) -> None:
    ann: Client = open_client("ann")
    ann.choose_name("Ann")
    link = ann.create_lucent(seats=2)
    ben: Client = open_client("ben")
    ben.take_seat_from_link(link, "Ben")
    ann.page.get_by_test_id("start").click()
    code = link.rsplit("/", 1)[1]
    for mover in (ann, ben, ann, ben):
        mover.play_one_gem()
    ann.wait_version(4)

    with httpx.Client(base_url=server.url, headers=ADMIN) as http:
        http.post(f"/api/admin/rooms/{code}/rollback", json={"version": 2}).raise_for_status()
        for client in (ann, ben):
            client.wait_version(2)
            expect(client.page.get_by_test_id("toast").filter(
                has_text="rolled back to move 2")).to_be_visible()
            expect(client.page.get_by_test_id("admin-line")).to_contain_text(
                "The admin rolled the game back to move 2.")  # the server's `admin_log`
            expect(client.page.locator("[data-testid=log-line][data-version='3']")).to_have_count(0)

        http.post(f"/api/admin/rooms/{code}/bot", json={"seat": 1}).raise_for_status()
        expect(ben.page.get_by_test_id("replaced-me")).to_contain_text(
            "The admin handed your seat to a bot")
        expect(ann.page.get_by_test_id("handover-line")).to_contain_text("by the admin")
        expect(ann.page.get_by_test_id("admin-line").filter(
            has_text="The admin handed Ben's seat to a bot.")).to_have_count(1)

        http.post(f"/api/admin/rooms/{code}/abort").raise_for_status()
    expect(ann.page.locator(APP)).to_have_attribute("data-status", "aborted")
    expect(ann.page.get_by_test_id("banner")).to_contain_text("The admin closed this room.")
    expect(ann.page.get_by_test_id("closed")).not_to_contain_text("host left")
    expect(ann.page.locator("[data-testid=player][data-acting=true]")).to_have_count(0)
    assert not ann.page_errors and not ben.page_errors
