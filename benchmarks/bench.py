"""Benchmarks of the referee, measured side by side with python-chess in one run.

Usage::

    python benchmarks/bench.py            # full run (about a minute)
    python benchmarks/bench.py --quick    # a few seconds: only checks that everything still works
    python benchmarks/bench.py --markdown docs/reference/performance-results.md

Every figure uses the public API only (``legal_actions``, ``apply``, ``chance_outcomes``), except
the cold-cache ``legal_actions`` timing, which clears the band cache so each call pays in full.
Random play and python-chess alternate in rounds; ratios are taken per round and the median is
reported, so a busy machine slows both sides alike.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import ethnos_rules as er
from ethnos_rules._rules import bands as _bands

ADVERSARIAL_HANDS = {
    "one colour, mixed tribes, 3 Skeletons": (
        ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"],
        "CEN-red CEN-red DWA-red DWA-red ELF-red ELF-red HAL-red SKE SKE SKE",
    ),
    "one colour, five tribes": (
        ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"],
        "CEN-red CEN-red DWA-red DWA-red ELF-red ELF-red HAL-red HAL-red GIA-red GIA-red",
    ),
    "one tribe, six colours": (
        ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"],
        "ELF-red ELF-red ELF-blue ELF-blue ELF-green ELF-green ELF-gray ELF-gray ELF-orange "
        "ELF-purple",
    ),
    "one tribe, 3 Skeletons": (
        ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"],
        "ELF-red ELF-red ELF-blue ELF-blue ELF-green ELF-green ELF-gray SKE SKE SKE",
    ),
}


def random_game(players: int, rng: random.Random) -> tuple[int, list[er.GameState] | None]:
    """Play one random game through the public API; returns the number of decisions."""
    state = er.new_game(players)
    decisions = 0
    while not er.is_terminal(state):
        if er.is_chance(state):
            outcomes = er.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(er.legal_actions(state))
        state = er.apply(state, action)
        decisions += 1
    return decisions, None


def ethnos_round(players: int, seconds: float, rng: random.Random) -> tuple[float, float]:
    """Decisions per second and games per second over about ``seconds``."""
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        decisions += random_game(players, rng)[0]
        games += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def chess_round(seconds: float, rng: random.Random) -> float | None:
    """python-chess random playouts: plies per second (legal_moves + push + outcome each ply)."""
    try:
        import chess
    except ImportError:
        return None
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while board.outcome() is None:
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return plies / (time.perf_counter() - start)


def playouts(seconds: float, rounds: int) -> dict[str, Any]:
    rng = random.Random(2026)
    out: dict[str, Any] = {}
    for players in (2, 4, 6):
        per_round = [ethnos_round(players, seconds, rng) for _ in range(rounds)]
        out[f"{players}p"] = {
            "decisions_per_s": statistics.median(d for d, _ in per_round),
            "games_per_s": statistics.median(g for _, g in per_round),
        }
    ratios = []
    chess_rates = []
    ours = []
    for _ in range(rounds):
        mine, _ = ethnos_round(4, seconds, rng)
        theirs = chess_round(seconds, rng)
        if theirs is None:
            break
        ours.append(mine)
        chess_rates.append(theirs)
        ratios.append(mine / theirs)
    if ratios:
        out["side_by_side"] = {
            "ethnos_4p_decisions_per_s": statistics.median(ours),
            "chess_plies_per_s": statistics.median(chess_rates),
            "ratio_median": statistics.median(ratios),
            "ratio_min": min(ratios),
            "rounds": len(ratios),
        }
    return out


def _best_time(call: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def adversarial(repeat: int) -> dict[str, Any]:
    out = {}
    for name, (tribes, hand) in ADVERSARIAL_HANDS.items():
        state = er.position(4, tribes, hands={0: hand})

        def cold(state: er.GameState = state) -> object:
            _bands.band_actions.cache_clear()
            return er.legal_actions(state)

        def warm(state: er.GameState = state) -> object:
            return er.legal_actions(state)

        out[name] = {
            "actions": len(er.legal_actions(state)),
            "cold_ms": _best_time(cold, repeat) * 1e3,
            "warm_us": _best_time(warm, repeat) * 1e6,
        }
    return out


def validation(games: int, rounds: int) -> dict[str, Any] | None:
    """Decisions per second of ``validate`` on recorded random 4-player games, and on the same
    games as one seat kept them (seat ``seed % 4``), in alternating rounds."""
    validate = getattr(er, "validate", None)
    record_type = getattr(er, "GameRecord", None)
    if validate is None or record_type is None:
        return None
    records = [record_type.from_playthrough(er.play_random(4, seed)) for seed in range(games)]
    redact = getattr(er, "redact", None)
    kept = [redact(r, seed % 4) for seed, r in enumerate(records)] if redact else []
    full_rates, seat_rates = [], []
    for _ in range(rounds):
        full_rates.append(_validation_rate(validate, records))
        if kept:
            seat_rates.append(_validation_rate(validate, kept))
    out: dict[str, Any] = {
        "records": games,
        "decisions": sum(len(r.actions) for r in records),
        "decisions_per_s": statistics.median(full_rates),
    }
    if seat_rates:
        out["one_seat_per_s"] = statistics.median(seat_rates)
        out["one_seat_decisions"] = sum(len(r.actions) for r in kept)
    return out


def _validation_rate(validate: Callable[[Any], Any], records: list[Any]) -> float:
    start = time.perf_counter()
    for record in records:
        report = validate(record)
        assert report.ok, report
    return sum(len(r.actions) for r in records) / (time.perf_counter() - start)


def _raw_game(seed: int) -> int:
    """A random 4-player game through the public API; its decisions."""
    rng, state, decisions = random.Random(seed), er.new_game(4), 0
    while not er.is_terminal(state):
        if er.is_chance(state):
            action = er.sample_outcome(state, rng)
        else:
            action = rng.choice(er.legal_actions(state))
        state = er.apply(state, action)
        decisions += 1
    return decisions


def _pettingzoo_game(seed: int) -> int:
    """A random 4-player game through the PettingZoo environment (ids from the mask)."""
    import numpy as np

    from ethnos_rules.pettingzoo import env

    rng, game = random.Random(seed), env(4)
    game.reset(seed=seed)
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
        else:
            game.step(rng.choice(np.flatnonzero(observation["action_mask"])))
    return int(game.decisions)


def _openspiel_game(seed: int) -> int:
    """A random 4-player game through the OpenSpiel game (chance from its outcomes)."""
    import pyspiel

    import ethnos_rules.openspiel  # noqa: F401

    rng = random.Random(seed)
    state = pyspiel.load_game("python_ethnos", {"players": 4}).new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(ids, probabilities)[0]
        else:
            action = rng.choice(state.legal_actions())
        decisions += state.is_chance_node() or state.node.completes(action)
        state.apply_action(action)
    return decisions


def adapters(games: int, rounds: int) -> dict[str, Any] | None:
    """Microseconds per decision of the game through the raw API, the PettingZoo environment
    and the OpenSpiel game, in alternating rounds; the adapters' ratios to the raw API."""
    try:
        import pettingzoo  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    play = {"raw": _raw_game, "pettingzoo": _pettingzoo_game, "openspiel": _openspiel_game}
    per_round: dict[str, list[float]] = {name: [] for name in play}
    for _ in range(rounds):
        for name, game in play.items():
            start = time.perf_counter()
            decisions = sum(game(seed) for seed in range(games))
            per_round[name].append((time.perf_counter() - start) / decisions * 1e6)
    out: dict[str, Any] = {"games": games, "rounds": rounds}
    for name, times in per_round.items():
        out[f"{name}_us"] = statistics.median(times)
    for name in ("pettingzoo", "openspiel"):
        ratios = [a / b for a, b in zip(per_round[name], per_round["raw"], strict=True)]
        out[f"{name}_ratio"] = statistics.median(ratios)
    return out


