"""Asked take-backs: what an ask is (plain types both `app.takeback` and the store that keeps
asks, `app.store.takeback.SqlAskStore`, import; the protocol is `app.takeback.store.AskStore`).
They are lines of the audit log (`admin_actions`), no table of their own. An ask is a
`takeback_ask` line at the room's version, each answer a `takeback_answer` line at the same
version naming the ask; the take-back itself is the `take_back` line the players' log shows
(`app.core.tablelog`), written with the room going back, in one transaction under the room's
row lock. A move lapses an ask: the room's version moves on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from app.core.views import MoveView, SeatView, StoredRoom

ASK, ANSWER, TAKE_BACK = "takeback_ask", "takeback_answer", "take_back"


@dataclass(slots=True)
class Ask:
    """An asked take-back as the `takeback` message tells it (`wire`)."""

    id: int
    version: int  # the room's version when asked; any move lapses the ask
    seat: int
    player: str
    name: str
    move: int  # the number of the move to take back (the game goes back to `move - 1`)
    what: str
    waiting: list[int]  # the seats whose players must answer (bots accept)
    accepted: list[int] = field(default_factory=list)
    declined: int | None = None  # the seat that declined
    done: bool = False
    ask_id: str = ""  # the asker's message id (a retried one answers the first result)
    answers: list[tuple[str, str]] = field(default_factory=list)  # (message id, player)
    head: str = ""  # the room's newest move when asked (`_head`): a rollback changes it

    def status(self, room_version: int) -> str:
        if self.done:
            return "done"
        if self.declined is not None:
            return "declined"
        return "open" if room_version == self.version else "lapsed"

    def wire(self, room_version: int) -> dict[str, Any]:
        return {"id": self.id, "version": self.version, "seat": self.seat, "name": self.name,
                "move": self.move, "what": self.what, "waiting": self.waiting,
                "accepted": self.accepted, "declined": self.declined,
                "status": self.status(room_version)}


# The judgement of an asker's take-back (the asker's player id), run on the locked room, its
# seats and its move rows in order: (seat, version to go back to, the move's text, the state
# there); raises ApiError to refuse. Run on the ask, and again on the last acceptance.
AskJudge = Callable[[StoredRoom, list[SeatView], list[MoveView], str],
                    Awaitable[tuple[int, int, str, Any]]]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an ask or an answer did: the ask as it stands, and the room's version after."""

    ask: Ask
    version: int
    went_back: bool  # the game went back (then every process is told to resend the state)
    repeated: bool = False  # a retried id: nothing was written
