"""Admin: find rooms, inspect everything, replace seats, force moves, roll back, abort."""

from __future__ import annotations

from tests.api.client import Api


async def _game(api: Api) -> tuple[str, dict, dict]:
    a, b = await api.player("A"), await api.player("B")
    code = await api.room_with("gem-pyramid", [a, b])
    await api.start(code, a)
    return code, a, b


async def test_admin_needs_the_admin_token(api: Api) -> None:
    player = await api.player("Nosy")
    refused = await api.call("GET", "/api/admin/rooms", player["token"], 403)
    assert refused["error"]["code"] == "not_admin"


async def test_admin_sees_the_whole_state_and_log(api: Api) -> None:
    code, a, _ = await _game(api)
    conn = await api.connect(code, a["token"])
    await conn.until(lambda c: c.state is not None)
    await conn.move(conn.state["legal_moves"][0])
    listed = await api.admin("GET", "/api/admin/rooms?status=active".removeprefix("/api/admin"))
    assert code in {r["code"] for r in listed}
    inside = await api.admin("GET", f"/rooms/{code}")
    assert inside["state"]["hands"][1], "the admin sees every hand"
    assert inside["to_act"] == [1] and len(inside["log"]) == 1
    await conn.close()


async def test_stalled_rooms_are_found(api: Api) -> None:
    code, _, _ = await _game(api)
    stalled = await api.admin("GET", "/rooms?stalled_minutes=0")
    assert code in {r["code"] for r in stalled}
    fresh = await api.admin("GET", "/rooms?stalled_minutes=60")
    assert code not in {r["code"] for r in fresh}


async def test_force_a_zombie_move_then_roll_back(api: Api) -> None:
    code, _, _ = await _game(api)
    watcher = await api.connect(code)
    forced = await api.admin("POST", f"/rooms/{code}/zombie", json={"seat": 0})
    assert forced["version"] == 1
    await api.admin("POST", f"/rooms/{code}/zombie", json={"seat": 1})
    refused = await api.admin("POST", f"/rooms/{code}/zombie", expect=409, json={"seat": 1})
    assert refused["error"]["code"] == "not_your_turn"
    await watcher.until(lambda c: c.state["version"] == 2)
    rolled = await api.admin("POST", f"/rooms/{code}/rollback", json={"version": 1})
    assert rolled == {"version": 1, "status": "active"}
    await watcher.until(lambda c: c.state["version"] == 1 and c.state["to_act"] == [1])
    log = await api.call("GET", f"/api/rooms/{code}/moves")
    assert [m["version"] for m in log] == [1]
    await watcher.close()


async def test_replace_a_seat_with_a_bot_and_abort(api: Api) -> None:
    code, a, _ = await _game(api)
    conn = await api.connect(code, a["token"])
    await conn.until(lambda c: c.state is not None)
    await conn.move(conn.state["legal_moves"][0])
    await api.admin("POST", f"/rooms/{code}/bot", json={"seat": 1})
    await conn.until(lambda c: c.state["version"] >= 2)
    assert conn.room["seats"][1]["bot"] == "normal"
    await api.admin("POST", f"/rooms/{code}/abort")
    await conn.until(lambda c: c.state["status"] == "aborted")
    reply = await conn.move({"type": "place", "gem": "red", "row": 0, "pos": 3})
    assert reply["code"] == "game_over"
    await conn.close()
