"""State snapshots (issue 3): a GameState written as JSON and read back equal; snapshots that
break an invariant (COMP-3 cards conserved, TURN-2 hand limit, COMP-6 markers, COMP-8 Troll
tokens) refused with InvalidStateError; malformed snapshots refused with RecordError; and a
hand-edited snapshot is refused, or a sound state that plays on."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    FIRST_EDITION,
    GameRecord,
    GameState,
    InvalidStateError,
    MerfolkBoard,
    Options,
    RecordError,
    RulesError,
    apply,
    chance_outcomes,
    glory,
    is_terminal,
    legal_actions,
    new_game,
    play_random,
    position,
    state_from_json,
    state_problems,
    state_to_json,
    to_move,
    winners,
)
from ethnos_rules._rules.decisions import DECISIONS_BY_NAME
from ethnos_rules._rules.state import Pending
from helpers import SIX_TRIBES, refused
from strategies import json_values

TRIBES = ["CEN", "ELF", "MER", "ORC", "TRO", "WIZ"]
ELVES = [f"ELF-{c}" for c in ("green", "purple", "orange", "gray", "red", "blue")]


def states_of(players: int, seed: int, **kwargs: Any) -> list[GameState]:
    game = play_random(players, seed, **kwargs)
    out = [game.start]
    for action in game.actions:
        out.append(apply(out[-1], action))
    return out


def test_every_state_of_games_round_trips() -> None:
    """CHANCE, BAND-6, END-3: every state of several games, whatever is pending (setup chance,
    deals, turns, placements, tribe follow-ups, Orc decisions, game over), round-trips equal;
    together they cover every pending class."""
    covered: set[str] = set()
    games: list[tuple[int, int, dict[str, Any]]] = [
        (2, 1, {}),
        (4, 2, {"tribes": TRIBES}),
        (5, 3, {"tribes": TRIBES, "options": Options(wizard_draw="up_to_x")}),
        (3, 4, {"tribes": ["CEN", "ELF", "MER", "TRO", "WIN"]}),
        (6, 5, {"tribes": ["GIA", "ORC", "TRO", "CEN", "MER", "WIZ"]}),
    ]
    for players, seed, kwargs in games:
        for state in states_of(players, seed, **kwargs):
            again = state_from_json(state_to_json(state))
            assert again == state
            covered.add(type(state.pending).__name__)
    assert covered == set(DECISIONS_BY_NAME)


def test_the_decision_table_names_every_decision_class() -> None:
    """Snapshots name the pending decision by class: the table holds every concrete decision
    class (every attrs class below Pending), each once."""
    concrete: set[type[Pending]] = set()
    todo: list[type[Pending]] = [Pending]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "__attrs_attrs__" in vars(cls):
            concrete.add(cls)
    assert set(DECISIONS_BY_NAME.values()) == concrete
    assert len(DECISIONS_BY_NAME) == len(concrete)


def test_snapshot_keeps_options_and_history() -> None:
    """§12, COMP-5, COMP-10: non-default options and the summaries of finished Ages survive."""
    options = Options(
        placement="mandatory",
        merfolk_board=MerfolkBoard(last_space=12, checkpoints=(2, 9)),
        glory_tokens=(1,) * 12 + (3,) * 6,
        glory_tokens_4plus=(1,) * 6,
    )
    final = states_of(4, 6, options=options, tribes=TRIBES)[-1]
    data = json.loads(state_to_json(final))
    assert data["options"]["placement"] == "mandatory"
    assert len(data["history"]) == 3
    assert state_from_json(state_to_json(final)) == final


def test_snapshot_of_a_built_position() -> None:
    """BAND-5: a position built with position() round-trips, and play continues from it."""
    state = position(
        4,
        SIX_TRIBES,
        hands={0: "DWA-purple DWA-red DWA-blue"},
        kingdoms={0: {"Duris": 2}},
        horde={1: ["red"]},
        merfolk={2: 5},
    )
    again = state_from_json(state_to_json(state, indent=2))
    assert again == state
    assert legal_actions(again) == legal_actions(state)


def test_cards_colours_and_kingdoms_are_written_by_name() -> None:
    """COMP-1, COMP-3: cards by code, colours and kingdom names in words, deck as counts."""
    state = position(
        4,
        SIX_TRIBES,
        hands={0: "DWA-purple ELF-red"},
        horde={1: ["red"]},
    )
    data = json.loads(state_to_json(state))
    assert data["seats"][0]["hand"] == ["DWA-purple", "ELF-red"]
    assert data["seats"][1]["horde"] == ["red"]
    assert data["deck"]["DWA-purple"] == 1 and data["deck"]["ELF-green"] == 2
    assert data["pending"] == {"type": "TurnPending", "turn_seat": 0}


# --- invariants -------------------------------------------------------------------------------


def middle_state() -> GameState:
    states = states_of(4, 7, tribes=TRIBES)
    return next(s for s in states[200:] if type(s.pending).__name__ == "TurnPending")


def changed(change: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(state_to_json(middle_state()))
    data = copy.deepcopy(data)
    change(data)
    return json.dumps(data)


def _add_to_hand(cards: list[str]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["seats"][0]["hand"] += cards

    return change


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["row"].append(_a_card_in_play(d)), "appears"),  # a card twice
        (_add_to_hand(ELVES * 2), "more than 10"),  # TURN-2 (and too many Elves)
        (lambda d: d["seats"][1].update(supply=3), "markers add up to"),  # COMP-6
        (lambda d: d["seats"][1].update(kingdoms=[9, 0, 0, 0, 0, 0]), "markers add up to"),
        (lambda d: [s.update(trolls=[6]) for s in d["seats"][:2]], "Troll tokens"),  # COMP-8
        (lambda d: d["seats"][2].update(glory=-3), "negative Glory"),
        (lambda d: d["deck"].update({"ELF-red": -1}), "ELF-red"),
        (lambda d: d["seats"][0].update(horde=["red", "red"]), "two markers on one space"),
        (lambda d: d.update(pending={"type": "TurnPending", "turn_seat": 7}), "seat 7"),
        (lambda d: d.update(age=4), "Age 4"),
        (lambda d: d.update(giant_holder=9), "not a seat"),
        (lambda d: d["tokens"][0].append(2), "glory tokens"),
    ],
)
def test_broken_invariants_are_refused(
    change: Callable[[dict[str, Any]], None], words: str
) -> None:
    """COMP-3, TURN-2, COMP-6, COMP-8, SETUP-4: a snapshot that no legal game can reach is
    refused, naming what is wrong."""
    with pytest.raises(InvalidStateError) as info:
        state_from_json(changed(change))
    assert info.value.rule == "STATE"
    assert any(words in problem for problem in info.value.problems), info.value.problems


def _a_card_in_play(data: dict[str, Any]) -> str:
    hand = data["seats"][0]["hand"] or data["seats"][1]["hand"]
    if hand:
        return str(hand[0])
    return str(next(code for code in data["deck"]))


def test_pending_band_must_be_the_last_band() -> None:
    """BAND-6: a follow-up decision about a band the player did not play is refused."""

    def change(data: dict[str, Any]) -> None:
        band = "*ELF-red"
        data["pending"] = {
            "type": "PlacePending",
            "ctx": {"seat": 0, "band": band, "chain": 0, "placed": False},
        }

    with pytest.raises(InvalidStateError, match="last band"):
        state_from_json(changed(change))


def test_pending_before_setup_is_done() -> None:
    """SETUP-3: a turn cannot be pending before the tribes are chosen."""
    start = states_of(4, 1)[0]
    data = json.loads(state_to_json(start))
    data["pending"] = {"type": "TurnPending", "turn_seat": 0}
    with pytest.raises(InvalidStateError, match=r"before every tribe|Dragons drawn"):
        state_from_json(json.dumps(data))


# --- malformed snapshots ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda d: d["row"].append("ELF-pink"), "$.row", "unknown card 'ELF-pink'"),
        (lambda d: d["seats"][1].update(horde=["pink"]), "$.seats[1].horde[0]", "'pink'"),
        (lambda d: d["seats"][1].update(glory="7"), "$.seats[1].glory", "expected int"),
        (lambda d: d["tribes"].__setitem__(0, "GOB"), "$.tribes[0]", "unknown tribe"),
        (lambda d: d["deck"].update({"ELF-pink": 1}), '$.deck["ELF-pink"]', "unknown card"),
        (lambda d: d.update(pending={"type": "Nap"}), "$.pending.type", "unknown pending"),
        (lambda d: d.update(pending=[1]), "$.pending", "object"),
        (lambda d: d["pending"].update(turn_seat="x"), "$.pending.turn_seat", "expected int"),
        (lambda d: d["pending"].update(extra=1), "$.pending", "unknown key"),
        (lambda d: d.update(snapshot=9), "$.snapshot", "unknown snapshot version"),
        (lambda d: d.update(ruleset="2e"), "$.ruleset", "unknown ruleset"),
        (lambda d: d.update(players=3), "$.seats", "4 seats for 3 players"),
        (lambda d: d.update(players=7), "$.players", "Ethnos is played by 2 to 6 players"),
        (lambda d: d.update(players=1), "$.players", "Ethnos is played by 2 to 6 players"),
        (lambda d: d.update(surprise=1), "$", "extra fields"),
        (lambda d: d.pop("row"), "$.row", "required field missing"),
        (lambda d: d.update(options={"placement": "never"}), "$.options", "OPTIONS"),
        (lambda d: d["seats"][0].update(bands=["ELF-red"]), "$.seats[0].bands[0]", "Leader"),
    ],
)
def test_malformed_snapshots_name_the_place(
    change: Callable[[dict[str, Any]], None], path: str, words: str
) -> None:
    """RECORD: unknown card, colour, tribe or pending names, wrong types, missing or extra keys,
    an unknown version: refused with the JSON path."""
    with pytest.raises(RecordError) as info:
        state_from_json(changed(change))
    assert info.value.path is not None and info.value.path.startswith(path)
    assert words in info.value.reason


@pytest.mark.parametrize(
    ("text", "words"),
    [("", "empty"), ("{", "not valid JSON"), ("[]", "JSON object"), ("{}", "version")],
)
def test_unreadable_snapshots(text: str, words: str) -> None:
    """RECORD: empty, broken or non-object snapshots are refused."""
    with pytest.raises(RecordError, match=words):
        state_from_json(text)


def test_a_version_key_in_a_snapshot_is_named() -> None:
    """RECORD: records give their format version as "version", snapshots as "snapshot"; a
    snapshot written with "version" is told which key is expected, not that its version is
    None."""
    data = json.loads(state_to_json(middle_state()))
    data["version"] = data.pop("snapshot")
    with pytest.raises(RecordError) as info:
        state_from_json(json.dumps(data))
    reason = info.value.reason
    assert "under the key 'snapshot', not 'version'" in reason and "None" not in reason
    with pytest.raises(RecordError, match="the key 'snapshot'"):
        state_from_json(changed(lambda d: d.update(snapshot=None)))


def test_a_snapshot_read_as_a_record_is_named() -> None:
    """RECORD: a snapshot given to GameRecord.from_json is refused with a hint to read it with
    state_from_json."""
    with pytest.raises(RecordError, match="state_from_json"):
        GameRecord.from_json(state_to_json(middle_state()))


# --- hand-edited snapshots: refused, or a sound state that plays on ------------------------------


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


@functools.cache
def _pending_states() -> dict[str, GameState]:
    """The first state of one game at each kind of pending decision."""
    game = play_random(4, 0, tribes=TRIBES)
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
    card_codes = [c.code for c in FIRST_EDITION.cards if c.tribe.code in TRIBES]
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


# --- property -----------------------------------------------------------------------------------

# A local strategy (tests/strategies.py belongs to another part of the suite): a whole random
# game from a player count and a seed, and a decision index into it.


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    where=st.floats(0, 1),
)
def test_any_reachable_state_round_trips(players: int, seed: int, where: float) -> None:
    """CHANCE: any state reached by random play, written and read back, is equal and offers the
    same legal decisions."""
    game = play_random(players, seed)
    state = game.start
    for action in game.actions[: int(where * len(game.actions))]:
        state = apply(state, action)
    again = state_from_json(state_to_json(state))
    assert again == state
    assert legal_actions(again) == legal_actions(state)


ODD_LEAVES: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([None, -1, 0, 1, 7, 99, 10**6, 2**63, 1.5, True, "", "x", "ELF-red",
                     "Rhea", "red", [], {}, ["ELF-red"], [0] * 6, ["red"]]),
    json_values,
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


def _end_of_game() -> dict[str, Any]:
    """The snapshot of a finished game, with its last Age's discarded hands (END-1)."""
    final = play_random(4, 3, tribes=TRIBES).final
    assert any(final.discarded_hands)
    data: dict[str, Any] = json.loads(state_to_json(final))
    return data


