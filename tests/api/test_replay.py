"""Replays: a finished game stepped through from any seat; nothing shown before the end."""

from __future__ import annotations

import random

from tests.api.client import Api, Conn


async def _play_recording(conns: list[Conn], chooser: random.Random
                          ) -> dict[int, dict[int, dict]]:
    """Play random legal moves to the end; what each seat was shown at every version."""
    seen: dict[int, dict[int, dict]] = {n: {} for n in range(len(conns))}

    def record() -> None:
        for n, conn in enumerate(conns):
            seen[n][conn.state["version"]] = conn.state

    record()
    while conns[0].state["status"] != "finished":
        ready = [c for c in conns if c.state["legal_moves"]]
        mover = chooser.choice(ready)
        reply = await mover.move(chooser.choice(mover.state["legal_moves"]))
        assert reply["type"] == "ack", reply
        for conn in conns:
            await conn.until(lambda c, v=reply["version"]: c.state["version"] >= v)
        record()
    return seen


async def test_no_replay_before_the_end(api: Api) -> None:
    code, people, conns = await api.started_pair("five-realms")
    mover = next(c for c in conns if c.state["legal_moves"])
    await mover.move(mover.state["legal_moves"][0])
    for token in (None, people[0]["token"], people[1]["token"]):
        for query in ("", "?seat=0", "?seat=1"):
            refused = await api.call("GET", f"/api/rooms/{code}/replay{query}", token, 409)
            assert refused == {"error": {"code": "not_finished",
                                         "message": "A replay opens once the game is over."}}
    # The admin may step through a game in progress, and sees each seat as that seat did.
    whole = await api.admin("GET", f"/rooms/{code}/replay?seat=0")
    assert [f["version"] for f in whole["frames"]] == [0, 1]
    assert whole["frames"][-1]["view"] == conns[0].state["view"]
    refused = await api.call("GET", f"/api/admin/rooms/{code}/replay", people[0]["token"], 403)
    assert refused["error"]["code"] == "not_admin"
    for conn in conns:
        await conn.close()


async def test_a_finished_game_replays_as_each_seat_saw_it(api: Api) -> None:
    code, _, conns = await api.started_pair("five-realms")
    seen = await _play_recording(conns, random.Random(13))
    last = conns[0].state["version"]
    for seat in (0, 1):
        replay = await api.call("GET", f"/api/rooms/{code}/replay?seat={seat}")
        frames = replay["frames"]
        assert replay["seat"] == seat and replay["error"] is None
        assert [f["version"] for f in frames] == list(range(last + 1))
        for frame in frames:
            shown = seen[seat].get(frame["version"])
            if shown is not None:  # simultaneous steps may skip a version on the way
                assert frame["view"] == shown["view"], frame["version"]
            assert all(e["to"] is None or seat in e["to"] for e in frame["events"])
        assert frames[-1]["outcome"] == conns[seat].state["outcome"]
        assert frames[0]["text"] == "The game begins." and frames[1]["seat"] is not None
    # The other seat's private lines exist (the admin sees them) but seat 0's replay skips them.
    admin = await api.admin("GET", f"/rooms/{code}/replay")
    private_to_1 = [e for f in admin["frames"] for e in f["events"] if e["to"] == [1]]
    assert private_to_1, "five-realms deals private cards: the test must have something to hide"
    mine = await api.call("GET", f"/api/rooms/{code}/replay?seat=0")
    assert not [e for f in mine["frames"] for e in f["events"] if e["to"] == [1]]
    spectator = await api.call("GET", f"/api/rooms/{code}/replay")
    assert spectator["seat"] is None
    assert all(e["to"] is None for f in spectator["frames"] for e in f["events"])
    bad = await api.call("GET", f"/api/rooms/{code}/replay?seat=7", expect=422)
    assert bad["error"]["code"] == "bad_seat"
    for conn in conns:
        await conn.close()
