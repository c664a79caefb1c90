"""Suite-wide ordering: browser tests run last.

Playwright's sync API keeps an event loop running in the main thread for as long as its
session-scoped browser lives, and pytest-asyncio cannot start its runner inside a running
loop. Any async test collected after the browser tests would fail for that reason alone, so
the browser tests go to the end of the run whatever the file names are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

E2E = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: E2E in Path(item.path).parents)
