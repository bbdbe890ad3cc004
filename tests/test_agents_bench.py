"""The agents' benchmark (benchmarks/agents.py, ``bench.py --only agents``) runs and reports
every way of playing, each against its target where it has one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")
pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import agents
import bench


def test_the_agents_section_runs_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--only", "agents", "--quick"]) == 0
    out = capsys.readouterr().out
    for label in agents.LABELS.values():
        assert label in out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "µs" not in line]
    assert len(rows) == len(agents.LABELS)
    assert sum("met" in row or "MISSED" in row for row in rows) == len(agents.TARGETS)


def test_each_way_plays_the_same_games() -> None:
    """Every way plays whole games of the same seeds: the decisions of the PettingZoo
    environment's games with raw, scaled and unwritten observations are the same games."""
    assert agents._pettingzoo_scaled(3) == bench._pettingzoo_game(3)
    assert agents._pettingzoo_unobserved(3) == bench._pettingzoo_game(3)
    assert agents._ids(3) > 300
    assert agents._gymnasium(3) > 300
