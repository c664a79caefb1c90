"""The server as bench/serve.sh runs it, with a memory report on SIGUSR1. Not a test: it only
measures what idle rooms and sockets hold (issue 27).

Run: `DATABASE_URL=… python -m bench.memserve [--port P] [--trace FRAMES]`, set rooms up
against it (e.g. `../shared/bench/loadgen/run.js --target ziggurat --think-ms 60000 …`), then
`kill -USR1 <pid>`: it writes `memserve-<time>.txt` (resident memory, the collector's objects
by type and, with --trace, tracemalloc's top allocation sites by file and by line). Full
collections (and slow young ones) are logged to `memserve-gc.log` with their pause.
"""

from __future__ import annotations

import argparse
import collections
import gc
import signal
import time
import tracemalloc
from typing import Any

import uvicorn

_started: dict[str, float] = {}


def report(*_: Any) -> None:
    with open(f"memserve-{int(time.time())}.txt", "w") as out:
        with open("/proc/self/statm") as statm:
            rss = int(statm.read().split()[1]) * 4096 / 2**20
        print(f"rss {rss:.1f} MiB", file=out)
        counts = collections.Counter(type(o).__name__ for o in gc.get_objects())
        print("gc objects", sum(counts.values()), "frozen", gc.get_freeze_count(), file=out)
        for name, n in counts.most_common(40):
            print(f"{n:9d} {name}", file=out)
        if tracemalloc.is_tracing():
            snap = tracemalloc.take_snapshot()
            for key in ("filename", "lineno"):
                for stat in snap.statistics(key)[:45]:
                    print(f"{stat.size / 1024:10.0f} KiB {stat.count:8d} {stat.traceback}",
                          file=out)


def _timed(log: Any) -> Any:
    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            _started["at"] = time.perf_counter()
            return
        pause = (time.perf_counter() - _started["at"]) * 1000
        if info["generation"] == 2 or pause > 5:
            print(f"{time.time():.1f} gen{info['generation']} {pause:.1f} ms "
                  f"collected {info['collected']}", file=log, flush=True)
    return callback


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18102)
    parser.add_argument("--trace", type=int, default=0, help="tracemalloc frames (0: off)")
    args = parser.parse_args()
    if args.trace:
        tracemalloc.start(args.trace)
    gc.callbacks.append(_timed(open("memserve-gc.log", "w")))  # noqa: SIM115 (process-long)
    signal.signal(signal.SIGUSR1, report)
    uvicorn.run("app.main:app", host="127.0.0.1", port=args.port, access_log=False,
                ws_max_size=65536, ws="app.guard.lean_ws:LeanWebSocket", log_level="warning")


if __name__ == "__main__":
    main()
