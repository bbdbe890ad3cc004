"""Ethnos as a PettingZoo AEC environment.

>>> from ethnos_rules.pettingzoo import env
>>> game = env(players=3)
>>> game.reset(seed=42)
>>> game.agents, game.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_2')
>>> observation, reward, terminated, truncated, info = game.last()
>>> observation["action_mask"].dtype, int(observation["action_mask"].sum()) > 0
(dtype('int8'), True)

Each agent observes :func:`ethnos_rules.agents.observation_tensor` of its seat (the public
position and its own hand; with ``env(..., scaled=True)`` each number scaled into [0, 1] by
:class:`ethnos_rules.agents.Scaler`, for networks) and an ``int8`` ``action_mask`` over the
fixed ids of :mod:`ethnos_rules.agents` (all zeros for an agent not to move). Chance is resolved
inside the environment with a generator seeded from its own (``reset(seed=...)``), with the
rules' exact probabilities, so agents only ever see player decisions. The same agent often
acts several times in a row: a band is built in several steps (its Leader, its cards, done),
and a band's follow-ups are its player's too.
Rewards come at the end only: :func:`ethnos_rules.agents.returns`.
:meth:`EthnosEnv.history_tokens` gives what an agent knows as a sequence of tokens, for
sequence models (vocabulary: :func:`ethnos_rules.agents.token_text`).

``render_mode="rgb_array"`` draws the board of :func:`ethnos_rules.svg.board` (every hand shown)
as an RGB array, through cairosvg, which needs the Cairo library (Debian's ``libcairo2``).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from ethnos_rules import ChanceNode, GameOverError, GameState, Options, SetupError, new_game, svg
from ethnos_rules._agents.table import Table
from ethnos_rules._rules.words import given
from ethnos_rules.agents import (
    NUM_DISTINCT_ACTIONS,
    EncodedState,
    ObservationWriter,
    Scaler,
    observation_bounds,
    observation_size,
    returns,
)

__all__ = ["EthnosEnv", "env"]

RGB_WIDTH = 960
"""The width in pixels of a ``render_mode="rgb_array"`` picture (its height follows the board)."""


def _mask(ids: tuple[int, ...]) -> Any:
    """A new mask with a 1 at each of these legal ids."""
    mask = np.zeros(NUM_DISTINCT_ACTIONS, np.int8)
    # A memoryview: a few single writes, each cheaper than numpy's indexing (and memoryview()
    # cheaper than mask.data; numpy's stubs do not say an array is a Buffer).
    cells = memoryview(mask)  # type: ignore[arg-type]
    for i in ids:
        cells[i] = 1
    return mask


def env(
    players: int = 2,
    *,
    tribes: list[str] | None = None,
    options: Options | None = None,
    render_mode: str | None = None,
    scaled: bool = False,
) -> EthnosEnv:
    """A new environment (call ``reset`` before playing).

    Args:
        players: 2 to 6.
        tribes: The tribes in play (default: chosen by chance, SETUP-3).
        options: The rule options of spec §12.
        scaled: Observations scaled into [0, 1] (:class:`~ethnos_rules.agents.Scaler`), for
            networks; by default the counts as they are, within
            :func:`~ethnos_rules.agents.observation_bounds`.
        render_mode: ``"ansi"`` (``render()`` returns the position as text), ``"human"``
            (it prints it) or ``"rgb_array"`` (it returns the board as an RGB array); with
            None (the default), ``render()`` returns None, with a warning.

    Raises:
        SetupError: a setup the rules refuse (e.g. 7 players).
        ValueError: an unknown render mode.
        ImportError: ``"rgb_array"`` without cairosvg or the Cairo library.
    """
    return EthnosEnv(
        players, tribes=tribes, options=options, render_mode=render_mode, scaled=scaled
    )


class EthnosEnv(AECEnv):
    """The AEC environment; agents ``player_0`` … by seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "ethnos_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        *,
        tribes: list[str] | None = None,
        options: Options | None = None,
        render_mode: str | None = None,
        scaled: bool = False,
    ) -> None:
        super().__init__()
        if not isinstance(scaled, bool):
            raise ValueError(f"scaled must be True or False, not {given(scaled)}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if render_mode == "rgb_array":
            _rasterizer()  # a missing library is said now, not at the first render()
        # A setup the rules refuse is refused now.
        start = new_game(players, tribes=tribes, options=options)
        self.options = options
        # The tribes as the rules read them: a list the caller changes later changes nothing.
        self.tribes = None if tribes is None else [t.code for t in start.tribes]
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self.scaled = scaled
        self._scale = Scaler(players, options) if scaled else None
        if scaled:
            observation = spaces.Box(0.0, 1.0, (observation_size(),), np.float32)
        else:
            observation = spaces.Box(*observation_bounds(players, options), dtype=np.float32)
        space = spaces.Dict(
            {
                "observation": observation,
                "action_mask": spaces.Box(0, 1, (NUM_DISTINCT_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {
            agent: spaces.Discrete(NUM_DISTINCT_ACTIONS) for agent in self.possible_agents
        }
        self.np_random, _ = seeding.np_random(None)
        self._table = Table(start)  # the game, and a log of its decisions
        self._reset = False  # step, last and observe need a reset first

    @property
    def node(self) -> EncodedState:
        """The game, as an :class:`~ethnos_rules.agents.EncodedState`."""
        return self._table.node

    @property
    def decisions(self) -> int:
        """The decisions of the game since ``reset``, chance included, as a record of it would
        count them (a band counts once, however many steps built it)."""
        return self._table.decisions

    def _new_game(self, players: int) -> GameState:
        return new_game(players, tribes=self.tribes, options=self.options)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_of(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_of(agent)
        return self.action_spaces[agent]

    def _seat_of(self, agent: object) -> int:
        """The seat of ``agent``, refused unless it is one of :attr:`possible_agents`."""
        try:
            return self._seats[agent]  # type: ignore[index]
        except (KeyError, TypeError):  # TypeError: a list, say, which no name equals
            raise SetupError(
                "SETUP-1",
                f"{given(agent)} is not an agent of this game; its agents are"
                f" {', '.join(self.possible_agents)}",
            ) from None

    @property
    def state_of_game(self) -> GameState:
        """The rules' state (between the steps of a band, the state before it)."""
        return self.node.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with ``seed``, the environment's generator is seeded anew.

        ``options`` are ignored: the game's rule options are given to :func:`env`. (PettingZoo's
        own api_test resets with options of its own, so they cannot be refused.)
        """
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        # Chance draws from a random.Random seeded from the environment's generator: a numpy
        # generator's draw costs several times as much, at every chance event.
        self._chance = random.Random(int(self.np_random.integers(2**63)))
        self._writer = ObservationWriter(0, self.players)  # every seat's, from one board
        self._table = Table(self._new_game(self.players))
        self._table.through_chance(self._chance)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent(self.node.to_move())
        self._reset = True

    def _agent(self, seat: int | ChanceNode | None) -> str:
        """The agent of the seat to move (the first agent once the game is over)."""
        return self.possible_agents[seat if isinstance(seat, int) else 0]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to move's observation, reward so far, termination, truncation and info.

        Raises:
            AssertionError: before ``reset`` (PettingZoo's own error for this).
            GameOverError: (``GAME-1``) every agent has taken its last step: call ``reset``.
        """
        if not (self._reset and self.agents):
            raise self._not_playing(EnvLogger.error_observe_before_reset)
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees now, the end of the game included, and its mask (all zeros
        unless it is to move).

        Raises:
            AssertionError: before ``reset`` (PettingZoo's own error for this).
            SetupError: (``SETUP-1``) ``agent`` is not one of :attr:`possible_agents`.
        """
        if not self._reset:
            EnvLogger.error_observe_before_reset()
        seat, node = self._seat_of(agent), self._table.node
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = _mask(node.legal_ids())
        else:
            mask = np.zeros(NUM_DISTINCT_ACTIONS, np.int8)
        tensor = self._writer.write(node, seat)
        if self._scale is not None:
            tensor = self._scale(tensor)
        return {"observation": tensor, "action_mask": mask}

    def history_tokens(self, agent: str) -> list[int]:
        """What ``agent`` knows, as a sequence of tokens for sequence models: each item its seat
        saw (:func:`~ethnos_rules.agents.item_tokens`), then the band being built if it is the
        one building it; the vocabulary is :func:`~ethnos_rules.agents.token_text`, at most
        :func:`~ethnos_rules.agents.max_history_tokens` long. (Worked out when asked: a step
        only logs its decision.)

        >>> from ethnos_rules.agents import token_text
        >>> game = env(players=2)
        >>> game.reset(seed=3)
        >>> [token_text(t) for t in game.history_tokens("player_0")][:2]
        ['tribe CEN', 'tribe HAL']

        Raises:
            AssertionError: before ``reset`` (PettingZoo's own error for this).
            SetupError: (``SETUP-1``) ``agent`` is not one of :attr:`possible_agents`.
        """
        if not self._reset:
            EnvLogger.error_observe_before_reset()
        seat = self._seat_of(agent)
        table = self._table
        band = table.node.band if table.node.to_move() == seat else ()
        return [*table.played().recall(seat).tokens(), *band]

    def _not_playing(self, before_reset: Callable[[], None]) -> GameOverError:
        """Why no game is being played: PettingZoo's own error before a reset (raised by
        ``before_reset``), else the game over (returned, for the caller to raise)."""
        if not self._reset:
            before_reset()
        return GameOverError(
            "GAME-1", "the game is over and every agent has taken its last step: call reset()"
        )

    def step(self, action: int | None) -> None:
        """Apply the id ``action`` for the agent to move.

        Raises:
            RulesError: the id is not legal here (it names the rule, as the rules do).
            GameOverError: (``GAME-1``) every agent has taken its last step: call ``reset``.
            AssertionError: before ``reset`` (PettingZoo's own error for this).
        """
        if not (self._reset and self.agents):
            raise self._not_playing(EnvLogger.error_step_before_reset)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        table = self._table
        table.apply_id(action)  # type: ignore[arg-type]  # refuses a bad id
        if table.node.state.pending.chance:
            table.through_chance(self._chance)
        seat = table.node.to_move()
        self.agent_selection = self._agent(seat)
        if seat is None:  # rewards come at the end only
            self.rewards = dict(zip(self.agents, returns(self.node.state), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | Any | None:
        """The position as text (``"ansi"``), printed (``"human"``), or drawn as an array of
        height x width x 3 ``uint8`` (``"rgb_array"``, :data:`RGB_WIDTH` wide). With no render
        mode, nothing: Gymnasium's logger warns, as PettingZoo's own environments do."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() draws nothing without a render mode: give env() render_mode="
                + " or ".join(f'"{mode}"' for mode in self.metadata["render_modes"])
            )
            return None
        if self.render_mode == "rgb_array":
            return _rgb(svg.board(self.node.state))
        text = str(self.node.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _rasterizer() -> Any:
    """cairosvg's ``svg2png``, or an ImportError that says what is missing."""
    try:
        import cairosvg
    except (ImportError, OSError) as err:  # OSError: cairocffi finds no Cairo library
        raise ImportError(
            'render_mode="rgb_array" draws the board with cairosvg (the [pettingzoo] extra),'
            f" which needs the Cairo library (Debian: apt-get install libcairo2): {err}"
        ) from err
    return cairosvg.svg2png


def _rgb(picture: str) -> Any:
    """The SVG ``picture`` as an RGB array on white."""
    from PIL import Image  # cairosvg's own dependency

    png = _rasterizer()(
        bytestring=picture.encode("utf-8"), output_width=RGB_WIDTH, background_color="white"
    )
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
