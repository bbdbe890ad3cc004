"""Perft for Ethnos: the number of nodes of the decision tree at depths 1..N below fixed
positions, like python-chess's perft files (issue 13). A regression golden
(``tests/golden/perft.tsv``, checked by ``tests/test_perft.py``) and a benchmark.

Convention: a node's children are its decisions as the library lists them: ``legal_actions``
where a player decides, and at a chance event every distinct outcome of ``chance_outcomes``
(one child each, whatever its probability: a draw has one child per card kind left, plus the
Dragon when one can come). A finished game has no children. Depth 1 counts the children of
the position, depth 2 their children, and so on (leaf counts, not running totals).

A position is a start (:data:`STARTS`) and a path of actions in the notation, applied in
order; ``scripts/regenerate_perft.py`` chooses the paths (seeded) and writes the file.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import ethnos_rules as er

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden" / "perft.tsv"

HALFLINGS = (
    "HAL-green HAL-green HAL-purple HAL-orange HAL-orange HAL-gray HAL-gray HAL-red HAL-blue SKE"
)
"""Issue 13's worst hand: Halflings of mixed colours and a Skeleton, 1,512 bands."""

STARTS: dict[str, Callable[[], er.GameState]] = {
    "new_game(2)": lambda: er.new_game(2),
    "new_game(4)": lambda: er.new_game(4),
    "halflings": lambda: er.position(
        4, ["CEN", "DWA", "ELF", "GIA", "HAL", "SKE"], hands={0: HALFLINGS}
    ),
}
"""Where the golden positions start; a path of actions is applied to these."""

SEPARATOR = " ; "


class Position(NamedTuple):
    """One line of the golden file."""

    name: str
    start: str
    path: tuple[str, ...]
    counts: tuple[int, ...]

    def state(self) -> er.GameState:
        """The position: the start, then the path."""
        state = STARTS[self.start]()
        for text in self.path:
            state = er.apply(state, er.parse_action(text))
        return state


def children(state: er.GameState) -> tuple[er.Action, ...]:
    """A node's children (see the convention above)."""
    if er.is_chance(state):
        return tuple(action for action, _ in er.chance_outcomes(state))
    return er.legal_actions(state)


def perft(state: er.GameState, depth: int) -> list[int]:
    """Nodes at depths 1..``depth`` below ``state``."""
    counts = [0] * depth

    def walk(node: er.GameState, level: int) -> None:
        actions = children(node)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                walk(er.apply(node, action), level + 1)

    walk(state, 0)
    return counts


def read(path: Path = GOLDEN) -> list[Position]:
    """The positions of a golden file."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, start, path_text, counts = line.split("\t")
        steps = tuple(path_text.split(SEPARATOR)) if path_text else ()
        out.append(Position(name, start, steps, tuple(int(c) for c in counts.split(","))))
    return out


HEADER = """\
# Perft of Ethnos (ethnos_rules, default options): nodes of the decision tree at depths 1..N.
# Each decision is a node; a player's children are legal_actions(state), a chance event's are
# its distinct outcomes (chance_outcomes: one child per outcome, whatever its probability); a
# finished game has none. The counts are leaf counts per depth, depth 1 first.
# A position is a start (benchmarks/perft.py STARTS) and a path of actions (notation, separated
# by ' ; '). Written by scripts/regenerate_perft.py; checked by tests/test_perft.py.
# name	start	path	counts at depths 1..N
"""


def write(positions: list[Position], path: Path = GOLDEN) -> None:
    """Write a golden file."""
    lines = [HEADER.rstrip("\n")]
    for p in positions:
        counts = ",".join(map(str, p.counts))
        lines.append(f"{p.name}\t{p.start}\t{SEPARATOR.join(p.path)}\t{counts}")
    path.write_text("\n".join(lines) + "\n")


# --- choosing the positions -------------------------------------------------------------------


def seeded_path(
    start: str, seed: int, stop: Callable[[er.GameState, int], bool], limit: int = 5000
) -> tuple[str, ...] | None:
    """A random path from ``start`` (players uniform, chance by its probabilities) up to the
    first state where ``stop(state, steps)`` holds; None if the game ends first."""
    rng = random.Random(seed)
    state = STARTS[start]()
    path: list[str] = []
    while not stop(state, len(path)):
        if er.is_terminal(state) or len(path) >= limit:
            return None
        if er.is_chance(state):
            action = er.sample_outcome(state, rng)
        else:
            action = rng.choice(er.legal_actions(state))
        path.append(str(action))
        state = er.apply(state, action)
    return tuple(path)


def _pending(name: str) -> Callable[[er.GameState, int], bool]:
    return lambda state, _: type(state.pending).__name__ == name


def _after(steps: int) -> Callable[[er.GameState, int], bool]:
    return lambda _, taken: taken >= steps


CHOICES: list[tuple[str, str, Callable[[er.GameState, int], bool]]] = [
    ("start-2p", "new_game(2)", _after(0)),
    ("start-4p", "new_game(4)", _after(0)),
    ("tokens-2p", "new_game(2)", _pending("LayTokensPending")),
    ("deal-4p", "new_game(4)", _pending("DealPending")),
    ("mid-2p", "new_game(2)", _after(150)),
    ("mid-4p", "new_game(4)", _after(300)),
    ("centaur-chain-4p", "new_game(4)", _pending("ChainPending")),
    ("elves-keep-4p", "new_game(4)", _pending("KeepPending")),
    ("orcs-end-of-age-4p", "new_game(4)", _pending("HordeEmptyPending")),
    ("halflings-1512", "halflings", _after(0)),
]
"""The golden positions: name, start, where the seeded path stops."""


def regenerate(budget: int = 10_000) -> Iterator[Position]:
    """The golden positions, each as deep as its total nodes stay within ``budget``."""
    for name, start, stop in CHOICES:
        path = None
        for seed in range(1, 200):
            path = seeded_path(start, seed, stop)
            if path is not None:
                break
        assert path is not None, name
        state = Position(name, start, path, ()).state()
        counts: list[int] = []
        for depth in range(1, 8):
            deeper = perft(state, depth)
            if sum(deeper) > budget and counts:
                break
            counts = deeper
            if not counts[-1]:
                break
        yield Position(name, start, path, tuple(counts))


def timed(positions: list[Position]) -> tuple[int, float]:
    """Walk every golden position to its depth, checking the counts: (nodes, seconds)."""
    nodes, elapsed = 0, 0.0
    for p in positions:
        state = p.state()
        began = time.perf_counter()
        counts = perft(state, len(p.counts))
        elapsed += time.perf_counter() - began
        if tuple(counts) != p.counts:
            raise AssertionError(f"perft {p.name}: {counts}, the golden file says {list(p.counts)}")
        nodes += sum(counts)
    return nodes, elapsed
