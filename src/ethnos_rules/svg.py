"""Pictures of a game as SVG, as ``chess.svg`` draws a chess board: standard library only.

>>> from ethnos_rules import position
>>> from ethnos_rules import svg
>>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={0: "ELF-red"})
>>> picture = svg.board(state, seat=1, size=600)
>>> picture.startswith("<svg") and "<desc>" in picture and "ELF-red" not in picture
True

As ``chess.svg.board(lastmove=...)`` marks the last move, a picture marks what a step changed,
read from the step's events (never worked out again from two states): the band just played,
the markers just placed, the cards, tokens and Horde spaces just taken, the Merfolk's move and
the Glory gained. Each is framed by a thick dark outline and named by a dark tag:

>>> from ethnos_rules import parse_action, step
>>> result = step(state, parse_action("recruit deck"))
>>> drew = step(result.state, parse_action("reveal DWA-blue"))
>>> mine = svg.board(drew.state, seat=0, changes=drew.events)
>>> print(mine.split("Marked as just changed: ")[1].split("</desc>")[0])
DWA-blue into seat 0's hand.
>>> svg.board(drew.state, seat=1, changes=drew.events) == svg.board(drew.state, seat=1)
True

Seat 1 did not see the card drawn, so its picture marks nothing.

In Jupyter a state shows as its picture (``GameState._repr_svg_``), and an observation as
what its seat sees (``Observation._repr_svg_``).
"""

from ._pictures.drawing import (
    CARD_FILL,
    CHANGED_FILL,
    CHANGED_INK,
    PLAYER_FILL,
    PLAYER_SHAPE,
)
from ._pictures.drawing import (
    band_svg as band,
)
from ._pictures.drawing import (
    board_svg as board,
)
from ._pictures.drawing import (
    card_svg as card,
)
from ._pictures.drawing import (
    hand_svg as hand,
)
from ._pictures.drawing import (
    view_svg as view,
)

__all__ = [
    "CARD_FILL",
    "CHANGED_FILL",
    "CHANGED_INK",
    "PLAYER_FILL",
    "PLAYER_SHAPE",
    "band",
    "board",
    "card",
    "hand",
    "view",
]
