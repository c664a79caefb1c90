"""The outbox across processes on real Postgres: two servers share it and each "your turn" is
mailed once; a server killed (SIGKILL) after the move's commit, or in the middle of sending,
loses nothing: the mail goes out after the restart."""

from __future__ import annotations

import asyncio
import signal
import threading
import time

from tests.api.client import Api
from tests.notify.parts import (
    WAIT,
    Mailbox,
    guest_moves,
    host_moves,
    outbox,
    server_for,
    settled,
    started,
    turn_based_pair,
    verified,
)
from tests.server import Server, postgres_database


def _kill(server: Server) -> None:
    assert server.proc is not None
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait()


async def test_two_processes_mail_each_turn_once(mailbox: Mailbox) -> None:
    with postgres_database() as url, started(server_for(url, mailbox)) as one, \
            started(server_for(url, mailbox)) as two:
        apis = [Api(one.url), Api(two.url)]
        host, guest = await apis[0].player("Host"), await apis[0].player("Guest")
        address = "twice@example.org"
        await verified(apis[1], guest, address, mailbox)
        code, conn = await turn_based_pair(apis[0], host, guest)
        versions = []
        for turn in range(1, 5):
            versions.append(await host_moves(conn))
            await mailbox.wait_for(address, "Your turn", turn)  # both workers were looking
            await guest_moves(apis[turn % 2], code, guest)
        rows = await outbox(url, room_code=code, kind="your_turn")
        for row in rows:
            await settled(url, row.id)
        rows = await outbox(url, room_code=code, kind="your_turn")
        assert sorted(r.version for r in rows if r.status == "sent") == versions
        mails = [m for m in mailbox.to(address) if "Your turn" in m["Subject"]]
        assert len(mails) == len(versions)
        assert len({m["Message-ID"] for m in mails}) == len(versions)
        await conn.close()
        for api in apis:
            await api.close()


async def test_a_kill_after_the_commit_still_mails(mailbox: Mailbox) -> None:
    with postgres_database() as url:
        # "Your turn" falls due 5 s after the move: the server is killed long before.
        server = server_for(url, mailbox, NOTIFY_AFTER_SECONDS="5").start()
        api = Api(server.url)
        host, guest = await api.player("Host"), await api.player("Guest")
        address = "killed@example.org"
        await verified(api, guest, address, mailbox)
        code, conn = await turn_based_pair(api, host, guest)
        version = await host_moves(conn)  # acknowledged: committed with its outbox row
        _kill(server)
        server.stop()
        [row] = await outbox(url, room_code=code, version=version, kind="your_turn")
        assert row.status == "pending"
        await api.close()
        with started(server_for(url, mailbox)) as again:
            [mail] = await mailbox.wait_for(address, "Your turn")
            assert f"{again.url}/r/{code}" in mail.get_body(("plain",)).get_content()
        assert (await settled(url, row.id)).status == "sent"


async def test_a_kill_in_the_middle_of_sending_still_mails(mailbox: Mailbox) -> None:
    with postgres_database() as url:
        server = server_for(url, mailbox, NOTIFY_CLAIM_SECONDS="3").start()
        api = Api(server.url)
        player = await api.player("Midway")
        address = "midway@example.org"
        release = threading.Event()
        mailbox.hang[address] = release
        await api.call("PUT", "/api/players/me/notifications", player["token"],
                       json={"email": address})
        deadline = time.monotonic() + WAIT
        while address not in mailbox.hung:  # the server is inside the SMTP conversation
            assert time.monotonic() < deadline, "the verification mail was never sent"
            await asyncio.sleep(0.05)
        [row] = await outbox(url, player_id=player["id"], kind="verify")
        assert row.status == "sending"
        _kill(server)
        server.stop()
        del mailbox.hang[address]
        release.set()
        await api.close()
        with started(server_for(url, mailbox, NOTIFY_CLAIM_SECONDS="3")):
            [mail] = await mailbox.wait_for(address, "Confirm your address")
            assert mail["To"] == address
        assert (await settled(url, row.id)).status == "sent"
