"""What a notification says, and nothing more: the game's title, the room's code and link,
the players' names and, once a game is over, its public result. Never a view, a hand, a
deck, a log line or a move: a notification carries no hidden game information."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.notify.policy import END, INVITE, REMINDER, YOUR_TURN
from games import REGISTRY


@dataclass(frozen=True, slots=True)
class Text:
    kind: str
    subject: str
    body: str
    room_url: str | None
    room: str | None = None
    game: str | None = None
    version: int | None = None
    result: dict[str, Any] | None = None


def title(game_id: str) -> str:
    game = REGISTRY.get(game_id)
    return game.title if game is not None else game_id


def room_url(public_url: str, code: str) -> str:
    return f"{public_url.rstrip('/')}/r/{code}"


def about_room(kind: str, game_id: str, code: str, version: int | None, public_url: str,
               names: dict[int, str], outcome: Any = None, by: str | None = None) -> Text:
    """The text of a notification about a room (your turn, reminder, end, invitation)."""
    name, url = title(game_id), room_url(public_url, code)
    if kind == YOUR_TURN:
        subject, line = f"Your turn in {name}", f"It is your turn in {name} (room {code})."
    elif kind == REMINDER:
        subject = f"Reminder: your move in {name}"
        line = (f"A quarter of your time for this move in {name} (room {code}) is left; "
                "when it runs out, a stand-in bot moves for you.")
    elif kind == END:
        subject, line = f"{name} is over", f"The game of {name} in room {code} is over."
    elif kind == INVITE:
        subject = f"{by or 'A friend'} invites you to {name}"
        line = f"{by or 'A friend'} added you to a game of {name} (room {code})."
    else:
        raise ValueError(f"no text for {kind!r}")
    result = None
    if kind == END and outcome is not None:
        ranked = sorted(range(len(outcome.ranking)), key=lambda s: outcome.ranking[s])
        standings = [f"{outcome.ranking[s]}. {names.get(s, f'Seat {s + 1}')} "
                     f"({outcome.scores[s]:g})" for s in ranked]
        line += " Final standings: " + ", ".join(standings) + "."
        result = {"ranking": outcome.ranking, "scores": outcome.scores,
                  "winners": outcome.winners,
                  "names": [names.get(s, f"Seat {s + 1}") for s in range(len(outcome.ranking))]}
    return Text(kind, subject, f"{line}\n\nOpen the room: {url}\n", url, code, game_id,
                version, result)


def verification(public_url: str, token: str) -> Text:
    link = f"{public_url.rstrip('/')}/api/notify/verify/{token}"
    return Text("verify", "Confirm your address for game notifications",
                "Someone (we hope you) asked for game notifications at this address.\n\n"
                f"Confirm it: {link}\n\nIf it was not you, ignore this mail: nothing more "
                "will be sent.\n", None)


def digest(lines: list[Text]) -> Text:
    items = "\n".join(f"- {t.subject}: {t.room_url}" for t in lines)
    return Text("digest", f"Your games today ({len(lines)})",
                f"What happened in your games:\n\n{items}\n", None)
