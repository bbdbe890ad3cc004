"""A game at a table of agents: the node, and a log of its decisions from which any seat's
knowledge is worked out only when a bot asks for it (events are replayed then, once)."""

from __future__ import annotations

from typing import Any

from .._io.seats import InformationState
from .._rules.actions import Action
from .._rules.engine import step
from .._rules.state import GameState
from .encoding import EncodedState
from .tensors import Played
from .worlds import knowledge


class Table:
    """A game from ``start``, played id by id or a decision at a time.

    Attributes:
        start: The state the game began at.
        node: The game now, with the band being built.
        decisions: How many decisions have been made (chance included; a band is one).
    """

    def __init__(self, start: GameState) -> None:
        self.start, self.node, self.decisions = start, EncodedState.of(start), 0
        self._played = Played.empty()  # the decisions whose events are known
        self._state = start  # the state they reach
        self._unlogged: list[Action] = []  # the decisions since

    def apply_id(self, action_id: int) -> None:
        """Take the id ``action_id`` (refused as :meth:`EncodedState.apply_id` refuses it)."""
        self.node, decision = self.node.step_id(action_id)
        if decision is not None:  # a decision complete (a band's Leader and cards only build it)
            self._unlogged.append(decision)
            self.decisions += 1

    def apply(self, action: Action, seat: int) -> None:
        """Take ``action``, a whole decision of ``seat`` (refused as the rules refuse it)."""
        result = step(self.node.state, action, seat=seat)
        self._catch_up()
        self._played, self._state = self._played.add(action, result.events), result.state
        self.decisions += 1
        self.node = EncodedState.of(result.state)

    def through_chance(self, rng: Any) -> None:
        """Draw every chance event from here with ``rng``."""
        self.node, drawn = self.node.through_chance(rng, self._unlogged)
        self.decisions += drawn

    def knowledge(self, seat: int) -> InformationState:
        """What ``seat`` knows now (a band being built is not in it)."""
        self._catch_up()
        return knowledge(self.start, self._played, seat)

    def played(self) -> Played:
        """Every decision so far, with its events."""
        self._catch_up()
        return self._played

    def _catch_up(self) -> None:
        """Work out the events of the decisions not logged with theirs yet."""
        played, state = self._played, self._state
        for decision in self._unlogged:
            result = step(state, decision)
            played, state = played.add(decision, result.events), result.state
        self._played, self._state, self._unlogged = played, state, []
