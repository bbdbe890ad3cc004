"""The steps whose pictures, with what each step changed marked, are pinned as golden SVG files
(tests/golden/highlight/), shared by tests/test_svg_highlight.py and by
``python scripts/regenerate_golden.py``.

Each is a real step (``step(state, action)``) from a small position, drawn from its events.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ethnos_rules import GameState, Options, Step, parse_action, position, step, svg

HIGHLIGHT_DIR = Path(__file__).resolve().parent / "golden" / "highlight"

SIX = ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]


def after(state: GameState, *actions: str) -> Step:
    """The last of ``actions``' steps from ``state``."""
    result = Step(state, ())
    for action in actions:
        result = step(result.state, parse_action(action))
    return result


def band_with_placement() -> Step:
    """A Dwarf band of 3 places its marker at once (placement is mandatory, BAND-5a)."""
    state = position(
        4,
        SIX,
        hands={0: "DWA-red DWA-blue DWA-green ELF-blue", 1: "ORC-red"},
        kingdoms={0: {"Rhea": 1}, 2: {"Rhea": 2}},
        bands={0: ["*ELF-red"]},
        options=Options(placement="mandatory"),
    )
    return after(state, "band *DWA-red DWA-blue DWA-green")


def giant_token() -> Step:
    """A Giant band of 3, larger than the Giant token holder's 2: Glory and the token."""
    state = position(
        4,
        SIX,
        hands={1: "GIA-blue GIA-red GIA-green"},
        kingdoms={1: {"Straton": 3}},
        bands={0: ["*GIA-orange GIA-gray"]},
        giant=(0, 2),
        to_move=1,
    )
    return after(state, "band *GIA-blue GIA-red GIA-green")


def recruit() -> Step:
    """Seat 2 takes a card from the row."""
    state = position(4, SIX, hands={2: "ELF-red MER-blue"}, row="DWA-blue WIZ-gray", to_move=2)
    return after(state, "recruit DWA-blue")


def orc_horde() -> Step:
    """An Orc band led by a red Orc puts a marker on the red space of the Horde."""
    state = position(
        3,
        ["MER", "ORC", "SKE", "TRO", "GIA"],
        hands={0: "ORC-red ORC-red TRO-blue"},
        kingdoms={0: {"Rhea": 2}},
        horde={0: ["gray"]},
    )
    return after(state, "band *ORC-red ORC-red", "horde add")


def merfolk_move() -> Step:
    """A Merfolk band of 3 moves the marker from 2 to 5, past checkpoint 3, then places the
    checkpoint's marker."""
    state = position(
        3,
        ["MER", "ORC", "SKE", "TRO", "GIA"],
        hands={0: "MER-blue MER-red MER-green"},
        kingdoms={0: {"Straton": 3}},
        merfolk={0: 2, 1: 4},
    )
    return after(state, "band *MER-blue MER-red MER-green")


def age_scored() -> Step:
    """The third Dragon ends Age I: kingdoms, bands and the Giant token score (Glory +N)."""
    state = position(
        3,
        ["MER", "ORC", "SKE", "TRO", "GIA"],
        hands={0: "SKE", 1: "TRO-red"},
        bands={0: ["*GIA-red GIA-blue GIA-green"], 1: ["*TRO-gray TRO-red", "*MER-red"]},
        kingdoms={0: {"Rhea": 2, "Straton": 1}, 1: {"Rhea": 1, "Pelagon": 2}, 2: {"Rhea": 1}},
        giant=(0, 3),
        dragons_drawn=2,
        top_left=0,
    )
    return after(state, "recruit deck", "reveal DRAGON")


STEPS: dict[str, Callable[[], Step]] = {
    "band-with-placement": band_with_placement,
    "giant-token": giant_token,
    "recruit": recruit,
    "orc-horde": orc_horde,
    "merfolk-move": merfolk_move,
    "age-scored": age_scored,
}
"""Each step pinned, by file name (without ``.svg``)."""


def _board(name: str, seat: int | None = None) -> Callable[[], str]:
    def draw() -> str:
        result = STEPS[name]()
        return svg.board(result.state, seat=seat, changes=result.events)

    return draw


HIGHLIGHTS: dict[str, Callable[[], str]] = {name: _board(name) for name in STEPS}
HIGHLIGHTS["recruit-seat-0"] = _board("recruit", seat=0)
"""Each golden picture, by file name (without ``.svg``): every step's whole position, and the
recruit as another seat sees it."""
