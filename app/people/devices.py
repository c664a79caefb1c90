"""A player's devices: a new one signed in (by a link code or a passkey), the list, and signing
out one device or every other one. A signed-out token is refused at once by every process
(the row says so, and each process forgets its copy when told) and its sockets close."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from app.core.views import PlayerView
from app.errors import ApiError
from app.guard.auth import hash_token, new_token, token_times
from app.people.service import People
from app.people.storage import DeviceView
from app.utc import as_utc, utcnow


async def sign_in(people: People, player_id: str, label: str) -> dict[str, Any]:
    """A new device, with a token of its own, for the player: the wire's `{id, name, token}`
    (with the token's expiry, as `POST /api/players` answers)."""
    found = await people.store.player(player_id)
    if found is None:  # the player row went (nothing deletes players today)
        raise ApiError(404, "player_not_found", "That player no longer exists.")
    token, now = new_token(), utcnow()
    await people.store.add_device(player_id, hash_token(token), label, now)
    # The new device's token, renewed as made: its times as `POST /api/players` answers them.
    issued = SimpleNamespace(created_at=found.created_at, token_renewed_at=now)
    return {"id": found.id, "name": found.name, "token": token,
            **token_times(issued, people.settings.token_ttl)}


def _wire(device: DeviceView, current: str | None) -> dict[str, Any]:
    seen = device.last_seen or device.created_at
    return {"id": device.id, "label": device.label or "A browser",
            "created_at": as_utc(device.created_at).isoformat(),
            "last_seen": as_utc(seen).isoformat(), "current": device.id == current}


async def seen(people: People, player: PlayerView) -> None:
    """The player's device is in use now (`last_seen`)."""
    assert player.device_id is not None  # a player read by token
    await people.store.seen(player.device_id, utcnow())


async def listed(people: People, player: PlayerView) -> list[dict[str, Any]]:
    """The player's signed-in devices: this one first, then the most recently seen."""
    await seen(people, player)
    devices = await people.store.devices(player.id)
    rows = [_wire(d, player.device_id) for d in devices]
    rows.sort(key=lambda row: row["last_seen"], reverse=True)
    rows.sort(key=lambda row: not row["current"])
    return rows


async def sign_out(people: People, player: PlayerView, device_id: str) -> None:
    """Sign out one of the player's devices (this one too, if asked)."""
    gone = await people.store.sign_out(player.id, [device_id], None, utcnow())
    if not gone:
        raise ApiError(404, "device_not_found", "You have no signed-in device with that id.")
    people.here.signed_out(device_id)


async def sign_out_others(people: People, player: PlayerView) -> int:
    """Sign out every device of the player but this one; how many."""
    gone = await people.store.sign_out(player.id, None, player.device_id, utcnow())
    for device_id in gone:
        people.here.signed_out(device_id)
    return len(gone)
