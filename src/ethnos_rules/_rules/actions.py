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

>>> from ethnos_rules import parse_action
>>> action = parse_action("band *ELF-red SKE ELF-blue")
>>> str(action)
'band *ELF-red ELF-blue SKE'
>>> parse_action(str(action)) == action
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import attrs

from .components import (
    DRAGON,
    Card,
    Colour,
    Dragon,
    Kingdom,
    Ruleset,
    Tribe,
    default_ruleset,
)
from .errors import MalformedActionError


@attrs.frozen(slots=True)
class Action:
    """Base class of all actions. ``chance`` is True for chance outcomes."""

    chance: ClassVar[bool] = False
    verb: ClassVar[str] = ""

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


def _is_card(value: object) -> bool:
    return isinstance(value, Card)


# --- chance outcomes -------------------------------------------------------------------------


@attrs.frozen(slots=True)
class ChooseTribe(Action):
    """Chance: one more tribe is chosen for play (SETUP-3)."""

    chance: ClassVar[bool] = True
    verb: ClassVar[str] = "tribe"
    tribe: Tribe

    def __str__(self) -> str:
        return f"tribe {self.tribe.code}"

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

    def __str__(self) -> str:
        return " ".join(["tokens", self.kingdom.label, *map(str, self.values)])

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

    def __str__(self) -> str:
        return f"first {self.seat}"

    def check(self) -> None:
        if type(self.seat) is not int or self.seat < 0:
            raise _bad(self, "ChooseFirstPlayer.seat must be a non-negative int")


@attrs.frozen(slots=True)
class Reveal(Action):
    """Chance: the kind of card drawn from the deck, or a Dragon (spec §11)."""

    chance: ClassVar[bool] = True
    verb: ClassVar[str] = "reveal"
    card: Card | Dragon

    def __str__(self) -> str:
        return f"reveal {self.card.code}"

    def check(self) -> None:
        if not isinstance(self.card, Card | Dragon):
            raise _bad(self, "Reveal.card must be a Card or DRAGON")


# --- a player's turn -------------------------------------------------------------------------


@attrs.frozen(slots=True)
class Recruit(Action):
    """Recruit: take ``card`` from the row, or draw from the deck when ``card`` is None."""

    verb: ClassVar[str] = "recruit"
    card: Card | None = None

    def __str__(self) -> str:
        return f"recruit {self.card.code if self.card else 'deck'}"

    def check(self) -> None:
        if self.card is not None and not _is_card(self.card):
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

    def __str__(self) -> str:
        return " ".join(["band", "*" + self.leader.code, *(c.code for c in self.others)])

    def check(self) -> None:
        if not _is_card(self.leader) or not isinstance(self.others, tuple):
            raise _bad(self, "PlayBand needs a Card leader and a tuple of Cards")
        if not all(map(_is_card, self.others)):
            raise _bad(self, "every card of a band must be a Card")
        if any(b < a for a, b in zip(self.others, self.others[1:], strict=False)):
            raise _bad(self, "PlayBand.others must be sorted; build bands with PlayBand.of")


@attrs.frozen(slots=True)
class Pass(Action):
    """Pass: only when holding 10 cards that form no band (TURN-3)."""

    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


# --- follow-up decisions ---------------------------------------------------------------------


@attrs.frozen(slots=True)
class Place(Action):
    """Place the band's marker in ``kingdom``, or decline with None (BAND-5, BAND-5a)."""

    verb: ClassVar[str] = "place"
    kingdom: Kingdom | None

    def __str__(self) -> str:
        return f"place {self.kingdom.label if self.kingdom is not None else 'none'}"

    def check(self) -> None:
        if self.kingdom is not None and not isinstance(self.kingdom, Kingdom):
            raise _bad(self, "Place.kingdom must be a Kingdom or None")


@attrs.frozen(slots=True)
class TakeTroll(Action):
    """Trolls: take the unclaimed Troll token of this value, or none (TRIBE-TRO-1)."""

    verb: ClassVar[str] = "troll"
    value: int | None

    def __str__(self) -> str:
        return f"troll {'none' if self.value is None else self.value}"

    def check(self) -> None:
        if self.value is not None and (type(self.value) is not int or self.value < 0):
            raise _bad(self, "TakeTroll.value must be a non-negative int or None")


