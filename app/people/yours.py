""""Your games": every room where the player holds a seat, from the server, whatever device
joined it. Your turn first (soonest deadline first), then games waiting for others, then
lobbies, then the last finished games with their result."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.core.rooms import room_deadlines
from app.core.views import PlayerView, StoredRoom
from app.people.service import People
from app.utc import as_utc
from games import REGISTRY

_GROUP = {"your_turn": 0, "waiting": 1, "lobby": 2, "finished": 3}
_NEVER = "9999"  # sorts after every ISO deadline


def entry(room: StoredRoom, payload: dict[str, Any], player_id: str) -> dict[str, Any]:
    """The room's public wire object, with what this player needs to pick it from a list."""
    seat = next((s["seat"] for s in payload["seats"]
                 if s["player"] is not None and s["player"]["id"] == player_id), None)
    game = REGISTRY[room.game]
    your_turn, deadline, result = False, None, None
    if room.status == "active" and room.state is not None and seat is not None:
        your_turn = seat in game.to_act(room.state)
        deadline = room_deadlines(room).get(str(seat)) if your_turn else None
    if room.status == "finished" and room.state is not None and seat is not None:
        outcome = game.outcome(room.state)
        if outcome is not None:
            result = {"rank": outcome.ranking[seat], "won": seat in outcome.winners,
                      "score": outcome.scores[seat], "reason": outcome.reason}
    return {**payload, "seat": seat, "your_turn": your_turn, "deadline": deadline,
            "result": result,
            "players": [s["player"]["name"] if s["player"] else "Bot"
                        for s in payload["seats"] if s["player"] or s["bot"]]}


def _group(item: dict[str, Any]) -> int:
    if item["status"] == "finished":
        return _GROUP["finished"]
    if item["status"] == "lobby":
        return _GROUP["lobby"]
    return _GROUP["your_turn"] if item["your_turn"] else _GROUP["waiting"]


async def your_games(people: People, player: PlayerView) -> list[dict[str, Any]]:
    found = await people.store.player_rooms(player.id)
    touched = {room.code: _moment(room) for room, _ in found}
    items = [entry(room, payload, player.id) for room, payload in found]
    # Most recent first within a group; your turn by the clock that runs out first.
    items.sort(key=lambda item: touched[item["code"]], reverse=True)
    items.sort(key=lambda item: (_group(item), item["deadline"] or _NEVER))
    return items


def _moment(room: StoredRoom) -> float:
    moment: datetime = room.last_move_at or room.updated_at or room.created_at
    return as_utc(moment).timestamp()
