"""Randomness (spec §11, CHANCE): exact probabilities of draws, Dragons only in the bottom part,
impossible outcomes refused, seeded sampling reproducible, and an rng that cannot draw refused."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from ethnos_rules import (
    CHANCE,
    DRAGON,
    Action,
    GameState,
    ImpossibleOutcomeError,
    Reveal,
    RulesError,
    apply,
    card,
    chance_outcomes,
    is_chance,
    legal_actions,
    new_game,
    parse_action,
    play_random,
    position,
    sample,
    state_problems,
    to_move,
)
from ethnos_rules._rules.randomness import below, pick
from helpers import act, assert_refused, refused, ruleset_like_first

# 4 tribes of 12 + 12 Skeletons = 60 cards.
TRIBES = ["DWA", "ELF", "GIA", "SKE", "ORC"]


def drawing(top_left: int, dragons_drawn: int = 0) -> GameState:
    """Seat 0 draws from a deck of 56 Allies: DWA-red and a Skeleton are in hand, both
    ELF-red in the row."""
    state = position(
        2,
        TRIBES,
        hands={0: "DWA-red SKE"},
        row="ELF-red ELF-red",
        top_left=top_left,
        dragons_drawn=dragons_drawn,
    )
    assert sum(state.deck) == 56
    return act(state, "recruit deck")


def check_distribution(state: GameState) -> dict[Action, Fraction]:
    """The outcomes are distinct exact positive Fractions summing to 1, and are the legal
    actions."""
    outcomes = chance_outcomes(state)
    assert outcomes
    assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    actions = [a for a, _ in outcomes]
    assert len(set(actions)) == len(actions)
    assert tuple(actions) == legal_actions(state)
    return dict(outcomes)


# --- exact probabilities ----------------------------------------------------------------------


def test_top_part_probabilities() -> None:
    """CHANCE, AGE-4: while top-part cards remain P(k) = c_k / A (A = 56) and no Dragon."""
    dist = check_distribution(drawing(top_left=5))
    assert Reveal(DRAGON) not in dist
    assert dist[Reveal(card("SKE"))] == Fraction(11, 56)
    assert dist[Reveal(card("DWA-red"))] == Fraction(1, 56)
    assert dist[Reveal(card("DWA-blue"))] == Fraction(2, 56)
    assert Reveal(card("ELF-red")) not in dist
    # 4 tribes × 6 colours + Skeleton = 25 kinds, ELF-red exhausted: 24 outcomes.
    assert len(dist) == 24


def test_no_dragon_while_top_part_remains() -> None:
    """CHANCE, AGE-4: a Dragon cannot be revealed while top-part cards remain."""
    state = drawing(top_left=1)
    assert_refused(
        state,
        "reveal DRAGON",
        rule="CHANCE",
        words=("a Dragon cannot be drawn while 1 top-part cards remain (AGE-4)",),
        error=ImpossibleOutcomeError,
    )
    # The last top-part card: then the bottom part begins and a Dragon can come.
    state = act(state, "reveal GIA-gray")
    assert state.top_left == 0
    state = act(state, "recruit deck")  # seat 1
    dist = check_distribution(state)
    assert dist[Reveal(DRAGON)] == Fraction(3, 55 + 3)


@pytest.mark.parametrize(("drawn", "left"), [(0, 3), (1, 2), (2, 1)])
def test_bottom_part_probabilities(drawn: int, left: int) -> None:
    """CHANCE: in the bottom part, with b cards (Dragons included) and d Dragons left,
    P(DRAGON) = d / b and P(k) = c_k / b."""
    dist = check_distribution(drawing(top_left=0, dragons_drawn=drawn))
    b = 56 + left
    assert dist[Reveal(DRAGON)] == Fraction(left, b)
    assert dist[Reveal(card("SKE"))] == Fraction(11, b)
    assert dist[Reveal(card("ORC-purple"))] == Fraction(2, b)
    assert len(dist) == 25


def test_dragon_draws_update_the_counts() -> None:
    """CHANCE, RECRUIT-3: after a Dragon, the next draw of the same recruit has one Dragon and
    one card fewer: P(DRAGON) goes from 3/59 to 2/58."""
    state = drawing(top_left=0)
    assert check_distribution(state)[Reveal(DRAGON)] == Fraction(3, 59)
    state = act(state, "reveal DRAGON")
    assert to_move(state) is CHANCE
    assert check_distribution(state)[Reveal(DRAGON)] == Fraction(2, 58)


def test_deal_probabilities() -> None:
    """CHANCE, AGE-2: the starting cards are drawn from the whole Allies Deck (5 tribes × 12
    + 24 Halflings = 84 cards): P(HAL-red) = 4/84, then 3/83 after one is dealt."""
    state = new_game(4, tribes=["DWA", "ELF", "HAL", "MER", "ORC", "WIZ"], first_player=0)
    for values, name in zip(
        [[0, 0, 2], [2, 4, 4], [4, 4, 6], [6, 6, 6], [6, 8, 8], [8, 10, 10]],
        ["Althea", "Duris", "Ithys", "Pelagon", "Rhea", "Straton"],
        strict=True,
    ):
        state = act(state, "tokens " + name + " " + " ".join(map(str, values)))
    dist = check_distribution(state)
    assert dist[Reveal(card("HAL-red"))] == Fraction(4, 84)
    assert dist[Reveal(card("DWA-red"))] == Fraction(2, 84)
    state = act(state, "reveal HAL-red")
    dist = check_distribution(state)
    assert dist[Reveal(card("HAL-red"))] == Fraction(3, 83)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_every_chance_node_of_a_game_sums_to_one(players: int, seed: int) -> None:
    """CHANCE: replaying a whole random game, every chance event has exact positive
    probabilities summing to 1, and each recorded outcome is among them."""
    game = play_random(players, seed=seed)
    state = game.start
    nodes = 0
    for action in game.actions:
        if is_chance(state):
            assert action in check_distribution(state)
            nodes += 1
        state = apply(state, action)
    assert state == game.final
    assert nodes > 0


# --- impossible outcomes ----------------------------------------------------------------------


def test_outcome_not_in_deck_refused() -> None:
    """CHANCE: a card of a tribe not in play cannot be drawn."""
    state = drawing(top_left=5)
    assert_refused(
        state,
        "reveal WIZ-red",
        rule="CHANCE",
        words=("no WIZ-red is left in the deck",),
        error=ImpossibleOutcomeError,
    )


def test_card_past_the_end_of_the_deck_refused() -> None:
    """CHANCE: a card of another ruleset whose index is the length of this game's deck (the
    first card kind past its end) is refused like any card that is not in the deck."""
    state = drawing(top_left=5)
    bigger = ruleset_like_first("bigger", ("ZZZ", "Extras"))
    [past_the_end] = [c for c in bigger.cards if c.index == len(state.deck)]
    assert past_the_end.code == "ZZZ-green"
    assert_refused(
        state,
        Reveal(past_the_end),
        rule="CHANCE",
        words=("no ZZZ-green is left in the deck",),
        error=ImpossibleOutcomeError,
    )


def test_third_copy_refused_when_two_are_in_the_row() -> None:
    """CHANCE, COMP-3: both ELF-red are in the row, so a third cannot be drawn."""
    state = drawing(top_left=0)
    assert_refused(
        state,
        "reveal ELF-red",
        rule="CHANCE",
        words=("no ELF-red is left in the deck",),
        error=ImpossibleOutcomeError,
    )


def test_third_copy_refused_when_seen_in_hand_and_band() -> None:
    """CHANCE, COMP-3: one GIA-blue in a band and one in a hand: no GIA-blue is left."""
    state = position(
        3, TRIBES, hands={1: "GIA-blue"}, bands={2: ["*GIA-blue GIA-red"]}, giant=(2, 2)
    )
    state = act(state, "recruit deck")
    assert Reveal(card("GIA-blue")) not in check_distribution(state)
    assert check_distribution(state)[Reveal(card("GIA-red"))] == Fraction(1, sum(state.deck))
    with pytest.raises(ImpossibleOutcomeError):
        act(state, "reveal GIA-blue")


def test_last_copy_then_none() -> None:
    """CHANCE: drawing the last DWA-red makes a further DWA-red impossible."""
    state = drawing(top_left=10)
    state = act(state, "reveal DWA-red")  # seat 0 now holds both
    state = act(state, "recruit deck")  # seat 1
    with pytest.raises(ImpossibleOutcomeError):
        act(state, "reveal DWA-red")


def test_no_dragon_left_refused() -> None:
    """CHANCE: the Dragons drawn are set aside; no more than three can be drawn (the third ends
    the Age, RECRUIT-4, so a fourth Dragon never appears among the outcomes)."""
    state = drawing(top_left=0, dragons_drawn=2)
    assert check_distribution(state)[Reveal(DRAGON)] == Fraction(1, 57)
    after = act(state, "reveal DRAGON")
    assert after.age == 2
    assert Reveal(DRAGON) not in dict(chance_outcomes(after))


# --- sampling -----------------------------------------------------------------------------------


def test_sample_with_seeded_random_is_reproducible() -> None:
    """CHANCE: sample with random.Random(seed) gives the same state for the same seed, and
    stops where a player decides."""
    one = sample(new_game(4), random.Random(1234))
    two = sample(new_game(4), random.Random(1234))
    assert one == two
    assert to_move(one) == one.first_player
    assert isinstance(to_move(one), int)
    other = [sample(new_game(4), random.Random(seed)) for seed in range(5)]
    assert len({(s.tribes, s.tokens, s.row) for s in other}) > 1


def test_sample_from_a_draw() -> None:
    """CHANCE: sample resolves a pending draw with one of its outcomes, reproducibly."""
    state = drawing(top_left=0)
    one = sample(state, random.Random(9))
    two = sample(state, random.Random(9))
    assert one == two
    assert not is_chance(one)


def test_sample_forced_outcome() -> None:
    """CHANCE: an outcome of probability 1 is always the one sampled (the last kingdom's
    tokens)."""
    state = new_game(3, tribes=["DWA", "ELF", "GIA", "SKE", "ORC"], first_player=0)
    layout = [[0, 2], [2, 4], [4, 6], [6, 6], [8, 8]]
    for name, values in zip(["Althea", "Duris", "Ithys", "Pelagon", "Rhea"], layout, strict=True):
        state = act(state, f"tokens {name} {values[0]} {values[1]}")
    for seed in range(5):
        assert sample(state, random.Random(seed)).tokens[-1] == (8, 10)


@pytest.mark.parametrize(
    "rng",
    [pytest.param(None, id="None"), pytest.param(5, id="int"), pytest.param(object(), id="obj")],
)
def test_sample_with_a_non_random_rng(rng: Any) -> None:
    """CHANCE: sample() refuses an rng that cannot draw, with a RulesError."""
    refused(lambda: sample(new_game(3), rng), RulesError)


def test_sample_with_a_broken_rng() -> None:
    """CHANCE: a draw outside the range asked for is refused as a RulesError about the rng."""

    class Broken(random.Random):
        def randrange(self, *args: Any, **kwargs: Any) -> int:
            return 10**9

    refused(lambda: sample(new_game(3), Broken()), RulesError)


@pytest.mark.parametrize(
    ("roll", "words"),
    [
        pytest.param(12, "the random source gave 12, not a number below 12", id="the-bound"),
        pytest.param(-1, "the random source gave -1, not a number below 12", id="negative"),
        pytest.param(0.0, "the random source gave 0.0, not a number below 12", id="float"),
        pytest.param(False, "the random source gave False, not a number below 12", id="bool"),
    ],
)
def test_sample_with_an_rng_out_of_range(roll: object, words: str) -> None:
    """CHANCE: the first draw of a new 3-player game picks one of 12 tribes, so the sampler
    asks for a number from 0 to 11; a random source that gives exactly 12, a negative number
    or a number that is not an int is refused by name, not met by a later failure."""

    class Off(random.Random):
        def randrange(self, *args: Any, **kwargs: Any) -> Any:
            assert args == (12,)
            return roll

    assert_refused(lambda: sample(new_game(3), Off()), rule="CHANCE", words=(words,))


def test_sample_with_any_random_random() -> None:
    """CHANCE: any random.Random works, the system source included; a state where a player
    decides is returned as it is."""
    state = sample(new_game(3), random.SystemRandom())
    assert not is_chance(state) and state_problems(state) == ()
    assert sample(state, random.Random(0)) is state


def test_play_random_reproducible() -> None:
    """CHANCE: a seeded random game is the same game every time."""
    assert play_random(3, seed=5).actions == play_random(3, seed=5).actions


def test_pick_reports_outcomes_that_do_not_sum_to_one() -> None:
    """CHANCE: pick() draws from outcomes whose probabilities sum to 1, a roll below the common
    denominator (4 here) each; given outcomes that sum to less, a roll past their total is a
    programming error, said as such (the rules' own outcomes always sum to 1, as the property
    tests check)."""

    class Fixed(random.Random):
        def __init__(self, roll: int) -> None:
            super().__init__(0)
            self.roll = roll

        def randrange(self, *args: Any, **kwargs: Any) -> int:
            assert args == (4,)
            return self.roll

    first, second = parse_action("first 0"), parse_action("first 1")
    short = [(first, Fraction(1, 4)), (second, Fraction(1, 2))]
    # Rolls 0 | 1 2 | 3: the first quarter, the next half, and nothing.
    assert [pick(short, Fixed(roll)) for roll in (0, 1, 2)] == [first, second, second]
    with pytest.raises(AssertionError, match=r"^chance outcomes do not sum to 1$"):
        pick(short, Fixed(3))


class Integers:
    """A stand-in for a numpy Generator's ``integers``: gives ``values`` in turn and records
    the bound of every call."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.bounds: list[int] = []

    def integers(self, bound: int) -> int:
        self.bounds.append(bound)
        return self.values.pop(0)