def parallel_validation(games: int, rounds: int) -> dict[str, Any] | None:
    """``validate_many`` on one process and on a pool of 2, in alternating rounds: records
    per second each way and the ratio (the pool is started and warmed before timing)."""
    validate_many = getattr(er, "validate_many", None)
    if validate_many is None or (os.cpu_count() or 1) < 2:
        return None
    from concurrent.futures import ProcessPoolExecutor

    records = [er.GameRecord.from_playthrough(er.play_random(4, seed)) for seed in range(games)]
    one, two = [], []
    with ProcessPoolExecutor(2) as pool:
        validate_many(records[:4], executor=pool)  # start both workers
        for _ in range(rounds):
            start = time.perf_counter()
            validate_many(records)
            one.append(games / (time.perf_counter() - start))
            start = time.perf_counter()
            validate_many(records, executor=pool)
            two.append(games / (time.perf_counter() - start))
    return {
        "records": games,
        "one_per_s": statistics.median(one),
        "two_per_s": statistics.median(two),
        "ratio": statistics.median(b / a for a, b in zip(one, two, strict=True)),
    }


def history_memory(seed: int) -> dict[str, Any]:
    """Peak memory of keeping every state of one 6-player game (an undo history)."""
    game = er.play_random(6, seed)
    gc.collect()
    tracemalloc.start()
    state = game.start
    history = [state]
    for action in game.actions:
        state = er.apply(state, action)
        history.append(state)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"states": len(history), "held_mb": current / 2**20, "peak_mb": peak / 2**20}


