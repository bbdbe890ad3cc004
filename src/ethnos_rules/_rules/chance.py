"""Chance decisions with exact probabilities (spec §11, ``CHANCE``).

The deck is not an ordered list but the multiset of Ally cards that are nowhere else, shuffled
uniformly, plus the Dragons of the bottom part (AGE-4). A draw's outcome is a card kind; its
probability follows from the counts alone:

- while cards of the top part remain, ``P(k) = c_k / A`` and a Dragon cannot come;
- in the bottom part, with ``b`` cards and ``d`` Dragons left, ``P(DRAGON) = d / b`` and
  ``P(k) = c_k / b``.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from .actions import Action, Reveal
from .components import DRAGON, Card, Dragon, Hidden
from .errors import ImpossibleOutcomeError, RulesError
from .events import CardDrawn, Source, emit
from .state import GameState, Pending

# Draws repeat the same few outcomes and ratios all game long: build each object once.
_fraction = functools.lru_cache(maxsize=4096)(Fraction)
_reveal = functools.lru_cache(maxsize=None)(Reveal)


def draw_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    """Every card kind the next draw can reveal, with its probability (CHANCE)."""
    deck = state.deck
    allies = sum(deck)
    dragons = state.dragons_in_deck if state.top_left == 0 else 0
    total = allies + dragons
    cards = state.rules.cards
    out: list[tuple[Action, Fraction]] = [
        (_reveal(cards[i]), _fraction(n, total)) for i, n in enumerate(deck) if n
    ]
    if dragons:
        out.append((_reveal(DRAGON), _fraction(dragons, total)))
    return out


def can_reveal(state: GameState, card: Card | Dragon) -> str | None:
    """Why ``card`` cannot be the next card drawn, or None if it can."""
    if isinstance(card, Dragon):
        if state.dragons_in_deck == 0:
            return "no Dragon is left in the deck"
        if state.top_left:
            return f"a Dragon cannot be drawn while {state.top_left} top-part cards remain (AGE-4)"
        return None
    if card.index >= len(state.deck) or not state.deck[card.index]:
        return f"no {card} is left in the deck"
    return None


def remove_from_deck(state: GameState, card: Card | Dragon) -> GameState:
    """The state after ``card`` has been drawn (already checked with :func:`can_reveal`)."""
    top_left = max(state.top_left - 1, 0)
    if isinstance(card, Dragon):
        return attrs.evolve(
            state,
            dragons_in_deck=state.dragons_in_deck - 1,
            dragons_drawn=state.dragons_drawn + 1,
            top_left=top_left,
        )
    deck = list(state.deck)
    deck[card.index] -= 1
    return attrs.evolve(state, deck=tuple(deck), top_left=top_left)


class DrawPending(Pending):
    """A chance event that reveals the top card of the deck; subclasses say where it goes
    (``source``, :meth:`receiver`, :meth:`receive`)."""

    __slots__ = ()

    source: ClassVar[Source]
    chance: ClassVar[bool] = True
    rule: ClassVar[str] = "CHANCE"
    accepts: ClassVar[tuple[type[Action], ...]] = (Reveal,)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return tuple(a for a, _ in draw_outcomes(state))

    def outcomes(self, state: GameState) -> Sequence[tuple[Action, Fraction]]:
        return draw_outcomes(state)

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, Reveal) and not isinstance(action.card, Hidden)
        card = action.card  # apply() refuses a hidden card before it gets here
        why = can_reveal(state, card)
        if why is not None:
            raise ImpossibleOutcomeError("CHANCE", why, action)
        drawn = remove_from_deck(state, card)
        if isinstance(card, Dragon):
            return self.dragon(drawn)
        emit(_drawn, self, state, card)
        return self.receive(drawn, card)

    def receiver(self, state: GameState) -> int | None:
        """The seat the card goes to, or None (the row)."""
        raise NotImplementedError

    def receive(self, state: GameState, card: Card) -> GameState:
        """Put the drawn Ally card where it belongs and go on."""
        raise NotImplementedError

    def dragon(self, state: GameState) -> GameState:
        """A Dragon was revealed (RECRUIT-3/4); only draws after the split can meet one."""
        raise NotImplementedError


def _drawn(pending: DrawPending, state: GameState, card: Card) -> CardDrawn:
    return CardDrawn(card, pending.receiver(state), pending.source)


Random = Any
"""A source of randomness: a :class:`random.Random`, or a ``numpy.random.Generator``."""


def check_random(rng: object) -> None:
    """Refuse anything but a :class:`random.Random` or a ``numpy.random.Generator`` (found by
    its type's name, so that the rules need no numpy)."""
    kind = type(rng)
    numpy = kind.__name__ == "Generator" and kind.__module__.startswith("numpy.random")
    if not isinstance(rng, random.Random) and not numpy:
        raise RulesError(
            "CHANCE",
            f"sampling needs a random.Random or a numpy.random.Generator, not {kind.__name__}",
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


def pick(outcomes: Sequence[tuple[Action, Fraction]], rng: Random) -> Action:
    """One outcome drawn with its exact probability, using ``rng``."""
    denominator = math.lcm(*[p.denominator for _, p in outcomes])
    roll = below(rng, denominator)
    if type(roll) is not int or not 0 <= roll < denominator:
        raise RulesError(
            "CHANCE", f"the random source gave {roll!r}, not a number below {denominator}"
        )
    for action, p in outcomes:
        roll -= p.numerator * (denominator // p.denominator)
        if roll < 0:
            return action
    raise AssertionError("chance outcomes do not sum to 1")
