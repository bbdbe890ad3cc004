"""Archive runs that never break (issue 31): a defect of ours on one record is that record's
report and the run goes on (here and on worker processes); work goes out in a bounded window;
-j is capped by the cores and the work; folder entries that are not regular files are
reported, never opened."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from ethnos_rules import GameRecord, play_random, validate, validate_files, validate_many
from ethnos_rules import cli as cli_module
from ethnos_rules._io import archive
from ethnos_rules._io.validation import ValidationReport
from helpers import EXAMPLES, ROOT, run

T = TypeVar("T")
VALID = sorted(EXAMPLES.glob("valid-*.json"))
FORKS = multiprocessing.get_start_method() == "fork"  # a patch reaches the workers then


def _planted(record: GameRecord) -> ValidationReport:
    """validate, with a defect planted: it fails on every 3-player record."""
    if record.players == 3:
        raise IndexError("planted: list index out of range")
    return validate(record)


def _archive(tmp_path: Path, copies: int = 3) -> Path:
    """A folder of valid records (2 to 6 players), ``copies`` of each, and a .jsonl file."""
    root = tmp_path / "archive"
    root.mkdir()
    for copy in range(copies):
        for path in VALID:
            shutil.copy(path, root / f"{copy}-{path.name}")
    lines = [json.dumps(json.loads(path.read_text())) for path in VALID[:3]]
    (root / "z.jsonl").write_text("\n".join(lines) + "\n")
    return root


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_defect_on_one_record_is_its_report_and_the_run_goes_on(
    tmp_path: Path, jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECORD: an exception that is not a RulesError (a defect of ours) is reported for its
    record as ERROR: INTERNAL with the exception, every other record is still reported, and
    the exit status is 4; on one process and on two."""
    if jobs == "2" and not FORKS:
        pytest.skip("the planted defect reaches worker processes only when they are forked")
    monkeypatch.setattr(archive, "validate", _planted)
    monkeypatch.setattr(cli_module, "_cores", lambda: 2)
    root = _archive(tmp_path)
    threes = sum(GameRecord.read(p).players == 3 for p in VALID)
    result = run("validate", "-j", jobs, str(root))
    assert result.exit_code == 4, result.output
    *lines, last = result.stdout.splitlines()
    total = 3 * len(VALID) + 3
    assert len(lines) == total  # every record is told
    failed = [line for line in lines if "ERROR: INTERNAL – " in line]
    in_lines = [GameRecord.read(p).players == 3 for p in VALID[:3]]
    assert len(failed) == 3 * threes + sum(in_lines)
    assert all("IndexError: planted: list index out of range" in line for line in failed)
    assert all("please report it" in line for line in failed)
    for number, three in enumerate(in_lines, start=1):
        told = next(line for line in lines if line.startswith(f"{root / 'z.jsonl'}:{number}: "))
        assert ("ERROR: INTERNAL" in told) == three and ("valid:" in told) != three
    valid = total - len(failed)
    assert last == (
        f"{valid} valid, 0 invalid, 0 unreadable, {len(failed)} failed"
        " (a defect of ethnos-rules: please report it)"
    )
    as_json = run("validate", "-j", jobs, "--json", str(root))
    assert as_json.exit_code == 4
    reports = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert len(reports) == total
    assert sum(r["rule"] == "INTERNAL" and not r["accepted"] for r in reports) == len(failed)


