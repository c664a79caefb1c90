"""Temple of Five: draft tiles in secret, build a pyramid, read chains from above."""

from games import register
from games.temple_of_five.rules import TempleOfFive

GAME = register(TempleOfFive())
