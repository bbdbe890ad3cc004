"""End of an Age and scoring (spec §8–10: ``END-*``, ``SCORE-*``, ``GAME-*``).

The Age ends on its third Dragon (RECRUIT-4). Steps run in spec order: scatter the hands (END-1),
score kingdoms (END-2), the Merfolk board, the Giant token and the Orc Hordes (END-3), bands
(END-4), clean up (END-5), then the next Age or the end of the game (END-6). The only decisions are
the Orc players' (TRIBE-ORC-2), taken one player at a time.

Every award is an event (:class:`~ethnos_rules.AreaScored`, :class:`~ethnos_rules.BandScored`,
…) built by the rule here and credited from its ``gains``, so the events say exactly what was
paid.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

import attrs

from . import age as _age
from .actions import Action, EmptyHorde
from .components import Card, Colour, Kingdom, multiset_add
from .errors import IllegalActionError
from .events import (
    AgeEnded,
    AgeScored,
    AreaScored,
    BandScored,
    Event,
    GameEnded,
    GiantScored,
    HandDiscarded,
    HordeEmptied,
    HordeKept,
    Prize,
    TieGroup,
    credit_all,
    emit,
    recording,
    trace,
)
from .frozen import maker
from .options import TwoPlayerFinalTie
from .said import said
from .state import AgeSummary, DecisionKind, GameState, Pending, Stage, copy_player, copy_state

SOURCES = ("kingdoms", "merfolk", "giant", "orcs", "bands")
"""The kinds of end-of-Age Glory, in scoring order."""

Gains = tuple[tuple[int, ...], ...]
"""Glory gained this end of Age, per seat, per source in :data:`SOURCES` order."""


def _score(
    state: GameState, gains: Gains, source: str, events: Sequence[Event]
) -> tuple[GameState, Gains]:
    """Pay the gains of ``events`` (in one copy of the state), counted under ``source`` for the
    Age summary: each seat's Glory gained is what the payment added to it."""
    paid = credit_all(state, events)
    if paid is state:
        return state, gains
    column = SOURCES.index(source)
    rows = [list(row) for row in gains]
    for row, before, after in zip(rows, state.players, paid.players, strict=True):
        row[column] += after.glory - before.glory
    return paid, tuple([tuple(row) for row in rows])


# --- ranking and awards (SCORE-K-*, SCORE-2P-1) ---------------------------------------------------


Ranked = list[tuple[int, tuple[int, int] | None, list[int]]]
"""Tie groups, best first: (value, the Troll tokens that ranked them or None, seats)."""


def _ranked(state: GameState, values: Sequence[int]) -> Ranked:
    """Contenders (value > 0, SCORE-K-1) in tie groups, best first (SCORE-K-3): by value, then
    Troll total, then highest Troll; under ``troll_tiebreak=first_only`` Troll tokens count
    only among the players tied for the highest value."""
    best = max(values)
    if best <= 0:
        return []
    first_only = state.options.troll_tiebreak == "first_only"
    players = state.players
    # (the ranking key, the seat, the Troll tokens it ranks by), in seat order
    contenders: list[tuple[tuple[int, int, int], int, tuple[int, int] | None]] = []
    for seat, value in enumerate(values):
        if value > 0:
            held = players[seat].trolls
            counted = not first_only or value == best
            trolls = (sum(held), max(held, default=0)) if counted else None
            contenders.append(((value, *(trolls or (0, 0))), seat, trolls))
    contenders.sort(key=_KEY, reverse=True)  # a stable sort: ties stay in seat order
    groups: Ranked = []
    last = None
    for key, seat, trolls in contenders:
        if key == last:
            groups[-1][2].append(seat)
        else:
            groups.append((key[0], trolls, [seat]))
            last = key
    return groups


_KEY = operator.itemgetter(0)


def rank_groups(state: GameState, values: Sequence[int]) -> list[list[int]]:
    """Contenders (value > 0, SCORE-K-1) in tie groups, best first (SCORE-K-3)."""
    return [seats for _, _, seats in _ranked(state, values)]


def award_prize(tokens: Sequence[int], age: int, rank: int) -> Prize | None:
    """SCORE-K-2: in Age ``age`` the ``rank``-th player earns the token on space
    ``age - rank + 1``, if that space exists."""
    space = age - rank + 1
    return new_prize(space, tokens[space - 1]) if 1 <= space <= len(tokens) else None


# Every end of an Age builds awards, tie groups and a scoring of each kingdom without their
# __init__ (frozen.maker): Prize and TieGroup through their drafts, AreaScored (an Event, whose
# frozen base keeps a __weakref__ slot and refuses stores) through its slots' descriptors.
new_prize = maker(Prize)
new_tie_group = maker(TieGroup)
new_area_scored = maker(AreaScored)


