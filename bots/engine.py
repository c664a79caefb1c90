"""Information-set Monte Carlo tree search over the Game protocol, for every game.

The engine knows a game only through `games.protocol`: `to_act`, `legal_moves`, `apply`,
`outcome` and `scramble_hidden`. It decides from its seat's information alone (single-observer
ISMCTS, Cowling, Powley & Whitehouse 2012; OpenSpiel's `ismcts.py`): every iteration starts from a
fresh determinisation, `scramble_hidden(state, seat, rng)`, so whatever the seat may not see is
resampled, and the tree is keyed by moves (open loop), not by states. A determinisation is made
with a `CanonicalRandom`, whose shuffles ignore the order they are handed: two states that differ
only in what the seat cannot see give the same determinisations, hence the same move for the same
seed — the no-cheating property the tests check.

Rewards are per seat (2 to 5 seats, and the solo game against its own Robot); each seat picks its
children by its own share. Where several seats act at once (a simultaneous step), the searching
seat moves first in the tree, so its choice never depends on moves it could not have seen.
Playouts are random for a per-game number of plies, then scored by that game's evaluation.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar

import orjson

from bots.evals import Evaluation
from games.protocol import Game, Move, State

EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1]
PRIOR_SHARE = 0.5  # of the time left, at most what scoring the root's moves may take
FOLLOW_UPS = 6  # next steps tried when a root move leaves the seat to act again
PRIOR_VISITS = 3  # playouts' worth of trust in a root move's one-ply value
INFORMED_DRAWS = 3  # unopened moves scored before one is opened below the root
CHECK_EVERY = 8  # iterations between checks that the choice is already settled
Key = tuple[int, bytes]


class Clock:
    """What a search's time budget is measured on: the wall clock, as a table waits.

    Calibration (bench/arena.py) switches it to the process's CPU time, which other programs on
    a loaded machine cannot stretch: iterations counted on it are those of an idle core.
    """

    now: ClassVar[Callable[[], float]] = time.perf_counter  # a builtin: never bound as a method


def move_key(move: Move) -> bytes:
    """A move's identity in the tree: its JSON with sorted keys."""
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


def _order_key(item: Any) -> bytes:
    return orjson.dumps(item, option=orjson.OPT_SORT_KEYS)


class CanonicalRandom(Random):
    """A `Random` whose `shuffle`, `choice` and `sample` depend on the multiset they are handed,
    never on its order.

    `scramble_hidden` deals hidden things anew by shuffling pools gathered in the state's own
    order (an opponent's hand, then the deck); that order is itself hidden. Sorting first makes a
    determinisation a function of what the seat may see (and the seed) only.
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        x[:] = sorted(x, key=_order_key)
        super().shuffle(x)

    def choice(self, seq: Sequence[Any]) -> Any:
        return super().choice(sorted(seq, key=_order_key))

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        if counts is not None:
            return super().sample(population, k, counts=counts)
        return super().sample(sorted(population, key=_order_key), k)


def determinise(game: Game, state: State, seat: int, rng: Random) -> State:
    """One state the seat cannot tell from `state`, drawn from `rng`."""
    return game.scramble_hidden(state, seat, CanonicalRandom(rng.getrandbits(64)))


@dataclass(slots=True)
class Node:
    """Statistics of one move (edge) in the open-loop tree, with its children."""

    move: Move | None = None
    visits: int = 0
    available: int = 1
    totals: list[float] = field(default_factory=list)
    bias: float = 0.0  # the root's one-ply value, counted as `bias_visits` playouts of it
    bias_visits: int = 0
    children: dict[Key, Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Budget:
    """When a search stops: an iteration cap (deterministic) and an optional deadline."""

    iterations: int
    deadline: float | None = None  # a Clock.now() value

    def out_of_time(self) -> bool:
        return self.deadline is not None and Clock.now() >= self.deadline


def actor(acting: frozenset[int], seat: int) -> int:
    """Who moves next in the tree: the searching seat first when several act at once."""
    return seat if seat in acting else min(acting)


def terminal_rewards(game: Game, state: State, players: int) -> list[float]:
    """Each seat's share of the win: winners split 1 (nobody wins against the solo Robot)."""
    outcome = game.outcome(state)
    if outcome is None or not outcome.winners:
        return [0.0] * players
    share = 1.0 / len(outcome.winners)
    return [share if s in outcome.winners else 0.0 for s in range(players)]


