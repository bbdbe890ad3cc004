"""State snapshots: a complete :class:`~ethnos_rules.GameState` as JSON and back.

Cards are written by code (``ELF-red``), tribes by code, colours and kingdoms by name, the deck as
counts by card code, bands in the action notation without the verb (``*ELF-red ELF-blue``), and
the pending decision as an object whose ``type`` names its class. Reading a snapshot back gives an
equal state.

>>> from ethnos_rules import apply, play_random, state_from_json, state_to_json
>>> game = play_random(4, seed=2)
>>> middle = game.start
>>> for action in game.actions[:300]:
...     middle = apply(middle, action)
>>> state_from_json(state_to_json(middle)) == middle
True

A snapshot that no game can reach is refused with
:class:`~ethnos_rules.InvalidStateError`, which lists what is wrong:

>>> import json
>>> data = json.loads(state_to_json(middle))
>>> data["seats"][0]["hand"] += ["ELF-red"] * 11
>>> state_from_json(json.dumps(data))
Traceback (most recent call last):
...
ethnos_rules.InvalidStateError: STATE: ELF-red appears ... seat 0 holds ... cards, ...
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs
import cattrs

from .._rules import tribes as _tribes
from .._rules.age import DealPending, FirstPlayerPending, RowPending
from .._rules.bands import BandContext, ChainPending, PlacePending, can_chain, placement_options
from .._rules.components import KINGDOMS, Card, Colour, Kingdom, Tribe
from .._rules.editions import default_ruleset
from .._rules.engine import legal_actions
from .._rules.errors import RulesError
from .._rules.invariants import InvalidStateError, state_problems
from .._rules.options import Options
from .._rules.scoring import SOURCES, GameOver, HordeEmptyPending
from .._rules.setup import ChooseTribes, LayTokensPending
from .._rules.state import AgeSummary, Band, Config, GameState, Pending, PlayerState
from .._rules.turn import RecruitDraw
from .records import RecordError, json_path, load_json, options_from_dict, options_to_dict

SNAPSHOT_VERSION = 1
"""The snapshot format version this library writes and reads."""


def _pending_classes() -> dict[str, type[Pending]]:
    """Every concrete pending class, by class name (all attrs classes below :class:`Pending`)."""
    found: dict[str, type[Pending]] = {}
    todo: list[type[Pending]] = [Pending]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "__attrs_attrs__" in vars(cls):
            if found.get(cls.__name__, cls) is not cls:  # pragma: no cover - a naming clash
                raise RuntimeError(f"two pending classes are called {cls.__name__}")
            found[cls.__name__] = cls
    return found


@attrs.frozen
class _Snapshot:
    """The JSON layout of a snapshot, field by field."""

    snapshot: int
    ruleset: str
    players: int
    options: Options
    tribes: tuple[Tribe, ...]
    tokens: tuple[tuple[int, ...], ...]
    age: int
    first_player: int | None
    seats: tuple[PlayerState, ...]
    row: tuple[Card, ...]
    deck: dict[str, int] | None
    discard: tuple[Card, ...]
    top_left: int
    dragons_in_deck: int
    dragons_drawn: int
    giant_holder: int | None
    giant_size: int
    last_dragon: int | None
    history: tuple[AgeSummary, ...]
    pending: Pending


def _field_types(cls: type) -> tuple[tuple[str, Any], ...]:
    """The attrs fields of a pending class with their types, resolved in the class's module.

    (``typing.get_type_hints`` cannot be used: :class:`Pending` declares ClassVars whose types
    are imported only for type checking.)
    """
    namespace = vars(sys.modules[cls.__module__])
    out = []
    for field in attrs.fields(cls):
        kind = field.type
        if isinstance(kind, str):
            kind = eval(kind, dict(namespace))
        out.append((field.name, kind))
    return tuple(out)


def _strict(kind: type) -> Any:
    def hook(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, found {type(value).__name__}")
        return value

    return hook


def _card(value: Any, _: Any) -> Card:
    if not isinstance(value, str):
        raise TypeError(f"a card is written as text, not {type(value).__name__}")
    try:
        return default_ruleset().card(value)
    except KeyError as err:
        raise ValueError(err.args[0]) from None


def _tribe(value: Any, _: Any) -> Tribe:
    if not isinstance(value, str):
        raise TypeError(f"a tribe is written as its code, not {type(value).__name__}")
    try:
        return default_ruleset().tribe(value)
    except KeyError as err:
        raise ValueError(err.args[0]) from None


def _named(enum: type[Colour] | type[Kingdom]) -> Any:
    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, str) or value.upper() not in enum.__members__:
            names = ", ".join(m.label for m in enum)
            raise ValueError(f"{value!r} is not one of {names}")
        return enum[value.upper()]

    return hook


def _band(value: Any, _: Any) -> Band:
    if not isinstance(value, str):
        raise TypeError("a band is written as text, e.g. '*ELF-red ELF-blue'")
    words = value.split()
    leaders = [w for w in words if w.startswith("*")]
    if len(leaders) != 1:
        raise ValueError(f"band {value!r} needs exactly one Leader marked with '*'")
    words.remove(leaders[0])
    cards = sorted(_card(w, None) for w in words)
    return Band(_card(leaders[0][1:], None), tuple(cards))


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_unstructure_hook(Card, lambda c: c.code)
    converter.register_structure_hook(Card, _card)
    converter.register_unstructure_hook(Tribe, lambda t: t.code)
    converter.register_structure_hook(Tribe, _tribe)
    for enum in (Colour, Kingdom):
        converter.register_unstructure_hook(enum, lambda e: e.label)
        converter.register_structure_hook(enum, _named(enum))
    converter.register_unstructure_hook(Band, str)
    converter.register_structure_hook(Band, _band)
    converter.register_unstructure_hook(Options, options_to_dict)
    converter.register_structure_hook(Options, lambda d, _: options_from_dict(d, "$.options"))
    classes = _pending_classes()
    types = {name: _field_types(cls) for name, cls in classes.items()}

    def unstructure_pending(pending: Pending) -> dict[str, Any]:
        fields = types[type(pending).__name__]
        data = {name: converter.unstructure(getattr(pending, name), t) for name, t in fields}
        return {"type": type(pending).__name__, **data}

    def structure_pending(data: Any, _: Any) -> Pending:
        if not isinstance(data, dict):
            raise RecordError("the pending decision is an object with a 'type'", "$.pending")
        data = dict(data)
        name = data.pop("type", None)
        cls = classes.get(name) if isinstance(name, str) else None
        if cls is None:
            known = ", ".join(sorted(classes))
            raise RecordError(f"unknown pending type {name!r} (one of {known})", "$.pending.type")
        fields = dict(types[cls.__name__])
        extra = sorted(set(data) - set(fields))
        missing = sorted(set(fields) - set(data))
        if extra or missing:
            what = f"unknown key(s) {extra}" if extra else f"missing key(s) {missing}"
            raise RecordError(f"{cls.__name__}: {what}", "$.pending")
        values = {}
        for key, kind in fields.items():
            try:
                values[key] = converter.structure(data[key], kind)
            except cattrs.ClassValidationError as err:
                raise _record_error(err, f"$.pending.{key}") from None
            except (TypeError, ValueError, KeyError) as err:
                raise RecordError(str(err), f"$.pending.{key}") from None
        return cls(**values)

    converter.register_unstructure_hook_func(
        lambda cls: isinstance(cls, type) and issubclass(cls, Pending), unstructure_pending
    )
    converter.register_structure_hook_func(lambda cls: cls is Pending, structure_pending)
    return converter


_CONVERTER = _make_converter()


def state_to_json(state: GameState, indent: int | None = None) -> str:
    """A complete snapshot of ``state`` as JSON text (:func:`state_from_json` reads it back).

    Raises:
        InvalidStateError: ``state`` is not a :class:`~ethnos_rules.GameState`.
    """
    if not isinstance(state, GameState):
        raise InvalidStateError((f"expected a GameState, not {type(state).__name__}",))
    rules = state.rules
    deck = None
    if state.deck:
        deck = {rules.cards[i].code: n for i, n in enumerate(state.deck) if n}
    snapshot = _Snapshot(
        snapshot=SNAPSHOT_VERSION,
        ruleset=rules.name,
        players=state.config.players,
        options=state.options,
        tribes=state.tribes,
        tokens=state.tokens,
        age=state.age,
        first_player=state.first_player,
        seats=state.players,
        row=state.row,
        deck=deck,
        discard=state.discard,
        top_left=state.top_left,
        dragons_in_deck=state.dragons_in_deck,
        dragons_drawn=state.dragons_drawn,
        giant_holder=state.giant_holder,
        giant_size=state.giant_size,
        last_dragon=state.last_dragon,
        history=state.history,
        pending=state.pending,
    )
    data = _CONVERTER.unstructure(snapshot)
    data["pending"] = _CONVERTER.unstructure(state.pending, Pending)
    return json.dumps(data, indent=indent, ensure_ascii=False)


_AT = re.compile(r"^(?P<what>.*) @ (?P<path>\$.*)$")


def state_from_json(text: str | bytes) -> GameState:
    """The state a snapshot describes.

    Raises:
        RecordError: the text is not a snapshot of this version; ``path`` names the place.
        InvalidStateError: the snapshot breaks an invariant no legal game breaks (a card twice,
            a hand of 11, markers that do not add up, …), or its pending decision or Age
            summaries do not fit the rest of the state (a Wizard drawing more than X cards,
            Elves keeping a card not in hand, a summary without a row per seat, …);
            ``problems`` lists them.
    """
    data = load_json(text, what="snapshot")
    if not isinstance(data, dict):
        raise RecordError("a snapshot is a JSON object", path="$")
    if "snapshot" not in data:
        if "version" in data:
            reason = (
                "a snapshot gives its format version under the key 'snapshot', not 'version'"
                " ('version' is the key of game records)"
            )
        else:
            reason = "the snapshot has no 'snapshot' key, the format version"
        raise RecordError(f'{reason}; this library reads "snapshot": {SNAPSHOT_VERSION}', path="$")
    version = data["snapshot"]
    if version != SNAPSHOT_VERSION or type(version) is not int:
        raise RecordError(
            f"unknown snapshot version {version!r} (the key 'snapshot');"
            f" this library reads version {SNAPSHOT_VERSION}",
            path="$.snapshot",
        )
    try:
        snapshot = _CONVERTER.structure(data, _Snapshot)
    except RecordError:
        raise
    except cattrs.ClassValidationError as err:
        raise _record_error(err) from None
    except (TypeError, ValueError, KeyError) as err:  # pragma: no cover - cattrs wraps these
        raise RecordError(f"cannot read the snapshot: {err}") from None
    return _build(snapshot)


def _record_error(err: cattrs.ClassValidationError, path: str = "$") -> RecordError:
    for inner in _leaves(err):
        if isinstance(inner, RecordError):
            return inner
    messages = cattrs.transform_error(err, path=path, format_exception=_format)
    first = messages[0] if messages else str(err)
    match = _AT.match(first)
    if match:
        return RecordError(match["what"], path=match["path"])
    return RecordError(first)


def _format(exc: BaseException, kind: type | None) -> str:
    if isinstance(exc, ValueError | TypeError) and exc.args and not isinstance(exc, KeyError):
        return str(exc.args[0])
    return cattrs.v.format_exception(exc, kind)


def _leaves(err: BaseException) -> Iterator[BaseException]:
    if isinstance(err, BaseExceptionGroup):
        for inner in err.exceptions:
            yield from _leaves(inner)
    else:
        yield err


def _build(snapshot: _Snapshot) -> GameState:
    rules = default_ruleset()
    if snapshot.ruleset != rules.name:
        raise RecordError(f"unknown ruleset {snapshot.ruleset!r}", path="$.ruleset")
    players = snapshot.players
    if not 2 <= players <= 6:
        raise RecordError("Ethnos is played by 2 to 6 players", path="$.players")
    if len(snapshot.seats) != players:
        raise RecordError(f"{len(snapshot.seats)} seats for {players} players", path="$.seats")
    deck = [0] * len(rules.cards) if snapshot.deck is not None else []
    for code, count in (snapshot.deck or {}).items():
        try:
            card = rules.card(code)
        except KeyError as err:
            raise RecordError(err.args[0], path=json_path(["deck", code])) from None
        deck[card.index] = count
    seats = tuple(
        attrs.evolve(
            p,
            hand=tuple(sorted(p.hand)),
            horde=tuple(sorted(p.horde)),
            trolls=tuple(sorted(p.trolls)),
        )
        for p in snapshot.seats
    )
    state = GameState(
        config=Config(rules, players, snapshot.options),
        pending=snapshot.pending,
        tribes=tuple(sorted(snapshot.tribes)),
        tokens=tuple(tuple(sorted(row)) for row in snapshot.tokens),
        age=snapshot.age,
        first_player=snapshot.first_player,
        players=seats,
        row=tuple(sorted(snapshot.row)),
        deck=tuple(deck),
        discard=tuple(sorted(snapshot.discard)),
        top_left=snapshot.top_left,
        dragons_in_deck=snapshot.dragons_in_deck,
        dragons_drawn=snapshot.dragons_drawn,
        giant_holder=snapshot.giant_holder,
        giant_size=snapshot.giant_size,
        last_dragon=snapshot.last_dragon,
        history=snapshot.history,
    )
    problems = _shape_problems(state)
    if not problems:
        problems = list(state_problems(state))
    if not problems:
        problems = _pending_problems(state)
    if problems:
        raise InvalidStateError(tuple(problems))
    return state


def _shape_problems(state: GameState) -> list[str]:
    """What would make the invariant checks themselves fail."""
    out = []
    n = state.config.players
    if len(set(state.tribes)) != len(state.tribes) or len(state.tribes) > state.config.tribe_count:
        out.append(f"the tribes in play must be at most {state.config.tribe_count} distinct tribes")
    if len(state.tokens) > 6 or any(len(r) != state.config.token_spaces for r in state.tokens):
        out.append(f"each kingdom holds {state.config.token_spaces} glory tokens")
    if not 1 <= state.age <= state.config.ages:
        out.append(f"Age {state.age} does not exist with {n} players")
    for name in ("first_player", "giant_holder", "last_dragon"):
        seat = getattr(state, name)
        if seat is not None and not 0 <= seat < n:
            out.append(f"{name} {seat} is not a seat")
    for seat, player in enumerate(state.players):
        if len(player.kingdoms) != 6:
            out.append(f"seat {seat} needs a marker count for each of the 6 kingdoms")
    for value in (state.top_left, state.dragons_in_deck, state.dragons_drawn, state.giant_size):
        if value < 0:
            out.append("deck and Dragon counts cannot be negative")
            break
    if any(t.code not in {c.tribe.code for c in state.rules.cards} for t in state.tribes):
        out.append("an unknown tribe is in play")  # pragma: no cover - the hook refuses it
    in_play = set(state.tribes)
    places = [state.row, state.discard, *(p.hand for p in state.players)]
    places += [b.cards for p in state.players for b in p.bands]
    if len(in_play) == state.config.tribe_count and any(
        c.tribe not in in_play for cards in places for c in cards
    ):
        out.append("a card of a tribe that is not in play is in the game")
    return out


def _seats_in(value: Any) -> Iterator[int]:
    """Every seat number held by a pending decision (fields named like seats)."""
    for field in attrs.fields(type(value)):
        item = getattr(value, field.name)
        if field.name in ("seat", "turn_seat", "recruiter", "wizard", "drawer"):
            yield item
        elif field.name == "queue":
            yield from item
        elif isinstance(item, BandContext):
            yield from _seats_in(item)


def _pending_problems(state: GameState) -> list[str]:
    """The pending decision must fit the state."""
    pending = state.pending
    n = state.config.players
    out = [f"the pending decision names seat {s}" for s in _seats_in(pending) if not 0 <= s < n]
    if out:
        return out
    out = _history_problems(state) + _field_problems(state)
    if out:
        return out
    complete = len(state.tribes) == state.config.tribe_count
    if not isinstance(pending, ChooseTribes) and not complete:
        out.append(f"{pending.describe()} cannot come before every tribe is chosen")
    if not isinstance(pending, ChooseTribes | LayTokensPending) and len(state.tokens) != 6:
        out.append(f"{pending.describe()} cannot come before the glory tokens are laid")
    ctx = getattr(pending, "ctx", None)
    if isinstance(ctx, BandContext):
        bands = state.players[ctx.seat].bands
        if not bands or bands[-1] != ctx.band:
            out.append(f"the band being resolved ({ctx.band}) is not seat {ctx.seat}'s last band")
    if isinstance(ctx, BandContext):
        out += _band_step_problems(state, ctx)
    out += _phase_problems(state)
    if out:
        return out
    try:
        legal = legal_actions(state)
    except RulesError as err:  # pragma: no cover - no pending raises these when listing
        out.append(f"the pending decision does not fit the state: {err.reason}")
    except (ArithmeticError, LookupError, ValueError, TypeError, AssertionError) as err:
        out.append(f"the pending decision ({pending.describe()}) does not fit the state: {err}")
    else:
        if not legal and not pending.terminal:
            out.append(f"{pending.describe()}: nothing can be decided (a dead end)")
    return out


def _field_problems(state: GameState) -> list[str]:
    """The values a pending decision holds, checked before anything describes or lists it."""
    pending = state.pending
    n = state.config.players
    out = []
    if isinstance(pending, HordeEmptyPending):
        queue, drawer = pending.queue, pending.drawer
        order = [(drawer + 1 + i) % n for i in range(n)]
        start = order.index(queue[0]) if queue else n
        if not queue or list(queue) != [s for s in order[start:] if state.players[s].horde]:
            out.append(
                f"the Orc players left to decide {list(queue)} must be the seats with Horde"
                f" markers, each once, in turn order after seat {drawer} (END-3, TRIBE-ORC-2)"
            )
        if len(pending.gains) != n or any(
            len(row) != len(SOURCES) or min(row) < 0 for row in pending.gains
        ):
            out.append(
                f"the Glory gained this end of Age needs one row per seat of {len(SOURCES)}"
                f" non-negative values ({', '.join(SOURCES)})"
            )
    elif isinstance(pending, DealPending) and not 0 <= pending.dealt < n:
        out.append(f"starting card {pending.dealt + 1} is dealt, but there are {n} players")
    elif isinstance(pending, RowPending) and not 1 <= pending.left <= 2 * n:
        out.append(f"{pending.left} row cards are left to turn up; the row has {2 * n} (AGE-3)")
    elif isinstance(pending, LayTokensPending):
        laid = len(state.tokens)
        if laid >= len(KINGDOMS) or pending.kingdom != KINGDOMS[laid]:
            out.append(
                f"the glory tokens of {pending.kingdom.label} are laid after {laid} kingdoms:"
                " tokens are laid kingdom by kingdom, from Althea (SETUP-4)"
            )
        pool = Counter(state.options.token_pool(state.config.players))
        if Counter(v for row in state.tokens for v in row) - pool:
            out.append("the glory tokens laid so far are not among the game's tokens (SETUP-4)")
    elif isinstance(pending, _tribes.WizardDrawPending):
        bands = state.players[pending.wizard].bands
        wizard = bands[-1] if bands else None
        if wizard is None or not isinstance(wizard.leader.tribe.ability, _tribes.Wizards):
            out.append(f"seat {pending.wizard}'s Wizard draws follow no Wizard-led band")
        else:
            drawn = len(state.players[pending.wizard].hand)
            exact = state.options.wizard_draw == "all_or_none"
            if (
                pending.left < 1
                or drawn + pending.left > wizard.size
                or (exact and drawn + pending.left != wizard.size)
            ):
                out.append(
                    f"seat {pending.wizard}'s Wizards have drawn {drawn} cards and"
                    f" {pending.left} are left, but X = {wizard.size} (TRIBE-WIZ-1)"
                )
    return out


_ABILITY_OF: dict[type, type] = {
    _tribes.CheckpointPending: _tribes.Merfolk,
    _tribes.HordePending: _tribes.Orcs,
    _tribes.TrollPending: _tribes.Trolls,
    _tribes.KeepPending: _tribes.Elves,
    _tribes.WizardPending: _tribes.Wizards,
}
"""The Leader ability behind each tribe's follow-up decision."""


