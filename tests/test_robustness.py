"""Adversarial robustness of every public entry point.

The promise: bad input always gets a clear, typed error (a :class:`RulesError` subclass naming
the rule, or for the command line a clean message and a non-zero exit) that says what was wrong
and where — never a stray exception from deep inside, never a silently accepted illegal move,
never a state that :func:`state_problems` flags.

Tests are grouped by entry point; each one began as a way found to break the promise.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    DRAGON,
    FIRST_EDITION,
    Action,
    AddToHorde,
    Checkpoint,
    ChooseFirstPlayer,
    ChooseTribe,
    Colour,
    EmptyHorde,
    GameOverError,
    GameRecord,
    GameState,
    InvalidStateError,
    Keep,
    Kingdom,
    LayTokens,
    MalformedActionError,
    MerfolkBoard,
    Options,
    Pass,
    Place,
    PlayBand,
    RecordError,
    Recruit,
    Reveal,
    RulesError,
    SetupError,
    StopChain,
    TakeTroll,
    WizardDraw,
    WrongDecisionError,
    apply,
    card,
    chance_outcomes,
    check_state,
    glory,
    is_chance,
    is_terminal,
    legal_actions,
    narrate,
    new_game,
    parse_action,
    play_random,
    position,
    sample,
    state_from_json,
    state_problems,
    state_to_json,
    to_move,
    validate,
    winners,
)
from ethnos_rules.cli import main

T4 = ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]
T3 = ["DWA", "ELF", "GIA", "MER", "ORC"]
NO_MERFOLK = ["DWA", "ELF", "GIA", "HAL", "ORC", "WIZ"]
KINGDOM_NAMES = ("Althea", "Duris", "Ithys", "Pelagon", "Rhea", "Straton")
LAYOUT_4P = [[0, 0, 2], [2, 4, 4], [4, 4, 6], [6, 6, 6], [6, 8, 8], [8, 10, 10]]
"""COMP-5: the 18 default tokens, 3 per kingdom (SETUP-4)."""
BY_NAME = dict(zip(KINGDOM_NAMES, LAYOUT_4P, strict=True))
ELEVEN_ELVES = " ".join(
    [
        "*ELF-red",
        "ELF-red",
        *[f"ELF-{c}" for c in ("blue", "green", "gray", "orange")] * 2,
        "ELF-purple",
    ]
)
"""BAND-1: a band of 11 cards (no hand can hold them, TURN-2)."""


E = TypeVar("E", bound=RulesError)


def refused(call: Callable[[], object], error: type[E]) -> E:
    """The error ``call`` raises: of class ``error``, naming a rule, its message printable."""
    with pytest.raises(error) as info:
        call()
    err = info.value
    assert err.rule and err.reason
    assert str(err).startswith(err.rule) or isinstance(err, RecordError)
    return err


def turn() -> GameState:
    """Seat 0 starts a turn with a few cards and a row (4 players)."""
    return position(4, T4, hands={0: "DWA-red DWA-blue ELF-green GIA-gray"}, row="ELF-red MER-gray")


def play_on(state: GameState, steps: int = 60) -> GameState:
    """Take the first legal decision (the first outcome at chance) ``steps`` times, checking the
    invariants after each; any exception escapes and fails the test."""
    for _ in range(steps):
        assert state_problems(state) == ()
        if is_terminal(state):
            break
        state = apply(state, legal_actions(state)[0])
    answers_queries(state)
    return state


def answers_queries(state: GameState) -> None:
    """Every query on ``state`` answers, and its invariants hold."""
    assert state_problems(state) == ()
    for query in (legal_actions, chance_outcomes, str, glory, winners, to_move, is_terminal):
        query(state)


# =================================================================================================
# new_game
# =================================================================================================


@pytest.mark.parametrize("players", ["4", 4.0, True, False, 10**100, -1, 0, 1, 7, None, [4], 4j])
def test_new_game_player_count_of_any_type_is_refused(players: Any) -> None:
    """SETUP-1: only an int from 2 to 6 is a player count; the error repeats what was given."""
    err = refused(lambda: new_game(players), SetupError)
    assert err.rule == "SETUP-1"
    assert repr(players)[:20] in err.reason


@pytest.mark.parametrize(
    "tribes",
    [
        (t for t in T4),
        [t.lower() for t in T4],
        ["Dwarves", "elves", "GIANTS", "Merfolk", "Orcs", "Wizards"],
        [FIRST_EDITION.tribe(t) for t in T4],
        list(reversed(T4)),
    ],
    ids=["generator", "lower-case", "names", "Tribe-objects", "any-order"],
)
def test_new_game_tribes_any_iterable_code_or_name(tribes: Any) -> None:
    """SETUP-3: tribes may be any iterable of codes, names (any case) or Tribe objects."""
    state = new_game(4, tribes=tribes)
    assert [t.code for t in state.tribes] == T4


@pytest.mark.parametrize(
    ("tribes", "words"),
    [
        ("DWAELFGIAMERORCWIZ", "not one string"),
        ([*T4[:5], "DWA"], "named twice"),
        ([FIRST_EDITION.tribe("CEN")] * 6, "named twice"),
        ([*T4[:5], b"WIZ"], "unknown tribe"),
        ([*T4[:5], None], "unknown tribe"),
        ([*T4[:5], "wiz "], "unknown tribe"),
        ([*T4[:5], "ＷＩＺ"], "unknown tribe"),
        ([*T4[:5], ["WIZ"]], "unknown tribe"),
        (T4[:5], "6 tribes, not 5"),
        ([*T4, "HAL"], "6 tribes, not 7"),
        ([], "6 tribes, not 0"),
    ],
)
def test_new_game_bad_tribes_are_refused(tribes: Any, words: str) -> None:
    """SETUP-3: a single string, repeats, unknown or wrongly typed codes and the wrong number of
    tribes are refused, saying which."""
    err = refused(lambda: new_game(4, tribes=tribes), SetupError)
    assert err.rule == "SETUP-3" and words in err.reason


def test_new_game_tribes_not_iterable() -> None:
    """SETUP-3: ``new_game(4, tribes=42)`` is refused with SetupError."""
    bad: Any = 42
    refused(lambda: new_game(4, tribes=bad), SetupError)


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        (LAYOUT_4P[:5], "6 kingdoms, not 5"),
        ([*LAYOUT_4P, [1]], "6 kingdoms, not 7"),
        ("abcdef", "needs 3 glory tokens"),
        ([[0, 0, 2.0], *LAYOUT_4P[1:]], "integers"),
        ([[True, 0, 2], *LAYOUT_4P[1:]], "integers"),
        ([[0, 0, "2"], *LAYOUT_4P[1:]], "integers"),
        ([[-1, 1, 2], *LAYOUT_4P[1:]], "exactly the available tokens"),
        ([[0, 0, 2]] * 6, "exactly the available tokens"),
        ([[0, 2], *LAYOUT_4P[1:]], "needs 3 glory tokens"),
        ([b"abc", *LAYOUT_4P[1:]], "needs 3 glory tokens"),
        ({"Althea": [0, 0, 2]}, "no glory tokens given for Duris"),
        (
            {"Atlantis": [1], **dict(zip(KINGDOM_NAMES, LAYOUT_4P, strict=True))},
            "unknown kingdom 'Atlantis'",
        ),
        ({0: [0, 0, 2]}, "unknown kingdom 0"),
        ({None: [0, 0, 2]}, "unknown kingdom None"),
    ],
)
def test_new_game_bad_token_layouts_are_refused(layout: Any, words: str) -> None:
    """SETUP-4: a layout must give 3 integer tokens (2 with 2–3 players) to each of the six
    kingdoms, using the available tokens exactly; the error says which part is wrong."""
    err = refused(lambda: new_game(4, glory_tokens=layout), SetupError)
    assert err.rule == "SETUP-4" and words in err.reason


def test_new_game_token_layout_any_order_and_key_kind() -> None:
    """SETUP-4: rows in any order within a kingdom, Kingdom or (any-case) name keys, or an
    iterator of rows; the tokens are sorted lowest first."""
    by_name = {
        name.upper(): list(reversed(row))
        for name, row in zip(KINGDOM_NAMES, LAYOUT_4P, strict=True)
    }
    by_kingdom = dict(zip(Kingdom, LAYOUT_4P, strict=True))
    expected = tuple(tuple(row) for row in LAYOUT_4P)
    layouts: list[Any] = [by_name, by_kingdom, iter(LAYOUT_4P)]
    for layout in layouts:
        assert new_game(4, glory_tokens=layout).tokens == expected


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param(5, id="int"),
        pytest.param([None] * 6, id="rows-None"),
        pytest.param(b"abcdef", id="bytes"),
        pytest.param([iter([0, 0, 2]), *LAYOUT_4P[1:]], id="row-iterator"),
        pytest.param({"Althea": None, **{k: [] for k in KINGDOM_NAMES[1:]}}, id="mapping-to-None"),
    ],
)
def test_new_game_token_layout_of_the_wrong_shape(layout: Any) -> None:
    """SETUP-4: every malformed layout is refused with SetupError."""
    refused(lambda: new_game(4, glory_tokens=layout), SetupError)


def test_new_game_token_layout_naming_a_kingdom_twice() -> None:
    """SETUP-4: two rows for Althea are ambiguous and refused."""
    layout = {
        "Althea": [1, 1, 1],
        **dict(zip(KINGDOM_NAMES, LAYOUT_4P, strict=True)),
        "althea": [0, 0, 2],
    }
    refused(lambda: new_game(4, glory_tokens=layout), SetupError)


@pytest.mark.parametrize("first", [True, False, -1, 4, 3.0, "0", 10**30, [0]])
def test_new_game_bad_first_player(first: Any) -> None:
    """AGE-5: the Age I first player is a seat: an int from 0 to players - 1 (not a bool)."""
    assert refused(lambda: new_game(4, first_player=first), SetupError).rule == "AGE-5"


@pytest.mark.parametrize("options", [{}, {"placement": "optional"}, "optional", Options, 1])
def test_new_game_options_must_be_options(options: Any) -> None:
    """OPTIONS: rule options are an Options object, not a dict or a name."""
    err = refused(lambda: new_game(4, options=options), SetupError)
    assert err.rule == "OPTIONS" and "must be an Options" in err.reason


def test_new_game_ruleset_by_name() -> None:
    """SETUP-1: a ruleset that is not a Ruleset object is refused with SetupError."""
    bad: Any = "1e"
    refused(lambda: new_game(4, ruleset=bad), SetupError)


@settings(max_examples=60)
@given(
    st.one_of(
        st.integers(),
        st.floats(allow_nan=True),
        st.booleans(),
        st.none(),
        st.text(max_size=3),
        st.lists(st.integers(), max_size=2),
    )
)
def test_new_game_player_count_property(players: Any) -> None:
    """SETUP-1: any value is either a player count from 2 to 6 (an int) or refused by
    SETUP-1."""
    if type(players) is int and 2 <= players <= 6:
        assert new_game(players).config.players == players
    else:
        assert refused(lambda: new_game(players), SetupError).rule == "SETUP-1"


# =================================================================================================
# position
# =================================================================================================


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
        ({"kingdoms": {0: {"Rhea": -1}}}, "negative number of markers"),
        ({"kingdoms": {0: {"Rhea": 26}}}, "negative number of markers"),
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
    err = refused(lambda: position(4, T4, **kwargs), SetupError)
    assert words in err.reason, err.reason


def test_position_age_three_with_three_players() -> None:
    """SETUP-2: there is no Age III with 2–3 players."""
    assert "must be an Age" in refused(lambda: position(3, T3, age=3), SetupError).reason


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
    refused(lambda: position(4, T4, **kwargs), SetupError)


def test_position_accepts_kingdom_and_colour_objects() -> None:
    """SETUP-1, COMP-1: markers may be keyed by Kingdom and Horde spaces given as Colour, as
    well as by name."""
    state = position(4, T4, kingdoms={0: {Kingdom.RHEA: 1}}, horde={0: [Colour.RED]})
    assert state.players[0].kingdoms[Kingdom.RHEA] == 1
    assert state.players[0].horde == (Colour.RED,)


def test_position_player_count_as_text() -> None:
    """SETUP-1: position() checks the player count like new_game()."""
    bad: Any = "4"
    assert refused(lambda: position(bad, T4), SetupError).rule == "SETUP-1"


@pytest.mark.parametrize(
    ("tribes", "kwargs"),
    [
        pytest.param(T4, {"hands": {9: "ELF-red"}}, id="hand-of-seat-9"),
        pytest.param(T4, {"hands": {-1: "ELF-red"}}, id="hand-of-seat-minus-1"),
        pytest.param(T4, {"hands": {"0": "ELF-red"}}, id="hand-of-seat-'0'"),
        pytest.param(T4, {"kingdoms": {7: {"Rhea": 1}}}, id="markers-of-seat-7"),
        pytest.param(T4, {"glory": {4: 10}}, id="glory-of-seat-4"),
        pytest.param(NO_MERFOLK, {"merfolk": {0: 5}}, id="merfolk-without-Merfolk"),
        pytest.param(T4, {"options": {}}, id="options-empty-dict"),
        pytest.param(T4, {"last_dragon": 9}, id="last-dragon-seat-9"),
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
    refused(lambda: position(4, T4, **kwargs), SetupError)


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
        state = position(4, T4, **kwargs)
    except SetupError:
        return
    assert state_problems(state) != ()


def test_position_band_of_eleven_cards() -> None:
    """BAND-1: a band has 1 to 10 cards."""
    refused(lambda: position(4, T4, bands={0: [ELEVEN_ELVES]}), SetupError)


# =================================================================================================
# apply and the action classes
# =================================================================================================


@pytest.mark.parametrize("thing", [None, "recruit deck", 5, Recruit, object(), b"pass"])
def test_apply_a_non_action(thing: Any) -> None:
    """NOTATION: apply() takes an Action object; anything else is a MalformedActionError."""
    err = refused(lambda: apply(turn(), thing), MalformedActionError)
    assert err.rule == "NOTATION" and "expected an Action" in err.reason


ILL_TYPED: list[Action] = [
    Recruit("ELF-red"),  # type: ignore[arg-type]
    Recruit(5),  # type: ignore[arg-type]
    Recruit(DRAGON),  # type: ignore[arg-type]
    PlayBand("DWA-red"),  # type: ignore[arg-type]
    PlayBand(card("DWA-red"), ["DWA-blue"]),  # type: ignore[arg-type]
    PlayBand(card("DWA-red"), ("DWA-blue",)),  # type: ignore[arg-type]
    PlayBand(card("DWA-red"), None),  # type: ignore[arg-type]
    PlayBand(card("DWA-red"), (card("DWA-blue"), card("DWA-red"))),
    PlayBand(DRAGON),  # type: ignore[arg-type]
    PlayBand(card("DWA-red"), (DRAGON,)),  # type: ignore[arg-type]
    Place(4),  # type: ignore[arg-type]
    Place("Rhea"),  # type: ignore[arg-type]
    Place(Colour.RED),  # type: ignore[arg-type]
    TakeTroll(True),
    TakeTroll(-1),
    TakeTroll(4.0),  # type: ignore[arg-type]
    Checkpoint("Rhea"),  # type: ignore[arg-type]
    Checkpoint(Colour.RED),  # type: ignore[arg-type]
    AddToHorde(1),  # type: ignore[arg-type]
    AddToHorde(None),  # type: ignore[arg-type]
    Keep("ELF-red"),  # type: ignore[arg-type]
    Keep(DRAGON),  # type: ignore[arg-type]
    WizardDraw(True),
    WizardDraw(-1),
    WizardDraw(2.0),  # type: ignore[arg-type]
    WizardDraw(None),  # type: ignore[arg-type]
    EmptyHorde(None),  # type: ignore[arg-type]
    EmptyHorde(["red"]),  # type: ignore[arg-type]
    EmptyHorde((Colour.RED, Colour.RED)),
    EmptyHorde((Colour.BLUE, Colour.RED)),
    EmptyHorde((Kingdom.RHEA,)),  # type: ignore[arg-type]
    ChooseTribe("ELF"),  # type: ignore[arg-type]
    ChooseTribe(None),  # type: ignore[arg-type]
    LayTokens("Rhea", (1, 2)),  # type: ignore[arg-type]
    LayTokens(Kingdom.RHEA, [1, 2]),  # type: ignore[arg-type]
    LayTokens(Kingdom.RHEA, (2, 1)),
    LayTokens(Kingdom.RHEA, (True, 2)),
    ChooseFirstPlayer(True),
    ChooseFirstPlayer(-1),
    ChooseFirstPlayer("1"),  # type: ignore[arg-type]
    Reveal("ELF-red"),  # type: ignore[arg-type]
    Reveal(None),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("action", ILL_TYPED, ids=repr)
def test_ill_typed_action_fields_are_malformed(action: Action) -> None:
    """NOTATION: an action with a field of the wrong type is refused as malformed before
    anything else — even in a state where that kind of action is not due, and once the game is
    over — and the error prints although the action itself cannot be written."""
    for state in (turn(), new_game(4), _final()):
        with pytest.raises(MalformedActionError) as info:
            apply(state, action)
        assert info.value.rule == "NOTATION" and info.value.action is action
        assert info.value.reason in str(info.value) and repr(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "place none",
        "place Rhea",
        "troll none",
        "checkpoint Duris",
        "horde add",
        "chain stop",
        "keep done",
        "wizard 0",
        "empty none",
        "reveal ELF-red",
        "reveal DRAGON",
        "first 0",
        "tribe ELF",
        "tokens Rhea 0 2 4",
    ],
)
def test_actions_of_other_states_are_the_wrong_decision(text: str) -> None:
    """TURN-1: at the start of a turn only recruit, band or pass is due; any other kind of
    action — a follow-up or a chance outcome — is a WrongDecisionError saying what is due."""
    err = refused(lambda: apply(turn(), parse_action(text)), WrongDecisionError)
    assert err.rule == "TURN-1" and "recruit or play a band" in err.reason


@pytest.mark.parametrize("text", ["recruit deck", "band *ELF-red", "pass", "place none"])
def test_player_decisions_at_a_chance_event(text: str) -> None:
    """SETUP-3: while tribes are drawn, a player's decision is the wrong decision."""
    err = refused(lambda: apply(new_game(4), parse_action(text)), WrongDecisionError)
    assert err.rule == "SETUP-3" and "chance outcome" in err.reason


