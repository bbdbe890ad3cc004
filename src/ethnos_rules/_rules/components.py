"""The printed components of a ruleset as data (spec §1, ``COMP-*``).

Cards and tribes are interned flyweights: every card kind of a ruleset exists exactly once, so
identity comparison is equality and hashing is cheap. A multiset of cards (a hand, the row) is a
sorted tuple of :class:`Card`; the deck is a tuple of counts indexed by :attr:`Card.index`.

Nothing here knows any rule beyond the printed numbers, so a second ruleset can be built beside
the first from the same classes.
"""

from __future__ import annotations

import bisect
import enum
import importlib
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .words import given

if TYPE_CHECKING:
    from .bands import Ability


class Colour(enum.IntEnum):
    """A card colour; each colour names one kingdom (COMP-1)."""

    GREEN = 0
    PURPLE = 1
    ORANGE = 2
    GRAY = 3
    RED = 4
    BLUE = 5

    @property
    def label(self) -> str:
        """The lower-case name used in the action notation, e.g. ``"red"``."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.label

    def __format__(self, spec: str) -> str:
        return format(self.label, spec)

    @classmethod
    def parse(cls, name: str) -> Colour:
        """The colour named ``name`` (any case).

        Raises:
            KeyError: naming the colours, for any other text.
        """
        try:
            return cls[name.upper()]
        except (KeyError, AttributeError):
            known = ", ".join(c.label for c in cls)
            raise KeyError(f"unknown colour {given(name)} (one of {known})") from None

    @property
    def kingdom(self) -> Kingdom:
        """The kingdom of this colour (COMP-1)."""
        return _KINGDOM_OF[self]


class Kingdom(enum.IntEnum):
    """One of the six kingdoms, valued like its colour (COMP-1)."""

    ALTHEA = 0
    DURIS = 1
    ITHYS = 2
    PELAGON = 3
    RHEA = 4
    STRATON = 5

    @property
    def label(self) -> str:
        """The capitalised name used in the action notation, e.g. ``"Rhea"``."""
        return self.name.capitalize()

    def __str__(self) -> str:
        return self.label

    def __format__(self, spec: str) -> str:
        return format(self.label, spec)

    @classmethod
    def parse(cls, name: str) -> Kingdom:
        """The kingdom named ``name`` (any case).

        >>> from ethnos_rules import Kingdom
        >>> Kingdom.parse("rhea"), str(Kingdom.RHEA)
        (<Kingdom.RHEA: 4>, 'Rhea')

        Raises:
            KeyError: naming the kingdoms, for any other text.
        """
        try:
            return cls[name.upper()]
        except (KeyError, AttributeError):
            known = ", ".join(k.label for k in cls)
            raise KeyError(f"unknown kingdom {given(name)} (one of {known})") from None

    @property
    def colour(self) -> Colour:
        """The colour of this kingdom (COMP-1)."""
        return COLOURS[self]


COLOURS: tuple[Colour, ...] = tuple(Colour)
KINGDOMS: tuple[Kingdom, ...] = tuple(Kingdom)
# Each colour names the kingdom of its value (COMP-1); a band's placement asks at every band, and
# a lookup costs a tenth of building the member through Kingdom(value).
_KINGDOM_OF: tuple[Kingdom, ...] = tuple(Kingdom(colour.value) for colour in COLOURS)


class Tribe:
    """A tribe of a ruleset (COMP-2). Interned: compare with ``is`` or ``==``.

    Attributes:
        code: Three-letter code used in rule ids and the notation (``"ELF"``).
        name: Plural English name (``"Elves"``).
        index: Position in the ruleset's tribe list.
        ability: The Leader ability (``TRIBE-*``); see :mod:`ethnos_rules._rules.tribes`.
        ruleset: The ruleset it belongs to.
        wild: True for Skeletons: colourless, wild, never a Leader (BAND-3, TRIBE-SKE-1).
    """

    __slots__ = ("ability", "code", "index", "name", "ruleset", "wild")

    def __init__(
        self, ruleset: Ruleset, code: str, name: str, index: int, ability: Ability, wild: bool
    ) -> None:
        self.ruleset = ruleset
        self.code = code
        self.name = name
        self.index = index
        self.ability = ability
        self.wild = wild

    def __repr__(self) -> str:
        return f"Tribe({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Tribe) -> bool:
        return self.index < other.index

    def __copy__(self) -> Tribe:
        return self

    def __deepcopy__(self, memo: Any) -> Tribe:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_tribe_of, (self.ruleset, self.code))


class Card:
    """A kind of Ally card: a tribe and a colour, or a colourless Skeleton (COMP-3).

    Cards of the same kind are interchangeable, so there is one object per kind.

    >>> from ethnos_rules import card
    >>> card("ELF-red")
    Card('ELF-red')
    >>> card("SKE").colour is None
    True

    Attributes:
        tribe: Its tribe.
        colour: Its colour, or None for a Skeleton.
        index: Its position in the ruleset's card list (the deck's counts are by index).
        code: Its name in the notation (``"ELF-red"``, ``"SKE"``).
        wild: True for a Skeleton (BAND-3): its tribe's ``wild``, kept here as the rules ask
            it of every card of every band.
    """

    __slots__ = ("code", "colour", "index", "tribe", "wild")

    def __init__(self, tribe: Tribe, colour: Colour | None, index: int) -> None:
        self.tribe = tribe
        self.colour = colour
        self.index = index
        self.code = tribe.code if colour is None else f"{tribe.code}-{colour.label}"
        self.wild = tribe.wild

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: Any) -> Card:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_card_of, (self.tribe.ruleset, self.code))


class Dragon:
    """The Dragon card kind, a possible outcome of a draw (COMP-4). Not an Ally."""

    __slots__ = ()
    code = "DRAGON"

    def __repr__(self) -> str:
        return "DRAGON"

    def __str__(self) -> str:
        return "DRAGON"

    def __reduce__(self) -> str:
        return "DRAGON"


DRAGON = Dragon()
"""The one Dragon kind (COMP-4)."""


class Hidden:
    """A card that a record kept at one seat does not know: another player's draw, written
    ``?`` (``reveal ?``, ``keep ?``). Never part of a game state."""

    __slots__ = ()
    code = "?"

    def __repr__(self) -> str:
        return "HIDDEN"

    def __str__(self) -> str:
        return "?"

    def __reduce__(self) -> str:
        return "HIDDEN"


HIDDEN = Hidden()
"""The one hidden card (``?`` in the notation)."""


class Ruleset:
    """All printed data of one edition: tribes, cards and tables (``COMP-*``).

    Attributes:
        name: Identifier of the ruleset (``"1e"``).
        tribes: Every tribe, in the order of COMP-2.
        cards: Every card kind, indexed by :attr:`Card.index`.
        copies: Printed copies of each card kind, indexed like ``cards``.
        band_glory: Glory of a band of 1, 2, … cards; the last value applies to larger bands.
        troll_tokens: Values of the Troll tokens (COMP-8).
        orc_glory: Glory for emptying 1, 2, … markers from a Horde (COMP-11).
        giant_values: Giant token value per Age, for 4–6 and for 2–3 players (COMP-9).
        dragons: Number of Dragon cards (COMP-4).
        markers: Markers per player, score marker included (COMP-6).
        hand_limit: Cards in hand at which a player may no longer recruit (TURN-2).
        home: Where the ruleset object is found, as ``"module:name"``; a pickled card, tribe or
            ruleset is read back as the very object found there.
    """

    def __init__(
        self,
        *,
        name: str,
        tribes: Sequence[tuple[str, str, Ability, bool]],
        copies_per_colour: Mapping[str, int],
        wild_copies: int,
        band_glory: Sequence[int],
        troll_tokens: Sequence[int],
        orc_glory: Sequence[int],
        giant_values: tuple[Sequence[int], Sequence[int]],
        dragons: int,
        markers: int,
        hand_limit: int,
        home: str | None = None,
    ) -> None:
        self.name = name
        self.home = home
        self.tribes = tuple(
            Tribe(self, code, tribe_name, i, ability, wild)
            for i, (code, tribe_name, ability, wild) in enumerate(tribes)
        )
        cards: list[Card] = []
        copies: list[int] = []
        for tribe in self.tribes:
            if tribe.wild:
                cards.append(Card(tribe, None, len(cards)))
                copies.append(wild_copies)
                continue
            for colour in COLOURS:
                cards.append(Card(tribe, colour, len(cards)))
                copies.append(copies_per_colour.get(tribe.code, 2))
        self.cards: tuple[Card, ...] = tuple(cards)
        self.copies: tuple[int, ...] = tuple(copies)
        self.band_glory = tuple(band_glory)
        self.troll_tokens = tuple(troll_tokens)
        self.orc_glory = tuple(orc_glory)
        self.giant_values = (tuple(giant_values[0]), tuple(giant_values[1]))
        self.dragons = dragons
        self.markers = markers
        self.hand_limit = hand_limit
        self._tribe_by_code = {t.code: t for t in self.tribes}
        self._card_by_code = {c.code: c for c in self.cards}

    def __repr__(self) -> str:
        return f"Ruleset({self.name!r})"

    # A ruleset is one object shared by every game of it; copies are the same object.
    def __copy__(self) -> Ruleset:
        return self

    def __deepcopy__(self, memo: Any) -> Ruleset:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        if self.home is None:
            raise TypeError(f"the ruleset {self.name!r} has no home, so it cannot be pickled")
        return (_ruleset_at, (self.home,))

    def tribe(self, code: str) -> Tribe:
        """The tribe with this code or English name (case-insensitive).

        Raises:
            KeyError: if no tribe of this ruleset has that code or name.
        """
        found = self._tribe_by_code.get(code.upper())
        if found is None:
            found = next((t for t in self.tribes if t.name.lower() == code.lower()), None)
        if found is None:
            known = ", ".join(t.code for t in self.tribes)
            raise KeyError(f"unknown tribe {given(code)} (known: {known})")
        return found

    def card(self, code: str) -> Card:
        """The card kind written ``code`` (``"ELF-red"``, ``"SKE"``).

        Raises:
            KeyError: if the text names no card kind of this ruleset.
        """
        found = self._card_by_code.get(code)
        if found is None:
            tribe, _, colour = code.partition("-")
            found = self._card_by_code.get(f"{tribe.upper()}-{colour.lower()}" if colour else "")
            if found is None and not colour:
                found = self._card_by_code.get(tribe.upper())
        if found is None:
            raise KeyError(f"unknown card {given(code)} (write TRIBE-colour, e.g. ELF-red, or SKE)")
        return found

    def cards_of(self, tribes: Iterable[Tribe]) -> tuple[int, ...]:
        """Printed copies of each card kind belonging to ``tribes``, as deck counts (SETUP-3)."""
        chosen = set(tribes)
        return tuple(
            [
                n if card.tribe in chosen else 0
                for card, n in zip(self.cards, self.copies, strict=True)
            ]
        )

    def band_value(self, size: int) -> int:
        """Glory of a band of ``size`` cards after Skeletons are removed (COMP-7)."""
        if size <= 0:
            return 0
        return self.band_glory[min(size, len(self.band_glory)) - 1]


def _ruleset_at(home: str) -> Ruleset:
    """The ruleset found at ``"module:name"`` (how pickles name a ruleset)."""
    module, _, name = home.partition(":")
    ruleset = getattr(importlib.import_module(module), name)
    assert isinstance(ruleset, Ruleset)
    return ruleset


def _tribe_of(ruleset: Ruleset, code: str) -> Tribe:
    return ruleset.tribe(code)


def _card_of(ruleset: Ruleset, code: str) -> Card:
    return ruleset.card(code)


def multiset_remove(cards: tuple[Card, ...], removed: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` without one copy of each of ``removed`` (both sorted multisets).

    Raises:
        ValueError: if ``removed`` is not contained in ``cards``.
    """
    remaining = list(cards)
    for card in removed:
        remaining.remove(card)
    return tuple(remaining)


def multiset_add(cards: tuple[Card, ...], added: Iterable[Card]) -> tuple[Card, ...]:
    """The sorted multiset union of ``cards`` and ``added``."""
    return tuple(sorted((*cards, *added), key=_index))


def multiset_insert(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``multiset_add(cards, [card])``: the one card goes in at its place, after its copies."""
    at = bisect.bisect_right(cards, card.index, key=_index)
    return (*cards[:at], card, *cards[at:])


_index = operator.attrgetter("index")  # a key read in C: sorting calls no Python function
