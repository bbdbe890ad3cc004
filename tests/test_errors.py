"""The error classes (``ethnos_rules._rules.errors``): each refusal raises the right class
naming the right rule, and ``apply`` never changes its input."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import attrs
import pytest

from ethnos_rules import (
    AddToHorde,
    Checkpoint,
    ChooseFirstPlayer,
    ChooseTribe,
    Colour,
    EmptyHorde,
    GameOverError,
    GameState,
    IllegalActionError,
    ImpossibleOutcomeError,
    InvalidStateError,
    Keep,
    Kingdom,
    LayTokens,
    MalformedActionError,
    Options,
    Place,
    PlayBand,
    Recruit,
    Reveal,
    RulesError,
    SetupError,
    TakeTroll,
    WizardDraw,
    WrongDecisionError,
    apply,
    card,
    chance_outcomes,
    check_state,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    position,
    state_problems,
    to_move,
)

TRIBES = ["DWA", "ELF", "SKE", "TRO", "WIN", "HAL"]


def act(state: GameState, text: str) -> GameState:
    return apply(state, parse_action(text))


def turn() -> GameState:
    """Seat 0 to play a turn, with a row and a few cards."""
    return position(4, TRIBES, hands={0: "DWA-red DWA-blue ELF-green SKE"}, row="TRO-gray WIN-red")


def game_over() -> GameState:
    """A finished 2-player game: the third Dragon of Age II has been drawn."""
    state = position(2, TRIBES[:5], age=2, dragons_drawn=2, top_left=0, hands={0: "DWA-red"})
    state = act(act(state, "recruit deck"), "reveal DRAGON")
    assert is_terminal(state)
    return state


def snapshot(state: GameState) -> bytes:
    return pickle.dumps(state)


# --- MalformedActionError ---------------------------------------------------------------------

BAD_OBJECTS: list[object] = [
    "recruit deck",  # text, not an Action
    None,
    42,
    PlayBand(card("DWA-red"), (card("SKE"), card("DWA-blue"))),  # others not sorted
    PlayBand("DWA-red"),  # type: ignore[arg-type]
    PlayBand(card("DWA-red"), [card("DWA-blue")]),  # type: ignore[arg-type]
    Recruit("TRO-gray"),  # type: ignore[arg-type]
    Reveal("ELF-red"),  # type: ignore[arg-type]
    ChooseTribe("ELF"),  # type: ignore[arg-type]
    ChooseFirstPlayer("1"),  # type: ignore[arg-type]
    LayTokens(Kingdom.RHEA, [2, 4, 8]),  # type: ignore[arg-type]
    LayTokens(Kingdom.RHEA, (2, 4.0, 8)),  # type: ignore[arg-type]
    LayTokens("Rhea", (2, 4, 8)),  # type: ignore[arg-type]
    Place("Rhea"),  # type: ignore[arg-type]
    Checkpoint("Rhea"),  # type: ignore[arg-type]
    TakeTroll(2.0),  # type: ignore[arg-type]
    TakeTroll(True),
    AddToHorde(1),  # type: ignore[arg-type]
    Keep("ELF-red"),  # type: ignore[arg-type]
    WizardDraw("3"),  # type: ignore[arg-type]
    WizardDraw(True),
    EmptyHorde((Colour.BLUE, Colour.RED)),  # not in colour order
    EmptyHorde((Colour.RED, Colour.RED)),  # not distinct
    EmptyHorde([Colour.RED]),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("bad", BAD_OBJECTS)
def test_malformed_action_object(bad: object) -> None:
    """NOTATION: apply refuses an object that is not a well-formed Action with
    MalformedActionError (before asking whether it is legal), leaving the state unchanged."""
    for state in (turn(), new_game(4), game_over()):
        before = snapshot(state)
        with pytest.raises(MalformedActionError) as err:
            apply(state, bad)  # type: ignore[arg-type]
        assert err.value.rule == "NOTATION"
        assert snapshot(state) == before


# --- WrongDecisionError -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["reveal ELF-red", "reveal DRAGON", "tribe ELF", "first 0", "tokens Rhea 2 4 8"],
)
def test_chance_outcome_when_a_player_decides(text: str) -> None:
    """TURN-1, CHANCE: a chance outcome where a player is to move is a WrongDecisionError
    (rule of the pending decision, here TURN-1)."""
    state = turn()
    with pytest.raises(WrongDecisionError) as err:
        act(state, text)
    assert err.value.rule == "TURN-1"
    assert "chance" in err.value.reason


@pytest.mark.parametrize(
    ("make", "rule"),
    [
        (lambda: new_game(4), "SETUP-3"),
        (lambda: new_game(4, tribes=TRIBES), "SETUP-4"),
        (
            lambda: new_game(
                2, tribes=TRIBES[:5], glory_tokens=[[0, 2], [2, 4], [4, 6], [6, 6], [8, 8], [8, 10]]
            ),
            "AGE-5",
        ),
        (lambda: act(turn(), "recruit deck"), "RECRUIT-1"),
    ],
)
@pytest.mark.parametrize("text", ["recruit deck", "band *DWA-red", "pass", "place Rhea"])
def test_player_decision_at_a_chance_event(
    make: Callable[[], GameState], rule: str, text: str
) -> None:
    """CHANCE, SETUP-3, SETUP-4, AGE-5, RECRUIT-1: a player's decision at a chance event is a
    WrongDecisionError naming the chance rule."""
    state = make()
    assert chance_outcomes(state)
    with pytest.raises(WrongDecisionError) as err:
        act(state, text)
    assert err.value.rule == rule


@pytest.mark.parametrize(
    "text",
    [
        "place Rhea",
        "place none",
        "troll 1",
        "checkpoint none",
        "horde add",
        "chain stop",
        "keep done",
        "wizard 0",
        "empty none",
    ],
)
def test_follow_up_decision_when_none_is_pending(text: str) -> None:
    """TURN-1, BAND-6: a band's follow-up decision at the start of a turn is a
    WrongDecisionError."""
    with pytest.raises(WrongDecisionError) as err:
        act(turn(), text)
    assert err.value.rule == "TURN-1"


def test_turn_action_during_placement() -> None:
    """BAND-5, BAND-6: while a placement is pending, a turn action is a WrongDecisionError
    naming BAND-5."""
    state = act(turn(), "band *DWA-red DWA-blue")
    assert legal_actions(state) == (Place(Kingdom.RHEA), Place(None))
    for text in ["recruit deck", "band *ELF-green", "troll 1"]:
        with pytest.raises(WrongDecisionError) as err:
            act(state, text)
        assert err.value.rule == "BAND-5"


# --- GameOverError ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["recruit deck", "pass", "reveal DWA-red", "reveal DRAGON", "empty none", "first 0"]
)
def test_game_over(text: str) -> None:
    """GAME-1: once the game is over nothing applies: GameOverError, no legal action, nobody to
    move, no chance outcome."""
    state = game_over()
    assert legal_actions(state) == ()
    assert to_move(state) is None
    assert chance_outcomes(state) == ()
    before = snapshot(state)
    with pytest.raises(GameOverError) as err:
        act(state, text)
    assert err.value.rule == "GAME-1"
    assert snapshot(state) == before


# --- IllegalActionError -----------------------------------------------------------------------


def ten_cards() -> GameState:
    return position(4, TRIBES, hands={0: "SKE " * 9 + "DWA-red"}, row="TRO-gray")


def placing() -> GameState:
    return act(turn(), "band *DWA-red DWA-blue")


def wingfolk_mandatory() -> GameState:
    state = position(
        4, TRIBES, hands={0: "WIN-red WIN-blue"}, options=Options(placement="mandatory")
    )
    return act(state, "band *WIN-red WIN-blue")


def troll_choice() -> GameState:
    state = position(4, TRIBES, hands={0: "TRO-red TRO-blue"})
    return act(act(state, "band *TRO-red TRO-blue"), "place none")


ILLEGAL: list[tuple[Callable[[], GameState], str, str]] = [
    (ten_cards, "recruit deck", "TURN-2"),
    (ten_cards, "recruit TRO-gray", "TURN-2"),
    (ten_cards, "pass", "TURN-3"),
    (turn, "pass", "TURN-3"),
    (turn, "recruit ELF-red", "RECRUIT-1"),
    (turn, "band *DWA-red DWA-red", "BAND-1"),
    (turn, "band *DWA-red ELF-green", "BAND-2"),
    (turn, "band *SKE DWA-red", "BAND-4"),
    (placing, "place Duris", "BAND-5"),
    (wingfolk_mandatory, "place none", "BAND-5a"),
    (troll_choice, "troll 3", "TRIBE-TRO-1"),
]


@pytest.mark.parametrize(("make", "text", "rule"), ILLEGAL, ids=[f"{c[2]}:{c[1]}" for c in ILLEGAL])
def test_illegal_action_names_the_rule(make: Callable[[], GameState], text: str, rule: str) -> None:
    """TURN-2, TURN-3, RECRUIT-1, BAND-1, BAND-2, BAND-4, BAND-5, BAND-5a, TRIBE-TRO-1:
    IllegalActionError carries the id of the rule that forbids the action, the reason and
    the action; the message starts with the rule id; the state is unchanged."""
    state = make()
    action = parse_action(text)
    assert action not in legal_actions(state)
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as err:
        apply(state, action)
    assert type(err.value) is IllegalActionError
    assert err.value.rule == rule
    assert err.value.action == action
    assert err.value.reason
    assert str(err.value).startswith(f"{rule}: ")
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("make", "text", "rule"),
    [
        (lambda: new_game(4, tribes=TRIBES, first_player=0), "tokens Althea 0 0 0", "SETUP-4"),
        (lambda: act(new_game(4), "tribe ELF"), "tribe ELF", "SETUP-3"),
        (lambda: act(turn(), "recruit deck"), "reveal DRAGON", "CHANCE"),
        (
            lambda: act(position(4, TRIBES, row="DWA-red DWA-red"), "recruit deck"),
            "reveal DWA-red",
            "CHANCE",
        ),
    ],
)
def test_impossible_outcome(make: Callable[[], GameState], text: str, rule: str) -> None:
    """CHANCE: a chance outcome of probability 0 raises ImpossibleOutcomeError, an
    IllegalActionError, naming the rule; the state is unchanged."""
    state = make()
    before = snapshot(state)
    with pytest.raises(ImpossibleOutcomeError) as err:
        act(state, text)
    assert isinstance(err.value, IllegalActionError)
    assert err.value.rule == rule
    assert snapshot(state) == before


# --- apply is pure ------------------------------------------------------------------------------


def test_apply_leaves_input_unchanged_on_success() -> None:
    """STATE (API contract): apply returns a new state and never changes the one it was given."""
    state = turn()
    before = snapshot(state)
    for action in legal_actions(state):
        after = apply(state, action)
        assert after is not state
        assert snapshot(state) == before
    # A full band resolution through follow-up decisions.
    placed = act(act(state, "band *DWA-red DWA-blue"), "place Rhea")
    assert snapshot(state) == before
    assert placed.players[0].kingdoms[Kingdom.RHEA] == 1
    assert state.players[0].kingdoms[Kingdom.RHEA] == 0


# --- the hierarchy, setup and state errors --------------------------------------------------------


def test_hierarchy() -> None:
    """NOTATION, STATE (API contract): every refusal is a RulesError, which is a ValueError."""
    for cls in (
        MalformedActionError,
        WrongDecisionError,
        GameOverError,
        IllegalActionError,
        ImpossibleOutcomeError,
        SetupError,
        InvalidStateError,
    ):
        assert issubclass(cls, RulesError)
        assert issubclass(cls, ValueError)
    assert issubclass(ImpossibleOutcomeError, IllegalActionError)


def test_errors_pickle_round_trip() -> None:
    """NOTATION, STATE (API contract): RulesError subclasses keep their class, rule, reason
    and action through pickling."""
    err = IllegalActionError("BAND-2", "mixed band", parse_action("band *DWA-red ELF-green"))
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is IllegalActionError
    assert (back.rule, back.reason, back.action) == (err.rule, err.reason, err.action)
    state_err = InvalidStateError(("a", "b"))
    back_state = pickle.loads(pickle.dumps(state_err))
    assert back_state.problems == ("a", "b") and back_state.rule == "STATE"


def test_setup_error_names_the_setup_rule() -> None:
    """SETUP-1, SETUP-3: SetupError for arguments of new_game that break a setup rule."""
    with pytest.raises(SetupError) as err:
        new_game(7)
    assert err.value.rule == "SETUP-1"
    with pytest.raises(SetupError) as err:
        new_game(4, tribes=TRIBES[:5])
    assert err.value.rule == "SETUP-3"


def test_invalid_state_error_lists_problems() -> None:
    """STATE, TURN-2: a state no game can reach (an 11-card hand, a card twice) is refused by
    check_state with every problem listed."""
    state = turn()
    assert state_problems(state) == ()
    assert check_state(state) is state
    hand = state.players[0].hand + (card("SKE"),) * 5 + (card("DWA-red"),) * 2
    bad = state.with_player(0, attrs.evolve(state.players[0], hand=hand))
    problems = state_problems(bad)
    assert any("11 cards" in p for p in problems)
    assert any("DWA-red" in p for p in problems)
    with pytest.raises(InvalidStateError) as err:
        check_state(bad)
    assert err.value.rule == "STATE"
    assert err.value.problems == problems


def test_decision_claimed_by_the_wrong_seat_is_refused() -> None:
    """TURN-1, AGE-6: with ``seat=`` given, only the seat whose decision it is may act; a seat
    at a chance event is refused too. The input state is left unchanged."""
    state = position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], to_move=1)
    before = snapshot(state)
    with pytest.raises(WrongDecisionError) as err:
        apply(state, parse_action("recruit deck"), seat=2)
    assert err.value.rule == "TURN-1"
    assert "seat 1's decision, not seat 2's" in err.value.reason
    assert snapshot(state) == before
    drawn = apply(state, parse_action("recruit deck"), seat=1)
    with pytest.raises(WrongDecisionError) as err:
        apply(drawn, parse_action("reveal DWA-red"), seat=1)
    assert "chance's decision" in err.value.reason
