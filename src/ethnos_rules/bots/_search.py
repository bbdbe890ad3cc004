"""What the search bots share: a budget, playouts to the end of the game, and the value of a
finished game; and the flat Monte Carlo bot built on them.

A *simulation* draws one world that fits what the bot's seat knows (:class:`Worlds`), plays a
move in it, and plays the game on to its end with a playout policy, chance drawn with its
exact probabilities (the rules' own sampler, as :func:`~ethnos_rules.sample_outcome`); the
finished game's value for each seat is then credited to the moves tried. Every step goes
through the rules' own functions (``legal_actions`` and ``apply`` without their checks of
input that the rules themselves produced): there is no second implementation of the game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from .._io.seats import InformationState
from .._rules.actions import Action
from .._rules.engine import apply_well_formed
from .._rules.randomness import Random, check_random
from .._rules.scoring import winners
from .._rules.state import GameState
from ._base import check_knowledge
from ._policies import Policy, rules_of_thumb, search_moves, uniform_policy
from ._worlds import Worlds

PLAYOUTS: dict[str, Policy] = {"thumb": rules_of_thumb, "random": uniform_policy}
"""The playout policies a search bot can be given, by name."""


DEFAULT_SIMULATIONS: Mapping[int, int] = MappingProxyType({2: 50, 3: 50, 4: 35, 5: 35, 6: 35})
"""The search bots' default budget, simulations per decision by player count: about 1 s a
decision at most on a two-core machine shared with other work (a simulation's playout is
longer with more players; the bots guide gives the measurements)."""


class Budget:
    """How long a search goes on: ``simulations`` (a count, the same on every machine; one
    count, or a count for each player count from 2 to 6) and/or ``seconds`` (wall time from
    the call, the world drawn first included). With both, the search stops at whichever comes
    first; one simulation is always run.

    A budget in seconds makes the choice depend on the machine's speed and load: the same
    information and seed may then give another choice. Only a budget in simulations alone
    keeps a bot reproducible from its seed.

    >>> from ethnos_rules.bots import Budget
    >>> Budget(simulations=3).reproducible, list(Budget(simulations=3).runs(0.0, players=4))
    (True, [0, 1, 2])
    >>> Budget({2: 5, 3: 4, 4: 3, 5: 2, 6: 2}).count(4)
    3
    >>> Budget(simulations=0)
    Traceback (most recent call last):
    ...
    ValueError: a budget's simulations must be a whole number of 1 or more, or one for each ...

    Raises:
        ValueError: a count below 1, seconds not above 0, or neither given.
    """

    __slots__ = ("seconds", "simulations")

    def __init__(
        self, simulations: int | Mapping[int, int] | None = None, seconds: float | None = None
    ) -> None:
        if simulations is not None and not _counts(simulations):
            raise ValueError(
                "a budget's simulations must be a whole number of 1 or more, or one for each"
                f" player count from 2 to 6, not {simulations!r}"
            )
        if seconds is not None and (
            not isinstance(seconds, int | float) or isinstance(seconds, bool) or not seconds > 0
        ):
            raise ValueError(f"a budget's seconds must be a number above 0, not {seconds!r}")
        if simulations is None and seconds is None:
            raise ValueError("a budget needs simulations, seconds or both")
        if isinstance(simulations, Mapping):
            simulations = MappingProxyType(dict(sorted(simulations.items())))
        self.simulations = simulations
        self.seconds = seconds

    @property
    def reproducible(self) -> bool:
        """True when the budget is a count of simulations only."""
        return self.seconds is None

    def count(self, players: int) -> int | None:
        """The simulations of a decision in a game of ``players`` (None: no count)."""
        if isinstance(self.simulations, Mapping):
            return self.simulations[players]
        return self.simulations

    def runs(self, started: float, players: int) -> Iterator[int]:
        """The simulations' numbers, from 0, while the budget lasts for a game of ``players``
        (``started`` is the :func:`time.perf_counter` of the call)."""
        deadline = None if self.seconds is None else started + self.seconds
        count = self.count(players)
        number = 0
        while number == 0 or (
            (count is None or number < count)
            and (deadline is None or time.perf_counter() < deadline)
        ):
            yield number
            number += 1

    def __repr__(self) -> str:
        parts = []
        if isinstance(self.simulations, Mapping):
            parts.append(f"simulations={dict(self.simulations)}")
        elif self.simulations is not None:
            parts.append(f"simulations={self.simulations}")
        parts += [f"seconds={self.seconds}"] if self.seconds is not None else []
        return ", ".join(parts)


def _counts(simulations: object) -> bool:
    """True for a whole number of 1 or more, or a mapping of each player count to one."""
    if isinstance(simulations, Mapping):
        return sorted(simulations) == [2, 3, 4, 5, 6] and all(map(_count, simulations.values()))
    return _count(simulations)


def _count(value: object) -> bool:
    return type(value) is int and value >= 1


def playout(state: GameState, policy: Policy, rng: Random) -> GameState:
    """The finished game after ``state``: each player's move by ``policy``, each chance
    outcome drawn with its exact probability."""
    while True:
        pending = state.pending
        if pending.terminal:
            return state
        if pending.chance:
            action = pending.sample(state, rng)
        else:
            action = policy(state, pending.legal(state), rng)
        state = apply_well_formed(state, action)


def win_shares(final: GameState) -> tuple[float, ...]:
    """Each seat's share of the victory in a finished game: ``1/k`` for each of ``k``
    winners (GAME-1 to GAME-3), 0 for the others (``value="win"``).

    >>> from ethnos_rules import play_random, winners
    >>> from ethnos_rules.bots import win_shares
    >>> final = play_random(3, seed=7).final
    >>> winners(final), win_shares(final)
    ((1,), (0.0, 1.0, 0.0))
    """
    best = winners(final)
    share = 1.0 / len(best)
    return tuple(share if seat in best else 0.0 for seat in range(len(final.players)))


MARGIN_SCALE = 20.0
"""The Glory margin that :func:`margins` values at about 0.88 (and its negative at 0.12)."""


def margins(final: GameState) -> tuple[float, ...]:
    """Each seat's Glory margin over the best other seat in a finished game, mapped into 0 to 1
    by ``0.5 + 0.5 tanh(margin / MARGIN_SCALE)`` (``value="margin"``, the default).

    Why the margin rather than the victory, which is what the game counts. A search runs a
    few hundred playouts of games that a few points often decide: a win or a loss tells it
    little of how much better a move did, a margin tells it more, and the bots searched better
    with it (the bots guide gives the measurements). The mapping keeps the value from 0 to 1,
    as UCB1 expects, and flattens large margins, so that a search does not run up a margin
    already safe.

    >>> from ethnos_rules import glory, play_random
    >>> from ethnos_rules.bots import margins
    >>> final = play_random(3, seed=7).final
    >>> glory(final), [round(m, 2) for m in margins(final)]
    ((41, 44, 36), [0.43, 0.57, 0.31])
    """
    glory = [player.glory for player in final.players]
    out = []
    for seat, mine in enumerate(glory):
        best = max(g for other, g in enumerate(glory) if other != seat)
        out.append(0.5 + 0.5 * math.tanh((mine - best) / MARGIN_SCALE))
    return tuple(out)


VALUES = {"margin": margins, "win": win_shares}
"""The values of a finished game a search bot can be given, by name."""


class _Arm:
    """The statistics of one move: simulations through it, their total value, and how many
    times it was on offer (ISMCTS counts a move only where it is legal)."""

    __slots__ = ("offered", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.offered = 0

    def score(self, exploration: float) -> float:
        """UCB1: the mean value, plus ``exploration`` times the doubt about it."""
        return self.total / self.visits + exploration * math.sqrt(
            math.log(self.offered) / self.visits
        )


def bonus(arm: _Arm, bot: SearchBot, preferred: bool) -> float:
    """UCB1's score of ``arm``, plus the bonus ``prior / (visits + 1)`` for the move the
    playout policy would play (``preferred``): the search leaves the policy's choice only
    for a move that does better in its simulations, and sooner the more it has run."""
    score = arm.score(bot.exploration)
    return score + bot.prior / (arm.visits + 1) if preferred else score


def most_visited(arms: dict[Action, _Arm]) -> Action:
    """The move simulated most (robust to a lucky mean), the better mean among equals, the
    first listed among those."""
    return max(arms, key=lambda a: (arms[a].visits, arms[a].total / max(arms[a].visits, 1)))


class SearchBot:
    """What the search bots share: the budget, the settings of the search, the checks of
    what is given, and the decisions with one move worth searching (taken at once).

    Settings left out take the class's defaults (:data:`DEFAULT_SIMULATIONS` and
    :attr:`defaults`); a budget in ``seconds`` alone replaces the default simulations.
    """

    name = "search"
    description = "a search over drawn worlds"
    defaults: ClassVar[dict[str, Any]] = {
        "playout": "thumb",
        "exploration": 0.5,
        "value": "margin",
        "prior": 3.0,
    }
    """The settings a bot is made with unless told otherwise."""

    def __init__(
        self,
        simulations: int | Mapping[int, int] | None = None,
        *,
        seconds: float | None = None,
        playout: str | None = None,
        exploration: float | None = None,
        value: str | None = None,
        prior: float | None = None,
        name: str | None = None,
        description: str | None = None,
    ) -> None:
        if simulations is None and seconds is None:
            simulations = DEFAULT_SIMULATIONS
        self.budget = Budget(simulations, seconds)
        given = {"playout": playout, "exploration": exploration, "value": value, "prior": prior}
        settings = {k: self.defaults[k] if v is None else v for k, v in given.items()}
        if settings["playout"] not in PLAYOUTS:
            raise ValueError(
                f"no playout policy {settings['playout']!r}; the policies: {', '.join(PLAYOUTS)}"
            )
        if settings["value"] not in VALUES:
            raise ValueError(f"no value {settings['value']!r}; the values: {', '.join(VALUES)}")
        for number in ("exploration", "prior"):
            if not _number(settings[number]):
                raise ValueError(
                    f"{number} must be a number of 0 or more, not {settings[number]!r}"
                )
        self.playout: str = settings["playout"]
        self.value: str = settings["value"]
        self.exploration = float(settings["exploration"])
        self.prior = float(settings["prior"])
        self._policy = PLAYOUTS[self.playout]
        self._value = VALUES[self.value]
        self.name = name if name is not None else type(self).name
        self.description = description if description is not None else type(self).description

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        """The move found best within the budget: see :meth:`Bot.choose
        <ethnos_rules.bots.Bot.choose>`."""
        started = time.perf_counter()
        check_knowledge(knowledge)
        check_random(rng)
        worlds = Worlds(knowledge)
        moves = search_moves(worlds.sample, worlds.sample.pending.legal(worlds.sample))
        if len(moves) == 1:
            return moves[0]
        return self.search(worlds, moves, rng, started)

    def search(
        self, worlds: Worlds, moves: tuple[Action, ...], rng: Random, started: float
    ) -> Action:
        """The move chosen among ``moves`` (two or more), the seat's moves worth searching."""
        raise NotImplementedError

    def __repr__(self) -> str:
        default = self.budget.simulations == DEFAULT_SIMULATIONS and self.budget.seconds is None
        settings = [] if default else [repr(self.budget)]
        for key, default in self.defaults.items():
            if getattr(self, key) != default:
                settings.append(f"{key}={getattr(self, key)!r}")
        if self.name != type(self).name:
            settings.append(f"name={self.name!r}")
        return f"{type(self).__name__}({', '.join(settings)})"


