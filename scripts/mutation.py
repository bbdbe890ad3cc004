"""Mutation testing of the rule modules (``make mutation``): the score per module.

1. ``mutmut run`` (configured in ``[tool.mutmut]`` of pyproject.toml) mutates the rule modules
   and runs, for each mutant, the tests of its selection that reach the mutated function (fast
   ones first, stopping at the first failure): the whole suite of ``make pytest`` but the few
   slow files that start processes, a browser or OpenSpiel, with Hypothesis's ``mutation``
   profile (a fifth of the examples, tests/conftest.py). mutmut keeps its verdicts between runs
   and tests again only the functions that changed; when a test or a docs page changed since
   the last run, it maps the tests to the functions again and runs the survivors again.
2. Every mutant that neither fails those tests nor times out (it survived, or no selected test
   reaches its function) is run against the whole suite as ``make pytest`` runs it (every file,
   the ``ci`` profile). So a mutant counted as surviving has passed the whole suite.
3. Survivors of both that ``tests/mutation-survivors.md`` lists, by mutmut's name, as reviewed
   equivalent mutants count as equivalent; the score of a module is
   (killed + timed out) / (mutants - equivalent).

Run from the repository with the project's venv: ``.venv/bin/python scripts/mutation.py``.
``--jobs`` sets how many mutants run at once (default: the number of CPUs); ``--only-report``
prints the score from the results of an earlier run. The results are in ``mutants/`` (not
committed): mutmut's own, and ``mutants/whole-suite.json`` for the second pass.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
RULES = Path("src/ethnos_rules/_rules")
MODULES = ("scoring", "bands", "tribes", "turn", "age", "chance", "randomness", "setup")
"""The rule modules mutated, as in ``[tool.mutmut] only_mutate``."""

SURVIVORS = ROOT / "tests" / "mutation-survivors.md"
WHOLE = MUTANTS / "whole-suite.json"
FINGERPRINT = MUTANTS / "tests-fingerprint.txt"
NAME = re.compile(r"`(ethnos_rules\._rules\.[\w.]+\.x[^`\s]*__mutmut_\d+)`")

# mutmut's exit codes (mutmut.stats.status_by_exit_code), in the words of this report.
KILLED = {1, 3}
TIMEOUT = {36, 24, -24, 152, 255}
SURVIVED = {0}
NOT_REACHED = {5, 33}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--only-report", action="store_true")
    args = parser.parse_args()
    os.chdir(ROOT)
    started = time.monotonic()
    if not args.only_report:
        fingerprint = tests_fingerprint()
        old = FINGERPRINT.read_text(encoding="utf-8") if FINGERPRINT.exists() else None
        changed = MUTANTS.exists() and old != fingerprint
        if changed:
            # mutmut maps each function to the tests that reach it once, and maps again only
            # new tests: after a test changed, the whole map is made again.
            (MUTANTS / "mutmut-stats.json").unlink(missing_ok=True)
        code = mutmut("run", "--max-children", str(args.jobs))
        if code:
            return code
        if changed:
            again = [n for n, c in read_mutmut().items() if c in SURVIVED | NOT_REACHED]
            print(f"\nThe tests changed: {len(again)} surviving mutants run again")
            if again and (code := mutmut("run", "--max-children", str(args.jobs), *again)):
                return code
        FINGERPRINT.write_text(fingerprint, encoding="utf-8")
    status = read_mutmut()
    full = read_whole_suite() if args.only_report else rerun_against_whole_suite(status, args.jobs)
    equivalent = reviewed_equivalents()
    report(status, full, equivalent)
    if not args.only_report:
        minutes = (time.monotonic() - started) / 60
        when = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
        print(f"\n{when}, {minutes:.0f} minutes, --jobs {args.jobs}")
    return 0


def mutmut(*args: str) -> int:
    """Run mutmut's command line (installed beside this Python) with ``args``, under
    Hypothesis's ``mutation`` profile."""
    command = [str(Path(sys.executable).with_name("mutmut")), *args]
    code = subprocess.call(command, env=dict(os.environ, HYPOTHESIS_PROFILE="mutation"))
    if code:
        print(f"mutmut {args[0]} failed with exit code {code}", file=sys.stderr)
    return code


