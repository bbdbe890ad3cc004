"""Fixed-size tensors of what one seat knows, and the returns of a finished game.

Two views, both flat ``numpy.float32`` arrays whose size depends only on what they include:

- the **observation** (:func:`observation_tensor`): the position now, as :func:`~ethnos_rules.
  observation` shows it to one seat, in the pieces of :data:`OBSERVATION_PIECES`;
- the **information state** (:func:`information_state_tensor`): everything the seat has seen
  since the start (perfect recall), as a padded sequence of tokens, the seat's
  :class:`~ethnos_rules.InformationState` item by item.

Seats are written from the observer's point of view: index 0 is the observer, 1 the next seat
clockwise, and so on; pieces for seats a smaller game lacks stay 0.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._io.seats import InformationState
from .._rules.actions import Action, Keep, RestShown
from .._rules.components import KINGDOMS, Card, Tribe
from .._rules.decisions import DECISION_TYPES
from .._rules.editions import FIRST_EDITION
from .._rules.engine import CHANCE, is_terminal, winners
from .._rules.errors import SetupError
from .._rules.events import Event
from .._rules.memo import ByIdentity
from .._rules.notation import parse_action
from .._rules.observation import SeatView, observation, seat_view
from .._rules.seatview import seen_items
from .._rules.state import Band, GameState, Stage
from .bounds import max_history_tokens
from .encoding import NUM_DISTINCT_ACTIONS, EncodedState, action_text, encode

Tensor = npt.NDArray[np.float32]

MAX_PLAYERS = 6
_CARDS = 67
_TOKENS_PER_KINGDOM = 3

# --- the observation ------------------------------------------------------------------------

SEAT_PIECES: tuple[tuple[str, int], ...] = (
    ("hand_size", 1),
    ("glory", 1),
    ("supply", 1),
    ("kingdoms", len(KINGDOMS)),
    ("merfolk", 1),
    ("horde", 6),
    ("trolls", 6),
    ("giant_token", 1),
    ("bands", 1),
    ("band_cards", _CARDS),
    ("band_leaders", _CARDS),
)
"""What is public of each seat, in order: cards in hand, Glory, markers in supply, markers on
each kingdom, the Merfolk track space (-1 without Merfolk), the Horde spaces taken (by colour),
the Troll tokens held (by value), the Giant token, the number of bands played this Age, the
cards of those bands and their Leaders (counts by card index)."""

_SEAT_SIZE = sum(size for _, size in SEAT_PIECES)

OBSERVATION_PIECES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("observer", (MAX_PLAYERS,)),
    ("players", (MAX_PLAYERS - 1,)),
    ("stage", (len(Stage),)),
    ("decision", (len(DECISION_TYPES),)),
    ("to_move", (MAX_PLAYERS + 1,)),
    ("age", (3,)),
    ("dragons_drawn", (3,)),
    ("deck", (2,)),
    ("tribes", (12,)),
    ("tokens", (len(KINGDOMS), _TOKENS_PER_KINGDOM)),
    ("row", (_CARDS,)),
    ("band_leader", (_CARDS,)),
    ("band_added", (_CARDS,)),
    ("seats", (MAX_PLAYERS, _SEAT_SIZE)),
    ("hand", (_CARDS,)),
    ("hands", (MAX_PLAYERS, _CARDS)),
)
"""The pieces of the observation tensor, in order, with their shapes:

- ``observer``: one-hot of the observing seat (absolute);
- ``players``: one-hot of the player count, 2 to 6;
- ``stage``: one-hot of where the game stands (setup, dealing, the row, play, the Age's end,
  over);
- ``decision``: one-hot of the kind of decision pending (the decision classes in game order);
- ``to_move``: one-hot of the seat to decide, relative to the observer; the last entry for
  chance and the end;
- ``age``: one-hot of the Age; ``dragons_drawn``: one per Dragon drawn this Age;
- ``deck``: Ally cards left in the deck, and of those in its top part;
- ``tribes``: the tribes in play (by tribe); ``tokens``: each kingdom's glory tokens, lowest
  first;
- ``row``: the row (counts by card index);
- ``band_leader``, ``band_added``: the band being built with :mod:`~ethnos_rules.agents` ids;
- ``seats``: each seat's public pieces (:data:`SEAT_PIECES`), relative to the observer;
- ``hand``: the observer's hand (counts by card index) — private;
- ``hands``: every hand, relative to the observer — what no player sees; only in the
  all-seeing view.
