"""The benchmark's floor (``benchmarks/floor.py``) is the same game as the library (issue 13).

Driven alongside random library games, the floor must offer exactly the library's legal set at
every decision, chance outcomes included, and end with the same Glory after as many decisions.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import crosscheck
import floor


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_floor_offers_the_library_options_at_every_decision(players: int) -> None:
    for seed in range(8):
        assert crosscheck.lockstep(players, seed) > 300


def test_a_difference_is_caught() -> None:
    """A floor that never offers to recruit from the deck is caught at its first turn."""

    class NoDeck(crosscheck._Lockstep):
        def decide(self, options: list[object]) -> object:
            return super().decide([o for o in options if o != floor.DECK or len(options) == 1])

    with pytest.raises(crosscheck.Disagreement, match="only the library: \\['recruit deck'\\]"):
        NoDeck(4, random.Random(1)).play()


def test_band_enumeration_of_the_worst_hand() -> None:
    """The hand of issue 13 gives 1,512 bands in the floor as in the library."""
    codes = (
        "HAL-green HAL-green HAL-purple HAL-orange HAL-orange HAL-gray HAL-gray HAL-red HAL-blue"
    )
    hand = sorted(
        [
            floor.TRIBE_OF.index(floor.HAL) + floor.COLOURS.index(c.split("-")[1])
            for c in codes.split()
        ]
        + [floor.SKELETON]
    )
    assert len(floor.enumerate_bands(hand)) == 1512


def test_random_playout_counts_decisions() -> None:
    rng = random.Random(3)
    lengths = [floor.play(4, rng) for _ in range(20)]
    assert 500 < sum(lengths) / len(lengths) < 1200
