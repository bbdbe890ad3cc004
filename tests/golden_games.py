"""Golden playthroughs: seeded games written as text, shared by the test and the script.

``tests/test_golden.py`` renders every game of :data:`GAMES` in memory and compares it byte for
byte with ``tests/golden/<name>.txt``; ``python scripts/regenerate_golden.py`` rewrites those
files with :func:`write_all`. Any change to the legal actions, their order or text, the chance
probabilities, or scoring shows up as a diff of these files.

The decisions are made by :func:`decide`, which is frozen on purpose (it is not the test
strategies' random player, so changing those never changes these files): one
``random.Random(seed)`` draws a chance outcome with its exact probability, or picks a player's
decision uniformly among ``legal_actions``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from pathlib import Path

from ethnos_rules import (
    Action,
    GameState,
    apply,
    chance_outcomes,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    to_move,
    winners,
)

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
"""Where the golden files live."""

REGENERATE = "python scripts/regenerate_golden.py"
"""The command that rewrites the golden files."""


@dataclass(frozen=True)
class GoldenGame:
    """One golden playthrough: ``tribes`` None leaves the tribes to chance (SETUP-3); the glory
    tokens and the first player are always chance decisions, the options the spec's defaults."""

    players: int
    seed: int
    tribes: tuple[str, ...] | None

    @property
    def name(self) -> str:
        """The file name without ``.txt``."""
        return f"game-{self.players}p-seed{self.seed}"

    @property
    def path(self) -> Path:
        """The golden file."""
        return GOLDEN_DIR / f"{self.name}.txt"


GAMES: tuple[GoldenGame, ...] = (
    GoldenGame(2, 1, ("DWA", "ELF", "MER", "SKE", "WIZ")),
    GoldenGame(3, 2, None),
    GoldenGame(4, 3, ("CEN", "GIA", "HAL", "ORC", "TRO", "WIN")),
    GoldenGame(6, 4, None),
)
"""The golden games: 2, 3, 4 and 6 players; fixed tribes for 2 and 4 players, chance-chosen
for 3 and 6."""


def decide(state: GameState, rng: random.Random) -> Action:
    """The next decision: a chance outcome with its exact probability (one ``randrange`` over
    the common denominator), else ``legal_actions[randrange(len)]``."""
    if is_chance(state):
        outcomes = chance_outcomes(state)
        denominator = lcm(*(p.denominator for _, p in outcomes))
        roll = Fraction(rng.randrange(denominator), denominator)
        for action, p in outcomes:
            if roll < p:
                return action
            roll -= p
        raise AssertionError("chance outcomes sum to less than 1")
    legal = legal_actions(state)
    return legal[rng.randrange(len(legal))]


def _header(game: GoldenGame) -> list[str]:
    tribes = " ".join(game.tribes) + " (given)" if game.tribes else "chosen by chance"
    return [
        f"# Ethnos golden playthrough {game.name}",
        f"# players: {game.players}; seed: {game.seed}; tribes: {tribes}",
        "# glory tokens and the Age I first player: chance; rule options: the spec's defaults",
        "# decisions: tests/golden_games.py decide(): chance outcomes drawn with their exact",
        "#   probabilities, player decisions uniform among legal_actions, random.Random(seed)",
        "# lines: decision index, who decided (seat N or chance), number of legal actions before",
        "#   it, the action; after each Age the Glory and each seat's end-of-Age gains by source",
        f"# regenerate with: {REGENERATE}",
    ]


def _age_lines(state: GameState) -> list[str]:
    summary = state.history[-1]
    glory = " ".join(map(str, summary.glory))
    lines = [f"== end of Age {summary.age} (third Dragon drawn by seat {summary.third_dragon})"]
    lines.append(f"== glory: {glory}")
    for seat, gains in enumerate(summary.gains):
        parts = ", ".join(f"{source} +{amount}" for source, amount in gains) or "nothing"
        lines.append(f"==   seat {seat}: {parts}")
    return lines


def render(game: GoldenGame) -> str:
    """The golden text of ``game``: header, one line per decision, Age summaries, winners."""
    rng = random.Random(game.seed)
    state = new_game(game.players, tribes=game.tribes)
    lines = _header(game)
    index = 0
    while not is_terminal(state):
        who = "chance" if is_chance(state) else f"seat {to_move(state)}"
        count = len(legal_actions(state))
        action = decide(state, rng)
        lines.append(f"{index:4} {who:6} {count:3} {action}")
        ages = len(state.history)
        state = apply(state, action)
        if len(state.history) > ages:
            lines += _age_lines(state)
        index += 1
    tribes = " ".join(t.code for t in state.tribes)
    lines.append(f"== tribes in play: {tribes}")
    lines.append(f"== winners: {' '.join(f'seat {s}' for s in winners(state))}")
    return "\n".join(lines) + "\n"


def write_all() -> list[tuple[Path, bool]]:
    """Rewrite every golden file; return each path and whether its content changed."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    out = []
    for game in GAMES:
        text = render(game).encode()
        changed = not game.path.exists() or game.path.read_bytes() != text
        if changed:
            game.path.write_bytes(text)
        out.append((game.path, changed))
    return out
