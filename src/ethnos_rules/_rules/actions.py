"""Actions: frozen value objects with a canonical text form that parses back.

One notation serves players, chance and game records. Every action is one line of words separated
by single spaces; the first word names the kind of action:

==========================  =====================================================  ==========
text                        meaning                                                rule
==========================  =====================================================  ==========
``tribe ELF``               chance: this tribe is chosen for play                   SETUP-3
``tokens Rhea 2 4 8``       chance: these glory tokens are laid on Rhea             SETUP-4
``first 2``                 chance: seat 2 is the first player of Age I             AGE-5
``reveal ELF-red``          chance: the card drawn from the deck                    CHANCE
``reveal DRAGON``           chance: a Dragon is drawn                               RECRUIT-3
``recruit ELF-red``         take that card from the row                             RECRUIT-1
``recruit deck``            draw the top card of the deck                           RECRUIT-1
``band *ELF-red ELF-blue``  play a band; the starred card is the Leader             BAND-4
``pass``                    hand of 10 and no band possible                         TURN-3
``place Rhea``              place a marker there; ``place none`` declines           BAND-5a
``troll 4``                 take that Troll token; ``troll none`` declines          TRIBE-TRO-1
``checkpoint Duris``        Merfolk checkpoint marker; ``checkpoint none``          TRIBE-MER-2
``horde add``               Orc marker onto the Horde; ``horde none`` declines      TRIBE-ORC-1
``chain stop``              end a Centaur chain (instead of another ``band``)       TRIBE-CEN-1
``keep ELF-red``            Elves keep this card; ``keep done`` ends keeping        TRIBE-ELF-1
``wizard 3``                Wizards draw 3 cards; ``wizard 0`` declines             TRIBE-WIZ-1
``empty red blue``          empty these Horde spaces; ``empty none`` keeps all      TRIBE-ORC-2
==========================  =====================================================  ==========

Cards are written ``TRIBE-colour`` (``ELF-red``) or ``SKE``; kingdoms by name (``Rhea``).

A record kept at one seat (its ``seat``) also writes what that seat cannot see and what it was
shown: ``reveal ?`` for a card another player draws, ``keep ?`` for a card another player's
Elves keep, and ``rest ELF-red SKE`` for the rest of another player's hand going face up into
the row (BAND-6), right after the decision that discards it.
:func:`~ethnos_rules.parse_action` (in :mod:`~ethnos_rules._rules.notation`) reads the text back.

>>> from ethnos_rules import parse_action
>>> action = parse_action("band *ELF-red SKE ELF-blue")
>>> str(action)
'band *ELF-red ELF-blue SKE'
>>> parse_action(str(action)) == action
True
"""

from __future__ import annotations

import operator
from typing import ClassVar

import attrs

from .components import (
    Card,
    Colour,
    Dragon,
    Hidden,
    Kingdom,
    Tribe,
)
from .errors import MalformedActionError
from .said import said


def not_an_action(value: object) -> MalformedActionError:
    """The refusal of a value given where an :class:`Action` is expected (a text is read with
    ``parse_action``)."""
    kind = type(value).__name__
    if isinstance(value, str):  # a long text is not repeated in the message
        text = repr(value) if len(value) <= 40 else "text"
        reason = said(
            "expected an Action, not {type}; parse_action({text}) reads the notation",
            type=kind,
            text=text,
        )
    else:
        reason = said("expected an Action, not {type}", type=kind)
    return MalformedActionError("NOTATION", reason, value)


