"""Issue 23.8's polish, measured on the page: a phone's header in two lines, a banner you cannot
see through, "Take a seat" uncovered, the end title clear of the sticky banner, variants with
their help text, and an admin console that says what it does."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client
from tests.server import ADMIN_TOKEN

pytestmark = pytest.mark.e2e

# How many rows the header's visible items sit on.
HEADER_ROWS = """() => {
  const tops = [...document.querySelectorAll('.topbar *')]
    .filter((el) => el.children.length === 0 && el.getClientRects().length)
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 2 && r.height > 2)
    .map((r) => Math.round(r.top + r.height / 2));
  const rows = [];
  for (const t of tops.sort((a, b) => a - b)) {
    if (!rows.some((r) => Math.abs(r - t) < 14)) rows.push(t);
  }
  return rows.length; }"""
# The element at the centre of `el` is `el` itself (or inside it): nothing covers it.
UNCOVERED = """(el) => { const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el === top || el.contains(top); }"""


def play_out_against_a_bot(client: Client) -> None:
    """Play the legal moves one by one (first offered) until the game ends; between my moves,
    wait for the bot (however slow the machine) rather than count polls."""
    for _ in range(300):
        state = client.state()
        if state["status"] != "active":
            return
        if client.seat in state["to_act"] and state["legal_moves"]:
            version = state["version"]
            client.page.evaluate("m => window.ziggurat.page.play(m).catch(() => {})",
                                 state["legal_moves"][0])
            client.page.wait_for_function(
                "v => window.ziggurat.state.version > v && !window.ziggurat.page.pending.size",
                arg=version)
        else:
            client.page.wait_for_function(
                """seat => { const s = window.ziggurat.state; return s.status !== "active"
                  || (s.to_act.includes(seat) && s.legal_moves.length > 0); }""",
                arg=client.seat, timeout=60_000)
    raise AssertionError("the game did not end")


def test_a_phone_reads_the_lobby_the_room_and_the_end(open_client) -> None:
    phone, visitor = open_client("phone", phone=True), open_client("visitor", phone=True)
    phone.choose_name("Nefertiti")
    card = phone.page.locator("[data-game=gem-pyramid]")
    phone.open_variants(card)
    # Each variant says what it does beside its box.
    points = card.locator("input[name=points]").locator("xpath=..")
    expect(points.get_by_test_id("option-help")).to_contain_text("series")
    link = phone.create_lucent(seats=2)
    assert phone.page.evaluate(HEADER_ROWS) <= 2
    expect(phone.page.get_by_test_id("change-name")).to_be_visible()

    # A visitor's "Take a seat" is not under any floating button.
    visitor.page.goto(link)
    take = visitor.page.get_by_role("button", name="Take a seat")
    take.scroll_into_view_if_needed()
    assert take.evaluate(UNCOVERED)

    phone.page.get_by_test_id("add-bot").click()
    phone.page.get_by_test_id("start").click()
    expect(phone.page.locator(APP)).to_have_attribute("data-my-turn", "true")
    assert phone.page.evaluate(HEADER_ROWS) <= 2, "the header wraps to three lines"
    # The sticky banner is opaque: the board does not show through it.
    colour = phone.page.get_by_test_id("banner").evaluate(
        "el => getComputedStyle(el).backgroundColor")
    assert colour.startswith("rgb(") or colour.endswith(", 1)"), colour

    play_out_against_a_bot(phone)
    title = phone.page.locator("#end-title")
    expect(title).to_be_visible()
    phone.page.wait_for_timeout(800)  # the page scrolls smoothly to the end screen
    banner = phone.page.get_by_test_id("banner").bounding_box()
    box = title.bounding_box()
    assert banner and box and box["y"] >= banner["y"] + banner["height"], (box, banner)
    phone.shot("polish-end-phone")
    assert not phone.page_errors and not visitor.page_errors


def test_the_admin_console_speaks_plainly(open_client, server) -> None:
    with httpx.Client(base_url=server.url) as http:
        people = [http.post("/api/players", json={"name": n}).json() for n in ("Ann", "Ben")]
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
        code = http.post("/api/rooms", headers=auth[0],
                         json={"game": "gem-pyramid", "seats": 2}).json()["code"]
        http.post(f"/api/rooms/{code}/join", headers=auth[1]).raise_for_status()
        http.post(f"/api/rooms/{code}/start", headers=auth[0]).raise_for_status()
    admin = open_client("admin")
    page = admin.page
    admin.admin_after_a_wrong_token(ADMIN_TOKEN)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("room-lists")).to_be_visible()
    expect(page.get_by_test_id("toast")).to_have_count(0)  # the wrong-token toast is gone

    page.goto(f"{server.url}/admin#room={code}")
    acting = page.locator("[data-testid=seat-row][data-acting=true]")
    expect(acting.get_by_test_id("act-zombie")).to_have_text(
        "Play the default move for the seat to act")
    state = page.get_by_test_id("state").get_by_test_id("json")
    expect(state).to_contain_text('"hands": [')
    assert "\n  " in state.inner_text(), "the state is pretty-printed"
    acting.get_by_test_id("act-zombie").click()
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    # Nothing in the dialog's button row but its buttons: no tinted box beside them.
    row = dialog.locator(".row.end")
    assert row.evaluate("el => getComputedStyle(el).backgroundImage") == "none"
    page.get_by_test_id("confirm-no").click()
    assert not admin.page_errors
