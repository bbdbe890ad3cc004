"""Validating an archive: folders and JSON-lines files, the summary line and exit codes, any
number of processes, and validate_many on a process pool and on a dask.distributed cluster."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from ethnos_rules import GameRecord, RecordError, play_random, validate, validate_many
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
    assert any("many.jsonl:2: INVALID: RECORD – " in line for line in lines)
    assert any("many.jsonl:4: valid" in line for line in lines)
    assert any("invalid-band.json: INVALID at decision 30" in line for line in lines)
    assert not any("notes.txt" in line for line in lines)


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
    assert "big.jsonl:2: INVALID: RECORD – the record is larger than the limit" in result.stdout


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
