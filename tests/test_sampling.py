"""The fast draw sampler gives exactly the outcome of the general one (spec §11, CHANCE)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import GameState, apply, is_terminal
from ethnos_rules._rules.chance import DrawPending, draw_outcomes, draw_sample
from ethnos_rules._rules.randomness import pick
from strategies import game_prefixes, random_decision


def _next_draw(state: GameState, seed: int) -> GameState | None:
    """The first state from ``state`` on whose decision is a card draw, or None."""
    rng = random.Random(seed)
    while not is_terminal(state):
        if isinstance(state.pending, DrawPending):
            return state
        state = apply(state, random_decision(state, rng))
    return None


@settings(max_examples=80, deadline=None)
@given(game_prefixes(), st.integers(0, 2**32 - 1))
def test_draw_sample_is_pick_of_the_outcomes(prefix: object, seed: int) -> None:
    """For any draw and any random state, the integer sampler returns the outcome ``pick``
    returns from the exact probabilities, and consumes the random source alike."""
    state = _next_draw(prefix.state, seed)  # type: ignore[attr-defined]
    if state is None:
        return
    for make in (random.Random, np.random.default_rng):
        fast, slow = make(seed), make(seed)
        assert draw_sample(state, fast) == pick(draw_outcomes(state), slow)
        assert fast.random() == slow.random()
