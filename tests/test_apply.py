"""apply() and its refusals: apply accepts a well-formed action exactly when legal_actions lists
it, and refuses every other with a :class:`RulesError` of the right class naming the rule —
MalformedActionError (NOTATION), WrongDecisionError (the pending decision's rule),
GameOverError (GAME-1), IllegalActionError and ImpossibleOutcomeError (the rule that forbids the
move) — without changing its input; and the error classes themselves
(``ethnos_rules._rules.errors``)."""

from __future__ import annotations

import functools
import pickle
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
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
    GameState,
    IllegalActionError,
    ImpossibleOutcomeError,
    InvalidStateError,
    Keep,
    Kingdom,
    LayTokens,
    MalformedActionError,
    Options,
    Pass,
    Place,
    PlayBand,
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
    state_problems,
    state_to_json,
    to_move,
    validate,
    winners,
)
from helpers import SIX_TRIBES, act, refused

TRIBES = ["DWA", "ELF", "SKE", "TRO", "WIN", "HAL"]


def turn() -> GameState:
    """Seat 0 to play a turn, with a row and a few cards."""
    return position(4, TRIBES, hands={0: "DWA-red DWA-blue ELF-green SKE"}, row="TRO-gray WIN-red")


def turn_with_six_tribes() -> GameState:
    """Seat 0 starts a turn with a few cards and a row (4 players, :data:`SIX_TRIBES`)."""
    return position(
        4, SIX_TRIBES, hands={0: "DWA-red DWA-blue ELF-green GIA-gray"}, row="ELF-red MER-gray"
    )


def game_over() -> GameState:
    """A finished 2-player game: the third Dragon of Age II has been drawn."""
    state = position(2, TRIBES[:5], age=2, dragons_drawn=2, top_left=0, hands={0: "DWA-red"})
    state = act(act(state, "recruit deck"), "reveal DRAGON")
    assert is_terminal(state)
    return state


@functools.cache
def _final() -> GameState:
    """The end of a random 3-player game."""
    return play_random(3, seed=7).final


def snapshot(state: GameState) -> bytes:
    return pickle.dumps(state)


# --- the error classes ---------------------------------------------------------------------------


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


# --- MalformedActionError: not an Action, or not a well-formed one -------------------------------


@pytest.mark.parametrize("thing", [None, "recruit deck", 5, Recruit, object(), b"pass"])
def test_apply_a_non_action(thing: Any) -> None:
    """NOTATION: apply() takes an Action object; anything else is a MalformedActionError."""
    err = refused(lambda: apply(turn_with_six_tribes(), thing), MalformedActionError)
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
    for state in (turn_with_six_tribes(), new_game(4), _final()):
        with pytest.raises(MalformedActionError) as info:
            apply(state, action)
        assert info.value.rule == "NOTATION" and info.value.action is action
        assert info.value.reason in str(info.value) and repr(info.value)


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


# --- WrongDecisionError: a decision that is not due ----------------------------------------------


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
    err = refused(lambda: apply(turn_with_six_tribes(), parse_action(text)), WrongDecisionError)
    assert err.rule == "TURN-1" and "recruit or play a band" in err.reason


@pytest.mark.parametrize("text", ["recruit deck", "band *ELF-red", "pass", "place none"])
def test_player_decisions_at_a_chance_event(text: str) -> None:
    """SETUP-3: while tribes are drawn, a player's decision is the wrong decision."""
    err = refused(lambda: apply(new_game(4), parse_action(text)), WrongDecisionError)
    assert err.rule == "SETUP-3" and "chance outcome" in err.reason


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


# --- the wrong seat ------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [1, 3, 9, -1])
def test_apply_from_the_wrong_seat(seat: Any) -> None:
    """TURN-1: apply(..., seat=N) refuses a decision claimed by a seat whose turn it is not."""
    err = refused(
        lambda: apply(turn_with_six_tribes(), Recruit(None), seat=seat), WrongDecisionError
    )
    assert "seat 0's decision" in err.reason


@pytest.mark.parametrize("seat", [False, 0.0, "0"])
def test_apply_seat_of_the_wrong_type(seat: Any) -> None:
    """TURN-1: the claimed seat must be an int; anything else is refused, saying what it was."""
    err = refused(lambda: apply(turn_with_six_tribes(), Recruit(None), seat=seat), RulesError)
    assert repr(seat) in str(err)


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


# --- GameOverError -------------------------------------------------------------------------------


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


# --- IllegalActionError and ImpossibleOutcomeError -----------------------------------------------


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


# --- apply is pure -------------------------------------------------------------------------------


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


# --- the queries, and objects of the wrong kind --------------------------------------------------


def test_queries_on_a_new_game() -> None:
    """SETUP-6, GAME-1: a new game has everyone at 0 Glory and no winner yet; chance decides."""
    state = new_game(3)
    assert glory(state) == (0, 0, 0) and winners(state) == ()
    assert is_chance(state) and legal_actions(state)
    assert chance_outcomes(turn_with_six_tribes()) == ()


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


# --- never an accepted illegal move --------------------------------------------------------------


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
