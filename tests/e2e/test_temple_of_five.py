"""Two friends play a whole game of Temple of Five by clicking; a spectator sees no hidden tile.

Each step the page of a seat to act turns one legal move (picked at random) into the clicks a
person makes: pass a drafted tile, pick-rotate-place a tile, click a chain twice, pick cells of
a blessing card and confirm, place a bonus piece space by space, end the turn.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import ARTIFACTS, Client

pytestmark = pytest.mark.e2e
MAX_STEPS = 400
PHONE_WIDTH = 390
SETTLED = "v => window.ziggurat.state.version > v && !window.ziggurat.page.pending.size"


def create_room(client: Client) -> str:
    card = client.page.locator("[data-game=temple-of-five]")
    expect(card).to_be_visible()
    card.locator("input[name=seats]").fill("2")
    card.get_by_test_id("create-room").click()
    expect(client.page.get_by_test_id("waiting-room")).to_be_visible()
    return client.page.get_by_test_id("invite-link").input_value()


def click_move(client: Client, move: dict) -> None:
    """The clicks a person makes for `move` on the Temple of Five board."""
    page = client.page

    def key(k: str):
        return page.locator(f'[data-key="{k}"]').first

    kind = move["type"]
    if kind == "assign":
        key(f"assign-{move['tile']}-{move['to']}").click()
    elif kind in ("place", "blank"):
        key(f"pick-{move['tile']}").click()
        if kind == "blank":
            key("blank").click()
            return
        for _ in range(move["rot"]):
            page.get_by_test_id("tof-rotate").click()
        level = page.evaluate("window.ziggurat.state.view.level")
        origins = {1: [(1 + 2 * i, 1 + 2 * j) for j in range(3) for i in range(3)],
                   2: [(2 + 2 * i, 2 + 2 * j) for j in range(2) for i in range(2)], 3: [(3, 3)]}
        x, y = origins[level][move["slot"]]
        key(f"sp-{x},{y}").click()
    elif kind == "bonus":
        key(f"piece-{move['piece']}").click()
        for x, y in move["cells"]:
            key(f"sp-{x},{y}").click()
    elif kind == "chain":
        key(f"sp-{move['x']},{move['y']}").click()
        expect(page.get_by_test_id("tof-chain")).to_contain_text("Chain of")
        key(f"sp-{move['x']},{move['y']}").click()
    elif kind == "occupy":
        for cell in move["cells"]:
            key(f"cell-{move['card']}-{cell}").click()
        page.get_by_test_id("tof-occupy").click()
    elif kind == "goal":
        key(f"goal-{move['side']}").click()
    elif kind == "private":
        key(f"private-{move['god']}").click()
    elif kind == "pass":
        page.get_by_test_id("tof-pass").click()


def spectator_sees_no_hidden_tile(open_client, link: str) -> None:
    spectator = open_client("spectator")
    spectator.page.goto(link)
    spectator.page.wait_for_function("() => window.ziggurat && window.ziggurat.state")
    view = spectator.page.evaluate("window.ziggurat.state.view")
    for seat in view["seats"]:
        assert seat["hand"] is None and seat["placing"] is None and seat["reserve"] is None
    expect(spectator.page.get_by_test_id("tof-board")).to_be_visible()
    assert spectator.page.get_by_test_id("tof-hand").count() == 0
    assert spectator.page.get_by_test_id("tof-placing").count() == 0
    spectator.page.screenshot(path=str(ARTIFACTS / "temple-of-five-spectator.png"))
    assert not spectator.page_errors, spectator.page_errors


def _two_seated(host: Client, guest: Client) -> str:
    """Ada makes a room and Bea takes the other seat from its invite link (returned)."""
    host.choose_name("Ada")
    link = create_room(host)
    host.wait_live()
    guest.take_seat_from_link(link, "Bea")
    expect(host.page.get_by_test_id("seats").locator(".dot.open")).to_have_count(2)
    return link


def test_two_friends_play_a_whole_game_of_temple_of_five(open_client) -> None:
    host, guest = open_client("host"), open_client("guest", phone=True)
    link = _two_seated(host, guest)
    host.page.get_by_test_id("start").click()
    for client in (host, guest):
        expect(client.page.get_by_test_id("tof-board")).to_be_visible()
        expect(client.page.get_by_test_id("tof-hand")).to_be_visible()
    seated = {c.seat: c for c in (host, guest)}
    width = guest.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"the page is {width}px wide on a phone"
    spectator_sees_no_hidden_tile(open_client, link)

    rng = random.Random(8)
    kinds: set[str] = set()
    steps = 0
    while True:
        assert steps < MAX_STEPS, "the game does not end"
        state = host.state()
        if state["status"] == "finished":
            break
        mover = seated[sorted(state["to_act"])[0]]
        mover.page.wait_for_function(
            "v => window.ziggurat.state.version >= v", arg=state["version"])
        mine = mover.state()
        version = mine["version"]
        legal = mine["legal_moves"]
        assert legal, mine
        preferred = [m for m in legal if m["type"] not in ("pass", "bonus")]
        move = rng.choice(preferred if preferred and rng.random() < 0.8 else legal)
        if move["type"] not in kinds:
            kinds.add(move["type"])
            mover.page.screenshot(path=str(ARTIFACTS / f"temple-of-five-{move['type']}.png"))
        click_move(mover, move)
        mover.page.wait_for_function(SETTLED, arg=version)
        after = mover.state()
        if move["type"] == "bonus":
            placed = after["view"]["seats"][mover.seat]["bonuses"][-1]["cells"]
            assert sorted(placed) == sorted(move["cells"]), "the piece covers the clicked spaces"
        # The next mover is read from the host's page: let it catch up first.
        host.page.wait_for_function(
            "v => window.ziggurat.state.version >= v", arg=after["version"])
        steps += 1
    assert {"assign", "place", "chain", "occupy"} <= kinds, kinds
    for client in (host, guest):
        expect(client.page.locator("#app")).to_have_attribute("data-status", "finished")
        assert not client.page_errors, client.page_errors


def test_a_phone_player_plays_four_seats_against_bots(open_client) -> None:
    me = open_client("phone", phone=True)
    me.choose_name("Mo")
    card = me.page.locator("[data-game=temple-of-five]")
    card.locator("input[name=seats]").fill("4")
    me.open_variants(card)
    for variant in ("effect_tiles", "ultimate_goal"):
        card.locator(f"input[name={variant}]").check()
    card.get_by_test_id("create-room").click()
    expect(me.page.get_by_test_id("waiting-room")).to_be_visible()
    me.wait_live()
    for bots in (1, 2, 3):
        me.page.get_by_test_id("add-bot").first.click()
        expect(me.page.get_by_test_id("seats").locator(".tag.bot")).to_have_count(bots)
    me.page.get_by_test_id("start").click()
    expect(me.page.get_by_test_id("tof-board")).to_be_visible()
    rng = random.Random(4)
    kinds: set[str] = set()
    end = me.page.get_by_test_id("end-screen")
    for step in range(MAX_STEPS):
        expect(me.page.locator("#app[data-my-turn=true], [data-testid=end-screen]").first
               ).to_be_visible(timeout=20_000)
        if end.count():
            break
        state = me.state()
        legal = state["legal_moves"]
        if not legal:
            continue
        preferred = [m for m in legal if m["type"] not in ("pass", "bonus")]
        move = rng.choice(preferred or legal)
        kinds.add(move["type"])
        click_move(me, move)
        me.page.wait_for_function(SETTLED, arg=state["version"])
        if step == 10:
            width = me.page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE_WIDTH, f"the page is {width}px wide on a phone"
            me.shot("temple-of-five-phone-4p")
    expect(end).to_be_visible()
    assert "goal" in kinds, "the ultimate-goal side was chosen by clicking"
    expect(end.get_by_test_id("scores").locator("tbody tr")).to_have_count(4)
    assert not me.page_errors, me.page_errors


def test_both_friends_click_the_exchange_at_once(open_client) -> None:
    """The materials exchange is simultaneous: two pages clicking on the same version are both
    acknowledged (the later one is judged, not refused `stale`) and no error toast appears."""
    host, guest = open_client("host"), open_client("guest")
    received = []
    for client in (host, guest):
        client.page.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.append(f)))
    _two_seated(host, guest)
    host.page.get_by_test_id("start").click()
    for client in (host, guest):
        expect(client.page.get_by_test_id("tof-hand")).to_be_visible()
        client.page.wait_for_function("() => window.ziggurat.state.legal_moves.length > 0")
    keys = []
    for client in (host, guest):
        move = client.state()["legal_moves"][0]
        assert client.state()["version"] == 0 and move["type"] == "assign", move
        keys.append(f"assign-{move['tile']}-{move['to']}")
    # Two evaluate calls, not two Playwright clicks: the second page sends before it hears of
    # the first page's move, as two people clicking at the same moment do.
    click = "k => document.querySelector(`[data-key=\"${k}\"]`).click()"
    host.page.evaluate(click, keys[0])
    guest.page.evaluate(click, keys[1])
    for client in (host, guest):
        client.page.wait_for_function(
            "() => window.ziggurat.state.version >= 2 && !window.ziggurat.page.pending.size")
        expect(client.page.get_by_test_id("toast")).to_have_count(0)
        assert not client.page_errors, client.page_errors
    assert not [f for f in received if '"type":"error"' in f.replace(" ", "")], received


def test_the_waiting_room_names_the_chosen_first_player(open_client) -> None:
    """A choice that is not yes/no (the first player) shows its value in the waiting room; the
    default (random) is not listed."""
    host = open_client("host")
    host.choose_name("Ada")
    card = host.page.locator("[data-game=temple-of-five]")
    Client.open_variants(card)
    card.locator("select[name=first_player]").select_option("seat 2")
    create_room(host)
    chosen = host.page.get_by_test_id("options-chosen")
    expect(chosen).to_have_text("Settings: First player: seat 2")
    host.page.goto(f"{host.base}/")
    create_room(host)
    expect(host.page.get_by_test_id("options-chosen")).to_have_count(0)
