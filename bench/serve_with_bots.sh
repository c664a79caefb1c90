#!/usr/bin/env bash
# A ZIG_CMD for ../shared/bench/compare.sh: bench/serve.sh, plus BOT_ROOMS bot-vs-bot rooms of
# BOT_ROOM_LEVEL bots (bench/bot_rooms.py) playing on the same server for as long as it runs, so
# that the load generator's moves are measured while bots think:
#   REST_CONCURRENCY_PER_ADDRESS=0 MATCHES=100 PEERS=0 \
#     ZIG_CMD="$PWD/bench/serve_with_bots.sh" ../shared/bench/compare.sh     # 20 hard rooms
#   BOT_ROOMS=0 … the same without them (serve.sh alone)
# The bot rooms' client runs under this script, so compare.sh counts its (small) CPU and memory
# in the server's.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${ZIG_PORT:-18002}
ROOMS=${BOT_ROOMS:-20}
cd "$ROOT"
# Every bot room comes from this one address: no per-address cap on bot games (issue 33).
export BOT_GAMES_PER_ADDRESS=${BOT_GAMES_PER_ADDRESS:-0}
[ "$ROOMS" != 0 ] || exec "$ROOT/bench/serve.sh"
"$ROOT/bench/serve.sh" & server=$!
"$ROOT/.venv/bin/python" -m bench.bot_rooms --url "http://127.0.0.1:$PORT" --rooms "$ROOMS" \
  --level "${BOT_ROOM_LEVEL:-hard}" --game "${BOT_ROOM_GAME:-gem-pyramid}" & bots=$!
# compare.sh stops the server with SIGTERM: stop both, the bots' client first (it prints a summary).
trap 'kill -TERM "$bots" 2>/dev/null || true; wait "$bots" 2>/dev/null || true
      kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT TERM INT
wait -n "$server" "$bots"
