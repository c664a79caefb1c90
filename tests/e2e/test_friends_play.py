"""Three friends play Lucent in a private room, watched by a fourth, through to a rematch."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import APP, Client, play_to_the_end

pytestmark = pytest.mark.e2e


def test_three_friends_play_a_whole_game_of_lucent(open_client) -> None:
    host, bea, cyd, watcher = (open_client(n) for n in ("host", "bea", "cyd", "watcher"))
    socket_urls: list[str] = []
    bea.page.on("websocket", lambda ws: socket_urls.append(ws.url))

    host.choose_name("Ada")
    host.shot("lobby")
    link = host.create_lucent(seats=3)
    assert "/r/" in link
    host.wait_live()

    # Friends arrive by the invite link; the host sees each seat fill, live and connected.
    bea.take_seat_from_link(link, "Bea")
    cyd.take_seat_from_link(link, "Cyd")
    seats = host.page.get_by_test_id("seats")
    expect(seats.locator("li")).to_contain_text(["Ada", "Bea", "Cyd"])
    expect(seats.locator(".dot.open")).to_have_count(3)
    host.shot("waiting-room-full")

    # A fourth person opens the link without joining: every seat is taken, they may watch.
    watcher.page.goto(link)
    expect(watcher.page.get_by_test_id("waiting-room")).to_contain_text("Every seat is taken")
    expect(watcher.page.get_by_role("button", name="Take a seat")).to_have_count(0)
    expect(bea.page.get_by_test_id("start")).to_have_count(0)  # only the host starts

    # Bea's token travels as a websocket subprotocol, never in a URL that logs would keep.
    assert socket_urls and not any("token" in url for url in socket_urls), socket_urls

    host.page.get_by_test_id("start").click()
    for client in (host, bea, cyd, watcher):
        expect(client.page.get_by_test_id("pyramid")).to_be_visible()
    seated = {c.seat: c for c in (host, bea, cyd)}
    assert sorted(seated) == [0, 1, 2]
    expect(watcher.page.locator("[data-testid=hand-gem]")).to_have_count(0)
    expect(watcher.page.get_by_test_id("banner")).to_contain_text("You are watching")

    def midgame(moves: int, mover: Client) -> None:
        if moves == 4:
            mover.shot("lucent-after-4-moves")
            watcher.shot("lucent-spectator")
        if moves == 6:
            # Reload a player's page mid-game: it resumes exactly where the game is.
            version, hand = mover.version, mover.state()["view"]["hand"]
            mover.page.reload()
            mover.wait_live()
            mover.wait_version(version)
            assert mover.state()["view"]["hand"] == hand
            expect(mover.page.get_by_test_id("log").locator("li").first).to_have_attribute(
                "data-version", str(version))
            assert mover.gems_on_board() == watcher.gems_on_board()
        if moves == 9:
            # The socket drops (a train tunnel): the page reconnects by itself.
            bea.page.evaluate("window.ziggurat.page.ws.close()")
            expect(bea.page.locator(APP)).to_have_attribute("data-conn", "closed")
            bea.wait_live()

    played = play_to_the_end(watcher, seated, on_move=midgame)
    assert played >= 10

    # Everyone, the spectator included, sees the same end screen and the whole log.
    for client in (host, bea, cyd, watcher):
        end = client.page.get_by_test_id("end-screen")
        expect(end).to_be_visible()
        expect(end).to_contain_text("placed the last gem")
        expect(end.get_by_test_id("scores").locator("tbody tr")).to_have_count(3)
    outcome = watcher.state()["outcome"]
    winner = seated[outcome["winners"][0]]
    expect(winner.page.get_by_test_id("end-screen")).to_contain_text("You win!")
    log = watcher.page.get_by_test_id("log")
    expect(log).to_contain_text("placed the last gem and wins")
    expect(log).to_contain_text("Ada placed a")
    assert watcher.gems_on_board() == host.gems_on_board() > 0
    host.shot("lucent-end-host")
    watcher.shot("lucent-end-spectator")
    assert not any(c.page_errors for c in (host, bea, cyd, watcher))

    # Play again: the first press makes the room, the others are offered to join it.
    bea.page.get_by_test_id("play-again").click()
    expect(bea.page.get_by_test_id("waiting-room")).to_be_visible()
    new_code = bea.page.url.rsplit("/r/", 1)[1]
    assert new_code not in link
    for client in (host, cyd):
        client.page.get_by_test_id("join-next").click()
        expect(client.page).to_have_url(f"{client.base}/r/{new_code}")
        expect(client.page.get_by_test_id("waiting-room")).to_be_visible()
    expect(watcher.page.get_by_test_id("join-next")).to_have_text("Watch the next game")
    expect(bea.page.get_by_test_id("seats").locator(".lobby-seat.taken")).to_have_count(3)
    bea.shot("play-again-room")
