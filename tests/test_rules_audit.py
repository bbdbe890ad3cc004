"""Independent rules audit: subtle points of rules-1e.md that the other test files leave open.

Every expected number is worked out by hand from the spec in the test's comments.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from ethnos_rules import (
    DRAGON,
    Colour,
    Kingdom,
    Options,
    Reveal,
    SetupError,
    apply,
    card,
    chance_outcomes,
    glory,
    is_chance,
    is_terminal,
    position,
    sample,
    to_move,
)
from helpers import TOKENS_4P, TOKENS_SMALL, act, at_end, end_age, gains, legal

CEN_SET = ["CEN", "ELF", "ORC", "SKE", "TRO", "WIZ"]
GIA_SET = ["DWA", "GIA", "ORC", "SKE", "TRO", "WIN"]  # 72 cards
HAL_SET = ["HAL", "MIN", "ORC", "SKE", "TRO", "WIN"]
MER_SET = ["MER", "MIN", "ORC", "SKE", "TRO", "WIN"]
NO_PIECES = ["DWA", "ELF", "HAL", "MIN", "SKE", "WIZ"]  # no Giants, Merfolk, Orcs or Trolls
SMALL_SET = ["DWA", "GIA", "ORC", "SKE", "TRO"]
SMALL_MER_SET = ["MER", "MIN", "ORC", "SKE", "TRO"]
SMALL_WIN_SET = ["HAL", "MIN", "ORC", "SKE", "WIN"]


def rhea_glory(
    players: int,
    age: int,
    markers: dict[int, int],
    trolls: dict[int, list[int]] | None = None,
    kingdom: str = "Rhea",
    options: Options | None = None,
) -> tuple[int, ...]:
    """Glory after the end of ``age`` when only ``kingdom`` holds markers."""
    tribes = SMALL_SET if players <= 3 else GIA_SET
    state = at_end(
        players,
        tribes,
        age=age,
        kingdoms={seat: {kingdom: n} for seat, n in markers.items()},
        trolls=trolls or {},
        options=options,
    )
    return glory(end_age(state))


# --- BAND-5 with Wingfolk, Minotaurs and Halflings: only the Leader's ability applies -----------

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


# --- TRIBE-MER-2: checkpoints reached or passed ----------------------------------------------


TEN_MERFOLK = "MER-red MER-red MER-blue MER-blue MER-green MER-green MER-gray MER-gray SKE SKE"


def test_merfolk_three_checkpoints_in_one_move() -> None:
    """TRIBE-MER-1, TRIBE-MER-2: X = 10 (Skeletons count, BAND-8) moves 2 → 12, passing 3 and 7
    and reaching 12: three checkpoint markers, offered one after another."""
    state = position(4, MER_SET, tokens=TOKENS_4P, hands={0: TEN_MERFOLK}, merfolk={0: 2})
    state = act(state, "band *" + TEN_MERFOLK, "place none")
    assert state.players[0].merfolk == 12
    state = act(state, "checkpoint Althea", "checkpoint Althea")
    assert "checkpoint Althea" in legal(state)
    state = act(state, "checkpoint Althea")
    assert state.players[0].kingdoms[Kingdom.ALTHEA] == 3
    assert to_move(state) == 1


def test_merfolk_checkpoint_reached_exactly_counts() -> None:
    """TRIBE-MER-2: "reached or passed": 5 + 7 = 12 passes 7 and reaches 12 exactly: two
    markers."""
    hand = "MER-red MER-red MER-blue MER-blue MER-green MER-green MER-gray"
    state = position(4, MER_SET, tokens=TOKENS_4P, hands={0: hand}, merfolk={0: 5})
    state = act(state, "band *" + hand, "place none")
    assert state.players[0].merfolk == 12
    state = act(state, "checkpoint Duris", "checkpoint Ithys")
    me = state.players[0]
    assert (me.kingdoms[Kingdom.DURIS], me.kingdoms[Kingdom.ITHYS]) == (1, 1)
    assert to_move(state) == 1


def test_merfolk_checkpoints_stop_when_the_supply_runs_out() -> None:
    """TRIBE-MER-2, BAND-6, BAND-5: placement comes first and uses a marker; then each
    checkpoint needs a marker in supply. Supply 2, move 2 → 12 (three checkpoints): the band's
    marker, one checkpoint marker, and the other two checkpoints are lost."""
    # 25 - 1 (Merfolk marker) - 22 on kingdoms = 2 in supply.
    full = {"Althea": 5, "Duris": 5, "Ithys": 5, "Pelagon": 5, "Straton": 2}
    state = position(
        4, MER_SET, tokens=TOKENS_4P, hands={0: TEN_MERFOLK}, merfolk={0: 2}, kingdoms={0: full}
    )
    assert state.players[0].supply == 2
    state = act(state, "band *" + TEN_MERFOLK, "place Rhea")
    assert state.players[0].merfolk == 12
    assert state.players[0].supply == 1
    state = act(state, "checkpoint Rhea")
    # No marker is left for the second and third checkpoints: the turn is over.
    assert state.players[0].supply == 0
    assert state.players[0].kingdoms[Kingdom.RHEA] == 2
    assert to_move(state) == 1


# --- TRIBE-CEN: chains -------------------------------------------------------------------------


def test_chained_band_places_against_the_markers_just_placed() -> None:
    """TRIBE-CEN-1, BAND-5: the chained band has its own placement, tested after the Centaur's
    marker: Rhea 0 → 1 by the Centaur, so a 1-card Orc band in Rhea (1 is not > 1) places
    nothing and goes straight to its own ability (the Horde)."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red ORC-red ORC-blue"})
    state = act(state, "band *CEN-red", "place Rhea", "band *ORC-red")
    assert legal(state) == ["horde add", "horde none"]
    state = act(state, "horde add")
    me = state.players[0]
    assert me.kingdoms[Kingdom.RHEA] == 1
    assert me.horde == (Colour.RED,)
    assert me.hand == ()
    assert card("ORC-blue") in state.row
    assert to_move(state) == 1


