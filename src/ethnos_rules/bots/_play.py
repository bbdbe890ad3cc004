"""Playing a whole game with a bot at each seat."""

from __future__ import annotations

import random
from collections.abc import Mapping

from .._io.records import GameRecord
from .._io.seats import InformationState
from .._replay.replay import Playthrough
from .._rules.engine import step
from .._rules.errors import RulesError, SetupError
from .._rules.randomness import check_random
from .._rules.state import GameState
from .._rules.words import given
from .._seat.seatview import seen_items
from ._base import Bot


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
    ((0,), 398)

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
