"""Reading an HTML replay page in the tests: the data its script unpacks (JSON, compressed with
zlib, in base64), and its views' titles, lines and hints."""

from __future__ import annotations

import base64
import json
import re
import zlib
from typing import Any

_PACKED = re.compile(r'const PACKED = "([A-Za-z0-9+/=]*)";\n')


def page_data(page: str) -> dict[str, Any]:
    """The data of a replay page, as its script reads it."""
    found = _PACKED.search(page)
    assert found is not None, "the page carries no PACKED data"
    data: dict[str, Any] = json.loads(zlib.decompress(base64.b64decode(found.group(1))))
    return data


def hint_of(data: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The hint panel of ``view``."""
    hint: dict[str, Any] = data["hints"][view["hint"]]
    return hint


def turn_lines(data: dict[str, Any], turn: dict[str, Any]) -> list[str]:
    """The lines a turn shows, as the page's script picks them."""
    if "lines" in turn:
        return list(turn["lines"])
    views = data["views"][turn["first"] : turn["last"] + 1]
    return [line for view in views for line in view["lines"]]
