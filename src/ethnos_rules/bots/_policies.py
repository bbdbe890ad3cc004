"""Quick ways to choose among legal actions in a whole state: the playout policies of the search
bots, and the moves a search tries.

A *policy* is a function ``policy(state, actions, rng)`` that returns one of ``actions``, the
legal actions of ``state`` (a player's decision). It may read the whole state, but the
policies here read only the deciding seat's own hand and what is public, so a bot made of one
of them plays fair. They choose; they never decide what is legal: ``actions`` comes from the
rules (``legal_actions``).

- :func:`uniform_policy`: any legal action, each as likely.
- :func:`rules_of_thumb`: collect cards that go together, play the largest band once it holds
  three cards or more (or the hand is full), place its marker, take what abilities offer.
- :func:`search_moves`: the moves worth searching at a decision: every move but the bands
  that a larger band with the same Leader card and the same kind of group (one tribe or one
  colour) contains, since a band's other cards are discarded anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._rules.actions import (
    Action,
    AddToHorde,
    Checkpoint,
    EmptyHorde,
    Keep,
    Place,
    PlayBand,
    Recruit,
    StopChain,
    TakeTroll,
    WizardDraw,
)
from .._rules.components import Card
from .._rules.randomness import Random, uniform
from .._rules.state import DecisionKind, GameState

Policy = Callable[[GameState, tuple[Action, ...], Random], Action]
"""``policy(state, actions, rng)``: one of ``actions``, the legal actions of ``state``."""

PLAY_AT = 3
""":func:`rules_of_thumb` plays its largest band once the band holds this many cards. Measured
against the greedy bot and against 4 and 5 (150 games at 2 players and 60 at 4 for each): 3
won most at both."""


def uniform_policy(state: GameState, actions: tuple[Action, ...], rng: Random) -> Action:
    """Any of ``actions``, each as likely."""
    return uniform(actions, rng)


def rules_of_thumb(state: GameState, actions: tuple[Action, ...], rng: Random) -> Action:
    """A quick, sensible move from the deciding seat's hand and what is public.

    At a turn: the largest band once it holds :data:`PLAY_AT` cards or more, or when the
    hand is full; else the row card that joins most cards of the hand (by tribe or colour; a
    Skeleton joins any), the deck only when the row offers nothing. A Centaur chain plays on
    with the largest band. A placement, a Merfolk checkpoint, an Orc Horde marker, a Troll
    token (the highest), an Elves' keep and the Wizards' draw (the most) are always taken;
    at the end of an Age the whole Horde is emptied. Ties are broken with ``rng``.

    >>> import random
    >>> from ethnos_rules import legal_actions, position
    >>> from ethnos_rules.bots import rules_of_thumb
    >>> tribes = ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]
    >>> state = position(4, tribes, hands={0: "ELF-red ELF-blue"}, row="DWA-blue ELF-gray")
    >>> str(rules_of_thumb(state, legal_actions(state), random.Random(0)))
    'recruit ELF-gray'
    >>> state = position(4, tribes, hands={0: "ELF-red ELF-blue ELF-gray DWA-red"})
    >>> str(rules_of_thumb(state, legal_actions(state), random.Random(0)))
    'band *ELF-red ELF-gray ELF-blue'
    """
    if len(actions) == 1:
        return actions[0]
    choose = _BY_KIND.get(state.pending.kind)
    return choose(state, actions, rng) if choose is not None else uniform(actions, rng)


def _turn(state: GameState, actions: tuple[Action, ...], rng: Random) -> Action:
    recruits: list[Action] = []
    size, largest = _largest(actions, recruits)
    if largest and (not recruits or size >= PLAY_AT):
        return uniform(largest, rng)
    if recruits:
        hand = state.players[_seat(state)].hand
        return uniform(_best_recruits(hand, recruits), rng)
    return uniform(actions, rng)  # a pass: the only move


def _chain(state: GameState, actions: tuple[Action, ...], rng: Random) -> Action:
    _, largest = _largest(actions)
    return uniform(largest, rng) if largest else StopChain()


def _largest(
    actions: tuple[Action, ...], recruits: list[Action] | None = None
) -> tuple[int, list[Action]]:
    """The size of the largest bands among ``actions`` and those bands (0 and none without a
    band); the recruits are added to ``recruits`` on the way. One pass, at every playout
    step: no sets, no sorting."""
    most, largest = -1, []
    for action in actions:
        kind = type(action)
        if kind is PlayBand:
            others = len(action.others)  # type: ignore[attr-defined]
            if others > most:
                most, largest = others, [action]
            elif others == most:
                largest.append(action)
        elif kind is Recruit and recruits is not None:
            recruits.append(action)
    return most + 1, largest


def _seat(state: GameState) -> int:
    seat = state.pending.seat
    assert seat is not None  # a player's decision
    return seat


def _best_recruits(hand: tuple[Card, ...], recruits: list[Action]) -> list[Action]:
    """The recruits whose card joins most cards of ``hand``; the deck only if no row card."""
    tribes: dict[object, int] = {}
    colours: dict[object, int] = {}
    for card in hand:
        if not card.wild:
            tribes[card.tribe] = tribes.get(card.tribe, 0) + 1
            colours[card.colour] = colours.get(card.colour, 0) + 1

    def fit(action: Action) -> float:
        assert isinstance(action, Recruit)
        card = action.card
        if card is None:
            return -1.0  # the deck
        if card.wild:
            return 1.5
        return max(tribes.get(card.tribe, 0), colours.get(card.colour, 0))

    scores = [fit(a) for a in recruits]
    best = max(scores)
    return [a for a, s in zip(recruits, scores, strict=True) if s == best]


def _taken(kind: type[Action], field: str) -> Policy:
    """A chooser among actions of ``kind`` that takes, at random, one whose ``field`` is set
    (not None, not False): a placement rather than none, a keep rather than done."""

    def choose(state: GameState, actions: tuple[Action, ...], rng: Random) -> Action:
        taken = [a for a in actions if isinstance(a, kind) and _set(getattr(a, field))]
        return uniform(taken or list(actions), rng)

    return choose


def _most(kind: type[Action], measure: Callable[[Any], int]) -> Policy:
    """A chooser that takes the first action of ``kind`` with the largest ``measure``."""

    def choose(state: GameState, actions: tuple[Action, ...], rng: Random) -> Action:
        return max(actions, key=lambda a: measure(a) if isinstance(a, kind) else -1)

    return choose


def _set(value: object) -> bool:
    return value is not None and value is not False


_BY_KIND: dict[DecisionKind, Policy] = {
    DecisionKind.TURN: _turn,
    DecisionKind.CENTAUR_CHAIN: _chain,
    DecisionKind.PLACEMENT: _taken(Place, "kingdom"),
    DecisionKind.MERFOLK_CHECKPOINT: _taken(Checkpoint, "kingdom"),
    DecisionKind.ORC_HORDE: _taken(AddToHorde, "add"),
    DecisionKind.ELF_KEEP: _taken(Keep, "card"),
    DecisionKind.TROLL_TOKEN: _most(TakeTroll, lambda a: a.value or 0),
    DecisionKind.WIZARD_COUNT: _most(WizardDraw, lambda a: a.count),
    DecisionKind.HORDE_EMPTY: _most(EmptyHorde, lambda a: len(a.colours)),
}


# --- the bands worth trying -----------------------------------------------------------------------


def _worth(bands: list[PlayBand]) -> list[PlayBand]:
    """The largest band of each Leader card and kind of group, in the order first met."""
    best: dict[tuple[Card, bool], PlayBand] = {}
    for band in bands:
        key = (band.leader, _one_tribe(band))
        if key not in best or len(band.others) > len(best[key].others):
            best[key] = band
    return list(best.values())


def _one_tribe(band: PlayBand) -> bool:
    """True for a band whose non-Skeleton cards are all of the Leader's tribe."""
    tribe = band.leader.tribe
    return all(card.wild or card.tribe is tribe for card in band.others)


