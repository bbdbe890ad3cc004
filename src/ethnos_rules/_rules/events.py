"""Events: what a decision did, told by the rules that did it.

:func:`~ethnos_rules.step` returns, beside the next state, the :class:`Event` objects that the
rule code emitted while applying the decision, in order. Every event is a frozen value with

- ``rule``: the id of the spec rule that makes it happen;
- ``visible_to``: ``None`` when every player sees it, else the seats that do (a card drawn from
  the deck is seen by its drawer alone);
- ``gains``: the Glory it awards, as ``(seat, amount)`` pairs; over a whole game they add up to
  every seat's final Glory;
- ``str(event)``: one plain-English sentence, citing the rule.

The rule modules emit events with :func:`emit`, which does nothing unless a :func:`trace` is
under way, so :func:`~ethnos_rules.apply` pays one test per event and builds none.

>>> from ethnos_rules import parse_action, position, step
>>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={0: "ORC-red ORC-red"})
>>> for event in step(state, parse_action("band *ORC-red ORC-red")).events:
...     print(event)
Seat 0 plays a band of 2 cards (*ORC-red ORC-red), led by ORC-red (Orcs) (BAND-4).
The band may place a marker: 2 cards > 0 markers of seat 0 in Rhea (BAND-5).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import ClassVar, Literal, ParamSpec, TypeVar

import attrs

from .components import Card, Colour, Kingdom, Tribe
from .state import AgeSummary, Band, GameState, copy_player, copy_state
from .words import ROMAN, and_list, cards_list, ordinal, plural, seats_text

P = ParamSpec("P")
T = TypeVar("T")

Gains = tuple[tuple[int, int], ...]
"""Glory awarded by an event, as ``(seat, amount)`` pairs."""


@attrs.frozen(slots=True)
class Event:
    """Something a decision did. Subclasses say what, with the numbers the rule used."""

    @property
    def rule(self) -> str:
        """The id of the spec rule that makes this happen."""
        raise NotImplementedError

    @property
    def visible_to(self) -> frozenset[int] | None:
        """``None`` when every player sees this, else the seats that do."""
        return None

    @property
    def gains(self) -> Gains:
        """The Glory this awards, as ``(seat, amount)`` pairs; ``()`` for most events."""
        return ()


# --- recording ------------------------------------------------------------------------------------


class _Recorder(threading.local):
    """The events of the trace under way in this thread, or None."""

    events: list[Event] | None = None


_RECORDER = _Recorder()
_TRACES = 0
"""Traces under way in any thread: while there are none, :func:`emit` returns at once."""
_COUNTING = threading.Lock()


def emit(make: Callable[P, Event], /, *args: P.args, **kwargs: P.kwargs) -> None:
    """Record ``make(*args, **kwargs)`` if a :func:`trace` is under way; else build nothing."""
    if not _TRACES:
        return
    events = _RECORDER.events
    if events is not None:
        events.append(make(*args, **kwargs))


def recording() -> bool:
    """True while a :func:`trace` is under way in this thread: an event built only to be told
    (one that awards nothing) is worth building."""
    return _RECORDER.events is not None


def credit(state: GameState, event: Event) -> GameState:
    """``state`` with the event's ``gains`` added to the players' Glory; the event is recorded.

    Every Glory a player earns goes through here (or :func:`credit_all`), so the events' gains
    add up to the Glory.
    """
    return credit_all(state, (event,))


def credit_all(state: GameState, events: Sequence[Event]) -> GameState:
    """``state`` with the ``gains`` of every event added to the players' Glory, in one copy of
    the state; the events are recorded in order."""
    recorded = _RECORDER.events
    if recorded is not None:
        recorded.extend(events)
    glory: list[int] | None = None
    for event in events:
        for seat, amount in event.gains:
            if glory is None:
                glory = [p.glory for p in state.players]
            glory[seat] += amount
    if glory is None:
        return state
    players = tuple(
        [
            p if p.glory == total else copy_player(p, glory=total)
            for p, total in zip(state.players, glory, strict=True)
        ]
    )
    return copy_state(state, players=players)


def trace(run: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> tuple[T, tuple[Event, ...]]:
    """``run(*args, **kwargs)`` and the events it emitted. If it raises, nothing is kept."""
    global _TRACES
    outer = _RECORDER.events
    events: list[Event] = []
    _RECORDER.events = events
    with _COUNTING:
        _TRACES += 1
    try:
        result = run(*args, **kwargs)
    finally:
        with _COUNTING:
            _TRACES -= 1
        _RECORDER.events = outer
    return result, tuple(events)


def _only(seat: int) -> frozenset[int]:
    return frozenset((seat,))


# --- setup and the beginning of an Age (SETUP, AGE) --------------------------------------------


@attrs.frozen(slots=True)
class TribeChosen(Event):
    """Chance chose one more tribe for play (SETUP-3).

    >>> from ethnos_rules import TribeChosen, card
    >>> print(TribeChosen(card("ELF-red").tribe))
    The Elves are chosen at random (SETUP-3).
    """

    tribe: Tribe
    rule: ClassVar[str] = "SETUP-3"

    def __str__(self) -> str:
        return f"The {self.tribe.name} are chosen at random (SETUP-3)."


@attrs.frozen(slots=True)
class TribesInPlay(Event):
    """Every tribe of the game is known; the deck is built from their cards (SETUP-3).

    Attributes:
        tribes: The tribes in play.
        by_chance: Whether chance chose them (else the caller gave them).

    >>> from ethnos_rules import FIRST_EDITION, TribesInPlay
    >>> print(TribesInPlay(FIRST_EDITION.tribes[:5], by_chance=False))
    Tribes in play (given): Centaurs, Dwarves, Elves, Giants, Halflings (SETUP-3).
    """

    tribes: tuple[Tribe, ...]
    by_chance: bool
    rule: ClassVar[str] = "SETUP-3"

    def __str__(self) -> str:
        how = "chosen at random" if self.by_chance else "given"
        names = ", ".join(t.name for t in self.tribes)
        return f"Tribes in play ({how}): {names} (SETUP-3)."


@attrs.frozen(slots=True)
class TokensLaid(Event):
    """The glory tokens of one kingdom, lowest on space I (SETUP-4).

    >>> from ethnos_rules import Kingdom, TokensLaid
    >>> print(TokensLaid(Kingdom.RHEA, (2, 4, 8), by_chance=True))
    Rhea gets the glory tokens 2/4/8, laid at random (SETUP-4).
    """

    kingdom: Kingdom
    values: tuple[int, ...]
    by_chance: bool
    rule: ClassVar[str] = "SETUP-4"

    def __str__(self) -> str:
        how = "laid at random" if self.by_chance else "given"
        return f"{self.kingdom.label} gets the glory tokens {self.tokens_text}, {how} (SETUP-4)."

    @property
    def tokens_text(self) -> str:
        """The values as ``2/4/8``."""
        return "/".join(map(str, self.values))


@attrs.frozen(slots=True)
class AgeBegan(Event):
    """An Age begins; before Ages II and III every Ally card is gathered into the deck (AGE-1).

    >>> from ethnos_rules import AgeBegan
    >>> print(AgeBegan(2, 3))
    Age II of III begins: every Ally card goes back into the deck (AGE-1).
    """

    age: int
    ages: int
    rule: ClassVar[str] = "AGE-1"

    def __str__(self) -> str:
        head = f"Age {ROMAN[self.age]} of {ROMAN[self.ages]} begins"
        if self.age == 1:
            return f"{head} (AGE-1)."
        return f"{head}: every Ally card goes back into the deck (AGE-1)."


@attrs.frozen(slots=True)
class FirstPlayer(Event):
    """The first player of an Age (AGE-5).

    Attributes:
        seat: The first player.
        age: The Age.
        how: ``"given"``, ``"chance"`` (Age I) or ``"least_glory"`` (Ages II and III).
        least: The least Glory, in Ages II and III.
        tied: The seats with the least Glory, when several.
        counted_from: Where the clockwise count of a tie starts: the drawer of the last Dragon.

    >>> from ethnos_rules import FirstPlayer
    >>> print(FirstPlayer(2, 2, "least_glory", least=10, tied=(0, 2), counted_from=1))
    Seats 0 and 2 have the least Glory (10); going clockwise from seat 1, who drew the last
    Dragon, seat 2 comes first and is the first player (AGE-5).
    """

    seat: int
    age: int
    how: Literal["given", "chance", "least_glory"]
    least: int | None = None
    tied: tuple[int, ...] = ()
    counted_from: int | None = None
    rule: ClassVar[str] = "AGE-5"

    def __str__(self) -> str:
        if self.how == "given":
            return f"Seat {self.seat} is the first player (given) (AGE-5)."
        if self.how == "chance":
            return f"Seat {self.seat} is chosen at random as the first player (AGE-5)."
        if len(self.tied) <= 1:
            return (
                f"Seat {self.seat} has the least Glory ({self.least}) and is the first player"
                " (AGE-5)."
            )
        return (
            f"{seats_text(self.tied).capitalize()} have the least Glory ({self.least}); going"
            f" clockwise from seat {self.counted_from}, who drew the last Dragon, seat"
            f" {self.seat} comes first and is the first player (AGE-5)."
        )


Source = Literal["deal", "row", "deck", "wizard"]


@attrs.frozen(slots=True)
class CardDrawn(Event):
    """A card comes off the deck: dealt to a player (AGE-2), turned up into the row (AGE-3),
    recruited (RECRUIT-1) or drawn by Wizards (TRIBE-WIZ-1). Only a row card is seen by all.

    Attributes:
        card: The card.
        seat: Who receives it (None for the row).
        source: ``"deal"``, ``"row"``, ``"deck"`` or ``"wizard"``.

    >>> from ethnos_rules import CardDrawn, card
    >>> event = CardDrawn(card("ELF-red"), 2, "deck")
    >>> print(event)
    Seat 2 draws ELF-red from the deck (RECRUIT-1).
    >>> event.visible_to
    frozenset({2})
    """

    card: Card
    seat: int | None
    source: Source

    @property
    def rule(self) -> str:
        return _SOURCE_RULES[self.source]

    @property
    def visible_to(self) -> frozenset[int] | None:
        return None if self.seat is None else _only(self.seat)

    def __str__(self) -> str:
        return _drawn_text(str(self.card), self.seat, self.source)

    @staticmethod
    def unseen(seat: int, source: Source) -> str:
        """The sentence of a card drawn into the hand of ``seat``, told to a player who does
        not see the card (a record kept at another seat holds it as ``?``).

        >>> from ethnos_rules import CardDrawn
        >>> print(CardDrawn.unseen(1, "wizard"))
        Seat 1's Wizards draw a card (TRIBE-WIZ-1).
        """
        return _drawn_text("a card", seat, source)


def _drawn_text(card: str, seat: int | None, source: Source) -> str:
    rule = _SOURCE_RULES[source]
    if source == "row":
        return f"{card} is turned face up into the row ({rule})."
    if source == "deal":
        return f"Seat {seat} is dealt {card} ({rule})."
    if source == "wizard":
        return f"Seat {seat}'s Wizards draw {card} ({rule})."
    return f"Seat {seat} draws {card} from the deck ({rule})."


_SOURCE_RULES = {"deal": "AGE-2", "row": "AGE-3", "deck": "RECRUIT-1", "wizard": "TRIBE-WIZ-1"}


@attrs.frozen(slots=True)
class DeckSplit(Event):
    """The deck is split; the Dragons go into the bottom part (AGE-4).

    >>> from ethnos_rules import DeckSplit
    >>> print(DeckSplit(top=31, bottom=32, dragons=3))
    The deck is split: the top 31 cards hold no Dragon; the 3 Dragons are shuffled into the
    other 32 (AGE-4).
    """

    top: int
    bottom: int
    dragons: int
    rule: ClassVar[str] = "AGE-4"

    def __str__(self) -> str:
        return (
            f"The deck is split: the top {self.top} cards hold no Dragon; the {self.dragons}"
            f" Dragons are shuffled into the other {self.bottom} (AGE-4)."
        )


# --- a turn (TURN, RECRUIT) -------------------------------------------------------------------


@attrs.frozen(slots=True)
class Recruited(Event):
    """A player recruits: takes a card from the row, or draws from the deck (``card`` None)
    (RECRUIT-1). The drawn card itself is a :class:`CardDrawn`.

    >>> from ethnos_rules import Recruited, card
    >>> print(Recruited(0, card("DWA-red")))
    Seat 0 recruits DWA-red from the row (RECRUIT-1).
    >>> print(Recruited(1, None))
    Seat 1 recruits from the deck (RECRUIT-1).
    """

    seat: int
    card: Card | None
    rule: ClassVar[str] = "RECRUIT-1"

    def __str__(self) -> str:
        if self.card is None:
            return f"Seat {self.seat} recruits from the deck (RECRUIT-1)."
        return f"Seat {self.seat} recruits {self.card} from the row (RECRUIT-1)."


@attrs.frozen(slots=True)
class Passed(Event):
    """A player with a full hand that forms no band passes (TURN-3).

    >>> from ethnos_rules import Passed
    >>> print(Passed(3, 10))
    Seat 3 holds 10 cards that form no band and passes (TURN-3).
    """

    seat: int
    hand: int
    rule: ClassVar[str] = "TURN-3"

    def __str__(self) -> str:
        return f"Seat {self.seat} holds {self.hand} cards that form no band and passes (TURN-3)."


@attrs.frozen(slots=True)
class DragonRevealed(Event):
    """A Dragon is drawn: set aside, and the drawer draws again (RECRUIT-3); the last one ends
    the Age at once (RECRUIT-4).

    Attributes:
        seat: The drawer.
        number: Which Dragon of the Age this is (1, 2, 3).
        dragons: Dragons in the game.
        age: The Age.
        ends_age: Whether it ends the Age (the last Dragon).
        wizards: Whether Wizards drew it.

    >>> from ethnos_rules import DragonRevealed
    >>> print(DragonRevealed(1, 3, 3, age=2, ends_age=True))
    Seat 1 draws the third Dragon: Age II ends at once, and nothing else of the turn happens
    (RECRUIT-4).
    """

    seat: int
    number: int
    dragons: int
    age: int
    ends_age: bool
    wizards: bool = False

    @property
    def rule(self) -> str:
        return "RECRUIT-4" if self.ends_age else "RECRUIT-3"

    def __str__(self) -> str:
        who = f"Seat {self.seat}'s Wizards draw" if self.wizards else f"Seat {self.seat} draws"
        if self.ends_age:
            lost = " (the remaining Wizard draws are lost)" if self.wizards else ""
            return (
                f"{who} the third Dragon: Age {ROMAN[self.age]} ends at once, and nothing else"
                f" of the turn happens{lost} (RECRUIT-4)."
            )
        return (
            f"{who} a Dragon ({ordinal(self.number)} of {self.dragons}): it is set aside and"
            f" seat {self.seat} draws again (RECRUIT-3)."
        )


# --- a band (BAND) ----------------------------------------------------------------------------


@attrs.frozen(slots=True)
class BandPlayed(Event):
    """A player lays down a band and names its Leader (BAND-4).

    Attributes:
        seat: The player.
        band: The band, Leader first.
        chain: 0 for the turn's first band, 1 for a band a Centaur chain allows, and so on.

    >>> from ethnos_rules import Band, BandPlayed, card
    >>> print(BandPlayed(0, Band(card("ELF-red"), (card("ELF-blue"),)), chain=0))
    Seat 0 plays a band of 2 cards (*ELF-red ELF-blue), led by ELF-red (Elves) (BAND-4).
    """

    seat: int
    band: Band
    chain: int
    rule: ClassVar[str] = "BAND-4"

    def __str__(self) -> str:
        leader = self.band.leader
        intro = (
            f"Centaurs: seat {self.seat} plays another band"
            if self.chain
            else (f"Seat {self.seat} plays a band")
        )
        return (
            f"{intro} of {plural(self.band.size, 'card')} ({self.band}), led by {leader}"
            f" ({leader.tribe.name}) (BAND-4)."
        )


Blocked = Literal["never", "supply"]


@attrs.frozen(slots=True)
class PlacementTest(Event):
    """Whether the band just laid may place a marker, with the numbers of the size test
    (BAND-5, TRIBE-HAL-1, TRIBE-MIN-1, TRIBE-WIN-1).

    Attributes:
        seat: The player.
        leader: The band's Leader.
        size: X, the band's size.
        bonus: The Leader's placement bonus (1 for Minotaurs).
        counted: For each kingdom tested, the markers the band must be larger than: the
            player's own, or both players' in a 2-player game.
        allowed: The kingdoms where it may place.
        blocked: Why nothing is tested: ``"never"`` (a Halfling Leader), ``"supply"`` (no
            marker left), or None.
        any_kingdom: Whether the Leader may choose the kingdom (Wingfolk).

    >>> from ethnos_rules import Kingdom, PlacementTest, card
    >>> print(PlacementTest(0, card("ELF-red"), 2, 0, ((Kingdom.RHEA, (1, 2)),), ()))
    No marker: 2 cards are not more than both players' 1 + 2 = 3 markers in Rhea (the 2-player
    rule) (BAND-5).
    """

    seat: int
    leader: Card
    size: int
    bonus: int
    counted: tuple[tuple[Kingdom, tuple[int, ...]], ...]
    allowed: tuple[Kingdom, ...]
    blocked: Blocked | None = None
    any_kingdom: bool = False

    @property
    def rule(self) -> str:
        return "TRIBE-HAL-1" if self.blocked == "never" else "BAND-5"

    @property
    def effective(self) -> int:
        """X plus the Leader's bonus: what the test compares."""
        return self.size + self.bonus

    def __str__(self) -> str:
        return f"{self._verdict()}: {self.reason} ({self.rule})."

    def _verdict(self) -> str:
        return "The band may place a marker" if self.allowed else "No marker"

    @property
    def reason(self) -> str:
        """The test in words, with its numbers."""
        if self.blocked == "never":
            return "a Halfling-led band never places a marker"
        if self.blocked == "supply":
            return f"seat {self.seat} has no marker left in supply, so none can be placed"
        size = plural(self.size, "card")
        if self.bonus:
            size += f" + {self.bonus} for the Minotaur Leader = {self.effective}"
        if not self.any_kingdom:
            kingdom, counted = self.counted[0]
            return self._test_text(kingdom, counted, size)
        return self._any_kingdom_text(size)

    def _test_text(self, kingdom: Kingdom, counted: tuple[int, ...], size: str) -> str:
        need = sum(counted)
        where = kingdom.label
        if len(counted) == 2:
            both = f"{counted[0]} + {counted[1]} = {plural(need, 'marker')}"
            if self.effective > need:
                return f"{size} > {both} of both players in {where}"
            verb = "are" if size.endswith("cards") or self.bonus else "is"
            return (
                f"{size} {verb} not more than both players' {both} in {where} (the 2-player rule)"
            )
        if self.effective > need:
            return f"{size} > {plural(need, 'marker')} of seat {self.seat} in {where}"
        verb = "are" if size.endswith("cards") or self.bonus else "is"
        return (
            f"{size} {verb} not more than the {plural(need, 'marker')} seat {self.seat} already"
            f" has in {where}"
        )

    def _any_kingdom_text(self, size: str) -> str:
        whose = "both players'" if len(self.counted[0][1]) == 2 else f"seat {self.seat}'s"
        text = (
            f"a Wingfolk-led band of {size} may place in any kingdom where it is larger than"
            f" {whose} markers there (TRIBE-WIN-1): "
        )
        refused = [(k, sum(c)) for k, c in self.counted if k not in self.allowed]
        if not self.allowed:
            least = min(n for _, n in refused)
            return text + f"no kingdom qualifies, every one has at least {least}"
        text += "it may in " + ", ".join(k.label for k in self.allowed)
        if refused:
            text += "; not in " + ", ".join(f"{k.label} ({n})" for k, n in refused)
        return text