@pytest.mark.parametrize("seat", [1, 3, 9, -1])
def test_apply_from_the_wrong_seat(seat: Any) -> None:
    """TURN-1: apply(..., seat=N) refuses a decision claimed by a seat whose turn it is not."""
    err = refused(lambda: apply(turn(), Recruit(None), seat=seat), WrongDecisionError)
    assert "seat 0's decision" in err.reason


@pytest.mark.parametrize("seat", [False, 0.0, "0"])
def test_apply_seat_of_the_wrong_type(seat: Any) -> None:
    """TURN-1: the claimed seat must be an int; anything else is refused, saying what it was."""
    err = refused(lambda: apply(turn(), Recruit(None), seat=seat), RulesError)
    assert repr(seat) in str(err)


def test_game_over_refuses_everything() -> None:
    """GAME-1: once the game is over, no legal action, no outcome, nobody to move; applying
    anything well formed is a GameOverError."""
    final = _final()
    assert legal_actions(final) == () and chance_outcomes(final) == ()
    assert to_move(final) is None and is_terminal(final)
    assert sample(final, random.Random(1)) is final
    for text in ("pass", "recruit deck", "reveal DRAGON", "empty none"):
        with pytest.raises(GameOverError) as info:
            apply(final, parse_action(text))
        assert info.value.rule == "GAME-1"


