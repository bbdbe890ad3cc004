"""What every bot shares: the :class:`Bot` protocol, the check of what a bot is given, and the
greedy bot's measure of a position (:func:`lead`)."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .._io.jsonio import RecordError
from .._io.records import GameRecord
from .._io.seats import InformationState
from .._rules.actions import Action
from .._rules.engine import score_now
from .._rules.state import GameState


@runtime_checkable
class Bot(Protocol):
    """What a bot is: a name, a description and :meth:`choose`.

    A bot's strength settings (a budget of simulations or seconds, say) are arguments of its
    constructor, so that :data:`BOTS` can make each bot with no arguments at its default level.
    A bot may keep caches between calls, but its choice must depend only on ``knowledge`` and
    on ``rng``: same information and same seed, same choice (a budget in seconds is the one
    exception a bot may document).
    """

    @property
    def name(self) -> str:
        """A short name, the bot's key in :data:`BOTS` (``"greedy"``)."""
        ...

    @property
    def description(self) -> str:
        """One line for a person choosing opponents."""
        ...

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        """A legal decision for ``knowledge.seat``, which must be the seat to decide.

        Args:
            knowledge: What the seat knows of the game so far.
            rng: The generator for every random choice the bot makes (its draws of the hidden
                cards included).

        Raises:
            RecordError: ``knowledge`` is not an :class:`~ethnos_rules.InformationState`.
            GameOverError: (rule ``GAME-1``) the game is over.
            WrongDecisionError: the seat does not decide now (a chance event, or another seat,
                is next); the rule is that of the pending decision.
            RulesError: ``knowledge`` fits no game (as :func:`~ethnos_rules.validate` says),
                or (rule ``CHANCE``) ``rng`` is not a random generator.
        """
        ...


def check_knowledge(knowledge: object) -> InformationState:
    """``knowledge`` itself if it is an :class:`~ethnos_rules.InformationState`; else a
    :class:`~ethnos_rules.RecordError` that says how to get one."""
    if isinstance(knowledge, InformationState):
        return knowledge
    hint = ""
    if isinstance(knowledge, GameState):
        hint = (
            "; a state holds every hidden card: information_state(GameRecord.from_start(start,"
            " actions), seat) is what the seat knows"
        )
    elif isinstance(knowledge, GameRecord):
        hint = "; information_state(record, seat) gives it"
    raise RecordError(
        "a bot chooses from what its seat knows, an InformationState, not"
        f" {type(knowledge).__name__}{hint}"
    )


def lead(state: GameState, seat: int) -> int:
    """How far ``seat`` would be ahead of the best other seat if the Age ended now, its last
    Dragon drawn by ``seat`` (:func:`~ethnos_rules.score_now`); negative when behind.

    >>> from ethnos_rules import position
    >>> from ethnos_rules.bots import lead
    >>> state = position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], to_move=1,
    ...                  bands={0: ["*DWA-red DWA-blue"]}, kingdoms={1: {"Rhea": 1}})
    >>> lead(state, 1), lead(state, 0)
    (1, -1)

    Raises:
        RulesError: (rule ``RECRUIT-4``) outside the turns of an Age, as ``score_now``.
    """
    points = score_now(state, drawer=seat).glory
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)
