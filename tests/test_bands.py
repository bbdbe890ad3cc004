"""Playing a band (spec §6, BAND-1..8): validity, Skeletons, Leader, kingdom placement, order, X;
and the enumeration of bands in ``legal_actions``."""

from __future__ import annotations

import itertools
import pickle
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ethnos_rules import (
    FIRST_EDITION,
    Card,
    GameState,
    IllegalActionError,
    Kingdom,
    Options,
    Place,
    PlayBand,
    apply,
    card,
    legal_actions,
    parse_action,
    position,
    to_move,
)
from ethnos_rules._rules import bands as _bands
from ethnos_rules._rules.bands import leaders
from helpers import HAL_SET, TOKENS_4P, TOKENS_SMALL, act, assert_refused, legal

TRIBES = ["DWA", "ELF", "HAL", "MIN", "SKE", "WIN"]
SMALL = ["DWA", "ELF", "HAL", "MIN", "WIN"]
SMALL_WIN_SET = ["HAL", "MIN", "ORC", "SKE", "WIN"]


def bands_of(state: GameState) -> list[PlayBand]:
    return [a for a in legal_actions(state) if isinstance(a, PlayBand)]


def markers(state: GameState, seat: int, kingdom: str) -> int:
    return state.players[seat].kingdoms[Kingdom[kingdom.upper()]]


# --- BAND-1 -----------------------------------------------------------------------------------


def test_band_of_one_card() -> None:
    """BAND-1: a single card is a band."""
    state = act(position(4, TRIBES, hands={0: "ELF-red"}), "band *ELF-red")
    assert [str(b) for b in state.players[0].bands] == ["*ELF-red"]


def test_band_of_ten_cards() -> None:
    """BAND-1: the whole hand of 10 cards may be one band."""
    hand = "HAL-red HAL-red HAL-red HAL-blue HAL-blue HAL-green HAL-gray HAL-orange SKE SKE"
    state = position(4, TRIBES, hands={0: hand})
    state = act(state, "band *HAL-red " + hand.replace("HAL-red", "", 1))
    assert state.players[0].hand == ()
    assert state.players[0].bands[0].size == 10


@pytest.mark.parametrize(
    ("band", "missing"),
    [
        ("*ELF-red ELF-red", "ELF-red"),
        ("*ELF-green", "ELF-green"),
        ("*ELF-red ELF-blue SKE", "SKE"),
        # every card missing is named once per copy missing, in card order
        ("*ELF-red ELF-green ELF-red ELF-red DWA-red", "DWA-red, ELF-green, ELF-red, ELF-red"),
    ],
)
def test_band_needs_cards_in_hand(band: str, missing: str) -> None:
    """BAND-1: the band's cards come from the player's hand (with multiplicity); the refusal
    names the cards that are not in it."""
    state = position(4, TRIBES, hands={0: "ELF-red ELF-blue"})
    assert_refused(
        state,
        "band " + band,
        rule="BAND-1",
        words=(f"the band uses cards that are not in the hand: {missing}",),
        error=IllegalActionError,
    )


# --- BAND-2, BAND-3 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "band",
    [
        "*ELF-red ELF-blue ELF-green",  # same tribe
        "*ELF-red DWA-red HAL-red",  # same colour
        "*DWA-red DWA-red",  # one kind twice
        "*ELF-red ELF-blue SKE SKE",  # Skeletons join a same-tribe band
        "*HAL-red DWA-red SKE",  # and a same-colour band
    ],
)
def test_valid_bands(band: str) -> None:
    """BAND-2, BAND-3: same tribe, or same colour, Skeletons aside; the band is played."""
    hand = "ELF-red ELF-blue ELF-green DWA-red DWA-red HAL-red SKE SKE"
    state = position(4, TRIBES, hands={0: hand})
    assert parse_action("band " + band) in legal_actions(state)
    after = act(state, "band " + band)
    assert [str(b) for b in after.players[0].bands] == [str(parse_action("band " + band))[5:]]


