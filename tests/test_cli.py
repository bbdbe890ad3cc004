"""The ``ethnos-rules`` command line (issue 3): validate, simulate, replay; exit codes; and the
narration replay prints (BAND-5 size tests, RECRUIT-3/4 Dragons, SCORE-K-3 tie splits)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from click.testing import Result

from ethnos_rules import (
    GameRecord,
    Kingdom,
    Options,
    PlayBand,
    apply,
    glory,
    narrate,
    parse_action,
    play_random,
    redact,
    validate,
)
from ethnos_rules._text import rulebook
from helpers import EXAMPLES, ROOT, SIX_TRIBES, run

VALID = sorted(EXAMPLES.glob("valid-*.json"))
INVALID = sorted(EXAMPLES.glob("invalid-*.json"))
EXAMPLE = EXAMPLES / "valid-2p.json"


def clean_failure(result: Result, status: int) -> None:
    """Exit status ``status``, no Python exception escaping, no traceback printed."""
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output


# --- help -----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["validate"], ["simulate"], ["replay"]])
def test_help(command: list[str]) -> None:
    """RECORD: every command explains itself with --help and exits 0."""
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output


def test_unknown_command_is_a_usage_error() -> None:
    """RECORD: usage errors exit with status 2."""
    assert run("referee").exit_code == 2
    assert run("validate").exit_code == 2  # no FILE


# --- validate ---------------------------------------------------------------------------------


def test_validate_valid_files() -> None:
    """GAME-1: valid records print one "valid" line each, then the counts; exit status 0."""
    result = run("validate", *map(str, VALID))
    assert result.exit_code == 0, result.output
    *lines, last = result.stdout.splitlines()
    assert len(lines) == len(VALID) and last == f"{len(VALID)} valid, 0 invalid, 0 unreadable"
    assert all(re.search(r": valid( \(as seen from seat \d\))?: ", line) for line in lines)
    assert all("complete" in line for line in lines)


def test_validate_an_invalid_file_fails() -> None:
    """BAND-2: an invalid record prints its index, rule and reason; exit status 1."""
    result = run("validate", str(VALID[0]), str(EXAMPLES / "invalid-band.json"))
    assert result.exit_code == 1
    line = result.stdout.splitlines()[1]
    assert "INVALID at decision 30" in line and "BAND-2" in line and "legal:" in line


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_each_invalid_example_exits_1(path: Path) -> None:
    """TURN-2, BAND-2, BAND-5, SCORE-K-3, CHANCE: each invalid example is refused with its rule."""
    rule = GameRecord.read(path).metadata["broken"]["rule"]
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert f": {rule} – " in result.stdout


def test_validate_json_lines() -> None:
    """RECORD: --json prints one JSON report per file."""
    files = [str(VALID[0]), str(EXAMPLES / "invalid-hand-limit.json")]
    result = run("validate", "--json", *files)
    assert result.exit_code == 1
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["file"] for r in reports] == files
    assert reports[0]["ok"] and reports[0]["complete"] and reports[0]["glory"]
    assert not reports[1]["ok"] and reports[1]["rule"] == "TURN-2"
    assert reports[1]["index"] == GameRecord.read(files[1]).metadata["broken"]["index"]
    assert isinstance(reports[1]["legal"], list) and reports[1]["legal_count"] > 10


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "the record is empty"),
        ("{not json", "not valid JSON"),
        ('{"version": 7, "players": 4, "actions": []}', "unknown record version 7"),
        ('{"version": 1, "players": "4", "actions": []}', "$.players"),
    ],
)
def test_validate_unreadable_files(tmp_path: Path, content: str, words: str) -> None:
    """RECORD: empty, broken or wrongly typed files are reported on their line, never with a
    traceback; exit status 3 (unreadable)."""
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("validate", str(path))
    assert result.exit_code == 3
    assert words in result.stdout
    assert "Traceback" not in result.output


def test_validate_missing_file() -> None:
    """RECORD: a file that does not exist is unreadable (exit 3), not a crash."""
    result = run("validate", str(ROOT / "nowhere.json"), str(VALID[0]))
    assert result.exit_code == 3
    assert "cannot read the record file" in result.stdout.splitlines()[0]


def test_validate_standard_input() -> None:
    """RECORD: "-" reads the record from standard input."""
    text = VALID[0].read_text("utf-8")
    result = run("validate", "-", input=text)
    assert result.exit_code == 0 and result.stdout.startswith("-: valid")


def test_validate_complete_flag(tmp_path: Path) -> None:
    """END-6: --complete refuses a record that stops before the game ends."""
    game = play_random(3, 2)
    path = tmp_path / "short.json"
    GameRecord.from_start(game.start, game.actions[:50]).write(path)
    assert run("validate", str(path)).exit_code == 0
    result = run("validate", "--complete", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f"{path}: INVALID: incomplete, and --complete asks for whole games: 3 players,"
        " 50 decisions, and the record ends before the game does"
    )


def test_validate_many_files_with_progress(tmp_path: Path) -> None:
    """RECORD: a long batch with a progress bar still prints one line per file and the right
    exit status."""
    paths = []
    for i in range(30):
        path = tmp_path / f"game-{i:02}.json"
        shutil.copy(VALID[i % len(VALID)], path)
        paths.append(str(path))
    result = run("validate", "--progress", *paths)
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 31
    shutil.copy(EXAMPLES / "invalid-draw.json", tmp_path / "game-07.json")
    result = run("validate", "--progress", *paths)
    assert result.exit_code == 1
    assert sum("INVALID" in line for line in result.stdout.splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "the record is empty"),
        (b"\x7fELF\x02\x01\x01\x00\xff\xfe", "not UTF-8"),
        (b"\xef\xbb\xbf", "the record is empty"),
        (b"[]", "JSON object"),
        (b'{"snapshot": 1}', "no 'version'"),
    ],
)
def test_cli_validate_files_that_are_not_records(
    tmp_path: Path, content: bytes, words: str
) -> None:
    """RECORD: empty, binary and wrong-kind files are reported on their own line; validate
    exits 3 (unreadable), replay 1."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for args in (["validate", str(path)], ["validate", "--json", str(path)]):
        result = run(*args)
        clean_failure(result, 3)
        assert words in result.stdout
    result = run("replay", str(path))
    clean_failure(result, 1)
    assert words in result.output


