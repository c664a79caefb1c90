"""Temple Rush: build temple silhouettes from dice-drawn blocks; first to finish wins the card."""

from games import register
from games.temple_rush.rules import TempleRush

GAME = register(TempleRush())
