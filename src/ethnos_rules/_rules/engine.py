"""The public functions over a game state: who decides, what is legal, and applying it."""

from __future__ import annotations

import enum
from fractions import Fraction

import attrs

from . import scoring as _scoring
from .actions import Action, Reveal, not_an_action
from .components import DRAGON
from .decisions import PendingDecision
from .errors import (
    GameOverError,
    HiddenCardError,
    InvalidStateError,
    RulesError,
    WrongDecisionError,
)
from .events import Event, GameEnded, trace
from .randomness import Random, check_random
from .said import said, word
from .state import DecisionKind, GameState, Stage, copy_state
from .turn import DeckDraw, RecruitDraw
from .words import given


class ChanceNode(enum.Enum):
    """The type of :data:`CHANCE`."""

    CHANCE = "chance"

    def __repr__(self) -> str:
        return "CHANCE"

    def __str__(self) -> str:
        return "CHANCE"


CHANCE = ChanceNode.CHANCE
"""What :func:`to_move` returns when the next decision is a chance outcome."""


def _game(state: object) -> GameState:
    """``state`` itself, if it is a GameState: the public functions refuse anything else."""
    if not isinstance(state, GameState):
        raise InvalidStateError((f"expected a GameState, not {type(state).__name__}",))
    return state


def to_move(state: GameState) -> int | ChanceNode | None:
    """The seat that decides next, :data:`CHANCE` at a chance event, or None once the game is
    over.

    >>> from ethnos_rules import new_game, position, to_move, CHANCE
    >>> to_move(new_game(4)) is CHANCE
    True
    >>> to_move(position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], to_move=2))
    2
    """
    pending = _game(state).pending
    if pending.terminal:
        return None
    if pending.chance:
        return CHANCE
    return pending.seat


def pending_decision(state: GameState) -> PendingDecision:
    """What is being decided next: its kind, the seat, the rule and the facts a tool needs.

    ``facts`` by kind (every value is part of the state already; nothing hidden is told):

    - ``TRIBE_CHOICE``: ``chosen`` (the tribes so far), ``in_play`` (how many there will be);
    - ``TOKEN_LAYOUT``: ``kingdom``;  ``DEAL``: ``receiver``, ``card_number`` (from 1);
    - ``ROW``: ``left`` (cards still to turn up);  ``TURN``: ``can_recruit`` (TURN-2);
    - ``DECK_DRAW`` and ``WIZARD_DRAW``: ``drawer``, and for the Wizards ``left`` (draws to go);
    - ``PLACEMENT``, ``CENTAUR_CHAIN`` and each Leader ability: ``band`` (the band being
      resolved) and ``chain`` (0 for the turn's first band, 1 after one Centaur band, …); with
      ``left`` for a ``MERFOLK_CHECKPOINT``, ``colour`` (the Horde space) for an ``ORC_HORDE``,
      ``max_value`` (X) for a ``TROLL_TOKEN``, ``kept`` and ``target`` (the most cards the Elves
      may keep) for an ``ELF_KEEP``, ``counts`` (the numbers of cards allowed) for a
      ``WIZARD_COUNT``;
    - ``HORDE_EMPTY``: ``horde``, ``after`` (the Orc players still to decide), ``third_dragon``
      (who drew the Age's last Dragon);
    - ``GAME_OVER``: ``winners``; ``FIRST_PLAYER``: nothing.

    >>> from ethnos_rules import position, apply, parse_action, pending_decision, DecisionKind
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={1: "ELF-red"},
    ...                  to_move=1)
    >>> decision = pending_decision(apply(state, parse_action("recruit deck")))
    >>> decision.kind is DecisionKind.DECK_DRAW, decision.seat, decision.facts["drawer"]
    (True, None, 1)
    >>> decision.rule, str(decision)
    ('RECRUIT-1', 'chance: the card seat 1 draws')

    Raises:
        InvalidStateError: for anything but a :class:`~ethnos_rules.GameState`.
    """
    return PendingDecision.of(_game(state))


def is_terminal(state: GameState) -> bool:
    """True once the last Age has been scored (END-6)."""
    return _game(state).pending.terminal


