"""Two friends play a whole game of 5 Realms by clicking, one of them on a phone.

Every step, the page of the seat to act must offer exactly its legal moves as buttons (nothing
legal unreachable, nothing illegal offered) and the other page none; one offered control is
clicked. Whenever a player looks at secret character sides (recruiting, the Witch), the other
page must not show any of those names.
"""

from __future__ import annotations

import json
import random
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import ARTIFACTS, Client, start_pair

pytestmark = pytest.mark.e2e
PHONE_WIDTH = 390
MAX_STEPS = 600
SECRET_KINDS = ("recruit", "witch")

SNAPSHOT = """() => {
  const s = window.ziggurat && window.ziggurat.state;
  const controls = [...document.querySelectorAll('[data-testid=fr-move]')];
  return {
    version: s ? s.version : -1,
    status: s ? s.status : null,
    toAct: s ? s.to_act : [],
    kind: s && s.view && s.view.pending ? s.view.pending.kind : null,
    myTurn: document.querySelector('#app').dataset.myTurn === 'true',
    legal: s ? s.legal_moves : [],
    offered: controls.map((b) => b.dataset.move),
    disabled: controls.filter((b) => b.disabled).length,
  };
}"""


SETTLED = "v => window.ziggurat.state.version > v && !window.ziggurat.page.pending.size"


def create_five_realms(client: Client) -> str:
    """From the lobby, make a 5 Realms room; returns its invite link."""
    card = client.page.locator("[data-game=five-realms]")
    expect(card).to_be_visible()
    card.get_by_test_id("create-room").click()
    expect(client.page.get_by_test_id("waiting-room")).to_be_visible()
    return client.page.get_by_test_id("invite-link").input_value()


def canon(moves: list) -> list[str]:
    return sorted(json.dumps(m, sort_keys=True) for m in moves)


def names_in(value) -> set[str]:
    """Every character name anywhere in a view (the `name` of each card it shows)."""
    found: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("name"), str) and "card" in value:
            found.add(value["name"])
        for item in value.values():
            found |= names_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= names_in(item)
    return found


def wait_synced(client: Client, version: int) -> None:
    client.page.wait_for_function(
        "v => window.ziggurat && window.ziggurat.state && window.ziggurat.state.version === v",
        arg=version)


def check_secrets(mover: Client, other: Client) -> int:
    """The other page shows none of the character sides only the mover is looking at."""
    view, theirs = mover.state()["view"], other.state()["view"]
    if view["pending"]["kind"] == "recruit":
        secret_cards = [c for c in view["hand"] if c["name"]]
    else:
        secret_cards = [c for c in view["discard"]["cards"] if c["name"]]
    shown = {c["card"]: c for c in theirs["hand"] + theirs["discard"]["cards"]}
    public = names_in(theirs)
    hidden = {c["name"] for c in secret_cards if shown[c["card"]]["name"] is None} - public
    for card in secret_cards:  # the server never sends the other seat an unseen face
        if shown[card["card"]]["name"] is None:
            assert shown[card["card"]]["character"] is None
    text = other.page.get_by_test_id("board").inner_text()
    leaks = [name for name in hidden if name in text]
    assert not leaks, f"{other.label}'s page shows secret character names {leaks}"
    return len(hidden)


def shot(client: Client, name: str, full: bool = False) -> None:
    """A screenshot in tests/e2e/artifacts (the viewport only unless `full`: they are slow)."""
    client.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


def watch_once(open_client, link: str, mover: Client, version: int) -> bool:
    """Open the room as a spectator while `mover` looks at secrets; check and leave."""
    spectator = open_client("spectator")
    spectator.page.goto(link)
    wait_synced(spectator, version)
    expect(spectator.page.get_by_test_id("fr-prompt")).to_contain_text(
        "looking at the collected characters")
    expect(spectator.page.get_by_test_id("banner")).to_contain_text("You are watching")
    assert spectator.page.locator("[data-testid=fr-move]").count() == 0
    check_secrets(mover, spectator)
    shot(spectator, "five-realms-spectator", full=True)
    assert not spectator.page_errors, spectator.page_errors
    spectator.page.goto("about:blank")
    return True


def check_latest_turn_marked(mover: Client, other: Client, other_name: str) -> int:
    """At the start of a turn, the card the other player placed last turn, if still on Alkane,
    is marked with their name; the cards they took are marked where they went. 1 if checked."""
    view = mover.state()["view"]
    recent = view["recent"]
    on_alkane = {c["card"] for c in view["square"]["cards"]}
    if not recent or recent["seat"] == mover.seat or recent["placed"] not in on_alkane:
        return 0
    marked = mover.page.locator("[data-testid=alkane-card][data-recent=true]")
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text(f"placed by {other_name}")
    theirs = view["players"][recent["seat"]]
    kept = {c["card"] for c in theirs["council"] + theirs["titans"]}
    kept |= {c["card"] for column in theirs["influence"].values() for c in column}
    if kept & set(recent["cards"]):  # a recruit, a Titan, or influence (+n just now)
        marks = mover.page.locator("[data-recent=true], [data-testid=fr-added]")
        assert marks.count() >= 2, "the cards taken last turn are not marked"
    return 1


def fits_the_screen(client: Client) -> None:
    width = client.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"the page is {width}px wide on a {PHONE_WIDTH}px screen"