def tests_fingerprint() -> str:
    """A hash of the tests, the README and the docs pages (what a doctest may be in)."""
    digest = hashlib.sha256()
    paths = [*(ROOT / "tests").rglob("*"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    for path in sorted(p for p in paths if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def read_mutmut() -> dict[str, int | None]:
    """Each mutant of the rule modules, with the exit code mutmut recorded for it."""
    out: dict[str, int | None] = {}
    for module in MODULES:
        meta = MUTANTS / RULES / f"{module}.py.meta"
        if not meta.exists():
            raise SystemExit(f"{meta} is missing: run mutmut first (without --only-report)")
        out.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return out


def read_whole_suite() -> dict[str, int]:
    """The whole suite's exit codes recorded by the last run, mutant by mutant."""
    if not WHOLE.exists():
        return {}
    results: dict[str, int] = json.loads(WHOLE.read_text(encoding="utf-8"))
    return results


def rerun_against_whole_suite(status: dict[str, int | None], jobs: int) -> dict[str, int]:
    """The whole suite's exit code for every mutant that mutmut did not kill."""
    todo = [
        name for name, code in status.items() if code is not None and code not in KILLED | TIMEOUT
    ]
    if todo:
        print(f"\nThe whole suite against the {len(todo)} mutants mutmut did not kill")
    env = dict(os.environ, PYTHONPATH=str(MUTANTS / "src"), PY_IGNORE_IMPORTMISMATCH="1")
    for name in ("PYTEST_ADDOPTS", "HYPOTHESIS_PROFILE"):
        env.pop(name, None)

    def run(name: str) -> tuple[str, int]:
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
        done = subprocess.run(
            command,
            cwd=MUTANTS,
            env={**env, "MUTANT_UNDER_TEST": name},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        if name:
            print(f"    {'killed  ' if done.returncode else 'survived'} {name}", flush=True)
        return name, done.returncode

    if todo and run("")[1]:
        raise SystemExit("the whole suite fails in mutants/ with no mutant: nothing to measure")
    results: dict[str, int] = {}
    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
        for name, code in pool.map(run, todo):
            results[name] = code
            WHOLE.write_text(json.dumps(results, indent=1, sort_keys=True), encoding="utf-8")
    return {name: code for name, code in results.items() if name in status}


def reviewed_equivalents() -> set[str]:
    """The mutants that tests/mutation-survivors.md names as reviewed equivalent ones."""
    return set(NAME.findall(SURVIVORS.read_text(encoding="utf-8")))


def report(status: dict[str, int | None], full: dict[str, int], equivalent: set[str]) -> None:
    """Print the counts and the score per module, then what is left to look at. A score is over
    the mutants run so far; a survivor not yet run against the whole suite is counted as a
    survivor (or equivalent) and reported as such."""
    counts: dict[str, Counter[str]] = {m: Counter() for m in MODULES}
    survivors: list[str] = []
    stale: list[str] = []
    for name, code in sorted(status.items()):
        module = name.split(".")[2]
        if code is None:
            verdict = "not run"  # mutmut was stopped before it came to this mutant
        elif code in KILLED or (code not in TIMEOUT and full.get(name, 0) != 0):
            verdict = "killed"
        elif code in TIMEOUT:
            verdict = "timeout"
        else:
            verdict = "equivalent" if name in equivalent else "survived"
            if name not in full:
                counts[module]["pending"] += 1
            if verdict == "survived":
                survivors.append(name)
        if name in equivalent and verdict not in ("equivalent", "not run"):
            stale.append(f"{name} ({verdict})")
        counts[module][verdict] += 1
    width = max(map(len, MODULES)) + 1
    print(f"\n{'module':<{width}} mutants  killed  timeout  survived  equivalent  not run  score")
    for module in MODULES:
        c = counts[module]
        total = sum(v for k, v in c.items() if k != "pending")
        detected = c["killed"] + c["timeout"]
        real = total - c["not run"] - c["equivalent"]
        score = f"{100 * detected / real:.1f} %" if real else "-"
        late = f"  ({c['pending']} not yet run against the whole suite)" if c["pending"] else ""
        print(
            f"{module:<{width}} {total:7} {c['killed']:7} {c['timeout']:8} {c['survived']:9}"
            f" {c['equivalent']:11} {c['not run']:8}  {score}{late}"
        )
    if survivors:
        print("\nSurvivors not listed in tests/mutation-survivors.md (see `mutmut show NAME`):")
        for name in survivors:
            print(f"    {name}")
    if stale:
        print("\nListed as equivalent in tests/mutation-survivors.md but not surviving:")
        for line in stale:
            print(f"    {line}")
    unknown = sorted(equivalent - set(status))
    if unknown:
        print("\nListed in tests/mutation-survivors.md but no longer a mutant:")
        for name in unknown:
            print(f"    {name}")


if __name__ == "__main__":
    sys.exit(main())
