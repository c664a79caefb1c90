"""The people package's composition: its storage, its limits and what it needs of the process
(the settings, and telling this process's sockets that a device was signed out)."""

from __future__ import annotations

from typing import Protocol

from app.config import Settings
from app.guard.quotas import Buckets
from app.people.storage import PeopleStore


class SignOutHere(Protocol):
    def signed_out(self, device_id: str) -> None:
        """Forget the device's token and close its sockets in this process."""


class People:
    """One per process, built by the Hall; routes reach it as `request.app.state.hall.people`."""

    def __init__(self, settings: Settings, store: PeopleStore, here: SignOutHere) -> None:
        self.settings, self.store, self.here = settings, store, here
        self.new_links = Buckets(settings.links_per_minute_per_player)
        self.link_tries = Buckets(settings.link_tries_per_minute_per_address)
        self.passkey_tries = Buckets(settings.link_tries_per_minute_per_address)

    async def stop(self) -> None:
        await self.store.stop()
