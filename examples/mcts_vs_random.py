"""OpenSpiel's MCTS against uniform random play in seeded 2-player games of python_ethnos.

    python examples/mcts_vs_random.py --games 200 --jobs 2

MCTS searches with OpenSpiel's ``MCTSBot``; each leaf is valued by one random playout to the
end of the game, played with the rules' own functions (``ethnos_rules.sample_outcome`` and
``legal_actions``, a whole band per decision), which is several times faster than playing it
out id by id through OpenSpiel. MCTS takes seat 0 in even games and seat 1 in odd ones. Like
every determinised MCTS, it searches the true state, hidden cards included: it is a strength
test of the adapter, not a fair player.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pyspiel
from confidence import wilson  # examples/confidence.py
from open_spiel.python.algorithms import mcts

import ethnos_rules.openspiel  # noqa: F401  (registers python_ethnos)
from ethnos_rules import apply, is_terminal, legal_actions, sample_outcome
from ethnos_rules.agents import returns


class PlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by one random playout of the rules to the end of the game."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> Any:
        game = state.game_state
        while not is_terminal(game):
            pending = game.pending
            action = (
                sample_outcome(game, self.rng)
                if pending.chance
                else self.rng.choice(legal_actions(game))
            )
            game = apply(game, action)
        return np.array(returns(game))

    def prior(self, state: Any) -> Any:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def play(seed: int, simulations: int) -> float:
    """One game; the Glory-tie-aware result for MCTS: 1 a win, 1/k a shared win, 0 a loss."""
    game = pyspiel.load_game("python_ethnos", {"players": 2})
    rng = random.Random(seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=PlayoutEvaluator(seed),
        random_state=np.random.RandomState(seed),
    )
    seat = seed % 2
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
            continue
        legal = state.legal_actions()
        if state.current_player() == seat and len(legal) > 1:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(legal))
    won = [s for s, r in enumerate(state.returns()) if r > 0]
    return 1 / len(won) if seat in won else 0.0 if won else 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seeds = range(args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, seeds, [args.simulations] * args.games))
    wins = sum(results)
    low, high = wilson(wins, args.games)
    print(
        f"MCTS ({args.simulations} simulations) against uniform random, {args.games} games:"
        f" {wins:g} won, win rate {wins / args.games:.1%} (95 % interval {low:.1%}-{high:.1%})"
    )


if __name__ == "__main__":
    main()
