"""End of an Age and scoring (spec §8–10: ``END-*``, ``SCORE-*``, ``GAME-*``).

The Age ends on its third Dragon (RECRUIT-4). Steps run in spec order: scatter the hands (END-1),
score kingdoms (END-2), the Merfolk board, the Giant token and the Orc Hordes (END-3), bands
(END-4), clean up (END-5), then the next Age or the end of the game (END-6). The only decisions are
the Orc players' (TRIBE-ORC-2), taken one player at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

import attrs

from . import age as _age
from .actions import Action, EmptyHorde
from .components import KINGDOMS, Colour
from .errors import IllegalActionError
from .state import AgeSummary, GameState, Pending

SOURCES = ("kingdoms", "merfolk", "giant", "orcs", "bands")
"""The kinds of end-of-Age Glory, in scoring order."""

Gains = tuple[tuple[int, ...], ...]
"""Glory gained this end of Age, per seat, per source in :data:`SOURCES` order."""


def _gain(
    state: GameState, gains: Gains, seat: int, source: str, amount: int
) -> tuple[GameState, Gains]:
    if not amount:
        return state, gains
    player = state.players[seat]
    state = state.with_player(seat, attrs.evolve(player, glory=player.glory + amount))
    row = list(gains[seat])
    row[SOURCES.index(source)] += amount
    return state, (*gains[:seat], tuple(row), *gains[seat + 1 :])


# --- ranking and awards (SCORE-K-*, SCORE-2P-1) ---------------------------------------------------


def rank_groups(state: GameState, values: Sequence[int]) -> list[list[int]]:
    """Contenders (value > 0, SCORE-K-1) in tie groups, best first (SCORE-K-3).

    Equal values are separated by the total, then the highest, of the Troll tokens held; under
    ``troll_tiebreak=first_only`` only among the players tied for the highest value.
    """
    contenders = [seat for seat, v in enumerate(values) if v > 0]
    if not contenders:
        return []
    best = max(values[s] for s in contenders)
    first_only = state.options.troll_tiebreak == "first_only"

    def key(seat: int) -> tuple[int, int, int]:
        trolls = state.players[seat].trolls
        if first_only and values[seat] != best:
            return (values[seat], 0, 0)
        return (values[seat], sum(trolls), max(trolls, default=0))

    ordered = sorted(contenders, key=lambda s: (tuple(-k for k in key(s)), s))
    groups: list[list[int]] = []
    for seat in ordered:
        if groups and key(groups[-1][0]) == key(seat):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def award(tokens: Sequence[int], age: int, rank: int) -> int:
    """SCORE-K-2: in Age ``age`` the ``rank``-th player earns the token on space
    ``age - rank + 1``, if that space exists."""
    space = age - rank + 1
    return tokens[space - 1] if 1 <= space <= len(tokens) else 0


def split_awards(groups: list[list[int]], prize: Callable[[int], int], players: int) -> list[int]:
    """SCORE-K-3: each tie group shares the prizes of the ranks it covers, rounded down."""
    out = [0] * players
    rank = 1
    for group in groups:
        total = sum(prize(r) for r in range(rank, rank + len(group)))
        for seat in group:
            out[seat] = total // len(group)
        rank += len(group)
    return out


def score_area(
    state: GameState, values: Sequence[int], tokens: Sequence[int], first_only: bool = False
) -> list[int]:
    """The Glory each seat earns from one kingdom (or the Merfolk board): ``values`` are the
    seats' markers (or track positions), ``tokens`` the award values on spaces I, II, III."""
    groups = rank_groups(state, values)
    n = state.config.players
    age = state.age
    if n == 2 and age == state.config.ages:
        return _two_player_final(state, groups, tokens)
    if first_only:
        # merfolk_scoring=first_only: the players furthest ahead share the first place's award.
        return split_awards(groups[:1], lambda r: award(tokens, age, 1) if r == 1 else 0, n)
    return split_awards(groups, lambda r: award(tokens, age, r), n)


