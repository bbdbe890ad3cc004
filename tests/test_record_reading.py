"""Reading a record at once (issue 31, part 4): the schema is asked about a record's decisions as
a whole, not descended item by item, and every refusal is told exactly as the whole schema tells
it.

``check_schema`` first asks a quick question (are the decisions texts of the lengths the schema
allows, and is the rest of the record valid?); only when the answer is no does it run the whole
schema for the first problem's words and JSON path. The tests here check that the quick answer
is the whole schema's answer, on valid records and on records broken in every place the schema
looks, and that a valid record is read without the item-by-item walk.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from ethnos_rules import MAX_DECISIONS, GameRecord, RecordError, glory, play_random, redact
from ethnos_rules._io import records
from ethnos_rules._io.records import MAX_ACTION_CHARS, record_schema
from strategies import json_values


@pytest.fixture(scope="module")
def documents() -> list[dict[str, Any]]:
    """Records as parsed JSON: a whole game, the same with claims and metadata, and the game
    kept at one seat with claims (version 2)."""
    game = play_random(3, 4)
    whole = GameRecord.from_playthrough(game)
    claimed = GameRecord.from_playthrough(
        game, claimed_glory=glory(game.final), metadata={"table": ["kitchen", {"n": 2}]}
    )
    return [json.loads(r.to_json()) for r in (whole, claimed, redact(claimed, 1))]


def test_the_quick_check_knows_the_schemas_bounds() -> None:
    """RECORD: the limits the quick check and the Python checks use are the schema's."""
    actions = record_schema()["properties"]["actions"]
    assert actions["maxItems"] == MAX_DECISIONS
    assert actions["items"] == {"type": "string", "minLength": 1, "maxLength": MAX_ACTION_CHARS}
    assert records._action_lengths() == (1, MAX_ACTION_CHARS)


def test_a_valid_record_is_read_without_the_walk(
    documents: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECORD: a valid record never runs the whole schema (its walk of every decision was 94 %
    of reading a record)."""

    def walk(document: dict[str, Any]) -> RecordError | None:
        raise AssertionError("the whole schema ran on a valid record")

    monkeypatch.setattr(records, "_schema_problem", walk)
    for document in documents:
        record = GameRecord.from_json(json.dumps(document))
        assert GameRecord.from_json(record.to_json()) == record


# Values near the schema's bounds and of the wrong kinds, for any place in a record.
_EDGES = st.sampled_from(
    [
        *(0, 1, 2, 5, 6, 7, -1, 1000, 1001, 100_000, 100_001, 2.0, True, None, "", "x", [], {}),
        *("CEN", "ELF", "XYZ", "Althea", "optional", "mandatory", ["CEN"] * 5),
        *(["CEN", "DWA", "ELF", "GIA", "HAL"], [0, 1], [1, 2, 3], {"Althea": [1, 2]}),
        *({"placement": "mandatory"}, {"placement": 3}, {"merfolk_board": {"last_space": 0}}),
        *({"glory_tokens": [1] * 18}, {"nope": 1}),
    ]
)
_KEYS = st.sampled_from([*record_schema()["properties"], "extra", "snapshot"])
_ACTION_TEXTS = st.text(max_size=3) | st.sampled_from(
    ["x" * MAX_ACTION_CHARS, "x" * (MAX_ACTION_CHARS + 1), "\ud800"]
)


@st.composite
def broken(draw: st.DrawFn, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` with a few changes: a key set to a value near a bound or of the wrong kind (also
    inside the glory tokens, options and claims), a key removed, a decision replaced."""
    document = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["key", "drop", "action", "inside"]))
        if where == "key":
            document[draw(_KEYS)] = draw(_EDGES | json_values)
        elif where == "drop" and document:
            document.pop(draw(st.sampled_from(sorted(document))))
        elif where == "action" and isinstance(document.get("actions"), list):
            actions = document["actions"]
            if actions:
                actions[draw(st.integers(0, len(actions) - 1))] = draw(_ACTION_TEXTS)
        elif where == "inside":
            key = draw(st.sampled_from(["glory_tokens", "options", "claimed_glory", "tribes"]))
            inner = document.get(key)
            if isinstance(inner, dict):
                inner[draw(st.sampled_from([*inner, "Rhea", "placement", "x"]))] = draw(_EDGES)
            elif isinstance(inner, list) and inner:
                inner[draw(st.integers(0, len(inner) - 1))] = draw(_EDGES)
            else:
                document[key] = draw(_EDGES)
    return document


@given(data=st.data(), which=st.integers(0, 2))
def test_the_quick_answer_is_the_whole_schemas(
    documents: list[dict[str, Any]], data: st.DataObject, which: int
) -> None:
    """RECORD: on records broken anywhere the schema looks, the quick check says valid exactly
    when the whole schema finds no problem, and a refusal is the whole schema's (same words,
    same JSON path, same decision index)."""
    document = data.draw(broken(documents[which]))
    try:
        records.check_schema(document)
    except RecordError as err:
        refused: RecordError | None = err
    else:
        refused = None
    actions = document.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        return  # refused before the schema runs, as before
    if type(document.get("version")) is not int or document["version"] not in (1, 2):
        return  # refused before the schema runs, as before
    whole = records._schema_problem(document)
    event("valid" if whole is None else f"refused at {str(whole.path).split('[')[0]}")
    assert records._valid_at_once(document, actions) == (whole is None)
    if whole is None:
        assert refused is None
    else:
        assert refused is not None
        assert (str(refused), refused.path, refused.index) == (
            str(whole),
            whole.path,
            whole.index,
        )
