"""position(): a position built by hand (SETUP-1 and the rules each argument must keep). Unknown
things, arguments of the wrong type or that it cannot use, and positions no legal game reaches
are refused with SetupError saying what is wrong; what it accepts is a sound state."""

from __future__ import annotations

from typing import Any

import pytest

from ethnos_rules import (
    Colour,
    Kingdom,
    SetupError,
    glory,
    position,
    state_problems,
)
from helpers import FIVE_TRIBES, GIA_SET, MER_SET, SIX_TRIBES, TOKENS_4P, act, refused

NO_MERFOLK = ["DWA", "ELF", "GIA", "HAL", "ORC", "WIZ"]
NO_PIECES = ["DWA", "ELF", "HAL", "MIN", "SKE", "WIZ"]  # no Giants, Merfolk, Orcs or Trolls
ELEVEN_ELVES = " ".join(
    [
        "*ELF-red",
        "ELF-red",
        *[f"ELF-{c}" for c in ("blue", "green", "gray", "orange")] * 2,
        "ELF-purple",
    ]
)
"""BAND-1: a band of 11 cards (no hand can hold them, TURN-2)."""


# --- arguments -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"hands": {0: "XYZ-red"}}, "unknown card 'XYZ-red'"),
        ({"hands": {0: "HAL-red"}}, "not in play"),
        ({"hands": {0: "DRAGON"}}, "unknown card 'DRAGON'"),
        ({"hands": {0: "ELF-red ELF-red ELF-red"}}, "more ELF-red cards"),
        ({"row": "ELF-red ELF-red", "hands": {1: "ELF-red"}}, "more ELF-red cards"),
        ({"hands": {0: " ".join(["SKE"] * 11)}}, "not in play"),
        (
            {
                "hands": {
                    0: "ELF-red ELF-red DWA-red DWA-red GIA-red GIA-red MER-red MER-red "
                    "ORC-red ORC-red WIZ-red"
                }
            },
            "holds 11 cards",
        ),
        ({"row": "FOO"}, "unknown card 'FOO'"),
        ({"bands": {0: ["ELF-red ELF-blue"]}}, "exactly one Leader"),
        ({"bands": {0: ["*ELF-red *ELF-blue"]}}, "exactly one Leader"),
        ({"bands": {0: [""]}}, "exactly one Leader"),
        ({"bands": {0: ["*"]}}, "unknown card ''"),
        ({"bands": {0: ["*ELF-red DWA-blue"]}}, "neither a tribe nor a colour"),
        ({"kingdoms": {0: {"Atlantis": 1}}}, "unknown kingdom 'Atlantis' (one of Althea"),
        (
            {"kingdoms": {0: {"Rhea": -1}}},
            "kingdoms: markers in Rhea must be a non-negative integer, not -1",
        ),
        (
            {"kingdoms": {0: {"Rhea": 26}}},
            "kingdoms and horde of seat 0 use 26 markers, but the supply holds",
        ),
        ({"glory": {0: -5}}, "negative Glory"),
        ({"horde": {0: ["pink"]}}, "unknown colour 'pink' (one of green"),
        ({"horde": {0: ["red", "red"]}}, "two markers on one space"),
        ({"trolls": {0: [4], 1: [4]}}, "held twice"),
        ({"trolls": {0: [7]}}, "do not exist"),
        ({"trolls": {0: [0]}}, "do not exist"),
        ({"top_left": 1000}, "top part of the deck"),
        ({"age": 0}, "must be an Age"),
        ({"age": 4}, "must be an Age"),
        ({"to_move": 4}, "seat from 0 to 3"),
        ({"to_move": -1}, "seat from 0 to 3"),
        ({"tokens": [[1, 1, 1]] * 6}, "exactly the available tokens"),
    ],
)
def test_position_impossible_arguments_are_refused(kwargs: dict[str, Any], words: str) -> None:
    """SETUP-1, SETUP-4, AGE-5, COMP-3, COMP-6, COMP-8, COMP-11, TURN-2, BAND-2..4: position()
    refuses unknown things and impossible positions with SetupError, saying what is wrong."""
    err = refused(lambda: position(4, SIX_TRIBES, **kwargs), SetupError)
    assert words in err.reason, err.reason


def test_position_age_three_with_three_players() -> None:
    """SETUP-2: there is no Age III with 2–3 players."""
    assert "must be an Age" in refused(lambda: position(3, FIVE_TRIBES, age=3), SetupError).reason


