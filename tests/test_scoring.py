"""End of an Age and scoring, spec §8–9 (END-*, SCORE-*).

Every test builds a position with ``dragons_drawn=2, top_left=0``, lets the player to move draw
the third Dragon (``recruit deck``, ``reveal DRAGON``, RECRUIT-4) and checks the Glory, the
:class:`~ethnos_rules.AgeSummary` in ``state.history[-1]`` and the state after cleanup. The
expected numbers are worked out by hand from the spec in the comments.
"""

from __future__ import annotations

from typing import Any

import pytest

from ethnos_rules import (
    Colour,
    Kingdom,
    Options,
    card,
    glory,
    is_chance,
    is_terminal,
    legal_actions,
    to_move,
)
from ethnos_rules._rules.scoring import award, award_prize, rank_groups, score_area
from helpers import GIA_SET, MER_SET_SMALL, TRIBES_SMALL, act, at_end, end_age, gains


def kingdom_glory(
    players: int,
    age: int,
    markers: dict[int, int],
    kingdom: str = "Rhea",
    trolls: dict[int, list[int]] | None = None,
    options: Options | None = None,
    tribes: list[str] | None = None,
) -> tuple[int, ...]:
    """Glory after the end of ``age`` when only ``kingdom`` holds markers (``seat: count``)."""
    state = at_end(
        players,
        tribes,
        age=age,
        kingdoms={seat: {kingdom: n} for seat, n in markers.items()},
        trolls=trolls or {},
        options=options,
    )
    return glory(end_age(state))


def rhea_glory(
    players: int,
    age: int,
    markers: dict[int, int],
    trolls: dict[int, list[int]] | None = None,
    **kwargs: Any,
) -> tuple[int, ...]:
    """:func:`kingdom_glory` with the Troll tokens fourth and tribes without Merfolk:
    :data:`~helpers.GIA_SET`, or :data:`~helpers.TRIBES_SMALL` with 2–3 players."""
    tribes = TRIBES_SMALL if players <= 3 else GIA_SET
    return kingdom_glory(players, age, markers, trolls=trolls, tribes=tribes, **kwargs)


# --- END-1..6, in spec order ---------------------------------------------------------------------


def test_end_1_every_hand_is_discarded() -> None:
    """END-1: at the end of the (last) Age every hand goes to the discard and scores nothing;
    the player who drew the third Dragon gets no replacement card (RECRUIT-4)."""
    state = at_end(age=3, hands={1: "ORC-red ORC-blue", 2: "DWA-green"})
    state = end_age(state)
    assert all(p.hand == () for p in state.players)
    assert sorted(state.discard) == sorted([card("ORC-red"), card("ORC-blue"), card("DWA-green")])
    assert glory(state) == (0, 0, 0, 0)


def test_end_2_each_kingdom_is_scored() -> None:
    """END-2, SCORE-K-2: Age I: Rhea's first (seat 0, 2 > 1) takes Rhea I = 2; Straton's only
    contender (seat 1) takes Straton I = 4."""
    state = at_end(kingdoms={0: {"Rhea": 2}, 1: {"Rhea": 1, "Straton": 1}})
    state = end_age(state)
    assert glory(state) == (2, 4, 0, 0)
    assert gains(state, 0) == {"kingdoms": 2}
    assert gains(state, 1) == {"kingdoms": 4}


def test_end_3_merfolk_giant_and_orcs_before_bands() -> None:
    """END-3, END-4: Age I: Merfolk board (seat 2 alone on 4 → I = 1), Giant token (seat 1,
    Age I → 2), then the Orc Horde decision; bands are scored only after it."""
    state = at_end(
        merfolk={2: 4},
        giant=(1, 2),
        bands={1: ["*GIA-red GIA-blue"]},
        horde={3: ["red"]},
    )
    state = end_age(state)
    assert to_move(state) == 3
    # Merfolk and Giant paid; the 2-card band (1 Glory) not yet.
    assert glory(state) == (0, 2, 1, 0)
    state = act(state, "empty red")
    # Horde of 1 marker → 1 (COMP-11); seat 1's 2-card band → 1 (COMP-7).
    assert glory(state) == (0, 3, 1, 1)
    assert gains(state, 1) == {"giant": 2, "bands": 1}
    assert gains(state, 2) == {"merfolk": 1}
    assert gains(state, 3) == {"orcs": 1}


