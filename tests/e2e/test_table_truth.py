"""The table tells the truth (issue 23, the browser's part): a live log that loses no line, a
clock you can see on a phone, a visitor who names themselves and chats, and a "your turn" beep
only when the turn comes from someone else."""

from __future__ import annotations

import itertools
import random
import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client

pytestmark = pytest.mark.e2e

# Every line of the move log as the page shows it: version, text, private tag.
LOG_LINES = """() => [...document.querySelectorAll('[data-testid=log] li')].map(
  (li) => li.innerText.replace(/\\s+/g, ' ').replace(/ last move\\b/, '').trim())"""
# The page holds every move's own line and is not fetching the log.
LOG_SETTLED = """() => { const p = window.ziggurat && window.ziggurat.page;
  return p && p.state && !p.logGap() && !p.logLoading && !p.pending.size; }"""
SETTLED = "v => window.ziggurat.state.version > v && !window.ziggurat.page.pending.size"
# Every state push, with whether it has my seat to act and the beeps counted once it is handled.
RECORD_PUSHES = """() => {
  const page = window.ziggurat.page;
  const handle = page.onState.bind(page);
  window.pushes = [];
  page.onState = (m) => { handle(m); window.pushes.push({ version: m.version,
    mine: m.status === 'active' && m.to_act.includes(m.seat),
    beeps: Number(document.documentElement.dataset.beeps || 0) }); }; }"""


def play(client: Client, move: dict) -> None:
    """Send one of the offered moves the way the renderers do (ctx.play), and wait for it."""
    version = client.version
    client.page.evaluate("m => window.ziggurat.page.play(m).catch(() => {})", move)
    client.page.wait_for_function(SETTLED, arg=version)


def start_with_bots(client: Client, game: str, seats: int) -> None:
    """From the lobby: a room of `game` with me and bots in every other seat, started."""
    card = client.page.locator(f"[data-game={game}]")
    seats_box = card.locator("input[name=seats]")
    if seats_box.is_editable():
        seats_box.fill(str(seats))
    client.create_from(card)
    for _ in range(seats - 1):
        client.page.get_by_test_id("add-bot").first.click()
        expect(client.page.locator("[data-testid=seats] .tag.bot")).to_have_count(_ + 1)
    client.page.get_by_test_id("start").click()
    expect(client.page.locator(APP)).to_have_attribute("data-status", "active")
    client.wait_live()


def test_the_live_log_of_a_temple_of_five_draft_equals_the_log_after_a_reload(open_client) -> None:
    rng = random.Random(23)
    me = open_client("drafter")
    me.choose_name("Ada")
    start_with_bots(me, "temple-of-five", 3)

    # The whole draft, then the build until only my tile is left to place: the bots are done
    # and the log stands still.
    for _ in range(60):
        state = me.state()
        view = state["view"]
        if view["phase"] == "build" and state["to_act"] == [me.seat]:
            break
        if me.seat in state["to_act"] and state["legal_moves"] and view["phase"] == "draft":
            play(me, rng.choice(state["legal_moves"]))
        else:
            me.page.wait_for_timeout(100)
    else:
        raise AssertionError(f"the draft did not end: {me.state()}")
    me.page.wait_for_function(LOG_SETTLED)
    live = me.page.evaluate(LOG_LINES)
    version = me.version

    me.page.reload()
    me.wait_version(version)
    me.page.wait_for_function(LOG_SETTLED)
    reloaded = me.page.evaluate(LOG_LINES)
    assert live == reloaded

    # Complete: every move has its own line, numbered, in order; the move that finished the
    # draft shows its own line and then its event.
    numbered = [int(m.group(1)) for line in live if (m := re.match(r"^(\d+) ", line))]
    assert numbered == list(range(version, -1, -1))
    exchange = next(i for i, line in enumerate(live)
                    if "Everyone has passed on their tiles" in line)
    assert not re.match(r"^\d+ ", live[exchange]), "the event is not the move's first line"
    assert re.match(r"^\d+ (Ada|Bot \d) ", live[exchange - 1]), live[exchange - 1]
    last = me.page.locator("[data-testid=log] li[data-last=true]").first
    expect(last).to_contain_text(str(version))
    expect(last.get_by_test_id("last-move")).to_be_visible()
    assert not me.page_errors


