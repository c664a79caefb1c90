"""Lucent, the gem pyramid: build a 9-wide pyramid of coloured gems; the last legal play wins."""

from games import register
from games.gem_pyramid.rules import GemPyramid

GAME = register(GemPyramid())