Reason = Literal["band", "checkpoint"]


@attrs.frozen(slots=True)
class MarkerPlaced(Event):
    """A marker goes from supply onto a kingdom: the band's (BAND-5; automatic under
    ``placement=mandatory`` with one choice, BAND-5a) or a Merfolk checkpoint's (TRIBE-MER-2).

    >>> from ethnos_rules import Kingdom, MarkerPlaced
    >>> print(MarkerPlaced(1, Kingdom.DURIS, "band", now=2))
    Seat 1 places a marker in Duris (now 2 there) (BAND-5).
    >>> print(MarkerPlaced(1, Kingdom.DURIS, "checkpoint", now=3))
    Merfolk: seat 1 places a checkpoint marker in Duris, whatever the band's size (TRIBE-MER-2).
    """

    seat: int
    kingdom: Kingdom
    reason: Reason
    now: int
    forced: bool = False

    @property
    def rule(self) -> str:
        if self.reason == "checkpoint":
            return "TRIBE-MER-2"
        return "BAND-5a" if self.forced else "BAND-5"

    def __str__(self) -> str:
        where = self.kingdom.label
        if self.reason == "checkpoint":
            return (
                f"Merfolk: seat {self.seat} places a checkpoint marker in {where}, whatever the"
                " band's size (TRIBE-MER-2)."
            )
        if self.forced:
            return (
                f"Seat {self.seat} places a marker in {where} (now {self.now} there): placing is"
                " mandatory (BAND-5a)."
            )
        return f"Seat {self.seat} places a marker in {where} (now {self.now} there) (BAND-5)."


