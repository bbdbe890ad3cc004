"""The printed components as data (spec §1, COMP-*), and component data and rule options given in
Python (:class:`~ethnos_rules.Options`, :class:`~ethnos_rules.MerfolkBoard`): wrong values and
types are refused with SetupError naming the rule."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ethnos_rules import (
    DRAGON,
    FIRST_EDITION,
    Card,
    Colour,
    Kingdom,
    MerfolkBoard,
    Options,
    SetupError,
    apply,
    card,
    chance_outcomes,
    legal_actions,
    parse_action,
    position,
)
from ethnos_rules._rules.components import multiset_add, multiset_insert
from helpers import SIX_TRIBES, refused

SIX = ["DWA", "ELF", "GIA", "ORC", "TRO", "WIZ"]


def test_six_kingdoms_each_named_by_one_colour() -> None:
    """COMP-1: Althea green, Duris purple, Ithys orange, Pelagon gray, Rhea red, Straton blue."""
    expected = {
        "Althea": "green",
        "Duris": "purple",
        "Ithys": "orange",
        "Pelagon": "gray",
        "Rhea": "red",
        "Straton": "blue",
    }
    assert {k.label: k.colour.label for k in Kingdom} == expected
    assert all(c.kingdom.colour is c for c in Colour)
    purple = card("ELF-purple").colour
    assert purple is not None and purple.kingdom is Kingdom.DURIS


def test_twelve_tribes() -> None:
    """COMP-2: the twelve tribes of the first edition, in rulebook order."""
    names = [t.name for t in FIRST_EDITION.tribes]
    assert names == [
        "Centaurs",
        "Dwarves",
        "Elves",
        "Giants",
        "Halflings",
        "Merfolk",
        "Minotaurs",
        "Orcs",
        "Skeletons",
        "Trolls",
        "Wingfolk",
        "Wizards",
    ]
    assert [t.wild for t in FIRST_EDITION.tribes].count(True) == 1


def test_ally_card_counts() -> None:
    """COMP-3: 12 cards a tribe (2 of each colour), Halflings 24 (4 each), Skeletons 12 with no
    colour."""
    per_tribe: Counter[str] = Counter()
    for kind, copies in zip(FIRST_EDITION.cards, FIRST_EDITION.copies, strict=True):
        per_tribe[kind.tribe.code] += copies
        if kind.tribe.code == "SKE":
            assert kind.colour is None
        else:
            assert copies == (4 if kind.tribe.code == "HAL" else 2)
    assert per_tribe["HAL"] == 24
    assert all(n == 12 for code, n in per_tribe.items() if code != "HAL")
    assert sum(per_tribe.values()) == 10 * 12 + 24 + 12  # ten tribes, Halflings, Skeletons


def test_three_dragons_are_not_allies() -> None:
    """COMP-4: three Dragons shuffled into the deck's bottom part; a drawn Dragon is set aside,
    never put in a hand, and the draw goes on."""
    state = position(4, SIX, hands={0: "ELF-red"}, top_left=0)
    assert state.dragons_in_deck == 3
    drawing = apply(state, parse_action("recruit deck"))
    outcomes = dict(chance_outcomes(drawing))
    allies = sum(state.deck)
    assert outcomes[parse_action("reveal DRAGON")] * (allies + 3) == 3
    after = apply(drawing, parse_action("reveal DRAGON"))
    assert after.dragons_drawn == 1 and after.dragons_in_deck == 2
    assert after.players[0].hand == state.players[0].hand
    assert all(str(a).startswith("reveal") for a in legal_actions(after))
    assert DRAGON.code == "DRAGON"


def test_glory_tokens_and_four_plus_subset() -> None:
    """COMP-5: 18 tokens, six of them marked 4+ (removed with 2–3 players)."""
    options = Options()
    assert sorted(options.glory_tokens) == [0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10]
    assert sorted(options.glory_tokens_4plus) == [0, 4, 4, 6, 6, 10]
    assert len(options.token_pool(4)) == 18
    assert sorted(options.token_pool(3)) == [0, 2, 2, 4, 4, 6, 6, 6, 8, 8, 8, 10]


def test_twenty_six_markers_one_is_the_score_marker() -> None:
    """COMP-6: 26 markers per player; one is the score marker, 25 start in supply (24 with
    Merfolk, whose marker starts on the track)."""
    assert FIRST_EDITION.markers == 26
    assert position(4, SIX).players[0].supply == 25
    merfolk = position(4, SIX_TRIBES)
    assert merfolk.players[0].supply == 24 and merfolk.players[0].merfolk == 0


def test_band_glory_table() -> None:
    """COMP-7: bands of 1/2/3/4/5/6+ cards are worth 0/1/3/6/10/15."""
    assert [FIRST_EDITION.band_value(n) for n in range(1, 11)] == [
        0,
        1,
        3,
        6,
        10,
        15,
        15,
        15,
        15,
        15,
    ]


def test_six_troll_tokens() -> None:
    """COMP-8: Troll tokens valued 1 to 6, all unclaimed at the start."""
    assert FIRST_EDITION.troll_tokens == (1, 2, 3, 4, 5, 6)
    assert position(4, SIX).unclaimed_trolls() == (1, 2, 3, 4, 5, 6)


def test_giant_token_values() -> None:
    """COMP-9: Age I 2, II 4, III 6 with 4–6 players; Age I 2, II 5 with 2–3."""
    assert FIRST_EDITION.giant_values == ((2, 4, 6), (2, 5))


def test_merfolk_board_data() -> None:
    """COMP-10: spaces 0–18, checkpoints 3, 7, 12, 18; values 1/2/4 and 1/3."""
    board = Options().merfolk_board
    assert board.last_space == 18
    assert board.checkpoints == (3, 7, 12, 18)
    assert board.values_large == (1, 2, 4) and board.values_small == (1, 3)


def test_orc_horde_table() -> None:
    """COMP-11: emptying 1..6 markers scores 1/3/6/10/15/20."""
    assert FIRST_EDITION.orc_glory == (1, 3, 6, 10, 15, 20)


def test_rule_options_of_spec_section_12() -> None:
    """COMP-5, COMP-10 and the Options of spec §12: every switch with its values, default first."""
    assert Options.choices() == {
        "placement": ("optional", "mandatory"),
        "merfolk_checkpoints": ("one_per_checkpoint", "one_per_move"),
        "merfolk_scoring": ("like_kingdom", "first_only"),
        "centaur_chain": ("allowed", "single"),
        "elves_keep": ("up_to_x", "exactly_x"),
        "wizard_draw": ("all_or_none", "up_to_x"),
        "orc_empty": ("all_or_nothing", "any_subset"),
        "troll_tiebreak": ("all_ranks", "first_only"),
        "two_player_final_tie": ("split_II", "split_I_plus_II"),
    }
    defaults = Options()
    assert all(getattr(defaults, name) == values[0] for name, values in Options.choices().items())


# --- Options and MerfolkBoard given in Python ----------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "rule", "words"),
    [
        ({"placement": None}, "OPTIONS", "placement=None"),
        ({"placement": ["optional"]}, "OPTIONS", "placement=['optional']"),
        ({"placement": "OPTIONAL"}, "OPTIONS", "not one of optional, mandatory"),
        ({"wizard_draw": "all"}, "OPTIONS", "wizard_draw='all'"),
        ({"glory_tokens": [-1] * 18, "glory_tokens_4plus": [-1] * 6}, "COMP-5", "negative"),
        ({"glory_tokens_4plus": [1] * 6}, "COMP-5", "among the glory tokens"),
    ],
)
def test_options_bad_values(kwargs: dict[str, Any], rule: str, words: str) -> None:
    """OPTIONS, COMP-5: an unknown choice or impossible token data is refused, naming it."""
    err = refused(lambda: Options(**kwargs), SetupError)
    assert err.rule == rule and words in err.reason


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"checkpoints": (0,)}, "off the track"),
        ({"checkpoints": (19,)}, "off the track"),
        ({"last_space": 5}, "off the track"),
        ({"values_large": (1, 2)}, "needs 3 values"),
        ({"values_small": (1, 2, 3)}, "2 (2-3p)"),
    ],
)
def test_merfolk_board_bad_values(kwargs: dict[str, Any], words: str) -> None:
    """COMP-10: checkpoints lie on the track; the board has 3 and 2 award values."""
    err = refused(lambda: MerfolkBoard(**kwargs), SetupError)
    assert err.rule == "COMP-10" and words in err.reason


@pytest.mark.parametrize("board", [{"last_space": 18}, None, "x"], ids=["dict", "None", "str"])
def test_options_merfolk_board_of_the_wrong_type(board: Any) -> None:
    """COMP-10: merfolk_board must be a MerfolkBoard."""
    refused(lambda: Options(merfolk_board=board), SetupError)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Options(glory_tokens=None), id="tokens-None"),
        pytest.param(lambda: Options(glory_tokens=5), id="tokens-int"),
        pytest.param(lambda: Options(glory_tokens=["a"] * 18), id="tokens-letters"),
        pytest.param(lambda: Options(glory_tokens=[math.nan] * 18), id="tokens-nan"),
        pytest.param(lambda: Options(glory_tokens=[math.inf] * 18), id="tokens-inf"),
        pytest.param(lambda: Options(glory_tokens_4plus=None), id="4plus-None"),
        pytest.param(lambda: MerfolkBoard(checkpoints=None), id="checkpoints-None"),
        pytest.param(lambda: MerfolkBoard(checkpoints="3 7"), id="checkpoints-text"),
        pytest.param(
            lambda: MerfolkBoard(last_space="18"),  # type: ignore[arg-type]
            id="last-space-text",
        ),
        pytest.param(
            lambda: MerfolkBoard(last_space=None),  # type: ignore[arg-type]
            id="last-space-None",
        ),
        pytest.param(lambda: MerfolkBoard(values_large=None), id="values-None"),
    ],
)
def test_component_data_of_the_wrong_type(make: Callable[[], object]) -> None:
    """COMP-5, COMP-10: wrongly typed component data is refused with SetupError."""
    refused(make, SetupError)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(
            lambda: Options(
                glory_tokens=[0.9, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10]
            ),
            id="token-0.9-becomes-0",
        ),
        pytest.param(lambda: MerfolkBoard(checkpoints=(3.7, 7.2)), id="checkpoints-floats"),
        pytest.param(lambda: MerfolkBoard(checkpoints="37"), id="checkpoints-'37'-is-3-and-7"),
        pytest.param(lambda: MerfolkBoard(values_small="12"), id="values-'12'-is-1-and-2"),
        pytest.param(
            lambda: MerfolkBoard(last_space=18.5),  # type: ignore[arg-type]
            id="last-space-18.5",
        ),
    ],
)
def test_component_data_is_not_silently_converted(make: Callable[[], object]) -> None:
    """COMP-5, COMP-10: token values, track spaces and award values are integers."""
    refused(make, SetupError)


def test_merfolk_track_must_have_spaces() -> None:
    """COMP-10: the track runs from 0 to a last space of at least 1."""
    refused(lambda: MerfolkBoard(last_space=-5, checkpoints=()), SetupError)


def test_merfolk_award_values_are_not_negative() -> None:
    """COMP-10: the board's award values play the part of glory tokens: never negative."""
    refused(lambda: MerfolkBoard(values_large=(-50, -50, -50)), SetupError)


def test_merfolk_checkpoints_are_distinct() -> None:
    """COMP-10, TRIBE-MER-2: a space carries at most one checkpoint symbol."""
    refused(lambda: MerfolkBoard(checkpoints=(3, 3, 3)), SetupError)


@given(
    st.lists(st.sampled_from(FIRST_EDITION.cards), max_size=10),
    st.sampled_from(FIRST_EDITION.cards),
)
def test_one_card_inserted_is_the_multiset_union(cards: list[Card], card: Card) -> None:
    """A hand or the row is a sorted multiset: one card put in at its place gives what the
    sorted union gives, and the card is the same object."""
    held = multiset_add((), cards)
    assert multiset_insert(held, card) == multiset_add(held, [card])