"""


def observation_pieces(
    *, public: bool = True, private: str = "seat"
) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces of an observation that shows the public position (``public``), and the
    observer's own hand (``private="seat"``), every hand (``"all"``) or none (``"none"``)."""
    _check_private(private)
    out = [OBSERVATION_PIECES[0]]
    if public:
        out += [p for p in OBSERVATION_PIECES[1:] if p[0] not in ("hand", "hands")]
    if private == "seat":
        out.append(("hand", (_CARDS,)))
    if private == "all":
        out.append(("hands", (MAX_PLAYERS, _CARDS)))
    return out


def _check_private(private: str) -> None:
    if private not in ("none", "seat", "all"):
        raise ValueError(f"private must be 'none', 'seat' or 'all', not {private!r}")


def _size(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape))


def observation_size(*, public: bool = True, private: str = "seat") -> int:
    """The length of the observation tensor with these pieces."""
    return sum(_size(shape) for _, shape in observation_pieces(public=public, private=private))


def observation_tensor(
    node: EncodedState | GameState,
    seat: int,
    *,
    public: bool = True,
    private: str = "seat",
) -> Tensor:
    """What ``seat`` sees of the position now, as a flat float32 array (its layout:
    :data:`OBSERVATION_PIECES`).

    Args:
        node: The state, or an :class:`EncodedState` with a band being built.
        seat: The observing seat.
        public: Include the public position.
        private: ``"seat"`` the observer's hand, ``"all"`` every hand, ``"none"`` neither.

    >>> from ethnos_rules import position
    >>> from ethnos_rules.agents import observation_tensor, observation_size
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={0: "ELF-red"})
    >>> tensor = observation_tensor(state, 0)
    >>> tensor.shape == (observation_size(),), tensor.dtype
    (True, dtype('float32'))

    Raises:
        SetupError: (``SETUP-1``) ``seat`` is not a seat of the game.
    """
    _check_private(private)
    encoded = node if isinstance(node, EncodedState) else EncodedState.of(node)
    state = encoded.state
    n = state.config.players
    _check_seat(seat, n)
    parts = [_ONE_HOT_SEAT[seat]]
    if public:
        parts += [_header(encoded, seat, n), _cards(state.row), *_band_built(encoded.band)]
        parts += [_seat_row(state, (seat + rel) % n) for rel in range(n)]
        parts += [_NO_SEAT] * (MAX_PLAYERS - n)
    if private == "seat":
        parts.append(_cards(state.players[seat].hand))
    if private == "all":
        parts += [_cards(state.players[(seat + rel) % n].hand) for rel in range(n)]
        parts += [_NO_CARDS] * (MAX_PLAYERS - n)
    tensor: Tensor = np.concatenate(parts)
    return tensor


def _check_seat(seat: object, players: int) -> None:
    if type(seat) is not int or not 0 <= seat < players:
        raise SetupError("SETUP-1", f"{seat!r} is not a seat of this game")


# The tensor holds what observation() shows: each seat's public view (seat_view), the row,
# the tokens, the deck's size, and the observer's own hand.
#
# Most of a position is the same objects from one state to the next (the state shares what a
# decision leaves unchanged), so the pieces of the tensor are kept by the object they show.
def _count_cards(cards: tuple[Card, ...]) -> Tensor:
    return np.bincount([c.index for c in cards], minlength=_CARDS).astype(np.float32)


_cards = ByIdentity(_count_cards)
_NO_CARDS = np.zeros(_CARDS, np.float32)
_NO_SEAT = np.zeros(_SEAT_SIZE, np.float32)
_ONE_HOT_SEAT = np.eye(MAX_PLAYERS, dtype=np.float32)
_PLAYERS = np.eye(MAX_PLAYERS - 1, dtype=np.float32)
_STAGES, _DECISIONS, _MOVERS = len(Stage), len(DECISION_TYPES), MAX_PLAYERS + 1


def _header(node: EncodedState, seat: int, n: int) -> Tensor:
    """The pieces from ``players`` to ``tokens``: the player count, what the game is
    deciding, then what stays the same all game (the tribes, the tokens)."""
    now = np.array(_moment(node, seat, n), np.float32)
    setup = _setup_piece(node.state.tribes, node.state.tokens)
    return np.concatenate((_PLAYERS[n - 2], now, setup))


_MOMENT = _STAGES + _DECISIONS + _MOVERS + 3 + 3 + 2


