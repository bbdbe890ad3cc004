"""Speed of this tree against another revision, side by side: one optimisation's ratio.

Usage::

    python benchmarks/compare.py HEAD~1                 # random 4-player play, 7 rounds
    python benchmarks/compare.py HEAD~1 --workload validate --rounds 9
    python benchmarks/compare.py HEAD~1 --workload one-seat     # validate records kept at one seat
    python benchmarks/compare.py HEAD~1 --workload openspiel    # random play through pyspiel
    python benchmarks/compare.py HEAD~1 --instructions --workload validate   # by callgrind

The ``play``, ``pettingzoo`` and ``openspiel`` workloads play the games of ``bench.py`` (the
adapters' with 4 players).

The other revision is checked out into a temporary git worktree. In each round both trees run
the same workload in a fresh process for the same CPU time, in alternating order, so a busy
machine slows both alike; the ratio (this tree ÷ the other) is taken per round and its median
reported, with the lowest and highest.

On a shared machine whose speed wanders within minutes, ``--instructions`` counts instead: each
tree runs the same fixed work (UNITS units, then twice as many, so that start-up cancels out)
under ``valgrind --tool=callgrind``, and the ratio is the other tree's instructions per decision
÷ this tree's. The count is the same at every run and whatever else the machine does; it is a
proxy for time (a memory stall costs no instruction), so a change should show in both.
"""

from __future__ import annotations

import argparse
import ast
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Each workload sets up, then defines unit(i), the i-th unit of work, which returns how many
# decisions it made (the worst hand: bands listed cold). DRIVER runs units for about SECONDS of
# CPU time and prints the decisions per second, or runs UNITS of them and prints the decisions.
WORKLOADS = {
    "validate": """
import ethnos_rules as er
from ethnos_rules._rules import bands, notation
# Each record is validated as if nothing in it were seen before: the caches of band lists and
# of parsed texts are emptied first.
caches = [f for m in (bands, notation) for f in vars(m).values() if hasattr(f, "cache_clear")]
records = [KEPT(er.GameRecord.from_playthrough(er.play_random(PLAYERS, seed)), seed)
           for seed in range(8)]
def unit(i):
    record = records[i % len(records)]
    for cache in caches:
        cache.cache_clear()
    assert er.validate(record).ok
    return len(record.actions)
""",
    "worst-hand": """
import ethnos_rules as er
from ethnos_rules._rules import bands
hand = "HAL-green HAL-green HAL-purple HAL-orange HAL-orange HAL-gray HAL-gray HAL-red HAL-blue SKE"
state = er.position(4, ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"], hands={0: hand})
caches = [f for f in vars(bands).values() if hasattr(f, "cache_clear")]  # every band list
def unit(i):
    for cache in caches:
        cache.cache_clear()
    return len(er.legal_actions(state))
""",
}
# The validate workload on whole records, and on the records as one seat kept them (seat =
# seed mod PLAYERS).
WORKLOADS["one-seat"] = WORKLOADS["validate"].replace(
    "KEPT", "(lambda record, seed: er.redact(record, seed % PLAYERS))"
)
WORKLOADS["validate"] = WORKLOADS["validate"].replace("KEPT", "(lambda record, seed: record)")

DRIVER = """
import time
if UNITS:
    print(sum(unit(i) for i in range(UNITS)))
else:
    done, spent, i = 0, 0.0, 0
    while spent < SECONDS:
        start = time.process_time()
        done += unit(i)
        spent += time.process_time() - start
        i += 1
    print(done / spent)
"""


def _bench_games(call: str, *functions: str) -> str:
    """A workload that plays games with ``functions`` of ``bench.py`` (their text, run against
    the other tree as well) by ``call``, one seed after another."""
    source = (ROOT / "benchmarks" / "bench.py").read_text()
    found = {
        node.name: ast.get_source_segment(source, node)
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name in functions
    }
    texts = "\n".join(str(found[name]) for name in functions)
    return f"""
import random
from typing import Any
import ethnos_rules as er
{texts}
rng = random.Random(SEED)
def unit(i):
    seed = SEED * 1000 + i
    return {call}
"""


WORKLOADS["play"] = _bench_games("random_game(PLAYERS, rng)", "random_game")
WORKLOADS["pettingzoo"] = _bench_games("_pettingzoo_game(seed)", "_pettingzoo_game", "_drive")
WORKLOADS["openspiel"] = _bench_games("_openspiel_game(seed)", "_openspiel_game")


