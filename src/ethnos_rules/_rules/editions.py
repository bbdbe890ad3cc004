"""The editions this library referees: their printed components with their tribes' abilities.

The first edition is the only one so far. It is built here, from the printed data of spec §1
and the ability classes of :mod:`~ethnos_rules._rules.tribes`, and nothing is registered as a
side effect of importing a module: :func:`default_ruleset` returns it, and :func:`ruleset`
finds an edition by name.
"""

from __future__ import annotations

from .components import Ruleset
from .tribes import (
    Centaurs,
    Dwarves,
    Elves,
    Giants,
    Halflings,
    Merfolk,
    Minotaurs,
    Orcs,
    Skeletons,
    Trolls,
    Wingfolk,
    Wizards,
)
from .words import given

FIRST_EDITION = Ruleset(
    name="1e",
    tribes=[
        ("CEN", "Centaurs", Centaurs(), False),
        ("DWA", "Dwarves", Dwarves(), False),
        ("ELF", "Elves", Elves(), False),
        ("GIA", "Giants", Giants(), False),
        ("HAL", "Halflings", Halflings(), False),
        ("MER", "Merfolk", Merfolk(), False),
        ("MIN", "Minotaurs", Minotaurs(), False),
        ("ORC", "Orcs", Orcs(), False),
        ("SKE", "Skeletons", Skeletons(), True),
        ("TRO", "Trolls", Trolls(), False),
        ("WIN", "Wingfolk", Wingfolk(), False),
        ("WIZ", "Wizards", Wizards(), False),
    ],
    copies_per_colour={"HAL": 4},
    wild_copies=12,
    band_glory=(0, 1, 3, 6, 10, 15),
    troll_tokens=(1, 2, 3, 4, 5, 6),
    orc_glory=(1, 3, 6, 10, 15, 20),
    giant_values=((2, 4, 6), (2, 5)),
    dragons=3,
    markers=26,
    hand_limit=10,
    home=f"{__name__}:FIRST_EDITION",
)
"""The first-edition components (spec §1)."""

RULESETS: dict[str, Ruleset] = {FIRST_EDITION.name: FIRST_EDITION}
"""Every edition, by name."""


def default_ruleset() -> Ruleset:
    """The first-edition ruleset (the only one so far)."""
    return FIRST_EDITION


def ruleset(name: str) -> Ruleset:
    """The edition called ``name`` (``"1e"``).

    Raises:
        KeyError: naming the editions known, for any other name.
    """
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {given(name)} (known: {', '.join(RULESETS)})") from None
