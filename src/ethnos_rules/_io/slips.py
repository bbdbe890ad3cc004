"""Scoring slips: how a score pad that misapplied a rule in one place would differ.

A wrong claimed Glory is explained by the slip that accounts for the difference: a tie not
split, a split rounded up, Skeletons left in a band, the Giant token forgotten, … Each slip is
read off a scoring event: the event holds the awards the rules gave, the slip the award a
misreading would have given instead.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from .._rules.components import Ruleset
from .._rules.events import AreaScored, BandScored, Event, GiantScored, Prize, TieGroup
from .._rules.options import Options
from .._rules.scoring import award_prize, two_player_final_prizes
from .._rules.words import ROMAN, seats_text


@attrs.frozen
class Slip:
    """How a seat's score would differ had a rule been misapplied in one place.

    Attributes:
        seat: The seat.
        delta: Claimed minus computed Glory this slip would explain.
        kind: What kind of slip (``"no_split"``, ``"round_up"``, ``"skeletons"`` …).
        rule: The rule misapplied.
        text: The slip in words.
    """

    seat: int
    delta: int
    kind: str
    rule: str
    text: str


def slips(event: Event, rules: Ruleset) -> tuple[Slip, ...]:
    """The slips a score pad could contain where ``event`` awards Glory."""
    read = _READERS.get(type(event))
    return read(event, rules) if read is not None else ()


def _giant_slips(event: Event, rules: Ruleset) -> tuple[Slip, ...]:
    assert isinstance(event, GiantScored)
    return (
        Slip(
            event.seat,
            -event.value,
            "giant",
            "TRIBE-GIA-2",
            f"as if the Giant token's {event.value} for Age {ROMAN[event.age]} had been forgotten",
        ),
    )


def _area_slips(event: Event, rules: Ruleset) -> tuple[Slip, ...]:
    assert isinstance(event, AreaScored)
    where = f"{event.name} in Age {ROMAN[event.age]}"
    if event.scheme == "two_player_final":
        return _two_player_slips(event, where)
    out: list[Slip] = []
    for group in event.groups:
        if len(group.seats) > 1 and group.total:
            out += _tie_slips(group, where)
    return tuple(out)


def _tie_slips(group: TieGroup, where: str) -> list[Slip]:
    total, k, share = group.total, len(group.seats), group.share
    tied = seats_text(group.seats)
    best = group.prizes[0].value
    out = []
    for seat in group.seats:
        out.append(
            Slip(
                seat,
                total - share,
                "no_split",
                "SCORE-K-3",
                f"as if {tied} had each taken the whole {total} of their tie in {where}"
                f" instead of sharing it ({share} each)",
            )
        )
        if total % k:
            out.append(
                Slip(
                    seat,
                    1,
                    "round_up",
                    "SCORE-K-3",
                    f"as if the tie split in {where} ({total} / {k}) had been rounded up"
                    f" instead of down ({share} each)",
                )
            )
        if best != share:
            out.append(
                Slip(
                    seat,
                    best - share,
                    "best_rank",
                    "SCORE-K-3",
                    f"as if each of {tied} had earned the best tied rank's {best} in"
                    f" {where} instead of sharing {total} ({share} each)",
                )
            )
    return out


def _two_player_slips(event: AreaScored, where: str) -> tuple[Slip, ...]:
    """SCORE-2P-1 misread: the tie split by the other option, or the Age scored as an ordinary
    one (SCORE-K-2: a lone player's I forgotten, a second place paid); the scoring module
    says what each reading pays."""
    if not event.groups:
        return ()
    first = event.groups[0]
    if len(first.seats) == 2:
        return tuple(
            Slip(
                seat,
                _total(other) // 2 - first.share,
                "two_player_tie",
                "SCORE-2P-1",
                f"as if the tie for first in {where} had split {_total(other)}, not {first.total}",
            )
            for other in _other_tie_splits(event)
            for seat in first.seats
        )
    ordinary = [award_prize(event.tokens, event.age, rank) for rank in (1, 2)]
    winner = first.seats[0]
    if len(event.groups) == 1:
        only = ordinary[0]
        earned = f"only {ROMAN[only.space]}" if only is not None else "nothing"
        return (
            Slip(
                winner,
                (only.value if only is not None else 0) - first.total,
                "two_player_lone",
                "SCORE-2P-1",
                f"as if seat {winner}, alone in {where}, had earned {earned} and not I + II",
            ),
        )
    second, paid = event.groups[1], ordinary[1]
    if paid is None:
        return ()
    return (
        Slip(
            second.seats[0],
            paid.value - second.share,
            "two_player_second",
            "SCORE-2P-1",
            f"as if seat {second.seats[0]}, second in {where}, had earned"
            f" {ROMAN[paid.space]} = {paid.value}",
        ),
    )


def _other_tie_splits(event: AreaScored) -> list[tuple[Prize, ...]]:
    """The prizes a tie for first shares under each other reading of SCORE-2P-1's option."""
    shared = event.groups[0].prizes
    readings = Options.choices()["two_player_final_tie"]
    splits = [two_player_final_prizes(event.tokens, [2], tie)[0] for tie in readings]  # type: ignore[arg-type]
    return [prizes for prizes in splits if prizes != shared]


def _total(prizes: tuple[Prize, ...]) -> int:
    return sum(prize.value for prize in prizes)


def _band_slips(event: Event, rules: Ruleset) -> tuple[Slip, ...]:
    assert isinstance(event, BandScored)
    out = []
    if event.kept != event.band.size:
        out.append(
            Slip(
                event.seat,
                rules.band_value(event.band.size + event.bonus) - event.value,
                "skeletons",
                "TRIBE-SKE-1",
                f"as if the Skeletons had stayed in seat {event.seat}'s band {event.band}",
            )
        )
    if event.bonus:
        out.append(
            Slip(
                event.seat,
                rules.band_value(event.kept) - event.value,
                "dwarves",
                "TRIBE-DWA-1",
                f"as if the Dwarf Leader's +1 had been forgotten in seat {event.seat}'s"
                f" band {event.band}",
            )
        )
    return tuple(out)


_READERS: dict[type[Event], Callable[[Event, Ruleset], tuple[Slip, ...]]] = {
    AreaScored: _area_slips,
    GiantScored: _giant_slips,
    BandScored: _band_slips,
}
