"""`room` messages follow the order their reads were issued in, not the order they came back.

Two reads of one room run on two database connections (a socket counted, then another): the
older may come back last. Pushed as it came, it would show a connected player as gone until the
room changed again (seen as a flaky `connected` wait in tests/api/test_absence.py)."""

from __future__ import annotations

from typing import Any

import orjson

from app.play.sockets import Client, RoomSockets


def _room(connected: list[bool]) -> dict[str, Any]:
    return {"type": "room", "room": {"seats": [
        {"seat": n, "player": None, "bot": None, "connected": c}
        for n, c in enumerate(connected)]}}


def _sent(client: Client) -> list[dict[str, Any]]:
    out = []
    while client.outbox:
        out.append(orjson.loads(client.outbox.pop(0)))
    return out


def _joined(sockets: RoomSockets) -> Client:
    client = Client(None, "ROOM", None, None)  # type: ignore[arg-type]
    sockets.add(client)
    return client


def test_an_older_read_that_comes_back_last_is_not_pushed() -> None:
    sockets = RoomSockets()
    client = _joined(sockets)
    older, newer = sockets.ticket(), sockets.ticket()
    sockets.push_room("ROOM", _room([True, True]), newer)
    sockets.push_room("ROOM", _room([True, False]), older)
    assert [m["room"]["seats"][1]["connected"] for m in _sent(client)] == [True]


def test_a_greeting_read_before_a_push_yields_to_it_and_one_read_after_is_sent() -> None:
    sockets = RoomSockets()
    client = _joined(sockets)
    greeting = sockets.ticket()
    sockets.push_room("ROOM", _room([True, True]), sockets.ticket())
    sockets.push_room("ROOM", _room([False, False]), greeting, only=client)
    later = sockets.ticket()
    sockets.push_room("ROOM", _room([True, False]), later, only=client)
    assert [[s["connected"] for s in m["room"]["seats"]] for m in _sent(client)] == [
        [True, True], [True, False]]


def test_a_socket_that_joined_after_a_push_gets_the_older_read_still_in_flight() -> None:
    sockets = RoomSockets()
    first = _joined(sockets)
    in_flight = sockets.ticket()
    sockets.push_room("ROOM", _room([True, False]), sockets.ticket())
    second = _joined(sockets)
    sockets.push_room("ROOM", _room([False, False]), in_flight)
    assert _sent(first) == [_room([True, False])]
    assert _sent(second) == [_room([False, False])], "news to it: its greeting comes next"


def test_a_read_numbered_since_a_mark_is_seen_and_a_built_message_is_not() -> None:
    """A message built from a write is pushed only if no read of its room was numbered since a
    mark taken before the write (`RoomSockets.ticket`): such a read may hold a change
    committed after the write, and the built message, numbered later, would hide it."""
    sockets = RoomSockets()
    _joined(sockets)
    mark = sockets.ticket()
    sockets.ticket()  # a message built from another write: not a read
    assert not sockets.read_since("ROOM", mark)
    sockets.ticket("OTHER")  # a read of another room
    assert not sockets.read_since("ROOM", mark)
    sockets.ticket("ROOM")
    assert sockets.read_since("ROOM", mark)
    assert not sockets.read_since("ROOM", sockets.ticket())


def test_reads_of_a_room_without_sockets_here_are_not_remembered() -> None:
    sockets = RoomSockets()
    client = _joined(sockets)
    mark = sockets.ticket()
    sockets.remove(client)
    sockets.ticket("ROOM")  # an HTTP answer's read: nobody here to push it to
    assert not sockets.read_since("ROOM", mark)