@attrs.frozen(slots=True)
class Action:
    """Base class of all actions. ``chance`` is True for chance outcomes."""

    chance: ClassVar[bool] = False
    observation: ClassVar[bool] = False
    verb: ClassVar[str] = ""
    hidden: ClassVar[bool] = False
    """True when the action names a card as ``?``: only a record kept at one seat holds such
    actions, and no game state can apply them. A class attribute where it cannot be true (the
    engine reads it at every decision: no call), a property of the actions that name a card."""

    def words(self) -> tuple[str, ...]:
        """What follows the verb in the action's text (see :meth:`__str__`)."""
        return ()

    def __str__(self) -> str:
        """The canonical text: the verb, then its words (``band *ELF-red ELF-blue``)."""
        return " ".join((self.verb, *self.words()))

    def check(self) -> None:
        """Raise :class:`MalformedActionError` if a field has the wrong type."""

    def __lt__(self, other: object) -> bool:
        """Actions sort by verb (in the order of the notation table), then by their text.

        >>> from ethnos_rules import parse_action
        >>> sorted(parse_action(t) for t in ["band *ELF-red", "pass", "recruit deck"])
        [Recruit(card=None), PlayBand(leader=Card('ELF-red'), others=()), Pass()]
        """
        if not isinstance(other, Action):
            return NotImplemented
        return _sort_key(self) < _sort_key(other)


def _sort_key(action: Action) -> tuple[int, str]:
    return (_VERB_ORDER.get(action.verb, len(_VERB_ORDER)), str(action))


def _bad(action: object, what: str) -> MalformedActionError:
    return MalformedActionError("NOTATION", what, action)


_card_index = operator.attrgetter("index")


def _is_card(value: object) -> bool:
    return isinstance(value, Card)


# --- chance outcomes -------------------------------------------------------------------------


@attrs.frozen(slots=True)
class ChooseTribe(Action):
    """Chance: one more tribe is chosen for play (SETUP-3)."""

    chance: ClassVar[bool] = True
    verb: ClassVar[str] = "tribe"
    tribe: Tribe

    def words(self) -> tuple[str, ...]:
        return (self.tribe.code,)

    def check(self) -> None:
        if not isinstance(self.tribe, Tribe):
            raise _bad(self, "ChooseTribe.tribe must be a Tribe")


@attrs.frozen(slots=True)
class LayTokens(Action):
    """Chance: the glory tokens laid on a kingdom, lowest first (SETUP-4)."""

    chance: ClassVar[bool] = True
    verb: ClassVar[str] = "tokens"
    kingdom: Kingdom
    values: tuple[int, ...]

    def words(self) -> tuple[str, ...]:
        return (self.kingdom.label, *map(str, self.values))

    def check(self) -> None:
        if not isinstance(self.kingdom, Kingdom) or not isinstance(self.values, tuple):
            raise _bad(self, "LayTokens needs a Kingdom and a tuple of values")
        if any(type(v) is not int or v < 0 for v in self.values):
            raise _bad(self, "glory token values must be non-negative integers")
        if list(self.values) != sorted(self.values):
            raise _bad(self, "LayTokens.values must be lowest first")


@attrs.frozen(slots=True)
class ChooseFirstPlayer(Action):
    """Chance: the first player of Age I (AGE-5)."""

    chance: ClassVar[bool] = True
    verb: ClassVar[str] = "first"
    seat: int

    def words(self) -> tuple[str, ...]:
        return (str(self.seat),)

    def check(self) -> None:
        if type(self.seat) is not int or self.seat < 0:
            raise _bad(self, "ChooseFirstPlayer.seat must be a non-negative int")


@attrs.frozen(slots=True)
class Reveal(Action):
    """Chance: the kind of card drawn from the deck, or a Dragon (spec §11); ``HIDDEN`` in a
    record kept at one seat for a card another player draws."""

    chance: ClassVar[bool] = True
    verb: ClassVar[str] = "reveal"
    card: Card | Dragon | Hidden

    @property  # the base's class attribute, as a property: mypy sees a read-only override
    def hidden(self) -> bool:  # type: ignore[override]
        return isinstance(self.card, Hidden)

    def words(self) -> tuple[str, ...]:
        return (self.card.code,)

    def check(self) -> None:
        if not isinstance(self.card, (Card, Dragon, Hidden)):  # a tuple: quicker than a union
            raise _bad(self, "Reveal.card must be a Card, DRAGON or HIDDEN")