TARGETS = [
    (
        "4p decisions/s >= 1.0 x python-chess plies/s",
        ("playouts", "side_by_side", "ratio_median"),
        1.0,
        ">=",
    ),
    ("worst-case legal_actions < 2 ms", ("adversarial", "*", "cold_ms"), 2.0, "<"),
    ("validation >= 50,000 decisions/s", ("validation", "decisions_per_s"), 50_000, ">="),
    (
        "one-seat validation >= 20,000 decisions/s",
        ("validation", "one_seat_per_s"),
        20_000,
        ">=",
    ),
    ("6-player state history < 20 MB", ("memory", "peak_mb"), 20.0, "<"),
    ("2 processes >= 1.7 x one (validate_many)", ("parallel", "ratio"), 1.7, ">="),
    (
        "PettingZoo per decision < 1.5 x the raw API",
        ("adapters", "pettingzoo_ratio"),
        1.5,
        "<",
    ),
]


def _lookup(results: dict[str, Any], path: tuple[str, ...]) -> list[float]:
    nodes: list[Any] = [results]
    for key in path:
        nxt: list[Any] = []
        for node in nodes:
            if not isinstance(node, dict):
                continue
            nxt.extend(node.values() if key == "*" else [node[key]] if key in node else [])
        nodes = nxt
    return [float(n) for n in nodes if isinstance(n, int | float)]


