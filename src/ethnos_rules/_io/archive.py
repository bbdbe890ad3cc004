"""Validating an archive: many records, from files, folders and JSON-lines files, on one core,
several, or any :class:`concurrent.futures.Executor` (a ``dask.distributed`` client's among
them).

- :func:`validate_many` validates game records and returns their reports in order.
- :func:`validate_files` validates the records that files and folders hold, unreadable ones
  included, as ``ethnos-rules validate`` does.
- :func:`sources` finds the records of paths: a ``.json`` file holds one, a ``.jsonl`` file one
  per line, a folder whatever such files it holds (searched recursively, in name order).
- :func:`check_source` reads and validates one of them; a record that cannot be read gets a
  report with rule ``RECORD`` (see :attr:`ValidationReport.readable`).
- A record on which the referee itself fails (an exception that is not a
  :class:`~ethnos_rules.RulesError`: a defect of ours) gets a report with rule
  :data:`INTERNAL` naming the exception, and the other records are still checked.

Work is sent to an executor in chunks, so that each task is worth its trip to a worker, with
a bounded number of chunks on their way.
"""

from __future__ import annotations

import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import BinaryIO, TypeVar

import attrs

from .._rules.words import given
from .jsonio import MAX_RECORD_BYTES, RecordError, decode, line_of
from .records import GameRecord
from .validation import ValidationReport, validate

T = TypeVar("T")
R = TypeVar("R")

INTERNAL = "INTERNAL"
"""The rule of a report on a record the referee failed on (a defect of ``ethnos-rules``, not of
the record): its reason names the exception and asks for a report."""

CHUNK = 4
"""Records per task sent to an executor: small enough that the last tasks keep every worker
busy, large enough that a task is worth its trip (a record takes 10 to 20 ms)."""


@attrs.frozen
class Source:
    """One record of an archive, as read: where it is, and its bytes or why they could not be
    read.

    Attributes:
        where: The file, ``FILE:LINE`` for a line of a ``.jsonl`` file, or ``-`` for standard
            input.
        data: The record's bytes, or None.
        error: Why the bytes could not be read, or None.
    """

    where: str
    data: bytes | None = None
    error: RecordError | None = None


def sources(paths: Iterable[str]) -> Iterator[Source]:
    """Every record that ``paths`` hold, in order: a folder's ``*.json`` and ``*.jsonl``
    files in name order (recursively), each line of a ``.jsonl`` file that is not blank, and
    ``-`` for one record on standard input. A record over :data:`MAX_RECORD_BYTES` is not read
    past the limit.
    """
    for path in paths:
        if path == "-":
            yield _bounded("-", sys.stdin.buffer.read(MAX_RECORD_BYTES + 1))
        elif os.path.isdir(path):
            found = sorted(
                p
                for p in Path(path).rglob("*")
                if p.suffix in (".json", ".jsonl") and not _folder(p)
            )
            if not found:
                yield Source(path, error=RecordError("the folder holds no .json or .jsonl file"))
            for file in found:
                yield from _file(str(file), found_in_folder=True)
        else:
            yield from _file(path)


def _folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # (a name too long, a loop of links, no permission): reported as a file
        return False


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_a_file(mode: int) -> str | None:
    """Why a file of this mode is not read as a record file (it is not a regular file), or
    None."""
    if stat.S_ISREG(mode):
        return None
    kind = next((said for test, said in _KINDS if test(mode)), "not a regular file")
    return f"cannot read the record file: it is {kind}, not a regular file"


