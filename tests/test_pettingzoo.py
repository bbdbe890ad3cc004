"""The PettingZoo environment: PettingZoo's own API, seed and render tests, and the rules
behind it."""

from __future__ import annotations

import sys
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")

import numpy as np
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
from ethnos_rules.pettingzoo import RGB_WIDTH, env
from helpers import install_debian

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


def _env_rendering(modes: list[str]) -> Any:
    """env(2) as render_test sees it, with only ``modes`` in its metadata."""

    def make(render_mode: str | None = None) -> Any:
        game: Any = env(2, render_mode=render_mode)
        game.metadata = {**game.metadata, "render_modes": modes}
        return game

    return make


def test_render_test_text() -> None:
    render_test(_env_rendering(["ansi", "human"]))


def _cairo_loads() -> bool:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


def test_render_test_rgb_array() -> None:
    """render_mode="rgb_array": PettingZoo's render_test, and pictures of the board that
    change as the game goes on."""
    why = install_debian(["libcairo2"], _cairo_loads)
    if why is not None:
        pytest.skip(f'render_mode="rgb_array" needs the Cairo library: {why}')
    assert env(2).metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    render_test(_env_rendering(["rgb_array"]))
    game = env(3, render_mode="rgb_array")
    game.reset(seed=2)
    first: Any = game.render()
    assert first.shape[1] == RGB_WIDTH and first.shape[2] == 3 and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20  # a drawing, not a blank
    for _ in range(30):
        observation, *_ = game.last()
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    later: Any = game.render()
    assert later.shape != first.shape or (later != first).any()


def test_an_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode must be one of"):
        env(2, render_mode="rgb")


def test_render_without_a_render_mode_warns_and_draws_nothing() -> None:
    game = env(2)
    game.reset(seed=1)
    with pytest.warns(UserWarning, match=r'without a render mode: give env\(\) render_mode="ansi"'):
        assert game.render() is None


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


def test_rgb_array_without_cairo_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without cairosvg (or the Cairo library under it), asking for rgb_array is refused at
    env() with an ImportError that names the extra and the system library; the text modes
    still work."""
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # an import of it fails
    with pytest.raises(ImportError, match=r"\[pettingzoo\] extra.*libcairo2"):
        env(2, render_mode="rgb_array")
    game = env(2, render_mode="ansi")
    game.reset(seed=1)
    assert isinstance(game.render(), str)


def _play_out(game: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        mask = observation["action_mask"]
        game.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))


def test_misuse_is_refused_with_a_message() -> None:
    """Before reset, PettingZoo's own errors; an unknown agent, a SETUP-1 error naming the
    agents; once every agent has taken its last step, GAME-1 for step and last, while the
    final position can still be observed; reset starts again."""
    from ethnos_rules import GameOverError

    game = env(3)
    for before in (lambda: game.step(0), game.last, lambda: game.observe("player_0")):
        with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before"):
            before()
    game.reset(seed=2)
    names: list[Any] = ["player_3", 0, ["player_0"], None]
    for name in names:
        for ask in (game.observe, game.action_space, game.observation_space):
            with pytest.raises(SetupError, match=r"SETUP-1: .* its agents are player_0, player_1"):
                ask(name)
    _play_out(game, 2)
    assert game.agents == []
    final = game.observe("player_1")
    assert final["action_mask"].sum() == 0
    assert final["observation"] in game.observation_space("player_1")["observation"]  # type: ignore[index]
    for after in (lambda: game.step(None), game.last):
        with pytest.raises(GameOverError, match=r"GAME-1: the game is over .* call reset"):
            after()
    game.reset(seed=2)
    assert len(game.agents) == 3 and game.last()[2] is False


def test_the_tribes_asked_for_are_kept_as_the_rules_read_them() -> None:
    """A tribes list the caller changes afterwards changes nothing; an empty one is refused."""
    tribes = ["DWA", "ELF", "GIA", "MER", "ORC"]
    game = env(3, tribes=tribes)
    tribes.append("SKE")
    game.reset(seed=1)
    assert [t.code for t in game.state_of_game.tribes] == ["DWA", "ELF", "GIA", "MER", "ORC"]
    with pytest.raises(SetupError, match="SETUP-3"):
        env(3, tribes=[])


def test_history_tokens_are_what_each_agent_saw() -> None:
    """An agent's history tokens are the tokens of its seat's information state, then the
    steps of a band it is building; another agent's do not show that band."""
    from ethnos_rules import GameRecord, information_state, parse_action
    from ethnos_rules.agents import item_tokens, max_history_tokens

    game = env(3)
    game.reset(seed=5)
    leading = None
    for _ in range(60):
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(np.flatnonzero(mask)[-1]))  # the last id: a band's Leader when one is legal
        if game.node.band:
            leading = game.agent_selection
            break
    assert leading is not None
    record = GameRecord.from_start(game._table.start, game._table.played().decisions())
    for agent in game.possible_agents:
        info = information_state(record, int(agent.removeprefix("player_")))
        expected = [t for text in info.decisions for t in item_tokens(parse_action(text))]
        band = list(game.node.band) if agent == leading else []
        assert game.history_tokens(agent) == expected + band
        assert len(expected) <= max_history_tokens(3)
    with pytest.raises(SetupError, match="SETUP-1"):
        game.history_tokens("player_7")
