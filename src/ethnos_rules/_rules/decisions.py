"""Every kind of decision the rules ask for, in the order of the game: the table that names a
decision by its class (the snapshot format writes the pending decision's class name)."""

from __future__ import annotations

from typing import Any

import attrs
from frozendict import frozendict

from .age import DealPending, FirstPlayerPending, RowPending
from .bands import ChainPending, PlacePending
from .scoring import GameOver, HordeEmptyPending
from .setup import ChooseTribes, LayTokensPending
from .state import DecisionKind, GameState, Pending
from .tribes import (
    CheckpointPending,
    HordePending,
    KeepPending,
    TrollPending,
    WizardDrawPending,
    WizardPending,
)
from .turn import RecruitDraw, TurnPending

DECISION_TYPES: tuple[type[Pending], ...] = (
    ChooseTribes,
    LayTokensPending,
    FirstPlayerPending,
    DealPending,
    RowPending,
    TurnPending,
    RecruitDraw,
    PlacePending,
    CheckpointPending,
    HordePending,
    TrollPending,
    ChainPending,
    KeepPending,
    WizardPending,
    WizardDrawPending,
    HordeEmptyPending,
    GameOver,
)
"""Every concrete decision class, from setup to the end of the game."""

DECISIONS_BY_NAME: dict[str, type[Pending]] = {cls.__name__: cls for cls in DECISION_TYPES}
"""The decision classes by class name."""


@attrs.frozen
class PendingDecision:
    """What is being decided in a state, for a program to branch on.

    Attributes:
        kind: What the decision is about.
        seat: The player who decides; None at a chance event (its ``facts`` name the player it
            concerns, as the ``drawer`` of a deck draw) and once the game is over.
        rule: The id of the spec rule that asks for it.
        chance: True for a chance event.
        facts: What else a tool needs, by name: see :func:`~ethnos_rules.pending_decision`.
        text: The decision in words, also its ``str``.
    """

    kind: DecisionKind
    seat: int | None
    rule: str
    chance: bool
    facts: frozendict[str, Any]
    text: str

    def __str__(self) -> str:
        return self.text

    @classmethod
    def of(cls, state: GameState) -> PendingDecision:
        """The decision pending in ``state``."""
        pending = state.pending
        return cls(
            kind=pending.kind,
            seat=pending.seat,
            rule=pending.rule,
            chance=pending.chance,
            facts=frozendict(pending.facts(state)),
            text=pending.describe(),
        )
