"""A fixed integer action space over the rules' actions, for bots and learning agents.

Every decision, chance included, has an id in ``range(NUM_DISTINCT_ACTIONS)``. The table is
fixed (pinned by a golden test): ids never change meaning between versions. It is built from
the first edition's printed data, block by block, in the order of the notation table:

=====================  ======  ===================================================
block                  ids     meaning
=====================  ======  ===================================================
``tribe``              12      chance: a tribe chosen, by tribe (COMP-2 order)
``tokens``             77      chance: a kingdom's glory tokens, lowest first
``first``              6       chance: the first player of Age I
``reveal``             68      chance: a card kind drawn, by card index; a Dragon
``recruit``            68      take a card kind from the row; the deck
``band leader``        67      begin a band with its Leader, by card index
``band add``           67      add one card to the band begun, by card index
``band done``          1       play the band built so far
``pass``               1       pass (TURN-3)
``place``              7      a marker's kingdom; none
``troll``              7       a Troll token, by value; none
``checkpoint``         7       a checkpoint marker's kingdom; none
``horde``              2       add to the Horde; none
``chain stop``         1       end a Centaur chain
``keep``               68      Elves keep a card kind; done
``wizard``             11      Wizards draw 0 to 10 cards
``empty``              64      Orc Horde spaces emptied, as a bit mask of colours
=====================  ======  ===================================================

A band, which may be any of 1,512 in one hand, is a short sequence of ids instead of one: its
Leader (``band leader``), then its other cards one by one in card order (``band add``), then
``band done``. :class:`EncodedState` offers at each step exactly the ids that some legal band
continues with, so every legal band can be built, nothing else can, and no sequence ends where
no band is legal. The state of the game does not change until ``band done``.

>>> from ethnos_rules import position
>>> from ethnos_rules.agents import EncodedState, action_text
>>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
...                  hands={0: "ELF-red ELF-red"}, row="DWA-blue")
>>> node = EncodedState.of(state)
>>> [action_text(i) for i in node.legal_ids()]
['recruit DWA-blue', 'recruit deck', 'band leader ELF-red']
>>> node = node.apply_id(node.legal_ids()[-1])
>>> [action_text(i) for i in node.legal_ids()]
['band add ELF-red', 'band done']
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Generic, TypeVar

import attrs

from .._rules.actions import (
    Action,
    AddToHorde,
    Checkpoint,
    ChooseFirstPlayer,
    ChooseTribe,
    EmptyHorde,
    Keep,
    LayTokens,
    Pass,
    Place,
    PlayBand,
    Recruit,
    Reveal,
    StopChain,
    TakeTroll,
    WizardDraw,
    not_an_action,
)
from .._rules.components import DRAGON, Card, Colour, Dragon, Kingdom
from .._rules.editions import FIRST_EDITION
from .._rules.engine import (
    ChanceNode,
    apply,
    apply_well_formed,
    chance_outcomes,
    legal_actions,
    sample_outcome,
    to_move,
)
from .._rules.errors import IllegalActionError, MalformedActionError, RulesError, SetupError
from .._rules.frozen import copier
from .._rules.notation import parse_action
from .._rules.randomness import check_random
from .._rules.state import GameState
from .._rules.words import given

EDITION = FIRST_EDITION
"""The edition the ids cover: every block, and every tensor's size, follows its counts."""
_RULES = EDITION
_CARDS: tuple[Card, ...] = _RULES.cards
TOKEN_VALUES: tuple[int, ...] = tuple(sorted(set(_RULES.default_options.glory_tokens)))
"""The printed glory-token values (COMP-5): the ``tokens`` block covers these."""

_LAYOUTS: tuple[tuple[int, ...], ...] = tuple(
    values
    for spaces in sorted(set(_RULES.token_spaces))
    for values in itertools.combinations_with_replacement(TOKEN_VALUES, spaces)
)
_LAYOUT_INDEX = {values: index for index, values in enumerate(_LAYOUTS)}
_SEATS = _RULES.players[1]  # the most players: the seats of the ``first`` block


@attrs.frozen
class Block:
    """One block of the table: ``size`` consecutive ids from ``start``, one verb's actions.

    Attributes:
        name: The block's name, e.g. ``"band add"``.
        start: Its first id.
        size: How many ids it holds.
        texts: The text of each of its ids.
    """

    name: str
    start: int
    size: int
    texts: tuple[str, ...]