def test_chain_ends_when_the_chained_centaur_does_not_place() -> None:
    """TRIBE-CEN-1, TRIBE-CEN-2, TRIBE-CEN-3: the second Centaur band (X = 1, Straton holds 1)
    places nothing, so it cannot chain; as the last band its Leader discards the rest."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        hands={0: "CEN-red CEN-blue ORC-green"},
        kingdoms={0: {"Straton": 1}},
    )
    state = act(state, "band *CEN-red", "place Rhea")
    assert legal(state) == ["band *CEN-blue", "band *ORC-green", "chain stop"]
    state = act(state, "band *CEN-blue")
    assert to_move(state) == 1
    me = state.players[0]
    assert len(me.bands) == 2
    assert me.hand == ()
    assert me.kingdoms[Kingdom.STRATON] == 1
    assert card("ORC-green") in state.row


def test_chain_rest_of_hand_uses_the_last_bands_x() -> None:
    """TRIBE-CEN-3, TRIBE-ELF-1: a 3-card Centaur band chains a 1-card Elf band; the Elves (the
    last band) keep up to their own X = 1 of the 2 cards left, not the Centaurs' 3."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        hands={0: "CEN-red CEN-red CEN-blue ELF-blue ORC-green TRO-gray"},
    )
    state = act(state, "band *CEN-red CEN-red CEN-blue", "place Rhea", "band *ELF-blue")
    state = act(state, "place none")
    assert legal(state) == ["keep ORC-green", "keep TRO-gray", "keep done"]
    state = act(state, "keep TRO-gray")
    assert legal(state) == ["keep done"]
    state = act(state, "keep done")
    assert state.players[0].hand == (card("TRO-gray"),)
    assert card("ORC-green") in state.row
    assert to_move(state) == 1