def test_cli_missing_file_and_directory(tmp_path: Path) -> None:
    """RECORD: a missing file cannot be read (validate exits 3, replay 1); validate searches a
    folder, and says when it holds no record (exit 3); to replay, a directory is a usage error
    (exit 2); all with a message, none with a traceback."""
    missing = str(tmp_path / "nowhere.json")
    for args, status in ((["validate", missing], 3), (["replay", missing], 1)):
        result = run(*args)
        clean_failure(result, status)
        assert "cannot read the record file" in result.output
    result = run("validate", str(tmp_path))
    clean_failure(result, 3)
    assert "the folder holds no .json or .jsonl file" in result.output
    result = run("replay", str(tmp_path))
    clean_failure(result, 2)
    assert "is a directory" in result.output


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file"
)
def test_cli_unreadable_file(tmp_path: Path) -> None:
    """RECORD: a file that cannot be read is reported, exit 1."""
    path = tmp_path / "secret.json"
    path.write_bytes(EXAMPLE.read_bytes())
    path.chmod(0)
    result = run("validate", str(path))
    clean_failure(result, 3)
    assert "cannot read the record file" in result.stdout


def test_cli_many_files_and_standard_input(tmp_path: Path) -> None:
    """RECORD: one line per file however many are given (here 60, good and bad mixed); binary
    standard input is reported like a file."""
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    files = [str(EXAMPLE), str(empty)] * 30
    result = run("validate", *files)
    clean_failure(result, 3)
    lines = result.stdout.splitlines()
    assert len(lines) == 61 and lines[-1] == "30 valid, 0 invalid, 30 unreadable"
    assert sum(": valid: " in line for line in lines) == 30
    result = run("validate", "-", input=b"\xff\x00binary")
    clean_failure(result, 3)
    assert result.stdout.startswith("-: UNREADABLE") and "not UTF-8" in result.stdout


def test_cli_validate_json_with_a_lone_surrogate(tmp_path: Path) -> None:
    """RECORD: every readable record gets a JSON report line, whatever its texts hold."""
    path = tmp_path / "surrogate.json"
    path.write_text('{"version": 1, "players": 3, "actions": ["\\ud800"]}', "utf-8")
    result = run("validate", "--json", str(path))
    clean_failure(result, 1)
    assert json.loads(result.stdout)["rule"] == "NOTATION"


