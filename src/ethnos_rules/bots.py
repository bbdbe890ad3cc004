"""Bots: programs that choose one seat's decisions from what that seat knows.

A bot is anything with a ``name``, a one-line ``description`` and a method
``choose(knowledge, rng)`` (the :class:`Bot` protocol). ``knowledge`` is the seat's
:class:`~ethnos_rules.InformationState`, the game as that seat recorded it, never the cards it
did not see; ``rng`` is a seeded :class:`random.Random`. The bot returns a legal decision for
that seat. Given the same knowledge and a generator in the same state, a bot chooses the same
decision: a bot's play is reproducible from a seed, and two games that look alike from its seat
get the same answer.

>>> import random
>>> from ethnos_rules import GameRecord, information_state, play_random
>>> from ethnos_rules import bots
>>> game = play_random(4, seed=5)
>>> so_far = GameRecord.from_start(game.start, game.actions[:43])   # the game so far
>>> knowledge = information_state(so_far, seat=1)                 # seat 1 is to move
>>> sorted(bots.BOTS)
['greedy', 'random']
>>> greedy = bots.bot("greedy")
>>> greedy.description
"plays for the most Glory if the Age ended now; doesn't plan ahead"
>>> str(greedy.choose(knowledge, random.Random(0)))
'band *WIZ-gray WIZ-green'

:func:`play` plays a whole game with one bot at each seat, chance drawn from the same
generator; :func:`determinize` is the first step of a bot: a whole game drawn to fit what the
seat knows (:func:`~ethnos_rules.resample`), at that seat's decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Protocol, runtime_checkable

from ._io.jsonio import RecordError
from ._io.records import GameRecord
from ._io.seats import InformationState, resample
from ._rules.actions import Action, EmptyHorde
from ._rules.engine import apply, legal_actions, pending_decision, score_now, step
from ._rules.errors import GameOverError, RulesError, SetupError, WrongDecisionError
from ._rules.randomness import check_random, uniform
from ._rules.replay import Playthrough
from ._rules.seatview import seen_items
from ._rules.state import DecisionKind, GameState
from ._rules.words import given


@runtime_checkable
class Bot(Protocol):
    """What a bot is: a name, a description and :meth:`choose`.

    A bot's strength settings (a budget of simulations or seconds, say) are arguments of its
    constructor, so that :data:`BOTS` can make each bot with no arguments at its default level.
    A bot may keep caches between calls, but its choice must depend only on ``knowledge`` and
    on ``rng``: same information and same seed, same choice (a budget in seconds is the one
    exception a bot may document).
    """

    @property
    def name(self) -> str:
        """A short name, the bot's key in :data:`BOTS` (``"greedy"``)."""
        ...

    @property
    def description(self) -> str:
        """One line for a person choosing opponents."""
        ...

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        """A legal decision for ``knowledge.seat``, which must be the seat to decide.

        Args:
            knowledge: What the seat knows of the game so far.
            rng: The generator for every random choice the bot makes (its draws of the hidden
                cards included).

        Raises:
            RecordError: ``knowledge`` is not an :class:`~ethnos_rules.InformationState`.
            GameOverError: (rule ``GAME-1``) the game is over.
            WrongDecisionError: the seat does not decide now (a chance event, or another seat,
                is next); the rule is that of the pending decision.
            RulesError: ``knowledge`` fits no game (as :func:`~ethnos_rules.validate` says),
                or (rule ``CHANCE``) ``rng`` is not a random generator.
        """
        ...


def determinize(knowledge: InformationState, rng: random.Random) -> GameState:
    """A whole game state that fits what ``knowledge.seat`` knows, drawn from the exact
    posterior with ``rng`` (:func:`~ethnos_rules.resample`), where that seat is to decide.

    The seat's legal actions, and everything public (:func:`~ethnos_rules.score_now` among it),
    are the same in every state drawn; the other hands and the deck order are not.

    Raises:
        RecordError: ``knowledge`` is not an :class:`~ethnos_rules.InformationState`.
        GameOverError: (rule ``GAME-1``) the game is over.
        WrongDecisionError: the seat does not decide now; the rule is that of the pending
            decision.
        RulesError: ``knowledge`` fits no game, or (rule ``CHANCE``) ``rng`` is not a random
            generator.
    """
    _check_knowledge(knowledge)
    check_random(rng)
    world = resample(knowledge.record(), rng).final
    pending = world.pending
    if pending.terminal:
        raise GameOverError(
            "GAME-1", f"the game is over: seat {knowledge.seat} has nothing to decide"
        )
    if pending.chance or pending.seat != knowledge.seat:
        raise WrongDecisionError(
            pending.rule,
            f"seat {knowledge.seat} does not decide now; the decision is: {pending.describe()}",
        )
    return world


def _check_knowledge(knowledge: object) -> None:
    if isinstance(knowledge, InformationState):
        return
    hint = ""
    if isinstance(knowledge, GameState):
        hint = (
            "; a state holds every hidden card: information_state(GameRecord.from_start(start,"
            " actions), seat) is what the seat knows"
        )
    elif isinstance(knowledge, GameRecord):
        hint = "; information_state(record, seat) gives it"
    raise RecordError(
        "a bot chooses from what its seat knows, an InformationState, not"
        f" {type(knowledge).__name__}{hint}"
    )


