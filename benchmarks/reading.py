"""Reading records against checking them, and validating an archive, side by side with a base
commit (issue 31: reading a record costs at most a quarter of checking it; ``ethnos-rules
validate FOLDER`` at least 1.6x faster than at 4b95a61).

Three figures, each measured in this tree and in the base commit (checked out into a temporary
git worktree) in alternating rounds, every run in a fresh process with ``PYTHONPATH`` set to the
tree's ``src``:

- **Reading vs validating.** A realistic set of records (2 to 6 players; whole records and
  records kept at one seat, each with and without claimed Glory) is read
  (``GameRecord.from_json``) and validated (``validate``) in turns; the ratio of the two times
  is taken per round and its median reported. ``validate`` runs with its caches warm (every
  record is validated once before timing), which makes it as cheap as it gets and the reading
  share as large as it gets.
- **Reading and validating in one process**: records per second of ``GameRecord.read`` then
  ``validate`` over the files of an archive.
- **The command line**: ``ethnos-rules validate -q FOLDER`` on the archive, wall time, with its
  default processes (every core); records per second.

Without git, or when the base commit cannot be checked out (a shallow clone), this tree is
measured alone and the result says why.

Usage (the section alone, without the rest of ``make bench``)::

    python benchmarks/bench.py --only reading
    python benchmarks/bench.py --only reading --archive-games 10000 --base 4b95a61
    python benchmarks/bench.py --only reading --archive FOLDER   # an archive already written
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import ethnos_rules as er

ROOT = Path(__file__).resolve().parents[1]

BASE = "4b95a61"
"""The commit the figures are compared with: the last before reading was made cheap."""

KINDS = ("whole", "whole, claimed", "one seat", "one seat, claimed")

READ_VS_VALIDATE = """
import json, sys, time
import ethnos_rules as er
kinds = json.loads(sys.argv[1])
rounds = int(sys.argv[2])
texts = {k: [open(p, encoding="utf-8").read() for p in paths] for k, paths in kinds.items()}
records = {k: [er.GameRecord.from_json(t) for t in ts] for k, ts in texts.items()}
for rs in records.values():
    for r in rs:
        assert er.validate(r).ok, r
out = {k: {"read": [], "validate": []} for k in texts}
for _ in range(rounds):
    for k in texts:
        start = time.perf_counter()
        for t in texts[k]:
            er.GameRecord.from_json(t)
        middle = time.perf_counter()
        for r in records[k]:
            er.validate(r)
        out[k]["read"].append(middle - start)
        out[k]["validate"].append(time.perf_counter() - middle)
print(json.dumps(out))
"""
"""Per kind of record, the seconds of each round's reading and validating of the whole set."""

READ_AND_VALIDATE = """
import sys, time
import ethnos_rules as er
paths = sys.argv[1:]
er.validate(er.GameRecord.read(paths[0]))  # jsonschema's import and the schema's check
start = time.perf_counter()
for path in paths:
    assert er.validate(er.GameRecord.read(path)).ok, path
print(len(paths) / (time.perf_counter() - start))
"""
"""Records per second, read from their files and validated, one after another."""

CLI = "import sys; from ethnos_rules.cli import main; sys.argv[0] = 'ethnos-rules'; main()"


