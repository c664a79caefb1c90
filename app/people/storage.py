"""What the people package asks of the database: a narrow protocol of its own, implemented once
in SQLAlchemy for both databases (`app.store.people`, opened by `app.store.choice`), and the
views of the rows it hands back (`app.core.views` has the player's and the room's)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from app.core.views import PlayerView, StoredRoom


class DeviceView(Protocol):
    """A device signed in as the player."""

    id: str
    label: str | None
    created_at: datetime
    last_seen: datetime | None


class ChallengeView(Protocol):
    """A WebAuthn challenge handed out (`player_id`: the player adding a passkey; None: a
    sign-in)."""

    challenge: str
    player_id: str | None
    expires_at: datetime


class PasskeyView(Protocol):
    """A player's WebAuthn credential (`id`: base64url)."""

    id: str
    player_id: str
    public_key: bytes
    sign_count: int


class PeopleStore(Protocol):
    async def player(self, player_id: str) -> PlayerView | None: ...
    async def add_device(self, player_id: str, token_hash: str, label: str,
                         at: datetime) -> str:
        """A new device signed in as the player; its id."""
    async def devices(self, player_id: str) -> list[DeviceView]:
        """The player's devices still signed in."""
    async def seen(self, device_id: str, at: datetime) -> None: ...
    async def sign_out(self, player_id: str, device_ids: Sequence[str] | None,
                       keep: str | None, at: datetime) -> list[str]:
        """Sign out those of the player's devices (None: all but `keep`); the ids signed out,
        each told to every process (`signout:<id>:<origin>`) as the change commits."""
    async def add_link(self, player_id: str, code_hash: str, at: datetime,
                       expires_at: datetime) -> None: ...
    async def take_link(self, code_hash: str, at: datetime) -> tuple[str, str | None]:
        """Use a link code once: ("ok", its player), or ("unknown" | "used" | "expired", None)."""
    async def add_challenge(self, challenge: str, player_id: str | None,
                            expires_at: datetime) -> str:
        """Keep a WebAuthn challenge; its id."""
    async def take_challenge(self, challenge_id: str) -> ChallengeView | None:
        """The challenge, deleted as it is read (single use); None if unknown."""
    async def add_passkey(self, credential_id: str, player_id: str, public_key: bytes,
                          sign_count: int, label: str, at: datetime) -> None:
        """Keep a new passkey of the player (`credential_id`: base64url)."""
    async def passkey(self, credential_id: str) -> PasskeyView | None: ...
    async def passkey_ids(self, player_id: str) -> list[str]: ...
    async def passkey_used(self, credential_id: str, sign_count: int, at: datetime) -> None: ...
    async def player_rooms(self, player_id: str) -> list[tuple[StoredRoom, dict[str, Any]]]:
        """The rooms where the player holds a seat (in the lobby, in play, paused by an error,
        and the last few finished), each with its state at its version and its wire object."""
    async def stop(self) -> None: ...
