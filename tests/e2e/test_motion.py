"""Pieces that move (issue 39), in Chromium, one move per game: the test plays both seats over
websockets toward a move that moves a piece (a gem, a card, a block, a tile, an army) while a
spectator's page draws the table. The page's animations are held (paused as they start, by a
wrapper around `Element.animate`), so sampling needs no timing: the piece sampled half-way
differs from where it starts and where it ends. Under prefers-reduced-motion the next such move
starts no animation at all."""

from __future__ import annotations

import itertools
import json
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import ClientConnection, connect

from tests.e2e.pages import APP

pytestmark = pytest.mark.e2e
STEPS = 400
_ids = itertools.count()

# Every animation the page starts once `window.holdFrom` is reached is paused at its start and
# kept, with the version of the state the board was drawn from.
HOLD = """
window.held = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const animation = animate.apply(this, args);
  const version = window.ziggurat?.page?.shown?.version ?? -1;
  if (window.holdFrom !== undefined && version >= window.holdFrom) {
    animation.pause();
    window.held.push({ animation, target: this, version });
  }
  return animation;
};
"""

# Where the newest held animation of a piece matching `selector` puts it at its start, half-way
# and at its end (viewport coordinates of its box's centre).
SAMPLE = """selector => {
  const found = window.held.filter((x) => x.target.isConnected && x.target.matches(selector))
    .at(-1);
  if (!found) return null;
  const { animation, target } = found;
  const at = () => {
    const r = target.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  };
  const total = animation.effect.getComputedTiming().duration;
  animation.currentTime = 0; const start = at();
  animation.currentTime = total / 2; const middle = at();
  animation.finish(); const end = at();
  return { start, middle, end, total, piece: target.dataset.piece };
}"""


@dataclass(frozen=True)
class Case:
    game: str
    moves: frozenset[str]  # the move types that move the piece looked at
    prefer: tuple[str, ...]  # move types each seat picks first on the way there
    piece: str  # a CSS selector for that piece
    keep: str = ""  # a card never discarded on the way (the one that brings the piece in)


CASES = [
    Case("gem-pyramid", frozenset({"place"}), ("place",), '[data-piece^="gem:"]'),
    Case("five-realms", frozenset({"place"}), ("place",), '[data-piece^="alkane:"]'),
    Case("temple-rush", frozenset({"place"}), ("place",), ".tr-block[data-piece]"),
    Case("temple-of-five", frozenset({"place"}), ("place",), '[data-piece^="laid:"]'),
    # Solomon's Babylonian Army is played by the seat NOT on turn, in the other's Phase II: each
    # seat discards (two cards a turn) to draw anew, but never that card, so some deal gets there.
    Case("solomons-temple", frozenset({"move", "army"}),
         ("move", "army", "to_military", "skip_build", "discard"), '[data-piece^="army:"]',
         keep="Babylonian Army"),
]


@dataclass
class Seat:
    """One player's socket: the latest state it was sent."""

    ws: ClientConnection
    state: dict[str, Any] = field(default_factory=dict)

    def drain(self, until_id: str | None = None) -> dict[str, Any] | None:
        """Read what is waiting (or, with `until_id`, up to that frame's answer)."""
        while True:
            try:
                raw = self.ws.recv(timeout=20 if until_id else 0)
            except TimeoutError:
                if until_id:
                    raise
                return None
            message = json.loads(raw)
            if message["type"] == "state":
                self.state = message
            elif message.get("id") == until_id and message["type"] in ("ack", "error"):
                return message

    def move(self, move: dict[str, Any]) -> int:
        move_id = f"motion-{next(_ids)}"
        self.ws.send(json.dumps({"type": "move", "id": move_id, "version": self.state["version"],
                                 "move": move}))
        answer = self.drain(move_id)
        assert answer is not None and answer["type"] == "ack", answer
        return answer["version"]


