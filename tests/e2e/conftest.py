"""Browser tests: a real server on a throwaway SQLite database, driven by Debian's Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.pages import ARTIFACTS, Client
from tests.server import Server, database, running_server

CHROMIUM = Path("/usr/bin/chromium")
# Generous waits: a loaded CI machine (or other suites running beside) is slow, never wrong.
expect.set_options(timeout=15_000)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    with database("sqlite") as url, running_server(url, BOT_DELAY_MS="40") as srv:
        yield srv


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"The browser tests need Chromium at {CHROMIUM}; install Debian's `chromium` "
                    "package (apt-get install chromium). Playwright's own download is not used.")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_client(browser: Browser, server: Server) -> Iterator:
    """A factory of fresh browser profiles (own localStorage: own identity) on the server."""
    contexts = []

    def make(label: str, phone: bool = False) -> Client:
        # Pieces hold still here: these tests click as fast as a script can, and a click aimed
        # at a piece still sliding lands beside it. The motion itself is checked, with its own
        # contexts, by tests/e2e/test_motion.py.
        if phone:
            context = browser.new_context(viewport={"width": 390, "height": 844},
                                          device_scale_factor=2, is_mobile=True, has_touch=True,
                                          reduced_motion="reduce")
        else:
            context = browser.new_context(viewport={"width": 1280, "height": 900},
                                          reduced_motion="reduce")
        context.set_default_timeout(15_000)
        contexts.append(context)
        page: Page = context.new_page()
        client = Client(label, page, server.url)
        page.on("pageerror", lambda exc: client.page_errors.append(str(exc)))
        return client

    yield make
    for context in contexts:
        context.close()
