"""Reading the notation: action texts, and the words they are made of (cards, bands, kingdoms,
colours), read in one place for actions, positions and snapshots.

The table of action kinds is in :mod:`~ethnos_rules._rules.actions`; each action's ``str`` is
its canonical text, and :func:`parse_action` reads it back. The word readers raise
``KeyError`` or ``ValueError`` with a message; each caller wraps them in its own typed error
(:class:`~ethnos_rules.MalformedActionError`, :class:`~ethnos_rules.SetupError`,
:class:`~ethnos_rules.RecordError`).

>>> from ethnos_rules import parse_action
>>> parse_action("band *ELF-red SKE ELF-blue")
PlayBand(leader=Card('ELF-red'), others=(Card('ELF-blue'), Card('SKE')))
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence

from .actions import (
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
    RestShown,
    Reveal,
    StopChain,
    TakeTroll,
    WizardDraw,
)
from .components import DRAGON, HIDDEN, Card, Colour, Kingdom, Ruleset
from .editions import default_ruleset
from .errors import MalformedActionError
from .said import said
from .state import Band
from .words import given

# --- words ------------------------------------------------------------------------------------


def parse_band(text: str | Sequence[str], rules: Ruleset) -> Band:
    """A band as written in the notation without its verb: ``*ELF-red ELF-blue SKE`` (the
    starred card is the Leader; the others in any order).

    Raises:
        ValueError: no Leader, or several.
        KeyError: a word that names no card.
    """
    return Band(*_band_cards(text.split() if isinstance(text, str) else text, rules))


def _band_cards(words: Sequence[str], rules: Ruleset) -> tuple[Card, tuple[Card, ...]]:
    """The Leader and the other cards, in card order, of a band's words."""
    marked = [w for w in words if w[:1] == "*"]
    if len(marked) != 1:
        raise ValueError("a band needs exactly one Leader, marked with '*'")
    leader = marked[0]
    card = rules.card
    others = [card(w) for w in words if w is not leader]
    others.sort(key=_INDEX)  # card order, without a call of Card.__lt__ per comparison
    return card(leader[1:]), tuple(others)


_INDEX = operator.attrgetter("index")


def parse_int(word: str) -> int:
    """A non-negative integer written in ASCII digits.

    Raises:
        ValueError: for anything else.
    """
    if not (word.isascii() and word.isdigit()):
        raise ValueError(f"{given(word)} is not a non-negative integer")
    return int(word)


# --- actions ----------------------------------------------------------------------------------


def _one(args: list[str]) -> str:
    if len(args) != 1:
        raise ValueError(f"expected one word after the verb, got {len(args)}")
    return args[0]


def _some(args: list[str]) -> list[str]:
    if not args:
        raise ValueError("expected more words after the verb")
    return args


def _choose(word: str, meanings: dict[str, bool]) -> bool:
    if word not in meanings:
        raise ValueError(f"expected {' or '.join(map(repr, meanings))}, not {given(word)}")
    return meanings[word]


def _no_args(args: list[str], action: Action) -> Action:
    if args:
        raise ValueError("expected nothing after the verb")
    return action


def _band(args: list[str], rules: Ruleset) -> PlayBand:
    return PlayBand(*_band_cards(args, rules))


def _reveal(word: str, rules: Ruleset) -> Reveal:
    if word == "?":
        return Reveal(HIDDEN)
    return Reveal(DRAGON if word.upper() == "DRAGON" else rules.card(word))


def _stop(word: str) -> StopChain:
    if word != "stop":
        raise ValueError(f"unknown action 'chain {word}'")
    return StopChain()


def _tokens(args: list[str]) -> LayTokens:
    kingdom = Kingdom.parse(_some(args)[0])
    return LayTokens(kingdom, tuple(sorted(map(parse_int, _some(args[1:])))))


def _recruit(word: str, rules: Ruleset) -> Recruit:
    return Recruit(None if word == "deck" else rules.card(word))


