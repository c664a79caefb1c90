"""The server as bench/serve.sh runs it, with a memory report on SIGUSR1. Not a test: it only
measures what idle rooms and sockets hold (issue 27).

Run: `DATABASE_URL=… python -m bench.memserve [--port P] [--trace FRAMES]`, set rooms up
against it (e.g. `../shared/bench/loadgen/run.js --target ziggurat --think-ms 60000 …`), then
`kill -USR1 <pid>`: it writes `memserve-<time>.txt` (resident memory, glibc malloc's heap, the
collector's objects by type, coroutines and methods by function, what holds the commonest small
containers and, with --trace, tracemalloc's top allocation sites by file and by line), and
pymalloc's statistics go to stderr. Full
collections (and slow young ones) are logged to `memserve-gc.log` with their pause.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import gc
import signal
import sys
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
        _malloc(out)
        sys._debugmallocstats()  # pymalloc's arenas and blocks, on the server's stderr
        counts = collections.Counter(type(o).__name__ for o in gc.get_objects())
        print("gc objects", sum(counts.values()), "frozen", gc.get_freeze_count(), file=out)
        for name, n in counts.most_common(40):
            print(f"{n:9d} {name}", file=out)
        _owners(out)
        if tracemalloc.is_tracing():
            snap = tracemalloc.take_snapshot()
            for key in ("filename", "lineno"):
                for stat in snap.statistics(key)[:45]:
                    print(f"{stat.size / 1024:10.0f} KiB {stat.count:8d} {stat.traceback}",
                          file=out)


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _malloc(out: Any) -> None:
    """glibc's own count (main arena and the threads' arenas): what is in use, what is free
    but kept (fragmentation), what is mapped apart (large blocks, and pymalloc's arenas not)."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return
    mallinfo2.restype = _Mallinfo2
    info = mallinfo2()
    mib = 2**20
    print(f"malloc: heap {info.arena / mib:.1f} MiB (in use {info.uordblks / mib:.1f}, "
          f"free {info.fordblks / mib:.1f}, trimmable {info.keepcost / mib:.1f}), "
          f"mmapped {info.hblkhd / mib:.1f} MiB in {info.hblks} blocks", file=out)


def _owners(out: Any) -> None:
    """Coroutines, generators and bound methods by function; and, for the commonest small
    containers, what holds them (the type of the object that refers to them, one walk)."""
    objects = gc.get_objects()
    named: collections.Counter[str] = collections.Counter()
    for o in objects:
        kind = type(o).__name__
        if kind in ("coroutine", "generator", "async_generator"):
            named[f"{kind} {o.__qualname__}"] += 1
        elif kind == "method":
            named[f"method {getattr(o.__func__, '__qualname__', '?')}"] += 1
    print("by function:", file=out)
    for name, n in named.most_common(40):
        print(f"{n:9d} {name}", file=out)
    watched = {"list", "dict", "Context", "deque", "set", "tuple", "cell", "Future"}
    held: collections.Counter[tuple[str, str]] = collections.Counter()
    for o in objects:
        owner = type(o).__name__
        for ref in gc.get_referents(o):
            kind = type(ref).__name__
            if kind in watched:
                if owner == "dict" and kind != "dict":
                    continue  # counted by the dict's own owner below
                held[(kind, owner)] += 1
    print("held by:", file=out)
    for (kind, owner), n in held.most_common(40):
        print(f"{n:9d} {kind} <- {owner}", file=out)


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
                ws_max_size=65536, http="app.guard.deadlines:HeaderDeadline",
                ws="app.guard.lean_ws:LeanWebSocket", log_level="warning")


if __name__ == "__main__":
    main()
