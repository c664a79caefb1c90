#!/usr/bin/env bash
# A ZIG_CMD for ../shared/bench/compare.sh: an empty schema on the bench database, then the server.
#   ZIG_CMD="$PWD/bench/serve.sh" ../shared/bench/compare.sh
# compare.sh's own reset drops only the first five tables, so a second run would find the later
# ones (admin_actions, …) and fail its migration: this drops and recreates schema `public`.
# WORKERS=2 starts two uvicorn processes behind bench/proxy.py, which routes by room code.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${ZIG_PORT:-18002}
WORKERS=${WORKERS:-1}
: "${DATABASE_URL:?set by compare.sh}"
psql "${DATABASE_URL/+asyncpg/}" -qc "DROP SCHEMA public CASCADE; CREATE SCHEMA public" >/dev/null
cd "$ROOT"
UVICORN=("$ROOT/.venv/bin/uvicorn" app.main:app --host 127.0.0.1 --no-access-log
         --ws-max-size 65536)
if [ "$WORKERS" = 1 ]; then
  exec "${UVICORN[@]}" --port "$PORT"
fi
.venv/bin/python -c "from app.migrate import upgrade_to_head as u; import os; u(os.environ['DATABASE_URL'])"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
for i in $(seq 1 "$WORKERS"); do
  "${UVICORN[@]}" --port $((PORT + i)) & pids+=($!)
done
.venv/bin/python -m bench.proxy "$PORT" "$WORKERS" & pids+=($!)
wait -n