def test_discarded_hands_round_trip_and_must_fit_the_discard() -> None:
    """END-1: the hands discarded at the end of the Age are written by seat; hands that are
    not in the discard, or hands discarded while an Age goes on, are refused."""
    data = _end_of_game()
    assert (
        state_from_json(json.dumps(data)).discarded_hands
        == play_random(4, 3, tribes=TRIBES).final.discarded_hands
    )
    seat = next(i for i, hand in enumerate(data["discarded_hands"]) if hand)
    data["discarded_hands"][seat] += data["discard"]  # each of its cards once more than discarded
    with pytest.raises(InvalidStateError) as info:
        state_from_json(json.dumps(data))
    assert any("not in the discard" in p for p in info.value.problems), info.value.problems
    middle = json.loads(state_to_json(states_of(4, 3, tribes=TRIBES)[200]))
    middle["discarded_hands"] = [[], [], [], []]
    with pytest.raises(InvalidStateError, match="only at the end of an Age"):
        state_from_json(json.dumps(middle))


def test_a_snapshot_without_discarded_hands_is_read() -> None:
    """A snapshot written before the discarded hands were kept is read: the discard is then
    shown whole to every seat, as it was."""
    data = _end_of_game()
    del data["discarded_hands"]
    state = state_from_json(json.dumps(data))
    assert state.discarded_hands == () and state.discard == tuple(
        sorted(state.rules.card(code) for code in data["discard"])
    )
