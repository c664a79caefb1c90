"""5 Realms: place Banner cards on Alkane, recruit a council or spread influence over 5 realms."""

from games import register
from games.five_realms.rules import FiveRealms

GAME = register(FiveRealms())
