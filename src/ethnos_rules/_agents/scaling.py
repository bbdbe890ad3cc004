"""The observation scaled into [0, 1] for networks: each number of the observation tensor
divided by its bound, the bounds worked out from the edition's printed counts and the game's
options (never measured), and Glory, which no useful bound holds, squashed.

=====================================  ===============================================
numbers                                bound (the number shown is ``value / bound``)
=====================================  ===============================================
one-hots, Giant token, Horde, Trolls   1
cards of a kind (row, bands, hands)    the printed copies of that kind
``elves_kept``, ``hand_size``          the hand limit (TURN-2)
``deck`` (and its top part)            the Ally cards of an Age's deck, most tribes
``bands`` played this Age              the same (a band holds at least one card)
``tokens`` (a glory token's value)     the game's largest glory token
``supply``, ``kingdoms`` (markers)     the markers of a player (COMP-6)
``merfolk`` (-1 without Merfolk)       ``(space + 1) / (last space + 1)``
``glory``                              ``g / (g + T)``, ``T`` the sum of the game's
                                       glory tokens (94 printed): 0 at 0, ½ at ``T``
=====================================  ===============================================
"""

from __future__ import annotations

import functools

import numpy as np

from .._rules.options import Options
from .bounds import _checked, _per_age
from .encoding import EDITION
from .tensors import MAX_PLAYERS, SEAT_PIECES, Tensor, observation_pieces

_RULES = EDITION


def observation_bounds(
    players: int, options: Options | None = None, *, public: bool = True, private: str = "seat"
) -> tuple[Tensor, Tensor]:
    """The least and the greatest value of each number of the observation tensor
    (:func:`~ethnos_rules.agents.observation_tensor`, the same pieces) in a game of ``players``
    with ``options``: the bounds of its ``Box``. Glory's greatest is infinity.

    >>> from ethnos_rules.agents import observation_bounds, observation_size
    >>> low, high = observation_bounds(4)
    >>> low.shape == high.shape == (observation_size(),), float(low.min()), float(high.max())
    (True, -1.0, inf)

    Raises:
        SetupError: ``players`` is not 2 to 6 (``SETUP-1``), or ``options`` is not an
            :class:`~ethnos_rules.Options` (``OPTIONS``).
        ValueError: ``public`` is not True or False, or ``private`` not one of the three.
    """
    low, high, _ = _bounds(players, _checked(players, options), public, private)
    return low.copy(), high.copy()


@functools.cache
def _bounds(
    players: int, options: Options, public: bool, private: str
) -> tuple[Tensor, Tensor, Tensor]:
    """The bounds, and a mask of the Glory numbers."""
    rules = _RULES
    copies = np.array(rules.copies, np.float32)
    _, _, cards = _per_age(players, options)  # an Age's Ally cards, with the most tribes
    h, markers = rules.hand_limit, rules.markers
    last = options.merfolk_board.last_space
    # The greatest value of a piece's numbers: one for all, or one each; 1 if not named.
    seat: dict[str, float | Tensor] = {
        "hand_size": h,
        "glory": np.inf,
        "supply": markers,
        "kingdoms": markers,
        "merfolk": last,
        "bands": cards,
        "band_cards": copies,
        "band_leaders": copies,
    }
    pieces: dict[str, float | Tensor] = {
        "elves_kept": h,
        "deck": cards,
        "tokens": max(options.glory_tokens),
        "row": copies,
        "band_added": copies,
        "hand": copies,
        "hands": np.tile(copies, MAX_PLAYERS),
        "kept": copies,
    }
    one_seat_high = np.concatenate(
        [_filled(seat.get(name, 1.0), size) for name, size in SEAT_PIECES]
    )
    one_seat_low = np.zeros_like(one_seat_high)
    merfolk = sum(size for name, size in SEAT_PIECES[: _index("merfolk")])
    one_seat_low[merfolk] = -1
    glory = np.zeros_like(one_seat_high)
    glory[sum(size for _, size in SEAT_PIECES[: _index("glory")])] = 1
    lows, highs, glories = [], [], []
    for name, shape in observation_pieces(public=public, private=private):
        size = int(np.prod(shape))
        if name == "seats":
            lows.append(np.tile(one_seat_low, MAX_PLAYERS))
            highs.append(np.tile(one_seat_high, MAX_PLAYERS))
            glories.append(np.tile(glory, MAX_PLAYERS))
            continue
        high = _filled(pieces.get(name, 1.0), size)
        lows.append(np.zeros(size, np.float32))
        highs.append(high)
        glories.append(np.zeros(size, np.float32))
    return np.concatenate(lows), np.concatenate(highs), np.concatenate(glories).astype(bool)


def _filled(high: float | Tensor, size: int) -> Tensor:
    """``size`` bounds: ``high`` for each, or ``high`` itself, an array of that size."""
    out = np.full(size, high, np.float32) if np.isscalar(high) else np.asarray(high, np.float32)
    assert out.size == size
    return out


def _index(name: str) -> int:
    return [piece for piece, _ in SEAT_PIECES].index(name)


class Scaler:
    """Scales observation tensors of one game's setup into [0, 1] (see the module's table).

    >>> from ethnos_rules import new_game
    >>> from ethnos_rules.agents import Scaler, observation_tensor
    >>> scaled = Scaler(3)(observation_tensor(new_game(3), 0))
    >>> float(scaled.min()) >= 0, float(scaled.max()) <= 1
    (True, True)

    Raises:
        as :func:`observation_bounds`.
    """

    def __init__(
        self,
        players: int,
        options: Options | None = None,
        *,
        public: bool = True,
        private: str = "seat",
    ) -> None:
        options = _checked(players, options)
        low, high, self._glory = _bounds(players, options, public, private)
        # (value - low) / span as value * factor + shift; Glory's by its indices (a few).
        self._factor = np.where(self._glory, 0, 1 / np.where(self._glory, 1, high - low))
        self._factor = self._factor.astype(np.float32)
        self._shift = (-np.where(self._glory, 0, low) * self._factor).astype(np.float32)
        self._glories = np.flatnonzero(self._glory)
        self._tokens = np.float32(sum(options.glory_tokens))
        self.size = low.size

    def __call__(self, tensor: Tensor) -> Tensor:
        """``tensor`` (an observation of this setup) scaled, in a new array."""
        scaled: Tensor = tensor * self._factor
        scaled += self._shift
        glory = tensor[self._glories]
        scaled[self._glories] = glory / (glory + self._tokens)
        return scaled
