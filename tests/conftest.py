"""Suite-wide ordering and time limits: browser tests run last, with a longer limit.

Playwright's sync API keeps an event loop running in the main thread for as long as its
session-scoped browser lives, and pytest-asyncio cannot start its runner inside a running
loop. Any async test collected after the browser tests would fail for that reason alone, so
the browser tests go to the end of the run whatever the file names are.

A whole game clicked through in a browser is long by nature and a loaded CI machine is several
times slower than a quiet one, so browser tests get a longer hang limit than pytest-timeout's
default. No test asserts a speed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

E2E = Path(__file__).parent / "e2e"
BROWSER_TEST_TIMEOUT_S = 900


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: E2E in Path(item.path).parents)
    for item in items:
        if E2E in Path(item.path).parents:
            item.add_marker(pytest.mark.timeout(BROWSER_TEST_TIMEOUT_S))