def _blocks() -> tuple[Block, ...]:
    kingdoms = [k.label for k in _RULES.kingdoms]
    cards = [c.code for c in _CARDS]
    spec: list[tuple[str, list[str]]] = [
        ("tribe", [f"tribe {t.code}" for t in _RULES.tribes]),
        ("tokens", ["tokens " + " ".join(map(str, v)) for v in _LAYOUTS]),
        ("first", [f"first {seat}" for seat in range(_SEATS)]),
        ("reveal", [f"reveal {c}" for c in [*cards, DRAGON.code]]),
        ("recruit", [f"recruit {c}" for c in [*cards, "deck"]]),
        ("band leader", [f"band leader {c}" for c in cards]),
        ("band add", [f"band add {c}" for c in cards]),
        ("band done", ["band done"]),
        ("pass", ["pass"]),
        ("place", [f"place {k}" for k in [*kingdoms, "none"]]),
        ("troll", [f"troll {v}" for v in [*_RULES.troll_tokens, "none"]]),
        ("checkpoint", [f"checkpoint {k}" for k in [*kingdoms, "none"]]),
        ("horde", ["horde add", "horde none"]),
        ("chain stop", ["chain stop"]),
        ("keep", [f"keep {c}" for c in [*cards, "done"]]),
        ("wizard", [f"wizard {n}" for n in range(_RULES.hand_limit + 1)]),
        ("empty", [_empty_text(mask) for mask in range(1 << len(_RULES.colours))]),
    ]
    out, start = [], 0
    for name, texts in spec:
        out.append(Block(name, start, len(texts), tuple(texts)))
        start += len(texts)
    return tuple(out)


def _empty_text(mask: int) -> str:
    return "empty " + (
        " ".join(c.label for i, c in enumerate(_RULES.colours) if mask >> i & 1) or "none"
    )


BLOCKS: tuple[Block, ...] = _blocks()
"""The blocks of the table, in id order."""

NUM_DISTINCT_ACTIONS: int = BLOCKS[-1].start + BLOCKS[-1].size
"""The number of ids: every id of every decision is below it."""

_START = {block.name: block.start for block in BLOCKS}
_TEXTS: tuple[str, ...] = tuple(text for block in BLOCKS for text in block.texts)
BAND_DONE: int = _START["band done"]
"""The id that plays the band built so far."""


def action_text(action_id: int) -> str:
    """The text of an id: the action's notation, or for a step of a band ``band leader C``,
    ``band add C`` or ``band done``.

    >>> from ethnos_rules.agents import NUM_DISTINCT_ACTIONS, action_text
    >>> action_text(0), action_text(NUM_DISTINCT_ACTIONS - 1)
    ('tribe CEN', 'empty green purple orange gray red blue')

    Raises:
        MalformedActionError: ``action_id`` is not an id of the table.
    """
    return _TEXTS[_check_id(action_id)]


def block_of(action_id: int) -> Block:
    """The block that holds ``action_id``."""
    return _BLOCK_OF[_check_id(action_id)]


_BLOCK_OF: tuple[Block, ...] = tuple(block for block in BLOCKS for _ in block.texts)
_LEADERS = range(_START["band leader"], _START["band add"])
_ADDS = range(_START["band add"], BAND_DONE)


def _check_id(action_id: object) -> int:
    """``action_id`` as an int: an int, or any integer type (numpy's ``argmax`` gives one),
    from 0 to ``NUM_DISTINCT_ACTIONS - 1``; not a bool, a float or a text."""
    value: int | None = None
    if type(action_id) is int:
        value = action_id
    elif not isinstance(action_id, bool):
        # operator.index, not isinstance(SupportsIndex): a protocol check is slow, and a numpy
        # integer comes here on every decision of a bot that draws ids from a mask.
        # try, not contextlib.suppress: a context manager costs as much as the rest of the check.
        try:
            value = operator.index(action_id)  # type: ignore[arg-type]
        except TypeError:
            value = None
    if value is None or not 0 <= value < NUM_DISTINCT_ACTIONS:
        raise MalformedActionError(
            "NOTATION",
            f"{given(action_id)} is not an action id (ids are integers from 0 to"
            f" {NUM_DISTINCT_ACTIONS - 1})",
        )
    return value


# --- actions to ids -----------------------------------------------------------------------


