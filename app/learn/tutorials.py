"""Tutorials as data: loading `games/<game>/tutorial.json` and replaying it through the rules.

The state before step n is the replay of the tutorial's seed, its opening and the steps before
n (each step's expected move, then the script's replies), with the platform's RNG per version
(`match_rng`), exactly as a room would replay its move log. Replays are made once per process.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from games import REGISTRY
from games.protocol import Event, Game, IllegalMove, Move, State, is_legal, match_rng

FILE = "tutorial.json"
MIN_STEPS, MAX_STEPS = 8, 15


class Scripted(BaseModel):
    """A move the script makes for a seat (the learner's too, in the opening)."""

    seat: int
    move: dict[str, Any]


class Step(BaseModel):
    """One step: what to say, the move the learner is asked for, and what follows it."""

    say: str = Field(description="One or two sentences: what to click and why.")
    expect: dict[str, Any]
    wrong: str = Field(description="Why another legal move is not the one to make here.")
    highlight: list[str] | None = Field(
        None, description="CSS selectors to mark on the board; default: the renderer's targets.")
    then: list[Scripted] = []
    after: str | None = Field(None, description="Said once the step's move is made.")


class Tutorial(BaseModel):
    """A whole tutorial: a fixed deal and the steps through it."""

    title: str
    seed: str
    players: int
    options: dict[str, Any] = {}
    learner: int = 0
    names: list[str]
    opening: list[Scripted] = []
    intro: str = Field("", description="Said above the first step: whose seat, what came before.")
    steps: list[Step] = Field(min_length=MIN_STEPS, max_length=MAX_STEPS)
    ready: str = Field(description="The closing words, under \"You're ready\".")


class Point:
    """One moment of a replay: the state, its version and the events that led to it."""

    __slots__ = ("events", "state", "version")

    def __init__(self, state: State, version: int, events: list[Event]) -> None:
        self.state, self.version, self.events = state, version, events


def path_of(game: Game) -> Path:
    """Where a game's tutorial lives: beside its rule module."""
    return Path(sys.modules[type(game).__module__].__file__ or "").parent / FILE


@cache
def tutorial_of(game_id: str) -> Tutorial | None:
    """The game's tutorial, or None when the game has none."""
    game = REGISTRY.get(game_id)
    if game is None or not path_of(game).is_file():
        return None
    return Tutorial.model_validate_json(path_of(game).read_text(encoding="utf-8"))


def play(game: Game, tutorial: Tutorial, point: Point, seat: int, move: Move) -> Point:
    """Apply one move through the rule module (raising `IllegalMove` as a room would)."""
    version = point.version + 1
    state, events = game.apply(point.state, seat, move, match_rng(tutorial.seed, version))
    return Point(state, version, events)


@cache
def points_of(game_id: str) -> tuple[Point, ...]:
    """The state before each step, and after the last one (len(steps) + 1 points)."""
    game, tutorial = REGISTRY[game_id], tutorial_of(game_id)
    if tutorial is None:
        raise KeyError(game_id)
    options = game.Options.model_validate(tutorial.options)
    point = Point(game.setup(tutorial.players, options, match_rng(tutorial.seed, 0)), 0, [])
    for scripted in tutorial.opening:
        point = play(game, tutorial, point, scripted.seat, scripted.move)
    points = [point]
    for n, step in enumerate(tutorial.steps):
        try:
            point = play(game, tutorial, point, tutorial.learner, step.expect)
            for scripted in step.then:
                point = play(game, tutorial, point, scripted.seat, scripted.move)
        except Exception as exc:  # the log says where the script and the rules part ways
            exc.add_note(f"the {game_id} tutorial's step {n + 1}")
            raise
        points.append(point)
    return tuple(points)


def judge(game: Game, tutorial: Tutorial, point: Point, step: Step, move: Move) -> tuple[str, str]:
    """Whether `move` is the step's ("right"), another legal one ("wrong", with the step's
    reason) or illegal ("illegal", with the rule module's reason)."""
    seat = tutorial.learner
    legal = game.legal_moves(point.state, seat)
    if is_legal(move, legal):
        if is_legal(move, [step.expect]):
            return "right", step.after or ""
        return "wrong", step.wrong
    try:
        game.apply(point.state, seat, move, match_rng(tutorial.seed, point.version + 1))
    except IllegalMove as exc:
        return "illegal", exc.message
    except Exception:  # a malformed move the rules did not expect: still just refused
        return "illegal", "That is not a move of this game."
    return "illegal", "That move is not allowed here."
