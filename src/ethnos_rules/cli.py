"""The ``ethnos-rules`` command: validate, simulate, redact and replay game records.

Exit status: 0 when every record is valid, 1 when a record is invalid or unreadable, 2 for a
usage error (an unknown option, a bad argument).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any

import click

from ._io.jsonio import RecordError, decode, json_text
from ._io.records import GameRecord
from ._io.seats import redact
from ._io.validation import ValidationReport, validate
from ._rules.engine import glory, winners
from ._rules.errors import RulesError
from ._rules.observation import observation
from ._rules.options import Options
from ._rules.replay import play_random
from ._text.html_replay import replay_html
from ._text.narration import Narrator

OPTION_NAMES = (
    "placement",
    "merfolk_checkpoints",
    "merfolk_scoring",
    "centaur_chain",
    "elves_keep",
    "wizard_draw",
    "orc_empty",
    "troll_tiebreak",
    "two_player_final_tie",
)
"""The rule options ``simulate --option`` can set (spec §12)."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Referee Ethnos (first edition) game records.

    A record is a JSON file holding a game's setup and every decision in the action notation
    (see the "Game records" page of the documentation).
    """


# --- validate ---------------------------------------------------------------------------------


def _read(path: str) -> GameRecord:
    if path == "-":
        data = sys.stdin.buffer.read()
        return GameRecord.from_json(decode(data))
    return GameRecord.read(path)


def _report(path: str) -> ValidationReport:
    try:
        record = _read(path)
    except RecordError as err:
        return ValidationReport.refused(err)
    return validate(record)


@main.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report per line.")
@click.option(
    "--complete",
    "require_complete",
    is_flag=True,
    help="Count a record that ends before the game does as invalid.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on stderr (default: with several files, on a terminal).",
)
def validate_command(
    files: Sequence[str], as_json: bool, require_complete: bool, progress: bool | None
) -> None:
    """Check that each FILE is a legal game record ("-" reads standard input).

    Prints one line per file: "valid" with the result, or "INVALID" with the index of the
    first refused decision, the rule id and the reason. The exit status is 0 only if every file
    is valid.
    """
    stderr = sys.stderr
    show = progress if progress is not None else len(files) > 1 and stderr.isatty()
    all_ok = True

    def check(paths: Iterable[str], clear: bool) -> None:
        nonlocal all_ok
        for path in paths:
            report = _report(path)
            ok = report.ok and (report.complete or not require_complete)
            all_ok = all_ok and ok
            if clear:
                stderr.write("\r\x1b[K")
            if as_json:
                data = {"file": path, **report.to_dict(), "accepted": ok}
                click.echo(json_text(data))
            else:
                summary = report.summary()
                if report.ok and not ok:
                    summary = "INVALID (--complete): " + summary
                click.echo(f"{path}: {summary}")

    if show:
        with click.progressbar(files, label="validating", file=stderr) as bar:
            check(bar, clear=stderr.isatty())
    else:
        check(files, clear=False)
    sys.exit(0 if all_ok else 1)


# --- simulate ---------------------------------------------------------------------------------


def _tribe_list(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [t for t in value.replace(",", " ").split() if t]


def _options(pairs: Sequence[str]) -> Options | None:
    if not pairs:
        return None
    chosen: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or name not in OPTION_NAMES:
            raise click.BadParameter(
                f"{pair!r}: write NAME=VALUE with NAME one of {', '.join(OPTION_NAMES)}",
                param_hint="--option",
            )
        chosen[name] = value
    try:
        return Options(**chosen)
    except RulesError as err:
        raise click.BadParameter(err.reason, param_hint="--option") from None


@main.command("simulate")
@click.option("--players", "-p", type=click.IntRange(2, 6), required=True, help="2 to 6.")
@click.option("--seed", "-s", type=int, required=True, help="Seed of the random game.")
@click.option("--tribes", help="Tribe codes in play, e.g. DWA,ELF,GIA,MER,ORC,WIZ (else random).")
@click.option("--first-player", type=int, help="Seat of the Age I first player (else random).")
@click.option(
    "--option",
    "-o",
    "option_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A rule option, e.g. placement=mandatory (repeatable).",
)
@click.option("--claim", is_flag=True, help="Write the final Glory into the record as claimed.")
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    help="Write the game as the player in this seat saw it (a record kept at one seat).",
)
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write here.")
def simulate_command(
    players: int,
    seed: int,
    tribes: str | None,
    first_player: int | None,
    option_pairs: Sequence[str],
    claim: bool,
    seat: int | None,
    out: str | None,
) -> None:
    """Play a seeded random game and write its record (to standard output by default).

    Every decision is uniformly random among the legal ones and every chance outcome is drawn
    with its exact probability, so the same seed and arguments give the same record. With
    --seat N, the record is the one seat N would have kept: the cards it did not see are "?".
    """
    if seat is not None and seat >= players:
        raise click.BadParameter(f"{seat} is not a seat of {players} players", param_hint="--seat")
    options = _options(option_pairs)
    try:
        game = play_random(
            players,
            seed,
            tribes=_tribe_list(tribes),
            first_player=first_player,
            options=options,
        )
    except RulesError as err:
        raise click.UsageError(f"{err.rule}: {err.reason}") from None
    final = glory(game.final)
    record = GameRecord.from_playthrough(
        game,
        metadata={"source": "ethnos-rules simulate", "seed": seed},
        claimed_glory=final if claim else None,
    )
    if seat is not None:
        record = redact(record, seat)
    if not _write(record, out):
        return
    won = ", ".join(map(str, winners(game.final)))
    kept = f" as seat {seat} saw it" if seat is not None else ""
    click.echo(
        f"wrote {out}{kept}: {players} players, {len(record.actions)} decisions, final Glory"
        f" {' '.join(map(str, final))}, winner seat {won}",
        err=True,
    )


def _write(record: GameRecord, out: str | None) -> bool:
    """Write ``record`` to ``out``, or to standard output (then False: nothing more to say)."""
    if out is None:
        click.echo(record.to_json())
        return False
    try:
        record.write(out)
    except OSError as err:
        click.echo(f"cannot write {click.format_filename(out)}: {err.strerror or err}", err=True)
        sys.exit(1)
    return True


# --- redact -----------------------------------------------------------------------------------


@main.command("redact")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--seat", type=click.IntRange(min=0), required=True, help="The seat whose view.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write here.")
def redact_command(file: str, seat: int, out: str | None) -> None:
    """Write the game in FILE as the player in SEAT would have kept it.

    The cards that seat did not see become "?" ("reveal ?", "keep ?"), and the rest of each
    other player's hand put face up into the row is shown ("rest ..."). The exit status is 1 if
    the record is unreadable or breaks a rule.
    """
    try:
        record = _read(file)
        kept = redact(record, seat)
    except RecordError as err:
        click.echo(f"{file}: {err}", err=True)
        sys.exit(1)
    except RulesError as err:
        where = "; ".join(getattr(err, "__notes__", ()))
        click.echo(f"{file}: {where}: {err}" if where else f"{file}: {err}", err=True)
        sys.exit(1)
    if _write(kept, out):
        click.echo(f"wrote {out}: {len(kept.actions)} decisions as seat {seat} saw them", err=True)


# --- replay -----------------------------------------------------------------------------------


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    help="Stop after the first N decisions and show the state reached.",
)
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False, writable=True),
    help="Write one self-contained page to OUT.html that steps through the game with its"
    " board (arrow keys or buttons), instead of telling it.",
)
def replay_command(file: str, at: int | None, html_out: str | None) -> None:
    """Tell the game in FILE in plain English, decision by decision.

    Says who recruited what, who played which band and why a marker was or was not placed,
    what each tribe ability did, the Dragons, and each Age's scoring with its tie splits, citing
    the rule ids. With --at N, stops after N decisions and shows the state (for a record kept
    at one seat, what that seat sees). The exit status is 1 if the record is unreadable or
    breaks a rule.
    """
    try:
        record = _read(file)
    except RecordError as err:
        click.echo(f"{file}: {err}", err=True)
        sys.exit(1)
    if at is not None and at > len(record.actions):
        raise click.BadParameter(
            f"the record holds {len(record.actions)} decisions", param_hint="--at"
        )
    if html_out is not None:
        _write_html(record, html_out)
        return
    narrator = Narrator(record)
    if record.seat is not None:
        click.echo(
            f"(As seat {record.seat} saw the game: the other players' unseen cards are not told.)"
        )
    for line in narrator.tell(at):
        click.echo(_styled(line))
    if at is not None and narrator.state is not None and narrator.error is None:
        click.echo("")
        if record.seat is None:
            click.echo(f"--- The state after {at} decisions ---")
            click.echo(str(narrator.state))
        else:  # the state replayed is one possibility; the seat's view is what is known
            click.echo(f"--- What seat {record.seat} sees after {at} decisions ---")
            click.echo(str(observation(narrator.state, record.seat)))
    sys.exit(1 if narrator.error is not None else 0)


def _styled(line: str) -> str:
    """A line of the narration with colour for a terminal (click drops it elsewhere): the
    Age headings, the turn numbers, refusals."""
    if line.startswith(("===", "---")):
        return click.style(line, fg="cyan", bold=True)
    if line.startswith("Turn "):
        turn, _, rest = line.partition(": ")
        return click.style(turn + ":", bold=True) + " " + rest
    if " is refused: " in line:
        return click.style(line, fg="red", bold=True)
    return line


def _write_html(record: GameRecord, out: str) -> None:
    page = replay_html(record)
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as err:
        click.echo(f"{out}: cannot write: {err.strerror}", err=True)
        sys.exit(1)
    click.echo(f"wrote {out} ({len(page) // 1024} KiB): open it in a browser", err=True)


if __name__ == "__main__":  # pragma: no cover
    main()
