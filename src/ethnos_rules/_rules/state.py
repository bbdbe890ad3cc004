"""The immutable game state.

A :class:`GameState` is a tree of frozen objects. An action replaces only the parts it changes
(``attrs.evolve``): the configuration, the other players, their bands and hands are shared between
a state and its successor, so keeping every state of a game costs little.

What happens next is recorded in :attr:`GameState.pending`, a :class:`Pending` object that knows
which decisions are legal and how to apply them. Chance events and the follow-up decisions of a
band (placement, tribe abilities, the rest of the hand) are pendings like any other, so a band is
played as a sequence of small decisions.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from fractions import Fraction
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypedDict, TypeVar, Unpack, cast

import attrs

from .components import Card, Colour, Kingdom, Ruleset, Tribe, small_side
from .frozen import copier, defaults_when_unpickled, evolve, restore_fields, typed_copier
from .options import Options
from .randomness import Random, pick

if TYPE_CHECKING:
    from .actions import Action

T = TypeVar("T")


@attrs.frozen(slots=True)
class Config:
    """What does not change during a game: the ruleset, player count and options."""

    ruleset: Ruleset
    players: int
    options: Options

    @property
    def ages(self) -> int:
        """Number of Ages: the edition's for this player count (SETUP-2; 3 with 4–6 players,
        2 with 2–3 in the first edition)."""
        return self.ruleset.ages[self.small]

    @property
    def tribe_count(self) -> int:
        """Tribes in play: the edition's for this player count (SETUP-3; 6 with 4–6 players,
        5 with 2–3 in the first edition)."""
        return self.ruleset.tribes_in_play[self.small]

    @property
    def small(self) -> bool:
        """True with 2–3 players: the small sides of the boards are used (SETUP-5)."""
        return small_side(self.players)

    @property
    def token_spaces(self) -> int:
        """Glory tokens per kingdom: the edition's for this player count (SETUP-4; 3, or 2
        with 2–3 players in the first edition)."""
        return self.ruleset.token_spaces[self.small]


@attrs.frozen(slots=True, weakref_slot=False)  # no __weakref__: see PlayerState
class Band:
    """A band in front of a player until the end of the Age.

    Attributes:
        leader: The Leader card (BAND-4).
        others: The other cards, sorted.
    """

    leader: Card
    others: tuple[Card, ...]

    @property
    def size(self) -> int:
        """X: every card of the band, Skeletons included (BAND-8)."""
        return 1 + len(self.others)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card, Leader first."""
        return (self.leader, *self.others)

    def __str__(self) -> str:
        return " ".join(["*" + self.leader.code, *(c.code for c in self.others)])


