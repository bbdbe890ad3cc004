"""Every Hypothesis strategy of the test suite, in one place.

- :data:`player_counts`: 2 to 6 players (SETUP-1).
- :func:`tribe_sets`: a set of tribe codes of the size the player count needs (SETUP-3).
- :func:`options`: :class:`~ethnos_rules.Options` with random rule options (spec §12) and, now
  and then, random component data (COMP-5 glory tokens, COMP-10 Merfolk board).
- :func:`token_layouts`: a glory-token layout using exactly the available tokens (SETUP-4).
- :func:`game_setups`: everything :func:`~ethnos_rules.new_game` takes, each argument either
  given or left to chance.
- :data:`seeds`: seeds for :func:`random_decision`, so a whole game is one reproducible draw.
- :func:`game_prefixes`: a random legal game played from a random setup for a random number of
  decisions (chance outcomes drawn with their exact probabilities).
- :func:`action_texts`: random texts in the action notation, most of them parse-able.
- :data:`json_values`: any JSON value (records and snapshots are JSON documents).

Random games are driven by a seeded :class:`random.Random` rather than by Hypothesis draws, one
draw per decision: games run to hundreds of decisions, and a seed keeps each one cheap and
reproducible (the failing ``GameSetup`` and seed are printed by Hypothesis).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from ethnos_rules import (
    Action,
    GameState,
    MerfolkBoard,
    Options,
    apply,
    chance_outcomes,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
)

TRIBE_CODES = ("CEN", "DWA", "ELF", "GIA", "HAL", "MER", "MIN", "ORC", "SKE", "TRO", "WIN", "WIZ")
"""The twelve tribes (COMP-2)."""

COLOURS = ("green", "purple", "orange", "gray", "red", "blue")
"""The card colours, in kingdom order (COMP-1)."""

KINGDOM_NAMES = ("Althea", "Duris", "Ithys", "Pelagon", "Rhea", "Straton")
"""The kingdoms, in colour order (COMP-1)."""

OPTION_CHOICES: dict[str, tuple[str, ...]] = Options.choices()
"""The rule options of spec §12 with their values (default first)."""

DEFAULT_GLORY_TOKENS = (0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10)
"""COMP-5: the printed glory tokens."""

DEFAULT_GLORY_TOKENS_4PLUS = (0, 4, 4, 6, 6, 10)
"""COMP-5: the six tokens marked 4+, removed with 2–3 players (SETUP-4)."""


def tribe_count(players: int) -> int:
    """SETUP-3: 6 tribes with 4–6 players, 5 with 2–3."""
    return 6 if players >= 4 else 5


def age_count(players: int) -> int:
    """SETUP-2: 3 Ages with 4–6 players, 2 with 2–3."""
    return 3 if players >= 4 else 2


def token_pool(options: Options, players: int) -> tuple[int, ...]:
    """SETUP-4: the glory tokens laid for this player count (the 4+ ones go with 2–3 players)."""
    pool = Counter(options.glory_tokens)
    if players <= 3:
        pool -= Counter(options.glory_tokens_4plus)
    return tuple(sorted(pool.elements()))


# --- setups ------------------------------------------------------------------------------------

player_counts = st.integers(min_value=2, max_value=6)
"""SETUP-1: 2 to 6 players."""

seeds = st.integers(min_value=0, max_value=2**32 - 1)
"""Seeds for the random decisions of a game."""


def tribe_sets(players: int) -> st.SearchStrategy[tuple[str, ...]]:
    """SETUP-3: ``tribe_count(players)`` distinct tribe codes, sorted."""
    n = tribe_count(players)
    return st.permutations(TRIBE_CODES).map(lambda codes: tuple(sorted(codes[:n])))


@st.composite
def glory_token_data(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """COMP-5 as data: 18 token values and six of them marked 4+."""
    values = draw(st.lists(st.integers(0, 12), min_size=18, max_size=18))
    order = draw(st.permutations(range(18)))
    return tuple(values), tuple(values[i] for i in order[:6])


@st.composite
def merfolk_boards(draw: st.DrawFn) -> MerfolkBoard:
    """COMP-10 as data: a track of 4 to 24 spaces, up to 5 checkpoints, award values."""
    last = draw(st.integers(4, 24))
    checkpoints = draw(st.lists(st.integers(1, last), max_size=5, unique=True))
    large = draw(st.lists(st.integers(0, 6), min_size=3, max_size=3))
    small = draw(st.lists(st.integers(0, 6), min_size=2, max_size=2))
    return MerfolkBoard(last, tuple(sorted(checkpoints)), tuple(large), tuple(small))


@st.composite
def options(draw: st.DrawFn, component_data: bool = True) -> Options:
    """Random rule options (spec §12); with ``component_data``, sometimes random COMP-5 tokens
    and a random COMP-10 Merfolk board as well."""
    chosen: dict[str, Any] = {
        name: draw(st.sampled_from(values)) for name, values in OPTION_CHOICES.items()
    }
    if component_data and draw(st.booleans()):
        tokens, four_plus = draw(glory_token_data())
        board = draw(merfolk_boards())
        return Options(
            **chosen, glory_tokens=tokens, glory_tokens_4plus=four_plus, merfolk_board=board
        )
    return Options(**chosen)


def token_layouts(
    players: int, game_options: Options
) -> st.SearchStrategy[tuple[tuple[int, ...], ...]]:
    """SETUP-4: the available tokens dealt 3 per kingdom (2 with 2–3 players), in kingdom order."""
    spaces = 2 if players <= 3 else 3
    pool = token_pool(game_options, players)
    return st.permutations(pool).map(
        lambda tokens: tuple(tuple(tokens[k * spaces : (k + 1) * spaces]) for k in range(6))
    )


@dataclass(frozen=True)
class GameSetup:
    """The arguments of :func:`~ethnos_rules.new_game`; None leaves that part to chance."""

    players: int
    tribes: tuple[str, ...] | None
    first_player: int | None
    glory_tokens: tuple[tuple[int, ...], ...] | None
    options: Options

    def start(self) -> GameState:
        """The new game."""
        return new_game(
            self.players,
            tribes=self.tribes,
            first_player=self.first_player,
            glory_tokens=self.glory_tokens,
            options=self.options,
        )


@st.composite
def game_setups(
    draw: st.DrawFn,
    players: st.SearchStrategy[int] = player_counts,
    component_data: bool = True,
) -> GameSetup:
    """A random setup: player count, rule options, and tribes, first player and token layout
    each either given or left to chance (CHANCE)."""
    n = draw(players)
    game_options = draw(options(component_data))
    tribes = draw(st.none() | tribe_sets(n))
    first = draw(st.none() | st.integers(0, n - 1))
    layout = draw(st.none() | token_layouts(n, game_options))
    return GameSetup(n, tribes, first, layout, game_options)


# --- random legal play --------------------------------------------------------------------------


def random_decision(state: GameState, rng: random.Random) -> Action:
    """One decision: a chance outcome drawn with its exact probability (spec §11), or a legal
    action chosen uniformly."""
    if is_chance(state):
        outcomes = chance_outcomes(state)
        denominator = 1
        for _, p in outcomes:
            denominator = denominator * p.denominator // _gcd(denominator, p.denominator)
        roll = Fraction(rng.randrange(denominator), denominator)
        for action, p in outcomes:
            if roll < p:
                return action
            roll -= p
        raise AssertionError(f"chance outcomes sum to less than 1: {outcomes}")
    legal = legal_actions(state)
    if not legal:
        raise AssertionError(f"TURN-1: no legal action before the end: {state.pending.describe()}")
    return rng.choice(legal)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@dataclass(frozen=True)
class GamePrefix:
    """A random legal game so far: its setup, seed, start, decisions and current state."""

    setup: GameSetup
    seed: int
    start: GameState
    actions: tuple[Action, ...]
    state: GameState

    def __repr__(self) -> str:
        return f"GamePrefix({self.setup!r}, seed={self.seed}, steps={len(self.actions)})"


def play_prefix(setup: GameSetup, seed: int, steps: int) -> GamePrefix:
    """Play ``steps`` random decisions (fewer if the game ends first)."""
    rng = random.Random(seed)
    start = state = setup.start()
    actions: list[Action] = []
    while len(actions) < steps and not is_terminal(state):
        action = random_decision(state, rng)
        state = apply(state, action)
        actions.append(action)
    return GamePrefix(setup, seed, start, tuple(actions), state)


@st.composite
def game_prefixes(
    draw: st.DrawFn,
    setups: st.SearchStrategy[GameSetup] | None = None,
    max_steps: int = 1200,
) -> GamePrefix:
    """A random legal game prefix of 0 to ``max_steps`` decisions (whole games are 400 to 900
    decisions long, so the end of the game is reached now and then)."""
    setup = draw(setups if setups is not None else game_setups())
    seed = draw(seeds)
    steps = draw(st.integers(0, max_steps))
    return play_prefix(setup, seed, steps)


# --- action texts -------------------------------------------------------------------------------

_CARD_CODES = tuple(
    code if code == "SKE" else f"{code}-{colour}"
    for code in TRIBE_CODES
    for colour in (("",) if code == "SKE" else COLOURS)
)

card_codes = st.sampled_from(_CARD_CODES)
"""Any card of the first edition (COMP-3)."""

kingdom_names = st.sampled_from(KINGDOM_NAMES)

_small_ints = st.integers(0, 12).map(str)


def _words(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map(" ".join)


@st.composite
def _band_text(draw: st.DrawFn) -> str:
    cards = draw(st.lists(card_codes, min_size=1, max_size=11))
    return "band *" + " ".join(cards)


action_texts: st.SearchStrategy[str] = st.one_of(
    _words(st.just("tribe"), st.sampled_from(TRIBE_CODES)),
    st.lists(_small_ints, min_size=1, max_size=4).flatmap(
        lambda values: kingdom_names.map(lambda k: " ".join(["tokens", k, *values]))
    ),
    _words(st.just("first"), _small_ints),
    _words(st.just("reveal"), card_codes | st.just("DRAGON")),
    _words(st.just("recruit"), card_codes | st.just("deck")),
    _band_text(),
    st.just("pass"),
    _words(st.just("place"), kingdom_names | st.just("none")),
    _words(st.just("troll"), _small_ints | st.just("none")),
    _words(st.just("checkpoint"), kingdom_names | st.just("none")),
    st.sampled_from(("horde add", "horde none", "chain stop", "keep done", "empty none")),
    _words(st.just("keep"), card_codes),
    _words(st.just("wizard"), _small_ints),
    st.lists(st.sampled_from(COLOURS), min_size=1, max_size=6).map(
        lambda colours: "empty " + " ".join(colours)
    ),
    st.text(max_size=20),
)
"""Texts in the action notation (see ``ethnos_rules._rules.actions``), and some arbitrary text."""


# --- JSON -----------------------------------------------------------------------------------------

json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value (records and snapshots are JSON documents)."""
