"""The exhaustive checks on the smallest scopes (``make exhaustive`` runs them all): every
reachable state and transition against the rules written out by brute force, and one seat's
records against every whole game. And the checks themselves: a rule broken on purpose is
caught.

Each scope's ``covers`` names rules its search must put to work (BAND-*, TRIBE-*, SCORE-*,
SETUP-*, AGE-*, TURN-*), so a search that stops reaching them fails.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from ethnos_rules._rules import bands, chance, scoring
from exhaustive.explore import Report, explore
from exhaustive.one_seat import check_one_seat
from exhaustive.scopes import ALL, ONE_SEAT_SCOPES, SMALLEST, Scope

_REPORTS: dict[str, Report] = {}


def _explored(scope: Scope) -> Report:
    """The search of ``scope`` (once per test session)."""
    if scope.name not in _REPORTS:
        _REPORTS[scope.name] = explore(scope)
    return _REPORTS[scope.name]


@pytest.mark.parametrize("scope", SMALLEST, ids=[s.name for s in SMALLEST])
def test_every_state_of_a_smallest_scope_keeps_the_rules(scope: Scope) -> None:
    """Every invariant, legal action, chance probability, transition, Glory gain, snapshot and
    notation round trip of every reachable state (BAND-1..5, CHANCE, END-*, SCORE-*, TURN-2);
    the scope reaches the rules it lists."""
    report = _explored(scope)
    assert report.violations == 0, "\n".join(map(str, report.kept))
    assert report.states > 100 and report.transitions > report.states
    assert report.terminal > 0, "no game ended"
    missing = [rule for rule in scope.covers if not report.reached[rule]]
    assert not missing, missing


def test_the_scopes_reach_every_tribe_and_the_two_player_and_tie_rules() -> None:
    """Between them the scopes of ``make exhaustive`` name every tribe's ability (TRIBE-*),
    BAND-5's two-player count, SCORE-2P-1 and the tie splits of SCORE-K-3 in what they must
    reach."""
    listed = " | ".join(rule for scope in ALL for rule in scope.covers)
    for tribe in ("CEN", "DWA", "ELF", "GIA", "MER", "MIN", "ORC", "TRO", "WIN", "WIZ"):
        assert f"TRIBE-{tribe}-" in listed, tribe
    for rule in ("BAND-4 HAL leads", "TRIBE-SKE-1", "TURN-3", "BAND-5 both players'"):
        assert rule in listed, rule
    for rule in ("SCORE-2P-1 a tie", "SCORE-K-3 a tie of 2 from rank 2", "share rounded down"):
        assert rule in listed, rule
    assert {s.players for s in ALL} == {2, 3}


def test_one_seat_records_of_the_smallest_scope() -> None:
    """Every whole game of the smallest one-seat scope, as each seat records it: the validator
    accepts exactly the records (and their starts) some whole game gives, refusing anything
    else at its first item no game fits; resampling draws each fitting game with its exact
    posterior probability (every way it can use its random numbers followed)."""
    scope = next(s for s in ONE_SEAT_SCOPES if s in SMALLEST)
    report = check_one_seat(scope)
    assert report.violations == [], report.violations[:5]
    assert report.games > 1000 and report.records > report.games
    assert 0 < report.refused < report.checked
    assert report.exact == report.records


# --- the checks catch a rule broken on purpose ---------------------------------------------------

_BAND_ACTIONS = bands.band_actions

BROKEN: dict[str, tuple[Any, str, Callable[..., Any], str]] = {
    # BAND-5: with 2 players both players' markers count; counting the player's own only
    "two-player placement": (bands, "counting_seats", lambda state, seat: (seat,), "placement"),
    # SCORE-K-3, SCORE-2P-1: a tie shares its awards, rounded down; not dividing them
    "tie split": (scoring, "tie_share", lambda total, members: total, "glory"),
    # CHANCE: a card kind's probability is its count over the cards left; one card more
    "draw probability": (
        chance,
        "_shares",
        lambda total, most: tuple(Fraction(n, total + 1) for n in range(most + 1)),
        "chance",
    ),
    # BAND-1..4: every band of the hand; the last one missing
    "a band missing": (bands, "band_actions", lambda hand: _BAND_ACTIONS(hand)[:-1], "legal"),
}
"""Rules broken on purpose: where, what, the broken version, the check that must fail."""


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_rule_is_caught(monkeypatch: pytest.MonkeyPatch, broken: str) -> None:
    """The search of the smallest scope finds each rule broken on purpose, naming the check
    that failed (BAND-1..5, SCORE-K-3, CHANCE)."""
    where, name, replacement, check = BROKEN[broken]
    monkeypatch.setattr(where, name, replacement)
    report = explore(next(s for s in SMALLEST if s.name == "options"))
    assert report.violations > 0
    assert check in {v.check for v in report.kept}, [str(v) for v in report.kept[:3]]