def test_end_3_horde_decisions_start_after_the_third_dragon() -> None:
    """END-3: the Orc decisions go in turn order from the player after the one who drew the
    third Dragon: seat 2 drew it, so seats 3, 0, 1 and last 2 decide in that order."""
    state = at_end(to_move=2, horde={0: ["red"], 1: ["blue"], 2: ["gray"], 3: ["green"]})
    state = end_age(state)
    order = []
    while not is_chance(state):
        seat = to_move(state)
        assert isinstance(seat, int)
        order.append(seat)
        state = act(state, "empty none")
    assert order == [3, 0, 1, 2]
    assert state.history[-1].third_dragon == 2


def test_band_glory_one_plus_six_plus_six_is_thirteen() -> None:
    """SCORE-B-1, END-4, COMP-7: bands of 2, 4 and 4 cards score 1 + 6 + 6 = 13."""
    state = at_end(
        bands={
            0: [
                "*ORC-red ORC-blue",
                "*ORC-green ORC-green ORC-gray ORC-gray",
                "*TRO-red TRO-red TRO-blue TRO-blue",
            ]
        }
    )
    state = end_age(state)
    assert glory(state) == (13, 0, 0, 0)
    assert gains(state, 0) == {"bands": 13}


ORCS = ["ORC-red", "ORC-red", "ORC-blue", "ORC-blue", "ORC-green", "ORC-green", "ORC-gray"]


@pytest.mark.parametrize(
    ("size", "expected"),
    # COMP-7: 1 / 2 / 3 / 4 / 5 / 6-or-more cards → 0 / 1 / 3 / 6 / 10 / 15.
    [(1, 0), (2, 1), (3, 3), (4, 6), (5, 10), (6, 15), (7, 15)],
)
def test_band_glory_table(size: int, expected: int) -> None:
    """SCORE-B-1, END-4, COMP-7: the band glory table, 6 or more cards worth 15."""
    cards = ORCS[:size]
    band = " ".join(["*" + cards[0], *cards[1:]])
    state = end_age(at_end(bands={1: [band]}))
    assert glory(state)[1] == expected


def test_band_glory_after_removing_skeletons_with_the_dwarf_bonus() -> None:
    """SCORE-B-1, END-4, TRIBE-SKE-1, TRIBE-DWA-1: Skeletons leave first, then a Dwarf Leader
    adds one card."""
    state = at_end(
        bands={
            # 5 cards - 3 Skeletons = 2, + 1 (Dwarf) = 3 → 3.
            0: ["*DWA-red DWA-blue SKE SKE SKE"],
            # 2 cards - 1 Skeleton = 1 → 0 (no Dwarf).
            1: ["*ORC-red SKE"],
            # 6 cards - 1 Skeleton = 5, + 1 = 6 → 15.
            2: ["*DWA-green DWA-green DWA-gray DWA-gray DWA-purple SKE"],
            # 3 cards - 2 Skeletons = 1, + 1 = 2 → 1.
            3: ["*DWA-orange SKE SKE"],
        }
    )
    state = end_age(state)
    assert glory(state) == (3, 0, 15, 1)


def test_end_5_cleanup_keeps_markers_and_returns_tokens() -> None:
    """END-5: bands are discarded, Troll and Giant tokens return unclaimed; markers on the
    kingdoms, the Merfolk board and the Horde boards stay."""
    state = at_end(
        kingdoms={0: {"Rhea": 2}},
        merfolk={2: 5},
        horde={3: ["red"]},
        trolls={0: [3], 1: [5]},
        giant=(1, 2),
        bands={1: ["*GIA-red GIA-blue"], 2: ["*ORC-green"]},
    )
    state = act(end_age(state), "empty none")
    assert state.age == 2
    assert all(p.bands == () for p in state.players)
    assert all(p.trolls == () for p in state.players)
    assert state.unclaimed_trolls() == (1, 2, 3, 4, 5, 6)
    assert state.giant_holder is None
    assert state.players[0].kingdoms[Kingdom.RHEA] == 2
    assert state.players[2].merfolk == 5
    assert state.players[3].horde == (Colour.RED,)
    # 25 markers - 1 Merfolk marker (SETUP-5) - 2 in Rhea = 22 left in supply.
    assert state.players[0].supply == 22