def _kept(word: str, rules: Ruleset) -> Keep:
    if word == "?":
        return Keep(HIDDEN)
    return Keep(None if word == "done" else rules.card(word))


def _rest(args: list[str], rules: Ruleset) -> RestShown:
    return RestShown(tuple(sorted(rules.card(w) for w in _some(args))))


def _kingdom_or_none(word: str) -> Kingdom | None:
    return None if word == "none" else Kingdom.parse(word)


def _colours(args: list[str]) -> tuple[Colour, ...]:
    if args == ["none"]:
        return ()
    return tuple(sorted(set(map(Colour.parse, _some(args)))))


_PARSERS: dict[str, Callable[[list[str], Ruleset], Action]] = {
    ChooseTribe.verb: lambda a, r: ChooseTribe(r.tribe(_one(a))),
    LayTokens.verb: lambda a, r: _tokens(a),
    ChooseFirstPlayer.verb: lambda a, r: ChooseFirstPlayer(parse_int(_one(a))),
    Reveal.verb: lambda a, r: _reveal(_one(a), r),
    Recruit.verb: lambda a, r: _recruit(_one(a), r),
    PlayBand.verb: _band,
    Pass.verb: lambda a, r: _no_args(a, Pass()),
    Place.verb: lambda a, r: Place(_kingdom_or_none(_one(a))),
    TakeTroll.verb: lambda a, r: TakeTroll(None if _one(a) == "none" else parse_int(a[0])),
    Checkpoint.verb: lambda a, r: Checkpoint(_kingdom_or_none(_one(a))),
    AddToHorde.verb: lambda a, r: AddToHorde(_choose(_one(a), {"add": True, "none": False})),
    StopChain.verb: lambda a, r: _stop(_one(a)),
    Keep.verb: lambda a, r: _kept(_one(a), r),
    WizardDraw.verb: lambda a, r: WizardDraw(parse_int(_one(a))),
    EmptyHorde.verb: lambda a, r: EmptyHorde(_colours(a)),
    RestShown.verb: _rest,
}


def parse_action(text: str, ruleset: Ruleset | None = None) -> Action:
    """Parse the canonical text form of an action (see :mod:`~ethnos_rules._rules.actions` for
    the notation).

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
        raise MalformedActionError(
            "NOTATION", said("an action text must be a str, not {type}", type=type(text))
        )
    rules = ruleset or default_ruleset()
    if len(text) <= _CACHED_LENGTH:
        return _parse_short(str(text), rules)
    return _parse(text, rules)


# A record repeats the same few texts ("recruit deck", "reveal ELF-red", …): each short text
# is parsed once (actions are immutable, so one object serves every record that names it).
_CACHED_LENGTH = 120
"""Longer texts (a canonical action is shorter) are parsed each time, so that the cache never
keeps a long input alive."""


@functools.lru_cache(maxsize=8192)
def _parse_short(text: str, rules: Ruleset) -> Action:
    return _parse(text, rules)


def _parse(text: str, rules: Ruleset) -> Action:
    words = text.split()
    if not words:
        raise MalformedActionError("NOTATION", said("empty action text"))
    parser = _PARSERS.get(words[0])
    if parser is None:
        verbs = ", ".join(_PARSERS)
        raise MalformedActionError(
            "NOTATION",
            said("unknown verb {words} (one of {verbs})", words=given(words[0]), verbs=verbs),
            text,
        )
    if not text.isascii() and not all(word.isascii() for word in words):  # (spaces may not be)
        # Look-alike letters (dotless ı, long ſ, full-width Ｒ) would pass str.upper().
        raise MalformedActionError("NOTATION", said("the action notation is plain ASCII"), text)
    try:
        return parser(words[1:], rules)
    except (KeyError, ValueError, IndexError) as err:
        reason = err.args[0] if err.args else type(err).__name__
        raise MalformedActionError(
            "NOTATION", said("cannot parse {text}: {reason}", text=given(text), reason=reason), text
        ) from None
