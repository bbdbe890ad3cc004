"""Speed of this tree against another revision, side by side: one optimisation's ratio.

Usage::

    python benchmarks/compare.py HEAD~1                 # random 4-player play, 7 rounds
    python benchmarks/compare.py HEAD~1 --workload validate --rounds 9
    python benchmarks/compare.py HEAD~1 --workload one-seat     # validate records kept at one seat
    python benchmarks/compare.py HEAD~1 --workload openspiel    # random play through pyspiel

The ``play``, ``pettingzoo`` and ``openspiel`` workloads play the games of ``bench.py`` (the
adapters' with 4 players).

The other revision is checked out into a temporary git worktree. In each round both trees run
the same workload in a fresh process for the same CPU time, in alternating order, so a busy
machine slows both alike; the ratio (this tree ÷ the other) is taken per round and its median
reported, with the lowest and highest.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Each workload prints the decisions (the worst hand: bands listed cold) per second it managed
# in about SECONDS of CPU time.
WORKLOADS = {
    "validate": """
import time
import ethnos_rules as er
from ethnos_rules._rules import bands, notation
# Each record is validated as if nothing in it were seen before: the caches of band lists and
# of parsed texts are emptied first.
caches = [f for m in (bands, notation) for f in vars(m).values() if hasattr(f, "cache_clear")]
records = [KEPT(er.GameRecord.from_playthrough(er.play_random(PLAYERS, seed)), seed)
           for seed in range(8)]
decisions, spent = 0, 0.0
while spent < SECONDS:
    for record in records:
        for cache in caches:
            cache.cache_clear()
        start = time.process_time()
        assert er.validate(record).ok
        spent += time.process_time() - start
        decisions += len(record.actions)
print(decisions / spent)
""",
    "worst-hand": """
import time
import ethnos_rules as er
from ethnos_rules._rules import bands
hand = "HAL-green HAL-green HAL-purple HAL-orange HAL-orange HAL-gray HAL-gray HAL-red HAL-blue SKE"
state = er.position(4, ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"], hands={0: hand})
listed, start = 0, time.process_time()
caches = [f for f in vars(bands).values() if hasattr(f, "cache_clear")]  # every band list
while time.process_time() - start < SECONDS:
    for cache in caches:
        cache.cache_clear()
    listed += len(er.legal_actions(state))
print(listed / (time.process_time() - start))
""",
}
# The validate workload on whole records, and on the records as one seat kept them (seat =
# seed mod PLAYERS).
WORKLOADS["one-seat"] = WORKLOADS["validate"].replace(
    "KEPT", "(lambda record, seed: er.redact(record, seed % PLAYERS))"
)
WORKLOADS["validate"] = WORKLOADS["validate"].replace("KEPT", "(lambda record, seed: record)")


def _bench_games(function: str, call: str) -> str:
    """A workload that plays games with ``function`` of ``bench.py`` (its text, run against
    the other tree as well) by ``call``, one seed after another."""
    source = (ROOT / "benchmarks" / "bench.py").read_text()
    found = next(
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name == function
    )
    return f"""
import random, time
import ethnos_rules as er
{ast.get_source_segment(source, found)}
rng, decisions, seed, start = random.Random(SEED), 0, SEED * 1000, time.process_time()
while time.process_time() - start < SECONDS:
    decisions += {call}
    seed += 1
print(decisions / (time.process_time() - start))
"""


WORKLOADS["play"] = _bench_games("random_game", "random_game(PLAYERS, rng)")
WORKLOADS["pettingzoo"] = _bench_games("_pettingzoo_game", "_pettingzoo_game(seed)")
WORKLOADS["openspiel"] = _bench_games("_openspiel_game", "_openspiel_game(seed)")


def code_of(workload: str, players: int, seconds: float, seed: int) -> str:
    """The program of one run of ``workload``."""
    return (
        WORKLOADS[workload]
        .replace("SECONDS", repr(seconds))
        .replace("PLAYERS", str(players))
        .replace("SEED", str(seed))
    )


def run(tree: Path, workload: str, players: int, seconds: float, seed: int) -> float:
    code = code_of(workload, players, seconds, seed)
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the {workload} workload failed in {tree}:\n{out.stderr}")
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the revision to compare with (e.g. HEAD~1)")
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="play")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(base), args.base],
            check=True,
        )
        try:
            ratios: list[float] = []
            ours: list[float] = []
            theirs: list[float] = []
            for i in range(args.rounds):
                trees = [(ROOT, ours), (base, theirs)]
                for tree, rates in trees if i % 2 == 0 else trees[::-1]:
                    rates.append(run(tree, args.workload, args.players, args.seconds, i))
                ratios.append(ours[-1] / theirs[-1])
                print(f"round {i + 1}: {ours[-1]:,.0f} vs {theirs[-1]:,.0f} /s ({ratios[-1]:.3f})")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=True
            )
    print(
        f"{args.workload}, {args.players} players: this tree ÷ {args.base} = "
        f"{statistics.median(ratios):.3f} median ({min(ratios):.3f}–{max(ratios):.3f}),"
        f" {args.rounds} alternating rounds of {args.seconds:g} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