def _number(value: object) -> bool:
    """True for an int or float of 0 or more (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0


class MonteCarloBot(SearchBot):
    """Flat Monte Carlo over drawn worlds: each simulation draws a world that fits what the
    seat knows, plays one of its moves there, and plays on to the end of the game with the
    playout policy; the moves are tried in turn by UCB1 (the better a move did, the more it
    is tried), and the move tried most is played. It looks one move deep: what comes after
    is the playout's, so it knows the position's chances under that policy, not under its
    own best play.

    >>> import random
    >>> from ethnos_rules import GameRecord, information_state, play_random
    >>> from ethnos_rules.bots import MonteCarloBot
    >>> game = play_random(2, seed=3)
    >>> knowledge = information_state(GameRecord.from_start(game.start, game.actions[:94]), 1)
    >>> bot = MonteCarloBot(simulations=8)
    >>> bot, str(bot.choose(knowledge, random.Random(0)))
    (MonteCarloBot(simulations=8), 'recruit TRO-green')

    Args:
        simulations: Simulations per decision, or a count for each player count (the
            default: :data:`DEFAULT_SIMULATIONS`, unless ``seconds`` alone is given).
        seconds: A time budget per decision, wall time (the choice then depends on the
            machine: see :class:`Budget`).
        playout: The playout policy: ``"thumb"`` (:func:`rules_of_thumb`) or ``"random"``.
        exploration: UCB1's exploration constant (values are win shares, from 0 to 1).
        name: The bot's name (by default ``"mc"``), as :data:`BOTS` lists it.
        description: Its one-line description.

    Raises:
        ValueError: a bad setting, named.
    """

    name = "mc"
    description = "tries each move in many deals drawn from what it saw; about 1 s a move"

    def search(
        self, worlds: Worlds, moves: tuple[Action, ...], rng: Random, started: float
    ) -> Action:
        arms = {move: _Arm() for move in moves}
        seat, policy = worlds.seat, self._policy
        for _ in self.budget.runs(started, worlds.sample.config.players):
            world = worlds.draw(rng)
            move = self._pick(arms, policy(world, world.pending.legal(world), rng))
            final = playout(apply_well_formed(world, move), policy, rng)
            arm = arms[move]
            arm.visits += 1
            arm.total += self._value(final)[seat]
        return most_visited(arms)

    def _pick(self, arms: dict[Action, _Arm], first: Action) -> Action:
        """The next move to try: the playout policy's own choice ``first`` if not tried yet,
        then each other once in order, then by UCB1 with the bonus of :attr:`prior`."""
        for arm in arms.values():
            arm.offered += 1
        if first in arms and arms[first].visits == 0:
            return first
        untried = next((move for move, arm in arms.items() if arm.visits == 0), None)
        if untried is not None:
            return untried
        return max(arms, key=lambda move: bonus(arms[move], self, move == first))
