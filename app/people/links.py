"""Link codes: a signed-in device shows a short code (with a link and a QR code for it) that
signs one other device in as the same player. Single use, ten minutes, rate limited, and kept
only as a hash."""

from __future__ import annotations

import hashlib
import io
import secrets
from datetime import timedelta
from typing import Any

import segno

from app.core.views import PlayerView
from app.errors import ApiError
from app.people import devices
from app.people.service import People
from app.utc import utcnow

# No 0/O, 1/I/L: read aloud or typed off another screen. 32^8 codes: with ten minutes of life
# and a few tries a minute per address, guessing one is hopeless.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 8
LIFETIME = timedelta(minutes=10)
LINK_PATH = "/link"


def new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def normalized(code: str) -> str:
    """The code as typed or pasted: any case, with or without the dash or spaces."""
    return "".join(c for c in code.upper() if c.isalnum())


def code_hash(code: str) -> str:
    return hashlib.sha256(normalized(code).encode()).hexdigest()


def qr_svg(url: str) -> str:
    """The link as a QR code, an SVG document (segno: pure Python, no image library)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#171327",
                                    light="#ffffff", xmldecl=False, svgns=True)
    return out.getvalue().decode()


async def create(people: People, player: PlayerView, base_url: str) -> dict[str, Any]:
    """A new code for the player's other device: `{code, url, expires_at, qr_svg}`."""
    if not people.new_links.take(player.id):
        raise ApiError(429, "rate_limited", "Too many link codes at once; wait a minute.")
    code, now = new_code(), utcnow()
    expires = now + LIFETIME
    await people.store.add_link(player.id, code_hash(code), now, expires)
    # The code rides in the fragment: browsers never send it to a server, so no log keeps it.
    url = f"{base_url.rstrip('/')}{LINK_PATH}#{code}"
    return {"code": code, "url": url, "expires_at": expires.isoformat(), "qr_svg": qr_svg(url)}


_REFUSED = {
    "unknown": (404, "link_unknown", "That link code is not known; check it, or make a new one "
                "on your other device."),
    "used": (410, "link_used", "That link code was already used; make a new one on your other "
             "device."),
    "expired": (410, "link_expired", "That link code has expired (codes last ten minutes); make "
                "a new one on your other device."),
}


async def redeem(people: People, code: str, address: str, label: str) -> dict[str, Any]:
    """Sign this device in as the code's player, with a new token of its own."""
    if not people.link_tries.take(address):
        raise ApiError(429, "rate_limited", "Too many link codes tried; wait a minute.")
    if len(normalized(code)) != LENGTH:
        raise ApiError(422, "bad_link_code", f"A link code has {LENGTH} letters and digits, "
                       "like ABCD-EFGH.")
    outcome, player_id = await people.store.take_link(code_hash(code), utcnow())
    if player_id is None:
        raise ApiError(*_REFUSED[outcome])
    return await devices.sign_in(people, player_id, label)
