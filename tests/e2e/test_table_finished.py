"""Issue 39, the table finished: a nameless first visit plays Solomon's Temple against the
computer (the games shown before a name is asked; what decides the game and the turn limit in
words; a clogged hand's discard first), and a Temple of Five replay reads right (the seats to
act, controls not usable, a running score, readable bonus pieces, no "to to" nor "1 cards")."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, SCREENSHOTS, Client

pytestmark = pytest.mark.e2e
LIMIT = 22  # Solomon's turn limit here: the warning shows from turn 2 (20 before the end)
PASSES = ("pass", "end_military", "skip_build", "end_turn", "to_military")
MY_TURN = """() => { const s = window.ziggurat && window.ziggurat.state;
  return Boolean(s) && (s.status === 'finished' || (s.to_act.includes(s.seat)
    && s.legal_moves.length > 0 && window.ziggurat.page.pending.size === 0)); }"""


def _key(move: dict) -> str:
    """The move button's data-key (static/games/solomons-temple.js `key`)."""
    text = {True: "true", False: "false"}
    return ";".join(f"{k}={text.get(v, v) if isinstance(v, bool) else v}" for k, v in move.items())


def _clogged_buttons(client: Client) -> list[list]:
    """The move buttons Solomon's renderer draws for a hand that cannot build (Phase III, no
    piece to announce), on this page's own view: [testid, primary, label] each."""
    return client.page.evaluate("""async () => {
      const renderer = (await import('/static/games/solomons-temple.js')).default;
      const page = window.ziggurat.page, seat = page.state.seat;
      const view = { ...page.state.view, step: 'build', actor: seat, turn: seat };
      const legalMoves = [{ type: 'end_turn' }, { type: 'skip_build' }];
      const ctx = { ...page.ctx(), seat, legalMoves };
      const el = document.createElement('div');
      renderer.render(el, view, ctx);
      return [...el.querySelectorAll('[data-testid=moves] button')]
        .map((b) => [b.dataset.testid, b.classList.contains('primary'), b.textContent]);
    }""")


