"""Solomon's Temple: two players build the Temple against Sin and Babylon."""

from games import register
from games.solomons_temple.rules import SolomonsTemple

GAME = register(SolomonsTemple())