# --- a player's turn -------------------------------------------------------------------------


@attrs.frozen(slots=True)
class Recruit(Action):
    """Recruit: take ``card`` from the row, or draw from the deck when ``card`` is None."""

    verb: ClassVar[str] = "recruit"
    card: Card | None = None

    def words(self) -> tuple[str, ...]:
        return (self.card.code if self.card else "deck",)

    def check(self) -> None:
        if self.card is not None and not isinstance(self.card, Card):
            raise _bad(self, "Recruit.card must be a Card or None (the deck)")


@attrs.frozen(slots=True)
class PlayBand(Action):
    """Play a band: the Leader and the other cards (BAND-1..4).

    Build one with :meth:`of`, which sorts the other cards into canonical order.
    """

    verb: ClassVar[str] = "band"
    leader: Card
    others: tuple[Card, ...] = ()

    @classmethod
    def of(cls, leader: Card, *others: Card) -> PlayBand:
        """The band led by ``leader`` with ``others`` in any order."""
        return cls(leader, tuple(sorted(others)))

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the band, Leader first."""
        return (self.leader, *self.others)

    def words(self) -> tuple[str, ...]:
        return ("*" + self.leader.code, *(c.code for c in self.others))

    def check(self) -> None:
        others = self.others
        if not isinstance(self.leader, Card) or not isinstance(others, tuple):
            raise _bad(self, "PlayBand needs a Card leader and a tuple of Cards")
        # One pass over a few cards: cheaper than any call into C (map, all, sorted) here.
        ordered, last = True, -1
        for card in others:
            if not isinstance(card, Card):
                raise _bad(self, "every card of a band must be a Card")
            ordered = ordered and card.index >= last
            last = card.index
        if not ordered:
            raise _bad(self, "PlayBand.others must be sorted; build bands with PlayBand.of")


@attrs.frozen(slots=True)
class Pass(Action):
    """Pass: only when holding 10 cards that form no band (TURN-3)."""

    verb: ClassVar[str] = "pass"


# --- follow-up decisions ---------------------------------------------------------------------


@attrs.frozen(slots=True)
class Place(Action):
    """Place the band's marker in ``kingdom``, or decline with None (BAND-5, BAND-5a)."""

    verb: ClassVar[str] = "place"
    kingdom: Kingdom | None

    def words(self) -> tuple[str, ...]:
        return (self.kingdom.label if self.kingdom is not None else "none",)

    def check(self) -> None:
        if self.kingdom is not None and not isinstance(self.kingdom, Kingdom):
            raise _bad(self, "Place.kingdom must be a Kingdom or None")


@attrs.frozen(slots=True)
class TakeTroll(Action):
    """Trolls: take the unclaimed Troll token of this value, or none (TRIBE-TRO-1)."""

    verb: ClassVar[str] = "troll"
    value: int | None

    def words(self) -> tuple[str, ...]:
        return ("none" if self.value is None else str(self.value),)

    def check(self) -> None:
        if self.value is not None and (type(self.value) is not int or self.value < 0):
            raise _bad(self, "TakeTroll.value must be a non-negative int or None")


@attrs.frozen(slots=True)
class Checkpoint(Action):
    """Merfolk: the marker earned at a checkpoint goes to ``kingdom``, or none (TRIBE-MER-2)."""

    verb: ClassVar[str] = "checkpoint"
    kingdom: Kingdom | None

    def words(self) -> tuple[str, ...]:
        return (self.kingdom.label if self.kingdom is not None else "none",)

    def check(self) -> None:
        if self.kingdom is not None and not isinstance(self.kingdom, Kingdom):
            raise _bad(self, "Checkpoint.kingdom must be a Kingdom or None")


