"""Take-backs in the browser (issue 22, item 3): the room shell's "Take back" button, in two
games. A player makes a step by clicking, the button appears in their banner (and nobody
else's), one click takes the step back, and both players' tables are exactly as before."""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.pages import ARTIFACTS, Client, start_pair
from tests.e2e.test_five_realms import create_five_realms
from tests.e2e.test_temple_of_five import click_move
from tests.e2e.test_temple_of_five import create_room as create_temple_of_five
from tests.server import ADMIN_TOKEN
from tests.take_backs import takeable_placement

pytestmark = pytest.mark.e2e
MAX_STEPS = 80
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
KEEP_TOASTS = """() => {
  window.keptToasts = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes)
      window.keptToasts.push(node.textContent);
  }).observe(document.getElementById('toasts'), { childList: true });
}"""


def _seated_pair(open_client, create, phone: bool = False) -> dict[int, Client]:
    host, guest, _ = start_pair(open_client, create, phone)
    return _seated(host, guest)


def _seated(host: Client, guest: Client) -> dict[int, Client]:
    """Both pages once the game is under way, by seat."""
    for client in (host, guest):
        client.page.wait_for_function(
            "() => window.ziggurat && window.ziggurat.state && window.ziggurat.state.status"
            " === 'active'")
    return {c.seat: c for c in (host, guest)}


def _settled(client: Client, version: int) -> None:
    client.page.wait_for_function(
        "v => window.ziggurat.state.version === v && !window.ziggurat.page.pending.size",
        arg=version)


def _table(client: Client) -> str:
    """All this page was told of the game: its view and its legal moves."""
    state = client.state()
    return json.dumps([state["view"], state["legal_moves"], state["to_act"]], sort_keys=True)


def _take_back(mover: Client, other: Client, click, name: str) -> None:
    """`click` makes one step on `mover`'s page; the step is then taken back by the button."""
    version = mover.version
    before = {mover.label: _table(mover), other.label: _table(other)}
    expect(mover.page.get_by_test_id("take-back")).to_have_count(0)
    click()
    for client in (mover, other):
        _settled(client, version + 1)
    button = mover.page.get_by_test_id("take-back")
    expect(button).to_be_visible()
    expect(other.page.get_by_test_id("take-back")).to_have_count(0)
    assert _table(mover) != before[mover.label], "the step changed the table"
    mover.page.screenshot(path=str(ARTIFACTS / f"take-back-{name}.png"))
    for client in (mover, other):  # toasts fade: keep every one said from now on
        client.page.evaluate(KEEP_TOASTS)
    button.click()
    for client in (mover, other):
        _settled(client, version)
        assert _table(client) == before[client.label], f"{client.label}'s table is not restored"
    said = "() => window.keptToasts.join(' | ')"
    mover.page.wait_for_function(f"() => ({said})().includes('You took back your last step')")
    name = {"host": "Ada", "guest": "Bea"}[mover.label]
    other.page.wait_for_function(f"() => ({said})().includes('{name} took back')")
    expect(mover.page.get_by_test_id("take-back")).to_have_count(0)
    for client in (mover, other):
        assert not client.page_errors, client.page_errors


def _takeable_place(server, link: str, seat: int) -> dict | None:
    """A placement `seat` may take back at the deal, judged on the room's state and seed."""
    code = link.rsplit("/", 1)[1]
    with httpx.Client(base_url=server.url, headers=ADMIN) as http:
        return takeable_placement(http.get(f"/api/admin/rooms/{code}").raise_for_status().json(),
                                  seat)


def test_a_five_realms_placement_is_taken_back(open_client, server) -> None:
    for _deal in range(5):  # about one deal in a hundred has no placement to take back
        host, guest, link = start_pair(open_client, create_five_realms, phone=True)
        seated = _seated(host, guest)
        [seat] = seated[0].state()["to_act"]
        place = _takeable_place(server, link, seat)
        if place is not None:
            break
    else:
        pytest.fail("no deal in 5 had a first placement that may be taken back")
    mover, other = seated[seat], seated[1 - seat]
    controls = mover.page.locator("[data-testid=fr-move]")
    offered = [json.loads(raw) for raw in controls.evaluate_all(
        "els => els.map((b) => b.dataset.move)")]
    control = controls.nth(offered.index(place))
    _take_back(mover, other, control.click, "five-realms-phone")


def test_a_temple_of_five_tile_placement_is_taken_back(open_client) -> None:
    seated = _seated_pair(open_client, create_temple_of_five)
    for _ in range(MAX_STEPS):
        acting = [c for c in seated.values() if c.state()["legal_moves"]]
        assert acting, "nobody has a move"
        client = acting[0]
        moves = client.state()["legal_moves"]
        place = next((m for m in moves if m["type"] == "place"), None)
        if place is not None:
            other = next(c for c in seated.values() if c is not client)
            _take_back(client, other, lambda c=client, m=place: click_move(c, m),
                       "temple-of-five")
            return
        version = client.version
        click_move(client, moves[0])
        _settled(client, version + 1)
    raise AssertionError(f"no tile to place within {MAX_STEPS} steps")
