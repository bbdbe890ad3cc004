"""Golden playthroughs: seeded games written as text, shared by the test and the script.

``tests/test_golden.py`` renders every game of :data:`GAMES` in memory and compares it byte for
byte with ``tests/golden/<name>.txt``, and the events of each decision, every field of each,
with ``tests/golden/events/<name>.txt``; ``python scripts/regenerate_golden.py`` rewrites those
files with :func:`write_all`. Any change to the legal actions, their order or text, the chance
probabilities, scoring, or what an event tells shows up as a diff of these files.

The decisions are made by :func:`decide`, which is frozen on purpose (it is not the test
strategies' random player, so changing those never changes these files): one
``random.Random(seed)`` draws a chance outcome with its exact probability, or picks a player's
decision uniformly among ``legal_actions``.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from pathlib import Path

import attrs

from ethnos_rules import (
    Action,
    Card,
    GameState,
    apply,
    chance_outcomes,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    step,
    to_move,
    winners,
)
from ethnos_rules._rules.events import trace

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
"""Where the golden files live."""

EVENTS_DIR = GOLDEN_DIR / "events"
"""Where the golden files of the games' events live."""

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

    @property
    def events_path(self) -> Path:
        """The golden file of the game's events."""
        return EVENTS_DIR / f"{self.name}.txt"


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


def field_text(value: object) -> str:
    """``value`` as the events file shows it: every field of an attrs object by name, cards by
    their code, enum members by name, tuples and sets (sorted) item by item."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, Card):
        return str(value)
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))  # type: ignore[arg-type]
        inner = ", ".join(f"{f.name}={field_text(getattr(value, f.name))}" for f in fields)
        return f"{type(value).__name__}({inner})"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(field_text, value)) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, frozenset):
        return "{" + ", ".join(sorted(map(field_text, value))) + "}"
    return repr(value)


def render_events(game: GoldenGame) -> str:
    """The golden events of ``game``: each decision, then every event it made, every field."""
    rng = random.Random(game.seed)
    state, events = trace(new_game, game.players, tribes=game.tribes)
    lines = [
        f"# Ethnos golden events {game.name}: the game of ../{game.name}.txt",
        "# lines: decision index and action (new_game first), then each event it made, with",
        "#   every field",
        f"# regenerate with: {REGENERATE}",
        "   - new_game",
        *(f"     {field_text(event)}" for event in events),
    ]
    index = 0
    while not is_terminal(state):
        action = decide(state, rng)
        result = step(state, action)
        lines.append(f"{index:4} {action}")
        lines += [f"     {field_text(event)}" for event in result.events]
        state = result.state
        index += 1
    return "\n".join(lines) + "\n"


def write_all() -> list[tuple[Path, bool]]:
    """Rewrite every golden file; return each path and whether its content changed."""
    EVENTS_DIR.mkdir(parents=True, exist_ok=True)
    out = []
    for game in GAMES:
        renders: list[tuple[Path, Callable[[GoldenGame], str]]] = [
            (game.path, render),
            (game.events_path, render_events),
        ]
        for path, make in renders:
            text = make(game).encode()
            changed = not path.exists() or path.read_bytes() != text
            if changed:
                path.write_bytes(text)
            out.append((path, changed))
    return out
