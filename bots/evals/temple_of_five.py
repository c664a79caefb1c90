"""Temple of Five: the running scores every seat can read, plus what each seat's chains promise.

`normal` and below add a flat worth per space of each seat's longest chains (a tile's worth shows
only when priests go out, which a short search seldom sees). A chain holding the seat's priest
still counts: picking a chain is the first step of using it, and a bonus that dropped at that
step would teach the bot never to send priests.

`hard` (the `deeper` evaluation) looks one priest turn ahead instead: each seat plays its coming
turn greedily on the open cards — the chain it has just picked, if any, then its best free
chains, each on the card and cells that gain it most against the best other seat — and counts
part of that gain. A long chain of a colour no open card
takes is then worth little, and a short one that wins a card is worth a lot; the search itself
seldom reaches the priest phase from a tile's placement.

Read from the state, not from a view: the state is a determinisation already, and a view copies
every seat's board (a third of a search's time went there and into re-reading the chains;
`board.chains` is memoised by board).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from bots.evals import Evaluation, from_points
from games.protocol import Game, State
from games.temple_of_five import board
from games.temple_of_five.rules import majority, running_scores

CHAIN_CELL = 0.25  # points per space of one of a seat's two longest chains
LATER_CELL = 0.1  # points per space of its other chains (for later priest phases)
USABLE = 2  # chains a seat may use per priest phase (3 with the "three" effect tile)
OUTLOOK = 0.6  # share of the coming priest turn's gain counted before it is played
SCALE = 4.0  # points that make a lead worth about three quarters of a win


def values(game: Game, state: State, players: int) -> list[float]:
    """The plain evaluation: running score and a flat worth per chain space."""
    points = []
    for score, seat in zip(running_scores(state), state["seats"], strict=True):
        chains = sorted((len(cells) for cells, _ in board.chains(seat)), reverse=True)
        points.append(float(score) + CHAIN_CELL * sum(chains[:USABLE])
                      + LATER_CELL * sum(chains[USABLE:]))
    return from_points(points, scale=SCALE)


def outlook_values(game: Game, state: State, players: int) -> list[float]:
    """The deeper evaluation: running score, part of the coming priest turn's gain, and a
    little for every chain space (chains outlast one turn)."""
    points = []
    for s, (score, seat) in enumerate(zip(running_scores(state), state["seats"], strict=True)):
        lengths = sum(len(cells) for cells, _ in board.chains(seat))
        points.append(float(score) + OUTLOOK * coming_gain(state, s) + LATER_CELL * lengths)
    return from_points(points, scale=SCALE)


def coming_gain(state: State, s: int) -> float:
    """Points seat `s` would gain, net of the best other seat's, in its next priest turn played
    greedily: the chain it picked first, if any (its priests must go out now), then up to its
    chain limit, each chain on the best card and cells still open to it."""
    me = state["seats"][s]
    limit = 3 if me["effect"] == "three" else USABLE
    if state["phase"] == "priests" and state["turn"] == s:
        limit -= me["used"]  # the picked chain counts among them
    held = {tuple(p) for p in me["chains"]}
    chains = [(len(cells), colour) for cells, colour in board.chains(me) if not held & cells]
    cards = [dict(card, priests=list(card["priests"]))
             for card in state["open"].values() if card is not None]
    if me["private"] is not None:
        cards.append(dict(me["private"], priests=list(me["private"]["priests"])))
    priests, gain = me["priests"], 0.0
    if me["pending"] is not None:  # its priest stands on the chain already
        picked = [(me["pending"]["length"], me["pending"]["colour"])]
        use = _best_use(picked, cards, priests, s, state["players"])
        if use is not None:
            gain += _take(use, s)
            priests -= len(use[3])
    for _ in range(limit):
        use = _best_use(chains, cards, priests - 1, s, state["players"])
        if use is None or use[0] <= 0:
            break
        gain += _take(use, s)
        priests -= 1 + len(use[3])
        chains.pop(use[1])
    return gain


Use = tuple[float, int, dict[str, Any], tuple[int, ...]]  # net gain, chain, card, cells


def _best_use(chains: list[tuple[int, str]], cards: list[dict[str, Any]], priests: int, s: int,
              players: int) -> Use | None:
    """The chain, card and cells that gain seat `s` most with at most `priests` on the card
    (the first such, chains then cards then cells in order, where several gain as much)."""
    if priests < 1:
        return None
    uses: dict[int, list[tuple[float, int, tuple[int, ...]]]] = {}  # by card: listed once
    best: Use | None = None
    for c, (length, colour) in enumerate(chains):
        for i, card in enumerate(cards):
            if card["god"] not in ("white", colour):
                continue
            if i not in uses:  # up to the longest chain the card takes
                longest = max(n for n, hue in chains if card["god"] in ("white", hue))
                uses[i] = _uses(card, longest, priests, s, players)
            for net, total, pick in uses[i]:
                if total <= length and (best is None or net > best[0]):
                    best = (net, c, card, pick)
    return best


def _take(use: Use, s: int) -> float:
    """Put the seat's priests on the use's cells (of the outlook's copy of the card)."""
    net, _, card, pick = use
    for i in pick:
        card["priests"][i] = s
    return net


def _uses(card: dict[str, Any], length: int, priests: int, s: int,
          players: int) -> list[tuple[float, int, tuple[int, ...]]]:
    """Every way to put at most `priests` priests on the card's free cells within `length`:
    what each gains seat `s` against the best other seat, and the length it needs (its cells'
    sum)."""
    free = [i for i, p in enumerate(card["priests"]) if p is None]
    before = _card_points(card, card["priests"], players)
    out = []
    for k in range(1, min(len(free), priests) + 1):
        for pick in combinations(free, k):
            needs = sum(card["cells"][i]["n"] for i in pick)
            if needs > length:
                continue
            after_priests = list(card["priests"])
            for i in pick:
                after_priests[i] = s
            after = _card_points(card, after_priests, players)
            delta = [a - b for a, b in zip(after, before, strict=True)]
            net = delta[s] - max(d for o, d in enumerate(delta) if o != s)
            if k == 1 and card["cells"][pick[0]]["bonus"]:
                net += 1  # a bonus piece drawn: a point in reserve, or a chain mended
            out.append((net, needs, pick))
    return out


def _card_points(card: dict[str, Any], priests: list[int | None], players: int) -> list[float]:
    """Each seat's points from one card with these priests: its big points to the winner once
    full, else its small points to the majority."""
    points = [0.0] * players
    if all(p is not None for p in priests):
        points[majority(priests)] = card["big"]
    elif any(p is not None for p in priests):
        points[majority(priests)] = card["small"]
    return points


DEEPER = Evaluation(values=outlook_values, rollout_plies=0, priors=True)
EVALUATION = Evaluation(values=values, rollout_plies=0, priors=True, deeper=DEEPER)
