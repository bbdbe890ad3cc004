"""A turn and recruiting (spec §4–5, TURN-1..3, RECRUIT-1..5)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from ethnos_rules import (
    CHANCE,
    DRAGON,
    IllegalActionError,
    Pass,
    PlayBand,
    Recruit,
    Reveal,
    SetupError,
    card,
    chance_outcomes,
    check_state,
    is_terminal,
    legal_actions,
    parse_action,
    position,
    to_move,
)
from helpers import act, legal

TRIBES = ["DWA", "ELF", "HAL", "SKE", "WIZ", "ORC"]
SMALL = ["DWA", "ELF", "HAL", "SKE", "ORC"]  # 3 * 12 + 24 + 12 = 72 cards


# --- TURN-1 ---------------------------------------------------------------------------------


def test_turn_offers_recruits_and_bands_only() -> None:
    """TURN-1: a turn is one Recruit (from the row or the deck) or one band; no pass."""
    state = position(4, TRIBES, hands={0: "DWA-red"}, row="ELF-blue ELF-blue ORC-green")
    assert legal(state) == [
        "recruit ELF-blue",
        "recruit ORC-green",
        "recruit deck",
        "band *DWA-red",
    ]
    assert Pass() not in legal_actions(state)


def test_recruit_ends_the_turn() -> None:
    """TURN-1: after recruiting, the next player's turn begins (no band in the same turn)."""
    state = position(4, TRIBES, to_move=1, hands={1: "DWA-red"}, row="DWA-red")
    state = act(state, "recruit DWA-red")
    assert to_move(state) == 2
    assert state.players[1].hand == (card("DWA-red"), card("DWA-red"))


def test_band_ends_the_turn() -> None:
    """TURN-1: after a band (no placement, no ability), the next player's turn begins."""
    state = position(3, SMALL, to_move=2, hands={2: "DWA-red ELF-blue"}, kingdoms={2: {"Rhea": 1}})
    state = act(state, "band *DWA-red")  # 1 card, 1 marker in Rhea: cannot place
    assert to_move(state) == 0
    assert state.players[2].hand == ()
    assert len(state.players[2].bands) == 1


# --- TURN-2 ---------------------------------------------------------------------------------


def test_ten_cards_may_not_recruit() -> None:
    """TURN-2: a player holding 10 cards may not recruit, from the row or the deck."""
    hand = "DWA-red DWA-blue ELF-green ELF-gray ORC-red ORC-purple HAL-blue HAL-gray HAL-red SKE"
    state = position(4, TRIBES, hands={0: hand}, row="DWA-green")
    assert len(state.players[0].hand) == 10
    actions = legal_actions(state)
    assert actions
    assert not any(isinstance(a, Recruit) for a in actions)
    assert all(isinstance(a, PlayBand) for a in actions)
    for text in ["recruit deck", "recruit DWA-green"]:
        with pytest.raises(IllegalActionError) as err:
            act(state, text)
        assert err.value.rule == "TURN-2"


def test_nine_cards_may_recruit() -> None:
    """TURN-2: with 9 cards recruiting is allowed; the hand reaches 10."""
    hand = "DWA-red DWA-blue ELF-green ELF-gray ORC-red ORC-purple HAL-blue HAL-gray HAL-red"
    state = position(4, TRIBES, hands={0: hand}, row="DWA-green")
    assert Recruit(None) in legal_actions(state)
    state = act(state, "recruit DWA-green")
    assert len(state.players[0].hand) == 10


def test_more_than_ten_cards_is_not_a_position() -> None:
    """TURN-2 (invariant): no hand exceeds 10 cards; a position with 11 is refused."""
    with pytest.raises(SetupError) as err:
        position(4, TRIBES, hands={0: "SKE " * 11})
    assert "11 cards" in str(err.value)


# --- TURN-3 ---------------------------------------------------------------------------------


def test_ten_skeletons_pass_is_the_only_action() -> None:
    """TURN-3: 10 Skeletons form no band (BAND-3) and may not recruit (TURN-2): pass only.
    The position is reachable (12 Skeletons exist; the invariants hold)."""
    state = position(4, TRIBES, to_move=1, hands={1: "SKE " * 10}, row="DWA-red")
    assert check_state(state) is state
    assert legal_actions(state) == (Pass(),)
    after = act(state, "pass")
    assert to_move(after) == 2
    assert after.players[1].hand == state.players[1].hand
    assert after.row == state.row and after.deck == state.deck


def test_pass_refused_with_fewer_than_ten_cards() -> None:
    """TURN-3: a player who may recruit may not pass."""
    state = position(4, TRIBES, hands={0: "SKE " * 9})
    assert Pass() not in legal_actions(state)
    with pytest.raises(IllegalActionError) as err:
        act(state, "pass")
    assert err.value.rule == "TURN-3"


def test_pass_refused_when_a_band_is_possible() -> None:
    """TURN-3: with 10 cards of which one is an Ally, a band is possible, so no pass."""
    state = position(4, TRIBES, hands={0: "SKE " * 9 + "HAL-red"})
    assert Pass() not in legal_actions(state)
    assert len(legal_actions(state)) == 10  # *HAL-red with 0..9 Skeletons
    with pytest.raises(IllegalActionError) as err:
        act(state, "pass")
    assert err.value.rule == "TURN-3"


# --- RECRUIT-1, RECRUIT-2 ---------------------------------------------------------------------


