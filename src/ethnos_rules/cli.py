"""The ``ethnos-rules`` command: validate, simulate, redact and replay game records, and play.

Exit status: 0 when every record is valid, 1 when a record breaks a rule, 2 for a usage error
(an unknown option, a bad argument, a file that would be replaced without --force or written
onto an input), and for ``validate`` 3 when an input is not a readable record at all
(``replay`` and ``redact`` say 1 for it) and 4 when the referee itself failed on a record (a
defect of ours, reported for that record while the others are still checked).

No command replaces an existing file unless given ``--force``, none ever writes onto one of
its inputs, and every file is written under a temporary name and renamed into place.

Every rule id the commands print (a refusal's rule, the narration's) is a link to that rule
in the documentation when the output is a terminal: an OSC 8 hyperlink, which terminals that
know it show as a link and others as the plain id. ``--color never`` (or ``NO_COLOR`` in the
environment) prints plain text, ``--color always`` links and colours even into a pipe.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import itertools
import os
import re
import shutil
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from types import FrameType
from typing import Any
from urllib.parse import quote

import attrs
import click

from ._io.archive import CHUNK, INTERNAL, Source, check_sources, failure, in_chunks, sources
from ._io.files import WriteRefused, check_target, open_text, write_text
from ._io.jsonio import MAX_RECORD_BYTES, RecordError, decode, json_text
from ._io.records import GameRecord
from ._io.seats import redact
from ._io.validation import ValidationReport, validate
from ._replay.replay import Decision, Visitor, play_random
from ._rules.engine import glory
from ._rules.errors import RulesError
from ._rules.events import Event
from ._rules.options import Options
from ._rules.said import Said, said, said_list
from ._rules.words import given
from ._seat.observation import observation
from ._text import rulebook
from ._text.html_replay import replay_html
from ._text.i18n import LANGUAGES, environment_language, say, translate
from ._text.narration import Narrator

OPTION_NAMES = tuple(Options.choices())
"""The rule options ``simulate --option`` can set (spec §12)."""


COLOUR = ("auto", "always", "never")
"""The choices of ``--color``: on a terminal unless ``NO_COLOR`` is set, always, never."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ethnos-rules", prog_name="ethnos-rules")
@click.option(
    "--color",
    "colour",
    type=click.Choice(COLOUR),
    default="auto",
    show_default=True,
    help="Colour, and rule ids as links to their rule, in what is printed: on a terminal"
    " (auto; NO_COLOR set in the environment turns them off), always, or never (plain text).",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The language of the referee's words (refusals, the game told, the replay page): en,"
    " es, pt, uk or cs. By default the environment's locale (LANGUAGE, LC_ALL, LC_MESSAGES,"
    " LANG), else English. Rule ids, the notation and records stay as they are.",
)
@click.pass_context
def main(ctx: click.Context, colour: str, lang: str | None) -> None:
    """Referee Ethnos (first edition) game records.

    A record is a JSON file holding a game's setup and every decision in the action notation
    (see the "Game records" page of the documentation). Rule ids in what is printed link to
    their rule on a terminal; "ethnos-rules rule ID" prints what a rule says.
    """
    ctx.color = _colour(colour)
    ctx.obj = {"lang": lang or environment_language()}


def _lang() -> str:
    """The language of this command (``--lang``, else the environment's locale)."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return str(obj["lang"]) if isinstance(obj, dict) else environment_language()


def _say(text: str) -> str:
    """A marked sentence of the command in its language."""
    return say(text, _lang())


def _colour(choice: str) -> bool | None:
    """click's colour setting for ``--color``: True or False, or None to let click decide by
    the terminal."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return None


# --- rule ids as links ------------------------------------------------------------------------


