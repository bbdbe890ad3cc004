"""OpenSpiel's ISMCTS against the library's bots: ``python -m ethnos_rules.examples.ismcts_match``.

OpenSpiel's own ``ISMCTSBot`` searches worlds drawn from what its seat knows
(``resample_from_infostate``, the library's exact sampler) and values its leaves with
:class:`~ethnos_rules.openspiel.RandomPlayouts`; the other seats are a library bot
(:class:`~ethnos_rules.openspiel.BotPlayer`). The searching seat goes round the table from
game to game. It prints the win rate with its 95 % Wilson interval.

    python -m ethnos_rules.examples.ismcts_match --opponent greedy --games 20 --simulations 16

Needs the ``[openspiel]`` extra.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from ethnos_rules.bots import BOTS, bot
from ethnos_rules.examples.tally import win_rate_line
from ethnos_rules.openspiel import BotPlayer, RandomPlayouts


def play_one(
    seed: int, players: int, opponent: str, simulations: int, world_samples: int, uct_c: float
) -> tuple[int, float]:
    """One seeded game: the searching seat and its return (1 for a sole win)."""
    game = pyspiel.load_game("python_ethnos", {"players": players})
    seat = seed % players
    searcher = ismcts.ISMCTSBot(
        game,
        RandomPlayouts(1, rng=random.Random(seed)),
        uct_c=uct_c,
        max_simulations=simulations,
        max_world_samples=world_samples,
        random_state=np.random.RandomState(seed),
    )
    # Seeded worlds: ISMCTS's own sampler is seeded from the clock.
    sampler = random.Random(seed + 1)
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    seats: list[Any] = [BotPlayer(bot(opponent), rng=seed * 10 + s) for s in range(players)]
    seats[seat] = searcher
    state, rng = game.new_initial_state(), np.random.RandomState(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(ids, p=probabilities))
        else:
            state.apply_action(seats[state.current_player()].step(state))
    return seat, float(state.returns()[seat])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", choices=sorted(BOTS), default="random")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=16, help="ISMCTS simulations a move")
    parser.add_argument(
        "--world-samples",
        type=int,
        default=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        help="worlds drawn a search, then reused (default: a new one every simulation)",
    )
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    settings = (args.players, args.opponent, args.simulations, args.world_samples, args.uct_c)
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(play_one, seed, *settings) for seed in seeds]
        results = [future.result() for future in futures]
    wins = sum(value > 0 for _, value in results)
    name = f"ISMCTS ({args.simulations} simulations) vs {args.opponent}, {args.players} players"
    print(win_rate_line(name, wins, args.games))
    print(f"{time.perf_counter() - start:.0f} s for {args.games} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
