"""How long a game can be: the bounds that fixed-size tensors and OpenSpiel's game information
need, derived from the rules' counts rather than measured.

See :func:`max_game_length` for how they are derived.
"""

from __future__ import annotations

import functools

from .._rules.options import Options, check_options
from .._rules.setup import check_players
from .._rules.state import Config
from .encoding import EDITION

# Setup's chance outcomes at most: each tribe in play, each kingdom's glory tokens, the first
# player (SETUP-3, SETUP-4, AGE-5).
_SETUP = max(EDITION.tribes_in_play) + len(EDITION.kingdoms) + 1


def _checked(players: int, options: Options | None) -> Options:
    """The options (the default ones for None), once ``players`` and they are a game's."""
    check_players(players)
    if options is None:
        return Options()
    check_options(options)
    return options


@functools.cache
def _copies() -> tuple[int, ...]:
    """The copies of each tribe's cards in the edition, the most first. (Worked out once: a
    new OpenSpiel game asks for the bounds, and ``pyspiel.load_game`` makes a new game.)"""
    rules = EDITION
    return tuple(sorted((sum(rules.cards_of([tribe])) for tribe in rules.tribes), reverse=True))


def _per_age(players: int, options: Options) -> tuple[int, int, int]:
    """The most decisions, chance events and bands of one Age."""
    rules = EDITION
    config = Config(rules, players, options)
    cards = sum(_copies()[: config.tribe_count])
    h, bands = rules.hand_limit, cards
    follow_ups = 1 + 1 + max(h + 1, len(options.merfolk_board.checkpoints))
    recruits = h * (bands + players)
    passes = recruits + bands + 1
    chance = 1 + cards + rules.dragons
    decisions = chance + recruits + passes + bands * (h + 1 + follow_ups) + players
    return decisions, chance, bands


def max_game_length(players: int, options: Options | None = None) -> int:
    """An upper bound on the ids of a whole game (chance outcomes and band steps included).

    Within one Age, with ``C`` Ally cards in the deck, ``D`` Dragons, a hand limit ``h``, ``p``
    players and ``K`` Merfolk checkpoints:

    - every draw takes a card or a Dragon from the deck: at most ``C + D`` ``reveal`` outcomes;
    - every band keeps at least one card out of play until the Age ends (BAND-6, END-1): at most
      ``B = C`` bands, each at most ``h + 1`` ids to build (Leader, ``h - 1`` cards, done), one
      placement, one chain stop and at most ``max(h + 1, K)`` follow-ups of its Leader (Elves keep
      at most ``h`` cards and say done; Merfolk reach at most ``K`` checkpoints; the others ask
      once);
    - a player recruits at most ``h`` times between two of their bands (TURN-2): at most
      ``h (B + p)`` recruits;
    - only a hand of ``h`` Skeletons passes (TURN-3), and twelve Skeletons make two such hands
      impossible, so between two passes someone else recruits or plays a band: at most
      ``h (B + p) + B + 1`` passes;
    - one first-player event and at most ``p`` Orc Horde decisions at the Age's end.

    Setup adds at most a tribe for each in play, a token layout for each kingdom and a first
    player (6, 6 and 1 in the first edition).

    >>> from ethnos_rules.agents import max_game_length
    >>> max_game_length(4) > 5_000
    True

    Raises:
        SetupError: ``players`` is not 2 to 6 (``SETUP-1``), or ``options`` is not an
            :class:`~ethnos_rules.Options` (``OPTIONS``); likewise for the other bounds.
    """
    options = _checked(players, options)
    decisions, _, _ = _per_age(players, options)
    return _SETUP + Config(EDITION, players, options).ages * decisions


def max_chance_events(players: int, options: Options | None = None) -> int:
    """An upper bound on the chance outcomes of a whole game."""
    options = _checked(players, options)
    _, chance, _ = _per_age(players, options)
    return _SETUP + Config(EDITION, players, options).ages * chance


def max_history_tokens(players: int, options: Options | None = None) -> int:
    """An upper bound on the tokens of one seat's information state: every id of the game,
    and every card of another player's hand shown going into the row (at most ``h - 1`` per
    band)."""
    options = _checked(players, options)
    _, _, bands = _per_age(players, options)
    ages = Config(EDITION, players, options).ages
    return max_game_length(players, options) + ages * bands * (EDITION.hand_limit - 1)
