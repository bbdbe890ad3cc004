"""The state's fast copies are typed, declared once, and show their code in tracebacks (issue 36).

The copy functions ``frozen.py`` generates are what builds every state: a wrong field name or
type passed to them must be an error for mypy, as it is for ``attrs.evolve``; the typed
declaration mypy reads (:class:`~ethnos_rules._rules.state.StateChanges`) must name the fields
the classes declare; and an error raised inside generated code must show its line.
"""

from __future__ import annotations

import linecache
import pickle
import subprocess
import sys
import traceback
import typing
from pathlib import Path

import attrs
import pytest

import ethnos_rules as er
from ethnos_rules._rules import frozen
from ethnos_rules._rules.options import MerfolkBoard, Options
from ethnos_rules._rules.state import (
    ColdState,
    GameState,
    PlayerState,
    StateChanges,
    copy_player,
    copy_state,
)

ROOT = Path(__file__).resolve().parents[1]


def _declared(cls: type) -> dict[str, object]:
    """Each attrs field of ``cls`` with its annotation, resolved."""
    hints = typing.get_type_hints(cls)
    return {field.name: hints[field.name] for field in attrs.fields(cls)}


def test_the_typed_changes_name_every_field_of_the_state_with_its_type() -> None:
    """StateChanges, which mypy reads, names exactly the fields of GameState and of its cold
    part, each with the type the class declares; all are optional, as in a copy."""
    declared = {**_declared(GameState), **_declared(ColdState)}
    assert typing.get_type_hints(StateChanges) == declared
    assert StateChanges.__optional_keys__ == frozenset(declared)


def test_the_state_takes_every_field_by_name_with_its_type() -> None:
    """GameState(...), and so attrs.evolve(state, ...), takes each field of the state and of
    its cold part by name, typed as declared."""
    declared = {**_declared(GameState), **_declared(ColdState)}
    hints = typing.get_type_hints(GameState.__init__)
    del hints["return"]
    assert hints == declared


def test_every_cold_field_is_read_from_the_state_as_its_own() -> None:
    """Each field of ColdState is read from the state (``state.age``), giving the cold part's
    value, and is set by name in GameState(...) and copy_state."""
    state = er.play_random(3, seed=4).final
    for field in attrs.fields(ColdState):
        assert getattr(state, field.name) is getattr(state.cold, field.name), field.name
    again = GameState(state.config, state.pending, **_fields_of(state))
    assert again == state
    assert copy_state(state, age=2).age == 2 and copy_state(state, age=2).players is state.players


def _fields_of(state: GameState) -> dict[str, typing.Any]:
    names = [f.name for f in (*attrs.fields(GameState), *attrs.fields(ColdState))]
    fields = {name: getattr(state, name) for name in names if name not in ("config", "pending")}
    del fields["cold"]
    return fields


PLANTED = """
import ethnos_rules
from ethnos_rules import new_game
from ethnos_rules._rules.bands import new_band
from ethnos_rules._rules.state import GameState, copy_player, copy_state

state = new_game(4)
player = state.players[0]
"""
WRONG = {
    "copy_state(state, aeg=2)": 'Unexpected keyword argument "aeg"',
    'copy_state(state, dragons_drawn="x")': 'Argument "dragons_drawn"',
    'copy_player(player, glory="ten")': 'Argument "glory"',
    "copy_player(player, glroy=10)": 'Unexpected keyword argument "glroy"',
    'GameState(state.config, state.pending, age="two")': 'Argument "age"',
    "state.with_player(0, player, top_lef=3)": 'Unexpected keyword argument "top_lef"',
    'new_band(player.hand[0], "x")': "Argument 2",
    "ethnos_rules.nwe_game(4)": 'Module has no attribute "nwe_game"',
}
RIGHT = [
    "copy_state(state, age=2, dragons_drawn=1, players=state.players)",
    "copy_player(player, glory=10, hand=())",
    "GameState(state.config, state.pending, age=2, row=())",
    "state.with_player(0, player, top_left=3)",
    "new_band(player.hand[0], ())",
    "ethnos_rules.new_game(4)",
]


def test_mypy_refuses_a_wrong_field_name_or_type_in_a_fast_copy(tmp_path: Path) -> None:
    """A planted snippet: each wrong name or type given to copy_state, copy_player, GameState
    or a maker constructor, and a misspelt name of the package (whose names are imported when
    first used), is a mypy error on its line; the right calls are not."""
    lines = [*PLANTED.strip().splitlines(), *WRONG, *RIGHT]
    (tmp_path / "planted.py").write_text("\n".join(lines) + "\n")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "planted.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "MYPYPATH": str(ROOT / "src")},
    ).stdout
    first = len(PLANTED.strip().splitlines()) + 1
    errors: dict[int, str] = {}
    for line in out.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4 and parts[0] == "planted.py" and "error" in parts[2]:
            errors[int(parts[1])] = errors.get(int(parts[1]), "") + parts[3]
    for number, (call, message) in enumerate(WRONG.items(), start=first):
        assert message in errors.get(number, ""), f"mypy took {call}:\n{out}"
    right = range(first + len(WRONG), first + len(WRONG) + len(RIGHT))
    assert not [n for n in errors if n in right or n < first], out


def test_a_traceback_through_a_generated_copy_shows_its_line() -> None:
    """An error raised inside generated code shows the generated line in the traceback, under
    a file name naming what was generated (as attrs registers its own in linecache)."""
    with pytest.raises(AttributeError) as caught:
        copy_player(typing.cast(PlayerState, object()))
    text = "".join(traceback.format_exception(caught.value))
    assert "frozen generated copy ethnos_rules._rules.state.PlayerState" in text
    assert "new.hand = inst.hand if hand is _SAME else hand" in text
    assert 'File "<string>"' not in text


def test_a_traceback_through_a_generated_constructor_shows_its_line() -> None:
    """The same for a maker constructor: a draft refuses a slot the class does not have."""

    @attrs.frozen(slots=True, weakref_slot=False)
    class Pair:
        left: int
        right: int

    make = frozen.maker(Pair)
    assert make(1, 2) == Pair(1, 2)
    source = "".join(linecache.getlines(make.__code__.co_filename))
    assert source.startswith("def make(left, right):")


def test_an_old_pickle_of_a_state_class_takes_the_default_of_a_new_field() -> None:
    """One mechanism for old pickles: an object pickled before a field existed loads with the
    field's default (here the options, the Merfolk board, a player and the cold part, each
    pickled without its last field), and a pickle without a field that has no default is
    refused by name."""
    for value in (Options(), MerfolkBoard(), PlayerState(glory=3), ColdState(age=2)):
        cls = type(value)
        last = attrs.fields(cls)[-1].name
        reduced = value.__reduce_ex__(2)
        state = dict(typing.cast(dict[str, object], reduced[2]))
        del state[last]
        old: typing.Any = object.__new__(cls)
        old.__setstate__(state)
        assert old == value and pickle.loads(pickle.dumps(old)) == value
    with pytest.raises(TypeError, match="without its field 'tribes'"):
        typing.cast(typing.Any, object.__new__(_NoDefault)).__setstate__({})


@frozen.defaults_when_unpickled
@attrs.frozen
class _NoDefault:
    tribes: int