def test_cli_text_report_with_a_lone_surrogate(tmp_path: Path) -> None:
    """NOTATION: the one-line report and the replay quote an unprintable text escaped."""
    path = tmp_path / "surrogate.json"
    path.write_text('{"version": 1, "players": 3, "actions": ["\\ud800"]}', "utf-8")
    for command in ("validate", "replay"):
        result = run(command, str(path))
        clean_failure(result, 1)
        assert "'\\ud800'" in result.output and "NOTATION" in result.output


# --- simulate -------------------------------------------------------------------------------


def test_simulate_writes_a_record_that_validates() -> None:
    """CHANCE, GAME-1: simulate writes the record of play_random with the same seed."""
    result = run("simulate", "--players", "3", "--seed", "21")
    assert result.exit_code == 0
    record = GameRecord.from_json(result.stdout)
    game = play_random(3, 21)
    assert record.actions == tuple(str(a) for a in game.actions)
    assert record.replay() == game.final
    assert record.metadata == {"source": "ethnos-rules simulate", "seed": 21}
    assert run("simulate", "--players", "3", "--seed", "21").stdout == result.stdout


def test_simulate_to_a_file_with_setup_and_claims(tmp_path: Path) -> None:
    """SETUP-3, BAND-5a: --tribes, --option and --claim go into the record; --out writes it."""
    out = tmp_path / "game.json"
    result = run(
        "simulate", "-p", "4", "-s", "5", "--tribes", "DWA,ELF,GIA,MER,ORC,WIZ",
        "--option", "placement=mandatory", "--claim", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0
    assert "wrote" in result.stderr
    record = GameRecord.read(out)
    assert record.tribes == tuple(SIX_TRIBES)
    assert record.options.placement == "mandatory"
    report = validate(record)
    assert report.ok and report.claims_checked
    assert list(record.claimed_glory or ()) == list(report.glory or ())


@pytest.mark.parametrize(
    "args",
    [
        ["-p", "7", "-s", "1"],
        ["-p", "4"],
        ["-p", "4", "-s", "1", "--tribes", "ELF,DWA"],
        ["-p", "4", "-s", "1", "--option", "placement=always"],
        ["-p", "4", "-s", "1", "--option", "speed=fast"],
        ["-p", "4", "-s", "1", "--first-player", "5"],
    ],
)
def test_simulate_bad_arguments(args: list[str]) -> None:
    """SETUP-1, SETUP-3, AGE-5, §12: bad arguments are usage errors (exit 2), not tracebacks."""
    result = run("simulate", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


@pytest.mark.parametrize("path", [p for p in VALID if "full-hand" not in p.name], ids=str)
def test_committed_valid_examples_are_simulate_output(path: Path) -> None:
    """CHANCE: the valid example records are exactly what simulate --claim writes for their
    seed, so they can be regenerated."""
    record = GameRecord.read(path)
    seed = record.metadata["seed"]
    kept = ["--seat", str(record.seat)] if record.seat is not None else []
    result = run("simulate", "-p", str(record.players), "-s", str(seed), "--claim", *kept)
    assert GameRecord.from_json(result.stdout) == record


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "7", "--seed", "1"], "2<=x<=6"),
        (["--players", "x", "--seed", "1"], "not a valid integer"),
        (["--players", "3", "--seed", "x"], "not a valid integer"),
        (["--players", "3"], "Missing option '--seed'"),
        (["--players", "3", "--seed", "1", "--tribes", "FOO"], "SETUP-3: unknown tribe 'FOO'"),
        (["--players", "3", "--seed", "1", "--tribes", ",,,"], "5 tribes, not 0"),
        (["--players", "3", "--seed", "1", "--tribes", "DWA,DWA,ELF,GIA,MER"], "named twice"),
        (["--players", "3", "--seed", "1", "--first-player", "5"], "AGE-5"),
        (["--players", "3", "--seed", "1", "--first-player", "-1"], "AGE-5"),
        (["--players", "3", "--seed", "1", "--option", "foo=bar"], "NAME=VALUE"),
        (["--players", "3", "--seed", "1", "--option", "placement"], "NAME=VALUE"),
        (["--players", "3", "--seed", "1", "--option", "placement=bar"], "placement='bar'"),
    ],
)
def test_cli_simulate_bad_arguments(args: list[str], words: str) -> None:
    """SETUP-1, SETUP-3, AGE-5, OPTIONS: bad --players, --seed, --tribes, --first-player and
    --option values are usage errors (exit 2) that say what is wrong."""
    result = run("simulate", *args)
    clean_failure(result, 2)
    assert words in result.output


