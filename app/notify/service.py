"""A player's notification channels (PUT /api/players/me/notifications), the links in mails
(verify, unsubscribe), the invitation hook, and the worker: what the routes and the Hall see of
notifications."""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

from app.config import Settings
from app.core.outbox import outbox_key
from app.core.pace import TURN_BASED
from app.errors import ApiError
from app.notify import webhook
from app.notify.policy import INVITE, move_notices
from app.notify.storage import NotifyStore
from app.notify.worker import LoadState, Worker
from app.utc import utcnow
from games import REGISTRY

log = logging.getLogger(__name__)
# Deliberately loose: the verification mail is the real check of an address.
EMAIL = re.compile(r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+$")
MAX_EMAIL = 254


class Notifications:
    """One per process (the Hall's `notify`)."""

    def __init__(self, settings: Settings, store: NotifyStore, load_state: LoadState) -> None:
        self._settings = settings
        self._store = store
        self._load_state = load_state
        self.worker = Worker(settings, store, load_state)

    def start(self) -> None:
        self.worker.start()

    async def stop(self) -> None:
        await self.worker.stop()

    async def channels(self, player_id: str) -> dict[str, Any]:
        """The stored settings, as PUT answers them."""
        ways = await self._store.channels(player_id)
        if ways is None:
            return {"email": None, "email_verified": False, "webhook": None, "digest": False}
        return {"email": ways.email, "email_verified": ways.email_verified,
                "webhook": ways.webhook, "digest": ways.digest}

    async def change(self, player_id: str, email: str | None, hook: str | None,
                     digest: bool) -> dict[str, Any]:
        """Store the player's channels; a new address is sent its verification mail (through
        the outbox, in the same transaction) and nothing else until its link is opened."""
        email = (email or "").strip() or None
        hook = (hook or "").strip() or None
        if email is not None:
            if len(email) > MAX_EMAIL or not EMAIL.match(email):
                raise ApiError(422, "bad_email", "That does not look like an e-mail address.")
            if self._settings.smtp_url is None:
                raise ApiError(409, "mail_off", "This server sends no mail (its operator has "
                               "not set SMTP_URL); use a webhook instead.")
        if hook is not None:
            try:
                await webhook.resolve(hook, self._settings.webhook_allow_loopback)
            except webhook.WebhookRefused as refused:
                raise ApiError(422, refused.code, refused.message) from None
        old = await self._store.channels(player_id)
        same = old is not None and old.email is not None and email is not None \
            and old.email.lower() == email.lower()
        verified = bool(same and old.email_verified)
        verify = old.verify_token if same and old is not None else None
        key = None
        if email is not None and not same:
            verify = secrets.token_urlsafe(24)
            key = outbox_key("verify", None, None, player_id, f"email:{verify[:12]}")
        unsubscribe = (old.unsubscribe_token if old is not None and old.unsubscribe_token
                       else secrets.token_urlsafe(24))
        await self._store.save_channels(player_id, email, verified, hook, digest,
                                        verify if email is not None else None, unsubscribe,
                                        key, utcnow())
        return await self.channels(player_id)

    async def verify(self, token: str) -> bool:
        return await self._store.verify(token)

    async def unsubscribe(self, token: str) -> bool:
        return await self._store.unsubscribe(token)

    async def invite(self, player_id: str, room_code: str) -> int:
        """The invitation hook (for the friends feature): tell `player_id`, on each of their
        channels, that they were added to `room_code`; how many notifications were queued.
        Called again for the same player and room, it queues nothing more."""
        now = utcnow()
        return await self._store.add(player_id, INVITE, room_code, None, None, now, now)

    async def started(self, room: dict[str, Any]) -> None:
        """A turn-based game just started (`room`: its wire object): the seats to act first are
        told as after a move. Written after the start's commit, not in it (the start is a seat
        action, not a move): a crash in between loses only these first notices."""
        if room.get("pace") != TURN_BASED or room.get("status") != "active":
            return
        try:  # the game has started whatever happens here: never fail the start for it
            await self._first_turn(room)
        except Exception:
            log.exception("first-turn notices of room %s failed", room["code"])

    async def _first_turn(self, room: dict[str, Any]) -> None:
        snap = await self._load_state(room["code"])
        if snap is None or snap.version != 0 or snap.state is None:
            return
        players = {s["seat"]: s["player"]["id"] for s in room["seats"] if s["player"]}
        now = utcnow()
        for notice in move_notices(room["turn_clock"], now, REGISTRY[room["game"]].to_act(
                snap.state), (), False, self._settings.notify_after_seconds):
            if notice.seat in players:
                await self._store.add(players[notice.seat], notice.kind, room["code"], 0,
                                      notice.seat, notice.due_at, now)
