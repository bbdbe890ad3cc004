"""State snapshots (issue 3): a GameState written as JSON and read back equal; snapshots that
break an invariant (COMP-3 cards conserved, TURN-2 hand limit, COMP-6 markers, COMP-8 Troll
tokens) refused with InvalidStateError; malformed snapshots refused with RecordError."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    GameRecord,
    GameState,
    InvalidStateError,
    MerfolkBoard,
    Options,
    RecordError,
    apply,
    legal_actions,
    play_random,
    position,
    state_from_json,
    state_to_json,
)
from ethnos_rules._rules.decisions import DECISIONS_BY_NAME
from ethnos_rules._rules.state import Pending

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
        ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
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
        ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
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