def test_position_without_tribes() -> None:
    """SETUP-3: a position needs its tribes."""
    bad: Any = None
    refused(lambda: position(4, bad), SetupError)


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"hands": {0: None}}, id="hand-None"),
        pytest.param({"hands": {0: [1, 2]}}, id="hand-of-ints"),
        pytest.param({"hands": ["ELF-red"]}, id="hands-a-list"),
        pytest.param({"row": None}, id="row-None"),
        pytest.param({"row": 5}, id="row-int"),
        pytest.param({"bands": {0: [5]}}, id="band-int"),
        pytest.param({"kingdoms": {0: {"Rhea": "2"}}}, id="markers-str"),
        pytest.param({"glory": {0: "3"}}, id="glory-str"),
        pytest.param({"glory": {0: None}}, id="glory-None"),
        pytest.param({"merfolk": {0: "3"}}, id="merfolk-str"),
        pytest.param({"trolls": {0: 4}}, id="trolls-int"),
        pytest.param({"trolls": {0: [4, "x"]}}, id="trolls-mixed"),
        pytest.param({"giant": "0"}, id="giant-str"),
        pytest.param({"dragons_drawn": "1"}, id="dragons-str"),
        pytest.param({"top_left": "3"}, id="top-left-str"),
        pytest.param({"age": "1"}, id="age-str"),
        pytest.param({"tokens": 5}, id="tokens-int"),
    ],
)
def test_position_arguments_of_the_wrong_type(kwargs: dict[str, Any]) -> None:
    """SETUP-1: every argument of the wrong type is refused with SetupError."""
    refused(lambda: position(4, SIX_TRIBES, **kwargs), SetupError)


def test_position_accepts_kingdom_and_colour_objects() -> None:
    """SETUP-1, COMP-1: markers may be keyed by Kingdom and Horde spaces given as Colour, as
    well as by name."""
    state = position(4, SIX_TRIBES, kingdoms={0: {Kingdom.RHEA: 1}}, horde={0: [Colour.RED]})
    assert state.players[0].kingdoms[Kingdom.RHEA] == 1
    assert state.players[0].horde == (Colour.RED,)


def test_position_player_count_as_text() -> None:
    """SETUP-1: position() checks the player count like new_game()."""
    bad: Any = "4"
    assert refused(lambda: position(bad, SIX_TRIBES), SetupError).rule == "SETUP-1"


@pytest.mark.parametrize(
    ("tribes", "kwargs"),
    [
        pytest.param(SIX_TRIBES, {"hands": {9: "ELF-red"}}, id="hand-of-seat-9"),
        pytest.param(SIX_TRIBES, {"hands": {-1: "ELF-red"}}, id="hand-of-seat-minus-1"),
        pytest.param(SIX_TRIBES, {"hands": {"0": "ELF-red"}}, id="hand-of-seat-'0'"),
        pytest.param(SIX_TRIBES, {"kingdoms": {7: {"Rhea": 1}}}, id="markers-of-seat-7"),
        pytest.param(SIX_TRIBES, {"glory": {4: 10}}, id="glory-of-seat-4"),
        pytest.param(NO_MERFOLK, {"merfolk": {0: 5}}, id="merfolk-without-Merfolk"),
        pytest.param(SIX_TRIBES, {"options": {}}, id="options-empty-dict"),
        pytest.param(SIX_TRIBES, {"last_dragon": 9}, id="last-dragon-seat-9"),
    ],
)
def test_position_ignored_arguments(tribes: list[str], kwargs: dict[str, Any]) -> None:
    """SETUP-1, SETUP-5, AGE-5: an argument position() cannot use is refused, not dropped."""
    refused(lambda: position(4, tribes, **kwargs), SetupError)


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"kingdoms": {0: {"Rhea": 1.5}}}, id="markers-1.5"),
        pytest.param({"glory": {0: 2.5}}, id="glory-2.5"),
        pytest.param({"merfolk": {0: 2.5}}, id="merfolk-2.5"),
        pytest.param({"top_left": 2.5}, id="top-left-2.5"),
        pytest.param({"age": 2.0}, id="age-2.0"),
        pytest.param({"dragons_drawn": 1.5, "top_left": 0}, id="dragons-1.5"),
    ],
)
def test_position_non_integer_counts(kwargs: dict[str, Any]) -> None:
    """COMP-6, SETUP-6, AGE-4: markers, Glory, positions, Ages and card counts are integers."""
    refused(lambda: position(4, SIX_TRIBES, **kwargs), SetupError)


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"dragons_drawn": -1, "top_left": 0}, id="dragons-drawn-minus-1"),
        pytest.param({"top_left": -1}, id="top-left-minus-1"),
    ],
)
def test_position_negative_deck_counts(kwargs: dict[str, Any]) -> None:
    """COMP-4, AGE-4: there are 3 Dragons, and deck counts cannot be negative."""
    try:
        state = position(4, SIX_TRIBES, **kwargs)
    except SetupError:
        return
    assert state_problems(state) != ()


def test_position_band_of_eleven_cards() -> None:
    """BAND-1: a band has 1 to 10 cards."""
    refused(lambda: position(4, SIX_TRIBES, bands={0: [ELEVEN_ELVES]}), SetupError)


# --- impossible states that position() (and snapshots) refuse ------------------------------------


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
