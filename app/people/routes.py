"""The people package's REST routes: link codes, devices, "Your games" and passkeys."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, StringConstraints

from app.api.deps import Address, CurrentPlayer
from app.people import devices, links, passkeys, yours
from app.people.labels import device_label
from app.people.service import People

router = APIRouter(prefix="/api/players")
DeviceId = Annotated[str, StringConstraints(max_length=32)]


class LinkCodeBody(BaseModel):
    code: Annotated[str, StringConstraints(max_length=40)]


class PasskeyAnswer(BaseModel):
    challenge_id: Annotated[str, StringConstraints(max_length=32)]
    # The browser's PublicKeyCredential as JSON (`credential.toJSON()`).
    credential: dict[str, Any] = Field(max_length=16)


def _people(request: Request) -> People:
    return request.app.state.hall.people


def _origin(request: Request) -> str:
    """The server's public origin: PUBLIC_URL, else the address this request came to."""
    return _people(request).settings.public_url or str(request.base_url).rstrip("/")


def _label(request: Request) -> str:
    return device_label(request.headers.get("user-agent"))


@router.post("/me/links", status_code=201)
async def new_link(player: CurrentPlayer, request: Request) -> dict[str, Any]:
    """A single-use code (10 minutes) that signs another device in as this player."""
    return await links.create(_people(request), player, _origin(request))


@router.post("/link")
async def use_link(body: LinkCodeBody, request: Request, where: Address) -> dict[str, Any]:
    """Sign this device in with a code from another device: a new token, the same player."""
    return await links.redeem(_people(request), body.code, where, _label(request))


@router.get("/me/devices")
async def my_devices(player: CurrentPlayer, request: Request) -> list[dict[str, Any]]:
    return await devices.listed(_people(request), player)


@router.delete("/me/devices/{device_id}", status_code=204)
async def sign_out_device(device_id: DeviceId, player: CurrentPlayer,
                          request: Request) -> Response:
    """Sign that device out: its token gets 401 and its sockets close, on every process."""
    await devices.sign_out(_people(request), player, device_id)
    return Response(status_code=204)


@router.post("/me/devices/sign-out-others")
async def sign_out_others(player: CurrentPlayer, request: Request) -> dict[str, int]:
    return {"signed_out": await devices.sign_out_others(_people(request), player)}


@router.get("/me/rooms")
async def my_rooms(player: CurrentPlayer, request: Request) -> list[dict[str, Any]]:
    """"Your games": the rooms where this player holds a seat, most urgent first."""
    return await yours.your_games(_people(request), player)


@router.post("/me/passkeys/options")
async def passkey_options(player: CurrentPlayer, request: Request) -> dict[str, Any]:
    return await passkeys.registration_options(_people(request), player, _origin(request))


@router.post("/me/passkeys", status_code=201)
async def add_passkey(body: PasskeyAnswer, player: CurrentPlayer,
                      request: Request) -> dict[str, Any]:
    return await passkeys.register(_people(request), player, body.challenge_id,
                                   body.credential, _origin(request), _label(request))


@router.post("/passkeys/options")
async def passkey_sign_in_options(request: Request, where: Address) -> dict[str, Any]:
    return await passkeys.sign_in_options(_people(request), _origin(request), where)


@router.post("/passkeys/sign-in")
async def passkey_sign_in(body: PasskeyAnswer, request: Request) -> dict[str, Any]:
    """Sign this device in with a passkey (no name, no token): a new token for its player."""
    return await passkeys.sign_in(_people(request), body.challenge_id, body.credential,
                                  _origin(request), _label(request))
