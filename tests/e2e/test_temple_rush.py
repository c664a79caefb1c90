"""Temple Rush in the browser: two friends play a whole game by clicking, and one person plays
solo against the Robot on a phone-sized screen.

The tests pick which legal move to make (a placement that keeps the temple buildable, so games
end quickly), but every move is made by clicking the page: block size, turn, a highlighted cell;
the Hammer & Chisel on a placed block: its toggle, a marked block, a replacement button.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.temple_rush.data import SHAPE_MASKS
from games.temple_rush.geometry import bit, buildable, tileable
from tests.e2e.pages import APP, ARTIFACTS, Client

pytestmark = pytest.mark.e2e
PHONE_WIDTH = 390
CLICK_MS = 4_000


# -- lobby --------------------------------------------------------------------------------------


def create_temple_rush(client: Client, seats: int) -> str:
    """From the lobby, make a private Temple Rush room; returns its invite link."""
    card = client.page.locator("[data-game=temple-rush]")
    card.locator("input[name=seats]").fill(str(seats))
    return client.create_from(card)


# -- choosing a move (the test's brain) --------------------------------------------------------


def _mask(cells) -> int:
    out = 0
    for col, row in cells:
        out |= bit(col, row)
    return out


def _counts(supply: dict[str, int], minus: int | None = None) -> tuple[int, int, int, int]:
    counts = [supply[f"1x{s}"] for s in (1, 2, 3, 4)]
    if minus is not None and counts[minus - 1]:
        counts[minus - 1] -= 1
    return counts[0], counts[1], counts[2], counts[3]


def _block_mask(move: dict) -> int:
    size, col, row = move["size"], move["col"], move["row"]
    cells = [(col + i, row) if move["dir"] == "flat" else (col, row + i) for i in range(size)]
    return _mask(cells)


def choose(state: dict, power: str | None = None) -> dict | None:
    """A sensible legal move: finish a temple, else the biggest block that keeps it buildable;
    exchange a block of a temple that can no longer be finished; else pass if the book allows
    it, else any plain placement (the die's block must go down somewhere). With `power`,
    only such a placement using that power token, or None."""
    legal, view, seat = state["legal_moves"], state["view"], state["seat"]
    races = [m for m in legal if m["type"] == "race"]
    if races:  # every race move keeps the temple buildable: the biggest block is fastest
        return max(races, key=lambda m: m["size"])
    if view["phase"] == "lightning":
        return next(m for m in legal if m["type"] == "withdraw")
    bonus = [m for m in legal if m["type"] == "bonus"]
    if bonus:  # the largest block scores most
        return bonus[-1]
    me = view["seats"][seat]
    back = next((m for m in legal if m["type"] == "return"), None)
    if back is not None:  # rebuild after a lost card: a block that keeps the temple buildable
        return _rebuild(legal, view, me, back)
    best, best_key = None, None
    for move in legal:
        if move["type"] != "place" or move.get("power") != power or "from_zone" in move:
            continue
        card = view["holders"][move["zone"]]
        filled = _mask(c for b in me["zones"][move["zone"]]["blocks"] for c in b["cells"])
        rest = SHAPE_MASKS[card["id"]] & ~filled & ~_block_mask(move)
        if not tileable(rest, _counts(me["supply"], move["size"])):
            continue
        key = (rest == 0, move["size"], -rest.bit_count())
        if best_key is None or key > best_key:
            best, best_key = move, key
    if best is not None or power is not None:
        return best
    for zone in me["zones"]:
        card = view["holders"][zone["zone"]]
        if card is None or not zone["blocks"]:
            continue
        filled = _mask(c for b in zone["blocks"] for c in b["cells"])
        if not tileable(SHAPE_MASKS[card["id"]] & ~filled, _counts(me["supply"])):
            back = [m for m in legal if m["type"] == "exchange" and m["zone"] == zone["zone"]]
            if back:
                return back[0]
    plain = (m for m in legal if m["type"] == "pass" or (
        m["type"] == "place" and "power" not in m and "from_zone" not in m))
    return min(plain, key=lambda m: m["type"] != "pass")


def _rebuild(legal: list[dict], view: dict, me: dict, back: dict) -> dict:
    """The biggest held block whose rebuilding keeps the new temple buildable, else return."""
    zone = back["zone"]
    held = {f"1x{s}": sum(b["size"] == s for b in me["held"][zone]) for s in (1, 2, 3, 4)}
    pool = {key: me["supply"][key] + held[key] for key in held}
    filled = _mask(c for b in me["zones"][zone]["blocks"] for c in b["cells"])
    shape = SHAPE_MASKS[view["holders"][zone]["id"]]
    for move in sorted((m for m in legal if m["type"] == "rebuild"), key=lambda m: -m["size"]):
        if tileable(shape & ~filled & ~_block_mask(move), _counts(pool, move["size"])):
            return move
    return back


# -- making a move by clicking -----------------------------------------------------------------


def _pending(client: Client) -> int:
    return client.page.evaluate("window.ziggurat ? window.ziggurat.page.pending.size : 0")


def _offered_anchors(client: Client) -> set[tuple[str, int, int]]:
    return set(map(tuple, client.page.evaluate(
        """[...document.querySelectorAll('[data-testid=tr-anchor]')].map(
             (b) => [b.dataset.zone, Number(b.dataset.col), Number(b.dataset.row)])""")))


def check_offered(client: Client, legal: list[dict]) -> dict:
    """The buttons on the page are exactly the kinds of legal moves: powers, exchange, the Bag,
    pass and withdraw."""
    modes = {m["power"] for m in legal if m.get("power")}
    for kind in ("exchange", "chisel"):
        if any(m["type"] == kind for m in legal):
            modes.add(kind)
    shown = client.page.evaluate(
        """() => {
          const all = (id) => [...document.querySelectorAll(`[data-testid=${id}]`)];
          const on = (id, key) => all(id).filter((b) => b.getAttribute('aria-pressed') === 'true')
                                        .map((b) => b.dataset[key])[0] ?? null;
          return {
            modes: all('tr-mode').map((b) => b.dataset.mode).filter((m) => m !== 'plain'),
            bags: all('tr-bag').length, pass: all('tr-pass').length,
            withdraw: all('tr-withdraw').length, back: all('tr-return').length,
            mode: on('tr-mode', 'mode'),
            size: on('tr-size', 'size'), dir: on('tr-dir', 'dir'),
          };
        }""")
    assert set(shown["modes"]) == modes, (shown, modes)
    assert shown["bags"] == sum(m["type"] == "bag" for m in legal)
    assert shown["pass"] == any(m["type"] == "pass" for m in legal)
    assert shown["withdraw"] == any(m["type"] == "withdraw" for m in legal)
    assert shown["back"] == any(m["type"] == "return" for m in legal)
    return shown


def click_move(client: Client, move: dict, legal: list[dict]) -> None:
    """Make `move` the way a person would; checks that the highlighted cells are exactly the
    legal ones for the chosen block, turn and power."""
    page = client.page
    kind = move["type"]
    shown = check_offered(client, legal)
    if kind in ("pass", "withdraw", "return"):
        page.get_by_test_id(f"tr-{kind}").click(timeout=CLICK_MS)
        return
    if kind == "bonus":
        shown = {int(b.get_attribute("data-block")) for b in page.get_by_test_id("tr-bonus").all()}
        assert shown == {m["block"] for m in legal if m["type"] == "bonus"}
        page.locator(f"[data-testid=tr-bonus][data-block='{move['block']}']").click(timeout=CLICK_MS)
        return
    if kind == "exchange":
        # The page says which temple is built wrong and offers the correction.
        wrong = {int(z) for (z,) in page.evaluate(
            _ids("[data-testid=tr-zone][data-wrong=true]", ("zone",)))}
        assert wrong == {m["zone"] for m in legal if m["type"] == "exchange"}
        expect(page.get_by_test_id("tr-mistake")).to_contain_text("can no longer be finished")
        page.locator("[data-testid=tr-mode][data-mode=exchange]").click(timeout=CLICK_MS)
        expect(page.get_by_test_id("tr-prompt")).to_contain_text("Building mistake")
        shown = {(int(b.get_attribute("data-zone")), int(b.get_attribute("data-block")))
                 for b in page.get_by_test_id("tr-exchange").all()}
        assert shown == {(m["zone"], m["block"]) for m in legal if m["type"] == "exchange"}
        page.locator(f"[data-testid=tr-exchange][data-zone='{move['zone']}'][data-block='{move['block']}']"
                     ).click(timeout=CLICK_MS)
        return
    if kind == "chisel":
        click_chisel(client, move, legal, shown["mode"])
        return
    if kind == "bag":
        page.locator(f"[data-testid=tr-bag][data-zone='{move['zone']}'][data-seat='{move['seat']}']"
                     f"[data-from-zone='{move['from_zone']}']").click(timeout=CLICK_MS)
        return
    power = move.get("power")
    if power != shown["mode"]:  # a power token is a toggle: switch to it, or back from one
        target = power or shown["mode"]
        page.locator(f"[data-testid=tr-mode][data-mode={target}]").click(timeout=CLICK_MS)
        shown["size"] = shown["dir"] = None
    if shown["size"] != str(move["size"]):
        page.locator(f"[data-testid=tr-size][data-size='{move['size']}']").click(timeout=CLICK_MS)
        shown["dir"] = None
    if move["size"] > 1 and shown["dir"] != move["dir"]:
        page.locator(f"[data-testid=tr-dir][data-dir={move['dir']}]").click(timeout=CLICK_MS)
    same = [m for m in legal if m["type"] == kind and m.get("power") == power
            and m["size"] == move["size"] and m["dir"] == move["dir"]]
    wanted = {("race" if kind == "race" else str(m["zone"]), m["col"], m["row"]) for m in same}
    assert _offered_anchors(client) == wanted, "the highlighted cells are not the legal ones"
    zone = "race" if kind == "race" else move["zone"]
    page.locator(f"[data-testid=tr-anchor][data-zone='{zone}'][data-col='{move['col']}']"
                 f"[data-row='{move['row']}']").click(timeout=CLICK_MS)
    if "from_zone" in move:
        source = page.locator(f"[data-testid=tr-source][data-from-zone='{move['from_zone']}']"
                              f"[data-block='{move['block']}']")
        if source.count():
            source.click(timeout=CLICK_MS)


def _ids(selector: str, keys: tuple[str, ...]) -> str:
    """JS: the data-* values `keys` of every element matching `selector`."""
    fields = ", ".join(f"b.dataset.{key}" for key in keys)
    return f"[...document.querySelectorAll('{selector}')].map((b) => [{fields}])"


def click_chisel(client: Client, move: dict, legal: list[dict], mode: str | None) -> None:
    """The Hammer & Chisel on a placed block: the toggle marks exactly the blocks that have a
    legal swap; pressing one takes it out (the replacement is then an ordinary placement)."""
    page = client.page
    chisels = [m for m in legal if m["type"] == "chisel"]
    if mode != "chisel":
        page.locator("[data-testid=tr-mode][data-mode=chisel]").click(timeout=CLICK_MS)
    marked = {(int(z), int(b)) for z, b in page.evaluate(
        _ids("[data-testid=tr-chisel]", ("zone", "block")))}
    assert marked == {(m["zone"], m["block"]) for m in chisels}, "marked blocks are not legal"
    assert not page.get_by_test_id("tr-anchor").count(), "no placements offered while chiselling"
    client.shot("temple-rush-chisel")
    page.locator(f"[data-testid=tr-chisel][data-zone='{move['zone']}'][data-block='{move['block']}']"
                 ).click(timeout=CLICK_MS)


def choose_mistake(state: dict) -> dict | None:
    """A plain placement of the die's block after which its temple can no longer be finished in
    one piece from the supply: a building mistake made on purpose, to be exchanged later."""
    view, seat = state["view"], state["seat"]
    me = view["seats"][seat]
    for move in state["legal_moves"]:
        if move["type"] != "place" or "power" in move or "from_zone" in move:
            continue
        zone = me["zones"][move["zone"]]
        if zone["mortar"]:
            continue
        masks = [_mask(b["cells"]) for b in zone["blocks"]] + [_block_mask(move)]
        filled = 0
        for m in masks:
            filled |= m
        rest = SHAPE_MASKS[view["holders"][move["zone"]]["id"]] & ~filled
        if rest and not buildable(tuple(masks), rest, _counts(me["supply"], move["size"])):
            return move
    return None


def choose_chisel(state: dict) -> dict | None:
    """A Hammer & Chisel swap of the newest block of a construction (else None)."""
    chisels = [m for m in state["legal_moves"] if m["type"] == "chisel"]
    return max(chisels, key=lambda m: m["block"]) if chisels else None


def wished(state: dict, wishes: list[str]) -> dict | None:
    """Once each, try the rarer moves: a power token, or exchanging a block."""
    for wish in wishes:
        if wish == "exchange":
            move = next((m for m in state["legal_moves"] if m["type"] == "exchange"), None)
        elif wish == "bag":
            move = next((m for m in state["legal_moves"] if m["type"] == "bag"), None)
        elif wish == "chisel":
            move = choose_chisel(state)
        elif wish == "mistake":
            move = choose_mistake(state) if state["view"]["phase"] == "build" else None
        else:
            move = choose(state, power=wish) if state["view"]["phase"] == "build" else None
        if move is not None:
            wishes.remove(wish)
            return move
    return None


def try_to_act(client: Client, kinds: dict[str, int], wishes: list[str]) -> bool:
    """If this page may act now, click one move and wait for the server's answer."""
    state = client.state()
    if not state or state["status"] != "active" or state["seat"] not in state["to_act"]:
        return False
    if not state["legal_moves"] or _pending(client):
        return False
    move = wished(state, wishes) or choose(state)
    before = state["version"]
    try:
        click_move(client, move, state["legal_moves"])
    except PlaywrightError:
        return False  # the round moved on under the pointer (a race was won): look again
    client.page.wait_for_function(
        f"""() => {{ const z = window.ziggurat; return z && z.page.pending.size === 0
               && z.state && z.state.version > {before}; }}""", timeout=10_000)
    kind = move.get("power") or move["type"]
    if state["view"]["seats"][state["seat"]]["swap"]:
        kind = "replacement"  # the second step of an exchange or a chisel
    kinds[kind] = kinds.get(kind, 0) + 1
    return True


def play_until_over(clients: list[Client], on_step=None, limit_s: float = 100,
                    wishes: tuple[str, ...] = ()) -> dict[str, int]:
    """Whoever may act clicks a move, until every page shows the end screen."""
    kinds: dict[str, int] = {}
    wants = {client.label: list(wishes) for client in clients}
    deadline = time.monotonic() + limit_s
    steps = 0
    while time.monotonic() < deadline:
        if all(c.state() and c.state()["status"] == "finished" for c in clients):
            return kinds
        acted = False
        for client in clients:
            if try_to_act(client, kinds, wants[client.label]):
                acted = True
                steps += 1
                if on_step is not None:
                    on_step(steps, client)
        if not acted:
            time.sleep(0.03)
    raise AssertionError(f"the game did not end in {limit_s}s: moves {kinds}")


def fits_the_screen(client: Client) -> None:
    width = client.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"the page is {width}px wide on a {PHONE_WIDTH}px screen"


# -- tests ------------------------------------------------------------------------------------


def test_two_friends_play_temple_rush_to_the_end(open_client) -> None:
    ada, bo = open_client("ada"), open_client("bo")
    ada.choose_name("Ada")
    link = create_temple_rush(ada, seats=2)
    ada.wait_live()
    bo.take_seat_from_link(link, "Bo")
    expect(ada.page.get_by_test_id("seats").locator(".dot.open")).to_have_count(2)
    ada.page.get_by_test_id("start").click()
    for client in (ada, bo):
        expect(client.page.get_by_test_id("temple-rush")).to_be_visible()
        expect(client.page.get_by_test_id("tr-holder")).to_have_count(2)
        expect(client.page.get_by_test_id("tr-zone")).to_have_count(2)
        expect(client.page.get_by_test_id("tr-other")).to_have_count(1)
    assert {ada.seat, bo.seat} == {0, 1}
    # Card colours are spelled out, not only shown as a colour.
    holder_text = ada.page.get_by_test_id("tr-holder").first.inner_text()
    assert any(word in holder_text for word in ("Green", "Blue", "Red", "Brown"))
    ada.page.locator("[data-testid=tr-size]:not([disabled])").first.click()
    ada.shot("temple-rush-start")

    shots = {"race": False}

    def on_step(steps: int, mover: Client) -> None:
        if steps == 12:
            mover.shot("temple-rush-midgame")
        for client in (ada, bo):
            state = client.state()
            if state and state["view"]["phase"] == "rebuild":
                # Rebuilding comes right when the card is won: no dice of a next round yet.
                banner = client.page.get_by_test_id("tr-rebuild")
                expect(banner).to_contain_text("Before the next roll")
                assert not client.page.locator(".tr-dice").count()
                if state["seat"] in state["to_act"] and not shots.get("rebuild"):
                    shots["rebuild"] = True
                    expect(client.page.get_by_test_id("tr-prompt")).to_contain_text(
                        "Before the next roll")
                    client.shot("temple-rush-rebuild")
            if not shots["race"] and client.page.get_by_test_id("tr-race").count():
                shots["race"] = True
                client.shot("temple-rush-lightning")
            result = client.page.get_by_test_id("tr-race-result")
            if result.count() and not shots.get("result"):
                shots["result"] = True
                client.shot("temple-rush-lightning-result")
                # The result comes from the view, not from events seen: a reload keeps it.
                winner = result.get_attribute("data-winner")
                client.page.reload()
                client.wait_live()
                expect(client.page.get_by_test_id("tr-race-result")).to_have_attribute(
                    "data-winner", winner)

    # About 100 clicks: ~30 s on an idle machine; the bound only stops a stuck game (a machine
    # shared by many test runs was seen 15 times slower).
    kinds = play_until_over([ada, bo], on_step, limit_s=900,
                            wishes=("chisel", "mistake", "exchange", "bag"))
    print("moves:", kinds)
    assert kinds.get("place", 0) >= 6, kinds
    assert kinds.get("chisel", 0) >= 1, f"no Hammer & Chisel swap was clicked: {kinds}"
    assert kinds.get("exchange", 0) >= 1, f"no building mistake was exchanged: {kinds}"
    for client in (ada, bo):
        end = client.page.get_by_test_id("end-screen")
        expect(end).to_be_visible()
        expect(end.get_by_test_id("scores").locator("tbody tr")).to_have_count(2)
        expect(client.page.get_by_test_id("tr-round")).to_contain_text("Game over")
    outcome = ada.state()["outcome"]
    view = ada.state()["view"]
    assert [float(s["score"]["total"]) for s in view["seats"]] == outcome["scores"]
    if any(c.get("colour") == "lightning" for s in view["seats"] for c in s["cards"]):
        assert shots["race"], "a lightning race was won but never shown"
    ada.shot("temple-rush-end")
    assert not ada.page_errors and not bo.page_errors


def test_solo_against_the_robot_on_a_phone(open_client) -> None:
    me = open_client("solo", phone=True)
    me.choose_name("Sol")
    create_temple_rush(me, seats=1)
    me.wait_live()
    me.page.get_by_test_id("start").click()
    board = me.page.get_by_test_id("temple-rush")
    expect(board).to_be_visible()
    expect(me.page.get_by_test_id("tr-robot")).to_be_visible()
    expect(me.page.get_by_test_id("tr-robot")).to_contain_text("Robot")
    expect(me.page.get_by_test_id("tr-zone")).to_have_count(2)
    expect(me.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    # Solo has no Bag; the Hammer & Chisel and Mortar are listed as unused.
    expect(me.page.get_by_test_id("tr-me")).to_contain_text("Hammer & Chisel: unused")
    expect(me.page.get_by_test_id("tr-me")).not_to_contain_text("Bag:")
    fits_the_screen(me)
    me.page.locator("[data-testid=tr-size]:not([disabled])").first.click()
    me.shot("temple-rush-solo-phone")
    board.scroll_into_view_if_needed()
    me.page.get_by_test_id("tr-round").scroll_into_view_if_needed()
    me.page.screenshot(path=str(ARTIFACTS / "temple-rush-solo-phone-screen.png"))

    # The first move by keyboard: focus a highlighted cell and press Enter.
    anchor = me.page.locator("[data-testid=tr-anchor]").first
    before = me.version
    anchor.focus()
    me.page.keyboard.press("Enter")
    expect(me.page.locator(APP)).not_to_have_attribute("data-version", str(before))

    def on_step(steps: int, mover: Client) -> None:
        if steps == 6:
            fits_the_screen(mover)
            mover.shot("temple-rush-solo-midgame")
            mover.page.get_by_test_id("tr-me").screenshot(
                path=str(ARTIFACTS / "temple-rush-solo-my-side.png"))

    kinds = play_until_over([me], on_step, wishes=("hammer", "mortar", "exchange"))
    print("solo moves:", kinds)
    end = me.page.get_by_test_id("end-screen")
    expect(end).to_be_visible()
    expect(end).to_contain_text("Robot")
    expect(me.page.get_by_test_id("tr-robot")).to_contain_text("pts")
    fits_the_screen(me)
    me.shot("temple-rush-solo-end")
    assert (ARTIFACTS / "temple-rush-solo-end.png").exists()
    assert not me.page_errors
