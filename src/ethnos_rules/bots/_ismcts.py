"""Information-set Monte Carlo tree search (ISMCTS), in the single-observer form of Cowling,
Powley and Whitehouse (2012), over worlds drawn from the exact posterior.

The tree is the bot's own: a node is what its seat would have seen of the game from the
decision searched on (its *information set*), not a state. Each simulation draws a new world
that fits what the seat knows (:class:`Worlds`), then walks down the tree in that world:

- at a player's decision, among the moves legal in this world (:func:`search_moves`), a move
  never tried here is tried (the playout policy's own choice first), else the move with the
  best UCB1 score, counting for each move only the visits where it was legal (*availability*);
- at a chance event, the outcome is drawn with its exact probability, as the rules draw it;
- the next node is the one for what the seat sees of that step (``seen_items``: another
  player's draw is ``reveal ?``, an Elves' keep of another seat is ``keep ?``), so two worlds
  that the seat could not tell apart share their nodes, and the seat's own decisions are
  searched with what it would know then and nothing more.

After the first move tried, the game is played on to its end by the playout policy, and the
value of the finished game for each seat (its share of the victory) is credited to every
move on the way, each for the seat that chose it: every player is searched as playing for
itself. The move at the top tried most is played.

The other players' decisions are searched in the bot's tree: what they know but the bot does
not (their hands) is drawn anew in each world, so their moves are valued over the worlds the
bot thinks possible. That is the single-observer approximation; it does not model what they
believe about the bot's hand.
"""

from __future__ import annotations

from .._rules.actions import Action
from .._rules.engine import step
from .._rules.randomness import Random, uniform
from .._rules.state import GameState
from .._seat.seatview import seen_items
from ._policies import Policy, search_moves
from ._search import SearchBot, _Arm, bonus, most_visited, playout
from ._worlds import Worlds


class _Node:
    """An information set of the bot's seat: the moves tried there (by the player deciding,
    who knows its own move) and the next nodes, by what the bot's seat sees of each step."""

    __slots__ = ("arms", "children")

    def __init__(self) -> None:
        self.arms: dict[Action, _Arm] = {}
        self.children: dict[tuple[Action, ...], _Node] = {}

    def after(self, seen: tuple[Action, ...]) -> _Node:
        child = self.children.get(seen)
        if child is None:
            child = self.children[seen] = _Node()
        return child


class ISMCTSBot(SearchBot):
    """Information-set MCTS over worlds drawn from what the seat knows (see the module
    :mod:`ethnos_rules.bots` and the bots guide for how it searches and how strong it is).

    >>> import random
    >>> from ethnos_rules import GameRecord, information_state, play_random
    >>> from ethnos_rules.bots import ISMCTSBot
    >>> game = play_random(2, seed=3)
    >>> knowledge = information_state(GameRecord.from_start(game.start, game.actions[:94]), 1)
    >>> bot = ISMCTSBot(simulations=8)
    >>> bot, str(bot.choose(knowledge, random.Random(0)))
    (ISMCTSBot(simulations=8), 'recruit TRO-green')

    Args:
        simulations: Simulations per decision, or a count for each player count (the
            default: :data:`DEFAULT_SIMULATIONS`, unless ``seconds`` alone is given).
        seconds: A time budget per decision, wall time (the choice then depends on the
            machine: see :class:`Budget`).
        playout: The playout policy: ``"thumb"`` (:func:`rules_of_thumb`) or ``"random"``.
        exploration: UCB1's exploration constant (values are win shares, from 0 to 1).
        name: The bot's name (by default ``"ismcts"``), as :data:`BOTS` lists it.
        description: Its one-line description.

    Raises:
        ValueError: a bad setting, named.
    """

    name = "ismcts"
    description = "searches ahead (ISMCTS) in deals drawn from what it saw; about 1 s a move"

    def search(
        self, worlds: Worlds, moves: tuple[Action, ...], rng: Random, started: float
    ) -> Action:
        root = _Node()
        for _ in self.budget.runs(started, worlds.sample.config.players):
            self._simulate(root, worlds.draw(rng), worlds.seat, rng)
        return most_visited({move: root.arms[move] for move in moves if move in root.arms})

    def _simulate(self, root: _Node, world: GameState, seat: int, rng: Random) -> None:
        """One simulation in ``world``: down the tree to a move never tried, then a playout;
        the value of the finished game is credited to each move on the way."""
        node, state, policy = root, world, self._policy
        path: list[tuple[_Arm, int]] = []
        while not state.pending.terminal:
            pending = state.pending
            new = False
            if pending.chance:
                action = pending.sample(state, rng)
            else:
                legal = pending.legal(state)
                if len(legal) == 1:
                    action = legal[0]
                else:
                    mover = pending.seat
                    assert mover is not None
                    action, arm, new = self._select(node, state, legal, policy, rng)
                    path.append((arm, mover))
            result = step(state, action)
            node = node.after(tuple(seen_items(action, result.events, seat)))
            state = result.state
            if new:
                break
        values = self._value(playout(state, policy, rng))
        for arm, mover in path:
            arm.visits += 1
            arm.total += values[mover]

    def _select(
        self,
        node: _Node,
        state: GameState,
        legal: tuple[Action, ...],
        policy: Policy,
        rng: Random,
    ) -> tuple[Action, _Arm, bool]:
        """The move to follow at ``node`` in this world, its statistics, and whether it is
        tried here for the first time."""
        moves = search_moves(state, legal)
        arms = node.arms
        untried = []
        for move in moves:
            arm = arms.get(move)
            if arm is None:
                untried.append(move)
            else:
                arm.offered += 1
        first = policy(state, legal, rng)
        if untried:
            move = first if first in untried else uniform(untried, rng)
            arm = arms[move] = _Arm()
            arm.offered = 1
            return move, arm, True
        move = max(moves, key=lambda m: bonus(arms[m], self, m == first))
        return move, arms[move], False