def _card(card: Card | Dragon) -> int:
    return len(_CARDS) if isinstance(card, Dragon) else card.index


def _kingdom(kingdom: Kingdom | None) -> int:
    return len(_RULES.kingdoms) if kingdom is None else _RULES.kingdoms.index(kingdom)


def _layout(action: LayTokens) -> int:
    found = _LAYOUT_INDEX.get(action.values)
    if found is None:
        raise SetupError(
            "COMP-5",
            f"the action ids cover the printed glory tokens {list(TOKEN_VALUES)} laid"
            f" {len(_LAYOUTS[0])} or 3 to a kingdom, not {list(action.values)}",
            action,
        )
    return found


def _troll(action: TakeTroll) -> int:
    tokens = _RULES.troll_tokens
    if action.value is None:
        return len(tokens)
    if action.value not in tokens:
        raise MalformedActionError("NOTATION", f"there is no Troll token {action.value}", action)
    return tokens.index(action.value)


def _wizard(action: WizardDraw) -> int:
    if action.count > _RULES.hand_limit:
        raise MalformedActionError(
            "NOTATION", f"Wizards draw at most {_RULES.hand_limit} cards", action
        )
    return action.count


def _mask(colours: Iterable[Colour]) -> int:
    return sum(1 << _RULES.colours.index(c) for c in colours)


def _first(action: ChooseFirstPlayer) -> int:
    if action.seat >= _SEATS:
        raise MalformedActionError("NOTATION", f"there is no seat {action.seat}", action)
    return action.seat


_ENCODERS: dict[type[Action], tuple[str, Callable[[Any], int]]] = {
    ChooseTribe: ("tribe", lambda a: a.tribe.index),
    LayTokens: ("tokens", _layout),
    ChooseFirstPlayer: ("first", _first),
    Reveal: ("reveal", lambda a: _card(a.card)),
    Recruit: ("recruit", lambda a: len(_CARDS) if a.card is None else a.card.index),
    Pass: ("pass", lambda a: 0),
    Place: ("place", lambda a: _kingdom(a.kingdom)),
    TakeTroll: ("troll", _troll),
    Checkpoint: ("checkpoint", lambda a: _kingdom(a.kingdom)),
    AddToHorde: ("horde", lambda a: 0 if a.add else 1),
    StopChain: ("chain stop", lambda a: 0),
    Keep: ("keep", lambda a: len(_CARDS) if a.card is None else a.card.index),
    WizardDraw: ("wizard", _wizard),
    EmptyHorde: ("empty", lambda a: _mask(a.colours)),
}


def encode(action: Action) -> tuple[int, ...]:
    """The ids of ``action``: one id, or for a band its Leader, each other card and
    ``band done``.

    >>> from ethnos_rules import parse_action
    >>> from ethnos_rules.agents import action_text, encode
    >>> [action_text(i) for i in encode(parse_action("band *ELF-red SKE ELF-blue"))]
    ['band leader ELF-red', 'band add ELF-blue', 'band add SKE', 'band done']

    Raises:
        MalformedActionError: ``action`` is not an action of a whole game (``reveal ?``,
            ``rest ...``), or names a card, seat or token outside the first edition.
        SetupError: (rule ``COMP-5``) glory tokens other than the printed ones.
    """
    if not isinstance(action, Action):
        raise not_an_action(action)
    action.check()
    if action.hidden or action.observation:
        raise MalformedActionError(
            "NOTATION", f"'{action}' is what one seat saw, not a decision of the game", action
        )
    _check_ruleset(action)
    if isinstance(action, PlayBand):
        leader, adds = _START["band leader"], _START["band add"]
        return (leader + action.leader.index, *(adds + c.index for c in action.others), BAND_DONE)
    return (_one_id(action),)


def _one_id(action: Action) -> int:
    """The id of an action known to be well formed and not a band."""
    start, offset = _OFFSET_OF[type(action)]
    return start + offset(action)


