"""Random playouts: a game played on to its end by uniform random decisions, for valuing the
leaves of a search (OpenSpiel's MCTS and ISMCTS take an evaluator built on it)."""

from __future__ import annotations

from typing import Any

from .._rules.engine import apply_well_formed, is_terminal, legal_actions, sample_outcome
from .._rules.randomness import check_random, uniform
from .._rules.state import GameState
from .encoding import EncodedState


def playout(node: EncodedState | GameState, rng: Any) -> GameState:
    """The end of the game played on from ``node`` by uniformly random legal decisions, chance
    drawn with its exact probabilities (:func:`~ethnos_rules.sample_outcome`), all with
    ``rng`` (a :class:`random.Random` or a ``numpy.random.Generator``).

    A band begun in ``node`` is finished first, each step drawn uniformly from the ids that go
    on with a legal band; after that a decision is a whole action, as the rules list them (a
    band is one decision among the others, not several steps).

    >>> import random
    >>> from ethnos_rules import is_terminal, new_game
    >>> from ethnos_rules.agents import playout
    >>> is_terminal(playout(new_game(3), random.Random(1)))
    True

    Raises:
        InvalidStateError: ``node`` is neither an EncodedState nor a GameState.
        RulesError: (rule ``CHANCE``) ``rng`` is not a random generator.
    """
    check_random(rng)
    if isinstance(node, EncodedState):
        while node.band:
            node = node.apply_id(uniform(node.legal_ids(), rng))
        node = node.state
    state = node
    while not is_terminal(state):  # refuses anything but a GameState
        if state.pending.chance:
            action = sample_outcome(state, rng)
        else:
            action = uniform(legal_actions(state), rng)
        state = apply_well_formed(state, action)  # legal: the rules listed or drew it
    return state
