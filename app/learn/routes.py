"""The tutorial API: a step's board as the learner's seat sees it, and a try at its move.

No room, no player, no storage: anyone may open a tutorial, and every answer is computed from
the tutorial's data through the rule module (`tutorials.points_of`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path

from app.api.deps import CurrentPlayer, HallDep
from app.errors import ApiError
from app.learn.hints import hint
from app.learn.tutorials import Tutorial, judge, points_of, tutorial_of
from games import REGISTRY
from games.protocol import Game

router = APIRouter(prefix="/api")
StepNo = Annotated[int, Path(ge=0, le=99)]
log = logging.getLogger(__name__)


@contextmanager
def rules_answer(game_id: str) -> Iterator[None]:
    """A rule module's exception while a tutorial is served (a script the rules have come to
    refuse, a bug in the rules) answers 503 `tutorial_unavailable`, never a 500: the learner
    reads that this tutorial is out of order, the log keeps the traceback."""
    try:
        yield
    except ApiError:
        raise
    except Exception:
        log.exception("the %s tutorial failed in its rule module", game_id)
        raise ApiError(503, "tutorial_unavailable", "This tutorial does not fit its game's rules "
                       "just now; try the tutorial of another game.") from None


def _tutorial(game_id: str) -> tuple[Game, Tutorial]:
    tutorial = tutorial_of(game_id)
    if tutorial is None:
        raise ApiError(404, "no_tutorial", f"There is no tutorial for {game_id!r}.")
    return REGISTRY[game_id], tutorial


def step_payload(game_id: str, n: int) -> dict[str, Any]:
    """Step n as the learner sees it (n == the step count: the end, "You're ready")."""
    game, tutorial = _tutorial(game_id)
    total = len(tutorial.steps)
    if n > total:
        raise ApiError(404, "no_step", f"This tutorial has {total} steps.")
    point = points_of(game_id)[n]
    seat = tutorial.learner
    step = tutorial.steps[n] if n < total else None
    outcome = game.outcome(point.state)
    return {
        "game": game.id, "title": tutorial.title, "step": n, "steps": total, "done": step is None,
        "say": step.say if step else tutorial.ready,
        "intro": tutorial.intro,
        "expect": step.expect if step else None,
        "highlight": step.highlight if step else None,
        "seat": seat, "names": tutorial.names, "options": tutorial.options,
        "version": point.version,
        "view": game.view(point.state, seat),
        "to_act": sorted(game.to_act(point.state)),
        "legal_moves": game.legal_moves(point.state, seat) if step else [],
        "events": [e.to_json() for e in point.events if e.visible_to(seat)],
        "outcome": outcome.to_json() if outcome else None,
    }


@router.get("/learn/{game_id}/steps/{n}")
async def get_step(game_id: str, n: StepNo) -> dict[str, Any]:
    """The board and the words of step n."""
    with rules_answer(game_id):
        return step_payload(game_id, n)


@router.post("/learn/{game_id}/steps/{n}/try")
async def try_move(game_id: str, n: StepNo,
                   move: Annotated[dict[str, Any], Body(embed=True)]) -> dict[str, Any]:
    """Judge the learner's move at step n: `right` (and the next step), `wrong` (a legal move,
    but not the one this step teaches, and why) or `illegal` (the rules' reason)."""
    with rules_answer(game_id):
        game, tutorial = _tutorial(game_id)
        if n >= len(tutorial.steps):
            raise ApiError(404, "no_step", f"This tutorial has {len(tutorial.steps)} steps.")
        step = tutorial.steps[n]
        result, message = judge(game, tutorial, points_of(game_id)[n], step, move)
        answer: dict[str, Any] = {"result": result, "message": message}
        if result == "right":
            answer["next"] = step_payload(game_id, n + 1)
        return answer


@router.post("/rooms/{code}/hint")
async def room_hint(code: str, hall: HallDep, player: CurrentPlayer) -> dict[str, Any]:
    """The move the normal bot would make for the caller's seat, in a game against the computer
    only (403 `hint_not_offered` at a table with another person)."""
    # The bot driver's pool and budget: a hint thinks exactly as a bot seat does.
    return await hint(hall.rooms, hall.moves, hall.bots.thinker, code, player.id)  # type: ignore[attr-defined]