# No __weakref__ slot here, in ColdState and GameState: frozen.py copies them through a draft
# of the same memory layout, which such a slot would break.
@defaults_when_unpickled  # a field added later loads from an older pickle as its default
@attrs.frozen(slots=True, weakref_slot=False)
class PlayerState:
    """One player's cards, markers and Glory.

    Attributes:
        hand: Cards in hand, a sorted multiset.
        bands: Bands played this Age, in order.
        glory: Glory so far.
        supply: Markers in supply (COMP-6: the score marker is not among them).
        kingdoms: Markers on each kingdom, indexed by :class:`Kingdom`.
        merfolk: Position on the Merfolk track, or None when Merfolk are not in play.
        horde: Colours of the occupied spaces of the Orc Horde board, sorted.
        trolls: Values of the Troll tokens held, sorted.
    """

    hand: tuple[Card, ...] = ()
    bands: tuple[Band, ...] = ()
    glory: int = 0
    supply: int = 25
    kingdoms: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    merfolk: int | None = None
    horde: tuple[Colour, ...] = ()
    trolls: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class AgeSummary:
    """What an Age left behind, kept for narration and the GAME-3 tie-break.

    Attributes:
        age: The Age (1, 2, 3).
        glory: Each player's Glory after the Age was scored.
        gains: Each player's Glory earned at the end of the Age, by source
            (``kingdoms``, ``merfolk``, ``giant``, ``orcs``, ``bands``).
        band_sizes: Each player's band sizes as played (X), largest first.
        third_dragon: The seat that drew the third Dragon.
    """

    age: int
    glory: tuple[int, ...]
    gains: tuple[tuple[tuple[str, int], ...], ...]
    band_sizes: tuple[tuple[int, ...], ...]
    third_dragon: int

    def gains_of(self, seat: int) -> dict[str, int]:
        """The Glory ``seat`` earned at the end of this Age, by source.

        >>> from ethnos_rules import play_random
        >>> play_random(2, seed=5).final.history[0].gains_of(1)
        {'kingdoms': 22, 'bands': 3}
        """
        return dict(self.gains[seat])

    def rows(self) -> list[list[str]]:
        """The Age's Glory by source: a heading row, then one row per seat (sources in the
        order the Age is scored; an empty cell where a seat earned nothing from one)."""
        found = {name for gains in self.gains for name, _ in gains}
        sources = [name for name in _SOURCES if name in found] + sorted(found - set(_SOURCES))
        rows = [["seat", *sources, "this Age", "Glory"]]
        for seat, gains in enumerate(self.gains):
            got = dict(gains)
            cells = [f"+{got[name]}" if name in got else "" for name in sources]
            rows.append([str(seat), *cells, f"+{sum(got.values())}", str(self.glory[seat])])
        return rows

    def table(self) -> str:
        """:meth:`rows` as a small text table.

        >>> from ethnos_rules import end_age_now, position
        >>> state = position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"],
        ...                  bands={0: ["*DWA-red DWA-blue"]}, kingdoms={1: {"Rhea": 1}})
        >>> print(end_age_now(state).history[-1].table())
        seat  kingdoms  bands  this Age  Glory
           0               +3        +3      3
           1        +4               +4      4
           2                         +0      0
        """
        rows = self.rows()
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        return "\n".join(
            "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows
        )


_SOURCES = ("kingdoms", "merfolk", "giant", "orcs", "bands")
"""The sources of Glory in the order an Age is scored (END-2..4)."""


class DecisionKind(enum.Enum):
    """What a pending decision is about: every player decision and every chance event.

    The value is a short name, stable across versions (it may be stored).
    """

    TRIBE_CHOICE = "tribe choice"
    """Chance: the next tribe in play (SETUP-3)."""
    TOKEN_LAYOUT = "token layout"
    """Chance: the glory tokens of one kingdom (SETUP-4)."""
    FIRST_PLAYER = "first player"
    """Chance: the first player of Age I (AGE-5)."""
    DEAL = "deal"
    """Chance: one player's starting card (AGE-2)."""
    ROW = "row"
    """Chance: one card turned up into the row (AGE-3)."""
    TURN = "turn"
    """A player recruits, plays a band or passes (TURN-1)."""
    DECK_DRAW = "deck draw"
    """Chance: the card a player recruits from the deck; a Dragon is set aside (RECRUIT-1/3)."""
    PLACEMENT = "placement"
    """Where the band's marker goes, or whether it goes (BAND-5)."""
    MERFOLK_CHECKPOINT = "merfolk checkpoint"
    """Merfolk: where a checkpoint marker goes (TRIBE-MER-2)."""
    ORC_HORDE = "orc horde"
    """Orcs: add a marker to the Horde or not (TRIBE-ORC-1)."""
    TROLL_TOKEN = "troll token"
    """Trolls: which Troll token to take, if any (TRIBE-TRO-1)."""
    CENTAUR_CHAIN = "centaur chain"
    """Centaurs: play another band or stop (TRIBE-CEN-1)."""
    ELF_KEEP = "elf keep"
    """Elves: keep one more card of the rest of the hand, or stop (TRIBE-ELF-1)."""
    WIZARD_COUNT = "wizard count"
    """Wizards: how many cards to draw (TRIBE-WIZ-1)."""
    WIZARD_DRAW = "wizard draw"
    """Chance: the next card the Wizards draw (TRIBE-WIZ-1)."""
    HORDE_EMPTY = "horde empty"
    """End of Age: an Orc player empties the Horde or keeps it (TRIBE-ORC-2)."""
    GAME_OVER = "game over"
    """Nothing more: the game is over (GAME-1)."""