@attrs.frozen(slots=True)
class Checkpoint(Action):
    """Merfolk: the marker earned at a checkpoint goes to ``kingdom``, or none (TRIBE-MER-2)."""

    verb: ClassVar[str] = "checkpoint"
    kingdom: Kingdom | None

    def __str__(self) -> str:
        return f"checkpoint {self.kingdom.label if self.kingdom is not None else 'none'}"

    def check(self) -> None:
        if self.kingdom is not None and not isinstance(self.kingdom, Kingdom):
            raise _bad(self, "Checkpoint.kingdom must be a Kingdom or None")


@attrs.frozen(slots=True)
class AddToHorde(Action):
    """Orcs: put a marker on the Horde space of the Leader's colour, or not (TRIBE-ORC-1)."""

    verb: ClassVar[str] = "horde"
    add: bool

    def __str__(self) -> str:
        return f"horde {'add' if self.add else 'none'}"

    def check(self) -> None:
        if type(self.add) is not bool:
            raise _bad(self, "AddToHorde.add must be a bool")


@attrs.frozen(slots=True)
class StopChain(Action):
    """Centaurs: play no further band in the chain (TRIBE-CEN-1)."""

    verb: ClassVar[str] = "chain"

    def __str__(self) -> str:
        return "chain stop"


@attrs.frozen(slots=True)
class Keep(Action):
    """Elves: keep one more card of the rest of the hand, or ``None`` to stop (TRIBE-ELF-1).

    Cards are kept in canonical card order, so each kept set has one sequence of decisions.
    """

    verb: ClassVar[str] = "keep"
    card: Card | None

    def __str__(self) -> str:
        return f"keep {self.card.code if self.card is not None else 'done'}"

    def check(self) -> None:
        if self.card is not None and not _is_card(self.card):
            raise _bad(self, "Keep.card must be a Card or None")


@attrs.frozen(slots=True)
class WizardDraw(Action):
    """Wizards: draw ``count`` cards after discarding; 0 declines (TRIBE-WIZ-1)."""

    verb: ClassVar[str] = "wizard"
    count: int

    def __str__(self) -> str:
        return f"wizard {self.count}"

    def check(self) -> None:
        if type(self.count) is not int or self.count < 0:
            raise _bad(self, "WizardDraw.count must be a non-negative int")


@attrs.frozen(slots=True)
class EmptyHorde(Action):
    """Orcs at end of Age: remove the markers on these Horde spaces; ``()`` keeps all
    (TRIBE-ORC-2)."""

    verb: ClassVar[str] = "empty"
    colours: tuple[Colour, ...]

    def __str__(self) -> str:
        return "empty " + (" ".join(c.label for c in self.colours) or "none")

    def check(self) -> None:
        if not isinstance(self.colours, tuple) or not all(
            isinstance(c, Colour) for c in self.colours
        ):
            raise _bad(self, "EmptyHorde.colours must be a tuple of Colours")
        if list(self.colours) != sorted(set(self.colours)):
            raise _bad(self, "EmptyHorde.colours must be distinct and in colour order")


# --- parsing ---------------------------------------------------------------------------------


def _kingdom(word: str) -> Kingdom:
    try:
        return Kingdom[word.upper()]
    except KeyError:
        names = ", ".join(k.label for k in Kingdom)
        raise ValueError(f"unknown kingdom {word!r} (one of {names})") from None


def _colour(word: str) -> Colour:
    try:
        return Colour[word.upper()]
    except KeyError:
        names = ", ".join(c.label for c in Colour)
        raise ValueError(f"unknown colour {word!r} (one of {names})") from None


