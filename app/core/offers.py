"""Take-backs: the platform's rule for which step a seat may take back, and which seat each
room's newest state offers one to.

A seat may take back its own last step while it is still to act, nobody else has moved since,
the step drew no randomness and the game says `undoable` for it (games/protocol.py). The move
pipeline decides this once per move, where the state before the move and the move's RNG are at
hand, and remembers it here per room; the `state` message then carries `can_undo` for the seat
it names, at no cost. A state read back from the store at another version (a restart, another
process) offers nothing until the next move; the `undo` frame itself always re-checks on the
replayed log (app/play/undo.py).
"""

from __future__ import annotations

from games import Game
from games.protocol import Move, State

_offers: dict[str, tuple[int, int]] = {}  # room -> (version, the seat that may take back)
LIMIT = 50_000  # rooms remembered with an offer (one left mid-turn keeps its entry); oldest first


def may_take_back(game: Game, before: State, seat: int, move: Move, after: State,
                  drew: bool) -> bool:
    """Whether `seat`'s `move` from `before` to `after` may be taken back: it drew nothing
    from the RNG, the game says `undoable`, the game goes on and the seat is still to act."""
    if drew or game.outcome(after) is not None or seat not in game.to_act(after):
        return False
    return bool(game.undoable(before, seat, move))


def remember(code: str, version: int, seat: int | None) -> None:
    """The state `version` of room `code` offers a take-back to `seat` (None: to nobody).
    "Nobody" is kept too (issue 33): an `undo` frame at a state known to offer nothing is
    refused at once (`refused_at_once`), where each one used to replay the whole log."""
    _offers.pop(code, None)
    if len(_offers) >= LIMIT:
        del _offers[next(iter(_offers))]
    _offers[code] = (version, seat)


def offered_to(code: str, version: int) -> int | None:
    """The seat the room's state at `version` offers a take-back to, if any."""
    found = _offers.get(code)
    return found[1] if found is not None and found[0] == version else None


def refused_at_once(code: str, version: int, seat: int | None) -> bool:
    """Whether this process judged the move that made `version` and it offers `seat` no
    take-back: what the seat's `state` message already said (`can_undo` false)."""
    found = _offers.get(code)
    return found is not None and found[0] == version and found[1] != seat