def test_end_5_bands_go_to_the_discard_in_the_last_age() -> None:
    """END-5: in the last Age (nothing gathers the cards afterwards) the band cards are in the
    discard and no band is left in front of a player."""
    state = end_age(at_end(age=3, bands={1: ["*GIA-red GIA-blue SKE"]}, giant=(1, 3)))
    assert all(p.bands == () for p in state.players)
    assert sorted(state.discard) == sorted([card("GIA-red"), card("GIA-blue"), card("SKE")])


@pytest.mark.parametrize(
    ("players", "age", "last"),
    [
        # SETUP-2: 3 Ages with 4–6 players, 2 Ages with 2–3 players.
        (4, 1, False),
        (4, 2, False),
        (4, 3, True),
        (5, 2, False),
        (6, 3, True),
        (2, 1, False),
        (2, 2, True),
        (3, 1, False),
        (3, 2, True),
    ],
)
def test_end_6_next_age_or_end_of_game(players: int, age: int, last: bool) -> None:
    """END-6: after the last Age the game ends; otherwise the next Age begins (with chance
    dealing its cards, AGE-2)."""
    state = end_age(at_end(players, age=age))
    assert len(state.history) == 1
    assert state.history[-1].age == age
    assert is_terminal(state) is last
    if last:
        assert state.age == age
        assert legal_actions(state) == ()
    else:
        assert state.age == age + 1
        assert is_chance(state)


def test_age_summary_contents() -> None:
    """END-2..5: the AgeSummary records the Age, Glory after scoring, gains by source, every
    player's band sizes as played (X, largest first) and who drew the third Dragon."""
    state = at_end(
        to_move=1,
        glory={0: 5},
        kingdoms={0: {"Rhea": 1}},
        bands={0: ["*ORC-red", "*ORC-blue ORC-blue SKE"], 2: ["*DWA-green DWA-gray"]},
    )
    state = end_age(state)
    summary = state.history[-1]
    assert summary.age == 1
    assert summary.third_dragon == 1
    # seat 0: 5 + Rhea I = 2 + bands (1 card → 0; 3 cards - 1 Skeleton = 2 → 1) = 8.
    # seat 2: Dwarves, 2 + 1 = 3 → 3.
    assert summary.glory == (8, 0, 3, 0)
    assert glory(state) == (8, 0, 3, 0)
    assert gains(state, 0) == {"kingdoms": 2, "bands": 1}
    assert gains(state, 1) == {}
    assert gains(state, 2) == {"bands": 3}
    assert summary.band_sizes == ((3, 1), (), (2,), ())


# --- SCORE-K: kingdoms -------------------------------------------------------------------------


def test_only_contenders_score() -> None:
    """SCORE-K-1: Age III, Rhea 2/6/10: seat 0 (3) → III = 10, seat 1 (1) → II = 6; no one
    else has a marker there, so I = 2 goes to nobody, not even to a Troll holder."""
    assert kingdom_glory(4, 3, {0: 3, 1: 1}, trolls={2: [6]}) == (10, 6, 0, 0)


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        # Rhea 2/6/10; seats hold 4, 3, 2, 1 markers.
        (1, (2, 0, 0, 0)),  # 1st → I = 2
        (2, (6, 2, 0, 0)),  # 1st → II = 6, 2nd → I = 2
        (3, (10, 6, 2, 0)),  # 1st → III = 10, 2nd → II = 6, 3rd → I = 2, 4th nothing
    ],
)
def test_awards_by_age(age: int, expected: tuple[int, ...]) -> None:
    """SCORE-K-2: in Age a the r-th player earns the token on space a - r + 1."""
    assert kingdom_glory(4, age, {0: 4, 1: 3, 2: 2, 3: 1}) == expected


