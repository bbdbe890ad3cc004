"""Benchmarks of the referee, measured side by side with python-chess in one run.

Usage::

    python benchmarks/bench.py            # full run (a few minutes)
    python benchmarks/bench.py --quick    # a few seconds: only checks that everything still works
    python benchmarks/bench.py --markdown docs/reference/performance-results.md
    python benchmarks/bench.py --only reading     # one section (here: benchmarks/reading.py)
    python benchmarks/bench.py --only searching   # the search bots (benchmarks/searching.py)
    python benchmarks/bench.py --only agents      # the adapters side by side (agents.py)

Every figure uses the public API only (``legal_actions``, ``apply``, ``sample_outcome``,
``chance_outcomes``), except the cold-cache ``legal_actions`` timing, which clears the band caches
so each call pays in full. Random play, python-chess and the floor (``benchmarks/floor.py``, a
minimal mutable playout of the same rules) alternate in rounds; ratios are taken per round and
the median is reported, so a busy machine slows every side alike.

The run fails (exit status 1) if the floor is not the same game as the library: if the mean
decisions per game differ by more than 4 standard errors at any player count, or if the floor
offers another set of actions than the library at any decision of the lockstep games, or if a
perft count differs from ``tests/golden/perft.tsv``.
"""

from __future__ import annotations

import argparse
import enum
import gc
import json
import math
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crosscheck
import floor
import importtime
import perft
import reading
import resampling
import searching

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
    "Halflings of mixed colours and a Skeleton": (
        ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"],
        perft.HALFLINGS,
    ),
}
"""Hands whose band lists are long; the last (1,512 bands) is the worst known (issue 13)."""


def random_game(players: int, rng: random.Random) -> int:
    """One random game through the public API (uniform legal actions, chance drawn by
    ``sample_outcome``); its number of decisions."""
    state = er.new_game(players)
    decisions = 0
    while not er.is_terminal(state):
        if er.is_chance(state):
            action = er.sample_outcome(state, rng)
        else:
            action = rng.choice(er.legal_actions(state))
        state = er.apply(state, action)
        decisions += 1
    return decisions


def random_game_weights(players: int, rng: random.Random) -> int:
    """The same, with chance drawn from ``chance_outcomes`` by ``rng.choices`` (float weights)."""
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
    return decisions


Game = Callable[[int, random.Random], int]


def game_round(game: Game, players: int, seconds: float, rng: random.Random) -> tuple[float, float]:
    """Decisions per second and games per second of ``game`` over about ``seconds``."""
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        decisions += game(players, rng)
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
    """Decisions/s by player count; then, side by side in alternating rounds (the order flips
    every round), 4-player games, python-chess, the chance_outcomes variant and the floor."""
    rng = random.Random(2026)
    out: dict[str, Any] = {}
    for players in (2, 4, 6):
        per_round = [game_round(random_game, players, seconds, rng) for _ in range(rounds)]
        out[f"{players}p"] = {
            "decisions_per_s": statistics.median(d for d, _ in per_round),
            "games_per_s": statistics.median(g for _, g in per_round),
        }
    contenders: dict[str, Callable[[], float | None]] = {
        "ethnos": lambda: game_round(random_game, 4, seconds, rng)[0],
        "chess": lambda: chess_round(seconds, rng),
        "weights": lambda: game_round(random_game_weights, 4, seconds, rng)[0],
        "floor": lambda: game_round(floor.play, 4, seconds, rng)[0],
    }
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for r in range(rounds):
        names = list(contenders) if r % 2 == 0 else list(reversed(contenders))
        for name in names:
            rate = contenders[name]()
            if rate is not None:
                rates[name].append(rate)
    ours = rates["ethnos"]
    if rates["chess"]:
        ratios = [a / b for a, b in zip(ours, rates["chess"], strict=True)]
        weights = [a / b for a, b in zip(rates["weights"], rates["chess"], strict=True)]
        out["side_by_side"] = {
            "ethnos_4p_decisions_per_s": statistics.median(ours),
            "chess_plies_per_s": statistics.median(rates["chess"]),
            "ratio_median": statistics.median(ratios),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
            "weights_decisions_per_s": statistics.median(rates["weights"]),
            "weights_ratio_median": statistics.median(weights),
            "floor_to_chess_median": statistics.median(
                a / b for a, b in zip(rates["floor"], rates["chess"], strict=True)
            ),
            "rounds": len(ratios),
        }
    floor_ratios = [a / b for a, b in zip(rates["floor"], ours, strict=True)]
    out["floor"] = {
        "floor_decisions_per_s": statistics.median(rates["floor"]),
        "ethnos_decisions_per_s": statistics.median(ours),
        "ratio_median": statistics.median(floor_ratios),
        "ratio_min": min(floor_ratios),
        "ratio_max": max(floor_ratios),
        "rounds": len(floor_ratios),
    }
    return out


