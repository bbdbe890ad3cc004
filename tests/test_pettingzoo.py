"""The PettingZoo environment: PettingZoo's own API, seed and render tests, and the rules
behind it."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")

from pettingzoo.test import api_test, render_test, seed_test

from ethnos_rules import (
    IllegalActionError,
    Options,
    RulesError,
    SetupError,
    WrongDecisionError,
    legal_actions,
)
from ethnos_rules.agents import encode, returns
from ethnos_rules.pettingzoo import env

# PettingZoo's api_test warns about every environment whose observation holds an action mask.
pytestmark = pytest.mark.filterwarnings("ignore:Observation (space )?(is not|for each):UserWarning")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_api_test(players: int) -> None:
    api_test(env(players), num_cycles=400)


def test_api_test_with_options() -> None:
    options = Options(placement="mandatory", elves_keep="exactly_x", orc_empty="any_subset")
    api_test(env(4, tribes=["CEN", "ELF", "MER", "ORC", "SKE", "WIZ"], options=options), 400)


def test_seed_test() -> None:
    seed_test(lambda: env(3), num_cycles=300)


def test_render_test() -> None:
    render_test(lambda render_mode=None: env(2, render_mode=render_mode))


def test_a_whole_game_follows_the_rules() -> None:
    game = env(4)
    game.reset(seed=7)
    decisions, final = 0, {}
    for agent in game.agent_iter():
        observation, reward, terminated, _, _ = game.last()
        if terminated:
            final[agent] = reward
            game.step(None)
            continue
        mask = observation["action_mask"]
        node = game.node
        assert game.possible_agents.index(agent) == node.to_move()
        if not node.band:
            assert {int(i) for i in mask.nonzero()[0]} == {
                encode(a)[0] for a in legal_actions(node.state)
            }
        game.step(int(game.action_space(agent).sample(mask)))
        decisions += 1
    assert decisions > 100
    assert [final[a] for a in game.possible_agents] == list(returns(game.state_of_game))
    assert game.agents == []


def test_an_illegal_id_is_refused_by_its_rule() -> None:
    game = env(2)
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int((mask == 0).nonzero()[0][-1])  # an 'empty' of the Orcs, at a turn
    with pytest.raises(WrongDecisionError, match="TURN-1: expected 'recruit' or 'band'"):
        game.step(illegal)
    absent = next(i for i in range(163, 231) if not mask[i])  # recruit a card not in the row
    with pytest.raises(IllegalActionError, match="RECRUIT-1: there is no"):
        game.step(absent)
    with pytest.raises(SetupError, match="SETUP-1"):
        env(7)


def test_a_refused_step_changes_nothing_and_numpy_ids_are_taken() -> None:
    import numpy as np

    game = env(3)
    game.reset(seed=1)
    before = (game.decisions, game.node)
    with pytest.raises(RulesError):
        game.step(533)
    with pytest.raises(RulesError, match="is not an action id"):
        game.step(163.9)  # type: ignore[arg-type]
    assert (game.decisions, game.node) == before
    mask = game.observe(game.agent_selection)["action_mask"]
    game.step(np.int64(np.argmax(mask)))  # type: ignore[arg-type]
    assert game.decisions > before[0]


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_environment_plays_on_as_the_original(how: str) -> None:
    """An environment copied mid-game (as search over environments does) observes and plays
    on exactly as the original, from the same generator state."""
    import copy
    import pickle
    import random

    import numpy as np

    def play(game: object, rng: random.Random, steps: int) -> list[object]:
        seen = []
        for _ in range(steps):
            observation, _, terminated, _, _ = game.last()  # type: ignore[attr-defined]
            seen.append(observation["observation"].tolist())
            if terminated:
                break
            ids = np.flatnonzero(observation["action_mask"])
            game.step(int(rng.choice(ids)))  # type: ignore[attr-defined]
        return seen

    game = env(4)
    game.reset(seed=3)
    play(game, random.Random(1), 150)
    twin = copy.deepcopy(game) if how == "deepcopy" else pickle.loads(pickle.dumps(game))
    assert play(twin, random.Random(2), 200) == play(game, random.Random(2), 200)
