"""Setup (spec §2, ``SETUP-*``): players, tribes, glory tokens and tribe pieces."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, TypeVar

import attrs

from . import age as _age
from .actions import Action, ChooseTribe, LayTokens
from .components import Colour, Kingdom, Ruleset, Tribe
from .editions import default_ruleset
from .errors import IllegalActionError, ImpossibleOutcomeError, SetupError
from .events import TokensLaid, TribeChosen, TribesInPlay, emit
from .options import Options, check_options
from .randomness import Random, count_off, uniform
from .said import said, word
from .state import (
    Config,
    DecisionKind,
    GameState,
    Pending,
    PlayerState,
    Stage,
    copy_player,
    copy_state,
)
from .words import given

# Mapping is invariant in its key type, so each kind of key is listed apart.
TokenLayout = (
    Mapping[str, Sequence[int]]
    | Mapping[Kingdom, Sequence[int]]
    | Mapping[Kingdom | str, Sequence[int]]
    | Sequence[Sequence[int]]
)


def new_game(
    players: int,
    *,
    tribes: Iterable[str | Tribe] | None = None,
    glory_tokens: TokenLayout | None = None,
    first_player: int | None = None,
    options: Options | None = None,
    ruleset: Ruleset | None = None,
) -> GameState:
    """A new game before its first decision. Arguments left None are decided by chance.

    >>> from ethnos_rules import new_game, to_move, CHANCE
    >>> state = new_game(4, tribes=["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"])
    >>> to_move(state) is CHANCE
    True

    Args:
        players: Number of players, 2 to 6 (SETUP-1), or as many as the edition allows.
        tribes: The tribes in play, by code or name: 6 with 4–6 players, 5 with 2–3 (SETUP-3),
            or as many as the edition puts in play.
        glory_tokens: Tokens per kingdom, as a mapping from kingdom (or its name) to values, or a
            sequence of value lists in kingdom order (six in the first edition); 3 each (2 with
            2–3 players, or the edition's numbers), using every available token exactly once
            (SETUP-4).
        first_player: Seat of the first player of Age I (AGE-5).
        options: Rule options; the edition's default ones (the spec's rulings) by default.
        ruleset: The edition's components; the first edition by default.

    Raises:
        SetupError: naming the SETUP or AGE rule an argument breaks (``COMP-5`` for options
            whose glory tokens do not fill the edition's kingdoms).

    """
    check_players(players)
    if ruleset is not None and not isinstance(ruleset, Ruleset):
        raise SetupError(
            "SETUP-1", said("ruleset must be a Ruleset, not {ruleset}", ruleset=given(ruleset))
        )
    rules = ruleset or default_ruleset()
    low, high = rules.players
    if not low <= players <= high:
        raise SetupError(
            "SETUP-1",
            said(
                "the edition {name} is played by {low} to {high} players",
                name=repr(rules.name),
                low=low,
                high=high,
            ),
        )
    options = options if options is not None else rules.default_options
    check_options(options)
    rules.check_options(options, players)
    config = Config(rules, players, options)
    if first_player is not None and (
        type(first_player) is not int or not 0 <= first_player < players
    ):
        raise SetupError(
            "AGE-5", said("first_player must be a seat from 0 to {number}", number=players - 1)
        )
    state = GameState(
        config=config,
        pending=ChooseTribes(),
        players=tuple(PlayerState(supply=config.ruleset.markers - 1) for _ in range(players)),
        first_player=first_player,
    )
    if glory_tokens is not None:
        state = copy_state(state, tokens=_token_layout(config, glory_tokens))
    if tribes is None:
        return state
    return _tribes_chosen(copy_state(state, tribes=_tribe_list(config, tribes)), by_chance=False)


def check_players(players: object) -> None:
    """Refuse a player count the game is not played by (SETUP-1: 2 to 6, an int)."""
    if type(players) is not int:  # a bool or numpy's int64 is refused, and said to be
        raise SetupError(
            "SETUP-1", said("the number of players is an int, not {kind}", kind=_kind(players))
        )
    if not 2 <= players <= 6:
        raise SetupError(
            "SETUP-1",
            said("Ethnos is played by 2 to 6 players, not {players}", players=given(players)),
        )


def check_seat(seat: object, players: int) -> None:
    """Refuse what is not a seat of a game of ``players`` (SETUP-1: an int, 0 to players - 1)."""
    if type(seat) is not int:
        raise SetupError("SETUP-1", said("a seat is an int, not {kind}", kind=_kind(seat)))
    if not 0 <= seat < players:
        raise SetupError(
            "SETUP-1",
            said(
                "{seat} is not a seat of this {players}-player game (0 to {number})",
                seat=given(seat),
                players=players,
                number=players - 1,
            ),
        )


def _kind(value: object) -> str:
    """``value`` and its type, for saying why it is not an int."""
    return f"{given(value)} ({type(value).__module__}.{type(value).__qualname__})".replace(
        "builtins.", ""
    )


def _tribe(config: Config, tribe: object) -> Tribe:
    """A tribe given as itself or by its code."""
    if isinstance(tribe, Tribe):
        return tribe
    if not isinstance(tribe, str):
        raise SetupError(
            "SETUP-3",
            said("a tribe is named by its code (e.g. 'ELF'), not {tribe}", tribe=given(tribe)),
        )
    return config.ruleset.tribe(tribe)


def _tribe_list(config: Config, tribes: object) -> tuple[Tribe, ...]:
    if isinstance(tribes, str):
        raise SetupError("SETUP-3", said("tribes must be a list of tribe codes, not one string"))
    if not isinstance(tribes, Iterable):
        raise SetupError(
            "SETUP-3",
            said("tribes must be a list of tribe codes, not {tribes}", tribes=given(tribes)),
        )
    try:
        chosen = [_tribe(config, t) for t in tribes]
    except KeyError as err:
        raise SetupError("SETUP-3", err.args[0]) from None
    strangers = [t.code for t in chosen if t not in config.ruleset.tribes]
    if strangers:
        raise SetupError(
            "SETUP-3",
            said(
                "{names}: a tribe of another ruleset than this game's", names=", ".join(strangers)
            ),
        )
    if len(set(chosen)) != len(chosen):
        raise SetupError("SETUP-3", said("a tribe is named twice"))
    if len(chosen) != config.tribe_count:
        raise SetupError(
            "SETUP-3",
            said(
                "{players} players play with {tribe_count} tribes, not {n_chosen}",
                players=config.players,
                tribe_count=config.tribe_count,
                n_chosen=len(chosen),
            ),
        )
    return tuple(sorted(chosen))


def _token_layout(config: Config, layout: object) -> tuple[tuple[int, ...], ...]:
    """Check a caller's layout (of any type: it comes from outside) and sort each row."""
    rows: list[object]
    kingdoms = config.ruleset.kingdoms
    if not isinstance(layout, Mapping | Iterable):
        raise SetupError(
            "SETUP-4",
            said(
                "glory_tokens must map kingdoms to tokens or list {n_kingdoms} rows, not {layout}",
                n_kingdoms=len(kingdoms),
                layout=given(layout),
            ),
        )
    if isinstance(layout, Mapping):
        by_kingdom: dict[Kingdom, object] = {}
        for key, row in layout.items():
            kingdom = parse_named(Kingdom, key, "SETUP-4")
            if kingdom not in kingdoms:
                raise SetupError(
                    "SETUP-4", said("{label} is no kingdom of this edition", label=kingdom.label)
                )
            if kingdom in by_kingdom:
                raise SetupError(
                    "SETUP-4", said("glory tokens are given twice for {label}", label=kingdom.label)
                )
            by_kingdom[kingdom] = row
        missing = [k.label for k in kingdoms if k not in by_kingdom]
        if missing:
            raise SetupError(
                "SETUP-4", said("no glory tokens given for {names}", names=", ".join(missing))
            )
        rows = [by_kingdom[k] for k in kingdoms]
    else:
        rows = list(layout)
        if len(rows) != len(kingdoms):
            raise SetupError(
                "SETUP-4",
                said(
                    "glory tokens are needed for {n_kingdoms} kingdoms, not {n_rows}",
                    n_kingdoms=len(kingdoms),
                    n_rows=len(rows),
                ),
            )
    spaces = config.token_spaces
    out = []
    for kingdom, values in zip(kingdoms, rows, strict=True):
        if not isinstance(values, Sequence) or isinstance(values, str | bytes):
            raise SetupError(
                "SETUP-4",
                said(
                    "{label} needs {spaces} glory tokens, not {values}",
                    label=kingdom.label,
                    spaces=spaces,
                    values=given(values),
                ),
            )
        if len(values) != spaces:
            raise SetupError(
                "SETUP-4",
                said("{label} needs {spaces} glory tokens", label=kingdom.label, spaces=spaces),
            )
        if any(type(v) is not int for v in values):
            raise SetupError(
                "SETUP-4", said("{label}: glory tokens are integers", label=kingdom.label)
            )
        out.append(tuple(sorted(values)))
    pool = Counter(config.options.token_pool(config.players))
    if Counter(v for row in out for v in row) != pool:
        raise SetupError(
            "SETUP-4",
            said(
                "the layout must use exactly the available tokens {sorted}",
                sorted=sorted(pool.elements()),
            ),
        )
    return tuple(out)


_E = TypeVar("_E", Kingdom, Colour)


def parse_named(kind: type[_E], key: object, rule: str, where: str | None = None) -> _E:
    """``key`` as a ``kind`` (Kingdom or Colour): one itself, or its name in any case.

    Raises:
        SetupError: (``rule``) for anything else, naming the known ones; the reason starts
            ``"{where}: "`` when ``where`` is given.
    """
    if isinstance(key, kind):
        return key
    prefix = f"{where}: " if where else ""
    if not isinstance(key, str):
        known = ", ".join(str(member) for member in kind)
        raise SetupError(
            rule,
            said(
                "{prefix}unknown {lower} {key} (one of {known})",
                prefix=prefix,
                lower=word(kind.__name__.lower()),
                key=given(key),
                known=known,
            ),
        )
    try:
        return kind.parse(key)
    except KeyError as err:
        raise SetupError(rule, said("{prefix}{args}", prefix=prefix, args=err.args[0])) from None


def _tribes_chosen(state: GameState, by_chance: bool) -> GameState:
    """SETUP-3 done: build the Allies Deck and the tribe pieces (SETUP-5), then the tokens."""
    emit(TribesInPlay, state.tribes, by_chance)
    players = state.players
    if "track" in state.pieces():
        # SETUP-5: every player's Merfolk marker starts on space 0, taken from supply.
        players = tuple(copy_player(p, supply=p.supply - 1, merfolk=0) for p in players)
    state = copy_state(state, players=players, deck=state.rules.cards_of(state.tribes))
    kingdoms = state.rules.kingdoms
    if len(state.tokens) == len(kingdoms):
        for kingdom, values in zip(kingdoms, state.tokens, strict=True):
            emit(TokensLaid, kingdom, values, by_chance=False)
        return _age.begin_age(state)
    return copy_state(state, pending=LayTokensPending(kingdoms[0]))


@attrs.frozen(slots=True)
class ChooseTribes(Pending):
    """Chance: the next tribe in play, uniform over the tribes not yet chosen (SETUP-3)."""

    stage: ClassVar[Stage] = Stage.TRIBES
    kind: ClassVar[DecisionKind] = DecisionKind.TRIBE_CHOICE
    chance: ClassVar[bool] = True
    rule: ClassVar[str] = "SETUP-3"
    accepts: ClassVar[tuple[type[Action], ...]] = (ChooseTribe,)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return tuple(ChooseTribe(t) for t in state.rules.tribes if t not in state.tribes)

    def outcomes(self, state: GameState) -> Sequence[tuple[Action, Fraction]]:
        legal = self.legal(state)
        return [(a, Fraction(1, len(legal))) for a in legal]

    def sample(self, state: GameState, rng: Random) -> Action:
        return uniform(self.legal(state), rng)

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, ChooseTribe)
        if action.tribe not in state.rules.tribes:
            raise IllegalActionError("SETUP-3", said("that tribe is not in this ruleset"), action)
        if action.tribe in state.tribes:
            raise ImpossibleOutcomeError(
                "SETUP-3",
                said("{tribe} are already in play", tribe=word(action.tribe.name)),
                action,
            )
        emit(TribeChosen, action.tribe)
        state = copy_state(state, tribes=tuple(sorted((*state.tribes, action.tribe))))
        if len(state.tribes) < state.config.tribe_count:
            return state
        return _tribes_chosen(state, by_chance=True)

    def describe(self) -> str:
        return said("chance: choose a tribe")

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"chosen": state.tribes, "in_play": state.config.tribe_count}

    def problems(self, state: GameState) -> list[str]:
        out = []
        if len(state.tribes) >= state.config.tribe_count:
            out.append("every tribe is chosen, yet another one is to be drawn (SETUP-3)")
        if any(state.deck) or any(p.merfolk is not None for p in state.players):
            out.append("no card is in the deck, no marker on the track before the tribes (SETUP-3)")
        return out