def test_queries_on_a_new_game() -> None:
    """SETUP-6, GAME-1: a new game has everyone at 0 Glory and no winner yet; chance decides."""
    state = new_game(3)
    assert glory(state) == (0, 0, 0) and winners(state) == ()
    assert is_chance(state) and legal_actions(state)
    assert chance_outcomes(turn()) == ()


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: apply(None, Pass()), id="apply-None"),  # type: ignore[arg-type]
        pytest.param(lambda: apply("state", Pass()), id="apply-str"),  # type: ignore[arg-type]
        pytest.param(lambda: legal_actions(None), id="legal-None"),  # type: ignore[arg-type]
        pytest.param(lambda: to_move(None), id="to-move-None"),  # type: ignore[arg-type]
        pytest.param(lambda: check_state(None), id="check-None"),  # type: ignore[arg-type]
        pytest.param(lambda: state_to_json(None), id="snapshot-None"),  # type: ignore[arg-type]
        pytest.param(lambda: validate("{}"), id="validate-text"),  # type: ignore[arg-type]
        pytest.param(lambda: list(narrate(None)), id="narrate-None"),  # type: ignore[arg-type]
    ],
)
def test_public_functions_given_the_wrong_kind_of_object(call: Callable[[], object]) -> None:
    """STATE, RECORD: a wrong argument is refused with a RulesError naming it."""
    refused(call, RulesError)


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


def test_sample_with_any_random_random() -> None:
    """CHANCE: any random.Random works, the system source included; a state where a player
    decides is returned as it is."""
    state = sample(new_game(3), random.SystemRandom())
    assert not is_chance(state) and state_problems(state) == ()
    assert sample(state, random.Random(0)) is state


# --- never an accepted illegal move --------------------------------------------------------------


@functools.cache
def _final() -> GameState:
    return play_random(3, seed=7).final


