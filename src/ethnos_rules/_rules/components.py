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
from typing import Any, ClassVar

from .errors import SetupError
from .options import Options
from .said import said, said_n, word
from .words import ROMAN, given


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


class TribeAbility:
    """The root class of a tribe's Leader ability (BAND-4), with the flags the rules read.

    Every ability is a :class:`~ethnos_rules._rules.bands.Ability`, which adds the two hooks the
    band's steps call; the components know only this root, so that the printed data need not
    import the band's steps (which import the components). A ruleset refuses any other object
    as a tribe's ability (COMP-2).
    """

    # What each flag means, tribe by tribe: ethnos_rules._rules.tribes.
    places: ClassVar[bool] = True
    any_kingdom: ClassVar[bool] = False
    placement_bonus: ClassVar[int] = 0
    chains: ClassVar[bool] = False
    band_bonus: ClassVar[int] = 0
    piece: ClassVar[str | None] = None


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
        self, ruleset: Ruleset, code: str, name: str, index: int, ability: TribeAbility, wild: bool
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


Pair = tuple[int, int]
"""A number that depends on the player count: (with 4–6 players, with 2–3 players), the order
in which the rules give them (SETUP-2..4, COMP-9)."""


def small_side(players: int) -> bool:
    """True with 2–3 players: the second number of a :data:`Pair` and the small sides of the
    boards apply (SETUP-2..5)."""
    return players <= 3