def test_tie_for_first_splits_four_plus_two_into_three_and_three() -> None:
    """SCORE-K-3: Age II, Ithys I = 2, II = 4: seats 0 and 1 tie for first and cover ranks 1–2:
    (4 + 2) // 2 = 3 each; seat 2 is 3rd, which earns nothing in Age II."""
    assert kingdom_glory(4, 2, {0: 2, 1: 2, 2: 1}, kingdom="Ithys") == (3, 3, 0, 0)


@pytest.mark.parametrize(
    ("age", "kingdom", "markers", "expected"),
    [
        # Age III Rhea 2/6/10: seat 0 1st → 10; seats 1, 2 share ranks 2–3: (6 + 2) // 2 = 4.
        (3, "Rhea", {0: 3, 1: 2, 2: 2}, (10, 4, 4, 0)),
        # Seats 0, 1 share ranks 1–2: (10 + 6) // 2 = 8; seat 2 takes rank 3 → I = 2.
        (3, "Rhea", {0: 2, 1: 2, 2: 1}, (8, 8, 2, 0)),
        # Age III Straton 4/6/10, 3-way tie: (10 + 6 + 4) // 3 = 20 // 3 = 6 (rounded down).
        (3, "Straton", {0: 1, 1: 1, 2: 1}, (6, 6, 6, 0)),
        # Age II Althea 0/4/8, 3-way tie over ranks 1–3: (4 + 0 + nothing) // 3 = 1.
        (2, "Althea", {0: 1, 1: 1, 2: 1}, (1, 1, 1, 0)),
        # Age III Rhea, 4-way tie: (10 + 6 + 2 + nothing) // 4 = 18 // 4 = 4.
        (3, "Rhea", {0: 1, 1: 1, 2: 1, 3: 1}, (4, 4, 4, 4)),
        # Age I Rhea, 2-way tie: (2 + nothing) // 2 = 1.
        (1, "Rhea", {1: 2, 3: 2}, (0, 1, 0, 1)),
    ],
)
def test_tie_groups_share_the_awards_of_their_ranks(
    age: int, kingdom: str, markers: dict[int, int], expected: tuple[int, ...]
) -> None:
    """SCORE-K-3: a tie group adds the awards of the ranks it covers, each member gets the sum
    divided by the group size rounded down, and the next player takes the following rank."""
    assert kingdom_glory(4, age, markers, kingdom=kingdom) == expected


@pytest.mark.parametrize(
    ("trolls", "expected"),
    [
        # Age II Rhea 2/6/10, seats 0 and 1 tie with 2 markers.
        # Totals 5 vs 2 + 4 = 6: seat 1 first → II = 6, seat 0 → I = 2 (seat 0's single 5
        # is higher, but the total comes first).
        ({0: [5], 1: [2, 4]}, (2, 6, 0, 0)),
        # Totals 1 + 4 = 5 and 2 + 3 = 5 are equal; highest token 4 > 3: seat 0 first.
        ({0: [1, 4], 1: [2, 3]}, (6, 2, 0, 0)),
        # No Troll tokens: a tie, (6 + 2) // 2 = 4 each.
        ({}, (4, 4, 0, 0)),
    ],
)
def test_troll_tokens_break_ties_by_total_then_highest(
    trolls: dict[int, list[int]], expected: tuple[int, ...]
) -> None:
    """SCORE-K-3, TRIBE-TRO-2: equal markers are ordered by the Troll tokens' total, then by the
    highest single token."""
    assert kingdom_glory(4, 2, {0: 2, 1: 2}, trolls=trolls) == expected


