"""Prometheus metrics, per process (`GET /metrics`, app/ops/routes.py).

Counting costs the move path a dict addition and a `bisect` (`app.ops.loop_metrics`: the move
path's figures are plain numbers turned into metric families at scrape time), never a query:
what needs the database (rooms by status and game) or this process's memory (sockets open) is
read when Prometheus scrapes (`refresh`), once per scrape.
Every process counts only its own events, so Prometheus scrapes each process and sums them;
`ziggurat_rooms` is the same database-wide figure from each process (take `max`, not `sum`).

Another package adds its own scrape-time figures with `on_scrape` (e.g. app/notify: the
outbox's backlog), and its counters as plain module-level `Counter`s: they land in the same
default registry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

from app.ops.loop_metrics import LoopCounter, LoopHistogram

# Move to ack as the server sees it: from the frame read to the ack queued (milliseconds to a
# few seconds under load).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WAIT_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

MOVES_COMMITTED = LoopCounter("ziggurat_moves_committed", "Moves committed, by game and by who "
                              "made them (player, bot, clock, admin).", ["game", "source"])
MOVES_REFUSED = Counter("ziggurat_moves_refused", "Players' move frames refused, by error code.",
                        ["code"])
MOVE_ACK_SECONDS = LoopHistogram("ziggurat_move_ack_seconds", "From a move frame read to its "
                                 "ack queued (committed and pushed).", LATENCY_BUCKETS)
BOT_DECISIONS = Counter("ziggurat_bot_decisions", "Bot decisions, by level and how they ended "
                        "(searched, fallback, inline).", ["level", "outcome"])
BOT_POOL_WAIT_SECONDS = Histogram("ziggurat_bot_pool_wait_seconds", "How long a bot decision "
                                  "waited for a free worker in the pool.", buckets=WAIT_BUCKETS)
BOT_DECISION_SECONDS = Histogram("ziggurat_bot_decision_seconds", "A bot decision's search in the "
                                 "pool, from a free worker to its answer.", buckets=WAIT_BUCKETS)
CLOCK_TIMEOUTS = Counter("ziggurat_clock_timeouts", "Moves the turn clock played for a seat "
                         "whose time ran out.")
ROOMS_ERRORED = Counter("ziggurat_rooms_errored", "Rooms this process marked errored (a rule "
                        "module raised).")
REST_GATE_WAIT_SECONDS = LoopHistogram("ziggurat_rest_gate_wait_seconds", "How long a REST "
                                       "request waited for a slot at the gate "
                                       "(REST_CONCURRENCY).", WAIT_BUCKETS)
SOCKETS_OPEN = Gauge("ziggurat_sockets_open", "Websockets open in this process.")
ROOMS = Gauge("ziggurat_rooms", "Rooms by status and game (database-wide: the same from every "
              "process).", ["status", "game"])
SHUTTING_DOWN = Gauge("ziggurat_draining", "1 while this process drains for a restart.")

def count_committed(game: str, source: str) -> None:
    """One more committed move: the move path's one increment."""
    MOVES_COMMITTED.inc(game, source)


# Scrape-time readers: each refreshes its own gauges (one query at most).
_scrapers: list[Callable[[], Awaitable[None]]] = []


def on_scrape(reader: Callable[[], Awaitable[None]]) -> None:
    """Run `reader` before every scrape (a package's gauges read from the database)."""
    if reader not in _scrapers:
        _scrapers.append(reader)


def set_rooms(counts: list[tuple[str, str, int]]) -> None:
    """The rooms gauge from one grouped count: (status, game, rooms)."""
    ROOMS.clear()
    for status, game, rooms in counts:
        ROOMS.labels(status, game).set(rooms)


async def render() -> tuple[bytes, str]:
    """The text exposition after the scrape-time readers ran; and its content type."""
    for reader in list(_scrapers):
        await reader()
    return generate_latest(), CONTENT_TYPE_LATEST
