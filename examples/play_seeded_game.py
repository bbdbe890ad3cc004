"""Play one seeded random game of Ethnos and print its course and result.

Usage: ``python examples/play_seeded_game.py [PLAYERS] [SEED]`` (default: 4 players, seed 2026).
Every decision is printed in the action notation; chance outcomes are marked ``~``.
"""

from __future__ import annotations

import sys

from ethnos_rules import apply, glory, is_chance, is_terminal, play_random, to_move, winners


def main(players: int = 4, seed: int = 2026) -> None:
    game = play_random(players, seed)
    state = game.start
    print("=== Setup and Age 1 ===")
    for number, action in enumerate(game.actions, 1):
        who = "~" if is_chance(state) else f"seat {to_move(state)}"
        print(f"{number:4}  {who:7} {action}")
        before = len(state.history)
        state = apply(state, action)
        if len(state.history) > before:  # an Age has just been scored
            summary = state.history[-1]
            print(f"--- end of Age {summary.age}: glory {summary.glory}")
            for seat, gains in enumerate(summary.gains):
                parts = ", ".join(f"{source} +{n}" for source, n in gains) or "nothing"
                print(f"    seat {seat}: {parts}")
            if not is_terminal(state):
                print(f"\n=== Age {state.age} ===")
    final = game.final
    print(f"\nFinal glory: {glory(final)}; winner(s): seat {', '.join(map(str, winners(final)))}")
    print(f"\n{final}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