class Ruleset:
    """All printed data of one edition: tribes, cards and tables (``COMP-*``), and the numbers
    of the setup that an edition fixes (``SETUP-*``). An edition is declared by building one,
    as :data:`~ethnos_rules.FIRST_EDITION` is; a smaller one (fewer tribes, colours, copies,
    Dragons, Ages, a smaller token set and hand) plays by the same rules, so every reachable
    state of a small game can be visited. :meth:`variant` declares one from another.

    >>> from ethnos_rules import FIRST_EDITION, Options, new_game
    >>> tiny = FIRST_EDITION.variant(
    ...     "tiny", tribes=["ELF", "WIZ"], colours=["red", "blue"], copies=3, dragons=1,
    ...     ages=(1, 1), tribes_in_play=(2, 2), token_spaces=(2, 2), players=(2, 3),
    ...     hand_limit=4, default_options=Options(glory_tokens=(1, 2, 3, 4),
    ...                                           glory_tokens_4plus=()))
    >>> [card.code for card in tiny.cards]
    ['ELF-red', 'ELF-blue', 'WIZ-red', 'WIZ-blue']
    >>> state = new_game(2, ruleset=tiny, tribes=["ELF", "WIZ"])
    >>> state.config.ages, state.rules.kingdoms
    (1, (<Kingdom.RHEA: 4>, <Kingdom.STRATON: 5>))

    A declaration the rules cannot play is refused, naming the rule it breaks:

    >>> FIRST_EDITION.variant("no-deal", tribes=["ELF"], copies=1, tribes_in_play=(1, 1))
    Traceback (most recent call last):
    ...
    ethnos_rules.SetupError: AGE-3: with 3 players the deal and the row take 9 cards, but ...

    Attributes:
        name: Identifier of the ruleset (``"1e"``).
        tribes: Every tribe, in the order of COMP-2.
        colours: The colours of the cards, each naming its kingdom (COMP-1), in board order.
        kingdoms: The kingdoms of those colours: where markers go (COMP-1).
        cards: Every card kind, indexed by :attr:`Card.index`.
        copies: Printed copies of each card kind, indexed like ``cards``.
        band_glory: Glory of a band of 1, 2, … cards; the last value applies to larger bands.
        troll_tokens: Values of the Troll tokens (COMP-8).
        orc_glory: Glory for emptying 1, 2, … markers from a Horde (COMP-11).
        giant_values: Giant token value per Age, for 4–6 and for 2–3 players (COMP-9).
        dragons: Number of Dragon cards (COMP-4).
        markers: Markers per player, score marker included (COMP-6).
        hand_limit: Cards in hand at which a player may no longer recruit (TURN-2).
        ages: Ages in a game, a :data:`Pair` (SETUP-2).
        tribes_in_play: Tribes in play, a :data:`Pair` (SETUP-3).
        token_spaces: Glory tokens per kingdom, a :data:`Pair` (SETUP-4).
        players: The fewest and the most players (SETUP-1).
        default_options: The rule options a game of this edition gets unless given others: its
            glory tokens (COMP-5) and Merfolk board (COMP-10), the spec's rulings.
        home: Where the ruleset object is found, as ``"module:name"``; a pickled card, tribe or
            ruleset is read back as the very object found there.

    Raises:
        SetupError: for a declaration the rules cannot play, naming the rule (``COMP-*``,
            ``SETUP-*``, ``AGE-3``, ``TURN-3``) and what to change.
    """

    def __init__(
        self,
        *,
        name: str,
        tribes: Sequence[tuple[str, str, TribeAbility, bool]],
        colours: Sequence[Colour | str],
        copies: int,
        copies_per_colour: Mapping[str, int],
        wild_copies: int,
        band_glory: Sequence[int],
        troll_tokens: Sequence[int],
        orc_glory: Sequence[int],
        giant_values: tuple[Sequence[int], Sequence[int]],
        dragons: int,
        markers: int,
        hand_limit: int,
        ages: Pair,
        tribes_in_play: Pair,
        token_spaces: Pair,
        players: Pair,
        default_options: Options,
        home: str | None = None,
    ) -> None:
        declared = dict(locals())
        del declared["self"]
        self._declared: dict[str, Any] = declared
        self.name = name
        self.home = home
        _check_tribes(tribes)
        self.tribes = tuple(
            Tribe(self, code, tribe_name, i, ability, wild)
            for i, (code, tribe_name, ability, wild) in enumerate(tribes)
        )
        self.colours: tuple[Colour, ...] = _colours(colours)
        self.kingdoms: tuple[Kingdom, ...] = tuple(c.kingdom for c in self.colours)
        _check_copies(self.tribes, copies, copies_per_colour, wild_copies)
        cards: list[Card] = []
        counts: list[int] = []
        for tribe in self.tribes:
            if tribe.wild:
                cards.append(Card(tribe, None, len(cards)))
                counts.append(wild_copies)
                continue
            for colour in self.colours:
                cards.append(Card(tribe, colour, len(cards)))
                counts.append(copies_per_colour.get(tribe.code, copies))
        self.cards: tuple[Card, ...] = tuple(cards)
        self.copies: tuple[int, ...] = tuple(counts)
        self.band_glory = _numbers("COMP-7", "band_glory", band_glory)
        self.troll_tokens = _numbers("COMP-8", "troll_tokens", troll_tokens, empty=True)
        self.orc_glory = _numbers("COMP-11", "orc_glory", orc_glory)
        self.giant_values = (
            _numbers("COMP-9", "giant_values (4-6 players)", giant_values[0]),
            _numbers("COMP-9", "giant_values (2-3 players)", giant_values[1]),
        )
        self.dragons = _count("COMP-4", "dragons", dragons, 1)
        self.markers = _count("COMP-6", "markers", markers, 2)
        self.hand_limit = _count("TURN-2", "hand_limit", hand_limit, 1)
        self.ages = _pair("SETUP-2", "ages", ages, 1, len(ROMAN) - 1)
        self.tribes_in_play = _pair("SETUP-3", "tribes_in_play", tribes_in_play, 1, len(tribes))
        self.token_spaces = _pair("SETUP-4", "token_spaces", token_spaces, 1, len(ROMAN) - 1)
        self.players = _pair("SETUP-1", "players", players, 2, 6)
        self.default_options = default_options
        self._tribe_by_code = {t.code: t for t in self.tribes}
        self._card_by_code = {c.code: c for c in self.cards}
        _check_edition(self)
        self.check_options(default_options)

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

    def variant(
        self,
        name: str,
        *,
        tribes: Sequence[str | tuple[str, str, TribeAbility, bool]] | None = None,
        **changes: Any,
    ) -> Ruleset:
        """A new edition declared as this one with ``changes`` (any argument of the
        constructor), its tribes given by this edition's codes (or declared in full).

        Of this edition's per-tribe copies, those of the tribes kept stay; without a wild tribe
        kept, the wild copies are 0 unless given. The variant has no ``home`` unless given.

        Raises:
            SetupError: as the constructor; (``COMP-2``) for a code of no tribe here.
        """
        declared = {**self._declared, "home": None}
        if tribes is not None:
            kept = [self._declared_tribe(t) for t in tribes]
            declared["tribes"] = kept
            codes = {code for code, _, _, _ in kept}
            declared["copies_per_colour"] = {
                code: n for code, n in self._declared["copies_per_colour"].items() if code in codes
            }
            if not any(wild for _, _, _, wild in kept):
                declared["wild_copies"] = 0
        declared.update(changes, name=name)
        return Ruleset(**declared)

    def _declared_tribe(
        self, tribe: str | tuple[str, str, TribeAbility, bool]
    ) -> tuple[str, str, TribeAbility, bool]:
        if not isinstance(tribe, str):
            return tribe
        try:
            found = self.tribe(tribe)
        except KeyError as err:
            raise SetupError("COMP-2", err.args[0]) from None
        return (found.code, found.name, found.ability, found.wild)

    def check_options(self, options: Options, players: int | None = None) -> None:
        """Refuse rule options whose glory tokens do not fill this edition's kingdoms: a game of
        ``players`` (of every player count the edition allows by default) lays
        ``token_spaces`` tokens on each kingdom from the tokens, less the 4+ ones with 2–3
        players (COMP-5, SETUP-4).

        Raises:
            SetupError: (``COMP-5``) naming how many tokens are needed.
        """
        low, high = self.players if players is None else (players, players)
        for small in sorted({small_side(n) for n in range(low, high + 1)}):
            need = len(self.kingdoms) * self.token_spaces[small]
            have = len(options.token_pool(3 if small else 4))
            if have != need:
                who, less = ("2-3", word(" less the 4+ ones")) if small else ("4-6", "")
                raise SetupError(
                    "COMP-5",
                    said(
                        "with {who} players {kingdoms} of {name} take {token_spaces} glory "
                        "tokens each, {need} in all, but the options' glory_tokens{less} are "
                        "{have}",
                        who=who,
                        kingdoms=said_n("{n} kingdom", "{n} kingdoms", len(self.kingdoms)),
                        name=repr(self.name),
                        token_spaces=self.token_spaces[small],
                        need=need,
                        less=less,
                        have=have,
                    ),
                )

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


