"""Tribe abilities, spec §7 (TRIBE-*), with every rule option the section names.

Each test builds a concrete position with :func:`ethnos_rules.position`, plays the band (and its
follow-up decisions) in the action notation, and checks the result against numbers worked out by
hand from the spec. End-of-Age effects are reached by building the position with
``dragons_drawn=2, top_left=0`` and applying ``recruit deck`` / ``reveal DRAGON`` (RECRUIT-4).
"""

from __future__ import annotations

import random
from typing import Literal

import attrs
import pytest

from ethnos_rules import (
    Colour,
    GameState,
    IllegalActionError,
    Kingdom,
    Options,
    Reveal,
    apply,
    card,
    glory,
    is_chance,
    is_terminal,
    position,
    sample,
    state_problems,
    to_move,
)
from helpers import (
    GIA_SET,
    HAL_SET,
    MER_SET,
    MER_SET_SMALL,
    TOKENS_4P,
    TOKENS_SMALL,
    TRIBES_SMALL,
    act,
    assert_refused,
    at_end,
    end_age,
    gains,
    legal,
    tokens_for,
)

CEN_SET = ["CEN", "ELF", "ORC", "SKE", "TRO", "WIZ"]
ELF_SET = ["DWA", "ELF", "ORC", "SKE", "TRO", "WIZ"]


# --- Centaurs ----------------------------------------------------------------------------------


def test_centaur_then_orc_chain() -> None:
    """TRIBE-CEN-1, TRIBE-CEN-3: a Centaur band that placed lets the player play an Orc band;
    the Orc band places and adds to the Horde, then the rest of the hand is discarded."""
    state = position(
        4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red CEN-red ORC-blue ORC-blue ELF-green"}
    )
    # X = 2 > 0 markers in Rhea: placement allowed.
    state = act(state, "band *CEN-red CEN-red", "place Rhea")
    assert "chain stop" in legal(state)
    assert "band *ORC-blue ORC-blue" in legal(state)
    # X = 2 > 0 markers in Straton.
    state = act(state, "band *ORC-blue ORC-blue", "place Straton", "horde add")
    me = state.players[0]
    assert me.kingdoms[Kingdom.RHEA] == 1
    assert me.kingdoms[Kingdom.STRATON] == 1
    assert me.horde == (Colour.BLUE,)
    assert len(me.bands) == 2
    assert me.hand == ()
    assert card("ELF-green") in state.row
    assert to_move(state) == 1


def test_centaur_that_declines_placement_does_not_chain() -> None:
    """TRIBE-CEN-1: only a band that placed a marker may be followed by another band."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red CEN-red ORC-blue ORC-blue"})
    state = act(state, "band *CEN-red CEN-red", "place none")
    assert to_move(state) == 1
    assert state.players[0].hand == ()
    assert state.row.count(card("ORC-blue")) == 2


def test_centaur_that_cannot_place_does_not_chain() -> None:
    """TRIBE-CEN-1: X = 2 is not > 2 markers in Rhea, so no marker and no chain."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        hands={0: "CEN-red CEN-red ORC-blue ORC-blue"},
        kingdoms={0: {"Rhea": 2}},
    )
    state = act(state, "band *CEN-red CEN-red")
    assert to_move(state) == 1
    assert state.players[0].kingdoms[Kingdom.RHEA] == 2
    assert state.players[0].hand == ()


def test_centaur_chain_may_go_on_to_a_third_band() -> None:
    """TRIBE-CEN-2 (default centaur_chain=allowed): a second Centaur band that placed may chain
    a third band."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red CEN-blue CEN-green"})
    state = act(state, "band *CEN-red", "place Rhea", "band *CEN-blue", "place Straton")
    assert legal(state) == ["band *CEN-green", "chain stop"]
    state = act(state, "band *CEN-green", "place Althea")
    assert state.players[0].kingdoms[Kingdom.ALTHEA] == 1
    assert len(state.players[0].bands) == 3
    assert to_move(state) == 1


def test_centaur_chain_single_stops_after_the_second_band() -> None:
    """TRIBE-CEN-2, option centaur_chain=single: the second band never chains a third."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        hands={0: "CEN-red CEN-blue CEN-green"},
        options=Options(centaur_chain="single"),
    )
    state = act(state, "band *CEN-red", "place Rhea")
    # The first band still chains under `single`.
    assert "band *CEN-blue" in legal(state)
    state = act(state, "band *CEN-blue", "place Straton")
    assert to_move(state) == 1
    assert len(state.players[0].bands) == 2
    assert state.players[0].hand == ()
    assert card("CEN-green") in state.row


def test_centaur_chain_ending_with_elves_lets_the_elves_keep() -> None:
    """TRIBE-CEN-3: the last band's Leader (Elves) handles the rest of the hand."""
    state = position(
        4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red ELF-blue ELF-blue ORC-green TRO-gray"}
    )
    state = act(state, "band *CEN-red", "place Rhea", "band *ELF-blue ELF-blue", "place none")
    # Elves with X = 2 keep up to 2 of the 2 cards left.
    state = act(state, "keep ORC-green", "keep done")
    assert state.players[0].hand == (card("ORC-green"),)
    assert card("TRO-gray") in state.row
    assert to_move(state) == 1


def test_centaur_chain_ending_with_wizards_draws_after_discarding() -> None:
    """TRIBE-CEN-3: a chain ending with a Wizard band discards the rest, then draws X."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red WIZ-blue WIZ-blue ORC-green"})
    state = act(state, "band *CEN-red", "place Rhea", "band *WIZ-blue WIZ-blue", "place none")
    assert state.players[0].hand == ()
    assert card("ORC-green") in state.row
    # X = 2: draw 2 or none.
    assert legal(state) == ["wizard 2", "wizard 0"]
    state = act(state, "wizard 2", "reveal TRO-red", "reveal TRO-blue")
    assert state.players[0].hand == (card("TRO-red"), card("TRO-blue"))


def test_centaur_chain_stop_discards_the_rest() -> None:
    """TRIBE-CEN-3: stopping after the Centaur band leaves the rest to the Centaur, which
    discards it all (BAND-6)."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red ELF-blue ELF-blue"})
    state = act(state, "band *CEN-red", "place Rhea", "chain stop")
    assert state.players[0].hand == ()
    assert state.row.count(card("ELF-blue")) == 2
    assert to_move(state) == 1


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


