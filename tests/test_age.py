"""Beginning an Age (spec §3, AGE-1..6): deck, starting cards, row, Dragon split, first player,
turn order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction

import attrs
import pytest

from ethnos_rules import (
    CHANCE,
    DRAGON,
    FirstPlayer,
    GameState,
    ImpossibleOutcomeError,
    Reveal,
    apply,
    card,
    chance_outcomes,
    new_game,
    parse_action,
    position,
    sample,
    state_problems,
    step,
    to_move,
)
from helpers import (
    FIVE_TRIBES,
    GIA_SET,
    LAYOUT_4P,
    SIX_TRIBES,
    act,
    assert_refused,
    at_end,
    end_age,
)

SMALL_LAYOUT = [[0, 2], [2, 4], [4, 6], [6, 6], [8, 8], [8, 10]]


def dealt_game(players: int, first: int) -> GameState:
    """A new game with tribes and tokens fixed, waiting for the first starting card."""
    return new_game(
        players,
        tribes=SIX_TRIBES if players >= 4 else FIVE_TRIBES,
        glory_tokens=LAYOUT_4P if players >= 4 else SMALL_LAYOUT,
        first_player=first,
    )


def recruit_from_the_top_part(state: GameState, draws: int) -> GameState:
    """``draws`` recruits from the deck, each revealing its first outcome; no Dragon may be among
    the outcomes of any of them (AGE-4: no Dragon in the top part)."""
    for _ in range(draws):
        state = act(state, "recruit deck")
        outcomes = chance_outcomes(state)
        assert all(a != Reveal(DRAGON) for a, _ in outcomes)
        state = apply(state, outcomes[0][0])
    return state


# --- AGE-2: starting cards ------------------------------------------------------------------


def test_deal_order_starts_with_first_player() -> None:
    """AGE-2: one card each, in seat order starting with the first player (seat 2 of 4)."""
    state = dealt_game(4, first=2)
    deals = ["DWA-red", "ELF-blue", "GIA-green", "ORC-gray"]
    for code in deals:
        assert to_move(state) is CHANCE
        state = act(state, f"reveal {code}")
    hands = [p.hand for p in state.players]
    assert hands == [
        (card("GIA-green"),),
        (card("ORC-gray"),),
        (card("DWA-red"),),
        (card("ELF-blue"),),
    ]
    assert state.row == ()


def test_no_dragon_during_the_deal() -> None:
    """AGE-2: Dragons are not in the deck while the starting cards are dealt."""
    state = dealt_game(3, first=0)
    assert all(a != Reveal(DRAGON) for a, _ in chance_outcomes(state))
    assert_refused(
        state,
        "reveal DRAGON",
        rule="CHANCE",
        reason="no Dragon is left in the deck",
        error=ImpossibleOutcomeError,
    )


# --- AGE-3, AGE-4: row and Dragon split -----------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_row_of_two_cards_per_player_then_split(players: int) -> None:
    """AGE-2, AGE-3, AGE-4: 1 card per hand, 2 × players in the row, then the remaining n
    cards are split with n // 2 on top, the 3 Dragons in the bottom; the first player moves."""
    total = 72 if players >= 4 else 60
    state = sample(dealt_game(players, first=players - 1), random.Random(players))
    assert to_move(state) == players - 1
    assert [len(p.hand) for p in state.players] == [1] * players
    assert len(state.row) == 2 * players
    n = total - 3 * players
    assert sum(state.deck) == n
    assert state.top_left == n // 2
    assert state.dragons_in_deck == 3
    assert state.dragons_drawn == 0
    # The bottom part: the rest of the Allies plus the Dragons.
    assert sum(state.deck) - state.top_left + state.dragons_in_deck == n - n // 2 + 3


def test_row_cards_are_the_revealed_cards() -> None:
    """AGE-3: the row cards are chance draws, placed face up after the starting cards."""
    state = dealt_game(2, first=1)
    for code in ["DWA-red", "DWA-red"]:
        state = act(state, f"reveal {code}")
    row = ["ELF-blue", "GIA-green", "ORC-gray", "MER-purple"]
    for code in row:
        assert to_move(state) is CHANCE
        state = act(state, f"reveal {code}")
    assert state.row == tuple(sorted(card(c) for c in row))
    assert to_move(state) == 1
    assert state.players[0].hand == state.players[1].hand == (card("DWA-red"),)
    # A third DWA-red does not exist (COMP-3: 2 of each colour).
    assert state.deck[card("DWA-red").index] == 0


