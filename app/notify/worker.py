"""The outbox's worker, one in every process: claim the due rows, judge each against the room
as it stands now, send it, mark it.

Claims are short transactions (`NotifyStore.claim`: a row is `sending` until a deadline), so
no database lock is held while a mail or a webhook is on its way. A process killed between the
commit that made a row due and its send leaves the row pending; one killed mid-send leaves it
claimed until the claim runs out: either way a worker (after the restart, or in another process)
sends it. The window for a second copy is between a successful send and its mark; the mail's
Message-ID is the row's, so the copy is recognisably the same mail.

Failures are tried again with back-off (NOTIFY_RETRY_SECONDS, doubled each time, at most an
hour) until NOTIFY_MAX_ATTEMPTS; a webhook refused as unsafe is not tried again."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from app.config import Settings
from app.notify import mail, texts, webhook
from app.notify.policy import DIGEST, EMAIL, END, INVITE, REMINDER, VERIFY, YOUR_TURN
from app.notify.storage import Due, NotifyStore
from app.utc import as_utc, utcnow
from games import REGISTRY

log = logging.getLogger(__name__)
CLAIM = 20  # rows per claim
MAX_BACKOFF = 3600.0
DAY = timedelta(days=1)
KEEP = timedelta(days=30)  # settled rows are kept this long (the caps look back one day)
PRUNE_EVERY = 3600.0  # seconds

LoadState = Callable[[str], Awaitable[Any]]


class Later(Exception):
    """Not yet: the player left the room less than NOTIFY_AFTER_SECONDS ago."""

    def __init__(self, due_at: datetime) -> None:
        super().__init__()
        self.due_at = due_at


class Drop(Exception):
    """No longer true, or the player is looking, or nowhere to send it: never sent."""


class Worker:
    def __init__(self, settings: Settings, store: NotifyStore, load_state: LoadState) -> None:
        self._settings = settings
        self._store = store
        self._load_state = load_state  # a room's committed state (the end's result)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _watch(self) -> None:
        pruned: float | None = None
        while True:
            try:
                while await self.run_once() == CLAIM:
                    pass  # more are due: no pause
                if pruned is None or time.monotonic() - pruned > PRUNE_EVERY:
                    await self._store.prune(utcnow() - KEEP)
                    pruned = time.monotonic()
            except Exception:
                log.exception("notification sweep failed")
            await asyncio.sleep(self._settings.notify_poll_seconds)

    async def run_once(self) -> int:
        """Claim the due rows and deal with each; how many were claimed."""
        now = utcnow()
        lease = timedelta(seconds=self._settings.notify_claim_seconds)
        rows = await self._store.claim(now, now + lease, CLAIM)
        for row in rows:
            await self._handle(row)
        return len(rows)

    async def _handle(self, row: Due) -> None:
        now = utcnow()
        try:
            if row.kind == DIGEST:
                await self._digest(row, now)
            elif row.kind == VERIFY:
                await self._verification(row, now)
            else:
                text = await self._judge(row, now)
                await self._deliver(row, text, now)
        except Later as later:
            await self._store.retry(row.id, later.due_at, None, attempt=False)
        except Drop as drop:
            await self._store.settle([row.id], "dropped", now, error=str(drop) or None)
        except webhook.WebhookRefused as refused:
            await self._store.settle([row.id], "failed", now, error=refused.message)
        except (mail.MailFailed, webhook.WebhookFailed) as exc:
            await self._failed(row, str(exc), now)
        except Exception as exc:
            log.exception("notification %d failed", row.id)
            await self._failed(row, f"{type(exc).__name__}: {exc}", now)

    async def _failed(self, row: Due, error: str, now: datetime) -> None:
        if row.attempts + 1 >= self._settings.notify_max_attempts:
            await self._store.settle([row.id], "failed", now, error=error)
            return
        wait = min(self._settings.notify_retry_seconds * 2 ** row.attempts, MAX_BACKOFF)
        log.info("notification %d: %s; again in %g s", row.id, error, wait)
        await self._store.retry(row.id, now + timedelta(seconds=wait), error)

    # -- is it still true? ------------------------------------------------------------------------

    async def _judge(self, row: Due, now: datetime, digest: bool = False) -> texts.Text:
        """The row's text if it is still true and its player is not looking (`digest`: judged
        for a digest, where looking no longer matters); else Drop or Later."""
        if row.room_code is None:
            raise Drop("no room")
        facts = await self._store.seat_facts(row.room_code, row.seat)
        if facts is None:
            raise Drop("the room is gone")
        if row.kind != INVITE and facts.player_id != row.player_id:
            raise Drop("the seat changed hands")
        if row.kind in (YOUR_TURN, REMINDER) and (facts.status != "active"
                                                  or facts.version != row.version):
            raise Drop("the game moved on")
        if not digest and row.kind != INVITE and facts.connections > 0:
            raise Drop("the player is looking")
        if not digest and row.kind == YOUR_TURN and facts.absent_since is not None:
            quiet_from = as_utc(facts.absent_since) + timedelta(
                seconds=self._settings.notify_after_seconds)
            if quiet_from > now:
                raise Later(quiet_from)
        outcome = None
        if row.kind == END:
            snap = await self._load_state(row.room_code)
            if snap is not None and snap.state is not None:
                outcome = REGISTRY[facts.game].outcome(snap.state)
        return texts.about_room(row.kind, facts.game, row.room_code, row.version,
                                self._settings.mail_origin, facts.names, outcome)

    # -- sending ----------------------------------------------------------------------------------

    async def _deliver(self, row: Due, text: texts.Text, now: datetime) -> None:
        ways = await self._store.channels(row.player_id)
        if ways is None:
            raise Drop("no channels")
        if row.channel != EMAIL:
            if ways.webhook is None:
                raise Drop("no webhook")
            await webhook.post(ways.webhook, webhook.payload(ways.webhook, text),
                               self._settings.webhook_allow_loopback)
            await self._store.settle([row.id], "sent", now, address=None)
            return
        if ways.email is None or not ways.email_verified:
            raise Drop("no verified address")
        if ways.digest:
            await self._store.hold_for_digest(
                row.id, row.player_id, now,
                now + timedelta(seconds=self._settings.digest_seconds))
            return
        await self._mail(row, ways.email, text, ways.unsubscribe_token, now)

    async def _mail(self, row: Due, to: str, text: texts.Text, unsubscribe_token: str | None,
                    now: datetime, also: list[int] | None = None) -> None:
        settings = self._settings
        if settings.smtp_url is None:
            raise Drop("no SMTP server")
        by_player, by_address = await self._store.mails_sent(row.player_id, to, now - DAY)
        if by_player >= settings.mails_per_player_per_day \
                or by_address >= settings.mails_per_address_per_day:
            raise Drop("over the day's mail cap")
        public = settings.mail_origin.rstrip("/")
        unsubscribe = (f"{public}/api/notify/unsubscribe/{unsubscribe_token}"
                       if unsubscribe_token else None)
        await mail.send(settings.smtp_url, mail.message(
            settings.mail_from, to, text, row.id, urlsplit(public).hostname or "localhost",
            unsubscribe))
        await self._store.settle([row.id, *(also or [])], "sent", now, address=to)

    async def _verification(self, row: Due, now: datetime) -> None:
        ways = await self._store.channels(row.player_id)
        if ways is None or ways.email is None or ways.email_verified \
                or ways.email != row.address or ways.verify_token is None:
            raise Drop("the address changed or is verified")
        await self._mail(row, ways.email,
                         texts.verification(self._settings.mail_origin, ways.verify_token),
                         None, now)

    async def _digest(self, row: Due, now: datetime) -> None:
        """Everything held for the player since their last digest, in one mail."""
        ways = await self._store.channels(row.player_id)
        held = await self._store.held(row.player_id)
        lines, dropped = [], []
        for one in held:
            try:
                lines.append(await self._judge(one, now, digest=True))
            except (Drop, Later):
                dropped.append(one.id)
        if dropped:
            await self._store.settle(dropped, "dropped", now, error="no longer true")
        kept = [one.id for one in held if one.id not in dropped]
        if not lines or ways is None or ways.email is None or not ways.email_verified:
            await self._store.settle(kept, "dropped", now, error="nothing to send")
            raise Drop("nothing to send")
        await self._mail(row, ways.email, texts.digest(lines), ways.unsubscribe_token, now,
                         also=kept)