_OFFSET_OF = {kind: (_START[name], offset) for kind, (name, offset) in _ENCODERS.items()}

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class _ByIdentity(Generic[K, V]):
    """Values remembered by the identity of their keys, looked up as ``get(id(key))``, which
    ``map`` can call without a Python frame. Each key is kept alive beside its value, so an id
    in the table is its key's (two objects alive at once never share an id). At most ``size``
    are kept; the table starts afresh when full."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._values: dict[int, V] = {}
        self._keys: list[K] = []
        self.get = self._values.get  # the same dict always: it is cleared, never replaced

    def values(
        self, items: Sequence[T], key: Callable[[T], K], compute: Callable[[K], V]
    ) -> list[V]:
        """The value of the key ``key(item)`` of each of ``items``: remembered, or
        ``compute(key)`` remembered now."""
        try:  # no test of each value for a miss: a miss raises
            return list(map(self._values.__getitem__, map(id, map(key, items))))
        except KeyError:
            return [self.value(key(item), compute) for item in items]

    def value(self, key: K, compute: Callable[[K], V]) -> V:
        """The value of ``key``: remembered, or ``compute(key)`` remembered now."""
        found = self.get(id(key))
        return self._remember(key, compute(key)) if found is None else found

    def _remember(self, key: K, value: V) -> V:
        if len(self._keys) >= self.size:
            self._values.clear()
            self._keys.clear()
        self._values[id(key)] = value
        self._keys.append(key)
        return value


# The rules build each draw's outcome, each probability and each recruit action once and give
# the same object again: their ids and floats are looked up by identity.
_OUTCOME_IDS: _ByIdentity[Action, int] = _ByIdentity()
_FLOATS: _ByIdentity[Fraction, float] = _ByIdentity()


def _float(probability: Fraction) -> float:
    return probability.numerator / probability.denominator


def _check_ruleset(action: Action) -> None:
    for value in attrs.astuple(action, recurse=False):
        if isinstance(value, Card) and value.tribe.ruleset is not _RULES:
            raise MalformedActionError("NOTATION", f"{value} is not a first-edition card", action)


def action_id(action: Action) -> int:
    """The one id of an action that is not a band (see :func:`encode` for bands).

    Raises:
        MalformedActionError: as :func:`encode`, and for a band.
    """
    ids = encode(action)
    if len(ids) != 1:
        raise MalformedActionError(
            "NOTATION", f"a band is {len(ids)} ids, not one: use encode()", action
        )
    return ids[0]


# --- a game state with a band being built -----------------------------------------------------


# No __weakref__ slot: a node is built at every step, through a draft (see _after). Its own
# __init__ checks what it is given; the steps build nodes without it (_next).
@attrs.frozen(eq=False, slots=True, weakref_slot=False, init=False)
class EncodedState:
    """A game state seen through the action ids: the state, and the band being built in it.

    Pure and frozen like the state: :meth:`apply_id` returns a new one. ``EncodedState(state,
    band)`` is the node reached from ``state`` by the steps ``band``, checked as
    :meth:`apply_id` checks them:

    >>> from ethnos_rules import position
    >>> from ethnos_rules.agents import EncodedState, action_id, action_text
    >>> state = position(2, ["DWA", "ELF", "GIA", "MER", "ORC"], hands={0: "ELF-red ELF-red"})
    >>> node = EncodedState.of(state)
    >>> begun = node.apply_id(node.legal_ids()[-1])
    >>> [action_text(i) for i in begun.band], EncodedState(state, begun.band) == begun
    (['band leader ELF-red'], True)

    Attributes:
        state: The game state; it changes only when a decision is complete.
        band: The ids of the band begun but not played yet (its Leader, the cards added).
    """

    state: GameState
    band: tuple[int, ...] = ()
    # The legal bands that begin with ``band``; the legal ids, once asked for.
    _bands: tuple[PlayBand, ...] = attrs.field(default=(), init=False, repr=False)
    _ids: tuple[int, ...] | None = attrs.field(default=None, init=False, repr=False)
    # The legal actions that are one id each, by id (once the legal ids are known).
    _actions: dict[int, Action] | None = attrs.field(default=None, init=False, repr=False)
    # The legal bands by their Leader's id (once the legal ids are known, with no band begun).
    _led: dict[int, list[PlayBand]] | None = attrs.field(default=None, init=False, repr=False)
    # At a chance event, the outcomes' ids and probabilities, once asked for.
    _outcomes: tuple[tuple[int, Fraction], ...] | None = attrs.field(
        default=None, init=False, repr=False
    )
    # The same with each probability as a float; and the rules' outcomes (each action with its
    # exact probability) in id order, which are paired with their ids only when asked for.
    _floats: tuple[tuple[int, float], ...] | None = attrs.field(
        default=None, init=False, repr=False
    )
    _drawn: tuple[tuple[Action, Fraction], ...] | None = attrs.field(
        default=None, init=False, repr=False
    )

    def __init__(self, state: GameState, band: Iterable[int] = ()) -> None:
        """``state``, with the band of the ids ``band`` begun in it (none by default).

        Raises:
            InvalidStateError: ``state`` is not a GameState.
            SetupError: (``COMP-5``) the game's glory tokens are not the printed ones;
                (``COMP-2``) its rules are not the first edition's.
            MalformedActionError: an item of ``band`` is not an action id.
            RulesError: the first of ``band`` is not a legal Leader here, as :meth:`apply_id`
                says; (``BAND-1``) a later one does not go on with a legal band.
        """
        _check_encodable(state)
        begun = None if type(band) is tuple and not band else _begun(state, band)
        self.__attrs_init__(state, begun.band if begun else ())
        if begun:
            _set_bands(self, begun._bands)

    @classmethod
    def of(cls, state: GameState) -> EncodedState:
        """``state`` with no band begun: ``EncodedState(state)``.

        Raises:
            InvalidStateError: ``state`` is not a GameState.
            SetupError: (``COMP-5``) the game's glory tokens are not the printed ones;
                (``COMP-2``) its rules are not the first edition's.
        """
        return cls(state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EncodedState):
            return NotImplemented
        return self.state == other.state and self.band == other.band

    def __hash__(self) -> int:
        return hash((self.state, self.band))

    def __copy__(self) -> EncodedState:
        return self

    def __deepcopy__(self, memo: Any) -> EncodedState:
        return self

    def to_move(self) -> int | ChanceNode | None:
        """As :func:`~ethnos_rules.to_move` of the state: a seat, ``CHANCE`` or None."""
        return to_move(self.state)

    def legal_ids(self) -> tuple[int, ...]:
        """The legal ids, sorted; at a chance event the possible outcomes; ``()`` at the end."""
        ids = self._ids
        if ids is None:
            ids = self._continuations() if self.band else self._decisions()
            _set_ids(self, ids)
        return ids

    def _decisions(self) -> tuple[int, ...]:
        leader = _START["band leader"]
        actions: dict[int, Action] = {}
        # The legal bands by their Leader's id: choosing a Leader keeps its bands.
        led: dict[int, list[PlayBand]] = {}
        known = _OUTCOME_IDS.get  # the rules give the same recruit actions again and again
        for action in legal_actions(self.state):
            if type(action) is PlayBand:
                led.setdefault(leader + action.leader.index, []).append(action)
            else:
                found = known(id(action))
                actions[_OUTCOME_IDS.value(action, _one_id) if found is None else found] = action
        _set_actions(self, actions)
        _set_led(self, led)
        return tuple(sorted([*actions, *led]))

    def _continuations(self) -> tuple[int, ...]:
        added = len(self.band) - 1
        adds = _START["band add"]
        return tuple(
            sorted(
                {
                    BAND_DONE if len(b.others) == added else adds + b.others[added].index
                    for b in self._bands
                }
            )
        )

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """At a chance event, each outcome's id with its exact probability, by id."""
        outcomes = self._outcomes
        if outcomes is None:
            if self._drawn is None:
                self._chance()
            assert self._drawn is not None and self._floats is not None
            outcomes = tuple(zip(map(_FIRST, self._floats), map(_SECOND, self._drawn), strict=True))
            _set_outcomes(self, outcomes)
        return outcomes

    def chance_floats(self) -> list[tuple[int, float]]:
        """:meth:`chance_outcomes` with each probability as a float, in a new list."""
        if self._floats is None:
            self._chance()
        assert self._floats is not None
        return list(self._floats)

    def _chance(self) -> None:
        """Ask the rules for the outcomes of the chance event here, once: their ids, exact
        probabilities and floats; at a chance event the outcomes are the legal ids too."""
        found = chance_outcomes(self.state)
        if not found:  # a player's decision, or the end: the legal ids are another matter
            _set_drawn(self, ())
            _set_floats(self, ())
            return
        # The rules give the same outcome and probability objects again: their ids and floats
        # are looked up by identity, without a Python step for each of up to 68 outcomes.
        ids = _OUTCOME_IDS.values(found, _FIRST, _one_id)
        floats = _FLOATS.values(found, _SECOND, _float)
        if ids != sorted(ids):  # a draw's cards come in id order already
            order = sorted(range(len(ids)), key=ids.__getitem__)
            ids = [ids[k] for k in order]
            floats = [floats[k] for k in order]
            found = tuple([found[k] for k in order])
        _set_drawn(self, found)
        _set_floats(self, tuple(zip(ids, floats, strict=True)))
        if self._ids is None:  # the outcomes are the legal ids (their actions: see _decision)
            _set_ids(self, tuple(ids))

    def through_chance(
        self, rng: Any, outcomes: list[Action] | None = None
    ) -> tuple[EncodedState, int]:
        """The node once the chance events from here are resolved with ``rng`` (each outcome
        drawn as :func:`~ethnos_rules.sample_outcome` draws it), at a player's decision or the
        end; and how many outcomes were drawn (0 where a player decides here). Each outcome
        drawn is appended to ``outcomes``, if given.

        Raises:
            RulesError: (rule ``CHANCE``) ``rng`` is neither a :class:`random.Random` nor a
                ``numpy.random.Generator``.
        """
        state, drawn = self.state, 0
        while state.pending.chance:  # the rules drew the outcome: it is well formed and legal
            outcome = sample_outcome(state, rng)  # which checks rng
            state = apply_well_formed(state, outcome)
            if outcomes is not None:
                outcomes.append(outcome)
            drawn += 1
        if not drawn:
            check_random(rng)  # refused here too, where nothing is drawn
            return self, 0
        return _next(self, state, (), (), *_UNKNOWN), drawn

    def completes(self, action_id: int) -> bool:
        """False for a band's Leader or added card, which only build the band; True for every
        other id (``band done`` included), which completes a decision of the game."""
        action_id = _check_id(action_id)
        return not (action_id in _ADDS or (action_id in _LEADERS and not self.band))

    def apply_id(self, action_id: int) -> EncodedState:
        """The state after the decision ``action_id``.

        Raises:
            MalformedActionError: ``action_id`` is not an id.
            RulesError: the id is not legal here: the error :func:`~ethnos_rules.apply` gives
                for its action, or :class:`~ethnos_rules.IllegalActionError` (``BAND-1``) for a
                band step that no legal band continues with.
        """
        return self.step_id(action_id)[0]

    def step_id(self, action_id: int) -> tuple[EncodedState, Action | None]:
        """The state after ``action_id`` (as :meth:`apply_id`), and the decision of the game
        that it completes: the action, the band for ``band done``, or None for a band's
        Leader or added card.

        >>> from ethnos_rules import position
        >>> from ethnos_rules.agents import EncodedState
        >>> node = EncodedState.of(position(2, ["DWA", "ELF", "GIA", "MER", "ORC"],
        ...                                 hands={0: "ELF-red"}))
        >>> begun, decision = node.step_id(node.legal_ids()[-1])
        >>> decision, str(begun.step_id(begun.legal_ids()[-1])[1])
        (None, 'band *ELF-red')

        Raises:
            as :meth:`apply_id`.
        """
        action_id = _check_id(action_id)
        ids = self._ids
        if action_id not in (self.legal_ids() if ids is None else ids):
            raise self._refusal(action_id)
        return self._after(action_id)

    def _after(self, action_id: int) -> tuple[EncodedState, Action | None]:
        """The state after ``action_id``, known to be legal, and the decision it completes."""
        band = self.band
        if band and action_id != BAND_DONE:  # legal, so a "band add"
            card = _CARDS[action_id - _START["band add"]]
            added = len(band) - 1
            bands = tuple(
                b for b in self._bands if len(b.others) > added and b.others[added] is card
            )
            return _next(self, self.state, (*band, action_id), bands, *_UNKNOWN), None
        if not band and action_id in _LEADERS:
            assert self._led is not None  # the legal ids are known
            bands = tuple(self._led[action_id])
            return _next(self, self.state, (action_id,), bands, *_UNKNOWN), None
        decision = self._decision(action_id)
        after = apply_well_formed(self.state, decision)  # the rules' own action
        return _next(self, after, (), (), *_UNKNOWN), decision

    def decision(self, action_id: int) -> Action:
        """The action that ``action_id`` completes here (the band, for ``band done``).

        Raises:
            RulesError: as :meth:`apply_id`; and for a band's Leader or card, which complete
                no decision.
        """
        action_id = _check_id(action_id)
        if action_id not in self.legal_ids():
            raise self._refusal(action_id)
        return self._decision(action_id)

    def _decision(self, action_id: int) -> Action:
        if action_id == BAND_DONE:
            added = len(self.band) - 1
            return next(b for b in self._bands if len(b.others) == added)
        actions, drawn = self._actions, self._drawn
        if actions is None and drawn is not None and self._ids:  # a chance event's outcome
            return drawn[self._ids.index(action_id)][0]
        found = (actions or {}).get(action_id)
        if found is None:
            raise IllegalActionError(
                "BAND-4", f"'{action_text(action_id)}' is a step of a band, not a decision"
            )
        return found

    def _refusal(self, action_id: int) -> RulesError:
        text = action_text(action_id)
        legal = ", ".join(action_text(i) for i in self.legal_ids()) or "nothing"
        if self.band:
            built = ", ".join(action_text(i) for i in self.band)
            return IllegalActionError(
                "BAND-1", f"no legal band goes on from '{built}' with '{text}'; legal: {legal}"
            )
        if _START["band add"] <= action_id <= BAND_DONE:
            return IllegalActionError(
                "BAND-1",
                f"'{text}' goes on from a band's Leader, and no band is begun; legal: {legal}",
            )
        try:
            apply(self.state, _action_of(text, self.state))
        except RulesError as error:
            return error
        return IllegalActionError(  # a band's step where no band is begun
            self.state.pending.rule or "BAND-4", f"'{text}' is not legal here; legal: {legal}"
        )