@pytest.mark.parametrize(
    "band",
    [
        "*ELF-red DWA-blue",  # neither tribe nor colour
        "*ELF-red ELF-blue DWA-red",  # two tribes, two colours
        "*DWA-red ELF-red ELF-blue SKE",  # Skeletons do not repair it
    ],
)
def test_invalid_bands(band: str) -> None:
    """BAND-2: a band whose non-Skeleton cards share neither tribe nor colour is refused."""
    state = position(4, TRIBES, hands={0: "ELF-red ELF-blue DWA-red DWA-blue SKE"})
    assert parse_action("band " + band) not in legal_actions(state)
    with pytest.raises(IllegalActionError) as err:
        act(state, "band " + band)
    assert err.value.rule == "BAND-2"


def test_skeletons_join_any_band() -> None:
    """BAND-3: any number of Skeletons may join: 0, 1 or 2 with an Elf."""
    state = position(4, TRIBES, hands={0: "ELF-red SKE SKE"})
    assert legal(state)[-3:] == ["band *ELF-red", "band *ELF-red SKE", "band *ELF-red SKE SKE"]


def test_band_of_only_skeletons_impossible() -> None:
    """BAND-3, BAND-4: a band must contain a non-Skeleton card (its Leader); a hand of
    Skeletons offers no band, and a Skeleton band is refused."""
    state = position(4, TRIBES, hands={0: "SKE SKE SKE"})
    assert bands_of(state) == []
    for leader_first in [PlayBand.of(card("SKE"), card("SKE")), PlayBand.of(card("SKE"))]:
        with pytest.raises(IllegalActionError) as err:
            apply(state, leader_first)
        assert err.value.rule in {"BAND-3", "BAND-4"}


# --- BAND-4 -----------------------------------------------------------------------------------


def test_skeleton_never_leader() -> None:
    """BAND-4, TRIBE-SKE-1: a Skeleton cannot lead, even with an Ally in the band."""
    state = position(4, TRIBES, hands={0: "ELF-red SKE"})
    assert all(not b.leader.wild for b in bands_of(state))
    with pytest.raises(IllegalActionError) as err:
        act(state, "band *SKE ELF-red")
    assert err.value.rule == "BAND-4"


def test_leader_choice_decides_the_kingdom() -> None:
    """BAND-4, BAND-5: each non-Skeleton kind of the band may lead; the Leader's colour names
    the kingdom of placement."""
    state = position(4, TRIBES, hands={0: "DWA-red DWA-purple"})
    bands = legal(state)
    assert "band *DWA-red DWA-purple" in bands
    assert "band *DWA-purple DWA-red" in bands
    assert legal(act(state, "band *DWA-red DWA-purple")) == ["place Rhea", "place none"]
    assert legal(act(state, "band *DWA-purple DWA-red")) == ["place Duris", "place none"]


# --- BAND-5: placement ------------------------------------------------------------------------


def test_roderick_three_dwarves_place_third_marker_in_duris() -> None:
    """BAND-5: 3 Dwarves led by the purple one, 2 markers already in Duris: 3 > 2, so the third
    marker may be placed there."""
    state = position(
        4, TRIBES, hands={0: "DWA-purple DWA-red DWA-blue"}, kingdoms={0: {"Duris": 2}}
    )
    state = act(state, "band *DWA-purple DWA-red DWA-blue")
    assert legal(state) == ["place Duris", "place none"]
    supply = state.players[0].supply
    state = act(state, "place Duris")
    assert markers(state, 0, "Duris") == 3
    assert state.players[0].supply == supply - 1
    assert to_move(state) == 1


def test_alexis_wingfolk_places_in_rhea() -> None:
    """TRIBE-WIN-1, BAND-5: a purple 2-card band led by Wingfolk, with 2 markers in Duris
    already: Duris is not allowed (2 > 2 fails) but Rhea (and every other kingdom) is."""
    state = position(4, TRIBES, hands={0: "WIN-purple DWA-purple"}, kingdoms={0: {"Duris": 2}})
    state = act(state, "band *WIN-purple DWA-purple")
    assert legal(state) == [
        "place Althea",
        "place Ithys",
        "place Pelagon",
        "place Rhea",
        "place Straton",
        "place none",
    ]
    with pytest.raises(IllegalActionError) as err:
        act(state, "place Duris")
    assert err.value.rule == "BAND-5"
    state = act(state, "place Rhea")
    assert markers(state, 0, "Rhea") == 1
    assert markers(state, 0, "Duris") == 2