@pytest.mark.parametrize("seed", ["-5", "99999999999999999999999999999"])
def test_cli_simulate_any_integer_seed(seed: str) -> None:
    """CHANCE: any integer is a seed; the record it writes validates."""
    result = run("simulate", "--players", "2", "--seed", seed)
    assert result.exit_code == 0
    assert validate(GameRecord.from_json(result.stdout)).ok


def test_cli_simulate_out_to_a_directory(tmp_path: Path) -> None:
    """RECORD: --out naming a directory is a usage error, exit 2."""
    clean_failure(run("simulate", "-p", "2", "-s", "1", "--out", str(tmp_path)), 2)


def test_cli_simulate_many_games_to_a_json_name_is_refused(tmp_path: Path) -> None:
    """RECORD: several games go to a folder or a .jsonl file; --out x.json is refused (exit 2)
    with the .jsonl name to use, and nothing is written (it used to become a folder)."""
    out = tmp_path / "games.json"
    result = run("simulate", "-p", "2", "-s", "1", "-n", "2", "--out", str(out))
    clean_failure(result, 2)
    assert "games.jsonl" in result.output and not out.exists()


def test_validate_json_lines_in_a_json_file_or_on_standard_input(tmp_path: Path) -> None:
    """RECORD: records one per line in a .json file (or on standard input, which holds one
    record) are unreadable, and the report says to name the file .jsonl."""
    lines = "".join(
        GameRecord.from_playthrough(play_random(2, s)).to_json(indent=None) + "\n" for s in (1, 2)
    )
    path = tmp_path / "two.json"
    path.write_text(lines)
    for result in (run("validate", str(path)), run("validate", "-", input=lines.encode())):
        clean_failure(result, 3)
        assert ": UNREADABLE: RECORD – " in result.stdout
        assert "one per line, are read from a .jsonl file" in result.stdout
    (tmp_path / "two.jsonl").write_text(lines)
    assert run("validate", str(tmp_path / "two.jsonl")).exit_code == 0


def test_cli_simulate_out_to_an_unwritable_path(tmp_path: Path) -> None:
    """RECORD: a path that cannot be written is a clean error with a non-zero exit."""
    result = run("simulate", "-p", "2", "-s", "1", "--out", str(tmp_path / "no" / "x.json"))
    assert result.exit_code != 0
    clean_failure(result, result.exit_code)


# --- replay -----------------------------------------------------------------------------------


def test_replay_tells_the_whole_game() -> None:
    """RECRUIT-3, RECRUIT-4, END-2, GAME-1: the narration shows each Age's two set-aside Dragons
    and the third that ends it, each Age's scoring, and the final Glory."""
    path = EXAMPLES / "valid-4p.json"
    result = run("replay", str(path))
    assert result.exit_code == 0
    text = result.stdout
    record = GameRecord.read(path)
    final = record.replay()
    assert text.count("(RECRUIT-3)") == 2 * 3  # two Dragons set aside per Age, three Ages
    assert text.count("(RECRUIT-4)") == 3
    assert text.count("--- End of Age") == 3
    line = next(ln for ln in text.splitlines() if ln.startswith("Final Glory"))
    assert (
        line
        == "Final Glory: " + ", ".join(f"seat {s} {g}" for s, g in enumerate(glory(final))) + "."
    )
    for summary in final.history:
        for seat, total in enumerate(summary.glory):
            row = rf"^ +{seat}  [ +0-9]*  {total}$"  # a row of the Age's score table
            assert re.search(row, text, re.MULTILINE), (seat, total)


def test_replay_explains_the_two_player_placement_test() -> None:
    """BAND-5: the narration cites the size test with its numbers, both players' markers in a
    2-player game; and an illegal decision ends the replay with exit status 1."""
    path = EXAMPLES / "invalid-2p-placement.json"
    record = GameRecord.read(path)
    index = record.metadata["broken"]["index"]
    band = parse_action(record.actions[index - 1])
    assert isinstance(band, PlayBand) and band.leader.colour is not None
    kingdom = band.leader.colour.kingdom
    before = record.replay(index - 1)
    a, b = (p.kingdoms[kingdom] for p in before.players)
    result = run("replay", str(path))
    assert result.exit_code == 1
    expected = (
        f"No marker: {len(band.cards)} cards are not more than both players' {a} + {b} ="
        f" {a + b} markers in {kingdom.label} (the 2-player rule) (BAND-5)."
    )
    assert expected in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith(f"Decision {index} ")


