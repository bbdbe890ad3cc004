"""Writing files safely: never onto an input, never over a file unless asked, and never half
a file.

- :func:`check_target` says why a path must not be written (it is one of the inputs, or it
  exists and replacing was not asked for), or None.
- :func:`write_text` writes a whole file under a temporary name in the same folder and
  renames it into place, so that an interrupted run leaves the old file or the new one.
- :func:`open_text` does the same for a file written as it goes (a JSON-lines stream): the
  temporary file is renamed when the block ends, and removed if it fails.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from typing import TextIO


class WriteRefused(Exception):
    """A path that must not be written, and why (the message says it)."""


def same_file(one: str, other: str) -> bool:
    """Whether two paths name the same file: the same resolved path (symbolic links
    followed), or the same file on disk (a hard link)."""
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):  # one of them does not exist (or names nothing)
        return False


def _reads_from(path: str) -> bool:
    """Whether standard input is the file ``path``."""
    try:
        return os.path.samestat(os.fstat(0), os.stat(path))
    except (OSError, ValueError):  # no standard input, or no such file
        return False


def check_target(path: str, inputs: Iterable[str] = (), *, force: bool = False) -> None:
    """Refuse to write ``path`` when it is one of ``inputs`` (even with ``force``: a command
    never writes onto what it reads), or when it exists and ``force`` is not given. ``-``
    among ``inputs`` is standard input: refused too when it reads from ``path``
    (``< path``).

    Raises:
        WriteRefused: with the reason.
    """
    for given in inputs:
        if same_file(path, given) if given != "-" else _reads_from(path):
            where = "standard input, which reads it" if given == "-" else f"the input {given}"
            raise WriteRefused(
                f"{path} is {where}: a command never writes onto its input, even with"
                " --force; name another file"
            )
    if not force and os.path.lexists(path):
        kind = "a folder" if os.path.isdir(path) else "a file"
        raise WriteRefused(f"{path} already exists ({kind}): add --force to replace it")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def open_text(path: str) -> Iterator[TextIO]:
    """A text file (UTF-8) to write ``path`` through: it is written under a temporary name in
    the same folder and renamed to ``path`` (replacing any file there) when the block ends; if
    the block raises (an error, Ctrl-C), the temporary file is removed and ``path`` is left
    as it was.

    Raises:
        OSError: the temporary file cannot be made, written or renamed.
    """
    folder, name = os.path.split(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        os.chmod(temporary, 0o666 & ~_umask())  # as open() would have made it
        with os.fdopen(handle, "w", encoding="utf-8") as text:
            yield text
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_text(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file renamed into place.

    Raises:
        OSError: as :func:`open_text`.
    """
    with open_text(path) as handle:
        handle.write(text)