def _wizards_chained_as_the_age_ends(age: int) -> GameState:
    """Age ``age``, two Dragons drawn, seat 1 to move: a Centaur band placed in Rhea chains a
    3-card Wizard band that places in Straton and draws 3 (its Leader discards ORC-gray)."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        age=age,
        to_move=1,
        hands={1: "CEN-red WIZ-blue WIZ-blue WIZ-green ORC-gray"},
        dragons_drawn=2,
        top_left=0,
    )
    state = act(state, "band *CEN-red", "place Rhea")
    return act(state, "band *WIZ-blue WIZ-blue WIZ-green", "place Straton", "wizard 3")


def test_third_dragon_during_chained_wizard_draws_ends_the_game() -> None:
    """RECRUIT-4, TRIBE-CEN-3, TRIBE-WIZ-1, END-1: Age III. A Centaur band chains a 3-card Wizard
    band; the Wizards discard ORC-gray into the row, draw TRO-red, then the third Dragon: the
    Age (and the game) ends at once, the last draw is lost and TRO-red is discarded with the
    hand. Seat 1: Rhea III = 10 + Straton III = 10 + bands 0 + 3 = 23."""
    state = _wizards_chained_as_the_age_ends(age=3)
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
    state = _wizards_chained_as_the_age_ends(age=1)
    state = act(state, "reveal TRO-red", "reveal DRAGON")
    assert glory(state) == (0, 9, 0, 0)
    assert state.age == 2
    assert state.first_player == 2
    assert is_chance(state)


# --- Dwarves -----------------------------------------------------------------------------------


def test_dwarf_band_scores_one_card_larger_after_skeletons_leave() -> None:
    """TRIBE-DWA-1, END-4: a Dwarf-led band counts one card larger at band scoring, after the
    Skeletons are removed; a band with Dwarves that a Dwarf does not lead gets nothing."""
    state = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        bands={
            0: ["*DWA-red DWA-red DWA-blue"],
            1: ["*DWA-green DWA-gray SKE SKE"],
            2: ["*ELF-purple DWA-purple DWA-purple"],
        },
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    # seat 0: 3 cards + 1 = 4 → 6 (COMP-7).
    # seat 1: X = 4, Skeletons removed → 2, + 1 → 3 → 3 Glory.
    # seat 2: Elf Leader, 3 cards → 3 Glory.
    assert glory(state) == (6, 3, 3, 0)
    assert gains(state, 0) == {"bands": 6}


def test_dwarves_do_not_help_placement() -> None:
    """TRIBE-DWA-1: no effect on placement: X = 2 is not > 2 markers in Rhea."""
    state = position(
        4, ELF_SET, tokens=TOKENS_4P, hands={0: "DWA-red DWA-red"}, kingdoms={0: {"Rhea": 2}}
    )
    state = act(state, "band *DWA-red DWA-red")
    assert to_move(state) == 1
    assert state.players[0].kingdoms[Kingdom.RHEA] == 2


# --- Elves -------------------------------------------------------------------------------------


def test_elves_keep_three_of_four() -> None:
    """TRIBE-ELF-1: a 3-card Elf band keeps 3 of the 4 remaining cards; the 4th goes to the
    row."""
    state = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        hands={0: "ELF-red ELF-red ELF-blue DWA-green ORC-gray TRO-purple WIZ-orange"},
    )
    state = act(state, "band *ELF-red ELF-red ELF-blue", "place none")
    state = act(state, "keep DWA-green", "keep ORC-gray", "keep TRO-purple")
    # X = 3 cards kept: nothing more may be kept.
    assert legal(state) == ["keep done"]
    state = act(state, "keep done")
    assert state.players[0].hand == (card("DWA-green"), card("ORC-gray"), card("TRO-purple"))
    assert card("WIZ-orange") in state.row
    assert to_move(state) == 1


@pytest.mark.parametrize("elves_keep", ["up_to_x", "exactly_x"])
def test_elves_keep_the_first_card_kind(elves_keep: Literal["up_to_x", "exactly_x"]) -> None:
    """TRIBE-ELF-1: with Centaurs in play the first card kind of all, CEN-green, may be kept
    like any other card: first, or after nothing else, and then the cards after it."""
    state = position(
        4,
        CEN_SET,
        tokens=TOKENS_4P,
        hands={0: "ELF-red ELF-blue CEN-green CEN-green ORC-gray"},
        options=Options(elves_keep=elves_keep),
    )
    assert card("CEN-green").index == 0
    state = act(state, "band *ELF-red ELF-blue", "place none")
    # X = 2 of CEN-green CEN-green ORC-gray. Under exactly_x, ORC-gray first would leave no
    # card after it to keep a second; one CEN-green kept, the keeping may not stop there.
    first = ["keep CEN-green", "keep ORC-gray", "keep done"]
    second = ["keep CEN-green", "keep ORC-gray", "keep done"]
    if elves_keep == "exactly_x":
        first, second = ["keep CEN-green", "keep done"], ["keep CEN-green", "keep ORC-gray"]
    assert legal(state) == first
    state = act(state, "keep CEN-green")
    assert legal(state) == second
    state = act(state, "keep CEN-green")
    # Two of one kind kept are in card order: the state is sound, and only stopping is left.
    assert state_problems(state) == () and legal(state) == ["keep done"]
    state = act(state, "keep done")
    assert state.players[0].hand == (card("CEN-green"), card("CEN-green"))
    assert card("ORC-gray") in state.row


def test_elves_may_keep_fewer_than_x_or_none() -> None:
    """TRIBE-ELF-1 (default elves_keep=up_to_x): any number from 0 to X may be kept."""
    start = position(
        4, ELF_SET, tokens=TOKENS_4P, hands={0: "ELF-red ELF-red ELF-blue DWA-green ORC-gray"}
    )
    start = act(start, "band *ELF-red ELF-red ELF-blue", "place none")
    assert "keep done" in legal(start)
    none_kept = act(start, "keep done")
    assert none_kept.players[0].hand == ()
    one_kept = act(start, "keep ORC-gray", "keep done")
    assert one_kept.players[0].hand == (card("ORC-gray"),)
    assert card("DWA-green") in one_kept.row


def test_elves_cannot_keep_more_than_x() -> None:
    """TRIBE-ELF-1: a 1-card Elf band keeps at most 1 card."""
    state = position(
        4, ELF_SET, tokens=TOKENS_4P, hands={0: "ELF-red DWA-green ORC-gray TRO-purple"}
    )
    state = act(state, "band *ELF-red", "place none", "keep DWA-green")
    assert legal(state) == ["keep done"]
    with pytest.raises(IllegalActionError) as err:
        act(state, "keep ORC-gray")
    assert err.value.rule == "TRIBE-ELF-1"


def test_elves_keep_exactly_x_or_none() -> None:
    """TRIBE-ELF-1, option elves_keep=exactly_x: keep X cards or decline and keep none."""
    start = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        hands={0: "ELF-red ELF-blue DWA-green ORC-gray TRO-purple"},
        options=Options(elves_keep="exactly_x"),
    )
    start = act(start, "band *ELF-red ELF-blue", "place none")
    # Declining the ability: keep none.
    assert "keep done" in legal(start)
    assert act(start, "keep done").players[0].hand == ()
    # One kept of X = 2: stopping now is not allowed.
    one = act(start, "keep DWA-green")
    assert "keep done" not in legal(one)
    with pytest.raises(IllegalActionError) as err:
        act(one, "keep done")
    assert err.value.rule == "TRIBE-ELF-1"
    two = act(one, "keep TRO-purple")
    assert legal(two) == ["keep done"]
    two = act(two, "keep done")
    assert two.players[0].hand == (card("DWA-green"), card("TRO-purple"))
    assert card("ORC-gray") in two.row


def test_elves_keep_exactly_x_keeps_all_when_fewer_cards_remain() -> None:
    """TRIBE-ELF-1, option elves_keep=exactly_x: keeps min(X, cards left) = min(3, 2) = 2."""
    state = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        hands={0: "ELF-red ELF-red ELF-blue DWA-green ORC-gray"},
        options=Options(elves_keep="exactly_x"),
    )
    state = act(state, "band *ELF-red ELF-red ELF-blue", "place none", "keep DWA-green")
    assert "keep done" not in legal(state)
    state = act(state, "keep ORC-gray")
    assert legal(state) == ["keep done"]
    state = act(state, "keep done")
    assert state.players[0].hand == (card("DWA-green"), card("ORC-gray"))


# --- Giants ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "bands", "giant", "before", "actions", "expected", "holder", "size"),
    [
        # The first Giant-led band of the Age gains 2 Glory at once and the token.
        pytest.param(
            "GIA-red GIA-red",
            None,
            None,
            None,
            ["band *GIA-red GIA-red", "place none"],
            (2, 0, 0, 0),
            0,
            None,
            id="first-giant-band-takes-the-token-and-two-glory",
        ),
        # A player holding the token with a 3-card Giant band takes it onto their own new 4-card
        # band (4 > 3) and gains 2 more Glory: 2 + 2 = 4.
        pytest.param(
            "GIA-red GIA-red GIA-blue GIA-blue",
            {0: ["*GIA-green GIA-green GIA-gray"]},
            (0, 3),
            {0: 2},
            ["band *GIA-red GIA-red GIA-blue GIA-blue", "place none"],
            (4, 0, 0, 0),
            0,
            4,
            id="giants-take-token-from-three-band-with-four-band",
        ),
        # Strictly larger: 3 is not > 3, so no Glory and the token stays.
        pytest.param(
            "GIA-red GIA-red GIA-blue",
            {1: ["*GIA-green GIA-green GIA-gray"]},
            (1, 3),
            None,
            ["band *GIA-red GIA-red GIA-blue", "place none"],
            (0, 0, 0, 0),
            1,
            None,
            id="giant-band-of-equal-size-does-not-take-the-token",
        ),
        # 4 > 3: the token moves to seat 0, who gains 2 Glory.
        pytest.param(
            "GIA-red GIA-red GIA-blue GIA-blue",
            {1: ["*GIA-green GIA-green GIA-gray"]},
            (1, 3),
            None,
            ["band *GIA-red GIA-red GIA-blue GIA-blue", "place none"],
            (2, 0, 0, 0),
            0,
            None,
            id="giant-band-strictly-larger-takes-token-from-another-player",
        ),
        # Ruling (X with Skeletons): GIA GIA SKE SKE has X = 4 > 3.
        pytest.param(
            "GIA-red GIA-blue SKE SKE",
            {1: ["*GIA-green GIA-green GIA-gray"]},
            (1, 3),
            None,
            ["band *GIA-red GIA-blue SKE SKE", "place none"],
            (2, 0, 0, 0),
            0,
            None,
            id="giant-size-counts-skeletons",
        ),
        # BAND-4: only a Giant-led band counts; an Orc leading Giants takes nothing.
        pytest.param(
            "ORC-red GIA-red GIA-red",
            None,
            None,
            None,
            ["band *ORC-red GIA-red GIA-red", "place none", "horde none"],
            (0, 0, 0, 0),
            None,
            None,
            id="giants-that-do-not-lead-do-not-take-the-token",
        ),
    ],
)
def test_giant_band_and_the_giant_token(
    hand: str,
    bands: dict[int, list[str]] | None,
    giant: tuple[int, int] | None,
    before: dict[int, int] | None,
    actions: list[str],
    expected: tuple[int, ...],
    holder: int | None,
    size: int | None,
) -> None:
    """TRIBE-GIA-1, BAND-4 (Ruling: X with Skeletons): the first Giant-led band of the Age gains
    2 Glory at once and the token; a later Giant-led band takes the token, with 2 more Glory,
    only when it is strictly larger (Skeletons count in X) than the band it is on, the holder's
    own included; a band that a Giant does not lead takes nothing."""
    state = position(
        4, GIA_SET, tokens=TOKENS_4P, hands={0: hand}, bands=bands, giant=giant, glory=before
    )
    state = act(state, *actions)
    assert glory(state) == expected
    assert state.giant_holder == holder
    if size is not None:
        assert state.giant_size == size


@pytest.mark.parametrize(
    ("players", "age", "value"),
    [
        # COMP-9, 4–6 players side: Age I 2, Age II 4, Age III 6.
        (4, 1, 2),
        (4, 2, 4),
        (4, 3, 6),
        (5, 2, 4),
        (6, 3, 6),
        # 2–3 players side: Age I 2, Age II 5.
        (2, 1, 2),
        (2, 2, 5),
        (3, 1, 2),
        (3, 2, 5),
    ],
)
def test_giant_token_pays_its_value_for_the_age(players: int, age: int, value: int) -> None:
    """TRIBE-GIA-2, COMP-9: at end of Age the holder gains the token's value for that Age and
    player count; the token then returns unclaimed (END-5)."""
    state = position(
        players,
        TRIBES_SMALL if players <= 3 else GIA_SET,
        tokens=tokens_for(players),
        age=age,
        bands={1: ["*GIA-red GIA-blue GIA-green"]},
        giant=(1, 3),
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    # The 3-card band itself scores 3 (COMP-7).
    assert gains(state, 1) == {"giant": value, "bands": 3}
    assert glory(state)[1] == value + 3
    assert state.giant_holder is None


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


# --- Halflings ---------------------------------------------------------------------------------


def test_halfling_band_never_places() -> None:
    """TRIBE-HAL-1: a 5-card Halfling band places nothing, though 5 > 0 markers."""
    state = position(
        4, HAL_SET, tokens=TOKENS_4P, hands={0: "HAL-red HAL-red HAL-red HAL-red HAL-blue"}
    )
    state = act(state, "band *HAL-red HAL-red HAL-red HAL-red HAL-blue")
    assert to_move(state) == 1
    assert state.players[0].kingdoms == (0, 0, 0, 0, 0, 0)


def test_halfling_that_is_not_the_leader_changes_nothing() -> None:
    """TRIBE-HAL-1: an Orc-led band with a Halfling places as usual (2 > 0 in Rhea)."""
    state = position(4, HAL_SET, tokens=TOKENS_4P, hands={0: "ORC-red HAL-red"})
    state = act(state, "band *ORC-red HAL-red")
    assert legal(state) == ["place Rhea", "place none"]


# --- Merfolk -----------------------------------------------------------------------------------


def test_merfolk_reaching_space_three_places_a_marker() -> None:
    """TRIBE-MER-1/2: a 3-card Merfolk band moves 0 → 3, reaching the checkpoint on space 3,
    which places one marker in any kingdom (besides the band's own placement)."""
    state = position(4, MER_SET, tokens=TOKENS_4P, hands={0: "MER-red MER-red MER-blue"})
    state = act(state, "band *MER-red MER-red MER-blue", "place Rhea")
    assert state.players[0].merfolk == 3
    assert legal(state) == [
        "checkpoint Althea",
        "checkpoint Duris",
        "checkpoint Ithys",
        "checkpoint Pelagon",
        "checkpoint Rhea",
        "checkpoint Straton",
        "checkpoint none",
    ]
    state = act(state, "checkpoint Duris")
    me = state.players[0]
    assert me.kingdoms[Kingdom.RHEA] == 1
    assert me.kingdoms[Kingdom.DURIS] == 1
    # Supply: 25 - 1 (Merfolk marker, SETUP-5) - 2 placed = 22.
    assert me.supply == 22
    assert to_move(state) == 1


def test_merfolk_short_move_reaches_no_checkpoint() -> None:
    """TRIBE-MER-1/2: 0 → 2 passes no checkpoint (3, 7, 12, 18)."""
    state = position(4, MER_SET, tokens=TOKENS_4P, hands={0: "MER-red MER-red"})
    state = act(state, "band *MER-red MER-red", "place none")
    assert state.players[0].merfolk == 2
    assert to_move(state) == 1


def test_merfolk_passing_two_checkpoints_places_two_markers() -> None:
    """TRIBE-MER-2 (default one_per_checkpoint): 2 → 8 passes checkpoints 3 and 7."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        hands={0: "MER-red MER-red MER-blue MER-blue MER-green MER-green"},
        merfolk={0: 2},
    )
    state = act(state, "band *MER-red MER-red MER-blue MER-blue MER-green MER-green")
    state = act(state, "place none", "checkpoint Althea")
    assert "checkpoint Althea" in legal(state)
    state = act(state, "checkpoint Althea")
    assert state.players[0].merfolk == 8
    assert state.players[0].kingdoms[Kingdom.ALTHEA] == 2
    assert to_move(state) == 1


def test_merfolk_one_checkpoint_per_move_option() -> None:
    """TRIBE-MER-2, option merfolk_checkpoints=one_per_move: 2 → 8 passes two checkpoints but
    earns only one marker."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        hands={0: "MER-red MER-red MER-blue MER-blue MER-green MER-green"},
        merfolk={0: 2},
        options=Options(merfolk_checkpoints="one_per_move"),
    )
    state = act(state, "band *MER-red MER-red MER-blue MER-blue MER-green MER-green")
    state = act(state, "place none", "checkpoint Althea")
    assert state.players[0].merfolk == 8
    assert state.players[0].kingdoms[Kingdom.ALTHEA] == 1
    assert to_move(state) == 1