def test_odd_deck_split_top_part_is_floor_half() -> None:
    """AGE-4 (Ruling): 3 players, 60 cards: n = 60 - 9 = 51, top part 25 cards (no Dragon can
    come in 25 draws), bottom part 26 + 3 = 29 cards; the 26th draw may be a Dragon, 3/29."""
    state = sample(dealt_game(3, first=0), random.Random(5))
    assert sum(state.deck) == 51
    assert state.top_left == 25
    state = recruit_from_the_top_part(state, 25)
    assert state.top_left == 0
    state = act(state, "recruit deck")
    assert dict(chance_outcomes(state))[Reveal(DRAGON)] == Fraction(3, 29)


def test_age_two_split_of_an_odd_deck() -> None:
    """AGE-1, AGE-4: 5 players, 72 cards. Age II gathers every card again; after 5 starting
    cards and a row of 10, n = 57: the top part holds 57 // 2 = 28 cards (no Dragon in 28
    draws), the bottom 29 + 3 = 32, so the 29th draw is a Dragon with probability 3/32."""
    state = end_age(at_end(5, GIA_SET))
    assert state.age == 2
    state = sample(state, random.Random(2))
    assert sum(state.deck) == 57
    assert state.top_left == 28
    assert state.dragons_in_deck == 3
    state = recruit_from_the_top_part(state, 28)
    state = act(state, "recruit deck")
    assert dict(chance_outcomes(state))[Reveal(DRAGON)] == Fraction(3, 32)


# --- AGE-5: first player ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("glory", "drawer", "first"),
    [
        # Unique least Glory.
        ({0: 4, 1: 0, 2: 3, 3: 3}, 3, 1),
        ({0: 4, 1: 6, 2: 3, 3: 5}, 0, 2),
        # Seats 0, 2, 3 tied on 3: the first met clockwise starting AT the drawer.
        ({0: 3, 1: 5, 2: 3, 3: 3}, 2, 2),
        ({0: 3, 1: 5, 2: 3, 3: 3}, 3, 3),
        ({0: 3, 1: 5, 2: 3, 3: 3}, 0, 0),
        # The drawer is not tied: go on clockwise from the drawer.
        ({0: 3, 1: 5, 2: 3, 3: 3}, 1, 2),
        ({0: 3, 1: 3, 2: 7, 3: 5}, 2, 0),
        # Everyone tied: the drawer starts.
        ({}, 1, 1),
        ({}, 3, 3),
    ],
)
def test_first_player_of_age_two_least_glory_tie_from_drawer(
    glory: Mapping[int, int], drawer: int, first: int
) -> None:
    """AGE-5: Ages II and III start with the least Glory; a tie goes to the first tied player
    met clockwise starting at the one who drew the third Dragon (that player included).

    Nothing scores at this end of Age (no markers, no bands), so the Glory stays as given.
    """
    state = position(4, SIX_TRIBES, to_move=drawer, glory=glory, dragons_drawn=2, top_left=0)
    state = act(state, "recruit deck")
    ended = step(state, parse_action("reveal DRAGON"))
    state = ended.state
    # The event says who is first, and why: the least Glory, the seats that have it, and the
    # drawer of the last Dragon, where the clockwise count starts.
    least = min(glory.get(s, 0) for s in range(4))
    tied = tuple(s for s in range(4) if glory.get(s, 0) == least)
    said = [e for e in ended.events if isinstance(e, FirstPlayer)]
    assert said == [FirstPlayer(first, 2, "least_glory", least, tied, drawer)]
    assert state.history[-1].third_dragon == drawer
    assert [p.glory for p in state.players] == [glory.get(s, 0) for s in range(4)]
    assert state.age == 2
    assert state.first_player == first
    # AGE-2: the first starting card of Age II goes to that player.
    state = act(state, "reveal DWA-red")
    assert state.players[first].hand == (card("DWA-red"),)
    assert all(p.hand == () for s, p in enumerate(state.players) if s != first)