def honesty(games: int, floor_games: int, lockstep_games: int) -> dict[str, Any]:
    """Is the floor the same game? Mean decisions per game of the library (``games`` seeded
    random games per player count) against the floor's (``floor_games``), with the standard
    error of the difference; and lockstep games, where the floor must offer the library's
    legal set at every decision (``benchmarks/crosscheck.py``)."""
    rows: dict[str, Any] = {}
    for players in range(2, 7):
        lib = [random_game(players, random.Random(seed)) for seed in range(games)]
        low = [floor.play(players, random.Random(10**6 + seed)) for seed in range(floor_games)]
        se = math.sqrt(statistics.variance(lib) / len(lib) + statistics.variance(low) / len(low))
        diff = statistics.mean(low) - statistics.mean(lib)
        rows[f"{players}p"] = {
            "library_mean": statistics.mean(lib),
            "library_sd": statistics.stdev(lib),
            "floor_mean": statistics.mean(low),
            "floor_sd": statistics.stdev(low),
            "difference": diff,
            "se": se,
            "z": diff / se,
        }
    disagreements: list[str] = []
    checked = 0
    for players in range(2, 7):
        for seed in range(lockstep_games):
            try:
                checked += crosscheck.lockstep(players, seed)
            except crosscheck.Disagreement as why:
                disagreements.append(f"{players}p seed {seed}: {why}")
    return {
        "games": games,
        "floor_games": floor_games,
        "rows": rows,
        "max_abs_z": max(abs(row["z"]) for row in rows.values()),
        "lockstep_games": 5 * lockstep_games,
        "lockstep_decisions": checked,
        "disagreements": disagreements,
    }


def perft_bench(replays: int) -> dict[str, Any]:
    """Walk every golden perft position to its depth (nodes per second, counts checked), and
    count the shallow depths on the floor too (at most ``replays`` replays a position)."""
    positions = perft.read()
    nodes, elapsed = 0, 0.0
    mismatches: list[str] = []
    rows: dict[str, Any] = {}
    for p in positions:
        state = p.state()
        began = time.perf_counter()
        counts = perft.perft(state, len(p.counts))
        elapsed += time.perf_counter() - began
        nodes += sum(counts)
        if tuple(counts) != p.counts:
            mismatches.append(f"{p.name}: {counts}, the golden file says {list(p.counts)}")
        row: dict[str, Any] = {"counts": counts, "floor_depth": 0, "floor_agrees": None}
        if p.start.startswith("new_game"):
            players, path = crosscheck.floor_path(p.start, p.path)
            depth = crosscheck.floor_depth(p.counts, replays)
            row["floor_depth"] = depth
            row["floor_agrees"] = crosscheck.floor_perft(players, path, depth) == counts[:depth]
            if not row["floor_agrees"]:
                mismatches.append(f"{p.name}: the floor counts differently to depth {depth}")
        rows[p.name] = row
    return {
        "positions": rows,
        "nodes": nodes,
        "nodes_per_s": nodes / elapsed,
        "mismatches": mismatches,
        "mismatch_count": len(mismatches),
    }


