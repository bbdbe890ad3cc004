"""The ``ethnos-rules`` command: validate, simulate, redact and replay game records.

Exit status: 0 when every record is valid, 1 when a record breaks a rule, 2 for a usage error
(an unknown option, a bad argument), and for ``validate`` 3 when an input is not a readable
record at all (``replay`` and ``redact`` say 1 for it).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs
import click

from ._io.archive import Source, check_sources, sources
from ._io.jsonio import MAX_RECORD_BYTES, RecordError, decode, json_text
from ._io.records import GameRecord
from ._io.seats import redact
from ._io.validation import ValidationReport, validate
from ._rules.engine import glory
from ._rules.errors import RulesError
from ._rules.observation import observation
from ._rules.options import Options
from ._rules.replay import play_random
from ._rules.words import given
from ._text.html_replay import replay_html
from ._text.narration import Narrator

OPTION_NAMES = tuple(Options.choices())
"""The rule options ``simulate --option`` can set (spec §12)."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ethnos-rules", prog_name="ethnos-rules")
def main() -> None:
    """Referee Ethnos (first edition) game records.

    A record is a JSON file holding a game's setup and every decision in the action notation
    (see the "Game records" page of the documentation).
    """


# --- validate ---------------------------------------------------------------------------------


def _read(path: str) -> GameRecord:
    if path == "-":  # no more than a record's limit is read, even from a larger input
        data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        return GameRecord.from_json(decode(data))
    return GameRecord.read(path)


EXIT_INVALID = 1
"""``validate``'s exit status when a record breaks a rule (and every one could be read)."""
EXIT_UNREADABLE = 3
"""``validate``'s exit status when an input is not a readable record (click keeps 2 for usage
errors)."""


@main.command("validate")
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(allow_dash=True), metavar="PATH..."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report per line.")
@click.option(
    "--complete",
    "require_complete",
    is_flag=True,
    help="Count a record that ends before the game does as invalid.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Processes to validate with (default: every core).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only the records that fail.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on stderr (default: with several records, on a terminal).",
)
def validate_command(
    paths: Sequence[str],
    as_json: bool,
    require_complete: bool,
    jobs: int | None,
    quiet: bool,
    progress: bool | None,
) -> None:
    """Check that each record is a legal game ("-" reads one from standard input).

    A PATH is a record (.json), a file of records one per line (.jsonl), or a folder searched
    for both. Prints one line per record: "valid" with the result, or "INVALID" with the
    first refused decision, the rule id and the reason; then a last line "N valid, N invalid,
    N unreadable" (on stderr with --json). The exit status is 0 if every record is valid, 1 if
    some break a rule, 3 if some cannot be read at all.
    """
    counts = {"valid": 0, "invalid": 0, "unreadable": 0}
    pool = _pool(paths, jobs)
    try:
        results = check_sources(sources(paths), pool)
        show = progress if progress is not None else _many(paths) and sys.stderr.isatty()
        if show:
            with click.progressbar(results, label="validating", file=sys.stderr) as bar:
                for source, report in bar:
                    _tell(source, report, counts, (as_json, require_complete, quiet, True))
        else:
            for source, report in results:
                _tell(source, report, counts, (as_json, require_complete, quiet, False))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    click.echo(", ".join(f"{n} {kind}" for kind, n in counts.items()), err=as_json)
    if counts["unreadable"]:
        sys.exit(EXIT_UNREADABLE)
    sys.exit(EXIT_INVALID if counts["invalid"] else 0)


def _many(paths: Sequence[str]) -> bool:
    """Whether the paths may hold several records (several paths, a folder, a .jsonl file)."""
    return len(paths) > 1 or any(p.endswith(".jsonl") or os.path.isdir(p) for p in paths)


def _pool(paths: Sequence[str], jobs: int | None) -> ProcessPoolExecutor | None:
    """Processes for several records (every core unless ``jobs`` says), none for one."""
    workers = jobs or os.cpu_count() or 1
    return ProcessPoolExecutor(workers) if workers > 1 and _many(paths) else None