def _band_step_problems(state: GameState, ctx: BandContext) -> list[str]:
    """A step of a band (BAND-6) holds only where the band, its Leader and the player allow it."""
    pending = state.pending
    player = state.players[ctx.seat]
    ability = ctx.leader.tribe.ability
    what = pending.describe()
    out = []
    earlier = player.bands[-1 - ctx.chain : -1] if ctx.chain > 0 else ()
    single = state.options.centaur_chain == "single"
    if (
        ctx.chain < 0
        or ctx.chain >= len(player.bands)
        or (single and ctx.chain > 1)
        or not all(b.leader.tribe.ability.chains for b in earlier)
    ):
        out.append(f"the band {ctx.band} cannot be band {ctx.chain + 1} of a Centaur chain")
    needed = _ABILITY_OF.get(type(pending))
    if needed is not None and not isinstance(ability, needed):
        out.append(f"{what}: the band's Leader {ctx.leader} has no such ability")
        return out
    if isinstance(pending, PlacePending):
        options = placement_options(state, ctx)
        if ctx.placed or not options:
            out.append(f"{what}: the band {ctx.band} has no marker to place (BAND-5)")
        elif state.options.placement == "mandatory" and len(options) == 1:
            out.append(f"{what}: under placement=mandatory the only placement is made at once")
    elif isinstance(pending, ChainPending) and not can_chain(state, ctx):
        out.append(f"{what}: only a Centaur-led band that placed a marker chains (TRIBE-CEN-1)")
    elif isinstance(pending, _tribes.CheckpointPending):
        end = player.merfolk or 0
        # The move may have stopped at the last space, so it started at most X spaces back.
        reached = _tribes.checkpoint_markers(state.options, end - ctx.size, end)
        if not 1 <= pending.left <= reached or not player.supply:
            out.append(
                f"{what}: a move of {ctx.size} to space {end} earns {reached} checkpoint"
                f" marker(s), and one needs a marker in supply (TRIBE-MER-2)"
            )
    elif isinstance(pending, _tribes.HordePending):
        if not player.supply or ctx.leader.colour in player.horde:
            out.append(f"{what}: no marker can go on the Horde's {ctx.leader.colour} space")
    elif isinstance(pending, _tribes.TrollPending) and not _tribes.troll_choices(state, ctx):
        out.append(f"{what}: no unclaimed Troll token is worth X = {ctx.size} or less")
    elif isinstance(pending, _tribes.KeepPending):
        kept = pending.kept
        rest = Counter(player.hand)
        rest.subtract(kept)
        ordered = all(a.index <= b.index for a, b in itertools.pairwise(kept))
        if not player.hand or min(rest.values(), default=0) < 0 or not ordered:
            out.append(f"{what}: the kept cards must be in the hand, named in card order")
        elif len(kept) > min(ctx.size, len(player.hand)):
            out.append(f"{what}: Elves keep at most X = {ctx.size} cards (TRIBE-ELF-1)")
    elif isinstance(pending, _tribes.WizardPending) and player.hand:
        out.append(f"{what}: the rest of the hand is discarded before Wizards draw (TRIBE-WIZ-1)")
    return out