class Search:
    """One decision's search for `seat`; `run` returns the move with the most visits."""

    def __init__(self, game: Game, state: State, seat: int, evaluation: Evaluation,
                 rng: Random, players: int) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.evaluation, self.rng, self.players = evaluation, rng, players
        self.root = Node(totals=[0.0] * players)
        self.root_keys: list[Key] = []
        self.root_priors: list[float] = []
        self.iterations = 0  # done by `run`, and why it stopped: what calibration reads
        self.stopped = "cap"

    def run(self, legal: list[Move], budget: Budget) -> Move:
        priors = self._root_priors(legal, budget)
        order = sorted(range(len(legal)), key=lambda i: -priors[i])
        ranked = [legal[i] for i in order]
        self.root_priors = [priors[i] for i in order]
        self.root_keys = [(self.seat, move_key(m)) for m in ranked]
        started = Clock.now()
        for done in range(budget.iterations):
            if budget.out_of_time():
                self.stopped = "deadline"
                break
            if done % CHECK_EVERY == 0 and done and self._settled(budget, done, started):
                self.stopped = "settled"
                break
            det = determinise(self.game, self.state, self.seat, self.rng)
            self._iterate(det, ranked, budget)
            self.iterations = done + 1
        return self._best(ranked)

    def _settled(self, budget: Budget, done: int, started: float) -> bool:
        """Whether the most visited move stays first whatever the iterations left do.

        The iterations left are the cap's rest or, under a deadline, what the pace so far
        allows; an obvious choice then costs the table no more than it needs.
        """
        left = budget.iterations - done
        if budget.deadline is not None:
            now = Clock.now()
            pace = done / max(now - started, 1e-9)
            left = min(left, int(pace * max(budget.deadline - now, 0.0)) + 1)
        visits = sorted((child.visits for child in self.root.children.values()), reverse=True)
        if len(visits) < 2:
            return len(self.root_keys) <= 1
        return visits[0] - visits[1] > left

    # -- one iteration ---------------------------------------------------------------------------

    def _iterate(self, det: State, ranked: list[Move], budget: Budget) -> None:
        game, node, path = self.game, self.root, [self.root]
        state, expanded = det, False
        while not expanded:
            acting = game.to_act(state)
            if not acting or budget.out_of_time():
                break
            mover = actor(acting, self.seat)
            if node is self.root:
                moves, keys = ranked, self.root_keys
            else:
                moves = game.legal_moves(state, mover)
                keys = [(mover, move_key(m)) for m in moves]
            child, index = self._select(node, keys, mover, widen=node is self.root)
            if child is None:
                if node is not self.root:
                    index = self._informed(state, mover, moves, keys, node)
                child = Node(move=moves[index], totals=[0.0] * self.players)
                if node is self.root and self.evaluation.priors:
                    child.bias_visits = PRIOR_VISITS
                    child.bias = PRIOR_VISITS * self.root_priors[index]
                node.children[keys[index]] = child
                expanded = True
            # The root's moves were listed from the real state, the others from this one.
            apply = game.apply if node is self.root else game.apply_legal
            state, _ = apply(state, mover, moves[index], self.rng)
            node = child
            path.append(node)
        rewards = self._playout(state, budget)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s in range(self.players):
                totals[s] += rewards[s]

    def _informed(self, state: State, mover: int, moves: list[Move], keys: list[Key],
                  node: Node) -> int:
        """Which new move to open below the root: the best one-ply value among a few unopened
        ones drawn at random (uniform when the game has no evaluation).

        A move that takes several steps (pick a chain, then its cells) would otherwise be
        judged by random second steps until every one of them was tried.
        """
        unopened = [i for i, key in enumerate(keys) if key not in node.children]
        if not self.evaluation.priors or len(unopened) == 1:
            return self.rng.choice(unopened)
        drawn = self.rng.sample(unopened, min(INFORMED_DRAWS, len(unopened)))
        values = one_ply_values(self.game, state, mover, [moves[i] for i in drawn],
                                self.evaluation, self.rng, self.players, listed=True)
        return drawn[max(range(len(drawn)), key=lambda i: values[i] or 0.0)]

    def _select(self, node: Node, keys: list[Key], mover: int,
                widen: bool) -> tuple[Node | None, int]:
        """The child to follow (UCB1 with availability counts), or (None, i) to expand move i.

        At the root, moves come best prior first and only the first few are open (progressive
        widening), so a short search spends its playouts on the moves the evaluation likes.
        """
        children = node.children
        limit = len(keys)
        if widen:
            limit = min(limit, 3 + int(2 * math.sqrt(node.visits)))
        found = [children.get(keys[i]) for i in range(limit)]
        unexpanded = [i for i, child in enumerate(found) if child is None]
        if unexpanded:
            return None, unexpanded[0] if widen else self.rng.choice(unexpanded)
        best, best_index, best_score = None, 0, -math.inf
        for i, child in enumerate(found):
            assert child is not None
            child.available += 1
            mean = (child.totals[mover] + child.bias) / (child.visits + child.bias_visits)
            score = mean + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_index, best_score = child, i, score
        return best, best_index

    def _playout(self, state: State, budget: Budget) -> list[float]:
        game, rng = self.game, self.rng
        for _ in range(self.evaluation.rollout_plies):
            acting = game.to_act(state)
            if not acting or budget.out_of_time():
                break
            mover = rng.choice(sorted(acting))
            move = rng.choice(game.legal_moves(state, mover))
            state, _ = game.apply_legal(state, mover, move, rng)
        if not game.to_act(state):
            return terminal_rewards(game, state, self.players)
        return self.evaluation.values(game, state, self.players)

    # -- the root --------------------------------------------------------------------------------

    def _root_priors(self, legal: list[Move], budget: Budget) -> list[float]:
        """Each root move's value after one ply on one determinisation.

        Scored in a random order until PRIOR_SHARE of the time is gone; a move left unscored
        ranks below every scored one (a losing position must not make it look good).
        """
        if not self.evaluation.priors or len(legal) <= 2:
            return [0.5] * len(legal)
        det = determinise(self.game, self.state, self.seat, self.rng)
        stop = budget.out_of_time
        if budget.deadline is not None:
            cutoff = Clock.now() + PRIOR_SHARE * (budget.deadline - Clock.now())
            stop = lambda: Clock.now() >= cutoff  # noqa: E731
        order = list(range(len(legal)))
        self.rng.shuffle(order)
        scored = one_ply_values(self.game, det, self.seat, [legal[i] for i in order],
                                self.evaluation, self.rng, self.players, stop,
                                follow=FOLLOW_UPS)
        known = [v for v in scored if v is not None]
        floor = min(known) - 1e-6 if known else 0.5
        priors = [floor] * len(legal)
        for i, value in zip(order, scored, strict=True):
            if value is not None:
                priors[i] = value
        return priors

    def _best(self, ranked: list[Move]) -> Move:
        def score(i: int) -> tuple[int, float, int]:
            child = self.root.children.get((self.seat, move_key(ranked[i])))
            if child is None or not child.visits:
                return (0, self.root_priors[i], -i)
            n = child.visits + child.bias_visits
            return (n, (child.totals[self.seat] + child.bias) / n, -i)

        return ranked[max(range(len(ranked)), key=score)]


