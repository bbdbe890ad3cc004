"""Bots: programs that choose one seat's decisions from what that seat knows.

A bot is anything with a ``name``, a one-line ``description`` and a method
``choose(knowledge, rng)`` (the :class:`Bot` protocol). ``knowledge`` is the seat's
:class:`~ethnos_rules.InformationState`, the game as that seat recorded it, never the cards it
did not see; ``rng`` is a seeded :class:`random.Random`. The bot returns a legal decision for
that seat. Given the same knowledge and a generator in the same state, a bot chooses the same
decision: a bot's play is reproducible from a seed, and two games that look alike from its seat
get the same answer (a search bot given a budget in seconds is the one exception).

The library's bots, weakest first (:data:`BOTS` makes each at its default level):

- ``random`` (:class:`RandomBot`): any legal move;
- ``greedy`` (:class:`GreedyBot`): the move that would lead by most if the Age ended now;
- ``thumb`` (:class:`ThumbBot`): :func:`rules_of_thumb`, no search;
- ``mc`` (:class:`MonteCarloBot`): flat Monte Carlo over worlds drawn from what it knows;
- ``ismcts`` and ``ismcts-strong`` (:class:`ISMCTSBot`): information-set MCTS over such
  worlds, about 1 s a move and about four times that.

>>> import random
>>> from ethnos_rules import GameRecord, information_state, play_random
>>> from ethnos_rules import bots
>>> game = play_random(4, seed=5)
>>> so_far = GameRecord.from_start(game.start, game.actions[:43])   # the game so far
>>> knowledge = information_state(so_far, seat=1)                 # seat 1 is to move
>>> list(bots.BOTS)
['random', 'greedy', 'thumb', 'mc', 'ismcts', 'ismcts-strong']
>>> greedy = bots.bot("greedy")
>>> greedy.description
"plays for the most Glory if the Age ended now; doesn't plan ahead"
>>> str(greedy.choose(knowledge, random.Random(0)))
'band *WIZ-green WIN-green'

:func:`play` plays a whole game with one bot at each seat, chance drawn from the same
generator. :class:`Worlds` and :func:`determinize` are the first step of a bot: whole games
drawn to fit what the seat knows (:func:`~ethnos_rules.resample`), at that seat's decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from .._rules.words import given
from ._base import Bot, lead
from ._ismcts import ISMCTSBot
from ._play import play
from ._policies import Policy, rules_of_thumb, search_moves, uniform_policy
from ._search import (
    DEFAULT_SIMULATIONS,
    Budget,
    MonteCarloBot,
    SearchBot,
    margins,
    playout,
    win_shares,
)
from ._simple import GreedyBot, RandomBot, ThumbBot
from ._worlds import Worlds, determinize

STRONG_FACTOR = 4
"""How many times the default simulations ``ismcts-strong`` runs."""


def _strong() -> ISMCTSBot:
    return ISMCTSBot(
        simulations={n: count * STRONG_FACTOR for n, count in DEFAULT_SIMULATIONS.items()},
        name="ismcts-strong",
        description=f"ISMCTS with {STRONG_FACTOR} times the simulations; a few seconds a move",
    )


BOTS: Mapping[str, Callable[[], Bot]] = MappingProxyType(
    {
        RandomBot.name: RandomBot,
        GreedyBot.name: GreedyBot,
        ThumbBot.name: ThumbBot,
        MonteCarloBot.name: MonteCarloBot,
        ISMCTSBot.name: ISMCTSBot,
        "ismcts-strong": _strong,
    }
)
"""Every bot of the library by name, weakest first, each made at its default level: what a
seat chooser lists. ``BOTS[name]().description`` says what it does. Every level is a budget
in simulations, so every bot listed is reproducible from its seed."""


class UnknownBotError(LookupError):
    """A bot name that :data:`BOTS` does not list; the message names those it does."""


def bot(name: str) -> Bot:
    """The bot called ``name`` in :data:`BOTS`, made at its default level.

    >>> from ethnos_rules.bots import bot
    >>> bot("random"), bot("ismcts")
    (RandomBot(), ISMCTSBot())
    >>> bot("ismcts-strong")
    ISMCTSBot(simulations={2: 200, 3: 200, 4: 140, 5: 140, 6: 140}, name='ismcts-strong')
    >>> bot("best")
    Traceback (most recent call last):
    ...
    ethnos_rules.bots.UnknownBotError: there is no bot called 'best'; the bots are: random, ...

    Raises:
        UnknownBotError: no bot has that name.
    """
    make = BOTS.get(name) if isinstance(name, str) else None
    if make is None:
        raise UnknownBotError(
            f"there is no bot called {given(name)}; the bots are: {', '.join(BOTS)}"
        )
    return make()


__all__ = [
    "BOTS",
    "DEFAULT_SIMULATIONS",
    "Bot",
    "Budget",
    "GreedyBot",
    "ISMCTSBot",
    "MonteCarloBot",
    "Policy",
    "RandomBot",
    "SearchBot",
    "ThumbBot",
    "UnknownBotError",
    "Worlds",
    "bot",
    "determinize",
    "lead",
    "margins",
    "play",
    "playout",
    "rules_of_thumb",
    "search_moves",
    "uniform_policy",
    "win_shares",
]
