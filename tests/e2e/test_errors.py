"""Refusals reach people as readable messages, never as a silent nothing."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, whose_turn

pytestmark = pytest.mark.e2e


def _raw_move(client, version: int, move: dict, move_id: str) -> None:
    message = {"type": "move", "id": move_id, "version": version, "move": move}
    client.page.evaluate(f"window.ziggurat.sendRaw({json.dumps(message)})")


def test_bad_actions_show_the_servers_message(open_client) -> None:
    host, guest, late = open_client("host"), open_client("guest"), open_client("late")
    host.choose_name("Hana")
    link = host.create_lucent(seats=2)
    guest.take_seat_from_link(link, "Gus")
    host.page.get_by_test_id("start").click()
    expect(guest.page.get_by_test_id("pyramid")).to_be_visible()
    seated = {host.seat: host, guest.seat: guest}

    mover = whose_turn(host, seated)
    other = guest if mover is host else host
    legal = mover.state()["legal_moves"][0]

    # Out of turn: the server's own words appear on the page.
    _raw_move(other, other.version, legal, "out-of-turn")
    expect(other.toast()).to_contain_text("It is not your turn.")
    other.shot("error-not-your-turn")

    # Against the rules: a gem in mid-air.
    _raw_move(mover, mover.version, {"type": "place", "gem": legal["gem"], "row": 5, "pos": 0},
              "mid-air")
    expect(mover.toast()).to_contain_text("must rest on two gems")

    # Stale: a move chosen on a version that is gone.
    version = mover.play_one_gem()
    nxt = whose_turn(host, seated)
    nxt.wait_version(version)
    _raw_move(nxt, version - 1, nxt.state()["legal_moves"][0], "stale")
    expect(nxt.toast()).to_contain_text("The game moved on")
    expect(nxt.page.locator(APP)).to_have_attribute("data-my-turn", "true")  # still playable

    # A full room, joined by typing its code in the lobby: told so, and shown the game to watch.
    late.choose_name("Lena")
    code = link.rsplit("/r/", 1)[1]
    late.page.fill("#code-input", code.upper().replace("-", " "))
    late.page.get_by_role("button", name="Join room").click()
    expect(late.page).to_have_url(f"{late.base}/r/{code}")
    expect(late.page.get_by_test_id("banner")).to_contain_text("You are watching")
    expect(late.page.locator("[data-testid=hand-gem]")).to_have_count(0)

    # A spectator who tries to move anyway.
    _raw_move(late, late.version, legal, "watcher")
    expect(late.toast()).to_contain_text("only seated players move")

    # A room that does not exist.
    late.page.goto(f"{late.base}/r/zzz-zzz-zzz")
    expect(late.page.get_by_test_id("not-found")).to_contain_text("No such room")


def test_bad_variants_and_a_forgotten_token(open_client) -> None:
    player = open_client("player")
    player.choose_name("Vera")
    card = player.page.locator("[data-game=gem-pyramid]")
    player.open_variants(card)
    expect(card.get_by_label("Games in a Points series")).to_have_attribute("max", "9")
    card.get_by_label("Geomancer Point variant", exact=False).check()
    card.get_by_label("Use a Geomancer as the Focus Gem", exact=False).check()
    card.get_by_test_id("create-room").click()
    expect(player.toast()).to_contain_text("Geomancers are either dealt to players or used as "
                                           "the Focus Gem")
    player.shot("error-variants")

    # The server forgot us (a reset database): the page quietly makes a new player, same name.
    stored = player.page.evaluate("JSON.parse(localStorage.getItem('ziggurat.player'))")
    stale = {**stored, "token": "not-a-token-the-server-knows"}
    player.page.evaluate(f"localStorage.setItem('ziggurat.player', '{json.dumps(stale)}')")
    player.page.reload()
    expect(player.page.get_by_test_id("my-name")).to_have_text("Vera")
    player.page.wait_for_function("() => JSON.parse(localStorage.getItem('ziggurat.player')).token"
                                  " !== 'not-a-token-the-server-knows'")
    renewed = player.page.evaluate("JSON.parse(localStorage.getItem('ziggurat.player'))")
    assert renewed["name"] == "Vera" and renewed["id"] != stored["id"]
    player.create_lucent(seats=2)
    assert not player.page_errors


def test_public_rooms_are_listed_and_seats_fill_live(open_client) -> None:
    host, passer, visitor = open_client("host"), open_client("passer"), open_client("visitor")
    host.choose_name("Pia")
    link = host.create_lucent(seats=3, private=False)
    expect(host.page.get_by_test_id("waiting-room")).to_contain_text("this room is public")
    code = host.page.url.rsplit("/r/", 1)[1]

    passer.choose_name("Quin")
    row = passer.page.locator(f".room-row[data-code='{code}']")
    expect(row).to_contain_text("hosted by Pia", timeout=10_000)
    expect(row).to_contain_text("1/3 seats")
    passer.shot("lobby-public-rooms")
    row.get_by_role("button", name="Join").click()
    expect(passer.page.locator(APP)).to_have_attribute("data-seat", "1")
    expect(host.page.get_by_test_id("seats").locator(".lobby-seat.taken")).to_have_count(2)
    expect(host.page.get_by_test_id("start")).to_be_disabled()

    # Someone with a name already opens the link: a visitor until they take the seat, and
    # their socket then speaks for that seat.
    visitor.choose_name("Rae")
    visitor.page.goto(link)
    expect(visitor.page.get_by_test_id("banner")).to_contain_text("You are visiting")
    visitor.page.wait_for_function("() => window.ziggurat && window.ziggurat.state")
    assert visitor.state()["seat"] is None
    visitor.page.get_by_test_id("take-seat").click()
    expect(visitor.page.locator(APP)).to_have_attribute("data-seat", "2")
    visitor.page.wait_for_function(
        "() => window.ziggurat.state && window.ziggurat.state.seat === 2")
    expect(host.page.get_by_test_id("seats").locator(".dot.open")).to_have_count(3)
    expect(host.page.get_by_test_id("start")).to_be_enabled()
    host.page.get_by_test_id("start").click()
    expect(visitor.page.locator("[data-testid=hand-gem]")).not_to_have_count(0)