# --- checking a declaration: it comes from a person trying a variant ----------------------------


def _check_tribes(tribes: object) -> None:
    """COMP-2, BAND-3: tribes ``(code, name, ability, wild)`` with distinct upper-case codes
    that the notation can write, one wild tribe at most and one that is not."""
    if isinstance(tribes, str) or not isinstance(tribes, Sequence) or not tribes:
        raise SetupError(
            "COMP-2", said("tribes must be a non-empty list, not {tribes}", tribes=given(tribes))
        )
    for tribe in tribes:
        if not (isinstance(tribe, tuple) and len(tribe) == 4):
            raise SetupError(
                "COMP-2",
                said(
                    "a tribe is declared (code, name, ability, wild), not {tribe}",
                    tribe=given(tribe),
                ),
            )
        code, name, ability, wild = tribe
        if not (isinstance(code, str) and code.isascii() and code.isalnum() and code.isupper()):
            raise SetupError(
                "COMP-2",
                said("a tribe code is upper-case letters and digits, not {code}", code=given(code)),
            )
        if code == "DRAGON" or not isinstance(name, str) or not name:
            raise SetupError(
                "COMP-2", said("tribe {code}: a name is needed, and DRAGON is no tribe", code=code)
            )
        if not isinstance(ability, TribeAbility) or type(wild) is not bool:
            raise SetupError(
                "COMP-2", said("tribe {code}: an Ability and wild as a bool are needed", code=code)
            )
    for what, index in (("code", 0), ("name", 1)):
        seen = [str(t[index]).lower() for t in tribes]
        if len(set(seen)) != len(seen):
            raise SetupError("COMP-2", said("two tribes have the same {what}", what=what))
    wild = sum(t[3] for t in tribes)
    if wild > 1 or wild == len(tribes):
        raise SetupError(
            "BAND-3",
            said("an edition has at most one wild tribe (Skeletons) and one that leads bands"),
        )


def _colours(colours: object) -> tuple[Colour, ...]:
    """COMP-1: distinct colours, by name or as :class:`Colour`, in board order."""
    if isinstance(colours, str) or not isinstance(colours, Sequence) or not colours:
        raise SetupError(
            "COMP-1",
            said("colours must be a non-empty list, not {colours}", colours=given(colours)),
        )
    try:
        found = [c if isinstance(c, Colour) else Colour.parse(c) for c in colours]
    except KeyError as err:
        raise SetupError("COMP-1", err.args[0]) from None
    if len(set(found)) != len(found):
        raise SetupError("COMP-1", said("a colour is named twice"))
    return tuple(sorted(found))


def _check_copies(
    tribes: tuple[Tribe, ...], copies: object, per_tribe: object, wild_copies: object
) -> None:
    """COMP-3: copies of each card kind, at least one; wild copies only of a wild tribe."""
    _count("COMP-3", "copies", copies, 1)
    if not isinstance(per_tribe, Mapping):
        raise SetupError("COMP-3", said("copies_per_colour must map tribe codes to copies"))
    coloured = {t.code for t in tribes if not t.wild}
    for code, n in per_tribe.items():
        if code not in coloured:
            raise SetupError(
                "COMP-3",
                said("copies_per_colour names {code}, no coloured tribe", code=given(code)),
            )
        _count("COMP-3", f"copies_per_colour[{code!r}]", n, 1)
    has_wild = any(t.wild for t in tribes)
    _count("COMP-3", "wild_copies", wild_copies, 1 if has_wild else 0)
    if not has_wild and wild_copies:
        raise SetupError(
            "COMP-3", said("wild_copies counts the cards of a wild tribe; there is none")
        )