def test_merfolk_movement_stops_at_the_last_space() -> None:
    """TRIBE-MER-1/2: 16 + 5 = 21 stops at 18; only checkpoint 18 is passed (12 is behind)."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        hands={0: "MER-red MER-red MER-blue MER-blue MER-green"},
        merfolk={0: 16},
    )
    state = act(state, "band *MER-red MER-red MER-blue MER-blue MER-green", "place none")
    assert state.players[0].merfolk == 18
    state = act(state, "checkpoint Ithys")
    assert state.players[0].kingdoms[Kingdom.ITHYS] == 1
    assert to_move(state) == 1


def test_merfolk_on_the_last_space_do_not_move_or_earn() -> None:
    """TRIBE-MER-1/2: from 18 the marker cannot move, so no checkpoint is reached again."""
    state = position(4, MER_SET, tokens=TOKENS_4P, hands={0: "MER-red MER-red"}, merfolk={0: 18})
    state = act(state, "band *MER-red MER-red", "place none")
    assert state.players[0].merfolk == 18
    assert to_move(state) == 1


def test_merfolk_checkpoint_ignores_band_size() -> None:
    """TRIBE-MER-2: a 1-card band cannot place in Duris (1 ≤ 3 markers), but its checkpoint
    marker may go there."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        hands={0: "MER-purple"},
        kingdoms={0: {"Duris": 3}},
        merfolk={0: 2},
    )
    state = act(state, "band *MER-purple")
    # No placement decision: 1 is not > 3; 2 → 3 reaches the checkpoint.
    assert "checkpoint Duris" in legal(state)
    state = act(state, "checkpoint Duris")
    assert state.players[0].kingdoms[Kingdom.DURIS] == 4


