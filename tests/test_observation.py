"""What one seat can see (observation): hands are hidden from the others, the deck from all."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    DecisionKind,
    GameState,
    SetupError,
    apply,
    is_terminal,
    legal_actions,
    observation,
    pending_decision,
    play_random,
    position,
    to_move,
)
from ethnos_rules._checks.invariants import state_problems
from ethnos_rules._rules.components import multiset_add, multiset_remove
from helpers import SIX_TRIBES


def swap_hidden_card(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """``state`` with one card of ``seat``'s hand exchanged for a different kind from the deck,
    or None when there is no such exchange."""
    hand = state.players[seat].hand
    kinds = [c for c in state.rules.cards if state.deck[c.index] and (not hand or c != hand[0])]
    if not hand or not kinds:
        return None
    out, into = hand[rng.randrange(len(hand))], rng.choice(kinds)
    if out is into:
        return None
    deck = list(state.deck)
    deck[out.index] += 1
    deck[into.index] -= 1
    player = attrs.evolve(
        state.players[seat], hand=multiset_add(multiset_remove(hand, [out]), [into])
    )
    return attrs.evolve(state.with_player(seat, player), deck=tuple(deck))


def test_own_hand_and_public_parts_are_seen() -> None:
    """Observation: a seat sees its own hand, everyone's hand size, bands, markers and Glory."""
    state = position(
        3,
        ["DWA", "ELF", "GIA", "ORC", "WIZ"],
        hands={0: "ELF-red ELF-blue", 2: "DWA-red"},
        bands={1: ["*GIA-red GIA-blue"]},
        giant=(1, 2),
        kingdoms={1: {"Rhea": 1}},
        glory={2: 7},
        row="ORC-gray",
    )
    seen = observation(state, 0)
    assert [str(c) for c in seen.hand] == ["ELF-red", "ELF-blue"]
    assert [v.hand_size for v in seen.seats] == [2, 0, 1]
    assert [str(b) for b in seen.seats[1].bands] == ["*GIA-red GIA-blue"]
    assert seen.seats[1].kingdoms[4] == 1 and seen.seats[2].glory == 7
    assert seen.giant_holder == 1 and [str(c) for c in seen.row] == ["ORC-gray"]
    assert "DWA-red" not in str(seen) and "ELF-red" in str(seen)
    assert observation(state, 2).hand == state.players[2].hand


@pytest.mark.parametrize("seat", [-1, 3, "0", None])
def test_only_seats_of_the_game_observe(seat: object) -> None:
    """SETUP-1: the observer is a seat of this game."""
    with pytest.raises(SetupError):
        observation(position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"]), seat)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_hidden_cards_never_change_what_a_seat_sees(players: int, seed: int) -> None:
    """Observation: along a random game, exchanging a card between another seat's hand and the
    deck leaves every other seat's observation unchanged, and changes that seat's own."""
    rng = random.Random(seed)
    game = play_random(players, seed)
    for state in list(game.states())[:: max(1, len(game.actions) // 25)]:
        if is_terminal(state) or not state.tribes or not state.deck:
            continue
        owner = rng.randrange(players)
        hidden = swap_hidden_card(state, owner, rng)
        if hidden is None:
            continue
        for seat in range(players):
            same = observation(hidden, seat) == observation(state, seat)
            assert same == (seat != owner), (seat, owner)


def swap_discarded_card(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """``state`` with one card of the hand ``seat`` discarded at the end of the Age (END-1)
    exchanged for a different kind from the deck, or None when there is no such exchange."""
    hand = state.discarded_hands[seat]
    if not hand:
        return None
    out = hand[rng.randrange(len(hand))]
    kinds = [c for c in state.rules.cards if state.deck[c.index] and c is not out]
    if not kinds:
        return None
    into = rng.choice(kinds)
    deck = list(state.deck)
    deck[out.index] += 1
    deck[into.index] -= 1
    hands = list(state.discarded_hands)
    hands[seat] = multiset_add(multiset_remove(hand, [out]), [into])
    return attrs.evolve(
        state,
        deck=tuple(deck),
        discard=multiset_add(multiset_remove(state.discard, [out]), [into]),
        discarded_hands=tuple(hands),
    )


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_discarded_hands_are_seen_by_their_owners_only(players: int, seed: int) -> None:
    """END-1: the hands discarded at the end of an Age go face down. While the Age is scored
    (the Orc players decide) and once the game is over, exchanging a card of one discarded
    hand for another kind leaves every other seat's observation unchanged, and the owner's
    not (it sees its own hand in the discard)."""
    rng = random.Random(seed)
    tribes = ["ORC", *rng.sample([t for t in SIX_TRIBES if t != "ORC"], 4 if players < 4 else 5)]
    game = play_random(players, seed, tribes=tribes)
    ends = [s for s in game.states() if s.discarded_hands]
    assert ends and is_terminal(ends[-1])  # the last Age's hands stay discarded at the end
    for state in ends:
        owner = rng.randrange(players)
        twin = swap_discarded_card(state, owner, rng)
        if twin is None:
            continue
        assert not state_problems(twin)
        for seat in range(players):
            same = observation(twin, seat) == observation(state, seat)
            assert same == (seat != owner), (seat, owner)
        assert Counter(state.discarded_hands[owner]) <= Counter(observation(state, owner).discard)


def test_observation_follows_play() -> None:
    """Observation: after a recruit from the row, the recruit shows in the taker's hand only,
    and everyone sees the row shrink and the hand grow."""
    state = position(4, SIX_TRIBES, hands={0: "ELF-red"}, row="DWA-blue WIZ-green")
    after = apply(state, legal_actions(state)[0])  # recruit DWA-blue
    assert [str(c) for c in observation(after, 0).hand] == ["DWA-blue", "ELF-red"]
    assert observation(after, 1).seats[0].hand_size == 2
    assert [str(c) for c in observation(after, 1).row] == ["WIZ-green"]


def test_every_seat_sees_what_is_decided_and_by_whom() -> None:
    """Along a whole 3-player game, every seat's observation names the decision's kind and who
    makes it as pending_decision and to_move do (chance and the end of the game included), so
    a bot playing one seat can branch on them."""
    game = play_random(3, seed=4)
    kinds = set()
    for state in game.states():
        for seat in range(3):
            view = observation(state, seat)
            assert view.kind is pending_decision(state).kind and view.to_move == to_move(state)
        kinds.add(view.kind)
    assert {DecisionKind.TURN, DecisionKind.DECK_DRAW, DecisionKind.GAME_OVER} <= kinds
    assert observation(game.final, 0).to_move is None


def test_an_observation_names_the_board_pieces_its_tribes_bring() -> None:
    """SETUP-5: the Merfolk track, the Giant token, the Orc Hordes and the Troll tokens are in
    play exactly with their tribes; the pictures draw from this, not from tribe codes."""
    with_pieces = observation(position(3, ["MER", "GIA", "ORC", "TRO", "ELF"]), 0)
    assert with_pieces.pieces == {"track", "giant", "horde", "trolls"}
    assert observation(position(3, ["DWA", "ELF", "HAL", "SKE", "WIZ"]), 1).pieces == set()
