"""CPU per room set up, by process, in `../shared/bench/compare.sh`'s set-up phases.

compare.sh reports set-up as rooms/s (matches / `setup_ms`), not what bounds it. Run beside it:

    .venv/bin/python -m bench.setup_cpu sample /tmp/setup-cpu.log &
    … ../shared/bench/compare.sh …
    kill %1
    .venv/bin/python -m bench.setup_cpu report /tmp/setup-cpu.log /tmp/zig-bench/*.json

`sample` writes, every 0.2 s, the CPU seconds so far of each load generator run (by its
`--label`), of the server under test (uvicorn or boardgame.io's node) and of the bench's
Postgres cluster (the postmaster with its children, exited ones included). `report` takes each
run's set-up window (from its load generator's start, `setup_ms` long; no move is made in it)
and prints each process's CPU per room set up and how busy it was. Not a test: it only measures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
POSTMASTER = Path("/tmp/zig-bench-pg/data/postmaster.pid")


def _cpu(pid: str, children: bool = False) -> float:
    """The process's user + system CPU seconds (with its waited-for children's if asked)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


def _processes() -> list[tuple[str, str, str]]:
    """(pid, parent pid, command line) of every process."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            parent = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        found.append((pid, parent, cmd))
    return found


def _label(cmd: str) -> str | None:
    words = cmd.split()
    return words[words.index("--label") + 1] if "--label" in words else None


def sample(out: Path) -> None:
    with out.open("w") as log:
        while True:
            loadgen: dict[str, float] = {}
            server = postgres = 0.0
            postmaster = POSTMASTER.read_text().split()[0] if POSTMASTER.exists() else None
            for pid, parent, cmd in _processes():
                try:
                    if "loadgen/run.js" in cmd and (label := _label(cmd)):
                        loadgen[label] = _cpu(pid)
                    elif "uvicorn app.main:app" in cmd or "bgio_server.js" in cmd:
                        server += _cpu(pid)
                    elif pid == postmaster:
                        postgres += _cpu(pid, children=True)
                    elif parent == postmaster:
                        postgres += _cpu(pid)
                except OSError:
                    continue
            log.write(json.dumps({"t": time.time(), "loadgen": loadgen, "server": server,
                                  "postgres": postgres}) + "\n")
            log.flush()
            time.sleep(0.2)


def report(samples: Path, results: list[Path]) -> None:
    rows = [json.loads(line) for line in samples.read_text().splitlines() if line.strip()]
    print("| run | rooms | set-up s | rooms/s | CPU ms per room: load generator / server / "
          "Postgres | busy % of a core: load generator / server / Postgres |")
    print("|---|---|---|---|---|---|")
    for path in results:
        result = json.loads(path.read_text())
        label, rooms, setup_s = result["label"], result["matches"], result["setup_ms"] / 1000
        seen = [r for r in rows if label in r["loadgen"]]
        if not seen:
            print(f"{label}: not sampled", file=sys.stderr)
            continue
        window = [r for r in seen if r["t"] <= seen[0]["t"] + setup_s]
        first, last = window[0], window[-1]
        took = last["t"] - first["t"]
        spent = [last["loadgen"][label] - first["loadgen"][label],
                 last["server"] - first["server"], last["postgres"] - first["postgres"]]
        made = rooms * took / setup_s  # rooms set up inside the sampled part of the window
        per_room = " / ".join(f"{1000 * s / made:.2f}" for s in spent)
        busy = " / ".join(f"{100 * s / took:.0f}" for s in spent)
        rate = rooms / setup_s
        print(f"| {label} | {rooms} | {setup_s:.2f} | {rate:.1f} | {per_room} | {busy} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("sample").add_argument("out", type=Path)
    reporting = commands.add_parser("report")
    reporting.add_argument("samples", type=Path)
    reporting.add_argument("results", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "sample":
        sample(args.out)
    else:
        report(args.samples, args.results)


if __name__ == "__main__":
    main()