@functools.cache
def _game_states() -> tuple[GameState, ...]:
    """Every 7th state of random games with default and alternative options (2–6 players)."""
    alternative = Options(
        placement="mandatory",
        elves_keep="exactly_x",
        wizard_draw="up_to_x",
        orc_empty="any_subset",
        centaur_chain="single",
        merfolk_checkpoints="one_per_move",
    )
    out: list[GameState] = []
    for players, seed, options in [
        (2, 1, None),
        (3, 2, alternative),
        (4, 3, None),
        (5, 4, alternative),
        (6, 5, None),
    ]:
        game = play_random(players, seed, options=options)
        state = game.start
        for index, action in enumerate(game.actions):
            if index % 7 == 0:
                out.append(state)
            state = apply(state, action)
    return tuple(out)


CARDS = st.sampled_from(FIRST_EDITION.cards)
MAYBE_KINGDOM = st.none() | st.sampled_from(list(Kingdom))


def _candidates(hand: tuple[Any, ...]) -> st.SearchStrategy[Action]:
    """Any well-formed action, bands mostly from the cards in ``hand`` (local strategy: it needs
    the state's hand, which tests/strategies.py does not have)."""
    pool = st.sampled_from(hand) if hand else CARDS
    return st.one_of(
        st.builds(Recruit, st.none() | CARDS),
        st.builds(
            lambda cards: PlayBand.of(cards[0], *cards[1:]),
            st.lists(pool | CARDS, min_size=1, max_size=6),
        ),
        st.builds(
            lambda cards: PlayBand.of(cards[0], *cards[1:]), st.lists(pool, min_size=1, max_size=10)
        ),
        st.just(Pass()),
        st.just(StopChain()),
        st.builds(Place, MAYBE_KINGDOM),
        st.builds(Checkpoint, MAYBE_KINGDOM),
        st.builds(TakeTroll, st.none() | st.integers(0, 8)),
        st.builds(AddToHorde, st.booleans()),
        st.builds(Keep, st.none() | pool | CARDS),
        st.builds(WizardDraw, st.integers(0, 11)),
        st.builds(
            lambda cs: EmptyHorde(tuple(sorted(set(cs)))),
            st.lists(st.sampled_from(list(Colour)), max_size=6),
        ),
        st.builds(Reveal, CARDS | st.just(DRAGON)),
        st.builds(ChooseFirstPlayer, st.integers(0, 6)),
        st.builds(ChooseTribe, st.sampled_from(FIRST_EDITION.tribes)),
        st.builds(
            lambda k, v: LayTokens(k, tuple(sorted(v))),
            st.sampled_from(list(Kingdom)),
            st.lists(st.sampled_from([0, 2, 4, 6, 8, 10]), min_size=2, max_size=3),
        ),
    )


@settings(max_examples=40)
@given(st.data())
def test_apply_accepts_exactly_the_legal_actions(data: st.DataObject) -> None:
    """TURN-1, BAND-1..5, TRIBE-*, CHANCE: in states of random games, apply() accepts a
    well-formed action exactly when legal_actions() lists it, refuses every other with a
    RulesError, and what it accepts leaves a sound state."""
    states = _game_states()
    state = states[data.draw(st.integers(0, len(states) - 1))]
    seat = to_move(state)
    hand = state.players[seat].hand if isinstance(seat, int) else ()
    legal = set(legal_actions(state))
    for action in data.draw(st.lists(_candidates(hand), min_size=20, max_size=40)):
        try:
            after = apply(state, action)
        except RulesError:
            assert action not in legal, action
            continue
        assert action in legal, action
        assert state_problems(after) == ()


# =================================================================================================
# parse_action
# =================================================================================================


@pytest.mark.parametrize("value", [None, b"recruit deck", 5, ["pass"], Pass()])
def test_parse_action_needs_text(value: Any) -> None:
    """NOTATION: only a str is parsed."""
    err = refused(lambda: parse_action(value), MalformedActionError)
    assert "must be a str" in err.reason


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty action text"),
        (" \t\n ", "empty action text"),
        ("\x00", "unknown verb"),
        ("🐉", "unknown verb"),
        ("RECRUIT deck", "unknown verb 'RECRUIT'"),
        ("recruit DECK", "unknown card 'DECK'"),
        ("recruit ELF-red\u200b", "plain ASCII"),
        ("recruit ÉLF-red", "plain ASCII"),
        ("band **ELF-red", "unknown card '*ELF-red'"),
        ("band *ELF-red *ELF-red", "exactly one Leader"),
        ("band *DRAGON", "unknown card 'DRAGON'"),
        ("reveal SKE-red", "unknown card 'SKE-red'"),
        ("tokens Rhea ２", "plain ASCII"),
        ("tokens Rhea 2 ٣", "plain ASCII"),
        ("first ¹", "plain ASCII"),
        ("wizard 0x3", "not a non-negative integer"),
        ("wizard -0", "not a non-negative integer"),
        ("troll 4.0", "not a non-negative integer"),
        ("tokens Rhea " + "9" * 5000, "cannot parse"),
        ("place None", "unknown kingdom 'None'"),
        ("place Rhea Duris", "expected one word"),
        ("horde ADD", "expected 'add' or 'none'"),
        ("chain go", "unknown action 'chain go'"),
        ("empty none red", "unknown colour 'none'"),
        ("empty gray grey", "unknown colour 'grey'"),
        ("pass now", "expected nothing after the verb"),
        ("x" * 100_000, "unknown verb"),
        ("recruit " + "ELF-red" * 10_000, "unknown card"),
    ],
)
def test_parse_action_odd_text(text: str, words: str) -> None:
    """NOTATION: odd text — control characters, emoji, look-alike digits and letters,
    zero-width spaces, huge numbers, very long strings — is a MalformedActionError that says
    what could not be read and keeps the text."""
    err = refused(lambda: parse_action(text), MalformedActionError)
    assert err.rule == "NOTATION" and words in err.reason
    if text.strip():
        assert err.action == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("recruit\tdeck", "recruit deck"),
        ("  recruit \n deck  ", "recruit deck"),
        ("recruit\u00a0deck", "recruit deck"),
        ("recruit elf-RED", "recruit ELF-red"),
        ("place rhea", "place Rhea"),
        ("reveal dragon", "reveal DRAGON"),
        ("band SKE *ELF-red ELF-blue", "band *ELF-red ELF-blue SKE"),
        ("empty blue red", "empty red blue"),
    ],
)
def test_parse_action_tolerated_spellings_are_canonical(text: str, canonical: str) -> None:
    """NOTATION: white space of any kind and the case of cards and kingdoms are tolerated, and
    the action is written back in canonical form."""
    assert str(parse_action(text)) == canonical


NOTATION_WORDS = [
    "tribe", "tokens", "first", "reveal", "recruit", "band", "pass", "place", "troll",
    "checkpoint", "horde", "chain", "keep", "wizard", "empty", "deck", "none", "add", "stop",
    "done", "DRAGON", "ELF-red", "*ELF-red", "SKE", "*SKE", "Rhea", "red", "0", "3", "-1", "99",
    "ıthys", "ſke", "Ｒhea", "*", "**", "\t", "\u200b", "İ",
]  # fmt: skip