@attrs.frozen(slots=True)
class PlacementDeclined(Event):
    """The player chooses not to place the band's marker (BAND-5a).

    >>> from ethnos_rules import PlacementDeclined
    >>> print(PlacementDeclined(0))
    Seat 0 chooses not to place a marker (BAND-5a).
    """

    seat: int
    rule: ClassVar[str] = "BAND-5a"

    def __str__(self) -> str:
        return f"Seat {self.seat} chooses not to place a marker (BAND-5a)."


@attrs.frozen(slots=True)
class RestToRow(Event):
    """The rest of the hand goes face up into the row (BAND-6); Elves may keep some of it.

    >>> from ethnos_rules import RestToRow, card
    >>> print(RestToRow(2, (card("DWA-red"), card("SKE"))))
    The rest of seat 2's hand goes face up into the row: DWA-red SKE (BAND-6).
    """

    seat: int
    cards: tuple[Card, ...]
    rule: ClassVar[str] = "BAND-6"

    def __str__(self) -> str:
        return (
            f"The rest of seat {self.seat}'s hand goes face up into the row:"
            f" {cards_list(self.cards)} (BAND-6)."
        )


# --- tribe abilities (TRIBE) ------------------------------------------------------------------


@attrs.frozen(slots=True)
class ChainOffered(Event):
    """A Centaur-led band placed a marker: another band may follow (TRIBE-CEN-1).

    >>> from ethnos_rules import ChainOffered
    >>> print(ChainOffered(0))
    Centaurs: the band placed a marker, so seat 0 may play another band from the rest of the
    hand (TRIBE-CEN-1).
    """

    seat: int
    rule: ClassVar[str] = "TRIBE-CEN-1"

    def __str__(self) -> str:
        return (
            f"Centaurs: the band placed a marker, so seat {self.seat} may play another band from"
            " the rest of the hand (TRIBE-CEN-1)."
        )