def is_chance(state: GameState) -> bool:
    """True when the next decision is a chance outcome (spec §11)."""
    return _game(state).pending.chance


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal decision, in a deterministic order and without duplicates.

    At a chance event these are the possible outcomes (see :func:`chance_outcomes` for their
    probabilities); once the game is over, none. Bands with identical cards are listed once.

    >>> from ethnos_rules import position, legal_actions
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
    ...                  hands={0: "ELF-red ELF-red"}, row="DWA-blue")
    >>> [str(action) for action in legal_actions(state)]
    ['recruit DWA-blue', 'recruit deck', 'band *ELF-red', 'band *ELF-red ELF-red']
    """
    return _game(state).pending.legal(state)


def chance_outcomes(state: GameState) -> tuple[tuple[Action, Fraction], ...]:
    """At a chance event, every possible outcome with its exact probability (they sum to 1);
    elsewhere ``()``.

    >>> from ethnos_rules import new_game, chance_outcomes
    >>> outcomes = chance_outcomes(new_game(4, tribes=["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]))
    >>> str(outcomes[0][0]), outcomes[0][1], sum(p for _, p in outcomes)
    ('tokens Althea 0 0 2', Fraction(1, 408), Fraction(1, 1))
    """
    return tuple(_game(state).pending.outcomes(state))


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action``. Pure: ``state`` is not changed.

    Args:
        state: The state to act in.
        action: A player's decision or a chance outcome.
        seat: If given, the seat that claims to decide; an action from a seat whose decision it
            is not (or from a seat at a chance event) is refused with :class:`WrongDecisionError`.

    >>> from ethnos_rules import position, apply, parse_action
    >>> state = position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], to_move=1)
    >>> apply(state, parse_action("recruit deck"), seat=2)
    Traceback (most recent call last):
    ...
    ethnos_rules.WrongDecisionError: TURN-1: it is seat 1's decision, not seat 2's: ...

    Raises:
        MalformedActionError: ``action`` is not a well-formed :class:`Action`.
        GameOverError: the game is over.
        WrongDecisionError: ``action`` is not the kind of decision pending (a player's action
            at a chance event, a chance outcome where a player decides, another decision).
        IllegalActionError: the pending kind of action, forbidden by the rule it names.
    """
    if not isinstance(action, Action):
        raise not_an_action(action)
    action.check()
    return apply_well_formed(state, action, seat)


def apply_well_formed(state: GameState, action: Action, seat: int | None = None) -> GameState:
    """:func:`apply` for an action known to be well formed (one that :func:`parse_action
    <ethnos_rules.parse_action>` built: its check passed as it was built), without checking its
    fields again: the replay of a record's texts applies hundreds."""
    if type(state) is not GameState:  # _game's check, without a call at each decision
        state = _game(state)
    pending = state.pending
    if action.observation:
        raise HiddenCardError("BAND-6", _one_seat(action), action)
    if pending.terminal:
        raise GameOverError("GAME-1", said("the game is over; no action can be applied"), action)
    if not isinstance(action, pending.accepts):
        raise WrongDecisionError(pending.rule, _wrong_kind(state, action), action)
    if action.hidden:
        raise HiddenCardError(pending.rule, _one_seat(action), action)
    if seat is not None and type(seat) is not int:
        raise WrongDecisionError(
            pending.rule, said("a seat is an int, not {seat}", seat=given(seat)), action
        )
    if seat is not None and seat != pending.seat:
        deciding = word("chance") if pending.chance else said("seat {seat}", seat=pending.seat)
        raise WrongDecisionError(
            pending.rule,
            said(
                "it is {deciding}'s decision, not seat {seat}'s: {decision}",
                deciding=deciding,
                seat=given(seat),
                decision=pending.describe(),
            ),
            action,
        )
    return pending.apply(state, action)


@attrs.frozen
class Step:
    """What one decision did: the state after it, and the events it caused, in order.

    Attributes:
        state: The state after the decision: equal to what :func:`apply` returns.
        events: Everything the decision did, as :class:`~ethnos_rules.Event` objects.
    """

    state: GameState
    events: tuple[Event, ...]


def step(state: GameState, action: Action, *, seat: int | None = None) -> Step:
    """Apply ``action`` as :func:`apply` does, and say what it did.

    The events come from the rules that apply the decision: cards drawn, bands played, markers
    placed and why, abilities, the Age's scoring, the winners. :func:`apply` builds none of
    them, so it is no slower.

    >>> from ethnos_rules import position, parse_action, step
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
    ...                  hands={0: "GIA-red GIA-red ELF-blue"}, kingdoms={0: {"Rhea": 2}})
    >>> result = step(state, parse_action("band *GIA-red GIA-red"))
    >>> for event in result.events:
    ...     print(event)
    Seat 0 plays a band of 2 cards (*GIA-red GIA-red), led by GIA-red (Giants) (BAND-4).
    No marker: 2 cards are not more than the 2 markers seat 0 already has in Rhea (BAND-5).
    Giants: the band (2) is the first Giant-led band this Age: seat 0 gains 2 Glory and takes
    the Giant token (TRIBE-GIA-1).
    The rest of seat 0's hand goes face up into the row: ELF-blue (BAND-6).
    >>> result.events[2].gains, result.state == apply(state, parse_action("band *GIA-red GIA-red"))
    (((0, 2),), True)

    Raises:
        RulesError: as :func:`apply`.
    """
    after, events = trace(apply, state, action, seat=seat)
    return Step(after, events)


def _one_seat(action: Action) -> str:
    what = word("shows what one seat saw") if action.observation else word("names a card as ?")
    return said(
        "'{action}' {what}: only a record kept at one seat (one with a 'seat') "
        "holds it; a game state, which holds every card, cannot apply it",
        action=action,
        what=what,
    )


def _wrong_kind(state: GameState, action: Action) -> str:
    pending = state.pending
    expected = " or ".join(repr(cls.verb) for cls in pending.accepts)
    if pending.chance and not action.chance:
        return said(
            "a chance outcome ({expected}) is due, not a player's decision: {decision}",
            expected=expected,
            decision=pending.describe(),
        )
    if action.chance and not pending.chance:
        return said(
            "a player decides here, not chance: {decision}; expected {expected}",
            decision=pending.describe(),
            expected=expected,
        )
    return said("expected {expected}: {decision}", expected=expected, decision=pending.describe())


def glory(state: GameState) -> tuple[int, ...]:
    """Each seat's Glory, by seat.

    >>> from ethnos_rules import position, glory
    >>> glory(position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], glory={1: 12}))
    (0, 12, 0)
    """
    return tuple(p.glory for p in _game(state).players)


def winners(state: GameState) -> tuple[int, ...]:
    """The winning seats by GAME-1..3 (several only when every tie-break is equal); ``()`` while
    the game goes on.

    >>> from ethnos_rules import play_random, winners, glory
    >>> final = play_random(2, seed=5).final
    >>> glory(final), winners(final)
    ((11, 84), (1,))
    """
    return _scoring.winners(_game(state))


def outcome(state: GameState) -> GameEnded | None:
    """How the game ended, as its last decision told it: the winners, the rule that decided
    among the best (GAME-1 Glory, GAME-2 markers on the kingdoms, GAME-3 the last Age's
    bands) with the numbers it compared, and a sentence saying so; None while the game goes
    on.

    >>> from ethnos_rules import outcome, play_random
    >>> result = outcome(play_random(2, seed=5).final)
    >>> print(result)
    Seat 1 wins with 84 Glory (GAME-1).
    >>> result.winners, result.decided_by
    ((1,), 'GAME-1')
    """
    state = _game(state)
    return _scoring.game_result(state) if state.pending.terminal else None


def sample_outcome(state: GameState, rng: Random) -> Action:
    """One outcome of the chance event in ``state``, drawn with its exact probability.

    Apply it yourself (and record it) where :func:`sample` would apply it for you. ``rng`` is
    a :class:`random.Random` or a ``numpy.random.Generator``; either gives the exact
    probabilities.

    >>> import random
    >>> from ethnos_rules import new_game, sample_outcome, chance_outcomes
    >>> state = new_game(3)
    >>> outcome = sample_outcome(state, random.Random(5))
    >>> outcome in dict(chance_outcomes(state))
    True

    Raises:
        WrongDecisionError: if a player decides in ``state`` (or the game is over).
        RulesError: (rule ``CHANCE``) if ``rng`` is neither a :class:`random.Random` nor a
            ``numpy.random.Generator``.
    """
    check_random(rng)
    pending = _game(state).pending
    if not pending.chance:
        raise WrongDecisionError(
            pending.rule, said("no chance event here: {decision}", decision=pending.describe())
        )
    return pending.sample(state, rng)


def sample(state: GameState, rng: Random) -> GameState:
    """Resolve chance events with ``rng`` until a player must decide or the game ends.

    >>> import random
    >>> from ethnos_rules import new_game, sample, to_move
    >>> to_move(sample(new_game(4, first_player=3), random.Random(1)))
    3

    Raises:
        RulesError: (rule ``CHANCE``) if ``rng`` is neither a :class:`random.Random` nor a
            ``numpy.random.Generator``.
    """
    check_random(rng)
    while _game(state).pending.chance:
        state = apply(state, state.pending.sample(state, rng))
    return state


# --- what if the Age ended now -------------------------------------------------------------------


def _drawer(state: GameState, drawer: object, what: str) -> int:
    """The seat that draws the last Dragon: ``drawer``, or the seat the pending decision is
    about; only while the Age's turns are played can it end."""
    pending = state.pending
    if pending.stage is not Stage.PLAY:
        raise RulesError(
            "RECRUIT-4",
            said(
                "{what} needs a position in the turns of an Age, where a Dragon can be "
                "drawn; here the decision is: {decision}",
                what=what,
                decision=pending.describe(),
            ),
        )
    if drawer is None:
        return pending.seats()[0]
    n = state.config.players
    if type(drawer) is not int or not 0 <= drawer < n:
        raise RulesError(
            "RECRUIT-4",
            said(
                "drawer must be a seat from 0 to {number}, not {drawer}",
                number=n - 1,
                drawer=given(drawer),
            ),
        )
    return drawer


def end_age_now(state: GameState, *, drawer: int | None = None) -> GameState:
    """The state after the Age's last Dragon is drawn now: the Age ends at once and is scored
    as the rules say (RECRUIT-4, END): the Orc players then decide (TRIBE-ORC-2), or the next
    Age is dealt, or the game is over.

    This is how to end an Age from a :func:`~ethnos_rules.position`. A Dragon comes only from
    the deck, so this is possible where a deck draw is: at the start of a turn (as if the
    player recruited from the deck and drew the last Dragon) or at a draw (as if this draw,
    a Wizard's too, revealed it), whatever is left in the deck; the draw rule itself runs.

    Args:
        drawer: At a turn, the seat that draws the last Dragon (it matters to the order of the
            Orc decisions and to the next Age's first player); by default the seat whose turn
            it is. At a draw, only its drawer.

    >>> from ethnos_rules import position, end_age_now, glory
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
    ...                  bands={0: ["*DWA-red DWA-blue DWA-green"]}, kingdoms={1: {"Rhea": 1}})
    >>> after = end_age_now(state)
    >>> glory(after), after.history[-1].gains_of(0), after.history[-1].third_dragon
    ((6, 4, 0, 0), {'bands': 6}, 0)

    Raises:
        RulesError: (rule ``RECRUIT-4``) elsewhere than at a turn or a draw from the deck, or
            for a ``drawer`` that is not a seat (or not the drawer of the draw pending).
    """
    state = _game(state)
    pending = state.pending
    if pending.kind not in _DRAWING:
        raise RulesError(
            "RECRUIT-4",
            said(
                "an Age ends only on a Dragon drawn from the deck, at the start of a "
                "turn or at a draw; here the decision is: {decision}",
                decision=pending.describe(),
            ),
        )
    seat = _drawer(state, drawer, "end_age_now")
    if isinstance(pending, DeckDraw) and seat != pending.drawer():
        raise RulesError(
            "RECRUIT-4",
            said(
                "seat {drawer} is drawing, so seat {seat} cannot draw now",
                drawer=pending.drawer(),
                seat=seat,
            ),
        )
    draw = pending if isinstance(pending, DeckDraw) else RecruitDraw(seat)
    dragons = state.rules.dragons
    last = copy_state(state, dragons_drawn=dragons - 1, dragons_in_deck=1, top_left=0, pending=draw)
    return draw.apply(last, Reveal(DRAGON))


_DRAWING = (DecisionKind.TURN, DecisionKind.DECK_DRAW, DecisionKind.WIZARD_DRAW)
"""Where a Dragon can be drawn: a turn (recruit from the deck) and the draws themselves."""


def score_now(
    state: GameState, *, drawer: int | None = None, hordes: _scoring.Hordes = "empty"
) -> _scoring.AgeScore:
    """What the end of the Age would award if its last Dragon were drawn now, without changing
    anything: the scoring events and each seat's Glory by source, exactly as the end of the Age
    then gives them (the same rules run: kingdoms, the Merfolk board, the Giant token, the Orc
    Hordes and bands).

    The Orc players' choices are not known: ``hordes="empty"`` (the default) assumes each empties
    the whole Horde, ``"keep"`` that each keeps it (in the last Age every Horde is emptied
    anyway, TRIBE-ORC-2). A band still being resolved scores as it stands.

    Args:
        drawer: The seat that draws the last Dragon (it matters to the order of the Orc
            decisions); by default the seat the pending decision is about.
        hordes: ``"empty"`` or ``"keep"``.

    >>> from ethnos_rules import position, score_now
    >>> state = position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], to_move=1,
    ...                  bands={0: ["*DWA-red DWA-blue"]}, kingdoms={1: {"Rhea": 1}})
    >>> score = score_now(state)
    >>> score.gains_of(0), score.gains_of(1), score.glory
    ({'bands': 3}, {'kingdoms': 4}, (3, 4, 0))
    >>> for event in score.events:
    ...     if event.gains:
    ...         print(event)
    Rhea (tokens 4/8; markers: seat 1 1): seat 1 is 1st and earns I = 4 (SCORE-K-2).
    Seat 0's band *DWA-red DWA-blue: 2 cards + 1 for the Dwarf Leader → 3 (END-4).

    Raises:
        RulesError: (rule ``RECRUIT-4``) outside the turns of an Age or for a ``drawer`` that
            is not a seat; (rule ``TRIBE-ORC-2``) for another ``hordes``.
    """
    state = _game(state)
    seat = _drawer(state, drawer, "score_now")
    if hordes not in ("empty", "keep"):
        raise RulesError(
            "TRIBE-ORC-2",
            said("hordes must be 'empty' or 'keep', not {hordes}", hordes=given(hordes)),
        )
    return _scoring.score_now(state, seat, hordes)