@pytest.mark.parametrize(
    ("tiebreak", "expected"),
    [
        # Age III Rhea 2/6/10. Seats 0, 1 tie on 3; seat 1's token 1 puts it first → III = 10,
        # seat 0 → II = 6. Seats 2, 3 tie on 1; seat 3 holds token 2.
        # all_ranks: seat 3 third → I = 2, seat 2 fourth → nothing.
        ("all_ranks", (6, 10, 0, 2)),
        # first_only: seats 2, 3 split ranks 3–4 without Trolls: (2 + nothing) // 2 = 1.
        ("first_only", (6, 10, 1, 1)),
    ],
)
def test_troll_tiebreak_option(tiebreak: str, expected: tuple[int, ...]) -> None:
    """SCORE-K-3, option troll_tiebreak: all_ranks / first_only (Trolls order only the players
    tied for the most markers)."""
    options = Options(troll_tiebreak="first_only" if tiebreak == "first_only" else "all_ranks")
    markers = {0: 3, 1: 3, 2: 1, 3: 1}
    trolls = {1: [1], 3: [2]}
    assert kingdom_glory(4, 3, markers, trolls=trolls, options=options) == expected


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


# --- SCORE-2P-1 and SCORE-3P-1 -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markers", "trolls", "tie", "expected"),
    [
        # Age II of 2 players, Rhea I = 2, II = 8.
        # First → II = 8, second nothing.
        ({0: 3, 1: 1}, {}, "split_II", (8, 0)),
        # A lone contender → I + II = 2 + 8 = 10.
        ({0: 2}, {}, "split_II", (10, 0)),
        ({1: 1}, {}, "split_II", (0, 10)),
        # A tie for first splits II: 8 // 2 = 4 each.
        ({0: 2, 1: 2}, {}, "split_II", (4, 4)),
        # Option split_I_plus_II: (2 + 8) // 2 = 5 each.
        ({0: 2, 1: 2}, {}, "split_I_plus_II", (5, 5)),
        # A tie broken by Troll tokens is no tie: seat 1 first → II = 8.
        ({0: 2, 1: 2}, {1: [3]}, "split_II", (0, 8)),
    ],
)
def test_two_player_final_age(
    markers: dict[int, int], trolls: dict[int, list[int]], tie: str, expected: tuple[int, ...]
) -> None:
    """SCORE-2P-1: 2 players, Age II: the first earns II, the second nothing; a lone contender
    earns I + II; a tie for first splits II (or I + II with the option)."""
    options = Options(two_player_final_tie="split_I_plus_II" if tie != "split_II" else "split_II")
    assert kingdom_glory(2, 2, markers, trolls=trolls, options=options) == expected


@pytest.mark.parametrize(
    ("markers", "expected"),
    [
        # Age I of 2 players is normal: Rhea I = 2 to the first.
        ({0: 3, 1: 1}, (2, 0)),
        # A tie covers ranks 1–2: (2 + nothing) // 2 = 1 each.
        ({0: 1, 1: 1}, (1, 1)),
    ],
)
def test_two_player_first_age_is_normal(markers: dict[int, int], expected: tuple[int, ...]) -> None:
    """SCORE-2P-1, SCORE-K-2: only Age II of a 2-player game has the special rule."""
    assert kingdom_glory(2, 1, markers) == expected


@pytest.mark.parametrize(
    ("age", "markers", "expected"),
    [
        # Rhea I = 2, II = 8. Age I: 1st → I = 2.
        (1, {0: 2, 1: 1}, (2, 0, 0)),
        # Age II: 1st → II = 8, 2nd → I = 2.
        (2, {0: 2, 1: 1}, (8, 2, 0)),
        # A lone contender gets II only (no 2-player I + II rule).
        (2, {2: 1}, (0, 0, 8)),
        # A tie for first: (8 + 2) // 2 = 5 each.
        (2, {0: 1, 1: 1}, (5, 5, 0)),
    ],
)
def test_three_players_score_normally(
    age: int, markers: dict[int, int], expected: tuple[int, ...]
) -> None:
    """SCORE-3P-1: 3 players score kingdoms normally in both Ages."""
    assert kingdom_glory(3, age, markers) == expected


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
    state = at_end(2, MER_SET_SMALL, age=2, merfolk={0: 4, 1: 4}, trolls={0: [2]})
    assert glory(end_age(state)) == (3, 0)


