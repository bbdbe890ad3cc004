"""Pictures of a game as SVG, as ``chess.svg`` draws a chess board: standard library only.

>>> from ethnos_rules import position
>>> from ethnos_rules import svg
>>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={0: "ELF-red"})
>>> picture = svg.board(state, seat=1, size=600)
>>> picture.startswith("<svg") and "<desc>" in picture and "ELF-red" not in picture
True

In Jupyter a state shows as its picture (``GameState._repr_svg_``), and an observation as
what its seat sees (``Observation._repr_svg_``).
"""

from ._rules.drawing import (
    CARD_FILL,
    PLAYER_FILL,
    PLAYER_SHAPE,
)
from ._rules.drawing import (
    band_svg as band,
)
from ._rules.drawing import (
    board_svg as board,
)
from ._rules.drawing import (
    card_svg as card,
)
from ._rules.drawing import (
    hand_svg as hand,
)
from ._rules.drawing import (
    view_svg as view,
)

__all__ = ["CARD_FILL", "PLAYER_FILL", "PLAYER_SHAPE", "band", "board", "card", "hand", "view"]