def _links_on(err: bool = False) -> bool:
    """Whether rule ids go to standard output (or error) as links: as colour does (``--color``,
    ``NO_COLOR``), and by default on a terminal other than the Linux console (which would show
    the link's address as text)."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.color is not None:
        return ctx.color
    stream = sys.stderr if err else sys.stdout
    return stream.isatty() and os.environ.get("TERM") != "linux"


def hyperlink(text: str, url: str) -> str:
    r"""``text`` as a terminal hyperlink (OSC 8) to ``url``.

    >>> hyperlink("BAND-2", "/rules#BAND-2")
    '\x1b]8;;/rules#BAND-2\x1b\\BAND-2\x1b]8;;\x1b\\'
    """
    safe = quote(url, safe="!#$%&'()*+,-./:;=?@[]_~")  # no space nor control character
    return f"\x1b]8;;{safe}\x1b\\{text}\x1b]8;;\x1b\\"


def linked(text: str, links: bool = True) -> str:
    """``text`` with each rule id it names a :func:`hyperlink` to that rule's address (see
    :func:`ethnos_rules._text.rulebook.address`); ``text`` itself if not ``links``.

    >>> linked("3 cards > 2 markers (BAND-5)", links=False)
    '3 cards > 2 markers (BAND-5)'
    >>> linked("(BAND-5)").count("rules-1e.html#BAND-5")
    1
    """
    if not links:
        return text
    pieces: list[str] = []
    at = 0
    for mention in rulebook.mentions(text):
        if rulebook.known(mention.id):
            shown = text[mention.start : mention.end]
            pieces += [text[at : mention.start], hyperlink(shown, rulebook.address(mention.id))]
            at = mention.end
    return "".join(pieces) + text[at:]


def _echo(text: str, err: bool = False) -> None:
    """``click.echo`` with the rule ids of ``text`` as links where the output takes them."""
    click.echo(linked(text, _links_on(err)), err=err)


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
EXIT_FAILED = 4
"""``validate``'s exit status when the referee itself failed on a record (a defect of ours:
the record is reported with the exception, and the others are still checked)."""

JOBS_HELP = (
    "Processes to work with (default: every core); never more than the cores, nor than the"
    f" work needs (one per {CHUNK} records or games)."
)


def _cores() -> int:
    """The cores this process may run on."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if count is not None:
        return int(count() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _guarded(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` (on one record, its FILE argument) with a failure of the referee itself told
    as ``validate`` tells it in an archive run: ``FILE: ERROR: INTERNAL – …``, exit status 4,
    never a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except (KeyboardInterrupt, BrokenPipeError):  # Ctrl-C; a reader that stopped (| head):
            raise  # click ends quietly on both
        except Exception as err:  # a defect of ours, told as one
            report = failure(err)
            click.echo(
                f"{kwargs.get('file', '-')}: ERROR: {report.rule} – {report.reason}", err=True
            )
            sys.exit(EXIT_FAILED)

    return run


def _workers(jobs: int | None, items: int) -> int:
    """How many processes to use for ``items`` records or games: ``jobs`` (default every
    core), but no more than the cores, nor than the chunks of :data:`CHUNK` items."""
    cores = _cores()
    chunks = -(-items // CHUNK)
    return max(1, min(jobs or cores, cores, chunks))


def _refused(err: WriteRefused, option: str) -> click.BadParameter:
    return click.BadParameter(str(err), param_hint=f"'{option}'")


FORCE_HELP = "Replace the file(s) written if they exist (never an input file)."


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
    help=JOBS_HELP,
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
    N unreadable" (on stderr with --json). A record the referee itself fails on (a defect of
    ethnos-rules) is told as "ERROR: INTERNAL" with the exception, counted as failed, and the
    other records are still checked. The exit status is 0 if every record is valid, 1 if some
    break a rule, 3 if some cannot be read at all, 4 if the referee failed on some.
    """
    counts = {"valid": 0, "invalid": 0, "unreadable": 0, "failed": 0}
    found = sources(paths)
    cap = max(1, min(jobs or _cores(), _cores()))
    ahead = list(itertools.islice(found, cap * CHUNK))  # enough to know how many workers
    workers = _workers(jobs, len(ahead))
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        results = check_sources(itertools.chain(ahead, found), pool)
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
    click.echo(_say(_counts_told(counts)), err=as_json)
    if counts["failed"]:
        sys.exit(EXIT_FAILED)
    if counts["unreadable"]:
        sys.exit(EXIT_UNREADABLE)
    sys.exit(EXIT_INVALID if counts["invalid"] else 0)


def _many(paths: Sequence[str]) -> bool:
    """Whether the paths may hold several records (several paths, a folder, a .jsonl file)."""
    return len(paths) > 1 or any(p.endswith(".jsonl") or os.path.isdir(p) for p in paths)


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
    failed = report.rule == INTERNAL
    kind = "valid" if ok else "failed" if failed else "invalid" if report.readable else "unreadable"
    counts[kind] += 1
    if quiet and ok:
        return
    if clear and sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    if as_json:
        click.echo(json_text({"file": source.where, **report.to_dict(), "accepted": ok}))
        return
    summary = report.summary()
    if failed:
        summary = said("ERROR: {rule} – {reason}", rule=report.rule, reason=report.reason)
    if report.ok and not ok:
        summary = said(
            "INVALID: incomplete, and --complete asks for whole games: {players} players,"
            " {decisions} decisions, and the record ends before the game does",
            players=report.players,
            decisions=report.decisions,
        )
    where = source.where if report.line is None else f"{source.where}:{report.line}"
    _echo(f"{where}: {_reason_in_language(summary, report)}")


def _reason_in_language(line: str, report: ValidationReport) -> str:
    """``line`` in the command's language: the whole line where it is a marked sentence (a
    report's summary), else the refusal's reason in it (where the rules marked it)."""
    if isinstance(line, Said) and _lang() != "en":
        return say(line, _lang())
    reason = report.reason
    if not isinstance(reason, Said) or _lang() == "en" or str(reason) not in line:
        return line
    return line.replace(str(reason), say(reason, _lang()), 1)


def _counts_told(counts: dict[str, int]) -> str:
    """``3 valid, 1 invalid, 0 unreadable`` (and the records that failed, if any)."""
    kinds = {
        "valid": said("{n} valid", n=counts["valid"]),
        "invalid": said("{n} invalid", n=counts["invalid"]),
        "unreadable": said("{n} unreadable", n=counts["unreadable"]),
    }
    told = [kinds[kind] for kind in ("valid", "invalid", "unreadable")]
    if counts["failed"]:
        failed = said("{n} failed", n=counts["failed"])
        told.append(said("{told} (a defect of ethnos-rules: please report it)", told=failed))
    return said_list(told)


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
    help="Write here: a file; with --games, a folder (one record per game) or a .jsonl file."
    " An existing file (or a game file already in the folder) is replaced only with --force.",
)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    default=None,
    help="Play this many games, seeds SEED, SEED+1, ... (a dataset; needs --out).",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, help=JOBS_HELP)
def simulate_command(
    players: int,
    seed: int,
    tribes: str | None,
    first_player: int | None,
    option_pairs: Sequence[str],
    claim: bool,
    seat: int | None,
    out: str | None,
    force: bool,
    games: int | None,
    jobs: int | None,
) -> None:
    """Play a seeded random game and write its record (to standard output by default).

    Every decision is uniformly random among the legal ones and every chance outcome is drawn
    with its exact probability, so the same seed and arguments give the same record. With
    --seat N, the record is the one seat N would have kept: the cards it did not see are "?".
    With --games N, plays N games with seeds SEED to SEED+N-1 on every core (or --jobs) and
    writes them to the folder or .jsonl file --out as they are played, in seed order, with a
    progress bar on a terminal.
    """
    if seat is not None and seat >= players:
        raise click.BadParameter(f"{seat} is not a seat of {players} players", param_hint="--seat")
    setup = _Setup(
        players, _split_tribes(tribes), first_player, _options(option_pairs), claim, seat
    )
    if games is not None:
        _dataset(setup, seed, games, out, (jobs, force))
        return
    if out is not None and os.path.isdir(out):
        raise click.BadParameter(
            f"{out} is a folder: name a file, or use --games", param_hint="--out"
        )
    if out is not None:
        try:
            check_target(out, force=force)
        except WriteRefused as err:
            raise _refused(err, "--out") from None
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


def _simulated_chunk(setup: _Setup, seeds: Sequence[int]) -> list[GameRecord]:
    """The records of a chunk of seeds (a task for a process of a pool)."""
    return [_simulated(setup, seed) for seed in seeds]


def _dataset(
    setup: _Setup, seed: int, games: int, out: str | None, how: tuple[int | None, bool]
) -> None:
    """Write ``games`` seeded games to the folder or .jsonl file ``out``, as they are played
    (``how``: --jobs, --force)."""
    jobs, force = how
    if out is None:
        raise click.BadParameter("a dataset needs --out: a folder or a .jsonl file")
    if out.endswith(".json"):  # a folder of that name is surely not what was meant
        raise click.BadParameter(
            f"{games} games go to a folder or a .jsonl file (one record per line), not to"
            f" {given(out)}: try --out {out[: -len('.json')]}.jsonl",
            param_hint="'--out'",
        )
    seeds = range(seed, seed + games)
    width = len(str(seeds[-1]))  # seeds of one width, so that names sort like numbers
    try:
        if out.endswith(".jsonl") or not os.path.isdir(out):
            check_target(out, force=force)
        elif not force:
            _check_folder(out, seeds, width)
    except WriteRefused as err:
        raise _refused(err, "--out") from None
    _simulated(setup, seed)  # a setup the rules refuse stops here, before --out is touched
    workers = _workers(jobs, games)
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:  # a bounded number of chunks on their way: memory stays flat for any --games
        play = functools.partial(_simulated_chunk, setup)
        played = in_chunks(play, seeds, pool)
        with (
            _terminate_as_interrupt(),
            click.progressbar(played, length=games, label="simulating", file=sys.stderr) as bar,
        ):
            _write_all(bar, out, width)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    click.echo(_say(said("wrote {games} games to {out}", games=games, out=out)), err=True)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Stop on SIGTERM (as ``kill`` and ``timeout`` send) as on Ctrl-C, so that a file being
    written is removed rather than left under its temporary name."""
    owner = os.getpid()

    def stop(signum: int, _frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a worker process forked meanwhile ends as it would have
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (an embedding program): leave signals alone
        previous = None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _game_file(seed: int, width: int) -> str:
    return f"game-{seed:0{width}}.json"


def _check_folder(out: str, seeds: range, width: int) -> None:
    """Refuse a folder that already holds a file this run would write (read once, whatever
    the number of games).

    Raises:
        WriteRefused: naming a few of them.
    """
    clashes = []
    with os.scandir(out) as entries:
        for entry in entries:
            found = re.fullmatch(r"game-(-?[0-9]+)\.json", entry.name)
            if found and int(found[1]) in seeds and entry.name == _game_file(int(found[1]), width):
                clashes.append(entry.name)
    if clashes:
        clashes.sort()
        named = ", ".join(clashes[:3]) + (
            f" and {len(clashes) - 3} more" if len(clashes) > 3 else ""
        )
        raise WriteRefused(
            f"the folder {out} already holds {len(clashes)} of the files this run would write"
            f" ({named}): add --force to replace them, or choose another folder"
        )


def _write_all(records: Iterator[tuple[int, GameRecord]], out: str, width: int) -> None:
    """Write each record as it comes: a line of the .jsonl file ``out`` (renamed into place
    at the end; removed if the run fails), or a file of the folder ``out``."""
    try:
        if out.endswith(".jsonl"):
            with open_text(out) as f:
                for _, record in records:
                    f.write(record.to_json(indent=None) + "\n")
            return
        os.makedirs(out, exist_ok=True)
        for seed, record in records:
            write_text(os.path.join(out, _game_file(seed, width)), record.to_json() + "\n")
    except OSError as err:
        where = click.format_filename(out)
        cannot = said("cannot write {out}: {why}", out=where, why=err.strerror or err)
        click.echo(_say(cannot), err=True)
        sys.exit(1)


def _write(record: GameRecord, out: str | None) -> bool:
    """Write ``record`` to ``out``, or to standard output (then False: nothing more to say)."""
    if out is None:
        click.echo(record.to_json())
        return False
    try:
        write_text(out, record.to_json() + "\n")
    except OSError as err:
        where = click.format_filename(out)
        cannot = said("cannot write {out}: {why}", out=where, why=err.strerror or err)
        click.echo(_say(cannot), err=True)
        sys.exit(1)
    return True


# --- redact -----------------------------------------------------------------------------------


@main.command("redact")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--seat", type=click.IntRange(min=0), required=True, help="The seat whose view.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True),
    help="Write here (an existing file only with --force, never FILE itself).",
)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@_guarded
def redact_command(file: str, seat: int, out: str | None, force: bool) -> None:
    """Write the game in FILE as the player in SEAT would have kept it.

    The cards that seat did not see become "?" ("reveal ?", "keep ?"), and the rest of each
    other player's hand put face up into the row is shown ("rest ..."). The exit status is 1 if
    the record is unreadable or breaks a rule, its claimed Glory included ("The claimed Glory
    is refused: …"); nothing is written then. It is 4 if the referee itself fails on the
    record (a defect of ethnos-rules, told as "ERROR: INTERNAL").
    """
    if out is not None:
        try:
            check_target(out, [file], force=force)
        except WriteRefused as err:
            raise _refused(err, "--out") from None
    try:
        record = _read(file)
        kept = redact(record, seat)
    except RecordError as err:
        click.echo(f"{file}: {err}", err=True)
        sys.exit(1)
    except RulesError as err:
        where = "; ".join(getattr(err, "__notes__", ()))
        _echo(f"{file}: {where}: {err}" if where else f"{file}: {err}", err=True)
        sys.exit(1)
    if record.claimed_glory is not None:  # as validate and replay, a wrong claim is refused
        report = validate(record)
        if not report.ok:
            _echo(f"{file}: {_refusal(report)}", err=True)
            sys.exit(1)
    if _write(kept, out):
        wrote = said(
            "wrote {out}: {n} decisions as seat {seat} saw them",
            out=out,
            n=len(kept.actions),
            seat=seat,
        )
        click.echo(_say(wrote), err=True)


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
    " board (arrow keys or buttons), instead of telling it (an existing file only with"
    " --force, never FILE itself).",
)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@_guarded
def replay_command(file: str, at: int | None, html_out: str | None, force: bool) -> None:
    """Tell the game in FILE in plain English, decision by decision.

    Says who recruited what, who played which band and why a marker was or was not placed,
    what each tribe ability did, the Dragons, and each Age's scoring with its tie splits, citing
    the rule ids. With --at N, stops after N decisions and shows the state (for a record kept
    at one seat, what that seat sees). The exit status is 1 if the record is unreadable or
    breaks a rule, its claimed Glory included; 4 if the referee itself fails on the record (a
    defect of ethnos-rules, told as "ERROR: INTERNAL").
    """
    if html_out is not None:
        try:
            check_target(html_out, [file], force=force)
        except WriteRefused as err:
            raise _refused(err, "--html") from None
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
            _echo(f"{file}: {_reason_in_language(report.summary(), report)}", err=True)
        sys.exit(0 if report.ok else 1)
    narrator = Narrator(record, _lang())
    if record.seat is not None:
        seen = said(
            "(As seat {seat} saw the game: the other players' unseen cards are not told.)",
            seat=record.seat,
        )
        click.echo(_say(seen))
    links = _links_on()
    sentences = _sentences(record) if _lang() != "en" else {}
    for line in narrator.tell(at):
        click.echo(_styled(linked(_line_in_language(line, sentences), links), line))
    if at is not None and narrator.state is not None and narrator.error is None:
        click.echo("")
        if record.seat is None:
            click.echo(_say(said("--- The state after {at} decisions ---", at=at)))
            click.echo(_say(str(narrator.state)))
        else:  # the state replayed is one possibility; the seat's view is what is known
            heading = said(
                "--- What seat {seat} sees after {at} decisions ---", seat=record.seat, at=at
            )
            click.echo(_say(heading))
            click.echo(str(observation(narrator.state, record.seat)))
    if narrator.error is None and at is None and not _claims_hold(record):
        sys.exit(1)
    sys.exit(1 if narrator.error is not None else 0)


class _Sentences(Visitor[dict[str, Event]]):
    """Every event of a record, by its English sentence."""

    def __init__(self) -> None:
        self.found: dict[str, Event] = {}

    def begin_game(self, start: Any, events: tuple[Event, ...]) -> None:
        self.found.update((str(e), e) for e in events)

    def visit_decision(self, decision: Decision) -> None:
        self.found.update((str(e), e) for e in decision.events)

    def result(self) -> dict[str, Event]:
        return self.found


def _sentences(record: GameRecord) -> dict[str, Event]:
    return record.accept(_Sentences())


def _line_in_language(line: str, sentences: dict[str, Event]) -> str:
    """A line of the game told in the command's language where it is an event's sentence (the
    narration's own lines, such as headings and summaries, are marked sentences)."""
    if isinstance(line, Said) and _lang() != "en":
        return say(line, _lang())
    text = line.lstrip(" ")
    event = sentences.get(text)
    return line if event is None else line[: len(line) - len(text)] + translate(event, _lang())


def _claims_hold(record: GameRecord) -> bool:
    """Whether the Glory the record claims (if any) is what the rules give, as validate says;
    if not, say so."""
    if record.claimed_glory is None:
        return True
    report = validate(record)
    if report.ok:
        return True
    click.echo(_styled(linked(_refusal(report), _links_on())))
    return False


def _refusal(report: ValidationReport) -> str:
    """What refuses a record whose decisions all replay: its claimed Glory (else the
    report's summary)."""
    if report.index is None and report.claims:
        return _say(
            said(
                "The claimed Glory is refused: {rule} – {reason}.",
                rule=report.rule,
                reason=report.reason,
            )
        )
    return _say(report.summary())


def _styled(line: str, told: str | None = None) -> str:
    """A line of the narration with colour for a terminal (click drops it elsewhere): the
    Age headings, the turn numbers, refusals. ``told`` is the English line that ``line``
    says in the command's language (its kind is read from it)."""
    told = line if told is None else told
    template = told.template if isinstance(told, Said) else ""
    if line.startswith(("===", "---")):
        return click.style(line, fg="cyan", bold=True)
    if told.startswith("Turn "):
        turn, _, rest = line.partition(": ")
        return click.style(turn + ":", bold=True) + " " + rest
    if " is refused: " in told or " is refused: " in template:
        return click.style(line, fg="red", bold=True)
    return line


def _write_html(record: GameRecord, out: str, at: int) -> None:
    page = replay_html(record, at=at, lang=_lang())
    try:
        write_text(out, page)
    except OSError as err:
        click.echo(_say(said("{out}: cannot write: {why}", out=out, why=err.strerror)), err=True)
        sys.exit(1)
    size = len(page) // 1024
    if at:
        wrote = said(
            "wrote {out} ({size} KiB, at step {at}): open it in a browser",
            out=out,
            size=size,
            at=at,
        )
    else:
        wrote = said("wrote {out} ({size} KiB): open it in a browser", out=out, size=size)
    click.echo(_say(wrote), err=True)


# --- rule -------------------------------------------------------------------------------------


@main.command("rule")
@click.argument("ids", nargs=-1, metavar="[ID]...")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per rule.")
def rule_command(ids: Sequence[str], as_json: bool) -> None:
    """Print what rules say: each ID's title, its words and its address.

    ID is a rule id as the referee cites it (BAND-2, TRIBE-ELF-1; in any case), or the start
    of some (TRIBE-MER) or a section's id (BAND, CHANCE) for each rule it holds. Without ID,
    lists every rule's id and title, section by section. The address is the rule's anchor on
    the rules page of the documentation; ETHNOS_RULES_DOCS in the environment names another
    root for it (for instance file:///home/me/ethnos-rules/docs/_build/html/). An ID the rules
    text does not have is a usage error (exit status 2) that names the closest ids.
    """
    named = {name: _rules_named(name) for name in ids}
    unknown = [_unknown(name) for name, found in named.items() if found is None]
    if unknown:
        raise click.BadParameter("; ".join(unknown), param_hint="'ID'")
    if not ids:
        _index(as_json)
    for count, (name, found) in enumerate(named.items()):
        section = _section_named(name)
        if as_json:  # a section without rules is a rule of its own, as the rule catalogue says
            for ident in found or [name for name in [section] if name]:
                click.echo(json_text(_rule_json(ident)))
            continue
        if count:
            click.echo("")
        _tell_rules(found or [], section)


def _rules_named(name: str) -> list[str] | None:
    """The rule ids ``name`` names (itself, or every rule its stem opens), or None if it names
    none; in any case (``band-5A``)."""
    ident = _spelled(name)
    if ident in rulebook.rules():
        return [ident]
    if not rulebook.known(ident):
        return None
    return [r for r in rulebook.rules() if r.startswith(f"{ident}-")]


def _section_named(name: str) -> str | None:
    """The section ``name`` is the id of, if any."""
    ident = _spelled(name)
    return ident if ident in rulebook.sections() else None


def _spelled(name: str) -> str:
    """``name`` as the rules text spells it (``band-5A`` is ``BAND-5a``), else in capitals."""
    spelled = {ident.casefold(): ident for ident in [*rulebook.rules(), *rulebook.contents()]}
    return spelled.get(name.casefold(), name.upper())


def _unknown(name: str) -> str:
    """Why ``name`` is refused, with the closest ids the text has."""
    ids = {ident.upper(): ident for ident in [*rulebook.rules(), *rulebook.contents()]}
    close = difflib.get_close_matches(name.upper(), list(ids), n=4, cutoff=0.5)
    hint = f" (the closest: {', '.join(ids[c] for c in close)})" if close else ""
    return f"the rules text has no rule {given(name)}{hint}"


def _rule_json(ident: str) -> dict[str, str]:
    """A rule (or a section without rules) as ``rule --json`` prints it."""
    found = rulebook.rules().get(ident)
    if found is None:
        part = rulebook.section(ident)
        found = rulebook.Rule(part.id, part.title, part.intro, part.id)
    return {**attrs.asdict(found), "address": rulebook.address(ident)}


def _width() -> int:
    """The width to wrap to: the terminal's, within 40 to 100 columns."""
    return max(40, min(shutil.get_terminal_size().columns, 100))


def _tell_rules(ids: Sequence[str], section: str | None) -> None:
    """Each rule of ``ids``, after its section's heading and words if it is a section's id."""
    links, width = _links_on(), _width()
    told = []
    if section is not None:
        part = rulebook.section(section)
        told.append((part.id, part.title, part.intro))
    told += [(ident, rulebook.rule(ident).title, rulebook.rule(ident).sentence) for ident in ids]
    for count, (ident, title, words) in enumerate(told):
        if count:
            click.echo("")
        shown = hyperlink(ident, rulebook.address(ident)) if links else ident
        click.echo(click.style(shown, bold=True) + (f" {title}" if title else ""))
        if words:
            wrapped = click.wrap_text(words, width, initial_indent="  ", subsequent_indent="  ")
            click.echo(linked(wrapped, links))
        click.echo(f"  {rulebook.address(ident)}")


def _index(as_json: bool) -> None:
    """Every rule's id and title (or its first words), section by section."""
    if as_json:
        for part in rulebook.contents().values():
            for ident in part.rules or (part.id,):
                click.echo(json_text(_rule_json(ident)))
        return
    width = _width()
    for part in rulebook.contents().values():
        click.echo(click.style(part.id, bold=True) + f" {part.title}")
        for ident in part.rules:
            found = rulebook.rule(ident)
            title = found.title or found.sentence
            line = f"  {ident:<12} {title}"
            click.echo(line if len(line) <= width else line[: width - 1] + "…")


# --- play -------------------------------------------------------------------------------------

PLAY_DIR = "ethnos-games"
"""Where ``play`` saves each game's record by default (in the current folder)."""


@main.command("play")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; another than 127.0.0.1 (such as 0.0.0.0) lets other"
    " devices of the network join (each seat by its own secret link).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="The port (0: a free one).",
)
@click.option("--no-browser", is_flag=True, help="Do not open the start page in a browser.")
@click.option(
    "--resume",
    type=click.Path(dir_okay=False, exists=True),
    metavar="FILE",
    help="Play on the game saved in FILE (a record this command wrote); it is saved as a new"
    " file in the --save-dir folder (FILE is left as it is).",
)
@click.option(
    "--save-dir",
    "--dir",
    "save_dir",
    type=click.Path(file_okay=False),
    default=PLAY_DIR,
    show_default=True,
    help="The folder each new game's record is saved to, after every decision.",
)
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    default=64,
    show_default=True,
    help="The most games kept in memory (the oldest are dropped; their records stay saved).",
)
def play_command(
    host: str, port: int, no_browser: bool, resume: str | None, save_dir: str, max_games: int
) -> None:
    """Play Ethnos in the browser against bots or people, the referee explaining every refusal.

    Starts a web server on this machine (127.0.0.1, a free port unless --port), prints its
    address and opens it in the browser. The start page sets up a game: 2 to 6 seats, each a
    person or a bot, the tribes, the rule options and a seed. People play on one device in
    turn (hot-seat) or each on their own by a secret link. Each game's record is saved after
    every decision; --resume FILE plays on a saved game. Ctrl-C stops the server.
    """
    try:
        import uvicorn

        from ._play.games import GameStore
        from ._play.server import app
    except ImportError as err:
        raise click.ClickException(
            f"ethnos-rules play needs the [play] extra ({err.name or err} is missing):"
            ' pip install "ethnos-rules[play]"'
        ) from None
    store = GameStore(save_dir, max_games=max_games)
    links: list[str] = []
    first = "/"
    if resume is not None:
        try:
            game = store.resume(GameRecord.read(resume))
        except (RecordError, RulesError) as err:
            raise click.BadParameter(f"{resume}: {err}", param_hint="'--resume'") from None
        people = [seat for seat, kind in enumerate(game.kinds) if kind == "person"]
        links = [f"seat {seat}: /seat/{game.id}/{game.secret_of(seat)}" for seat in people]
        hotseat = f"/hotseat/{game.id}/{game.secret_of(None)}"
        links.append(f"hot-seat: {hotseat}")
        first = f"/seat/{game.id}/{game.secret_of(people[0])}" if len(people) == 1 else hotseat
        playing = said(
            "playing on {record} ({n} decisions); saved to {path}",
            record=resume,
            n=game.version,
            path=game.path,
        )
        click.echo(_say(playing))
    sock = _listening(host, port)
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{sock.getsockname()[1]}"
    for link in links:  # each seat's own address, to send to the person who sits there
        who, _, path = link.partition(": ")
        click.echo(f"{who}: {address}{path}")
    click.echo(_say(said("ethnos-rules play: {address} (Ctrl-C to stop)", address=address + first)))
    if host not in ("127.0.0.1", "localhost", "::1"):
        listening = said(
            "Listening on {host}: other devices of the network can reach this server; each"
            " seat still needs its secret link.",
            host=host,
        )
        click.echo(_say(listening), err=True)
    server = uvicorn.Server(uvicorn.Config(app(store), log_level="warning", lifespan="off"))
    if not no_browser:
        _open_when_up(server, address + first)
    server.run(sockets=[sock])


def _listening(host: str, port: int) -> Any:
    """A socket listening on ``host`` and ``port`` (0: a free port), so the address is known,
    and can be connected to, before the server starts."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # connections wait from now on, before the server is up
    except OSError as err:
        sock.close()
        raise click.BadParameter(
            f"cannot listen on {host}:{port}: {err.strerror or err}", param_hint="'--host'"
        ) from None
    return sock


def _open_when_up(server: Any, url: str) -> None:
    """Open ``url`` in the browser once ``server`` has started."""
    import threading
    import time
    import webbrowser

    def opening() -> None:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        if server.started:
            webbrowser.open(url)

    threading.Thread(target=opening, daemon=True).start()


if __name__ == "__main__":  # pragma: no cover
    main()
