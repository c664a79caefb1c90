"""Issue 11: security headers, a body cap, same-origin websockets, tokens kept out of logs."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
import websockets

from app.guard.security import RedactTokens, SocketLines
from tests.api.client import Api


@pytest.mark.parametrize("path", ["/", "/api/health", "/static/app.js"])
async def test_pages_and_api_carry_security_headers(api: Api, path: str) -> None:
    response = await api.http.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert "script-src 'self'" in response.headers["content-security-policy"]


async def test_docs_stay_public_and_usable(api: Api) -> None:
    response = await api.http.get("/docs")
    assert response.status_code == 200
    assert "content-security-policy" not in response.headers  # Swagger UI loads from a CDN


async def test_a_request_body_over_the_cap_is_refused_with_a_code(api: Api) -> None:
    response = await api.http.post("/api/players", content=b"{" + b" " * 70_000 + b"}",
                                   headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"


async def test_websockets_from_another_site_are_refused(api: Api) -> None:
    code, _, conns = await api.started_pair()
    url = f"{api.ws_base}/api/rooms/{code}/ws"
    with pytest.raises(websockets.InvalidStatus):
        await websockets.connect(url, origin="http://evil.example")  # type: ignore[arg-type]
    host = api.ws_base.split("://", 1)[1]
    same = await websockets.connect(url, origin=f"http://{host}")  # type: ignore[arg-type]
    await same.close()
    for conn in conns:
        await conn.close()


def test_tokens_in_logged_urls_are_masked() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0,
                               '%s - "%s %s HTTP/%s" %d', ("1.2.3.4", "GET",
                               "/api/rooms/abc/ws?token=s3cret&x=1", "1.1", 101), None)
    RedactTokens().filter(record)
    assert "s3cret" not in record.getMessage() and "token=***&x=1" in record.getMessage()


@pytest.mark.parametrize("access_log", [True, False])
def test_websocket_lines_follow_the_access_log(access_log: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn logs every socket's opening on its error logger; `--no-access-log` (which
    empties the access logger and stops it propagating) drops those lines, never a refusal."""
    access = logging.getLogger("uvicorn.access")
    monkeypatch.setattr(access, "handlers", [logging.NullHandler()] if access_log else [])
    monkeypatch.setattr(access, "propagate", False)

    def line(msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.INFO, "", 0, msg, args, None)

    opened = [line('%s - "WebSocket %s" [accepted]', "1.2.3.4", "/api/rooms/abc/ws"),
              line("connection open"), line("connection closed")]
    assert [SocketLines().filter(r) for r in opened] == [access_log] * 3
    refused = line('%s - "WebSocket %s" 403', "1.2.3.4", "/api/rooms/abc/ws")
    assert SocketLines().filter(refused) and SocketLines().filter(line("Started server"))
    assert SocketLines().filter(line({"not": "a string"}))  # type: ignore[arg-type]


async def test_a_chunked_body_over_the_cap_is_refused_with_the_same_code(api: Api) -> None:
    """No Content-Length to check up front: the cap is counted as the chunks arrive."""
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"name": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'"}'

    response = await api.http.post("/api/players", content=chunks(),
                                   headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert (await api.http.get("/api/health")).status_code == 200
