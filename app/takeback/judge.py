"""Whether a player may ask to take back their last move, judged on the replayed log.

Pure and synchronous (the caller runs it in a thread: a long game's replay is not free).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from app.core.client_ids import PLATFORM_PREFIX
from app.errors import ApiError
from games import Game
from games.protocol import State, match_rng, replay

# Scrambles tried per viewer and move: a move that shows something hidden shows it in (almost)
# every world the viewer thinks possible; fixed seeds keep the judgement reproducible.
SCRAMBLES = 12


@dataclass(frozen=True, slots=True)
class Judged:
    """A take-back that may be asked: the asker's seat, the version the game goes back to
    (the asker's move is `back_to + 1`), the move as everyone may read it, and the state there."""

    seat: int
    back_to: int
    what: str
    before: State


def refuse(message: str) -> ApiError:
    return ApiError(409, "cannot_take_back", message)


def judge(game: Game, seed: str, options: Any, players: int, rows: list[Any],
          seat: int) -> Judged:
    """The asker's last move and everything after it, replayed: refused (`cannot_take_back`)
    when the seat never moved, when its last move was made for it, or when any move since
    revealed something."""
    mine = [row for row in rows if row.seat == seat]
    if not mine:
        raise refuse("You have not moved yet: there is nothing to take back.")
    last = mine[-1]
    if last.client_id.startswith(PLATFORM_PREFIX):
        raise refuse("Your last move was made for you (by the clock, a bot or the admin): it "
                     "cannot be taken back.")
    back_to = last.version - 1
    before = replay(game, players, options, seed, ((r.seat, r.move) for r in rows[:back_to]))
    state = before
    for row in rows[back_to:]:
        rng = match_rng(seed, row.version)
        after, events = game.apply(state, row.seat, row.move, rng)
        if rng.drew:
            raise refuse(f"Move {row.version} drew something at random (a card, a die, a "
                         "tile): the game cannot go back past it.")
        if any(event.to is not None for event in events) or reveals(game, state, row.seat,
                                                                    row.move, after, players):
            raise refuse(f"Move {row.version} showed the table something that was hidden: the "
                         "game cannot go back past it.")
        state = after
    shown = game.redact_move(last.move, seat, None)  # the sentence is for everyone
    return Judged(seat, back_to, game.describe(shown) if shown is not None else "a hidden move",
                  before)


def reveals(game: Game, before: State, seat: int, move: Any, after: State,
            players: int) -> bool:
    """Whether `seat`'s `move` from `before` showed anyone (a seat or a spectator) something
    they could not see: in some world they thought possible (`scramble_hidden`) the same move
    leaves them a different view, or could not be made. A game may say so itself with
    `reveals(state, seat, move)`."""
    own = getattr(game, "reveals", None)
    if own is not None:
        return bool(own(before, seat, move))
    for viewer in [None, *range(players)]:
        seen = game.view(after, viewer)
        for n in range(SCRAMBLES):
            world = game.scramble_hidden(before, viewer, Random(f"takeback:{viewer}:{n}"))
            try:
                other, _ = game.apply(world, seat, move, Random(n))
            except Exception:  # illegal there: the move named something hidden
                return True
            if game.view(other, viewer) != seen:
                return True
    return False
