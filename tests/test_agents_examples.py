"""The installed examples of agents at research scale run: a smoke test of the learner's loop
(a learner whose update changes nothing would fail it) and of the ISMCTS match."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the [gymnasium] extra is not installed")
pytest.importorskip("gymnasium", reason="the [gymnasium] extra is not installed")

from ethnos_rules.examples import reinforce  # noqa: E402
from ethnos_rules.examples.tally import wilson  # noqa: E402
from ethnos_rules.gymnasium import EthnosEnv, RandomPolicy  # noqa: E402


def test_the_learners_loop_updates_its_policy_towards_what_won() -> None:
    env = EthnosEnv(2, seat=None, opponents=RandomPolicy())
    policy = reinforce.Policy(1365, 534, hidden=8, seed=1)
    before = {key: value.copy() for key, value in policy.params.items()}
    steps = reinforce.train(policy, env, episodes=4, batch=2, seed=3)
    assert steps > 200
    assert any(not np.array_equal(before[k], policy.params[k]) for k in before)
    # The update raises the log-probability of an action given a positive advantage.
    (x, masks, actions), _ = reinforce.episode(env, policy.act, seed=9)
    x = x.astype(np.float64)
    chosen = np.arange(len(actions)), actions
    old = np.log(policy.probabilities(x, masks)[chosen]).sum()
    policy.update(x, masks, actions, np.ones(len(actions)), lr=0.01)
    assert np.log(policy.probabilities(x, masks)[chosen]).sum() > old
    assert 0 <= reinforce.evaluate(policy, env, games=2, seed=0) <= 2


def test_the_example_runs_from_its_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    reinforce.main(["--episodes", "2", "--eval-games", "1", "--eval-against", "random"])
    out = capsys.readouterr().out
    assert "untrained, vs random: " in out and "after 2 games" in out


def test_wilson_intervals() -> None:
    low, high = wilson(0, 10)
    assert low == 0 and 0.2 < high < 0.35
    assert wilson(10, 10)[1] == 1
    with pytest.raises(ValueError):
        wilson(3, 0)


def test_the_ismcts_match_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")
    from ethnos_rules.examples import ismcts_match

    seat, value = ismcts_match.play_one(3, 2, "random", 2, 1, 2.0)
    assert seat == 1 and value in (-1.0, 0.0, 1.0)
