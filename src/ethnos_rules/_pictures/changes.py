"""What a step changed, read from its events, for a picture to mark.

A picture marks what the events of a step say happened (the band just played, the markers
just placed, the tokens and cards just taken, the Glory just gained); it never compares two
states to find out. Only the events the drawn seat may see count, so a seat's picture marks
nothing it could not have seen happen.

>>> from ethnos_rules import parse_action, position, step
>>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
...                  hands={0: "GIA-red GIA-red ELF-blue"}, kingdoms={0: {"Rhea": 2}})
>>> result = step(state, parse_action("band *GIA-red GIA-red"))
>>> marks = read_changes(result.events, seat=1, players=4)
>>> for phrase in marks.phrases():
...     print(phrase)
the band seat 0 played, led by GIA-red
ELF-blue into the row
the Giant token, taken by seat 0
seat 0 +2 Glory
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .._rules.components import Card, Colour, Kingdom
from .._rules.events import (
    BandPlayed,
    CardDrawn,
    CardKept,
    DragonRevealed,
    Event,
    GiantTokenTaken,
    HordeMarkerAdded,
    MarkerPlaced,
    MerfolkMoved,
    Recruited,
    RestToRow,
    TrollTokenTaken,
)
from .._rules.said import and_said, said, said_n, word
from .._rules.state import Band
from .._rules.words import given

_INTO_HAND = ("deal", "deck", "wizard")
"""Where a :class:`CardDrawn` puts the card into its drawer's hand."""


@dataclass
class Changes:
    """What a picture marks as just changed, each read from one kind of event.

    Attributes:
        bands: Bands just played, with their seats (BandPlayed).
        markers: Markers just placed, by seat and kingdom (MarkerPlaced).
        hand: Cards just put into a hand, by seat, each with its tag: ``"new"`` (Recruited,
            CardDrawn) or ``"kept"`` (CardKept).
        row: Cards just put into the row (CardDrawn for the row, RestToRow).
        glory: Glory just gained, by seat (every event's ``gains``).
        giant: The seat that just took the Giant token (GiantTokenTaken).
        trolls: Troll tokens just taken, by seat (TrollTokenTaken).
        horde: Horde spaces just filled, as (seat, colour) (HordeMarkerAdded).
        merfolk: Merfolk moves, by seat, as (from, to) (MerfolkMoved).
        dragon: Whether a Dragon was just revealed and set aside (DragonRevealed; not the
            last, which ends the Age).
    """

    bands: list[tuple[int, Band]] = field(default_factory=list)
    markers: Counter[tuple[int, Kingdom]] = field(default_factory=Counter)
    hand: dict[int, list[tuple[Card, str]]] = field(default_factory=dict)
    row: list[Card] = field(default_factory=list)
    glory: Counter[int] = field(default_factory=Counter)
    giant: int | None = None
    trolls: dict[int, list[int]] = field(default_factory=dict)
    horde: list[tuple[int, Colour]] = field(default_factory=list)
    merfolk: dict[int, tuple[int, int]] = field(default_factory=dict)
    dragon: bool = False

    def __bool__(self) -> bool:
        return bool(self.phrases())

    def phrases(self) -> list[str]:
        """What is marked, in words, for the picture's description."""
        out: list[str] = [
            said("the band seat {seat} played, led by {leader}", seat=s, leader=b.leader.code)
            for s, b in self.bands
        ]
        out += [
            said_n(
                "{n} marker seat {seat} placed in {kingdom}",
                "{n} markers seat {seat} placed in {kingdom}",
                n,
                seat=s,
                kingdom=k.label,
            )
            for (s, k), n in self.markers.items()
        ]
        for seat, cards in self.hand.items():
            codes = and_said([c.code for c, _ in cards])
            out.append(said("{cards} into seat {seat}'s hand", cards=codes, seat=seat))
        if self.row:
            out.append(said("{cards} into the row", cards=and_said([c.code for c in self.row])))
        if self.giant is not None:
            out.append(said("the Giant token, taken by seat {seat}", seat=self.giant))
        out += [
            said("Troll token {tokens} to seat {seat}", tokens=and_said(list(map(str, v))), seat=s)
            for s, v in self.trolls.items()
        ]
        out += [
            said("a marker on seat {seat}'s {colour} Horde space", seat=s, colour=c.label)
            for s, c in self.horde
        ]
        out += [
            said("seat {seat}'s Merfolk from {start} to {end}", seat=s, start=a, end=b)
            for s, (a, b) in self.merfolk.items()
        ]
        if self.dragon:
            out.append(said("a Dragon revealed"))
        out += [
            said("seat {seat} +{n} Glory", seat=s, n=n) for s, n in sorted(self.glory.items()) if n
        ]
        return out


