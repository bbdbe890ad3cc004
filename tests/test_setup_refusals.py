"""The refusals of bad setup input, word for word: a seat, a kingdom or colour named, a tribe.

These checks guard every entry that takes a seat (the adapters, observations, seat views) and
every table a caller writes (token layouts, positions). A mutation run left their rule ids and
words unpinned; each case here names the rule and the whole reason.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ethnos_rules import Colour, Kingdom, SetupError, new_game
from ethnos_rules._rules.setup import check_seat, parse_named

KINGDOMS = "one of Althea, Duris, Ithys, Pelagon, Rhea, Straton"


@pytest.mark.parametrize(
    ("seat", "reason"),
    [
        (True, "a seat is an int, not True (bool)"),
        (np.int64(1), "a seat is an int, not np.int64(1) (numpy.int64)"),
        ("1", "a seat is an int, not '1' (str)"),
        (1.0, "a seat is an int, not 1.0 (float)"),
        (None, "a seat is an int, not None (NoneType)"),
        (4, "4 is not a seat of this 4-player game (0 to 3)"),
        (-1, "-1 is not a seat of this 4-player game (0 to 3)"),
    ],
)
def test_a_seat_that_is_not_one(seat: Any, reason: str) -> None:
    """SETUP-1: a seat is an int from 0 to players - 1 (a bool or numpy's int is refused, and
    said to be one, with its type)."""
    with pytest.raises(SetupError) as caught:
        check_seat(seat, 4)
    assert (caught.value.rule, caught.value.reason) == ("SETUP-1", reason)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_every_seat_of_the_game_is_one(seat: int) -> None:
    """SETUP-1: the seats 0 to players - 1 pass, the first and the last included."""
    check_seat(seat, 4)


@pytest.mark.parametrize(
    ("kind", "key", "rule", "where", "reason"),
    [
        (Kingdom, 3, "SETUP-4", None, f"unknown kingdom 3 ({KINGDOMS})"),
        (Kingdom, None, "SETUP-1", "kingdoms", f"kingdoms: unknown kingdom None ({KINGDOMS})"),
        (Kingdom, "atlantis", "SETUP-4", None, f"unknown kingdom 'atlantis' ({KINGDOMS})"),
        (Kingdom, "atlantis", "SETUP-1", "kingdoms", "kingdoms: unknown kingdom 'atlantis'"),
        (
            Colour,
            "pink",
            "SETUP-1",
            "horde",
            "horde: unknown colour 'pink' (one of green, purple, orange, gray, red, blue)",
        ),
        (
            Colour,
            2,
            "COMP-1",
            None,
            "unknown colour 2 (one of green, purple, orange, gray, red, blue)",
        ),
    ],
)
def test_a_kingdom_or_colour_named_wrongly(
    kind: Any, key: object, rule: str, where: str | None, reason: str
) -> None:
    """A kingdom or colour is itself or its name: anything else is refused under the rule the
    caller names, with where it was (when given) and the names it could have been."""
    with pytest.raises(SetupError) as caught:
        parse_named(kind, key, rule, where)
    assert caught.value.rule == rule
    assert caught.value.reason.startswith(reason), caught.value.reason


@pytest.mark.parametrize(
    ("kind", "key", "expected"),
    [
        (Kingdom, "rHeA", Kingdom.RHEA),
        (Kingdom, Kingdom.DURIS, Kingdom.DURIS),
        (Colour, "GRAY", Colour.GRAY),
        (Colour, Colour.RED, Colour.RED),
    ],
)
def test_a_kingdom_or_colour_named_rightly(kind: Any, key: object, expected: object) -> None:
    """A member is taken as it is, a name in any case is read."""
    assert parse_named(kind, key, "SETUP-1") is expected


@pytest.mark.parametrize(
    ("tribe", "shown"), [(3, "3"), (None, "None"), (b"WIZ", "b'WIZ'"), (["WIZ"], "['WIZ']")]
)
def test_a_tribe_that_is_not_named_by_its_code(tribe: Any, shown: str) -> None:
    """SETUP-3: a tribe is a Tribe or its code; anything else is shown as given."""
    with pytest.raises(SetupError) as caught:
        new_game(4, tribes=["DWA", "ELF", "GIA", "MER", "ORC", tribe])
    assert (caught.value.rule, caught.value.reason) == (
        "SETUP-3",
        f"a tribe is named by its code (e.g. 'ELF'), not {shown}",
    )