def _moment(node: EncodedState, seat: int, n: int) -> list[float]:
    """The pieces from ``stage`` to ``deck``: what changes with every decision."""
    state = node.state
    pending = state.pending
    mover = node.to_move()
    to_move = MAX_PLAYERS if mover is None or mover is CHANCE else (mover - seat) % n
    ages = _STAGES + _DECISIONS + _MOVERS
    now = [0.0] * _MOMENT
    for i in (
        pending.stage,
        _STAGES + DECISION_TYPES.index(type(pending)),
        _STAGES + _DECISIONS + to_move,
        ages + state.age - 1,
        *range(ages + 3, ages + 3 + state.dragons_drawn),
    ):
        now[i] = 1.0
    now[-2:] = sum(state.deck), state.top_left
    return now


@functools.lru_cache(maxsize=1024)
def _setup_piece(tribes: tuple[Tribe, ...], tokens: tuple[tuple[int, ...], ...]) -> Tensor:
    """The ``tribes`` and ``tokens`` pieces: set up once, the same all game."""
    out = np.zeros(12 + len(KINGDOMS) * _TOKENS_PER_KINGDOM, np.float32)
    out[[tribe.index for tribe in tribes]] = 1
    for k, values in enumerate(tokens):
        start = 12 + k * _TOKENS_PER_KINGDOM
        out[start : start + len(values)] = values
    return out


def _band_built(band: tuple[int, ...]) -> tuple[Tensor, Tensor]:
    if not band:
        return _NO_CARDS, _NO_CARDS
    leader = np.zeros(_CARDS, np.float32)
    leader[band[0] - _LEADER] = 1
    added = np.bincount([i - _ADD for i in band[1:]], minlength=_CARDS).astype(np.float32)
    return leader, added


def _seat_row(state: GameState, seat: int) -> Tensor:
    row = _seat_rows(seat_view(state.players[seat]))
    if state.giant_holder != seat:
        return row
    row = row.copy()
    row[_OFFSETS["giant_token"]] = 1
    return row


def _seat_piece(view: SeatView) -> Tensor:
    """One seat's public pieces (:data:`SEAT_PIECES`), but the Giant token."""
    horde = [0.0] * 6
    for colour in view.horde:
        horde[colour] = 1.0
    trolls = [0.0] * len(_TROLLS)
    for value in view.trolls:
        trolls[_TROLLS.index(value)] = 1.0
    merfolk = -1 if view.merfolk is None else view.merfolk
    small = [view.hand_size, view.glory, view.supply, *view.kingdoms, merfolk, *horde, *trolls, 0]
    return np.concatenate((np.array(small, np.float32), _band_counts(view.bands)))


_seat_rows = ByIdentity(_seat_piece)


def _count_bands(bands: tuple[Band, ...]) -> Tensor:
    """A seat's ``bands``, ``band_cards`` and ``band_leaders`` pieces."""
    counts = np.zeros(1 + 2 * _CARDS, np.float32)
    counts[0] = len(bands)
    for band in bands:
        counts[1 + _CARDS + band.leader.index] += 1
        for card in band.cards:
            counts[1 + card.index] += 1
    return counts


_band_counts = ByIdentity(_count_bands)
_TROLLS = FIRST_EDITION.troll_tokens
_LEADER = encode(parse_action("band *CEN-green"))[0]
_ADD = encode(parse_action("band *CEN-green CEN-green"))[1]
_OFFSETS: dict[str, int] = {}
_at = 0
for _name, _width in SEAT_PIECES:
    _OFFSETS[_name] = _at
    _at += _width


