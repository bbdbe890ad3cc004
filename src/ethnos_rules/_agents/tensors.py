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

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from .._io.seats import InformationState
from .._rules.actions import Action, Keep, RestShown
from .._rules.components import KINGDOMS, Card
from .._rules.decisions import DECISION_TYPES
from .._rules.editions import FIRST_EDITION
from .._rules.engine import CHANCE, is_terminal, winners
from .._rules.events import Event
from .._rules.notation import parse_action
from .._rules.observation import observation
from .._rules.seatview import seen_items
from .._rules.state import GameState, Stage
from .encoding import NUM_DISTINCT_ACTIONS, EncodedState, encode

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
    out: Tensor | None = None,
) -> Tensor:
    """What ``seat`` sees of the position now, as a flat float32 array (its layout:
    :data:`OBSERVATION_PIECES`).

    Args:
        node: The state, or an :class:`EncodedState` with a band being built.
        seat: The observing seat.
        public: Include the public position.
        private: ``"seat"`` the observer's hand, ``"all"`` every hand, ``"none"`` neither.
        out: An array of the right size to fill instead of a new one.

    >>> from ethnos_rules import position
    >>> from ethnos_rules.agents import observation_tensor, observation_size
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={0: "ELF-red"})
    >>> tensor = observation_tensor(state, 0)
    >>> tensor.shape == (observation_size(),), tensor.dtype
    (True, dtype('float32'))

    Raises:
        SetupError: (``SETUP-1``) ``seat`` is not a seat of the game.
    """
    encoded = node if isinstance(node, EncodedState) else EncodedState.of(node)
    pieces = observation_pieces(public=public, private=private)
    size = sum(_size(shape) for _, shape in pieces)
    if out is None:
        out = np.zeros(size, np.float32)
    else:
        out.fill(0)
    views = _views(out, pieces)
    fill_observation(views, encoded, seat)
    return out


def _views(tensor: Tensor, pieces: Sequence[tuple[str, tuple[int, ...]]]) -> dict[str, Tensor]:
    views, start = {}, 0
    for name, shape in pieces:
        size = _size(shape)
        views[name] = tensor[start : start + size].reshape(shape)
        start += size
    return views


def fill_observation(views: dict[str, Tensor], node: EncodedState, seat: int) -> None:
    """Write what ``seat`` sees into the pieces ``views`` holds (zeros on entry)."""
    state = node.state
    seen = observation(state, seat)  # what is public, and the seat's own hand
    n = state.config.players
    views["observer"][seat] = 1
    if "players" in views:
        _fill_public(views, node, seen, n)
    if "hand" in views:
        _counts(views["hand"], seen.hand)
    if "hands" in views:
        for rel in range(n):
            _counts(views["hands"][rel], state.players[(seat + rel) % n].hand)


def _fill_public(views: dict[str, Tensor], node: EncodedState, seen: Any, n: int) -> None:
    state = node.state
    pending = state.pending
    views["players"][n - 2] = 1
    views["stage"][pending.stage] = 1
    views["decision"][DECISION_TYPES.index(type(pending))] = 1
    mover = node.to_move()
    views["to_move"][
        MAX_PLAYERS if mover is None or mover is CHANCE else (mover - seen.seat) % n
    ] = 1
    views["age"][seen.age - 1] = 1
    views["dragons_drawn"][: seen.dragons_drawn] = 1
    views["deck"][:] = (seen.deck_size, seen.top_left)
    for code in seen.tribes:
        views["tribes"][state.rules.tribe(code).index] = 1
    for k, values in enumerate(seen.tokens):
        views["tokens"][k, : len(values)] = values
    _counts(views["row"], seen.row)
    if node.band:
        views["band_leader"][node.band[0] - _LEADER] = 1
        for i in node.band[1:]:
            views["band_added"][i - _ADD] += 1
    for rel in range(n):
        _fill_seat(
            views["seats"][rel], seen.seats[(seen.seat + rel) % n], (seen.seat + rel) % n, seen
        )


_TROLLS = FIRST_EDITION.troll_tokens
_LEADER = encode(parse_action("band *CEN-green"))[0]
_ADD = encode(parse_action("band *CEN-green CEN-green"))[1]
_OFFSETS: dict[str, int] = {}
_at = 0
for _name, _width in SEAT_PIECES:
    _OFFSETS[_name] = _at
    _at += _width


def _fill_seat(row: Tensor, view: Any, seat: int, seen: Any) -> None:
    o = _OFFSETS
    row[o["hand_size"]] = view.hand_size
    row[o["glory"]] = view.glory
    row[o["supply"]] = view.supply
    row[o["kingdoms"] : o["kingdoms"] + len(KINGDOMS)] = view.kingdoms
    row[o["merfolk"]] = -1 if view.merfolk is None else view.merfolk
    for colour in view.horde:
        row[o["horde"] + colour] = 1
    for value in view.trolls:
        row[o["trolls"] + _TROLLS.index(value)] = 1
    row[o["giant_token"]] = seen.giant_holder == seat
    row[o["bands"]] = len(view.bands)
    for band in view.bands:
        row[o["band_leaders"] + band.leader.index] += 1
        for card in band.cards:
            row[o["band_cards"] + card.index] += 1


def _counts(piece: Tensor, cards: Iterable[Card]) -> None:
    for card in cards:
        piece[card.index] += 1


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


@attrs.frozen
class Recall:
    """The items one seat has seen, kept as a chain so that each decision shares the items
    before it (cheap to extend and to copy, as search trees do)."""

    before: Recall | None
    items: tuple[Action, ...]
    length: int

    @classmethod
    def empty(cls) -> Recall:
        """Nothing seen yet."""
        return cls(None, (), 0)

    def add(self, items: tuple[Action, ...]) -> Recall:
        """These items seen next."""
        return Recall(self, items, self.length + len(items)) if items else self

    def __iter__(self) -> Iterator[Action]:
        chunks: list[tuple[Action, ...]] = []
        link: Recall | None = self
        while link is not None:
            chunks.append(link.items)
            link = link.before
        for chunk in reversed(chunks):
            yield from chunk

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
        return [token for item in self for token in item_tokens(item)]


def _recall_of(items: tuple[Action, ...]) -> Recall:
    return Recall.empty().add(items)


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


def information_state_tensor(info: InformationState, length: int) -> Tensor:
    """The perfect-recall information state of one seat as a float32 array of ``length``:
    each item's tokens (:func:`item_tokens`) plus one, in order, then zeros.

    ``length`` is the game's bound, :func:`~ethnos_rules.agents.max_history_tokens`.

    >>> from ethnos_rules import GameRecord, information_state, play_random
    >>> from ethnos_rules.agents import action_text, information_state_tensor, max_history_tokens
    >>> game = play_random(2, seed=3)
    >>> info = information_state(GameRecord.from_start(game.start, game.actions[:20]), 0)
    >>> tensor = information_state_tensor(info, max_history_tokens(2))
    >>> [int(v) - 1 for v in tensor[:2]], [action_text(int(v) - 1) for v in tensor[:2]]
    ([3, 10], ['tribe GIA', 'tribe WIN'])
    >>> int((tensor > 0).sum()), len(tensor)
    (20, 8027)
    """
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
