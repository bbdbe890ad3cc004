"""Replaying a game: one driver from a start state and its decisions to every state and event,
read by many consumers, as python-chess's PGN visitor is.

:func:`decisions` applies the decisions one by one and yields a :class:`Decision` for each
(the state before and after, the action, the events), or a :class:`Refusal` for the first one
the rules refuse, after which it stops. :func:`replay` hands the same to a :class:`Visitor`.
Validation, narration, the command line, :meth:`GameRecord.replay
<ethnos_rules.GameRecord.replay>` and :meth:`Playthrough.states
<ethnos_rules.Playthrough.states>` are all written on it.

>>> from ethnos_rules import BandPlayed, Visitor, play_random, replay
>>> class CountBands(Visitor[int]):
...     def __init__(self) -> None:
...         self.bands = 0
...     def visit_decision(self, decision):
...         self.bands += sum(isinstance(e, BandPlayed) for e in decision.events)
...     def result(self) -> int:
...         return self.bands
>>> game = play_random(2, seed=5)
>>> replay(game.start, game.actions, CountBands())
95
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

import attrs

from .._rules.actions import Action
from .._rules.components import Tribe
from .._rules.engine import apply, apply_well_formed, step
from .._rules.errors import RulesError
from .._rules.events import Event
from .._rules.frozen import maker
from .._rules.notation import parse_action
from .._rules.options import Options
from .._rules.setup import TokenLayout, new_game
from .._rules.state import GameState

T = TypeVar("T")


@attrs.frozen(weakref_slot=False)  # no __weakref__: built through a draft (frozen.py)
class Decision:
    """One decision of a replayed game.

    Attributes:
        index: Its index, from 0.
        text: The decision as given (its text in a record).
        before: The state it was taken in.
        action: The action.
        after: The state after it.
        events: What it did (empty when the consumer asked for no events).
    """

    index: int
    text: str
    before: GameState
    action: Action
    after: GameState
    events: tuple[Event, ...]


new_decision = maker(Decision)
"""``Decision(...)``, for a replay that builds one at every decision."""


@attrs.frozen
class Refusal:
    """The first decision the rules refuse; the replay stops there.

    Attributes:
        index: Its index, from 0.
        text: The decision as given.
        state: The state in which it was refused.
        error: The refusal, naming the rule.
    """

    index: int
    text: str
    state: GameState
    error: RulesError


def decisions(
    start: GameState,
    actions: Iterable[Action | str],
    *,
    events: bool = True,
    stop: int | None = None,
) -> Iterator[Decision | Refusal]:
    """Replay ``actions`` (actions or their texts) from ``start``: a :class:`Decision` for each,
    or a :class:`Refusal` for the first the rules refuse, and nothing after it.

    Args:
        events: Collect each decision's events (the replay is faster without).
        stop: Replay only the first ``stop`` decisions.
    """
    state = start
    parsed: dict[str, Action] = {}
    for index, item in enumerate(actions):
        if stop is not None and index >= stop:
            return
        text = str(item)
        try:
            action = _action(item, parsed)
            if events:
                result = step(state, action)
                after, happened = result.state, result.events
            else:
                after, happened = apply(state, action), ()
        except RulesError as err:
            yield Refusal(index, text, state, err)
            return
        yield new_decision(index, text, state, action, after, happened)
        state = after


def _action(item: Action | str, parsed: dict[str, Action]) -> Action:
    """``item``, or the action its text names: a record repeats a few texts all game, so each
    is parsed once per replay (``parsed`` keeps them)."""
    if type(item) is str:
        found = parsed.get(item)
        if found is None:
            found = parsed[item] = parse_action(item)
        return found
    return item if isinstance(item, Action) else parse_action(item)  # which refuses the rest


def reached(
    start: GameState, actions: Iterable[Action | str], *, stop: int | None = None
) -> GameState | Refusal:
    """The state that ``actions`` reach from ``start``, or the :class:`Refusal` of the first
    decision the rules refuse: :func:`decisions` without a :class:`Decision` for each, for a
    consumer that needs none."""
    state = start
    parsed: dict[str, Action] = {}
    lookup = parsed.get
    for index, item in enumerate(actions):
        if stop is not None and index >= stop:
            break
        try:
            # _action's lookup of a text parsed before, without a call at each decision; what
            # the parser built is well formed (only an Action given as such is checked)
            action = lookup(item) if type(item) is str else None
            if action is None:
                action = _action(item, parsed)
                state = apply(state, action)
            else:
                state = apply_well_formed(state, action)
        except RulesError as err:
            return Refusal(index, str(item), state, err)
    return state


class Visitor(Generic[T]):
    """Receives a replayed game: override what you need, return your answer from
    :meth:`result`.

    ``needs_events`` says whether :meth:`visit_decision` reads ``decision.events``, and
    ``needs_decisions`` whether it is called at all; a visitor that needs neither makes the
    replay faster (one that needs no decisions is handed only the refusal or the end).
    """

    needs_events: bool = True
    needs_decisions: bool = True

    def begin_game(self, start: GameState, events: tuple[Event, ...]) -> None:
        """The game starts in ``start``; ``events`` say what the setup given did (tribes,
        tokens, the first Age's beginning)."""

    def visit_setup_error(self, error: RulesError) -> None:
        """The setup itself is refused (a record's players, tribes, tokens, options); nothing
        else follows."""

    def visit_decision(self, decision: Decision) -> None:
        """One decision, applied."""

    def visit_refusal(self, refusal: Refusal) -> None:
        """The first refused decision; the replay stops after it."""

    def end_game(self, state: GameState) -> None:
        """The last decision was applied (the game may not be over); ``state`` is the state
        reached."""

    def result(self) -> T:
        """What the visitor found."""
        raise NotImplementedError


def replay(
    start: GameState,
    actions: Iterable[Action | str],
    visitor: Visitor[T],
    *,
    start_events: tuple[Event, ...] = (),
    stop: int | None = None,
) -> T:
    """Replay ``actions`` from ``start`` into ``visitor`` and return its result.

    Args:
        start_events: The events of the setup, for :meth:`Visitor.begin_game`.
        stop: Replay only the first ``stop`` decisions.
    """
    if not visitor.needs_decisions:
        visitor.begin_game(start, start_events)
        end = reached(start, actions, stop=stop)
        return _finish(visitor, end) if isinstance(end, GameState) else _refuse(visitor, end)
    played = decisions(start, actions, events=visitor.needs_events, stop=stop)
    return visit(visitor, start, start_events, played)


def visit(
    visitor: Visitor[T],
    start: GameState,
    start_events: tuple[Event, ...],
    played: Iterable[Decision | Refusal],
) -> T:
    """Hand a game already replayed (``played``, as :func:`decisions` yields it) to
    ``visitor`` and return its result."""
    visitor.begin_game(start, start_events)
    state = start
    wanted = visitor.needs_decisions
    for item in played:
        if isinstance(item, Refusal):
            return _refuse(visitor, item)
        if wanted:
            visitor.visit_decision(item)
        state = item.after
    return _finish(visitor, state)


def _refuse(visitor: Visitor[T], refusal: Refusal) -> T:
    visitor.visit_refusal(refusal)
    return visitor.result()


def _finish(visitor: Visitor[T], state: GameState) -> T:
    visitor.end_game(state)
    return visitor.result()


# --- whole games ------------------------------------------------------------------------------


@attrs.frozen
class Playthrough:
    """A whole game: the start, every decision (chance outcomes included), the end.

    Attributes:
        start: The state :func:`new_game` returned.
        actions: Every decision in order.
        final: The state after the last decision.
    """

    start: GameState
    actions: tuple[Action, ...]
    final: GameState

    def states(self) -> Iterator[GameState]:
        """Every state of the game, from :attr:`start` to :attr:`final` (one more than the
        actions)."""
        yield self.start
        for item in decisions(self.start, self.actions, events=False):
            if isinstance(item, Refusal):
                raise item.error
            yield item.after


def play_random(
    players: int,
    seed: int,
    *,
    tribes: Iterable[str | Tribe] | None = None,
    glory_tokens: TokenLayout | None = None,
    first_player: int | None = None,
    options: Options | None = None,
) -> Playthrough:
    """Play a whole game with uniformly random legal decisions and exact chance, seeded.

    >>> from ethnos_rules import play_random, is_terminal, winners
    >>> game = play_random(3, seed=7)
    >>> is_terminal(game.final), len(winners(game.final)) >= 1
    (True, True)
    """
    rng = random.Random(seed)
    start = new_game(
        players,
        tribes=tribes,
        glory_tokens=glory_tokens,
        first_player=first_player,
        options=options,
    )
    state = start
    actions: list[Action] = []
    while not state.pending.terminal:
        pending = state.pending
        chance = pending.chance
        action = pending.sample(state, rng) if chance else rng.choice(pending.legal(state))
        state = apply(state, action)
        actions.append(action)
    return Playthrough(start, tuple(actions), state)
