"""The slips that explain a wrong claim in the final Age of a 2-player game (SCORE-2P-1).

The slips ask the scoring module what each reading pays (issue 36): the tie split under the
other option, the Age scored as an ordinary one. Each is checked here by its numbers.
"""

from __future__ import annotations

import pytest

from ethnos_rules import Kingdom, Options, position
from ethnos_rules._io.slips import Slip, slips
from ethnos_rules._rules.options import TwoPlayerFinalTie
from ethnos_rules._rules.scoring import area_score

TRIBES = ["DWA", "GIA", "ORC", "SKE", "TRO"]
TOKENS = (2, 8)  # I and II of the kingdom scored


def _slips(markers: tuple[int, int], tie: TwoPlayerFinalTie = "split_II") -> tuple[Slip, ...]:
    """The slips of Rhea scored in Age II of a 2-player game with ``markers``."""
    state = position(2, TRIBES, age=2, options=Options(two_player_final_tie=tie))
    event = area_score(state, Kingdom.RHEA, markers, TOKENS)
    assert event.scheme == "two_player_final"
    return slips(event, state.rules)


@pytest.mark.parametrize(
    ("tie", "pot", "other"),
    [("split_II", 8, 10), ("split_I_plus_II", 10, 8)],
)
def test_a_tie_for_first_is_explained_by_the_other_split(
    tie: TwoPlayerFinalTie, pot: int, other: int
) -> None:
    """A tie for first shares II (or I + II): the slip is the other option's split, for each
    of the two tied seats."""
    found = _slips((1, 1), tie)
    assert [(s.seat, s.delta, s.kind, s.rule) for s in found] == [
        (0, other // 2 - pot // 2, "two_player_tie", "SCORE-2P-1"),
        (1, other // 2 - pot // 2, "two_player_tie", "SCORE-2P-1"),
    ]
    assert (
        found[0].text == f"as if the tie for first in Rhea in Age II had split {other}, not {pot}"
    )


def test_a_lone_contender_is_explained_by_an_ordinary_age() -> None:
    """Alone in a kingdom, a player earns I + II; the slip is the ordinary Age's II alone."""
    assert _slips((2, 0)) == (
        Slip(
            0,
            -2,
            "two_player_lone",
            "SCORE-2P-1",
            "as if seat 0, alone in Rhea in Age II, had earned only II and not I + II",
        ),
    )


def test_a_second_place_is_explained_by_an_ordinary_age() -> None:
    """The second earns nothing; the slip is the ordinary Age's I for the second place."""
    assert _slips((1, 3)) == (
        Slip(
            0,
            2,
            "two_player_second",
            "SCORE-2P-1",
            "as if seat 0, second in Rhea in Age II, had earned I = 2",
        ),
    )
