"""The editions this library referees: their printed components with their tribes' abilities.

The first edition is built here, from the printed data of spec §1 and §2 and the ability
classes of :mod:`~ethnos_rules._rules.tribes`: every number an edition fixes is in its
declaration, and the rules read them from there. A smaller edition is declared the same way
(:meth:`Ruleset.variant <ethnos_rules.Ruleset.variant>` starts from this one); :func:`register`
lets :func:`ruleset` (and so a snapshot) find it by name. Nothing is registered as a side
effect of importing a module: :func:`default_ruleset` returns the first edition.
"""

from __future__ import annotations

from .components import COLOURS, Ruleset, small_side
from .errors import SetupError
from .options import Options
from .said import said
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
    colours=COLOURS,
    copies=2,
    copies_per_colour={"HAL": 4},
    wild_copies=12,
    band_glory=(0, 1, 3, 6, 10, 15),
    troll_tokens=(1, 2, 3, 4, 5, 6),
    orc_glory=(1, 3, 6, 10, 15, 20),
    giant_values=((2, 4, 6), (2, 5)),
    dragons=3,
    markers=26,
    hand_limit=10,
    ages=(3, 2),
    tribes_in_play=(6, 5),
    token_spaces=(3, 2),
    players=(2, 6),
    default_options=Options(),
    home=f"{__name__}:FIRST_EDITION",
)
"""The first-edition components (spec §1) and setup numbers (spec §2); its glory tokens and
Merfolk board are the defaults of :class:`~ethnos_rules.Options` (COMP-5, COMP-10)."""

RULESETS: dict[str, Ruleset] = {FIRST_EDITION.name: FIRST_EDITION}
"""Every edition, by name."""


def default_ruleset() -> Ruleset:
    """The first-edition ruleset, which a game uses unless given another."""
    return FIRST_EDITION


def tokens_per_kingdom(players: int) -> int:
    """Glory tokens per kingdom in a first-edition game (SETUP-4): 3, or 2 with 2–3 players."""
    return FIRST_EDITION.token_spaces[small_side(players)]


def register(edition: Ruleset) -> Ruleset:
    """Make ``edition`` known to :func:`ruleset` by its name (a snapshot names its edition);
    registering it again is harmless.

    Raises:
        SetupError: (``COMP-2``) for what is not a :class:`Ruleset`, or a name another
            edition has.
    """
    if not isinstance(edition, Ruleset):
        raise SetupError(
            "COMP-2",
            said("only a Ruleset can be registered, not {edition}", edition=given(edition)),
        )
    known = RULESETS.setdefault(edition.name, edition)
    if known is not edition:
        raise SetupError(
            "COMP-2", said("another edition is registered as {name}", name=given(edition.name))
        )
    return edition


def ruleset(name: str) -> Ruleset:
    """The edition registered as ``name`` (``"1e"``, or one :func:`register` made known).

    Raises:
        KeyError: naming the editions known, for any other name.
    """
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {given(name)} (known: {', '.join(RULESETS)})") from None
