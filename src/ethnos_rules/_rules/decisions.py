"""Every kind of decision the rules ask for, in the order of the game: the table that names a
decision by its class (the snapshot format writes the pending decision's class name)."""

from __future__ import annotations

from .age import DealPending, FirstPlayerPending, RowPending
from .bands import ChainPending, PlacePending
from .scoring import GameOver, HordeEmptyPending
from .setup import ChooseTribes, LayTokensPending
from .state import Pending
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