@attrs.frozen(slots=True)
class ChainStopped(Event):
    """The player plays no further band in the Centaur chain (TRIBE-CEN-1).

    >>> from ethnos_rules import ChainStopped
    >>> print(ChainStopped(0))
    Seat 0 ends the Centaur chain (TRIBE-CEN-1).
    """

    seat: int
    rule: ClassVar[str] = "TRIBE-CEN-1"

    def __str__(self) -> str:
        return f"Seat {self.seat} ends the Centaur chain (TRIBE-CEN-1)."


@attrs.frozen(slots=True)
class GiantTokenTaken(Event):
    """A Giant-led band larger than every other this Age: Glory at once and the Giant token
    (TRIBE-GIA-1).

    Attributes:
        seat: The player.
        size: X of the band.
        previous: X of the largest Giant-led band before it (0 for none).
        glory: The Glory gained.

    >>> from ethnos_rules import GiantTokenTaken
    >>> event = GiantTokenTaken(1, size=3, previous=2, glory=2)
    >>> print(event)
    Giants: the band (3) is larger than every other Giant-led band this Age (2): seat 1 gains 2
    Glory and takes the Giant token (TRIBE-GIA-1).
    >>> event.gains
    ((1, 2),)
    """

    seat: int
    size: int
    previous: int
    glory: int
    rule: ClassVar[str] = "TRIBE-GIA-1"

    @property
    def gains(self) -> Gains:
        return ((self.seat, self.glory),)

    def __str__(self) -> str:
        if self.previous:
            why = f"larger than every other Giant-led band this Age ({self.previous})"
        else:
            why = "the first Giant-led band this Age"
        return (
            f"Giants: the band ({self.size}) is {why}: seat {self.seat} gains {self.glory} Glory"
            " and takes the Giant token (TRIBE-GIA-1)."
        )


@attrs.frozen(slots=True)
class GiantTokenMissed(Event):
    """A Giant-led band that is not larger than the largest this Age: nothing (TRIBE-GIA-1).

    >>> from ethnos_rules import GiantTokenMissed
    >>> print(GiantTokenMissed(0, size=2, largest=3))
    Giants: the band (2) is not larger than the largest Giant-led band this Age (3): no Glory, no
    token (TRIBE-GIA-1).
    """

    seat: int
    size: int
    largest: int
    rule: ClassVar[str] = "TRIBE-GIA-1"

    def __str__(self) -> str:
        return (
            f"Giants: the band ({self.size}) is not larger than the largest Giant-led band this"
            f" Age ({self.largest}): no Glory, no token (TRIBE-GIA-1)."
        )


