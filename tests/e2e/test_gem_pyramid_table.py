"""Lucent at the table (issue 22.4, 23.8): the last gem marked on every page, also after a reload;
a single game that does not speak of game numbers; the Points series' running score beside
each name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client, play_to_the_end, whose_turn

pytestmark = pytest.mark.e2e

NAMES = {"host": "Ada", "guest": "Bea"}


def two_players(open_client, variants=None) -> tuple[Client, Client, dict[int, Client]]:
    """Ada (desktop) makes a 2-seat Lucent room, Bea (phone) joins, Ada starts."""
    host, guest = open_client("host"), open_client("guest", phone=True)
    host.choose_name("Ada")
    if variants is None:
        link = host.create_lucent(seats=2)
    else:
        card = host.page.locator("[data-game=gem-pyramid]")
        card.locator("input[name=seats]").fill("2")
        host.open_variants(card)
        variants(card)
        card.get_by_test_id("create-room").click()
        expect(host.page.get_by_test_id("waiting-room")).to_be_visible()
        link = host.page.get_by_test_id("invite-link").input_value()
    host.wait_live()
    guest.take_seat_from_link(link, "Bea")
    host.page.get_by_test_id("start").click()
    for client in (host, guest):
        expect(client.page.get_by_test_id("pyramid")).to_be_visible()
    return host, guest, {c.seat: c for c in (host, guest)}


def check_last_marked(page_of: Client, mover: Client) -> None:
    """The gem `mover` just placed is the one marked on `page_of`, and named in words."""
    last = page_of.state()["view"]["last"]
    assert last is not None and last["seat"] == mover.seat
    marked = page_of.page.locator("[data-testid=slot][data-last=true]")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-row", str(last["row"]))
    expect(marked).to_have_attribute("data-pos", str(last["pos"]))
    who = "you" if page_of is mover else NAMES[mover.label]
    expect(page_of.page.get_by_test_id("lucent-last-move")).to_contain_text(
        f"Last move: {who} placed")


def test_the_last_gem_is_marked_and_a_single_game_has_no_number(open_client) -> None:
    host, guest, seated = two_players(open_client)
    expect(host.page.locator("[data-testid=slot][data-last=true]")).to_have_count(0)
    for _ in range(4):
        mover = whose_turn(host, seated)
        version = mover.play_one_gem()
        other = guest if mover is host else host
        other.wait_version(version)
        for page_of in (mover, other):
            check_last_marked(page_of, mover)
    # A reload keeps the mark: it comes from the view, not from the latest push's events.
    guest.page.reload()
    guest.wait_live()
    guest.wait_version(host.version)
    check_last_marked(guest, mover)
    guest.shot("lucent-last-gem-phone")
    # A plain game has no score, so the players panel shows none.
    expect(host.page.get_by_test_id("seat-score")).to_have_count(0)

    play_to_the_end(host, seated)
    log = host.page.get_by_test_id("log")
    expect(log).to_contain_text("placed the last gem and wins.")
    assert "wins game" not in log.inner_text()
    assert not host.page_errors and not guest.page_errors, host.page_errors + guest.page_errors


def test_a_points_series_shows_the_running_score_beside_each_name(open_client) -> None:
    def points_of_two(card) -> None:
        card.locator("input[name=points]").check()
        card.locator("input[name=games]").fill("2")

    host, guest, seated = two_players(open_client, points_of_two)
    for client in (host, guest):
        scores = client.page.get_by_test_id("seat-score")
        expect(scores).to_have_count(2)
        expect(scores.first).to_contain_text("0")
    while host.state()["view"]["game_no"] == 1:
        mover = whose_turn(host, seated)
        version = mover.play_one_gem()
        host.wait_version(version)
    view = host.state()["view"]
    assert sum(view["scores"]) >= 1, "the first game's last gem scored"
    for client in (host, guest):
        client.wait_version(host.version)
        for seat, points in enumerate(view["scores"]):
            expect(client.page.locator(f"[data-testid=seat-score][data-seat='{seat}']")
                   ).to_have_text(f"{points} {'pt' if points == 1 else 'pts'}")
    log = host.page.get_by_test_id("log")
    expect(log).to_contain_text("wins game 1 of 2, scoring a point")
    expect(host.page.locator(APP)).to_have_attribute("data-status", "active")
    host.shot("lucent-points-running-score")
    assert not host.page_errors and not guest.page_errors, host.page_errors + guest.page_errors