def check_targets(results: dict[str, Any]) -> list[tuple[str, str, str]]:
    rows = []
    for label, path, bound, op in TARGETS:
        values = _lookup(results, path)
        if not values:
            rows.append((label, "not measured", "-"))
            continue
        worst = min(values) if op == ">=" else max(values)
        ok = worst >= bound if op == ">=" else worst < bound
        rows.append((label, f"{worst:,.2f}", "met" if ok else "MISSED"))
    return rows


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# Performance",
        "",
        f"Machine: {results['machine']}. Single-threaded. This page is written by `make bench`",
        "(`benchmarks/bench.py`); CI runs the same script in a quick mode that only checks it",
        "works.",
        "",
        "Method: random games use only the public API (`legal_actions`, `apply`,",
        "`chance_outcomes`), choosing uniformly among legal actions and drawing chance outcomes",
        "with their exact probabilities. python-chess is measured in the same process, in",
        "alternating rounds with the 4-player games, making random moves from",
        "`board.legal_moves`, `push`ing them and checking `outcome()` every ply; the ratio is",
        "taken per round and the median reported. The cold `legal_actions` time clears the band",
        "cache first, so it is the full cost of a hand never seen before; the warm time is a",
        "repeated call. Memory is `tracemalloc`'s count while every state of one 6-player game",
        "is kept (an undo history); states share their unchanged parts.",
        "",
        "## Random playouts (public API)",
        "",
        "| players | decisions/s | games/s |",
        "|---|---|---|",
    ]
    for key in ("2p", "4p", "6p"):
        row = results["playouts"][key]
        lines.append(f"| {key} | {row['decisions_per_s']:,.0f} | {row['games_per_s']:,.1f} |")
    side = results["playouts"].get("side_by_side")
    if side:
        lines += [
            "",
            f"Side by side in {side['rounds']} alternating rounds: Ethnos 4 players "
            f"{side['ethnos_4p_decisions_per_s']:,.0f} decisions/s, python-chess "
            f"{side['chess_plies_per_s']:,.0f} plies/s: ratio **{side['ratio_median']:.2f}** "
            f"(median; lowest round {side['ratio_min']:.2f}).",
        ]
    lines += ["", "## Worst-case `legal_actions`", "", "| hand | actions | cold | warm |"]
    lines.append("|---|---|---|---|")
    for name, row in results["adversarial"].items():
        lines.append(
            f"| {name} | {row['actions']} | {row['cold_ms']:.2f} ms | {row['warm_us']:.1f} µs |"
        )
    if results.get("validation"):
        v = results["validation"]
        lines += [
            "",
            "## Validation",
            "",
            f"{v['decisions_per_s']:,.0f} decisions/s over "
            f"{v['records']} recorded 4-player games ({v['decisions']:,} decisions).",
        ]
        if "one_seat_per_s" in v:
            lines += [
                "",
                f"The same games as one seat kept them (seat = seed mod 4; unseen cards `?`,"
                f" {v['one_seat_decisions']:,} items with the `rest` lines):"
                f" {v['one_seat_per_s']:,.0f} decisions/s, a ratio of"
                f" {v['one_seat_per_s'] / v['decisions_per_s']:.2f} to whole records (median of"
                " alternating rounds). Each decision is replayed on a witness game and the other"
                " players' unseen cards are relabelled when a band or a rest shows them.",
            ]
    if results.get("parallel"):
        p = results["parallel"]
        lines += [
            "",
            "## Validating on several processes",
            "",
            f"`validate_many` over {p['records']} recorded 4-player games: one process"
            f" {p['one_per_s']:,.1f} records/s, a pool of 2 processes {p['two_per_s']:,.1f}"
            f" records/s: ratio **{p['ratio']:.2f}** (median of alternating rounds).",
        ]
    if results.get("adapters"):
        a = results["adapters"]
        lines += [
            "",
            "## Through the adapters",
            "",
            f"Random 4-player games ({a['games']} a round, {a['rounds']} alternating rounds,"
            " medians), per decision of the game (chance included; a band once, however many"
            " ids built it):",
            "",
            "| through | µs per decision | ratio to the raw API |",
            "|---|---|---|",
            f"| the raw API (`legal_actions`, `apply`, `sample_outcome`) | {a['raw_us']:.1f} | 1 |",
            f"| PettingZoo (`last`, mask, `step`) | {a['pettingzoo_us']:.1f} |"
            f" {a['pettingzoo_ratio']:.2f} |",
            f"| OpenSpiel (`legal_actions`, `apply_action`) | {a['openspiel_us']:.1f} |"
            f" {a['openspiel_ratio']:.2f} |",
        ]
    m = results["memory"]
    lines += [
        "",
        "## Memory",
        "",
        f"Every state of a 6-player game ({m['states']} states): "
        f"{m['held_mb']:.2f} MB held, {m['peak_mb']:.2f} MB peak.",
    ]
    lines += ["", "## Targets", "", "| target | measured | |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in check_targets(results)]
    return "\n".join(lines) + "\n"


def machine() -> str:
    """CPU model, cores, Python and OS, as far as this platform tells."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            models = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        cpu = models[0] if models else cpu
    except OSError:
        pass
    cores = os.cpu_count() or 1
    return f"{cpu}, {cores} cores, Python {platform.python_version()}, {platform.system()}"


def run(quick: bool) -> dict[str, Any]:
    seconds, rounds, repeat = (0.2, 1, 3) if quick else (2.0, 5, 50)
    return {
        "machine": machine(),
        "playouts": playouts(seconds, rounds),
        "adversarial": adversarial(repeat),
        "validation": validation(2 if quick else 40, 1 if quick else 5),
        "parallel": parallel_validation(8 if quick else 80, 1 if quick else 3),
        "adapters": adapters(2 if quick else 10, 1 if quick else 5),
        "memory": history_memory(3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds; checks it works")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write a Markdown report")
    args = parser.parse_args(argv)
    results = run(args.quick)
    text = markdown(results)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