def _times(call: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        out.append(time.perf_counter() - start)
    return out


def _best_time(call: Callable[[], object], repeat: int) -> float:
    return min(_times(call, repeat))


def _clear_band_caches() -> None:
    """Forget every band list the rules remember (of hands, and of a hand's groups)."""
    for value in vars(_bands).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def adversarial(repeat: int) -> dict[str, Any]:
    out = {}
    for name, (tribes, hand) in ADVERSARIAL_HANDS.items():
        state = er.position(4, tribes, hands={0: hand})

        def cold(state: er.GameState = state) -> object:
            _clear_band_caches()
            return er.legal_actions(state)

        def warm(state: er.GameState = state) -> object:
            return er.legal_actions(state)

        cold_times = _times(cold, repeat)
        out[name] = {
            "actions": len(er.legal_actions(state)),
            "cold_ms": min(cold_times) * 1e3,
            "cold_median_ms": statistics.median(cold_times) * 1e3,
            "warm_us": _best_time(warm, repeat) * 1e6,
        }
    return out


def validation(games: int, rounds: int) -> dict[str, Any] | None:
    """Decisions per second of ``validate`` on recorded random 4-player games, on the same
    records with their final Glory claimed (as ``ethnos-rules simulate --claim`` writes them),
    and on the same games as one seat kept them (seat ``seed % 4``), in alternating rounds."""
    validate = getattr(er, "validate", None)
    record_type = getattr(er, "GameRecord", None)
    if validate is None or record_type is None:
        return None
    played = [er.play_random(4, seed) for seed in range(games)]
    records = [record_type.from_playthrough(game) for game in played]
    claimed = [_claimed(record_type, game) for game in played]
    redact = getattr(er, "redact", None)
    kept = [redact(r, seed % 4) for seed, r in enumerate(records)] if redact else []
    full_rates, claim_rates, seat_rates, chess_rates = [], [], [], []
    rng = random.Random(0)
    for _ in range(rounds):
        full_rates.append(_validation_rate(validate, records))
        if all(claimed):
            claim_rates.append(_validation_rate(validate, claimed))
        if kept:
            seat_rates.append(_validation_rate(validate, kept))
        # The machine's speed in the same minutes: this machine's wanders by a factor of two.
        chess = chess_round(1.0, rng)
        if chess is not None:
            chess_rates.append(chess)
    out: dict[str, Any] = {
        "records": games,
        "decisions": sum(len(r.actions) for r in records),
        "decisions_per_s": statistics.median(full_rates),
    }
    if chess_rates:
        out["chess_plies_per_s"] = statistics.median(chess_rates)
        out["to_chess"] = statistics.median(
            a / b for a, b in zip(full_rates, chess_rates, strict=True)
        )
    if claim_rates:
        out["claimed_per_s"] = statistics.median(claim_rates)
        out["claimed_ratio"] = statistics.median(
            a / b for a, b in zip(claim_rates, full_rates, strict=True)
        )
    if seat_rates:
        out["one_seat_per_s"] = statistics.median(seat_rates)
        out["one_seat_decisions"] = sum(len(r.actions) for r in kept)
    return out


def _claimed(record_type: Any, game: Any) -> Any:
    """The record of ``game`` with its final Glory claimed (None where records take no claim)."""
    try:
        final = [player.glory for player in game.final.players]
        return record_type.from_playthrough(game, claimed_glory=final)
    except (AttributeError, TypeError):  # an older version compared by compare.py
        return None


def _validation_rate(validate: Callable[[Any], Any], records: list[Any]) -> float:
    start = time.perf_counter()
    for record in records:
        report = validate(record)
        assert report.ok, report
    return sum(len(r.actions) for r in records) / (time.perf_counter() - start)


def _raw_game(seed: int) -> int:
    """A random 4-player game through the public API; its decisions."""
    return random_game(4, random.Random(seed))


def _pettingzoo_game(seed: int) -> int:
    """A random 4-player game through the PettingZoo environment (ids from the mask)."""
    from ethnos_rules.pettingzoo import env

    game = env(4)
    _drive(game, seed)
    return int(game.decisions)


def _drive(game: Any, seed: int) -> int:
    """Play ``game``, a PettingZoo AEC environment, to its end with a uniform random agent that
    draws its ids from the mask; the steps it took."""
    import numpy as np

    rng, steps = random.Random(seed), 0
    game.reset(seed=seed)
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        steps += 1
        if terminated or truncated:
            game.step(None)
        else:
            game.step(rng.choice(np.flatnonzero(observation["action_mask"])))
    return steps


def _null_env(steps: int) -> Any:
    """An AEC environment with the Ethnos environment's agents and spaces that does nothing:
    its observation and mask are copies of fixed ones, each step hands the turn on, and it ends
    after ``steps`` steps. What it costs per step is PettingZoo's, numpy's and the agent loop's
    own: a floor under any environment driven by that loop."""
    from typing import ClassVar

    from pettingzoo import AECEnv

    from ethnos_rules.pettingzoo import env

    ethnos = env(4)
    ethnos.reset(seed=0)
    shown = ethnos.observe(ethnos.agent_selection)  # a real observation and mask

    class Null(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "name": "null_v0"}
        possible_agents = ethnos.possible_agents
        observation_space = ethnos.observation_space
        action_space = ethnos.action_space

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents, self.left = self.possible_agents[:], steps
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> dict[str, Any]:
            return {key: value.copy() for key, value in shown.items()}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.left -= 1
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
            if self.left <= len(self.agents):  # then each agent's last step, as at Ethnos's end
                self.terminations = dict.fromkeys(self.agents, True)
                self._accumulate_rewards()

    return Null()


def _openspiel_game(seed: int) -> int:
    """A random 4-player game through the OpenSpiel game (chance from its outcomes)."""
    import pyspiel

    import ethnos_rules.openspiel  # noqa: F401

    rng = random.Random(seed)
    state = pyspiel.load_game("python_ethnos", {"players": 4}).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(ids, probabilities)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    # The decisions of the game (chance included, a band one), counted once it is over: a
    # count at each step would be the benchmark's cost, not the adapter's.
    return int(state.decisions)


def adapters(games: int, rounds: int) -> dict[str, Any] | None:
    """Microseconds per decision of the game through the raw API, the PettingZoo environment
    and the OpenSpiel game, in alternating rounds; the adapters' ratios to the raw API."""
    try:
        import pettingzoo  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    # The floor: a do-nothing environment driven through as many steps as each Ethnos game
    # took, timed per decision of that game.
    from ethnos_rules.pettingzoo import env

    floors = []
    for seed in range(games):
        ethnos = env(4)
        floors.append((_null_env(_drive(ethnos, seed)), int(ethnos.decisions)))

    def floor(seed: int) -> int:
        null, decisions = floors[seed]
        _drive(null, seed)
        return decisions

    play = {
        "raw": _raw_game,
        "pettingzoo": _pettingzoo_game,
        "openspiel": _openspiel_game,
        "pettingzoo_floor": floor,
    }
    per_round: dict[str, list[float]] = {name: [] for name in play}
    for _ in range(rounds):
        for name, game in play.items():
            start = time.perf_counter()
            done = sum(game(seed) for seed in range(games))
            per_round[name].append((time.perf_counter() - start) / done * 1e6)
    out: dict[str, Any] = {"games": games, "rounds": rounds}
    for name, times in per_round.items():
        out[f"{name}_us"] = statistics.median(times)
    for name in ("pettingzoo", "openspiel"):
        ratios = [a / b for a, b in zip(per_round[name], per_round["raw"], strict=True)]
        out[f"{name}_ratio"] = statistics.median(ratios)
    # The least ratio any environment driven by that loop could have: the rules' own work (the
    # raw API's) and the floor's.
    out["pettingzoo_floor_ratio"] = statistics.median(
        1 + a / b for a, b in zip(per_round["pettingzoo_floor"], per_round["raw"], strict=True)
    )
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


_NOT_THE_GAMES = (
    type,
    types.ModuleType,
    types.FunctionType,
    enum.Enum,
    er.Ruleset,
    er.Tribe,
    er.Card,
)
"""What a state refers to but no game owns: classes, modules, and the edition's flyweights."""


def kept_bytes(roots: list[Any]) -> int:
    """Bytes of every object reachable from ``roots``, each counted once however many states
    share it (``sys.getsizeof``), but for the edition's cards, tribes and ruleset, enums and
    classes, which every game shares."""
    seen: set[int] = set()
    stack = list(roots)
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, _NOT_THE_GAMES) or obj is er.DRAGON:
            continue
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def history_memory(seeds: tuple[int, ...]) -> dict[str, Any]:
    """Memory kept by every state of one 6-player game (an undo history), for a few games:
    the bytes the states hold, shared parts counted once, and tracemalloc's count while the
    history is built (held at the end, and peak). The largest game is reported."""
    worst: dict[str, Any] = {}
    for seed in seeds:
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
        row = {
            "seed": seed,
            "states": len(history),
            "held_mb": kept_bytes([history]) / 2**20,
            "one_state_kb": kept_bytes([history[len(history) // 2]]) / 2**10,
            "traced_mb": current / 2**20,
            "peak_mb": peak / 2**20,
        }
        if not worst or row["held_mb"] > worst["held_mb"]:
            worst = row
    return worst


TARGETS = [
    (
        "4p decisions/s >= 3.0 x python-chess plies/s (sample_outcome bot)",
        ("playouts", "side_by_side", "ratio_median"),
        3.0,
        ">=",
    ),
    (
        "floor decisions/s <= 5 x the library's (4p)",
        ("playouts", "floor", "ratio_median"),
        5.0,
        "<=",
    ),
    ("worst-case cold legal_actions < 1 ms", ("adversarial", "*", "cold_ms"), 1.0, "<"),
    ("validation >= 150,000 decisions/s", ("validation", "decisions_per_s"), 150_000, ">="),
    (
        "one-seat validation >= 20,000 decisions/s",
        ("validation", "one_seat_per_s"),
        20_000,
        ">=",
    ),
    ("every state of a 6-player game <= 1 MB", ("memory", "held_mb"), 1.0, "<="),
    ("import ethnos_rules <= 2 x import chess", ("startup", "ratio_median"), 2.0, "<="),
    ("perft golden present: positions that do not match = 0", ("perft", "mismatch_count"), 0, "=="),
    ("floor honesty: decisions/game within 4 s.e.", ("honesty", "max_abs_z"), 4.0, "<="),
    ("2 processes >= 1.7 x one (validate_many)", ("parallel", "ratio"), 1.7, ">="),
    (
        "PettingZoo per decision <= 2.0 x the raw API",
        ("adapters", "pettingzoo_ratio"),
        2.0,
        "<=",
    ),
    ("OpenSpiel per decision <= 3.0 x the raw API", ("adapters", "openspiel_ratio"), 3.0, "<="),
    ("reading a record <= 0.25 x validating it", ("reading", "here", "ratio"), 0.25, "<="),
    ("resample: the worst first call on a record <= 1 s", ("resampling", "first worst"), 1.0, "<="),
    (
        "the default ISMCTS: its slowest decision <= 1 s",
        ("searching", "default", "*", "worst_s"),
        1.0,
        "<=",
    ),
    (
        f"validate FOLDER >= 1.6 x {reading.BASE} (records/s, side by side)",
        ("reading", "cli", "ratio"),
        1.6,
        ">=",
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
        if path[0] == "perft" and not results.get("perft"):
            rows.append((label, "no golden file", "MISSED"))
            continue
        values = _lookup(results, path)
        if not values:
            rows.append((label, "not measured", "-"))
            continue
        worst = min(values) if op == ">=" else max(values)
        ok = {">=": worst >= bound, "<": worst < bound, "<=": worst <= bound, "==": worst == bound}[
            op
        ]
        shown = f"{worst:,.0f}" if op == "==" else f"{worst:,.2f}"
        rows.append((label, shown, "met" if ok else "MISSED"))
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
        "`sample_outcome`), choosing uniformly among legal actions and drawing chance outcomes",
        "with their exact probabilities. python-chess is measured in the same process, in",
        "alternating rounds with the 4-player games (the order flips every round), making random",
        "moves from `board.legal_moves`, `push`ing them and checking `outcome()` every ply; the",
        "ratio is taken per round and the median reported. The floor",
        "(`benchmarks/floor.py`, see {doc}`performance`) runs in the same rounds. The cold",
        "`legal_actions` time clears the band caches (of hands and of their groups) first, so it",
        "is the full cost of a hand never seen before (best and median of the repeats); the warm",
        "time is a repeated call. Memory",
        "is what every state of a 6-player game holds (an undo history), each shared part",
        "counted once.",
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
            f"(median; rounds {side['ratio_min']:.2f} to {side['ratio_max']:.2f}). Drawing chance"
            f" from `chance_outcomes` with `rng.choices` instead:"
            f" {side['weights_decisions_per_s']:,.0f} decisions/s, ratio"
            f" {side['weights_ratio_median']:.2f}.",
        ]
    fl = results["playouts"]["floor"]
    lines += [
        "",
        "## The floor",
        "",
        f"The floor, a minimal mutable playout of the same rules, in the same {fl['rounds']}"
        f" rounds: {fl['floor_decisions_per_s']:,.0f} decisions/s against the library's"
        f" {fl['ethnos_decisions_per_s']:,.0f}: **{fl['ratio_median']:.1f}×** faster (median;"
        f" rounds {fl['ratio_min']:.1f} to {fl['ratio_max']:.1f}).",
    ]
    if side:
        lines[-1] += f" It makes {side['floor_to_chess_median']:.1f}× python-chess's plies/s."
    h = results["honesty"]
    lines += [
        "",
        "Is it the same game? Mean decisions per game over seeded random games, "
        f"{h['games']} of the library's and {h['floor_games']} of the floor's per player count"
        " (difference: floor − library, with its standard error):",
        "",
        "| players | library | floor | difference (s.e.) | z |",
        "|---|---|---|---|---|",
    ]
    for key, row in h["rows"].items():
        lines.append(
            f"| {key} | {row['library_mean']:.1f} ± {row['library_sd']:.1f} sd"
            f" | {row['floor_mean']:.1f} ± {row['floor_sd']:.1f} sd"
            f" | {row['difference']:+.1f} ({row['se']:.1f}) | {row['z']:+.2f} |"
        )
    agreed = "none" if not h["disagreements"] else "; ".join(h["disagreements"])
    lines += [
        "",
        f"Lockstep: {h['lockstep_games']} random library games with the floor driven alongside"
        f" ({h['lockstep_decisions']:,} decisions): the floor offered exactly the library's"
        f" legal set at every decision and ended with the same Glory. Disagreements: {agreed}.",
    ]
    lines += ["", "## Worst-case `legal_actions`", "", "| hand | actions | cold | warm |"]
    lines.append("|---|---|---|---|")
    for name, row in results["adversarial"].items():
        lines.append(
            f"| {name} | {row['actions']} | {row['cold_ms']:.2f} ms (median"
            f" {row['cold_median_ms']:.2f}) | {row['warm_us']:.1f} µs |"
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
        if "to_chess" in v:
            lines[-1] += (
                f" python-chess, run between the rounds, made {v['chess_plies_per_s']:,.0f}"
                f" plies/s: validation is **{v['to_chess']:.1f}×** python-chess's plies/s"
                " (median of the rounds' ratios), a figure that moves less with the machine's"
                " speed than the decisions per second do."
            )
        if "claimed_per_s" in v:
            lines += [
                "",
                "The same records with their final Glory claimed, as"
                " `ethnos-rules simulate --claim` writes them:"
                f" {v['claimed_per_s']:,.0f} decisions/s, a ratio of"
                f" {v['claimed_ratio']:.2f} to records without a claim (median of alternating"
                " rounds). A claim is checked against the final Glory; only a wrong one is"
                " replayed again for the scoring events that explain it.",
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
    if results.get("reading"):
        lines += reading.markdown(results["reading"])
    if results.get("resampling"):
        lines += resampling.markdown(results["resampling"])
    if results.get("searching"):
        lines += searching.markdown(results["searching"])
    if results.get("adapters"):
        a = results["adapters"]
        lines += [
            "",
            "## Through the adapters",
            "",
            f"Random 4-player games ({a['games']} a round, {a['rounds']} alternating rounds,"
            " medians), per decision of the game (chance included; a band once, however many"
            " ids built it). Each ratio is the median of the rounds' ratios (a round times the"
            " raw API and each adapter one after another), not the quotient of the medians in"
            " the µs column:",
            "",
            "| through | µs per decision | ratio to the raw API |",
            "|---|---|---|",
            f"| the raw API (`legal_actions`, `apply`, `sample_outcome`) | {a['raw_us']:.1f} | 1 |",
            f"| PettingZoo (`last`, mask, `step`) | {a['pettingzoo_us']:.1f} |"
            f" {a['pettingzoo_ratio']:.2f} |",
            f"| OpenSpiel (`legal_actions`, `apply_action`) | {a['openspiel_us']:.1f} |"
            f" {a['openspiel_ratio']:.2f} |",
            "",
            "The floor under the PettingZoo figure: an environment with the same agents and"
            " spaces that does nothing (its observation and mask are copies of fixed ones; each"
            " step hands the turn on), driven by the same loop through as many steps as each"
            f" game took, costs {a['pettingzoo_floor_us']:.1f} µs per decision of those games."
            " That is PettingZoo's, numpy's and the random agent's own work (the agent's"
            " `np.flatnonzero` of the mask is most of it). With the rules' own work, the raw"
            " API's, no environment driven by this loop can cost less than"
            f" **{a['pettingzoo_floor_ratio']:.2f}x** the raw API.",
        ]
    pf = results.get("perft")
    if pf:
        lines += [
            "",
            "## Perft",
            "",
            "Nodes of the decision tree at depths 1..N below the positions of"
            " `tests/golden/perft.tsv` (each distinct chance outcome one child), walked through"
            f" `legal_actions`/`chance_outcomes`/`apply`: {pf['nodes']:,} nodes,"
            f" **{pf['nodes_per_s']:,.0f} nodes/s**; the floor counted the depths shown.",
            "",
            "| position | nodes at depth 1, 2, … | floor agrees to depth |",
            "|---|---|---|",
        ]
        for name, row in pf["positions"].items():
            agrees = (
                "–"
                if row["floor_agrees"] is None
                else f"{row['floor_depth']} ({'yes' if row['floor_agrees'] else 'NO'})"
            )
            counts = ", ".join(f"{c:,}" for c in row["counts"])
            lines.append(f"| {name} | {counts} | {agrees} |")
        if pf["mismatches"]:
            lines += ["", "Mismatches: " + "; ".join(pf["mismatches"])]
    m = results["memory"]
    lines += [
        "",
        "## Memory",
        "",
        f"Every state of a 6-player game ({m['states']} states, the largest of the games"
        f" measured): **{m['held_mb']:.2f} MB** held, each shared part counted once"
        f" ({m['held_mb'] * 2**20 / m['states']:,.0f} B a state; one mid-game state alone"
        f" {m['one_state_kb']:.1f} KB). tracemalloc while building the history:"
        f" {m['traced_mb']:.2f} MB held, {m['peak_mb']:.2f} MB peak.",
    ]
    if results.get("startup"):
        lines += importtime.markdown(results["startup"])
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


def reading_section(
    quick: bool, base: str | None, archive: str | None, archive_games: int | None
) -> dict[str, Any]:
    """Reading records against validating them, and validating an archive, beside ``base``
    (by default the issue's commit; in quick mode none unless given): see
    ``benchmarks/reading.py``."""
    return reading.measure(
        seeds=1 if quick else 2,
        rounds=1 if quick else 3,
        archive_games=archive_games or (6 if quick else 1000),
        sample=4 if quick else 200,
        base=base or (None if quick else reading.BASE),
        archive=Path(archive) if archive else None,
    )


def resampling_section(quick: bool) -> dict[str, Any]:
    """``resample`` on records of players who hoard unseen cards, first and later calls beside
    ``validate``: see ``benchmarks/resampling.py``."""
    return resampling.measure(games=1 if quick else 10, again=1 if quick else 5)


def searching_section(quick: bool) -> dict[str, Any]:
    """The search bots' simulations per second and decision times: see
    ``benchmarks/searching.py``."""
    return searching.measure(quick)


SECTIONS = ("reading", "resampling", "agents", "searching")
"""The sections ``--only`` runs alone."""


def run(
    quick: bool,
    base: str | None = None,
    archive: str | None = None,
    archive_games: int | None = None,
) -> dict[str, Any]:
    seconds, rounds, repeat = (0.2, 1, 3) if quick else (2.0, 5, 50)
    return {
        "machine": machine(),
        "playouts": playouts(seconds, rounds),
        "honesty": honesty(12, 120, 1) if quick else honesty(200, 2000, 4),
        "adversarial": adversarial(repeat),
        "validation": validation(2 if quick else 40, 1 if quick else 5),
        "parallel": parallel_validation(8 if quick else 80, 1 if quick else 3),
        "reading": reading_section(quick, base, archive, archive_games),
        "resampling": resampling_section(quick),
        "searching": searching_section(quick),
        "adapters": adapters(2 if quick else 10, 1 if quick else 5),
        "perft": perft_bench(40 if quick else 3000) if perft.GOLDEN.exists() else None,
        "memory": history_memory((3,) if quick else (3, 4, 5)),
        "startup": startup(3 if quick else 25),
    }


def startup(runs: int) -> dict[str, Any]:
    """``import ethnos_rules`` beside ``import chess``, ``runs`` alternating rounds, and whether
    the import loads jsonschema, which only reading a record needs: see
    ``benchmarks/importtime.py``."""
    return importtime.measure(runs)


HONESTY_Z = 4.0
"""The floor fails the honesty check beyond this many standard errors."""


def failures(results: dict[str, Any]) -> list[str]:
    """Why the floor is not the same game, or the perft golden does not hold: [] if all is well."""
    out = []
    h = results["honesty"]
    for key, row in h["rows"].items():
        if abs(row["z"]) > HONESTY_Z:
            out.append(
                f"the floor is not the same game: at {key} it averages {row['floor_mean']:.1f}"
                f" decisions per game, the library {row['library_mean']:.1f}:"
                f" {row['z']:+.1f} standard errors apart"
            )
    out += [f"the floor is not the same game: lockstep {why}" for why in h["disagreements"]]
    if results.get("perft"):
        out += [f"perft golden: {why}" for why in results["perft"]["mismatches"]]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds; checks it works")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write a Markdown report")
    parser.add_argument(
        "--only", choices=SECTIONS, help="run this section alone and print its figures"
    )
    parser.add_argument(
        "--base",
        metavar="REV",
        help=f"the commit the reading section compares with (default {reading.BASE};"
        " in quick mode, none unless given)",
    )
    parser.add_argument(
        "--archive", metavar="FOLDER", help="the reading section: validate this archive"
    )
    parser.add_argument(
        "--archive-games",
        type=int,
        metavar="N",
        help="the reading section: records in the archive it writes (default 1000)",
    )
    args = parser.parse_args(argv)
    if args.only:
        if args.markdown:
            parser.error("--markdown writes the whole page: run every section for it")
        if args.only == "reading":
            section = reading_section(args.quick, args.base, args.archive, args.archive_games)
            print("\n".join(reading.markdown(section)))
        elif args.only == "agents":  # benchmarks/agents.py: every adapter, the floor
            import agents

            section = agents.measure(2 if args.quick else 6, 1 if args.quick else 7)
            print("\n".join(agents.markdown(section)))
        elif args.only == "searching":
            section = searching_section(args.quick)
            print("\n".join(searching.markdown(section)))
        else:
            section = resampling_section(args.quick)
            print("\n".join(resampling.markdown(section)))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({args.only: section}, f, indent=2)
        return 0
    results = run(args.quick, args.base, args.archive, args.archive_games)
    text = markdown(results)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    wrong = failures(results)
    for why in wrong:
        print(f"BENCHMARK FAILED: {why}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