def award(tokens: Sequence[int], age: int, rank: int) -> int:
    """The value of :func:`award_prize`, 0 where there is none."""
    prize = award_prize(tokens, age, rank)
    return prize.value if prize is not None else 0


def tie_share(total: int, members: int) -> int:
    """SCORE-K-3: each member of a tie group gets the sum of its awards divided by the number of
    members, rounded down."""
    return total // members


def split_awards(groups: list[list[int]], prize: Callable[[int], int], players: int) -> list[int]:
    """SCORE-K-3: each tie group shares the prizes of the ranks it covers, rounded down."""
    out = [0] * players
    rank = 1
    for group in groups:
        total = sum(prize(r) for r in range(rank, rank + len(group)))
        for seat in group:
            out[seat] = tie_share(total, len(group))
        rank += len(group)
    return out


Scheme = Literal["ranks", "first_only", "two_player_final"]


def area_score(
    state: GameState,
    kingdom: Kingdom | None,
    values: Sequence[int],
    tokens: Sequence[int],
    first_only: bool = False,
) -> AreaScored:
    """One kingdom (or the Merfolk board, ``kingdom`` None) scored at the end of this Age:
    ``values`` are the seats' markers (or track positions), ``tokens`` the award values on
    spaces I, II, III."""
    ranked = _ranked(state, values)
    age = state.age
    scheme: Scheme = "first_only" if first_only else "ranks"
    if state.config.players == 2 and age == state.config.ages:
        scheme = "two_player_final"
        prizes = _two_player_prizes(state, ranked, tokens)
    else:
        prizes = _rank_prizes(ranked, tokens, age, first_only)
    groups = []
    awards = [0] * state.config.players
    rank = 1
    for (value, trolls, seats), shared in zip(ranked, prizes, strict=True):
        total = 0
        for prize in shared:  # (a loop over a prize or two: cheaper than sum and a generator)
            total += prize.value
        share = tie_share(total, len(seats))
        for seat in seats:
            awards[seat] = share
        groups.append(new_tie_group(tuple(seats), value, trolls, rank, shared, share))
        rank += len(seats)
    return new_area_scored(
        kingdom, age, tuple(tokens), tuple(values), tuple(groups), scheme, tuple(awards)
    )


def _rank_prizes(
    ranked: Ranked, tokens: Sequence[int], age: int, first_only: bool
) -> list[tuple[Prize, ...]]:
    """SCORE-K-2/3: each group shares the awards of the ranks it covers; under
    ``merfolk_scoring=first_only`` only the first group earns, the first place's award."""
    out = []
    rank = 1
    for _, _, seats in ranked:
        ranks = range(rank, rank + len(seats))
        if first_only:
            ranks = range(1, 2) if rank == 1 else range(0)
        shared = []
        for r in ranks:
            prize = award_prize(tokens, age, r)
            if prize is not None:
                shared.append(prize)
        out.append(tuple(shared))
        rank += len(seats)
    return out


def _two_player_prizes(
    state: GameState, ranked: Ranked, tokens: Sequence[int]
) -> list[tuple[Prize, ...]]:
    sizes = [len(seats) for _, _, seats in ranked]
    return two_player_final_prizes(tokens, sizes, state.options.two_player_final_tie)


def two_player_final_prizes(
    tokens: Sequence[int], sizes: Sequence[int], tie: TwoPlayerFinalTie
) -> list[tuple[Prize, ...]]:
    """SCORE-2P-1, the final Age of a 2-player game: the prizes of each group of tied contenders
    (of ``sizes``, best first) in a kingdom whose tokens are ``tokens``. The first earns II, the
    second nothing; a lone contender earns I + II; a tie for first splits II (or I + II under
    ``two_player_final_tie=split_I_plus_II``, ``tie``).

    >>> [[p.value for p in group] for group in two_player_final_prizes((4, 6), [1, 1], "split_II")]
    [[6], []]
    """
    both = (new_prize(1, tokens[0]), new_prize(2, tokens[1]))
    if not sizes:
        return []
    if sizes[0] == 2:
        return [both[1:] if tie == "split_II" else both]
    if len(sizes) == 1:
        return [both]
    return [both[1:], ()]


def score_area(
    state: GameState, values: Sequence[int], tokens: Sequence[int], first_only: bool = False
) -> list[int]:
    """The Glory each seat earns from one kingdom (or the Merfolk board): ``values`` are the
    seats' markers (or track positions), ``tokens`` the award values on spaces I, II, III."""
    return list(area_score(state, None, values, tokens, first_only).awards)


