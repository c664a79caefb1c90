"""Life at the table in Chromium: chat with spectators and the host's mute, who is watching,
rules help, the end screen's score breakdown, turn signals and losing the network."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client, play_to_the_end

pytestmark = pytest.mark.e2e


def _say(client: Client, text: str) -> None:
    client.page.get_by_test_id("chat-input").fill(text)
    client.page.get_by_test_id("chat-send").click()


def test_players_and_spectators_chat_and_the_host_mutes_spectators(open_client) -> None:
    host, visitor, fan = (open_client(n) for n in ("host", "visitor", "fan"))
    phone = open_client("phone", phone=True)
    host.choose_name("Ada")
    link = host.create_lucent(seats=2)

    # A visitor with no name yet: the empty seat is not "you", and the rules are one click away.
    visitor.page.goto(link)
    waiting = visitor.page.get_by_test_id("waiting-room")
    expect(waiting).to_be_visible()
    expect(waiting.locator(".tag.you")).to_have_count(0)
    waiting.get_by_test_id("rules-button").click()
    rules = visitor.page.get_by_test_id("rules")
    expect(rules).to_contain_text("The last player to place a gem wins")
    expect(rules.get_by_test_id("reconstruction").first).to_be_visible()
    rules.get_by_test_id("rules-close").click()
    expect(rules).to_have_count(0)

    # Friends can talk while they wait; a visitor reads along until they pick a name.
    _say(host, "welcome!")
    expect(visitor.page.get_by_test_id("chat-line").last).to_contain_text("welcome!")
    expect(visitor.page.get_by_test_id("chat-note")).to_contain_text("Pick a name")
    expect(visitor.page.get_by_test_id("chat-input")).to_be_disabled()

    host.page.get_by_test_id("add-bot").click()
    expect(host.page.get_by_test_id("start")).to_be_enabled()
    host.page.get_by_test_id("start").click()
    expect(host.page.get_by_test_id("pyramid")).to_be_visible()

    fan.choose_name("Fan")
    fan.page.goto(link)
    phone.choose_name("Pho")
    phone.page.goto(link)
    for client in (fan, phone):
        expect(client.page.get_by_test_id("pyramid")).to_be_visible()
    expect(host.page.get_by_test_id("watchers")).to_contain_text("3 watching")
    expect(host.page.get_by_test_id("watchers")).to_contain_text("Fan")

    # Text only: markup arrives as the characters typed, never as elements.
    _say(fan, "<img src=x onerror=alert(1)> go Ada!")
    line = host.page.get_by_test_id("chat-line").last
    expect(line).to_contain_text("<img src=x onerror=alert(1)> go Ada!")
    expect(line).to_contain_text("Fan (watching)")
    assert host.page.locator("[data-testid=chat-list] img").count() == 0

    # On the phone the chat sits below the board: an unread marker says something was said.
    _say(host, "thanks!")
    expect(phone.page.get_by_test_id("chat-unread")).to_have_text("2")  # history is not unread
    phone.page.get_by_test_id("chat-fab").click()
    expect(phone.page.get_by_test_id("chat-unread")).to_be_hidden()
    expect(phone.page.get_by_test_id("chat-fab")).to_be_hidden()  # it would cover the input
    expect(phone.page.get_by_test_id("chat-line").last).to_contain_text("thanks!")

    # The host mutes spectators: they read along but cannot talk; players still can.
    host.page.get_by_test_id("mute-spectators").check()
    expect(fan.page.get_by_test_id("chat-input")).to_be_disabled()
    expect(fan.page.get_by_test_id("chat-note")).to_contain_text("muted")
    _say(host, "quiet please")
    expect(fan.page.get_by_test_id("chat-line").last).to_contain_text("quiet please")

    host.shot("chat-desktop")
    for client in (host, phone):  # the chat column never widens the page
        width = client.page.evaluate("document.documentElement.scrollWidth")
        assert width <= client.page.viewport_size["width"], width
    phone.shot("chat-phone")

    # A reload brings the history back.
    fan.page.reload()
    expect(fan.page.get_by_test_id("chat-line")).to_have_count(4)
    assert not host.page_errors and not fan.page_errors and not phone.page_errors


def test_the_end_screen_breaks_the_score_down_and_turn_signals_beep(open_client) -> None:
    host = open_client("solo")
    host.choose_name("Ada")
    host.page.locator("[data-game=gem-pyramid]").get_by_test_id("rules-button").click()
    expect(host.page.get_by_test_id("rules")).to_contain_text("Lucent")
    host.page.get_by_test_id("rules-close").click()
    host.create_lucent(seats=2, variants=("points",))
    host.page.get_by_test_id("add-bot").click()
    host.page.get_by_test_id("sound-toggle").click()  # turning it on beeps once, as a sample
    expect(host.page.locator("html")).to_have_attribute("data-beeps", "1")
    host.page.get_by_test_id("start").click()
    expect(host.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    expect(host.page.locator("html")).not_to_have_attribute("data-beeps", "1")  # my turn: a beep

    # With alerts on, a turn that comes while the tab is hidden shows a browser notification.
    host.page.context.grant_permissions(["notifications"])
    host.page.get_by_test_id("notify-toggle").click()
    expect(host.page.get_by_test_id("notify-toggle")).to_have_attribute("aria-pressed", "true")
    host.page.evaluate("""() => Object.defineProperty(
        document, 'visibilityState', { configurable: true, get: () => 'hidden' })""")
    host.play_one_gem()
    expect(host.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    expect(host.page.locator("html")).to_have_attribute("data-notes", "1")
    host.page.evaluate("() => delete document.visibilityState")

    # In the game, the rules are in the top bar.
    host.page.locator(".topbar").get_by_test_id("rules-button").click()
    expect(host.page.get_by_test_id("rules")).to_be_visible()
    host.page.get_by_test_id("rules-close").click()

    play_to_the_end(host, {0: host}, max_moves=200)
    expect(host.page.locator(APP)).to_have_attribute("data-status", "finished")
    outcome = host.state()["outcome"]
    table = host.page.get_by_test_id("breakdown")
    expect(table).to_be_visible()
    for seat, score in enumerate(outcome["scores"]):
        total = table.locator(f"[data-testid=breakdown-total][data-seat='{seat}']")
        expect(total).to_have_text(f"{score:g}")
        assert sum(outcome["breakdown"][seat].values()) == score
    expect(table.locator("tr[data-category='Last gem placed']")).to_be_visible()
    host.shot("end-breakdown")
    assert max(outcome["scores"]) == outcome["scores"][outcome["winners"][0]]
    assert not host.page_errors


def test_an_offline_phone_stops_taking_moves_at_once(open_client) -> None:
    phone = open_client("phone", phone=True)
    phone.choose_name("Pho")
    phone.create_lucent(seats=2)
    phone.page.get_by_test_id("add-bot").click()
    expect(phone.page.get_by_test_id("start")).to_be_enabled()
    phone.page.get_by_test_id("start").click()
    expect(phone.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    playable = phone.page.locator("[data-testid=hand-gem]:not([disabled])")
    expect(playable.first).to_be_visible()

    phone.page.context.set_offline(True)
    expect(phone.page.get_by_test_id("conn")).not_to_contain_text("Live", timeout=3000)
    expect(phone.page.locator(APP)).to_have_attribute("data-my-turn", "false")
    expect(playable).to_have_count(0)

    phone.page.context.set_offline(False)
    phone.wait_live()
    expect(phone.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    phone.play_one_gem()
    assert not phone.page_errors


def _in_view(client: Client, testid: str) -> bool:
    """Whether the element is wholly inside the viewport (not scrolled away, not below the fold)."""
    return client.page.get_by_test_id(testid).first.evaluate(
        """(el) => { const r = el.getBoundingClientRect();
                     return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""")


def test_the_lucent_hand_is_in_view_on_a_laptop_screen(open_client, browser, server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop = Client("laptop", context.new_page(), server.url)
    try:
        laptop.choose_name("Lap")
        laptop.create_lucent(seats=3)
        for _ in range(2):
            laptop.page.get_by_test_id("add-bot").first.click()
            laptop.page.wait_for_timeout(100)
        laptop.page.get_by_test_id("start").click()
        expect(laptop.page.locator(APP)).to_have_attribute("data-my-turn", "true")
        expect(laptop.page.get_by_test_id("prompt")).to_contain_text("pick a gem from your hand")
        laptop.page.evaluate("window.scrollTo(0, 0)")
        assert _in_view(laptop, "prompt")
        hand = laptop.page.locator("[data-testid=hand-gem]").last
        assert hand.evaluate("(el) => el.getBoundingClientRect().bottom <= window.innerHeight"), \
            "the hand is below the fold at 1280x800"
    finally:
        context.close()


def test_temple_rush_on_a_phone_keeps_the_banner_and_my_controls_in_view(open_client) -> None:
    from tests.e2e.test_temple_rush import create_temple_rush

    phone = open_client("phone", phone=True)
    phone.choose_name("Pho")
    create_temple_rush(phone, seats=2)
    phone.page.get_by_test_id("add-bot").click()
    phone.page.get_by_test_id("start").click()
    expect(phone.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    expect(phone.page.get_by_test_id("tr-controls")).to_be_visible()
    # A power's meaning is one hover away.
    tip = phone.page.get_by_test_id("power").first.get_attribute("title") or ""
    assert "Once per game" in tip
    # Scroll down through my zones (how far depends on the deal's temple shapes: 96-349 px
    # seen): the banner and my prompt stay on screen. Then to the page's foot, past my area,
    # where my prompt may go but the turn banner stays.
    phone.page.evaluate("""() => {
        const zones = document.querySelectorAll('[data-testid=tr-me] [data-testid=tr-zone]');
        zones[zones.length - 1].scrollIntoView({ block: 'end' }); }""")
    phone.page.wait_for_timeout(200)
    assert phone.page.evaluate("window.scrollY") > 50, "the page did not scroll"
    assert _in_view(phone, "banner"), "the turn banner scrolled away"
    assert _in_view(phone, "tr-prompt"), "my prompt scrolled away"
    phone.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    phone.page.wait_for_timeout(200)
    assert phone.page.evaluate("window.scrollY") > 600, "the page did not reach its foot"
    assert _in_view(phone, "banner"), "the turn banner scrolled away at the page's foot"
    assert not phone.page_errors
