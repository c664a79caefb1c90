"""Webhooks: a JSON POST to a real HTTP receiver in the test process (WEBHOOK_ALLOW_LOOPBACK
on, as only tests may), Discord's and Slack's shapes recognised by their URL, and the refusals
that keep a webhook from reaching inside the server's network (the setting off, its default):
loopback, private and link-local addresses, the metadata service, a name that resolves to
127.0.0.1, plain http, and redirects."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app.notify import webhook
from app.notify.texts import about_room
from tests.api.client import Api
from tests.notify.parts import (
    WAIT,
    Receiver,
    guest_moves,
    host_moves,
    outbox,
    server_for,
    started,
    turn_based_pair,
)
from tests.server import Server, database


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    hooks = Receiver()
    yield hooks
    hooks.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest) -> Iterator[tuple[Server, str]]:
    with database(request.param) as url, \
            started(server_for(url, WEBHOOK_ALLOW_LOOPBACK="1")) as server:
        yield server, url


async def test_your_turn_reaches_the_webhook(served: tuple[Server, str],
                                             receiver: Receiver) -> None:
    api = Api(served[0].url)
    host, guest = await api.player("Host"), await api.player("Guest")
    hook = f"{receiver.url}/hook/{guest['id']}"
    stored = await api.call("PUT", "/api/players/me/notifications", guest["token"],
                            json={"email": None, "webhook": hook, "digest": False})
    assert stored == {"email": None, "email_verified": False, "webhook": hook,
                      "digest": False}
    code, conn = await turn_based_pair(api, host, guest)
    version = await host_moves(conn)
    path, headers, body = await receiver.wait_for(lambda p: p[0] == f"/hook/{guest['id']}")
    assert headers["Content-Type"] == "application/json"
    assert body == {"event": "your_turn", "text": "Your turn in Lucent", "room": code,
                    "game": "gem-pyramid", "version": version,
                    "url": f"{served[0].url}/r/{code}", "result": None}
    # A receiver that fails is tried again, with back-off, and the row says why.
    await api.call("PUT", "/api/players/me/notifications", guest["token"],
                   json={"webhook": f"{receiver.url}/fail/{guest['id']}"})
    await guest_moves(api, code, guest)
    failing = await host_moves(conn)
    await receiver.wait_for(lambda p: p[0] == f"/fail/{guest['id']}")
    assert "500" in (await _tried(served[1], code, failing)).error
    # A redirect is not followed: the row fails and /hook is not called again.
    await api.call("PUT", "/api/players/me/notifications", guest["token"],
                   json={"webhook": f"{receiver.url}/moved/{guest['id']}"})
    await guest_moves(api, code, guest)
    moved = await host_moves(conn)
    await receiver.wait_for(lambda p: p[0] == f"/moved/{guest['id']}")
    assert "302" in (await _tried(served[1], code, moved)).error
    assert [p for p in receiver.posts if p[0] == f"/hook/{guest['id']}"] == \
        [(path, headers, body)]
    await conn.close()
    await api.close()


async def _tried(url: str, code: str, version: int) -> Any:
    """The "your turn" row of `version` once a try of it has failed."""
    deadline = time.monotonic() + WAIT
    while True:
        [row] = await outbox(url, room_code=code, version=version, kind="your_turn")
        if row.attempts >= 1 and row.error:
            assert row.status in ("pending", "sending")  # to be tried again, later
            return row
        assert time.monotonic() < deadline, f"never tried: {row}"
        await asyncio.sleep(0.05)


def test_discord_and_slack_get_their_own_shapes() -> None:
    text = about_room("your_turn", "gem-pyramid", "abc-def-ghj", 3, "https://z.example",
                      {0: "Ann", 1: "Bo"})
    discord = webhook.payload("https://discord.com/api/webhooks/1/x", text)
    assert set(discord) == {"content", "allowed_mentions"}
    assert "Your turn in Lucent" in discord["content"]
    assert "https://z.example/r/abc-def-ghj" in discord["content"]
    assert webhook.payload("https://hooks.slack.com/services/T/B/x", text).keys() == {"text"}
    assert webhook.payload("https://example.org/hook", text)["event"] == "your_turn"


@pytest.mark.parametrize(("url", "code"), [
    ("https://127.0.0.1/hook", "webhook_not_public"),
    ("https://10.1.2.3/hook", "webhook_not_public"),
    ("https://192.168.1.1/hook", "webhook_not_public"),
    ("https://169.254.169.254/latest/meta-data/", "webhook_not_public"),
    ("https://[::1]/hook", "webhook_not_public"),
    ("https://[::ffff:127.0.0.1]/hook", "webhook_not_public"),
    ("https://localhost/hook", "webhook_not_public"),  # a name that resolves to 127.0.0.1
    ("http://93.184.215.14/hook", "bad_webhook"),  # plain http
    ("https://user:pw@93.184.215.14/hook", "bad_webhook"),
    ("gopher://93.184.215.14/", "bad_webhook"),
])
async def test_unsafe_webhooks_are_refused(url: str, code: str) -> None:
    with pytest.raises(webhook.WebhookRefused) as refused:
        await webhook.post(url, {"text": "x"}, allow_loopback=False)
    assert refused.value.code == code


async def test_the_server_refuses_unsafe_webhooks_by_default() -> None:
    with database("sqlite") as url, started(server_for(url)) as server:
        api = Api(server.url)
        player = await api.player("Sly")
        for hook in ("https://127.0.0.1:1/x", "https://10.0.0.8/x",
                     "https://169.254.169.254/latest/meta-data/", "https://localhost/x"):
            response = await api.http.put(
                "/api/players/me/notifications", json={"webhook": hook},
                headers={"Authorization": f"Bearer {player['token']}"})
            assert response.status_code == 422, hook
            assert response.json()["error"]["code"] == "webhook_not_public"
        assert (await api.call("GET", "/api/players/me/notifications", player["token"]))[
            "webhook"] is None
        await api.close()
