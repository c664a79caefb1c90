"""Temple of Five at the table, on a 1280x800 desktop and a 390x844 phone (issue 22): a tile is
placed after its ghost was shown, and a priest put on a blessing card is drawn in its cell with
the card's majority written on it.

The steps that lead there (the secret draft, the other tiles) are sent as raw moves; what the
test is about is clicked as a person does.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.pages import ARTIFACTS, Client
from tests.server import Server

pytestmark = pytest.mark.e2e
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SYMBOL = {"red": "▲", "yellow": "★", "green": "●", "blue": "■", "white": "◆"}
OFFSETS = ((0, 0), (1, 0), (1, 1), (0, 1))


@pytest.fixture(params=sorted(SIZES))
def player(request, browser: Browser, server: Server) -> Iterator[Client]:
    """Ada at a desktop or on a phone, host of a two-seat room against a bot; she starts."""
    phone = request.param == "phone"
    context = browser.new_context(viewport=SIZES[request.param], is_mobile=phone,
                                  device_scale_factor=2 if phone else 1, has_touch=phone)
    context.set_default_timeout(15_000)
    client = Client(request.param, context.new_page(), server.url)
    client.page.on("pageerror", lambda exc: client.page_errors.append(str(exc)))
    client.choose_name("Ada")
    card = client.page.locator("[data-game=temple-of-five]")
    card.locator("input[name=seats]").fill("2")
    client.open_variants(card)
    card.locator("select[name=first_player]").select_option("seat 1")
    card.get_by_test_id("create-room").click()
    expect(client.page.get_by_test_id("waiting-room")).to_be_visible()
    client.wait_live()
    client.page.get_by_test_id("add-bot").first.click()
    expect(client.page.get_by_test_id("seats").locator(".tag.bot")).to_have_count(1)
    client.page.get_by_test_id("start").click()
    expect(client.page.get_by_test_id("tof-board")).to_be_visible()
    yield client
    assert not client.page_errors, client.page_errors
    context.close()


def send(client: Client, move: dict) -> None:
    """A move sent down the socket as the page would, then the new state awaited."""
    version = client.state()["version"]
    client.page.evaluate("m => window.ziggurat.sendRaw(m)", {
        "type": "move", "id": str(uuid.uuid4()), "version": version, "move": move})
    client.page.wait_for_function("v => window.ziggurat.state.version > v", arg=version)


def advance(client: Client, until: Callable[[dict], bool], limit: int = 400) -> dict:
    """Play plain moves (the first drafted destination, the first slot, no chain) until `until`."""
    for _ in range(limit):
        state = client.state()
        assert state["status"] == "active", "the game ended first"
        if until(state):
            return state
        legal = [m for m in state["legal_moves"] if m["type"] not in ("bonus", "chain", "private")]
        if not legal:
            client.page.wait_for_function(
                "v => window.ziggurat.state.version > v", arg=state["version"], timeout=20_000)
            continue
        send(client, next((m for m in legal if m["type"] == "pass"), legal[0]))
    raise AssertionError("never got there")


def test_a_tile_is_placed_after_its_ghost_is_shown(player: Client) -> None:
    page = player.page
    state = advance(player, lambda s: any(m["type"] == "place" for m in s["legal_moves"]))
    seat = state["seat"]
    tiles = state["view"]["seats"][seat]["placing"]
    assert len(tiles) == 3, "level 1: three tiles to build"
    faces = tiles[1] if isinstance(tiles[1], list) else tiles[1]["faces"]
    page.get_by_test_id("tof-pick-1").click()
    expect(page.get_by_test_id("tof-pick-1")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("tof-rotate").click()
    turned = faces[-1:] + faces[:-1]
    slot, (x0, y0) = 4, (3, 3)
    target = page.get_by_test_id(f"tof-sp-{x0}-{y0}")
    if player.label == "phone":
        target.tap()  # a finger sees the ghost first, and taps again to build
    else:
        target.hover()
    for k, (dx, dy) in enumerate(OFFSETS):
        space = page.get_by_test_id(f"tof-sp-{x0 + dx}-{y0 + dy}")
        expect(space).to_have_attribute("data-ghost", turned[k] or "empty")
        expect(space).to_have_attribute("data-ghost-sym", SYMBOL.get(turned[k], ""))
    player.shot(f"temple-of-five-ghost-{player.label}")
    built = player.state()["view"]["seats"][seat]["tiles"]
    assert built == state["view"]["seats"][seat]["tiles"], "the ghost alone builds nothing"
    if player.label == "phone":
        expect(page.get_by_test_id("tof-place-here")).to_be_visible()
        target.tap()
    else:
        target.click()
    page.wait_for_function("s => window.ziggurat.state.view.seats[s].placing.length === 2",
                           arg=seat)
    after = player.state()["view"]["seats"][seat]
    assert {"level": 1, "slot": slot, "faces": turned} in after["tiles"]
    assert len(after["placing"]) == 2
    for k, (dx, dy) in enumerate(OFFSETS):
        shown = page.get_by_test_id(f"tof-sp-{x0 + dx}-{y0 + dy}")
        expect(shown).to_have_class(re.compile(rf"\btof-{turned[k] or 'empty'} tof-l1\b"))
        expect(shown).not_to_have_attribute("data-ghost", re.compile(".*"))
    # The selection never jumps to another tile after a placement: nothing is picked.
    expect(page.locator("[data-testid^=tof-pick-][aria-pressed=true]")).to_have_count(0)


def test_a_priest_is_drawn_in_its_cell_with_the_cards_majority(player: Client) -> None:
    for _ in range(6):
        state = advance(player, lambda s: any(m["type"] == "chain" for m in s["legal_moves"]))
        if placed_a_priest(player, state):
            return
    raise AssertionError("no chain ever led to a card that stayed open")


MAJORITY_AGREES = """({ key, seat }) => {
  const view = window.ziggurat.state.view;
  const card = key === "private" ? view.seats[seat].private : view.open[key];
  const placed = card.priests.filter((p) => p !== null);
  if (!placed.length) return true; // completed and replaced by the next seat's move meanwhile
  const count = (p) => placed.filter((q) => q === p).length;
  const best = Math.max(...placed.map(count));
  const leader = placed.find((p) => count(p) === best); // ties: the leftmost priest
  const shown = document.querySelector(`[data-testid=tof-majority-${key}]`);
  return Boolean(shown && shown.textContent.includes(`leads with ${best}`)
    && shown.querySelector(`.tof-priest.tof-seat${leader}`));
}"""


def placed_a_priest(player: Client, state: dict) -> bool:
    """Click a chain, its space, cells of a card and "Place"; check the drawing. False when every
    card this chain could fill would be completed (and replaced) at once."""
    page = player.page
    seat = state["seat"]
    chain = next(m for m in state["legal_moves"] if m["type"] == "chain")
    space = page.get_by_test_id(f"tof-sp-{chain['x']}-{chain['y']}")
    if player.label == "desktop":
        page.evaluate("window.scrollTo(0, 0)")
        board = page.get_by_test_id(f"tof-pyramid-{seat}").locator(".tof-grid").bounding_box()
        last_card = page.locator("[data-testid^=tof-card-]").last.bounding_box()
        bottoms = (board["y"] + board["height"], last_card["y"] + last_card["height"])
        assert max(bottoms) <= 800, "at 1280x800 the pyramid and every card are in sight together"
    space.click()
    expect(page.get_by_test_id("tof-prompt")).to_contain_text("click the space of the chain")
    space.click()
    page.wait_for_function("v => window.ziggurat.state.version > v", arg=state["version"])
    expect(page.get_by_test_id("tof-prompt")).to_contain_text("adding up to at most")
    state = player.state()
    view = state["view"]
    occupy = [m for m in state["legal_moves"] if m["type"] == "occupy"]

    def card_of(move: dict) -> dict:
        if move["card"] == "private":
            return view["seats"][seat]["private"]
        return view["open"][move["card"]]

    staying = [m for m in occupy if card_of(m)["priests"].count(None) > len(m["cells"])]
    move = max(staying or occupy, key=lambda m: len(m["cells"]))
    for cell in move["cells"]:
        page.get_by_test_id(f"tof-cell-{move['card']}-{cell}").click()
    page.get_by_test_id("tof-occupy").click()
    page.wait_for_function("v => window.ziggurat.state.version > v", arg=state["version"])
    if not staying:
        return False
    # Each priest walks onto its cell (static/motion.js, ~320 ms): measure where it stops.
    page.wait_for_function("""() => !document.getAnimations()
      .some((a) => a.effect && a.effect.target && a.effect.target.matches('[data-piece]'))""")
    for cell in move["cells"]:
        box = page.get_by_test_id(f"tof-cell-{move['card']}-{cell}")
        expect(box).to_have_attribute("data-priest", str(seat))
        token = box.locator(f".tof-priest.tof-seat{seat}")
        expect(token).to_be_visible()
        cell_box = f"[data-testid=tof-cell-{move['card']}-{cell}]"
        outer, inner = player.boxes(cell_box, f"{cell_box} .tof-priest.tof-seat{seat}")
        centre = (inner["x"] + inner["width"] / 2, inner["y"] + inner["height"] / 2)
        assert outer["x"] <= centre[0] <= outer["x"] + outer["width"], "drawn in its own cell"
        assert outer["y"] <= centre[1] <= outer["y"] + outer["height"], "drawn in its own cell"
    # The card's majority as the page shows it agrees with the card's priests as the page has
    # them: the next seat may already have placed its own (a bot's priest turn follows at once),
    # so state and drawing are read together in the page.
    page.wait_for_function(MAJORITY_AGREES, arg={"key": move["card"], "seat": seat})
    page.screenshot(path=str(ARTIFACTS / f"temple-of-five-priest-{player.label}.png"))
    return True
