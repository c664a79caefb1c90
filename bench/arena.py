"""Bot arena: seeded games between two bot levels, seats alternated, win rate and think time.

    python -m bench.arena --game temple-of-five --a hard --b random --games 20 [--players 3]

Policy A holds one seat (game n: seat n mod players), policy B every other seat; at one player
(Temple Rush solo) A plays the solo game against its own Robot and B is unused. A's score per
game is its share of the win (1, 1/k when k seats tie for first, 0). Printed: A's win rate with
a 95% Wilson interval, and each policy's think time per decision, on the wall clock and in this
process's CPU time (what an idle core would take; decisions with one legal move are not timed:
`choose` returns them at once). Runs in this process: one worker.

By default the searching levels run untimed, each decision capped at the iterations that level
reached in its time budget on an idle core of this machine (`CALIBRATED`, per game): figures
that a loaded machine cannot skew, and that a seed reproduces (a game missing there plays on
the CPU clock, below). `--ips N` caps them at N
iterations per second of their budget instead (normal: N/2, hard: 2N). `--timed wall` plays on
the wall clock, as the server does, for think time (p50/p95). `--timed cpu` measures the budget
on this process's CPU time, which other programs cannot stretch, to calibrate: it prints the
iterations of the searches the deadline stopped (the others settled early).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bots import LEVELS, choose
from bots.engine import Clock
from games import REGISTRY
from games.protocol import Move, Outcome, State, match_rng

# Iterations per decision that `normal` (0.5 s) and `hard` (2 s) reached by their deadline on an
# idle core (median of `--timed cpu` decisions stopped by the deadline; docs/performance.md, Bots).
# Lucent is not here: a playout runs to the end, so an iteration costs ten times more at the first
# gem than near the last, and one cap would give early decisions many seconds. It plays on the
# CPU clock instead (`--timed cpu`), as blind to load, though not exactly repeatable.
CALIBRATED: dict[str, dict[str, int]] = {
    "five-realms": {"normal": 375, "hard": 1537},
    "solomons-temple": {"normal": 330, "hard": 1300},  # hard: 4x normal, as in the others
    "temple-of-five": {"normal": 670, "hard": 1510},  # hard: 2.25x normal, its deeper evaluation
    "temple-rush": {"normal": 525, "hard": 1955},  # with hard's deeper evaluation: 3.71x, kept
}


@dataclass
class Tally:
    """What the arena measured so far."""

    score: float = 0.0
    games: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})
    # this process's CPU time per decision: the wall time an idle core would take
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})
    # iterations of searches the deadline stopped (timed runs: what calibration reads)
    iterations: dict[str, list[int]] = field(default_factory=lambda: {"a": [], "b": []})


def cap(game_id: str, level: str, mode: str | int) -> dict[str, Any]:
    """`choose`'s keyword arguments for a searching level: the wall clock ("timed"), the
    calibrated iterations ("calibrated"), or `mode` iterations per second of budget."""
    spec = LEVELS[level]
    if spec.kind != "search" or mode == "timed":
        return {}
    if mode == "calibrated":
        return {"iterations": CALIBRATED[game_id][level], "timed": False}
    return {"iterations": round(int(mode) * spec.seconds), "timed": False}


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


def play_out(game_id: str, players: int, seed: str,
             pick: Callable[[State, int, int], Move]) -> Outcome:
    """Play seeded game `seed` to its end, `pick(state, seat, version)` choosing every move (the
    lowest acting seat moves first); its outcome."""
    game = REGISTRY[game_id]
    state = game.setup(players, game.Options(), match_rng(seed, 0))
    version = 0
    while acting := game.to_act(state):
        seat = min(acting)
        move = pick(state, seat, version)
        version += 1
        state, _ = game.apply(state, seat, move, match_rng(seed, version))
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome


def share_of_win(outcome: Outcome, seat: int) -> float:
    """A seat's score for one game: 1, or 1/k in a k-way tie for first, else 0."""
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def play_one(game_id: str, players: int, a: str, b: str, n: int, tally: Tally,
             mode: str | int = "calibrated") -> float:
    """Play game `n`; A sits at seat n mod players. Returns A's share of the win."""
    game = REGISTRY[game_id]
    seed = f"arena:{game_id}:{players}:{n}"
    a_seat = n % players

    def pick(state: State, seat: int, version: int) -> Move:
        side = "a" if seat == a_seat else "b"
        legal = game.legal_moves(state, seat)
        started, cpu = time.perf_counter(), time.process_time()
        level = a if side == "a" else b
        stats: dict[str, Any] = {}
        move = choose(game_id, state, seat, level, f"{seed}:{version}", players=players,
                      stats=stats, **cap(game_id, level, mode))
        if len(legal) > 1:
            tally.times[side].append(time.perf_counter() - started)
            tally.cpu[side].append(time.process_time() - cpu)
        if stats.get("stopped") == "deadline":
            tally.iterations[side].append(stats["iterations"])
        return move

    return share_of_win(play_out(game_id, players, seed, pick), a_seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(REGISTRY))
    parser.add_argument("--a", required=True, choices=list(LEVELS))
    parser.add_argument("--b", default="random", choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (seeds)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--ips", type=int, default=None,
                     help="searching levels run untimed, capped at this many iterations per "
                          "second of their budget (default: the calibrated caps)")
    how.add_argument("--timed", choices=("wall", "cpu"), default=None,
                     help="searching levels run on a clock: the wall's (think time), or this "
                          "process's CPU time (calibration: an idle core's iterations)")
    args = parser.parse_args()
    mode: str | int = "timed" if args.timed else args.ips or "calibrated"
    clock = args.timed or "wall"
    if mode == "calibrated" and args.game not in CALIBRATED:
        mode, clock = "timed", "cpu"
    if clock == "cpu":
        Clock.now = time.process_time
    game = REGISTRY[args.game]
    players = args.players or max(2, game.min_players)
    tally = Tally()
    started = time.perf_counter()
    for n in range(args.first, args.first + args.games):
        tally.score += play_one(args.game, players, args.a, args.b, n, tally, mode)
        tally.games += 1
        print(f"game {n}: A {tally.score:g}/{tally.games}", flush=True)
    low, high = wilson(tally.score, tally.games)
    against = "the Robot" if players == 1 else args.b
    how = {"timed": f" (timed on the {clock} clock)",
           "calibrated": " (calibrated iterations)"}.get(
        str(mode), f" (untimed, {mode} iterations/s of budget)")
    print(f"{args.game} {players}p: {args.a} vs {against}{how}:"
          f" A wins {tally.score:g}/{tally.games}"
          f" = {tally.score / tally.games:.0%} (95% CI {low:.0%}-{high:.0%});"
          f" {time.perf_counter() - started:.0f} s")
    for side, level in (("a", args.a), ("b", args.b)):
        times = tally.times[side]
        if times:
            print(f"  {level} ({side}): {len(times)} decisions, p50 {percentile(times, 0.5):.3f} s,"
                  f" p95 {percentile(times, 0.95):.3f} s, mean {statistics.fmean(times):.3f} s;"
                  f" CPU p50 {percentile(tally.cpu[side], 0.5):.3f} s,"
                  f" p95 {percentile(tally.cpu[side], 0.95):.3f} s")
        done = tally.iterations[side]
        if done:
            print(f"  {level} ({side}): {len(done)} searches stopped by the deadline, iterations"
                  f" p10 {percentile(done, 0.1):.0f}, p50 {percentile(done, 0.5):.0f},"
                  f" p90 {percentile(done, 0.9):.0f}")


if __name__ == "__main__":
    main()