def test_two_friends_play_a_whole_game_of_five_realms(open_client) -> None:
    started = time.monotonic()
    host, guest, link = start_pair(open_client, create_five_realms, phone=True)
    for client in (host, guest):
        expect(client.page.get_by_test_id("alkane")).to_be_visible()
        expect(client.page.get_by_test_id("alkane-card")).to_have_count(6)
        expect(client.page.get_by_test_id("fr-player")).to_have_count(2)
        assert client.page.locator('link[href="/static/games/five-realms.css"]').count() == 1
    seated = {c.seat: c for c in (host, guest)}
    assert sorted(seated) == [0, 1]
    fits_the_screen(guest)

    rng = random.Random(5)
    shots: set[str] = set()
    kinds_seen: dict[str, int] = {}
    secrets_checked = 0
    steps = 0
    watched = False
    recent_checked = 0
    names = {host.label: "Ada", guest.label: "Bea"}
    keyboard_user: Client | None = None
    while True:
        assert steps < MAX_STEPS, "the game does not end"
        seen = host.page.evaluate(SNAPSHOT)
        if seen["status"] == "finished":
            break
        assert seen["status"] == "active" and seen["toAct"], seen
        mover = seated[seen["toAct"][0]]
        other = guest if mover is host else host
        snap = seen if mover is host else mover.page.evaluate(SNAPSHOT)
        quiet = seen if other is host else other.page.evaluate(SNAPSHOT)
        version = snap["version"]
        assert quiet["version"] == version and not quiet["offered"], quiet
        assert snap["myTurn"], "the banner and data-my-turn say it is not my turn"
        assert snap["offered"], f"no control offered for {snap['legal']}"
        assert canon(json.loads(m) for m in snap["offered"]) == canon(snap["legal"])
        assert snap["disabled"] == 0

        kind = snap["kind"]
        kinds_seen[kind] = kinds_seen.get(kind, 0) + 1
        if kind == "place" and recent_checked < 5:
            recent_checked += check_latest_turn_marked(mover, other, names[other.label])
        if kind in SECRET_KINDS:
            secrets_checked += check_secrets(mover, other)
            if kind == "recruit" and steps >= 20 and not watched:  # a spectator sees none
                watched = watch_once(open_client, link, mover, version)
        if kind not in shots:
            shots.add(kind)
            shot(mover, f"five-realms-{kind}-{mover.label}", full=kind == "recruit")
            if kind == "recruit":
                shot(other, f"five-realms-{kind}-watching-{other.label}")

        controls = mover.page.locator("[data-testid=fr-move]")
        control = controls.nth(rng.randrange(len(snap["offered"])))
        if steps == 0:  # the very first move by keyboard: the controls are real buttons
            control.focus()
            mover.page.keyboard.press("Enter")
        elif steps < 4 and mover is keyboard_user:
            # The next question of the same turn: focus already sits on its first choice.
            focused = mover.page.evaluate("document.activeElement.dataset.testid || ''")
            assert focused == "fr-move", f"focus was lost after a keyboard move ({focused!r})"
            mover.page.keyboard.press("Enter")
        else:
            control.click()
        mover.page.wait_for_function(SETTLED, arg=version)
        wait_synced(other, mover.version)
        if steps == 0:
            keyboard_user = mover
        elif mover is not keyboard_user:
            keyboard_user = None
        steps += 1
        if steps == 40:
            fits_the_screen(guest)
            shot(guest, "five-realms-midgame-phone")
            shot(host, "five-realms-midgame-desktop", full=True)

    for client in (host, guest):
        end = client.page.get_by_test_id("end-screen")
        expect(end).to_be_visible()
        expect(end.get_by_test_id("scores").locator("tbody tr")).to_have_count(2)
        expect(client.page.get_by_test_id("fr-prompt")).to_contain_text("The game is over")
        assert client.page.locator("[data-testid=fr-move]").count() == 0
    outcome = host.state()["outcome"]
    for seat, client in seated.items():
        castles = host.state()["view"]["players"][seat]["castles"]
        assert outcome["scores"][seat] == castles
        expect(client.page.get_by_test_id("fr-player").first).to_contain_text(
            f"{castles} castle")
        for page_of in (host, guest):  # the running score beside each name is the castles
            expect(page_of.page.locator(f"[data-testid=seat-score][data-seat='{seat}']")
                   ).to_contain_text(f"{castles:g}")
    # The end screen breaks castles down by where they came from; the log, now whole, labels
    # every private line with whose it was ("only you" only on one's own).
    others_lines = 0
    for seat, client in seated.items():
        for total_seat, score in enumerate(outcome["scores"]):
            expect(client.page.locator(f"[data-testid=breakdown-total][data-seat='{total_seat}']")
                   ).to_have_text(f"{score:g}")
        for line in client.page.locator("[data-testid=log] li.private").all():
            to = line.get_attribute("data-to")
            tag = line.get_by_test_id("private-tag").text_content()
            if to == str(seat):
                assert tag == "only you", tag
            else:
                assert "you" not in tag and tag.startswith("only "), (to, tag)
                others_lines += 1
    assert others_lines, "after the game each player sees the other's private lines, by name"
    shot(host, "five-realms-end-host", full=True)
    shot(guest, "five-realms-end-phone")
    fits_the_screen(guest)
    assert kinds_seen.get("place", 0) >= 10
    assert kinds_seen.get("recruit", 0) >= 1, kinds_seen
    assert watched, "no recruit after move 20 for the spectator to watch"
    assert recent_checked, "no turn left its placed card on Alkane to be marked"
    print(f"\n5 Realms: {steps} clicks in {time.monotonic() - started:.1f}s, "
          f"{secrets_checked} secret names checked, prompts {kinds_seen}")
    assert not host.page_errors and not guest.page_errors, host.page_errors + guest.page_errors
