"""Property tests over random legal play, and targeted properties of placement and scoring.

The full-game tests play many seeded random games (2–6 players, random tribes, random rule
options, chance outcomes drawn with their exact probabilities) and check every step. What is
counted is counted here again from the spec (COMP-3 cards, COMP-6 markers, COMP-7 bands, …),
independently of the referee's own :func:`~ethnos_rules.state_problems`, which is checked as well.

To reproduce a failure, the Hypothesis output names the ``GameSetup`` and the seed; the message
names the step (the index of the decision in the game) and the action.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    CHANCE,
    DRAGON,
    FIRST_EDITION,
    Action,
    AddToHorde,
    Card,
    Checkpoint,
    ChooseFirstPlayer,
    ChooseTribe,
    Colour,
    EmptyHorde,
    GameState,
    Keep,
    Kingdom,
    LayTokens,
    MalformedActionError,
    Options,
    Pass,
    Place,
    PlayBand,
    Recruit,
    Reveal,
    RulesError,
    StopChain,
    TakeTroll,
    WizardDraw,
    WrongDecisionError,
    apply,
    card,
    chance_outcomes,
    glory,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    position,
    state_problems,
    to_move,
    winners,
)
from ethnos_rules._rules.scoring import band_score, score_area, split_awards
from helpers import SIX_TRIBES
from strategies import (
    COLOURS,
    KINGDOM_NAMES,
    TRIBE_CODES,
    GamePrefix,
    GameSetup,
    action_texts,
    age_count,
    game_prefixes,
    game_setups,
    options,
    player_counts,
    random_decision,
    seeds,
    token_pool,
    tribe_count,
)

# --- the printed numbers, from the spec ---------------------------------------------------------

BAND_GLORY = (0, 0, 1, 3, 6, 10, 15)
"""COMP-7: Glory of a band of 0 (nothing left), 1, 2, 3, 4, 5 and 6-or-more cards."""

ORC_GLORY = (0, 1, 3, 6, 10, 15, 20)
"""COMP-11: Glory for emptying 0 … 6 Horde markers."""

GIANT_VALUES = {False: (2, 4, 6), True: (2, 5)}
"""COMP-9: the Giant token per Age, 4–6 players side (False) and 2–3 players side (True)."""

MARKERS = 26
"""COMP-6: markers per player, the score marker included."""

HAND_LIMIT = 10
"""TURN-2."""

DRAGONS = 3
"""COMP-4."""


def band_glory(size: int) -> int:
    """COMP-7 on a band size (after Skeletons are removed, Dwarf bonus included)."""
    return BAND_GLORY[min(max(size, 0), 6)]


def full_card_set(tribes: Sequence[str]) -> Counter[str]:
    """COMP-3: 2 cards of each colour per tribe, 4 for Halflings, 12 colourless Skeletons."""
    cards: Counter[str] = Counter()
    for code in tribes:
        if code == "SKE":
            cards["SKE"] = 12
            continue
        for colour in COLOURS:
            cards[f"{code}-{colour}"] = 4 if code == "HAL" else 2
    return cards


def cards_everywhere(state: GameState) -> Counter[str]:
    """Every Ally card of the state by code: deck, row, hands, bands and discards."""
    found: Counter[str] = Counter()
    for kind, n in zip(state.rules.cards, state.deck, strict=True):
        found[kind.code] += n
    places = [state.row, state.discard]
    for player in state.players:
        places.append(player.hand)
        places.extend(band.cards for band in player.bands)
    for cards in places:
        found.update(c.code for c in cards)
    return +found


def tribe_codes(state: GameState) -> tuple[str, ...]:
    return tuple(t.code for t in state.tribes)


def band_problem(cards: Sequence[str], leader: str) -> str | None:
    """BAND-1..4 checked on card codes: why this is not a valid band, or None."""
    if not 1 <= len(cards) <= HAND_LIMIT:
        return f"{len(cards)} cards"
    if leader == "SKE":
        return "a Skeleton leads it"
    allies = [c.split("-") for c in cards if c != "SKE"]
    if len({a[0] for a in allies}) > 1 and len({a[1] for a in allies}) > 1:
        return "its Allies share neither a tribe nor a colour"
    return None


# --- reference scoring, written from the spec ---------------------------------------------------


def rank_groups(
    values: Sequence[int], trolls: Sequence[Sequence[int]], troll_tiebreak: str
) -> list[list[int]]:
    """SCORE-K-1/3: contenders (value > 0) in tie groups, best first."""
    contenders = [seat for seat, v in enumerate(values) if v > 0]
    if not contenders:
        return []
    best = max(values[s] for s in contenders)

    def key(seat: int) -> tuple[int, int, int]:
        if troll_tiebreak == "first_only" and values[seat] != best:
            return (values[seat], 0, 0)
        held = trolls[seat]
        return (values[seat], sum(held), max(held, default=0))

    groups: dict[tuple[int, int, int], list[int]] = {}
    for seat in contenders:
        groups.setdefault(key(seat), []).append(seat)
    return [groups[k] for k in sorted(groups, reverse=True)]


def expected_area(
    values: Sequence[int],
    trolls: Sequence[Sequence[int]],
    tokens: Sequence[int],
    age: int,
    last_age: bool,
    options: Options,
    first_only: bool = False,
) -> list[int]:
    """SCORE-K-2/3 and SCORE-2P-1: the Glory each seat earns from one kingdom (or the Merfolk
    board with positions as ``values``; ``first_only`` for ``merfolk_scoring=first_only``, where
    only the players furthest ahead earn, sharing the first place's award)."""
    players = len(values)
    groups = rank_groups(values, trolls, options.troll_tiebreak)
    out = [0] * players
    if players == 2 and last_age:
        if not groups:
            return out
        if len(groups[0]) == 2:
            pot = tokens[1] if options.two_player_final_tie == "split_II" else tokens[0] + tokens[1]
            return [pot // 2, pot // 2]
        out[groups[0][0]] = tokens[0] + tokens[1] if len(groups) == 1 else tokens[1]
        return out

    def prize(rank: int) -> int:
        space = age - rank + 1
        return tokens[space - 1] if 1 <= space <= len(tokens) else 0

    if first_only:
        groups = groups[:1]
    rank = 1
    for group in groups:
        covered = range(rank, rank + (1 if first_only else len(group)))
        total = sum(prize(r) for r in covered)
        for seat in group:
            out[seat] = total // len(group)
        rank += len(group)
    return out


def expected_end_of_age(state: GameState) -> dict[str, list[int]]:
    """END-2..4 from the state just before the third Dragon is revealed: Glory per source and
    seat, Orcs excluded (they depend on the TRIBE-ORC-2 decisions)."""
    n = state.config.players
    small = n <= 3
    last_age = state.age == age_count(n)
    opts = state.options
    trolls = [p.trolls for p in state.players]
    gains = {source: [0] * n for source in ("kingdoms", "merfolk", "giant", "bands")}
    for kingdom, tokens in enumerate(state.tokens):
        markers = [p.kingdoms[kingdom] for p in state.players]
        for seat, g in enumerate(expected_area(markers, trolls, tokens, state.age, last_age, opts)):
            gains["kingdoms"][seat] += g
    if "MER" in tribe_codes(state):
        first_only = opts.merfolk_scoring == "first_only"
        board = opts.merfolk_board
        values = board.values_small if small else board.values_large
        positions = [p.merfolk or 0 for p in state.players]
        gains["merfolk"] = expected_area(
            positions, trolls, values, state.age, last_age, opts, first_only
        )
    if state.giant_holder is not None:
        gains["giant"][state.giant_holder] = GIANT_VALUES[small][state.age - 1]
    for seat, player in enumerate(state.players):
        for band in player.bands:
            kept = sum(1 for c in band.cards if c.code != "SKE")
            dwarf = 1 if band.leader.tribe.code == "DWA" else 0
            gains["bands"][seat] += band_glory(kept + dwarf)
    return gains


# --- walking a game -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One decision of a game: its index, the state before, the action, the state after."""

    index: int
    before: GameState
    action: Action
    after: GameState

    def where(self) -> str:
        who = "chance" if is_chance(self.before) else f"seat {to_move(self.before)}"
        return f"step {self.index} ({self.action}; decided by {who})"


def walk(setup: GameSetup, seed: int) -> Iterator[Step]:
    """Every step of a seeded random game, to the end."""
    rng = random.Random(seed)
    state = setup.start()
    index = 0
    while not is_terminal(state):
        action = random_decision(state, rng)
        after = apply(state, action)
        yield Step(index, state, action, after)
        state = after
        index += 1


def play_checked(setup: GameSetup, seed: int, *checks: Callable[[Step], None]) -> GameState:
    """Play a seeded random game, run every check on every step; return the final state."""
    state = setup.start()
    for step in walk(setup, seed):
        for check in checks:
            check(step)
        state = step.after
    return state


# --- state invariants ---------------------------------------------------------------------------


def check_invariants(state: GameState, where: str) -> None:
    """COMP-3, COMP-6, COMP-8, TURN-2, BAND-1..4 counted independently, and the referee's own
    check."""
    problems = state_problems(state)
    assert problems == (), f"{where}: state_problems: {problems}"
    n = state.config.players
    codes = tribe_codes(state)
    if len(codes) == tribe_count(n):
        found, full = cards_everywhere(state), full_card_set(codes)
        assert found == full, (
            f"{where}: COMP-3 cards not conserved: {found - full} / {full - found}"
        )
    assert all(c >= 0 for c in state.deck), f"{where}: negative deck count"
    for seat, p in enumerate(state.players):
        assert len(p.hand) <= HAND_LIMIT, f"{where}: TURN-2 seat {seat} holds {len(p.hand)} cards"
        for band in p.bands:
            codes_of_band = [c.code for c in band.cards]
            problem = band_problem(codes_of_band, band.leader.code)
            assert problem is None, f"{where}: BAND-2..4 seat {seat} band {band}: {problem}"
        merfolk = 0 if p.merfolk is None else 1
        total = p.supply + sum(p.kingdoms) + merfolk + len(p.horde) + 1
        assert total == MARKERS, f"{where}: COMP-6 seat {seat} has {total} markers"
        assert p.supply >= 0, f"{where}: seat {seat} has a negative supply"
        assert min(p.kingdoms) >= 0, f"{where}: seat {seat} has negative markers"
        assert len(set(p.horde)) == len(p.horde), f"{where}: COMP-11 two markers on one space"
        if len(codes) == tribe_count(n):
            assert (p.merfolk is not None) == ("MER" in codes), f"{where}: SETUP-5 Merfolk marker"
    held = [v for p in state.players for v in p.trolls]
    assert len(set(held)) == len(held) and set(held) <= {1, 2, 3, 4, 5, 6}, (
        f"{where}: COMP-8 Troll tokens {held}"
    )


class InvariantChecks:
    """Per step: the invariants above, Glory never decreasing, Merfolk never moving back."""

    def __call__(self, step: Step) -> None:
        before, after = step.before, step.after
        where = step.where()
        if step.index == 0:
            check_invariants(before, "start")
        check_invariants(after, where)
        for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
            assert new.glory >= old.glory, f"{where}: seat {seat}'s Glory fell"
            if old.merfolk is not None and new.merfolk is not None:
                assert new.merfolk >= old.merfolk, f"{where}: TRIBE-MER-1 Merfolk moved back"
                last = after.options.merfolk_board.last_space
                assert new.merfolk <= last, f"{where}: TRIBE-MER-1 beyond the last space"


# --- Ages, turns and scoring --------------------------------------------------------------------


class AgeChecks:
    """AGE-1..6, RECRUIT-3/4, END-1..6, SCORE-*, GAME-1..3, TRIBE-GIA-1, followed step by step.

    An Age ends only on the reveal of its third Dragon; after it only Orc decisions
    (TRIBE-ORC-2) come before the next Age or the end of the game. Glory changes during an Age
    only by the Giant bonus (TRIBE-GIA-1). The end-of-Age gains are recomputed from the spec.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.turn_seat: int | None = None
        self.new_age = True
        self.before_end: GameState | None = None
        self.expected: dict[str, list[int]] | None = None
        self.orcs = [0] * players
        self.orc_queue: list[int] = []
        self.last_bands: list[tuple[int, ...]] = []

    def __call__(self, step: Step) -> None:
        before, action, after = step.before, step.action, step.after
        where = step.where()
        n = self.players
        third_dragon = isinstance(action, Reveal) and action.card is DRAGON
        third_dragon = third_dragon and before.dragons_drawn == DRAGONS - 1
        ending = before.pending.rule == "TRIBE-ORC-2"
        ended = len(after.history) > len(before.history)
        if isinstance(action, Reveal) and action.card is DRAGON and not third_dragon:
            # RECRUIT-3: the first and second Dragons change nothing but the count.
            assert after.dragons_drawn == before.dragons_drawn + 1, where
            assert after.age == before.age and is_chance(after), f"{where}: RECRUIT-3"
        if third_dragon:
            self._third_dragon(step)
        elif ending:
            self._orc_decision(step)
        else:
            assert not ended, f"{where}: an Age ended without its third Dragon (RECRUIT-4)"
            assert after.age == before.age and not is_terminal(after), where
            assert after.dragons_drawn < DRAGONS, where
            self._glory_during_age(step)
        if ended:
            self._age_ended(step)
        elif ending or third_dragon:
            assert after.pending.rule == "TRIBE-ORC-2", f"{where}: END-3 expected Orc decisions"
        if before.pending.rule == "AGE-2":
            # AGE-2: starting cards go one by one in seat order from the first player.
            assert before.first_player is not None
            k = sum(1 for p in before.players if p.hand)
            grew = [s for s in range(n) if len(after.players[s].hand) > len(before.players[s].hand)]
            assert grew == [(before.first_player + k) % n], f"{where}: AGE-2 deal order"
        if after.pending.rule == "TURN-1":
            self._turn_starts(step)

    def _glory_during_age(self, step: Step) -> None:
        before, after = step.before, step.after
        gained = [a - b for a, b in zip(glory(after), glory(step.before), strict=True)]
        if any(gained):
            seat = to_move(before)
            assert gained == [2 if s == seat else 0 for s in range(self.players)], (
                f"{step.where()}: Glory {gained} during an Age; only the Giant bonus is allowed"
            )
            assert after.giant_holder == seat, f"{step.where()}: TRIBE-GIA-1 token not taken"
            assert after.giant_size > before.giant_size, f"{step.where()}: TRIBE-GIA-1 size"

    def _third_dragon(self, step: Step) -> None:
        before, after = step.before, step.after
        assert before.top_left == 0, f"{step.where()}: a Dragon came from the top part (AGE-4)"
        assert self.turn_seat is not None
        self.before_end = before
        self.expected = expected_end_of_age(before)
        self.last_bands = [
            tuple(sorted((b.size for b in p.bands), reverse=True)) for p in before.players
        ]
        self.orcs = [0] * self.players
        hordes = [s for s in range(self.players) if before.players[s].horde]
        order = [(self.turn_seat + 1 + i) % self.players for i in range(self.players)]
        self.orc_queue = [s for s in order if s in hordes]
        if before.age == age_count(self.players):
            # TRIBE-ORC-2: in the last Age every Horde is emptied.
            for seat in self.orc_queue:
                self.orcs[seat] = ORC_GLORY[len(before.players[seat].horde)]
            self.orc_queue = []
        if after.pending.rule == "TRIBE-ORC-2":
            assert to_move(after) == self.orc_queue[0], f"{step.where()}: END-3 Orc order"
        for seat, p in enumerate(after.players):
            assert p.hand == (), f"{step.where()}: END-1 seat {seat} kept a hand"

    def _orc_decision(self, step: Step) -> None:
        action, before = step.action, step.before
        assert isinstance(action, EmptyHorde), f"{step.where()}: only Orc decisions at END-3"
        seat = self.orc_queue.pop(0)
        assert to_move(before) == seat, f"{step.where()}: END-3 Orc decisions out of order"
        self.orcs[seat] += ORC_GLORY[len(action.colours)]
        if before.options.orc_empty == "all_or_nothing":
            assert action.colours in ((), before.players[seat].horde), step.where()
        if step.after.pending.rule == "TRIBE-ORC-2":
            assert to_move(step.after) == self.orc_queue[0], f"{step.where()}: END-3 Orc order"

    def _age_ended(self, step: Step) -> None:
        after, where = step.after, step.where()
        start = self.before_end
        assert start is not None and self.turn_seat is not None and self.expected is not None
        summary = after.history[-1]
        assert summary.age == start.age and len(after.history) == start.age, where
        assert summary.third_dragon == self.turn_seat, f"{where}: AGE-5 third Dragon drawer"
        assert summary.band_sizes == tuple(self.last_bands), f"{where}: band sizes as played"
        gains = {seat: dict(row) for seat, row in enumerate(summary.gains)}
        expected = dict(self.expected, orcs=self.orcs)
        for seat in range(self.players):
            want = {src: g[seat] for src, g in expected.items() if g[seat]}
            assert gains[seat] == want, (
                f"{where}: end of Age {start.age} seat {seat} gained {gains[seat]}, the spec"
                f" gives {want}"
            )
        total = [sum(gains[s].values()) for s in range(self.players)]
        assert list(glory(after)) == [g + t for g, t in zip(glory(start), total, strict=True)], (
            f"{where}: Glory is not the Glory before the Age's end plus the gains"
        )
        assert summary.glory == glory(after), where
        for seat, (old, new) in enumerate(zip(start.players, after.players, strict=True)):
            # END-5: markers on kingdoms and the Merfolk board stay; tokens return.
            assert new.kingdoms == old.kingdoms and new.merfolk == old.merfolk, f"{where}: END-5"
            assert new.trolls == () and new.bands == (), f"{where}: END-5 seat {seat}"
        assert after.giant_holder is None, f"{where}: END-5 Giant token"
        ages = age_count(self.players)
        if start.age == ages:
            assert is_terminal(after) and after.age == ages, f"{where}: END-6 the game must end"
            assert len(after.history) == ages, f"{where}: SETUP-2 {ages} Ages"
            self._winners(after)
        else:
            assert not is_terminal(after) and after.age == start.age + 1, f"{where}: END-6"
            order = [(self.turn_seat + i) % self.players for i in range(self.players)]
            least = min(order, key=lambda s: after.players[s].glory)
            assert after.first_player == least, f"{where}: AGE-5 first player"
            assert after.discard == () and after.row == (), f"{where}: AGE-1 reshuffle"
            assert all(p.hand == () for p in after.players), f"{where}: AGE-1 reshuffle"
        self.new_age = True

    def _winners(self, final: GameState) -> None:
        keys = [
            (p.glory, sum(p.kingdoms), self.last_bands[seat])
            for seat, p in enumerate(final.players)
        ]
        best = max(keys)
        want = tuple(seat for seat, key in enumerate(keys) if key == best)
        assert winners(final) == want, f"GAME-1..3: winners {winners(final)}, expected {want}"

    def _turn_starts(self, step: Step) -> None:
        after, where = step.after, step.where()
        seat = to_move(after)
        assert isinstance(seat, int)
        n = self.players
        if self.new_age:
            # AGE-2..4 and AGE-6: the first turn of an Age.
            assert seat == after.first_player, f"{where}: AGE-6 the first player starts"
            assert all(len(p.hand) == 1 for p in after.players), f"{where}: AGE-2 one card each"
            assert len(after.row) == 2 * n, f"{where}: AGE-3 row of {2 * n}"
            assert after.top_left == sum(after.deck) // 2, f"{where}: AGE-4 top part n // 2"
            assert after.dragons_in_deck == DRAGONS and after.dragons_drawn == 0, where
            spaces = 2 if n <= 3 else 3
            assert all(len(t) == spaces and list(t) == sorted(t) for t in after.tokens), (
                f"{where}: SETUP-4 tokens per kingdom, lowest on I"
            )
            laid = sorted(v for t in after.tokens for v in t)
            assert laid == list(token_pool(after.options, n)), f"{where}: SETUP-4 token pool"
            self.new_age = False
        else:
            assert self.turn_seat is not None
            assert seat == (self.turn_seat + 1) % n, f"{where}: AGE-6 turns go clockwise"
        self.turn_seat = seat


# --- legal actions ------------------------------------------------------------------------------


def check_chance(state: GameState, legal: tuple[Action, ...], where: str) -> None:
    """Spec §11: outcomes are the legal actions, probabilities > 0 summing to 1, and a draw's
    probabilities are c_k / A in the top part and c_k / b, d / b in the bottom part."""
    outcomes = chance_outcomes(state)
    assert tuple(a for a, _ in outcomes) == legal, f"{where}: outcomes differ from legal_actions"
    assert all(p > 0 for _, p in outcomes), f"{where}: an outcome of probability <= 0"
    assert sum(p for _, p in outcomes) == 1, (
        f"{where}: probabilities sum to {sum(p for _, p in outcomes)}"
    )
    assert all(a.chance for a in legal), f"{where}: a player's action at a chance event"
    if all(isinstance(a, ChooseTribe) for a in legal):
        left = len(TRIBE_CODES) - len(state.tribes)
        assert all(p == Fraction(1, left) for _, p in outcomes), f"{where}: SETUP-3 not uniform"
    if all(isinstance(a, ChooseFirstPlayer) for a in legal):
        n = state.config.players
        assert all(p == Fraction(1, n) for _, p in outcomes), f"{where}: AGE-5 not uniform"
    if all(isinstance(a, LayTokens) for a in legal):
        pool = Counter(token_pool(state.options, state.config.players))
        pool.subtract(v for laid in state.tokens for v in laid)
        for action, p in outcomes:
            assert isinstance(action, LayTokens)
            drawn = Counter(action.values)
            ways = math.prod(math.comb(pool[v], m) for v, m in drawn.items())
            exact = Fraction(ways, math.comb(pool.total(), len(action.values)))
            assert p == exact, f"{where}: SETUP-4 P({action}) = {p}, expected {exact}"
    if all(isinstance(a, Reveal) for a in legal):
        allies = sum(state.deck)
        dragons = state.dragons_in_deck if state.top_left == 0 else 0
        want = {
            str(kind): Fraction(count, allies + dragons)
            for kind, count in zip(state.rules.cards, state.deck, strict=True)
            if count
        }
        if dragons:
            want["DRAGON"] = Fraction(dragons, allies + dragons)
        got = {str(a.card): p for a, p in outcomes if isinstance(a, Reveal)}
        assert got == want, f"{where}: CHANCE draw probabilities {got}, expected {want}"


def every_band(hand: Sequence[Card]) -> set[Action]:
    """BAND-1..4 by brute force: every sub-multiset of the hand that is a valid band, with each
    kind of its non-Skeleton cards as Leader."""
    counts = Counter(hand)
    kinds = list(counts)
    out: set[Action] = set()
    for picks in itertools.product(*(range(counts[k] + 1) for k in kinds)):
        cards = [k for k, m in zip(kinds, picks, strict=True) for _ in range(m)]
        codes = [c.code for c in cards]
        for leader in {c for c in cards if not c.wild}:
            if band_problem(codes, leader.code) is None:
                rest = list(cards)
                rest.remove(leader)
                out.add(PlayBand.of(leader, *rest))
    return out


def check_turn_actions(state: GameState, legal: tuple[Action, ...], where: str) -> None:
    """TURN-1..3, RECRUIT-1, BAND-1..4, TRIBE-CEN-1: a turn offers every band of the hand, a
    recruit of each row card and of the deck below 10 cards, and a pass only with 10 cards that
    form no band; a Centaur chain offers every band of the rest of the hand, or to stop."""
    seat = to_move(state)
    assert isinstance(seat, int)
    hand = state.players[seat].hand
    bands = every_band(hand)
    offered = set(legal)
    if state.pending.rule == "TRIBE-CEN-1":
        assert offered == bands | {StopChain()}, f"{where}: TRIBE-CEN-1 chain choices"
        return
    if len(hand) < HAND_LIMIT:
        recruits: set[Action] = {Recruit(c) for c in state.row} | {Recruit(None)}
        assert offered == bands | recruits, f"{where}: TURN-1 choices"
    elif bands:
        assert offered == bands, f"{where}: TURN-2 no recruit with {HAND_LIMIT} cards"
    else:
        assert legal == (Pass(),), f"{where}: TURN-3 only a pass"


class LegalChecks:
    """Per step: ``legal_actions`` deterministic, duplicate-free, non-empty before the end;
    chance outcomes sound; ``apply`` pure; every ``k``-th state, every legal action applies."""

    def __init__(self, every: int) -> None:
        self.every = every

    def __call__(self, step: Step) -> None:
        before, action = step.before, step.action
        where = step.where()
        legal = legal_actions(before)
        assert legal_actions(before) == legal, f"{where}: legal_actions is not deterministic"
        assert len(set(legal)) == len(legal), f"{where}: legal_actions has duplicates"
        assert legal and not is_terminal(before), f"{where}: no legal action before the end"
        assert action in legal, where
        if is_chance(before):
            assert to_move(before) is CHANCE, where
            check_chance(before, legal, where)
        else:
            assert isinstance(to_move(before), int), where
            assert chance_outcomes(before) == (), f"{where}: outcomes where a player decides"
            assert not any(a.chance for a in legal), f"{where}: a chance outcome for a player"
        snapshot = copy.deepcopy(before)
        again = apply(before, action)
        assert before == snapshot, f"{where}: apply changed its input"
        assert again == step.after, f"{where}: apply is not deterministic"
        if step.index % self.every == 0:
            if before.pending.rule in ("TURN-1", "TRIBE-CEN-1"):
                check_turn_actions(before, legal, where)
            for other in legal:
                assert parse_action(str(other)) == other, f"{where}: {other} does not round-trip"
                try:
                    result = apply(before, other)
                except Exception as err:
                    raise AssertionError(f"{where}: legal action {other} failed: {err!r}") from err
                assert state_problems(result) == (), f"{where}: {other} breaks the state"
                assert before == snapshot, f"{where}: apply({other}) changed its input"


# --- illegal actions ----------------------------------------------------------------------------

_ALL_CARDS = FIRST_EDITION.cards
_ALL_TRIBES = FIRST_EDITION.tribes


def random_text(rng: random.Random) -> str:
    """A random text in the action notation (not always legal, nor always parse-able)."""
    c = rng.choice(_ALL_CARDS).code
    k = rng.choice(KINGDOM_NAMES)
    options = [
        f"tribe {rng.choice(TRIBE_CODES)}",
        f"tokens {k} {rng.randrange(11)} {rng.randrange(11)} {rng.randrange(11)}",
        f"first {rng.randrange(8)}",
        f"reveal {rng.choice([c, 'DRAGON'])}",
        f"recruit {rng.choice([c, 'deck'])}",
        "band *" + " ".join(rng.choice(_ALL_CARDS).code for _ in range(rng.randrange(1, 6))),
        "pass",
        f"place {rng.choice([k, 'none'])}",
        f"troll {rng.choice([str(rng.randrange(9)), 'none'])}",
        f"checkpoint {rng.choice([k, 'none'])}",
        f"horde {rng.choice(['add', 'none'])}",
        "chain stop",
        f"keep {rng.choice([c, 'done'])}",
        f"wizard {rng.randrange(12)}",
        "empty " + " ".join(rng.sample(COLOURS, rng.randrange(1, 4))),
        "empty none",
    ]
    return rng.choice(options)


def mutations(action: Action, state: GameState, rng: random.Random) -> list[Action]:
    """Actions close to ``action``: a card added, swapped or made Leader, another kingdom, value,
    count, colour or seat."""
    any_card = rng.choice(_ALL_CARDS)
    kingdom = rng.choice(list(Kingdom))
    out: list[Action] = []
    if isinstance(action, PlayBand):
        others = list(action.others)
        out.append(PlayBand.of(action.leader, *others, any_card))
        out.append(PlayBand.of(action.leader, *others, action.leader))
        out.append(PlayBand.of(any_card, *action.cards))
        if others:
            i = rng.randrange(len(others))
            swapped = [*others[:i], any_card, *others[i + 1 :]]
            out.append(PlayBand.of(action.leader, *swapped))
            out.append(PlayBand.of(others[i], *others[:i], *others[i + 1 :], action.leader))
        out.append(PlayBand.of(card("SKE"), *action.cards))
    elif isinstance(action, Place):
        out += [Place(kingdom), Place(None)]
    elif isinstance(action, Checkpoint):
        out += [Checkpoint(kingdom), Checkpoint(None)]
    elif isinstance(action, TakeTroll):
        out += [TakeTroll(rng.randrange(0, 9)), TakeTroll(None)]
    elif isinstance(action, Keep):
        out += [Keep(any_card), Keep(None)]
    elif isinstance(action, WizardDraw):
        out += [WizardDraw(action.count + 1), WizardDraw(max(action.count - 1, 0))]
        out.append(WizardDraw(rng.randrange(12)))
    elif isinstance(action, EmptyHorde):
        colours = rng.sample(list(Colour), rng.randrange(7))
        out.append(EmptyHorde(tuple(sorted(colours))))
    elif isinstance(action, Recruit):
        out += [Recruit(any_card), Recruit(None)]
    elif isinstance(action, Reveal):
        out += [Reveal(any_card), Reveal(DRAGON)]
    elif isinstance(action, ChooseTribe):
        out.append(ChooseTribe(rng.choice(_ALL_TRIBES)))
    elif isinstance(action, LayTokens):
        values = list(action.values)
        values[rng.randrange(len(values))] += rng.choice([1, 2, 10])
        out += [LayTokens(action.kingdom, tuple(sorted(values)))]
        out += [LayTokens(kingdom, action.values), LayTokens(action.kingdom, action.values[1:])]
    elif isinstance(action, ChooseFirstPlayer):
        out += [ChooseFirstPlayer(state.config.players), ChooseFirstPlayer(-1)]
    return out


EVERY_KIND: tuple[Action, ...] = (
    Pass(),
    StopChain(),
    Recruit(None),
    Keep(None),
    Place(None),
    TakeTroll(None),
    Checkpoint(None),
    AddToHorde(True),
    WizardDraw(0),
    EmptyHorde(()),
    Reveal(DRAGON),
    ChooseFirstPlayer(0),
)
"""One action of (nearly) every kind: at most states most are the wrong decision."""


def illegal_candidates(
    state: GameState, legal: tuple[Action, ...], rng: random.Random, foreign: list[Action]
) -> list[object]:
    """Actions (and non-actions) to try at ``state``; the caller keeps those not legal here."""
    out: list[object] = list(rng.sample(foreign, min(len(foreign), 8)))
    for _ in range(6):
        with contextlib.suppress(MalformedActionError):
            out.append(parse_action(random_text(rng)))
    for action in rng.sample(legal, min(len(legal), 4)):
        out += mutations(action, state, rng)
    out += EVERY_KIND
    out += ["recruit deck", None, 3, PlayBand(card("ELF-red"), (card("SKE"), card("DWA-red")))]
    return out


def assert_rejected(state: GameState, candidate: object, where: str) -> None:
    """``apply`` must refuse ``candidate`` with a :class:`RulesError` and nothing else."""
    try:
        apply(state, candidate)  # type: ignore[arg-type]
    except RulesError:
        return
    except Exception as err:
        raise AssertionError(f"{where}: {candidate!r} raised {err!r}, not a RulesError") from err
    raise AssertionError(f"{where}: {candidate} is not in legal_actions but apply accepted it")


class RejectionChecks:
    """Every ``k``-th state: foreign, random and mutated actions that are not legal there are
    refused with a RulesError; so is a legal action claimed by the wrong seat."""

    def __init__(self, every: int, seed: int) -> None:
        self.every = every
        self.rng = random.Random(seed)
        self.foreign: list[Action] = []
        self.tried = 0

    def __call__(self, step: Step) -> None:
        before = step.before
        legal = legal_actions(before)
        if len(self.foreign) < 400 or self.rng.random() < 0.05:
            self.foreign.append(self.rng.choice(legal))
        if step.index % self.every:
            return
        where = step.where()
        for candidate in illegal_candidates(before, legal, self.rng, self.foreign):
            if candidate not in legal:
                self.tried += 1
                assert_rejected(before, candidate, where)
        seat = to_move(before)
        wrong = (seat + 1) % before.config.players if isinstance(seat, int) else 0
        with pytest.raises(WrongDecisionError):
            apply(before, step.action, seat=wrong)
        if isinstance(seat, int):
            assert apply(before, step.action, seat=seat) == step.after, where


# --- the full-game properties -------------------------------------------------------------------


def examples(ci: int) -> settings:
    """``ci`` examples under the default "ci" profile (50 examples by default), proportionally
    more under "dev" (500): ``HYPOTHESIS_PROFILE=dev`` runs ten times as many games."""
    return settings(max_examples=max(1, ci * settings().max_examples // 50))


@examples(40)
@given(setup=game_setups(), seed=seeds)
def test_random_games_keep_the_invariants(setup: GameSetup, seed: int) -> None:
    """COMP-3, COMP-6, TURN-2, BAND-2, BAND-3, BAND-4, TRIBE-MER-1, STATE: after every step
    cards and markers are conserved, no hand exceeds 10, every band is valid and led by a
    non-Skeleton, Glory never decreases."""
    play_checked(setup, seed, InvariantChecks())


@examples(60)
@given(setup=game_setups(), seed=seeds)
def test_random_games_follow_the_ages(setup: GameSetup, seed: int) -> None:
    """RECRUIT-3, RECRUIT-4, SETUP-2, SETUP-4, AGE-2..6, END-1..6, SCORE-K-1..3, SCORE-2P-1,
    TRIBE-GIA-1/2, TRIBE-MER-3, TRIBE-ORC-2, GAME-1..3: each Age ends exactly on its third
    Dragon, the game after the last Age, and every end-of-Age gain is the spec's."""
    checks = AgeChecks(setup.players)
    final = play_checked(setup, seed, checks)
    assert is_terminal(final) and len(final.history) == age_count(setup.players)
    assert legal_actions(final) == () and to_move(final) is None


@examples(30)
@given(setup=game_setups(), seed=seeds)
def test_random_games_legal_actions_are_sound(setup: GameSetup, seed: int) -> None:
    """TURN-1, TURN-2, TURN-3, RECRUIT-1, BAND-1, BAND-2, BAND-3, BAND-4, TRIBE-CEN-1, CHANCE:
    legal_actions is deterministic, duplicate-free and empty exactly at the end; chance
    outcomes are the legal actions with exact probabilities summing to 1; apply never changes
    its input; at every 7th state every legal action applies, and a turn offers exactly the
    bands of the hand (found by brute force), the recruits, or the pass the rules allow."""
    play_checked(setup, seed, LegalChecks(every=7))


@examples(40)
@given(setup=game_setups(), seed=seeds)
def test_random_games_refuse_illegal_actions(setup: GameSetup, seed: int) -> None:
    """TURN-1, BAND-1..5, RECRUIT-1, TRIBE-*, CHANCE: at every 5th state, actions legal elsewhere,
    random action texts and mutated legal actions are refused with a RulesError unless they are
    legal here; a decision claimed by the wrong seat is refused too."""
    checks = RejectionChecks(every=5, seed=seed)
    play_checked(setup, seed, checks)
    assert checks.tried > 0


@examples(40)
@given(setup=game_setups(), seed=seeds)
def test_random_games_replay_to_equal_states(setup: GameSetup, seed: int) -> None:
    """CHANCE: replaying the same decisions from the same start gives equal states (every
    decision, chance included, is recorded, so nothing else is random)."""
    steps = list(walk(setup, seed))
    state = setup.start()
    for step in steps:
        state = apply(state, step.action)
        assert state == step.after, step.where()
    assert is_terminal(state)


@examples(60)
@given(prefix=game_prefixes())
def test_replaying_a_prefix_gives_an_equal_state(prefix: GamePrefix) -> None:
    """CHANCE: a random legal game prefix, replayed from a fresh new_game, gives an equal state
    with the same legal actions."""
    state = prefix.setup.start()
    assert state == prefix.start
    for action in prefix.actions:
        state = apply(state, action)
    assert state == prefix.state
    assert legal_actions(state) == legal_actions(prefix.state)
    assert (legal_actions(state) == ()) == is_terminal(state)


@examples(150)
@given(prefix=game_prefixes(max_steps=900), text=action_texts)
def test_action_texts_at_random_states(prefix: GamePrefix, text: str) -> None:
    """NOTATION, TURN-1, CHANCE: any text either fails to parse with a MalformedActionError, or
    parses to an action that applies if it is legal and is refused with a RulesError if not."""
    try:
        action = parse_action(text)
    except MalformedActionError:
        return
    assert parse_action(str(action)) == action
    if action in legal_actions(prefix.state):
        assert state_problems(apply(prefix.state, action)) == ()
    else:
        assert_rejected(prefix.state, action, f"after {len(prefix.actions)} decisions")


def test_deepcopy_of_a_state_equals_it() -> None:
    """STATE: a deep copy of a state equals it (needed to check that apply is pure)."""
    state = new_game(4, tribes=SIX_TRIBES, first_player=0)
    assert copy.deepcopy(state) == state


def test_unsorted_token_layout_outcome_is_refused() -> None:
    """SETUP-4, CHANCE: a LayTokens outcome that is not in legal_actions (values not in the
    canonical lowest-first order) is refused, like an unsorted band or Horde colour list."""
    state = new_game(4, tribes=SIX_TRIBES, first_player=0)
    canonical = parse_action("tokens Althea 2 4 8")
    assert canonical in legal_actions(state)
    unsorted = LayTokens(Kingdom.ALTHEA, (8, 4, 2))
    assert unsorted not in legal_actions(state)
    with pytest.raises(RulesError):
        apply(state, unsorted)


def test_elves_exactly_x_never_dead_ends() -> None:
    """TRIBE-ELF-1 (elves_keep=exactly_x), TURN-1: keeping card by card never reaches a state
    without a legal action, and the kept sets reachable are exactly none or min(X, rest)."""
    state = position(
        4,
        ["DWA", "ELF", "GIA", "MIN", "ORC", "WIN"],
        hands={0: "ELF-blue DWA-blue MIN-gray ORC-green"},
        options=Options(elves_keep="exactly_x"),
    )
    state = apply(state, parse_action("band *ELF-blue DWA-blue"))
    state = apply(state, parse_action("place none"))
    kept: set[tuple[str, ...]] = set()
    stack = [state]
    while stack:
        keeping = stack.pop()
        legal = legal_actions(keeping)
        assert legal, f"no legal action: {keeping.pending.describe()}"
        for action in legal:
            after = apply(keeping, action)
            if after.pending.rule == "TRIBE-ELF-1":
                stack.append(after)
            else:
                kept.add(tuple(c.code for c in after.players[0].hand))
    assert kept == {(), ("MIN-gray", "ORC-green")}


# --- targeted: placement (BAND-5, TRIBE-MIN-1, TRIBE-HAL-1, TRIBE-WIN-1) --------------------------

LEADER_TRIBES = tuple(code for code in TRIBE_CODES if code != "SKE")


@st.composite
def placement_cases(
    draw: st.DrawFn,
) -> tuple[int, str, int, int, list[list[int]], bool]:
    """Players, Leader tribe, band Allies, band Skeletons, markers[seat][kingdom], supply empty."""
    players = draw(player_counts)
    leader = draw(st.sampled_from(LEADER_TRIBES))
    allies = draw(st.integers(1, 10))
    skeletons = draw(st.integers(0, 10 - allies))
    markers = [
        [draw(st.integers(0, 3 if seat else 4)) for _ in KINGDOM_NAMES] for seat in range(players)
    ]
    return players, leader, allies, skeletons, markers, draw(st.booleans())


@examples(300)
@given(case=placement_cases())
def test_placement_threshold(case: tuple[int, str, int, int, list[list[int]], bool]) -> None:
    """BAND-5, TRIBE-MIN-1, TRIBE-HAL-1, TRIBE-WIN-1: a band may place in a kingdom iff its
    effective size (X, +1 with a Minotaur Leader) is larger than the player's own markers there
    (3–6 players) or than both players' markers together (2 players), and the player has a
    marker in supply; only the Leader's colour's kingdom, any kingdom with Wingfolk, none with
    Halflings."""
    players, leader, allies, skeletons, markers, exhausted = case
    others = [t for t in LEADER_TRIBES if t != leader][: tribe_count(players) - 2]
    tribes = sorted([leader, "SKE", *others])
    merfolk = 1 if "MER" in tribes else 0
    if exhausted:  # put every marker left in supply on Althea
        markers[0][0] += MARKERS - 1 - merfolk - sum(markers[0])
    colours = ["red", *(c for c in COLOURS if c != "red")]
    band = [f"{leader}-{colours[i // (4 if leader == 'HAL' else 2)]}" for i in range(allies)]
    hand = [*band, *["SKE"] * skeletons]
    state = position(
        players,
        tribes,
        hands={0: hand},
        kingdoms={
            seat: dict(zip(KINGDOM_NAMES, row, strict=True)) for seat, row in enumerate(markers)
        },
    )
    action = PlayBand.of(card(band[0]), *map(card, hand[1:]))
    after = apply(state, action)
    placed = {
        a.kingdom for a in legal_actions(after) if isinstance(a, Place) and a.kingdom is not None
    }
    effective = allies + skeletons + (1 if leader == "MIN" else 0)

    def threshold(k: int) -> int:
        return markers[0][k] + (markers[1][k] if players == 2 else 0)

    allowed = {k for k in Kingdom if effective > threshold(k)}
    if leader == "HAL" or exhausted:
        expected: set[Kingdom] = set()
    elif leader == "WIN":
        expected = allowed
    else:
        expected = allowed & {Kingdom.RHEA}
    assert placed == expected


# --- targeted: tie splitting (SCORE-K-2, SCORE-K-3) ---------------------------------------------


@st.composite
def tie_groups(draw: st.DrawFn) -> tuple[int, list[list[int]], list[int]]:
    """Players, contenders in ordered tie groups, prizes by rank (rank 1 first)."""
    players = draw(player_counts)
    seats = draw(st.permutations(range(players)))
    contenders = draw(st.integers(0, players))
    cuts = sorted(draw(st.sets(st.integers(1, max(contenders - 1, 1)))))
    bounds = [0, *(c for c in cuts if c < contenders), contenders]
    groups = [list(seats[a:b]) for a, b in itertools.pairwise(bounds) if b > a]
    prizes = draw(st.lists(st.integers(0, 12), max_size=6))
    return players, groups, prizes


@examples(300)
@given(case=tie_groups())
def test_split_awards_shares_rounded_down(case: tuple[int, list[list[int]], list[int]]) -> None:
    """SCORE-K-3: a tie group covering ranks r … r+k−1 shares the sum of those ranks' awards,
    each member getting the sum divided by k rounded down; the next group takes rank r+k."""
    players, groups, prizes = case

    def prize(rank: int) -> int:
        return prizes[rank - 1] if rank <= len(prizes) else 0

    awarded = split_awards(groups, prize, players)
    assert len(awarded) == players
    rank = 1
    for group in groups:
        covered = sum(prize(r) for r in range(rank, rank + len(group)))
        shares = {awarded[seat] for seat in group}
        assert shares == {covered // len(group)}
        assert sum(awarded[seat] for seat in group) <= covered
        rank += len(group)
    grouped = {seat for group in groups for seat in group}
    assert all(awarded[s] == 0 for s in range(players) if s not in grouped)
    assert sum(awarded) <= sum(prize(r) for r in range(1, rank))


@st.composite
def kingdom_cases(
    draw: st.DrawFn,
) -> tuple[int, int, list[int], dict[int, list[int]], tuple[int, ...], Options]:
    """Players, Age, markers per seat, Troll tokens held, the kingdom's tokens, options."""
    players = draw(player_counts)
    age = draw(st.integers(1, age_count(players)))
    markers = draw(st.lists(st.integers(0, 4), min_size=players, max_size=players))
    holders = draw(st.lists(st.integers(-1, players - 1), min_size=6, max_size=6))
    trolls: dict[int, list[int]] = {}
    for value, holder in zip(range(1, 7), holders, strict=True):
        if holder >= 0:
            trolls.setdefault(holder, []).append(value)
    spaces = 2 if players <= 3 else 3
    tokens = tuple(sorted(draw(st.lists(st.integers(0, 10), min_size=spaces, max_size=spaces))))
    return players, age, markers, trolls, tokens, draw(options(component_data=False))


@examples(300)
@given(case=kingdom_cases())
def test_score_area_follows_the_spec(
    case: tuple[int, int, list[int], dict[int, list[int]], tuple[int, ...], Options],
) -> None:
    """SCORE-K-1, SCORE-K-2, SCORE-K-3, SCORE-2P-1: one kingdom's awards: players without
    markers earn nothing, tie groups (markers, then Troll total, then highest Troll) share the
    awards of the ranks they cover rounded down, never more than those tokens in all, a better
    rank never earns less; the 2-player Age II rule."""
    players, age, markers, trolls, tokens, opts = case
    tribes = ["DWA", "ELF", "SKE", "TRO", "WIZ", "ORC"][: tribe_count(players)]
    state = position(players, tribes, age=age, trolls=trolls, options=opts)
    got = score_area(state, markers, tokens)
    held = [trolls.get(seat, []) for seat in range(players)]
    last_age = age == age_count(players)
    assert got == expected_area(markers, held, tokens, age, last_age, opts)
    assert all(got[s] == 0 for s in range(players) if markers[s] == 0)
    if not (players == 2 and last_age):
        covered = sum(tokens[:age]) if age <= len(tokens) else sum(tokens)
        assert sum(got) <= covered
    groups = rank_groups(markers, held, opts.troll_tiebreak)
    for better, worse in itertools.pairwise(groups):
        assert got[better[0]] >= got[worse[0]]
    for group in groups:
        assert len({got[seat] for seat in group}) == 1


# --- targeted: band scoring (COMP-7, TRIBE-SKE-1, TRIBE-DWA-1, END-4) ---------------------------


def test_band_glory_table() -> None:
    """COMP-7: bands of 1/2/3/4/5/6+ cards are worth 0/1/3/6/10/15, never less for a larger
    band; TRIBE-DWA-1 adds one card."""
    state = position(4, SIX_TRIBES)
    values = [band_score(state, size, 0) for size in range(1, 13)]
    assert values == [0, 1, 3, 6, 10, 15, 15, 15, 15, 15, 15, 15]
    assert values == sorted(values)
    assert [band_score(state, size, 1) for size in range(1, 12)] == values[1:]


BAND_TRIBES = ["DWA", "ELF", "HAL", "SKE", "MIN", "TRO"]


@st.composite
def band_cases(draw: st.DrawFn) -> tuple[int, dict[int, list[str]]]:
    """Players and each seat's bands (as position() text) built from the cards available."""
    players = draw(player_counts)
    tribes = BAND_TRIBES[: tribe_count(players)]
    pool = full_card_set(tribes)
    bands: dict[int, list[str]] = {}
    for seat in range(players):
        for _ in range(draw(st.integers(0, 3))):
            leader_tribe = draw(st.sampled_from([t for t in tribes if t != "SKE"]))
            size = draw(st.integers(1, 6))
            skeletons = min(draw(st.integers(0, 4)), pool["SKE"])
            cards = [c for c in sorted(pool.elements()) if c.startswith(leader_tribe)][:size]
            if not cards:
                continue
            pool -= Counter(cards)
            pool["SKE"] -= skeletons
            text = " ".join(["*" + cards[0], *cards[1:], *["SKE"] * skeletons])
            bands.setdefault(seat, []).append(text)
    return players, bands


@examples(150)
@given(case=band_cases())
def test_bands_score_without_skeletons(case: tuple[int, dict[int, list[str]]]) -> None:
    """END-4, TRIBE-SKE-1, TRIBE-DWA-1, COMP-7: at the end of the Age every band scores the
    COMP-7 value of its size without Skeletons, plus one card with a Dwarf Leader; the sizes
    recorded for GAME-3 are X as played."""
    players, bands = case
    tribes = BAND_TRIBES[: tribe_count(players)]
    state = position(players, tribes, bands=bands, dragons_drawn=2, top_left=0)
    state = apply(state, parse_action("recruit deck"))
    state = apply(state, parse_action("reveal DRAGON"))
    summary = state.history[-1]
    for seat in range(players):
        expected = 0
        sizes = []
        for text in bands.get(seat, []):
            words = text.split()
            kept = sum(1 for w in words if w != "SKE")
            dwarf = 1 if words[0].startswith("*DWA") else 0
            expected += band_glory(kept + dwarf)
            sizes.append(len(words))
        assert dict(summary.gains[seat]).get("bands", 0) == expected
        assert summary.band_sizes[seat] == tuple(sorted(sizes, reverse=True))
