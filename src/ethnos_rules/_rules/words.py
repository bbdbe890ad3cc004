"""Words for the sentences the rules speak: numbers, plurals, lists of seats and cards.

Nothing here knows a rule; events, descriptions and narration share these helpers so that a
sentence reads the same wherever it is written.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

GIVEN_LENGTH = 200
"""The most characters of a caller's value an error message repeats (:func:`given`)."""

ROMAN = ("0", "I", "II", "III", "IV", "V", "VI")
"""Roman numerals for Ages and token spaces (``ROMAN[2] == "II"``)."""


def plural(n: int, word: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` …"""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"


def seats_text(seats: Sequence[int]) -> str:
    """``seat 2``, ``seats 0 and 2``, ``seats 0, 1 and 3``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    head = ", ".join(str(s) for s in seats[:-1])
    return f"seats {head} and {seats[-1]}"


def and_list(words: Sequence[str]) -> str:
    """``Rhea``, ``Rhea and Duris``, ``Rhea, Duris and Ithys``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def cards_list(cards: Iterable[object]) -> str:
    """Cards as text separated by spaces, or ``nothing``."""
    return " ".join(map(str, cards)) or "nothing"


def cards_text(cards: Iterable[object]) -> str:
    """Cards as ``ELF-red x2 SKE``-style text, or ``-`` for none."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[str(card)] = counts.get(str(card), 0) + 1
    return " ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items()) or "-"


def given(value: object) -> str:
    """``repr(value)`` for an error message that repeats what a caller gave: at most
    :data:`GIVEN_LENGTH` characters, and a description where there is no repr to show (an
    integer of over 4,300 digits has none: Python refuses to write it)."""
    if isinstance(value, int) and value.bit_length() > 10_000:  # over 3,000 digits
        return f"an integer of about {round(value.bit_length() * math.log10(2)):,} digits"
    try:
        text = repr(value)
    except Exception:  # the caller's value is refused, whatever its repr does
        return f"a value of type {type(value).__name__} that cannot be shown"
    return shortened(text)


def shortened(text: str, limit: int = GIVEN_LENGTH) -> str:
    """``text``, cut to ``limit`` characters with ``...`` if it is longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