def test_a_clocks_time_left_is_in_view_on_a_phone_while_choosing_a_move(open_client) -> None:
    phone = open_client("phone", phone=True)
    fan = open_client("fan")
    phone.choose_name("Pho")
    card = phone.page.locator("[data-game=gem-pyramid]")
    card.get_by_test_id("turn-clock-choice").select_option("120")
    phone.create_lucent(seats=2, private=False)
    # The clock is announced before anyone sits down: the waiting room and the lobby's list.
    expect(phone.page.get_by_test_id("clock-note")).to_contain_text("2 min per move")
    fan.choose_name("Fan")
    code = phone.page.get_by_test_id("code-chip").inner_text()
    expect(fan.page.locator(f".room-row[data-code='{code}'] [data-testid=room-clock]")
           ).to_contain_text("2 min per move")

    phone.page.get_by_test_id("add-bot").click()
    phone.page.get_by_test_id("start").click()
    expect(phone.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    # Choosing a move: the hand is at the bottom of the page; the time left stays on screen.
    phone.page.locator("[data-testid=hand-gem]").last.scroll_into_view_if_needed()
    phone.page.locator("[data-testid=hand-gem]:not([disabled])").first.click()
    clock = phone.page.get_by_test_id("banner-clock")
    expect(clock).to_contain_text(re.compile(r"Time left: (2:00|1:[0-5]\d)"))
    box = clock.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    assert phone.page.evaluate("window.scrollY") > 0, "the page did not scroll to the hand"
    phone.shot("clock-on-a-phone")
    assert not phone.page_errors and not fan.page_errors


def test_time_running_low_turns_the_banner_and_warns_with_sound_on(open_client, server) -> None:
    me = open_client("hurried")
    me.choose_name("Hurry")
    token = me.page.evaluate("JSON.parse(localStorage.getItem('ziggurat.player')).token")
    with httpx.Client(base_url=server.url) as http:
        auth = {"Authorization": f"Bearer {token}"}
        room = http.post("/api/rooms", headers=auth,
                         json={"game": "gem-pyramid", "seats": 2, "turn_clock": 14}).json()
        http.post(f"/api/rooms/{room['code']}/bots", headers=auth,
                  json={"seat": 1}).raise_for_status()
    me.page.goto(f"{server.url}/r/{room['code']}")
    me.page.get_by_test_id("sound-toggle").click()
    me.page.get_by_test_id("start").click()
    expect(me.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    # Under 10 s left: the banner says so, and one warning sounds.
    expect(me.page.get_by_test_id("banner")).to_have_class(re.compile(r"\blow\b"), timeout=15_000)
    expect(me.page.locator("html")).to_have_attribute("data-warnings", "1")
    assert not me.page_errors


def test_a_visitor_names_themselves_in_the_room_and_chats(open_client) -> None:
    host, visitor = open_client("host"), open_client("visitor", phone=True)
    host.choose_name("Ada")
    link = host.create_lucent(seats=2)
    host.page.get_by_test_id("add-bot").click()
    host.page.get_by_test_id("start").click()
    expect(host.page.get_by_test_id("pyramid")).to_be_visible()

    visitor.page.goto(link)
    expect(visitor.page.get_by_test_id("pyramid")).to_be_visible()
    expect(visitor.page.get_by_test_id("chat-note")).to_contain_text("Pick a name to chat")
    expect(visitor.page.get_by_test_id("chat-input")).to_be_disabled()
    visitor.page.get_by_placeholder("Name to chat with").fill("Vis")
    visitor.page.get_by_role("button", name="Save name").click()
    expect(visitor.page.get_by_test_id("my-name")).to_have_text("Vis")
    visitor.wait_live()
    expect(visitor.page.get_by_test_id("chat-input")).to_be_enabled()

    # A long paste is not cut silently: the counter says how much is too much.
    visitor.page.get_by_test_id("chat-input").fill("x" * 340)
    expect(visitor.page.get_by_test_id("chat-count")).to_contain_text("40 too many")
    expect(visitor.page.get_by_test_id("chat-send")).to_be_disabled()
    visitor.page.get_by_test_id("chat-input").fill("hello from the rail")
    expect(visitor.page.get_by_test_id("chat-count")).to_have_text("19/300")
    visitor.page.get_by_test_id("chat-send").click()
    line = host.page.get_by_test_id("chat-line").last
    expect(line).to_contain_text("Vis (watching)")
    expect(line).to_contain_text("hello from the rail")

    # The host mutes spectators: the players are told, the visitor can no longer write.
    host.page.get_by_test_id("mute-spectators").check()
    expect(host.page.get_by_test_id("spectators-muted")).to_be_visible()
    expect(visitor.page.get_by_test_id("chat-input")).to_be_disabled()
    assert not host.page_errors and not visitor.page_errors


def test_no_beep_after_my_own_move_in_five_realms(open_client) -> None:
    rng = random.Random(5)
    me = open_client("realms")
    me.choose_name("Ada")
    card = me.page.locator("[data-game=five-realms]")
    card.get_by_test_id("create-room").click()
    expect(me.page.get_by_test_id("waiting-room")).to_be_visible()
    me.page.get_by_test_id("add-bot").click()
    me.page.get_by_test_id("sound-toggle").click()  # a sample beep
    expect(me.page.locator("html")).to_have_attribute("data-beeps", "1")
    me.page.evaluate(RECORD_PUSHES)
    me.page.get_by_test_id("start").click()
    expect(me.page.locator(APP)).to_have_attribute("data-status", "active")
    me.wait_live()

    for _ in range(40):
        state = me.state()
        if state["status"] != "active":
            break
        if me.seat in state["to_act"] and state["legal_moves"]:
            play(me, rng.choice(state["legal_moves"]))
        else:
            me.page.wait_for_timeout(100)

    # Push by push: a state that has me to act after one that already did (my own turn going
    # on) adds no beep; one after a state that did not (the bot played) adds exactly one.
    pushes = me.page.evaluate("window.pushes")
    kept = came = 0
    for before, after in itertools.pairwise(pushes):
        if after["version"] != before["version"] + 1 or not after["mine"]:
            continue
        if before["mine"]:
            kept += 1
            assert after["beeps"] == before["beeps"], f"a beep in my own turn: {after}"
        else:
            came += 1
            assert after["beeps"] == before["beeps"] + 1, f"no beep when my turn came: {after}"
    assert kept >= 1 and came >= 1, (kept, came)
    assert not me.page_errors
