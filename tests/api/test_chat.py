"""Room chat over the websocket: stored with the room, history on connect, plain text only,
length- and rate-limited, seen by spectators, and spectators muted by the host."""

from __future__ import annotations

from tests.api.client import Api, Conn


async def _said(conn: Conn, text: str) -> None:
    await conn.until(lambda c: any(m["text"] == text for m in c.chat), timeout=10)


async def test_players_and_spectators_chat_and_history_arrives_on_connect(api: Api) -> None:
    code, people, (ca, cb) = await api.started_pair()
    fan = await api.player("Fan")
    cf = await api.connect(code, fan["token"])
    anon = await api.connect(code)
    await ca.until(lambda c: c.watchers is not None and c.watchers["count"] == 2)
    assert ca.watchers["names"] == ["Fan"]  # the nameless visitor is only counted

    await ca.send({"type": "chat", "text": "  <b>hi</b> & good luck  "})
    for conn in (ca, cb, cf, anon):
        await _said(conn, "<b>hi</b> & good luck")  # stored as typed (trimmed), never as HTML
    line = ca.chat[-1]
    assert (line["name"], line["seat"], line["player"]) == ("A", 0, people[0]["id"])

    await cf.send({"type": "chat", "text": "go B!"})
    await _said(cb, "go B!")
    assert cb.chat[-1]["seat"] is None  # a spectator's line

    late = await api.connect(code, people[1]["token"])
    await late.until(lambda c: [m["text"] for m in c.chat][-2:] == ["<b>hi</b> & good luck",
                                                                    "go B!"])
    # a seated socket's greeting also says who watches (on Postgres, read with its seat count)
    await late.until(lambda c: c.watchers is not None and c.watchers["count"] == 2)
    assert late.watchers["names"] == ["Fan"]
    history = await api.call("GET", f"/api/rooms/{code}/chat")
    assert [m["text"] for m in history] == ["<b>hi</b> & good luck", "go B!"]
    for conn in (ca, cb, cf, anon, late):
        await conn.close()


async def test_bad_chat_is_refused_and_never_stored(api: Api) -> None:
    code, _people, (ca, cb) = await api.started_pair()
    await ca.send({"type": "chat", "text": "x" * 301})
    assert (await ca.reply())["code"] == "chat_too_long"
    await ca.send({"type": "chat", "text": " \u0000 \n "})
    assert (await ca.reply())["code"] == "chat_empty"
    await ca.send({"type": "chat", "text": 5})
    assert (await ca.reply())["code"] == "bad_message"
    anon = await api.connect(code)
    await anon.send({"type": "chat", "text": "hello"})
    assert (await anon.reply())["code"] == "chat_needs_name"
    assert await api.call("GET", f"/api/rooms/{code}/chat") == []
    for conn in (ca, cb, anon):
        await conn.close()


async def test_chat_is_rate_limited(api: Api) -> None:
    code, _people, (ca, cb) = await api.started_pair()
    for n in range(8):
        await ca.send({"type": "chat", "text": f"spam {n}"})
    assert (await ca.reply())["code"] == "chat_rate_limited"
    await _said(cb, "spam 4")
    stored = await api.call("GET", f"/api/rooms/{code}/chat")
    assert 5 <= len(stored) < 8
    for conn in (ca, cb):
        await conn.close()


async def test_the_host_mutes_spectators_but_not_players(api: Api) -> None:
    code, people, (ca, cb) = await api.started_pair()
    fan = await api.player("Fan")
    cf = await api.connect(code, fan["token"])
    await api.call("POST", f"/api/rooms/{code}/chat/mute", people[1]["token"], 403,
                   json={"muted": True})
    room = await api.call("POST", f"/api/rooms/{code}/chat/mute", people[0]["token"],
                          json={"muted": True})
    assert room["spectators_muted"] is True
    await cf.until(lambda c: c.room is not None and c.room["spectators_muted"])
    await cf.send({"type": "chat", "text": "can you hear me?"})
    assert (await cf.reply())["code"] == "chat_muted"
    await cb.send({"type": "chat", "text": "players still talk"})
    await _said(cf, "players still talk")  # muted spectators still read
    await api.call("POST", f"/api/rooms/{code}/chat/mute", people[0]["token"],
                   json={"muted": False})
    await cf.send({"type": "chat", "text": "thanks"})
    await _said(ca, "thanks")
    texts = [m["text"] for m in await api.call("GET", f"/api/rooms/{code}/chat")]
    assert texts == ["players still talk", "thanks"]
    for conn in (ca, cb, cf):
        await conn.close()
