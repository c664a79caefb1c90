#!/usr/bin/env bash
# A ZIG_CMD for ../shared/bench/compare.sh: an empty schema on the bench database, then the server.
#   ZIG_CMD="$PWD/bench/serve.sh" ../shared/bench/compare.sh
#   WORKERS=2 ZIG_CMD="$PWD/bench/serve.sh" ../shared/bench/compare.sh   # HAProxy + 2 processes
# compare.sh's own reset drops only the first five tables, so a second run would find the later
# ones (admin_actions, …) and fail its migration: this drops and recreates schema `public`.
# WORKERS=N starts N uvicorn processes behind HAProxy with deploy/haproxy.cfg (room-code hash).
# The server runs with production's protocols (the Makefile's, Dockerfile's): uvicorn's own HTTP
# protocol leaves itself and its parser as a cycle after each websocket upgrade, which the
# collector freezes for good (app/guard/deadlines.py): ~1,040 of 16,000 sockets, 18,706 objects
# in an 8,000-room run here, found only by a full reclaim.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${ZIG_PORT:-18002}
WORKERS=${WORKERS:-1}
: "${DATABASE_URL:?set by compare.sh}"
# compare.sh passes ADMIN_TOKEN=bench, which the server refuses as too weak: use a strong one.
[ "${ADMIN_TOKEN:-}" != bench ] || export ADMIN_TOKEN=bench-admin-token-0123456789abcdef
psql "${DATABASE_URL/+asyncpg/}" -qc "DROP SCHEMA public CASCADE; CREATE SCHEMA public" 2>/dev/null
cd "$ROOT"
UVICORN=("$ROOT/.venv/bin/uvicorn" app.main:app --host 127.0.0.1 --no-access-log
         --ws-max-size 65536 --http app.guard.deadlines:HeaderDeadline
         --ws app.guard.lean_ws:LeanWebSocket)
if [ "$WORKERS" = 1 ]; then
  exec "${UVICORN[@]}" --port "$PORT"
fi
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT TERM INT
servers=""
for i in $(seq 1 "$WORKERS"); do
  "${UVICORN[@]}" --port $((PORT + i)) --proxy-headers & pids+=($!)
  servers+="    server app$i 127.0.0.1:$((PORT + i))\n"
done
cfg=$(mktemp /tmp/zig-haproxy.XXXXXX.cfg)
# The compose file's config, with this machine's ports and processes.
sed -e "s/^    bind :8000/    bind 127.0.0.1:$PORT/" -e '/^    server /d' deploy/haproxy.cfg |
  awk -v s="$servers" '{print} /^    (balance|hash-type consistent)/ && !/balance hash/ {printf "%s", s}' \
  > "$cfg"
haproxy -f "$cfg" & pids+=($!)
wait -n
