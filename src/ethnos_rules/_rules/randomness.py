"""Drawing uniform integers and chance outcomes exactly, from a :class:`random.Random` or a
``numpy.random.Generator`` (spec §11)."""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import RulesError
from .said import said
from .words import given

if TYPE_CHECKING:
    from .actions import Action

T = TypeVar("T")

Random = Any
"""A source of randomness: a :class:`random.Random`, or a ``numpy.random.Generator``."""


def check_random(rng: object) -> None:
    """Refuse anything but a :class:`random.Random` or a ``numpy.random.Generator`` (found by
    its type's name, so that the rules need no numpy)."""
    if isinstance(rng, random.Random):  # the common case, asked at every chance decision
        return
    kind = type(rng)
    if kind.__name__ != "Generator" or not kind.__module__.startswith("numpy.random"):
        raise RulesError(
            "CHANCE",
            said(
                "sampling needs a random.Random or a numpy.random.Generator, not {type}",
                type=kind.__name__,
            ),
        )


def below(rng: Random, n: int) -> Any:
    """A uniform integer from 0 to ``n - 1``: exact for any ``n``, also from numpy (whose
    ``integers`` stops at 2**63, so a larger ``n`` is drawn 62 bits at a time, rejecting
    values past ``n``)."""
    if isinstance(rng, random.Random):
        return rng.randrange(n)
    if n <= 1 << 62:
        return int(rng.integers(n))
    chunks = -(-n.bit_length() // 62)
    while True:
        value = 0
        for _ in range(chunks):
            value = value << 62 | int(rng.integers(1 << 62))
        value >>= chunks * 62 - n.bit_length()
        if value < n:
            return value


def roll(rng: Random, n: int) -> int:
    """A uniform integer from 0 to ``n - 1``, refusing a random source that gives anything else."""
    value = below(rng, n)
    if type(value) is not int or not 0 <= value < n:
        raise RulesError(
            "CHANCE",
            said("the random source gave {value}, not a number below {n}", value=given(value), n=n),
        )
    return value


def pick(outcomes: Sequence[tuple[Action, Fraction]], rng: Random) -> Action:
    """One outcome drawn with its exact probability, using ``rng``: a uniform integer below
    the probabilities' common denominator, counted off outcome by outcome."""
    denominator = math.lcm(*[p.denominator for _, p in outcomes])
    left = roll(rng, denominator)
    for action, p in outcomes:
        left -= p.numerator * (denominator // p.denominator)
        if left < 0:
            return action
    raise AssertionError("chance outcomes do not sum to 1")


def count_off(counts: Sequence[int], rng: Random) -> int:
    """The index of the outcome :func:`pick` draws, from the same random integer, when outcome
    ``i`` has the probability ``counts[i] / sum(counts)`` (an outcome of count 0 is never
    drawn, as if it were not listed).

    No Fraction is built: the reduced probabilities' common denominator is ``sum(counts) //
    g``, where ``g``, the gcd of the counts, divides their sum; a roll below it, times ``g``,
    is a number of counts to go past.
    """
    unit = math.gcd(*counts)
    left = roll(rng, sum(counts) // unit) * unit
    return bisect.bisect_right(list(itertools.accumulate(counts)), left)


def uniform(items: Sequence[T], rng: Random) -> T:
    """The item :func:`pick` draws, from the same random integer, when each of ``items`` has
    the probability ``1 / len(items)``."""
    return items[roll(rng, len(items))]
