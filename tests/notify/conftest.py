"""The pipeline in process on both databases, as in tests/api."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from app.hall import Hall
from tests.api.inprocess import hall_on
from tests.notify.parts import Mailbox


@pytest.fixture(params=["sqlite", "postgres"])
async def hall(request: pytest.FixtureRequest) -> AsyncIterator[Hall]:
    async with hall_on(request.param) as started:
        yield started


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    """A real SMTP server (aiosmtpd) for one module's servers to mail to."""
    box = Mailbox().start()
    yield box
    box.stop()
