"""Who beat whom (issue 37) in the browser: a Lucent game played to the end shows each seat's
rating and its change; "Play again" keeps the series and the room header shows its score; a
name opens the player's profile, where "Add friend" adds them; the friends page lists them as
in a room now. Screenshots of the profile and the friends list at 1280x800 and 390x844 go to
docs/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import lucent_pair, play_to_the_end

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
MINUS, DASH = "\u2212", "\u2013"  # the client's minus sign and the series score's dash
SIZES = {"1280x800": {"width": 1280, "height": 800}, "390x844": {"width": 390, "height": 844}}


def test_ratings_series_profile_and_a_friend(open_client) -> None:
    ann, cy, _ = lucent_pair(open_client)
    play_to_the_end(ann, {0: ann, 1: cy})

    # The end screen: each seat's rating after the game and its change; the winner gained.
    end = ann.page.get_by_test_id("end-screen")
    ratings = end.get_by_test_id("rating-change")
    expect(ratings).to_have_count(2)
    texts = ratings.all_inner_texts()
    assert all(re.fullmatch(rf"-?\d+\.\d \([+{MINUS}]\d+\.\d\)", t.strip()) for t in texts), texts
    winner = end.locator("tr.winner").get_by_test_id("rating-change")
    expect(winner).to_contain_text("(+")
    expect(end.get_by_test_id("end-series")).to_have_text(
        re.compile(f"Series: Ann [01] {DASH} [01] Cy"))

    # Play again: the next room carries the series score in its header.
    end.get_by_test_id("play-again").click()
    expect(ann.page.get_by_test_id("waiting-room")).to_be_visible()
    cy.page.get_by_test_id("end-screen").get_by_test_id("join-next").click()
    expect(ann.page.get_by_test_id("seats").locator(".dot.open")).to_have_count(2)
    score = ann.page.get_by_test_id("series-score")
    expect(score).to_be_visible()
    expect(score).to_have_text(re.compile(f"^Series Ann [01] {DASH} [01] Cy$"))

    # A name opens the profile: Cy's game, rating and chart, the head-to-head; add Cy.
    ann.page.get_by_test_id("seats").get_by_role("link", name="Cy").click()
    expect(ann.page.get_by_test_id("profile-name")).to_have_text("Cy")
    assert re.search(r"/p/[0-9a-f]+$", ann.page.url)
    games = ann.page.get_by_test_id("profile-games")
    expect(games.locator("tr[data-game=gem-pyramid] td").first).to_have_text("1")
    expect(games.get_by_test_id("rating-chart")).to_be_visible()
    expect(ann.page.get_by_test_id("head-to-head")).to_contain_text("in 1 game.")
    expect(ann.page.get_by_test_id("profile-recent").locator("li")).to_have_count(1)
    ann.page.get_by_test_id("friend-button").click()
    expect(ann.toast()).to_contain_text("Cy is now among your friends.")
    expect(ann.page.get_by_test_id("friend-button")).to_have_text("Remove friend")
    profile_url = ann.page.url
    shots = {}
    for size, viewport in SIZES.items():
        ann.page.set_viewport_size(viewport)
        expect(ann.page.get_by_test_id("profile-name")).to_be_visible()
        shots[f"profile-{size}"] = ann.page.screenshot()

    # The friends page: Cy, in a room now (the next game's waiting room).
    ann.page.set_viewport_size(SIZES["1280x800"])
    ann.page.get_by_test_id("friends-link").click()
    friends = ann.page.get_by_test_id("friends")
    expect(friends.locator("li")).to_have_count(1)
    expect(friends.get_by_role("link", name="Cy")).to_be_visible()
    expect(friends.get_by_test_id("friend-status")).to_have_text("in a room now")
    expect(ann.page.get_by_test_id("played-with")).to_contain_text("Cy")
    expect(ann.page.get_by_test_id("leaderboard").locator("li")).to_have_count(2)
    for size, viewport in SIZES.items():
        ann.page.set_viewport_size(viewport)
        expect(friends).to_be_visible()
        shots[f"friends-{size}"] = ann.page.screenshot()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, png in shots.items():
        (SHOTS / f"{name}.png").write_bytes(png)
    assert ann.page.url != profile_url
    assert not ann.page_errors and not cy.page_errors