class ObservationWriter:
    """One seat's :func:`observation_tensor` (the public position and its own hand), kept in
    a buffer from one call to the next: each call rewrites only the pieces whose part of the
    state is not the very object it was last time, and returns a copy. An environment that
    observes every decision uses one per seat.

    >>> from ethnos_rules import play_random
    >>> from ethnos_rules.agents import EncodedState, ObservationWriter, observation_tensor
    >>> game = play_random(3, seed=4)
    >>> writer = ObservationWriter(1, 3)
    >>> all((writer.write(EncodedState(s)) == observation_tensor(s, 1)).all()
    ...     for s in list(game.states())[::50])
    True
    """

    def __init__(self, seat: int, players: int) -> None:
        _check_seat(seat, players)
        self.seat, self.players = seat, players
        at: dict[str, int] = {}
        self.starts = at
        offset = 0
        for name, shape in observation_pieces():
            at[name] = offset
            offset += _size(shape)
        self.buffer = np.zeros(offset, np.float32)
        self.buffer[seat] = 1
        self.buffer[at["players"] + players - 2] = 1
        self._last: dict[Any, Any] = {}

    def _put(self, key: Any, source: Any, start: int, piece: Callable[[], Tensor]) -> None:
        if self._last.get(key, self) is not source:
            values = piece()
            self.buffer[start : start + values.size] = values
            self._last[key] = source

    def write(self, node: EncodedState) -> Tensor:
        """The observation of ``node`` (a copy: the buffer is written again next time).

        Raises:
            SetupError: (``SETUP-1``) ``node`` is not an EncodedState of a game of this
                writer's player count.
        """
        if not isinstance(node, EncodedState) or node.state.config.players != self.players:
            raise SetupError(
                "SETUP-1",
                f"this writer observes an EncodedState of a {self.players}-player game,"
                f" not {type(node).__name__}"
                + (f" of {node.state.config.players}" if isinstance(node, EncodedState) else ""),
            )
        state, at, n = node.state, self.starts, self.players
        start = at["stage"]
        self.buffer[start : start + _MOMENT] = _moment(node, self.seat, n)
        seen = self._last.get("setup")  # the same two objects all game, once set up
        if seen is None or seen[0] is not state.tribes or seen[1] is not state.tokens:
            setup = _setup_piece(state.tribes, state.tokens)
            self.buffer[at["tribes"] : at["tribes"] + setup.size] = setup
            self._last["setup"] = (state.tribes, state.tokens)
        self._put("row", state.row, at["row"], lambda: _cards(state.row))
        band = node.band
        if self._last.get("band") != band:
            leader, added = _band_built(node.band)
            self.buffer[at["band_leader"] : at["band_leader"] + _CARDS] = leader
            self.buffer[at["band_added"] : at["band_added"] + _CARDS] = added
            self._last["band"] = band
        last, players, giant = self._last, state.players, state.giant_holder
        for rel in range(n):
            seat = (self.seat + rel) % n
            # A seat's row is what its player object and the Giant token show: the same player
            # object (most seats, most decisions) shows the same row.
            seen = last.get(rel)
            if seen is None or seen[0] is not players[seat] or seen[1] != (giant == seat):
                start = at["seats"] + rel * _SEAT_SIZE
                self.buffer[start : start + _SEAT_SIZE] = _seat_row(state, seat)
                last[rel] = (players[seat], giant == seat)
        hand = state.players[self.seat].hand
        self._put("hand", hand, at["hand"], lambda: _cards(hand))
        copy: Tensor = self.buffer.copy()
        return copy


def observation_text(
    node: EncodedState | GameState, seat: int, *, public: bool = True, private: str = "seat"
) -> str:
    """The observation of :func:`observation_tensor` as text, with the same choice of pieces.

    >>> from ethnos_rules import position
    >>> from ethnos_rules.agents import observation_text
    >>> state = position(2, ["DWA", "ELF", "GIA", "MER", "ORC"], hands={0: "ELF-red"})
    >>> print(observation_text(state, 0, public=False))
    seat 0
    hand: ELF-red
    """
    _check_private(private)
    encoded = node if isinstance(node, EncodedState) else EncodedState.of(node)
    seen = observation(encoded.state, seat)
    lines = [f"seat {seat}"]
    if public:  # every line of the seat's view but its hand
        lines += [line for line in str(seen).splitlines() if not line.startswith("hand:")]
        if encoded.band:
            lines.append("band being built: " + ", ".join(map(action_text, encoded.band)))
    if private == "seat":
        lines.append("hand: " + (" ".join(c.code for c in seen.hand) or "-"))
    if private == "all":
        lines += [
            f"seat {s} hand: " + (" ".join(c.code for c in p.hand) or "-")
            for s, p in enumerate(encoded.state.players)
        ]
    return "\n".join(lines)


def information_state_text(recall: Iterable[Action], node: EncodedState, seat: int) -> str:
    """An information state as text: the seat, then each item it saw, then the steps of a band
    being built (as :class:`~ethnos_rules.InformationState` writes its decisions)."""
    return "\n".join([f"seat {seat}", *map(str, recall), *map(action_text, node.band)])


def fill_observation(
    tensor: Tensor, node: EncodedState, seat: int, public: bool, private: str
) -> None:
    """Write what ``seat`` sees of ``node`` into ``tensor`` (an observer's buffer)."""
    tensor[:] = observation_tensor(node, seat, public=public, private=private)


# --- the information state --------------------------------------------------------------------