def _python(tree: Path, code: str, *args: str) -> str:
    """Run ``code`` with ``args`` against ``tree``'s sources; what it printed on stdout."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(f"a reading benchmark failed in {tree}:\n{out.stderr[-4000:]}")
    return out.stdout


@contextlib.contextmanager
def base_tree(base: str | None) -> Iterator[tuple[Path | None, str]]:
    """A temporary worktree of ``base`` (removed afterwards), or None with the reason."""
    if base is None:
        yield None, "no base commit was asked for"
        return
    if shutil.which("git") is None:
        yield None, f"git is not available, so {base} cannot be checked out"
        return
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        made = subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), base],
            capture_output=True,
            text=True,
        )
        if made.returncode:
            why = made.stderr.strip().splitlines()[-1:] or ["git failed"]
            yield None, f"{base} cannot be checked out ({why[0]})"
            return
        try:
            yield tree, ""
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                capture_output=True,
            )


def _record_set(folder: Path, seeds: int) -> dict[str, list[str]]:
    """The records of random games of 2 to 6 players, seeds 1 to ``seeds``, in each kind, as
    files in ``folder``: their paths by kind."""
    folder.mkdir(parents=True)
    out: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for players in range(2, 7):
        for seed in range(1, seeds + 1):
            game = er.play_random(players, seed)
            claims = [player.glory for player in game.final.players]
            whole = er.GameRecord.from_playthrough(game, metadata={"seed": seed})
            claimed = er.GameRecord.from_playthrough(
                game, metadata={"seed": seed}, claimed_glory=claims
            )
            seat = seed % players
            kept = {
                "whole": whole,
                "whole, claimed": claimed,
                "one seat": er.redact(whole, seat),
                "one seat, claimed": er.redact(claimed, seat),
            }
            for kind, record in kept.items():
                path = (
                    folder / f"{kind.replace(', ', '-').replace(' ', '-')}-{players}p-{seed}.json"
                )
                path.write_text(record.to_json() + "\n", encoding="utf-8")
                out[kind].append(str(path))
    return out


def _simulated(seed: int) -> str:
    """The record ``ethnos-rules simulate -p 4 -s SEED`` writes, as text."""
    game = er.play_random(4, seed)
    metadata = {"source": "ethnos-rules simulate", "seed": seed}
    return er.GameRecord.from_playthrough(game, metadata=metadata).to_json()


def write_archive(folder: Path, games: int) -> None:
    """An archive of ``games`` random 4-player records, seeds 1 to ``games`` (as ``ethnos-rules
    simulate -p 4 -s 1 --games N --out FOLDER`` writes it), on every core."""
    folder.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(min(2, os.cpu_count() or 1)) as pool:
        seeds = range(1, games + 1)
        for seed, text in zip(seeds, pool.map(_simulated, seeds, chunksize=16), strict=True):
            (folder / f"game-{seed:06d}.json").write_text(text + "\n", encoding="utf-8")


def _alternate(trees: list[Path], rounds: int) -> Iterator[tuple[int, Path]]:
    """(round, tree) in alternating order: this tree first in even rounds, last in odd ones."""
    for i in range(rounds):
        for tree in trees if i % 2 == 0 else trees[::-1]:
            yield i, tree


def _ratios(first: list[float], second: list[float]) -> float:
    return statistics.median(a / b for a, b in zip(first, second, strict=True))


def reading_vs_validating(trees: list[Path], kinds: dict[str, list[str]], rounds: int) -> list[Any]:
    """For each tree: milliseconds a record to read and to validate, their ratio (median of the
    rounds'), and the ratio for each kind of record."""
    runs: dict[Path, list[dict[str, dict[str, list[float]]]]] = {tree: [] for tree in trees}
    for _, tree in _alternate(trees, rounds):
        runs[tree].append(json.loads(_python(tree, READ_VS_VALIDATE, json.dumps(kinds), "3")))
    count = sum(map(len, kinds.values()))
    out = []
    for tree in trees:
        read: list[float] = []
        check: list[float] = []
        by_kind: dict[str, list[float]] = {kind: [] for kind in kinds}
        for run in runs[tree]:
            for i in range(len(run[KINDS[0]]["read"])):
                read.append(sum(run[k]["read"][i] for k in kinds))
                check.append(sum(run[k]["validate"][i] for k in kinds))
                for k in kinds:
                    by_kind[k].append(run[k]["read"][i] / run[k]["validate"][i])
        out.append(
            {
                "read_ms": statistics.median(read) / count * 1e3,
                "validate_ms": statistics.median(check) / count * 1e3,
                "ratio": _ratios(read, check),
                "by_kind": {k: statistics.median(v) for k, v in by_kind.items()},
                "read_times": read,
            }
        )
    return out


def in_process(trees: list[Path], paths: list[str], rounds: int) -> list[list[float]]:
    """For each tree: records per second read and validated in one process, by round."""
    rates: dict[Path, list[float]] = {tree: [] for tree in trees}
    for _, tree in _alternate(trees, rounds):
        rates[tree].append(float(_python(tree, READ_AND_VALIDATE, *paths)))
    return [rates[tree] for tree in trees]


def command_line(trees: list[Path], folder: Path, games: int, rounds: int) -> list[list[float]]:
    """For each tree: records per second of ``ethnos-rules validate -q FOLDER``, by round."""
    rates: dict[Path, list[float]] = {tree: [] for tree in trees}
    for _, tree in _alternate(trees, rounds):
        env = {**os.environ, "PYTHONPATH": str(tree / "src")}
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", CLI, "validate", "-q", "--no-progress", str(folder)],
            env=env,
            capture_output=True,
            text=True,
        )
        elapsed = time.perf_counter() - start
        if out.returncode or f"{games} valid" not in out.stdout + out.stderr:
            raise SystemExit(f"validate {folder} failed in {tree}:\n{out.stderr[-4000:]}")
        rates[tree].append(games / elapsed)
    return [rates[tree] for tree in trees]


