"""Issue 24, item 4: a non-ASCII admin token answers 403 (counted as a guess), never 500, and a
non-ASCII ADMIN_TOKEN configured works."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from tests.server import Server, database, running_server

TOKEN = "clé-très-secrète-ü-42"
_addresses = (f"10.24.4.{n}" for n in itertools.count(1))


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with database(request.param) as url, running_server(
            url, ADMIN_TOKEN=TOKEN, FAILURES_PER_MINUTE_PER_ADDRESS="4") as srv:
        yield srv


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    """A client with an address of its own (X-Forwarded-For from the trusted local proxy)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30,
                                 headers={"X-Forwarded-For": next(_addresses)}) as client:
        yield client


def _bearer(token: str) -> dict[str, bytes]:
    return {"Authorization": b"Bearer " + token.encode()}


async def test_the_non_ascii_admin_token_works(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/admin/rooms", headers=_bearer(TOKEN))
    assert response.status_code == 200, response.text


async def test_non_ascii_guesses_are_refused_and_throttled(http: httpx.AsyncClient) -> None:
    for guess in ("é", "日本語のトークン", TOKEN[:-1], TOKEN + "!"):
        response = await http.get("/api/admin/rooms", headers=_bearer(guess))
        assert response.status_code == 403, response.text
        assert response.json()["error"]["code"] == "not_admin"
    response = await http.get("/api/admin/rooms", headers=_bearer(TOKEN))
    assert response.status_code == 429, "four wrong guesses spend the address's allowance"
    assert response.json()["error"]["code"] == "rate_limited"
