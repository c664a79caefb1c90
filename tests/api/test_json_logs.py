"""LOG_FORMAT=json (app/ops/logs.py): a line per request and socket event, room and player
named where known, and no token anywhere in the log, however it was sent."""

from __future__ import annotations

import json
import random

from tests.api.client import Api, play_to_end
from tests.server import ADMIN_TOKEN, database, running_server


async def test_json_lines_name_room_and_player_and_never_a_token() -> None:
    with database("sqlite") as url, running_server(url, LOG_FORMAT="json") as server:
        api = Api(server.url)
        code, people, conns = await api.started_pair()
        await play_to_end(conns, random.Random(5))
        tokens = [p["token"] for p in people]
        # a token in the URL (a websocket's ?token=), as a subprotocol, in headers, and wrong
        conns.append(await api.connect(code, tokens[0]))
        await conns[-1].until(lambda c: c.state is not None)
        await api.call("GET", f"/api/rooms/{code}/moves?token={tokens[1]}", tokens[1])
        await api.call("GET", "/api/players/me", "wrong-" + tokens[0], expect=401)
        await api.admin("GET", f"/rooms/{code}")
        missing = await api.connect("NO-SUCH-ROOM", tokens[1])
        await missing.reader  # refused: the server closes it
        for conn in conns:
            await conn.close()
        await api.close()
        server.stop()  # the last lines (socket closes, shutdown) are written
        text = server.log()
    for secret in [*tokens, ADMIN_TOKEN]:
        assert secret not in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    assert len(lines) > 10
    requests = [line for line in lines if line.get("event") == "request"]
    moves_read = [r for r in requests if r["path"] == f"/api/rooms/{code}/moves"]
    assert moves_read and moves_read[0]["room"] == code
    assert moves_read[0]["player"] == people[1]["id"] and moves_read[0]["status"] == 200
    assert all({"time", "level", "method", "status", "ms"} <= set(r) for r in requests)
    opened = [line for line in lines if line.get("event") == "socket_open"]
    assert {(line["room"], line["player"]) for line in opened} == {
        (code, people[0]["id"]), (code, people[1]["id"])}
    closed = [line for line in lines if line.get("event") == "socket_close"]
    assert len(closed) == len(opened)
    refused = [line for line in lines if line.get("event") == "socket_refused"]
    assert refused and refused[0]["error"] == "room_not_found"
    # nothing is left in the old text format (uvicorn's access lines gave way to these)
    assert all(line.startswith("{") for line in text.splitlines() if line.strip()), \
        [line for line in text.splitlines() if not line.startswith("{")][:5]