def _phase_problems(state: GameState) -> list[str]:
    """Where the cards and pieces are at the start of a game, while dealing, and after an Age."""
    pending = state.pending
    players = state.players
    out = []
    hands = [len(p.hand) for p in players]
    if isinstance(pending, ChooseTribes | LayTokensPending | FirstPlayerPending):
        fresh = all(
            p.glory == 0 and not any(p.kingdoms) and not p.horde and p.merfolk in (None, 0)
            for p in players
        )
        if state.age != 1 or state.history or not fresh:
            out.append(f"{pending.describe()} comes before any play: no Glory or markers yet")
        if any(hands) or state.row:
            out.append(f"{pending.describe()} comes before the cards are dealt (AGE-2)")
    if isinstance(pending, ChooseTribes) and (
        any(state.deck) or any(p.merfolk is not None for p in players)
    ):
        out.append("no card is in the deck, no marker on the track before the tribes (SETUP-3)")
    if isinstance(pending, ChooseTribes) and len(state.tribes) >= state.config.tribe_count:
        out.append("every tribe is chosen, yet another one is to be drawn (SETUP-3)")
    if isinstance(pending, FirstPlayerPending) and state.first_player is not None:
        out.append("the first player is chosen, yet chance is to choose one (AGE-5)")
    if isinstance(pending, DealPending | RowPending) and state.first_player is None:
        out.append(f"{pending.describe()}: the first player is decided before dealing (AGE-2)")
    elif isinstance(pending, DealPending):
        first, n = state.first_player, state.config.players
        assert first is not None
        dealt = [1 if (seat - first) % n < pending.dealt else 0 for seat in range(n)]
        if hands != dealt or state.row:
            out.append(f"{pending.describe()}: the hands must hold the cards dealt so far (AGE-2)")
    elif isinstance(pending, RowPending) and (
        any(h != 1 for h in hands) or len(state.row) != 2 * len(players) - pending.left
    ):
        out.append(f"{pending.describe()}: the row must hold the cards turned up so far")
    if pending.before_split and (any(p.bands or p.trolls for p in players) or state.discard):
        out.append(f"{pending.describe()}: no band, Troll token or discard before play (AGE-1)")
    if pending.age_over and (any(hands) or state.dragons_drawn != state.rules.dragons):
        out.append(f"{pending.describe()}: the Age is over, every hand discarded (END-1)")
    if isinstance(pending, HordeEmptyPending) and state.age == state.config.ages:
        out.append("in the last Age every Horde is emptied without a decision (TRIBE-ORC-2)")
    if isinstance(pending, GameOver) and state.age != state.config.ages:
        out.append(f"the game ends after Age {state.config.ages}, not Age {state.age} (END-6)")
    if isinstance(pending, RecruitDraw) and hands[pending.recruiter] >= state.rules.hand_limit:
        out.append(f"seat {pending.recruiter} holds {hands[pending.recruiter]} cards (TURN-2)")
    return out