# --- end of the Age ---------------------------------------------------------------------------


def end_age(state: GameState, drawer: int) -> GameState:
    """RECRUIT-4: the third Dragon ends the Age at once; run END-1..3 up to the Orc decisions."""
    n = state.config.players
    emit(AgeEnded, state.age, drawer)
    gains: Gains = tuple([(0,) * len(SOURCES) for _ in range(n)])
    # END-1: every player discards their hand.
    for seat, player in enumerate(state.players):
        if player.hand:
            emit(HandDiscarded, seat, player.hand)
    cards = [c for p in state.players for c in p.hand]
    state = copy_state(
        state,
        discard=multiset_add(state.discard, cards),
        discarded_hands=tuple([p.hand for p in state.players]),
        players=tuple([copy_player(p, hand=()) for p in state.players]),
    )
    # END-2: kingdoms (paying Glory changes nothing that ranks a kingdom: one payment).
    areas = [
        area_score(state, kingdom, state.markers(kingdom), tokens)
        for kingdom, tokens in zip(state.rules.kingdoms, state.tokens, strict=True)
    ]
    state, gains = _score(state, gains, "kingdoms", areas)
    # END-3: Merfolk board, Giant token, then the Orc Hordes.
    if state.players[0].merfolk is not None:
        state, gains = _score(state, gains, "merfolk", [_merfolk_score(state)])
    if state.giant_holder is not None:
        values = state.rules.giant_values[1 if state.config.small else 0]
        giant = GiantScored(state.giant_holder, values[state.age - 1], state.age)
        state, gains = _score(state, gains, "giant", [giant])
    return next_horde(state, gains, drawer, horde_queue(state, drawer))


def horde_queue(state: GameState, drawer: int) -> tuple[int, ...]:
    """END-3: the Orc players decide in turn order from the player after the drawer of the
    third Dragon; only players with Horde markers decide."""
    n = state.config.players
    order = [(drawer + 1 + i) % n for i in range(n)]
    return tuple([s for s in order if state.players[s].horde])


def _merfolk_score(state: GameState) -> AreaScored:
    """TRIBE-MER-3: the Merfolk board scores like a kingdom; players on space 0 are not ranked."""
    board = state.options.merfolk_board
    values = board.values_small if state.config.small else board.values_large
    positions = [p.merfolk or 0 for p in state.players]
    first_only = state.options.merfolk_scoring == "first_only"
    return area_score(state, None, positions, values, first_only)


def next_horde(state: GameState, gains: Gains, drawer: int, queue: tuple[int, ...]) -> GameState:
    """TRIBE-ORC-2: the next Orc player decides; in the last Age every Horde is emptied."""
    last_age = state.age == state.config.ages
    while queue and last_age:
        colours = state.players[queue[0]].horde
        state, gains = empty_horde(state, gains, queue[0], colours, forced=True)
        queue = queue[1:]
    if queue:
        return copy_state(state, pending=HordeEmptyPending(queue, drawer, gains))
    return finish_age(state, gains, drawer)


def empty_horde(
    state: GameState, gains: Gains, seat: int, colours: Sequence[Colour], forced: bool = False
) -> tuple[GameState, Gains]:
    """Remove the markers on ``colours`` from the Horde of ``seat`` and score them (COMP-11)."""
    if not colours:
        emit(HordeKept, seat)
        return state, gains
    player = state.players[seat]
    left = tuple([c for c in player.horde if c not in colours])
    player = copy_player(player, horde=left, supply=player.supply + len(colours))
    state = state.with_player(seat, player)
    glory = state.rules.orc_glory[len(colours) - 1]
    return _score(state, gains, "orcs", [HordeEmptied(seat, tuple(colours), glory, forced)])