def one_ply_values(game: Game, state: State, seat: int, legal: list[Move],
                   evaluation: Evaluation, rng: Random, players: int,
                   stop: Callable[[], bool] = lambda: False,
                   follow: int = 0, listed: bool = False) -> list[float | None]:
    """The seat's value after each of its moves, scored at once (what the greedy level plays);
    None for the moves left once `stop()` said so.

    With `follow`, a move after which the seat alone acts again (the first step of a longer
    action: a chain picked, then its cells) is worth the best of up to `follow` next steps.
    `listed`: the moves were listed from this very state (not from the real one, as at the
    root of a search on a determinisation), so they are applied unchecked.
    """
    apply = game.apply_legal if listed else game.apply
    values: list[float | None] = []
    for move in legal:
        if stop():
            values.append(None)
            continue
        after, _ = apply(state, seat, move, rng)
        acting = game.to_act(after)
        if not acting:
            values.append(terminal_rewards(game, after, players)[seat])
        elif follow and acting == {seat}:
            steps = game.legal_moves(after, seat)
            steps = rng.sample(steps, min(follow, len(steps)))
            then = one_ply_values(game, after, seat, steps, evaluation, rng, players, stop,
                                  listed=True)
            values.append(max((v for v in then if v is not None),
                              default=evaluation.values(game, after, players)[seat]))
        else:
            values.append(evaluation.values(game, after, players)[seat])
    return values