@given(st.lists(st.sampled_from(NOTATION_WORDS) | st.text(max_size=6), max_size=6).map(" ".join))
def test_parse_action_never_raises_anything_else(text: str) -> None:
    """NOTATION: notation words mixed with look-alike letters and arbitrary text give an action
    whose canonical text parses back to it, or a MalformedActionError — nothing else."""
    try:
        action = parse_action(text)
    except MalformedActionError as err:
        assert err.rule == "NOTATION"
        return
    assert parse_action(str(action)) == action


# =================================================================================================
# Options and MerfolkBoard
# =================================================================================================


@pytest.mark.parametrize(
    ("kwargs", "rule", "words"),
    [
        ({"placement": None}, "OPTIONS", "placement=None"),
        ({"placement": ["optional"]}, "OPTIONS", "placement=['optional']"),
        ({"placement": "OPTIONAL"}, "OPTIONS", "not one of optional, mandatory"),
        ({"wizard_draw": "all"}, "OPTIONS", "wizard_draw='all'"),
        ({"glory_tokens": [0] * 17}, "COMP-5", "needs 18 values"),
        ({"glory_tokens": [-1] * 18, "glory_tokens_4plus": [-1] * 6}, "COMP-5", "negative"),
        ({"glory_tokens_4plus": [1] * 6}, "COMP-5", "among the glory tokens"),
        ({"glory_tokens_4plus": [0, 4, 4, 6, 6]}, "COMP-5", "glory_tokens_4plus 6"),
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


# =================================================================================================
# Game records: GameRecord.from_json, GameRecord(...), validate
# =================================================================================================


@functools.cache
def _record_dict() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(GameRecord.from_playthrough(play_random(3, 7)).to_json())
    return document


def _record_text(**changes: Any) -> str:
    document = dict(_record_dict())
    for key, value in changes.items():
        if value is KeyError:
            document.pop(key, None)
        else:
            document[key] = value
    return json.dumps(document)


def _tokens(*row: Any) -> dict[str, list[Any]]:
    return {name: list(row) for name in KINGDOM_NAMES}


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        ("\ufeff{}", None, "BOM"),
        ('{"version": 1, "version": 1, "players": 3, "actions": []}', None, "appears twice"),
        ('{"version": 1, "players": NaN, "actions": []}', None, "NaN is not a JSON number"),
        (
            '{"version": 1, "players": 3, "actions": [], "metadata": {"x": -Infinity}}',
            None,
            "Infinity",
        ),
        ('{"version": 1, "players": ' + "9" * 5000 + ', "actions": []}', None, "too many digits"),
        ('{"metadata": ' + "[" * 100_000 + "]" * 100_000 + "}", None, "too deeply"),
        ("null", "$", "not null"),
        (_record_text(version=2), "$.version", "unknown record version 2"),
        (_record_text(version=1.0), "$.version", "unknown record version 1.0"),
        (_record_text(version=True), "$.version", "unknown record version True"),
        (_record_text(version="1"), "$.version", "unknown record version '1'"),
        (_record_text(version=None), "$.version", "unknown record version None"),
        (_record_text(version=KeyError), "$", "no 'version'"),
        (_record_text(players=True), "$.players", "found true or false"),
        (_record_text(players=None), "$.players", "found null"),
        (_record_text(players=KeyError), "$", "'players' is missing"),
        (_record_text(actions=KeyError), "$", "'actions' is missing"),
        (_record_text(actions="recruit deck"), "$.actions", "found a string"),
        (_record_text(actions=[["recruit deck"]]), "$.actions[0]", "found an array"),
        (_record_text(actions=["pass", None]), "$.actions[1]", "found null"),
        (_record_text(actions=[""]), "$.actions[0]", "an empty text"),
        (_record_text(actions=["band " * 50]), "$.actions[0]", "longer than 200"),
        (_record_text(tribes="DWA"), "$.tribes", "found a string"),
        (_record_text(tribes=["DWA"] * 5), "$.tribes", "non-unique"),
        (_record_text(tribes=["dwa", "ELF", "GIA", "MER", "ORC"]), "$.tribes[0]", "not one of"),
        (_record_text(glory_tokens=[[0, 2]] * 6), "$.glory_tokens", "found an array"),
        (_record_text(glory_tokens=_tokens(0, 0, 2)), "$.glory_tokens.Althea", "2 tokens"),
        (_record_text(glory_tokens={"althea": [0, 2]}), "$.glory_tokens", "not one of"),
        (_record_text(first_player=-1), "$.first_player", "minimum of 0"),
        (_record_text(first_player=True), "$.first_player", "true or false"),
        (_record_text(options=None), "$.options", "found null"),
        (_record_text(options={"colour": "red"}), "$.options", "unknown key(s): 'colour'"),
        (_record_text(options={"placement": "x"}), "$.options.placement", "not one of"),
        (_record_text(options={"merfolk_board": None}), "$.options.merfolk_board", "found null"),
        (_record_text(options={"merfolk_board": {"last_space": 1}}), "$.options", "COMP-10"),
        (_record_text(options={"glory_tokens": [1] * 18}), "$.options", "COMP-5"),
        (
            _record_text(options={"glory_tokens": [0.5] * 18}),
            "$.options.glory_tokens[17]",
            "expected integer",
        ),
        (_record_text(claimed_glory=[1, 2]), "$.claimed_glory", "2 claimed scores for 3"),
        (_record_text(claimed_glory=[-1, 0, 0]), "$.claimed_glory[0]", "minimum of 0"),
        (_record_text(claimed_glory=[True, 0, 0]), "$.claimed_glory[0]", "true or false"),
        (_record_text(metadata=[]), "$.metadata", "found an array"),
        (_record_text(metadata=None), "$.metadata", "found null"),
        (_record_text(extra=1), "$", "unknown key(s): 'extra'"),
        (_record_text(actions=["pass"] * 100_001), "$.actions", "more than the limit"),
    ],
)
def test_from_json_refuses_what_is_not_a_record(text: str, path: str | None, words: str) -> None:
    """RECORD: broken JSON, wrong types at every field, unknown versions, huge or deep input and
    duplicate keys are a RecordError naming the JSON path and what is wrong."""
    err = refused(lambda: GameRecord.from_json(text), RecordError)
    assert err.rule == "RECORD" and err.path == path and words in err.reason, (err.path, err)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"version": 1, "players": 3, "actions": [], "metadata": {"x": "\xff"}}', "not UTF-8"),
        ("{}".encode("utf-16"), "not UTF-8"),
        (b"\x00\x01\x02", "not valid JSON"),
        (b"", "empty"),
        (b" " * (9 * 1024 * 1024), "larger than the limit"),
    ],
)
def test_from_json_refuses_bytes_that_are_not_a_record(data: bytes, words: str) -> None:
    """RECORD: bytes must be UTF-8 JSON (a byte-order mark is allowed) of at most 8 MiB."""
    assert words in refused(lambda: GameRecord.from_json(data), RecordError).reason


def test_from_json_accepts_odd_but_lawful_content() -> None:
    """RECORD: a UTF-8 byte-order mark, a bytearray, and metadata with odd keys and values are
    read; the metadata comes back unchanged."""
    text = _record_text(metadata={"\u0000": [None, True, {"": "ü"}], "x" * 1000: 1e308})
    record = GameRecord.from_json(b"\xef\xbb\xbf" + text.encode())
    assert record.metadata == json.loads(text)["metadata"]
    again: Any = bytearray(text.encode())
    assert GameRecord.from_json(again) == record


