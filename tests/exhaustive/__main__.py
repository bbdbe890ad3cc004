"""``python -m exhaustive`` (run from ``tests/``; ``make exhaustive`` does): search every
reachable state of every small scope, check one seat's records in the smallest, print the
figures, and fail on any violation, on a rule a scope did not reach, or on fewer than 10⁶
states in all.

Options: ``--only NAME`` (a scope; repeatable), ``--jobs N`` (processes; 2 by default),
``--out DIR`` (where violations are written, with a snapshot to replay each).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path

from .explore import Report, explore
from .one_seat import SeatReport, check_one_seat
from .scopes import ALL, ONE_SEAT_SCOPES, Scope

LEAST_STATES = 10**6
"""The fewest distinct states the whole run must visit (issue 37)."""

Task = tuple[str, str]
"""("search" or "one seat", a scope's name)."""


def _scope(name: str, scopes: tuple[Scope, ...]) -> Scope:
    return next(s for s in scopes if s.name == name)


def _run(task: Task) -> Report | SeatReport:
    kind, name = task
    if kind == "search":
        return explore(_scope(name, ALL))
    return check_one_seat(_scope(name, ONE_SEAT_SCOPES))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m exhaustive", description=__doc__)
    parser.add_argument("--only", action="append", help="this scope only (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--out", default="../build/exhaustive", help="where violations go")
    args = parser.parse_args(argv)
    chosen = set(args.only or [])
    known = {s.name for s in ALL} | {s.name for s in ONE_SEAT_SCOPES}
    if chosen - known:
        parser.error(f"unknown scope(s) {sorted(chosen - known)}; known: {sorted(known)}")
    # the one-seat checks take longest: they go first, so that the processes end together
    tasks: list[Task] = [
        ("one seat", s.name) for s in ONE_SEAT_SCOPES if not chosen or s.name in chosen
    ]
    tasks += [("search", s.name) for s in ALL if not chosen or s.name in chosen]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(max(1, args.jobs)) as pool:
        results = {
            (("search" if isinstance(r, Report) else "one seat"), r.scope): r
            for r in pool.imap_unordered(_run, tasks)
        }
    wall = time.perf_counter() - began
    searches = [r for t in tasks if isinstance(r := results[t], Report)]
    seats = [r for t in tasks if isinstance(r := results[t], SeatReport)]
    _write_summary(searches, seats, Path(args.out))
    problems = _print_searches(searches, Path(args.out))
    problems += _print_seats(seats)
    total = sum(r.states for r in searches)
    if not chosen and total < LEAST_STATES:
        problems.append(f"{total:,} states in all, fewer than {LEAST_STATES:,}")
    print(
        f"\n{total:,} distinct states and {sum(r.transitions for r in searches):,} transitions"
        f" checked; {wall / 60:.1f} minutes on {args.jobs} processes."
    )
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    print("0 violations." if not problems else f"{len(problems)} problem(s).")
    return 1 if problems else 0


def _print_searches(reports: list[Report], out: Path) -> list[str]:
    """The table of the searches; what failed (violations, rules a scope did not reach)."""
    print("| scope | players | states | transitions | game ends | violations | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    problems = []
    for r in reports:
        scope = _scope(r.scope, ALL)
        print(
            f"| {r.scope} | {scope.players} | {r.states:,} | {r.transitions:,} |"
            f" {r.terminal:,} | {r.violations} | {r.seconds:.0f} |"
        )
        missing = [rule for rule in scope.covers if not r.reached[rule]]
        if missing:
            problems.append(f"{r.scope} did not reach: {'; '.join(missing)}")
        if r.violations:
            problems.append(f"{r.scope}: {r.violations} violation(s), written to {out}")
            _write(r, out)
    reached: Counter[str] = Counter()
    for r in reports:
        reached.update(r.reached)
    print(f"\n{len(reached)} rules put to work, e.g. " + "; ".join(sorted(reached)[:6]) + " …")
    return problems


def _write_summary(searches: list[Report], seats: list[SeatReport], out: Path) -> None:
    """The figures and the rules each scope put to work, as JSON, for the record."""
    out.mkdir(parents=True, exist_ok=True)
    summary = {
        "searches": [
            {
                **{k: v for k, v in vars(r).items() if k not in ("kept", "reached")},
                "reached": dict(sorted(r.reached.items())),
            }
            for r in searches
        ],
        "one_seat": [{**vars(r), "p_value": r.p_value} for r in seats],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))


def _write(report: Report, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for i, violation in enumerate(report.kept):
        path = out / f"{report.scope}-{i}.json"
        path.write_text(violation.snapshot)
        print(f"  {violation} (state: {path})", file=sys.stderr)


def _print_seats(reports: list[SeatReport]) -> list[str]:
    """The table of the one-seat checks; what failed."""
    if not reports:
        return []
    print(
        "\n| one seat | whole games | records | record starts | validations | refused"
        " | resampled exactly | by chi-square | seconds |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    problems = []
    for r in reports:
        print(
            f"| {r.scope} | {r.games:,} | {r.records:,} | {r.starts:,} | {r.checked:,} |"
            f" {r.refused:,} | {r.exact:,} | {r.tested:,} | {r.seconds:.0f} |"
        )
        problems += [f"{r.scope}: {v}" for v in r.violations[:20]]
        if r.p_value < 0.001:
            problems.append(f"{r.scope}: resampling's chi-square p-value is {r.p_value:.2g}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