def code_of(workload: str, players: int, seconds: float, seed: int, units: int = 0) -> str:
    """The program of one run of ``workload``: for ``seconds`` of CPU time, or ``units``."""
    return (
        (WORKLOADS[workload] + DRIVER)
        .replace("SECONDS", repr(seconds))
        .replace("PLAYERS", str(players))
        .replace("SEED", str(seed))
        .replace("UNITS", str(units))
    )


def _python(tree: Path, code: str, wrapper: list[str] | None = None) -> str:
    """Run ``code`` against ``tree``'s sources (under ``wrapper``); everything it printed."""
    # A fixed hash seed: sets and dicts of strings then iterate alike at every run, and so do
    # the instructions counted.
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
    command = [*(wrapper or []), sys.executable, "-c", code]
    out = subprocess.run(command, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"a workload failed in {tree}:\n{out.stderr[-4000:]}")
    return out.stdout + out.stderr


def run(tree: Path, workload: str, players: int, seconds: float, seed: int) -> float:
    """Decisions per second of ``workload`` in ``tree`` over about ``seconds`` of CPU time."""
    code = code_of(workload, players, seconds, seed)
    return float(_python(tree, code).split()[-1])


# Without address-space randomisation (setarch -R) objects hashed by identity fall alike in
# their dicts at every run; what is left varies by a few parts in a million of start-up.
_NO_ASLR = ["setarch", platform.machine(), "-R"] if shutil.which("setarch") else []
CALLGRIND = [*_NO_ASLR, "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]


def instructions(tree: Path, workload: str, players: int, units: int) -> float:
    """Instructions per decision of ``workload`` in ``tree``: ``units`` units of work, then twice
    as many, each counted by callgrind; the difference leaves out start-up and set-up."""
    _python(tree, code_of(workload, players, 0.0, 0, 1))  # compiles what the counts import
    counts, done = [], []
    for n in (units, 2 * units):
        text = _python(tree, code_of(workload, players, 0.0, 0, n), CALLGRIND)
        found = re.search(r"Collected : (\d+)", text)
        if found is None:
            raise SystemExit(f"callgrind counted nothing for {workload} in {tree}:\n{text[-2000:]}")
        counts.append(int(found.group(1)))
        done.append(int(text.split("\n", 1)[0]))
    return (counts[1] - counts[0]) / (done[1] - done[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the revision to compare with (e.g. HEAD~1)")
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="play")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions per decision with callgrind instead of timing rounds",
    )
    parser.add_argument(
        "--units", type=int, default=2, help="with --instructions: units of work (games, records)"
    )
    args = parser.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(base), args.base],
            check=True,
        )
        try:
            if args.instructions:
                _count(args, base)
            else:
                _time(args, base)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=True
            )
    return 0


def _time(args: argparse.Namespace, base: Path) -> None:
    ratios: list[float] = []
    ours: list[float] = []
    theirs: list[float] = []
    for i in range(args.rounds):
        trees = [(ROOT, ours), (base, theirs)]
        for tree, rates in trees if i % 2 == 0 else trees[::-1]:
            rates.append(run(tree, args.workload, args.players, args.seconds, i))
        ratios.append(ours[-1] / theirs[-1])
        print(f"round {i + 1}: {ours[-1]:,.0f} vs {theirs[-1]:,.0f} /s ({ratios[-1]:.3f})")
    print(
        f"{args.workload}, {args.players} players: this tree ÷ {args.base} = "
        f"{statistics.median(ratios):.3f} median ({min(ratios):.3f}–{max(ratios):.3f}),"
        f" {args.rounds} alternating rounds of {args.seconds:g} s"
    )


def _count(args: argparse.Namespace, base: Path) -> None:
    # Counts do not depend on the load, so the two trees run at once, one on each core.
    with ThreadPoolExecutor(2) as pool:
        ours, theirs = pool.map(
            lambda tree: instructions(tree, args.workload, args.players, args.units), (ROOT, base)
        )
    print(
        f"{args.workload}, {args.players} players: {ours:,.0f} instructions per decision here,"
        f" {theirs:,.0f} at {args.base}: this tree ÷ {args.base} = {theirs / ours:.3f}"
        f" (callgrind, {args.units} and {2 * args.units} units)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
