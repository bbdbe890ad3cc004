"""The record schema says what the options and the first edition say (issue 36).

``record.schema.json`` is written by hand (it is published, with descriptions for readers); these
tests check each fact it states against where the rules keep it, so an option added, a value
allowed or a count changed in the rules fails here until the schema says it too.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from ethnos_rules import Options
from ethnos_rules._io.records import record_schema
from ethnos_rules._rules.editions import FIRST_EDITION
from ethnos_rules._rules.options import MerfolkBoard

SCHEMA = record_schema()
PROPERTIES: dict[str, Any] = SCHEMA["properties"]
OPTIONS: dict[str, Any] = PROPERTIES["options"]["properties"]


def test_the_schema_names_every_option_and_only_them() -> None:
    """Each field of Options has its entry in the schema's options, and no other entry."""
    assert set(OPTIONS) == {field.name for field in attrs.fields(Options)}
    assert PROPERTIES["options"]["additionalProperties"] is False


@pytest.mark.parametrize("name", sorted(Options.choices()))
def test_each_switch_allows_exactly_its_values(name: str) -> None:
    """A switch of spec §12 allows the values Options allows, the default first."""
    assert OPTIONS[name] == {"enum": list(Options.choices()[name])}
    assert getattr(Options(), name) == Options.choices()[name][0]


@pytest.mark.parametrize("name", ["glory_tokens", "glory_tokens_4plus"])
def test_the_token_lists_have_the_edition_s_length(name: str) -> None:
    """The glory tokens and the 4+ tokens have as many values as the edition's default."""
    count = len(getattr(FIRST_EDITION.default_options, name))
    assert (OPTIONS[name]["minItems"], OPTIONS[name]["maxItems"]) == (count, count)
    assert OPTIONS[name]["items"]["type"] == "integer"


def test_the_merfolk_board_has_each_field_of_the_board() -> None:
    """The Merfolk board names each field of MerfolkBoard; its award lists have the lengths
    the board requires (3 with 4-6 players, 2 with 2-3)."""
    board = OPTIONS["merfolk_board"]["properties"]
    assert set(board) == {field.name for field in attrs.fields(MerfolkBoard)}
    default = FIRST_EDITION.default_options.merfolk_board
    for name in ("values_large", "values_small"):
        count = len(getattr(default, name))
        assert (board[name]["minItems"], board[name]["maxItems"]) == (count, count)


def test_players_seats_tribes_and_tokens_are_the_edition_s() -> None:
    """Players (SETUP-1), seats, the tribes by code and how many are in play (SETUP-3), the
    kingdoms and their tokens (SETUP-4) are those of the first edition."""
    fewest, most = FIRST_EDITION.players
    assert (PROPERTIES["players"]["minimum"], PROPERTIES["players"]["maximum"]) == (fewest, most)
    for name in ("seat", "first_player"):
        assert (PROPERTIES[name]["minimum"], PROPERTIES[name]["maximum"]) == (0, most - 1)
    claims = PROPERTIES["claimed_glory"]
    assert (claims["minItems"], claims["maxItems"]) == (fewest, most)
    tribes = PROPERTIES["tribes"]
    assert tribes["items"]["enum"] == [t.code for t in FIRST_EDITION.tribes]
    in_play = FIRST_EDITION.tribes_in_play
    assert (tribes["minItems"], tribes["maxItems"]) == (min(in_play), max(in_play))
    tokens = PROPERTIES["glory_tokens"]
    assert tokens["propertyNames"]["enum"] == sorted(k.label for k in FIRST_EDITION.kingdoms)
    assert tokens["minProperties"] == len(FIRST_EDITION.kingdoms)
    spaces = FIRST_EDITION.token_spaces
    kingdom = tokens["additionalProperties"]
    assert (kingdom["minItems"], kingdom["maxItems"]) == (min(spaces), max(spaces))
