"""A learner that learns, in numpy alone: ``python -m ethnos_rules.examples.reinforce``.

REINFORCE (Williams 1992) with a small policy network on the scaled observation of
:class:`ethnos_rules.gymnasium.EthnosEnv`: a hidden layer of ``tanh`` units (none: a linear
policy), a softmax over the legal ids only (the mask), the episode's return as the signal
minus a running mean of returns as the baseline, and Adam. It trains one seat (drawn at each
reset) against opponents, then plays evaluation games against random and greedy opponents
as it plays in training (ids sampled from the policy), and prints each win rate with its 95 %
Wilson interval, before training and after.

    python -m ethnos_rules.examples.reinforce --episodes 3000 --eval-games 200

Needs the ``[gymnasium]`` extra (numpy and Gymnasium), nothing else.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ethnos_rules.agents import NUM_DISTINCT_ACTIONS, observation_size
from ethnos_rules.examples.tally import win_rate_line
from ethnos_rules.gymnasium import EthnosEnv, Opponent, RandomPolicy

Array = np.ndarray


class Policy:
    """A masked softmax policy: ``observation -> tanh hidden layer -> logits`` over the ids.

    Args:
        size: The observation's length.
        actions: The number of ids.
        hidden: Hidden units (0: logits straight from the observation).
        seed: Seeds the initial weights and the actions sampled.
    """

    def __init__(self, size: int, actions: int, hidden: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        inner = hidden or size
        self.params: dict[str, Array] = {
            "w2": np.zeros((inner, actions)),  # uniform over the legal ids at first
            "b2": np.zeros(actions),
        }
        if hidden:
            self.params["w1"] = self.rng.normal(0, 1 / np.sqrt(size), (size, hidden))
            self.params["b1"] = np.zeros(hidden)
        self._adam = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self._t = 0

    def _hidden(self, x: Array) -> Array:
        if "w1" not in self.params:
            return x
        hidden: Array = np.tanh(x @ self.params["w1"] + self.params["b1"])
        return hidden

    def probabilities(self, x: Array, masks: Array) -> Array:
        """Each id's probability for each row of observations ``x`` (0 where not legal)."""
        logits = self._hidden(x) @ self.params["w2"] + self.params["b2"]
        logits = np.where(masks, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]

    def act(self, observation: Array, mask: Array, *, greedy: bool = False) -> int:
        """An id: sampled from the policy, or its most likely legal id."""
        p = self.probabilities(observation[None].astype(np.float64), mask[None].astype(bool))[0]
        return int(np.argmax(p)) if greedy else int(self.rng.choice(p.size, p=p))

    def update(self, x: Array, masks: Array, actions: Array, advantages: Array, lr: float) -> None:
        """One Adam step up the policy gradient of ``advantages``-weighted log-probabilities."""
        h = self._hidden(x)
        p = self.probabilities(x, masks)
        g = -p
        g[np.arange(len(actions)), actions] += 1
        g *= advantages[:, None] / len(actions)  # d(mean advantage * log p)/d logits
        grads = {"w2": h.T @ g, "b2": g.sum(0)}
        if "w1" in self.params:
            back = (g @ self.params["w2"].T) * (1 - h * h)
            grads["w1"], grads["b1"] = x.T @ back, back.sum(0)
        self._t += 1
        for key, grad in grads.items():
            m, v = self._adam[key]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad * grad
            m_hat, v_hat = m / (1 - 0.9**self._t), v / (1 - 0.999**self._t)
            self.params[key] += lr * m_hat / (np.sqrt(v_hat) + 1e-8)  # ascent


def episode(env: EthnosEnv, act: Callable[[Array, Array], int], seed: int) -> tuple[Any, float]:
    """One game: the learner's (observations, masks, actions) and its return."""
    observation: Any
    observation, info = env.reset(seed=seed)
    xs, masks, actions, done, reward = [], [], [], False, 0.0
    while not done:
        mask = info["action_mask"]
        action = act(observation, mask)
        xs.append(observation)
        masks.append(mask)
        actions.append(action)
        observation, reward, done, _, info = env.step(action)
    return (np.array(xs), np.array(masks, bool), np.array(actions)), float(reward)


def train(
    policy: Policy,
    env: EthnosEnv,
    episodes: int,
    *,
    batch: int = 8,
    lr: float = 0.003,
    seed: int = 0,
    report: Callable[[str], None] | None = None,
) -> int:
    """REINFORCE for ``episodes`` games in ``env``, ``batch`` games an update; the learner's
    steps taken."""
    baseline, steps, pending = 0.0, 0, []
    for number in range(episodes):
        (x, masks, actions), reward = episode(env, policy.act, seed + number)
        steps += len(actions)
        pending.append((x, masks, actions, reward - baseline))
        baseline += 0.02 * (reward - baseline)
        if len(pending) == batch or number == episodes - 1:
            x, masks, actions = (np.concatenate([p[i] for p in pending]) for i in range(3))
            advantages = np.concatenate([np.full(len(p[2]), p[3]) for p in pending])
            policy.update(x.astype(np.float64), masks, actions, advantages, lr)
            pending = []
        if report and (number + 1) % 250 == 0:
            report(f"  {number + 1} episodes, {steps} steps, running mean return {baseline:+.3f}")
    return steps


def evaluate(policy: Policy, env: EthnosEnv, games: int, seed: int) -> float:
    """Games won as the policy plays (ids sampled from it); a win shared by ``k`` seats
    counts ``1/k``."""
    won = 0.0
    for number in range(games):
        _, reward = episode(env, policy.act, seed + 1_000_000 + number)
        if reward > 0:  # returns(): (n/k - 1)/(n - 1) for each of k winners
            winners = env.players / (reward * (env.players - 1) + 1)
            won += 1 / round(winners)
    return won


def opponents(name: str) -> Opponent:
    """``random`` (any legal id, cheap), or a library bot's name."""
    return RandomPolicy() if name == "random" else name


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=3000, help="training games")
    parser.add_argument("--against", default="random", help="training opponents: random or a bot")
    parser.add_argument(
        "--eval-against", nargs="+", default=["random", "greedy"], help="evaluation opponents"
    )
    parser.add_argument("--eval-games", type=int, default=200, help="games per opponent")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (0: linear)")
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--batch", type=int, default=8, help="games per update")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    env = EthnosEnv(args.players, seat=None, opponents=opponents(args.against))
    policy = Policy(observation_size(), NUM_DISTINCT_ACTIONS, args.hidden, args.seed)
    tests = {
        name: EthnosEnv(args.players, seat=None, opponents=opponents(name))
        for name in args.eval_against
    }

    def measure(when: str) -> None:
        for name, test in tests.items():
            won = evaluate(policy, test, args.eval_games, args.seed)
            print(win_rate_line(f"{when}, vs {name}", won, args.eval_games), flush=True)

    measure("untrained")
    steps = train(
        policy,
        env,
        args.episodes,
        batch=args.batch,
        lr=args.lr,
        seed=args.seed,
        report=lambda line: print(line, flush=True),
    )
    measure(f"after {args.episodes} games ({steps:,} steps) against {args.against}")
    print(f"{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
