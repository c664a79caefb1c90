"""Hints against the computer: the move the `normal` bot would make for the asking seat.

Offered only at a table where every other seat is a bot: with another person at the table a
hint would be help nobody else gets. The move comes from the bot engine exactly as a bot seat's
does (`BotThinker.decide`: the pool, the level's budget, the seat's own seed at this version),
so it is decided from what the seat may see: the engine searches determinisations of the seat's
information, never the hidden state itself.
"""

from __future__ import annotations

import asyncio
from random import Random
from typing import Any, Protocol

from app.core.rooms import normalize_code
from app.errors import ApiError
from app.store.base import MoveStore, RoomStore
from app.table.bots import seed_of
from bots.engine import determinise, one_ply_values
from bots.evals import DEFAULT, evaluation_for
from games import REGISTRY
from games.protocol import Game, IllegalMove, Move, State, match_rng

HINT_LEVEL = "normal"


class Decider(Protocol):
    async def decide(self, game_id: str, state: State, seat: int, level: str,
                     seed: str) -> Move: ...


def only_bots_beside(room: dict[str, Any], seat: int) -> bool:
    """Whether every seat but `seat` is held by a bot (a hint then helps nobody against anybody)."""
    return all(s["bot"] for s in room["seats"] if s["seat"] != seat)


async def hint(rooms: RoomStore, moves: MoveStore, decider: Decider, code: str,
               player_id: str) -> dict[str, Any]:
    """The normal bot's move for the player's seat now, its words and, where the game has an
    evaluation, why."""
    message = await rooms.room_message(normalize_code(code))
    if message is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
    room = message["room"]
    seat = next((s["seat"] for s in room["seats"] if (s["player"] or {}).get("id") == player_id
                 and not s["bot"]), None)
    if seat is None:
        raise ApiError(403, "not_seated", "Only a player seated in this room may ask for a hint.")
    if not only_bots_beside(room, seat):
        raise ApiError(403, "hint_not_offered", "Hints are offered only in a game against the "
                       "computer, where every other seat is a bot.")
    read = await moves.bot_view(room["code"])
    if read is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
    table = read[0]
    if table.status != "active":
        raise ApiError(409, "game_over", "The game is not in play.")
    game = REGISTRY[table.game]
    if seat not in game.to_act(table.state):
        raise ApiError(409, "not_your_turn", "A hint is for your own turn; wait for it.")
    seed = seed_of(table, seat)
    move = await decider.decide(table.game, table.state, seat, HINT_LEVEL, seed)
    reason = await asyncio.to_thread(_reason, table.game, table.state, seat, move, seed)
    return {"version": table.version, "seat": seat, "level": HINT_LEVEL, "move": move,
            "text": game.describe(move), "reason": reason}


def _reason(game_id: str, state: State, seat: int, move: Move, seed: str) -> str | None:
    """The move's consequences in words, and the evaluation's word on it, from states the seat
    cannot tell from the real one (never the real state: what the move would reveal stays
    hidden until it is made). What the move leads to is told where two such states agree on it
    ("The card is full: Seat 1 wins the white blessing card"), so nothing hidden is guessed at;
    the reckoning is the seat's chance to win after the move beside the average of its moves
    (none where the game has no evaluation, only playouts to the end)."""
    game = REGISTRY[game_id]
    rng = Random(f"hint:{seed}")
    worlds = [determinise(game, state, seat, rng) for _ in range(2)]
    told = [_public_texts(game, world, seat, move, f"{seed}:{n}") for n, world in enumerate(worlds)]
    words = [text for text in told[0] if text in told[1]][:2]
    evaluation = evaluation_for(game_id)
    if evaluation is not DEFAULT:
        legal = game.legal_moves(state, seat)
        fixed = game.min_players == game.max_players
        players = game.min_players if fixed else int(state["players"])
        values = one_ply_values(game, worlds[0], seat, legal, evaluation, rng, players)
        known = [(m, v) for m, v in zip(legal, values, strict=True) if v is not None]
        mine = next((v for m, v in known if m == move), None)
        if mine is not None:
            average = sum(v for _, v in known) / len(known)
            words.append(f"By the normal bot's reckoning you are about {mine:.0%} to win after "
                         f"it (an average move here: {average:.0%}).")
    return " ".join(words) or None


def _public_texts(game: Game, world: State, seat: int, move: Move, seed: str) -> list[str]:
    """The public log lines the move makes in one determinised world; none where it is not
    playable there, or where chance had a say (a die, a shuffle: that would be a guess)."""
    rng = match_rng(f"hint:{seed}", 1)
    try:
        _, events = game.apply(world, seat, move, rng)
    except IllegalMove:
        return []
    return [] if rng.drew else [event.text for event in events if event.to is None]