@pytest.mark.parametrize(
    "data",
    [None, 5, _record_dict, memoryview(b"{}")],
    ids=["None", "int", "a-dict", "memoryview"],
)
def test_from_json_given_no_text(data: Any) -> None:
    """RECORD: only text or bytes are read; anything else is a RecordError."""
    value = data() if callable(data) else data
    refused(lambda: GameRecord.from_json(value), RecordError)
    refused(lambda: state_from_json(value), RecordError)


def test_record_with_a_lone_surrogate(tmp_path: Path) -> None:
    """RECORD: a record that is read can be written back (or it is refused when read)."""
    text = '{"version": 1, "players": 3, "actions": ["\\ud800"], "metadata": {"n": "\\udc00"}}'
    try:
        record = GameRecord.from_json(text)
    except RecordError:
        return
    record.write(tmp_path / "again.json")
    assert GameRecord.read(tmp_path / "again.json") == record


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: GameRecord(players=3, actions="recruit deck"), id="GameRecord"),
        pytest.param(lambda: GameRecord(players=3).extend("pass"), id="extend"),
    ],
)
def test_record_actions_given_as_one_string(make: Callable[[], object]) -> None:
    """RECORD: actions are a list of texts, not one text."""
    refused(make, RecordError)


def test_record_claims_as_text() -> None:
    """RECORD: claimed Glory is integers; otherwise the record is refused, or validate reports."""
    game = play_random(2, seed=1)
    try:
        record = GameRecord.from_playthrough(game, claimed_glory=["60", "50"])  # type: ignore[list-item]
    except RecordError:
        return
    assert not validate(record).ok


def test_record_built_in_python_is_checked() -> None:
    """RECORD: decisions that are not texts and unknown versions are refused when a record is
    built; a setup that breaks a SETUP rule is reported by validate, with its JSON path."""
    bad: Any = ("pass", 5)
    assert refused(lambda: GameRecord(players=3, actions=bad), RecordError).index == 1
    refused(lambda: GameRecord(players=3, version=2), RecordError)
    refused(lambda: GameRecord(players=3).append(None), RecordError)  # type: ignore[arg-type]
    report = validate(GameRecord(players="3"))  # type: ignore[arg-type]
    assert (report.ok, report.rule, report.path) == (False, "SETUP-1", "$.players")
    report = validate(GameRecord(players=3, glory_tokens=(("a", "b"),) * 6))
    assert (report.ok, report.rule, report.path) == (False, "SETUP-4", "$.glory_tokens")


