"""Ethnos as a single-agent Gymnasium environment: one seat learns, the others are opponents.

>>> import numpy as np
>>> from ethnos_rules.gymnasium import EthnosEnv
>>> env = EthnosEnv(players=3, opponents="greedy")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, float(observation.min()) >= 0, float(observation.max()) <= 1
((1365,), True, True)
>>> legal = np.flatnonzero(env.action_masks())
>>> observation, reward, terminated, truncated, info = env.step(int(legal[0]))

The learner plays ``seat`` (0 by default; None draws it at each reset). Every other seat is an
opponent: a library bot by name (``"random"``, ``"greedy"``: :data:`ethnos_rules.bots.BOTS`),
a :class:`~ethnos_rules.bots.Bot`, or any callable ``policy(observation, action_mask) -> id``
that is given that seat's observation as the learner gets its own (a frozen copy of the
learner's policy, say; :class:`RandomPolicy` draws any legal id). A callable with a ``seed``
method is seeded anew at each reset from the environment's generator; one whose ``observes``
attribute is False is given an empty array, and no observation is written for it. The
opponents' turns and chance are played inside :meth:`step`, so each step is one decision of
the learner, and the next observation is at its next decision or at the end.

Actions are the fixed ids of :mod:`ethnos_rules.agents` (``Discrete(534)``); a band is built in
several steps (its Leader, its cards, ``band done``). The legal ids are in
``info["action_mask"]`` and :meth:`EthnosEnv.action_masks` (what sb3-contrib's
``MaskablePPO`` asks for), or with ``mask_in_observation=True`` in a ``Dict`` observation
beside the tensor. An illegal id ends the episode as a loss (``on_illegal="lose"``, so that a
learner that ignores the mask still gets a signal and Gymnasium's ``check_env`` can step with
any id) or raises the rules' error (``on_illegal="raise"``).

The reward is 0 until the game ends, then the learner's :func:`ethnos_rules.agents.returns`
(1 for a sole win, ``-1/(n-1)`` for a loss), whoever made the last decision. The observation is
the learner's observation tensor scaled into [0, 1] (``scaled=False``: the counts as they are).

``import ethnos_rules.gymnasium`` registers the environment as ``ethnos_rules/Ethnos-v0``
for ``gymnasium.make`` (``gymnasium.make("ethnos_rules.gymnasium:ethnos_rules/Ethnos-v0")``
imports it first).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from ethnos_rules import GameOverError, GameState, Options, RulesError, SetupError, new_game
from ethnos_rules._agents.table import Table
from ethnos_rules._rules.words import given
from ethnos_rules.agents import (
    NUM_DISTINCT_ACTIONS,
    ObservationWriter,
    Scaler,
    observation_bounds,
    observation_size,
    returns,
)
from ethnos_rules.bots import Bot, bot

__all__ = ["ENV_ID", "EthnosEnv", "Opponent", "Policy", "RandomPolicy"]

ENV_ID = "ethnos_rules/Ethnos-v0"
"""The id under which ``import ethnos_rules.gymnasium`` registers :class:`EthnosEnv`."""

Policy = Callable[[np.ndarray, np.ndarray], int]
"""An opponent that chooses ids: ``policy(observation, action_mask) -> id``."""

Opponent = str | Bot | Policy
"""A library bot's name, a :class:`~ethnos_rules.bots.Bot`, or a :data:`Policy`."""

Observation = np.ndarray | dict[str, np.ndarray]


class EthnosEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of Ethnos against opponents (see the module's description).

    Args:
        players: 2 to 6.
        seat: The learner's seat, or None for a seat drawn at each reset.
        opponents: One opponent for every other seat, or one for each other seat in seat order
            (a sequence of ``players - 1``), or a mapping by seat; None (the default): a
            :class:`RandomPolicy` for every other seat.
        tribes: The tribes in play (default: chosen by chance, SETUP-3).
        options: The rule options of spec §12.
        scaled: Observations scaled into [0, 1] (:class:`~ethnos_rules.agents.Scaler`, the
            default), or the counts as they are (within
            :func:`~ethnos_rules.agents.observation_bounds`).
        mask_in_observation: A ``Dict`` observation of ``"observation"`` and
            ``"action_mask"`` (``int8``), instead of the tensor alone.
        on_illegal: ``"lose"`` (an illegal id ends the episode with the lowest return) or
            ``"raise"``.
        render_mode: ``"ansi"`` (``render()`` returns the position as text) or None.

    Raises:
        SetupError: a setup the rules refuse; (``SETUP-1``) a seat that is not one, or
            opponents that do not give one for each other seat.
        UnknownBotError: an opponent's name that no bot has.
        ValueError: an unknown ``on_illegal`` or render mode, or a flag that is not a bool.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  (Gymnasium's)

    def __init__(
        self,
        players: int = 2,
        *,
        seat: int | None = 0,
        opponents: Opponent | Sequence[Opponent] | Mapping[int, Opponent] | None = None,
        tribes: Sequence[str] | None = None,
        options: Options | None = None,
        scaled: bool = True,
        mask_in_observation: bool = False,
        on_illegal: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
    ) -> None:
        start = new_game(players, tribes=tribes, options=options)  # refuses a bad setup
        self.tribes = None if tribes is None else [t.code for t in start.tribes]
        self.options, self.players = options, players
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise SetupError("SETUP-1", f"seat must be None or 0 to {players - 1}, not {seat!r}")
        for name, flag in (("scaled", scaled), ("mask_in_observation", mask_in_observation)):
            if not isinstance(flag, bool):
                raise ValueError(f"{name} must be True or False, not {given(flag)}")
        if on_illegal not in ("lose", "raise"):
            raise ValueError(f"on_illegal must be 'lose' or 'raise', not {given(on_illegal)}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}")
        self.fixed_seat, self.on_illegal, self.render_mode = seat, on_illegal, render_mode
        self.scaled, self.mask_in_observation = scaled, mask_in_observation
        self._given = _Opponents(RandomPolicy() if opponents is None else opponents, players)
        if seat is not None:
            self._opponents = self._given.around(seat)  # refused now, not at the first reset
        self._scale = Scaler(players, options) if scaled else None
        if scaled:
            tensor = spaces.Box(0.0, 1.0, (observation_size(),), np.float32)
        else:
            tensor = spaces.Box(*observation_bounds(players, options), dtype=np.float32)
        mask = spaces.Box(0, 1, (NUM_DISTINCT_ACTIONS,), np.int8)
        space: Any = (
            spaces.Dict({"observation": tensor, "action_mask": mask})
            if mask_in_observation
            else tensor
        )
        self.observation_space = space
        self.action_space = spaces.Discrete(NUM_DISTINCT_ACTIONS)
        self.seat = 0 if seat is None else seat
        self._table: Table | None = None

    @property
    def game(self) -> Table:
        """The game being played (after :meth:`reset`): its ``node``, ``decisions``, and each
        seat's ``knowledge``.

        Raises:
            GameOverError: (``GAME-1``) before the first reset.
        """
        if self._table is None:
            raise GameOverError("GAME-1", "no game yet: call reset() first")
        return self._table

    @property
    def state_of_game(self) -> GameState:
        """The rules' state (between the steps of a band, the state before it)."""
        return self.game.node.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, played on to the learner's first decision; with ``seed``, the
        environment's generator (chance, the seat drawn, the bots' draws) is seeded anew.
        ``options`` are not used: the rules' options are given to the constructor."""
        super().reset(seed=seed)
        rng = self.np_random
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.players))
            self._opponents = self._given.around(self.seat)
        # The bots take a random.Random: seeded from the environment's generator.
        self._bot_rng = random.Random(int(rng.integers(2**63)))
        for opponent in self._opponents.values():  # a policy with a seed method: seeded anew
            seed_with = getattr(opponent, "seed", None)
            if callable(seed_with) and not isinstance(opponent, Bot):
                seed_with(int(rng.integers(2**63)))
        self._writer = ObservationWriter(0, self.players)  # every seat's, from one board
        start = new_game(self.players, tribes=self.tribes, options=self.options)
        self._table = Table(start)
        self._illegal: int | None = None
        self._masked: tuple[Any, np.ndarray] = (None, _NO_MASK)
        self._play_others()
        return self._observe(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner's id ``action``, then every decision up to its next one or the end.

        Raises:
            GameOverError: (``GAME-1``) the game is over (reset first), or before any reset.
            RulesError: an illegal id with ``on_illegal="raise"``; a bot's refused decision.
        """
        table = self.game
        if self._over():
            raise GameOverError("GAME-1", "the game is over: call reset()")
        try:
            table.apply_id(action)  # type: ignore[arg-type]  # refuses what is not an id
        except RulesError:
            if self.on_illegal == "raise":
                raise
            self._illegal = int(action) if isinstance(action, int | np.integer) else -1
            self._masked = (None, _NO_MASK)  # the episode is over: no legal id
            loss = -1.0 / (self.players - 1)
            return self._observe(), loss, True, False, self._info()
        self._play_others()
        over = self._over()
        reward = returns(table.node.state)[self.seat] if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def history_tokens(self) -> list[int]:
        """What the learner knows, as a sequence of tokens for sequence models: each item its
        seat saw (:func:`~ethnos_rules.agents.item_tokens`), then the band being built; the
        vocabulary is :func:`~ethnos_rules.agents.token_text`, at most
        :func:`~ethnos_rules.agents.max_history_tokens` long.

        Raises:
            GameOverError: (``GAME-1``) before the first reset.
        """
        table = self.game
        return [*table.played().recall(self.seat).tokens(), *table.node.band]

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids now as booleans (all False at the end): what sb3-contrib's
        ``MaskablePPO`` asks an environment for."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The position as text with ``render_mode="ansi"``; None otherwise."""
        if self.render_mode != "ansi":
            return None
        return str(self.game.node.state)

    # --- playing the other seats ------------------------------------------------------------

    def _over(self) -> bool:
        return self._illegal is not None or self.game.node.to_move() is None

    def _play_others(self) -> None:
        """Chance and the opponents, until the learner is to decide or the game is over."""
        table = self.game
        while True:
            table.through_chance(self.np_random)
            mover = table.node.to_move()
            if mover is None or mover == self.seat:
                return
            assert isinstance(mover, int)
            opponent = self._opponents[mover]
            if isinstance(opponent, Bot):
                action = opponent.choose(table.knowledge(mover), self._bot_rng)
                try:
                    table.apply(action, mover)
                except RulesError as error:
                    error.add_note(f"chosen by {opponent!r} for seat {mover}")
                    raise
            else:  # a policy that does not look gets no observation written for it
                looks = getattr(opponent, "observes", True)
                observation = self._tensor(mover) if looks else _NOTHING
                table.apply_id(opponent(observation, _mask(table.node.legal_ids())))

    # --- what the learner sees ---------------------------------------------------------------

    def _tensor(self, seat: int) -> np.ndarray:
        tensor = self._writer.write(self.game.node, seat)
        return tensor if self._scale is None else self._scale(tensor)

    def _mask(self) -> np.ndarray:
        """The learner's mask now (a new array each call; worked out once a node)."""
        node = self.game.node
        if self._masked[0] is not node:
            if self._over() or node.to_move() != self.seat:
                mask = np.zeros(NUM_DISTINCT_ACTIONS, np.int8)
            else:
                mask = _mask(node.legal_ids())
            self._masked = (node, mask)
        return self._masked[1].copy()

    def _observe(self) -> Observation:
        tensor = self._tensor(self.seat)
        if self.mask_in_observation:
            return {"observation": tensor, "action_mask": self._mask()}
        return tensor

    def _info(self) -> dict[str, Any]:
        table = self.game
        info: dict[str, Any] = {
            "action_mask": self._mask(),
            "seat": self.seat,
            "decisions": table.decisions,
        }
        if self._illegal is not None:
            info["illegal_action"] = self._illegal
        elif self._over():
            info["returns"] = np.array(returns(table.node.state))
        return info


class RandomPolicy:
    """An opponent that picks any legal id, each with the same chance: a cheap random
    opponent. (The library's ``"random"`` bot picks among whole decisions, and draws the
    hidden cards first, as every library bot does: milliseconds a decision.)

    It has a :meth:`seed` method, so the environment seeds it anew at each reset from its own
    generator: episodes replay from the environment's seed.

    >>> from ethnos_rules.gymnasium import EthnosEnv, RandomPolicy
    >>> env = EthnosEnv(4, opponents=RandomPolicy())
    """

    observes = False
    """It never looks at the observation: the environment writes none for it (an empty
    array comes instead). Any callable opponent may say so."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Draw from a generator seeded with ``seed``."""
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask)))

    def __repr__(self) -> str:
        return "RandomPolicy()"