def test_merfolk_checkpoint_ignores_the_two_player_rule() -> None:
    """TRIBE-MER-2 (Ruling): with 2 players, the checkpoint marker may go to a kingdom holding
    2 + 3 = 5 markers of both players, though the band has X = 1."""
    state = position(
        2,
        MER_SET_SMALL,
        tokens=TOKENS_SMALL,
        hands={0: "MER-red"},
        kingdoms={0: {"Duris": 2}, 1: {"Duris": 3}},
        merfolk={0: 2},
    )
    state = act(state, "band *MER-red", "place none")
    assert state.players[0].merfolk == 3
    state = act(state, "checkpoint Duris")
    assert state.players[0].kingdoms[Kingdom.DURIS] == 3


def test_merfolk_checkpoint_needs_a_marker_in_supply() -> None:
    """TRIBE-MER-2: with no marker left in supply no checkpoint marker is placed."""
    # 25 markers - 1 on the Merfolk board - 24 on kingdoms = 0 in supply.
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        hands={0: "MER-red MER-red MER-blue"},
        kingdoms={0: {"Althea": 4, "Duris": 4, "Ithys": 4, "Pelagon": 4, "Rhea": 4, "Straton": 4}},
    )
    assert state.players[0].supply == 0
    state = act(state, "band *MER-red MER-red MER-blue")
    assert state.players[0].merfolk == 3
    assert to_move(state) == 1


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