def test_exit_4_wins_over_invalid_and_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECORD: the referee failing says more than a bad record: 4, with every count told."""
    monkeypatch.setattr(archive, "validate", _planted)
    (tmp_path / "bad.json").write_text("{not json")
    three = next(p for p in VALID if GameRecord.read(p).players == 3)
    result = run(
        "validate", "-j", "1", str(three), str(EXAMPLES / "invalid-band.json"), str(tmp_path)
    )
    assert result.exit_code == 4, result.output
    assert result.stdout.splitlines()[-1].startswith("0 valid, 1 invalid, 1 unreadable, 1 failed")


@pytest.mark.parametrize("pool", [False, True])
def test_validate_many_reports_a_defect_on_one_record(
    pool: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECORD: validate_many (here and on a process pool) gives every record its report; the
    one the referee fails on gets rule INTERNAL with the exception's type and message."""
    if pool and not FORKS:
        pytest.skip("the planted defect reaches worker processes only when they are forked")

    def planted(record: GameRecord) -> ValidationReport:
        if record.metadata.get("seed") == 3:
            raise AssertionError("planted")
        return validate(record)

    monkeypatch.setattr(archive, "validate", planted)
    records = [
        GameRecord.from_playthrough(play_random(2, seed), metadata={"seed": seed})
        for seed in range(9)
    ]
    if pool:
        with ProcessPoolExecutor(2) as executor:
            reports = validate_many(records, executor=executor)
    else:
        reports = validate_many(records)
    assert [r.ok for r in reports] == [seed != 3 for seed in range(9)]
    assert reports[3].rule == archive.INTERNAL
    assert reports[3].reason is not None and "(AssertionError: planted)" in reports[3].reason


def _dies_on_seed_5(record: GameRecord) -> ValidationReport:
    if record.metadata.get("seed") == 5:
        os._exit(9)  # a worker process killed (out of memory, a crash in C)
    return validate(record)


@pytest.mark.skipif(not FORKS, reason="the planted crash reaches worker processes when forked")
def test_a_worker_that_dies_breaks_no_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """RECORD: when a worker process dies, validate_many still gives every record a report:
    those done before, and an INTERNAL report (BrokenProcessPool) for the rest."""
    monkeypatch.setattr(archive, "validate", _dies_on_seed_5)
    records = [
        GameRecord.from_playthrough(play_random(2, seed), metadata={"seed": seed})
        for seed in range(12)
    ]
    with ProcessPoolExecutor(1) as executor:
        reports = validate_many(records, executor=executor)
    assert len(reports) == 12
    broken = [not r.ok for r in reports]
    assert broken[5] and broken == sorted(broken)  # (the first chunk may come back in time)
    for report in reports[5:]:
        assert report.rule == archive.INTERNAL and "BrokenProcessPool" in (report.reason or "")


def _items_then(fail_on: int) -> Callable[[Sequence[int]], list[int]]:
    def work(chunk: Sequence[int]) -> list[int]:
        if fail_on in chunk:
            raise RuntimeError(f"chunk with {fail_on}")
        return [item * 10 for item in chunk]

    return work


def test_a_chunk_that_fails_is_done_again_one_by_one() -> None:
    """in_chunks: when a chunk fails, its other items still get their results; without a
    ``failed`` function the error is raised."""
    got = list(archive.in_chunks(_items_then(5), range(9), None, 4, lambda i, e: -i))
    assert got == [(i, -i if i == 5 else i * 10) for i in range(9)]
    with pytest.raises(RuntimeError):
        list(archive.in_chunks(_items_then(5), range(9), None, 4))


class CountingExecutor(Executor):
    """Runs each task when its result is asked for, and counts the tasks submitted and not
    yet collected."""

    def __init__(self, max_workers: int | None) -> None:
        if max_workers is not None:
            self._max_workers = max_workers
        self.in_flight = 0
        self.most = 0
        self.submitted = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.submitted += 1
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        outer = self

        class Lazy(Future[T]):
            def result(self, timeout: float | None = None) -> T:
                outer.in_flight -= 1
                try:
                    return fn(*args, **kwargs)
                finally:
                    self.set_result(None)  # type: ignore[arg-type]

        return Lazy()


@pytest.mark.parametrize("workers", [1, 3, None])
def test_the_window_is_bounded(workers: int | None) -> None:
    """in_chunks keeps at most two chunks per worker on their way (WINDOW when the executor
    does not say), and reads the items no further ahead: an endless stream works."""
    executor = CountingExecutor(workers)
    read = 0

    def endless() -> Iterator[int]:
        nonlocal read
        while True:
            read += 1
            yield read

    results = archive.in_chunks(lambda chunk: list(chunk), endless(), executor, 4)
    for _ in range(1000):
        next(results)
    most = 2 * workers if workers else archive.WINDOW
    assert executor.most == most
    assert read <= 1000 + 4 * most


