"""The Gymnasium environment: Gymnasium's own checker, vector environments, opponents of every
kind played inside step, and the reward when the game ends on another seat's decision."""

from __future__ import annotations

import functools
import warnings
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the [gymnasium] extra is not installed")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from ethnos_rules import GameOverError, RulesError, SetupError  # noqa: E402
from ethnos_rules.agents import returns  # noqa: E402
from ethnos_rules.bots import GreedyBot, UnknownBotError  # noqa: E402
from ethnos_rules.gymnasium import ENV_ID, EthnosEnv, RandomPolicy  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 3, "opponents": "random"},
        {"players": 2, "seat": None, "mask_in_observation": True, "scaled": False},
        {"players": 5, "opponents": RandomPolicy(1), "on_illegal": "lose"},
    ],
)
def test_check_env(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Glory's unbounded Box, no render fps
        check_env(EthnosEnv(**kwargs))


def test_made_by_id_with_render_modes() -> None:
    env = gymnasium.make(ENV_ID, players=2, opponents=RandomPolicy(0), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no render fps: a text render has none
        check_env(env.unwrapped)
        env.reset(seed=0)
        assert env.render() == str(env.unwrapped.state_of_game)
    assert EthnosEnv(2).render() is None


def _play(env: EthnosEnv, seed: int) -> tuple[float, dict[str, Any], int]:
    """A whole episode with uniformly random legal ids; the last reward and info, and how
    many steps."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, done, reward = 0, False, 0.0
    while not done:
        assert (info["action_mask"].astype(bool) == env.action_masks()).all()
        action = rng.choice(np.flatnonzero(env.action_masks()))
        _, reward, done, truncated, info = env.step(action)
        assert not truncated
        steps += 1
        if not done:
            assert reward == 0.0
    return float(reward), info, steps


def test_the_reward_comes_whenever_the_game_ends() -> None:
    """The learner's return arrives with the step that ends the game, also when other seats
    (or chance) made the last decisions inside that step."""
    calls = []

    def counting(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(1)
        return int(np.flatnonzero(mask)[0])

    env = EthnosEnv(3, seat=1, opponents=counting)
    ended_after_others = 0
    for seed in range(4):
        before = len(calls)
        reward, info, _ = _play(env, seed)
        assert reward == info["returns"][1] == returns(env.state_of_game)[1]
        assert env.state_of_game.pending.terminal and not env.action_masks().any()
        ended_after_others += len(calls) > before  # opponents moved within the last step
        with pytest.raises(GameOverError, match="GAME-1"):
            env.step(0)
    assert ended_after_others >= 1


def test_opponents_of_every_kind_play_inside_step() -> None:
    """The learner only ever sees its own decisions; bots by name, as objects, and callables,
    one for all or one a seat."""
    env = EthnosEnv(
        3, seat=2, opponents={0: GreedyBot(), 1: RandomPolicy(3)}, mask_in_observation=True
    )
    observation, info = env.reset(seed=5)
    for _ in range(30):
        assert env.game.node.to_move() == 2
        assert (observation["action_mask"] == info["action_mask"]).all()
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, done, _, info = env.step(legal[-1])
        if done:
            break
    assert env.game.decisions > 30
    env = EthnosEnv(3, seat=0, opponents=["greedy", RandomPolicy(4)])
    _, info = env.reset(seed=1)
    assert info["seat"] == 0 and env.game.node.to_move() == 0


def test_seeds_replay_episodes_and_a_drawn_seat() -> None:
    one = EthnosEnv(2, seat=None, opponents="greedy")
    two = EthnosEnv(2, seat=None, opponents="greedy")
    seats = set()
    for seed in (1, 2, 3, 4):
        first, second = one.reset(seed=seed), two.reset(seed=seed)
        assert (
            gymnasium.utils.env_checker.data_equivalence(first[0], second[0])
            and first[1]["seat"] == second[1]["seat"]
        )
        seats.add(first[1]["seat"])
        action = int(np.flatnonzero(one.action_masks())[0])
        assert gymnasium.utils.env_checker.data_equivalence(
            one.step(action)[0], two.step(action)[0]
        )
    assert seats == {0, 1}


def test_illegal_ids_lose_or_raise() -> None:
    env = EthnosEnv(4, opponents=RandomPolicy(0))
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1 / 3 and info["illegal_action"] == illegal
    with pytest.raises(GameOverError):
        env.step(0)
    env = EthnosEnv(4, opponents=RandomPolicy(0), on_illegal="raise")
    env.reset(seed=2)
    with pytest.raises(RulesError):
        env.step(illegal)
    with pytest.raises(RulesError, match="NOTATION"):
        env.step(10_000)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SetupError, match="SETUP-1"):
        EthnosEnv(7)
    with pytest.raises(SetupError, match="SETUP-1"):
        EthnosEnv(3, seat=3)
    with pytest.raises(SetupError, match="SETUP-1"):
        EthnosEnv(3, opponents=["greedy"])
    with pytest.raises(SetupError, match="SETUP-1"):
        EthnosEnv(3, seat=0, opponents={1: "greedy"})
    with pytest.raises(SetupError, match="SETUP-1"):
        EthnosEnv(3, opponents=42)  # type: ignore[arg-type]
    with pytest.raises(UnknownBotError):
        EthnosEnv(3, opponents="best")
    with pytest.raises(ValueError, match="on_illegal"):
        EthnosEnv(3, on_illegal="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="scaled"):
        EthnosEnv(3, scaled="yes")  # type: ignore[arg-type]
    with pytest.raises(GameOverError, match="reset"):
        EthnosEnv(2).step(0)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_vector_environments_run_it(kind: str) -> None:
    make = functools.partial(EthnosEnv, 2, opponents=RandomPolicy(2))
    vector = (
        gymnasium.vector.SyncVectorEnv([make, make])
        if kind == "sync"
        else gymnasium.vector.AsyncVectorEnv([make, make])
    )
    rng = np.random.default_rng(0)
    try:
        observations, infos = vector.reset(seed=[1, 2])
        assert observations.shape == (2, 1365)
        finished = 0
        for _ in range(400):
            masks = infos["action_mask"]
            actions = np.array(
                [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]
            )  # after an episode ends, the next step resets that environment
            observations, _, terminated, _, infos = vector.step(actions)
            finished += int(terminated.sum())
            assert ((observations >= 0) & (observations <= 1)).all()
        assert finished >= 1
    finally:
        vector.close()


def test_history_tokens_are_what_the_learner_saw() -> None:
    from ethnos_rules import GameRecord, information_state, parse_action
    from ethnos_rules.agents import item_tokens, max_history_tokens

    env = EthnosEnv(3, seat=1, opponents=["greedy", RandomPolicy(0)])
    env.reset(seed=3)
    for _ in range(20):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    record = GameRecord.from_start(env.game.start, env.game.played().decisions())
    info = information_state(record, 1)
    expected = [t for text in info.decisions for t in item_tokens(parse_action(text))]
    tokens = env.history_tokens()
    assert tokens[: len(expected)] == expected and tokens[len(expected) :] == list(
        env.game.node.band
    )
    assert len(tokens) <= max_history_tokens(3)
