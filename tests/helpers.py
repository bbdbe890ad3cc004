"""Helpers shared by the tests: tribe sets, explicit glory-token layouts, short ways to play, the
checks that a refusal is a clean :class:`~ethnos_rules.RulesError` (and which rule refuses what,
and why), and the command line runner."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner, Result

from ethnos_rules import (
    FIRST_EDITION,
    Action,
    GameState,
    RecordError,
    RulesError,
    Ruleset,
    apply,
    legal_actions,
    parse_action,
    position,
)
from ethnos_rules.cli import main

ROOT = Path(__file__).resolve().parents[1]
"""The repository."""

EXAMPLES = ROOT / "examples" / "records"
"""The example game records."""

# --- tribe sets ---------------------------------------------------------------------------------

SIX_TRIBES = ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]
"""Six tribes for 4–6 players (SETUP-3): 72 cards."""

FIVE_TRIBES = ["DWA", "ELF", "GIA", "MER", "ORC"]
"""Five tribes for 2–3 players (SETUP-3): 60 cards."""

TRIBES_4P = ["DWA", "GIA", "MER", "ORC", "SKE", "TRO"]
TRIBES_SMALL = ["DWA", "GIA", "ORC", "SKE", "TRO"]
"""Tribe sets with every end-of-Age piece (Merfolk only with 4–6 players)."""

GIA_SET = ["DWA", "GIA", "ORC", "SKE", "TRO", "WIN"]
"""Giants, Orcs and Trolls without Merfolk: 72 cards."""

HAL_SET = ["HAL", "MIN", "ORC", "SKE", "TRO", "WIN"]
"""Halflings, Minotaurs and Wingfolk."""

MER_SET = ["MER", "MIN", "ORC", "SKE", "TRO", "WIN"]
MER_SET_SMALL = ["MER", "MIN", "ORC", "SKE", "TRO"]
"""Merfolk, for 4–6 and for 2–3 players."""


def ruleset_like_first(name: str, *extra: tuple[str, str]) -> Ruleset:
    """A ruleset with the first edition's printed components (its own objects, not the first
    edition's), plus ``extra`` tribes ``(code, name)`` after them, with the Elves' ability."""
    first = FIRST_EDITION
    elves = first.tribe("ELF").ability
    return first.variant(
        name,
        tribes=[*(t.code for t in first.tribes), *((c, n, elves, False) for c, n in extra)],
    )


# --- glory tokens -------------------------------------------------------------------------------

# Glory token layouts, given explicitly so every expected award can be read off here (lowest
# token on space I). 4–6 players use all 18 tokens (COMP-5): 0,0,2,2,4,4,4,4,6,6,6,6,6,8,8,8,10,10.
TOKENS_4P = {
    "Althea": [0, 4, 8],
    "Duris": [0, 4, 8],
    "Ithys": [2, 4, 6],
    "Pelagon": [6, 6, 8],
    "Rhea": [2, 6, 10],
    "Straton": [4, 6, 10],
}
# 2–3 players: the 4+ tokens 0,4,4,6,6,10 are removed (SETUP-4), leaving
# 0,2,2,4,4,6,6,6,8,8,8,10, two per kingdom.
TOKENS_SMALL = {
    "Althea": [0, 6],
    "Duris": [2, 6],
    "Ithys": [4, 8],
    "Pelagon": [6, 8],
    "Rhea": [2, 8],
    "Straton": [4, 10],
}

LAYOUT_4P = [[0, 0, 2], [2, 4, 4], [4, 4, 6], [6, 6, 6], [6, 8, 8], [8, 10, 10]]
"""COMP-5: the 18 default tokens, 3 per kingdom in kingdom order (SETUP-4)."""


def tokens_for(players: int) -> dict[str, list[int]]:
    """The layout above for this player count."""
    return TOKENS_SMALL if players <= 3 else TOKENS_4P


# --- playing ------------------------------------------------------------------------------------


def act(state: GameState, *texts: str) -> GameState:
    """Apply the actions written in the notation, in order."""
    for text in texts:
        state = apply(state, parse_action(text))
    return state


def legal(state: GameState) -> list[str]:
    """The legal actions as text."""
    return [str(a) for a in legal_actions(state)]


def end_age(state: GameState) -> GameState:
    """The player to move draws the third Dragon (needs ``dragons_drawn=2, top_left=0``)."""
    return act(state, "recruit deck", "reveal DRAGON")


def gains(state: GameState, seat: int) -> dict[str, int]:
    """Non-zero end-of-Age Glory of ``seat`` in the last finished Age, by source."""
    return {src: g for src, g in state.history[-1].gains[seat] if g}


def at_end(players: int = 4, tribes: list[str] | None = None, **kwargs: Any) -> GameState:
    """A position whose next deck draw (by the player to move) is the third Dragon of the Age,
    with the token layouts above; tribes default to :data:`TRIBES_4P` / :data:`TRIBES_SMALL`."""
    if tribes is None:
        tribes = TRIBES_SMALL if players <= 3 else TRIBES_4P
    kwargs.setdefault("tokens", tokens_for(players))
    return position(players, tribes, dragons_drawn=2, top_left=0, **kwargs)


# --- refusals -----------------------------------------------------------------------------------

E = TypeVar("E", bound=RulesError)


def refused(call: Callable[[], object], error: type[E]) -> E:
    """The error ``call`` raises: of class ``error``, naming a rule, its message printable."""
    with pytest.raises(error) as info:
        call()
    err = info.value
    assert err.rule and err.reason
    assert str(err).startswith(err.rule) or isinstance(err, RecordError)
    return err


def assert_refused(
    target: GameState | Callable[[], object],
    action: Action | str | None = None,
    *,
    rule: str,
    words: Sequence[str] = (),
    reason: str | None = None,
    error: type[RulesError] = RulesError,
) -> RulesError:
    """Check a refusal in full and return it.

    ``target`` is a state, in which ``action`` (an :class:`~ethnos_rules.Action` or its text) is
    applied, or a call that must be refused (``action`` is then the action the error must carry,
    None for a refusal of no action). The error must be of class ``error``, name ``rule``, hold
    each of ``words`` in its reason (or have exactly the ``reason`` given), carry the refused
    action, and print as ``RULE: reason``.
    """
    if isinstance(action, str):
        action = parse_action(action)
    if isinstance(target, GameState):
        assert action is not None, "a refusal in a state needs the action refused"
        state, refused_action = target, action

        def call() -> object:
            return apply(state, refused_action)

    else:
        call = target
    with pytest.raises(error) as info:
        call()
    err = info.value
    assert err.rule == rule, f"refused by {err.rule}, not {rule}: {err.reason}"
    assert reason is None or err.reason == reason, f"the reason is {err.reason!r}"
    missing = [w for w in words if w not in err.reason]
    assert not missing, f"the reason {err.reason!r} does not say {missing}"
    assert err.action == action, f"the error carries {err.action!r}, not {action!r}"
    assert str(err).startswith(f"{rule}: {err.reason}")
    return err


# --- the command line ---------------------------------------------------------------------------


def run(*args: str, input: bytes | str | None = None) -> Result:
    """Run the ``ethnos-rules`` command line with click's test runner."""
    return CliRunner().invoke(main, list(args), input=input)


def install_debian(packages: Sequence[str], ready: Callable[[], bool]) -> str | None:
    """Make ``ready()`` true by installing Debian's ``packages`` when this machine can (root
    with apt-get; the package lists are updated if a first try fails): None once ready,
    otherwise why not, for a test to skip with."""
    if ready():
        return None
    apt = shutil.which("apt-get")
    if apt is None:
        return f"no apt-get to install Debian's {' and '.join(packages)}"
    command = [apt, "install", "-y", "-q", *packages]
    for before in ([], [[apt, "update", "-q"]]):
        for step in before:
            subprocess.run(step, capture_output=True, timeout=600, check=False)
        done = subprocess.run(command, capture_output=True, timeout=900, check=False)
        if done.returncode == 0 and ready():
            return None
    return f"installing {' and '.join(packages)} failed: {done.stderr.decode()[-300:]}"
