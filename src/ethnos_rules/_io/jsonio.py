"""Reading JSON strictly, and the error every unreadable record or snapshot raises.

Records and snapshots come from outside (a file, a web request), so their text is checked before
anything else: its size, its encoding, duplicate keys, NaN and Infinity, nesting. Every problem
is a :class:`RecordError` naming the JSON path, as ``$.actions[12]``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any

from .._rules.errors import RulesError
from .._rules.words import given

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record or snapshot text accepted (8 MiB); a whole game takes about 20 kB."""


class RecordError(RulesError):
    """A game record or snapshot that cannot be read: not JSON, not the schema, too large.

    The rule is ``"RECORD"``.

    Attributes:
        path: The JSON path of the problem (``"$.actions[12]"``), or None for the whole text.
        index: The decision index it concerns, if any.
    """

    def __init__(self, reason: str, path: str | None = None, index: int | None = None) -> None:
        self.path = path
        self.index = index
        super().__init__("RECORD", reason)
        where = f" at {path}" if path else ""
        self.args = (f"RECORD{where}: {reason}",)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason, self.path, self.index))


# --- JSON paths and strict JSON text ----------------------------------------------------------

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def json_path(parts: Iterable[str | int]) -> str:
    """A JSON path such as ``$.actions[3]`` from its keys and indexes."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _NAME.match(part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


class _DuplicateKeyError(ValueError):
    pass


_STEP = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def line_of(text: str, path: str) -> int | None:
    r"""The line (from 1) of ``text``, a JSON document, where the value at the JSON path
    ``path`` (as :func:`json_path` writes it) begins; None where the path is not there.

    >>> line_of('{"players": 2,\n "actions": [\n  "recruit deck",\n  "band *ELF-red"]}',
    ...         "$.actions[1]")
    4
    """
    steps: list[str | int] = []
    at = 1
    while at < len(path):
        found = _STEP.match(path, at)
        if path[0] != "$" or found is None:
            return None
        name, index, quoted = found.groups()
        steps.append(int(index) if index is not None else name or json.loads(quoted))
        at = found.end()
    try:
        pos = _SPACE.match(text, 0).end()  # type: ignore[union-attr]  # it always matches
        for step in steps:
            child = _child(text, pos, step)
            if child is None:
                return None
            pos = child
    except (ValueError, IndexError):  # not the JSON the path was found in
        return None
    return text.count("\n", 0, pos) + 1


def _child(text: str, pos: int, step: str | int) -> int | None:
    """Where the member ``step`` (a key, or an index) of the object or array at ``pos``
    begins, or None; every value before it is skipped by the decoder."""
    closing = "]" if isinstance(step, int) else "}"
    if text[pos] != ("[" if isinstance(step, int) else "{"):
        return None
    pos, member = _after_space(text, pos + 1), 0
    while text[pos] != closing:
        if isinstance(step, str):
            key, pos = _DECODER.raw_decode(text, pos)
            pos = _after_space(text, _after_space(text, pos) + 1)  # past the colon
            if key == step:
                return pos
        elif member == step:
            return pos
        pos = _after_space(text, _DECODER.raw_decode(text, pos)[1])
        pos = _after_space(text, pos + 1) if text[pos] == "," else pos
        member += 1
    return None


def _after_space(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]  # it always matches


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(f"the key {given(key)} appears twice in one object")
        out[key] = value
    return out


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def json_text(value: Any) -> str:
    """``value`` as one line of JSON, non-ASCII text as it is except lone surrogates, which
    stay ``\\uXXXX`` escapes (no UTF-8 text can hold them; reading gives them back)."""
    text = json.dumps(value, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_text(path: str | os.PathLike[str], what: str = "record") -> str:
    """The text of a record or snapshot file, refusing a file over :data:`MAX_RECORD_BYTES`.

    Raises:
        RecordError: the file cannot be read, is too large, or is not UTF-8.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read the {what} file: {err.strerror or err}") from None
    except ValueError:  # a NUL in the name: no file is named so
        raise RecordError(f"cannot read the {what} file: its name holds NUL") from None
    return decode(data, what)


def decode(data: str | bytes, what: str = "record") -> str:
    """``data`` as text: a str, or UTF-8 ``bytes`` or ``bytearray`` (a byte-order mark is
    allowed); size is checked.

    Raises:
        RecordError: neither text nor bytes, more than :data:`MAX_RECORD_BYTES`, or bytes that
            are not UTF-8.
    """
    if not isinstance(data, str | bytes | bytearray):
        raise RecordError(
            f"the {what} must be JSON text (str) or UTF-8 bytes, not {type(data).__name__}"
        )
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            f"the {what} is larger than the limit of {MAX_RECORD_BYTES // (1024 * 1024)} MiB"
        )
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RecordError(
            f"the {what} is not UTF-8 text (byte {err.start}: {err.reason})"
        ) from None


def load_json(text: str | bytes, what: str = "record") -> Any:
    """Parse JSON strictly: no duplicate keys, no NaN or Infinity, bounded size and depth.

    Raises:
        RecordError: naming the line and column of a syntax error.
    """
    text = decode(text, what)
    if not text.strip():
        raise RecordError(f"the {what} is empty")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as err:
        hint = ""
        if err.msg == "Extra data" and text[err.pos - 1 : err.pos] == "\n":
            # A second document on its own line: one record per line, as .jsonl files hold.
            hint = f"; several {what}s, one per line, are read from a .jsonl file"
        raise RecordError(
            f"the {what} is not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})"
            + hint
        ) from None
    except RecursionError:
        raise RecordError(f"the {what} nests arrays or objects too deeply") from None
    except _DuplicateKeyError as err:
        raise RecordError(f"the {what} is not acceptable JSON: {err}") from None
    except ValueError as err:  # NaN and Infinity, integers too long to convert
        reason = str(err) if "JSON number" in str(err) else "an integer has too many digits"
        raise RecordError(f"the {what} is not acceptable JSON: {reason}") from None