def test_third_dragon_during_chained_wizard_draws_ends_the_game() -> None:
    """RECRUIT-4, TRIBE-CEN-3, TRIBE-WIZ-1, END-1: Age III. A Centaur band chains a 3-card Wizard
    band; the Wizards discard ORC-gray into the row, draw TRO-red, then the third Dragon: the
    Age (and the game) ends at once, the last draw is lost and TRO-red is discarded with the
    hand. Seat 1: Rhea III = 10 + Straton III = 10 + bands 0 + 3 = 23."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        age=3,
        to_move=1,
        hands={1: "CEN-red WIZ-blue WIZ-blue WIZ-green ORC-gray"},
        dragons_drawn=2,
        top_left=0,
    )
    state = act(state, "band *CEN-red", "place Rhea")
    state = act(state, "band *WIZ-blue WIZ-blue WIZ-green", "place Straton", "wizard 3")
    assert card("ORC-gray") in state.row
    state = act(state, "reveal TRO-red", "reveal DRAGON")
    assert is_terminal(state)
    assert state.history[-1].third_dragon == 1
    assert state.players[1].hand == ()
    assert card("TRO-red") in state.discard
    assert glory(state) == (0, 23, 0, 0)
    assert gains(state, 1) == {"kingdoms": 20, "bands": 3}


def test_third_dragon_in_a_chain_sets_the_next_first_player() -> None:
    """RECRUIT-4, AGE-5: Age I. Seat 1 ends the Age mid-chain (Wizard draws): Rhea I = 2 +
    Straton I = 4 + bands 0 + 3 = 9. Seats 0, 2, 3 tie on 0 Glory; clockwise from the drawer
    (seat 1, not tied) the first tied seat is 2."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        to_move=1,
        hands={1: "CEN-red WIZ-blue WIZ-blue WIZ-green ORC-gray"},
        dragons_drawn=2,
        top_left=0,
    )
    state = act(state, "band *CEN-red", "place Rhea")
    state = act(state, "band *WIZ-blue WIZ-blue WIZ-green", "place Straton", "wizard 3")
    state = act(state, "reveal TRO-red", "reveal DRAGON")
    assert glory(state) == (0, 9, 0, 0)
    assert state.age == 2
    assert state.first_player == 2
    assert is_chance(state)


# --- TRIBE-GIA-1: the first Giant band of a new Age -----------------------------------------------


def test_first_giant_band_of_age_two_takes_the_token_whatever_age_one_had() -> None:
    """TRIBE-GIA-1, TRIBE-GIA-2, END-5: Age I ends with seat 1 holding the token on a 5-card
    Giant band (2 + band 10 = 12 Glory). In Age II the comparison starts afresh: seat 0's
    1-card Giant band is the first of the Age and takes the token with 2 Glory."""
    state = at_end(
        4, GIA_SET, bands={1: ["*GIA-red GIA-red GIA-blue GIA-blue GIA-green"]}, giant=(1, 5)
    )
    state = end_age(state)
    assert glory(state) == (0, 12, 0, 0)
    # AGE-5: seats 0, 2, 3 tie on 0; the drawer (seat 0) is tied and starts.
    assert state.first_player == 0
    state = apply(state, Reveal(card("GIA-orange")))  # seat 0's starting card (AGE-2)
    state = sample(state, random.Random(11))
    assert to_move(state) == 0
    state = act(state, "band *GIA-orange", "place none")
    assert glory(state) == (2, 12, 0, 0)
    assert state.giant_holder == 0
    assert state.giant_size == 1


# --- TRIBE-ORC-2: order of the Horde decisions ---------------------------------------------------


def test_horde_decisions_skip_empty_hordes_and_end_with_the_drawer() -> None:
    """TRIBE-ORC-2, END-3: 5 players, seat 2 drew the third Dragon; Hordes of seats 0, 2, 3.
    From seat 3 clockwise: 3, (4 has none), 0, (1 has none), and the drawer 2 last."""
    state = at_end(5, GIA_SET, to_move=2, horde={0: ["red"], 2: ["blue"], 3: ["green", "gray"]})
    state = end_age(state)
    order = []
    while not is_chance(state):
        seat = to_move(state)
        assert isinstance(seat, int)
        order.append(seat)
        state = act(state, "empty none" if seat != 3 else "empty gray green")
    assert order == [3, 0, 2]
    # Seat 3 emptied 2 markers: 3 Glory (COMP-11).
    assert glory(state) == (0, 0, 0, 3, 0)


