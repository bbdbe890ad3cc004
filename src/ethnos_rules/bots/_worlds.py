"""Whole games drawn to fit what one seat knows: :class:`Worlds` and :func:`determinize`.

A bot reasons on *worlds*: whole game states in which the seat's own hand and everything
public are as it saw them, and the cards it did not see are drawn from their exact posterior
(:func:`~ethnos_rules.resample`). A search bot draws a new world for every simulation, so a
draw must be cheap; drawing from the start of the game replays the whole record every time.

Why a world may be drawn from a checkpoint. Hands are the only cards one seat cannot see
(besides the deck, whose contents are then known, and the hands others discarded at the end of
an Age, END-1). So at a point of the game where every other player's hand is empty, and no
other player's discarded hand is kept, the whole state is the same in every world that fits
the seat's record: it is known. From there on, the deck is a uniform shuffle of what it holds
and the record's later decisions are a record of their own from that state, so the library's
exact sampler draws the rest from it (``resample_game`` from that state, whose other hands are
empty as it asks) with the same posterior as from the start, at the cost of the record's
suffix only.

The checkpoint used is always the record's last such point. The seat's own replay of its
record (the one :func:`~ethnos_rules.validate` makes) finds it, and its state there is the
known state. The point depends only on what the seat knows (hand sizes are public), so the
worlds drawn with one seed are the same however it was found, and a bot's choice stays a
function of its knowledge and its seed. Checkpoints found are kept (a few games' worth, shared
by the process's bots), so a record that grows a decision at a time is replayed from its last
one.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict

import attrs

from .._io.seats import InformationState, resample
from .._replay.replay import Refusal
from .._rules.actions import RestShown
from .._rules.errors import GameOverError, WrongDecisionError
from .._rules.randomness import Random, check_random
from .._rules.state import GameState
from .._seat.resample import resample_game
from .._seat.seatview import seat_decisions
from ._base import check_knowledge

BOOKKEEPING_SEED = 0
"""The seed of the draw that tells why a record is refused (as :func:`~ethnos_rules.validate`
tells it): no bot's generator is spent on it."""


def nothing_hidden(state: GameState, seat: int) -> bool:
    """True when ``seat`` knows all of ``state``: every other hand is empty, and no other
    seat's hand discarded at the end of the Age (END-1) is kept in it. The deck is then what
    no one holds, and the state is the same in every world that fits the seat's record."""
    if any(p.hand for other, p in enumerate(state.players) if other != seat):
        return False
    return not any(hand for other, hand in enumerate(state.discarded_hands) if other != seat)


@attrs.frozen
class _Checkpoint:
    """The state after ``decisions`` (items of a seat's record), where the seat knows all."""

    decisions: tuple[str, ...]
    state: GameState


class _Checkpoints:
    """The last checkpoints found, by game and seat: a few of each of the last games asked
    about. Shared by the bots of the process, so guarded by a lock (the play table's bots
    think in threads)."""

    def __init__(self, games: int = 48, each: int = 4) -> None:
        self._games = games
        self._each = each
        self._kept: OrderedDict[tuple[object, ...], list[_Checkpoint]] = OrderedDict()
        self._lock = threading.Lock()

    def best(self, key: tuple[object, ...], decisions: tuple[str, ...]) -> _Checkpoint | None:
        """The latest checkpoint kept whose decisions begin ``decisions``, if any."""
        with self._lock:
            kept = list(self._kept.get(key, ()))
        fits = [c for c in kept if decisions[: len(c.decisions)] == c.decisions]
        return max(fits, key=lambda c: len(c.decisions), default=None)

    def add(self, key: tuple[object, ...], checkpoint: _Checkpoint) -> None:
        with self._lock:
            kept = self._kept.pop(key, [])
            kept = [c for c in kept if c.decisions != checkpoint.decisions]
            self._kept[key] = [*kept, checkpoint][-self._each :]
            while len(self._kept) > self._games:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


CHECKPOINTS = _Checkpoints()
"""The checkpoints of this process (``CHECKPOINTS.clear()`` forgets them; nothing else
changes: the worlds drawn do not depend on them)."""