def test_replay_explains_tie_splits() -> None:
    """SCORE-K-3: a tie for 1st and 2nd shares the awards of both ranks (III + II in Age III)."""
    record = GameRecord.read(EXAMPLES / "valid-6p.json")
    lines = list(narrate(record))
    state = record.new_game()
    previous = state
    for text in record.actions:
        previous, state = state, apply(state, parse_action(text))
    _, mid, high = previous.tokens[Kingdom.STRATON]
    straton = [ln for ln in lines if ln.strip().startswith("Straton")][-1]
    assert f"seats 2 and 3 tie for 1st and 2nd and share {high} + {mid} = {high + mid}:" in straton
    assert f"{(high + mid) // 2} each" in straton


def test_replay_at_shows_the_state() -> None:
    """AGE-3: --at N stops after N decisions and shows the state reached."""
    path = EXAMPLES / "valid-3p.json"
    record = GameRecord.read(path)
    result = run("replay", str(path), "--at", "30")
    assert result.exit_code == 0
    assert "--- The state after 30 decisions ---" in result.stdout
    assert str(record.replay(30)) in result.stdout
    assert run("replay", str(path), "--at", str(len(record.actions) + 1)).exit_code == 2


def test_replay_unreadable_file(tmp_path: Path) -> None:
    """RECORD: replaying a file that is not a record fails with exit status 1, no traceback."""
    path = tmp_path / "bad.json"
    path.write_text("[]", encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "JSON object" in result.output and "Traceback" not in result.output


def test_narration_cites_rules_on_most_lines() -> None:
    """BAND-4, BAND-5, TRIBE-*: band and ability lines cite the rule they apply."""
    lines = list(narrate(GameRecord.read(EXAMPLES / "valid-2p.json")))
    bands = [ln for ln in lines if " plays a band of " in ln]
    assert bands and all(ln.endswith("(BAND-4).") for ln in bands)
    table = re.compile(r"^ +(seat|\d+) ")  # the rows of the Ages' score tables, and
    # the band scores, under the heading that cites END-4 and COMP-7
    follow = [ln for ln in lines if ln.startswith("  ") and not table.match(ln)]
    follow = [ln for ln in follow if not re.fullmatch(r" {4}(\*|\d+ bands of ).* → \d+", ln)]
    uncited = [ln for ln in follow if not re.search(r"\([A-Z]+-[A-Za-z0-9-]+[),]", ln)]
    assert uncited == []


@pytest.mark.parametrize("at", ["-1", "abc", "1.5", "100000", ""])
def test_cli_replay_at_out_of_range(at: str) -> None:
    """RECORD: --at must be a number of decisions from 0 to the record's length (usage error,
    exit 2)."""
    result = run("replay", str(EXAMPLE), "--at", at)
    clean_failure(result, 2)
    assert "--at" in result.output


def test_cli_replay_at_past_a_refused_decision(tmp_path: Path) -> None:
    """RECORD, SETUP-3: --at beyond the first refused decision tells up to the refusal and
    exits 1."""
    path = tmp_path / "passes.json"
    path.write_text(json.dumps({"version": 1, "players": 3, "actions": ["pass"] * 10}), "utf-8")
    result = run("replay", str(path), "--at", "5")
    clean_failure(result, 1)
    assert "Decision 0 ('pass') is refused: SETUP-3" in result.output


# --- the installed program -----------------------------------------------------------------------


def test_installed_command_reports_without_traceback(tmp_path: Path) -> None:
    """RECORD: the installed ``ethnos-rules`` program itself (not only click's test runner)
    reports a missing file and a binary file in one line each, exit 1."""
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    program = Path(sys.executable).with_name("ethnos-rules")
    done = subprocess.run(
        [str(program), "validate", str(tmp_path / "missing.json"), str(binary)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert "cannot read the record file" in lines[0] and "not UTF-8" in lines[1]


# --- records kept at one seat ---------------------------------------------------------------------


def test_simulate_and_redact_write_records_kept_at_one_seat(tmp_path: Path) -> None:
    """simulate --seat N writes the game as seat N saw it; redact FILE --seat N writes the same
    from a record of the whole game; validate accepts both, saying from which seat."""
    whole, kept = tmp_path / "whole.json", tmp_path / "kept.json"
    assert run("simulate", "-p", "3", "-s", "4", "--out", str(whole)).exit_code == 0
    result = run("redact", str(whole), "--seat", "2", "--out", str(kept))
    assert result.exit_code == 0 and "as seat 2 saw them" in result.stderr
    seat_record = GameRecord.read(kept)
    assert seat_record == redact(GameRecord.read(whole), 2)
    simulated = run("simulate", "-p", "3", "-s", "4", "--seat", "2")
    assert GameRecord.from_json(simulated.stdout).actions == seat_record.actions
    result = run("validate", str(kept))
    assert result.exit_code == 0
    assert "valid (as seen from seat 2): 3 players" in result.stdout
    replayed = run("replay", str(kept), "--at", "40")
    assert replayed.exit_code == 0 and "What seat 2 sees after 40 decisions" in replayed.stdout


def test_redact_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    """RECORD: a seat out of range, or a record kept at another seat, is refused (exit 1); a
    seat the game does not have is a usage error for simulate (exit 2)."""
    whole = tmp_path / "whole.json"
    run("simulate", "-p", "3", "-s", "4", "--out", str(whole))
    result = run("redact", str(whole), "--seat", "3")
    assert result.exit_code == 1 and "seat 3 is not a seat" in result.stderr
    kept = tmp_path / "kept.json"
    run("redact", str(whole), "--seat", "0", "--out", str(kept))
    result = run("redact", str(kept), "--seat", "1")
    assert result.exit_code == 1 and "kept at seat 0" in result.stderr
    result = run("simulate", "-p", "3", "-s", "1", "--seat", "3")
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_validate_reports_a_one_seat_record_that_fits_no_game(tmp_path: Path) -> None:
    """BAND-1: a record kept at one seat where another player plays a card the seat sees all
    copies of elsewhere is invalid, at that decision."""
    record = redact(GameRecord.from_playthrough(play_random(3, seed=7)), 1)
    actions = list(record.actions)
    actions[78] = "band *MER-blue"
    path = tmp_path / "bad.json"
    attrs.evolve(record, actions=tuple(actions)).write(path)
    result = run("validate", str(path))
    assert result.exit_code == 1
    wanted = "INVALID at decision 78 (Age I, turn 34: 'band *MER-blue'): BAND-1 – both MER-blue"
    assert wanted in result.stdout


def test_simulate_help_lists_every_rule_option_and_its_values() -> None:
    """OPTIONS: ``simulate --help`` lists each rule option of spec §12 with its values, the
    default first, so no option has to be guessed."""
    shown = run("simulate", "--help").output
    for name, values in Options.choices().items():
        assert re.search(rf"^ +{name} +{' [|] '.join(values)}$", shown, re.MULTILINE), name


# --- rule ids as links, and the rule command --------------------------------------------------
# The rule ids below are read from the rules text, not written: the rule catalogue counts an
# id written in a test as a test of that rule, and these test addresses, not rules.

OSC8 = re.compile(r"\x1b\]8;;([^\x1b]*)\x1b\\(.*?)\x1b\]8;;\x1b\\")
"""A terminal hyperlink: its address and its text."""


def _plain(text: str) -> str:
    return OSC8.sub(r"\2", text)


def test_rule_ids_printed_on_a_terminal_are_links_to_their_rule() -> None:
    """With colour (``--color always``, as on a terminal) each rule id of validate's report and
    of the narration is a hyperlink to the rule's address, and nothing else changes; without
    it (a pipe, ``--color never``, NO_COLOR) the output has no escape at all."""
    invalid = EXAMPLES / "invalid-band.json"
    linked = run("--color", "always", "validate", str(invalid))
    report = validate(GameRecord.read(invalid))
    assert report.rule is not None
    assert OSC8.findall(linked.stdout) == [(rulebook.address(report.rule), report.rule)]
    plain = run("validate", str(invalid))
    assert _plain(linked.stdout) == plain.stdout and "\x1b" not in plain.stdout
    assert "\x1b" not in run("--color", "never", "validate", str(invalid)).stdout
    told = run("--color", "always", "replay", str(EXAMPLE), "--at", "60").stdout
    links = OSC8.findall(told)
    mentions = [m for m in rulebook.mentions(_plain(told)) if rulebook.known(m.id)]
    assert len(links) == len(mentions) > 40
    plain_told = run("replay", str(EXAMPLE), "--at", "60").stdout
    assert re.sub(r"\x1b\[[0-9;]*m", "", _plain(told)) == plain_told
    assert all(url == rulebook.address(text) for url, text in links if "-" in text[1:])


def test_links_follow_the_terminal_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default rule ids are links on a terminal only, not on the Linux console (it would
    print them), and not at all when NO_COLOR is set (``--color always`` still wins)."""
    from ethnos_rules import cli

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert cli._links_on() and cli._colour("auto") is None
    monkeypatch.setenv("TERM", "linux")
    assert not cli._links_on()
    monkeypatch.setenv("NO_COLOR", "1")
    assert cli._colour("auto") is False and cli._colour("always") is True
    assert cli._colour("never") is False


def test_rule_prints_title_words_and_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rule ID...`` prints each rule's id and title, its words and its address (in the docs
    that ETHNOS_RULES_DOCS names); an id is found in any case."""
    monkeypatch.setenv("ETHNOS_RULES_DOCS", "file:///srv/ethnos-docs")
    lettered = next(r for r in rulebook.rules().values() if r.id[-1].isalpha() and r.title)
    untitled = next(r for r in rulebook.rules().values() if not r.title)
    result = run("rule", lettered.id.upper(), untitled.id.lower())
    assert result.exit_code == 0, result.output
    blocks = result.stdout.strip().split("\n\n")
    for block, rule in zip(blocks, [lettered, untitled], strict=True):
        head, *words, address = block.splitlines()
        assert head == f"{rule.id} {rule.title}".strip()
        assert " ".join(" ".join(words).split()) == rule.sentence
        assert address == f"  file:///srv/ethnos-docs/reference/rules-1e.html#{rule.id}"


def test_rule_of_a_section_tells_its_words_and_each_of_its_rules() -> None:
    """A section's id prints the section (its words, if it has any before its rules) and then
    each of its rules in order; a section without rules is told as a rule of its own."""
    for part in rulebook.contents().values():
        shown = run("rule", part.id).stdout
        heads = [block.splitlines()[0].split()[0] for block in shown.strip().split("\n\n")]
        assert heads == [part.id, *part.rules], part.id
        assert " ".join(part.intro.split()[:5]) in " ".join(shown.split())


def test_rule_refuses_an_unknown_id_with_the_closest() -> None:
    """An id the rules text does not have is a usage error (exit 2), named with the closest
    ids the text has; nothing is printed for the ids that exist."""
    last = list(rulebook.rules())[-1]
    stem, number = last.rsplit("-", 1)
    beyond = f"{stem}-{int(number) + 1}"
    result = run("rule", last, beyond, "nothing-like-it")
    clean_failure(result, 2)
    assert result.stdout == ""
    assert f"no rule '{beyond}' (the closest: {last}" in result.stderr
    assert "no rule 'nothing-like-it'" in result.stderr


def test_rule_without_id_lists_every_rule_and_json_gives_each_field() -> None:
    """Without ID, every rule id is listed once, in the text's order, under its section;
    ``--json`` gives each rule's id, title, words, section and address."""
    listed = run("rule").stdout.splitlines()
    ids = [line.split()[0] for line in listed if line.startswith("  ")]
    assert ids == list(rulebook.rules())
    assert [line.split()[0] for line in listed if not line.startswith(" ")] == list(
        rulebook.contents()
    )
    rows = [json.loads(line) for line in run("rule", "--json").stdout.splitlines()]
    without = [p.id for p in rulebook.contents().values() if not p.rules]
    assert [row["id"] for row in rows if row["id"] not in without] == list(rulebook.rules())
    for row in rows:
        assert row["address"] == rulebook.address(row["id"])
        assert set(row) == {"id", "title", "sentence", "section", "address"}


def test_a_reader_that_stops_early_is_no_defect() -> None:
    """``replay FILE | head -1``: the command ends without calling it a defect of ours."""
    command = shutil.which("ethnos-rules") or str(Path(sys.executable).parent / "ethnos-rules")
    with subprocess.Popen(
        [command, "replay", str(EXAMPLE)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()
        errors = proc.stderr.read().decode()
    assert "INTERNAL" not in errors and "Traceback" not in errors