def _events(changes: object) -> tuple[Event, ...]:
    """``changes`` as a tuple of events, or a TypeError saying what it is instead."""
    if isinstance(changes, Event):
        raise TypeError(
            f"changes: expected a sequence of Event (e.g. step(...).events), not one event"
            f" {type(changes).__name__}; pass ({type(changes).__name__}(...),)"
        )
    if isinstance(changes, str | bytes) or not isinstance(changes, Sequence):
        hint = "; pass its .events" if hasattr(changes, "events") else ""
        raise TypeError(
            "changes: expected a sequence of Event (e.g. step(...).events), not"
            f" {type(changes).__name__} {given(changes)}{hint}"
        )
    for i, event in enumerate(changes):
        if not isinstance(event, Event):
            raise TypeError(
                f"changes[{i}]: expected an Event, not {type(event).__name__} {given(event)}"
            )
    return tuple(changes)


def _seen(event: Event, seat: int | None) -> bool:
    shown = event.visible_to
    return shown is None or seat is None or seat in shown


def _check_seat(event: Event, players: int) -> None:
    seat = getattr(event, "seat", None)
    if isinstance(seat, int) and not 0 <= seat < players:
        raise ValueError(
            f"changes: {type(event).__name__} of seat {seat}, in a game of seats"
            f" 0 to {players - 1}: {event}"
        )


def read_changes(changes: object, *, seat: int | None, players: int) -> Changes:
    """What ``changes`` (a step's events) mark in the picture of ``seat`` (every event when
    None), in a game of ``players``.

    Raises:
        TypeError: ``changes`` is not a sequence of :class:`~ethnos_rules.Event`.
        ValueError: an event names a seat the game does not have.
    """
    out = Changes()
    for event in _events(changes):
        _check_seat(event, players)
        for who, amount in event.gains:
            if not 0 <= who < players:
                raise ValueError(
                    f"changes: {type(event).__name__} gives Glory to seat {who},"
                    f" in a game of seats 0 to {players - 1}"
                )
            if _seen(event, seat):
                out.glory[who] += amount
        if _seen(event, seat):
            _read(event, out)
    return out


def _into_hand(event: Event) -> tuple[int, Card, str] | None:
    """The seat, card and tag of a card ``event`` puts into a hand, if it does."""
    if isinstance(event, Recruited) and event.card is not None:
        return event.seat, event.card, word("new")
    if isinstance(event, CardDrawn) and event.source in _INTO_HAND and event.seat is not None:
        return event.seat, event.card, word("new")
    if isinstance(event, CardKept):
        return event.seat, event.card, word("kept")
    return None


def _read(event: Event, out: Changes) -> None:
    taken = _into_hand(event)
    if taken is not None:
        out.hand.setdefault(taken[0], []).append(taken[1:])
    elif isinstance(event, BandPlayed):
        out.bands.append((event.seat, event.band))
    elif isinstance(event, MarkerPlaced):
        out.markers[event.seat, event.kingdom] += 1
    elif isinstance(event, RestToRow):
        out.row += event.cards
    elif isinstance(event, CardDrawn) and event.source == "row":
        out.row.append(event.card)
    elif isinstance(event, GiantTokenTaken):
        out.giant = event.seat
    elif isinstance(event, TrollTokenTaken):
        out.trolls.setdefault(event.seat, []).append(event.value)
    elif isinstance(event, HordeMarkerAdded):
        out.horde.append((event.seat, event.colour))
    elif isinstance(event, MerfolkMoved):
        start = out.merfolk.get(event.seat, (event.start, event.end))[0]
        out.merfolk[event.seat] = (start, event.end)
    elif isinstance(event, DragonRevealed):
        out.dragon = not event.ends_age  # the last one ends the Age: the next Age's deck is drawn