def _tell(
    source: Source,
    report: ValidationReport,
    counts: dict[str, int],
    how: tuple[bool, bool, bool, bool],
) -> None:
    """Count one record's report, and print it (only a failure with --quiet). ``how`` is
    (--json, --complete, --quiet, a progress bar to clear first)."""
    as_json, require_complete, quiet, clear = how
    ok = report.ok and (report.complete or not require_complete)
    kind = "valid" if ok else "invalid" if report.readable else "unreadable"
    counts[kind] += 1
    if quiet and ok:
        return
    if clear and sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    if as_json:
        click.echo(json_text({"file": source.where, **report.to_dict(), "accepted": ok}))
        return
    summary = report.summary()
    if report.ok and not ok:
        summary = (
            f"INVALID: incomplete, and --complete asks for whole games: {report.players} players,"
            f" {report.decisions} decisions, and the record ends before the game does"
        )
    where = source.where if report.line is None else f"{source.where}:{report.line}"
    click.echo(f"{where}: {summary}")


# --- simulate ---------------------------------------------------------------------------------


def _split_tribes(value: str | None) -> list[str] | None:
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
                f"{given(pair)}: write NAME=VALUE with NAME one of {', '.join(OPTION_NAMES)}",
                param_hint="--option",
            )
        chosen[name] = value
    try:
        return Options(**chosen)
    except RulesError as err:
        raise click.BadParameter(err.reason, param_hint="--option") from None


def _options_epilog() -> str:
    """The rule options and their values, unwrapped (click's ``\b``), the default first."""
    width = max(map(len, OPTION_NAMES))
    rows = [f"  {name:{width}}  {' | '.join(v)}" for name, v in Options.choices().items()]
    return "\b\nRule options (--option NAME=VALUE, the default first):\n" + "\n".join(rows)


@main.command("simulate", epilog=_options_epilog())
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
    help="A rule option (repeatable); the options are listed below.",
)
@click.option("--claim", is_flag=True, help="Write the final Glory into the record as claimed.")
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    help="Write the game as the player in this seat saw it (a record kept at one seat).",
)
@click.option(
    "--out",
    type=click.Path(writable=True),
    help="Write here: a file; with --games, a folder (one record per game) or a .jsonl file.",
)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    default=None,
    help="Play this many games, seeds SEED, SEED+1, ... (a dataset; needs --out).",
)
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=None, help="Processes (default: all)."
)
def simulate_command(
    players: int,
    seed: int,
    tribes: str | None,
    first_player: int | None,
    option_pairs: Sequence[str],
    claim: bool,
    seat: int | None,
    out: str | None,
    games: int | None,
    jobs: int | None,
) -> None:
    """Play a seeded random game and write its record (to standard output by default).

    Every decision is uniformly random among the legal ones and every chance outcome is drawn
    with its exact probability, so the same seed and arguments give the same record. With
    --seat N, the record is the one seat N would have kept: the cards it did not see are "?".
    With --games N, plays N games with seeds SEED to SEED+N-1 on every core (or --jobs) and
    writes them to the folder or .jsonl file --out, with a progress bar on a terminal.
    """
    if seat is not None and seat >= players:
        raise click.BadParameter(f"{seat} is not a seat of {players} players", param_hint="--seat")
    setup = _Setup(
        players, _split_tribes(tribes), first_player, _options(option_pairs), claim, seat
    )
    if games is not None:
        _dataset(setup, seed, games, out, jobs)
        return
    if out is not None and os.path.isdir(out):
        raise click.BadParameter(
            f"{out} is a folder: name a file, or use --games", param_hint="--out"
        )
    record = _simulated(setup, seed)
    if not _write(record, out):
        return
    final = record.claimed_glory or validate(record).glory or ()
    kept = f" as seat {seat} saw it" if seat is not None else ""
    click.echo(
        f"wrote {out}{kept}: {players} players, {len(record.actions)} decisions, final Glory"
        f" {' '.join(map(str, final))}",
        err=True,
    )


