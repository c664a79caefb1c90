"""Issue 24, item 5: behind the compose layout's HAProxy, the address the app counts is the one
the proxy saw, whatever X-Forwarded-For the client wrote.

There is no HAProxy or docker engine here: the test reads deploy/haproxy.cfg for what the proxy
does to the header, and docker-compose.yml for how uvicorn is told to trust it, then runs
uvicorn's own proxy-header middleware on what the proxy would forward and reads the address
the app's limits use (`app.guard.quotas.client_address`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.guard.quotas import client_address

ROOT = Path(__file__).resolve().parent.parent
PROXY_ADDRESS = "172.18.0.5"  # HAProxy, as the app processes see it on the compose network
CLIENT = "203.0.113.7"


def _proxy_rules() -> list[str]:
    """The directives of deploy/haproxy.cfg that apply to a request through `frontend web`."""
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in (ROOT / "deploy" / "haproxy.cfg").read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        if not line[0].isspace():
            current = line.strip()
            sections[current] = []
        else:
            sections[current].append(" ".join(line.split()))
    return sections["defaults"] + sections["frontend web"] + sections["backend by_room"] \
        + sections["backend any"]


def _forwarded_by_proxy(sent: list[tuple[bytes, bytes]], src: str) -> list[tuple[bytes, bytes]]:
    """The headers HAProxy hands the app for a request `src` sent with `sent`, as the config's
    X-Forwarded-For directives say (set-header replaces; option forwardfor appends)."""
    headers = list(sent)
    for rule in _proxy_rules():
        if re.fullmatch(r"http-request set-header X-Forwarded-For %\[src\]", rule):
            headers = [(k, v) for k, v in headers if k != b"x-forwarded-for"]
            headers.append((b"x-forwarded-for", src.encode()))
        elif rule.startswith("option forwardfor"):
            headers.append((b"x-forwarded-for", src.encode()))
    return headers


def _trusted_proxies() -> str:
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["app1"][
        "command"]
    assert "--proxy-headers" in command
    return command[command.index("--forwarded-allow-ips") + 1]


async def _address_the_app_sees(headers: list[tuple[bytes, bytes]]) -> str:
    seen: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(client_address(scope))

    middleware = ProxyHeadersMiddleware(app, trusted_hosts=_trusted_proxies())  # type: ignore[arg-type]
    await middleware({"type": "http", "client": (PROXY_ADDRESS, 40000), "headers": headers},
                     None, None)  # type: ignore[arg-type]
    return seen[0]


async def test_a_forged_forwarded_for_does_not_become_the_callers_address() -> None:
    for forged in ([(b"x-forwarded-for", b"6.6.6.6")],
                   [(b"x-forwarded-for", b"6.6.6.6, 7.7.7.7")],
                   [(b"x-forwarded-for", b"6.6.6.6"), (b"x-forwarded-for", b"8.8.8.8")]):
        headers = _forwarded_by_proxy([(b"host", b"example.org"), *forged], CLIENT)
        assert await _address_the_app_sees(headers) == CLIENT, forged


async def test_a_caller_without_the_header_is_counted_by_its_own_address() -> None:
    headers = _forwarded_by_proxy([(b"host", b"example.org")], CLIENT)
    assert await _address_the_app_sees(headers) == CLIENT


def test_the_app_processes_are_reached_only_through_the_proxy() -> None:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert "ports" not in services["app1"] and "ports" not in services["app2"], \
        "an app port published would let a client send X-Forwarded-For straight to uvicorn"
    assert services["proxy"]["ports"]
