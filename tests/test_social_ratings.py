"""The pure half of the ratings (issue 37): openskill's numbers, ties, bots of one level, who a
finished game's seats are rated as, and the rebuild's replay."""

from __future__ import annotations

import random
from types import SimpleNamespace

from openskill.models import PlackettLuce

from app.social.ends import Ends
from app.social.ratings import START, ordinal, rate
from app.social.rebuild import replay
from app.store.base import EndSeat
from games import REGISTRY
from games.protocol import match_rng

LUCENT = REGISTRY["gem-pyramid"]


def _finished(seats: int, seed: int) -> dict:
    state, rng = LUCENT.setup(seats, LUCENT.Options(), match_rng("s", 0)), random.Random(seed)
    version = 0
    while LUCENT.outcome(state) is None:
        seat = sorted(LUCENT.to_act(state))[0]
        version += 1
        state, _ = LUCENT.apply(state, seat, rng.choice(LUCENT.legal_moves(state, seat)),
                                match_rng("s", version))
    return state


def test_ratings_are_openskills_and_ties_share_the_result() -> None:
    after = rate([("a", 1), ("b", 2), ("c", 2)], {"a": (30.0, 5.0)})
    model = PlackettLuce()
    [[a], [b], [c]] = model.rate([[model.rating(30.0, 5.0)], [model.rating()], [model.rating()]],
                                 ranks=[1.0, 2.0, 2.0])
    assert after == {"a": (a.mu, a.sigma), "b": (b.mu, b.sigma), "c": (c.mu, c.sigma)}
    assert after["b"] == after["c"] and after["a"][0] < 30.0 + 5.0
    assert ordinal(*START) == 0.0 and ordinal(25.0, 1.0) == 22.0


def test_two_bots_of_one_level_keep_the_mean_of_their_seats() -> None:
    after = rate([("p", 2), ("bot:easy", 1), ("bot:easy", 3)], {})
    model = PlackettLuce()
    [_, [first], [third]] = model.rate([[model.rating()] for _ in range(3)], ranks=[2.0, 1.0, 3.0])
    assert after["bot:easy"] == ((first.mu + third.mu) / 2, (first.sigma + third.sigma) / 2)


def test_who_each_seat_is_rated_as() -> None:
    state = _finished(4, 3)
    outcome = LUCENT.outcome(state)
    seats = [EndSeat(0, "p0", None, None, None),                   # played throughout
             EndSeat(1, None, "hard", None, None),                 # a bot from the start
             EndSeat(2, None, "normal", None, "p2"),               # left; a bot finished
             EndSeat(3, "p3", None, None, "p3")]                   # away, then back
    placed = Ends().placings("gem-pyramid", state, seats)
    assert [(p.rater, p.player_id, p.standin) for p in placed] == [
        ("p0", "p0", False), ("bot:hard", None, False), ("p2", "p2", True), ("p3", "p3", True)]
    assert [p.rank for p in placed] == outcome.ranking
    assert [p.seat for p in placed if p.won] == outcome.winners
    assert Ends().placings("gem-pyramid", state, seats[:1]) == []  # one rated seat: unrated


def test_the_replay_rates_games_in_the_order_they_were_rated() -> None:
    rows = [SimpleNamespace(id=i, room_code=room, game="g", rater=rater, rank=rank)
            for i, (room, rater, rank) in enumerate(
                [("r1", "a", 1), ("r1", "b", 2), ("r2", "a", 2), ("r2", "c", 1)])]
    ratings, written = replay(rows)
    first = rate([("a", 1), ("b", 2)], {})
    second = rate([("a", 2), ("c", 1)], {"a": first["a"], "c": START})
    assert ratings == {("a", "g"): second["a"], ("b", "g"): first["b"], ("c", "g"): second["c"]}
    assert written[2] == (*first["a"], *second["a"])