@attrs.frozen
class _Setup:
    """What ``simulate`` plays: every argument but the seed."""

    players: int
    tribes: list[str] | None
    first_player: int | None
    options: Options | None
    claim: bool
    seat: int | None


def _simulated(setup: _Setup, seed: int) -> GameRecord:
    """The record of one seeded random game (a process of a pool plays it as well)."""
    try:
        game = play_random(
            setup.players,
            seed,
            tribes=setup.tribes,
            first_player=setup.first_player,
            options=setup.options,
        )
    except RulesError as err:
        raise click.UsageError(f"{err.rule}: {err.reason}") from None
    record = GameRecord.from_playthrough(
        game,
        metadata={"source": "ethnos-rules simulate", "seed": seed},
        claimed_glory=glory(game.final) if setup.claim else None,
    )
    return record if setup.seat is None else redact(record, setup.seat)


def _dataset(setup: _Setup, seed: int, games: int, out: str | None, jobs: int | None) -> None:
    """Write ``games`` seeded games to the folder or .jsonl file ``out``."""
    if out is None:
        raise click.BadParameter("a dataset needs --out: a folder or a .jsonl file")
    if out.endswith(".json"):  # a folder of that name is surely not what was meant
        raise click.BadParameter(
            f"{games} games go to a folder or a .jsonl file (one record per line), not to"
            f" {given(out)}: try --out {out[: -len('.json')]}.jsonl",
            param_hint="'--out'",
        )
    _simulated(setup, seed)  # a setup the rules refuse stops here, before --out is touched
    seeds = range(seed, seed + games)
    workers = min(jobs or os.cpu_count() or 1, games)
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        play = functools.partial(_simulated, setup)
        played = pool.map(play, seeds, chunksize=4) if pool else map(play, seeds)
        with click.progressbar(played, length=games, label="simulating", file=sys.stderr) as bar:
            _write_all(zip(seeds, bar, strict=True), out, len(str(seeds[-1])))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    click.echo(f"wrote {games} games to {out}", err=True)


def _write_all(records: Iterable[tuple[int, GameRecord]], out: str, width: int) -> None:
    try:
        if out.endswith(".jsonl"):
            with open(out, "w", encoding="utf-8") as f:
                for _, record in records:
                    f.write(record.to_json(indent=None) + "\n")
            return
        os.makedirs(out, exist_ok=True)
        for seed, record in records:  # seeds of one width, so that names sort like numbers
            record.write(os.path.join(out, f"game-{seed:0{width}}.json"))
    except OSError as err:
        click.echo(f"cannot write {click.format_filename(out)}: {err.strerror or err}", err=True)
        sys.exit(1)


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
    help="Stop after the first N decisions and show the state reached (with --html, open the"
    " page there).",
)
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False, writable=True),
    metavar="OUT.html",
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
        report = validate(record)  # the page shows a refusal; the exit status says it too
        last = report.index if report.index is not None else len(record.actions)
        _write_html(record, html_out, min(at or 0, last))
        if not report.ok:
            click.echo(f"{file}: {report.summary()}", err=True)
        sys.exit(0 if report.ok else 1)
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
    if narrator.error is None and at is None and not _claims_hold(record):
        sys.exit(1)
    sys.exit(1 if narrator.error is not None else 0)


def _claims_hold(record: GameRecord) -> bool:
    """Whether the Glory the record claims (if any) is what the rules give, as validate says;
    if not, say so."""
    if record.claimed_glory is None:
        return True
    report = validate(record)
    if report.ok:
        return True
    click.echo(_styled(f"The claimed Glory is refused: {report.rule} – {report.reason}."))
    return False


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


def _write_html(record: GameRecord, out: str, at: int) -> None:
    page = replay_html(record, at=at)
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as err:
        click.echo(f"{out}: cannot write: {err.strerror}", err=True)
        sys.exit(1)
    where = f", at step {at}" if at else ""
    click.echo(f"wrote {out} ({len(page) // 1024} KiB{where}): open it in a browser", err=True)


if __name__ == "__main__":  # pragma: no cover
    main()
