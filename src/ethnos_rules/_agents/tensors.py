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
from collections.abc import Iterable, Iterator, Sequence
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
from .._rules.observation import observation, seat_view
from .._rules.seatview import seen_items
from .._rules.state import Band, GameState, PlayerState, Stage
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
    _check_seat(seat, encoded.state.config.players)
    tensor: Tensor = np.concatenate(_pieces(encoded, seat, public, private))
    return tensor


def _pieces(node: EncodedState, seat: int, public: bool, private: str) -> list[Tensor]:
    """The pieces of the observation, in order, as arrays to be joined (never written to:
    most are remembered from one decision to the next)."""
    state = node.state
    n = state.config.players
    parts = [_ONE_HOT_SEAT[seat]]
    if public:
        parts += [_PLAYERS[n - 2], _moment(node, seat, n), _deck_piece(state.deck, state.top_left)]
        parts += [_setup(state.tribes, state.tokens), _cards(state.row)]
        parts += _band_built(node.band)
        players, giant = state.players, state.giant_holder
        for rel in range(n):
            other = (seat + rel) % n
            parts += _seat_pieces(players[other], giant == other)
        parts += _NO_SEATS[n]
    if private == "seat":
        parts.append(_cards(state.players[seat].hand))
    if private == "all":
        parts += [_cards(state.players[(seat + rel) % n].hand) for rel in range(n)]
        parts += [_NO_CARDS] * (MAX_PLAYERS - n)
    return parts


def _check_seat(seat: object, players: int) -> None:
    if type(seat) is not int or not 0 <= seat < players:
        raise SetupError("SETUP-1", f"{seat!r} is not a seat of this game")


# The tensor holds what observation() shows: each seat's public view (seat_view), the row,
# the tokens, the deck's size, and the observer's own hand.
#
# Most of a position is the same objects from one state to the next (the state shares what a
# decision leaves unchanged), so the pieces of the tensor are kept by the object they show,
# and a tensor is one join of remembered arrays. They are read-only: a piece is shared.
def _frozen(values: Any) -> Tensor:
    array: Tensor = np.array(values, np.float32)
    array.flags.writeable = False
    return array


def _count_cards(cards: tuple[Card, ...]) -> Tensor:
    return _frozen(np.bincount([c.index for c in cards], minlength=_CARDS))


_cards = ByIdentity(_count_cards)
_NO_CARDS = _frozen(np.zeros(_CARDS))
_ONE_HOT_SEAT = [_frozen(row) for row in np.eye(MAX_PLAYERS)]
_PLAYERS = [_frozen(row) for row in np.eye(MAX_PLAYERS - 1)]
_STAGES, _DECISIONS, _MOVERS = len(Stage), len(DECISION_TYPES), MAX_PLAYERS + 1
_DECISION_INDEX = {kind: i for i, kind in enumerate(DECISION_TYPES)}
_MOMENTS: dict[tuple[int, ...], Tensor] = {}


def _moment(node: EncodedState, seat: int, n: int) -> Tensor:
    """The pieces from ``stage`` to ``dragons_drawn``: what the game is deciding now."""
    state = node.state
    pending = state.pending
    mover = node.to_move()
    to_move = MAX_PLAYERS if mover is None or mover is CHANCE else (mover - seat) % n
    key = (pending.stage, _DECISION_INDEX[type(pending)], to_move, state.age, state.dragons_drawn)
    found = _MOMENTS.get(key)
    if found is None:  # at most 7 x 14 x 7 x 3 x 4 of them
        stage, decision, to_move, age, dragons = key
        ages = _STAGES + _DECISIONS + _MOVERS
        now = np.zeros(ages + 3 + 3, np.float32)
        now[[stage, _STAGES + decision, _STAGES + _DECISIONS + to_move, ages + age - 1]] = 1
        now[ages + 3 : ages + 3 + dragons] = 1
        found = _MOMENTS[key] = _frozen(now)
    return found


def _deck_piece(deck: tuple[int, ...], top_left: int) -> Tensor:
    """The ``deck`` piece: Ally cards left in the deck, and in its top part."""
    return np.array((sum(deck), top_left), np.float32)


@functools.lru_cache(maxsize=1024)
def _setup_piece(tribes: tuple[Tribe, ...], tokens: tuple[tuple[int, ...], ...]) -> Tensor:
    """The ``tribes`` and ``tokens`` pieces: set up once, the same all game."""
    out = np.zeros(12 + len(KINGDOMS) * _TOKENS_PER_KINGDOM, np.float32)
    out[[tribe.index for tribe in tribes]] = 1
    for k, values in enumerate(tokens):
        start = 12 + k * _TOKENS_PER_KINGDOM
        out[start : start + len(values)] = values
    return _frozen(out)


_LAST_SETUP: list[tuple[Any, Any, Tensor]] = [(object(), object(), np.zeros(0, np.float32))]


