"""A greedy bot that asks ``score_now`` against uniform random play, in seeded games.

    python examples/greedy_vs_random.py --games 200 --players 2 --jobs 2

The greedy bot tries each legal action and keeps the one after which the end of the Age, if it
came now, would leave it furthest ahead of its best opponent (``score_now``; ties are broken at
random). It sees only what is public: the end of an Age scores the board, never a hand. It takes
seat ``game % players``; chance is drawn with ``sample_outcome``.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

from confidence import wilson  # examples/confidence.py

from ethnos_rules import (
    Action,
    DecisionKind,
    GameState,
    apply,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    pending_decision,
    sample_outcome,
    score_now,
    to_move,
    winners,
)


def lead(state: GameState, seat: int) -> int:
    """How far ``seat`` would be ahead of the best other seat if the Age ended now."""
    points = score_now(state, drawer=seat).glory
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def greedy_action(state: GameState, rng: random.Random) -> Action:
    """The legal action with the best :func:`lead` after it, ties broken at random; at the end
    of an Age the whole Horde is emptied (its Glory is certain, a kept Horde's is not)."""
    decision = pending_decision(state)
    if decision.kind is DecisionKind.HORDE_EMPTY:
        return legal_actions(state)[0]  # the largest choice first: the whole Horde
    seat = decision.seat
    assert seat is not None
    scored = [(lead(apply(state, action), seat), action) for action in legal_actions(state)]
    best = max(value for value, _ in scored)
    return rng.choice([action for value, action in scored if value == best])


def play(seed: int, players: int) -> float:
    """One game; the greedy seat's result: 1 a win, 1/k a win shared by k, 0 a loss."""
    rng = random.Random(seed)
    greedy = seed % players
    state = new_game(players)
    while not is_terminal(state):
        if is_chance(state):
            action = sample_outcome(state, rng)
        elif to_move(state) == greedy:
            action = greedy_action(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
    won = winners(state)
    return 1 / len(won) if greedy in won else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, range(args.games), [args.players] * args.games))
    wins = sum(results)
    low, high = wilson(wins, args.games)
    print(
        f"greedy (score_now) against uniform random, {args.players} players, {args.games} games:"
        f" {wins:g} won, win rate {wins / args.games:.1%} (95 % interval {low:.1%}-{high:.1%});"
        f" a random seat would win {1 / args.players:.1%}"
    )


if __name__ == "__main__":
    main()
