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
import math
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._io.jsonio import RecordError
from .._io.seats import InformationState
from .._rules.actions import Action, Keep, RestShown, not_an_action
from .._rules.components import Card, Tribe
from .._rules.decisions import DECISION_TYPES
from .._rules.engine import CHANCE, is_terminal, step, to_move, winners
from .._rules.errors import InvalidStateError, SetupError
from .._rules.events import Event
from .._rules.notation import parse_action
from .._rules.setup import check_players, check_seat
from .._rules.state import Band, GameState, PlayerState, Stage
from .._rules.words import given
from .._seat.observation import observation
from .._seat.seatview import seen_items
from .bounds import max_history_tokens
from .encoding import BLOCKS, EDITION, NUM_DISTINCT_ACTIONS, EncodedState, action_text, encode

Tensor = npt.NDArray[np.float32]

# Every size comes from the edition of the action ids and its counts: players, cards, tribes,
# kingdoms (one a colour), Horde spaces (one a colour), Troll tokens, Ages, Dragons, token
# spaces a kingdom.
MAX_PLAYERS = EDITION.players[1]
_FEWEST_PLAYERS = EDITION.players[0]
_CARDS = len(EDITION.cards)
_KINGDOMS = EDITION.kingdoms
_COLOURS = EDITION.colours
_TROLLS = EDITION.troll_tokens
_AGES = max(EDITION.ages)
_TOKENS_PER_KINGDOM = max(EDITION.token_spaces)

# --- the observation ------------------------------------------------------------------------

SEAT_PIECES: tuple[tuple[str, int], ...] = (
    ("hand_size", 1),
    ("glory", 1),
    ("supply", 1),
    ("kingdoms", len(_KINGDOMS)),
    ("merfolk", 1),
    ("horde", len(_COLOURS)),
    ("trolls", len(_TROLLS)),
    ("giant_token", 1),
    ("bands", 1),
    ("band_cards", _CARDS),
    ("band_leaders", _CARDS),
)
"""What is public of each seat, in order: cards in hand, Glory, markers in supply, markers on
each kingdom, the Merfolk track space (-1 without Merfolk), the Horde spaces taken (by colour),
the Troll tokens held (by value), the Giant token, the number of bands played this Age, the
cards of those bands and their Leaders (counts by card index). The sizes are the edition's
counts (:data:`~ethnos_rules.FIRST_EDITION`: 6 kingdoms and colours, 6 Troll tokens, 67
cards)."""

_SEAT_SIZE = sum(size for _, size in SEAT_PIECES)

OBSERVATION_PIECES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("observer", (MAX_PLAYERS,)),
    ("players", (MAX_PLAYERS - _FEWEST_PLAYERS + 1,)),
    ("stage", (len(Stage),)),
    ("decision", (len(DECISION_TYPES),)),
    ("to_move", (MAX_PLAYERS + 1,)),
    ("age", (_AGES,)),
    ("dragons_drawn", (EDITION.dragons,)),
    ("elves_kept", (1,)),
    ("deck", (2,)),
    ("tribes", (len(EDITION.tribes),)),
    ("tokens", (len(_KINGDOMS), _TOKENS_PER_KINGDOM)),
    ("row", (_CARDS,)),
    ("band_leader", (_CARDS,)),
    ("band_added", (_CARDS,)),
    ("seats", (MAX_PLAYERS, _SEAT_SIZE)),
    ("hand", (_CARDS,)),
    ("hands", (MAX_PLAYERS, _CARDS)),
    ("kept", (_CARDS,)),
)
"""The pieces of the observation tensor, in order, with their shapes (sized by the edition's
counts: :data:`~ethnos_rules.FIRST_EDITION` seats 2 to 6 players, has 67 cards, 12 tribes,
3 Ages, 3 Dragons, 6 kingdoms with up to 3 glory tokens each):

- ``observer``: one-hot of the observing seat (absolute);
- ``players``: one-hot of the player count, 2 to 6;
- ``stage``: one-hot of where the game stands (setup, dealing, the row, play, the Age's end,
  over);
- ``decision``: one-hot of the kind of decision pending (the decision classes in game order);
- ``to_move``: one-hot of the seat to decide, relative to the observer; the last entry for
  chance and the end;
- ``age``: one-hot of the Age; ``dragons_drawn``: one per Dragon drawn this Age;
- ``elves_kept``: how many cards the Elves being resolved have kept so far (TRIBE-ELF-1), as
  everyone sees it;
- ``deck``: Ally cards left in the deck, and of those in its top part;
- ``tribes``: the tribes in play (by tribe); ``tokens``: each kingdom's glory tokens, lowest
  first;
- ``row``: the row (counts by card index);
- ``band_leader``, ``band_added``: the band being built with :mod:`~ethnos_rules.agents` ids;
- ``seats``: each seat's public pieces (:data:`SEAT_PIECES`), relative to the observer;
- ``hand``: the observer's hand (counts by card index) — private;
- ``hands``: every hand, relative to the observer — what no player sees; only in the
  all-seeing view;
- ``kept``: which cards the Elves being resolved have kept so far (counts by card index) —
  private: the observer's own, or in the all-seeing view whoever's; with ``hand`` or ``hands``.
"""