def _two_player_final(
    state: GameState, groups: list[list[int]], tokens: Sequence[int]
) -> list[int]:
    """SCORE-2P-1: the first earns II, the second nothing; a lone contender earns I + II; a tie
    for first splits II (or I + II under ``two_player_final_tie=split_I_plus_II``)."""
    out = [0, 0]
    if not groups:
        return out
    first = groups[0]
    if len(first) == 2:
        pot = tokens[1] if state.options.two_player_final_tie == "split_II" else sum(tokens)
        return [pot // 2, pot // 2]
    out[first[0]] = sum(tokens) if len(groups) == 1 else tokens[1]
    return out


# --- end of the Age ---------------------------------------------------------------------------


def end_age(state: GameState, drawer: int) -> GameState:
    """RECRUIT-4: the third Dragon ends the Age at once; run END-1..3 up to the Orc decisions."""
    n = state.config.players
    gains: Gains = tuple((0,) * len(SOURCES) for _ in range(n))
    # END-1: every player discards their hand.
    cards = [c for p in state.players for c in p.hand]
    state = attrs.evolve(
        state,
        discard=tuple(sorted((*state.discard, *cards))),
        players=tuple(attrs.evolve(p, hand=()) for p in state.players),
    )
    # END-2: kingdoms.
    for kingdom, tokens in zip(KINGDOMS, state.tokens, strict=True):
        for seat, glory in enumerate(score_area(state, state.markers(kingdom), tokens)):
            state, gains = _gain(state, gains, seat, "kingdoms", glory)
    # END-3: Merfolk board, Giant token, then the Orc Hordes.
    if state.players[0].merfolk is not None:
        state, gains = _score_merfolk(state, gains)
    if state.giant_holder is not None:
        values = state.rules.giant_values[1 if state.config.small else 0]
        state, gains = _gain(state, gains, state.giant_holder, "giant", values[state.age - 1])
    order = [(drawer + 1 + i) % n for i in range(n)]
    return next_horde(state, gains, drawer, tuple(s for s in order if state.players[s].horde))


def _score_merfolk(state: GameState, gains: Gains) -> tuple[GameState, Gains]:
    """TRIBE-MER-3: the Merfolk board scores like a kingdom; players on space 0 are not ranked."""
    board = state.options.merfolk_board
    values = board.values_small if state.config.small else board.values_large
    positions = [p.merfolk or 0 for p in state.players]
    first_only = state.options.merfolk_scoring == "first_only"
    for seat, glory in enumerate(score_area(state, positions, values, first_only)):
        state, gains = _gain(state, gains, seat, "merfolk", glory)
    return state, gains


def next_horde(state: GameState, gains: Gains, drawer: int, queue: tuple[int, ...]) -> GameState:
    """TRIBE-ORC-2: the next Orc player decides; in the last Age every Horde is emptied."""
    last_age = state.age == state.config.ages
    while queue and last_age:
        state, gains = empty_horde(state, gains, queue[0], state.players[queue[0]].horde)
        queue = queue[1:]
    if queue:
        return attrs.evolve(state, pending=HordeEmptyPending(queue, drawer, gains))
    return finish_age(state, gains, drawer)


def empty_horde(
    state: GameState, gains: Gains, seat: int, colours: Sequence[Colour]
) -> tuple[GameState, Gains]:
    """Remove the markers on ``colours`` from the Horde of ``seat`` and score them (COMP-11)."""
    if not colours:
        return state, gains
    player = state.players[seat]
    left = tuple(c for c in player.horde if c not in colours)
    player = attrs.evolve(player, horde=left, supply=player.supply + len(colours))
    state = state.with_player(seat, player)
    return _gain(state, gains, seat, "orcs", state.rules.orc_glory[len(colours) - 1])


@attrs.frozen(slots=True)
class HordeEmptyPending(Pending):
    """Orcs at end of Age: the first player of ``queue`` empties their Horde or keeps it
    (TRIBE-ORC-2)."""

    queue: tuple[int, ...]
    drawer: int
    gains: Gains
    age_over: ClassVar[bool] = True
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
            how = "all of it or none" if state.options.orc_empty == "all_or_nothing" else "a part"
            raise IllegalActionError(
                "TRIBE-ORC-2", f"the Horde holds {horde}; empty {how} of it", action
            )
        state, gains = empty_horde(state, self.gains, self.seat, action.colours)
        return next_horde(state, gains, self.drawer, self.queue[1:])

    def describe(self) -> str:
        return f"seat {self.queue[0]}: empty the Orc Horde or keep it"


def band_score(state: GameState, size_after_skeletons: int, leader_bonus: int) -> int:
    """COMP-7 on the band's size after Skeletons are removed, plus the Dwarf bonus (END-4)."""
    return state.rules.band_value(size_after_skeletons + leader_bonus)


def finish_age(state: GameState, gains: Gains, drawer: int) -> GameState:
    """END-4 bands, END-5 cleanup, END-6 the next Age or the end of the game."""
    sizes = []
    for seat, player in enumerate(state.players):
        sizes.append(tuple(sorted((b.size for b in player.bands), reverse=True)))
        for band in player.bands:
            # TRIBE-SKE-1: Skeletons leave every band before it scores.
            kept = sum(1 for c in band.cards if not c.wild)
            bonus = band.leader.tribe.ability.band_bonus
            state, gains = _gain(state, gains, seat, "bands", band_score(state, kept, bonus))
    cards = [c for p in state.players for b in p.bands for c in b.cards]
    summary = AgeSummary(
        age=state.age,
        glory=tuple(p.glory for p in state.players),
        gains=tuple(
            tuple((src, g) for src, g in zip(SOURCES, row, strict=True) if g) for row in gains
        ),
        band_sizes=tuple(sizes),
        third_dragon=drawer,
    )
    state = attrs.evolve(
        state,
        discard=tuple(sorted((*state.discard, *cards))),
        players=tuple(attrs.evolve(p, bands=(), trolls=()) for p in state.players),
        giant_holder=None,
        giant_size=0,
        history=(*state.history, summary),
        last_dragon=drawer,
    )
    if state.age == state.config.ages:
        return attrs.evolve(state, pending=GameOver())
    return _age.begin_age(attrs.evolve(state, age=state.age + 1))


# --- end of the game --------------------------------------------------------------------------


@attrs.frozen(slots=True)
class GameOver(Pending):
    """The last Age is scored; nothing more can happen (GAME-1)."""

    terminal: ClassVar[bool] = True
    age_over: ClassVar[bool] = True
    rule: ClassVar[str] = "GAME-1"

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return ()

    def describe(self) -> str:
        return "the game is over"


def ranking_key(state: GameState, seat: int) -> tuple[int, int, tuple[int, ...]]:
    """Glory (GAME-1), then markers on the six kingdoms (GAME-2), then the last Age's band sizes
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
