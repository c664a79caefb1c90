"""The admin console in Chromium: a stuck room and an errored room found and unstuck by clicks."""

from __future__ import annotations

import sqlite3

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import APP
from tests.server import ADMIN_TOKEN

pytestmark = pytest.mark.e2e


def _started_room(base: str, host_name: str) -> str:
    """A started two-player Lucent room whose players have both walked away."""
    with httpx.Client(base_url=base, timeout=20) as http:
        host, guest = (http.post("/api/players", json={"name": n}).json()
                       for n in (host_name, "Gone Gina"))
        auth = {"Authorization": f"Bearer {host['token']}"}
        code = http.post("/api/rooms", headers=auth,
                         json={"game": "gem-pyramid", "seats": 2}).json()["code"]
        http.post(f"/api/rooms/{code}/join", headers={"Authorization": f"Bearer {guest['token']}"})
        assert http.post(f"/api/rooms/{code}/start", headers=auth).status_code == 200
        return code


def _confirm(page: Page, what: str) -> None:
    page.get_by_test_id(what).click()
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_test_id("confirm-yes").click()
    expect(dialog).to_have_count(0)


def _open_room(page: Page, section: str, code: str) -> None:
    row = page.get_by_test_id(f"section-{section}").locator(f"[data-code='{code}']")
    expect(row).to_be_visible()
    row.get_by_test_id("open-room").click()
    expect(page.get_by_test_id("room-detail").locator("h1")).to_contain_text(code)


def test_a_stuck_room_is_found_and_unstuck_by_clicking(open_client, server) -> None:
    code = _started_room(server.url, "Stuck Sam")
    broken = _started_room(server.url, "Errol")
    # A rule module crashed in `broken` (the real path is tested in tests/api/test_errored.py).
    db = server._env["DATABASE_URL"].split(":///", 1)[1]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET status='errored', error=? WHERE code=?",
                     ("Traceback (most recent call last):\nRuntimeError: boom in the rules",
                      broken))

    watcher = open_client("watcher")
    watcher.page.goto(f"{server.url}/r/{code}")
    expect(watcher.page.locator(APP)).to_have_attribute("data-version", "0")

    admin = open_client("admin")
    page = admin.page
    admin.admin_after_a_wrong_token(ADMIN_TOKEN)
    page.get_by_test_id("admin-who").fill("Ada")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("admin-name")).to_have_text("Ada")
    assert page.evaluate("localStorage.getItem('ziggurat.admin')") is None, "session only"

    # The errored room comes with its traceback; the stuck one is listed as stalled.
    errored = page.get_by_test_id("section-errored").locator(f"[data-code='{broken}']")
    errored.locator("summary").click()
    expect(errored.get_by_test_id("traceback")).to_contain_text("boom in the rules")
    # The list is redrawn on every refresh (every 15 s): the traceback being read stays open.
    page.evaluate("window.listBefore = document.querySelector('[data-testid=section-errored]')")
    page.get_by_test_id("refresh").click()
    page.wait_for_function("() => !window.listBefore.isConnected")
    expect(errored.get_by_test_id("traceback")).to_be_visible()
    # The server's stuck list names why, one click from the room (app/ops/stuck.py).
    stuck = page.get_by_test_id("section-stuck").locator(f"[data-code='{broken}']")
    expect(stuck.get_by_test_id("stuck-reason")).to_contain_text("A rule module raised")
    expect(stuck.get_by_test_id("open-room")).to_have_attribute("href", f"#room={broken}")
    page.get_by_test_id("stalled-minutes").fill("0")
    page.get_by_test_id("room-search").fill("stuck sam")
    expect(page.get_by_test_id("room-row")).to_have_count(1)
    row = page.get_by_test_id("section-stalled").locator(f"[data-code='{code}']")
    expect(row.locator(".chip[data-seat='0']")).to_have_attribute("data-acting", "true")
    expect(row.locator(".chip[data-seat='0']")).to_have_attribute("data-connected", "false")
    admin.shot("admin-rooms")

    _open_room(page, "stalled", code)
    expect(page.get_by_test_id("state")).to_contain_text("hands")
    seat0 = page.locator("[data-testid=seat-row][data-seat='0']")
    seat0.get_by_test_id("act-zombie").click()
    page.get_by_test_id("confirm-no").click()  # changed my mind: nothing happens
    expect(page.get_by_test_id("room-version")).to_have_text("0")
    seat0.get_by_test_id("act-zombie").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("room-version")).to_have_text("1")
    watcher.wait_version(1)  # the table sees the game move again

    # Seat 2's player is gone for good: a bot takes the seat and plays its turn.
    seat1 = page.locator("[data-testid=seat-row][data-seat='1']")
    seat1.get_by_test_id("act-bot").click()
    page.get_by_test_id("confirm-yes").click()
    watcher.wait_version(2)
    page.get_by_test_id("refresh").click()
    expect(page.get_by_test_id("room-version")).to_have_text("2")
    expect(seat1).to_contain_text("bot")

    # The admin may replay a game still in play, from any version, as any seat.
    page.locator("[data-testid=log-row][data-version='1']").get_by_test_id("replay-from").click()
    expect(page.locator(APP)).to_have_attribute("data-version", "1")
    expect(page.locator(APP)).to_have_attribute("data-last", "2")
    page.locator("[data-testid=view-seat][data-seat='1']").click()
    expect(page.locator(APP)).to_have_attribute("data-view-seat", "1")
    expect(page.get_by_test_id("hand-gem").first).to_be_visible()
    page.get_by_test_id("back-to-admin").click()

    # Roll back to the deal, previewed first from the log.
    page.locator("[data-testid=log-row][data-version='1']").get_by_test_id("preview-version").click()
    preview = page.get_by_test_id("preview")
    expect(preview).to_have_attribute("data-version", "1")
    expect(preview).to_contain_text("To act: Bot for Gone Gina")  # as the table names it
    page.locator("[data-testid=log-row][data-version='0']").get_by_test_id("preview-version").click()
    expect(preview).to_have_attribute("data-version", "0")
    expect(preview).to_contain_text("To act: Stuck Sam")
    _confirm(page, "rollback")
    expect(page.get_by_test_id("room-version")).to_have_text("0")
    watcher.wait_version(0)
    audit = page.get_by_test_id("audit").get_by_test_id("audit-row")
    expect(audit).to_have_count(3)
    expect(audit.first).to_contain_text("rolled back to version 0")
    expect(audit.first).to_contain_text("Ada")
    admin.shot("admin-room")

    # The errored room: roll back to its last good version, which clears the error.
    page.get_by_test_id("back").click()
    page.get_by_test_id("room-search").fill(broken)
    _open_room(page, "errored", broken)
    expect(page.get_by_test_id("traceback")).to_contain_text("boom in the rules")
    page.locator("[data-testid=log-row][data-version='0']").get_by_test_id("preview-version").click()
    _confirm(page, "rollback")
    expect(page.get_by_test_id("room-status")).to_have_text("active")
    expect(page.get_by_test_id("traceback")).to_have_count(0)
    assert not admin.page_errors and not watcher.page_errors