# --- SCORE-K-2 / SCORE-K-3 for every player count ----------------------------------------------


@pytest.mark.parametrize(
    ("age", "markers", "trolls", "expected"),
    [
        # 3 players, Rhea I = 2, II = 8.
        # Age II: seat 0 1st → II = 8; seats 1, 2 share ranks 2–3: (I + nothing) // 2 = 1.
        (2, {0: 2, 1: 1, 2: 1}, {}, (8, 1, 1)),
        # Age II, 3-way tie over ranks 1–3: (8 + 2 + nothing) // 3 = 3.
        (2, {0: 1, 1: 1, 2: 1}, {}, (3, 3, 3)),
        # The same with Troll token 1 for seat 2: seat 2 1st → 8; seats 0, 1: (2 + 0) // 2 = 1.
        (2, {0: 1, 1: 1, 2: 1}, {2: [1]}, (1, 1, 8)),
        # Age I, 3-way tie: (2 + nothing + nothing) // 3 = 0.
        (1, {0: 1, 1: 1, 2: 1}, {}, (0, 0, 0)),
    ],
)
def test_three_player_awards_with_two_token_spaces(
    age: int, markers: dict[int, int], trolls: dict[int, list[int]], expected: tuple[int, ...]
) -> None:
    """SCORE-K-2, SCORE-K-3, SCORE-3P-1: with 2 token spaces, Age II pays ranks 1–2 only; a tie
    group adds the awards of the ranks it covers (nothing for a rank past space I)."""
    assert rhea_glory(3, age, markers, trolls) == expected


@pytest.mark.parametrize(
    ("age", "kingdom", "markers", "expected"),
    [
        # 6 players, Age III, Rhea 2/6/10: ranks 1–3 earn III, II, I; ranks 4–6 nothing.
        (3, "Rhea", {0: 6, 1: 5, 2: 4, 3: 3, 4: 2, 5: 1}, (10, 6, 2, 0, 0, 0)),
        # 6-way tie, Straton 4/6/10: (10 + 6 + 4) // 6 = 3 each.
        (3, "Straton", {s: 1 for s in range(6)}, (3, 3, 3, 3, 3, 3)),
        # Age II: seats 4 and 5 share ranks 1–2 of Straton: (6 + 4) // 2 = 5; rank 3 nothing.
        (2, "Straton", {4: 2, 5: 2, 0: 1}, (0, 0, 0, 0, 5, 5)),
    ],
)
def test_six_player_awards(
    age: int, kingdom: str, markers: dict[int, int], expected: tuple[int, ...]
) -> None:
    """SCORE-K-2, SCORE-K-3: in Age a only ranks 1..a earn; with 6 players the rest earn
    nothing, and a tie group's share includes the ranks past space I as nothing."""
    assert rhea_glory(6, age, markers, kingdom=kingdom) == expected


@pytest.mark.parametrize("tiebreak", ["all_ranks", "first_only"])
def test_troll_tiebreak_among_three_tied_for_most(tiebreak: str) -> None:
    """SCORE-K-3, TRIBE-TRO-2, option troll_tiebreak: Age III Rhea 2/6/10, seats 0, 1, 2 tie on
    2 markers and seat 1 holds Troll token 1. Under both options the Trolls order the players
    tied for the most: seat 1 1st → III = 10; seats 0 and 2 stay tied for ranks 2–3:
    (6 + 2) // 2 = 4 each."""
    options = Options(troll_tiebreak="first_only" if tiebreak == "first_only" else "all_ranks")
    markers = {0: 2, 1: 2, 2: 2}
    assert rhea_glory(4, 3, markers, {1: [1]}, options=options) == (4, 10, 4, 0)