@pytest.mark.parametrize(
    ("n", "values", "bounds", "drawn"),
    [
        # Up to 2**62 numpy draws the number below n at once.
        (1 << 62, [5], [1 << 62], 5),
        (12, [11], [12], 11),
        # Past it, 62 bits at a time: ceil(bit length / 62) chunks, the surplus low bits
        # dropped. n = 2**62 + 1 has 63 bits: 2 chunks (124 bits), 61 dropped.
        ((1 << 62) + 1, [1, 0], [1 << 62] * 2, 2),
        # 3 * 2**70 + 1 has 72 bits: (1 << 62 | 0) >> 52 = 2**10.
        (3 * (1 << 70) + 1, [1, 0], [1 << 62] * 2, 1 << 10),
        # 2**124 has 125 bits: 3 chunks (186 bits), 61 dropped: (1 << 124) >> 61 = 2**63.
        (1 << 124, [1, 0, 0], [1 << 62] * 3, 1 << 63),
        # A value not below n is drawn again: ((2**62 - 1) << 62) >> 61 = 2**63 - 2 >= n,
        # then (1 << 62) >> 61 = 2.
        ((1 << 62) + 1, [(1 << 62) - 1, 0, 1, 0], [1 << 62] * 4, 2),
        # n itself is not below n: (2**61 << 62 | 2**61) >> 61 = 2**62 + 1 is drawn again.
        ((1 << 62) + 1, [1 << 61, 1 << 61, 1, 0], [1 << 62] * 4, 2),
    ],
)
def test_below_from_a_numpy_generator_draws_62_bits_at_a_time(
    n: int, values: list[int], bounds: list[int], drawn: int
) -> None:
    """CHANCE: a number below n from a numpy Generator, whose ``integers`` stops at 2**63:
    drawn at once up to 2**62, else from 62-bit chunks, rejecting values not below n."""
    rng = Integers(*values)
    assert below(rng, n) == drawn
    assert rng.bounds == bounds and rng.values == []
