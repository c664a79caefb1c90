"""Issue 11: the server refuses to start with a placeholder admin token."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.config import Settings


@pytest.mark.parametrize("token", ["change-me", "CHANGE-ME", "admin"])
def test_a_placeholder_admin_token_is_refused(token: str) -> None:
    with pytest.raises(ValidationError, match="placeholder"):
        Settings(admin_token=token)


def test_a_real_admin_token_is_kept() -> None:
    assert Settings(admin_token="k3P9-long-random").admin_token == "k3P9-long-random"
