"""A software passkey for API tests: what a browser and its authenticator send to WebAuthn's
two ceremonies, built by hand with `cryptography` (a P-256 key) and `cbor2`, both already there
for the `webauthn` package. The browser tests use Chromium's own virtual authenticator."""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from base64 import urlsafe_b64decode, urlsafe_b64encode
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

# Flags of authenticator data: user present, user verified, attested credential data included.
UP, UV, AT = 0x01, 0x04, 0x40


def b64url(data: bytes) -> str:
    return urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftPasskey:
    """One discoverable credential, as a platform authenticator would keep it."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(32)
        self.user_handle = b""
        self.count = 0

    def _client_data(self, kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                           "crossOrigin": False}).encode()

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """The answer to `navigator.credentials.create` with these (JSON) options."""
        self.user_handle = unb64url(options["user"]["id"])
        rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        attested = (bytes(16) + struct.pack(">H", len(self.credential_id))
                    + self.credential_id + self._cose_key())
        auth_data = rp_hash + bytes([UP | UV | AT]) + struct.pack(">I", self.count) + attested
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data),
                             "attestationObject": b64url(attestation)}}

    def get(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """The answer to `navigator.credentials.get` with these (JSON) options."""
        self.count += 1
        rp_hash = hashlib.sha256(options["rpId"].encode()).digest()
        auth_data = rp_hash + bytes([UP | UV]) + struct.pack(">I", self.count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data),
                             "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature),
                             "userHandle": b64url(self.user_handle)}}