class Stage(enum.IntEnum):
    """Where in the game a decision stands, in the order the rules go through them."""

    TRIBES = 0
    """Setup: the tribes are chosen (SETUP-3)."""
    TOKENS = 1
    """Setup: the glory tokens are laid (SETUP-4)."""
    FIRST_PLAYER = 2
    """The first player of Age I is chosen (AGE-5)."""
    DEAL = 3
    """The starting cards are dealt (AGE-2)."""
    ROW = 4
    """The row is turned up (AGE-3)."""
    PLAY = 5
    """Turns, after the deck is split (AGE-4)."""
    AGE_END = 6
    """The third Dragon is drawn and the Age is being scored (END)."""
    OVER = 7
    """The game is over (GAME-1)."""


class Pending:
    """What comes next in a state: a player's decision or a chance event.

    Subclasses live with the rule they implement. ``seat`` is the deciding player (None for chance
    and for the end of the game); ``stage`` where in the game the decision stands; ``kind`` what
    it is about (each concrete class names one :class:`DecisionKind`).
    """

    __slots__ = ()

    chance: ClassVar[bool] = False
    terminal: ClassVar[bool] = False
    stage: ClassVar[Stage] = Stage.PLAY
    kind: ClassVar[DecisionKind]
    rule: ClassVar[str] = ""
    accepts: ClassVar[tuple[type[Action], ...]] = ()

    @property
    def seat(self) -> int | None:
        """The player who decides, or None."""
        return None

    @property
    def before_split(self) -> bool:
        """True while the deck is not yet split for the Age (setup, dealing, the row)."""
        return self.stage < Stage.PLAY

    @property
    def age_over(self) -> bool:
        """True once the Age's third Dragon is drawn."""
        return self.stage >= Stage.AGE_END

    def seats(self) -> tuple[int, ...]:
        """Every seat this decision names (the decider, a drawer, players still to decide)."""
        return () if self.seat is None else (self.seat,)

    def awaiting_ability(self) -> int | None:
        """The seat whose last band has not used its Leader ability yet (BAND-6), if any."""
        return None

    def drawn_to(self, state: GameState) -> int | None:
        """At a chance event that draws a card into a hand, the seat whose hand it goes to
        (only that seat sees it); else None."""
        return None

    def keeping(self) -> tuple[int | None, tuple[Card, ...]]:
        """While Elves keep cards (TRIBE-ELF-1), the keeper's seat and the cards it has kept
        so far; else ``(None, ())``."""
        return None, ()

    def problems(self, state: GameState) -> list[str]:
        """What in ``state`` contradicts this decision coming next, in words; ``[]`` when it
        fits. The checks use the predicates the rules use to reach this decision, so a
        snapshot is refused exactly when no game can reach it."""
        return []

    def legal(self, state: GameState) -> tuple[Action, ...]:
        """Every legal action, in a deterministic order, without duplicates."""
        raise NotImplementedError

    def outcomes(self, state: GameState) -> Sequence[tuple[Action, Fraction]]:
        """At a chance event: every possible outcome with its exact probability."""
        return ()

    def sample(self, state: GameState, rng: Random) -> Action:
        """At a chance event: one outcome drawn with its exact probability, as
        :func:`~ethnos_rules._rules.randomness.pick` draws it from :meth:`outcomes` (a
        subclass may draw the same outcome faster)."""
        return pick(self.outcomes(state), rng)

    def apply(self, state: GameState, action: Action) -> GameState:
        """Apply ``action``, which has one of the types in :attr:`accepts` and is well formed.

        Raises:
            IllegalActionError: with the id of the rule that forbids it.
        """
        raise NotImplementedError

    def describe(self) -> str:
        """What is being decided, in words."""
        return type(self).__name__

    def facts(self, state: GameState) -> dict[str, Any]:
        """What a tool needs to know of this decision beyond its kind and seat, by name (the
        drawer of a draw, the band an ability acts for, the Elves' target, …)."""
        return {}


