"""Turn clocks in the browser: chosen in the lobby, counted down beside the seat to act."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_the_countdown_runs_beside_the_seat_to_act(open_client) -> None:
    me = open_client("clocked")
    me.choose_name("Tick")
    card = me.page.locator("[data-game=gem-pyramid]")
    card.get_by_test_id("turn-clock-choice").select_option("30")
    me.create_lucent(seats=2)
    me.page.get_by_test_id("add-bot").first.click()
    me.page.get_by_test_id("start").click()
    expect(me.page.get_by_test_id("pyramid")).to_be_visible()
    acting = me.page.locator("[data-testid=player][data-acting=true]")
    clock = acting.get_by_test_id("turn-clock")
    expect(clock).to_have_text(re.compile(r"^(30|29|28|27) s$"))
    first = int(clock.inner_text().split()[0])
    expect(clock).not_to_have_text(f"{first} s", timeout=3_000)  # it ticks down
    assert int(clock.inner_text().split()[0]) < first
    expect(me.page.locator("[data-testid=player][data-acting=false]")
           .get_by_test_id("turn-clock")).to_have_count(0)
    me.shot("turn-clock")
    assert not me.page_errors


def test_a_seat_out_of_time_moves_and_the_log_says_so(open_client, server) -> None:
    with httpx.Client(base_url=server.url) as http:
        people = [http.post("/api/players", json={"name": n}).json() for n in ("Late", "Later")]
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
        room = http.post("/api/rooms", headers=auth[0],
                         json={"game": "gem-pyramid", "seats": 2, "turn_clock": 2}).json()
        http.post(f"/api/rooms/{room['code']}/join", headers=auth[1]).raise_for_status()
        http.post(f"/api/rooms/{room['code']}/start", headers=auth[0]).raise_for_status()
    fan = open_client("fan")
    fan.page.goto(f"{server.url}/r/{room['code']}")
    expect(fan.page.locator("[data-testid=player][data-acting=true]")
           .get_by_test_id("turn-clock")).to_be_visible()
    # The line arrives with the push, live: no reload, no log fetch.
    # The room has no stand-in level of its own: the server's BOT_LEVEL (normal) moved.
    expect(fan.page.get_by_text("Late ran out of time: a normal bot chose the move.")
           ).to_be_visible(timeout=10_000)
    assert not fan.page_errors


def test_the_host_removes_a_seat_in_the_waiting_room(open_client) -> None:
    host = open_client("host")
    host.choose_name("Hostess")
    host.create_lucent(seats=2)
    host.page.get_by_test_id("add-bot").first.click()
    seats = host.page.get_by_test_id("seats")
    expect(seats.locator(".tag.bot")).to_have_count(1)
    host.page.get_by_test_id("remove-seat").click()
    expect(seats.locator(".tag.bot")).to_have_count(0)
    expect(host.page.get_by_test_id("add-bot")).to_have_count(1)
    assert not host.page_errors