# A node's caches are filled once, by the slots' own descriptors (a frozen class refuses
# stores); the node after a step is a copy of the one before with every field given, built
# through a draft of the class (frozen.py): a third of the cost of its __init__.
_set_bands = vars(EncodedState)["_bands"].__set__
_set_ids = vars(EncodedState)["_ids"].__set__
_set_actions = vars(EncodedState)["_actions"].__set__
_set_led = vars(EncodedState)["_led"].__set__
_set_outcomes = vars(EncodedState)["_outcomes"].__set__
_set_floats = vars(EncodedState)["_floats"].__set__
_set_drawn = vars(EncodedState)["_drawn"].__set__
_FIRST, _SECOND = operator.itemgetter(0), operator.itemgetter(1)
_next = copier(EncodedState)
_UNKNOWN = (None,) * 6  # a new node's legal ids, actions, bands by Leader, and chance outcomes


def _check_encodable(state: GameState) -> None:
    """Refuse a state the action ids do not cover."""
    to_move(state)  # refuses anything but a GameState
    if not set(state.options.glory_tokens) <= set(TOKEN_VALUES):
        raise SetupError(
            "COMP-5",
            f"the action ids cover the printed glory-token values {list(TOKEN_VALUES)},"
            f" not {sorted(set(state.options.glory_tokens))}",
        )
    if state.rules is not _RULES:
        raise SetupError("COMP-2", "the action ids are those of the first edition")


