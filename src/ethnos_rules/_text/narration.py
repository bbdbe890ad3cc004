"""A game told in plain English, for people learning the rules.

:func:`narrate` replays a :class:`~ethnos_rules.GameRecord` and says what happened and why: who
recruited what, who played which band, why a marker was or was not placed (the size test of
BAND-5 with its numbers), what each tribe ability did, the Dragons, and each Age's scoring with
its tie splits. Rule ids are cited in brackets of the form ``(BAND-5)``.

The helpers here also explain scoring for :func:`~ethnos_rules.validate`: what each kingdom paid
and how a player who misapplied a rule (a tie not split, Skeletons left in a band) would have
counted.

>>> from ethnos_rules import GameRecord, narrate, play_random
>>> record = GameRecord.from_playthrough(play_random(4, seed=3))
>>> lines = list(narrate(record))
>>> lines[0]
'A game of Ethnos for 4 players.'
>>> any("(BAND-5)" in line for line in lines)
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import attrs

from .._io.records import GameRecord, RecordError, options_to_dict
from .._rules import bands as _bands
from .._rules import scoring as _scoring
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
    parse_action,
)
from .._rules.age import DealPending, FirstPlayerPending, RowPending
from .._rules.bands import ChainPending, PlacePending
from .._rules.components import KINGDOMS, Card, Dragon, Kingdom
from .._rules.engine import apply, glory, winners
from .._rules.errors import RulesError
from .._rules.scoring import GameOver, HordeEmptyPending
from .._rules.state import GameState
from .._rules.tribes import (
    CheckpointPending,
    HordePending,
    KeepPending,
    TrollPending,
    WizardPending,
)
from .._rules.turn import RecruitDraw, TurnPending

ROMAN = ("0", "I", "II", "III", "IV", "V", "VI")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` …"""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"


