"""Postgres plans each statement of a room's set-up once per connection, not once per room.

A prepared statement whose generic plan Postgres judges dearer than the plans it makes for each
call's values (a guessed 1,000-row series, a guessed 10-element array) is planned again at every
call: 0.14 to 0.3 ms of Postgres's CPU per statement, more than running it."""

from __future__ import annotations

from app.core import rooms
from tests.api.inprocess import hall_on

ROOMS = 10  # Postgres tries five plans for the values before it weighs the generic one


async def test_a_set_ups_room_join_and_start_keep_their_generic_plans_on_postgres() -> None:
    async with hall_on("postgres") as hall:
        for n in range(ROOMS):
            host, guest = [await hall.store.add_player(f"P{n}{k}", f"plan{n}{k}", None)
                           for k in range(2)]
            code = (await hall.store.add_room(host, "gem-pyramid", None, 2, True, None,
                                              None))["code"]
            await hall.store.change_seats(code, rooms.join_seats, guest, None)
            await hall.store.change_seats(code, rooms.start_seats, host)
        # One set-up at a time: each statement took the connection the last one gave back.
        async with hall.store.cache.pool.acquire() as conn:
            plans = await conn.fetch("SELECT statement, generic_plans, custom_plans "
                                     "FROM pg_prepared_statements")
    made = [p for p in plans if "INSERT INTO rooms" in p["statement"]
            or p["statement"].startswith("WITH held AS")]
    assert len(made) == 3, [p["statement"][:60] for p in plans]  # the room, a join, a start
    for plan in made:
        assert plan["generic_plans"] >= ROOMS - 5, (plan["statement"][:200], plan["custom_plans"])
