"""Temple of Five: the running scores every seat can read, plus the longest chains on each
seat's board (a tile's worth shows only when priests go out, which a short search seldom sees).
A chain holding the seat's priest still counts: picking a chain is the first step of using it,
and a bonus that dropped at that step would teach the bot never to send priests.

Read from the state, not from a view: the state is a determinisation already, and a view copies
every seat's board (a third of a search's time went there and into re-reading the chains;
`board.chains` is memoised by board).
"""

from __future__ import annotations

from bots.evals import Evaluation, from_points
from games.protocol import Game, State
from games.temple_of_five import board
from games.temple_of_five.rules import running_scores

CHAIN_CELL = 0.25  # points per space of one of a seat's two longest chains
LATER_CELL = 0.1  # points per space of its other chains (for later priest phases)
USABLE = 2  # chains a seat may use per priest phase


def values(game: Game, state: State, players: int) -> list[float]:
    points = []
    for score, seat in zip(running_scores(state), state["seats"], strict=True):
        chains = sorted((len(cells) for cells, _ in board.chains(seat)), reverse=True)
        points.append(float(score) + CHAIN_CELL * sum(chains[:USABLE])
                      + LATER_CELL * sum(chains[USABLE:]))
    return from_points(points, scale=4.0)


EVALUATION = Evaluation(values=values, rollout_plies=0, priors=True)
