"""One conformance suite for every registered game and every player count (OpenSpiel-style).

Each case plays seeded random games to the end and checks the protocol's promises at every step.
New games get all of this by registering. A case plays up to CONFORMANCE_GAMES games, and stops
early once CONFORMANCE_STEPS steps were checked (every option set played at least once), so that a
long game with many seats costs about what a short one does.
"""

from __future__ import annotations

import os
from random import Random
from typing import Any

import orjson
import pytest
from pydantic import BaseModel

from app.core.offers import may_take_back
from app.errors import ApiError
from app.play.moves import RuleError, _apply
from games import REGISTRY, Game, IllegalMove, Move, State
from games.protocol import is_legal, match_rng, replay
from tests.games.playout import Playout, as_json, option_sets, random_move, start, step

GAMES_PER_CASE = int(os.environ.get("CONFORMANCE_GAMES", "40"))
TAKE_BACK_GAMES = int(os.environ.get("CONFORMANCE_TAKE_BACK_GAMES", "4"))
REBUILT_PER_GAME, REBUILT_SHARE = 5, 0.05  # offered steps taken back by a replay, per game
STEPS_PER_CASE = int(os.environ.get("CONFORMANCE_STEPS", "2500"))
FRESHNESS_SAMPLE = 0.25  # share of views vandalised to prove they alias nothing (costly)
RETYPED_PER_STEP = 12  # deep near misses (types, nested values, keys) tried per step
MAX_STEPS = 20_000

CASES = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id, game in sorted(REGISTRY.items())
    for players in range(game.min_players, game.max_players + 1)
]


def _viewers(game: Game, state: State, players: int) -> list[int | None]:
    return [None, *range(players)]


def _mutations(move: Move) -> list[Move]:
    """Near misses of a legal move: each field nudged, blanked, or an extra field added."""
    out: list[Move] = [{**move, "extra": 1}, {k: v for k, v in move.items() if k != "type"}]
    for key, value in move.items():
        for other in ("bogus", None, -1, 10**6, [], {}):
            out.append({**move, key: other})
        if isinstance(value, bool):
            out.append({**move, key: not value})
        elif isinstance(value, int):
            out += [{**move, key: value + 1}, {**move, key: value - 1}]
    return out


def _retyped(value: Any) -> list[Any]:
    """The same value in other JSON types, several of which Python's `==` takes for it
    (2.0 == 2 == True): the platform must refuse them all (issue 24)."""
    if isinstance(value, bool):
        return [int(value), float(value), str(value).lower(), None]
    if isinstance(value, int):
        return [float(value), True, False, str(value), None]
    if isinstance(value, float):
        return [int(value), str(value)] if value.is_integer() else [str(value)]
    if isinstance(value, str):
        return [0, 1, 1.0, True, None, *([int(value), float(value)] if value.isdigit() else [])]
    if value is None:
        return [False, 0, 0.0, "", [], {}]
    return []


def _deep_mutations(value: Any) -> list[Any]:
    """Near misses of a JSON value at every depth: each leaf retyped, each dict given an extra
    key or losing one, each list lengthened or shortened."""
    out = _retyped(value)
    if isinstance(value, dict):
        out.append({**value, "extra": 0})
        out += [{k: v for k, v in value.items() if k != key} for key in value]
        out += [{**value, key: near} for key, inner in value.items()
                for near in _deep_mutations(inner)]
    elif isinstance(value, list):
        out += [value[:-1], [*value, value[-1] if value else 0]]
        out += [[*value[:i], near, *value[i + 1:]] for i, inner in enumerate(value)
                for near in _deep_mutations(inner)]
    return out