def test_two_player_two_of_yours_one_of_theirs_needs_four_cards() -> None:
    """BAND-5 (2 players): 2 of your markers and 1 of theirs in Rhea: the band must be larger
    than 3, so 3 cards cannot place and 4 can."""
    hand = "DWA-red DWA-blue DWA-green DWA-gray"
    kingdoms = {0: {"Rhea": 2}, 1: {"Rhea": 1}}
    state = position(2, SMALL, hands={0: hand}, kingdoms=kingdoms)
    three = act(state, "band *DWA-red DWA-blue DWA-green")
    assert to_move(three) == 1  # no placement decision: the turn is over
    assert markers(three, 0, "Rhea") == 2
    four = act(state, "band *DWA-red DWA-blue DWA-green DWA-gray")
    assert legal(four) == ["place Rhea", "place none"]
    assert markers(act(four, "place Rhea"), 0, "Rhea") == 3


def test_two_player_rule_counts_only_their_markers_too() -> None:
    """BAND-5 (2 players): 0 of yours, 2 of theirs: 2 cards cannot place, 3 can."""
    state = position(2, SMALL, hands={0: "DWA-red DWA-blue DWA-gray"}, kingdoms={1: {"Rhea": 2}})
    assert to_move(act(state, "band *DWA-red DWA-blue")) == 1
    assert legal(act(state, "band *DWA-red DWA-blue DWA-gray")) == ["place Rhea", "place none"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_threshold_three_to_six_players_own_markers_only(players: int) -> None:
    """BAND-5 (3–6 players): the band must be larger than the player's own markers there; other
    players' markers do not count."""
    tribes = TRIBES if players >= 4 else SMALL
    others = {seat: {"Rhea": 5} for seat in range(1, players)}
    one = position(
        players, tribes, hands={0: "ELF-red ELF-blue"}, kingdoms={0: {"Rhea": 1}, **others}
    )
    assert legal(act(one, "band *ELF-red ELF-blue")) == ["place Rhea", "place none"]
    two = position(
        players, tribes, hands={0: "ELF-red ELF-blue"}, kingdoms={0: {"Rhea": 2}, **others}
    )
    assert to_move(act(two, "band *ELF-red ELF-blue")) == 1


def test_minotaur_counts_one_more_for_placement() -> None:
    """BAND-5, TRIBE-MIN-1: a Minotaur-led band of 2 has effective size 3 > 2 markers; the same
    band led by another tribe does not place."""
    state = position(4, TRIBES, hands={0: "MIN-red ELF-red"}, kingdoms={0: {"Rhea": 2}})
    assert legal(act(state, "band *MIN-red ELF-red")) == ["place Rhea", "place none"]
    assert to_move(act(state, "band *ELF-red MIN-red")) == 1


def test_minotaur_two_player_rule() -> None:
    """BAND-5, TRIBE-MIN-1 (2 players): 3 markers in total: a Minotaur-led 3-card band
    (effective 4) places, a Dwarf-led one does not."""
    state = position(
        2,
        SMALL,
        hands={0: "MIN-red DWA-red HAL-red"},
        kingdoms={0: {"Rhea": 1}, 1: {"Rhea": 2}},
    )
    assert legal(act(state, "band *MIN-red DWA-red HAL-red")) == ["place Rhea", "place none"]
    assert to_move(act(state, "band *DWA-red MIN-red HAL-red")) == 1


def test_no_marker_in_supply_places_nothing() -> None:
    """BAND-5 (Ruling): a player with no marker left in supply places nothing."""
    full = {"Althea": 5, "Duris": 5, "Ithys": 5, "Pelagon": 5, "Rhea": 5}
    state = position(4, TRIBES, hands={0: "DWA-blue DWA-red WIN-blue"}, kingdoms={0: full})
    assert state.players[0].supply == 0
    after = act(state, "band *DWA-blue DWA-red")  # Straton: 2 > 0, but no marker
    assert to_move(after) == 1
    assert markers(after, 0, "Straton") == 0
    after = act(state, "band *WIN-blue DWA-blue")
    assert to_move(after) == 1
    # With one marker left the same band places.
    spare = {**full, "Pelagon": 4}
    state = position(4, TRIBES, hands={0: "DWA-blue DWA-red"}, kingdoms={0: spare})
    assert legal(act(state, "band *DWA-blue DWA-red")) == ["place Straton", "place none"]


def test_halfling_leader_never_places() -> None:
    """BAND-5, TRIBE-HAL-1: a Halfling-led band places nothing, whatever its size."""
    hand = "HAL-red HAL-red HAL-red HAL-red HAL-blue HAL-blue SKE"
    state = position(4, TRIBES, hands={0: hand})
    after = act(state, "band " + "*HAL-red HAL-red HAL-red HAL-red HAL-blue HAL-blue SKE")
    assert to_move(after) == 1
    assert sum(after.players[0].kingdoms) == 0


def test_halfling_not_leader_changes_nothing() -> None:
    """BAND-5, TRIBE-HAL-1: a Halfling in a band led by another tribe does not stop placement."""
    state = position(4, TRIBES, hands={0: "DWA-red HAL-red"})
    assert legal(act(state, "band *DWA-red HAL-red")) == ["place Rhea", "place none"]


def test_placement_optional_by_default() -> None:
    """BAND-5a: by default the player may decline; declining leaves the markers unchanged and
    the turn goes on (BAND-7)."""
    state = position(4, TRIBES, hands={0: "DWA-red ELF-gray"})
    state = act(state, "band *DWA-red")
    assert Place(None) in legal_actions(state)
    after = act(state, "place none")
    assert sum(after.players[0].kingdoms) == 0
    assert after.players[0].supply == state.players[0].supply
    assert to_move(after) == 1
    assert card("ELF-gray") in after.row  # the rest of the hand still goes to the row


def test_placement_mandatory_option_single_kingdom_is_automatic() -> None:
    """BAND-5a (placement=mandatory): with one allowed kingdom the marker is placed without a
    decision."""
    options = Options(placement="mandatory")
    state = position(
        4,
        TRIBES,
        hands={0: "DWA-purple DWA-red DWA-blue"},
        kingdoms={0: {"Duris": 2}},
        options=options,
    )
    after = act(state, "band *DWA-purple DWA-red DWA-blue")
    assert to_move(after) == 1
    assert markers(after, 0, "Duris") == 3


def test_placement_mandatory_option_wingfolk_must_choose() -> None:
    """BAND-5a (placement=mandatory): a Wingfolk band chooses among the allowed kingdoms but
    may not decline."""
    state = position(
        4, TRIBES, hands={0: "WIN-purple DWA-purple"}, options=Options(placement="mandatory")
    )
    state = act(state, "band *WIN-purple DWA-purple")
    assert Place(None) not in legal_actions(state)
    assert len(legal_actions(state)) == 6
    assert_refused(
        state,
        "place none",
        rule="BAND-5a",
        reason="placement is mandatory under the option placement=mandatory",
        error=IllegalActionError,
    )


# Seat 0 holds 2 markers in every kingdom but Straton, where it holds 1.
ALMOST_FULL = {"Althea": 2, "Duris": 2, "Ithys": 2, "Pelagon": 2, "Rhea": 2, "Straton": 1}


@pytest.mark.parametrize(
    ("hand", "band", "expected"),
    [
        # Wingfolk Leader, a Minotaur in the band: X = 2, no +1 (the Minotaur does not lead),
        # so only Straton (1 < 2) passes; with the +1 every kingdom would (3 > 2).
        ("WIN-red MIN-red", "band *WIN-red MIN-red", ["place Straton", "place none"]),
        # Minotaur Leader, a Wingfolk in the band: 2 + 1 = 3 > 2, but only in Rhea (red), not
        # in any kingdom: the Wingfolk card is not the Leader.
        ("MIN-red WIN-red", "band *MIN-red WIN-red", ["place Rhea", "place none"]),
        # A Halfling that does not lead changes nothing: the Wingfolk-led band of 2 places.
        ("WIN-red HAL-red", "band *WIN-red HAL-red", ["place Straton", "place none"]),
        # A Halfling Leader never places, though a Minotaur and a Wingfolk are in the band
        # and X = 3 > 2 markers in Rhea.
        ("HAL-red MIN-red WIN-red", "band *HAL-red MIN-red WIN-red", None),
    ],
)
def test_only_the_leaders_ability_shapes_placement(
    hand: str, band: str, expected: list[str] | None
) -> None:
    """BAND-4, BAND-5, TRIBE-WIN-1, TRIBE-MIN-1, TRIBE-HAL-1: the placement test uses only the
    Leader's tribe: its colour (or any kingdom for a Wingfolk Leader) and its bonus."""
    state = position(4, HAL_SET, tokens=TOKENS_4P, hands={0: hand}, kingdoms={0: ALMOST_FULL})
    after = act(state, band)
    if expected is None:
        assert to_move(after) == 1
        assert after.players[0].kingdoms == state.players[0].kingdoms
    else:
        assert legal(after) == expected


def test_wingfolk_two_player_rule_counts_both_players_per_kingdom() -> None:
    """BAND-5 (2 players), TRIBE-WIN-1: X = 2 must exceed both players' markers in the chosen
    kingdom. Rhea holds 1 + 1 = 2 (the 3–6 player rule would allow it: own 1 < 2), Duris 0 + 2;
    Althea, Ithys, Pelagon and Straton hold none."""
    state = position(
        2,
        SMALL_WIN_SET,
        tokens=TOKENS_SMALL,
        hands={0: "WIN-red WIN-blue"},
        kingdoms={0: {"Rhea": 1}, 1: {"Rhea": 1, "Duris": 2}},
    )
    state = act(state, "band *WIN-red WIN-blue")
    assert legal(state) == [
        "place Althea",
        "place Ithys",
        "place Pelagon",
        "place Straton",
        "place none",
    ]


# --- BAND-6, BAND-7 ---------------------------------------------------------------------------


def test_order_placement_then_ability_then_discard() -> None:
    """BAND-6: lay down the band → placement → Leader ability (Troll token) → rest of the hand
    face up into the row; the band stays in front of the player."""
    state = position(
        4, ["TRO", "DWA", "ELF", "SKE", "WIN", "MIN"], hands={0: "TRO-red TRO-blue ELF-green"}
    )
    state = act(state, "band *TRO-red TRO-blue")
    assert state.players[0].hand == (card("ELF-green"),)
    assert legal(state) == ["place Rhea", "place none"]
    state = act(state, "place Rhea")
    assert legal(state) == ["troll 1", "troll 2", "troll none"]
    assert card("ELF-green") not in state.row
    state = act(state, "troll 2")
    assert state.players[0].trolls == (2,)
    assert state.players[0].hand == ()
    assert state.row == (card("ELF-green"),)
    assert [str(b) for b in state.players[0].bands] == ["*TRO-red TRO-blue"]
    assert to_move(state) == 1


def test_band_that_cannot_place_is_legal() -> None:
    """BAND-7: a band that places no marker is still a legal play."""
    state = position(4, TRIBES, hands={0: "ELF-red"}, kingdoms={0: {"Rhea": 4}})
    assert parse_action("band *ELF-red") in legal_actions(state)
    after = act(state, "band *ELF-red")
    assert len(after.players[0].bands) == 1
    assert markers(after, 0, "Rhea") == 4


# --- BAND-8 -----------------------------------------------------------------------------------


def test_skeletons_count_for_x_in_placement() -> None:
    """BAND-8, TRIBE-SKE-1: X counts Skeletons: 1 Dwarf + 2 Skeletons is X = 3 > 2 markers;
    1 Dwarf + 1 Skeleton (X = 2) is not enough."""
    state = position(4, TRIBES, hands={0: "DWA-red SKE SKE"}, kingdoms={0: {"Rhea": 2}})
    assert legal(act(state, "band *DWA-red SKE SKE")) == ["place Rhea", "place none"]
    assert to_move(act(state, "band *DWA-red SKE")) == 1


def test_skeletons_count_for_x_troll_tokens() -> None:
    """BAND-8, TRIBE-TRO-1: a Troll and 2 Skeletons has X = 3: tokens 1–3 may be taken."""
    state = position(4, ["TRO", "DWA", "ELF", "SKE", "WIN", "MIN"], hands={0: "TRO-red SKE SKE"})
    state = act(act(state, "band *TRO-red SKE SKE"), "place none")
    assert legal(state) == ["troll 1", "troll 2", "troll 3", "troll none"]


def test_minotaur_bonus_only_for_placement() -> None:
    """BAND-8, TRIBE-MIN-1, COMP-7: a Minotaur-led 2-card band is X = 2: it scores 1 Glory (not
    3) and is recorded as size 2."""
    state = position(
        4, TRIBES, bands={0: ["*MIN-red MIN-blue"]}, to_move=1, dragons_drawn=2, top_left=0
    )
    state = act(act(state, "recruit deck"), "reveal DRAGON")
    summary = state.history[-1]
    assert dict(summary.gains[0]) == {"bands": 1}
    assert summary.band_sizes[0] == (2,)


# --- enumeration of bands ---------------------------------------------------------------------


def brute_force_bands(hand: Sequence[Card]) -> set[PlayBand]:
    """Every band of ``hand`` straight from BAND-1..4: each sub-multiset whose non-Skeleton
    cards (at least one) share a tribe or a colour, with each non-Skeleton kind as Leader."""
    counts = Counter(hand)
    kinds = sorted(counts)
    out: set[PlayBand] = set()
    for picks in itertools.product(*(range(counts[k] + 1) for k in kinds)):
        cards = [k for k, m in zip(kinds, picks, strict=True) for _ in range(m)]
        allies = [c for c in cards if not c.wild]
        if not allies:
            continue
        if len({c.tribe for c in allies}) > 1 and len({c.colour for c in allies}) > 1:
            continue
        for leader in set(allies):
            rest = list(cards)
            rest.remove(leader)
            out.add(PlayBand.of(leader, *rest))
    return out


def test_band_count_by_hand() -> None:
    """BAND-1..4: DWA-red ×2, DWA-blue, ELF-red, SKE forms exactly 24 bands.

    Counted by hand, without the Skeleton: Dwarves only {r}, {rr}, {b} (1 Leader kind each),
    {rb}, {rrb} (2 each) = 7; Elf alone = 1; red of two tribes {r, E}, {rr, E} (2 Leaders each)
    = 4; total 12 with a Leader named; each with or without the Skeleton: 24.
    """
    state = position(4, TRIBES, hands={0: "DWA-red DWA-red DWA-blue ELF-red SKE"})
    bands = bands_of(state)
    assert len(bands) == 24
    assert len(set(bands)) == 24
    assert set(bands) == brute_force_bands(state.players[0].hand)


def test_identical_cards_give_no_duplicate_bands() -> None:
    """BAND-1..4: with two copies of a card the bands are listed once each: DWA-red ×2 and a
    Skeleton form exactly 4 bands (*DWA-red with 0/1 more DWA-red and 0/1 Skeleton)."""
    state = position(4, TRIBES, hands={0: "DWA-red DWA-red SKE"})
    assert sorted(str(b) for b in bands_of(state)) == [
        "band *DWA-red",
        "band *DWA-red DWA-red",
        "band *DWA-red DWA-red SKE",
        "band *DWA-red SKE",
    ]
    assert len(bands_of(state)) == 4


def test_every_listed_band_can_be_played() -> None:
    """BAND-1..4: every band in legal_actions is accepted by apply (and each only once)."""
    hand = "DWA-red DWA-red DWA-blue ELF-red ELF-blue HAL-red HAL-red WIN-blue SKE SKE"
    state = position(4, TRIBES, hands={0: hand})
    bands = bands_of(state)
    assert len(bands) == len(set(bands))
    assert set(bands) == brute_force_bands(state.players[0].hand)
    for band in bands:
        after = apply(state, band)
        assert after.players[0].bands[-1].cards == band.cards


CARD_POOL = [
    *["DWA-red"] * 2,
    "DWA-blue",
    "DWA-green",
    *["ELF-red"] * 2,
    "ELF-blue",
    *["HAL-red"] * 4,
    *["HAL-blue"] * 2,
    "WIN-red",
    "MIN-blue",
    *["SKE"] * 4,
]


@given(st.lists(st.sampled_from(range(len(CARD_POOL))), max_size=10, unique=True))
def test_enumeration_matches_the_rules(picks: list[int]) -> None:
    """BAND-1..4: for any hand of up to 10 cards the bands listed are exactly the valid ones,
    without duplicates."""
    hand = [CARD_POOL[i] for i in picks]
    state = position(4, TRIBES, hands={0: hand})
    bands = bands_of(state)
    assert len(bands) == len(set(bands))
    assert set(bands) == brute_force_bands(state.players[0].hand)


@given(st.lists(st.sampled_from(range(len(CARD_POOL))), max_size=10, unique=True))
def test_remembered_groups_give_the_bands_of_a_fresh_enumeration(picks: list[int]) -> None:
    """A hand's bands are the same list, in the same order, whether the bands of its groups
    (a tribe, a colour) were remembered from other hands or enumerated afresh."""
    hand = position(4, TRIBES, hands={0: [CARD_POOL[i] for i in picks]}).players[0].hand
    grown = hand[1:]  # the groups of a hand with a card fewer, remembered
    _bands.band_actions(grown)
    _bands.band_actions.cache_clear()
    remembered = _bands.band_actions(hand)
    _bands.band_actions.cache_clear()
    _bands._group_actions.cache_clear()
    assert _bands.band_actions(hand) == remembered


def test_enumerated_bands_are_ordinary_play_bands() -> None:
    """The enumeration builds its bands without PlayBand's ``__init__`` (bands.py, for speed):
    each is still a PlayBand of exactly the two fields, equal to, hashed, printed, compared and
    pickled like the one ``PlayBand(leader, others)`` builds, and as frozen."""
    assert [f.name for f in attrs.fields(PlayBand)] == ["leader", "others"]
    hand = "DWA-red DWA-red DWA-blue ELF-red ELF-blue HAL-red HAL-red WIN-blue SKE SKE"
    for band in bands_of(position(4, TRIBES, hands={0: hand})):
        built = PlayBand(band.leader, band.others)
        assert type(band) is PlayBand
        assert band == built
        assert hash(band) == hash(built)
        assert repr(band) == repr(built)
        assert pickle.loads(pickle.dumps(band)) == built
        band.check()
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            band.leader = built.leader  # type: ignore[misc]


def test_bands_are_listed_in_a_fixed_order() -> None:
    """Same-tribe bands first, tribe by tribe, then same-colour bands, colour by colour; in a
    group the smaller sub-multisets of earlier kinds come first, each Leader kind in card
    order, each without then with the Skeletons (the order a golden test would pin)."""
    state = position(4, TRIBES, hands={0: "DWA-red DWA-blue ELF-red SKE"})
    assert [str(b) for b in bands_of(state)] == [
        "band *DWA-blue",
        "band *DWA-blue SKE",
        "band *DWA-red",
        "band *DWA-red SKE",
        "band *DWA-red DWA-blue",
        "band *DWA-red DWA-blue SKE",
        "band *DWA-blue DWA-red",
        "band *DWA-blue DWA-red SKE",
        "band *ELF-red",
        "band *ELF-red SKE",
        "band *DWA-red ELF-red",
        "band *DWA-red ELF-red SKE",
        "band *ELF-red DWA-red",
        "band *ELF-red DWA-red SKE",
    ]


def test_every_kind_but_the_skeletons_can_lead() -> None:
    """BAND-4, TRIBE-SKE-1: the Leaders are every card kind but the Skeletons."""
    assert leaders(FIRST_EDITION) == tuple(c for c in FIRST_EDITION.cards if not c.wild)
    assert leaders(FIRST_EDITION)