_WORTH: dict[tuple[Card, ...], list[PlayBand]] = {}
_WORTH_KEPT = 20_000
"""The bands worth searching, by hand (the rules list a turn's bands from the hand alone)."""


_BANDS_DECIDED = (DecisionKind.TURN, DecisionKind.CENTAUR_CHAIN)


def search_moves(state: GameState, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The moves of ``actions`` (the legal actions of ``state``) worth searching: all of them,
    but at a turn or a Centaur chain only the largest band of each Leader card and each kind
    of group (all of one tribe, or all of one colour), Skeletons included. A smaller band with
    the same Leader gives the same placement and ability and discards the cards it leaves.

    >>> from ethnos_rules import legal_actions, position
    >>> from ethnos_rules.bots import search_moves
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "SKE", "WIZ"],
    ...                  hands={0: "ELF-red ELF-red ELF-blue SKE"})
    >>> len(legal_actions(state))
    15
    >>> for move in search_moves(state, legal_actions(state)):
    ...     print(move)
    recruit deck
    band *ELF-blue ELF-red ELF-red SKE
    band *ELF-red ELF-red ELF-blue SKE
    """
    if state.pending.kind not in _BANDS_DECIDED:
        return actions
    hand = state.players[_seat(state)].hand
    worth = _WORTH.get(hand)
    if worth is None:
        if len(_WORTH) >= _WORTH_KEPT:
            _WORTH.clear()
        worth = _WORTH[hand] = _worth([a for a in actions if type(a) is PlayBand])
    return (*(a for a in actions if type(a) is not PlayBand), *worth)
