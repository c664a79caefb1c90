"""Evaluation duel: a game's deeper evaluation against its plain one, both played greedily.

    python -m bench.eval_duel --game temple-of-five --games 100 [--first 0] [--players 2]

A greedy player (the `greedy` level: the best one-ply value on one determinisation) with the
game's `deeper` evaluation holds seat n mod players of seeded game n, greedy players with its
plain evaluation every other seat. A one-ply duel costs a second or so a game where a search
duel costs minutes: a quick first test of whether an evaluation judges better, before an arena
cell (`bench.arena`) tells whether a level that plays with it is stronger.
"""

from __future__ import annotations

import argparse
import time
from random import Random

from bench.arena import play_out, share_of_win, wilson
from bots import greedy_move
from bots.evals import evaluation_for
from games import REGISTRY
from games.protocol import Move, State


def play_one(game_id: str, players: int, n: int, seconds: dict[str, float]) -> float:
    """Play game `n`; the deeper evaluation sits at seat n mod players. Returns its share of
    the win, and adds each side's CPU time to `seconds`."""
    game = REGISTRY[game_id]
    evaluations = {"deeper": evaluation_for(game_id, deeper=True),
                   "plain": evaluation_for(game_id)}
    seed, deeper_seat = f"duel:{game_id}:{players}:{n}", n % players

    def pick(state: State, seat: int, version: int) -> Move:
        side = "deeper" if seat == deeper_seat else "plain"
        legal = game.legal_moves(state, seat)
        started = time.process_time()
        move = legal[0] if len(legal) == 1 else greedy_move(
            game, state, seat, legal, evaluations[side], Random(f"{seed}:{version}"), players)
        seconds[side] += time.process_time() - started
        return move

    return share_of_win(play_out(game_id, players, seed, pick), deeper_seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(REGISTRY))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (seeds)")
    args = parser.parse_args()
    if evaluation_for(args.game, deeper=True) is evaluation_for(args.game):
        parser.error(f"{args.game} has no deeper evaluation")
    players = args.players or max(2, REGISTRY[args.game].min_players)
    score, seconds = 0.0, {"deeper": 0.0, "plain": 0.0}
    for done, n in enumerate(range(args.first, args.first + args.games), start=1):
        score += play_one(args.game, players, n, seconds)
        print(f"game {n}: deeper {score:g}/{done}", flush=True)
    low, high = wilson(score, args.games)
    print(f"{args.game} {players}p: greedy with the deeper evaluation wins {score:g}/{args.games}"
          f" = {score / args.games:.0%} (95% CI {low:.0%}-{high:.0%}); CPU s, deeper"
          f" {seconds['deeper']:.1f}, plain {seconds['plain']:.1f}")


if __name__ == "__main__":
    main()
