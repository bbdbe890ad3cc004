"""Is the floor (``benchmarks/floor.py``) the same game as the library? Two checks.

- :func:`lockstep`: a random game of the library, with the floor driven decision by decision
  alongside it; at every decision the floor's option set must equal the library's legal set
  (chance outcomes included), and at the end the Glory and the number of decisions must agree.
- :func:`floor_perft`: node counts of the floor's decision tree from a position reached by a
  path of library actions, to compare with the library's perft (``benchmarks/perft.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import floor

import ethnos_rules as er


class Disagreement(AssertionError):
    """The floor and the library differ."""


def key(action: er.Action) -> Any:
    """The floor's value for a library action (see the options in ``floor.py``)."""
    if isinstance(action, er.Reveal):
        card = action.card
        return floor.DRAGON if card is er.DRAGON else card.index  # type: ignore[union-attr]
    if isinstance(action, er.Recruit):
        return floor.DECK if action.card is None else action.card.index
    if isinstance(action, er.PlayBand):
        return (action.leader.index, tuple(c.index for c in action.others))
    if isinstance(action, er.Pass):
        return floor.PASS
    if isinstance(action, er.StopChain):
        return floor.STOP
    if isinstance(action, er.Place | er.Checkpoint):
        return None if action.kingdom is None else int(action.kingdom)
    if isinstance(action, er.Keep):
        return None if action.card is None else action.card.index  # type: ignore[union-attr]
    if isinstance(action, er.AddToHorde):
        return action.add
    if isinstance(action, er.TakeTroll):
        return action.value
    if isinstance(action, er.WizardDraw):
        return action.count
    if isinstance(action, er.EmptyHorde):
        return tuple(int(c) for c in action.colours)
    if isinstance(action, er.ChooseTribe):
        return action.tribe.index
    if isinstance(action, er.LayTokens):
        return tuple(action.values)
    if isinstance(action, er.ChooseFirstPlayer):
        return action.seat
    raise TypeError(f"no floor value for {action!r}")


def _compare(state: er.GameState, options: Sequence[Any], where: str) -> list[Any]:
    legal = er.legal_actions(state)
    keys = [key(a) for a in legal]
    if (
        len(set(options)) != len(options)
        or len(set(keys)) != len(keys)
        or set(keys) != set(options)
    ):
        only_floor = sorted(map(repr, set(options) - set(keys)))
        only_lib = sorted(map(str, (a for a in legal if key(a) not in set(options))))
        raise Disagreement(
            f"{where}: library {state.pending.describe()!r} offers {len(keys)} actions, the floor"
            f" {len(options)}; only the floor: {only_floor[:8]}; only the library: {only_lib[:8]}"
        )
    return list(legal)


class _Lockstep(floor.Scripted):
    def __init__(self, players: int, rng: random.Random) -> None:
        super().__init__(players)
        self.state = er.new_game(players)
        self.chooser = rng

    def decide(self, options: list[Any]) -> Any:
        state = self.state
        legal = _compare(state, options, f"decision {self.decisions}")
        if er.is_chance(state):
            action = er.sample_outcome(state, self.chooser)
        else:
            action = self.chooser.choice(legal)
        self.state = er.apply(state, action)
        return key(action)


def lockstep(players: int, seed: int) -> int:
    """Play one random library game with the floor alongside; its decisions. Raises
    :class:`Disagreement` at the first difference."""
    game = _Lockstep(players, random.Random(seed))
    decisions = game.play()
    if not er.is_terminal(game.state):
        raise Disagreement(f"the floor ended after {decisions} decisions, the library did not")
    if tuple(game.glory) != er.glory(game.state):
        raise Disagreement(f"Glory: floor {game.glory}, library {er.glory(game.state)}")
    return decisions


class _Stop(Exception):
    def __init__(self, options: list[Any]) -> None:
        self.options = options


class _Replay(floor.Scripted):
    """Follows a path of floor values, then stops at the next decision with its options."""

    def __init__(self, players: int, path: Sequence[Any]) -> None:
        super().__init__(players)
        self.path = path
        self.at = 0

    def decide(self, options: list[Any]) -> Any:
        if self.at == len(self.path):
            raise _Stop(options)
        value = self.path[self.at]
        if value not in options:
            raise Disagreement(f"step {self.at}: {value!r} is not among the floor's options")
        self.at += 1
        return value


def floor_children(players: int, path: Sequence[Any]) -> list[Any]:
    """The floor's options after ``path`` from a new game ([] once the game is over)."""
    try:
        _Replay(players, path).play()
    except _Stop as stop:
        return stop.options
    return []


def floor_perft(players: int, path: Sequence[Any], depth: int) -> list[int]:
    """Nodes of the floor's decision tree at depths 1..``depth`` below ``path`` (each distinct
    chance outcome one child). Replays from the start for every node: for shallow depths."""
    counts = [0] * depth

    def walk(prefix: list[Any], level: int) -> None:
        children = floor_children(players, prefix)
        counts[level] += len(children)
        if level + 1 < depth:
            for child in children:
                walk([*prefix, child], level + 1)

    walk(list(path), 0)
    return counts


def floor_path(start: str, path: Sequence[str]) -> tuple[int, list[Any]]:
    """The player count and the floor's values of a perft position's path from a new game
    (start ``"new_game(N)"``)."""
    players = int(start.removeprefix("new_game(").removesuffix(")"))
    state, keys = er.new_game(players), []
    for text in path:
        action = er.parse_action(text)
        keys.append(key(action))
        state = er.apply(state, action)
    return players, keys


def floor_depth(counts: Sequence[int], replays: int) -> int:
    """The deepest depth whose floor perft needs at most ``replays`` replays (at least 1)."""
    depth = 1
    while depth < len(counts) and 1 + sum(counts[:depth]) <= replays:
        depth += 1
    return depth
