"""How long ``resample`` takes on records of players who hoard unseen cards (issue 31).

The adversarial records are those of ``tests/hoarding.py``: 4 to 6 players who draw blind,
lead Elves and keep all they may, let Wizards draw and chain Centaurs, each game kept at every
seat, whole and cut at a random decision; and the review's 6-player record that the rejection
sampler did not finish in 400 s. For each record: the first call (the replay and the counts
made), later calls on the same record (the counts kept: only the draw), and ``validate`` of
the same record beside them, since a first call replays the record as ``validate`` does.

    python benchmarks/resampling.py [--games N]
    python benchmarks/bench.py --only resampling
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import ethnos_rules as er  # noqa: E402
from ethnos_rules._seat import resample as _resample  # noqa: E402
from hoarding import hoarding_game  # noqa: E402

REVIEW_RECORD = ROOT / "tests" / "data" / "hoard-6p-seed2-seat0.json"


def records(games: int) -> list[er.GameRecord]:
    """Seat records of hoarding games of 4, 5 and 6 players: whole, and cut at random."""
    out = [er.GameRecord.from_json(REVIEW_RECORD.read_text())]
    for players in (4, 5, 6):
        for seed in range(games):
            game = hoarding_game(players, 7_000 + seed)
            whole = er.GameRecord.from_playthrough(game)
            cut = random.Random(seed).randrange(1, len(game.actions))
            part = er.GameRecord.from_start(game.start, game.actions[:cut])
            for seat in range(players):
                out += [er.redact(whole, seat), er.redact(part, seat)]
    return out


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def measure(games: int, again: int = 5) -> dict[str, float]:
    """Times over the records, in seconds: first calls, later calls, and validate."""
    first, later, checking = [], [], []
    review = 0.0
    for n, record in enumerate(records(games)):
        _resample._plan.cache_clear()
        rng = random.Random(n)
        checking.append(_timed(functools.partial(er.validate, record)))
        first.append(_timed(functools.partial(er.resample, record, rng)))
        later += [_timed(functools.partial(er.resample, record, rng)) for _ in range(again)]
        if n == 0:
            review = first[-1]
    return {
        "records": len(first),
        "first median": statistics.median(first),
        "first worst": max(first),
        "later median": statistics.median(later),
        "later worst": max(later),
        "validate median": statistics.median(checking),
        "first / validate": statistics.median(f / c for f, c in zip(first, checking, strict=True)),
        "review record": review,
    }


def markdown(result: dict[str, float]) -> list[str]:
    """The section of the results page."""
    ms = {k: v * 1000 for k, v in result.items() if k not in ("records", "first / validate")}
    return [
        "",
        "## Resampling a record kept at one seat",
        "",
        f"Over {int(result['records'])} seat records of players who hoard unseen cards"
        " (`tests/hoarding.py`: 4–6 players who draw blind, lead Elves and keep all they may,"
        " let Wizards draw and chain Centaurs; whole games and games cut at random, every seat;"
        " and the review's 6-player record):",
        "",
        "| resample | median | worst |",
        "|---|---|---|",
        f"| first call on a record (replay and counting) | {ms['first median']:.1f} ms"
        f" | {ms['first worst']:.1f} ms |",
        f"| later calls on the same record (the draw) | {ms['later median']:.2f} ms"
        f" | {ms['later worst']:.1f} ms |",
        f"| validate of the same record, for scale | {ms['validate median']:.1f} ms | |",
        "",
        f"A first call costs {result['first / validate']:.2f}× validating the record (median of"
        f" per-record ratios). The review's record, which the rejection sampler of 4b95a61 did"
        f" not finish in 400 s: {ms['review record']:.0f} ms.",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per player count")
    args = parser.parse_args(argv)
    print("\n".join(markdown(measure(args.games))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
