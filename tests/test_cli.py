"""The ``ethnos-rules`` command line (issue 3): validate, simulate, replay; exit codes; and the
narration replay prints (BAND-5 size tests, RECRUIT-3/4 Dragons, SCORE-K-3 tie splits)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ethnos_rules import (
    GameRecord,
    Kingdom,
    PlayBand,
    apply,
    glory,
    narrate,
    parse_action,
    play_random,
    validate,
)
from ethnos_rules.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "records"
VALID = sorted(EXAMPLES.glob("valid-*.json"))
INVALID = sorted(EXAMPLES.glob("invalid-*.json"))


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


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
    """GAME-1: valid records print one "valid" line each; exit status 0."""
    result = run("validate", *map(str, VALID))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(VALID)
    assert all(": valid: " in line and "complete" in line for line in lines)


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
    traceback; exit status 1."""
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert words in result.stdout
    assert "Traceback" not in result.output


def test_validate_missing_file() -> None:
    """RECORD: a file that does not exist is an invalid record, not a crash."""
    result = run("validate", str(ROOT / "nowhere.json"), str(VALID[0]))
    assert result.exit_code == 1
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
    assert result.exit_code == 1 and "incomplete" in result.stdout


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
    assert len(result.stdout.splitlines()) == 30
    shutil.copy(EXAMPLES / "invalid-draw.json", tmp_path / "game-07.json")
    result = run("validate", "--progress", *paths)
    assert result.exit_code == 1
    assert sum("INVALID" in line for line in result.stdout.splitlines()) == 1


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
    assert record.tribes == ("DWA", "ELF", "GIA", "MER", "ORC", "WIZ")
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
    result = run("simulate", "-p", str(record.players), "-s", str(seed), "--claim")
    assert GameRecord.from_json(result.stdout) == record


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
            assert f"  seat {seat}: " in text and f"now {total} Glory." in text


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
    follow = [ln for ln in lines if ln.startswith("  ") and not ln.startswith("  seat ")]
    uncited = [ln for ln in follow if not re.search(r"\([A-Z]+-[A-Za-z0-9-]+[),]", ln)]
    assert uncited == []
