"""Passkeys (WebAuthn, through the `webauthn` package): a signed-in device adds one; a device
with no token signs in with one, no name typed (a discoverable credential names its player).
Challenges are kept in the database (any process may get the answer), used once and refused
after two minutes. The relying party is the server's PUBLIC_URL (`relying_party`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import orjson
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.core.views import PlayerView
from app.errors import ApiError
from app.people import devices
from app.people.service import People
from app.utc import as_utc, utcnow

CHALLENGE_LIFETIME = timedelta(minutes=2)
RP_NAME = "Ziggurat"


def relying_party(origin: str) -> tuple[str, str]:
    """The relying party id (the host) and the expected origin, from the server's address."""
    return urlsplit(origin).hostname or "localhost", origin.rstrip("/")


async def _challenge(people: People, options: Any, player_id: str | None) -> dict[str, Any]:
    challenge_id = await people.store.add_challenge(
        bytes_to_base64url(options.challenge), player_id, utcnow() + CHALLENGE_LIFETIME)
    return {"challenge_id": challenge_id, "options": orjson.loads(options_to_json(options))}


async def _taken(people: People, challenge_id: str, player_id: str | None) -> bytes:
    """The challenge answered, used up; refused if unknown, used, expired or someone else's."""
    found = await people.store.take_challenge(challenge_id)
    if found is None or found.player_id != player_id or as_utc(found.expires_at) <= utcnow():
        raise ApiError(400, "bad_challenge", "That passkey request is unknown, used or expired; "
                       "start again.")
    return base64url_to_bytes(found.challenge)


async def registration_options(people: People, player: PlayerView, origin: str) -> dict[str, Any]:
    rp_id, _ = relying_party(origin)
    known = await people.store.passkey_ids(player.id)
    options = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_id=player.id.encode(), user_name=player.name,
        user_display_name=player.name,
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(i))
                             for i in known],
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED))
    return await _challenge(people, options, player.id)


async def register(people: People, player: PlayerView, challenge_id: str,
                   credential: dict[str, Any], origin: str, label: str) -> dict[str, Any]:
    """Keep the new passkey of the player; `{id, created_at}`."""
    expected = await _taken(people, challenge_id, player.id)
    rp_id, expected_origin = relying_party(origin)
    try:
        made = verify_registration_response(credential=credential, expected_challenge=expected,
                                            expected_rp_id=rp_id,
                                            expected_origin=expected_origin)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise ApiError(400, "bad_passkey", f"The browser's passkey was refused: {exc}") from None
    now = utcnow()
    credential_id = bytes_to_base64url(made.credential_id)
    await people.store.add_passkey(credential_id, player.id, made.credential_public_key,
                                   made.sign_count, label, now)
    return {"id": credential_id, "created_at": now.isoformat()}


async def sign_in_options(people: People, origin: str, address: str) -> dict[str, Any]:
    if not people.passkey_tries.take(address):
        raise ApiError(429, "rate_limited", "Too many passkey sign-ins at once; wait a minute.")
    rp_id, _ = relying_party(origin)
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
    return await _challenge(people, options, None)


async def sign_in(people: People, challenge_id: str, credential: dict[str, Any], origin: str,
                  label: str) -> dict[str, Any]:
    """A new device signed in as the passkey's player: `{id, name, token}`."""
    expected = await _taken(people, challenge_id, None)
    passkey = await people.store.passkey(str(credential.get("id", "")))
    if passkey is None:
        raise ApiError(401, "unknown_passkey", "This passkey is not known here (it may belong "
                       "to another server, or was made before a reset).")
    rp_id, expected_origin = relying_party(origin)
    try:
        checked = verify_authentication_response(
            credential=credential, expected_challenge=expected, expected_rp_id=rp_id,
            expected_origin=expected_origin, credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise ApiError(401, "bad_passkey", f"The passkey's answer was refused: {exc}") from None
    await people.store.passkey_used(passkey.id, checked.new_sign_count, utcnow())
    return await devices.sign_in(people, passkey.player_id, label)