@pytest.mark.parametrize(
    ("trolls", "expected"),
    [
        # Age II, values I=1 II=2 III=4. Seat 0 (8) first → II = 2. Seats 1, 2 tie on 5 for
        # ranks 2–3 → (I + nothing) // 2 = 1 // 2 = 0. Seat 3 on space 0 is not ranked.
        ({}, (2, 0, 0, 0)),
        # Troll token 1 for seat 2 breaks the tie (TRIBE-TRO-2): seat 2 2nd → I = 1,
        # seat 1 3rd → nothing in Age II.
        ({2: [1]}, (2, 0, 1, 0)),
    ],
)
def test_merfolk_board_scores_like_a_kingdom(
    trolls: dict[int, list[int]], expected: tuple[int, ...]
) -> None:
    """TRIBE-MER-3, TRIBE-TRO-2: the board is ranked by position like a kingdom, with the
    board's values as awards and Troll tokens breaking ties."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        age=2,
        merfolk={0: 8, 1: 5, 2: 5},
        trolls=trolls,
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert glory(state) == expected
    assert gains(state, 0) == {"merfolk": 2}


@pytest.mark.parametrize(
    ("players", "age", "positions", "scoring", "expected"),
    [
        # Ruling: Age III, seat 0 on 5 takes III = 4. Seats on 0 are not ranked; were they,
        # they would share ranks 2–4: (2 + 1 + 0) // 3 = 1 each.
        pytest.param(4, 3, {0: 5}, None, (4, 0, 0, 0), id="players-on-space-zero-are-not-ranked"),
        # Option merfolk_scoring, Age III. like_kingdom: 1st → III = 4, 2nd → II = 2, 3rd → I = 1.
        pytest.param(
            4, 3, {0: 9, 1: 6, 2: 3}, "like_kingdom", (4, 2, 1, 0), id="scoring-option-like_kingdom"
        ),
        # first_only: only the first earns.
        pytest.param(
            4, 3, {0: 9, 1: 6, 2: 3}, "first_only", (4, 0, 0, 0), id="scoring-option-first_only"
        ),
        # first_only: players tied for first share the first place's award alone. Age III:
        # III = 4, split by two → 4 // 2 = 2 each (not (4 + 2) // 2).
        pytest.param(
            4,
            3,
            {0: 6, 1: 6, 2: 3},
            "first_only",
            (2, 2, 0, 0),
            id="first-only-tie-splits-the-first-award-only",
        ),
        # Ruling: the board follows the 2-player Age II rule (SCORE-2P-1). 2 players, Age II
        # (final), small side I = 1, II = 3: first → II = 3, second nothing.
        pytest.param(2, 2, {0: 4, 1: 2}, None, (3, 0), id="two-player-final-age-first-earns-II"),
        # A lone ranked player → I + II = 1 + 3 = 4.
        pytest.param(2, 2, {0: 4}, None, (4, 0), id="two-player-final-age-lone-player"),
        # A tie for first splits II: 3 // 2 = 1 each.
        pytest.param(2, 2, {0: 4, 1: 4}, None, (1, 1), id="two-player-final-age-tie-splits-II"),
        # COMP-10: 3 players, Age II: 1st → II = 3, 2nd → I = 1.
        pytest.param(3, 2, {0: 4, 1: 2}, None, (3, 1, 0), id="three-players-use-the-small-side"),
    ],
)
def test_merfolk_board_scoring(
    players: int,
    age: int,
    positions: dict[int, int],
    scoring: Literal["like_kingdom", "first_only"] | None,
    expected: tuple[int, ...],
) -> None:
    """TRIBE-MER-3, COMP-10, SCORE-2P-1 (Rulings), option merfolk_scoring (like_kingdom /
    first_only): at the end of an Age the board is ranked by position like a kingdom, players on
    space 0 unranked, with the board's values as awards (the small side with 2–3 players) and
    the 2-player Age II rule; with first_only only the first place's award is paid."""
    options = None if scoring is None else Options(merfolk_scoring=scoring)
    state = position(
        players,
        MER_SET if players >= 4 else MER_SET_SMALL,
        tokens=tokens_for(players),
        age=age,
        merfolk=positions,
        options=options,
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert glory(state) == expected


# --- Minotaurs ---------------------------------------------------------------------------------


def test_minotaur_fourth_marker_with_three_cards() -> None:
    """TRIBE-MIN-1, BAND-5: a 3-card Minotaur band has effective size 3 + 1 = 4 > 3 markers,
    so it places a fourth marker in Rhea."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        hands={0: "MIN-red MIN-red MIN-blue"},
        kingdoms={0: {"Rhea": 3}},
    )
    state = act(state, "band *MIN-red MIN-red MIN-blue")
    assert legal(state) == ["place Rhea", "place none"]
    state = act(state, "place Rhea")
    assert state.players[0].kingdoms[Kingdom.RHEA] == 4


def test_minotaur_bonus_is_only_one() -> None:
    """TRIBE-MIN-1: effective size 3 + 1 = 4 is not > 4 markers: no placement."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        hands={0: "MIN-red MIN-red MIN-blue"},
        kingdoms={0: {"Rhea": 4}},
    )
    state = act(state, "band *MIN-red MIN-red MIN-blue")
    assert to_move(state) == 1
    assert state.players[0].kingdoms[Kingdom.RHEA] == 4


@pytest.mark.parametrize(
    ("hand", "band", "places"),
    [
        # Both players hold 1 + 2 = 3 markers in Rhea.
        # Minotaurs X = 3: 3 + 1 = 4 > 3 → may place.
        ("MIN-red MIN-red MIN-blue", "band *MIN-red MIN-red MIN-blue", True),
        # Minotaurs X = 2: 2 + 1 = 3, not > 3.
        ("MIN-red MIN-red", "band *MIN-red MIN-red", False),
        # Trolls X = 3 (no bonus): 3, not > 3.
        ("TRO-red TRO-red TRO-blue", "band *TRO-red TRO-red TRO-blue", False),
    ],
)
def test_minotaur_bonus_applies_in_the_two_player_rule(hand: str, band: str, places: bool) -> None:
    """TRIBE-MIN-1, BAND-5 (2 players): the effective size must exceed both players' markers."""
    state = position(
        2,
        MER_SET_SMALL,
        tokens=TOKENS_SMALL,
        hands={0: hand},
        kingdoms={0: {"Rhea": 1}, 1: {"Rhea": 2}},
    )
    state = act(state, band)
    assert ("place Rhea" in legal(state)) is places


