"""The bots that do not search: random, greedy, and the rules of thumb."""

from __future__ import annotations

import random

from .._io.seats import InformationState
from .._rules.actions import Action, EmptyHorde
from .._rules.engine import apply, legal_actions, pending_decision
from .._rules.randomness import check_random, uniform
from .._rules.state import DecisionKind
from ._base import lead
from ._policies import rules_of_thumb
from ._worlds import Worlds


class RandomBot:
    """Any legal decision, each with the same chance: the floor every other bot must beat.

    The bots of this module read only the seat's own hand and what is public, so they draw no
    hidden cards: they read :attr:`Worlds.sample <ethnos_rules.bots.Worlds.sample>`.

    >>> import random
    >>> from ethnos_rules import GameRecord, information_state, play_random
    >>> from ethnos_rules.bots import RandomBot
    >>> game = play_random(4, seed=5)
    >>> so_far = GameRecord.from_start(game.start, game.actions[:43])   # seat 1 to move
    >>> str(RandomBot().choose(information_state(so_far, seat=1), random.Random(0)))
    'band *WIZ-gray WIZ-green'
    """

    name = "random"
    description = "picks any legal move at random"

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        """A legal decision drawn uniformly: see :meth:`Bot.choose
        <ethnos_rules.bots.Bot.choose>`."""
        check_random(rng)
        return uniform(legal_actions(Worlds(knowledge).sample), rng)

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """The decision after which the seat would lead by most if the Age ended now.

    For each legal decision it asks :func:`~ethnos_rules.score_now` what the end of the Age
    would award after it (kingdoms, the Merfolk board, the Giant token, the Orc Hordes and
    bands; the drawer of the last Dragon taken to be the seat) and keeps those that give the
    largest lead over the best other seat, ties broken with ``rng``. It sees only what is
    public and its own hand: the end of an Age scores the board, never a hand. At the end of
    an Age (``HORDE_EMPTY``) it empties the whole Horde, whose Glory is then certain. It never
    keeps cards for a larger band later, so it is a floor for stronger bots, not a strong
    player (96 % of 2-player games won against :class:`RandomBot`).
    """

    name = "greedy"
    description = "plays for the most Glory if the Age ended now; doesn't plan ahead"

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        """The greedy decision: see :meth:`Bot.choose <ethnos_rules.bots.Bot.choose>`."""
        check_random(rng)
        state = Worlds(knowledge).sample  # it reads only the board and the seat's hand
        seat = knowledge.seat
        actions = legal_actions(state)
        if pending_decision(state).kind is DecisionKind.HORDE_EMPTY:
            return max(actions, key=_emptied)  # the whole Horde
        if len(actions) == 1:
            return actions[0]
        scored = [(lead(apply(state, action), seat), action) for action in actions]
        best = max(value for value, _ in scored)
        return uniform([action for value, action in scored if value == best], rng)

    def __repr__(self) -> str:
        return "GreedyBot()"


def _emptied(action: Action) -> int:
    return len(action.colours) if isinstance(action, EmptyHorde) else -1


class ThumbBot:
    """Plays by :func:`~ethnos_rules.bots.rules_of_thumb`, without searching: it collects cards
    that go together and plays its largest band once it holds three. Quick (a draw of the
    hidden cards and a glance at the hand), and far stronger than greedy; it is also the
    playout policy of the search bots, so it measures what their search adds.

    >>> import random
    >>> from ethnos_rules import GameRecord, information_state, play_random
    >>> from ethnos_rules.bots import ThumbBot
    >>> game = play_random(4, seed=5)
    >>> so_far = GameRecord.from_start(game.start, game.actions[:43])   # seat 1 to move
    >>> str(ThumbBot().choose(information_state(so_far, seat=1), random.Random(0)))
    'recruit deck'
    """

    name = "thumb"
    description = "collects cards and plays its largest band once it holds three; no search"

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        """The rules of thumb's decision: see :meth:`Bot.choose
        <ethnos_rules.bots.Bot.choose>`."""
        check_random(rng)
        state = Worlds(knowledge).sample  # it reads only the seat's hand and what is public
        return rules_of_thumb(state, legal_actions(state), rng)

    def __repr__(self) -> str:
        return "ThumbBot()"
