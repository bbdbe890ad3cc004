"""The benchmark still runs (issue 5: CI runs it in a short mode that only checks it works)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench.py"


def test_benchmark_quick_mode_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The quick benchmark completes and reports every section and target."""
    spec = importlib.util.spec_from_file_location("bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench"] = bench
    spec.loader.exec_module(bench)
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    for heading in ("Random playouts", "Worst-case `legal_actions`", "Memory", "Targets"):
        assert heading in out
    assert "| 6p |" in out