def _open_found(path: str) -> BinaryIO:
    """Open a file found in a folder, which a name does not make a regular file: a named
    pipe, a device or a socket is refused without being read (a pipe would block), a link to
    nothing is told as such.

    Raises:
        RecordError: it is not a regular file, or it cannot be opened.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        if os.path.islink(path):
            raise RecordError(
                "cannot read the record file: it is a symbolic link to"
                f" {given(os.readlink(path))}, which cannot be read ({err.strerror or err})"
            ) from None
        raise RecordError(f"cannot read the record file: {err.strerror or err}") from None
    refused = _not_a_file(mode)
    if refused is not None:
        raise RecordError(refused)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags)  # without waiting, had it become a pipe since
    except OSError as err:
        raise RecordError(f"cannot read the record file: {err.strerror or err}") from None
    refused = _not_a_file(os.fstat(handle).st_mode)
    if refused is not None:
        os.close(handle)
        raise RecordError(refused)
    return os.fdopen(handle, "rb")


def _file(path: str, *, found_in_folder: bool = False) -> Iterator[Source]:
    """The records of one file. A file named on the command line is opened as it is (it may
    be a pipe, as ``<(…)`` makes); one found in a folder must be a regular file."""
    if "\0" in path:  # open() would raise ValueError: no file is named so
        yield Source(path, error=RecordError("cannot read the record file: its name holds NUL"))
        return
    try:
        handle = _open_found(path) if found_in_folder else open(path, "rb")  # noqa: SIM115
    except RecordError as err:
        yield Source(path, error=err)
        return
    except OSError as err:
        yield _cannot_read(path, err)
        return
    try:
        with handle:
            if not path.endswith(".jsonl"):
                yield _bounded(path, handle.read(MAX_RECORD_BYTES + 1))
                return
            count = 0
            for number, line in enumerate(_lines(handle), start=1):
                if line.strip():
                    count += 1
                    yield _bounded(f"{path}:{number}", line.rstrip(b"\r\n"))
            if not count:  # as an empty folder is: nothing to check is not a success
                yield Source(
                    path, error=RecordError("the file holds no record (every line is blank)")
                )
    except OSError as err:
        yield _cannot_read(path, err)


def _cannot_read(path: str, err: OSError) -> Source:
    return Source(path, error=RecordError(f"cannot read the record file: {err.strerror or err}"))


def _lines(handle: BinaryIO) -> Iterator[bytes]:
    """The lines of a binary file, none read past :data:`MAX_RECORD_BYTES` (the rest of a
    longer line is skipped, and the line reported as too large)."""
    read = handle.readline
    while True:
        line = read(MAX_RECORD_BYTES + 2)  # a record of the limit, and its line's end
        if not line:
            return
        if len(line.rstrip(b"\r\n")) > MAX_RECORD_BYTES and not line.endswith(b"\n"):
            while True:  # skip what is left of the line, a bounded piece at a time
                rest = read(MAX_RECORD_BYTES)
                if not rest or rest.endswith(b"\n"):
                    break
        yield line


def _bounded(where: str, data: bytes) -> Source:
    if len(data) > MAX_RECORD_BYTES:
        limit = MAX_RECORD_BYTES // (1024 * 1024)
        return Source(
            where, error=RecordError(f"the record is larger than the limit of {limit} MiB")
        )
    return Source(where, data=data)


def check_source(source: Source) -> ValidationReport:
    """The report of one record of an archive (``RECORD`` when it cannot be read,
    :data:`INTERNAL` when the referee fails on it)."""
    try:
        return _check(source)
    except Exception as err:  # a defect of ours: told for this record, the others go on
        return failure(err)


def _check(source: Source) -> ValidationReport:
    if source.error is not None:
        return ValidationReport.refused(source.error)
    if source.data is None:
        raise TypeError("a Source holds neither data nor an error")
    try:
        text = decode(source.data)
        record = GameRecord.from_json(text)
    except RecordError as err:
        report = ValidationReport.refused(err)
    else:
        report = validate(record)
    if report.ok or report.path is None or "\n" not in text:
        return report  # (a line of a .jsonl file is already named by its FILE:LINE)
    return attrs.evolve(report, line=line_of(text, report.path))


def failure(err: BaseException) -> ValidationReport:
    """The report on a record the referee failed on with ``err``: rule :data:`INTERNAL`, the
    exception's type and message, and a request to report the defect."""
    said = str(err).splitlines()[0][:300] if str(err) else ""
    what = f"{type(err).__name__}: {said}" if said else type(err).__name__
    return ValidationReport(
        ok=False,
        rule=INTERNAL,
        reason=(
            f"the referee failed on this record ({what}); this is a defect of ethnos-rules,"
            " not a verdict on the record: please report it with the record"
        ),
    )


