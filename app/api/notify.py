"""Notification settings and the links in mails: the REST half of app/notify/."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from app.api.deps import CurrentPlayer, HallDep

router = APIRouter(prefix="/api")


class Channels(BaseModel):
    email: str | None = Field(None, max_length=254)
    webhook: str | None = Field(None, max_length=2000)
    digest: bool = False


def _page(title: str, text: str, status: int = 200) -> HTMLResponse:
    """A small page for a link opened from a mail (no script: the CSP allows none inline)."""
    return HTMLResponse(
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
        f"<body style='font-family:sans-serif;max-width:36em;margin:3em auto'>"
        f"<h1>{escape(title)}</h1><p>{escape(text)}</p><p><a href='/'>Ziggurat</a></p>",
        status_code=status)


@router.get("/players/me/notifications")
async def my_channels(player: CurrentPlayer, hall: HallDep) -> dict[str, object]:
    return await hall.notify.channels(player.id)


@router.put("/players/me/notifications")
async def set_channels(body: Channels, player: CurrentPlayer, hall: HallDep) -> dict[str, object]:
    """Where this player is told of their turns: an e-mail address (verified by a link first),
    a webhook URL, and mail as a daily digest."""
    return await hall.notify.change(player.id, body.email, body.webhook, body.digest)


@router.get("/notify/verify/{token}", include_in_schema=False)
async def verify(token: str, hall: HallDep) -> HTMLResponse:
    if await hall.notify.verify(token):
        return _page("Address confirmed", "You will be told by mail when it is your turn.")
    return _page("Link not valid", "This link was used already or replaced by a newer one.",
                 404)


@router.api_route("/notify/unsubscribe/{token}", methods=["GET", "POST"],
                  include_in_schema=False)
async def unsubscribe(token: str, hall: HallDep) -> HTMLResponse:
    """One click, no sign-in (POST: RFC 8058's List-Unsubscribe-Post from mail clients)."""
    if await hall.notify.unsubscribe(token):
        return _page("Unsubscribed", "No more mail will be sent to this address. You can set "
                     "an address again under Notifications.")
    return _page("Link not valid", "This link is not one of ours.", 404)
