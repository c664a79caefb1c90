"""Clock arithmetic (app/core/seat_clocks.py): per-move deadlines and Fischer banks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.core.seat_clocks import (
    earliest_deadline,
    seat_deadlines,
    settle_banks,
    starting_banks,
    wire_deadlines,
)

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def test_a_per_move_clock_gives_every_seat_to_act_the_same_deadline() -> None:
    assert seat_deadlines(30, None, None, T0, {0, 2}) == {0: T0 + timedelta(seconds=30),
                                                         2: T0 + timedelta(seconds=30)}
    assert seat_deadlines(None, None, None, T0, {0}) == {}, "no clock"


def test_fischer_charges_the_seats_that_were_to_act_and_pays_the_mover() -> None:
    banks = starting_banks(300, 5, 3)
    assert banks == {"0": 300.0, "1": 300.0, "2": 300.0}
    # Seats 0 and 1 act together; seat 0 moves after 40 s: both spent 40 s, only 0 gains 5.
    banks = settle_banks(banks, {0, 1}, 0, 40.0, 5)
    assert banks == {"0": 265.0, "1": 260.0, "2": 300.0}
    # Seat 1 moves 10 s later: its own clock ran the whole 50 s.
    banks = settle_banks(banks, {1}, 1, 10.0, 5)
    assert banks["1"] == 255.0
    assert seat_deadlines(300, 5, banks, T0, {2}) == {2: T0 + timedelta(seconds=300)}


def test_an_empty_bank_leaves_only_the_increment() -> None:
    banks = settle_banks({"0": 3.0, "1": 9.0}, {0}, 0, 7.5, 2)
    assert banks == {"0": 2.0, "1": 9.0}
    assert starting_banks(300, None, 2) is None, "a per-move clock keeps no banks"


def test_the_wire_form_is_keyed_by_seat() -> None:
    assert wire_deadlines({1: T0}) == {"1": "2026-11-24T12:00:00+00:00"}


def test_the_earliest_deadline_bounds_every_seat_to_act() -> None:
    assert earliest_deadline(30, None, None, T0) == T0 + timedelta(seconds=30)
    banks = {"0": 120.0, "1": 45.5, "2": 300.0}
    assert earliest_deadline(300, 5, banks, T0) == T0 + timedelta(seconds=45.5), \
        "the smallest bank, whoever acts"
    assert earliest_deadline(None, None, None, T0) is None, "no clock"
    assert earliest_deadline(30, None, None, None) is None, "not started"
