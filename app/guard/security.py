"""Edge protections for every request: security headers, a request-body cap, a same-origin
check on websockets, and an access-log filter that keeps tokens out of the server's logs."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import Any
from urllib.parse import urlsplit

import orjson

from app.errors import error_body

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"DENY")]
OPEN_DOCS = ("/docs", "/redoc", "/openapi.json")  # FastAPI's pages load Swagger from a CDN
_TOKEN = re.compile(r"(token=)[^&\s\"]+", re.IGNORECASE)


class Edge:
    """ASGI middleware: wraps the app, refuses before the app sees anything it should not."""

    def __init__(self, app: Any, max_body_bytes: int) -> None:
        self.app, self.max_body = app, max_body_bytes

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        """Not a coroutine itself: a websocket's handler runs for the socket's whole life, and
        each middleware frame awaiting it is memory held per socket; what passes through is
        handed on without one."""
        if scope["type"] == "websocket" and not _same_origin(scope):
            return send({"type": "websocket.close", "code": 1008})
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._too_large(send)
            return
        csp = not scope["path"].startswith(OPEN_DOCS)
        # [over the cap, refused]: a chunked body past the cap is refused once, whatever the
        # app, which saw a disconnect instead of the rest of the body, tries to answer.
        over = [False, False]

        async def send_with_headers(message: dict[str, Any]) -> None:
            if over[0]:
                if not over[1]:
                    over[1] = True
                    await self._too_large(send)
                return
            if message["type"] == "http.response.start":
                extra = [*HEADERS, *([(b"content-security-policy", CSP.encode())] if csp
                                     else [])]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        try:
            await self.app(scope, self._capped(receive, over), send_with_headers)
        finally:
            if over[0] and not over[1]:  # the app gave up without answering
                await send_with_headers({"type": "http.response.start"})

    async def _too_large(self, send: Any) -> None:
        await _refuse(send, 413, "body_too_large", f"Request bodies are limited to "
                      f"{self.max_body} bytes.")

    def _capped(self, receive: Any, over: list[bool]) -> Any:
        """Count a chunked body (no Content-Length) as it arrives; past the cap the app sees a
        disconnect and the caller gets 413 `body_too_large`, as with a declared length."""
        seen = 0

        async def capped() -> dict[str, Any]:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    over[0] = True
                    return {"type": "http.disconnect"}
            return message
        return capped


def _same_origin(scope: dict[str, Any]) -> bool:
    """Browsers always send Origin on websockets; a page on another site may not open ours.
    Clients that send no Origin (scripts, bots, tests) are not browsers and may connect."""
    headers = dict(scope["headers"])
    origin = headers.get(b"origin")
    if origin is None:
        return True
    return urlsplit(origin.decode("latin-1")).netloc.lower() == \
        headers.get(b"host", b"").decode("latin-1").lower()


async def _refuse(send: Any, status: int, code: str, message: str) -> None:
    body = orjson.dumps(error_body(code, message))
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


class RedactTokens(logging.Filter):
    """Access-log lines carry the URL, and a websocket URL may carry `?token=`: mask it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(_TOKEN.sub(r"\1***", a) if isinstance(a, str) else a
                                for a in (record.args if isinstance(record.args, tuple)
                                          else (record.args,)))
        record.msg = _TOKEN.sub(r"\1***", str(record.msg))
        return True


# What uvicorn (and the websockets library through it) logs on its error logger for every
# websocket opened, accepted and closed.
_SOCKET_LINES = frozenset({'%s - "WebSocket %s" [accepted]', "connection open",
                           "connection closed"})


class SocketLines(logging.Filter):
    """uvicorn logs two lines per websocket opened on its error logger: access-log lines by
    nature, so they follow the access log and go with `--no-access-log` (they cost 2.5% of a
    room's set-up, and a write to the log each). Refusals (403 and the like) stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str) or record.msg not in _SOCKET_LINES:
            return True  # (a message may be any object, even one that cannot be hashed)
        access = logging.getLogger("uvicorn.access")
        return bool(access.handlers) or access.propagate


def install_log_filter() -> None:
    logging.getLogger("uvicorn.error").addFilter(SocketLines())  # first: no masking for those
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logging.getLogger(name).addFilter(RedactTokens())