@attrs.frozen(slots=True)
class MerfolkMoved(Event):
    """The Merfolk marker moves X spaces (TRIBE-MER-1), earning markers at the checkpoints it
    reaches or passes (TRIBE-MER-2).

    Attributes:
        seat: The player.
        start: The space it left.
        end: The space it reached (the last space at most).
        spaces: X, the spaces it was to move.
        checkpoints: The checkpoints reached or passed.
        markers: The checkpoint markers earned (one per move under
            ``merfolk_checkpoints=one_per_move``).

    >>> from ethnos_rules import MerfolkMoved
    >>> print(MerfolkMoved(0, start=0, end=7, spaces=7, checkpoints=(3, 7), markers=1))
    Merfolk: seat 0's marker moves 7 spaces, from 0 to 7, reaching checkpoints 3 and 7: 1 marker
    for any kingdom (TRIBE-MER-1, TRIBE-MER-2).
    """

    seat: int
    start: int
    end: int
    spaces: int
    checkpoints: tuple[int, ...]
    markers: int

    @property
    def rule(self) -> str:
        return "TRIBE-MER-2" if self.checkpoints else "TRIBE-MER-1"

    def __str__(self) -> str:
        text = (
            f"Merfolk: seat {self.seat}'s marker moves {plural(self.spaces, 'space')}, from"
            f" {self.start} to {self.end}"
        )
        if self.start + self.spaces > self.end:
            text += " (the end of the track)"
        if not self.checkpoints:
            return text + " (TRIBE-MER-1)."
        which = "checkpoint" if len(self.checkpoints) == 1 else "checkpoints"
        reached = and_list([str(c) for c in self.checkpoints])
        return (
            f"{text}, reaching {which} {reached}: {plural(self.markers, 'marker')} for any"
            " kingdom (TRIBE-MER-1, TRIBE-MER-2)."
        )


@attrs.frozen(slots=True)
class CheckpointDeclined(Event):
    """The player places no marker for a checkpoint (TRIBE-MER-2).

    >>> from ethnos_rules import CheckpointDeclined
    >>> print(CheckpointDeclined(0))
    Merfolk: seat 0 places no checkpoint marker (TRIBE-MER-2).
    """

    seat: int
    rule: ClassVar[str] = "TRIBE-MER-2"

    def __str__(self) -> str:
        return f"Merfolk: seat {self.seat} places no checkpoint marker (TRIBE-MER-2)."


@attrs.frozen(slots=True)
class CheckpointsLost(Event):
    """Checkpoint markers earned but not placed: the supply is empty (TRIBE-MER-2).

    >>> from ethnos_rules import CheckpointsLost
    >>> print(CheckpointsLost(0, 2))
    Merfolk: seat 0 has no marker left in supply for 2 checkpoint markers (TRIBE-MER-2).
    """

    seat: int
    markers: int
    rule: ClassVar[str] = "TRIBE-MER-2"

    def __str__(self) -> str:
        return (
            f"Merfolk: seat {self.seat} has no marker left in supply for"
            f" {plural(self.markers, 'checkpoint marker')} (TRIBE-MER-2)."
        )


@attrs.frozen(slots=True)
class HordeMarkerAdded(Event):
    """A marker from supply onto the Horde space of the Leader's colour (TRIBE-ORC-1).

    >>> from ethnos_rules import Colour, HordeMarkerAdded
    >>> print(HordeMarkerAdded(0, Colour.RED))
    Orcs: seat 0 puts a marker on the red space of the Horde (TRIBE-ORC-1).
    """

    seat: int
    colour: Colour
    rule: ClassVar[str] = "TRIBE-ORC-1"

    def __str__(self) -> str:
        return (
            f"Orcs: seat {self.seat} puts a marker on the {self.colour} space of the Horde"
            " (TRIBE-ORC-1)."
        )


@attrs.frozen(slots=True)
class HordeDeclined(Event):
    """The player adds no marker to the Horde (TRIBE-ORC-1).

    >>> from ethnos_rules import HordeDeclined
    >>> print(HordeDeclined(0))
    Orcs: seat 0 does not add to the Horde (TRIBE-ORC-1).
    """

    seat: int
    rule: ClassVar[str] = "TRIBE-ORC-1"

    def __str__(self) -> str:
        return f"Orcs: seat {self.seat} does not add to the Horde (TRIBE-ORC-1)."


@attrs.frozen(slots=True)
class HordeBlocked(Event):
    """No marker can go on the Horde: its space is taken, or the supply is empty (TRIBE-ORC-1).

    >>> from ethnos_rules import Colour, HordeBlocked
    >>> print(HordeBlocked(0, Colour.RED, "taken"))
    Orcs: the red space of seat 0's Horde is already taken (TRIBE-ORC-1).
    """

    seat: int
    colour: Colour
    why: Literal["taken", "supply"]
    rule: ClassVar[str] = "TRIBE-ORC-1"

    def __str__(self) -> str:
        if self.why == "taken":
            return (
                f"Orcs: the {self.colour} space of seat {self.seat}'s Horde is already taken"
                " (TRIBE-ORC-1)."
            )
        return f"Orcs: seat {self.seat} has no marker left for the Horde (TRIBE-ORC-1)."


@attrs.frozen(slots=True)
class TrollTokenTaken(Event):
    """The player takes an unclaimed Troll token worth X or less (TRIBE-TRO-1).

    >>> from ethnos_rules import TrollTokenTaken
    >>> print(TrollTokenTaken(0, 4, size=5))
    Trolls: seat 0 takes the Troll token 4 (X = 5) (TRIBE-TRO-1).
    """

    seat: int
    value: int
    size: int
    rule: ClassVar[str] = "TRIBE-TRO-1"

    def __str__(self) -> str:
        return (
            f"Trolls: seat {self.seat} takes the Troll token {self.value} (X = {self.size})"
            " (TRIBE-TRO-1)."
        )


@attrs.frozen(slots=True)
class TrollDeclined(Event):
    """The player takes no Troll token (TRIBE-TRO-1); ``none_left`` when none was worth X or
    less.

    >>> from ethnos_rules import TrollDeclined
    >>> print(TrollDeclined(0, size=2, none_left=True))
    Trolls: no unclaimed Troll token is worth 2 or less (TRIBE-TRO-1).
    """

    seat: int
    size: int
    none_left: bool = False
    rule: ClassVar[str] = "TRIBE-TRO-1"

    def __str__(self) -> str:
        if self.none_left:
            return f"Trolls: no unclaimed Troll token is worth {self.size} or less (TRIBE-TRO-1)."
        return f"Trolls: seat {self.seat} takes no Troll token (TRIBE-TRO-1)."


@attrs.frozen(slots=True)
class CardKept(Event):
    """Elves keep one card of the rest of the hand, seen by its owner alone (TRIBE-ELF-1).

    >>> from ethnos_rules import CardKept, card
    >>> event = CardKept(0, card("ELF-red"), limit=3)
    >>> print(event); event.visible_to
    Elves: seat 0 keeps ELF-red (up to X = 3) (TRIBE-ELF-1).
    frozenset({0})
    """

    seat: int
    card: Card
    limit: int
    rule: ClassVar[str] = "TRIBE-ELF-1"

    @property
    def visible_to(self) -> frozenset[int]:
        return _only(self.seat)

    def __str__(self) -> str:
        return f"Elves: seat {self.seat} keeps {self.card} (up to X = {self.limit}) (TRIBE-ELF-1)."

    @staticmethod
    def unseen(seat: int) -> str:
        """The sentence told to a player who does not see the card kept.

        >>> from ethnos_rules import CardKept
        >>> print(CardKept.unseen(0))
        Elves: seat 0 keeps a card (TRIBE-ELF-1).
        """
        return f"Elves: seat {seat} keeps a card (TRIBE-ELF-1)."


