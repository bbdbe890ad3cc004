"""The benchmark's reading section (issue 31, part 4): reading records against validating them,
and validating an archive, beside a base commit; without git it measures this tree alone and
says why."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_without_git_the_base_is_not_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    reading = _load("reading")
    monkeypatch.setattr(reading.shutil, "which", lambda name: None)
    with reading.base_tree("4b95a61") as (tree, why):
        assert tree is None
        assert why == "git is not available, so 4b95a61 cannot be checked out"


def test_a_base_that_cannot_be_checked_out_is_said() -> None:
    reading = _load("reading")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    with reading.base_tree("no-such-revision-anywhere") as (tree, why):
        assert tree is None
        assert why.startswith("no-such-revision-anywhere cannot be checked out (")


def test_the_section_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench.py --only reading --quick``: this tree alone, every figure printed."""
    bench = _load("bench")
    assert bench.main(["--only", "reading", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "## Reading records" in out
    assert "reading costs **0." in out
    assert "one seat, claimed" in out
    assert "Not compared with a base commit: no base commit was asked for." in out


def test_the_page_shows_the_comparison() -> None:
    """With a base, the page gives both trees' figures and the ratios the targets check."""
    reading = _load("reading")
    kinds = dict.fromkeys(reading.KINDS, 0.1)
    figures = {"read_ms": 1.0, "validate_ms": 10.0, "ratio": 0.1, "by_kind": kinds}
    section = {
        "base": "4b95a61",
        "base_missing": "",
        "records": 40,
        "rounds": 3,
        "here": figures,
        "before": {**figures, "read_ms": 9.0, "ratio": 0.9},
        "reading_speedup": 9.0,
        "in_process": {"records": 200, "here_per_s": 140.0, "base_per_s": 70.0, "ratio": 2.0},
        "cli": {"records": 10_000, "here_per_s": 120.0, "base_per_s": 70.0, "ratio": 1.7},
    }
    text = "\n".join(reading.markdown(section))
    assert "reading costs **0.100×** validating" in text
    assert "At 4b95a61, measured in the same rounds: 9.00 ms and 10.00 ms" in text
    assert "archive of 10,000 4-player records" in text
    assert "**1.70×**" in text
    bench = _load("bench")
    rows = dict((label, shown) for label, shown, _ in bench.check_targets({"reading": section}))
    assert rows["reading a record <= 0.25 x validating it"] == "0.10"
    assert rows["validate FOLDER >= 1.6 x 4b95a61 (records/s, side by side)"] == "1.70"
