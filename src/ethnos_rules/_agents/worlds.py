"""Worlds that fit what one seat knows, for the adapters' samplers: the record a seat would
have kept of a game being played, and a game drawn from it with
:func:`~ethnos_rules.resample`, ready to be replayed id by id.

A search that samples a world at every simulation (OpenSpiel's ISMCTS) samples from the same
record again and again: :func:`~ethnos_rules.resample` keeps its counts for the last records,
so a later draw costs the draw and the replay here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from .._io.records import GameRecord
from .._io.seats import InformationState, resample
from .._rules.errors import RulesError
from .._rules.state import GameState
from .encoding import encode
from .tensors import Played


@attrs.frozen
class World:
    """A whole game drawn to fit one seat's view of a game being played.

    Attributes:
        played: Its decisions; their events are worked out only if a view that the seat's
            and the public one do not give is asked for.
        state: The state they reach.
    """

    played: Played
    state: GameState

    def ids(self) -> Iterator[int]:
        """Every id of its decisions in order (a band is several)."""
        for action in self.played.decisions():
            yield from encode(action)


def seat_record(start: GameState, played: Played, seat: int) -> GameRecord:
    """The record ``seat`` would have kept of the game from ``start`` (a state
    :func:`~ethnos_rules.new_game` returned) through the decisions ``played``."""
    record = GameRecord.from_start(start, played.recall(seat))
    return attrs.evolve(record, seat=seat, version=2)


def random_source(rng: object) -> Any:
    """``rng`` as a generator that :func:`~ethnos_rules.resample` takes: a
    :class:`random.Random` or a ``numpy.random.Generator`` as it is; a callable that returns
    floats in [0, 1) (OpenSpiel's ``UniformProbabilitySampler``, which its ISMCTS passes)
    seeds a new :class:`random.Random` with two of its floats, so that the draw follows from
    the sampler's sequence.

    Raises:
        RulesError: (rule ``CHANCE``) anything else, or a callable that gives no such float.
    """
    if isinstance(rng, random.Random) or type(rng).__name__ == "Generator":
        return rng  # resample checks a numpy Generator's module itself
    if callable(rng):
        high, low = (int(_unit(rng) * 2**53) for _ in range(2))
        return random.Random(high << 53 | low)
    raise RulesError(
        "CHANCE",
        "resampling needs a random.Random, a numpy.random.Generator or a sampler of floats in"
        f" [0, 1), not {type(rng).__name__}",
    )


def _unit(sampler: Callable[[], object]) -> float:
    value = sampler()
    if isinstance(value, bool) or not isinstance(value, float | int) or not 0 <= value < 1:
        raise RulesError("CHANCE", f"a sampler gives floats in [0, 1), not {value!r}")
    return float(value)


def draw_world(start: GameState, played: Played, seat: int, rng: object) -> World:
    """A whole game that fits what ``seat`` saw of the decisions ``played`` from ``start``,
    drawn from the exact posterior with ``rng`` (see :func:`random_source`).

    Raises:
        RulesError: (rule ``CHANCE``) ``rng`` is not a random source, or the unseen cards are
            too tangled to count (see :func:`~ethnos_rules.resample`).
    """
    drawn = resample(seat_record(start, played, seat), random_source(rng))
    # What the seat and everyone saw is the same in the world drawn: kept, not worked out.
    known = {seen: played.recall(seen) for seen in (seat, "public")}
    return World(Played.unreplayed(drawn.start, drawn.actions, known), drawn.final)


def knowledge(start: GameState, played: Played, seat: int) -> InformationState:
    """What ``seat`` knows of the game from ``start`` through the decisions ``played``: the
    :class:`~ethnos_rules.InformationState` a library bot chooses from (nothing replayed)."""
    record = seat_record(start, played, seat)
    return InformationState(
        seat,
        record.players,
        record.tribes,
        record.glory_tokens,
        record.first_player,
        record.options,
        record.actions,
    )