@pytest.mark.parametrize(
    ("merfolk", "trolls", "earned"),
    [
        ({0: 5, 1: 3}, {}, [2, 0, 0, 0]),  # the first alone earns the Age's value (II = 2)
        ({0: 5, 1: 5, 2: 3}, {}, [1, 1, 0, 0]),  # tied for first: 2 split, SCORE-K-3
        ({0: 5, 1: 5}, {1: [3]}, [0, 2, 0, 0]),  # the Troll token ranks seat 1 first
    ],
)
def test_merfolk_first_only_pays_the_first_ranked_the_age_value(
    merfolk: dict[int, int], trolls: dict[int, list[int]], earned: list[int]
) -> None:
    """TRIBE-MER-3 with merfolk_scoring=first_only (as the spec now words it): only the players
    ranked first after Troll tokens earn, the value a kingdom's first place earns that Age,
    split among them by SCORE-K-3."""
    from ethnos_rules import Options, apply, parse_action, position

    state = position(
        4,
        ["MER", "DWA", "ELF", "GIA", "ORC", "TRO"],
        age=2,
        merfolk=merfolk,
        trolls=trolls,
        dragons_drawn=2,
        top_left=0,
        options=Options(merfolk_scoring="first_only"),
    )
    state = apply(apply(state, parse_action("recruit deck")), parse_action("reveal DRAGON"))
    assert [state.history[-1].gains_of(s).get("merfolk", 0) for s in range(4)] == earned


# --- the scoring helpers of the rules, called directly -------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "age", "rank", "value"),
    [
        # SCORE-K-2: in Age a the r-th player earns the token on space a - r + 1, if it exists.
        ((2, 6, 10), 1, 1, 2),
        ((2, 6, 10), 1, 2, 0),
        ((2, 6, 10), 2, 1, 6),
        ((2, 6, 10), 2, 2, 2),
        ((2, 6, 10), 2, 3, 0),
        ((2, 6, 10), 3, 1, 10),
        ((2, 6, 10), 3, 3, 2),
        ((2, 6, 10), 3, 4, 0),
        ((4, 8), 3, 1, 0),  # 2 tokens a kingdom with 2–3 players: no space III
        ((4, 8), 2, 1, 8),
    ],
)
def test_award_is_the_token_of_the_space_for_the_rank(
    tokens: tuple[int, ...], age: int, rank: int, value: int
) -> None:
    """SCORE-K-2: award() gives the value of the token a rank earns in an Age, 0 for none."""
    assert award(tokens, age, rank) == value
    prize = award_prize(tokens, age, rank)
    assert (prize.value if prize is not None else 0) == value


@pytest.mark.parametrize(
    ("values", "trolls", "groups"),
    [
        ([2, 0, 2, 1], {}, [[0, 2], [3]]),  # SCORE-K-1: seat 1 has no marker and does not rank
        ([2, 0, 2, 1], {2: [3]}, [[2], [0], [3]]),  # SCORE-K-3: the Troll token breaks the tie
        ([0, 0, 0, 0], {}, []),
    ],
)
def test_rank_groups_are_the_tie_groups_best_first(
    values: list[int], trolls: dict[int, list[int]], groups: list[list[int]]
) -> None:
    """SCORE-K-1, SCORE-K-3: rank_groups() lists the contenders in tie groups, best first."""
    state = at_end(4, GIA_SET, trolls=trolls)
    assert rank_groups(state, values) == groups


@pytest.mark.parametrize(("first_only", "awards"), [(False, [6, 0, 1, 1]), (True, [6, 0, 0, 0])])
def test_score_area_first_only(first_only: bool, awards: list[int]) -> None:
    """SCORE-K-2/3, TRIBE-MER-3: in Age II the first earns space II (6); seats 2 and 3, tied
    for second, share space I (2) and the missing space 0, 1 each; scored first_only (as the
    Merfolk board under merfolk_scoring=first_only) only the first place earns."""
    state = at_end(4, GIA_SET, age=2)
    assert score_area(state, [2, 0, 1, 1], [2, 6, 10], first_only) == awards
