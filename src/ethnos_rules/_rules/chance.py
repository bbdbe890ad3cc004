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
import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from .actions import Action, Reveal
from .components import DRAGON, Card, Dragon, Hidden, Ruleset
from .errors import ImpossibleOutcomeError
from .events import CardDrawn, Source, emit
from .randomness import Random, count_off
from .said import said
from .state import GameState, Pending, copy_state

# Draws repeat the same few outcomes and ratios all game long: build each object once.
_fraction = functools.lru_cache(maxsize=4096)(Fraction)
_reveal = functools.lru_cache(maxsize=None)(Reveal)


def dragons_in_reach(state: GameState) -> int:
    """AGE-4: the Dragons the next draw can reveal: none while top-part cards remain."""
    return state.dragons_in_deck if state.top_left == 0 else 0


@functools.cache
def _reveals(rules: Ruleset) -> tuple[Reveal, ...]:
    """The reveal of each card kind of ``rules``, in card order (as the deck counts them)."""
    return tuple(map(_reveal, rules.cards))


@functools.lru_cache(maxsize=4096)
def _shares(total: int, most: int) -> tuple[Fraction, ...]:
    """``n / total`` for each ``n`` from 0 to ``most``."""
    return tuple(_fraction(n, total) for n in range(most + 1))


def draw_outcomes(state: GameState) -> tuple[tuple[Action, Fraction], ...]:
    """Every card kind the next draw can reveal, with its probability (CHANCE)."""
    deck = state.deck
    dragons = dragons_in_reach(state)
    total = sum(deck) + dragons
    if not total:
        return ()
    shares = _shares(total, max(max(deck, default=0), dragons))
    # The kinds left and their counts' shares, paired without a Python step for each kind: an
    # agent that lists the outcomes at every draw (OpenSpiel's chance_outcomes) waits on this.
    kinds = itertools.compress(_reveals(state.rules), deck)
    out: tuple[tuple[Action, Fraction], ...] = tuple(
        zip(kinds, map(shares.__getitem__, filter(None, deck)), strict=True)
    )
    if dragons:
        out += ((_reveal(DRAGON), shares[dragons]),)
    return out


def draw_sample(state: GameState, rng: Random) -> Action:
    """The outcome ``pick(draw_outcomes(state), rng)`` gives, from the same random integer,
    counted off the deck's counts and the Dragons in reach (see
    :func:`~ethnos_rules._rules.randomness.count_off`)."""
    deck = state.deck
    dragons = dragons_in_reach(state)
    index = count_off((*deck, dragons) if dragons else deck, rng)
    return _reveal(state.rules.cards[index] if index < len(deck) else DRAGON)


def can_reveal(state: GameState, card: Card | Dragon) -> str | None:
    """Why ``card`` cannot be the next card drawn, or None if it can."""
    if isinstance(card, Dragon):
        if state.dragons_in_deck == 0:
            return said("no Dragon is left in the deck")
        if state.top_left:
            return said(
                "a Dragon cannot be drawn while {n} top-part cards remain (AGE-4)",
                n=state.top_left,
            )
        return None
    if card.index >= len(state.deck) or not state.deck[card.index]:
        return said("no {card} is left in the deck", card=card)
    return None


def deck_after(state: GameState, card: Card) -> tuple[tuple[int, ...], int]:
    """The deck's counts and ``top_left`` once the Ally ``card`` (already checked with
    :func:`can_reveal`) is drawn: to be set in the copy that puts the card where it goes."""
    deck = list(state.deck)
    deck[card.index] -= 1
    return tuple(deck), max(state.top_left - 1, 0)


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

    def drawn_to(self, state: GameState) -> int | None:
        return self.receiver(state)

    def outcomes(self, state: GameState) -> Sequence[tuple[Action, Fraction]]:
        return draw_outcomes(state)

    def sample(self, state: GameState, rng: Random) -> Action:
        return draw_sample(state, rng)

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, Reveal) and not isinstance(action.card, Hidden)
        card = action.card  # apply() refuses a hidden card before it gets here
        why = can_reveal(state, card)
        if why is not None:
            raise ImpossibleOutcomeError("CHANCE", why, action)
        if isinstance(card, Dragon):
            # A Dragon is drawn only once the top part is gone (AGE-4): top_left is 0 already.
            left, drawn = state.dragons_in_deck - 1, state.dragons_drawn + 1
            return self.dragon(copy_state(state, dragons_in_deck=left, dragons_drawn=drawn))
        emit(_drawn, self, state, card)
        deck, top_left = deck_after(state, card)
        return self.receive(state, card, deck, top_left)

    def receiver(self, state: GameState) -> int | None:
        """The seat the card goes to, or None (the row)."""
        raise NotImplementedError

    def receive(
        self, state: GameState, card: Card, deck: tuple[int, ...], top_left: int
    ) -> GameState:
        """Put the drawn Ally card where it belongs and go on. ``state`` is the state before
        the draw; ``deck`` and ``top_left`` are the deck after it, to be set in the same copy
        (a draw then builds one state, not two)."""
        raise NotImplementedError

    def dragon(self, state: GameState) -> GameState:
        """A Dragon was revealed (RECRUIT-3/4); only draws after the split can meet one."""
        raise NotImplementedError


def _drawn(pending: DrawPending, state: GameState, card: Card) -> CardDrawn:
    return CardDrawn(card, pending.receiver(state), pending.source)
