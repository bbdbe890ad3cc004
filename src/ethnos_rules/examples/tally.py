"""Win rates with their Wilson score interval, as the examples report them."""

from __future__ import annotations

import math


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % by default); a shared win may count as a
    fraction of one.

    >>> from ethnos_rules.examples.tally import wilson
    >>> [round(x, 3) for x in wilson(155, 200)]
    [0.712, 0.827]

    Raises:
        ValueError: ``games`` is not a positive number, or ``wins`` is outside 0 to ``games``.
    """
    if type(games) is not int or games < 1 or not 0 <= wins <= games:
        raise ValueError(f"a win rate needs 1 or more games and 0 to {games} wins, not {wins}")
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games**2)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def win_rate_line(name: str, wins: float, games: int) -> str:
    """One line: who, wins of games, the rate and its 95 % interval.

    >>> from ethnos_rules.examples.tally import win_rate_line
    >>> win_rate_line("ISMCTS vs random", 18, 20)
    'ISMCTS vs random: 18 of 20 won, 90.0 % (95 % Wilson interval 69.9 %–97.2 %)'
    """
    low, high = wilson(wins, games)
    return (
        f"{name}: {wins:g} of {games} won, {100 * wins / games:.1f} %"
        f" (95 % Wilson interval {100 * low:.1f} %–{100 * high:.1f} %)"
    )
