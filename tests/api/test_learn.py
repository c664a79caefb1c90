"""The tutorial API: a step as the learner's seat sees it, and a try judged right, wrong or
illegal (with the rules' reason), all without a room, a player or a write."""

from __future__ import annotations

from app.learn.tutorials import tutorial_of
from games import REGISTRY
from tests.api.client import Api


async def test_a_tutorial_is_walked_through_step_by_step(api: Api) -> None:
    tutorial = tutorial_of("gem-pyramid")
    assert tutorial is not None
    step = await api.call("GET", "/api/learn/gem-pyramid/steps/0")
    assert (step["step"], step["steps"], step["done"]) == (0, len(tutorial.steps), False)
    assert step["say"] == tutorial.steps[0].say and step["expect"] == tutorial.steps[0].expect
    assert step["view"]["hand"] is not None  # the learner's own seat view
    assert step["legal_moves"] and step["expect"] in step["legal_moves"]
    for n, taught in enumerate(tutorial.steps):
        answer = await api.call("POST", f"/api/learn/gem-pyramid/steps/{n}/try",
                                json={"move": taught.expect})
        assert answer["result"] == "right"
        assert answer["next"]["step"] == n + 1
    end = answer["next"]
    assert end["done"] and end["say"] == tutorial.ready and end["legal_moves"] == []
    assert end["outcome"]["winners"] == [tutorial.learner]  # Lucent's script ends in a win


async def test_a_wrong_try_says_why_and_changes_nothing(api: Api) -> None:
    tutorial = tutorial_of("gem-pyramid")
    assert tutorial is not None
    step = await api.call("GET", "/api/learn/gem-pyramid/steps/0")
    other = next(m for m in step["legal_moves"] if m != step["expect"])
    wrong = await api.call("POST", "/api/learn/gem-pyramid/steps/0/try", json={"move": other})
    assert wrong == {"result": "wrong", "message": tutorial.steps[0].wrong}
    illegal = await api.call("POST", "/api/learn/gem-pyramid/steps/0/try",
                             json={"move": {"type": "place", "gem": "blue", "row": 0, "pos": 4}})
    assert illegal == {"result": "illegal", "message": "That slot already holds a gem."}
    assert await api.call("GET", "/api/learn/gem-pyramid/steps/0") == step


async def test_every_game_has_a_tutorial_and_unknown_ones_are_refused(api: Api) -> None:
    for game_id in REGISTRY:
        step = await api.call("GET", f"/api/learn/{game_id}/steps/0")
        assert step["game"] == game_id and 8 <= step["steps"] <= 15
    missing = await api.call("GET", "/api/learn/chess/steps/0", expect=404)
    assert missing["error"]["code"] == "no_tutorial"
    past = await api.call("GET", "/api/learn/gem-pyramid/steps/99", expect=404)
    assert past["error"]["code"] == "no_step"
    bad = await api.call("POST", "/api/learn/gem-pyramid/steps/0/try", json={"move": "x"},
                         expect=422)
    assert bad["error"]["code"] == "bad_request"
    page = await api.http.get("/learn/gem-pyramid")
    assert page.status_code == 200 and "<div id=\"app\">" in page.text