def _count(rule: str, what: str, value: object, least: int) -> int:
    if type(value) is not int or value < least:
        raise SetupError(
            rule,
            said(
                "{what} must be an integer ≥ {least}, not {value}",
                what=what,
                least=least,
                value=given(value),
            ),
        )
    return value


def _numbers(rule: str, what: str, values: object, empty: bool = False) -> tuple[int, ...]:
    """A table of non-negative integers (a list or tuple), non-empty unless ``empty``."""
    if not isinstance(values, list | tuple) or not (values or empty):
        raise SetupError(
            rule,
            said(
                "{what} must be a list of integers, not {values}", what=what, values=given(values)
            ),
        )
    if any(type(v) is not int or v < 0 for v in values):
        raise SetupError(
            rule,
            said(
                "{what} must be non-negative integers, not {values}",
                what=what,
                values=given(values),
            ),
        )
    return tuple(values)


def _pair(rule: str, what: str, value: object, least: int, most: int) -> Pair:
    """A :data:`Pair` of integers from ``least`` to ``most``."""
    if not (isinstance(value, tuple | list) and len(value) == 2) or any(
        type(v) is not int or not least <= v <= most for v in value
    ):
        raise SetupError(
            rule,
            said(
                "{what} is a pair (4-6 players, 2-3 players) of integers from {least} "
                "to {most}, not {value}",
                what=what,
                least=least,
                most=most,
                value=given(value),
            ),
        )
    return value[0], value[1]


def _check_edition(rules: Ruleset) -> None:
    """What the numbers must agree on for every game of the edition to be played to its end."""
    low, high = rules.players
    if low > high:
        raise SetupError(
            "SETUP-1", said("players {players}: the fewest come first", players=rules.players)
        )
    if len(rules.orc_glory) < len(rules.colours):
        raise SetupError(
            "COMP-11", said("orc_glory needs a value for each Horde space (each colour)")
        )
    wild = sum(t.wild for t in rules.tribes)
    for small in sorted({small_side(n) for n in range(low, high + 1)}):
        who = "2-3" if small else "4-6"
        ages = rules.ages[small]
        if len(rules.giant_values[small]) < ages:
            raise SetupError(
                "COMP-9", said("giant_values needs a value for each Age ({who} players)", who=who)
            )
        if rules.token_spaces[small] < ages:
            raise SetupError(
                "SCORE-K-2",
                said(
                    "the first in Age {ages} earns the token on space {ages}: with {who} "
                    "players token_spaces must be at least the {ages} Ages",
                    ages=ages,
                    who=who,
                ),
            )
        if rules.tribes_in_play[small] <= wild:
            raise SetupError(
                "SETUP-3", said("with {who} players a tribe that leads must be in play", who=who)
            )
    if low == 2 and rules.token_spaces[1] < 2:
        raise SetupError(
            "SCORE-2P-1", said("2 players share I + II in the last Age: 2 token spaces")
        )
    for n in range(low, high + 1):
        _check_deck(rules, n)
    wild_cards = sum(n for card, n in zip(rules.cards, rules.copies, strict=True) if card.wild)
    if wild_cards >= low * rules.hand_limit:
        raise SetupError(
            "TURN-3",
            said(
                "{wild_cards} wild cards could fill the {hand_limit}-card hands of all "
                "{low} players, who would then pass for ever: fewer wild cards or a "
                "larger hand_limit",
                wild_cards=wild_cards,
                hand_limit=rules.hand_limit,
                low=low,
            ),
        )
    if not isinstance(rules.default_options, Options):
        raise SetupError(
            "COMP-5",
            said(
                "default_options must be an Options, not {default_options}",
                default_options=given(rules.default_options),
            ),
        )


def _check_deck(rules: Ruleset, players: int) -> None:
    """AGE-2, AGE-3: the smallest deck the tribes in play can make deals a card to each player
    and turns up the row."""
    per_tribe = sorted(
        sum(n for card, n in zip(rules.cards, rules.copies, strict=True) if card.tribe is t)
        for t in rules.tribes
    )
    count = rules.tribes_in_play[small_side(players)]
    smallest = sum(per_tribe[:count])
    need = 3 * players
    if smallest < need:
        raise SetupError(
            "AGE-3",
            said_n(
                "with {players} players the deal and the row take {need} cards, but "
                "{n} tribe in play may hold only {smallest}",
                "with {players} players the deal and the row take {need} cards, but "
                "{n} tribes in play may hold only {smallest}",
                count,
                players=players,
                need=need,
                smallest=smallest,
            ),
        )


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