@attrs.frozen(slots=True)
class KeepingDone(Event):
    """Elves stop keeping; how many cards were kept is public (TRIBE-ELF-1).

    >>> from ethnos_rules import KeepingDone
    >>> print(KeepingDone(0, kept=2, limit=3))
    Elves: seat 0 keeps 2 cards (up to X = 3) (TRIBE-ELF-1).
    """

    seat: int
    kept: int
    limit: int
    rule: ClassVar[str] = "TRIBE-ELF-1"

    def __str__(self) -> str:
        what = plural(self.kept, "card") if self.kept else "nothing"
        return f"Elves: seat {self.seat} keeps {what} (up to X = {self.limit}) (TRIBE-ELF-1)."


@attrs.frozen(slots=True)
class WizardsDraw(Event):
    """Wizards draw ``count`` cards from the deck after discarding, or none (TRIBE-WIZ-1).

    >>> from ethnos_rules import WizardsDraw
    >>> print(WizardsDraw(0, count=3))
    Wizards: seat 0 draws 3 cards from the deck (TRIBE-WIZ-1).
    """

    seat: int
    count: int
    rule: ClassVar[str] = "TRIBE-WIZ-1"

    def __str__(self) -> str:
        if not self.count:
            return f"Wizards: seat {self.seat} draws nothing (TRIBE-WIZ-1)."
        return (
            f"Wizards: seat {self.seat} draws {plural(self.count, 'card')} from the deck"
            " (TRIBE-WIZ-1)."
        )


# --- the end of an Age (END, SCORE) -----------------------------------------------------------


@attrs.frozen(slots=True)
class AgeEnded(Event):
    """The third Dragon ends the Age; scoring follows (RECRUIT-4, END).

    >>> from ethnos_rules import AgeEnded
    >>> print(AgeEnded(1, drawer=2))
    Age I is over: seat 2 drew the third Dragon (RECRUIT-4).
    """

    age: int
    drawer: int
    rule: ClassVar[str] = "RECRUIT-4"

    def __str__(self) -> str:
        return (
            f"Age {ROMAN[self.age]} is over: seat {self.drawer} drew the third Dragon (RECRUIT-4)."
        )


@attrs.frozen(slots=True)
class HandDiscarded(Event):
    """A player's hand is discarded at the end of the Age, unseen by the others (END-1).

    >>> from ethnos_rules import HandDiscarded, card
    >>> print(HandDiscarded(1, (card("ELF-red"),)))
    Seat 1 discards the hand: ELF-red (END-1).
    """

    seat: int
    cards: tuple[Card, ...]
    rule: ClassVar[str] = "END-1"

    @property
    def visible_to(self) -> frozenset[int]:
        return _only(self.seat)

    def __str__(self) -> str:
        return f"Seat {self.seat} discards the hand: {cards_list(self.cards)} (END-1)."


@attrs.frozen(slots=True, weakref_slot=False)  # built through a draft (frozen.py)
class Prize:
    """An award: the glory token (or Merfolk value) on a space, I being 1."""

    space: int
    value: int

    def __str__(self) -> str:
        return f"{ROMAN[self.space]} = {self.value}"


@attrs.frozen(slots=True, weakref_slot=False)  # built through a draft (frozen.py)
class TieGroup:
    """Players ranked together in one kingdom or on the Merfolk board (SCORE-K-3).

    Attributes:
        seats: The players, in seat order.
        value: Their markers (or Merfolk space).
        trolls: The Troll tokens they were ranked by, as (total, highest), or None where Troll
            tokens did not count (``troll_tiebreak=first_only`` below first place).
        first_rank: The best rank they cover; they cover ``len(seats)`` ranks.
        prizes: The awards of the ranks they share.
        share: What each member earns: the prizes' sum divided by the group's size, rounded
            down.
    """

    seats: tuple[int, ...]
    value: int
    trolls: tuple[int, int] | None
    first_rank: int
    prizes: tuple[Prize, ...]
    share: int

    @property
    def total(self) -> int:
        """The sum of the prizes shared."""
        return sum(p.value for p in self.prizes)