@pytest.mark.parametrize(
    ("changes", "rule", "path", "index"),
    [
        ({"tribes": T4}, "SETUP-3", "$.tribes", None),
        ({"first_player": 5}, "AGE-5", "$.first_player", None),
        ({"glory_tokens": _tokens(0, 2)}, "SETUP-4", "$.glory_tokens", None),
        ({"tribes": ["CEN", "DWA", "ELF", "HAL", "WIN"]}, "SETUP-4", "$.actions[0]", 0),
        ({"first_player": 0}, "AGE-2", "$.actions[11]", 11),
    ],
)
def test_validate_setup_that_contradicts_the_actions(
    changes: dict[str, Any], rule: str, path: str, index: int | None
) -> None:
    """SETUP-3, SETUP-4, AGE-5, AGE-2, RECORD: a setup that breaks a rule is reported at its
    JSON path; a setup given in the record while the actions still decide it by chance is
    reported at the first action that no longer fits; validate never raises."""
    report = validate(GameRecord.from_json(_record_text(**changes)))
    assert (report.ok, report.rule, report.path, report.index) == (False, rule, path, index)
    assert report.summary().startswith("INVALID")
    json.dumps(report.to_dict())


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value (local strategy: records and snapshots are JSON documents)."""

RECORD_KEYS = ["version", "players", "tribes", "glory_tokens", "first_player", "options",
               "claimed_glory", "metadata", "actions", "extra"]  # fmt: skip


@settings(max_examples=80)
@given(st.dictionaries(st.sampled_from(RECORD_KEYS), JSON_VALUES, max_size=4))
def test_any_json_record_is_read_or_refused(changes: dict[str, Any]) -> None:
    """RECORD: a record with any JSON value at any of its keys is a RecordError naming a path,
    or a record that validate() and narrate() handle without raising."""
    text = json.dumps({**_record_dict(), "actions": _record_dict()["actions"][:40], **changes})
    try:
        record = GameRecord.from_json(text)
    except RecordError as err:
        assert err.rule == "RECORD"
        return
    validate(record).summary()
    list(narrate(record))


@settings(max_examples=60)
@given(st.binary(max_size=60) | JSON_VALUES.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    """RECORD: any bytes are a record or a RecordError, for records and snapshots alike."""
    for read in (GameRecord.from_json, state_from_json):
        try:
            read(data)
        except RecordError as err:
            assert err.rule == "RECORD"


# =================================================================================================
# Snapshots: state_from_json
# =================================================================================================

SNAPSHOT_TRIBES = ["CEN", "ELF", "MER", "ORC", "TRO", "WIZ"]


@functools.cache
def _pending_states() -> dict[str, GameState]:
    """The first state of one game at each kind of pending decision."""
    game = play_random(4, 0, tribes=SNAPSHOT_TRIBES)
    found: dict[str, GameState] = {"ChooseTribes": new_game(4)}
    state = game.start
    for action in game.actions:
        state = apply(state, action)
        found.setdefault(type(state.pending).__name__, state)
    return found


def _snapshot(kind: str, change: Callable[[dict[str, Any]], object]) -> str:
    data = json.loads(state_to_json(_pending_states()[kind]))
    change(data)
    return json.dumps(data)


def _set(*path: Any) -> Callable[[dict[str, Any]], None]:
    """A change that puts the last item of ``path`` at the place named by the rest."""

    def change(data: dict[str, Any]) -> None:
        place: Any = data
        for key in path[:-2]:
            place = place[key]
        place[path[-2]] = path[-1]

    return change


@pytest.mark.parametrize(
    ("kind", "change", "error", "words"),
    [
        ("TurnPending", _set("pending", "type", "Foo"), RecordError, "unknown pending type"),
        ("TurnPending", _set("pending", "turn_seat", 7), InvalidStateError, "names seat 7"),
        ("HordeEmptyPending", _set("pending", "queue", [9]), InvalidStateError, "names seat 9"),
        ("HordeEmptyPending", _set("pending", "drawer", -1), InvalidStateError, "seat -1"),
        ("PlacePending", _set("pending", "ctx", "seat", 5), InvalidStateError, "names seat 5"),
        ("TurnPending", _set("ruleset", "2e"), RecordError, "unknown ruleset '2e'"),
        ("TurnPending", _set("snapshot", 2), RecordError, "unknown snapshot version 2"),
        ("TurnPending", _set("players", 5), RecordError, "4 seats for 5 players"),
        ("TurnPending", _set("seats", 0, "hand", ["SKE"] * 11), InvalidStateError, "not in play"),
        (
            "TurnPending",
            _set("seats", 0, "hand", ["ELF-red"] * 3),
            InvalidStateError,
            "ELF-red appears",
        ),
        ("TurnPending", _set("seats", 0, "supply", 30), InvalidStateError, "markers add up"),
        ("TurnPending", _set("seats", 0, "kingdoms", [0] * 5), InvalidStateError, "6 kingdoms"),
        ("TurnPending", _set("seats", 0, "kingdoms", [0.0] * 6), RecordError, "expected int"),
        ("TurnPending", _set("seats", 0, "trolls", [3, 3]), InvalidStateError, "held twice"),
        ("TurnPending", _set("seats", 0, "glory", -1), InvalidStateError, "negative Glory"),
        ("TurnPending", _set("deck", "SKE", -1), InvalidStateError, "more SKE cards"),
        ("TurnPending", _set("deck", "FOO", 1), RecordError, "unknown card 'FOO'"),
        ("TurnPending", _set("tokens", []), InvalidStateError, "glory tokens are laid"),
        ("TurnPending", _set("age", 4), InvalidStateError, "Age 4 does not exist"),
        ("TurnPending", _set("options", {"placement": "x"}), RecordError, "placement='x'"),
        (
            "TurnPending",
            _set("tribes", ["CEN", "ELF", "MER"]),
            InvalidStateError,
            "before every tribe is chosen",
        ),
        ("KeepPending", _set("pending", "ctx", "band", "*ELF-red"), InvalidStateError, "not seat"),
    ],
)
def test_hand_edited_snapshots_are_refused(
    kind: str,
    change: Callable[[dict[str, Any]], None],
    error: type[RulesError],
    words: str,
) -> None:
    """STATE, RECORD: a snapshot with a card twice, a hand of 11, wrong marker totals, an
    unknown pending type, a pending decision of a seat that does not exist or a mismatched
    ruleset is refused: RecordError for what cannot be read, InvalidStateError for a state no
    game reaches."""
    err = refused(lambda: state_from_json(_snapshot(kind, change)), error)
    assert words in str(err), str(err)


def _keep_a_card_not_in_hand(data: dict[str, Any]) -> None:
    seat = data["pending"]["ctx"]["seat"]
    hand = set(data["seats"][seat]["hand"])
    card_codes = [c.code for c in FIRST_EDITION.cards if c.tribe.code in SNAPSHOT_TRIBES]
    data["pending"]["kept"] = [next(c for c in card_codes if c not in hand)]


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        pytest.param(
            "HordeEmptyPending",
            _set("pending", "queue", []),
            id="Horde-queue-empty",
        ),
        pytest.param(
            "HordeEmptyPending",
            _set("pending", "gains", []),
            id="Horde-gains-empty",
        ),
        pytest.param(
            "HordeEmptyPending",
            _set("pending", "gains", [[0]] * 4),
            id="Horde-gains-short",
        ),
        pytest.param(
            "KeepPending",
            _keep_a_card_not_in_hand,
            id="Keep-card-not-in-hand",
        ),
        pytest.param(
            "DealPending",
            _set("first_player", None),
            id="Deal-without-first-player",
        ),
        pytest.param(
            "RowPending",
            _set("first_player", None),
            id="Row-without-first-player",
        ),
        pytest.param(
            "WizardDrawPending",
            _set("pending", "left", 1000),
            id="Wizard-draws-1000",
        ),
        pytest.param(
            "ChooseTribes",
            _set("seats", 0, "hand", ["ELF-red"]),
            id="card-in-hand-before-tribes",
        ),
        pytest.param(
            "GameOver",
            _set("history", -1, "band_sizes", []),
            id="history-band-sizes-missing",
        ),
        pytest.param("TurnPending", _set("seats", 0, "merfolk", 99), id="merfolk-off-track"),
        pytest.param("TurnPending", _set("seats", 0, "horde", ["red", "red"]), id="horde-twice"),
        pytest.param("TurnPending", _set("giant_holder", 9), id="giant-holder-not-a-seat"),
        pytest.param("TurnPending", _set("top_left", 10_000), id="top-part-beyond-the-deck"),
    ],
)
def test_hand_edited_snapshot_is_refused_or_playable(
    kind: str, change: Callable[[dict[str, Any]], None]
) -> None:
    """STATE: a hand-edited snapshot is refused, or it is a state that plays on with every
    invariant kept and no exception but a RulesError."""
    try:
        state = state_from_json(_snapshot(kind, change))
    except (RecordError, InvalidStateError):
        return
    play_on(state)


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        pytest.param(
            "CheckpointPending",
            _set("pending", "left", -3),
            id="checkpoints-left--3",
        ),
        pytest.param(
            "CheckpointPending",
            _set("pending", "left", 100),
            id="checkpoints-left-100",
        ),
        pytest.param(
            "TurnPending",
            lambda d: d.update(dragons_in_deck=0, dragons_drawn=0),
            id="turn-without-Dragons",
        ),
        pytest.param(
            "HordeEmptyPending",
            _set("pending", "queue", [0, 0]),
            id="Horde-queue-seat-twice",
        ),
        pytest.param(
            "ChainPending",
            _set("pending", "ctx", "placed", False),
            id="chain-after-no-placement",
        ),
        pytest.param(
            "TurnPending",
            _set("seats", 0, "kingdoms", [27, 0, 0, 0, 0, 0]),
            id="markers-more-than-26",
        ),
    ],
)
def test_unreachable_snapshot_is_refused(
    kind: str, change: Callable[[dict[str, Any]], None]
) -> None:
    """STATE, TRIBE-MER-2, TRIBE-CEN-1, AGE-4, END-3: a snapshot no legal game reaches is
    refused with InvalidStateError (or RecordError)."""
    with pytest.raises((InvalidStateError, RecordError)):
        state_from_json(_snapshot(kind, change))


ODD_LEAVES = st.one_of(
    st.sampled_from([None, -1, 0, 1, 7, 99, 10**6, 2**63, 1.5, True, "", "x", "ELF-red",
                     "Rhea", "red", [], {}, ["ELF-red"], [0] * 6, ["red"]]),
    JSON_VALUES,
)  # fmt: skip


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))


@functools.cache
def _turn_snapshots() -> tuple[str, ...]:
    game = play_random(5, 3)
    state = game.start
    out = []
    for index, action in enumerate(game.actions):
        state = apply(state, action)
        if index % 97 == 50:
            out.append(state_to_json(state))
    return tuple(out)


@settings(max_examples=80)
@given(st.data())
def test_any_edit_of_the_board_is_refused_or_sound(data: st.DataObject) -> None:
    """STATE, RECORD: any JSON value put anywhere in a mid-game snapshot outside the pending
    decision and the Age summaries gives a RecordError, an InvalidStateError, or a state with
    no broken invariant that answers every query."""
    snapshot = json.loads(data.draw(st.sampled_from(_turn_snapshots())))
    paths = [p for p in _leaves(snapshot) if p and p[0] not in ("pending", "history")]
    path = data.draw(st.sampled_from(paths))
    _set(*path, data.draw(ODD_LEAVES))(snapshot)
    try:
        state = state_from_json(json.dumps(snapshot))
    except (RecordError, InvalidStateError):
        return
    answers_queries(state)


# =================================================================================================
# The command line
# =================================================================================================

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "records" / "valid-2p.json"


def cli(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def clean_failure(result: Result, status: int) -> None:
    """Exit status ``status``, no Python exception escaping, no traceback printed."""
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "the record is empty"),
        (b"\x7fELF\x02\x01\x01\x00\xff\xfe", "not UTF-8"),
        (b"\xef\xbb\xbf", "the record is empty"),
        (b"[]", "JSON object"),
        (b'{"snapshot": 1}', "no 'version'"),
    ],
)
def test_cli_validate_files_that_are_not_records(
    tmp_path: Path, content: bytes, words: str
) -> None:
    """RECORD: empty, binary and wrong-kind files are reported on their own line; exit 1."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for args in (["validate", str(path)], ["validate", "--json", str(path)]):
        result = cli(*args)
        clean_failure(result, 1)
        assert words in result.stdout
    result = cli("replay", str(path))
    clean_failure(result, 1)
    assert words in result.output


