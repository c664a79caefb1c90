"""The socket side of asked take-backs: the `takeback_ask` and `takeback_answer` frames, each
answered `ack` (with the room's version after) or `error`, and the `takeback` message every
socket of the room is sent when an ask is made, answered or carried out (and a seated socket
on connecting, while an ask is open)."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool

from app.context import Context
from app.core import rooms
from app.core.asks import Ask, Outcome
from app.core.client_ids import check_player_id
from app.core.offers import remember
from app.core.views import MoveView, SeatView, StoredRoom
from app.errors import ApiError
from app.play.moves import refuse_frame
from app.play.sockets import Client, error_frame
from app.takeback import judge as judging
from app.takeback.store import AskStore
from games import REGISTRY


async def on_ask_frame(hall: Context, client: Client, message: dict[str, Any]) -> None:
    """`{"type": "takeback_ask", "id", "version"}`: ask the others to take back my last move."""
    await _frame(hall, client, message, lambda frame_id, version: ask(
        hall, client.room, client.player_id or "", frame_id, version))


async def on_answer_frame(hall: Context, client: Client, message: dict[str, Any]) -> None:
    """`{"type": "takeback_answer", "id", "version", "accept"}`: answer the open ask."""
    accept = message.get("accept")
    if type(accept) is not bool:
        client.send(error_frame("bad_message", "An answer needs 'accept': true or false.",
                                message.get("id") if isinstance(message.get("id"), str)
                                else None))
        return
    await _frame(hall, client, message, lambda frame_id, version: answer(
        hall, client.room, client.player_id or "", frame_id, version, accept))


async def _frame(hall: Context, client: Client, message: dict[str, Any], act: Any) -> None:
    raw_id = message.get("id")
    try:
        frame_id = check_player_id(raw_id)
        version = message.get("version")
        if type(version) is not int:
            raise ApiError(400, "bad_message", "A take-back message needs the 'version' of "
                           "the state it was sent on, as a whole number.")
        if client.player_id is None or client.seat is None:
            raise ApiError(403, "not_seated", "You are watching: only seated players ask for "
                           "or answer a take-back.")
        made = await act(frame_id, version)
    except ApiError as exc:
        await refuse_frame(hall, client, exc, raw_id)
        return
    client.send({"type": "ack", "id": frame_id, "version": made})


def _judge_sync(room: StoredRoom, players: int, rows: list[MoveView], seat: int) -> judging.Judged:
    game = REGISTRY[room.game]
    return judging.judge(game, room.seed, game.Options.model_validate(room.options), players,
                         rows, seat)


async def _judge(room: StoredRoom, seats: list[SeatView], rows: list[MoveView],
                 player_id: str) -> tuple[int, int, str, Any]:
    """`AskJudge`: the asker's seat, then the replay in a thread (a long game's is not free)."""
    seat = next((s.seat for s in seats if s.player_id == player_id), None)
    if seat is None:
        raise ApiError(403, "not_seated", "You are watching: only seated players ask for a "
                       "take-back.")
    found = await run_in_threadpool(_judge_sync, room, len(seats), rows, seat)
    return found.seat, found.back_to, found.what, found.before


async def ask(hall: Context, code: str, player_id: str, ask_id: str, seen_version: int) -> int:
    """Ask to take back the player's last move; the room's version after (lower at once when
    only bots had to agree)."""
    code = rooms.normalize_code(code)
    async with hall.locks.get(code):
        done = await hall.takebacks.ask(code, player_id, ask_id, seen_version, _judge)
        _after_write(hall, code, done)
    await _tell(hall, code, done)
    return done.version


async def answer(hall: Context, code: str, player_id: str, answer_id: str, seen_version: int,
                 accept: bool) -> int:
    """Accept or decline the open ask; the room's version after."""
    code = rooms.normalize_code(code)
    async with hall.locks.get(code):
        done = await hall.takebacks.answer(code, player_id, answer_id, seen_version, accept,
                                           _judge)
        _after_write(hall, code, done)
    await _tell(hall, code, done)
    return done.version


def _after_write(hall: Context, code: str, done: Outcome) -> None:
    """Under the room's lock still: a room that went back offers no free take-back, and what
    the store holds of it is stale."""
    if done.went_back:
        remember(code, done.version, None)
        hall.rooms.forget(code)


async def _tell(hall: Context, code: str, done: Outcome) -> None:
    """This process's sockets hear the ask as it stands; a room that went back resends its
    room (the log line) and state, and bots look again."""
    if done.repeated:
        return
    broadcast(hall, code, done.ask, done.version)
    if done.went_back:
        await hall.after_room_change(code, force_state=True)
        hall.bots.wake(code)


def broadcast(hall: Context, code: str, ask: Ask, version: int) -> None:
    message = {"type": "takeback", "ask": ask.wire(version)}
    for client in hall.sockets.clients(code):
        client.send(message)


async def relay(hall: Context, code: str) -> None:
    """Another process wrote an ask or an answer: tell this process's sockets."""
    ask, version = await hall.takebacks.latest(code)
    if ask is not None:
        broadcast(hall, code, ask, version)


async def greet(hall: Context, client: Client) -> None:
    """A seated socket that connects while an ask is open hears of it. A socket whose state
    shows no move yet, or a game not in play, can have none open: no read then (a room's
    set-up greets two sockets; an ask made later is broadcast to them)."""
    if client.sent is not None and (client.sent[0] == 0 or client.sent[1] != "active"):
        return
    try:
        ask, version = await hall.takebacks.latest(client.room)
    except ApiError:  # the room is gone: its socket closes anyway
        return
    if ask is not None and ask.status(version) == "open":
        client.send({"type": "takeback", "ask": ask.wire(version)})


__all__ = ["AskStore", "answer", "ask", "greet", "on_answer_frame", "on_ask_frame", "relay"]
