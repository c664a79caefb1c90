"""A tutorial the rules have come to refuse, or a rule module that fails while a step is served,
answers 503 `tutorial_unavailable` with a sentence, never a 500 `internal_error`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.errors import install_handlers
from app.learn import routes, tutorials
from app.learn.tutorials import Tutorial, points_of, tutorial_of
from games import REGISTRY

GAME = "gem-pyramid"


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    app = FastAPI()
    install_handlers(app)
    app.include_router(routes.router)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://learn") as client:
        yield client


@pytest.fixture
def fresh_replays() -> Iterator[None]:
    """Replays are cached per process: drop the broken one, and keep no broken one behind."""
    points_of.cache_clear()
    yield
    points_of.cache_clear()


def broken(step_no: int) -> Tutorial:
    """Lucent's script, its step `step_no` asking for a gem on the Focus Gem's slot (taken)."""
    tutorial = tutorial_of(GAME)
    assert tutorial is not None
    steps = [step.model_copy() for step in tutorial.steps]
    steps[step_no] = steps[step_no].model_copy(update={"expect": {
        "type": "place", "gem": steps[step_no].expect["gem"], "row": 0, "pos": 4}})
    return tutorial.model_copy(update={"steps": steps})


def assert_out_of_order(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == "tutorial_unavailable"
    assert "does not fit its game's rules" in error["message"]


async def test_a_script_the_rules_refuse_is_out_of_order(
        http: httpx.AsyncClient, fresh_replays: None, monkeypatch: pytest.MonkeyPatch) -> None:
    script = broken(2)
    for module in (routes, tutorials):
        monkeypatch.setattr(module, "tutorial_of", lambda game_id: script)
    assert_out_of_order(await http.get(f"/api/learn/{GAME}/steps/0"))
    assert_out_of_order(await http.post(f"/api/learn/{GAME}/steps/0/try",
                                        json={"move": script.steps[0].expect}))
    monkeypatch.undo()
    points_of.cache_clear()
    assert (await http.get(f"/api/learn/{GAME}/steps/0")).status_code == 200


async def test_a_rule_module_failing_mid_step_is_out_of_order(
        http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(*_: Any) -> None:
        raise RuntimeError("a bug in the rules")

    monkeypatch.setattr(type(REGISTRY[GAME]), "legal_moves", crash)
    assert_out_of_order(await http.get(f"/api/learn/{GAME}/steps/1"))
    tutorial = tutorial_of(GAME)
    assert tutorial is not None
    assert_out_of_order(await http.post(f"/api/learn/{GAME}/steps/1/try",
                                        json={"move": tutorial.steps[1].expect}))
