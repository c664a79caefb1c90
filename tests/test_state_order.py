"""A connection never goes back in time: at one version the status only moves forward.

Found by the benchmark: the `lobby` state a greeting read before the start reached a
client after the `active` one, and the client took the game for over."""

from __future__ import annotations

from typing import Any

from app.core.snapshot import Snapshot
from app.play.sockets import Client


def _snap(version: int, status: str) -> Snapshot:
    return Snapshot("ROOM", "gem-pyramid", status, version, None)


def test_a_state_read_before_the_start_does_not_follow_the_started_one() -> None:
    ws: Any = object()
    client = Client(ws, "ROOM", 0, "p")
    client.sent = (0, "active")
    assert not client.wants(_snap(0, "lobby"))
    assert not client.wants(_snap(0, "active"))
    assert client.wants(_snap(0, "errored"))
    assert client.wants(_snap(1, "active"))
    client.sent = (0, "lobby")
    assert client.wants(_snap(0, "active"))
    client.sent = (5, "finished")
    assert not client.wants(_snap(5, "active"))
    assert not client.wants(_snap(4, "finished"))