def seats_text(seats: Sequence[int]) -> str:
    """``seat 2``, ``seats 0 and 2``, ``seats 0, 1 and 3``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    head = ", ".join(str(s) for s in seats[:-1])
    return f"seats {head} and {seats[-1]}"


def plural(n: int, word: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def cards_list(cards: Sequence[Card]) -> str:
    """Cards as text, or ``nothing``."""
    return " ".join(c.code for c in cards) or "nothing"


# --- placement (BAND-5) ---------------------------------------------------------------------


@attrs.frozen
class PlacementAnalysis:
    """Whether a band may place a marker and why (BAND-5, TRIBE-HAL-1, TRIBE-MIN-1,
    TRIBE-WIN-1).

    Attributes:
        kingdoms: The kingdoms where it may place.
        rule: The rule that decides it.
        text: The reason with its numbers, e.g. ``"3 cards > 2 markers of seat 0 in Duris"``.
    """

    kingdoms: tuple[Kingdom, ...]
    rule: str
    text: str


def _size_text(size: int, bonus: int) -> str:
    if not bonus:
        return plural(size, "card")
    return f"{plural(size, 'card')} + {bonus} for the Minotaur Leader = {size + bonus}"


def _test_text(state: GameState, seat: int, kingdom: Kingdom, effective: int, size: str) -> str:
    verb = "are" if size.endswith("cards") else "is"
    if state.config.players == 2:
        a, b = (p.kingdoms[kingdom] for p in state.players)
        if effective > a + b:
            return f"{size} > {a} + {b} = {a + b} markers of both players in {kingdom.label}"
        return (
            f"{size} {verb} not more than both players' {a} + {b} = {a + b} markers in"
            f" {kingdom.label} (the 2-player rule)"
        )
    own = state.players[seat].kingdoms[kingdom]
    if effective > own:
        return f"{size} > {plural(own, 'marker')} of seat {seat} in {kingdom.label}"
    return (
        f"{size} {verb} not more than the {plural(own, 'marker')} seat {seat} already has in"
        f" {kingdom.label}"
    )


def placement_analysis(state: GameState, seat: int, leader: Card, size: int) -> PlacementAnalysis:
    """Where a band of ``size`` cards led by ``leader`` may place, in ``state`` (the markers and
    supply are those before the band, which laying it does not change)."""
    ability = leader.tribe.ability
    if not ability.places:
        return PlacementAnalysis((), "TRIBE-HAL-1", "a Halfling-led band never places a marker")
    if state.players[seat].supply == 0:
        return PlacementAnalysis(
            (), "BAND-5", f"seat {seat} has no marker left in supply, so none can be placed"
        )
    assert leader.colour is not None
    bonus = ability.placement_bonus
    effective = size + bonus
    size_text = _size_text(size, bonus)
    if not ability.any_kingdom:
        kingdom = leader.colour.kingdom
        text = _test_text(state, seat, kingdom, effective, size_text)
        fits = effective > _threshold(state, seat, kingdom)
        allowed: tuple[Kingdom, ...] = (kingdom,) if fits else ()
        return PlacementAnalysis(allowed, "BAND-5", text)
    allowed = tuple(k for k in KINGDOMS if effective > _threshold(state, seat, k))
    refused = [k for k in KINGDOMS if k not in allowed]
    whose = "both players'" if state.config.players == 2 else f"seat {seat}'s"
    text = f"a Wingfolk-led band of {size_text} may place in any kingdom where it is larger than"
    text += f" {whose} markers there (TRIBE-WIN-1): "
    if allowed:
        text += "it may in " + ", ".join(k.label for k in allowed)
        if refused:
            text += "; not in " + ", ".join(
                f"{k.label} ({_threshold(state, seat, k)})" for k in refused
            )
    else:
        text += "no kingdom qualifies, every one has at least " + str(
            min(_threshold(state, seat, k) for k in KINGDOMS)
        )
    return PlacementAnalysis(allowed, "BAND-5", text)


_threshold = _bands.placement_threshold


# --- end-of-Age scoring, explained ------------------------------------------------------------


@attrs.frozen
class Alternative:
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


@attrs.frozen
class AreaScore:
    """One kingdom or the Merfolk board at the end of an Age.

    Attributes:
        name: ``"Rhea"`` or ``"the Merfolk board"``.
        awards: The Glory each seat earns there.
        line: The scoring in words.
        alternatives: Slips a score pad could contain here.
    """

    name: str
    awards: tuple[int, ...]
    line: str
    alternatives: tuple[Alternative, ...]


def _space(age: int, rank: int) -> int:
    return age - rank + 1


def _prize_text(tokens: Sequence[int], age: int, rank: int) -> str:
    space = _space(age, rank)
    if 1 <= space <= len(tokens):
        return f"{ROMAN[space]} = {tokens[space - 1]}"
    return "nothing"


def explain_area(
    state: GameState,
    name: str,
    values: Sequence[int],
    tokens: Sequence[int],
    *,
    unit: str,
    first_only: bool = False,
) -> AreaScore:
    """Score one area (a kingdom, or the Merfolk board with ``unit="space"``) in ``state``, the
    state in which the Age ends, and explain it (SCORE-K-1..3, SCORE-2P-1)."""
    awards = tuple(_scoring.score_area(state, values, tokens, first_only))
    groups = _scoring.rank_groups(state, values)
    if not groups:
        return AreaScore(name, awards, f"{name}: nobody is there.", ())
    age, players = state.age, state.config.players
    standing = ", ".join(f"seat {s} {values[s]}" for g in groups for s in g)
    head = f"{name} (tokens {'/'.join(map(str, tokens))}; {unit}s: {standing}): "
    parts: list[str] = []
    alts: list[Alternative] = []
    where = f"{name} in Age {ROMAN[age]}"
    for upper, lower in itertools.pairwise(groups):
        if values[upper[0]] == values[lower[0]]:
            a, b = state.players[upper[0]].trolls, state.players[lower[0]].trolls
            parts.append(
                f"{seats_text(upper)} ahead of {seats_text(lower)} on Troll tokens"
                f" ({sum(a)} to {sum(b)}) (SCORE-K-3)"
            )
    if players == 2 and age == state.config.ages:
        parts += _two_player_final(state, groups, tokens, alts, where)
        return AreaScore(name, awards, head + "; ".join(parts) + ".", tuple(alts))
    if first_only:
        parts.append("only the players furthest ahead earn (merfolk_scoring=first_only)")
        groups = groups[:1]
    rank = 1
    unpaid: list[int] = []
    for group in groups:
        prizes = [_scoring.award(tokens, age, r) for r in range(rank, rank + len(group))]
        if first_only:  # the first place's award alone is shared (TRIBE-MER-3 option)
            prizes = [prizes[0]] + [0] * (len(prizes) - 1)
        total = sum(prizes)
        if not total:
            unpaid += group
        elif len(group) == 1:
            parts.append(
                f"seat {group[0]} is {ordinal(rank)} and earns {_prize_text(tokens, age, rank)}"
            )
        else:
            last = rank + len(group) - 1
            tie = (
                f"{ordinal(rank)} and {ordinal(last)}"
                if len(group) == 2
                else (f"{ordinal(rank)} to {ordinal(last)}")
            )
            share = total // len(group)
            shares = " + ".join(map(str, prizes))
            rounded = ", rounded down" if total % len(group) else ""
            parts.append(
                f"{seats_text(group)} tie for {tie} and share {shares} = {total}:"
                f" {share} each{rounded} (SCORE-K-3)"
            )
            _tie_alternatives(group, prizes, where, alts)
        rank += len(group)
    if unpaid:
        places = plural(min(age, len(tokens)), "place")
        parts.append(f"nothing for {seats_text(sorted(unpaid))} (Age {ROMAN[age]} pays {places})")
    if not any("(SCORE-K-3)" in part for part in parts):
        parts[-1] += " (SCORE-K-2)"
    return AreaScore(name, awards, head + "; ".join(parts) + ".", tuple(alts))


def _tie_alternatives(
    group: Sequence[int], prizes: Sequence[int], where: str, alts: list[Alternative]
) -> None:
    total, k = sum(prizes), len(group)
    share = total // k
    tied = seats_text(group)
    for seat in group:
        alts.append(
            Alternative(
                seat,
                total - share,
                "no_split",
                "SCORE-K-3",
                f"as if {tied} had each taken the whole {total} of their tie in {where}"
                f" instead of sharing it ({share} each)",
            )
        )
        if total % k:
            alts.append(
                Alternative(
                    seat,
                    1,
                    "round_up",
                    "SCORE-K-3",
                    f"as if the tie split in {where} ({total} / {k}) had been rounded up"
                    f" instead of down ({share} each)",
                )
            )
        if prizes[0] != share:
            alts.append(
                Alternative(
                    seat,
                    prizes[0] - share,
                    "best_rank",
                    "SCORE-K-3",
                    f"as if each of {tied} had earned the best tied rank's {prizes[0]} in"
                    f" {where} instead of sharing {total} ({share} each)",
                )
            )


def _two_player_final(
    state: GameState,
    groups: list[list[int]],
    tokens: Sequence[int],
    alts: list[Alternative],
    where: str,
) -> list[str]:
    """SCORE-2P-1 in words."""
    first = groups[0]
    one, two = tokens[0], tokens[1]
    if len(first) == 2:
        if state.options.two_player_final_tie == "split_II":
            pot, other, how = two, one + two, f"II = {two}"
        else:
            pot, other, how = one + two, two, f"I + II = {one} + {two} = {one + two}"
        for seat in first:
            alts.append(
                Alternative(
                    seat,
                    other // 2 - pot // 2,
                    "two_player_tie",
                    "SCORE-2P-1",
                    f"as if the tie for first in {where} had split {other}, not {pot}",
                )
            )
        return [f"seats 0 and 1 tie for first and split {how}: {pot // 2} each (SCORE-2P-1)"]
    winner = first[0]
    if len(groups) == 1:
        alts.append(
            Alternative(
                winner,
                -one,
                "two_player_lone",
                "SCORE-2P-1",
                f"as if seat {winner}, alone in {where}, had earned only II and not I + II",
            )
        )
        return [
            f"only seat {winner} is there and earns I + II = {one} + {two} = {one + two}"
            " (SCORE-2P-1)"
        ]
    second = groups[1][0]
    alts.append(
        Alternative(
            second,
            one,
            "two_player_second",
            "SCORE-2P-1",
            f"as if seat {second}, second in {where}, had earned I = {one}",
        )
    )
    return [
        f"seat {winner} is first and earns II = {two}; seat {second}, second, earns nothing"
        " in the last Age of a 2-player game (SCORE-2P-1)"
    ]


def score_areas(state: GameState) -> list[AreaScore]:
    """Every kingdom, then the Merfolk board if in play, as scored at the end of this Age;
    ``state`` is the state in which the third Dragon is drawn (END-2, END-3)."""
    out = [
        explain_area(state, kingdom.label, state.markers(kingdom), tokens, unit="marker")
        for kingdom, tokens in zip(KINGDOMS, state.tokens, strict=True)
    ]
    if state.players[0].merfolk is not None:
        board = state.options.merfolk_board
        values = board.values_small if state.config.small else board.values_large
        positions = [p.merfolk or 0 for p in state.players]
        first_only = state.options.merfolk_scoring == "first_only"
        out.append(
            explain_area(
                state, "the Merfolk board", positions, values, unit="space", first_only=first_only
            )
        )
    return out


def band_lines(state: GameState) -> tuple[list[str], list[Alternative]]:
    """END-4 in words for every seat with bands, and the slips a score pad could contain."""
    lines: list[str] = []
    alts: list[Alternative] = []
    rules = state.rules
    for seat, player in enumerate(state.players):
        parts = []
        total = 0
        worthless = 0
        for band in player.bands:
            kept = sum(1 for c in band.cards if not c.wild)
            bonus = band.leader.tribe.ability.band_bonus
            value = rules.band_value(kept + bonus)
            total += value
            if kept != band.size:
                alts.append(
                    Alternative(
                        seat,
                        rules.band_value(band.size + bonus) - value,
                        "skeletons",
                        "TRIBE-SKE-1",
                        f"as if the Skeletons had stayed in seat {seat}'s band {band}",
                    )
                )
            if bonus:
                alts.append(
                    Alternative(
                        seat,
                        rules.band_value(kept) - value,
                        "dwarves",
                        "TRIBE-DWA-1",
                        f"as if the Dwarf Leader's +1 had been forgotten in seat {seat}'s"
                        f" band {band}",
                    )
                )
            if not value and kept == band.size == 1:
                worthless += 1
                continue
            text = f"{band}: "
            if kept != band.size:
                text += f"{plural(kept, 'card')} without Skeletons"
            else:
                text += plural(kept, "card")
            if bonus:
                text += f" + {bonus} for the Dwarf Leader"
            parts.append(f"{text} → {value}")
        if worthless:
            parts.append(f"{plural(worthless, 'band')} of 1 card → 0")
        if parts:
            lines.append(f"seat {seat}: " + "; ".join(parts) + f" — total {total}")
    return lines, alts


@attrs.frozen
class AgeScoring:
    """The explained end of one Age, computed in the state where the third Dragon is drawn."""

    age: int
    drawer: int
    areas: tuple[AreaScore, ...]
    giant: tuple[int, int] | None
    bands: tuple[str, ...]
    alternatives: tuple[Alternative, ...]


def explain_age_end(state: GameState, drawer: int) -> AgeScoring:
    """The scoring of the Age that ends in ``state`` (the state before the third Dragon)."""
    areas = score_areas(state)
    alts = [a for area in areas for a in area.alternatives]
    giant = None
    if state.giant_holder is not None:
        values = state.rules.giant_values[1 if state.config.small else 0]
        giant = (state.giant_holder, values[state.age - 1])
        alts.append(
            Alternative(
                state.giant_holder,
                -giant[1],
                "giant",
                "TRIBE-GIA-2",
                f"as if the Giant token's {giant[1]} for Age {ROMAN[state.age]} had been forgotten",
            )
        )
    bands, band_alts = band_lines(state)
    return AgeScoring(state.age, drawer, tuple(areas), giant, tuple(bands), (*alts, *band_alts))


def is_third_dragon(state: GameState, action: Action) -> bool:
    """True if ``action`` draws the Dragon that ends the Age (RECRUIT-4)."""
    return (
        isinstance(action, Reveal)
        and isinstance(action.card, Dragon)
        and state.dragons_drawn + 1 >= state.rules.dragons
    )


def drawer_of(state: GameState) -> int:
    """The seat drawing at a deck-draw chance event."""
    pending = state.pending
    if isinstance(pending, RecruitDraw):
        return pending.recruiter
    drawer = getattr(pending, "wizard", None)
    assert isinstance(drawer, int)
    return drawer


# --- the narrator -------------------------------------------------------------------------------


def narrate(record: GameRecord, *, stop: int | None = None) -> Iterator[str]:
    """The game of ``record`` in plain English, one line at a time.

    Args:
        stop: Narrate only the first ``stop`` decisions.

    The narration ends with the refusal if a decision breaks a rule.

    Raises:
        RecordError: ``record`` is not a :class:`~ethnos_rules.GameRecord`.
    """
    return Narrator(record).lines(stop)


class Narrator:
    """Replays a record and tells it; after :meth:`lines` is exhausted, :attr:`state` is the
    state reached and :attr:`error` the refusal, if any. Only the current state and the state in
    which the current Age ends are kept, so memory stays bounded."""

    def __init__(self, record: GameRecord) -> None:
        if not isinstance(record, GameRecord):
            raise RecordError(f"the narrator takes a GameRecord, not {type(record).__name__}")
        self.record = record
        self.state: GameState | None = None
        self.decisions = 0
        self.error: RulesError | None = None
        self._deal: list[str] = []
        self._row_done = False
        self._kept: list[Card] = []
        self._age_shown = 0
        self._scoring: AgeScoring | None = None
        self._decided_hordes: set[int] = set()

    def lines(self, stop: int | None = None) -> Iterator[str]:
        """The narration of the first ``stop`` decisions (all by default)."""
        record = self.record
        try:
            state = record.new_game()
        except RulesError as err:
            self.error = err
            yield f"The setup is refused: {err.rule} – {err.reason}."
            return
        self.state = state
        yield from self._intro(state)
        for index, text in enumerate(record.actions[:stop]):
            try:
                action = parse_action(text)
                after = apply(state, action)
            except RulesError as err:
                self.error = err
                err.add_note(f"at decision {index}: {text!r}")
                yield f"Decision {index} ({text!r}) is refused: {err.rule} – {err.reason}."
                return
            yield from self._step(state, action, after)
            state = after
            self.state = state
            self.decisions = index + 1
        if state.pending.terminal:
            yield from self._final(state)

    # --- setup ------------------------------------------------------------------------------

    def _intro(self, state: GameState) -> Iterator[str]:
        yield f"A game of Ethnos for {state.config.players} players."
        changed = options_to_dict(state.options)
        if changed:
            yield "Rule options: " + ", ".join(f"{k}={v}" for k, v in changed.items()) + "."
        if state.tribes and state.config.tribe_count == len(state.tribes):
            yield self._tribes_line(state, "given")
        if len(state.tokens) == len(KINGDOMS):
            yield self._tokens_line(state, "given")
        yield from self._age_start(state)

    def _tribes_line(self, state: GameState, how: str) -> str:
        names = ", ".join(t.name for t in state.tribes)
        return f"Tribes in play ({how}): {names} (SETUP-3)."

    def _tokens_line(self, state: GameState, how: str) -> str:
        laid = ", ".join(
            f"{k.label} {'/'.join(map(str, t))}"
            for k, t in zip(KINGDOMS, state.tokens, strict=True)
        )
        return f"Glory tokens ({how}, lowest on space I): {laid} (SETUP-4)."

    def _age_start(self, state: GameState) -> Iterator[str]:
        pending = state.pending
        if (
            not isinstance(pending, FirstPlayerPending | DealPending)
            or state.age <= self._age_shown
        ):
            return
        self._age_shown = state.age
        self._row_done = False
        yield ""
        yield f"=== Age {ROMAN[state.age]} of {ROMAN[state.config.ages]} ==="
        if state.first_player is None:
            return
        if state.age == 1:
            yield f"Seat {state.first_player} is the first player (given) (AGE-5)."
            return
        yield self._first_player_line(state)

    def _first_player_line(self, state: GameState) -> str:
        first = state.first_player
        assert first is not None
        least = min(p.glory for p in state.players)
        tied = [s for s, p in enumerate(state.players) if p.glory == least]
        if len(tied) == 1:
            return f"Seat {first} has the least Glory ({least}) and is the first player (AGE-5)."
        return (
            f"{seats_text(tied).capitalize()} have the least Glory ({least}); going clockwise"
            f" from seat {state.last_dragon}, who drew the last Dragon, seat {first} comes"
            " first and is the first player (AGE-5)."
        )

    # --- one decision -----------------------------------------------------------------------

    def _step(self, before: GameState, action: Action, after: GameState) -> Iterator[str]:
        pending = before.pending
        if isinstance(action, ChooseTribe):
            if len(after.tribes) == after.config.tribe_count:
                yield self._tribes_line(after, "chosen at random")
        elif isinstance(action, LayTokens):
            if len(after.tokens) == len(KINGDOMS):
                yield self._tokens_line(after, "laid at random")
        elif isinstance(action, ChooseFirstPlayer):
            yield f"Seat {action.seat} is chosen at random as the first player (AGE-5)."
        elif isinstance(action, Reveal):
            yield from self._reveal(before, action, after)
        elif isinstance(pending, TurnPending):
            yield from self._turn(before, action, after)
        elif isinstance(pending, PlacePending):
            yield from self._place(before, action, after)
        elif isinstance(pending, ChainPending):
            if isinstance(action, PlayBand):
                yield from self._band(before, action, after, chain=True)
            else:
                yield f"Seat {pending.seat} ends the Centaur chain (TRIBE-CEN-1)."
                yield from self._rest(before, after, pending.seat)
        else:
            yield from self._follow_up(before, action, after)
        yield from self._age_start(after)

    def _reveal(self, before: GameState, action: Reveal, after: GameState) -> Iterator[str]:
        pending = before.pending
        card = action.card
        if isinstance(pending, DealPending):
            self._deal.append(f"seat {pending.receiver(before)} {card}")
            if not isinstance(after.pending, DealPending):
                yield "Starting cards (AGE-2): " + ", ".join(self._deal) + "."
                self._deal = []
            return
        if isinstance(pending, RowPending):
            if not isinstance(after.pending, RowPending):
                yield f"The row (AGE-3): {cards_list(after.row)}."
                on_top = after.top_left
                below = sum(after.deck) - on_top + after.dragons_in_deck
                yield (
                    f"The deck is split (AGE-4): the top {on_top} cards hold no Dragon; the"
                    f" {after.dragons_in_deck} Dragons are shuffled into the other {below}."
                )
            return
        seat = drawer_of(before)
        wizards = not isinstance(pending, RecruitDraw)
        who = f"Seat {seat}'s Wizards draw" if wizards else f"Seat {seat} draws"
        if isinstance(card, Dragon):
            number = before.dragons_drawn + 1
            if is_third_dragon(before, action):
                yield (
                    f"{who} the third Dragon: Age {ROMAN[before.age]} ends at once, and"
                    " nothing else of the turn happens (RECRUIT-4)."
                )
                yield from self._age_end(before, after, seat)
            else:
                yield (
                    f"{who} a Dragon ({ordinal(number)} of {before.rules.dragons}): it is set"
                    f" aside and seat {seat} draws again (RECRUIT-3)."
                )
            return
        yield f"{who} {card} from the deck."

    def _turn(self, before: GameState, action: Action, after: GameState) -> Iterator[str]:
        seat = before.pending.seat
        assert seat is not None
        if isinstance(action, Recruit):
            if action.card is not None:
                yield f"Seat {seat} recruits {action.card} from the row (RECRUIT-1)."
        elif isinstance(action, Pass):
            yield (
                f"Seat {seat} holds {len(before.players[seat].hand)} cards that form no band"
                " and passes (TURN-3)."
            )
        elif isinstance(action, PlayBand):
            yield from self._band(before, action, after, chain=False)

    def _band(
        self, before: GameState, action: PlayBand, after: GameState, *, chain: bool
    ) -> Iterator[str]:
        seat = before.pending.seat
        assert seat is not None
        leader = action.leader
        size = len(action.cards)
        cards = " ".join(["*" + leader.code, *(c.code for c in action.others)])
        intro = "Centaurs: seat {s} plays another band" if chain else "Seat {s} plays a band"
        yield (
            intro.format(s=seat)
            + f" of {plural(size, 'card')} ({cards}), led by {leader} ({leader.tribe.name})"
            " (BAND-4)."
        )
        analysis = placement_analysis(before, seat, leader, size)
        if not analysis.kingdoms:
            yield f"  No marker: {analysis.text} ({analysis.rule})."
        elif isinstance(after.pending, PlacePending):
            yield f"  It may place a marker: {analysis.text} ({analysis.rule})."
        else:
            placed = _placed_kingdoms(before, after, seat)
            where = placed[0].label if placed else "?"
            yield (
                f"  It places a marker in {where}: {analysis.text} ({analysis.rule});"
                " placing is mandatory (BAND-5a)."
            )
        if not isinstance(after.pending, PlacePending):
            yield from self._ability(before, after, seat, leader, size)

    def _place(self, before: GameState, action: Action, after: GameState) -> Iterator[str]:
        pending = before.pending
        assert isinstance(pending, PlacePending) and isinstance(action, Place)
        seat = pending.seat
        if action.kingdom is None:
            yield f"  Seat {seat} chooses not to place a marker (BAND-5a)."
        else:
            now = after.players[seat].kingdoms[action.kingdom]
            yield (
                f"  Seat {seat} places a marker in {action.kingdom.label}"
                f" (now {now} there) (BAND-5)."
            )
        yield from self._ability(before, after, seat, pending.ctx.leader, pending.ctx.size)

    def _ability(
        self, before: GameState, after: GameState, seat: int, leader: Card, size: int
    ) -> Iterator[str]:
        """The Leader ability ran between ``before`` and ``after`` (BAND-6)."""
        code = leader.tribe.code
        old, new = before.players[seat], after.players[seat]
        if code == "GIA":
            if after.giant_holder == seat and after.giant_size == size > before.giant_size:
                previous = (
                    f"larger than every other Giant-led band this Age ({before.giant_size})"
                    if before.giant_size
                    else "the first Giant-led band this Age"
                )
                yield (
                    f"  Giants: the band ({size}) is {previous}: seat {seat} gains 2 Glory and"
                    " takes the Giant token (TRIBE-GIA-1)."
                )
            else:
                yield (
                    f"  Giants: the band ({size}) is not larger than the largest Giant-led band"
                    f" this Age ({before.giant_size}): no Glory, no token (TRIBE-GIA-1)."
                )
        elif code == "MER" and old.merfolk is not None and new.merfolk is not None:
            board = after.options.merfolk_board
            crossed = [c for c in board.checkpoints if old.merfolk < c <= new.merfolk]
            text = (
                f"  Merfolk: seat {seat}'s marker moves {plural(size, 'space')}, from"
                f" {old.merfolk} to {new.merfolk}"
            )
            if old.merfolk + size > new.merfolk:
                text += " (the end of the track)"
            if crossed:
                text += (
                    f", reaching checkpoint {', '.join(map(str, crossed))}: a marker for any"
                    " kingdom each (TRIBE-MER-1, TRIBE-MER-2)."
                )
            else:
                text += " (TRIBE-MER-1)."
            yield text
        elif code == "ORC" and not isinstance(after.pending, HordePending):
            if leader.colour in old.horde:
                yield (
                    f"  Orcs: the {leader.colour.label} space of seat {seat}'s Horde is already"
                    " taken (TRIBE-ORC-1)."
                )
            else:
                yield f"  Orcs: seat {seat} has no marker left for the Horde (TRIBE-ORC-1)."
        elif code == "TRO" and not isinstance(after.pending, TrollPending):
            yield f"  Trolls: no unclaimed Troll token is worth {size} or less (TRIBE-TRO-1)."
        yield from self._next_step(before, after, seat)

    def _next_step(self, before: GameState, after: GameState, seat: int) -> Iterator[str]:
        pending = after.pending
        if isinstance(pending, ChainPending) and pending.seat == seat:
            yield (
                f"  Centaurs: the band placed a marker, so seat {seat} may play another band"
                " from the rest of the hand (TRIBE-CEN-1)."
            )
        else:
            yield from self._rest(before, after, seat)

    def _rest(self, before: GameState, after: GameState, seat: int) -> Iterator[str]:
        added = Counter(after.row) - Counter(before.row)
        if added:
            cards = cards_list(sorted(added.elements()))
            yield f"  The rest of seat {seat}'s hand goes face up into the row: {cards} (BAND-6)."

    def _follow_up(self, before: GameState, action: Action, after: GameState) -> Iterator[str]:
        pending = before.pending
        seat = pending.seat
        if isinstance(pending, TrollPending) and isinstance(action, TakeTroll):
            if action.value is None:
                yield f"  Trolls: seat {seat} takes no Troll token (TRIBE-TRO-1)."
            else:
                yield (
                    f"  Trolls: seat {seat} takes the Troll token {action.value}"
                    f" (X = {pending.ctx.size}) (TRIBE-TRO-1)."
                )
            assert seat is not None
            yield from self._next_step(before, after, seat)
        elif isinstance(pending, CheckpointPending) and isinstance(action, Checkpoint):
            if action.kingdom is None:
                yield f"  Merfolk: seat {seat} places no checkpoint marker (TRIBE-MER-2)."
            else:
                yield (
                    f"  Merfolk: seat {seat} places a checkpoint marker in"
                    f" {action.kingdom.label}, whatever the band's size (TRIBE-MER-2)."
                )
            assert seat is not None
            yield from self._next_step(before, after, seat)
        elif isinstance(pending, HordePending) and isinstance(action, AddToHorde):
            colour = pending.ctx.leader.colour
            assert colour is not None
            if action.add:
                yield (
                    f"  Orcs: seat {seat} puts a marker on the {colour.label} space of the Horde"
                    " (TRIBE-ORC-1)."
                )
            else:
                yield f"  Orcs: seat {seat} does not add to the Horde (TRIBE-ORC-1)."
            assert seat is not None
            yield from self._next_step(before, after, seat)
        elif isinstance(pending, KeepPending) and isinstance(action, Keep):
            if action.card is not None:
                self._kept.append(action.card)
                return
            kept = self._kept
            self._kept = []
            assert seat is not None
            what = cards_list(kept) if kept else "nothing"
            yield (
                f"  Elves: seat {seat} keeps {what} (up to X = {pending.ctx.size}) (TRIBE-ELF-1)."
            )
            yield from self._rest(before, after, seat)
        elif isinstance(pending, WizardPending) and isinstance(action, WizardDraw):
            if action.count:
                yield (
                    f"  Wizards: seat {seat} draws {plural(action.count, 'card')} from the deck"
                    " (TRIBE-WIZ-1)."
                )
            else:
                yield f"  Wizards: seat {seat} draws nothing (TRIBE-WIZ-1)."
        elif isinstance(pending, HordeEmptyPending) and isinstance(action, EmptyHorde):
            assert seat is not None
            self._decided_hordes.add(seat)
            if action.colours:
                gained = after.players[seat].glory - before.players[seat].glory
                n = len(action.colours)
                yield (
                    f"Orcs: seat {seat} empties the Horde: {plural(n, 'marker')} back to"
                    f" supply, +{gained} Glory (TRIBE-ORC-2)."
                )
            else:
                yield f"Orcs: seat {seat} keeps the Horde for a later Age (TRIBE-ORC-2)."
            yield from self._finish_age(after)
        elif isinstance(action, StopChain):  # pragma: no cover - handled in _step
            return

    # --- end of an Age ----------------------------------------------------------------------

    def _age_end(self, before: GameState, after: GameState, drawer: int) -> Iterator[str]:
        scoring = explain_age_end(before, drawer)
        self._scoring = scoring
        self._decided_hordes = set()
        yield ""
        yield f"--- End of Age {ROMAN[before.age]} (END) ---"
        yield "Every hand is discarded (END-1)."
        yield "Kingdoms (END-2):"
        empty = [a.name for a in scoring.areas if a.line.endswith("nobody is there.")]
        for area in scoring.areas:
            if area.name not in empty:
                rule = "TRIBE-MER-3" if area.name == "the Merfolk board" else "SCORE-K-2"
                label = "  " if rule == "SCORE-K-2" else "Merfolk (TRIBE-MER-3): "
                yield label + area.line
        if empty:
            yield "  Nobody has a marker in " + ", ".join(empty) + "."
        if scoring.giant is not None:
            holder, value = scoring.giant
            yield (
                f"Giant token: seat {holder} holds it and gains {value} in Age"
                f" {ROMAN[before.age]} (TRIBE-GIA-2)."
            )
        yield from self._finish_age(after)

    def _finish_age(self, after: GameState) -> Iterator[str]:
        scoring = self._scoring
        if scoring is None or isinstance(after.pending, HordeEmptyPending):
            return
        if len(after.history) < scoring.age:  # pragma: no cover - defensive
            return
        summary = after.history[scoring.age - 1]
        self._scoring = None
        for seat, gains in enumerate(summary.gains):
            orcs = dict(gains).get("orcs", 0)
            if orcs and seat not in self._decided_hordes:
                yield (
                    f"Orcs: seat {seat}'s Horde is emptied in the last Age: +{orcs} Glory"
                    " (TRIBE-ORC-2)."
                )
        if scoring.bands:
            yield "Bands, after Skeletons leave them (END-4, COMP-7):"
            for line in scoring.bands:
                yield "  " + line
        yield "Glory this Age:"
        for seat, gains in enumerate(summary.gains):
            parts = ", ".join(f"{source} +{n}" for source, n in gains) or "nothing"
            total = sum(n for _, n in gains)
            yield f"  seat {seat}: {parts} = +{total}, now {summary.glory[seat]} Glory."

    def _final(self, state: GameState) -> Iterator[str]:
        assert isinstance(state.pending, GameOver)
        yield ""
        yield "=== The game is over ==="
        final = glory(state)
        yield "Final Glory: " + ", ".join(f"seat {s} {g}" for s, g in enumerate(final)) + "."
        won = winners(state)
        yield _winner_line(state, won)


def _placed_kingdoms(before: GameState, after: GameState, seat: int) -> list[Kingdom]:
    old, new = before.players[seat].kingdoms, after.players[seat].kingdoms
    return [k for k in KINGDOMS if new[k] > old[k]]


def _winner_line(state: GameState, won: tuple[int, ...]) -> str:
    best = max(p.glory for p in state.players)
    top = [s for s, p in enumerate(state.players) if p.glory == best]
    if len(top) == 1:
        return f"Seat {won[0]} wins with {best} Glory (GAME-1)."
    markers = {s: sum(state.players[s].kingdoms) for s in top}
    most = max(markers.values())
    by_markers = [s for s in top if markers[s] == most]
    detail = ", ".join(f"seat {s} {markers[s]}" for s in top)
    if len(by_markers) == 1:
        return (
            f"{seats_text(top).capitalize()} tie on {best} Glory; seat {won[0]} wins with the"
            f" most markers on the kingdoms ({detail}) (GAME-2)."
        )
    sizes = state.history[-1].band_sizes if state.history else ()
    bands = "; ".join(
        f"seat {s} {', '.join(map(str, sizes[s])) or 'none'}" for s in by_markers if sizes
    )
    if len(won) == 1:
        return (
            f"{seats_text(top).capitalize()} tie on {best} Glory and {seats_text(by_markers)}"
            f" on markers ({most}); the last Age's bands, largest first ({bands}), give the"
            f" victory to seat {won[0]} (GAME-3)."
        )
    return (
        f"{seats_text(top).capitalize()} tie on {best} Glory; {seats_text(won)} are equal on"
        f" markers and bands ({bands}) and share the victory (GAME-3)."
    )