def test_cli_missing_file_and_directory(tmp_path: Path) -> None:
    """RECORD: a missing file is an invalid record (exit 1); a directory is a usage error
    (exit 2); both with a message, neither with a traceback."""
    missing = str(tmp_path / "nowhere.json")
    for args in (["validate", missing], ["replay", missing]):
        result = cli(*args)
        clean_failure(result, 1)
        assert "cannot read the record file" in result.output
    for args in (["validate", str(tmp_path)], ["replay", str(tmp_path)]):
        result = cli(*args)
        clean_failure(result, 2)
        assert "is a directory" in result.output


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file"
)
def test_cli_unreadable_file(tmp_path: Path) -> None:
    """RECORD: a file that cannot be read is reported, exit 1."""
    path = tmp_path / "secret.json"
    path.write_bytes(EXAMPLE.read_bytes())
    path.chmod(0)
    result = cli("validate", str(path))
    clean_failure(result, 1)
    assert "cannot read the record file" in result.stdout


def test_cli_many_files_and_standard_input(tmp_path: Path) -> None:
    """RECORD: one line per file however many are given (here 60, good and bad mixed); binary
    standard input is reported like a file."""
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    files = [str(EXAMPLE), str(empty)] * 30
    result = cli("validate", *files)
    clean_failure(result, 1)
    lines = result.stdout.splitlines()
    assert len(lines) == 60
    assert sum(": valid: " in line for line in lines) == 30
    result = cli("validate", "-", input=b"\xff\x00binary")
    clean_failure(result, 1)
    assert result.stdout.startswith("-: INVALID") and "not UTF-8" in result.stdout


@pytest.mark.parametrize("at", ["-1", "abc", "1.5", "100000", ""])
def test_cli_replay_at_out_of_range(at: str) -> None:
    """RECORD: --at must be a number of decisions from 0 to the record's length (usage error,
    exit 2)."""
    result = cli("replay", str(EXAMPLE), "--at", at)
    clean_failure(result, 2)
    assert "--at" in result.output


def test_cli_replay_at_past_a_refused_decision(tmp_path: Path) -> None:
    """RECORD, SETUP-3: --at beyond the first refused decision tells up to the refusal and
    exits 1."""
    path = tmp_path / "passes.json"
    path.write_text(json.dumps({"version": 1, "players": 3, "actions": ["pass"] * 10}), "utf-8")
    result = cli("replay", str(path), "--at", "5")
    clean_failure(result, 1)
    assert "Decision 0 ('pass') is refused: SETUP-3" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "7", "--seed", "1"], "2<=x<=6"),
        (["--players", "x", "--seed", "1"], "not a valid integer"),
        (["--players", "3", "--seed", "x"], "not a valid integer"),
        (["--players", "3"], "Missing option '--seed'"),
        (["--players", "3", "--seed", "1", "--tribes", "FOO"], "SETUP-3: unknown tribe 'FOO'"),
        (["--players", "3", "--seed", "1", "--tribes", ",,,"], "5 tribes, not 0"),
        (["--players", "3", "--seed", "1", "--tribes", "DWA,DWA,ELF,GIA,MER"], "named twice"),
        (["--players", "3", "--seed", "1", "--first-player", "5"], "AGE-5"),
        (["--players", "3", "--seed", "1", "--first-player", "-1"], "AGE-5"),
        (["--players", "3", "--seed", "1", "--option", "foo=bar"], "NAME=VALUE"),
        (["--players", "3", "--seed", "1", "--option", "placement"], "NAME=VALUE"),
        (["--players", "3", "--seed", "1", "--option", "placement=bar"], "placement='bar'"),
    ],
)
def test_cli_simulate_bad_arguments(args: list[str], words: str) -> None:
    """SETUP-1, SETUP-3, AGE-5, OPTIONS: bad --players, --seed, --tribes, --first-player and
    --option values are usage errors (exit 2) that say what is wrong."""
    result = cli("simulate", *args)
    clean_failure(result, 2)
    assert words in result.output


@pytest.mark.parametrize("seed", ["-5", "99999999999999999999999999999"])
def test_cli_simulate_any_integer_seed(seed: str) -> None:
    """CHANCE: any integer is a seed; the record it writes validates."""
    result = cli("simulate", "--players", "2", "--seed", seed)
    assert result.exit_code == 0
    assert validate(GameRecord.from_json(result.stdout)).ok


def test_cli_simulate_out_to_a_directory(tmp_path: Path) -> None:
    """RECORD: --out naming a directory is a usage error, exit 2."""
    clean_failure(cli("simulate", "-p", "2", "-s", "1", "--out", str(tmp_path)), 2)


def test_cli_simulate_out_to_an_unwritable_path(tmp_path: Path) -> None:
    """RECORD: a path that cannot be written is a clean error with a non-zero exit."""
    result = cli("simulate", "-p", "2", "-s", "1", "--out", str(tmp_path / "no" / "x.json"))
    assert result.exit_code != 0
    clean_failure(result, result.exit_code)


def test_cli_validate_json_with_a_lone_surrogate(tmp_path: Path) -> None:
    """RECORD: every readable record gets a JSON report line, whatever its texts hold."""
    path = tmp_path / "surrogate.json"
    path.write_text('{"version": 1, "players": 3, "actions": ["\\ud800"]}', "utf-8")
    result = cli("validate", "--json", str(path))
    clean_failure(result, 1)
    assert json.loads(result.stdout)["rule"] == "NOTATION"


def test_cli_text_report_with_a_lone_surrogate(tmp_path: Path) -> None:
    """NOTATION: the one-line report and the replay quote an unprintable text escaped."""
    path = tmp_path / "surrogate.json"
    path.write_text('{"version": 1, "players": 3, "actions": ["\\ud800"]}', "utf-8")
    for command in ("validate", "replay"):
        result = cli(command, str(path))
        clean_failure(result, 1)
        assert "'\\ud800'" in result.output and "NOTATION" in result.output


def test_installed_command_reports_without_traceback(tmp_path: Path) -> None:
    """RECORD: the installed ``ethnos-rules`` program itself (not only click's test runner)
    reports a missing file and a binary file in one line each, exit 1."""
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    program = Path(sys.executable).with_name("ethnos-rules")
    done = subprocess.run(
        [str(program), "validate", str(tmp_path / "missing.json"), str(binary)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert "cannot read the record file" in lines[0] and "not UTF-8" in lines[1]