def test_minotaur_bonus_does_not_count_at_band_scoring() -> None:
    """TRIBE-MIN-1, BAND-8: a 3-card Minotaur band scores as 3 cards → 3 Glory."""
    state = position(
        4,
        MER_SET,
        tokens=TOKENS_4P,
        bands={1: ["*MIN-red MIN-red MIN-blue"]},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert glory(state) == (0, 3, 0, 0)


# --- Orcs --------------------------------------------------------------------------------------


def test_orc_band_adds_a_marker_on_the_leaders_colour() -> None:
    """TRIBE-ORC-1: the Horde space of the Leader's colour (blue) gets a marker from supply."""
    state = position(4, GIA_SET, tokens=TOKENS_4P, hands={0: "ORC-blue ORC-red"})
    state = act(state, "band *ORC-blue ORC-red", "place none")
    assert legal(state) == ["horde add", "horde none"]
    state = act(state, "horde add")
    assert state.players[0].horde == (Colour.BLUE,)
    assert state.players[0].supply == 24
    assert to_move(state) == 1


def test_orc_may_decline_the_horde() -> None:
    """TRIBE-ORC-1: "may": declining leaves the Horde empty."""
    state = position(4, GIA_SET, tokens=TOKENS_4P, hands={0: "ORC-blue"})
    state = act(state, "band *ORC-blue", "place none", "horde none")
    assert state.players[0].horde == ()
    assert state.players[0].supply == 25


def test_orc_cannot_add_to_an_occupied_space() -> None:
    """TRIBE-ORC-1: the blue space already holds a marker, so nothing is offered."""
    state = position(4, GIA_SET, tokens=TOKENS_4P, hands={0: "ORC-blue"}, horde={0: ["blue"]})
    state = act(state, "band *ORC-blue", "place none")
    assert to_move(state) == 1
    assert state.players[0].horde == (Colour.BLUE,)


def test_orc_needs_a_marker_in_supply() -> None:
    """TRIBE-ORC-1: "a marker from supply": with all 25 markers on kingdoms nothing is offered
    (and BAND-5 places nothing either)."""
    state = position(
        4,
        GIA_SET,
        tokens=TOKENS_4P,
        hands={0: "ORC-blue ORC-blue"},
        kingdoms={0: {"Althea": 5, "Duris": 5, "Ithys": 5, "Pelagon": 5, "Rhea": 5}},
    )
    assert state.players[0].supply == 0
    state = act(state, "band *ORC-blue ORC-blue")
    assert to_move(state) == 1
    assert state.players[0].horde == ()


def _horde_position(age: int, options: Options | None = None) -> GameState:
    return position(
        4,
        GIA_SET,
        tokens=TOKENS_4P,
        age=age,
        horde={1: ["red", "blue", "green"]},
        options=options,
        dragons_drawn=2,
        top_left=0,
    )


def test_orc_horde_three_markers_score_six() -> None:
    """TRIBE-ORC-2, COMP-11: emptying 3 markers scores 6 and returns them to supply."""
    state = end_age(_horde_position(age=1))
    assert to_move(state) == 1
    assert legal(state) == ["empty green red blue", "empty none"]
    state = act(state, "empty green red blue")
    assert glory(state) == (0, 6, 0, 0)
    assert state.history[-1].glory == (0, 6, 0, 0)
    assert state.players[1].horde == ()
    # 25 - 3 on the Horde + 3 back.
    assert state.players[1].supply == 25


def test_orc_horde_may_be_kept_for_a_later_age() -> None:
    """TRIBE-ORC-2: keeping scores nothing; the markers stay into Age II (END-5)."""
    state = act(end_age(_horde_position(age=1)), "empty none")
    assert glory(state) == (0, 0, 0, 0)
    assert state.age == 2
    assert state.players[1].horde == (Colour.GREEN, Colour.RED, Colour.BLUE)


def test_orc_horde_all_or_nothing_refuses_a_part() -> None:
    """TRIBE-ORC-2 (default orc_empty=all_or_nothing): a part of the Horde cannot be emptied."""
    state = end_age(_horde_position(age=1))
    assert_refused(
        state,
        "empty red blue",
        rule="TRIBE-ORC-2",
        words=("the Horde holds green red blue; empty all of it or none of it",),
        error=IllegalActionError,
    )


def test_orc_horde_any_subset_option() -> None:
    """TRIBE-ORC-2, option orc_empty=any_subset: emptying 2 of 3 scores 3 (COMP-11), one
    marker stays."""
    state = end_age(_horde_position(age=1, options=Options(orc_empty="any_subset")))
    assert "empty red blue" in legal(state)
    assert "empty none" in legal(state)
    state = act(state, "empty red blue")
    assert glory(state) == (0, 3, 0, 0)
    assert state.players[1].horde == (Colour.GREEN,)


def test_orc_horde_refusals_name_the_horde() -> None:
    """TRIBE-ORC-2: a colour that is not on the Horde cannot be emptied; the refusal says what
    the Horde holds and what may be emptied, under either option."""
    for orc_empty, how in [("any_subset", "a part"), ("all_or_nothing", "all of it or none")]:
        options = Options(orc_empty="any_subset" if orc_empty == "any_subset" else "all_or_nothing")
        state = end_age(_horde_position(age=1, options=options))
        for refused_action in ["empty orange", "empty green orange"]:
            assert_refused(
                state,
                refused_action,
                rule="TRIBE-ORC-2",
                words=(f"the Horde holds green red blue; empty {how} of it",),
                error=IllegalActionError,
            )


@pytest.mark.parametrize("orc_empty", ["all_or_nothing", "any_subset"])
def test_orc_horde_is_emptied_in_the_last_age(orc_empty: str) -> None:
    """TRIBE-ORC-2 (Ruling): in the last Age (III with 4 players) the Horde is always emptied,
    with no decision: 3 markers → 6 Glory."""
    options = Options(orc_empty="any_subset" if orc_empty == "any_subset" else "all_or_nothing")
    state = end_age(_horde_position(age=3, options=options))
    assert is_terminal(state)
    assert glory(state) == (0, 6, 0, 0)
    assert state.players[1].horde == ()


def test_orc_horde_is_emptied_in_the_last_age_of_a_two_player_game() -> None:
    """TRIBE-ORC-2, SETUP-2: with 2 players Age II is the last: 2 markers → 3 Glory."""
    state = position(
        2,
        TRIBES_SMALL,
        tokens=TOKENS_SMALL,
        age=2,
        horde={0: ["red", "blue"]},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert is_terminal(state)
    assert glory(state) == (3, 0)


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


# --- Skeletons ---------------------------------------------------------------------------------


def test_five_card_band_with_two_skeletons_scores_as_three() -> None:
    """TRIBE-SKE-1, END-4: X = 5, the two Skeletons are removed, the 3-card band scores 3."""
    state = position(
        4,
        GIA_SET,
        tokens=TOKENS_4P,
        bands={2: ["*ORC-red ORC-red ORC-blue SKE SKE"]},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert glory(state) == (0, 0, 3, 0)
    assert state.history[-1].band_sizes[2] == (5,)


def test_skeleton_is_never_a_leader() -> None:
    """TRIBE-SKE-1, BAND-4: no legal band has a Skeleton Leader, and naming one is refused."""
    state = position(4, GIA_SET, tokens=TOKENS_4P, hands={0: "SKE ORC-red"})
    assert not any(text.startswith("band *SKE") for text in legal(state))
    with pytest.raises(IllegalActionError):
        act(state, "band *SKE ORC-red")


def test_skeletons_count_for_placement() -> None:
    """TRIBE-SKE-1, BAND-8: ORC SKE SKE has X = 3 > 2 markers in Rhea, so it may place."""
    state = position(
        4, GIA_SET, tokens=TOKENS_4P, hands={0: "ORC-red SKE SKE"}, kingdoms={0: {"Rhea": 2}}
    )
    state = act(state, "band *ORC-red SKE SKE")
    assert legal(state) == ["place Rhea", "place none"]


# --- Trolls ------------------------------------------------------------------------------------


def test_trolls_take_any_token_up_to_four() -> None:
    """TRIBE-TRO-1: a 4-card Troll band may take any unclaimed token 1..4, or none."""
    state = position(4, GIA_SET, tokens=TOKENS_4P, hands={0: "TRO-red TRO-red TRO-blue TRO-blue"})
    state = act(state, "band *TRO-red TRO-red TRO-blue TRO-blue", "place none")
    assert legal(state) == ["troll 1", "troll 2", "troll 3", "troll 4", "troll none"]
    with pytest.raises(IllegalActionError) as err:
        act(state, "troll 5")
    assert err.value.rule == "TRIBE-TRO-1"
    taken = act(state, "troll 4")
    assert taken.players[0].trolls == (4,)
    assert to_move(taken) == 1
    declined = act(state, "troll none")
    assert declined.players[0].trolls == ()


def test_trolls_skip_claimed_tokens_and_may_hold_several() -> None:
    """TRIBE-TRO-1: token 2 (held by seat 1) is not offered; seat 0 already holds 1 and may
    take 3 as well."""
    state = position(
        4,
        GIA_SET,
        tokens=TOKENS_4P,
        hands={0: "TRO-red TRO-red TRO-blue"},
        trolls={0: [1], 1: [2]},
    )
    state = act(state, "band *TRO-red TRO-red TRO-blue", "place none")
    assert legal(state) == ["troll 3", "troll none"]
    state = act(state, "troll 3")
    assert state.players[0].trolls == (1, 3)


def test_trolls_with_skeletons_count_x() -> None:
    """TRIBE-TRO-1, BAND-8: TRO SKE SKE SKE has X = 4, so token 4 may be taken."""
    state = position(4, GIA_SET, tokens=TOKENS_4P, hands={0: "TRO-red SKE SKE SKE"})
    state = act(state, "band *TRO-red SKE SKE SKE", "place none")
    assert "troll 4" in legal(state)
    assert "troll 5" not in legal(state)


def test_trolls_with_no_token_in_reach_decide_nothing() -> None:
    """TRIBE-TRO-1: a 1-card band when token 1 is held has nothing to take."""
    state = position(4, GIA_SET, tokens=TOKENS_4P, hands={0: "TRO-red"}, trolls={1: [1]})
    state = act(state, "band *TRO-red", "place none")
    assert to_move(state) == 1


def test_troll_tokens_score_nothing_and_return() -> None:
    """TRIBE-TRO-2: Troll tokens give no Glory and all return unclaimed at end of Age."""
    state = position(
        4,
        GIA_SET,
        tokens=TOKENS_4P,
        trolls={0: [6], 1: [2, 5]},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert glory(state) == (0, 0, 0, 0)
    assert all(p.trolls == () for p in state.players)
    assert state.unclaimed_trolls() == (1, 2, 3, 4, 5, 6)


# --- Wingfolk ----------------------------------------------------------------------------------


def test_wingfolk_place_in_any_kingdom_that_passes_the_size_test() -> None:
    """TRIBE-WIN-1: X = 2: every kingdom where the player has < 2 markers; not Rhea (2)."""
    state = position(
        4,
        GIA_SET,
        tokens=TOKENS_4P,
        hands={0: "WIN-red WIN-red"},
        kingdoms={0: {"Rhea": 2, "Duris": 1}},
    )
    state = act(state, "band *WIN-red WIN-red")
    assert legal(state) == [
        "place Althea",
        "place Duris",
        "place Ithys",
        "place Pelagon",
        "place Straton",
        "place none",
    ]
    state = act(state, "place Duris")
    assert state.players[0].kingdoms[Kingdom.DURIS] == 2


# --- Wizards -----------------------------------------------------------------------------------


def test_wizards_draw_two_after_discarding_two() -> None:
    """TRIBE-WIZ-1: a 2-card Wizard band discards the 2 other cards, then draws X = 2."""
    state = position(4, ELF_SET, tokens=TOKENS_4P, hands={0: "WIZ-red WIZ-blue DWA-green ELF-gray"})
    state = act(state, "band *WIZ-red WIZ-blue", "place none")
    # The rest is discarded first.
    assert state.players[0].hand == ()
    assert card("DWA-green") in state.row
    assert card("ELF-gray") in state.row
    assert legal(state) == ["wizard 2", "wizard 0"]
    state = act(state, "wizard 2")
    assert is_chance(state)
    state = act(state, "reveal ORC-red")
    assert is_chance(state)
    state = act(state, "reveal TRO-blue")
    assert state.players[0].hand == (card("ORC-red"), card("TRO-blue"))
    assert to_move(state) == 1


def test_wizards_all_or_none() -> None:
    """TRIBE-WIZ-1 (default wizard_draw=all_or_none): 1 of X = 2 is refused; 0 declines."""
    state = position(4, ELF_SET, tokens=TOKENS_4P, hands={0: "WIZ-red WIZ-blue"})
    state = act(state, "band *WIZ-red WIZ-blue", "place none")
    with pytest.raises(IllegalActionError) as err:
        act(state, "wizard 1")
    assert err.value.rule == "TRIBE-WIZ-1"
    declined = act(state, "wizard 0")
    assert declined.players[0].hand == ()
    assert to_move(declined) == 1


def test_wizards_up_to_x_option() -> None:
    """TRIBE-WIZ-1, option wizard_draw=up_to_x: any number 0..X may be drawn."""
    state = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        hands={0: "WIZ-red WIZ-blue"},
        options=Options(wizard_draw="up_to_x"),
    )
    state = act(state, "band *WIZ-red WIZ-blue", "place none")
    assert sorted(legal(state)) == ["wizard 0", "wizard 1", "wizard 2"]
    state = act(state, "wizard 1", "reveal ORC-red")
    assert state.players[0].hand == (card("ORC-red"),)
    assert to_move(state) == 1


def test_wizards_draw_again_after_a_dragon() -> None:
    """TRIBE-WIZ-1, RECRUIT-3: a (second) Dragon met during Wizard draws is set aside and does
    not count as one of the X cards."""
    state = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        hands={0: "WIZ-red WIZ-blue"},
        dragons_drawn=1,
        top_left=0,
    )
    state = act(state, "band *WIZ-red WIZ-blue", "place none", "wizard 2", "reveal DRAGON")
    assert state.dragons_drawn == 2
    assert is_chance(state)
    state = act(state, "reveal ORC-red", "reveal ORC-blue")
    assert state.players[0].hand == (card("ORC-red"), card("ORC-blue"))
    assert to_move(state) == 1


def test_third_dragon_during_wizard_draws_ends_the_age() -> None:
    """TRIBE-WIZ-1, RECRUIT-4: the third Dragon ends the Age at once; the two draws left are
    lost and Age II begins."""
    state = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        hands={0: "WIZ-red WIZ-blue WIZ-green"},
        dragons_drawn=2,
        top_left=0,
    )
    state = act(state, "band *WIZ-red WIZ-blue WIZ-green", "place none", "wizard 3")
    state = act(state, "reveal ORC-red", "reveal DRAGON")
    assert len(state.history) == 1
    assert state.history[-1].third_dragon == 0
    # The 3-card Wizard band scores 3 (COMP-7).
    assert gains(state, 0) == {"bands": 3}
    assert state.age == 2


def test_third_dragon_during_wizard_draws_in_the_last_age_ends_the_game() -> None:
    """TRIBE-WIZ-1, RECRUIT-4, END-1: in Age III the third Dragon during Wizard draws ends the
    game; the card drawn before it is discarded with the hand and no further draw happens."""
    state = position(
        4,
        ELF_SET,
        tokens=TOKENS_4P,
        age=3,
        hands={0: "WIZ-red WIZ-blue WIZ-green"},
        dragons_drawn=2,
        top_left=0,
    )
    state = act(state, "band *WIZ-red WIZ-blue WIZ-green", "place none", "wizard 3")
    state = act(state, "reveal ORC-red", "reveal DRAGON")
    assert is_terminal(state)
    assert state.players[0].hand == ()
    assert card("ORC-red") in state.discard
    assert legal(state) == []


def test_a_kept_elf_card_out_of_card_order_says_the_order_and_what_may_be_kept() -> None:
    """TRIBE-ELF-1: kept cards are named in card order; naming one too late is refused with
    the order expected and the cards still allowed."""
    from ethnos_rules import IllegalActionError, apply, parse_action, position

    hand = "ELF-red ELF-blue ELF-green DWA-green GIA-gray ORC-red"
    state = position(4, ["ELF", "DWA", "GIA", "ORC", "SKE", "TRO"], hands={0: hand})
    for text in ("band *ELF-red ELF-blue ELF-green", "place Rhea", "keep GIA-gray"):
        state = apply(state, parse_action(text))
    with pytest.raises(IllegalActionError) as refused:
        apply(state, parse_action("keep DWA-green"))
    assert refused.value.rule == "TRIBE-ELF-1"
    assert "DWA-green comes before GIA-gray, kept already" in refused.value.reason
    assert refused.value.reason.endswith("cards that may still be kept now: ORC-red")


def test_under_exactly_x_a_card_too_late_in_card_order_is_refused_with_why() -> None:
    """TRIBE-ELF-1 with elves_keep=exactly_x: a card after which too few remain is refused,
    with the cards that may be kept."""
    from ethnos_rules import IllegalActionError, Options, apply, parse_action, position

    state = position(
        4,
        ["ELF", "DWA", "GIA", "ORC", "SKE", "TRO"],
        hands={0: "ELF-red ELF-blue DWA-green ORC-red"},
        options=Options(elves_keep="exactly_x"),
    )
    for text in ("band *ELF-red ELF-blue", "place Rhea"):
        state = apply(state, parse_action(text))
    with pytest.raises(IllegalActionError) as refused:
        apply(state, parse_action("keep ORC-red"))
    assert refused.value.rule == "TRIBE-ELF-1"
    assert "too few cards after it in card order to keep exactly 2" in refused.value.reason
    assert refused.value.reason.endswith("cards that may be kept now: DWA-green")


def test_a_kept_elf_card_out_of_card_order_when_nothing_may_follow() -> None:
    """TRIBE-ELF-1: once the last card in card order is kept, a card before it is refused, and
    the refusal says that no card may be kept now."""
    hand = "ELF-red ELF-blue ELF-green DWA-green ORC-red"
    state = position(4, ["ELF", "DWA", "GIA", "ORC", "SKE", "TRO"], hands={0: hand})
    state = act(state, "band *ELF-red ELF-blue ELF-green", "place Rhea", "keep ORC-red")
    assert legal(state) == ["keep done"]
    assert_refused(
        state,
        "keep DWA-green",
        rule="TRIBE-ELF-1",
        words=("DWA-green comes before ORC-red, kept already", "may still be kept now: none"),
        error=IllegalActionError,
    )


def test_an_orc_decision_in_the_last_age_is_a_problem() -> None:
    """TRIBE-ORC-2, STATE: in the last Age no Orc player decides (every Horde is emptied), so a
    state asking for that decision then is not sound."""
    state = end_age(_horde_position(age=1))
    assert state_problems(state) == ()
    assert state_problems(attrs.evolve(state, age=3)) == (
        "in the last Age every Horde is emptied without a decision (TRIBE-ORC-2)",
    )