_PIECE_SHAPES = dict(OBSERVATION_PIECES)


def observation_pieces(
    *, public: bool = True, private: str = "seat"
) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces of an observation that shows the public position (``public``), and the
    observer's own hand (``private="seat"``), every hand (``"all"``) or none (``"none"``)."""
    _check_view(public, private)
    out = [OBSERVATION_PIECES[0]]
    if public:
        out += [p for p in OBSERVATION_PIECES[1:] if p[0] not in _PRIVATE]
    if private == "seat":
        out.append(("hand", _PIECE_SHAPES["hand"]))
    if private == "all":
        out.append(("hands", _PIECE_SHAPES["hands"]))
    if private != "none":
        out.append(("kept", _PIECE_SHAPES["kept"]))
    return out


_PRIVATE = ("hand", "hands", "kept")


def _check_view(public: bool, private: str) -> None:
    """Refuse what is not a choice of pieces (a text for ``public`` would count as True)."""
    if not isinstance(public, bool | np.bool_):
        raise ValueError(f"public must be True or False, not {given(public)}")
    if private not in ("none", "seat", "all"):
        raise ValueError(f"private must be 'none', 'seat' or 'all', not {given(private)}")


def _size(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def observation_size(*, public: bool = True, private: str = "seat") -> int:
    """The length of the observation tensor with these pieces."""
    return _observation_size(public, private)


@functools.cache
def _observation_size(public: bool, private: str) -> int:
    return sum(_size(shape) for _, shape in observation_pieces(public=public, private=private))


def observation_tensor(
    node: EncodedState | GameState,
    seat: int,
    *,
    public: bool = True,
    private: str = "seat",
) -> Tensor:
    """What ``seat`` sees of the position now, as a flat float32 array (its layout:
    :data:`OBSERVATION_PIECES`). Each thread reuses an :class:`ObservationWriter` for each
    choice of pieces, so a call writes only what differs from the last state it wrote.

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
        ValueError: ``public`` is not True or False, or ``private`` not one of the three.
    """
    _check_view(public, private)
    encoded = node if isinstance(node, EncodedState) else EncodedState.of(node)
    players = encoded.state.config.players
    check_seat(seat, players)  # before the lookup: True is not seat 1
    key = (players, bool(public), private)
    writers: dict[tuple[int, bool, str], ObservationWriter]
    writers = vars(_WRITERS).setdefault("by_pieces", {})
    writer = writers.get(key)
    if writer is None:
        writer = writers[key] = ObservationWriter(0, players, public=public, private=private)
    return writer.write(encoded, seat)


# Each thread keeps a writer for each choice of pieces: a writer writes any states, in any
# order, and rewrites only what differs from the state it wrote last (a writer is not to be
# shared between threads).
_WRITERS = threading.local()


@functools.cache
def _starts(public: bool, private: str) -> dict[str, int]:
    """Where each piece of the observation starts."""
    starts, at = {}, 0
    for name, shape in observation_pieces(public=public, private=private):
        starts[name] = at
        at += _size(shape)
    return starts


_STAGES, _DECISIONS = len(Stage), len(DECISION_TYPES)
_DECISION_INDEX = {kind: i for i, kind in enumerate(DECISION_TYPES)}
# The pieces from ``stage`` to ``elves_kept``, ``to_move`` among them (written for each
# observer: the board leaves it 0).
_NAMES = [name for name, _ in OBSERVATION_PIECES]
_MOMENT_SIZE = sum(
    _size(shape) for _, shape in OBSERVATION_PIECES[_NAMES.index("stage") : _NAMES.index("deck")]
)
# A seat's pieces from ``hand_size`` to ``trolls``; the Giant token comes next, then the bands.
_HEAD = sum(
    size for _, size in SEAT_PIECES[: [name for name, _ in SEAT_PIECES].index("giant_token")]
)
_BANDS_SIZE = 1 + 2 * _CARDS  # a seat's ``bands``, ``band_cards`` and ``band_leaders``
_COLOUR_INDEX: dict[int, int] = {colour: i for i, colour in enumerate(_COLOURS)}
_LEADER, _ADD = (
    next(b.start for b in BLOCKS if b.name == name) for name in ("band leader", "band add")
)


def _frozen(values: Any) -> memoryview:
    """The float32 values as a read-only memoryview: the pieces kept are shared, and written
    into the tensor through its own memoryview (a third of the cost of numpy's slicing)."""
    array: Tensor = np.array(values, np.float32)
    array.flags.writeable = False
    return array.data


@functools.lru_cache(maxsize=4096)
def _moment_piece(key: tuple[int, int, int, int, int]) -> memoryview:
    """The pieces from ``stage`` to ``elves_kept``, ``to_move`` left 0."""
    stage, decision, age, dragons, kept = key
    ages = _STAGES + _DECISIONS + MAX_PLAYERS + 1
    now = np.zeros(_MOMENT_SIZE, np.float32)
    now[[stage, _STAGES + decision, ages + age - 1]] = 1
    now[ages + _AGES : ages + _AGES + dragons] = 1
    now[-1] = kept
    return _frozen(now)


SeatPublic = tuple[int, int, tuple[int, ...], int | None, tuple[int, ...], tuple[int, ...]]
"""What everyone sees of a player but its hand's size and its bands: its Glory, supply,
kingdoms, Merfolk track space, Horde and Troll tokens (the rest of
:func:`~ethnos_rules.observation`'s seat view)."""


def _public(player: PlayerState) -> SeatPublic:
    return player.glory, player.supply, player.kingdoms, player.merfolk, player.horde, player.trolls


@functools.lru_cache(maxsize=4096)
def _public_piece(public: SeatPublic) -> memoryview:
    """A seat's pieces from ``glory`` to ``trolls``."""
    glory, supply, kingdoms, merfolk, horde, trolls = public
    spaces = [0.0] * len(_COLOURS)
    for colour in horde:
        spaces[_COLOUR_INDEX[colour]] = 1.0
    tokens = [0.0] * len(_TROLLS)
    for value in trolls:
        tokens[_TROLLS.index(value)] = 1.0
    track = -1 if merfolk is None else merfolk
    return _frozen([glory, supply, *kingdoms, track, *spaces, *tokens])


def _write_counts(cells: memoryview, start: int, cards: tuple[Card, ...]) -> None:
    """Counts by card index, from ``start``, into ``cells`` where that piece is all 0."""
    for card in cards:
        cells[start + card.index] += 1


_ZEROS = np.zeros(_BANDS_SIZE, np.float32).data  # to clear a piece with


class ObservationWriter:
    """:func:`observation_tensor` with one choice of pieces, for a game observed decision after
    decision, from any seat (``seat`` by default).

    The writer keeps a board: the tensor of the last state it wrote, in the order of the seats
    (as seat 0 sees it), without what depends on the observer (the ``observer`` and ``to_move``
    pieces, the hand, the Elves' kept cards), and the parts of the state each piece showed. A
    state shares the parts a decision leaves unchanged with the state before it, so a new
    state's board is the last one with only the pieces of the parts that changed written anew
    (the mover's seat and hand, often the row), once for every seat that observes it. A seat's
    tensor is a copy of the board with the seats turned to start at the observer and the
    observer's own pieces written in. Any states can be written, in any order; a writer is not
    to be shared between threads.

    >>> from ethnos_rules import play_random
    >>> from ethnos_rules.agents import EncodedState, ObservationWriter, observation_tensor
    >>> game = play_random(3, seed=4)
    >>> writer = ObservationWriter(1, 3)
    >>> all((writer.write(EncodedState(s)) == observation_tensor(s, 1)).all()
    ...     for s in list(game.states())[::50])
    True
    >>> all((writer.write(EncodedState(s), 2) == observation_tensor(s, 2)).all()
    ...     for s in list(game.states())[::50])
    True

    Raises:
        SetupError: (``SETUP-1``) ``players`` is not 2 to 6, or ``seat`` is not one of its seats.
        ValueError: ``public`` is not True or False, or ``private`` is not ``"none"``, ``"seat"``
            or ``"all"``.
    """

    def __init__(
        self, seat: int, players: int, *, public: bool = True, private: str = "seat"
    ) -> None:
        _check_view(public, private)
        check_players(players)
        check_seat(seat, players)
        self.seat, self.players, self.public, self.private = seat, players, public, private
        self._at = at = _starts(public, private)
        self._tensor = np.zeros(observation_size(public=public, private=private), np.float32)
        # Single numbers are written through a memoryview: three times cheaper than numpy's
        # indexing, which builds a numpy scalar for each.
        self._cells = self._tensor.data
        if public:
            self._tensor[at["players"] + players - _FEWEST_PLAYERS] = 1
        # The parts each piece shows now, compared by identity. They are kept alive here, so
        # that a part's identity is never taken for a newer object's.
        self._state: GameState | None = None  # the state written last
        self._decision: tuple[Any, ...] = (None, 0, 0)  # the pending decision, Age, Dragons
        self._mover = MAX_PLAYERS  # the seat to move, MAX_PLAYERS for chance and the end
        self._deck: tuple[tuple[int, ...] | None, int] = (None, 0)  # the deck, its top part
        self._setup: tuple[Any, Any] = (None, None)
        self._row: tuple[Card, ...] | None = None
        self._band: tuple[int, ...] = ()
        self._players: list[PlayerState | None] = [None] * players
        self._publics: list[SeatPublic | None] = [None] * players
        self._bands: list[tuple[Band, ...] | None] = [None] * players
        self._giant: int | None = None  # the seat holding the Giant token
        self._hands: list[tuple[Card, ...] | None] = [None] * players
        self._hand_cells = np.zeros(players * _CARDS, np.float32).data  # by seat
        self._keeping: Any = None  # the pending decision the kept piece shows
        self._kept: tuple[int | None, tuple[Card, ...]] = (None, ())  # its keeper, the cards
        # Where each piece starts (-1 for a piece not shown), and each seat's on the board.
        self._seats_at = at.get("seats", -1)
        self._hands_at = at.get("hands", -1)
        self._hand_at = at.get("hand", -1)
        self._kept_at = at.get("kept", -1)
        self._to_move_at = at.get("to_move", -1)
        self._seat_starts = [self._seats_at + s * _SEAT_SIZE for s in range(players)]

    # A copy or a pickle is a new writer with the same choice of pieces: it writes every piece
    # at its first call (a memoryview, which the writer holds, cannot be pickled).
    def __reduce__(self) -> tuple[Any, ...]:
        return (_writer, (self.seat, self.players, self.public, self.private))

    def write(self, node: EncodedState, seat: int | None = None) -> Tensor:
        """The observation of ``node`` by ``seat`` (by default the writer's own): a new
        array, the caller's to keep or change.

        Raises:
            SetupError: (``SETUP-1``) ``node`` is not an EncodedState of a game of this
                writer's player count, or ``seat`` is not one of its seats.
        """
        if type(node) is not EncodedState or node.state.config.players != self.players:
            raise SetupError(
                "SETUP-1",
                f"this writer observes an EncodedState of a {self.players}-player game,"
                f" not {type(node).__name__}"
                + (f" of {node.state.config.players}" if isinstance(node, EncodedState) else ""),
            )
        if seat is None:
            seat = self.seat
        elif type(seat) is not int or not 0 <= seat < self.players:
            check_seat(seat, self.players)  # which raises, saying why
        state = node.state
        if state is not self._state:  # the steps of a band share their state
            self._state = state
            if self.public:
                self._write_public(state)
            if self.private == "all":
                self._write_hands(state.players)
            if self.private != "none" and state.pending is not self._keeping:
                self._keep(state)
        if self.public and node.band != self._band:
            self._write_band_built(node.band)
        out = self._tensor.copy()
        # memoryview(out) costs less than out.data (numpy's stubs do not say it is a Buffer).
        cells, n = memoryview(out), self.players  # type: ignore[arg-type]
        cells[seat] = 1  # the observer
        if self.public:
            mover = self._mover
            cells[self._to_move_at + (mover if mover == MAX_PLAYERS else (mover - seat) % n)] = 1
            if seat:
                self._turn(cells, self._seats_at, _SEAT_SIZE, seat)
        # The board's hand and kept pieces are 0: only the kept cards are counted in.
        if self.private == "seat":
            start = self._hand_at
            cells[start : start + _CARDS] = self._hand_counts(state.players[seat].hand, seat)
        elif self.private == "all" and seat:
            self._turn(cells, self._hands_at, _CARDS, seat)
        keeper, kept = self._kept
        if kept and (keeper == seat or self.private == "all"):
            _write_counts(cells, self._kept_at, kept)
        return out

    def _turn(self, cells: memoryview, start: int, size: int, seat: int) -> None:
        """The board's pieces of each seat, ``size`` numbers each from ``start``, written into
        ``cells`` from ``seat``'s on (the seats relative to the observer)."""
        board, end = self._cells, start + self.players * size
        split = start + seat * size
        cells[start : end - split + start] = board[split:end]
        cells[end - split + start : end] = board[start:split]

    def _hand_counts(self, hand: tuple[Card, ...], seat: int) -> memoryview:
        """The counts of ``seat``'s hand, kept for every seat aside from the board: a hand
        is seen at each step of a band, and its seat's turns come round again."""
        start = seat * _CARDS
        if hand is not self._hands[seat]:
            self._hands[seat] = hand
            self._hand_cells[start : start + _CARDS] = _ZEROS[:_CARDS]
            _write_counts(self._hand_cells, start, hand)
        return self._hand_cells[start : start + _CARDS]

    def _keep(self, state: GameState) -> None:
        """The ``kept`` piece: the cards the Elves being resolved kept, and whose they are."""
        self._keeping = state.pending
        self._kept = state.pending.keeping()

    def _write_hands(self, players: tuple[PlayerState, ...]) -> None:
        """The ``hands`` piece, in the order of the seats."""
        shown, cells = self._hands, self._cells
        for seat, player in enumerate(players):
            if player.hand is not shown[seat]:
                shown[seat] = player.hand
                start = self._hands_at + seat * _CARDS
                cells[start : start + _CARDS] = _ZEROS[:_CARDS]
                _write_counts(cells, start, player.hand)

    def _write_public(self, state: GameState) -> None:
        """Every public piece but the band being built, where it differs from the board."""
        # Each part is compared by identity first: an unchanged part is the same object.
        at = self._at
        if (
            state.pending is not self._decision[0]
            or state.age != self._decision[1]
            or state.dragons_drawn != self._decision[2]
        ):
            self._write_moment(state)
        deck, shown = state.deck, self._deck
        if deck is not shown[0] or state.top_left != shown[1]:
            self._deck = (deck, state.top_left)
            self._cells[at["deck"]] = sum(deck)
            self._cells[at["deck"] + 1] = state.top_left
        if state.tribes is not self._setup[0] or state.tokens is not self._setup[1]:
            self._write_setup(state.tribes, state.tokens)
        if state.row is not self._row:
            self._row = state.row
            self._cells[at["row"] : at["row"] + _CARDS] = _ZEROS[:_CARDS]
            _write_counts(self._cells, at["row"], state.row)
        players, players_shown = state.players, self._players
        for seat, player in enumerate(players):
            if player is not players_shown[seat]:
                self._write_seat(seat, player)
        if state.giant_holder != self._giant:
            self._write_giant(state.giant_holder)

    def _write_giant(self, holder: int | None) -> None:
        """The ``giant_token`` piece of the seat that held the Giant token and of its holder."""
        for seat in (self._giant, holder):
            if seat is not None:
                self._cells[self._seat_starts[seat] + _HEAD] = seat == holder
        self._giant = holder

    def _write_moment(self, state: GameState) -> None:
        """The pieces from ``stage`` to ``elves_kept``: what the game is deciding now, which
        the pending decision, the Age and the Dragons drawn tell; and who moves."""
        # Compared by identity: turns of the same seat share their pending object. An equal
        # pending object that is not the same one is only written again, to the same values.
        self._decision = (state.pending, state.age, state.dragons_drawn)
        mover = to_move(state)
        self._mover = MAX_PLAYERS if mover is None or mover is CHANCE else int(mover)
        kind = _DECISION_INDEX[type(state.pending)]
        kept = len(state.pending.keeping()[1])
        key = (state.pending.stage, kind, state.age, state.dragons_drawn, kept)
        start = self._at["stage"]
        self._cells[start : start + _MOMENT_SIZE] = _moment_piece(key)

    def _write_setup(self, tribes: tuple[Tribe, ...], tokens: tuple[tuple[int, ...], ...]) -> None:
        """The ``tribes`` and ``tokens`` pieces: set up once, the same all game."""
        self._setup = (tribes, tokens)
        start, count = self._at["tribes"], len(EDITION.tribes)
        piece = self._tensor[start : start + count + len(_KINGDOMS) * _TOKENS_PER_KINGDOM]
        piece[:] = 0
        piece[[tribe.index for tribe in tribes]] = 1
        for k, values in enumerate(tokens):
            piece[count + k * _TOKENS_PER_KINGDOM :][: len(values)] = values

    def _write_band_built(self, band: tuple[int, ...]) -> None:
        """The ``band_leader`` and ``band_added`` pieces (ids of :mod:`~ethnos_rules.agents`)."""
        self._band, cells = band, self._cells
        leader, added = self._at["band_leader"], self._at["band_added"]
        cells[leader : added + _CARDS] = _ZEROS[: added + _CARDS - leader]
        if band:
            cells[leader + band[0] - _LEADER] = 1
            for step in band[1:]:
                cells[added + step - _ADD] += 1

    def _write_seat(self, seat: int, player: PlayerState) -> None:
        """A seat's public pieces (:data:`SEAT_PIECES`) but the Giant token."""
        self._players[seat] = player
        start, cells = self._seat_starts[seat], self._cells
        cells[start] = len(player.hand)
        public = _public(player)
        if public != self._publics[seat]:
            self._publics[seat] = public
            cells[start + 1 : start + _HEAD] = _public_piece(public)
        if player.bands is not self._bands[seat]:
            self._write_bands(start + _HEAD + 1, player.bands, self._bands[seat])
            self._bands[seat] = player.bands

    def _write_bands(
        self, start: int, bands: tuple[Band, ...], shown: tuple[Band, ...] | None
    ) -> None:
        """A seat's ``bands``, ``band_cards`` and ``band_leaders`` pieces, from ``start``;
        ``shown`` are the bands they show now (a band played adds to them)."""
        cells, leaders = self._cells, start + 1 + _CARDS
        if shown is not None and len(bands) == len(shown) and bands == shown:  # a new tuple
            return
        if shown is None or bands[:-1] != shown:
            cells[start : start + _BANDS_SIZE] = _ZEROS
            shown = ()
        cells[start] = len(bands)
        for band in bands[len(shown) :]:
            cells[leaders + band.leader.index] += 1
            _write_counts(cells, start + 1, band.cards)


def _writer(seat: int, players: int, public: bool, private: str) -> ObservationWriter:
    return ObservationWriter(seat, players, public=public, private=private)


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
    _check_view(public, private)
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
    keeper, kept = encoded.state.pending.keeping()
    if kept and (private == "all" or (private == "seat" and keeper == seat)):
        lines.append(f"seat {keeper} Elves kept: " + " ".join(c.code for c in kept))
    return "\n".join(lines)


def information_state_text(recall: Iterable[Action], node: EncodedState, seat: int) -> str:
    """An information state as text: the seat, then each item it saw, then the steps of a band
    being built (as :class:`~ethnos_rules.InformationState` writes its decisions).

    Raises:
        InvalidStateError: ``node`` is not an EncodedState.
        SetupError: (``SETUP-1``) ``seat`` is not a seat of its game.
    """
    if not isinstance(node, EncodedState):
        raise InvalidStateError((f"expected an EncodedState, not {type(node).__name__}",))
    check_seat(seat, node.state.config.players)
    items = recall.text() if isinstance(recall, Recall) else "\n".join(map(str, recall))
    return "\n".join([f"seat {seat}", *([items] if items else []), *map(action_text, node.band)])


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


def token_text(token: int) -> str:
    """The text of an information-state token, the vocabulary of a sequence model: below
    :data:`~ethnos_rules.agents.NUM_DISTINCT_ACTIONS` an action id (:func:`action_text`), then
    ``reveal ?`` (:data:`HIDDEN_REVEAL`), ``keep ?`` (:data:`HIDDEN_KEEP`), and ``shown C``
    for each card kind ``C`` from :data:`SHOWN`; :data:`NUM_TOKENS` in all.

    >>> from ethnos_rules.agents import NUM_TOKENS, token_text
    >>> token_text(0), token_text(534), token_text(535), token_text(NUM_TOKENS - 1)
    ('tribe CEN', 'reveal ?', 'keep ?', 'shown WIZ-blue')

    Raises:
        ValueError: ``token`` is not a whole number below :data:`NUM_TOKENS`.
    """
    if isinstance(token, bool) or not isinstance(token, int | np.integer):
        raise ValueError(f"a token is a whole number, not {given(token)}")
    if not 0 <= token < NUM_TOKENS:
        raise ValueError(f"tokens are 0 to {NUM_TOKENS - 1}, not {token}")
    if token < NUM_DISTINCT_ACTIONS:
        return action_text(int(token))
    if token in (HIDDEN_REVEAL, HIDDEN_KEEP):
        return "reveal ?" if token == HIDDEN_REVEAL else "keep ?"
    return f"shown {EDITION.cards[token - SHOWN].code}"


def item_tokens(item: Action) -> tuple[int, ...]:
    """The tokens of one item of an information state: the ids of a decision (see
    :func:`~ethnos_rules.agents.encode`), one token for a hidden card, or one per card
    shown.

    Raises:
        MalformedActionError: ``item`` is not an action (and as :func:`encode`).
    """
    if not isinstance(item, Action):
        raise not_an_action(item)
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

    __slots__ = ("_text", "_tokens", "_upto", "before", "items", "length")

    def __init__(self, before: Recall | None, items: tuple[Action, ...], length: int) -> None:
        self.before, self.items, self.length = before, items, length
        self._tokens: tuple[int, ...] | None = None  # of these items, once asked for
        self._upto: tuple[int, ...] | None = None  # of every item up to these, now and then
        self._text: str | None = None  # every item up to these, once asked for

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

    def text(self) -> str:
        """Every item as text, one a line (remembered: a search asks for the same
        information state's text again and again, as the key of its tree)."""
        if self._text is None:
            unwritten: list[Recall] = []
            link: Recall | None = self
            while link is not None and link._text is None:
                unwritten.append(link)
                link = link.before
            lines = [link._text] if link is not None and link._text else []
            for each in reversed(unwritten):
                lines += map(str, each.items)
            self._text = "\n".join(lines)
        return self._text

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

    A chain made by :meth:`unreplayed` holds its decisions without their events, and replays
    them only when a view that is not known yet needs them.

    Attributes:
        before: The decisions before the last one, or None (nothing played).
        decision: The last decision.
        length: How many decisions in all.
    """

    __slots__ = ("_before_state", "_events", "_recalls", "_replay", "before", "decision", "length")

    def __init__(
        self, before: Played | None, decision: Action | None, events: tuple[Event, ...] | None
    ) -> None:
        self.before, self.decision, self._events = before, decision, events
        self.length: int = 0 if before is None else before.length + 1
        self._recalls: dict[Seen, Recall] = {}
        self._replay: _Replay | None = None  # what fills in the events, if they are not known
        self._before_state: GameState | None = None  # or the state the decision was made in

    @classmethod
    def empty(cls) -> Played:
        """Nothing played yet."""
        return cls(None, None, ())

    @classmethod
    def unreplayed(
        cls, start: GameState, decisions: Sequence[Action], known: Mapping[Seen, Recall]
    ) -> Played:
        """``decisions`` made from ``start``, their events left to be worked out (by replaying
        them, once) when a view not given in ``known`` is asked for: ``known`` gives views
        already known of the whole chain (what one seat saw of a game drawn to fit it)."""
        replay = _Replay(start)
        played = cls.empty()
        for decision in decisions:
            played = Played(played, decision, None)
            played._replay = replay
            replay.links.append(played)
        played._recalls.update(known)
        return played

    @property
    def events(self) -> tuple[Event, ...]:
        """The last decision's events, as :func:`~ethnos_rules.step` gives them."""
        if self._events is None:
            if self._before_state is not None:  # made by add_unstepped: stepped now, once
                assert self.decision is not None
                self._events = step(self._before_state, self.decision).events
                self._before_state = None
            else:
                assert self._replay is not None
                self._replay.fill()
        assert self._events is not None
        return self._events

    def add(self, decision: Action, events: tuple[Event, ...]) -> Played:
        """``decision`` made next, with its ``events``."""
        return Played(self, decision, events)

    def add_unstepped(self, decision: Action, state: GameState) -> Played:
        """``decision`` made next in ``state``; its events are worked out only if a view of
        the game asks for them (a game played by ids keeps no events it is not asked for:
        collecting them costs as much as the decision)."""
        played = Played(self, decision, None)
        played._before_state = state
        return played

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

    def decisions(self) -> list[Action]:
        """Each decision, from the first."""
        out = []
        link = self
        while link.before is not None:
            assert link.decision is not None
            out.append(link.decision)
            link = link.before
        return out[::-1]

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


class _Replay:
    """The links of an unreplayed chain, and the state they start from: :meth:`fill` replays
    their decisions once and gives each link its events."""

    __slots__ = ("links", "start")

    def __init__(self, start: GameState) -> None:
        self.start, self.links = start, list[Played]()

    def fill(self) -> None:
        state = self.start
        for link in self.links:
            assert link.decision is not None
            result = step(state, link.decision)
            link._events, state = result.events, result.state
            link._replay = None
        self.links = []


def _played_of(pairs: tuple[tuple[Action, tuple[Event, ...]], ...]) -> Played:
    played = Played.empty()
    for decision, events in pairs:
        played = played.add(decision, events)
    return played


def history_tensor(tokens: Iterable[int], length: int, out: Tensor | None = None) -> Tensor:
    """The tokens as a float32 array of ``length``: ``token + 1``, then zeros.

    Raises:
        ValueError: more tokens than ``length``; ``length`` not a whole number; a token that
            is not a number a float32 holds.
    """
    _check_length(length)
    try:
        values = np.fromiter(tokens, dtype=np.float32) + 1
    except (OverflowError, TypeError, ValueError):
        raise ValueError(
            f"tokens are integers, as item_tokens gives them: {given(tokens)}"
        ) from None
    if values.size > length:
        raise ValueError(f"{values.size} tokens do not fit an information state of {length}")
    if out is None:
        out = np.zeros(length, np.float32)
    else:
        out.fill(0)
    out[: values.size] = values
    return out


def _check_length(length: object) -> None:
    if type(length) is not int or length < 0:
        raise ValueError(f"length must be a whole number of tokens, not {given(length)}")


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

    Raises:
        RecordError: ``info`` is not an :class:`~ethnos_rules.InformationState`.
        ValueError: ``length`` is not a whole number, or too small for the information state.
    """
    if not isinstance(info, InformationState):
        raise RecordError(
            "information_state_tensor() takes an InformationState (information_state() gives"
            f" one), not {type(info).__name__}"
        )
    if length is not None:
        _check_length(length)
    else:
        length = max_history_tokens(info.players, info.options)
    items = [parse_action(text) for text in info.decisions]
    return history_tensor((t for item in items for t in item_tokens(item)), length)


# --- returns --------------------------------------------------------------------------------


def returns(state: GameState | EncodedState) -> tuple[float, ...]:
    """Each seat's utility: 0 for everyone while the game goes on; at the end, with ``n``
    players and ``k`` winners (GAME-1..3), ``(n/k - 1)/(n - 1)`` for each winner and
    ``-1/(n - 1)`` for every other seat. A sole winner gets 1; the returns sum to 0.

    >>> from ethnos_rules import play_random
    >>> from ethnos_rules.agents import returns
    >>> returns(play_random(2, seed=5).final)
    (-1.0, 1.0)
    >>> returns(play_random(4, seed=5).final)  # doctest: +ELLIPSIS
    (1.0, -0.333..., -0.333..., -0.333...)

    Raises:
        InvalidStateError: ``state`` is neither a GameState nor an EncodedState.
    """
    if isinstance(state, EncodedState):
        state = state.state
    over = is_terminal(state)  # refuses anything but a GameState
    n = state.config.players
    if not over:
        return (0.0,) * n
    won = winners(state)
    share = n / len(won) - 1
    return tuple((share if seat in won else -1.0) / (n - 1) for seat in range(n))