def test_first_player_of_age_three() -> None:
    """AGE-5: the same rule decides the first player of Age III."""
    state = position(
        5,
        SIX_TRIBES,
        age=2,
        to_move=4,
        glory={0: 9, 1: 2, 2: 8, 3: 2, 4: 10},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert state.age == 3
    assert state.first_player == 1  # seats 1 and 3 tied; clockwise from 4: 0, 1 → 1.


def test_first_player_counts_end_of_age_glory() -> None:
    """AGE-5: the least Glory is measured after the Age is scored (END before AGE)."""
    # Before scoring seat 0 is 1 behind seat 1, but its 3-card Orc-led band scores 3 (COMP-7).
    state = position(
        3,
        FIVE_TRIBES,
        to_move=2,
        glory={0: 1, 1: 2, 2: 9},
        bands={0: ["*ORC-red DWA-red ELF-red"]},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert [p.glory for p in state.players] == [4, 2, 9]
    assert state.first_player == 1


def test_position_records_first_player_zero() -> None:
    """AGE-5: a position built with first player seat 0 records seat 0."""
    state = position(4, SIX_TRIBES, to_move=2, first_player=0)
    assert state.first_player == 0


# --- AGE-1: reshuffle between Ages ------------------------------------------------------------


def test_all_ally_cards_reshuffled_before_age_two() -> None:
    """AGE-1: before Age II every Ally card (deck, row, hands, bands) is gathered into one deck;
    the Dragons are set aside until the split (AGE-4). Markers on kingdoms stay (END-5)."""
    state = position(
        4,
        SIX_TRIBES,
        to_move=1,
        hands={0: "DWA-red ELF-red", 1: "GIA-blue", 3: "WIZ-gray WIZ-gray"},
        row="ORC-green MER-purple ELF-blue",
        bands={2: ["*ORC-red ORC-blue"], 3: ["*MER-green MER-green DWA-green"]},
        kingdoms={2: {"Rhea": 1}, 3: {"Althea": 1}},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert state.age == 2
    assert to_move(state) is CHANCE
    assert sum(state.deck) == 72
    assert all(
        n == (2 if c.tribe.code in SIX_TRIBES else 0)
        for c, n in zip(state.rules.cards, state.deck, strict=True)
    )
    assert state.row == () and state.discard == ()
    assert all(p.hand == () and p.bands == () for p in state.players)
    assert state.dragons_in_deck == 0 and state.dragons_drawn == 0
    assert all(a != Reveal(DRAGON) for a, _ in chance_outcomes(state))
    assert state.players[2].kingdoms[4] == 1 and state.players[3].kingdoms[0] == 1
    # Then deal, row and split as in Age I.
    state = sample(state, random.Random(3))
    assert len(state.row) == 8
    assert sum(state.deck) == 72 - 12
    assert state.top_left == 30
    assert state.dragons_in_deck == 3


# --- AGE-6: turn order ------------------------------------------------------------------------


def test_turns_go_clockwise_and_wrap() -> None:
    """AGE-6: after seat 3 of 4 comes seat 0, then seat 1."""
    state = position(4, SIX_TRIBES, to_move=3, row="DWA-red ELF-red")
    state = act(state, "recruit DWA-red")
    assert to_move(state) == 0
    state = act(state, "recruit ELF-red")
    assert to_move(state) == 1
    state = act(act(state, "recruit deck"), "reveal GIA-blue")
    assert to_move(state) == 2


def test_first_turn_of_the_age_is_the_first_player() -> None:
    """AGE-5, AGE-6: after the split the first player takes the first turn; then seat + 1."""
    state = sample(dealt_game(5, first=3), random.Random(11))
    assert to_move(state) == 3
    state = act(state, f"recruit {state.row[0]}")
    assert to_move(state) == 4
    state = act(state, f"recruit {state.row[0]}")
    assert to_move(state) == 0


def test_a_first_player_already_chosen_while_chance_is_to_choose_one_is_a_problem() -> None:
    """AGE-5, STATE: a state whose first player is chosen while chance is still to choose one
    breaks an invariant, and state_problems() says which."""
    state = new_game(4, tribes=SIX_TRIBES, glory_tokens=LAYOUT_4P)
    assert state_problems(state) == ()
    broken = attrs.evolve(state, first_player=2)
    assert state_problems(broken) == (
        "the first player is chosen, yet chance is to choose one (AGE-5)",
    )
