"""Pictures of the game: SVG drawings of a state or of what one seat sees (:mod:`.drawing`), the
plain-text picture of a state (:mod:`.picture`), and what a step changed, read from its events,
for a picture to mark (:mod:`.changes`). Above the rules and the seat views, which never import
it.

A state and an observation draw themselves (``str(state)``, Jupyter's ``_repr_svg_``) with the
drawers this package puts in :data:`ethnos_rules._rules.state.DRAWERS` when it is imported;
:mod:`ethnos_rules` imports it. The drawers import their modules when first called, so that
importing the package costs that module alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._rules import state as _state
from .._rules.state import GameState

if TYPE_CHECKING:
    from .._seat.observation import Observation


def _describe_state(state: GameState) -> str:
    from .picture import describe_state  # imported when first drawn

    return describe_state(state)


def _board_svg(state: GameState) -> str:
    from .drawing import board_svg  # imported when first drawn

    return board_svg(state)


def _view_svg(view: Observation) -> str:
    from .drawing import view_svg  # imported when first drawn

    return view_svg(view)


_state.DRAWERS.update({"text": _describe_state, "svg": _board_svg, "view svg": _view_svg})
