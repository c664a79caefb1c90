"""The bots' search cost on a fixed workload: CPU seconds per game, and a digest of the moves.

    python -m bench.search_cost [--iterations 150] [--game G ...]

Each game gets the same mid-game states (seeded random two-seat games, a state every 17 plies
with more than two legal moves, 8 in all) and one `normal` search of each at a fixed iteration
cap, untimed: the moves depend on the code only, never on the machine. Run it in two trees (with
`PYTHONPATH=<tree>`) to compare: an equal digest says the change kept every move, and the CPU
seconds (this process's, which other programs cannot stretch much) say what it saved. Not a
test: it only measures.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from random import Random

import orjson

from bots import choose
from games import REGISTRY
from games.protocol import Game, State, match_rng

STATES = 8
EVERY = 17  # plies between the states kept


def workload(game: Game) -> list[tuple[State, int]]:
    """Mid-game states of seeded random games, with the seat to decide in each."""
    states: list[tuple[State, int]] = []
    for n in range(STATES):
        rng, chooser = match_rng(f"search-cost:{n}", 0), Random(n)
        state, ply = game.setup(2, game.Options(), rng), 0
        while game.to_act(state) and len(states) < 2 * (n + 1):
            seat = min(game.to_act(state))
            legal = game.legal_moves(state, seat)
            if ply % EVERY == 5 and len(legal) > 2:
                states.append((state, seat))
            state, _ = game.apply(state, seat, chooser.choice(legal), rng)
            ply += 1
        if len(states) >= STATES:
            break
    return states[:STATES]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--game", action="append", choices=sorted(REGISTRY))
    args = parser.parse_args()
    for game_id in args.game or sorted(REGISTRY):
        game = REGISTRY[game_id]
        states = workload(game)
        started = time.process_time()
        moves = [choose(game, state, seat, "normal", seed=i, players=2,
                        iterations=args.iterations, timed=False)
                 for i, (state, seat) in enumerate(states)]
        cpu = time.process_time() - started
        digest = hashlib.sha256(orjson.dumps(moves, option=orjson.OPT_SORT_KEYS)).hexdigest()
        print(f"{game_id:16} {len(states)} states  moves {digest[:12]}  CPU {cpu:.2f} s")


if __name__ == "__main__":
    main()