def test_recruit_from_row_not_replaced() -> None:
    """RECRUIT-1, RECRUIT-2: the row card goes into the hand; the row is not refilled and the
    deck is untouched."""
    state = position(4, TRIBES, hands={0: "ELF-red"}, row="DWA-red DWA-red ORC-blue")
    after = act(state, "recruit DWA-red")
    assert after.players[0].hand == (card("DWA-red"), card("ELF-red"))
    assert after.row == (card("DWA-red"), card("ORC-blue"))
    assert after.deck == state.deck
    assert to_move(after) == 1


def test_recruit_card_not_in_row_refused() -> None:
    """RECRUIT-1: only a card that is in the row can be taken from it."""
    state = position(4, TRIBES, row="DWA-red")
    assert parse_action("recruit ELF-red") not in legal_actions(state)
    with pytest.raises(IllegalActionError) as err:
        act(state, "recruit ELF-red")
    assert err.value.rule == "RECRUIT-1"


def test_recruit_from_empty_row_only_deck() -> None:
    """RECRUIT-1: with an empty row (never refilled, RECRUIT-2) only the deck remains."""
    state = position(4, TRIBES, hands={0: "DWA-red"})
    assert [a for a in legal_actions(state) if isinstance(a, Recruit)] == [Recruit(None)]


def test_recruit_from_deck_is_a_chance_draw() -> None:
    """RECRUIT-1, RECRUIT-5: drawing from the deck is one action; the top card is a chance
    outcome that goes into the hand."""
    state = position(4, TRIBES, to_move=3, hands={3: "ELF-red"})
    state = act(state, "recruit deck")
    assert to_move(state) is CHANCE
    deck_before = state.deck
    state = act(state, "reveal ORC-gray")
    assert state.players[3].hand == (card("ELF-red"), card("ORC-gray"))
    assert state.deck[card("ORC-gray").index] == deck_before[card("ORC-gray").index] - 1
    assert to_move(state) == 0


# --- RECRUIT-3, RECRUIT-4 ---------------------------------------------------------------------


def test_dragon_set_aside_and_draw_again() -> None:
    """RECRUIT-3: the first and second Dragons are set aside and the drawer draws again; no other
    effect."""
    state = position(4, TRIBES, to_move=2, hands={2: "ELF-red"}, top_left=0)
    state = act(state, "recruit deck")
    state = act(state, "reveal DRAGON")
    assert to_move(state) is CHANCE
    assert (state.dragons_drawn, state.dragons_in_deck) == (1, 2)
    assert state.players[2].hand == (card("ELF-red"),)
    state = act(state, "reveal DRAGON")
    assert to_move(state) is CHANCE
    assert (state.dragons_drawn, state.dragons_in_deck) == (2, 1)
    state = act(state, "reveal DWA-blue")
    assert state.players[2].hand == (card("DWA-blue"), card("ELF-red"))
    assert to_move(state) == 3
    assert state.age == 1


def test_third_dragon_ends_the_age_at_once_without_replacement() -> None:
    """RECRUIT-4: the third Dragon ends the Age at once; the drawer gets no card; the drawer is
    recorded. (3 players, Age II: the game ends, so the final state shows the deck.)"""
    state = position(
        3,
        SMALL,
        age=2,
        to_move=1,
        hands={1: "ELF-red", 0: "DWA-blue"},
        dragons_drawn=2,
        top_left=0,
    )
    drawing = act(state, "recruit deck")
    end = act(drawing, "reveal DRAGON")
    assert is_terminal(end)
    assert end.deck == state.deck  # no Ally card left the deck
    assert end.dragons_drawn == 3
    assert end.history[-1].third_dragon == 1
    # END-1: only the hands as they were are scattered (no replacement card).
    assert Counter(end.discard) == Counter([card("ELF-red"), card("DWA-blue")])


def test_third_dragon_in_age_one_goes_to_age_two() -> None:
    """RECRUIT-4, END-6: with 4 players the third Dragon of Age I ends it and Age II begins."""
    state = position(4, TRIBES, to_move=3, dragons_drawn=2, top_left=0)
    state = act(act(state, "recruit deck"), "reveal DRAGON")
    assert state.age == 2
    assert len(state.history) == 1 and state.history[0].third_dragon == 3


# --- RECRUIT-5 ---------------------------------------------------------------------------------


def test_deck_cannot_run_out_before_third_dragon() -> None:
    """RECRUIT-5: with every Ally card out of the deck (all in the row), a draw can only be a
    Dragon, with probability 1, until the third ends the Age."""
    full = position(2, SMALL)
    everything = [
        c.code for c, n in zip(full.rules.cards, full.deck, strict=True) for _ in range(n)
    ]
    assert len(everything) == 72
    state = position(2, SMALL, row=everything, top_left=0)
    assert sum(state.deck) == 0
    state = act(state, "recruit deck")
    for drawn in range(3):
        assert state.dragons_drawn == drawn
        assert chance_outcomes(state) == ((Reveal(DRAGON), Fraction(1)),)
        state = act(state, "reveal DRAGON")
    assert state.age == 2
    assert state.history[-1].third_dragon == 0


def test_only_one_deck_recruit_action() -> None:
    """RECRUIT-5: the deck offers exactly one action, drawing its top card."""
    state = position(4, TRIBES, hands={0: "DWA-red"}, row="ELF-red")
    assert sum(1 for a in legal_actions(state) if a == Recruit(None)) == 1
