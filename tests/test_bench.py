"""The benchmark still runs (issue 5: CI runs it in a short mode that only checks it works),
with the sections of issue 13: the floor, its honesty check, the worst hand and perft."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench.py"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH.with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _bench() -> ModuleType:
    return _load("bench")


def test_every_side_by_side_workload_runs() -> None:
    """Each workload of compare.py (the adapters' taken from bench.py's games) is a program
    that prints a rate, here for a tenth of a second against this tree."""
    compare = _load("compare")
    for name in compare.WORKLOADS:
        assert compare.run(compare.ROOT, name, 4, 0.1, 0) > 0, name


def test_every_workload_counts_a_fixed_amount_of_work() -> None:
    """With UNITS, a workload runs that many units and prints the decisions they made, the
    same at every run (what --instructions divides the instructions by)."""
    compare = _load("compare")
    for name in ("validate", "worst-hand", "play"):
        code = compare.code_of(name, 4, 0.0, 0, 2)
        printed = {compare._python(compare.ROOT, code).split()[-1] for _ in range(2)}
        assert len(printed) == 1 and int(printed.pop()) > 0, name


def test_instruction_counts_leave_start_up_out() -> None:
    """--instructions: callgrind's count of 3 units and of 6, less start-up, per band listed:
    a few thousand instructions (start-up alone is about a billion)."""
    compare = _load("compare")
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed (Debian: apt-get install valgrind)")
    per_band = compare.instructions(compare.ROOT, "worst-hand", 4, 3)
    assert 1_000 < per_band < 100_000, per_band


def test_benchmark_quick_mode_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The quick benchmark completes and reports every section and target."""
    bench = _bench()
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    for heading in (
        "Random playouts",
        "## The floor",
        "Is it the same game?",
        "Lockstep:",
        "Worst-case `legal_actions`",
        "## Perft",
        "Memory",
        "Targets",
    ):
        assert heading in out
    assert "| 6p |" in out
    assert "| Halflings of mixed colours and a Skeleton | 1512 |" in out
    assert "| halflings-1512 | 1,512, " in out
    for target in ("3.0 x python-chess", "<= 5 x the library", "< 1 ms", "150,000", "<= 1 MB"):
        assert target in out


def test_a_floor_that_is_another_game_fails_the_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games 150 decisions longer than the library's (about two standard deviations) are
    caught by the honesty check at every player count."""
    bench = _bench()
    play = bench.floor.play
    monkeypatch.setattr(bench.floor, "play", lambda players, rng: play(players, rng) + 150)
    results = {"honesty": bench.honesty(20, 200, 0), "perft": None}
    wrong = bench.failures(results)
    assert wrong and all("standard errors apart" in why for why in wrong)
    assert len(wrong) == 5


# api_test warns of an observation that holds a mask, and of an environment that does not
# render: the floor is both, like the environment it stands under (which renders).
@pytest.mark.filterwarnings("ignore:Observation (space )?(is not|for each):UserWarning")
@pytest.mark.filterwarnings("ignore:Environment has not defined a render:UserWarning")
def test_the_pettingzoo_floor_is_a_conforming_environment_of_the_steps_asked() -> None:
    """The do-nothing environment under the PettingZoo figure passes PettingZoo's api_test and
    takes exactly the steps asked for, so its cost is that of as many steps of a real one."""
    pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")
    from pettingzoo.test import api_test

    bench = _bench()
    api_test(bench._null_env(300), num_cycles=100)
    assert [bench._drive(bench._null_env(steps), 0) for steps in (5, 57, 729)] == [5, 57, 729]