def test_a_first_visit_plays_solomon_against_the_computer(open_client) -> None:
    visitor: Client = open_client("visitor")
    page = visitor.page
    page.goto(f"{visitor.base}/")
    # 10. The games and "Play vs computer" before any name; the name is asked when needed.
    card = page.locator("[data-game=solomons-temple]")
    expect(card).to_be_visible()
    expect(page.locator("#name-input")).to_be_visible()
    expect(card.get_by_test_id("play-vs-computer")).to_be_visible()
    expect(page.get_by_test_id("my-name")).to_have_count(0)
    visitor.open_variants(card)
    card.locator("input[name=turn_limit]").fill(str(LIMIT))
    card.get_by_test_id("play-vs-computer").click()
    asked = page.get_by_test_id("ask-name")
    expect(asked).to_be_visible()
    asked.locator("input").fill("Vera")
    asked.get_by_role("button", name="Continue").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("my-name")).to_have_text("Vera")
    visitor.wait_live()

    # Sound and Alerts are touch-sized.
    for testid in ("sound-toggle", "notify-toggle"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (testid, box)

    # 2. What decides the game: Temple pieces (no running "pts"), and the end rule in words.
    expect(page.get_by_test_id("goal")).to_contain_text(f"by the end of turn {LIMIT}")
    expect(page.get_by_test_id("seat-score")).to_have_count(0)
    expect(page.locator("[data-testid=player] .seat-badge").first).to_contain_text("Temple 0/15")
    # 5. A clogged hand: "Discard cards" leads, as the main button, before "End turn now".
    buttons = _clogged_buttons(visitor)
    assert buttons[0] == ["move-skip_build", True, "Discard cards, then end the turn (no build)"]
    assert buttons[1][0] == "move-end_turn" and not buttons[1][1], buttons

    # Play on, passing wherever the game lets us, to the turn limit.
    warned = False
    for _ in range(400):
        page.wait_for_function(MY_TURN, timeout=30_000)
        state = visitor.state()
        if state["status"] == "finished":
            break
        view = state["view"]
        limit = page.get_by_test_id("turn-limit")
        if view["turn_no"] < LIMIT - 20:
            expect(limit).to_have_count(0)
        else:
            expect(limit).to_contain_text(f"Turn {view['turn_no']} of {LIMIT}")
            expect(limit).to_contain_text("the larger Temple wins")
            warned = True
        legal = state["legal_moves"]
        move = next((m for kind in PASSES for m in legal if m["type"] == kind), legal[0])
        page.locator(f'[data-testid=moves] [data-key="{_key(move)}"]').first.click()
        page.wait_for_function("v => window.ziggurat.state.version > v", arg=state["version"])
    expect(page.locator(APP)).to_have_attribute("data-status", "finished")
    assert warned, "the turn-limit warning was shown"
    reason = page.get_by_test_id("end-reason")
    expect(reason).to_contain_text("Turn limit reached")
    assert "[" not in reason.inner_text(), reason.inner_text()
    page.screenshot(path=str(SCREENSHOTS / "solomons-temple-turn-limit-end.png"), full_page=True)
    assert not visitor.page_errors, visitor.page_errors


def _bots_play_temple_of_five(base: str) -> str:
    """Three bots play a game of Temple of Five (the host's seat goes to a bot when she
    leaves); answers the room's code once the game is over."""
    with httpx.Client(base_url=base, timeout=20) as http:
        host = http.post("/api/players", json={"name": "Rhea"}).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        code = http.post("/api/rooms", headers=auth, json={
            "game": "temple-of-five", "seats": 3, "standin_level": "easy",
            "options": {"effect_tiles": True}}).json()["code"]
        for seat in (1, 2):
            http.post(f"/api/rooms/{code}/bots", headers=auth, json={"seat": seat, "level": "easy"})
        assert http.post(f"/api/rooms/{code}/start", headers=auth).status_code == 200
        http.post(f"/api/rooms/{code}/leave", headers=auth).raise_for_status()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if http.get(f"/api/rooms/{code}").json()["status"] == "finished":
                return code
            time.sleep(0.5)
    raise AssertionError(f"the bots did not finish {code}")


def _first_reserve_held(base: str, code: str, frames: list[dict]) -> tuple[int, dict]:
    """The first seat (0 first, whose replay is `frames`) that ever holds a bonus decoration,
    and the first frame of its own replay in which it does."""
    for seat in range(3):
        if seat:
            frames = httpx.get(f"{base}/api/rooms/{code}/replay?seat={seat}",
                               timeout=20).json()["frames"]
        held = next((f for f in frames if f["view"]["seats"][seat].get("reserve")), None)
        if held is not None:
            return seat, held
    raise AssertionError(f"no seat of {code} ever held a bonus decoration")


def test_a_temple_of_five_replay_reads_right(open_client, server) -> None:
    code = _bots_play_temple_of_five(server.url)
    replay = httpx.get(f"{server.url}/api/rooms/{code}/replay?seat=0", timeout=20).json()
    frames = replay["frames"]
    # every seat as the table names it
    names = {s["seat"]: f"Bot for {s['replaced']['name']}" if s.get("replaced")
             else f"Bot {s['seat'] + 1}" for s in replay["room"]["seats"]}
    viewer: Client = open_client("viewer")
    page = viewer.page
    board = page.get_by_test_id("board")

    def open_at(version: int, seat: int = 0) -> None:
        page.goto(f"{server.url}/r/{code}/replay?seat={seat}&v={version}")
        expect(page.locator(APP)).to_have_attribute("data-version", str(version))

    # 12. In the draft several seats act at once: the ▶ marks exactly them, the board's words
    # name exactly them, and nothing on the board can be pressed.
    draft = next(f for f in frames if f["view"]["phase"] == "draft" and len(f["to_act"]) >= 2
                 and any(f["view"]["seats"][0]["sent"].get(to) for to in ("left", "right")))
    everyone = next(f for f in frames if f["view"]["phase"] == "draft" and len(f["to_act"]) == 3)
    open_at(everyone["version"])  # "you" (seat 0) are named too: nobody acts in a replay
    expect(page.locator(".seat-row .turn-mark").filter(has_text="▶")).to_have_count(3)
    expect(board).to_contain_text(
        "Waiting for " + ", ".join(names[s] for s in range(3)) + " to pass on their tiles.")
    open_at(draft["version"])
    marks = page.locator(".seat-row .turn-mark").filter(has_text="▶")
    expect(marks).to_have_count(len(draft["to_act"]))
    expect(board).to_contain_text(
        "Waiting for " + ", ".join(names[s] for s in draft["to_act"]) + " to pass on their tiles.")
    assert board.locator("button").count() > 0
    expect(board.locator("button:not([disabled])")).to_have_count(0)
    # 9. A passed tile is labelled "to <name> (left)", never "to to".
    sent = page.locator("[data-testid^=tof-sent-] small")
    expect(sent.first).to_be_visible()
    for text in sent.all_inner_texts():
        assert not text.startswith("to to"), text
    expect(page.locator("[data-testid=tof-sent-left] small").first).to_have_text(
        f"to {names[1]} (left)")

    # 4. Bonus decorations held but not usable here: in their colour, fully opaque. Whose
    # reserve ever holds one is the bots' game (seat 0's alone did not, once): the first seat's
    # whose does, in its own replay (another seat's reserve is hidden).
    seat, held = _first_reserve_held(server.url, code, frames)
    open_at(held["version"], seat)
    pieces = board.locator("button.tof-piece")
    expect(pieces.first).to_be_visible()
    colours = {"red": "rgb(192, 57, 43)", "yellow": "rgb(138, 109, 0)",
               "green": "rgb(30, 132, 73)", "blue": "rgb(36, 113, 163)"}
    for piece in held["view"]["seats"][seat]["reserve"]:
        button = board.locator(f"button.tof-piece.tof-{piece['colour']}").first
        style = button.evaluate("(b) => [getComputedStyle(b).color, getComputedStyle(b).opacity,"
                                " b.disabled]")
        assert style == [colours[piece["colour"]], "1", True], (piece, style)
    # 12. The running score beside each seat, as the view had it.
    scores = page.get_by_test_id("replay-score")
    expect(scores).to_have_count(3)
    for seat, score in enumerate(held["view"]["scores"]):
        expect(scores.nth(seat)).to_have_text(f"{score} {'pt' if score == 1 else 'pts'}")
    page.screenshot(path=str(SCREENSHOTS / "temple-of-five-replay-bonus-pieces.png"),
                    full_page=True)

    # The end: the reason as a sentence; no "1 cards" or "1 priests" anywhere.
    open_at(frames[-1]["version"])
    expect(page.get_by_test_id("replay-outcome")).to_contain_text("The temple is complete.")
    for badge in page.locator(".seat-row .seat-badge").all_inner_texts():
        assert "1 cards" not in badge.split(" · ")[-1:] and not badge.startswith("1 priests"), badge
    assert not viewer.page_errors, viewer.page_errors
