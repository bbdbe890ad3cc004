"""Writers that lose nothing (issue 31): no command replaces a file unless given --force, none
writes onto its input (a symbolic or hard link to it included), every file goes through a
temporary name; simulate writes as it plays, in a bounded window, the same bytes on any
number of processes; redact and replay refuse a wrong claimed Glory as validate does."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import attrs
import pytest
from click.testing import Result

from ethnos_rules import GameRecord, RulesError, play_random, redact, validate
from ethnos_rules import cli as cli_module
from ethnos_rules._io import files
from helpers import EXAMPLES, run

T = TypeVar("T")
DATA = Path(__file__).resolve().parent / "data"
WRONG_CLAIM = DATA / "record-4p-wrong-claim.json"  # the review's repro: claims 1 2 3 4
TIE_SPLIT = EXAMPLES / "invalid-tie-split.json"
GAME = EXAMPLES / "valid-2p.json"


def refused(result: Result, *said: str) -> None:
    """A usage error (exit 2) saying ``said``, with no traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for words in said:
        assert words in result.output


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


# --- redact and replay on a wrong claimed Glory ---------------------------------------------


@pytest.mark.parametrize("record", [WRONG_CLAIM, TIE_SPLIT], ids=["repro", "tie-split"])
def test_redact_refuses_a_wrong_claimed_glory_and_writes_nothing(
    tmp_path: Path, record: Path
) -> None:
    """RECORD: as validate and replay, redact exits 1 on a record whose claimed Glory the
    rules refuse, says why, and writes no record carrying the wrong claim."""
    assert run("validate", str(record)).exit_code == 1
    out = tmp_path / "seat.json"
    result = run("redact", str(record), "--seat", "1", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "The claimed Glory is refused: SCORE" in result.stderr
    assert not out.exists() and no_temporary_files(tmp_path)
    to_stdout = run("redact", str(record), "--seat", "1")
    assert to_stdout.exit_code == 1 and to_stdout.stdout == ""


@pytest.mark.parametrize("record", [WRONG_CLAIM, TIE_SPLIT], ids=["repro", "tie-split"])
def test_replay_refuses_a_wrong_claimed_glory(tmp_path: Path, record: Path) -> None:
    told = run("replay", str(record))
    assert told.exit_code == 1
    assert told.stdout.splitlines()[-1].startswith("The claimed Glory is refused: SCORE")
    page = run("replay", str(record), "--html", str(tmp_path / "game.html"))
    assert page.exit_code == 1  # the page shows the refusal; the status says it too
    assert "SCORE" in page.stderr


def test_redact_keeps_a_right_claim() -> None:
    made = run("simulate", "-p", "3", "-s", "4", "--claim")
    assert made.exit_code == 0
    kept = run("redact", "-", "--seat", "2", input=made.stdout)
    assert kept.exit_code == 0, kept.output
    assert GameRecord.from_json(kept.stdout).claimed_glory is not None


# --- never over a file unless asked, never onto an input -------------------------------------


def test_simulate_replaces_a_file_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    out.write_text("precious")
    refused(
        run("simulate", "-p", "2", "-s", "1", "--out", str(out)),
        "already exists",
        "--force",
    )
    assert out.read_text() == "precious"
    assert run("simulate", "-p", "2", "-s", "1", "--out", str(out), "--force").exit_code == 0
    assert GameRecord.read(out).players == 2
    lines = tmp_path / "games.jsonl"
    lines.write_text("precious")
    refused(run("simulate", "-p", "2", "-s", "1", "-n", "2", "--out", str(lines)), "--force")
    assert lines.read_text() == "precious"
    assert (
        run("simulate", "-p", "2", "-s", "1", "-n", "2", "--out", str(lines), "--force").exit_code
        == 0
    )
    assert len(lines.read_text().splitlines()) == 2
    assert no_temporary_files(tmp_path)


def test_simulate_into_a_folder_holding_its_files_needs_force(tmp_path: Path) -> None:
    """RECORD: a folder that already holds a file the run would write is refused (naming
    some); other files in it do not matter; with --force the games replace them."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "game-7.json").write_text("another width: not a name this run writes")
    assert run("simulate", "-p", "2", "-s", "10", "-n", "3", "--out", str(folder)).exit_code == 0
    (folder / "game-11.json").write_text("precious")
    refused(
        run("simulate", "-p", "2", "-s", "5", "-n", "8", "--out", str(folder)),
        "already holds 3 of the files this run would write",
        "game-10.json, game-11.json, game-12.json",
        "--force",
    )
    assert (folder / "game-11.json").read_text() == "precious"
    assert run("simulate", "-p", "2", "-s", "13", "-n", "2", "--out", str(folder)).exit_code == 0
    forced = run("simulate", "-p", "2", "-s", "5", "-n", "8", "--out", str(folder), "--force")
    assert forced.exit_code == 0, forced.output
    assert GameRecord.read(folder / "game-11.json").metadata["seed"] == 11
    names = sorted(p.name for p in folder.iterdir())
    assert names == [*(f"game-{s:02}.json" for s in range(5, 15)), "game-7.json", "notes.txt"]


def test_redact_and_replay_replace_a_file_only_with_force(tmp_path: Path) -> None:
    out, page = tmp_path / "seat.json", tmp_path / "game.html"
    out.write_text("precious")
    page.write_text("precious")
    refused(run("redact", str(GAME), "--seat", "1", "--out", str(out)), "--force")
    refused(run("replay", str(GAME), "--html", str(page)), "'--html'", "--force")
    assert out.read_text() == page.read_text() == "precious"
    assert run("redact", str(GAME), "--seat", "1", "--out", str(out), "--force").exit_code == 0
    assert GameRecord.read(out).seat == 1
    assert run("replay", str(GAME), "--html", str(page), "--force").exit_code == 0
    assert page.read_text().startswith("<!")
    assert no_temporary_files(tmp_path)


@pytest.mark.parametrize("how", ["same", "dot", "symlink", "hardlink", "link-in"])
def test_nothing_is_written_onto_an_input_even_with_force(tmp_path: Path, how: str) -> None:
    """RECORD: ``redact g.json --seat 1 --out g.json`` is refused even with --force (it
    would lose the hidden cards for good), as is --out (or replay --html) naming the input
    through a symbolic or a hard link; the input is unchanged."""
    game = tmp_path / "g.json"
    game.write_bytes(GAME.read_bytes())
    source, target = str(game), str(game)
    if how == "dot":
        target = str(tmp_path / "." / "g.json")
    elif how == "symlink":
        (tmp_path / "link.json").symlink_to(game)
        target = str(tmp_path / "link.json")
    elif how == "hardlink":
        os.link(game, tmp_path / "hard.json")
        target = str(tmp_path / "hard.json")
    elif how == "link-in":  # the input read through a link, written at its real name
        (tmp_path / "link.json").symlink_to(game)
        source = str(tmp_path / "link.json")
    for extra in ([], ["--force"]):
        refused(
            run("redact", source, "--seat", "1", "--out", target, *extra),
            "never writes onto its input",
        )
        refused(run("replay", source, "--html", target, *extra), "never writes onto its input")
    assert game.read_bytes() == GAME.read_bytes()


def test_check_target_reasons(tmp_path: Path) -> None:
    there = tmp_path / "there.json"
    there.write_text("x")
    files.check_target(str(tmp_path / "new.json"), [str(there), "-"])
    files.check_target(str(there), ["-"], force=True)
    with pytest.raises(files.WriteRefused, match="already exists"):
        files.check_target(str(there), ["-"])
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere")
    with pytest.raises(files.WriteRefused, match="already exists"):
        files.check_target(str(tmp_path / "dangling.json"))
    with pytest.raises(files.WriteRefused, match="even with --force"):
        files.check_target(str(there), [str(there)], force=True)


# --- through a temporary name -----------------------------------------------------------------


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old")
    with pytest.raises(RuntimeError), files.open_text(str(target)) as handle:
        handle.write("half a record")
        assert target.read_text() == "old"
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    files.write_text(str(target), "new\n")
    assert target.read_text() == "new\n"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask  # as open() makes files
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


@pytest.mark.parametrize("kind", ["lines.jsonl", "folder"])
def test_an_interrupted_dataset_leaves_no_half_file(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RECORD: a run that fails midway leaves no .jsonl file at all (it is renamed into place
    only at the end) and, in a folder, only whole records; no temporary file either."""
    played = cli_module._simulated

    def fails_at_seed_7(setup: Any, seed: int) -> GameRecord:
        if seed == 7:
            raise KeyboardInterrupt
        return played(setup, seed)

    monkeypatch.setattr(cli_module, "_simulated", fails_at_seed_7)
    out = tmp_path / kind
    result = run("simulate", "-p", "2", "-s", "1", "-n", "10", "-j", "1", "--out", str(out))
    assert result.exit_code != 0
    assert no_temporary_files(tmp_path)
    if kind == "folder":
        names = sorted(p.name for p in out.iterdir())
        assert names == [f"game-{s:02}.json" for s in range(1, 5)]  # (games go by fours)
        assert all(GameRecord.read(out / name) for name in names)
    else:
        assert not out.exists()


# --- simulate: as it goes, bounded, the same bytes -------------------------------------------


def test_simulate_gives_the_same_bytes_on_one_process_and_two(tmp_path: Path) -> None:
    """RECORD: the records, written as they are played, are the same bytes in the same order
    with -j 1 and -j 2, in a .jsonl file and in a folder."""
    args = ["simulate", "-p", "3", "-s", "5", "-n", "9", "--claim"]
    for jobs in ("1", "2"):
        assert run(*args, "-j", jobs, "--out", str(tmp_path / f"j{jobs}.jsonl")).exit_code == 0
        assert run(*args, "-j", jobs, "--out", str(tmp_path / f"j{jobs}")).exit_code == 0
    one = (tmp_path / "j1.jsonl").read_bytes()
    assert one == (tmp_path / "j2.jsonl").read_bytes()
    for seed in range(5, 14):
        name = f"game-{seed:02}.json"
        assert (tmp_path / "j1" / name).read_bytes() == (tmp_path / "j2" / name).read_bytes()
        single = run("simulate", "-p", "3", "-s", str(seed), "--claim")
        assert single.stdout.encode() == (tmp_path / "j1" / name).read_bytes()
    texts = [GameRecord.from_json(line) for line in one.decode().splitlines()]
    assert [r.metadata["seed"] for r in texts] == list(range(5, 14))


class LazyPool(Executor):
    """A pool of processes as simulate would start, playing each chunk here when its result
    is asked for, and counting the chunks on their way."""

    made: ClassVar[list[LazyPool]] = []

    def __init__(self, max_workers: int) -> None:
        self._max_workers = max_workers
        self.in_flight = self.most = 0
        LazyPool.made.append(self)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        pool = self

        class Lazy(Future[T]):
            def result(self, timeout: float | None = None) -> T:
                pool.in_flight -= 1
                return fn(*args, **kwargs)

        return Lazy()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass


def test_simulate_keeps_a_bounded_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RECORD: simulate --games sends its games out a few chunks at a time (two per worker),
    never all of them up front, and writes the same records as on one process."""
    monkeypatch.setattr(cli_module, "ProcessPoolExecutor", LazyPool)
    monkeypatch.setattr(cli_module, "_cores", lambda: 2)
    LazyPool.made.clear()
    out = tmp_path / "many.jsonl"
    assert run("simulate", "-p", "2", "-s", "1", "-n", "40", "--out", str(out)).exit_code == 0
    (pool,) = LazyPool.made
    assert pool._max_workers == 2 and pool.most == 4  # 10 chunks of 4 games, 4 on their way
    alone = tmp_path / "alone.jsonl"
    assert (
        run("simulate", "-p", "2", "-s", "1", "-n", "40", "-j", "1", "--out", str(alone)).exit_code
        == 0
    )
    assert out.read_bytes() == alone.read_bytes()
    assert len(LazyPool.made) == 1
    assert (
        run(
            "simulate", "-p", "2", "-s", "1", "-n", "3", "-j", "9", "--out", str(tmp_path / "a")
        ).exit_code
        == 0
    )
    assert len(LazyPool.made) == 1  # 3 games are one chunk: no pool


def test_the_help_tells_force_and_the_cap() -> None:
    for command in ("simulate", "redact", "replay"):
        assert "--force" in run(command, "--help").output
    for command in ("simulate", "validate"):
        assert "never more than the cores" in run(command, "--help").output


def test_standard_input_read_from_the_output_is_refused(tmp_path: Path) -> None:
    """'redact - --out g.json < g.json' and 'replay - --html g.json < g.json': standard input
    reading the file named as the output is an input too, refused even with --force."""
    record = tmp_path / "g.json"
    record.write_text(GameRecord.from_playthrough(play_random(2, seed=1)).to_json())
    before = record.read_bytes()
    for args in (["redact", "-", "--seat", "1", "--out"], ["replay", "-", "--html"]):
        with record.open("rb") as stdin:
            done = subprocess.run(
                [sys.executable, "-m", "ethnos_rules", *args, str(record), "--force"],
                stdin=stdin,
                capture_output=True,
                text=True,
                check=False,
            )
        assert done.returncode == 2, done.stderr
        assert "is standard input, which reads it" in done.stderr
        assert record.read_bytes() == before


def test_redact_to_the_seat_a_record_is_kept_at_checks_it(tmp_path: Path) -> None:
    """redact of a record kept at seat N to seat N checks it as any record (it returned it
    unchecked): a refused decision is exit 1 and nothing is written."""
    whole = GameRecord.from_playthrough(play_random(2, seed=1))
    mine = redact(whole, 1)
    bad = attrs.evolve(mine, actions=("keep ?", *mine.actions[1:]))
    source = tmp_path / "mine.json"
    source.write_text(bad.to_json())
    out = tmp_path / "out.json"
    result = run("redact", str(source), "--seat", "1", "--out", str(out))
    assert result.exit_code == 1 and not out.exists()
    with pytest.raises(RulesError) as refused:
        redact(bad, 1)
    assert refused.value.rule == validate(bad).rule
    assert redact(mine, 1) == mine