def test_validate_caps_the_processes_by_the_cores_and_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECORD: -j 1000 on 2 records starts no process at all; on 21 records with 3 cores, 3;
    on 5 records (2 chunks) with 8 cores, 2."""
    started: list[int] = []

    class Pool(CountingExecutor):
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            super().__init__(max_workers)

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            pass

    monkeypatch.setattr(cli_module, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(cli_module, "_cores", lambda: 3)
    two = [str(p) for p in VALID[:2]]
    assert run("validate", "-j", "1000", *two).exit_code == 0
    assert started == []
    many = [str(VALID[i % len(VALID)]) for i in range(21)]
    result = run("validate", "-j", "1000", *many)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "21 valid, 0 invalid, 0 unreadable"
    assert started == [3]
    monkeypatch.setattr(cli_module, "_cores", lambda: 8)
    assert run("validate", *many[:5]).exit_code == 0
    assert started == [3, 2]
    assert run("validate", "-j", "1", *many).exit_code == 0
    assert started == [3, 2]
    assert cli_module._workers(1000, 400) == 8 and cli_module._workers(5, 400) == 5
    assert cli_module._workers(None, 9) == 3 and cli_module._workers(None, 0) == 1


def test_the_cores_are_those_this_process_may_use() -> None:
    cores = cli_module._cores()
    assert 1 <= cores <= (os.cpu_count() or 1)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_pipes_devices_and_dangling_links_in_a_folder_are_reported(tmp_path: Path) -> None:
    """RECORD: a *.json entry of a folder that is not a regular file is reported unreadable,
    with why, and a named pipe is never opened (that would wait for a writer)."""
    root = tmp_path / "archive"
    root.mkdir()
    shutil.copy(VALID[0], root / "a.json")
    os.mkfifo(root / "b-pipe.json")
    (root / "c-device.json").symlink_to(os.devnull)
    (root / "d-dangling.jsonl").symlink_to(root / "nowhere.json")
    (root / "e-folder.json").mkdir()  # a folder so named is searched, not reported
    shutil.copy(VALID[1], root / "e-folder.json" / "inner.json")
    command = [sys.executable, "-m", "ethnos_rules.cli", "validate", "-j", "1", str(root)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 3, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "2 valid, 0 invalid, 3 unreadable"
    told = {line.split(": ", 1)[0]: line for line in lines[:-1]}
    assert "it is a named pipe (FIFO), not a regular file" in told[str(root / "b-pipe.json")]
    assert "it is a character device, not a regular file" in told[str(root / "c-device.json")]
    dangling = told[str(root / "d-dangling.jsonl")]
    assert "UNREADABLE: RECORD – cannot read the record file: it is a symbolic link to" in dangling
    assert "nowhere.json" in dangling
    found = dict(validate_files([str(root)]))
    assert [r.readable for r in found.values()] == [True, False, False, False, True]


@pytest.mark.parametrize("command", ["replay", "redact"])
def test_a_defect_on_the_record_of_one_command_is_told_not_traced(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """replay and redact, which read one record, tell a failure of the referee itself as
    validate does in an archive run (ERROR: INTERNAL with the exception, exit status 4), not
    with a traceback."""

    def broken(*_args: object, **_kwargs: object) -> None:
        raise IndexError("planted: list index out of range")

    monkeypatch.setattr(cli_module, "Narrator" if command == "replay" else "redact", broken)
    path = str(VALID[0])
    args = [command, path] if command == "replay" else [command, path, "--seat", "0"]
    result = run(*args)
    assert result.exit_code == 4, result.output
    assert f"{path}: ERROR: INTERNAL – the referee failed on this record (IndexError: planted" in (
        result.output
    )
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # the exit status, nothing raised through
