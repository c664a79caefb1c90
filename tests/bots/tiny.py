"""Take-away, a tiny game for engine tests: take 1 to 3 stones in turn; who takes the last wins.

Small enough that the right move is known (leave a multiple of 4 at two seats), and a full
Game-protocol citizen, so the engine is tested through the protocol alone.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from pydantic import BaseModel

from games.protocol import Event, IllegalMove, Move, Outcome, State, clone, ranking_from_scores


class TakeAwayOptions(BaseModel):
    stones: int = 10


class TakeAway:
    id: ClassVar[str] = "take-away"
    title: ClassVar[str] = "Take-away"
    description: ClassVar[str] = "Take 1 to 3 stones; the last stone wins."
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    Options: ClassVar[type[BaseModel]] = TakeAwayOptions

    def setup(self, players: int, options: BaseModel, rng: Random) -> State:
        stones = TakeAwayOptions.model_validate(options.model_dump()).stones
        return {"players": players, "stones": stones, "turn": 0, "winner": None}

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state["winner"] is not None else frozenset({state["turn"]})

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "n": n} for n in (1, 2, 3) if n <= state["stones"]]

    def apply(self, state: State, seat: int, move: Move, rng: Random) -> tuple[State, list[Event]]:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("illegal", "Not a legal take.")
        return self.apply_legal(state, seat, move, rng)

    def apply_legal(self, state: State, seat: int, move: Move,
                    rng: Random) -> tuple[State, list[Event]]:
        new = clone(state)
        new["stones"] -= move["n"]
        if new["stones"] == 0:
            new["winner"] = seat
        new["turn"] = (seat + 1) % state["players"]
        return new, []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return clone(state)

    def outcome(self, state: State) -> Outcome | None:
        if state["winner"] is None:
            return None
        scores = [float(s == state["winner"]) for s in range(state["players"])]
        return Outcome(scores, [state["winner"]], ranking_from_scores(scores), "last stone")

    def zombie_move(self, state: State, seat: int) -> Move:
        return self.legal_moves(state, seat)[0]

    def describe(self, move: Move) -> str:
        return f"takes {move.get('n')}"

    def redact_move(self, move: Move, seat: int, viewer: int | None) -> Move | None:
        return move

    def undoable(self, state: State, seat: int, move: Move) -> bool:
        return False

    def scramble_hidden(self, state: State, viewer: int | None, rng: Random) -> State:
        return clone(state)


TAKE_AWAY = TakeAway()
