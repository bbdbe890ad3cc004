"""How fast the search bots think (issue 34): simulations per second, and the time of a decision
at the default level.

A simulation draws a world that fits what the bot's seat knows, plays a move (ISMCTS: walks its
tree) and plays the game on to its end with the playout policy. The positions are the
decisions of one seeded game of the rules-of-thumb bot against itself (every few decisions,
where the seat has two moves or more worth searching), at 2 and 4 players; each bot decides
at each of them, and ``simulations / seconds`` counts the whole call (the seat's record
replayed to its last checkpoint included, as in a game). The four searches (ISMCTS and flat
Monte Carlo, each with the rules-of-thumb and the uniform random playout) take turns, the
order flipping every round, and the median of the rounds is reported: a busy machine slows
them alike.

    python benchmarks/searching.py [--quick]
    python benchmarks/bench.py --only searching
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import ethnos_rules as er
from ethnos_rules.bots import (
    ISMCTSBot,
    MonteCarloBot,
    SearchBot,
    ThumbBot,
    Worlds,
    bot,
    play,
    search_moves,
)

SEARCHES: dict[str, Callable[[int], SearchBot]] = {
    "ISMCTS, thumb playouts": lambda n: ISMCTSBot(simulations=n),
    "ISMCTS, random playouts": lambda n: ISMCTSBot(simulations=n, playout="random"),
    "flat MC, thumb playouts": lambda n: MonteCarloBot(simulations=n),
    "flat MC, random playouts": lambda n: MonteCarloBot(simulations=n, playout="random"),
}


def positions(players: int, every: int, seed: int = 1) -> list[er.InformationState]:
    """What the deciding seat knows at every ``every``-th decision of a seeded game of the
    thumb bot against itself, where it has two moves or more worth searching."""
    game = play(er.new_game(players), {s: ThumbBot() for s in range(players)}, random.Random(seed))
    out = []
    state = game.start
    for index, action in enumerate(game.actions):
        seat = state.pending.seat
        decides = not state.pending.chance and seat is not None and index % every == 0
        if decides and len(search_moves(state, er.legal_actions(state))) > 1:
            record = er.GameRecord.from_start(game.start, game.actions[:index])
            out.append(er.information_state(record, seat))
        state = er.apply(state, action)
    return out


def _decide(one: SearchBot, knowledge: list[er.InformationState]) -> float:
    started = time.perf_counter()
    for k in knowledge:
        one.choose(k, random.Random(0))
    return time.perf_counter() - started


def rates(knowledge: list[er.InformationState], simulations: int, rounds: int) -> dict[str, float]:
    """Simulations per second of each search over ``knowledge`` (median of ``rounds``)."""
    for k in knowledge:
        Worlds(k)  # each record's checkpoint found once, as in a game
    names = list(SEARCHES)
    seen: dict[str, list[float]] = {name: [] for name in names}
    for number in range(rounds):
        for name in names if number % 2 == 0 else reversed(names):
            took = _decide(SEARCHES[name](simulations), knowledge)
            seen[name].append(simulations * len(knowledge) / took)
    return {name: statistics.median(values) for name, values in seen.items()}


def decision_times(knowledge: list[er.InformationState], default: SearchBot) -> dict[str, float]:
    """Seconds per decision of ``default`` (the default ISMCTS, ``bot("ismcts")``)."""
    for k in knowledge:
        Worlds(k)
    times = []
    for k in knowledge:
        started = time.perf_counter()
        default.choose(k, random.Random(0))
        times.append(time.perf_counter() - started)
    times.sort()
    return {
        "decisions": len(times),
        "simulations": float(default.budget.count(knowledge[0].players) or 0),
        "median_s": statistics.median(times),
        "p90_s": times[min(len(times) - 1, int(0.9 * len(times)))],
        "worst_s": times[-1],
    }


def measure(quick: bool) -> dict[str, Any]:
    """Simulations per second and the default level's decision times, at 2 and 4 players."""
    out: dict[str, Any] = {"rates": {}, "default": {}}
    for players in (2, 4):
        every = (40 if players == 2 else 80) * (4 if quick else 1)
        knowledge = positions(players, every)
        simulations, rounds = (4, 1) if quick else (40, 3)
        out["rates"][f"{players}p"] = rates(knowledge, simulations, rounds)
        default = ISMCTSBot(simulations=4) if quick else bot("ismcts")
        assert isinstance(default, SearchBot)
        out["default"][f"{players}p"] = decision_times(
            knowledge[:2] if quick else knowledge, default
        )
    return out


def markdown(result: dict[str, Any]) -> list[str]:
    """The section of the results page."""
    rates_, default = result["rates"], result["default"]
    counts = list(rates_)
    lines = [
        "",
        "## The search bots",
        "",
        "Simulations per second (each draws a world that fits what the seat knows and plays"
        " the game to its end), over the decisions of a seeded game of the thumb bot against"
        " itself, side by side (median of alternating rounds):",
        "",
        "| search | " + " | ".join(c.replace("p", " players") for c in counts) + " |",
        "|---" * (len(counts) + 1) + "|",
    ]
    for name in SEARCHES:
        lines.append(f"| {name} | " + " | ".join(f"{rates_[c][name]:,.0f}" for c in counts) + " |")
    lines += [
        "",
        "Seconds per decision of the default level, `ismcts`, over the same decisions:",
        "",
        "| players | simulations | decisions | median | 90th percentile | slowest |",
        "|---|---|---|---|---|---|",
    ]
    for c in counts:
        d = default[c]
        lines.append(
            f"| {c.replace('p', '')} | {d['simulations']:.0f} | {d['decisions']:.0f}"
            f" | {d['median_s']:.2f} s | {d['p90_s']:.2f} s | {d['worst_s']:.2f} s |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds; checks it works")
    args = parser.parse_args(argv)
    print("\n".join(markdown(measure(args.quick))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
