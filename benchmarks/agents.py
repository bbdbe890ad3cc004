"""What an agent's step costs through each adapter, side by side with the raw API.

    python benchmarks/bench.py --only agents          # or: python benchmarks/agents.py

Random 4-player games, the same seeds through every way of playing them, in alternating
rounds (the order turned each round), so that a busy machine slows all alike: the raw API,
the PettingZoo environment (raw and scaled observations), the OpenSpiel game, the Gymnasium
environment (one seat, the others ``RandomPolicy``, chance inside ``step``), and the
do-nothing floor of ``bench.py`` (an AEC environment with the same spaces that does nothing).
Two more rows say where PettingZoo's cost goes: the same games through the action ids alone
(``EncodedState``: legal ids, step, chance; no environment), and through the environment with
its observation tensor not written (an ablation: a fixed array copied instead). One more says
where OpenSpiel's goes: OpenSpiel's games (the same draws) through the action ids alone, chance
drawn from its listed outcomes as OpenSpiel's loop draws it.
Each figure is per decision of the game, in CPU time of this process (a busy machine that
takes the processor away for a while does not count; it still slows what runs, alike in each
round); each ratio is the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import bench

TARGETS = {"pettingzoo": 2.0, "openspiel": 3.0}
"""The most each adapter may cost per decision, times the raw API's (issue 35)."""


def _pettingzoo_scaled(seed: int) -> int:
    from ethnos_rules.pettingzoo import env

    game = env(4, scaled=True)
    bench._drive(game, seed)
    return int(game.decisions)


def _ids(seed: int) -> int:
    """A game through the action ids alone (``EncodedState``: legal ids, a step, chance drawn
    as the PettingZoo environment draws it), each id drawn from the legal ids as the raw API's
    loop draws its action: what the ids cost, without an environment or a mask."""
    from ethnos_rules import new_game
    from ethnos_rules.agents import EncodedState

    rng, chance = random.Random(seed), random.Random(seed)
    node, decisions = EncodedState.of(new_game(4)).through_chance(chance)
    while node.to_move() is not None:
        node, decision = node.step_id(rng.choice(node.legal_ids()))
        decisions += decision is not None
        if node.state.pending.chance:
            node, drawn = node.through_chance(chance)
            decisions += drawn
    return decisions


def _ids_listed(seed: int) -> int:
    """A game through the action ids alone, each chance outcome drawn as OpenSpiel's loop
    draws it: from every outcome listed with its probability as a float
    (``EncodedState.chance_floats``, then ``random.choices``), where the raw API's loop and
    :func:`_ids` draw one outcome (``sample_outcome``). Against :func:`_ids`, what listing
    the outcomes costs; against OpenSpiel, what its game and state objects cost."""
    from ethnos_rules import new_game
    from ethnos_rules.agents import EncodedState

    rng = random.Random(seed)
    node, decisions = EncodedState.of(new_game(4)), 0
    while node.to_move() is not None:
        if node.state.pending.chance:
            ids, probabilities = zip(*node.chance_floats(), strict=True)
            action = rng.choices(ids, probabilities)[0]
        else:
            action = rng.choice(node.legal_ids())
        node, decision = node.step_id(action)
        decisions += decision is not None
    return decisions


def _pettingzoo_unobserved(seed: int) -> int:
    """A game through the PettingZoo environment with no observation tensor written (an
    ablation: a fixed array is copied instead)."""
    import numpy as np

    from ethnos_rules.agents import observation_size
    from ethnos_rules.pettingzoo import EthnosEnv

    fixed = np.zeros(observation_size(), np.float32)

    class Unobserved(EthnosEnv):
        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            super().reset(seed=seed, options=options)
            self._writer.write = lambda node, seat=None: fixed.copy()  # type: ignore[method-assign]

    game = Unobserved(4)
    bench._drive(game, seed)
    return int(game.decisions)


def _gymnasium(seed: int) -> int:
    """A game through the Gymnasium environment, its learner drawing random legal ids."""
    import numpy as np

    from ethnos_rules.gymnasium import EthnosEnv, RandomPolicy

    env = EthnosEnv(4, opponents=RandomPolicy())
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, done, _, info = env.step(action)
    return int(env.game.decisions)


def measure(games: int, rounds: int) -> dict[str, Any]:
    """Microseconds per decision each way, and each way's ratio to the raw API."""
    from ethnos_rules.pettingzoo import env

    floors = []
    for seed in range(games):
        ethnos = env(4)
        floors.append((bench._null_env(bench._drive(ethnos, seed)), int(ethnos.decisions)))

    def floor(seed: int) -> int:
        null, decisions = floors[seed]
        bench._drive(null, seed)
        return decisions

    ways: dict[str, Callable[[int], int]] = {
        "raw": bench._raw_game,
        "pettingzoo": bench._pettingzoo_game,
        "pettingzoo_scaled": _pettingzoo_scaled,
        "pettingzoo_unobserved": _pettingzoo_unobserved,
        "ids": _ids,
        "ids_listed": _ids_listed,
        "openspiel": bench._openspiel_game,
        "gymnasium": _gymnasium,
        "floor": floor,
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for round_ in range(rounds):
        order = list(ways) if round_ % 2 == 0 else list(reversed(ways))
        for name in order:
            start = time.process_time()
            done = sum(ways[name](seed) for seed in range(games))
            times[name].append((time.process_time() - start) / done * 1e6)
    out: dict[str, Any] = {"games": games, "rounds": rounds, "us": {}, "ratio": {}}
    for name, values in times.items():
        out["us"][name] = statistics.median(values)
        out["ratio"][name] = statistics.median(
            a / b for a, b in zip(values, times["raw"], strict=True)
        )
    # The floor's ratio, as bench.py gives it: the rules' own work plus the floor's.
    out["ratio"]["floor"] = statistics.median(
        1 + a / b for a, b in zip(times["floor"], times["raw"], strict=True)
    )
    return out


LABELS = {
    "raw": "the raw API (`legal_actions`, `apply`, `sample_outcome`)",
    "pettingzoo": "PettingZoo (`last`, mask, `step`)",
    "pettingzoo_scaled": "PettingZoo, `scaled=True`",
    "pettingzoo_unobserved": "PettingZoo with no observation tensor written (an ablation)",
    "ids": "the action ids alone (`EncodedState`: `legal_ids`, `step_id`, chance; no mask)",
    "ids_listed": "the action ids alone, chance drawn from its listed outcomes as OpenSpiel's"
    " loop draws it (`chance_floats`, `random.choices`)",
    "openspiel": "OpenSpiel (`legal_actions`, `apply_action`, `chance_outcomes`)",
    "gymnasium": "Gymnasium, one seat, `RandomPolicy` opponents",
    "floor": "the floor: a do-nothing AEC environment (ratio: with the rules' work)",
}


def markdown(result: dict[str, Any]) -> list[str]:
    lines = [
        f"Random 4-player games ({result['games']} a round, {result['rounds']} alternating"
        " rounds), per decision of the game:",
        "",
        "| through | µs per decision | ratio to the raw API | target |",
        "|---|---|---|---|",
    ]
    for name, label in LABELS.items():
        target = TARGETS.get(name)
        verdict = "" if target is None else f"≤ {target}"
        if target is not None:
            verdict += " met" if result["ratio"][name] <= target else " MISSED"
        lines.append(
            f"| {label} | {result['us'][name]:.1f} | {result['ratio'][name]:.2f} | {verdict} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games a round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    print("\n".join(markdown(measure(args.games, args.rounds))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
