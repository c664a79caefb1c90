"""Webhooks: a JSON POST to a player's URL, made safe against server-side request forgery.

The URL must be https and its host must resolve only to public addresses (no loopback,
private, link-local such as the 169.254.169.254 metadata service, shared, reserved or multicast
address), checked after DNS resolution; the request then goes to the very address checked (the
connection is pinned to it, with the name kept for TLS and the Host header), so a name that
resolves differently a moment later (DNS rebinding) gains nothing. Redirects are not followed,
the whole request has 5 s, the body is small and the answer is never read.

Discord's and Slack's incoming webhooks are recognised by their URL and sent their own shape;
any other URL gets `payload` (README, "Notifications")."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import orjson

from app.notify.texts import Text

TIMEOUT = 5.0
MAX_TEXT = 1_800  # Discord takes 2,000 characters of content
MAX_URL = 2_000
DISCORD_HOSTS = {"discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com"}
SLACK_HOSTS = {"hooks.slack.com"}


class WebhookRefused(Exception):
    """The URL may not be called (a stable `code` and a sentence a person can read)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class WebhookFailed(Exception):
    """The receiver did not take it (network, timeout, an error status): try again later."""


def _public(address: str, allow_loopback: bool) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if allow_loopback and ip.is_loopback:
        return True
    return ip.is_global and not ip.is_multicast


async def resolve(url: str, allow_loopback: bool = False) -> tuple[Any, str]:
    """The URL parsed and the one public address to call, or WebhookRefused."""
    if len(url) > MAX_URL:
        raise WebhookRefused("bad_webhook", f"A webhook URL has at most {MAX_URL} characters.")
    parts = urlsplit(url)
    schemes = ("https", "http") if allow_loopback else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise WebhookRefused("bad_webhook", "A webhook URL must start with https:// and name "
                             "a host.")
    if parts.username or parts.password:
        raise WebhookRefused("bad_webhook", "A webhook URL may not carry a user or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise WebhookRefused("bad_webhook", "The webhook URL's port is not a number.") from None
    try:
        found = await asyncio.get_running_loop().getaddrinfo(
            parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise WebhookRefused("bad_webhook", f"The host {parts.hostname!r} of the webhook URL "
                             "cannot be found.") from None
    addresses = sorted({info[4][0] for info in found})
    if not addresses or not all(_public(a, allow_loopback) for a in addresses):
        raise WebhookRefused("webhook_not_public", f"The host {parts.hostname!r} resolves to "
                             "an address that is not on the public internet (loopback, private, "
                             "link-local or reserved); webhooks go to public servers only.")
    return parts, addresses[0]


def payload(url: str, text: Text) -> dict[str, Any]:
    """The JSON for `url`: Discord's or Slack's incoming-webhook shape, else ours."""
    parts = urlsplit(url)
    line = f"{text.subject}. {text.body.strip()}"[:MAX_TEXT]
    if parts.hostname in DISCORD_HOSTS and parts.path.startswith("/api/webhooks/"):
        return {"content": line, "allowed_mentions": {"parse": []}}
    if parts.hostname in SLACK_HOSTS:
        return {"text": line}
    return {"event": text.kind, "text": text.subject, "room": text.room, "game": text.game,
            "version": text.version, "url": text.room_url, "result": text.result}


async def post(url: str, body: dict[str, Any], allow_loopback: bool = False) -> int:
    """POST `body` to `url`'s checked address; the status (2xx), else WebhookFailed."""
    # Imported on first use: httpx imports its command line's click, rich and Pygments when
    # they are installed (~7 MiB a process that never sends a webhook need not hold).
    import httpx

    parts, address = await resolve(url, allow_loopback)
    host = f"[{address}]" if ":" in address else address
    netloc = f"{host}:{parts.port}" if parts.port else host
    pinned = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
    headers = {"Host": parts.netloc.rsplit("@", 1)[-1], "Content-Type": "application/json",
               "User-Agent": "Ziggurat-notifications"}
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT, follow_redirects=False,
                                     trust_env=False) as client:
            async with asyncio.timeout(TIMEOUT):
                async with client.stream("POST", pinned, content=orjson.dumps(body),
                                         headers=headers,
                                         extensions={"sni_hostname": parts.hostname}) as answer:
                    status = answer.status_code  # the body is never read
    except (httpx.HTTPError, TimeoutError, OSError) as exc:
        raise WebhookFailed(f"{type(exc).__name__}: {exc}") from exc
    if not 200 <= status < 300:
        raise WebhookFailed(f"the receiver answered {status}")
    return status