def _begun(state: GameState, band: Iterable[int]) -> EncodedState | None:
    """The node of ``state`` with the steps ``band`` taken, each checked as ``apply_id`` checks
    it (None for no steps); only a band's Leader and added cards."""
    if isinstance(band, str | bytes) or not isinstance(band, Iterable):
        raise MalformedActionError(
            "NOTATION", f"a band is a sequence of action ids, not {given(band)}"
        )
    node = EncodedState(state)
    for step in band:
        before = node
        node = node.apply_id(step)
        if not node.band:  # a decision complete: the band played, or no band at all
            raise IllegalActionError(
                "BAND-1",
                f"'{action_text(step)}' is not a step of a band begun"
                + (
                    " (its Leader's id, then the cards added)"
                    if before.band
                    else " (it begins with its Leader's id)"
                ),
            )
    return node if node.band else None


def _action_of(text: str, state: GameState) -> Action:
    """The action an id's text names, for asking the rules why it is refused."""
    verb, _, rest = text.partition(" ")
    if verb == "tokens":
        kingdoms = _RULES.kingdoms
        kingdom = kingdoms[min(len(state.tokens), len(kingdoms) - 1)]
        return LayTokens(kingdom, tuple(map(int, rest.split())))
    if verb == "band":  # a Leader: the other steps of a band are refused before this
        return PlayBand(_RULES.card(rest.removeprefix("leader ")))
    return parse_action(text)