@attrs.frozen(slots=True)
class HordeEmptyPending(Pending):
    """Orcs at end of Age: the first player of ``queue`` empties their Horde or keeps it
    (TRIBE-ORC-2)."""

    queue: tuple[int, ...]
    drawer: int
    gains: Gains
    stage: ClassVar[Stage] = Stage.AGE_END
    kind: ClassVar[DecisionKind] = DecisionKind.HORDE_EMPTY
    rule: ClassVar[str] = "TRIBE-ORC-2"
    accepts: ClassVar[tuple[type[Action], ...]] = (EmptyHorde,)

    @property
    def seat(self) -> int:
        return self.queue[0]

    def _choices(self, state: GameState) -> list[tuple[Colour, ...]]:
        horde = state.players[self.queue[0]].horde
        if state.options.orc_empty == "all_or_nothing":
            return [horde, ()]
        subsets = [
            tuple(c for i, c in enumerate(horde) if mask >> i & 1)
            for mask in range(1 << len(horde))
        ]
        return sorted(subsets, key=lambda s: (-len(s), s))

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return tuple(EmptyHorde(c) for c in self._choices(state))

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, EmptyHorde)
        if action.colours not in self._choices(state):
            horde = " ".join(c.label for c in state.players[self.seat].horde)
            if state.options.orc_empty == "all_or_nothing":
                why = said("the Horde holds {horde}; empty all of it or none of it", horde=horde)
            else:
                why = said("the Horde holds {horde}; empty a part of it", horde=horde)
            raise IllegalActionError("TRIBE-ORC-2", why, action)
        state, gains = empty_horde(state, self.gains, self.seat, action.colours)
        return next_horde(state, gains, self.drawer, self.queue[1:])

    def describe(self) -> str:
        return said("seat {queue}: empty the Orc Horde or keep it", queue=self.queue[0])

    def facts(self, state: GameState) -> dict[str, Any]:
        """The Horde, the Orc players still to decide after this one, and who drew the third
        Dragon (the order of the decisions starts after them, END-3)."""
        horde = state.players[self.seat].horde
        return {"horde": horde, "after": self.queue[1:], "third_dragon": self.drawer}

    def seats(self) -> tuple[int, ...]:
        return (*self.queue, self.drawer)

    def problems(self, state: GameState) -> list[str]:
        out = []
        order = horde_queue(state, self.drawer)
        first = self.queue[0] if self.queue else None
        if first not in order or self.queue != order[order.index(first) :]:
            out.append(
                f"the Orc players left to decide {list(self.queue)} must be the seats with Horde"
                f" markers, each once, in turn order after seat {self.drawer} (END-3, TRIBE-ORC-2)"
            )
        n = state.config.players
        if len(self.gains) != n or any(
            len(row) != len(SOURCES) or min(row) < 0 for row in self.gains
        ):
            out.append(
                f"the Glory gained this end of Age needs one row per seat of {len(SOURCES)}"
                f" non-negative values ({', '.join(SOURCES)})"
            )
        if state.age == state.config.ages:
            out.append("in the last Age every Horde is emptied without a decision (TRIBE-ORC-2)")
        return out


def band_score(state: GameState, size_after_skeletons: int, leader_bonus: int) -> int:
    """COMP-7 on the band's size after Skeletons are removed, plus the Dwarf bonus (END-4)."""
    return state.rules.band_value(size_after_skeletons + leader_bonus)


def finish_age(state: GameState, gains: Gains, drawer: int) -> GameState:
    """END-4 bands, END-5 cleanup, END-6 the next Age or the end of the game."""
    sizes = []
    scored = []
    cards: list[Card] = []  # every card of every band, for the discard (END-5)
    told = recording()  # most bands of an Age earn nothing: those are told, not paid
    for seat, player in enumerate(state.players):
        played = []
        for band in player.bands:
            size = band.size
            played.append(size)
            cards.append(band.leader)
            cards += band.others
            # TRIBE-SKE-1: Skeletons leave every band before it scores (a Leader is none).
            kept = size
            for card in band.others:  # a loop over a few cards: cheaper than sum or a list
                if card.wild:
                    kept -= 1
            bonus = band.leader.tribe.ability.band_bonus
            value = band_score(state, kept, bonus)
            if value or told:
                scored.append(BandScored(seat, band, kept, bonus, value))
        sizes.append(tuple(sorted(played, reverse=True)))
    state, gains = _score(state, gains, "bands", scored)
    summary = AgeSummary(
        age=state.age,
        glory=tuple([p.glory for p in state.players]),
        gains=tuple(
            [tuple([(src, g) for src, g in zip(SOURCES, row, strict=True) if g]) for row in gains]
        ),
        band_sizes=tuple(sizes),
        third_dragon=drawer,
    )
    emit(AgeScored, summary)
    last = state.age == state.config.ages
    # The game is over, or the next Age begins (in the same copy of the state).
    then: dict[str, Any] = {"pending": GameOver()} if last else {"age": state.age + 1}
    state = copy_state(
        state,
        discard=multiset_add(state.discard, cards),
        players=tuple([copy_player(p, bands=(), trolls=()) for p in state.players]),
        giant_holder=None,
        giant_size=0,
        history=(*state.history, summary),
        last_dragon=drawer,
        **then,
    )
    if last:
        emit(game_result, state)
        return state
    return _age.begin_age(state)


# --- what if the Age ended now ------------------------------------------------------------------


