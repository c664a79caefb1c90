"""A room's playable state at one version, and the per-seat `state` message built from it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.core.offers import offered_to
from games import REGISTRY, Event, Game


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a push needs: the room's game state at `version` and the events that made it."""

    code: str
    game_id: str
    status: str
    version: int
    state: dict[str, Any] | None
    events: list[dict[str, Any]] = field(default_factory=list)
    # When each seat to act runs out of time ({"<seat>": ISO 8601}), and the seat whose clock
    # ran out to make this version (None: a move somebody chose).
    deadlines: dict[str, str] = field(default_factory=dict)
    timed_out: int | None = None
    banks: dict[str, float] | None = None  # a Fischer clock's banks as of this version

    @property
    def game(self) -> Game:
        return REGISTRY[self.game_id]


def state_messages(snap: Snapshot, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """The wire `state` message for each of `seats` (None: a spectator); may raise if the rules
    do. What every seat is told alike (whose turn, the outcome) is asked of the rules once, each
    seat's own view and moves once per seat."""
    seats = set(seats)
    if snap.state is None:
        return {seat: {"type": "state", "version": snap.version, "seat": seat,
                       "status": snap.status, "view": None, "to_act": [], "legal_moves": [],
                       "outcome": None, "events": [], "deadlines": {}, "timed_out_seat": None,
                       "clock_banks": None, "can_undo": False} for seat in seats}
    game = snap.game
    # Only a game in play has seats to act: an aborted or errored room keeps the rules' last
    # state, whose `to_act` would tell a client it may move where every move is refused.
    active = snap.status == "active"
    to_act = sorted(game.to_act(snap.state)) if active else []
    outcome = game.outcome(snap.state)
    shared = {"to_act": to_act, "outcome": outcome.to_json() if outcome else None,
              "deadlines": snap.deadlines if active else {}, "timed_out_seat": snap.timed_out,
              "clock_banks": snap.banks}
    events = [Event.from_json(e) for e in snap.events]
    undo_seat = offered_to(snap.code, snap.version) if active else None
    return {seat: {"type": "state", "version": snap.version, "seat": seat, "status": snap.status,
                   "view": game.view(snap.state, seat),
                   "legal_moves": game.legal_moves(snap.state, seat)
                   if active and seat in to_act else [],
                   "events": [e.to_json() for e in events if e.visible_to(seat)],
                   "can_undo": seat is not None and seat == undo_seat,
                   **shared}
            for seat in seats}
