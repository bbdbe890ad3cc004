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
from .said import and_said, cards_said, ordinal_said, said, said_list, said_n, seats_said, word
from .state import AgeSummary, Band, GameState, copy_player, copy_state
from .words import ROMAN

P = ParamSpec("P")
T = TypeVar("T")

Gains = tuple[tuple[int, int], ...]
"""Glory awarded by an event, as ``(seat, amount)`` pairs."""


@attrs.frozen(slots=True)
class Event:
    """Something a decision did. Subclasses say what, with the numbers the rule used."""

    step: ClassVar[bool] = False
    """True for a step of what an earlier event opened: of a band (its placement, its Leader's
    ability, the rest of the hand) or of the end of an Age (a hand discarded). A telling of the
    game puts it under the event it follows."""

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
        return said("The {tribe} are chosen at random (SETUP-3).", tribe=word(self.tribe.name))


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
        names = said_list([word(t.name) for t in self.tribes])
        if self.by_chance:
            return said("Tribes in play (chosen at random): {names} (SETUP-3).", names=names)
        return said("Tribes in play (given): {names} (SETUP-3).", names=names)


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
        if self.by_chance:
            return said(
                "{kingdom} gets the glory tokens {tokens}, laid at random (SETUP-4).",
                kingdom=self.kingdom.label,
                tokens=self.tokens_text,
            )
        return said(
            "{kingdom} gets the glory tokens {tokens}, given (SETUP-4).",
            kingdom=self.kingdom.label,
            tokens=self.tokens_text,
        )

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
        age, ages = ROMAN[self.age], ROMAN[self.ages]
        if self.age == 1:
            return said("Age {age} of {ages} begins (AGE-1).", age=age, ages=ages)
        return said(
            "Age {age} of {ages} begins: every Ally card goes back into the deck (AGE-1).",
            age=age,
            ages=ages,
        )


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
            return said("Seat {seat} is the first player (given) (AGE-5).", seat=self.seat)
        if self.how == "chance":
            return said(
                "Seat {seat} is chosen at random as the first player (AGE-5).", seat=self.seat
            )
        if len(self.tied) <= 1:
            return said(
                "Seat {seat} has the least Glory ({least}) and is the first player (AGE-5).",
                seat=self.seat,
                least=self.least,
            )
        return said(
            "{tied} have the least Glory ({least}); going clockwise from "
            "seat {counted_from}, who drew the last Dragon, seat {seat} comes "
            "first and is the first player (AGE-5).",
            tied=seats_said(self.tied, capital=True),
            least=self.least,
            counted_from=self.counted_from,
            seat=self.seat,
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
        return _drawn_text(word("a card"), seat, source)


def _drawn_text(card: str, seat: int | None, source: Source) -> str:
    rule = _SOURCE_RULES[source]
    if source == "row":
        return said("{card} is turned face up into the row ({rule}).", card=card, rule=rule)
    if source == "deal":
        return said("Seat {seat} is dealt {card} ({rule}).", seat=seat, card=card, rule=rule)
    if source == "wizard":
        return said("Seat {seat}'s Wizards draw {card} ({rule}).", seat=seat, card=card, rule=rule)
    return said("Seat {seat} draws {card} from the deck ({rule}).", seat=seat, card=card, rule=rule)


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
        return said(
            "The deck is split: the top {top} cards hold no Dragon; the {dragons} "
            "Dragons are shuffled into the other {bottom} (AGE-4).",
            top=self.top,
            dragons=self.dragons,
            bottom=self.bottom,
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
            return said("Seat {seat} recruits from the deck (RECRUIT-1).", seat=self.seat)
        return said(
            "Seat {seat} recruits {card} from the row (RECRUIT-1).", seat=self.seat, card=self.card
        )


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
        return said(
            "Seat {seat} holds {hand} cards that form no band and passes (TURN-3).",
            seat=self.seat,
            hand=self.hand,
        )


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
        if self.ends_age and self.wizards:
            return said(
                "Seat {seat}'s Wizards draw the third Dragon: Age {age} ends at once, and "
                "nothing else of the turn happens (the remaining Wizard draws are lost) "
                "(RECRUIT-4).",
                seat=self.seat,
                age=ROMAN[self.age],
            )
        if self.ends_age:
            return said(
                "Seat {seat} draws the third Dragon: Age {age} ends at once, and nothing "
                "else of the turn happens (RECRUIT-4).",
                seat=self.seat,
                age=ROMAN[self.age],
            )
        if self.wizards:
            return said(
                "Seat {seat}'s Wizards draw a Dragon ({ordinal} of {dragons}): it is set "
                "aside and seat {seat} draws again (RECRUIT-3).",
                seat=self.seat,
                ordinal=ordinal_said(self.number),
                dragons=self.dragons,
            )
        return said(
            "Seat {seat} draws a Dragon ({ordinal} of {dragons}): it is set aside and "
            "seat {seat} draws again (RECRUIT-3).",
            seat=self.seat,
            ordinal=ordinal_said(self.number),
            dragons=self.dragons,
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
        if self.chain:
            return said_n(
                "Centaurs: seat {seat} plays another band of {n} card ({band}), led by "
                "{leader} ({tribe}) (BAND-4).",
                "Centaurs: seat {seat} plays another band of {n} cards ({band}), led by "
                "{leader} ({tribe}) (BAND-4).",
                self.band.size,
                seat=self.seat,
                band=self.band,
                leader=leader,
                tribe=word(leader.tribe.name),
            )
        return said_n(
            "Seat {seat} plays a band of {n} card ({band}), led by {leader} ({tribe}) (BAND-4).",
            "Seat {seat} plays a band of {n} cards ({band}), led by {leader} ({tribe}) (BAND-4).",
            self.band.size,
            seat=self.seat,
            band=self.band,
            leader=leader,
            tribe=word(leader.tribe.name),
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

    step: ClassVar[bool] = True

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
        return said(
            "{verdict}: {reason} ({rule}).",
            verdict=self._verdict(),
            reason=self.reason,
            rule=self.rule,
        )

    def _verdict(self) -> str:
        return word("The band may place a marker") if self.allowed else word("No marker")

    @property
    def reason(self) -> str:
        """The test in words, with its numbers."""
        if self.blocked == "never":
            return said("a Halfling-led band never places a marker")
        if self.blocked == "supply":
            return said(
                "seat {seat} has no marker left in supply, so none can be placed", seat=self.seat
            )
        size: str = said_n("{n} card", "{n} cards", self.size)
        if self.bonus:
            size = said(
                "{size} + {bonus} for the Minotaur Leader = {effective}",
                size=size,
                bonus=self.bonus,
                effective=self.effective,
            )
        if not self.any_kingdom:
            kingdom, counted = self.counted[0]
            return self._test_text(kingdom, counted, size)
        return self._any_kingdom_text(size)

    def _test_text(self, kingdom: Kingdom, counted: tuple[int, ...], size: str) -> str:
        need = sum(counted)
        where = kingdom.label
        markers = said_n("{n} marker", "{n} markers", need)
        one = self.size == 1 and not self.bonus  # "1 card is", else "are"
        if len(counted) == 2:
            both = said("{a} + {b} = {markers}", a=counted[0], b=counted[1], markers=markers)
            if self.effective > need:
                return said(
                    "{size} > {both} of both players in {kingdom}",
                    size=size,
                    both=both,
                    kingdom=where,
                )
            if one:
                return said(
                    "{size} is not more than both players' {both} in {kingdom} (the 2-player rule)",
                    size=size,
                    both=both,
                    kingdom=where,
                )
            return said(
                "{size} are not more than both players' {both} in {kingdom} (the 2-player rule)",
                size=size,
                both=both,
                kingdom=where,
            )
        if self.effective > need:
            return said(
                "{size} > {markers} of seat {seat} in {kingdom}",
                size=size,
                markers=markers,
                seat=self.seat,
                kingdom=where,
            )
        if one:
            return said(
                "{size} is not more than the {markers} seat {seat} already has in {kingdom}",
                size=size,
                markers=markers,
                seat=self.seat,
                kingdom=where,
            )
        return said(
            "{size} are not more than the {markers} seat {seat} already has in {kingdom}",
            size=size,
            markers=markers,
            seat=self.seat,
            kingdom=where,
        )

    def _any_kingdom_text(self, size: str) -> str:
        if len(self.counted[0][1]) == 2:
            rule = said(
                "a Wingfolk-led band of {size} may place in any kingdom where it is larger "
                "than both players' markers there (TRIBE-WIN-1)",
                size=size,
            )
        else:
            rule = said(
                "a Wingfolk-led band of {size} may place in any kingdom where it is larger "
                "than seat {seat}'s markers there (TRIBE-WIN-1)",
                size=size,
                seat=self.seat,
            )
        refused = [(k, sum(c)) for k, c in self.counted if k not in self.allowed]
        if not self.allowed:
            least = min(n for _, n in refused)
            return said(
                "{rule}: no kingdom qualifies, every one has at least {least}",
                rule=rule,
                least=least,
            )
        allowed = ", ".join(k.label for k in self.allowed)
        if not refused:
            return said("{rule}: it may in {allowed}", rule=rule, allowed=allowed)
        return said(
            "{rule}: it may in {allowed}; not in {refused}",
            rule=rule,
            allowed=allowed,
            refused=", ".join(f"{k.label} ({n})" for k, n in refused),
        )


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

    step: ClassVar[bool] = True

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
            return said(
                "Merfolk: seat {seat} places a checkpoint marker in {where}, whatever "
                "the band's size (TRIBE-MER-2).",
                seat=self.seat,
                where=where,
            )
        if self.forced:
            return said(
                "Seat {seat} places a marker in {where} (now {now} there): placing is "
                "mandatory (BAND-5a).",
                seat=self.seat,
                where=where,
                now=self.now,
            )
        return said(
            "Seat {seat} places a marker in {where} (now {now} there) (BAND-5).",
            seat=self.seat,
            where=where,
            now=self.now,
        )


@attrs.frozen(slots=True)
class PlacementDeclined(Event):
    """The player chooses not to place the band's marker (BAND-5a).

    >>> from ethnos_rules import PlacementDeclined
    >>> print(PlacementDeclined(0))
    Seat 0 chooses not to place a marker (BAND-5a).
    """

    step: ClassVar[bool] = True

    seat: int
    rule: ClassVar[str] = "BAND-5a"

    def __str__(self) -> str:
        return said("Seat {seat} chooses not to place a marker (BAND-5a).", seat=self.seat)


@attrs.frozen(slots=True)
class RestToRow(Event):
    """The rest of the hand goes face up into the row (BAND-6); Elves may keep some of it.

    >>> from ethnos_rules import RestToRow, card
    >>> print(RestToRow(2, (card("DWA-red"), card("SKE"))))
    The rest of seat 2's hand goes face up into the row: DWA-red SKE (BAND-6).
    """

    step: ClassVar[bool] = True

    seat: int
    cards: tuple[Card, ...]
    rule: ClassVar[str] = "BAND-6"

    def __str__(self) -> str:
        return said(
            "The rest of seat {seat}'s hand goes face up into the row: {cards_list} (BAND-6).",
            seat=self.seat,
            cards_list=cards_said(self.cards),
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

    step: ClassVar[bool] = True

    seat: int
    rule: ClassVar[str] = "TRIBE-CEN-1"

    def __str__(self) -> str:
        return said(
            "Centaurs: the band placed a marker, so seat {seat} may play another "
            "band from the rest of the hand (TRIBE-CEN-1).",
            seat=self.seat,
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
        return said("Seat {seat} ends the Centaur chain (TRIBE-CEN-1).", seat=self.seat)


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

    step: ClassVar[bool] = True

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
            return said(
                "Giants: the band ({size}) is larger than every other Giant-led band this "
                "Age ({previous}): seat {seat} gains {glory} Glory and takes the Giant token "
                "(TRIBE-GIA-1).",
                size=self.size,
                previous=self.previous,
                seat=self.seat,
                glory=self.glory,
            )
        return said(
            "Giants: the band ({size}) is the first Giant-led band this Age: seat {seat} "
            "gains {glory} Glory and takes the Giant token (TRIBE-GIA-1).",
            size=self.size,
            seat=self.seat,
            glory=self.glory,
        )


@attrs.frozen(slots=True)
class GiantTokenMissed(Event):
    """A Giant-led band that is not larger than the largest this Age: nothing (TRIBE-GIA-1).

    >>> from ethnos_rules import GiantTokenMissed
    >>> print(GiantTokenMissed(0, size=2, largest=3))
    Giants: the band (2) is not larger than the largest Giant-led band this Age (3): no Glory, no
    token (TRIBE-GIA-1).
    """

    step: ClassVar[bool] = True

    seat: int
    size: int
    largest: int
    rule: ClassVar[str] = "TRIBE-GIA-1"

    def __str__(self) -> str:
        return said(
            "Giants: the band ({size}) is not larger than the largest Giant-led "
            "band this Age ({largest}): no Glory, no token (TRIBE-GIA-1).",
            size=self.size,
            largest=self.largest,
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

    step: ClassVar[bool] = True

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
        moves = said_n(
            "Merfolk: seat {seat}'s marker moves {n} space, from {start} to {end}",
            "Merfolk: seat {seat}'s marker moves {n} spaces, from {start} to {end}",
            self.spaces,
            seat=self.seat,
            start=self.start,
            end=self.end,
        )
        if self.start + self.spaces > self.end:
            moves = said("{moves} (the end of the track)", moves=moves)
        if not self.checkpoints:
            return said("{moves} (TRIBE-MER-1).", moves=moves)
        return said_n(
            "{moves}, reaching checkpoint {reached}: {markers} for any kingdom "
            "(TRIBE-MER-1, TRIBE-MER-2).",
            "{moves}, reaching checkpoints {reached}: {markers} for any kingdom "
            "(TRIBE-MER-1, TRIBE-MER-2).",
            len(self.checkpoints),
            moves=moves,
            reached=and_said([str(c) for c in self.checkpoints]),
            markers=said_n("{n} marker", "{n} markers", self.markers),
        )


@attrs.frozen(slots=True)
class CheckpointDeclined(Event):
    """The player places no marker for a checkpoint (TRIBE-MER-2).

    >>> from ethnos_rules import CheckpointDeclined
    >>> print(CheckpointDeclined(0))
    Merfolk: seat 0 places no checkpoint marker (TRIBE-MER-2).
    """

    step: ClassVar[bool] = True

    seat: int
    rule: ClassVar[str] = "TRIBE-MER-2"

    def __str__(self) -> str:
        return said(
            "Merfolk: seat {seat} places no checkpoint marker (TRIBE-MER-2).", seat=self.seat
        )


@attrs.frozen(slots=True)
class CheckpointsLost(Event):
    """Checkpoint markers earned but not placed: the supply is empty (TRIBE-MER-2).

    >>> from ethnos_rules import CheckpointsLost
    >>> print(CheckpointsLost(0, 2))
    Merfolk: seat 0 has no marker left in supply for 2 checkpoint markers (TRIBE-MER-2).
    """

    step: ClassVar[bool] = True

    seat: int
    markers: int
    rule: ClassVar[str] = "TRIBE-MER-2"

    def __str__(self) -> str:
        return said(
            "Merfolk: seat {seat} has no marker left in supply for {markers} (TRIBE-MER-2).",
            seat=self.seat,
            markers=said_n("{n} checkpoint marker", "{n} checkpoint markers", self.markers),
        )


@attrs.frozen(slots=True)
class HordeMarkerAdded(Event):
    """A marker from supply onto the Horde space of the Leader's colour (TRIBE-ORC-1).

    >>> from ethnos_rules import Colour, HordeMarkerAdded
    >>> print(HordeMarkerAdded(0, Colour.RED))
    Orcs: seat 0 puts a marker on the red space of the Horde (TRIBE-ORC-1).
    """

    step: ClassVar[bool] = True

    seat: int
    colour: Colour
    rule: ClassVar[str] = "TRIBE-ORC-1"

    def __str__(self) -> str:
        return said(
            "Orcs: seat {seat} puts a marker on the {colour} space of the Horde (TRIBE-ORC-1).",
            seat=self.seat,
            colour=self.colour,
        )


@attrs.frozen(slots=True)
class HordeDeclined(Event):
    """The player adds no marker to the Horde (TRIBE-ORC-1).

    >>> from ethnos_rules import HordeDeclined
    >>> print(HordeDeclined(0))
    Orcs: seat 0 does not add to the Horde (TRIBE-ORC-1).
    """

    step: ClassVar[bool] = True

    seat: int
    rule: ClassVar[str] = "TRIBE-ORC-1"

    def __str__(self) -> str:
        return said("Orcs: seat {seat} does not add to the Horde (TRIBE-ORC-1).", seat=self.seat)


@attrs.frozen(slots=True)
class HordeBlocked(Event):
    """No marker can go on the Horde: its space is taken, or the supply is empty (TRIBE-ORC-1).

    >>> from ethnos_rules import Colour, HordeBlocked
    >>> print(HordeBlocked(0, Colour.RED, "taken"))
    Orcs: the red space of seat 0's Horde is already taken (TRIBE-ORC-1).
    """

    step: ClassVar[bool] = True

    seat: int
    colour: Colour
    why: Literal["taken", "supply"]
    rule: ClassVar[str] = "TRIBE-ORC-1"

    def __str__(self) -> str:
        if self.why == "taken":
            return said(
                "Orcs: the {colour} space of seat {seat}'s Horde is already taken (TRIBE-ORC-1).",
                colour=self.colour,
                seat=self.seat,
            )
        return said(
            "Orcs: seat {seat} has no marker left for the Horde (TRIBE-ORC-1).", seat=self.seat
        )


@attrs.frozen(slots=True)
class TrollTokenTaken(Event):
    """The player takes an unclaimed Troll token worth X or less (TRIBE-TRO-1).

    >>> from ethnos_rules import TrollTokenTaken
    >>> print(TrollTokenTaken(0, 4, size=5))
    Trolls: seat 0 takes the Troll token 4 (X = 5) (TRIBE-TRO-1).
    """

    step: ClassVar[bool] = True

    seat: int
    value: int
    size: int
    rule: ClassVar[str] = "TRIBE-TRO-1"

    def __str__(self) -> str:
        return said(
            "Trolls: seat {seat} takes the Troll token {value} (X = {size}) (TRIBE-TRO-1).",
            seat=self.seat,
            value=self.value,
            size=self.size,
        )


@attrs.frozen(slots=True)
class TrollDeclined(Event):
    """The player takes no Troll token (TRIBE-TRO-1); ``none_left`` when none was worth X or
    less.

    >>> from ethnos_rules import TrollDeclined
    >>> print(TrollDeclined(0, size=2, none_left=True))
    Trolls: no unclaimed Troll token is worth 2 or less (TRIBE-TRO-1).
    """

    step: ClassVar[bool] = True

    seat: int
    size: int
    none_left: bool = False
    rule: ClassVar[str] = "TRIBE-TRO-1"

    def __str__(self) -> str:
        if self.none_left:
            return said(
                "Trolls: no unclaimed Troll token is worth {size} or less (TRIBE-TRO-1).",
                size=self.size,
            )
        return said("Trolls: seat {seat} takes no Troll token (TRIBE-TRO-1).", seat=self.seat)


@attrs.frozen(slots=True)
class CardKept(Event):
    """Elves keep one card of the rest of the hand, seen by its owner alone (TRIBE-ELF-1).

    >>> from ethnos_rules import CardKept, card
    >>> event = CardKept(0, card("ELF-red"), limit=3)
    >>> print(event); event.visible_to
    Elves: seat 0 keeps ELF-red (up to X = 3) (TRIBE-ELF-1).
    frozenset({0})
    """

    step: ClassVar[bool] = True

    seat: int
    card: Card
    limit: int
    rule: ClassVar[str] = "TRIBE-ELF-1"

    @property
    def visible_to(self) -> frozenset[int]:
        return _only(self.seat)

    def __str__(self) -> str:
        return said(
            "Elves: seat {seat} keeps {card} (up to X = {limit}) (TRIBE-ELF-1).",
            seat=self.seat,
            card=self.card,
            limit=self.limit,
        )

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

    step: ClassVar[bool] = True

    seat: int
    kept: int
    limit: int
    rule: ClassVar[str] = "TRIBE-ELF-1"

    def __str__(self) -> str:
        what = said_n("{n} card", "{n} cards", self.kept) if self.kept else word("nothing")
        return said(
            "Elves: seat {seat} keeps {what} (up to X = {limit}) (TRIBE-ELF-1).",
            seat=self.seat,
            what=what,
            limit=self.limit,
        )


@attrs.frozen(slots=True)
class WizardsDraw(Event):
    """Wizards draw ``count`` cards from the deck after discarding, or none (TRIBE-WIZ-1).

    >>> from ethnos_rules import WizardsDraw
    >>> print(WizardsDraw(0, count=3))
    Wizards: seat 0 draws 3 cards from the deck (TRIBE-WIZ-1).
    """

    step: ClassVar[bool] = True

    seat: int
    count: int
    rule: ClassVar[str] = "TRIBE-WIZ-1"

    def __str__(self) -> str:
        if not self.count:
            return said("Wizards: seat {seat} draws nothing (TRIBE-WIZ-1).", seat=self.seat)
        return said(
            "Wizards: seat {seat} draws {cards} from the deck (TRIBE-WIZ-1).",
            seat=self.seat,
            cards=said_n("{n} card", "{n} cards", self.count),
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
        return said(
            "Age {ROMAN} is over: seat {drawer} drew the third Dragon (RECRUIT-4).",
            ROMAN=ROMAN[self.age],
            drawer=self.drawer,
        )


@attrs.frozen(slots=True)
class HandDiscarded(Event):
    """A player's hand is discarded at the end of the Age, unseen by the others (END-1).

    >>> from ethnos_rules import HandDiscarded, card
    >>> print(HandDiscarded(1, (card("ELF-red"),)))
    Seat 1 discards the hand: ELF-red (END-1).
    """

    step: ClassVar[bool] = True

    seat: int
    cards: tuple[Card, ...]
    rule: ClassVar[str] = "END-1"

    @property
    def visible_to(self) -> frozenset[int]:
        return _only(self.seat)

    def __str__(self) -> str:
        return said(
            "Seat {seat} discards the hand: {cards_list} (END-1).",
            seat=self.seat,
            cards_list=cards_said(self.cards),
        )


@attrs.frozen(slots=True, weakref_slot=False)  # built through a draft (frozen.py)
class Prize:
    """An award: the glory token (or Merfolk value) on a space, I being 1."""

    space: int
    value: int

    def __str__(self) -> str:
        return said("{ROMAN} = {value}", ROMAN=ROMAN[self.space], value=self.value)


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
        return self.kingdom.label if self.kingdom is not None else word("the Merfolk board")

    def __str__(self) -> str:
        if not self.groups and self.kingdom is None:
            return said("The Merfolk board: nobody has a marker there (SCORE-K-1).")
        if not self.groups:
            return said("{kingdom}: nobody has a marker there (SCORE-K-1).", kingdom=self.name)
        standing = said_list(
            [
                said("seat {seat} {value}", seat=s, value=self.values[s])
                for g in self.groups
                for s in g.seats
            ]
        )
        values = "/".join(map(str, self.tokens))
        parts = self._tie_breaks()
        if self.scheme == "two_player_final":
            parts += self._two_player_final()
        else:
            parts += self._ranks()
        if self.kingdom is None:
            return said(
                "The Merfolk board (TRIBE-MER-3; values {values}; spaces: {standing}): {parts}.",
                values=values,
                standing=standing,
                parts=said_list(parts, "; "),
            )
        return said(
            "{kingdom} (tokens {values}; markers: {standing}): {parts}.",
            kingdom=self.name,
            values=values,
            standing=standing,
            parts=said_list(parts, "; "),
        )

    def _tie_breaks(self) -> list[str]:
        out: list[str] = []
        for upper, lower in zip(self.groups, self.groups[1:], strict=False):
            if upper.value == lower.value and upper.trolls and lower.trolls:
                (a, x), (b, y) = upper.trolls, lower.trolls
                if a != b:
                    numbers = said("{a} to {b}", a=a, b=b)
                else:
                    numbers = said("highest {x} to {y}", x=x, y=y)
                out.append(
                    said(
                        "{upper} ahead of {lower} on Troll tokens ({numbers}) (SCORE-K-3)",
                        upper=seats_said(upper.seats),
                        lower=seats_said(lower.seats),
                        numbers=numbers,
                    )
                )
        return out

    def _ranks(self) -> list[str]:
        parts: list[str] = []
        if self.scheme == "first_only":
            parts.append(said("only the players furthest ahead earn (merfolk_scoring=first_only)"))
        unpaid: list[int] = []
        for group in self.groups:
            if not group.prizes:
                unpaid += group.seats
            elif len(group.seats) == 1:
                prizes = " + ".join(map(str, group.prizes))
                parts.append(
                    said(
                        "seat {seat} is {ordinal} and earns {prizes}",
                        seat=group.seats[0],
                        ordinal=ordinal_said(group.first_rank),
                        prizes=prizes,
                    )
                )
            else:
                parts.append(self._tie_text(group))
        if unpaid:
            unpaid_seats = seats_said(sorted(unpaid))
            if self.scheme == "ranks":
                parts.append(
                    said_n(
                        "nothing for {seats} (Age {age} pays {n} place)",
                        "nothing for {seats} (Age {age} pays {n} places)",
                        min(self.age, len(self.tokens)),
                        seats=unpaid_seats,
                        age=ROMAN[self.age],
                    )
                )
            else:
                parts.append(said("nothing for {seats} (TRIBE-MER-3)", seats=unpaid_seats))
        # The sentence ends on its rule: SCORE-K-2, unless the last part already cites one (a
        # tie's SCORE-K-3) or a tie earlier cited SCORE-K-3 and the last part says why it pays.
        tied = any("(SCORE-K-3)" in part for part in parts)
        if not tied or not parts[-1].endswith(")"):
            parts[-1] = said("{part} (SCORE-K-2)", part=parts[-1])
        return parts

    def _tie_text(self, group: TieGroup) -> str:
        first, k = group.first_rank, len(group.seats)
        last = first + k - 1
        if self.scheme == "first_only":
            ranks: str = ordinal_said(first)
        elif k == 2:
            ranks = said("{first} and {last}", first=ordinal_said(first), last=ordinal_said(last))
        else:
            ranks = said("{first} to {last}", first=ordinal_said(first), last=ordinal_said(last))
        shares = " + ".join(str(p.value) for p in group.prizes)
        if group.total % k:
            return said(
                "{seats} tie for {ranks} and share {shares} = {total}: {share} each, "
                "rounded down (SCORE-K-3)",
                seats=seats_said(group.seats),
                ranks=ranks,
                shares=shares,
                total=group.total,
                share=group.share,
            )
        return said(
            "{seats} tie for {ranks} and share {shares} = {total}: {share} each (SCORE-K-3)",
            seats=seats_said(group.seats),
            ranks=ranks,
            shares=shares,
            total=group.total,
            share=group.share,
        )

    def _two_player_final(self) -> list[str]:
        first = self.groups[0]
        pot = " + ".join(ROMAN[p.space] for p in first.prizes)
        if len(first.prizes) > 1:
            pot += " = " + " + ".join(str(p.value) for p in first.prizes)
        pot += f" = {first.total}"
        if len(first.seats) == 2:
            return [
                said(
                    "seats 0 and 1 tie for first and split {pot}: {share} each (SCORE-2P-1)",
                    pot=pot,
                    share=first.share,
                )
            ]
        seat = first.seats[0]
        if len(self.groups) == 1:
            return [
                said("only seat {seat} is there and earns {pot} (SCORE-2P-1)", seat=seat, pot=pot)
            ]
        second = self.groups[1].seats[0]
        return [
            said(
                "seat {seat} is first and earns {pot}; seat {second}, second, earns nothing "
                "in the last Age of a 2-player game (SCORE-2P-1)",
                seat=seat,
                pot=pot,
                second=second,
            )
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
        return said(
            "Giant token: seat {seat} holds it and gains {value} in Age {ROMAN} (TRIBE-GIA-2).",
            seat=self.seat,
            value=self.value,
            ROMAN=ROMAN[self.age],
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
        n = said_n("{n} marker", "{n} markers", len(self.colours))
        if self.forced:
            return said(
                "Orcs: seat {seat}'s Horde is emptied in the last Age: {n} back to "
                "supply, +{glory} Glory (TRIBE-ORC-2).",
                seat=self.seat,
                n=n,
                glory=self.glory,
            )
        return said(
            "Orcs: seat {seat} empties the Horde: {n} back to supply, +{glory} "
            "Glory (TRIBE-ORC-2).",
            seat=self.seat,
            n=n,
            glory=self.glory,
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
        return said(
            "Orcs: seat {seat} keeps the Horde for a later Age (TRIBE-ORC-2).", seat=self.seat
        )


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
        if self.kept != self.band.size:
            text = said_n("{n} card without Skeletons", "{n} cards without Skeletons", self.kept)
        else:
            text = said_n("{n} card", "{n} cards", self.kept)
        if self.bonus:
            text = said("{cards} + {bonus} for the Dwarf Leader", cards=text, bonus=self.bonus)
        return said("{cards} → {value}", cards=text, value=self.value)

    def __str__(self) -> str:
        return said(
            "Seat {seat}'s band {band}: {worth} (END-4).",
            seat=self.seat,
            band=self.band,
            worth=self.worth,
        )


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
        parts = said_list([said("{source} +{n}", source=word(s), n=n) for s, n in gains])
        total = sum(n for _, n in gains)
        return said(
            "{parts} = +{total}, now {glory} Glory",
            parts=parts or word("nothing"),
            total=total,
            glory=self.summary.glory[seat],
        )

    def __str__(self) -> str:
        seats = said_list(
            [
                said("seat {seat} {line}", seat=seat, line=self.seat_line(seat))
                for seat in range(len(self.summary.glory))
            ],
            "; ",
        )
        return said(
            "Age {ROMAN} is scored: {seats} (END-5).", ROMAN=ROMAN[self.summary.age], seats=seats
        )


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
            return said(
                "Seat {winners} wins with {best} Glory (GAME-1).",
                winners=self.winners[0],
                best=best,
            )
        tied = seats_said(top, capital=True)
        detail = said_list([said("seat {seat} {n}", seat=s, n=self.markers[s]) for s in top])
        if self.decided_by == "GAME-2":
            return said(
                "{tied} tie on {best} Glory; seat {winners} wins with the most markers "
                "on the kingdoms ({detail}) (GAME-2).",
                tied=tied,
                best=best,
                winners=self.winners[0],
                detail=detail,
            )
        most = max(self.markers[s] for s in top)
        level = [s for s in top if self.markers[s] == most]
        bands = said_list(
            [said("seat {seat} {sizes}", seat=s, sizes=_sizes(self.band_sizes[s])) for s in level],
            "; ",
        )
        if len(self.winners) == 1:
            return said(
                "{tied} tie on {best} Glory and {seats_text} on markers ({most}); the "
                "last Age's bands, largest first ({bands}), give the victory to seat "
                "{winners} (GAME-3).",
                tied=tied,
                best=best,
                seats_text=seats_said(level),
                most=most,
                bands=bands,
                winners=self.winners[0],
            )
        return said(
            "{tied} tie on {best} Glory; {seats_text} are equal on markers and "
            "bands ({bands}) and share the victory (GAME-3).",
            tied=tied,
            best=best,
            seats_text=seats_said(self.winners),
            bands=bands,
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


def _sizes(sizes: Sequence[int]) -> str:
    """A seat's band sizes, largest first: ``4, 3``, or ``none``."""
    return ", ".join(map(str, sizes)) or word("none")