@attrs.frozen(slots=True)
class AddToHorde(Action):
    """Orcs: put a marker on the Horde space of the Leader's colour, or not (TRIBE-ORC-1)."""

    verb: ClassVar[str] = "horde"
    add: bool

    def words(self) -> tuple[str, ...]:
        return ("add" if self.add else "none",)

    def check(self) -> None:
        if type(self.add) is not bool:
            raise _bad(self, "AddToHorde.add must be a bool")


@attrs.frozen(slots=True)
class StopChain(Action):
    """Centaurs: play no further band in the chain (TRIBE-CEN-1)."""

    verb: ClassVar[str] = "chain"

    def words(self) -> tuple[str, ...]:
        return ("stop",)


@attrs.frozen(slots=True)
class Keep(Action):
    """Elves: keep one more card of the rest of the hand, or ``None`` to stop (TRIBE-ELF-1).

    Cards are kept in canonical card order, so each kept set has one sequence of decisions.
    """

    verb: ClassVar[str] = "keep"
    card: Card | Hidden | None

    @property  # the base's class attribute, as a property: mypy sees a read-only override
    def hidden(self) -> bool:  # type: ignore[override]
        return isinstance(self.card, Hidden)

    def words(self) -> tuple[str, ...]:
        return (self.card.code if self.card is not None else "done",)

    def check(self) -> None:
        if self.card is not None and not isinstance(self.card, Card | Hidden):
            raise _bad(self, "Keep.card must be a Card, HIDDEN or None")


@attrs.frozen(slots=True)
class WizardDraw(Action):
    """Wizards: draw ``count`` cards after discarding; 0 declines (TRIBE-WIZ-1)."""

    verb: ClassVar[str] = "wizard"
    count: int

    def words(self) -> tuple[str, ...]:
        return (str(self.count),)

    def check(self) -> None:
        if type(self.count) is not int or self.count < 0:
            raise _bad(self, "WizardDraw.count must be a non-negative int")


@attrs.frozen(slots=True)
class EmptyHorde(Action):
    """Orcs at end of Age: remove the markers on these Horde spaces; ``()`` keeps all
    (TRIBE-ORC-2)."""

    verb: ClassVar[str] = "empty"
    colours: tuple[Colour, ...]

    def words(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.colours) or ("none",)

    def check(self) -> None:
        if not isinstance(self.colours, tuple) or not all(
            isinstance(c, Colour) for c in self.colours
        ):
            raise _bad(self, "EmptyHorde.colours must be a tuple of Colours")
        if list(self.colours) != sorted(set(self.colours)):
            raise _bad(self, "EmptyHorde.colours must be distinct and in colour order")


# --- what a record kept at one seat shows -------------------------------------------------------


@attrs.frozen(slots=True)
class RestShown(Action):
    """In a record kept at one seat: the rest of another player's hand, as it went face up into
    the row (BAND-6). Not a decision: it tells what the seat saw."""

    observation: ClassVar[bool] = True
    verb: ClassVar[str] = "rest"
    cards: tuple[Card, ...]

    def words(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.cards)

    def check(self) -> None:
        if not isinstance(self.cards, tuple) or not self.cards:
            raise _bad(self, "RestShown.cards must be a non-empty tuple of Cards")
        if not all(map(_is_card, self.cards)):
            raise _bad(self, "every card shown must be a Card")
        if list(self.cards) != sorted(self.cards):
            raise _bad(self, "RestShown.cards must be in card order")


ACTION_TYPES: tuple[type[Action], ...] = (
    ChooseTribe,
    LayTokens,
    ChooseFirstPlayer,
    Reveal,
    Recruit,
    PlayBand,
    Pass,
    Place,
    TakeTroll,
    Checkpoint,
    AddToHorde,
    StopChain,
    Keep,
    WizardDraw,
    EmptyHorde,
    RestShown,
)
"""Every kind of action, in the order of the notation table; actions sort in this order."""

_VERB_ORDER = {cls.verb: i for i, cls in enumerate(ACTION_TYPES)}