@attrs.frozen(slots=True)
class LayTokensPending(Pending):
    """Chance: the glory tokens of one kingdom, drawn from those not yet laid (SETUP-4)."""

    stage: ClassVar[Stage] = Stage.TOKENS

    kingdom: Kingdom
    kind: ClassVar[DecisionKind] = DecisionKind.TOKEN_LAYOUT
    chance: ClassVar[bool] = True
    rule: ClassVar[str] = "SETUP-4"
    accepts: ClassVar[tuple[type[Action], ...]] = (LayTokens,)

    def _layouts(self, state: GameState) -> Layouts:
        left = _tokens_left(state.options.token_pool(state.config.players), state.tokens)
        return layouts(left, state.config.token_spaces)

    def outcomes(self, state: GameState) -> Sequence[tuple[Action, Fraction]]:
        drawn, ways = self._layouts(state)
        total = sum(ways)
        return [
            (LayTokens(self.kingdom, values), Fraction(n, total))
            for values, n in zip(drawn, ways, strict=True)
        ]

    def sample(self, state: GameState, rng: Random) -> Action:
        drawn, ways = self._layouts(state)
        return LayTokens(self.kingdom, drawn[count_off(ways, rng)])

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return tuple(LayTokens(self.kingdom, values) for values in self._layouts(state)[0])

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, LayTokens)
        if action.kingdom != self.kingdom:
            raise IllegalActionError(
                "SETUP-4",
                said(
                    "tokens are laid kingdom by kingdom; now {kingdom}", kingdom=self.kingdom.label
                ),
                action,
            )
        values = tuple(sorted(action.values))
        if len(values) != state.config.token_spaces:
            raise IllegalActionError(
                "SETUP-4",
                said(
                    "each kingdom gets {token_spaces} tokens",
                    token_spaces=state.config.token_spaces,
                ),
                action,
            )
        if values not in self._layouts(state)[0]:
            raise ImpossibleOutcomeError(
                "SETUP-4",
                said("tokens {tokens} are not all among those left", tokens=list(values)),
                action,
            )
        emit(TokensLaid, self.kingdom, values, by_chance=True)
        state = copy_state(state, tokens=(*state.tokens, values))
        kingdoms = state.rules.kingdoms
        if len(state.tokens) < len(kingdoms):
            return copy_state(state, pending=LayTokensPending(kingdoms[len(state.tokens)]))
        return _age.begin_age(state)

    def describe(self) -> str:
        return said("chance: lay the glory tokens of {kingdom}", kingdom=self.kingdom.label)

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"kingdom": self.kingdom}

    def problems(self, state: GameState) -> list[str]:
        out = []
        laid = len(state.tokens)
        kingdoms = state.rules.kingdoms
        if laid >= len(kingdoms) or self.kingdom != kingdoms[laid]:
            out.append(
                f"the glory tokens of {self.kingdom.label} are laid after {laid} kingdoms:"
                f" tokens are laid kingdom by kingdom, from {kingdoms[0].label} (SETUP-4)"
            )
        if self._laid_too_many(state):
            out.append("the glory tokens laid so far are not among the game's tokens (SETUP-4)")
        return out

    def _laid_too_many(self, state: GameState) -> bool:
        pool = Counter(state.options.token_pool(state.config.players))
        return bool(Counter(v for row in state.tokens for v in row) - pool)


Layouts = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
"""The token sets a kingdom can be given, each lowest first, and the ways to draw each."""


def _tokens_left(pool: tuple[int, ...], laid: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The tokens of ``pool`` (sorted) not laid yet."""
    left = list(pool)
    for value in itertools.chain.from_iterable(laid):
        if value in left:  # a snapshot's impossible tokens are refused by problems()
            left.remove(value)
    return tuple(left)


# The layouts depend on the tokens left only, which repeat from game to game.
@functools.lru_cache(maxsize=4096)
def layouts(left: tuple[int, ...], k: int) -> Layouts:
    """SETUP-4: every set of ``k`` tokens that can be drawn from ``left`` (a sorted multiset),
    lowest first, and the number of ways to draw it: ``P(set) = ways / comb(len(left), k)``."""
    pool = Counter(left)
    drawn: list[tuple[int, ...]] = []
    ways: list[int] = []
    for values in itertools.combinations_with_replacement(sorted(pool), k):
        n = math.prod(math.comb(pool[v], m) for v, m in Counter(values).items())
        if n:
            drawn.append(values)
            ways.append(n)
    return tuple(drawn), tuple(ways)