def _failed(_item: object, err: BaseException) -> ValidationReport:
    return failure(err)


def _check_chunk(chunk: Sequence[Source]) -> list[ValidationReport]:
    return [check_source(source) for source in chunk]


def _validate_one(record: GameRecord) -> ValidationReport:
    try:
        return validate(record)
    except Exception as err:  # a defect of ours: told for this record, the others go on
        return failure(err)


def _validate_chunk(chunk: Sequence[GameRecord]) -> list[ValidationReport]:
    return [_validate_one(record) for record in chunk]


def in_chunks(
    work: Callable[[Sequence[T]], list[R]],
    items: Iterable[T],
    executor: Executor | None,
    chunk: int = CHUNK,
    failed: Callable[[T, BaseException], R] | None = None,
) -> Iterator[tuple[T, R]]:
    """Each item with ``work``'s result for it, in order: here, or on ``executor`` a chunk at
    a time, with at most :func:`window` chunks on their way, so that an archive of any size
    is never all in memory at once (``items`` is read no further ahead than that).

    When ``work`` raises on a chunk (or its worker dies), the chunk's items are done again one
    by one, and an item that fails alone gets ``failed(item, error)`` as its result; without
    ``failed``, the error is raised.
    """
    batches = _batches(items, chunk)
    if executor is None:
        for batch in batches:
            yield from _here(work, batch, failed)
        return
    pending: deque[tuple[list[T], Future[list[R]]]] = deque()
    most = window(executor)
    for batch in batches:
        pending.append((batch, _submitted(executor, work, batch, failed is not None)))
        if len(pending) >= most:
            done, future = pending.popleft()
            yield from _collected(work, done, future, executor, failed)
    while pending:
        done, future = pending.popleft()
        yield from _collected(work, done, future, executor, failed)


def _submitted(
    executor: Executor, work: Callable[[Sequence[T]], list[R]], batch: list[T], keep_on: bool
) -> Future[list[R]]:
    """``work`` on ``batch`` sent to ``executor``; if it refuses the task (a broken pool),
    with ``keep_on``, a future holding that error, for each item of the chunk to be told."""
    try:
        return executor.submit(work, batch)
    except Exception as err:
        if not keep_on:
            raise
        refused: Future[list[R]] = Future()
        refused.set_exception(err)
        return refused


def window(executor: Executor) -> int:
    """How many chunks :func:`in_chunks` keeps on their way to ``executor``: two per worker
    of a pool that says how many it has, else :data:`WINDOW`."""
    workers = getattr(executor, "_max_workers", None)
    return 2 * workers if isinstance(workers, int) and workers > 0 else WINDOW


def _here(
    work: Callable[[Sequence[T]], list[R]],
    batch: list[T],
    failed: Callable[[T, BaseException], R] | None,
) -> Iterator[tuple[T, R]]:
    try:
        results = work(batch)
    except Exception:
        if failed is None:
            raise
        for item in batch:  # the items the chunk failed on get the failure; the others, work
            try:
                yield item, work([item])[0]
            except Exception as alone:
                yield item, failed(item, alone)
        return
    yield from zip(batch, results, strict=True)


def _collected(
    work: Callable[[Sequence[T]], list[R]],
    batch: list[T],
    future: Future[list[R]],
    executor: Executor,
    failed: Callable[[T, BaseException], R] | None,
) -> Iterator[tuple[T, R]]:
    try:
        results = future.result()
    except Exception:
        if failed is None:
            raise
        for item in batch:  # again one at a time (a broken pool refuses them at once)
            try:
                yield item, executor.submit(work, [item]).result()[0]
            except Exception as alone:
                yield item, failed(item, alone)
        return
    yield from zip(batch, results, strict=True)


