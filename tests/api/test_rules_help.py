"""Rules help: every registered game serves its rules, with reconstructions marked."""

from __future__ import annotations

from games import REGISTRY
from tests.api.client import Api


async def test_every_game_serves_its_rules(api: Api) -> None:
    for game_id, game in REGISTRY.items():
        rules = await api.call("GET", f"/api/games/{game_id}/rules")
        assert rules["game"] == game_id and rules["title"] == game.title
        assert rules["source"] in ("summary", "rules")
        assert rules["markdown"].startswith("# ")
    for game_id in (
        "gem-pyramid", "temple-rush", "five-realms", "temple-of-five", "solomons-temple"
    ):
        rules = await api.call("GET", f"/api/games/{game_id}/rules")
        assert rules["source"] == "summary"  # written for players, not the RULES.md notes
        assert "*Reconstruction:*" in rules["markdown"], f"{game_id} marks no reconstruction"


async def test_an_unknown_game_has_no_rules(api: Api) -> None:
    reply = await api.call("GET", "/api/games/chess/rules", expect=404)
    assert reply["error"]["code"] == "unknown_game"
