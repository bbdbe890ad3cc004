"""Perft golden (issue 13): node counts of the decision tree below fixed positions.

The counts come from the library's ``legal_actions``/``chance_outcomes``/``apply``
(``tests/golden/perft.tsv``, rewritten by ``scripts/regenerate_perft.py``); the shallow depths
are also counted on the benchmark's floor, an independent implementation of the same rules.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import crosscheck
import perft

import ethnos_rules as er

POSITIONS = perft.read()


def test_the_golden_file_has_the_positions_of_the_issue() -> None:
    names = {p.name for p in POSITIONS}
    assert {"start-4p", "mid-2p", "mid-4p", "orcs-end-of-age-4p", "halflings-1512"} <= names
    assert all(len(p.counts) >= 2 for p in POSITIONS)
    halflings = next(p for p in POSITIONS if p.name == "halflings-1512")
    assert halflings.counts[0] == 1512


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_perft_counts(position: perft.Position) -> None:
    assert perft.perft(position.state(), len(position.counts)) == list(position.counts)


@pytest.mark.parametrize(
    "position",
    [p for p in POSITIONS if p.start.startswith("new_game")],
    ids=[p.name for p in POSITIONS if p.start.startswith("new_game")],
)
def test_the_floor_counts_the_same_tree(position: perft.Position) -> None:
    players, path = crosscheck.floor_path(position.start, position.path)
    depth = crosscheck.floor_depth(position.counts, 600)
    assert crosscheck.floor_perft(players, path, depth) == list(position.counts[:depth])


def test_perft_counts_a_finished_game_as_a_leaf() -> None:
    final = er.play_random(2, seed=1).final
    assert perft.perft(final, 2) == [0, 0]
