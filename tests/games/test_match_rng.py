"""The platform's RNG is seeded on first use: it must draw exactly what `Random(seed)` draws."""

from __future__ import annotations

import copy
import pickle
from random import Random

import pytest

from games.protocol import match_rng


def draws(rng: Random) -> list[object]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [deck, rng.random(), rng.randrange(1000), rng.randint(1, 6), rng.choice("abcdef"),
            rng.sample(range(100), 5), rng.getrandbits(77), rng.uniform(1, 2), rng.gauss(0, 1),
            rng.randbytes(5)]


@pytest.mark.parametrize("version", [0, 1, 2, 57, 10_000])
def test_match_rng_draws_what_a_seeded_random_draws(version: int) -> None:
    assert draws(match_rng("match-seed", version)) == draws(Random(f"match-seed:{version}"))
    assert match_rng("s", version).getstate() == Random(f"s:{version}").getstate()


def test_a_copy_of_an_unused_match_rng_draws_the_same() -> None:
    rng = match_rng("s", 3)
    for other in (copy.deepcopy(rng), pickle.loads(pickle.dumps(rng))):
        assert draws(other) == draws(Random("s:3"))
    assert draws(rng) == draws(Random("s:3"))
