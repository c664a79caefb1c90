"""The narrow storage protocol of asked take-backs (`AskStore`), implemented by
`app.store.takeback.SqlAskStore`; what an ask is lives below both, in `app.core.asks`."""

from __future__ import annotations

from typing import Protocol

from app.core.asks import Ask, AskJudge, Outcome


class AskStore(Protocol):
    """The storage of asked take-backs (see the module)."""

    async def latest(self, code: str) -> tuple[Ask | None, int]:
        """The room's newest ask (None: none) and the room's version."""

    async def ask(self, code: str, player_id: str, ask_id: str, seen_version: int,
                  judge: AskJudge) -> Outcome:
        """Write a player's ask, judged on the locked room; with nobody to answer (bots
        only), take the moves back at once."""

    async def answer(self, code: str, player_id: str, answer_id: str, seen_version: int,
                     accept: bool, judge: AskJudge) -> Outcome:
        """Write a player's answer to the open ask; the last acceptance, judged again, takes
        the moves back."""