@defaults_when_unpickled  # a part pickled before discarded_hands was kept: none then
@attrs.frozen(slots=True, weakref_slot=False)
class ColdState:
    """The parts of a :class:`GameState` that change once an Age or less: shared, unchanged,
    by the states of a whole Age. Each is read from the state itself (``state.age``), and
    documented there. Each field is declared here once, with its type and the new game's
    value: :class:`GameState` reads it through :func:`_cold` (typed from here), and takes it by
    name in its ``__init__`` and in :class:`StateChanges` (both checked against these fields
    by ``tests/test_state_types.py``)."""

    tribes: tuple[Tribe, ...] = ()
    tokens: tuple[tuple[int, ...], ...] = ()
    age: int = 1
    first_player: int | None = None
    discard: tuple[Card, ...] = ()
    giant_holder: int | None = None
    giant_size: int = 0
    last_dragon: int | None = None
    history: tuple[AgeSummary, ...] = ()
    discarded_hands: tuple[tuple[Card, ...], ...] = ()


_NEW_COLD = ColdState()
_COLD = attrs.fields(ColdState)
_COLD_NAMES = tuple(field.name for field in _COLD)


class _Same:
    """The default of a cold field in ``GameState(...)``: the given ``cold``'s value."""

    def __repr__(self) -> str:
        return "…"


_SAME: Any = _Same()


class _Read(Generic[T]):
    """What a type checker sees of a cold field read from the state: a value of the field's
    type (the object itself is a property)."""

    def __get__(self, inst: object, owner: object) -> T:
        raise NotImplementedError


def _cold(field: attrs.Attribute[T]) -> _Read[T]:
    """The state's read of the cold ``field`` (``state.age`` is ``state.cold.age``), typed as
    the field is declared in :class:`ColdState`; a property whose getter is
    :func:`operator.attrgetter`, which runs no Python code."""
    return cast(_Read[T], property(attrgetter(f"cold.{field.name}"), doc="See the class."))


class StateChanges(TypedDict, total=False):
    """Every field of a :class:`GameState` by name, for a type checker: what
    :func:`copy_state` takes. Not a second declaration the rules read:
    ``tests/test_state_types.py`` checks it names each field of :class:`GameState` and
    :class:`ColdState` with its declared type."""

    config: Config
    pending: Pending
    players: tuple[PlayerState, ...]
    row: tuple[Card, ...]
    deck: tuple[int, ...]
    top_left: int
    dragons_in_deck: int
    dragons_drawn: int
    cold: ColdState
    tribes: tuple[Tribe, ...]
    tokens: tuple[tuple[int, ...], ...]
    age: int
    first_player: int | None
    discard: tuple[Card, ...]
    giant_holder: int | None
    giant_size: int
    last_dragon: int | None
    history: tuple[AgeSummary, ...]
    discarded_hands: tuple[tuple[Card, ...], ...]