# --- SCORE-2P-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markers", "trolls", "expected"),
    [
        # Rhea I = 2, II = 8. A lone contender earns I + II = 10 even when the other player
        # holds Troll tokens (SCORE-K-1: no marker, no rank).
        ({0: 2}, {1: [6]}, (10, 0)),
        # Troll tokens only separate equal markers: 3 > 2 and seat 0 is first → II = 8.
        ({0: 3, 1: 2}, {1: [6]}, (8, 0)),
    ],
)
def test_two_player_final_age_trolls_only_break_ties(
    markers: dict[int, int], trolls: dict[int, list[int]], expected: tuple[int, ...]
) -> None:
    """SCORE-2P-1, SCORE-K-1, SCORE-K-3: the 2-player Age II rule ranks by markers first."""
    assert rhea_glory(2, 2, markers, trolls) == expected


def test_two_player_final_merfolk_tie_broken_by_trolls() -> None:
    """SCORE-2P-1, TRIBE-MER-3, TRIBE-TRO-2: 2 players, Age II, both on space 4; seat 0's Troll
    token 2 makes it first → II = 3 (small side); second place earns nothing."""
    state = at_end(2, SMALL_MER_SET, age=2, merfolk={0: 4, 1: 4}, trolls={0: [2]})
    assert glory(end_age(state)) == (3, 0)


# --- AGE-4 in Age II ---------------------------------------------------------------------------


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
    for _ in range(28):
        state = act(state, "recruit deck")
        outcomes = chance_outcomes(state)
        assert all(action != Reveal(DRAGON) for action, _ in outcomes)
        state = apply(state, outcomes[0][0])
    state = act(state, "recruit deck")
    assert dict(chance_outcomes(state))[Reveal(DRAGON)] == Fraction(3, 32)


# --- Impossible states that position() (and snapshots) refuse ------------------------------------


@pytest.mark.parametrize(
    ("tribes", "kwargs"),
    [
        pytest.param(
            GIA_SET,
            {"giant": (7, 3)},
            id="giant-holder-not-a-seat",
        ),
        pytest.param(
            NO_PIECES,
            {"giant": (0, 2)},
            id="giant-token-without-giants",
        ),
        pytest.param(
            GIA_SET,
            {"giant": (1, 3)},
            id="giant-token-without-a-giant-band",
        ),
        pytest.param(
            NO_PIECES,
            {"trolls": {0: [3]}},
            id="troll-token-without-trolls",
        ),
        pytest.param(
            NO_PIECES,
            {"horde": {0: ["red"]}},
            id="horde-without-orcs",
        ),
        pytest.param(
            MER_SET,
            {"merfolk": {0: 25}},
            id="merfolk-past-the-last-space",
        ),
        pytest.param(
            MER_SET,
            {"merfolk": {0: -1}},
            id="merfolk-negative",
        ),
        pytest.param(
            GIA_SET,
            {"dragons_drawn": 3, "top_left": 0},
            id="three-dragons-age-goes-on",
        ),
        pytest.param(
            GIA_SET,
            {"dragons_drawn": 1, "top_left": 5},
            id="dragon-from-the-top-part",
        ),
    ],
)
def test_impossible_states_are_refused(tribes: list[str], kwargs: dict[str, Any]) -> None:
    """SETUP-5, TRIBE-GIA-1, TRIBE-MER-1, RECRUIT-4, AGE-4: position() (like a snapshot) must
    refuse a state no legal game reaches; it checks the invariants with state_problems."""
    with pytest.raises(SetupError):
        position(4, tribes, tokens=TOKENS_4P, **kwargs)


def test_giant_band_without_the_token_is_no_position() -> None:
    """TRIBE-GIA-1: a Giant-led band always takes the token when it is the first of the Age, so
    seat 1's 4-card Giant band means seat 1 holds the token at size 4. Either the position is
    refused, or seat 0's 2-card Giant band (2 is not > 4) gains nothing."""
    try:
        state = position(
            4,
            GIA_SET,
            tokens=TOKENS_4P,
            hands={0: "GIA-orange GIA-orange"},
            bands={1: ["*GIA-red GIA-red GIA-blue GIA-blue"]},
        )
    except SetupError:
        return
    state = act(state, "band *GIA-orange GIA-orange", "place none")
    assert glory(state) == (0, 0, 0, 0)
    assert state.giant_holder != 0