@attrs.frozen(slots=True)
class AreaScored(Event):
    """A kingdom (END-2) or the Merfolk board (TRIBE-MER-3) is scored: its ranking, tie groups,
    Troll tie-breaks and awards (SCORE-K-1..3, SCORE-2P-1).

    Attributes:
        kingdom: The kingdom, or None for the Merfolk board.
        age: The Age.
        tokens: The glory tokens (or the board's values) on spaces I, II, III.
        values: Each seat's markers (or Merfolk space).
        groups: The contenders in tie groups, best first.
        scheme: ``"ranks"`` (SCORE-K-2), ``"first_only"`` (``merfolk_scoring=first_only``) or
            ``"two_player_final"`` (SCORE-2P-1).
        awards: What each seat earns, by seat.

    >>> from ethnos_rules import AreaScored, Kingdom, Prize, TieGroup
    >>> group = TieGroup((0, 1), 2, (0, 0), 1, (Prize(2, 4), Prize(1, 2)), 3)
    >>> event = AreaScored(Kingdom.RHEA, 2, (2, 4, 8), (2, 2, 0), (group,), "ranks", (3, 3, 0))
    >>> print(event)
    Rhea (tokens 2/4/8; markers: seat 0 2, seat 1 2): seats 0 and 1 tie for 1st and 2nd and
    share 4 + 2 = 6: 3 each (SCORE-K-3).
    >>> event.gains
    ((0, 3), (1, 3))
    """

    kingdom: Kingdom | None
    age: int
    tokens: tuple[int, ...]
    values: tuple[int, ...]
    groups: tuple[TieGroup, ...]
    scheme: Literal["ranks", "first_only", "two_player_final"]
    awards: tuple[int, ...]

    @property
    def rule(self) -> str:
        if self.scheme == "two_player_final":
            return "SCORE-2P-1"
        if not self.groups:
            return "SCORE-K-1"
        if self.kingdom is None:
            return "TRIBE-MER-3"
        tied = any(len(g.seats) > 1 and g.prizes for g in self.groups) or self._tie_breaks()
        return "SCORE-K-3" if tied else "SCORE-K-2"

    @property
    def gains(self) -> Gains:
        return tuple([(seat, n) for seat, n in enumerate(self.awards) if n])

    @property
    def name(self) -> str:
        """``"Rhea"`` or ``"the Merfolk board"``."""
        return self.kingdom.label if self.kingdom is not None else "the Merfolk board"

    def __str__(self) -> str:
        if not self.groups:
            return f"{self.name[0].upper()}{self.name[1:]}: nobody has a marker there (SCORE-K-1)."
        unit = "markers" if self.kingdom is not None else "spaces"
        standing = ", ".join(f"seat {s} {self.values[s]}" for g in self.groups for s in g.seats)
        values = "/".join(map(str, self.tokens))
        if self.kingdom is None:
            head = f"The Merfolk board (TRIBE-MER-3; values {values}; {unit}: {standing}): "
        else:
            head = f"{self.name} (tokens {values}; {unit}: {standing}): "
        parts = self._tie_breaks()
        if self.scheme == "two_player_final":
            parts += self._two_player_final()
        else:
            parts += self._ranks()
        return head + "; ".join(parts) + "."

    def _tie_breaks(self) -> list[str]:
        out = []
        for upper, lower in zip(self.groups, self.groups[1:], strict=False):
            if upper.value == lower.value and upper.trolls and lower.trolls:
                (a, x), (b, y) = upper.trolls, lower.trolls
                numbers = f"{a} to {b}" if a != b else f"highest {x} to {y}"
                out.append(
                    f"{seats_text(upper.seats)} ahead of {seats_text(lower.seats)} on Troll"
                    f" tokens ({numbers}) (SCORE-K-3)"
                )
        return out

    def _ranks(self) -> list[str]:
        parts: list[str] = []
        if self.scheme == "first_only":
            parts.append("only the players furthest ahead earn (merfolk_scoring=first_only)")
        unpaid: list[int] = []
        for group in self.groups:
            if not group.prizes:
                unpaid += group.seats
            elif len(group.seats) == 1:
                prizes = " + ".join(map(str, group.prizes))
                parts.append(
                    f"seat {group.seats[0]} is {ordinal(group.first_rank)} and earns {prizes}"
                )
            else:
                parts.append(self._tie_text(group))
        if unpaid:
            why = "(TRIBE-MER-3)"
            if self.scheme == "ranks":
                places = plural(min(self.age, len(self.tokens)), "place")
                why = f"(Age {ROMAN[self.age]} pays {places})"
            parts.append(f"nothing for {seats_text(sorted(unpaid))} {why}")
        if not any("(SCORE-K-3)" in part for part in parts):
            parts[-1] += " (SCORE-K-2)"
        return parts

    def _tie_text(self, group: TieGroup) -> str:
        first, k = group.first_rank, len(group.seats)
        last = first + k - 1
        ranks = (
            f"{ordinal(first)} and {ordinal(last)}"
            if k == 2
            else (f"{ordinal(first)} to {ordinal(last)}")
        )
        if self.scheme == "first_only":
            ranks = ordinal(first)
        shares = " + ".join(str(p.value) for p in group.prizes)
        rounded = ", rounded down" if group.total % k else ""
        return (
            f"{seats_text(group.seats)} tie for {ranks} and share {shares} = {group.total}:"
            f" {group.share} each{rounded} (SCORE-K-3)"
        )

    def _two_player_final(self) -> list[str]:
        first = self.groups[0]
        pot = " + ".join(ROMAN[p.space] for p in first.prizes)
        if len(first.prizes) > 1:
            pot += " = " + " + ".join(str(p.value) for p in first.prizes)
        pot += f" = {first.total}"
        if len(first.seats) == 2:
            return [f"seats 0 and 1 tie for first and split {pot}: {first.share} each (SCORE-2P-1)"]
        seat = first.seats[0]
        if len(self.groups) == 1:
            return [f"only seat {seat} is there and earns {pot} (SCORE-2P-1)"]
        second = self.groups[1].seats[0]
        return [
            f"seat {seat} is first and earns {pot}; seat {second}, second, earns nothing in the"
            " last Age of a 2-player game (SCORE-2P-1)"
        ]


@attrs.frozen(slots=True)
class GiantScored(Event):
    """The Giant token's holder earns its value for the Age (TRIBE-GIA-2).

    >>> from ethnos_rules import GiantScored
    >>> print(GiantScored(3, value=4, age=2))
    Giant token: seat 3 holds it and gains 4 in Age II (TRIBE-GIA-2).
    """

    seat: int
    value: int
    age: int
    rule: ClassVar[str] = "TRIBE-GIA-2"

    @property
    def gains(self) -> Gains:
        return ((self.seat, self.value),)

    def __str__(self) -> str:
        return (
            f"Giant token: seat {self.seat} holds it and gains {self.value} in Age"
            f" {ROMAN[self.age]} (TRIBE-GIA-2)."
        )


@attrs.frozen(slots=True)
class HordeEmptied(Event):
    """Markers leave an Orc Horde for supply and score (TRIBE-ORC-2, COMP-11); ``forced`` in the
    last Age, where every Horde is emptied.

    >>> from ethnos_rules import Colour, HordeEmptied
    >>> print(HordeEmptied(1, (Colour.RED, Colour.BLUE), glory=3, forced=False))
    Orcs: seat 1 empties the Horde: 2 markers back to supply, +3 Glory (TRIBE-ORC-2).
    """

    seat: int
    colours: tuple[Colour, ...]
    glory: int
    forced: bool
    rule: ClassVar[str] = "TRIBE-ORC-2"

    @property
    def gains(self) -> Gains:
        return ((self.seat, self.glory),)

    def __str__(self) -> str:
        n = plural(len(self.colours), "marker")
        if self.forced:
            return (
                f"Orcs: seat {self.seat}'s Horde is emptied in the last Age: {n} back to supply,"
                f" +{self.glory} Glory (TRIBE-ORC-2)."
            )
        return (
            f"Orcs: seat {self.seat} empties the Horde: {n} back to supply, +{self.glory} Glory"
            " (TRIBE-ORC-2)."
        )


@attrs.frozen(slots=True)
class HordeKept(Event):
    """An Orc player keeps the Horde's markers for a later Age (TRIBE-ORC-2).

    >>> from ethnos_rules import HordeKept
    >>> print(HordeKept(1))
    Orcs: seat 1 keeps the Horde for a later Age (TRIBE-ORC-2).
    """

    seat: int
    rule: ClassVar[str] = "TRIBE-ORC-2"

    def __str__(self) -> str:
        return f"Orcs: seat {self.seat} keeps the Horde for a later Age (TRIBE-ORC-2)."