WINDOW = 64
"""Chunks sent to an executor and not yet collected, at most, when it does not say how many
workers it has; a process pool gets two chunks per worker (with records of up to 8 MiB, a pool
of 2 holds at most 16 records, 128 MiB, on their way)."""


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def validate_many(
    records: Iterable[GameRecord], *, executor: Executor | None = None
) -> list[ValidationReport]:
    """The report of each record, in order: validated here, or on ``executor``.

    Any :class:`concurrent.futures.Executor` will do: a ``ProcessPoolExecutor`` for the cores
    of one machine, or ``client.get_executor()`` of a ``dask.distributed`` client for a
    cluster. The records are sent in chunks of :data:`CHUNK`, a few per worker at a time. A
    record the referee fails on (an exception that is not a RulesError: a defect of ours) gets
    a report with rule :data:`INTERNAL` naming the exception, and the others are still
    validated; if a worker process dies, the records it had and those after it on the broken
    pool get such a report too.

    >>> from concurrent.futures import ProcessPoolExecutor
    >>> from ethnos_rules import GameRecord, play_random, validate_many
    >>> records = [GameRecord.from_playthrough(play_random(2, seed)) for seed in range(4)]
    >>> with ProcessPoolExecutor(2) as pool:
    ...     reports = validate_many(records, executor=pool)
    >>> [report.ok for report in reports]
    [True, True, True, True]

    Raises:
        RecordError: an item is not a GameRecord.
    """
    checked = []
    for record in records:
        if not isinstance(record, GameRecord):
            raise RecordError(f"validate_many takes GameRecords, not {type(record).__name__}")
        checked.append(record)
    return [report for _, report in in_chunks(_validate_chunk, checked, executor, CHUNK, _failed)]


def check_sources(
    found: Iterable[Source], executor: Executor | None = None
) -> Iterator[tuple[Source, ValidationReport]]:
    """Each source with its report, in order, checked here or on ``executor``; a failure of
    the referee on one of them is its report (:data:`INTERNAL`), and the others go on."""
    return in_chunks(_check_chunk, found, executor, CHUNK, _failed)


def validate_files(
    paths: Iterable[str | os.PathLike[str]], *, executor: Executor | None = None
) -> Iterator[tuple[str, ValidationReport]]:
    """Where each record of ``paths`` is, with its report, in order, as ``ethnos-rules
    validate`` reads them: a ``.json`` file holds one record, a ``.jsonl`` file one per line
    (``FILE:LINE``), a folder the records of its files (recursively, in name order). Input
    that is not a readable record gets a report too, with rule ``RECORD`` and ``readable``
    False, rather than an exception: a missing or unreadable file, a folder or ``.jsonl`` file
    with no record, bytes that are not a record, an entry of a folder named ``*.json`` that is
    not a regular file (a named pipe, never opened; a device; a link to nothing). A record the
    referee fails on gets rule :data:`INTERNAL`, as in :func:`validate_many`. ``executor`` as
    for :func:`validate_many`.

    >>> from ethnos_rules import validate_files
    >>> for where, report in validate_files(["examples/records/valid-2p.json",
    ...                                       "examples/records/invalid-band.json", "nowhere"]):
    ...     print(where, report.ok, report.rule)
    examples/records/valid-2p.json True None
    examples/records/invalid-band.json False BAND-2
    nowhere False RECORD

    Raises:
        RecordError: ``paths`` is a single path, not a list of them, or holds something that
            is not a path as text (a ``str`` or a ``os.PathLike`` of one); nothing is read then.
    """
    if isinstance(paths, str | bytes | os.PathLike):
        raise RecordError(f"validate_files takes a list of paths, not the one path {given(paths)}")
    listed = [os.fspath(path) if isinstance(path, os.PathLike) else path for path in paths]
    for index, path in enumerate(listed):
        if not isinstance(path, str):
            raise RecordError(f"path {index} is a {type(path).__name__}, not text: {given(path)}")
    found = sources(listed)
    return ((source.where, report) for source, report in check_sources(found, executor))