class Worlds:
    """The worlds that fit what ``knowledge.seat`` knows, at that seat's decision: each
    :meth:`draw` is a whole game state drawn from the exact posterior.

    >>> import random
    >>> from ethnos_rules import GameRecord, information_state, legal_actions, play_random
    >>> from ethnos_rules.bots import Worlds
    >>> game = play_random(2, seed=3)
    >>> knowledge = information_state(GameRecord.from_start(game.start, game.actions[:94]), 1)
    >>> worlds = Worlds(knowledge)
    >>> one, two = worlds.draw(random.Random(1)), worlds.draw(random.Random(2))
    >>> legal_actions(one) == legal_actions(two) == legal_actions(worlds.sample)
    True
    >>> one == worlds.draw(random.Random(1))
    True

    Attributes:
        seat: The seat whose knowledge it is.
        sample: A state that fits what the seat knows now (its own replay's, whose hidden
            cards are some that fit, not drawn): read from it only what is the same in every
            world (the seat's hand and legal actions, everything public).
        replayed: How many of the record's items a draw replays (those after the checkpoint).

    Raises:
        RecordError: ``knowledge`` is not an :class:`~ethnos_rules.InformationState`.
        GameOverError: (rule ``GAME-1``) the game is over.
        WrongDecisionError: the seat does not decide now; the rule is that of the pending
            decision.
        RulesError: ``knowledge`` fits no game, as :func:`~ethnos_rules.validate` says.
    """

    def __init__(self, knowledge: InformationState) -> None:
        knowledge = check_knowledge(knowledge)
        self.seat = knowledge.seat
        self._start, self._suffix, self.sample = _anchored(knowledge)
        self.replayed = len(self._suffix)
        pending = self.sample.pending
        if pending.terminal:
            raise GameOverError(
                "GAME-1", f"the game is over: seat {self.seat} has nothing to decide"
            )
        if pending.chance or pending.seat != self.seat:
            raise WrongDecisionError(
                pending.rule,
                f"seat {self.seat} does not decide now; the decision is: {pending.describe()}",
            )

    def draw(self, rng: Random) -> GameState:
        """A world drawn with ``rng``: the same world for a generator in the same state.

        Raises:
            RulesError: (rule ``CHANCE``) ``rng`` is not a random generator.
        """
        return resample_game(self._start, self._suffix, self.seat, rng).final


def _setup_key(knowledge: InformationState) -> tuple[object, ...]:
    return (
        knowledge.seat,
        knowledge.players,
        knowledge.tribes,
        knowledge.glory_tokens,
        knowledge.first_player,
        knowledge.options,
    )


def _anchored(knowledge: InformationState) -> tuple[GameState, tuple[str, ...], GameState]:
    """The record's last checkpoint, the items after it, and the state now as the seat's own
    replay has it (a witness: its hidden cards are some that fit, not a draw).

    The record is replayed as :func:`~ethnos_rules.validate` replays a record kept at one
    seat, from the latest checkpoint kept (or the start); that replay's state at a point
    where the seat knows all is the state of every world there, so it is the checkpoint."""
    key, decisions, seat = _setup_key(knowledge), knowledge.decisions, knowledge.seat
    found = CHECKPOINTS.best(key, decisions)
    if found is None:
        base, done = knowledge.record().new_game(), 0
    else:
        base, done = found.state, len(found.decisions)
    items = decisions[done:]
    at, anchor, now = 0, base, base
    for told in seat_decisions(base, items, seat):  # with events, as resample's replay
        if isinstance(told, Refusal):
            resample(knowledge.record(), random.Random(BOOKKEEPING_SEED))  # as validate() tells it
            raise told.error
        now = told.after
        if nothing_hidden(now, seat):
            at, anchor = _after_rest(items, told.index + 1), now
    if at:
        CHECKPOINTS.add(key, _Checkpoint(decisions[: done + at], anchor))
    return anchor, decisions[done + at :], now


def _after_rest(items: tuple[str, ...], index: int) -> int:
    """``index``, past the ``rest`` items there (they go with the decision before them)."""
    while index < len(items) and items[index].partition(" ")[0] == RestShown.verb:
        index += 1
    return index


def determinize(knowledge: InformationState, rng: random.Random) -> GameState:
    """A whole game state that fits what ``knowledge.seat`` knows, drawn from the exact
    posterior with ``rng`` (:func:`~ethnos_rules.resample`), where that seat is to decide.

    The seat's legal actions, and everything public (:func:`~ethnos_rules.score_now` among it),
    are the same in every state drawn; the other hands and the deck order are not. To draw
    many, make one :class:`Worlds` and call its :meth:`~Worlds.draw`.

    Raises:
        RecordError: ``knowledge`` is not an :class:`~ethnos_rules.InformationState`.
        GameOverError: (rule ``GAME-1``) the game is over.
        WrongDecisionError: the seat does not decide now; the rule is that of the pending
            decision.
        RulesError: ``knowledge`` fits no game, or (rule ``CHANCE``) ``rng`` is not a random
            generator.
    """
    check_knowledge(knowledge)
    check_random(rng)
    return Worlds(knowledge).draw(rng)
