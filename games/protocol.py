"""The Game protocol: the one interface between pure rule modules and the platform.

Modelled on OpenSpiel's State API and boardgame.io's game definitions (see ../shared/design.md).
A rule module is one object satisfying `Game`. It never imports from `app/`, does no I/O, keeps
its state as plain JSON-safe data, draws randomness only from the `Random` it is handed, and lets
state data out only through `view` (and `redact_move` for the move log).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Protocol, runtime_checkable

import orjson
from pydantic import BaseModel

State = dict[str, Any]
"""A game's whole state: JSON-safe dicts, lists, strings, numbers, booleans and None only."""

Move = dict[str, Any]
"""A small JSON dict with a `"type"` key; one atomic step of play."""


class IllegalMove(Exception):
    """A move (or option set) the rules refuse. `code` is stable; `message` is for a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Event:
    """One log entry produced by `apply`.

    `to=None` makes it public; otherwise only the listed seats see it (a card drawn, a look
    at a secret). `data` is structured detail for renderers, with the same visibility as `text`.
    """

    text: str
    to: tuple[int, ...] | None = None
    data: dict[str, Any] | None = None

    def visible_to(self, viewer: int | None) -> bool:
        """Whether `viewer` (a seat, or None for a spectator) may read this entry."""
        return self.to is None or (viewer is not None and viewer in self.to)

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "to": list(self.to) if self.to is not None else None,
            "data": self.data,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Event:
        to = raw.get("to")
        return cls(raw["text"], tuple(to) if to is not None else None, raw.get("data"))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: per-seat scores and ranks (1 is best, ties share a rank).

    `breakdown`, when a game gives it, is per seat a {category: points} mapping whose values
    add up to that seat's score, for the end screen.
    """

    scores: list[float]
    winners: list[int]
    ranking: list[int]
    reason: str
    breakdown: list[dict[str, float]] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "winners": self.winners,
            "ranking": self.ranking,
            "reason": self.reason,
            "breakdown": self.breakdown,
        }


def clone(value: Any) -> Any:
    """A deep copy of plain JSON data: states and views are JSON, and a round trip through
    orjson is ten times cheaper than copy.deepcopy."""
    return orjson.loads(orjson.dumps(value))


def same_json(a: Any, b: Any) -> bool:
    """Exact JSON equality, types included: Python's `==` holds 2.0 == 2 == True, and a rule
    module that found a move `in` its legal moves would then use a float as an index or store
    `true` where a number belongs (issue 24)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_json(value, b[key]) for key, value in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def is_legal(move: Any, legal_moves: Iterable[Move]) -> bool:
    """Whether `move` is one of `legal_moves` exactly (`same_json`). The platform asks this of
    every move before `apply`. Python's `==` (in C) picks the candidates; only those are
    compared type by type, so a list of many legal moves costs little more than `in`."""
    return any(legal == move and same_json(legal, move) for legal in legal_moves)


def match_rng(seed: str, version: int) -> SeededOnUse:
    """The RNG the platform hands to `setup` (version 0) and to the move that makes `version`.

    Seeded from the match seed and the version alone, so seed + move log replays exactly.
    """
    return SeededOnUse(f"{seed}:{version}")


class SeededOnUse(Random):
    """`Random(seed)`, drawing exactly the same numbers, but seeded at its first draw.

    Most moves draw nothing, and seeding from a string (a SHA-512, then the Mersenne Twister's
    key schedule) is nearly all the cost of making one: one per move on the server's hot path.
    Every draw of `Random` goes through `random` or `getrandbits`, so those seed first.
    """

    def __init__(self, seed: str) -> None:
        self._unused_seed: str | None = seed
        self.gauss_next = None

    @property
    def drew(self) -> bool:
        """Whether anything was drawn from it yet: a move that drew may not be taken back."""
        return self._unused_seed is None

    def _seed_now(self) -> None:
        if self._unused_seed is not None:
            seed, self._unused_seed = self._unused_seed, None
            super().seed(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._unused_seed = None
        super().seed(a, version)

    def random(self) -> float:
        self._seed_now()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._seed_now()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        self._seed_now()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._unused_seed = None
        super().setstate(state)

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy or a pickle is a plain Random in the same state.
        return Random, (), self.getstate()


def ranking_from_scores(scores: Sequence[float]) -> list[int]:
    """Competition ranking per seat (higher score is better): scores 5, 7, 5 rank 2, 1, 2."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


@runtime_checkable
class Game(Protocol):
    """What the platform needs of a game. See design section 2 for the contract of each member."""

    id: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]

    def setup(self, players: int, options: BaseModel, rng: Random) -> State:
        """A new match. Raises `IllegalMove("bad_options", …)` if the options don't fit."""
        ...

    def to_act(self, state: State) -> frozenset[int]:
        """Seats that may move now (several in simultaneous steps); empty exactly when over."""
        ...

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """The complete list of legal moves for `seat` now; empty when it is not to act."""
        ...

    def apply(self, state: State, seat: int, move: Move, rng: Random) -> tuple[State, list[Event]]:
        """Pure: a new state and log entries. Raises `IllegalMove` for anything not legal.

        Never mutates `state`.
        """
        ...

    def apply_legal(self, state: State, seat: int, move: Move,
                    rng: Random) -> tuple[State, list[Event]]:
        """`apply` for a move the caller took from `legal_moves(state, seat)` itself: the same
        state and events, without checking the move again.

        A bot's search applies tens of thousands of moves a decision, each just picked from
        the legal list; checking one means building that list again. The platform, which
        applies moves people sent, always calls `apply`.
        """
        ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see. The only exit for state data."""
        ...

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over, else None."""
        ...

    def zombie_move(self, state: State, seat: int) -> Move:
        """A legal default for a seat that left or timed out."""
        ...

    def describe(self, move: Move) -> str:
        """One line of human text for a (redacted) move, for logs and the admin."""
        ...

    def redact_move(self, move: Move, seat: int, viewer: int | None) -> Move | None:
        """What `viewer` may see of a move `seat` made; None hides it entirely."""
        ...

    def undoable(self, state: State, seat: int, move: Move) -> bool:
        """Whether `move`, made by `seat` from `state`, may be taken back by that seat.

        True only when the move showed nobody anything they could not see before (no card
        drawn or turned, no hidden piece named) and ended no round or scoring: taking it back
        must restore every seat's view exactly. The platform adds its own conditions (the move
        drew no randomness, it is still that seat's turn, nobody else moved since).
        """
        ...

    def scramble_hidden(self, state: State, viewer: int | None, rng: Random) -> State:
        """A copy of `state` with everything `viewer` may not see shuffled or changed.

        Used by the conformance suite: `view(state, viewer)` must be identical for both.
        """
        ...


def replay(game: Game, players: int, options: BaseModel, seed: str,
           moves: Iterable[tuple[int, Move]]) -> State:
    """The state a match reaches from its seed and its move log alone (move n makes version n).

    What the platform's rollback and the tests' golden replays both rely on.
    """
    state = game.setup(players, options, match_rng(seed, 0))
    for version, (seat, move) in enumerate(moves, start=1):
        state, _ = game.apply(state, seat, move, match_rng(seed, version))
    return state