def _table(base: str, game: str, sockets: ExitStack) -> tuple[str, dict[str, Any], list[Seat]]:
    """A started two-seat room of `game`, both seats held by players on sockets; its code
    and the first player (whom the page plays as)."""
    with httpx.Client(base_url=base, timeout=20) as http:
        people = [http.post("/api/players", json={"name": name}).raise_for_status().json()
                  for name in ("Ann", "Bo")]
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
        code = http.post("/api/rooms", headers=auth[0], json={"game": game, "seats": 2}
                         ).raise_for_status().json()["code"]
        http.post(f"/api/rooms/{code}/join", headers=auth[1]).raise_for_status()
        ws_base = base.replace("http://", "ws://")
        seats = [Seat(sockets.enter_context(connect(
            f"{ws_base}/api/rooms/{code}/ws?token={p['token']}", max_size=2**22)))
            for p in people]
        http.post(f"/api/rooms/{code}/start", headers=auth[0]).raise_for_status()
    return code, people[0], seats


def _sync(seats: list[Seat], version: int) -> None:
    """Every socket has been sent the game under way at `version` (or later)."""
    for seat in seats:
        while (not seat.state or seat.state["status"] != "active"
               or seat.state["version"] < version):
            message = json.loads(seat.ws.recv(timeout=20))
            if message["type"] == "state":
                seat.state = message
        seat.drain()


def _next(seats: list[Seat], case: Case) -> tuple[Seat, dict[str, Any]]:
    """The seat to move and its move, the preferred kinds first."""
    acting = [seat for seat in seats if seat.state["legal_moves"]]
    assert acting, "nobody has a move"
    seat = acting[0]
    legal = [m for m in seat.state["legal_moves"]
             if not (m["type"] == "discard" and m.get("card") == case.keep)]
    for kind in case.prefer:
        chosen = [m for m in legal if m["type"] == kind]
        if chosen:
            return seat, chosen[0]
    return seat, legal[0]


def _play_a_piece_move(page: Page, seats: list[Seat], case: Case) -> int:
    """Play until a move of `case.moves`; held from that move on; its version."""
    version = max((seat.state.get("version", 0) for seat in seats), default=0)
    for _ in range(STEPS):
        _sync(seats, version)
        seat, move = _next(seats, case)
        if move["type"] in case.moves:
            # The page has drawn the board as it is before the move (a first drawing of a
            # board animates nothing).
            page.wait_for_function("v => window.ziggurat?.page?.shown?.version === v",
                                   arg=version)
            page.evaluate("v => { window.held = []; window.holdFrom = v; }", version + 1)
            made = seat.move(move)
            expect(page.locator(APP)).to_have_attribute("data-version", str(made))
            _sync(seats, made)
            return made
        version = seat.move(move)
    raise AssertionError(f"no {sorted(case.moves)} move within {STEPS} moves")


@pytest.mark.parametrize("case", CASES, ids=[case.game for case in CASES])
def test_a_piece_moves_and_not_under_reduced_motion(browser, server, case: Case) -> None:
    sockets = ExitStack()
    code, ann, seats = _table(server.url, case.game, sockets)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(HOLD)
        page.goto(f"{server.url}/")
        page.evaluate("p => localStorage.setItem('ziggurat.player', JSON.stringify(p))", ann)
        page.goto(f"{server.url}/r/{code}")  # Ann's page; the test moves for both seats
        expect(page.locator(APP)).to_have_attribute("data-status", "active")

        _play_a_piece_move(page, seats, case)
        sample = page.evaluate(SAMPLE, case.piece)
        held = "() => window.held.map((x) => [x.target.dataset.piece, x.target.isConnected])"
        assert sample is not None, (f"no animation of {case.piece}", page.evaluate(held))
        assert 150 <= sample["total"] <= 400, sample
        start, middle, end = sample["start"], sample["middle"], sample["end"]
        assert middle != start and middle != end and start != end, sample

        page.emulate_media(reduced_motion="reduce")
        _play_a_piece_move(page, seats, case)
        assert page.evaluate("window.held.length") == 0, "an animation under reduced motion"
        assert not errors, errors
    finally:
        context.close()
        sockets.close()
