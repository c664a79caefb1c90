"""Random playouts per second, per game and player count, straight through the rule modules.

Run: `python -m bench.playouts [seconds-per-case]`. Not a test: it measures, it asserts nothing.
"""

from __future__ import annotations

import sys
import time

from games import REGISTRY
from tests.games.playout import play_random


def measure(game_id: str, players: int, seconds: float) -> tuple[int, int, float]:
    game = REGISTRY[game_id]
    options = game.Options()
    games = moves = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        play = play_random(game, players, options, f"bench:{games}")
        games += 1
        moves += len(play.moves)
    return games, moves, elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print("| game | players | playouts/s | moves/s | moves per game |")
    print("|---|---|---|---|---|")
    for game_id, game in sorted(REGISTRY.items()):
        for players in range(game.min_players, game.max_players + 1):
            games, moves, elapsed = measure(game_id, players, seconds)
            print(f"| {game_id} | {players} | {games / elapsed:,.1f} | {moves / elapsed:,.0f} "
                  f"| {moves / games:,.1f} |", flush=True)


if __name__ == "__main__":
    main()