@attrs.frozen(slots=True, init=False, weakref_slot=False)
class GameState:
    """A complete game position. Never mutated: :func:`~ethnos_rules.apply` returns a new one.

    Attributes:
        config: Ruleset, player count and options.
        pending: The decision or chance event that comes next.
        tribes: Tribes in play, sorted (fewer while they are still being chosen).
        tokens: Glory tokens laid on each kingdom, lowest first (empty while being laid).
        age: The current Age, from 1.
        first_player: First player of the current Age, once known.
        players: Every player's state, by seat.
        row: The face-up cards beside the board, a sorted multiset.
        deck: Ally cards in the deck, as counts indexed by :attr:`Card.index`.
        discard: Cards discarded at the end of the Age, a sorted multiset.
        top_left: Cards left in the top part of the deck, where no Dragon lies (AGE-4).
        dragons_in_deck: Dragons still in the deck (0 until the deck is split, AGE-4).
        dragons_drawn: Dragons revealed and set aside this Age (RECRUIT-3).
        giant_holder: Seat holding the Giant token, if any (TRIBE-GIA-1).
        giant_size: Size of the largest Giant-led band this Age (0 if none).
        last_dragon: Seat that drew the third Dragon of the previous Age.
        history: One summary per finished Age.
        discarded_hands: The hand each seat discarded at the end of this Age (END-1), by
            seat, which only that seat saw (they are in :attr:`discard` too); empty until
            then, and again from the next Age on.
        cold: The cold fields above (``tribes`` … ``discarded_hands``, which change once an
            Age or less) in one object that the states of an Age share; read them from the
            state.
            In ``GameState(...)`` a cold field shown as ``…`` is, when not given, the given
            ``cold``'s, else its default: none, empty, Age 1 or 0.

    The game's rules are :attr:`options` (the switches of spec §12, an
    :class:`~ethnos_rules.Options`) and :attr:`rules` (the printed components), both read from
    :attr:`config`.
    """

    # Hot fields change with most decisions; the cold ones, which change once an Age or on a
    # Giant band, live in one shared ColdState, so a decision copies 9 fields, not 19.
    __evolve_parts__: ClassVar[dict[str, type]] = {"cold": ColdState}
    config: Config
    pending: Pending
    players: tuple[PlayerState, ...]
    row: tuple[Card, ...]
    deck: tuple[int, ...]
    top_left: int
    dragons_in_deck: int
    dragons_drawn: int
    cold: ColdState

    # The cold fields, read as if they were the state's own (frozen.evolve sets them so too).
    tribes = _cold(_COLD.tribes)
    tokens = _cold(_COLD.tokens)
    age = _cold(_COLD.age)
    first_player = _cold(_COLD.first_player)
    discard = _cold(_COLD.discard)
    giant_holder = _cold(_COLD.giant_holder)
    giant_size = _cold(_COLD.giant_size)
    last_dragon = _cold(_COLD.last_dragon)
    history = _cold(_COLD.history)
    discarded_hands = _cold(_COLD.discarded_hands)

    # The signature names every field, typed, so that a type checker checks GameState(...) and
    # attrs.evolve(state, ...) by name; tests/test_state_types.py checks it against the fields.
    def __init__(
        self,
        config: Config,
        pending: Pending,
        tribes: tuple[Tribe, ...] = _SAME,
        tokens: tuple[tuple[int, ...], ...] = _SAME,
        age: int = _SAME,
        first_player: int | None = _SAME,
        players: tuple[PlayerState, ...] = (),
        row: tuple[Card, ...] = (),
        deck: tuple[int, ...] = (),
        discard: tuple[Card, ...] = _SAME,
        top_left: int = 0,
        dragons_in_deck: int = 0,
        dragons_drawn: int = 0,
        giant_holder: int | None = _SAME,
        giant_size: int = _SAME,
        last_dragon: int | None = _SAME,
        history: tuple[AgeSummary, ...] = _SAME,
        cold: ColdState = _NEW_COLD,
        discarded_hands: tuple[tuple[Card, ...], ...] = _SAME,
    ) -> None:
        given = locals()  # a cold field not given is cold's (as attrs.evolve passes it)
        changed = {name: given[name] for name in _COLD_NAMES if given[name] is not _SAME}
        self.__attrs_init__(
            config,
            pending,
            players,
            row,
            deck,
            top_left,
            dragons_in_deck,
            dragons_drawn,
            evolve(cold, **changed) if changed else cold,
        )

    def __getstate__(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in attrs.fields(GameState)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickle, also a state pickled before the cold fields had a part of their own."""
        if "cold" not in state:  # the 17 fields of the first layout
            names = attrs.fields_dict(ColdState)
            cold = {name: state.pop(name) for name in list(state) if name in names}
            state["cold"] = ColdState(**cold)
        restore_fields(self, state)

    @property
    def rules(self) -> Ruleset:
        """The ruleset of this game."""
        return self.config.ruleset

    @property
    def options(self) -> Options:
        """The rule options of this game."""
        return self.config.options

    def player(self, seat: int) -> PlayerState:
        """The state of the player in ``seat``.

        >>> from ethnos_rules import position
        >>> position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], glory={2: 7}).player(2).glory
        7
        """
        return self.players[seat]

    def with_player(
        self, seat: int, player: PlayerState, **changes: Unpack[StateChanges]
    ) -> GameState:
        """This state with one player replaced (the others are shared), and the other
        ``changes`` made in the same copy."""
        players = replace_seat(self.players, seat, player)
        if changes:
            changes["players"] = players
            return copy_state(self, **changes)
        return copy_state(self, players=players)  # forwarding no changes costs a dict too

    def markers(self, kingdom: Kingdom) -> tuple[int, ...]:
        """Each player's markers on ``kingdom``."""
        return tuple([p.kingdoms[kingdom] for p in self.players])  # a list: no generator

    def pieces(self) -> frozenset[str]:
        """The board pieces the tribes in play bring (SETUP-5): ``"track"``, ``"giant"``,
        ``"horde"``, ``"trolls"``."""
        return frozenset(t.ability.piece for t in self.tribes if t.ability.piece)

    def unclaimed_trolls(self) -> tuple[int, ...]:
        """Troll tokens no player holds (TRIBE-TRO-1)."""
        held = [v for p in self.players for v in p.trolls]
        free = list(self.rules.troll_tokens)
        for value in held:
            free.remove(value)
        return tuple(free)

    # Nothing in a state changes, so a copy (as copy.deepcopy makes for search trees) is the
    # state itself.
    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: Any) -> GameState:
        return self

    def _repr_svg_(self) -> str:
        """The picture of the state, for Jupyter (see :mod:`ethnos_rules.svg`)."""
        return DRAWERS["svg"](self)

    def __str__(self) -> str:
        # The picture is drawn above the rules (it names the winners): see DRAWERS.
        return DRAWERS["text"](self)