Hordes = Literal["empty", "keep"]
"""What :func:`score_now` assumes the Orc players do with their Hordes (TRIBE-ORC-2)."""


@attrs.frozen
class AgeScore:
    """What the end of the Age would award: see :func:`~ethnos_rules.score_now`.

    Attributes:
        summary: The Age summary the end of the Age would write (Glory after it, gains by
            source, band sizes, who drew the last Dragon).
        events: The scoring events, from :class:`~ethnos_rules.AgeEnded` to
            :class:`~ethnos_rules.AgeScored`, each with the Glory it awards.
        hordes: What the Orc players were assumed to do.
    """

    summary: AgeSummary
    events: tuple[Event, ...]
    hordes: Hordes

    @property
    def gains(self) -> tuple[tuple[tuple[str, int], ...], ...]:
        """Each seat's Glory by source, as :attr:`AgeSummary.gains`."""
        return self.summary.gains

    def gains_of(self, seat: int) -> dict[str, int]:
        """The Glory ``seat`` would gain, by source (as :meth:`AgeSummary.gains_of`)."""
        return self.summary.gains_of(seat)

    @property
    def glory(self) -> tuple[int, ...]:
        """Each seat's Glory after the Age's scoring."""
        return self.summary.glory


def score_now(state: GameState, drawer: int, hordes: Hordes) -> AgeScore:
    """The end of the Age's scoring, run by the rules above on ``state`` as if ``drawer`` drew
    the last Dragon now; each Orc decision is taken as ``hordes`` says."""

    def run() -> GameState:
        after = end_age(state, drawer)
        while isinstance(after.pending, HordeEmptyPending):
            seat = after.pending.seat
            colours = after.players[seat].horde if hordes == "empty" else ()
            after = after.pending.apply(after, EmptyHorde(colours))
        return after

    events = trace(run)[1]
    end = next(i for i, e in enumerate(events) if isinstance(e, AgeScored))
    scored = events[end]
    assert isinstance(scored, AgeScored)
    return AgeScore(scored.summary, events[: end + 1], hordes)


# --- end of the game --------------------------------------------------------------------------


@attrs.frozen(slots=True)
class GameOver(Pending):
    """The last Age is scored; nothing more can happen (GAME-1)."""

    terminal: ClassVar[bool] = True
    stage: ClassVar[Stage] = Stage.OVER
    kind: ClassVar[DecisionKind] = DecisionKind.GAME_OVER
    rule: ClassVar[str] = "GAME-1"

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return ()

    def describe(self) -> str:
        return said("the game is over")

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"winners": winners(state)}

    def problems(self, state: GameState) -> list[str]:
        ages = state.config.ages
        out = []
        if state.age != ages:
            out.append(f"the game ends after Age {ages}, not Age {state.age} (END-6)")
        if len(state.history) != ages:
            out.append(f"the game is over, so each of the {ages} Ages has a summary")
        return out


def ranking_key(state: GameState, seat: int) -> tuple[int, int, tuple[int, ...]]:
    """Glory (GAME-1), then markers on the kingdoms (GAME-2), then the last Age's band sizes
    largest first, more bands winning when all compared sizes are equal (GAME-3)."""
    player = state.players[seat]
    bands = state.history[-1].band_sizes[seat] if state.history else ()
    return (player.glory, sum(player.kingdoms), bands)


def winners(state: GameState) -> tuple[int, ...]:
    """The winning seats (several only if every tie-break is equal), or () before the end."""
    if not state.pending.terminal:
        return ()
    keys = [ranking_key(state, seat) for seat in range(state.config.players)]
    best = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)


def game_result(state: GameState) -> GameEnded:
    """The winners of a finished game, and the rule that decided among the best: GAME-1 if one
    seat has the most Glory, GAME-2 if the markers on the kingdoms separate the tied, else
    GAME-3 (the last Age's bands, or a shared victory)."""
    keys = [ranking_key(state, seat) for seat in range(state.config.players)]
    rules: tuple[Literal["GAME-1", "GAME-2"], ...] = ("GAME-1", "GAME-2")
    decided_by: Literal["GAME-1", "GAME-2", "GAME-3"] = "GAME-3"
    for parts, rule in enumerate(rules, start=1):
        best = max(key[:parts] for key in keys)
        if [key[:parts] for key in keys].count(best) == 1:
            decided_by = rule
            break
    return GameEnded(
        glory=tuple(key[0] for key in keys),
        winners=winners(state),
        decided_by=decided_by,
        markers=tuple(key[1] for key in keys),
        band_sizes=tuple(key[2] for key in keys),
    )
