"""A redraw never takes away what a person is doing. The pages redraw by replacing nodes whenever
a message comes. A click is a press and a release on one node, so a message landing between the
two left the release on a new node and the click made nothing: a redraw asked for during a press
now waits for the release (`holdDuringPress` in static/ui.js). And a scrolled list (the move
log) went back to its top at every move: its scroll is now kept (`replace`, `data-scroll`)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client, lucent_pair, whose_turn

pytestmark = pytest.mark.e2e

HELPER = """async ({ hold }) => {
  const { h, holdDuringPress, replace } = await import('/static/ui.js');
  const root = h('div', { id: 'press-test' });
  document.body.prepend(root);
  window.pressTest = { clicks: 0, draws: 0 };
  const draw = () => {
    window.pressTest.draws += 1;
    replace(root, h('button', { id: 'press-me', style: { width: '200px', height: '80px' },
                                onclick: () => { window.pressTest.clicks += 1; } }, 'Press me'));
  };
  draw();
  window.pressTest.draw = hold ? holdDuringPress(root, draw).draw : draw;
}"""


def _press_through_a_redraw(client: Client, hold: bool, by: str) -> dict:
    """Press the helper page's button (with the mouse, or Space once it has the focus), redraw
    while it is down, release; what happened."""
    page = client.page
    page.goto(f"{client.base}/")
    page.evaluate(HELPER, {"hold": hold})
    if by == "mouse":
        box = page.locator("#press-me").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
    else:
        page.locator("#press-me").focus()
        page.keyboard.down(" ")
    page.evaluate("() => window.pressTest.draw()")
    drawn_while_down = page.evaluate("() => window.pressTest.draws")
    if by == "mouse":
        page.mouse.up()
    else:
        page.keyboard.up(" ")
    page.wait_for_function("() => window.pressTest.draws === 2")
    return {"drawn_while_down": drawn_while_down,
            "clicks": page.evaluate("() => window.pressTest.clicks")}


@pytest.mark.parametrize("by", ["mouse", "space"])
def test_a_redraw_during_a_press_waits_for_the_release_and_the_click_counts(open_client, by):
    without = _press_through_a_redraw(open_client("bare"), hold=False, by=by)
    assert without == {"drawn_while_down": 2, "clicks": 0}  # the fault the helper is for
    held = _press_through_a_redraw(open_client("held"), hold=True, by=by)
    assert held == {"drawn_while_down": 1, "clicks": 1}  # drawn once released, click counted


def test_a_move_pressed_while_the_table_changes_is_played(open_client):
    """Ann's turn: she picks a gem and presses a slot; before she lets go, Cy's tab closes and
    the room message saying so reaches her page. Her release still plays the gem."""
    ann, cy, _ = lucent_pair(open_client)
    for client in (ann, cy):
        client.page.wait_for_function(
            "() => window.ziggurat?.state?.status === 'active'")
    seated = {client.seat: client for client in (ann, cy)}
    mover = whose_turn(ann, seated)
    other = cy if mover is ann else ann
    page = mover.page
    expect(page.locator(APP)).to_have_attribute("data-my-turn", "true")
    before = mover.version
    page.locator("[data-testid=hand-gem]:not([disabled])").first.click()
    slot = page.locator("[data-testid=slot][data-legal=true]").first
    box = slot.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    other.page.close()
    page.wait_for_function(
        "() => window.ziggurat.page.room.seats.some((s) => s.player && !s.connected)")
    page.mouse.up()
    expect(page.locator(APP)).to_have_attribute("data-version", str(before + 1))
    # The redraw it held back came after: the page shows Cy away.
    expect(page.get_by_test_id("player").locator(".dot.closed")).to_have_count(1)
    assert mover.page_errors == []


def test_the_move_log_stays_where_it_was_scrolled_when_a_move_comes(open_client):
    """Ann scrolls down the log to read the first moves; Cy's next move adds a line at its top
    (and the lines above hers are redrawn) and Ann's log still shows its end, where she was."""
    ann, cy, _ = lucent_pair(open_client)
    ann.page.set_viewport_size({"width": 1280, "height": 480})  # a short log box: it scrolls
    for client in (ann, cy):
        client.page.wait_for_function("() => window.ziggurat?.state?.status === 'active'")
    seated = {client.seat: client for client in (ann, cy)}
    log = ann.page.get_by_test_id("log")
    for _ in range(40):
        if log.evaluate("el => el.scrollHeight > el.clientHeight + 60"):
            break
        mover = whose_turn(ann, seated)
        assert mover is not None, "the game ended before the log needed to scroll"
        ann.wait_version(mover.play_one_gem())
    else:
        raise AssertionError("the log never grew past its box")
    if whose_turn(ann, seated) is ann:  # the next move must be Cy's, arriving by message
        ann.wait_version(ann.play_one_gem())
    _log_settled(ann)
    scrolled = log.evaluate("el => { el.scrollTop = el.scrollHeight; return el.scrollTop; }")
    assert scrolled > 0
    mover = whose_turn(ann, seated)
    assert mover is cy
    ann.wait_version(cy.play_one_gem())
    _log_settled(ann)
    top, from_end = log.evaluate(
        "el => [el.scrollTop, el.scrollHeight - el.clientHeight - el.scrollTop]")
    assert top > 0 and abs(from_end) <= 1  # at the end still, the new line above


def _log_settled(client: Client) -> None:
    """Every line of the log is the server's own (a move's line may first be drawn from its
    events, a line or two longer, until the log's fetch answers): the log's length is final."""
    client.page.wait_for_function(
        "() => { const p = window.ziggurat.page; return !p.logTimer && !p.logLoading"
        " && ![...p.log.values()].some((e) => e.partial); }")