class RandomBot:
    """Any legal decision, each with the same chance: the floor every other bot must beat.

    >>> import random
    >>> from ethnos_rules import GameRecord, information_state, play_random
    >>> from ethnos_rules.bots import RandomBot
    >>> game = play_random(4, seed=5)
    >>> so_far = GameRecord.from_start(game.start, game.actions[:43])   # seat 1 to move
    >>> str(RandomBot().choose(information_state(so_far, seat=1), random.Random(0)))
    'band *WIZ-gray'
    """

    name = "random"
    description = "picks any legal move at random"

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        """A legal decision drawn uniformly: see :meth:`Bot.choose`."""
        return uniform(legal_actions(determinize(knowledge, rng)), rng)

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
        """The greedy decision: see :meth:`Bot.choose`."""
        state = determinize(knowledge, rng)
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


def lead(state: GameState, seat: int) -> int:
    """How far ``seat`` would be ahead of the best other seat if the Age ended now, its last
    Dragon drawn by ``seat`` (:func:`~ethnos_rules.score_now`); negative when behind.

    >>> from ethnos_rules import position
    >>> from ethnos_rules.bots import lead
    >>> state = position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], to_move=1,
    ...                  bands={0: ["*DWA-red DWA-blue"]}, kingdoms={1: {"Rhea": 1}})
    >>> lead(state, 1), lead(state, 0)
    (1, -1)

    Raises:
        RulesError: (rule ``RECRUIT-4``) outside the turns of an Age, as ``score_now``.
    """
    points = score_now(state, drawer=seat).glory
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


BOTS: Mapping[str, Callable[[], Bot]] = MappingProxyType(
    {
        RandomBot.name: RandomBot,
        GreedyBot.name: GreedyBot,
    }
)
"""Every bot of the library by name, each made at its default level: what a seat chooser
lists. ``BOTS[name]().description`` says what it does."""


class UnknownBotError(LookupError):
    """A bot name that :data:`BOTS` does not list; the message names those it does."""


def bot(name: str) -> Bot:
    """The bot called ``name`` in :data:`BOTS`, made at its default level.

    >>> from ethnos_rules.bots import bot
    >>> bot("random")
    RandomBot()
    >>> bot("best")
    Traceback (most recent call last):
    ...
    ethnos_rules.bots.UnknownBotError: there is no bot called 'best'; the bots are: greedy, random

    Raises:
        UnknownBotError: no bot has that name.
    """
    make = BOTS.get(name) if isinstance(name, str) else None
    if make is None:
        raise UnknownBotError(
            f"there is no bot called {given(name)}; the bots are: {', '.join(sorted(BOTS))}"
        )
    return make()


def play(start: GameState, bots: Mapping[int, Bot], rng: random.Random) -> Playthrough:
    """A whole game from ``start`` with ``bots[seat]`` deciding for each seat and chance drawn
    with ``rng`` (:func:`~ethnos_rules.sample_outcome`); every bot is given ``rng`` too, so one
    seed replays the game.

    Each bot is given only what its seat knows, kept up to date decision by decision (no
    record is replayed to build it).

    >>> import random
    >>> from ethnos_rules import new_game, winners
    >>> from ethnos_rules.bots import GreedyBot, RandomBot, play
    >>> game = play(new_game(2), {0: GreedyBot(), 1: RandomBot()}, random.Random(3))
    >>> winners(game.final), len(game.actions)
    ((0,), 377)

    Args:
        start: A state :func:`~ethnos_rules.new_game` returned (a game from its start).
        bots: A bot for each seat, by seat.
        rng: The generator for chance and for the bots.

    Raises:
        RecordError: ``start`` is not a state that ``new_game`` returned.
        SetupError: (rule ``SETUP-1``) ``bots`` does not give a bot for each seat exactly.
        RulesError: a bot's decision is refused (a note names the bot), or (rule ``CHANCE``)
            ``rng`` is not a random generator.
    """
    setup = GameRecord.from_start(start)
    check_random(rng)
    players = setup.players
    if not isinstance(bots, Mapping) or sorted(bots, key=str) != list(range(players)):
        seats = sorted(bots, key=str) if isinstance(bots, Mapping) else given(bots)
        raise SetupError(
            "SETUP-1",
            f"play() needs a bot for each seat 0 to {players - 1}, by seat; it was given {seats}",
        )
    for number, one in bots.items():
        if not isinstance(one, Bot):
            raise SetupError(
                "SETUP-1",
                f"the bot of seat {number} has no name, description and choose(): {given(one)}",
            )
    seen: list[list[str]] = [[] for _ in range(players)]
    state, actions = start, []
    while not state.pending.terminal:
        seat = state.pending.seat
        if seat is None:  # chance
            action = state.pending.sample(state, rng)
            result = step(state, action)
        else:
            knowledge = InformationState(
                seat,
                players,
                setup.tribes,
                setup.glory_tokens,
                setup.first_player,
                setup.options,
                tuple(seen[seat]),
            )
            action = bots[seat].choose(knowledge, rng)
            try:
                result = step(state, action, seat=seat)
            except RulesError as error:
                error.add_note(f"chosen by {bots[seat]!r} for seat {seat}")
                raise
        for each in range(players):
            seen[each] += map(str, seen_items(action, result.events, each))
        actions.append(action)
        state = result.state
    return Playthrough(start, tuple(actions), state)


__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "UnknownBotError",
    "bot",
    "determinize",
    "lead",
    "play",
]
