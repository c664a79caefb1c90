"""What a person does in the browser, as small steps the tests read like a story."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page, expect

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"  # kept with the docs
APP = "#app"


@dataclass
class Client:
    """One browser profile: a person (or a spectator) with their own page."""

    label: str
    page: Page
    base: str
    page_errors: list[str] = field(default_factory=list)

    # -- lobby -------------------------------------------------------------------------------

    def choose_name(self, name: str) -> None:
        self.page.goto(f"{self.base}/")
        self.page.fill("#name-input", name)
        self.page.get_by_role("button", name="Continue").click()
        expect(self.page.get_by_test_id("my-name")).to_have_text(name)
        expect(self.page.locator("[data-game=gem-pyramid]")).to_be_visible()

    def create_lucent(self, seats: int = 3, private: bool = True,
                      variants: tuple[str, ...] = (), standin: str | None = None) -> str:
        """From the lobby, make a Lucent room (`standin`: its stand-in bot's level, else left
        as it is); returns its invite link."""
        card = self.page.locator("[data-game=gem-pyramid]")
        card.locator("input[name=seats]").fill(str(seats))
        if standin:
            card.get_by_test_id("standin-choice").select_option(standin)
        if variants:
            self.open_variants(card)
        for name in variants:
            card.locator(f"input[name={name}]").check()
        if not private:
            card.locator("input[name=private]").uncheck()
        link = self.create_from(card)
        if standin:  # the waiting room says who will stand in for a player who goes
            expect(self.page.get_by_test_id("standin-note")).to_contain_text(f" {standin} bot")
        return link

    def create_from(self, card) -> str:
        """Press a game card's Create and wait in the new room until its socket is live;
        returns the invite link. The socket greets the page with the room, redrawing it: a
        click before that (Add a bot) could press a button the redraw replaces, and be lost."""
        card.get_by_test_id("create-room").click()
        expect(self.page.get_by_test_id("waiting-room")).to_be_visible()
        self.wait_live()
        return self.page.get_by_test_id("invite-link").input_value()

    @staticmethod
    def open_variants(card) -> None:
        """Variants are folded away on phones: unfold them."""
        details = card.locator("details.variants")
        if details.get_attribute("open") is None:
            details.locator("summary").click()

    def admin_after_a_wrong_token(self, token: str) -> None:
        """Open the admin console and sign in with a wrong token, which a plain toast refuses;
        then type `token` in its place (signing in, with or without a name, is the test's)."""
        self.page.goto(f"{self.base}/admin")
        self.page.get_by_test_id("admin-token").fill("wrong")
        self.page.get_by_role("button", name="Sign in").click()
        expect(self.toast()).to_contain_text("That is not the admin token.")
        self.page.get_by_test_id("admin-token").fill(token)

    # -- room --------------------------------------------------------------------------------

    def take_seat_from_link(self, link: str, name: str) -> None:
        """Open an invite link as a newcomer: type a name, take a seat."""
        self.page.goto(link)
        expect(self.page.get_by_test_id("waiting-room")).to_be_visible()
        self.page.get_by_placeholder("Your name").fill(name)
        self.page.get_by_role("button", name="Take a seat").click()
        expect(self.page.locator(APP)).not_to_have_attribute("data-seat", "")
        self.wait_live()

    def come_back(self, link: str) -> None:
        """The player, whose tab was closed, opens the room's link in a new tab of the same
        profile (same identity); its page errors are still collected."""
        self.page = self.page.context.new_page()
        self.page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        self.page.goto(link)

    def wait_live(self) -> None:
        expect(self.page.locator(APP)).to_have_attribute("data-conn", "open")

    @property
    def seat(self) -> int | None:
        raw = self.page.locator(APP).get_attribute("data-seat")
        return int(raw) if raw else None

    @property
    def version(self) -> int:
        return int(self.page.locator(APP).get_attribute("data-version") or 0)

    def state(self) -> dict:
        return self.page.evaluate("window.ziggurat && window.ziggurat.state")

    def gems_on_board(self) -> int:
        return self.page.locator("[data-testid=pyramid] .slot.filled").count()

    def wait_version(self, version: int) -> None:
        expect(self.page.locator(APP)).to_have_attribute("data-version", str(version))

    def play_one_gem(self) -> int:
        """It is my turn: pick a gem from my hand, then a highlighted slot. Returns the version."""
        page = self.page
        expect(page.locator(APP)).to_have_attribute("data-my-turn", "true")
        before = self.version
        page.locator("[data-testid=hand-gem]:not([disabled])").first.click()
        targets = page.locator("[data-testid=slot][data-legal=true]")
        expect(targets.first).to_be_visible()
        targets.first.click()
        expect(page.locator(APP)).not_to_have_attribute("data-version", str(before))
        return self.version

    def toast(self):
        return self.page.get_by_test_id("toast").last

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def boxes(self, *selectors: str) -> list[dict]:
        """The boxes of each selector's first element, measured in one script run.

        A locator's bounding_box() resolves the element, then asks for its box: a state push in
        between (a bot's move redraws the board) leaves a detached node and no box. One run of
        script sees one frame, so the boxes compared are of the same drawing.
        """
        found = self.page.evaluate(
            """(selectors) => selectors.map((s) => {
                const el = document.querySelector(s);
                if (!el) return null;
                const r = el.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height};
            })""", list(selectors))
        missing = [s for s, box in zip(selectors, found, strict=True) if box is None]
        assert not missing, f"nothing on the page matches {missing}"
        return found


def start_pair(open_client, create, phone: bool = False) -> tuple[Client, Client, str]:
    """Ada makes a room with `create(host)`, Bea takes the second seat from its link (on a
    phone if asked), and Ada, seeing both seats taken, starts the game. Gives host, guest, link."""
    host = open_client("host")
    guest = open_client("guest", phone=phone)
    host.choose_name("Ada")
    link = create(host)
    host.wait_live()
    guest.take_seat_from_link(link, "Bea")
    expect(host.page.get_by_test_id("seats").locator(".dot.open")).to_have_count(2)
    host.page.get_by_test_id("start").click()
    return host, guest, link


def lucent_pair(open_client, standin: str | None = None) -> tuple[Client, Client, str]:
    """Ann makes a two-seat Lucent room (with a `standin` level, if given), Cy takes the other
    seat from its link, Ann starts the game. Gives Ann, Cy and the link."""
    ann: Client = open_client("ann")
    ann.choose_name("Ann")
    link = ann.create_lucent(seats=2, standin=standin)
    cy: Client = open_client("cy")
    cy.take_seat_from_link(link, "Cy")
    ann.page.get_by_test_id("start").click()
    return ann, cy, link


def whose_turn(watcher: Client, seated: dict[int, Client], timeout: float = 10) -> Client | None:
    """The client to act now (per `watcher`'s state), or None once the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = watcher.state()
        if state and state["status"] == "finished":
            return None
        if state and state["status"] == "active" and state["to_act"]:
            seat = state["to_act"][0]
            if seat in seated:
                return seated[seat]
        time.sleep(0.05)
    raise AssertionError(f"nobody is to act after {timeout}s: {watcher.state()}")


def play_to_the_end(watcher: Client, seated: dict[int, Client], on_move=None,
                    max_moves: int = 100) -> int:
    """Each turn, the page of the seat to act clicks a gem and a slot, until the game ends."""
    for played in range(max_moves):
        mover = whose_turn(watcher, seated)
        if mover is None:
            return played
        version = mover.play_one_gem()
        if watcher is not mover:
            watcher.wait_version(version)
        if on_move is not None:
            on_move(played + 1, mover)
    raise AssertionError(f"the game did not end in {max_moves} moves")
