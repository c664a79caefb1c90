"""Issue 35 in Chromium: one player on a laptop and a phone (two browser contexts). Link the
phone by the code and by the link, play a move from the phone in a game started on the laptop,
sign the phone out from the laptop, add a passkey and sign in with it in a fresh context (the
DevTools Protocol's virtual authenticator). Screenshots of the link dialog, "Your games" and
the devices list at 1280x800 and 390x844 go to docs/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.pages import Client
from tests.server import Server, database, running_server

pytestmark = pytest.mark.e2e
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Mobile Safari/537.36")
NEW_ROOM = """async (game) => {
  const token = JSON.parse(localStorage.getItem("ziggurat.player")).token;
  const made = await fetch("/api/rooms", { method: "POST", body: JSON.stringify({ game }),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` } });
  if (made.status !== 201) throw new Error(await made.text());
}"""
CODE = re.compile(r"^[A-Z2-9]{4}-[A-Z2-9]{4}$")


@pytest.fixture(scope="module")
def local() -> Iterator[Server]:
    """A server of its own, opened as http://localhost: a passkey's relying party is a host
    name (never an IP address) in a secure context (https, or localhost)."""
    with database("sqlite") as url, running_server(url, BOT_DELAY_MS="40") as srv:
        yield srv


@pytest.fixture
def device(browser: Browser, local: Server) -> Iterator:
    contexts = []
    base = f"http://localhost:{local.port}"

    def make(label: str, phone: bool = False) -> Client:
        if phone:
            context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                          has_touch=True, user_agent=ANDROID)
        else:
            context = browser.new_context(viewport=LAPTOP)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        client = Client(label, page, base)
        page.on("pageerror", lambda exc: client.page_errors.append(str(exc)))
        return client

    yield make
    for context in contexts:
        context.close()


def shot(client: Client, name: str) -> None:
    size = client.page.viewport_size
    assert size is not None
    SHOTS.mkdir(parents=True, exist_ok=True)
    client.page.screenshot(path=str(SHOTS / f"{name}-{size['width']}x{size['height']}.png"))


def open_menu(client: Client, item: str) -> None:
    client.page.get_by_test_id("device-menu").locator("summary").click()
    client.page.get_by_test_id(item).click()


def link_dialog(client: Client, name: str | None = None) -> tuple[str, str]:
    """Open "Use on another device": its code and link (a screenshot named `name`)."""
    open_menu(client, "link-device")
    code = client.page.get_by_test_id("link-code")
    expect(code).to_have_text(CODE)
    expect(client.page.get_by_test_id("link-qr")).to_be_visible()
    expect(client.page.get_by_test_id("link-expiry")).to_contain_text("Expires in 10 min")
    if name:
        shot(client, name)
    found = code.inner_text(), client.page.get_by_test_id("link-url").input_value()
    client.page.get_by_test_id("dialog-close").click()
    return found


def version_reaches(page: Page, version: int) -> None:
    page.wait_for_function("v => +document.querySelector('#app').dataset.version >= v",
                           arg=version, timeout=30_000)


def virtual_authenticator(page: Page) -> tuple[object, str]:
    """A CTAP2 platform authenticator for the page (resident keys, user verified)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return cdp, made["authenticatorId"]


def test_one_player_on_a_laptop_and_a_phone(device) -> None:
    laptop, phone = device("laptop"), device("phone", phone=True)
    laptop.choose_name("Lena")
    card = laptop.page.locator("[data-game=gem-pyramid]")
    card.get_by_test_id("vs-computer").get_by_test_id("play-vs-computer").click()
    expect(laptop.page.get_by_test_id("pyramid")).to_be_visible()
    laptop.wait_live()
    assert laptop.seat == 0
    # And a room of Temple Rush still gathering players (made over the API, as the laptop).
    laptop.page.evaluate(NEW_ROOM, "temple-rush")

    # The phone signs in with the code the laptop shows.
    code, _ = link_dialog(laptop, "link-dialog")
    phone.page.goto(f"{phone.base}/")
    phone.page.get_by_test_id("link-code-input").fill(code.lower())
    phone.page.get_by_role("button", name="Use code").click()
    expect(phone.page.get_by_test_id("my-name")).to_have_text("Lena")

    # "Your games" on the phone holds the game the laptop started; a move from the phone.
    games = phone.page.get_by_test_id("your-games").get_by_test_id("your-game")
    expect(games).to_have_count(2)
    expect(games.first).to_contain_text("Lucent")
    expect(games.nth(1)).to_contain_text("waiting for players")
    shot(phone, "your-games")
    games.first.get_by_role("button").click()
    expect(phone.page.get_by_test_id("pyramid")).to_be_visible()
    phone.wait_live()
    assert phone.seat == 0, "the phone plays the laptop's seat"
    made = phone.play_one_gem()
    version_reaches(laptop.page, made)

    # The laptop's lobby lists it too; its devices list has both, and signs the phone out.
    laptop.page.goto(f"{laptop.base}/")
    expect(laptop.page.get_by_test_id("your-game")).to_have_count(2)
    shot(laptop, "your-games")
    open_menu(laptop, "my-devices")
    rows = laptop.page.get_by_test_id("device")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("this device")
    expect(rows.nth(1)).to_contain_text("Chrome on Android")
    shot(laptop, "devices")
    rows.nth(1).get_by_test_id("sign-out-device").click()
    expect(rows).to_have_count(1)
    laptop.page.get_by_test_id("dialog-close").click()
    # The phone, still in the game, is told at once: its socket closes and it forgets Lena.
    expect(phone.page.get_by_test_id("signed-out")).to_be_visible(timeout=20_000)
    expect(phone.page.get_by_test_id("my-name")).to_have_count(0)

    # Linked again, by the link this time.
    _, url = link_dialog(laptop)
    assert url.startswith(f"{laptop.base}/link#")
    phone.page.goto(url)
    phone.page.get_by_test_id("use-link").click()
    expect(phone.page.get_by_test_id("my-name")).to_have_text("Lena")
    expect(phone.page.get_by_test_id("your-game")).to_have_count(2)
    link_dialog(phone, "link-dialog")
    open_menu(phone, "my-devices")
    expect(phone.page.get_by_test_id("device")).to_have_count(2)
    shot(phone, "devices")
    phone.page.get_by_test_id("dialog-close").click()

    # A passkey made on the laptop signs a fresh browser in, no name typed.
    cdp, authenticator = virtual_authenticator(laptop.page)
    open_menu(laptop, "add-passkey")
    expect(laptop.toast()).to_contain_text("Passkey added")
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(credentials["credentials"]) == 1
    assert credentials["credentials"][0]["isResidentCredential"]
    fresh = device("fresh")
    fresh_cdp, fresh_authenticator = virtual_authenticator(fresh.page)
    fresh_cdp.send("WebAuthn.addCredential", {"authenticatorId": fresh_authenticator,
                                              "credential": credentials["credentials"][0]})
    fresh.page.goto(f"{fresh.base}/")
    fresh.page.get_by_test_id("passkey-sign-in").click()
    expect(fresh.page.get_by_test_id("my-name")).to_have_text("Lena")
    expect(fresh.page.get_by_test_id("your-game")).to_have_count(2)
    used = fresh_cdp.send("WebAuthn.getCredentials", {"authenticatorId": fresh_authenticator})
    assert used["credentials"][0]["signCount"] >= 1

    for client in (laptop, phone, fresh):
        assert not client.page_errors, client.page_errors
