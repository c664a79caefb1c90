"""Learn by playing: each game's tutorial completed by clicking the marked targets on a phone,
with one wrong click answered with its reason; two steps of each pictured at desktop and phone
size (docs/screenshots/learn-<game>-<step>-<size>.png)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.learn.tutorials import tutorial_of
from tests.e2e.pages import Client

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CLICKABLE = ":is(button, [role=button], [data-legal=true]):not([disabled])"


def lucent_wrong(page: Page) -> None:
    """The marked slot before its gem is chosen (it takes nothing yet: said so), then another
    legal slot for the step's gem."""
    page.locator("[data-testid=board] div.slot.learn-target").click()
    expect(page.get_by_test_id("learn-feedback")).to_contain_text("takes nothing yet")
    page.locator("[data-testid=board] .learn-target[data-testid=hand-gem]").click()
    board = page.get_by_test_id("board")
    board.locator("button.slot[data-legal=true]:not(.learn-target)").first.click()


def rush_wrong(page: Page) -> None:
    """The die's block, turned as marked, on another + cell."""
    page.locator("[data-testid=board] [data-testid=tr-anchor]:not(.learn-target)").first.click()


def realms_wrong(page: Page) -> None:
    """Another spot for the drawn card (every move of 5 Realms is a button of its own)."""
    page.locator("[data-testid=board] [data-testid=fr-move]:not(.learn-target)").first.click()


def five_wrong(page: Page) -> None:
    """Another destination for a drafted tile."""
    page.locator('[data-testid=board] [data-key^="assign-"]:not(.learn-target)').first.click()


def solomon_wrong(page: Page) -> None:
    """Pass instead of answering Ravi's build with a Sin."""
    page.locator('[data-testid=board] [data-testid=move-pass]').click()


# Per game: the step of the wrong click, how to make it, and the two steps pictured.
WRONG: dict[str, tuple[int, Callable[[Page], None], tuple[int, int]]] = {
    "gem-pyramid": (0, lucent_wrong, (0, 6)),
    "temple-rush": (0, rush_wrong, (1, 10)),
    "five-realms": (0, realms_wrong, (3, 10)),
    "temple-of-five": (5, five_wrong, (1, 8)),
    "solomons-temple": (3, solomon_wrong, (3, 12)),
}


def targets(page: Page) -> list[str]:
    return page.evaluate("() => window.zigguratLearn.targets()")


# A target is ready to click, or the step is already made (a mouse builds a Temple of Five tile
# on its first click; a finger previews it first and confirms with "Place here").
READY_OR_MADE = """([selector, n]) => window.zigguratLearn.page.step.step !== n
  || document.querySelector(`[data-testid=board] ${selector}`) !== null"""


def make_the_step(page: Page) -> None:
    """Click the step's marked targets in order (a selection, then its place, …)."""
    n = page.evaluate("() => window.zigguratLearn.page.step.step")
    for selector in targets(page):
        clickable = f"{selector}{CLICKABLE}"
        page.wait_for_function(READY_OR_MADE, arg=[clickable, n])
        if page.evaluate("() => window.zigguratLearn.page.step.step") != n:
            return
        page.locator(f"[data-testid=board] {clickable}").first.click()


def picture(page: Page, game_id: str, n: int) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(SCREENSHOTS / f"learn-{game_id}-{n + 1}-{size}.png"))
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("game_id", list(WRONG))
def test_a_tutorial_is_completed_by_clicking(open_client, game_id: str) -> None:
    tutorial = tutorial_of(game_id)
    assert tutorial is not None
    wrong_at, wrong_click, shots = WRONG[game_id]
    client: Client = open_client("learner", phone=True)
    page = client.page
    # Lucent's learner comes from the lobby's game card, with a name; the others by the link.
    named = game_id == "gem-pyramid"
    if named:
        client.choose_name("Ada")
        page.locator(f"[data-game={game_id}] [data-testid=learn-link]").click()
    else:
        page.goto(f"{client.base}/learn/{game_id}")
    total = len(tutorial.steps)
    for n, step in enumerate(tutorial.steps):
        expect(page.get_by_test_id("learn-count")).to_have_text(f"Step {n + 1} of {total}")
        expect(page.get_by_test_id("learn-say")).to_have_text(step.say)
        expect(page.locator("[data-testid=board] .learn-target").first).to_be_visible()
        if n == wrong_at:
            wrong_click(page)
            feedback = page.get_by_test_id("learn-feedback")
            expect(feedback).to_contain_text(step.wrong)
            expect(feedback).to_have_attribute("data-kind", "wrong")
            expect(page.get_by_test_id("learn-count")).to_have_text(f"Step {n + 1} of {total}")
        if n in shots:
            picture(page, game_id, n)
        if game_id == "solomons-temple":  # every step is the learner's: no "Pass for me" here
            expect(page.get_by_test_id("auto-pass")).to_have_count(0)
        make_the_step(page)
    expect(page.get_by_test_id("learn-ready")).to_have_text("You're ready")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the tutorial is {width}px wide on a phone"
    if named:
        page.get_by_test_id("learn-play").click()
    else:
        name_and_play(page)
    expect(page.locator("#app")).to_have_attribute("data-status", "active")
    assert page.url.startswith(f"{client.base}/r/")
    if named:  # the room's "Rules" leads back to the tutorial
        page.get_by_test_id("rules-button").first.click()
        link = page.get_by_test_id("rules").get_by_test_id("learn-link")
        expect(link).to_have_attribute("href", f"/learn/{game_id}")
        page.get_by_test_id("rules-close").click()
    # Against the computer alone, a hint: the normal bot's move, marked on the board, in words.
    expect(page.locator("#app")).to_have_attribute("data-my-turn", "true")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-text")).to_contain_text("the computer's move")
    expect(page.locator("[data-testid=board] .hint-target").first).to_be_attached()
    assert not client.page_errors, client.page_errors


def name_and_play(page: Page) -> None:
    """A newcomer has no name yet: the end of the tutorial asks for one, then starts the game."""
    form = page.get_by_test_id("learn-step").locator("form")
    form.locator("input").fill("Newcomer")
    form.locator("button[type=submit]").click()