HIDDEN_REVEAL = NUM_DISTINCT_ACTIONS
"""The token of a card drawn that the seat did not see (``reveal ?``)."""
HIDDEN_KEEP = NUM_DISTINCT_ACTIONS + 1
"""The token of a card kept by another player's Elves (``keep ?``)."""
SHOWN = NUM_DISTINCT_ACTIONS + 2
"""The first token of a card shown when another player's hand goes into the row (``rest``):
``SHOWN + card index``."""
NUM_TOKENS = SHOWN + _CARDS
"""How many tokens there are; the tensor holds ``token + 1`` (0 pads)."""


def item_tokens(item: Action) -> tuple[int, ...]:
    """The tokens of one item of an information state: the ids of a decision (see
    :func:`~ethnos_rules.agents.encode`), one token for a hidden card, or one per card
    shown."""
    if isinstance(item, RestShown):
        return tuple(SHOWN + card.index for card in item.cards)
    if item.hidden:
        return (HIDDEN_KEEP,) if isinstance(item, Keep) else (HIDDEN_REVEAL,)
    return encode(item)


def seen_actions(action: Action, events: Sequence[Event], seat: int | None) -> tuple[Action, ...]:
    """The items that the decision ``action`` (with its ``events``) adds to the information
    state of ``seat``: as that seat saw it (``reveal ?`` for a card it did not see, ``rest``
    for another hand shown), or with ``seat=None`` as everyone saw it."""
    return tuple(seen_items(action, events, -1 if seat is None else seat))


class Recall:
    """The items one seat has seen, kept as a chain so that each decision shares the items
    before it (cheap to extend and to copy, as search trees do). Never changed: :meth:`add`
    returns a new one.

    Attributes:
        before: The items seen before the last ones, or None.
        items: The last items seen.
        length: How many items in all.
    """

    __slots__ = ("_tokens", "before", "items", "length")

    def __init__(self, before: Recall | None, items: tuple[Action, ...], length: int) -> None:
        self.before, self.items, self.length = before, items, length
        self._tokens: tuple[int, ...] | None = None  # of these items, once asked for

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Recall):
            return NotImplemented
        return self.length == other.length and list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    @classmethod
    def empty(cls) -> Recall:
        """Nothing seen yet."""
        return cls(None, (), 0)

    def add(self, items: tuple[Action, ...]) -> Recall:
        """These items seen next."""
        return Recall(self, items, self.length + len(items)) if items else self

    def _links(self) -> list[Recall]:
        """Every link of the chain, from the first."""
        links: list[Recall] = []
        link: Recall | None = self
        while link is not None:
            links.append(link)
            link = link.before
        return links[::-1]

    def __iter__(self) -> Iterator[Action]:
        for link in self._links():
            yield from link.items

    # Immutable: copies are the object itself; a pickle holds the items as one flat chunk, so
    # that neither recurses down a long chain.
    def __copy__(self) -> Recall:
        return self

    def __deepcopy__(self, memo: Any) -> Recall:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_recall_of, (tuple(self),))

    def tokens(self) -> list[int]:
        """The tokens of every item, in order (:func:`item_tokens`)."""
        out: list[int] = []
        for link in self._links():
            # A search asks for the same information state's tokens again and again: each link
            # keeps the tokens of its own items.
            if link._tokens is None:
                link._tokens = tuple(token for item in link.items for token in item_tokens(item))
            out += link._tokens
        return out


def _recall_of(items: tuple[Action, ...]) -> Recall:
    return Recall.empty().add(items)


Seen = int | str
"""Whose view of the decisions :meth:`Played.recall` gives: a seat, ``"public"`` (what
everyone saw) or ``"all"`` (every decision as it was)."""


