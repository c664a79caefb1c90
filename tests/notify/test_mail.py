"""Notifications by e-mail, against a real SMTP server (aiosmtpd) in the test process and real
server processes on SQLite and Postgres: the address verified by a link before anything else,
"your turn" to a player away from a turn-based room (never to one who is looking), the
reminder, the end with its result, the one-click unsubscribe, the daily digest, and retries
while the SMTP server is down."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.api.client import Api
from tests.notify.parts import (
    Mailbox,
    attempted,
    due_now,
    guest_moves,
    host_moves,
    links,
    outbox,
    server_for,
    settled,
    started,
    text_of,
    turn_based_pair,
    verified,
)
from tests.server import Server, database


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, mailbox: Mailbox) -> Iterator[tuple[Server, str]]:
    with database(request.param) as url, started(server_for(url, mailbox)) as server:
        yield server, url


@pytest.fixture
async def api(served: tuple[Server, str]) -> Api:
    client = Api(served[0].url)
    yield client
    await client.close()


def _address(name: str, served: tuple[Server, str]) -> str:
    return f"{name}-{served[0].port}@example.org"


async def test_your_turn_after_verification_and_unsubscribe(
        api: Api, served: tuple[Server, str], mailbox: Mailbox) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    address = _address("guest", served)
    code, conn = await turn_based_pair(api, host, guest)
    # An address not verified yet is sent the verification mail and nothing else.
    stored = await api.call("PUT", "/api/players/me/notifications", guest["token"],
                            json={"email": address, "webhook": None, "digest": False})
    assert stored == {"email": address, "email_verified": False, "webhook": None,
                      "digest": False}
    first = await host_moves(conn)
    assert await outbox(served[1], room_code=code) == []  # no channel yet: nothing written
    [confirm] = await mailbox.wait_for(address, "Confirm your address")
    [link] = links(confirm)
    assert (await api.http.get(link)).status_code == 200
    assert (await api.http.get(link)).status_code == 404  # used once
    assert (await api.call("GET", "/api/players/me/notifications", guest["token"]))[
        "email_verified"] is True
    await guest_moves(api, code, guest)
    version = await host_moves(conn)
    [mail] = await mailbox.wait_for(address, "Your turn")
    body = text_of(mail)
    assert f"/r/{code}" in body and "Lucent" in body
    assert mail["List-Unsubscribe"] and mail["List-Unsubscribe-Post"]
    # Nothing of the game itself: no view, no move, no card.
    assert "legal" not in body and "{" not in body and "view" not in body
    rows = await outbox(served[1], room_code=code, kind="your_turn")
    assert [(r.version, r.channel, r.status) for r in rows] == [(version, "email", "sent")]
    assert first < version
    # One click on the unsubscribe link, no sign-in: no more mail, no more rows.
    unsubscribe = next(u for u in links(mail) if "/unsubscribe/" in u)
    assert mail["List-Unsubscribe"] == f"<{unsubscribe}>"
    # The mail client's one-click button (RFC 8058): a POST, no cookie, no token.
    one_click = await api.http.post(unsubscribe, content="List-Unsubscribe=One-Click",
                                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert one_click.status_code == 200
    assert (await api.http.get(unsubscribe)).status_code == 200  # the same answer again
    assert (await api.call("GET", "/api/players/me/notifications", guest["token"]))[
        "email"] is None
    await guest_moves(api, code, guest)
    after = await host_moves(conn)
    assert [r for r in await outbox(served[1], room_code=code) if r.version == after] == []
    await conn.close()


async def test_no_mail_while_the_player_is_looking(api: Api, served: tuple[Server, str],
                                                   mailbox: Mailbox) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    address = _address("looking", served)
    await verified(api, guest, address, mailbox)
    code, conn = await turn_based_pair(api, host, guest)
    watching = await api.connect(code, guest["token"])  # the guest has the room open
    await watching.until(lambda c: c.state is not None)
    version = await host_moves(conn)
    [row] = await outbox(served[1], room_code=code, version=version, kind="your_turn")
    row = await settled(served[1], row.id)  # the worker's verdict once it fell due
    assert row.status == "dropped" and [m for m in mailbox.to(address)
                                        if "Your turn" in m["Subject"]] == []
    await watching.close()
    await conn.close()


async def test_the_reminder_and_the_end(api: Api, served: tuple[Server, str],
                                        mailbox: Mailbox) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    address = _address("end", served)
    await verified(api, guest, address, mailbox)
    code, conn = await turn_based_pair(api, host, guest)
    await host_moves(conn)
    await due_now(served[1], "reminder")  # due when a quarter of the hour is left
    [reminder] = await mailbox.wait_for(address, "Reminder")
    assert f"/r/{code}" in text_of(reminder) and "quarter" in text_of(reminder)
    # Play on to the end: the guest opens the room only to move.
    chooser = random.Random(7)
    while True:
        await conn.until(lambda c: c.state is not None and (
            bool(c.state["legal_moves"]) or c.state["status"] == "finished"
            or c.state["to_act"] != [0]))
        if conn.state["status"] == "finished":
            break
        if conn.state["legal_moves"]:
            reply = await conn.move(chooser.choice(conn.state["legal_moves"]))
            assert reply["type"] == "ack"
            await conn.until(lambda c, v=reply["version"]: c.state["version"] >= v)
        else:
            seen = conn.state["version"]
            await guest_moves(api, code, guest)
            await conn.until(lambda c, v=seen: c.state["version"] > v)
    [end] = await mailbox.wait_for(address, "is over")
    assert "Final standings" in text_of(end) and "Guest" in text_of(end)
    await conn.close()


async def test_the_daily_digest(api: Api, served: tuple[Server, str],
                                mailbox: Mailbox) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    address = _address("digest", served)
    await verified(api, guest, address, mailbox)
    stored = await api.call("PUT", "/api/players/me/notifications", guest["token"],
                            json={"email": address, "webhook": None, "digest": True})
    assert stored["digest"] is True and stored["email_verified"] is True  # same address
    code, conn = await turn_based_pair(api, host, guest)
    await host_moves(conn)
    [digest] = await mailbox.wait_for(address, "Your games today")
    assert f"/r/{code}" in text_of(digest) and "Your turn" in text_of(digest)
    assert [m for m in mailbox.to(address) if m["Subject"].startswith("Your turn")] == []
    assert {r.status for r in await outbox(served[1], room_code=code, kind="your_turn")} \
        == {"sent"}
    await conn.close()


async def test_bad_settings_are_refused(api: Api) -> None:
    player = await api.player("P")
    for body, code in (({"email": "not an address"}, "bad_email"),
                       ({"webhook": "ftp://example.org/x"}, "bad_webhook")):
        response = await api.http.put("/api/players/me/notifications", json=body,
                                      headers={"Authorization": f"Bearer {player['token']}"})
        assert response.status_code == 422 and response.json()["error"]["code"] == code
    response = await api.http.put("/api/players/me/notifications", json={"email": "a@b.org"})
    assert response.status_code == 401
    assert (await api.http.get("/api/notify/unsubscribe/nothing")).status_code == 404


async def test_retries_while_the_smtp_server_is_down(api: Api, served: tuple[Server, str],
                                                     mailbox: Mailbox) -> None:
    player = await api.player("Patient")
    address = _address("patient", served)
    mailbox.stop()
    try:
        await api.call("PUT", "/api/players/me/notifications", player["token"],
                       json={"email": address})
        rows = await attempted(served[1], player["id"], "verify", 2)
        assert rows[0].status in ("pending", "sending") and rows[0].error
    finally:
        mailbox.start()
    await mailbox.wait_for(address, "Confirm your address")
    [row] = await outbox(served[1], player_id=player["id"], kind="verify")
    assert row.status == "sent" and row.attempts >= 2


async def test_mail_caps_per_address_and_per_player(mailbox: Mailbox) -> None:
    """Someone typing another person's address again and again gets them one mail; a player
    gets at most their day's count, whatever the addresses."""
    with database("sqlite") as url, started(server_for(
            url, mailbox, MAILS_PER_ADDRESS_PER_DAY="1", MAILS_PER_PLAYER_PER_DAY="2")) as srv:
        api = Api(srv.url)
        pest, other = await api.player("Pest"), await api.player("Other")
        victim = f"victim-{srv.port}@example.org"
        for player in (pest, other):
            await api.call("PUT", "/api/players/me/notifications", player["token"],
                           json={"email": victim})
        rows = await outbox(url, kind="verify")
        settled_rows = [await settled(url, row.id) for row in rows]
        assert sorted(r.status for r in settled_rows) == ["dropped", "sent"]
        assert "cap" in next(r for r in settled_rows if r.status == "dropped").error
        assert len(mailbox.to(victim)) == 1
        sender = pest if settled_rows[0].status == "sent" else other
        for n in range(2):  # the sender's second mail goes out, the third does not
            address = f"mine{n}-{srv.port}@example.org"
            await api.call("PUT", "/api/players/me/notifications", sender["token"],
                           json={"email": address})
            [row] = await outbox(url, kind="verify", address=address)
            row = await settled(url, row.id)
            assert row.status == ("sent" if n == 0 else "dropped"), row
        await api.close()


async def test_the_first_turn_of_a_game_is_told_too(api: Api, served: tuple[Server, str],
                                                    mailbox: Mailbox) -> None:
    """Temple of Five opens with every seat to act: the guest away is told at the start."""
    host, guest = await api.player("Host"), await api.player("Guest")
    address = _address("first", served)
    await verified(api, guest, address, mailbox)
    code, conn = await turn_based_pair(api, host, guest, game="temple-of-five")
    [mail] = await mailbox.wait_for(address, "Your turn in Temple of Five")
    assert f"/r/{code}" in text_of(mail)
    [row] = await outbox(served[1], room_code=code, kind="your_turn")
    assert (row.version, row.seat, row.player_id) == (0, 1, guest["id"])
    await conn.close()
