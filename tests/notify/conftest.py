"""The pipeline in process on both databases, as in tests/api."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.hall import Hall
from tests.api.inprocess import hall_on


@pytest.fixture(params=["sqlite", "postgres"])
async def hall(request: pytest.FixtureRequest) -> AsyncIterator[Hall]:
    async with hall_on(request.param) as started:
        yield started