class Played:
    """The decisions of a game so far, each with its events, kept as a chain like
    :class:`Recall`. What a seat saw of them is worked out only when asked for
    (:meth:`recall`), then remembered on each link: a game played without asking costs one
    link per decision, not a pass over every seat's view of its events.

    Attributes:
        before: The decisions before the last one, or None (nothing played).
        decision: The last decision.
        events: Its events, as :func:`~ethnos_rules.step` gives them.
        length: How many decisions in all.
    """

    __slots__ = ("_recalls", "before", "decision", "events", "length")

    def __init__(
        self, before: Played | None, decision: Action | None, events: tuple[Event, ...]
    ) -> None:
        self.before, self.decision, self.events = before, decision, events
        self.length: int = 0 if before is None else before.length + 1
        self._recalls: dict[Seen, Recall] = {}

    @classmethod
    def empty(cls) -> Played:
        """Nothing played yet."""
        return cls(None, None, ())

    def add(self, decision: Action, events: tuple[Event, ...]) -> Played:
        """``decision`` made next, with its ``events``."""
        return Played(self, decision, events)

    def recall(self, seen: Seen) -> Recall:
        """The items ``seen`` (a seat, ``"public"`` or ``"all"``) has seen of the decisions,
        as :func:`seen_actions` gives them."""
        unseen: list[Played] = []
        link = self
        while link.before is not None and seen not in link._recalls:
            unseen.append(link)
            link = link.before
        recall = link._recalls.get(seen, Recall.empty())
        for link in reversed(unseen):
            recall = link._recalls[seen] = recall.add(link._seen_by(seen))
        return recall

    def _seen_by(self, seen: Seen) -> tuple[Action, ...]:
        assert self.decision is not None
        if seen == "all":
            return (self.decision,)
        seat = None if seen == "public" else int(seen)
        return seen_actions(self.decision, self.events, seat)

    def pairs(self) -> list[tuple[Action, tuple[Event, ...]]]:
        """Each decision with its events, from the first."""
        out = []
        link = self
        while link.before is not None:
            assert link.decision is not None
            out.append((link.decision, link.events))
            link = link.before
        return out[::-1]

    # Immutable but for what it remembers: copies are the object itself; a pickle holds the
    # decisions and events as one flat tuple, so that neither recurses down a long chain.
    def __copy__(self) -> Played:
        return self

    def __deepcopy__(self, memo: Any) -> Played:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_played_of, (tuple(self.pairs()),))


def _played_of(pairs: tuple[tuple[Action, tuple[Event, ...]], ...]) -> Played:
    played = Played.empty()
    for decision, events in pairs:
        played = played.add(decision, events)
    return played


def history_tensor(tokens: Iterable[int], length: int, out: Tensor | None = None) -> Tensor:
    """The tokens as a float32 array of ``length``: ``token + 1``, then zeros.

    Raises:
        ValueError: more tokens than ``length``.
    """
    values = np.fromiter(tokens, dtype=np.float32) + 1
    if values.size > length:
        raise ValueError(f"{values.size} tokens do not fit an information state of {length}")
    if out is None:
        out = np.zeros(length, np.float32)
    else:
        out.fill(0)
    out[: values.size] = values
    return out


def information_state_tensor(info: InformationState, length: int | None = None) -> Tensor:
    """The perfect-recall information state of one seat as a float32 array of ``length``:
    each item's tokens (:func:`item_tokens`) plus one, in order, then zeros.

    ``length`` is by default the game's bound, :func:`~ethnos_rules.agents.max_history_tokens`.

    >>> from ethnos_rules import GameRecord, information_state, play_random
    >>> from ethnos_rules.agents import action_text, information_state_tensor, max_history_tokens
    >>> game = play_random(2, seed=3)
    >>> info = information_state(GameRecord.from_start(game.start, game.actions[:20]), 0)
    >>> tensor = information_state_tensor(info)
    >>> len(tensor) == max_history_tokens(2)
    True
    >>> [int(v) - 1 for v in tensor[:2]], [action_text(int(v) - 1) for v in tensor[:2]]
    ([3, 10], ['tribe GIA', 'tribe WIN'])
    >>> int((tensor > 0).sum()), len(tensor)
    (20, 8027)
    """
    if length is None:
        length = max_history_tokens(info.players, info.options)
    items = [parse_action(text) for text in info.decisions]
    return history_tensor((t for item in items for t in item_tokens(item)), length)


# --- returns --------------------------------------------------------------------------------


def returns(state: GameState) -> tuple[float, ...]:
    """Each seat's utility: 0 for everyone while the game goes on; at the end, with ``n``
    players and ``k`` winners (GAME-1..3), ``(n/k - 1)/(n - 1)`` for each winner and
    ``-1/(n - 1)`` for every other seat. A sole winner gets 1; the returns sum to 0.

    >>> from ethnos_rules import play_random
    >>> from ethnos_rules.agents import returns
    >>> returns(play_random(2, seed=5).final)
    (-1.0, 1.0)
    >>> returns(play_random(4, seed=5).final)  # doctest: +ELLIPSIS
    (1.0, -0.333..., -0.333..., -0.333...)
    """
    n = state.config.players
    if not is_terminal(state):
        return (0.0,) * n
    won = winners(state)
    share = n / len(won) - 1
    return tuple((share if seat in won else -1.0) / (n - 1) for seat in range(n))