@attrs.frozen(slots=True)
class BandScored(Event):
    """A band scores on its size after Skeletons leave it (TRIBE-SKE-1), plus the Dwarf
    Leader's card (TRIBE-DWA-1) (END-4, COMP-7).

    Attributes:
        seat: Its player.
        band: The band as played.
        kept: Its cards without Skeletons.
        bonus: The Leader's band bonus (1 for Dwarves).
        value: The Glory it earns.

    >>> from ethnos_rules import Band, BandScored, card
    >>> band = Band(card("DWA-red"), (card("DWA-blue"), card("SKE")))
    >>> print(BandScored(0, band, kept=2, bonus=1, value=3))
    Seat 0's band *DWA-red DWA-blue SKE: 2 cards without Skeletons + 1 for the Dwarf Leader → 3
    (END-4).
    """

    seat: int
    band: Band
    kept: int
    bonus: int
    value: int
    rule: ClassVar[str] = "END-4"

    @property
    def gains(self) -> Gains:
        return ((self.seat, self.value),) if self.value else ()

    @property
    def worth(self) -> str:
        """How the band counts, e.g. ``2 cards without Skeletons + 1 for the Dwarf Leader → 3``."""
        text = plural(self.kept, "card")
        if self.kept != self.band.size:
            text += " without Skeletons"
        if self.bonus:
            text += f" + {self.bonus} for the Dwarf Leader"
        return f"{text} → {self.value}"

    def __str__(self) -> str:
        return f"Seat {self.seat}'s band {self.band}: {self.worth} (END-4)."


@attrs.frozen(slots=True)
class AgeScored(Event):
    """The Age's scoring is done, bands are discarded and tokens return (END-5). The summary
    adds up the Glory already awarded by the events before it (so ``gains`` is empty).

    >>> from ethnos_rules import AgeScored, AgeSummary
    >>> gains = ((("kingdoms", 6), ("bands", 1)), (("bands", 3),))
    >>> summary = AgeSummary(1, (7, 3), gains, ((2,), (3,)), 0)
    >>> print(AgeScored(summary))
    Age I is scored: seat 0 kingdoms +6, bands +1 = +7, now 7 Glory; seat 1 bands +3 = +3, now 3
    Glory (END-5).
    """

    summary: AgeSummary
    rule: ClassVar[str] = "END-5"

    def seat_line(self, seat: int) -> str:
        """``kingdoms +6, bands +1 = +7, now 7 Glory`` for one seat."""
        gains = self.summary.gains[seat]
        parts = ", ".join(f"{source} +{n}" for source, n in gains) or "nothing"
        total = sum(n for _, n in gains)
        return f"{parts} = +{total}, now {self.summary.glory[seat]} Glory"

    def __str__(self) -> str:
        seats = "; ".join(
            f"seat {seat} {self.seat_line(seat)}" for seat in range(len(self.summary.glory))
        )
        return f"Age {ROMAN[self.summary.age]} is scored: {seats} (END-5)."


@attrs.frozen(slots=True)
class GameEnded(Event):
    """The last Age is scored: the winners by GAME-1..3.

    Attributes:
        glory: Final Glory, by seat.
        winners: The winning seats (several share the victory).
        decided_by: The rule that decided: ``GAME-1`` (Glory), ``GAME-2`` (markers on the
            kingdoms) or ``GAME-3`` (the last Age's bands, or a shared victory).
        markers: Markers on the six kingdoms, by seat (GAME-2).
        band_sizes: The last Age's band sizes, largest first, by seat (GAME-3).

    >>> from ethnos_rules import GameEnded
    >>> print(GameEnded((30, 41, 41), (2,), "GAME-2", markers=(9, 8, 11), band_sizes=((), (), ())))
    Seats 1 and 2 tie on 41 Glory; seat 2 wins with the most markers on the kingdoms (seat 1 8,
    seat 2 11) (GAME-2).
    """

    glory: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: Literal["GAME-1", "GAME-2", "GAME-3"]
    markers: tuple[int, ...]
    band_sizes: tuple[tuple[int, ...], ...]

    @property
    def rule(self) -> str:
        return self.decided_by

    def __str__(self) -> str:
        best = max(self.glory)
        top = [s for s, g in enumerate(self.glory) if g == best]
        if self.decided_by == "GAME-1":
            return f"Seat {self.winners[0]} wins with {best} Glory (GAME-1)."
        tied = seats_text(top).capitalize()
        detail = ", ".join(f"seat {s} {self.markers[s]}" for s in top)
        if self.decided_by == "GAME-2":
            return (
                f"{tied} tie on {best} Glory; seat {self.winners[0]} wins with the most markers"
                f" on the kingdoms ({detail}) (GAME-2)."
            )
        most = max(self.markers[s] for s in top)
        level = [s for s in top if self.markers[s] == most]
        bands = "; ".join(
            f"seat {s} {', '.join(map(str, self.band_sizes[s])) or 'none'}" for s in level
        )
        if len(self.winners) == 1:
            return (
                f"{tied} tie on {best} Glory and {seats_text(level)} on markers ({most}); the"
                f" last Age's bands, largest first ({bands}), give the victory to seat"
                f" {self.winners[0]} (GAME-3)."
            )
        return (
            f"{tied} tie on {best} Glory; {seats_text(self.winners)} are equal on markers and"
            f" bands ({bands}) and share the victory (GAME-3)."
        )


EVENT_TYPES: Sequence[type[Event]] = (
    TribeChosen,
    TribesInPlay,
    TokensLaid,
    AgeBegan,
    FirstPlayer,
    CardDrawn,
    DeckSplit,
    Recruited,
    Passed,
    DragonRevealed,
    BandPlayed,
    PlacementTest,
    MarkerPlaced,
    PlacementDeclined,
    RestToRow,
    ChainOffered,
    ChainStopped,
    GiantTokenTaken,
    GiantTokenMissed,
    MerfolkMoved,
    CheckpointDeclined,
    CheckpointsLost,
    HordeMarkerAdded,
    HordeDeclined,
    HordeBlocked,
    TrollTokenTaken,
    TrollDeclined,
    CardKept,
    KeepingDone,
    WizardsDraw,
    AgeEnded,
    HandDiscarded,
    AreaScored,
    GiantScored,
    HordeEmptied,
    HordeKept,
    BandScored,
    AgeScored,
    GameEnded,
)
"""Every event class, in the order of the rules."""


def opens_turn(event: Event) -> bool:
    """Whether ``event`` begins a player's turn (TURN-1): a recruit, a pass, or a band that is
    not a Centaur chain's next one. Turns are counted within an Age, from its
    :class:`AgeBegan`."""
    if isinstance(event, BandPlayed):
        return event.chain == 0
    return isinstance(event, Recruited | Passed)