def measure(
    *,
    seeds: int,
    rounds: int,
    archive_games: int,
    sample: int,
    base: str | None = BASE,
    archive: Path | None = None,
) -> dict[str, Any]:
    """Every figure of the section (see the module docstring).

    Args:
        seeds: Games per player count in the record set (each in four kinds).
        rounds: Alternating rounds of each figure.
        archive_games: Records of the archive written for the command line, if ``archive`` is
            None.
        sample: Files of the archive read and validated in one process.
        base: The commit to compare with, or None for this tree alone.
        archive: An archive already written (every ``*.json`` file in it a valid record).
    """
    with base_tree(base) as (base_path, why), tempfile.TemporaryDirectory() as tmp:
        trees = [ROOT] if base_path is None else [ROOT, base_path]
        kinds = _record_set(Path(tmp) / "set", seeds)
        if archive is None:
            archive = Path(tmp) / "archive"
            write_archive(archive, archive_games)
        paths = sorted(str(p) for p in archive.glob("*.json"))
        figures = reading_vs_validating(trees, kinds, rounds)
        throughput = in_process(trees, paths[:sample], rounds)
        cli = command_line(trees, archive, len(paths), rounds)
    out: dict[str, Any] = {
        "base": base if base_path is not None else None,
        "base_missing": why,
        "records": sum(map(len, kinds.values())),
        "rounds": rounds,
        "here": {k: v for k, v in figures[0].items() if k != "read_times"},
        "in_process": {"records": len(paths[:sample]), "here_per_s": median(throughput[0])},
        "cli": {"records": len(paths), "here_per_s": median(cli[0])},
    }
    for key, rates in (("in_process", throughput), ("cli", cli)):
        out[key]["here_rounds"] = rates[0]
    if base_path is not None:
        out["before"] = {k: v for k, v in figures[1].items() if k != "read_times"}
        out["reading_speedup"] = _ratios(figures[1]["read_times"], figures[0]["read_times"])
        for key, rates in (("in_process", throughput), ("cli", cli)):
            ratios = [a / b for a, b in zip(rates[0], rates[1], strict=True)]
            out[key]["base_per_s"] = median(rates[1])
            out[key]["base_rounds"] = rates[1]
            out[key]["ratio"] = median(ratios)
            out[key]["ratio_range"] = [min(ratios), max(ratios)]
    return out


def median(values: list[float]) -> float:
    return statistics.median(values)


def _range(figure: dict[str, Any]) -> str:
    low, high = figure.get("ratio_range", (figure["ratio"], figure["ratio"]))
    return f"rounds {low:.2f} to {high:.2f}"


def markdown(r: dict[str, Any]) -> list[str]:
    """The section of the results page."""
    here = r["here"]
    kinds = "; ".join(f"{kind} {ratio:.2f}" for kind, ratio in here["by_kind"].items())
    lines = [
        "",
        "## Reading records",
        "",
        f"{r['records']} records of random games, 2 to 6 players, whole and kept at one seat,"
        f" with and without claimed Glory, read (`GameRecord.from_json`) and validated in turns"
        f" (3 rounds in each of {r['rounds']} fresh processes; `validate`'s caches warm):"
        f" {here['read_ms']:.2f} ms to read a record, {here['validate_ms']:.2f} ms to validate"
        f" it: reading costs **{here['ratio']:.3f}×** validating (median of the rounds' ratios;"
        f" by kind: {kinds}).",
    ]
    if "before" in r:
        b = r["before"]
        lines[-1] += (
            f" At {r['base']}, measured in the same rounds: {b['read_ms']:.2f} ms and"
            f" {b['validate_ms']:.2f} ms, a ratio of {b['ratio']:.3f}; reading is now"
            f" **{r['reading_speedup']:.1f}×** as fast."
        )
    p, c = r["in_process"], r["cli"]
    if "ratio" in p:
        lines += [
            "",
            f"Read from their files and validated in one process ({p['records']} records of"
            f" the archive below): {p['here_per_s']:,.1f} records/s, {p['base_per_s']:,.1f} at"
            f" {r['base']}: **{p['ratio']:.2f}×** ({_range(p)}). `ethnos-rules validate -q"
            f" FOLDER` on an archive of {c['records']:,} 4-player records (every core):"
            f" {c['here_per_s']:,.1f} records/s, {c['base_per_s']:,.1f} at {r['base']}:"
            f" **{c['ratio']:.2f}×** ({_range(c)}). Records/s are the medians of"
            f" {r['rounds']} alternating rounds, each ratio the median of the rounds' ratios.",
        ]
    else:
        lines += [
            "",
            f"Read from their files and validated in one process: {p['here_per_s']:,.1f}"
            f" records/s over {p['records']} records. `ethnos-rules validate -q FOLDER` on an"
            f" archive of {c['records']:,} 4-player records: {c['here_per_s']:,.1f} records/s."
            f" Not compared with a base commit: {r['base_missing']}.",
        ]
    return lines
