#!/usr/bin/env bash
# Instructions the server executes per Lucent room (valgrind's callgrind): repeatable to ~1%
# whatever else the machine is doing, where timed runs of the same commit vary by 15% here.
#   bench/instructions.sh            # per room set up and closed (no moves)
#   PLAY=1 bench/instructions.sh     # per room played to the end (~26 moves)
# Starts the server under callgrind on an emptied database ($DATABASE_URL, default: the bench
# cluster compare.sh starts, postgresql+asyncpg://postgres@127.0.0.1:55432/bench), runs WARM
# rooms, zeroes the counters, runs ROOMS rooms (bench/setup_load.py), and prints the total / all
# rooms run since the zero. Compare two commits by running it in each checkout. AT_ONCE=1 sets
# rooms up one at a time: the group commit then never batches, so two runs differ only by the
# games dealt (at 10 at once, batch sizes follow the timing, and so do the instructions). The
# idle server's instructions per second (IDLE seconds after the load) times the run's wall time
# are taken off: under valgrind a room takes ~50x longer, so periodic tasks weigh 50x more.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)"; exit 2; }
export DATABASE_URL=${DATABASE_URL:-postgresql+asyncpg://postgres@127.0.0.1:55432/bench}
PORT=${PORT:-18003} ROOMS=${ROOMS:-100} WARM=${WARM:-20} IDLE=${IDLE:-30}
OUT=$(mktemp -d /tmp/zig-callgrind.XXXXXX)
psql "${DATABASE_URL/+asyncpg/}" -qc "DROP SCHEMA public CASCADE; CREATE SCHEMA public" 2>/dev/null
RATE_PER_SECOND=100000 RATE_BURST=100000 BOT_DELAY_MS=0 PYTHONMALLOC=malloc \
  valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.%p.out" --dump-instr=no \
  .venv/bin/python .venv/bin/uvicorn app.main:app --host 127.0.0.1 --port "$PORT" \
  --no-access-log --ws-max-size 65536 --http app.guard.deadlines:HeaderDeadline \
  --ws app.guard.lean_ws:LeanWebSocket >"$OUT/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until curl -sf "127.0.0.1:$PORT/api/health" >/dev/null; do
  kill -0 $pid 2>/dev/null || { cat "$OUT/server.log"; exit 1; }; sleep 2
done
load=(.venv/bin/python -m bench.setup_load --pid "$pid" --url "http://127.0.0.1:$PORT"
      --at-once "${AT_ONCE:-10}")
[ "${PLAY:-0}" = 1 ] && load+=(--play)
"${load[@]}" --rooms "$WARM" >/dev/null
callgrind_control -z "$pid" >/dev/null 2>&1
began=$(date +%s%N)
"${load[@]}" --rooms "$ROOMS"
callgrind_control -d "$pid" >/dev/null 2>&1
took_ms=$(( ($(date +%s%N) - began) / 1000000 ))
# What the idle server spends per second (its periodic tasks: sweeps, the notification poll),
# which valgrind's slowness multiplies into every room: measured after the load, taken off.
sleep "$IDLE"
callgrind_control -d "$pid" >/dev/null 2>&1
total=$(grep -h '^summary:' "$OUT"/cg.*.out.1 | awk '{print $2}')
idle=$(grep -h '^summary:' "$OUT"/cg.*.out.2 | awk '{print $2}')
per_second=$(( idle / IDLE ))
net=$(( (total - per_second * took_ms / 1000) / ROOMS ))
echo "instructions per room: $(( total / ROOMS )) in all; $net less the idle server's" \
     "$per_second a second over the run's $(( took_ms / 1000 )) s (callgrind output in $OUT)"
