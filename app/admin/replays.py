"""A match rebuilt from its seed and move log, one version at a time, as one viewer saw it.

The same stepping as `games.protocol.replay` (setup on `match_rng(seed, 0)`, move n applied on
`match_rng(seed, n)`), keeping every intermediate state so that a replay can be stepped
through and a rollback previewed. Views and log lines go through the game's own `view` and
`redact_move`, so a replay shows a seat exactly what that seat was allowed to see.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool

from app.context import Context
from app.core.views import MoveView, StoredRoom
from app.errors import ApiError
from app.store.base import ReplayRead
from games import REGISTRY, Event, Game
from games.protocol import State, match_rng


@dataclass(frozen=True, slots=True)
class Step:
    """The state after `version` moves, and the move row that made it (None for the deal)."""

    version: int
    state: State
    row: MoveView | None


def steps(room: StoredRoom, players: int, rows: Sequence[MoveView]) -> Iterator[Step]:
    """Every state of the room from the deal on; rows must be the log in version order."""
    game = REGISTRY[room.game]
    options = game.Options.model_validate(room.options)
    state = game.setup(players, options, match_rng(room.seed, 0))
    yield Step(0, state, None)
    for version, row in enumerate(rows, start=1):
        state, _ = game.apply(state, row.seat, row.move, match_rng(room.seed, version))
        yield Step(version, state, row)


def state_at(room: StoredRoom, players: int, rows: Sequence[MoveView], version: int) -> State:
    """The full state at `version` (0 is the deal)."""
    for step in steps(room, players, rows[:version]):
        if step.version == version:
            return step.state
    raise ValueError(f"the log has no version {version}")


def frame(game: Game, step: Step, viewer: int | None, whole_log: bool) -> dict[str, Any]:
    """One step as `viewer` (a seat, or None for a spectator) may see it.

    `whole_log` shows every move and event in full (a finished game, or the admin).
    """
    outcome = game.outcome(step.state)
    line: dict[str, Any] = {"seat": None, "move": None, "text": "The game begins.", "events": [],
                            "at": None, "by": None}
    if step.row is not None:
        row = step.row
        shown = row.move if whole_log else game.redact_move(row.move, row.seat, viewer)
        events = [Event.from_json(e) for e in row.events]
        line = {"seat": row.seat, "move": shown,
                "text": game.describe(shown) if shown is not None else "made a hidden move",
                "events": [e.to_json() for e in events if whole_log or e.visible_to(viewer)],
                "at": row.created_at, "by": row.by}
    return {"version": step.version, "view": game.view(step.state, viewer),
            "to_act": sorted(game.to_act(step.state)) if outcome is None else [],
            "outcome": outcome.to_json() if outcome else None, **line}


def frames(room: StoredRoom, players: int, rows: Sequence[MoveView], viewer: int | None,
           whole_log: bool) -> dict[str, Any]:
    """Every frame of the match; a rule that raises midway ends the list with an `error`."""
    game = REGISTRY[room.game]
    out: list[dict[str, Any]] = []
    error = None
    try:
        for step in steps(room, players, rows):
            out.append(frame(game, step, viewer, whole_log))
    except Exception as exc:  # a broken rule module: show what could be rebuilt
        error = f"The rules failed at version {len(out)}: {type(exc).__name__}: {exc}"
    return {"seat": viewer, "frames": out, "error": error}


async def replay_payload(read: ReplayRead, seat: int | None, whole_log: bool) -> dict[str, Any]:
    """Every frame of the room read as `seat` saw it, with the room (names, seats) for the
    renderer."""
    if read.room.state is None:
        raise ApiError(409, "not_started", "This game has not started: there is nothing to replay.")
    if seat is not None and not 0 <= seat < read.seats:
        raise ApiError(422, "bad_seat", f"This room has no seat {seat}.")
    payload = await run_in_threadpool(frames, read.room, read.seats, read.rows, seat, whole_log)
    return {"room": read.payload, **payload}


async def public_replay(hall: Context, code: str, seat: int | None) -> dict[str, Any]:
    """Anyone may replay a finished game, from any seat; before the end nothing is shown."""
    read = await hall.moves.replay_source(code)
    if read.room.status != "finished":
        raise ApiError(409, "not_finished", "A replay opens once the game is over.")
    return await replay_payload(read, seat, whole_log=False)
