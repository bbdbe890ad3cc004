"""Validating an archive: folders and JSON-lines files, the summary line and exit codes, any
number of processes, and validate_many on a process pool and on a dask.distributed cluster."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    GameRecord,
    InvalidStateError,
    RecordError,
    play_random,
    validate,
    validate_files,
    validate_many,
)
from helpers import EXAMPLES, run

VALID = sorted(EXAMPLES.glob("valid-*.json"))
INVALID = EXAMPLES / "invalid-band.json"


def _archive(tmp_path: Path) -> Path:
    """A folder of records: valid files, one invalid, in a subfolder, and a JSON-lines file
    with a bad line."""
    root = tmp_path / "archive"
    (root / "deeper").mkdir(parents=True)
    for path in VALID[:3]:
        shutil.copy(path, root / path.name)
    shutil.copy(INVALID, root / "deeper" / INVALID.name)
    lines = [json.dumps(json.loads(path.read_text())) for path in VALID[:2]]
    (root / "deeper" / "many.jsonl").write_text(lines[0] + "\n{not json\n\n" + lines[1] + "\n")
    (root / "notes.txt").write_text("not a record")
    return root


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_folder_with_json_lines(tmp_path: Path, jobs: str) -> None:
    result = run("validate", "-j", jobs, str(_archive(tmp_path)))
    assert result.exit_code == 3, result.output  # a line cannot be read
    *lines, last = result.stdout.splitlines()
    assert last == "5 valid, 1 invalid, 1 unreadable"
    assert any("many.jsonl:2: UNREADABLE: RECORD – " in line for line in lines)
    assert any("many.jsonl:4: valid" in line for line in lines)
    assert any("invalid-band.json:41: INVALID at decision 30" in line for line in lines)
    assert not any("notes.txt" in line for line in lines)


def test_validate_files_gives_the_commands_reports_from_python(tmp_path: Path) -> None:
    """RECORD: validate_files reads an archive as ``ethnos-rules validate`` does and gives the
    same reports, in the same order, here and on a process pool; unreadable input is a
    report, not an exception; a single path instead of a list is refused."""
    archive = _archive(tmp_path)
    told = run("validate", "-j", "1", str(archive)).stdout.splitlines()[:-1]
    with ProcessPoolExecutor(2) as pool:
        for found in (validate_files([archive]), validate_files([str(archive)], executor=pool)):
            assert [
                f"{where}{f':{report.line}' if report.line else ''}: {report.summary()}"
                for where, report in found
            ] == told
    assert [r.readable for _, r in validate_files([tmp_path / "none.json"])] == [False]
    with pytest.raises(RecordError, match="a list of paths"):
        validate_files(str(archive))
    for bad in ([str(archive), 5], [b"examples"]):
        with pytest.raises(RecordError, match="not text"):
            validate_files(bad)  # type: ignore[arg-type]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert [(r.readable, r.reason) for _, r in validate_files([empty])] == [
        (False, "the folder holds no .json or .jsonl file")
    ]


def test_the_same_reports_on_one_core_and_on_several(tmp_path: Path) -> None:
    archive = str(_archive(tmp_path))
    one, two = run("validate", "-j", "1", archive), run("validate", "-j", "2", archive)
    assert one.stdout == two.stdout


def test_exit_codes_and_quiet(tmp_path: Path) -> None:
    valid = [str(path) for path in VALID]
    assert run("validate", *valid).exit_code == 0
    assert run("validate", *valid, str(INVALID)).exit_code == 1
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert run("validate", *valid, str(INVALID), str(broken)).exit_code == 3
    quiet = run("validate", "-q", *valid, str(INVALID))
    assert quiet.stdout.splitlines() == [
        next(line for line in run("validate", str(INVALID)).stdout.splitlines()),
        f"{len(valid)} valid, 1 invalid, 0 unreadable",
    ]
    as_json = run("validate", "--json", *valid)
    assert [json.loads(line)["ok"] for line in as_json.stdout.splitlines()] == [True] * len(valid)


def test_a_line_too_long_is_refused_and_the_others_read(tmp_path: Path) -> None:
    from ethnos_rules import MAX_RECORD_BYTES

    path = tmp_path / "big.jsonl"
    good = json.dumps(json.loads(VALID[0].read_text()))
    with path.open("w") as f:
        f.write(good + "\n")
        f.write('"' + "x" * (MAX_RECORD_BYTES + 10) + '"\n')
        f.write(good + "\n")
    result = run("validate", str(path))
    assert result.stdout.splitlines()[-1] == "2 valid, 0 invalid, 1 unreadable"
    assert "big.jsonl:2: UNREADABLE: RECORD – the record is larger than the limit" in result.stdout


def _records(n: int) -> list[GameRecord]:
    return [GameRecord.from_playthrough(play_random(2 + seed % 3, seed)) for seed in range(n)]


def test_validate_many_in_order_here_and_on_a_process_pool() -> None:
    records = _records(40)
    records[7] = GameRecord.read(INVALID)
    here = validate_many(records)
    with ProcessPoolExecutor(2) as pool:
        there = validate_many(records, executor=pool)
    assert here == there == [validate(record) for record in records]
    assert [r.ok for r in here].count(False) == 1 and not here[7].ok
    with pytest.raises(RecordError, match="takes GameRecords, not str"):
        validate_many(["a record"])  # type: ignore[list-item]


def test_validate_many_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    records = _records(20)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        reports = validate_many(records, executor=client.get_executor())
    assert reports == [validate(record) for record in records]


def test_simulate_writes_datasets(tmp_path: Path) -> None:
    folder, lines = tmp_path / "games", tmp_path / "games.jsonl"
    assert (
        run("simulate", "-p", "3", "-s", "5", "--games", "6", "--out", str(folder)).exit_code == 0
    )
    assert sorted(p.name for p in folder.iterdir()) == [f"game-{s:02}.json" for s in range(5, 11)]
    made = run("simulate", "-p", "3", "-s", "5", "-n", "6", "-j", "2", "--out", str(lines))
    assert made.exit_code == 0, made.output
    texts = lines.read_text().splitlines()
    assert [GameRecord.from_json(t) for t in texts] == [
        GameRecord.read(folder / f"game-{s:02}.json") for s in range(5, 11)
    ]
    checked = run("validate", str(folder), str(lines))
    assert checked.stdout.splitlines()[-1] == "12 valid, 0 invalid, 0 unreadable"
    assert run("simulate", "-p", "3", "-s", "5", "--games", "2").exit_code == 2  # no --out


def test_replay_agrees_with_validate_on_claimed_glory() -> None:
    result = run("replay", str(EXAMPLES / "invalid-tie-split.json"))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1].startswith("The claimed Glory is refused: SCORE-K-3")
    assert run("replay", str(VALID[0])).exit_code == 0


def test_the_version() -> None:
    from importlib.metadata import version

    import ethnos_rules

    assert ethnos_rules.__version__ == version("ethnos-rules")
    assert run("--version").stdout.strip() == f"ethnos-rules, version {ethnos_rules.__version__}"


# --- bounded resources (each input within the limits is refused quickly and in little memory)


def _bounded(call: object, seconds: float = 5.0, megabytes: float = 300.0) -> BaseException:
    """Run ``call``, which must raise; return what it raised, checking time and memory (loose
    bounds, so as not to flake on a busy machine)."""
    import time
    import tracemalloc

    tracemalloc.start()
    start = time.perf_counter()
    try:
        call()  # type: ignore[operator]
    except Exception as err:
        raised: BaseException = err
    else:
        raise AssertionError("no refusal")
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert time.perf_counter() - start < seconds
    assert peak < megabytes * 2**20
    return raised


def test_a_snapshot_field_of_8_million_characters() -> None:
    from ethnos_rules import state_from_json, state_to_json

    snapshot = json.loads(state_to_json(list(play_random(4, seed=2).states())[200]))
    for field in ("row", "tribes", "seats", "history"):
        bad = json.dumps({**snapshot, field: "x" * 8_000_000})
        error = _bounded(lambda text=bad: state_from_json(text))
        assert isinstance(error, RecordError) and error.path == f"$.{field}"
        assert "expected a list, found str" in error.reason
    many = json.dumps({**snapshot, "row": [1] * 1_000_000})
    error = _bounded(lambda: state_from_json(many))
    assert isinstance(error, RecordError) and error.path == "$.row[0]"


def test_the_first_of_many_non_text_decisions_is_named() -> None:
    text = json.dumps({"version": 1, "players": 3, "actions": ["pass", *range(99_999)]})
    error = _bounded(lambda: GameRecord.from_json(text))
    assert isinstance(error, RecordError) and error.path == "$.actions[1]"


def test_standard_input_is_read_no_further_than_the_limit() -> None:
    from ethnos_rules import MAX_RECORD_BYTES

    result = run("validate", "-", input=b" " * (MAX_RECORD_BYTES + 5_000_000))
    assert result.exit_code == 3
    assert "larger than the limit of 8 MiB" in result.stdout


def test_snapshots_whose_age_summaries_do_not_fit_the_age() -> None:
    from ethnos_rules import state_from_json, state_to_json

    states = list(play_random(4, seed=3).states())
    second = json.loads(state_to_json(next(s for s in states if s.age == 2)))
    third = json.loads(state_to_json(next(s for s in states if s.age == 3)))
    over = json.loads(state_to_json(states[-1]))
    for data, kept in ((second, []), (third, third["history"][:1])):
        with pytest.raises(RecordError, match=r"\$\.history: .* must be kept, but .* \(END-6\)"):
            state_from_json(json.dumps({**data, "history": kept}))
    with pytest.raises(InvalidStateError):  # a finished game lacking an Age's summary
        state_from_json(json.dumps({**over, "history": over["history"][:2]}))
    assert state_from_json(state_to_json(states[-1])) == states[-1]


def test_reports_say_where_in_game_terms() -> None:
    """A refusal names the Age, the turn within it and the seat, as well as the decision's
    index and JSON path; the turn is the one the refused decision begins or goes on."""
    report = validate(GameRecord.read(INVALID))
    assert (report.index, report.path, report.age, report.turn, report.to_move) == (
        30,
        "$.actions[30]",
        1,
        5,
        1,
    )
    assert report.summary().startswith(
        "INVALID at decision 30 (Age I, turn 5: 'band *GIA-red HAL-gray'): BAND-2"
    )
    placement = validate(GameRecord.read(EXAMPLES / "invalid-2p-placement.json"))
    assert (placement.age, placement.turn) == (1, 41)  # a follow-up of turn 41's band
    kept = validate(GameRecord.read(EXAMPLES / "invalid-kept-at-seat-1.json"))
    assert (kept.age, kept.turn, kept.seat) == (1, 4, 1)


def test_reviewed_edges_of_the_archive(tmp_path: Path) -> None:
    """An all-blank .jsonl holds no record (exit 3); a bad setup leaves an existing dataset
    untouched; a record of exactly the size limit reads the same from .json and .jsonl."""
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n  \n")
    result = run("validate", str(blank))
    assert result.exit_code == 3 and "holds no record" in result.stdout
    data = tmp_path / "ds.jsonl"
    assert run("simulate", "-p", "2", "-s", "1", "-n", "2", "--out", str(data)).exit_code == 0
    before = data.read_bytes()
    refused = run(
        "simulate", "-p", "2", "-s", "1", "-n", "2", "--tribes", "XYZ", "--out", str(data)
    )
    assert refused.exit_code == 2 and data.read_bytes() == before


def test_a_failure_is_told_at_the_line_of_the_file_it_is_on(tmp_path: Path) -> None:
    """A record on several lines: its refused decision, its wrong claim and its unreadable
    part are each told at FILE:LINE, the line they are written on; a record on one line (a
    line of a .jsonl file) has no line of its own."""
    game = play_random(3, 5)
    record = GameRecord.from_playthrough(game, claimed_glory=[p.glory for p in game.final.players])
    data = json.loads(record.to_json())
    wrong_claim = {**data, "claimed_glory": [g + 1 for g in data["claimed_glory"]]}
    refused = {**data, "actions": [*data["actions"][:40], "recruit deck", "place Althea"]}
    unreadable = {**data, "players": 9}
    cases = {"claim": wrong_claim, "refused": refused, "unreadable": unreadable}
    for name, doc in cases.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(doc, indent=1))
    (tmp_path / "one-line.json").write_text(json.dumps(refused))
    reports = dict(validate_files([tmp_path]))
    for name, doc in cases.items():
        where = str(tmp_path / f"{name}.json")
        report = reports[where]
        lines = json.dumps(doc, indent=1).splitlines()
        assert report.line is not None and not report.ok, name
        written = lines[report.line - 1]
        if report.index is not None:  # the refused decision's own line
            assert written.strip().rstrip(",") == json.dumps(doc["actions"][report.index])
        else:  # the key the path names
            assert report.path is not None
            assert written.strip().startswith(f'"{report.path.removeprefix("$.")}":')
        assert f"{where}:{report.line}: " in run("validate", "-j", "1", where).stdout
    assert reports[str(tmp_path / "one-line.json")].line is None
    assert all(r.line is None for _, r in validate_files(VALID))


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda kids: (
            st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=4), kids, max_size=4)
        ),
        max_leaves=12,
    ),
    st.integers(0, 3),
    st.data(),
)
def test_line_of_finds_the_line_a_value_begins_on(document: object, indent: int, data: Any) -> None:
    """Property: for any JSON document and any path in it, line_of gives the line where the
    value begins, as the document written with a marker in its place shows."""
    from ethnos_rules._io.jsonio import json_path, line_of

    path: list[str | int] = []
    node = document
    while isinstance(node, list | dict) and node and data.draw(st.booleans()):
        step = data.draw(
            st.sampled_from(range(len(node)) if isinstance(node, list) else sorted(node))
        )
        path.append(step)
        node = node[step]
    marked = _replaced(document, path, "@@marker@@")
    text = json.dumps(document, indent=indent or None)
    expected = (
        next(
            n
            for n, line in enumerate(json.dumps(marked, indent=indent or None).splitlines(), 1)
            if "@@marker@@" in line
        )
        if path
        else 1
    )
    assert line_of(text, json_path(path)) == expected
    assert line_of(text, json_path([*path, "no such key"])) is None


def _replaced(document: Any, path: list[str | int], value: object) -> Any:
    if not path:
        return value
    head, *rest = path
    if isinstance(document, list):
        return [(_replaced(v, rest, value) if i == head else v) for i, v in enumerate(document)]
    return {k: (_replaced(v, rest, value) if k == head else v) for k, v in document.items()}


def test_a_file_name_with_nul_is_an_unreadable_record() -> None:
    """RECORD: a name no file can have is reported, as a missing file is, not raised."""
    reports = [r.reason for _, r in validate_files(["a\x00b.json", "a\x00b.jsonl"])]
    assert reports == ["cannot read the record file: its name holds NUL"] * 2
    with pytest.raises(RecordError, match="its name holds NUL"):
        GameRecord.read("a\x00b.json")