def _setup(tribes: tuple[Tribe, ...], tokens: tuple[tuple[int, ...], ...]) -> Tensor:
    """:func:`_setup_piece`, told at once for the objects of the last call (a game keeps
    them from its setup to its end)."""
    # One tuple, read and replaced whole: another thread's call cannot mix its setup in.
    last_tribes, last_tokens, piece = _LAST_SETUP[0]
    if last_tribes is not tribes or last_tokens is not tokens:
        piece = _setup_piece(tribes, tokens)
        _LAST_SETUP[0] = (tribes, tokens, piece)
    return piece


def _band_built(band: tuple[int, ...]) -> tuple[Tensor, Tensor]:
    if not band:
        return _NO_CARDS, _NO_CARDS
    leader = np.zeros(_CARDS, np.float32)
    leader[band[0] - _LEADER] = 1
    added = np.bincount([i - _ADD for i in band[1:]], minlength=_CARDS)
    return _frozen(leader), _frozen(added)


def _seat_pieces(player: PlayerState, giant: bool) -> tuple[Tensor, Tensor, Tensor]:
    """One seat's public pieces (:data:`SEAT_PIECES`): those before the Giant token, the
    token, and the bands."""
    head, bands = _seat_parts(player)
    return head, _GIANT[giant], bands


def _seat_parts_of(player: PlayerState) -> tuple[Tensor, Tensor]:
    """A seat's pieces from ``hand_size`` to ``trolls``, and its bands, from what everyone
    sees of the player (:func:`~ethnos_rules.observation`'s seat view)."""
    view = seat_view(player)
    horde = [0.0] * 6
    for colour in view.horde:
        horde[colour] = 1.0
    trolls = [0.0] * len(_TROLLS)
    for value in view.trolls:
        trolls[_TROLLS.index(value)] = 1.0
    merfolk = -1 if view.merfolk is None else view.merfolk
    small = [view.hand_size, view.glory, view.supply, *view.kingdoms, merfolk, *horde, *trolls]
    return _frozen(small), _band_counts(view.bands)


_seat_parts = ByIdentity(_seat_parts_of)
_GIANT = (_frozen([0.0]), _frozen([1.0]))


def _count_bands(bands: tuple[Band, ...]) -> Tensor:
    """A seat's ``bands``, ``band_cards`` and ``band_leaders`` pieces."""
    counts = np.zeros(1 + 2 * _CARDS, np.float32)
    counts[0] = len(bands)
    for band in bands:
        counts[1 + _CARDS + band.leader.index] += 1
        for card in band.cards:
            counts[1 + card.index] += 1
    return _frozen(counts)


_band_counts = ByIdentity(_count_bands)
_TROLLS = FIRST_EDITION.troll_tokens
_LEADER = encode(parse_action("band *CEN-green"))[0]
_ADD = encode(parse_action("band *CEN-green CEN-green"))[1]
_NO_SEATS = [[_frozen(np.zeros((MAX_PLAYERS - n) * _SEAT_SIZE))] for n in range(MAX_PLAYERS + 1)]


class ObservationWriter:
    """One seat's :func:`observation_tensor` (the public position and its own hand) for an
    environment that observes every decision: the seat and the player count are checked
    once, and each call joins the pieces, most of them remembered from earlier decisions.

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

    def write(self, node: EncodedState) -> Tensor:
        """The observation of ``node`` (a new array, the caller's to keep or change).

        Raises:
            SetupError: (``SETUP-1``) ``node`` is not an EncodedState of a game of this
                writer's player count.
        """
        if type(node) is not EncodedState or node.state.config.players != self.players:
            raise SetupError(
                "SETUP-1",
                f"this writer observes an EncodedState of a {self.players}-player game,"
                f" not {type(node).__name__}"
                + (f" of {node.state.config.players}" if isinstance(node, EncodedState) else ""),
            )
        tensor: Tensor = np.concatenate(_pieces(node, self.seat, True, "seat"))
        return tensor


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

    __slots__ = ("_tokens", "_upto", "before", "items", "length")

    def __init__(self, before: Recall | None, items: tuple[Action, ...], length: int) -> None:
        self.before, self.items, self.length = before, items, length
        self._tokens: tuple[int, ...] | None = None  # of these items, once asked for
        self._upto: tuple[int, ...] | None = None  # of every item up to these, now and then

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
        # A search asks for the same information states' tokens again and again. Each link
        # keeps the tokens of its own items, and a link asked for more than _KEEP_EVERY links
        # past the last one that kept them all keeps them all too: a call walks a few links,
        # and a long game keeps a full copy only every so often.
        unkept: list[Recall] = []
        link: Recall | None = self
        while link is not None and link._upto is None:
            unkept.append(link)
            link = link.before
        out = list(link._upto) if link is not None and link._upto is not None else []
        for link in reversed(unkept):
            if link._tokens is None:
                link._tokens = tuple(token for item in link.items for token in item_tokens(item))
            out += link._tokens
        if len(unkept) > _KEEP_EVERY:
            self._upto = tuple(out)
        return out


_KEEP_EVERY = 16


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
