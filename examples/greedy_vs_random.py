"""The greedy bot against the random bot (``ethnos_rules.bots``), in seeded games.

    python examples/greedy_vs_random.py --games 200 --players 2 --jobs 2

The greedy bot tries each legal action and keeps the one after which the end of the Age, if it
came now, would leave it furthest ahead of its best opponent (``score_now``; ties are broken at
random). It sees only what is public and its own hand: each bot is given its seat's information
state, never the hidden cards. The greedy bot takes seat ``game % players`` and the random bot
every other seat; ``bots.play`` draws chance and the bots' choices from one generator seeded
with the game's number.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

from confidence import wilson  # examples/confidence.py

from ethnos_rules import new_game, winners
from ethnos_rules.bots import Bot, GreedyBot, RandomBot, play


def play_one(seed: int, players: int) -> float:
    """One game; the greedy seat's result: 1 a win, 1/k a win shared by k, 0 a loss."""
    greedy = seed % players
    bots: dict[int, Bot] = {
        seat: GreedyBot() if seat == greedy else RandomBot() for seat in range(players)
    }
    game = play(new_game(players), bots, random.Random(seed))
    won = winners(game.final)
    return 1 / len(won) if greedy in won else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_one, range(args.games), [args.players] * args.games))
    wins = sum(results)
    low, high = wilson(wins, args.games)
    print(
        f"greedy against random (ethnos_rules.bots), {args.players} players, {args.games} games:"
        f" {wins:g} won, win rate {wins / args.games:.1%} (95 % interval {low:.1%}-{high:.1%});"
        f" a random seat would win {1 / args.players:.1%}"
    )


if __name__ == "__main__":
    main()