def _history_problems(state: GameState) -> list[str]:
    """The summaries of finished Ages: one per Age, in order, each with a row per seat."""
    n = state.config.players
    history = state.history
    finished = state.age if state.pending.terminal else state.age - 1
    out = []
    if [s.age for s in history] != list(range(1, len(history) + 1)) or len(history) > finished:
        out.append(f"in Age {state.age} the summaries must be of Ages 1 to at most {finished}")
    if isinstance(state.pending, GameOver) and len(history) != state.config.ages:
        out.append(f"the game is over, so each of the {state.config.ages} Ages has a summary")
    glory = tuple(p.glory for p in state.players)
    for summary in history:
        where = f"the summary of Age {summary.age}"
        rows = (summary.glory, summary.gains, summary.band_sizes)
        if any(len(row) != n for row in rows) or not 0 <= summary.third_dragon < n:
            out.append(f"{where} needs one row per seat and the seat that drew the third Dragon")
            continue
        if any(g < 0 or g > now for g, now in zip(summary.glory, glory, strict=True)):
            out.append(f"{where}: Glory is never negative and never goes down")
        sources = [src for row in summary.gains for src, _ in row]
        if any(src not in SOURCES for src in sources) or any(
            amount <= 0 or len({src for src, _ in row}) != len(row)
            for row in summary.gains
            for _, amount in row
        ):
            out.append(f"{where}: gains are positive amounts by source ({', '.join(SOURCES)})")
        if any(
            list(sizes) != sorted(sizes, reverse=True)
            or any(not 1 <= x <= state.rules.hand_limit for x in sizes)
            for sizes in summary.band_sizes
        ):
            out.append(f"{where}: band sizes are 1 to 10 cards, largest first")
    if history and state.last_dragon != history[-1].third_dragon:
        out.append("the last Dragon's drawer is the one of the last finished Age (AGE-5)")
    return out