# The rules draw no pictures: the pictures layer, above them, puts its drawers here when it is
# imported (ethnos_rules imports it), so that the rules never import what reads them. One
# registry, here, for states and observations: filling it costs the pictures layer this module
# alone, not the rules an observation needs.
DRAWERS: dict[str, Callable[[Any], str]] = {}
"""How the game's objects are drawn: ``"text"`` for ``str(state)``, ``"svg"`` for a state's
Jupyter picture, ``"view svg"`` for an :class:`~ethnos_rules.Observation`'s. Filled by
:mod:`ethnos_rules._pictures`."""


def replace_seat(
    players: tuple[PlayerState, ...], seat: int, player: PlayerState
) -> tuple[PlayerState, ...]:
    """``players`` with ``player`` in ``seat`` (the others are shared)."""
    return (*players[:seat], player, *players[seat + 1 :])


class _CopyState(Protocol):
    def __call__(self, state: GameState, /, **changes: Unpack[StateChanges]) -> GameState: ...


# The rules copy these two classes at nearly every decision: their copy functions, kept here,
# save evolve's lookup of the class and its passing the changes on (a fifth of a copy).
copy_state: _CopyState = cast(_CopyState, copier(GameState))
"""``evolve`` for a :class:`GameState`: ``copy_state(state, pending=...)``, each field by
name, of its type (:class:`StateChanges`)."""
copy_player = typed_copier(PlayerState)
"""``evolve`` for a :class:`PlayerState`, typed as ``PlayerState(...)`` is (every field has a
default)."""
