"""Golden playthroughs: seeded games for 2, 3, 4 and 6 players, compared byte for byte with
``tests/golden/*.txt``. The games and their text format are in ``golden_games.py``; after an
intended change of behaviour, rewrite the files with ``python scripts/regenerate_golden.py``
and review the diff.
"""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import pytest

from ethnos_rules import apply, is_terminal, new_game
from golden_games import (
    EVENTS_DIR,
    GAMES,
    GOLDEN_DIR,
    REGENERATE,
    GoldenGame,
    decide,
    render,
    render_events,
)
from test_properties import AgeChecks, InvariantChecks, Step


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_golden_playthrough(game: GoldenGame) -> None:
    """CHANCE, TURN-1, END-1..6, GAME-1..3: the seeded game plays exactly as recorded — every
    decision, the number of legal actions before it, the Glory and gains of each Age, the
    winners."""
    assert_as_recorded(game.path, render(game), game.name)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_golden_events(game: GoldenGame) -> None:
    """The same games tell the same events, every field of each: who drew what from where, each
    band and ability, every kingdom's ranking and awards, the Age summaries (what narration,
    validation and the adapters read)."""
    assert_as_recorded(game.events_path, render_events(game), f"{game.name} (events)")


def assert_as_recorded(path: Path, text: str, name: str) -> None:
    """Fail with the first differences unless ``path`` holds exactly ``text``."""
    if not path.exists():
        pytest.fail(f"{path} is missing; create it with: {REGENERATE}", pytrace=False)
    data = path.read_bytes()
    if text.encode() != data:
        recorded = data.decode(errors="replace")
        diff = difflib.unified_diff(
            recorded.splitlines(),
            text.splitlines(),
            fromfile=f"{path.name} (recorded)",
            tofile=f"{path.name} (played now)",
            lineterm="",
            n=2,
        )
        shown = "\n".join(list(diff)[:40])
        pytest.fail(
            f"golden playthrough {name} changed. If the change is intended, run\n"
            f"    {REGENERATE}\nand review `git diff tests/golden`. First differences:\n{shown}",
            pytrace=False,
        )


def test_golden_files_are_exactly_the_games() -> None:
    """The golden folders hold one file per golden game and nothing else."""
    expected = sorted(f"{game.name}.txt" for game in GAMES)
    assert sorted(path.name for path in GOLDEN_DIR.glob("*.txt")) == expected, REGENERATE
    assert sorted(path.name for path in EVENTS_DIR.glob("*.txt")) == expected, REGENERATE


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_golden_games_follow_the_spec(game: GoldenGame) -> None:
    """COMP-3, COMP-6, RECRUIT-4, AGE-2..6, END-1..6, SCORE-*, GAME-1..3: the recorded games
    pass the independent checks of the property tests at every step, so their end-of-Age
    gains and winners agree with the spec, not only with the referee."""
    rng = random.Random(game.seed)
    state = new_game(game.players, tribes=game.tribes)
    checks = (InvariantChecks(), AgeChecks(game.players))
    index = 0
    while not is_terminal(state):
        action = decide(state, rng)
        step = Step(index, state, action, apply(state, action))
        for check in checks:
            check(step)
        state = step.after
        index += 1
