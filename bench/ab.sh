#!/usr/bin/env bash
# Two trees of this project at 100 rooms under ../shared/bench/compare.sh, this server only,
# run A B B A: a drift of the machine over the four runs cancels out of the two means.
#   bench/ab.sh /path/to/tree-before /path/to/tree-after      # each tree with its own .venv
#   MATCHES=1000 DURATION=30 bench/ab.sh A B
# Each run starts that tree's bench/serve.sh; the JSONs go under $OUT/<n>-<before|after>/, and
# one line a run, then the means, are printed: moves/s, p99, server and Postgres CPU per move.
# Make a tree with `git worktree add --detach /tmp/t <commit> && make -C /tmp/t .venv/.installed`.
set -euo pipefail
[ $# = 2 ] || { echo "usage: bench/ab.sh TREE_BEFORE TREE_AFTER" >&2; exit 2; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COMPARE=${COMPARE:-$ROOT/../shared/bench/compare.sh}
MATCHES=${MATCHES:-100} DURATION=${DURATION:-20} OUT=${OUT:-/tmp/zig-ab}
before=$(cd "$1" && pwd) after=$(cd "$2" && pwd)
rm -rf "$OUT"
n=0
for side in before after after before; do
  n=$((n + 1))
  tree=$before; [ "$side" = after ] && tree=$after
  out="$OUT/$n-$side"
  mkdir -p "$out"
  (cd "$tree" && KEEP_PG=1 PEERS=0 MATCHES=$MATCHES DURATION=$DURATION OUT=$out \
     REST_CONCURRENCY_PER_ADDRESS=0 ZIG_CMD="$tree/bench/serve.sh" "$COMPARE" >"$out/table.txt" 2>"$out/log.txt")
done
python3 - "$OUT" "$MATCHES" <<'PY'
import json, sys
from pathlib import Path
out, matches = Path(sys.argv[1]), sys.argv[2]
runs = {"before": [], "after": []}
for run in sorted(out.iterdir()):
    r = json.loads((run / f"ours-m{matches}.json").read_text())
    rate, cpu = r["moves_per_s"], r["cpu"]
    row = (rate, r["latency_ms"]["p99"], cpu["server_pct"] * 10 / rate, cpu["postgres_pct"] * 10 / rate)
    runs[run.name.split("-", 1)[1]].append(row)
    print(f"{run.name}: {rate:,.0f} moves/s, p99 {row[1]:.1f} ms, server {row[2]:.3f} ms/move, "
          f"Postgres {row[3]:.3f} ms/move")
mean = {side: [sum(col) / len(col) for col in zip(*rows)] for side, rows in runs.items()}
b, a = mean["before"], mean["after"]
print(f"means: {b[0]:,.0f} -> {a[0]:,.0f} moves/s ({a[0] / b[0]:.3f}), p99 {b[1]:.1f} -> {a[1]:.1f} ms, "
      f"server {b[2]:.3f} -> {a[2]:.3f}, Postgres {b[3]:.3f} -> {a[3]:.3f} ms/move")
PY
