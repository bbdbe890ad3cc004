"""The positions whose pictures are pinned as golden SVG files (tests/golden/svg/), shared by
the test and by ``python scripts/regenerate_golden.py``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ethnos_rules import GameState, card, play_random, position, svg

SVG_DIR = Path(__file__).resolve().parent / "golden" / "svg"


def _mid_game() -> GameState:
    states = list(play_random(4, seed=3).states())
    return states[len(states) // 2]


def _merfolk_and_orcs() -> GameState:
    return position(
        3,
        ["MER", "ORC", "SKE", "TRO", "GIA"],
        hands={0: "MER-red ORC-red SKE", 1: "TRO-blue"},
        bands={1: ["*ORC-gray ORC-red"]},
        kingdoms={0: {"Rhea": 2}, 1: {"Pelagon": 1}},
        merfolk={0: 7, 1: 3},
        horde={1: ["gray"]},
        trolls={2: [4]},
        row="GIA-green SKE",
    )


PICTURES: dict[str, Callable[[], str]] = {
    "board-4p-mid-game": lambda: svg.board(_mid_game()),
    "board-4p-mid-game-seat-1": lambda: svg.board(_mid_game(), seat=1),
    "board-3p-merfolk-orcs-trolls": lambda: svg.board(_merfolk_and_orcs()),
    "card-ELF-red": lambda: svg.card(card("ELF-red")),
    "hand": lambda: svg.hand([card("SKE"), card("DWA-blue"), card("HAL-orange")]),
    "band": lambda: svg.band(_merfolk_and_orcs().players[1].bands[0]),
}
"""Each golden picture, by file name (without ``.svg``)."""
