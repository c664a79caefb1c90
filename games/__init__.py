"""Pure rule modules behind one Game protocol, and the registry the platform reads them from."""

from games.protocol import Event, Game, IllegalMove, Move, Outcome, State

REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry; each game package calls this once, last, for its `GAME`."""
    if game.id in REGISTRY:
        raise ValueError(f"game {game.id!r} registered twice")
    REGISTRY[game.id] = game
    return game


def _load_all() -> None:
    # Importing a game package registers it. Listed explicitly: a half-built game must not
    # slip into the lobby (or the conformance suite) just by existing on disk.
    import games.five_realms
    import games.gem_pyramid
    import games.solomons_temple
    import games.temple_of_five
    import games.temple_rush  # noqa: F401


_load_all()

__all__ = ["REGISTRY", "Event", "Game", "IllegalMove", "Move", "Outcome", "State", "register"]