def _exact(value: Any) -> bytes:
    """A move's JSON text, types included (orjson writes 2 and 2.0 and true apart)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _assert_platform_refuses(game: Game, state: State, seat: int, version: int,
                             move: Any) -> None:
    """The platform's move pipeline (app.play.moves) answers 422 `illegal_move` with a sentence, and
    never takes the move to the rules, where a float index or a bool could break the room."""
    room = _Room(game.id, state, version)
    try:
        _apply(room, seat, None, move, version)
    except ApiError as refused:
        assert (refused.status, refused.code) == (422, "illegal_move"), refused.code
        assert refused.message
    except RuleError as broke:
        raise AssertionError(f"{move!r} errored the room: {broke.__cause__!r}") from broke
    else:
        raise AssertionError(f"the platform took {move!r}, which is not a legal move")


class _Room:
    """What `app.play.moves._apply` reads of a room."""

    def __init__(self, game: str, state: State, version: int) -> None:
        self.game, self.state, self.version, self.seed = game, state, version, "conformance"


JUNK: list[Any] = [{}, {"type": "no-such-move"}, {"type": None}, [], "place", None, 7]


def _fingerprint(state: State) -> bytes:
    return orjson.dumps(state, option=orjson.OPT_SORT_KEYS)


def _assert_refused(game: Game, state: State, seat: int, move: Any) -> None:
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, seat, move, Random(0))
    assert refused.value.code and refused.value.message, "a refusal needs a code and a sentence"


def _vandalise(value: Any) -> None:
    """Mutate every list and dict inside a view in place, as a careless caller might."""
    if isinstance(value, dict):
        for key in list(value):
            _vandalise(value[key])
            value[key] = "vandalised"
        value["vandalised"] = True
    elif isinstance(value, list):
        for item in value:
            _vandalise(item)
        value.append("vandalised")


def _check_view_is_fresh(game: Game, state: State, viewer: int | None, view: Any) -> None:
    """A view shares nothing with the state: mutating it changes neither the next view nor
    (checked by the caller's fingerprint) the state that `apply` will read."""
    kept = _fingerprint(view)
    _vandalise(view)
    assert _fingerprint(game.view(state, viewer)) == kept, f"view of {viewer} aliases the state"


def _check_state(game: Game, play: Playout, chooser: Random) -> None:
    before = _fingerprint(play.state)
    _check_step(game, play, chooser)
    assert _fingerprint(play.state) == before, "a view, scramble or refusal changed the state"


def _check_step(game: Game, play: Playout, chooser: Random) -> None:
    state, players = play.state, play.players
    assert as_json(state) == state, "state must be plain JSON"
    acting = game.to_act(state)
    assert (not acting) == (game.outcome(state) is not None), "to_act empty exactly when over"
    for viewer in _viewers(game, state, players):
        view = game.view(state, viewer)
        assert as_json(view) == view, "a view must be plain JSON"
        scrambled = game.scramble_hidden(state, viewer, Random(chooser.random()))
        assert game.view(scrambled, viewer) == view, f"view of {viewer} leaks hidden state"
        if chooser.random() < FRESHNESS_SAMPLE:
            _check_view_is_fresh(game, state, viewer, view)
    for seat in range(players):
        moves = game.legal_moves(state, seat)
        if seat in acting:
            assert moves, f"seat {seat} is to act but has no legal move"
        else:
            assert moves == [], f"seat {seat} is not to act but has legal moves"
            if acting:
                other = game.legal_moves(state, next(iter(acting)))
                _assert_refused(game, state, seat, chooser.choice(other))
    if not acting:
        return
    for each in acting:  # the clock's and the admin's moves pass the platform's check too
        zombie = game.zombie_move(state, each)
        assert is_legal(zombie, game.legal_moves(state, each)), f"zombie {zombie!r} not legal"
    seat = chooser.choice(sorted(acting))
    legal = game.legal_moves(state, seat)
    for junk in JUNK:
        _assert_refused(game, state, seat, junk)
    chosen = chooser.choice(legal)
    assert is_legal(chosen, legal) and is_legal(as_json(chosen), legal)
    deep = _deep_mutations(chosen)
    for near in _mutations(chosen) + chooser.sample(deep, min(RETYPED_PER_STEP, len(deep))):
        if near not in legal:  # unequal even by ==: the game refuses it on its own, as asked
            assert not is_legal(near, legal)
            _assert_refused(game, state, seat, near)
        elif any(_exact(m) == _exact(near) for m in legal if m == near):
            assert is_legal(near, legal)
        else:  # equal by Python's == (2.0, true for 2): only the platform stops it
            assert not is_legal(near, legal), f"{near!r} passed for a legal move"
            _assert_platform_refuses(game, state, seat, len(play.moves), near)


def _check_move_log(game: Game, play: Playout) -> None:
    for seat, move in play.moves:
        assert isinstance(game.describe(move), str)
        for viewer in [None, *range(play.players)]:
            seen = game.redact_move(move, seat, viewer)
            assert seen is None or as_json(seen) == seen
            if seen is not None:
                assert isinstance(game.describe(seen), str)
    for event in play.events:
        assert as_json(event.to_json()) == event.to_json()


def _play_checked(game: Game, players: int, options: BaseModel, seed: str) -> Playout:
    play = start(game, players, options, seed)
    chooser = Random(f"conformance:{seed}")
    while game.to_act(play.state):
        assert len(play.moves) < MAX_STEPS, f"no end within {MAX_STEPS} moves"
        _check_state(game, play, chooser)
        before = _fingerprint(play.state)
        kept = play.state
        seat, move = random_move(play, chooser)
        trusted, told = game.apply_legal(kept, seat, move, match_rng(seed, len(play.moves) + 1))
        assert _fingerprint(kept) == before, "apply_legal mutated its input"
        logged = len(play.events)
        step(play, seat, move)
        assert _fingerprint(kept) == before, "apply mutated its input"
        assert _fingerprint(trusted) == _fingerprint(play.state), "apply_legal's state differs"
        assert [e.to_json() for e in told] == [e.to_json() for e in play.events[logged:]]
    _check_state(game, play, chooser)
    return play


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_playouts_keep_the_protocol(game_id: str, players: int) -> None:
    game = REGISTRY[game_id]
    option_list = [o for o in option_sets(game) if _fits(game, players, o)]
    checked = 0
    for n in range(GAMES_PER_CASE):
        if checked >= STEPS_PER_CASE and n >= len(option_list):
            break
        options = option_list[n % len(option_list)]
        seed = f"{game_id}:{players}:{n}"
        play = _play_checked(game, players, options, seed)
        checked += len(play.moves)
        outcome = game.outcome(play.state)
        assert outcome is not None and len(outcome.scores) == players
        assert set(outcome.winners) <= set(range(players))
        assert sorted(outcome.ranking)[0] == 1
        _check_move_log(game, play)
        assert replay(game, players, options, seed, play.moves) == play.state, "replay differs"


def _fits(game: Game, players: int, options: BaseModel) -> bool:
    try:
        start(game, players, options, "probe")
    except IllegalMove:
        return False
    return True


def test_every_game_describes_itself() -> None:
    assert REGISTRY, "no game is registered"
    for game in REGISTRY.values():
        assert isinstance(game, Game)
        assert game.title and game.description and 1 <= game.min_players <= game.max_players
        assert game.Options.model_json_schema()["type"] == "object"


def _seen(game: Game, state: State, viewer: int | None) -> tuple[Any, Any]:
    """All a viewer is told of a state: its view, and its legal moves if it is a seat."""
    return game.view(state, viewer), [] if viewer is None else game.legal_moves(state, viewer)


def _check_take_back(game: Game, play: Playout, seat: int, move: Move, rebuild: bool) -> bool:
    """The platform's take-back rule for one step (app.core.offers): a step that drew from
    the RNG or that the game calls not `undoable` (a reveal) is never offered; one that is
    offered leaves the seat to act, and taking it back (replaying the log without it, as the
    platform does) gives back the very state before it, so that every seat and the spectator
    see exactly what they saw before it. Whether a step shows anything new is the game's
    judgement (its RULES.md, "undoable"). `rebuild`: replay the log for this step (a replay
    costs the whole game so far; a sample of steps is rebuilt). Returns whether the step was
    offered."""
    before, version = play.state, len(play.moves) + 1
    rng = match_rng(play.seed, version)
    after, _ = game.apply(before, seat, move, rng)
    offered = may_take_back(game, before, seat, move, after, rng.drew)
    if rng.drew or not game.undoable(before, seat, move):
        assert not offered, "a take-back offered after a reveal"
    if not offered:
        return False
    assert seat in game.to_act(after) and game.outcome(after) is None
    if not rebuild:
        return True
    back = replay(game, play.players, play.options, play.seed, play.moves)
    assert _exact(back) == _exact(before), f"taking back {move!r} does not restore the state"
    for viewer in [None, *range(play.players)]:
        assert _seen(game, back, viewer) == _seen(game, before, viewer), (
            f"taking back {move!r} does not restore what {viewer} saw")
    return True


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_take_backs_restore_every_view_and_never_follow_a_reveal(game_id: str,
                                                                 players: int) -> None:
    """Issue 22, item 3: whenever the platform would offer a take-back, taking it back
    restores every seat's and the spectator's view exactly; it never follows a reveal."""
    game = REGISTRY[game_id]
    option_list = [o for o in option_sets(game) if _fits(game, players, o)]
    offered = 0
    for n in range(max(TAKE_BACK_GAMES, len(option_list))):
        seed = f"take-back:{game_id}:{players}:{n}"
        play = start(game, players, option_list[n % len(option_list)], seed)
        chooser = Random(seed)
        rebuilt = 0
        while game.to_act(play.state):
            assert len(play.moves) < MAX_STEPS, f"no end within {MAX_STEPS} moves"
            seat, move = random_move(play, chooser)
            rebuild = rebuilt < REBUILT_PER_GAME or chooser.random() < REBUILT_SHARE
            if _check_take_back(game, play, seat, move, rebuild):
                offered += 1
                rebuilt += rebuild
            step(play, seat, move)
    if game_id != "gem-pyramid":  # its one move always turns a hidden gem face up
        assert offered, "no step of these games was ever offered for a take-back"