_NOTHING = np.zeros(0, np.float32)  # what a policy that does not look is given
_NO_MASK = np.zeros(NUM_DISTINCT_ACTIONS, np.int8)


def _mask(ids: tuple[int, ...]) -> np.ndarray:
    mask = np.zeros(NUM_DISTINCT_ACTIONS, np.int8)
    mask[list(ids)] = 1
    return mask


class _Opponents:
    """The opponents as given: one for all, one for each other seat in seat order, or by seat."""

    def __init__(
        self, given_opponents: Opponent | Sequence[Opponent] | Mapping[int, Opponent], players: int
    ) -> None:
        self.players = players
        self.by_seat: dict[int, Bot | Policy] | None = None
        self.in_order: list[Bot | Policy] | None = None
        if isinstance(given_opponents, Mapping):
            self.by_seat = {seat: _opponent(one) for seat, one in given_opponents.items()}
        elif isinstance(given_opponents, Sequence) and not isinstance(given_opponents, str):
            if len(given_opponents) != players - 1:
                raise SetupError(
                    "SETUP-1",
                    f"a sequence of opponents gives one for each of the {players - 1} other"
                    f" seats, in seat order, not {len(given_opponents)}",
                )
            self.in_order = [_opponent(one) for one in given_opponents]
        else:
            self.by_seat = dict.fromkeys(range(players), _opponent(given_opponents))

    def around(self, seat: int) -> dict[int, Bot | Policy]:
        """Each other seat's opponent when the learner is at ``seat``.

        Raises:
            SetupError: (``SETUP-1``) opponents by seat that leave another seat out.
        """
        others = [s for s in range(self.players) if s != seat]
        if self.in_order is not None:
            return dict(zip(others, self.in_order, strict=True))
        assert self.by_seat is not None
        missing = [s for s in others if s not in self.by_seat]
        if missing:
            raise SetupError(
                "SETUP-1",
                f"opponents by seat give none for seat {', '.join(map(str, missing))}"
                f" (the learner is at seat {seat})",
            )
        return {s: self.by_seat[s] for s in others}


def _opponent(one: Opponent) -> Bot | Policy:
    if isinstance(one, str):
        return bot(one)
    if isinstance(one, Bot) or callable(one):
        return one
    raise SetupError(
        "SETUP-1",
        f"an opponent is a bot's name, a Bot or a callable policy(observation, mask), not"
        f" {given(one)}",
    )


gymnasium.register(id=ENV_ID, entry_point="ethnos_rules.gymnasium:EthnosEnv")