def _int(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise ValueError(f"{word!r} is not a non-negative integer")
    return int(word)


def _one(args: list[str]) -> str:
    if len(args) != 1:
        raise ValueError(f"expected one word after the verb, got {len(args)}")
    return args[0]


def _choose(word: str, meanings: dict[str, bool]) -> bool:
    if word not in meanings:
        raise ValueError(f"expected {' or '.join(map(repr, meanings))}, not {word!r}")
    return meanings[word]


def _some(args: list[str]) -> list[str]:
    if not args:
        raise ValueError("expected more words after the verb")
    return args


def _no_args(args: list[str], action: Action) -> Action:
    if args:
        raise ValueError("expected nothing after the verb")
    return action


def _parse_band(args: list[str], rules: Ruleset) -> PlayBand:
    leaders = [w for w in args if w.startswith("*")]
    if len(leaders) != 1:
        raise ValueError("a band needs exactly one Leader, marked with '*'")
    others = list(args)
    others.remove(leaders[0])
    return PlayBand.of(rules.card(leaders[0][1:]), *(rules.card(w) for w in others))


def _parse_reveal(word: str, rules: Ruleset) -> Reveal:
    return Reveal(DRAGON if word.upper() == "DRAGON" else rules.card(word))


_PARSERS: dict[str, Callable[[list[str], Ruleset], Action]] = {
    "tribe": lambda a, r: ChooseTribe(r.tribe(_one(a))),
    "tokens": lambda a, r: LayTokens(_kingdom(_some(a)[0]), tuple(sorted(map(_int, _some(a[1:]))))),
    "first": lambda a, r: ChooseFirstPlayer(_int(_one(a))),
    "reveal": lambda a, r: _parse_reveal(_one(a), r),
    "recruit": lambda a, r: Recruit(None if _one(a) == "deck" else r.card(a[0])),
    "band": _parse_band,
    "pass": lambda a, r: _no_args(a, Pass()),
    "place": lambda a, r: Place(None if _one(a) == "none" else _kingdom(a[0])),
    "troll": lambda a, r: TakeTroll(None if _one(a) == "none" else _int(a[0])),
    "checkpoint": lambda a, r: Checkpoint(None if _one(a) == "none" else _kingdom(a[0])),
    "horde": lambda a, r: AddToHorde(_choose(_one(a), {"add": True, "none": False})),
    "chain": lambda a, r: StopChain() if _one(a) == "stop" else _unknown("chain " + a[0]),
    "keep": lambda a, r: Keep(None if _one(a) == "done" else r.card(a[0])),
    "wizard": lambda a, r: WizardDraw(_int(_one(a))),
    "empty": lambda a, r: EmptyHorde(
        () if a == ["none"] else tuple(sorted(set(map(_colour, _some(a)))))
    ),
}


_VERB_ORDER = {verb: i for i, verb in enumerate(_PARSERS)}


def _unknown(text: str) -> Action:
    raise ValueError(f"unknown action {text!r}")


def parse_action(text: str, ruleset: Ruleset | None = None) -> Action:
    """Parse the canonical text form of an action (see the module docs for the notation).

    Extra spaces are ignored and the order of a band's other cards does not matter; ``str`` of
    the result is canonical.

    Raises:
        MalformedActionError: if ``text`` is not an action (rule ``NOTATION``).

    >>> from ethnos_rules import parse_action
    >>> parse_action("recruit deck")
    Recruit(card=None)
    >>> parse_action("place Atlantis")
    Traceback (most recent call last):
    ...
    ethnos_rules.MalformedActionError: NOTATION: cannot parse 'place Atlantis': unknown ...
    """
    if not isinstance(text, str):
        raise MalformedActionError("NOTATION", f"an action text must be a str, not {type(text)}")
    words = text.split()
    if not words:
        raise MalformedActionError("NOTATION", "empty action text")
    parser = _PARSERS.get(words[0])
    if parser is None:
        verbs = ", ".join(_PARSERS)
        raise MalformedActionError("NOTATION", f"unknown verb {words[0]!r} (one of {verbs})", text)
    if not all(word.isascii() for word in words):
        # Look-alike letters (dotless ı, long ſ, full-width Ｒ) would pass str.upper().
        raise MalformedActionError("NOTATION", "the action notation is plain ASCII", text)
    try:
        return parser(words[1:], ruleset or default_ruleset())
    except (KeyError, ValueError, IndexError) as err:
        reason = err.args[0] if err.args else type(err).__name__
        raise MalformedActionError("NOTATION", f"cannot parse {text!r}: {reason}", text) from None
