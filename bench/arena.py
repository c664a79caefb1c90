"""Bot arena: seeded games between two bot levels, seats alternated, win rate and think time.

    python -m bench.arena --game temple-of-five --a hard --b random --games 20 [--players 3]

Policy A holds one seat (game n: seat n mod players), policy B every other seat; at one player
(Temple Rush solo) A plays the solo game against its own Robot and B is unused. A's score per
game is its share of the win (1, 1/k when k seats tie for first, 0). Printed: A's win rate with
a 95% Wilson interval, and each policy's think time per decision (decisions with one legal move
are not timed: `choose` returns them at once). Runs in this process: one worker.

`--ips N` runs the searching levels untimed with a cap of N iterations per second of their
budget (normal: N/2, hard: 2N): reproducible, and blind to how loaded the machine is.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass, field

from bots import LEVELS, choose
from games import REGISTRY
from games.protocol import match_rng


@dataclass
class Tally:
    """What the arena measured so far."""

    score: float = 0.0
    games: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval for a proportion `score / n`."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def play_one(game_id: str, players: int, a: str, b: str, n: int, tally: Tally,
             ips: int | None = None) -> float:
    """Play game `n`; A sits at seat n mod players. Returns A's share of the win."""
    game = REGISTRY[game_id]
    seed = f"arena:{game_id}:{players}:{n}"
    a_seat = n % players
    state = game.setup(players, game.Options(), match_rng(seed, 0))
    version = 0
    while acting := game.to_act(state):
        seat = min(acting)
        side = "a" if seat == a_seat else "b"
        legal = game.legal_moves(state, seat)
        started = time.perf_counter()
        level = LEVELS[a if side == "a" else b]
        cap = {} if ips is None else {"iterations": round(ips * level.seconds), "timed": False}
        move = choose(game_id, state, seat, level.name, f"{seed}:{version}", players=players,
                      **cap)
        if len(legal) > 1:
            tally.times[side].append(time.perf_counter() - started)
        version += 1
        state, _ = game.apply(state, seat, move, match_rng(seed, version))
    outcome = game.outcome(state)
    assert outcome is not None
    return 1.0 / len(outcome.winners) if a_seat in outcome.winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(REGISTRY))
    parser.add_argument("--a", required=True, choices=list(LEVELS))
    parser.add_argument("--b", default="random", choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (seeds)")
    parser.add_argument("--ips", type=int, default=None,
                        help="searching levels run untimed, capped at this many iterations per "
                             "second of their budget: figures a loaded machine cannot skew")
    args = parser.parse_args()
    game = REGISTRY[args.game]
    players = args.players or max(2, game.min_players)
    tally = Tally()
    started = time.perf_counter()
    for n in range(args.first, args.first + args.games):
        tally.score += play_one(args.game, players, args.a, args.b, n, tally, args.ips)
        tally.games += 1
        print(f"game {n}: A {tally.score:g}/{tally.games}", flush=True)
    low, high = wilson(tally.score, tally.games)
    against = "the Robot" if players == 1 else args.b
    mode = "" if args.ips is None else f" (untimed, {args.ips} iterations/s of budget)"
    print(f"{args.game} {players}p: {args.a} vs {against}{mode}:"
          f" A wins {tally.score:g}/{tally.games}"
          f" = {tally.score / tally.games:.0%} (95% CI {low:.0%}-{high:.0%});"
          f" {time.perf_counter() - started:.0f} s")
    for side, level in (("a", args.a), ("b", args.b)):
        times = tally.times[side]
        if times:
            print(f"  {level} ({side}): {len(times)} decisions, p50 {percentile(times, 0.5):.3f} s,"
                  f" p95 {percentile(times, 0.95):.3f} s, mean {statistics.fmean(times):.3f} s")


if __name__ == "__main__":
    main()
