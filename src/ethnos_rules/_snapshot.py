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
ethnos_rules._invariants.InvalidStateError: STATE: ELF-red appears ... seat 0 holds ... cards, ...
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import Any

import attrs
import cattrs

from ._bands import BandContext
from ._components import Card, Colour, Kingdom, Tribe, default_ruleset
from ._engine import legal_actions
from ._errors import RulesError
from ._invariants import InvalidStateError, state_problems
from ._options import Options
from ._records import RecordError, json_path, load_json, options_from_dict, options_to_dict
from ._setup import ChooseTribes, LayTokensPending
from ._state import AgeSummary, Band, Config, GameState, Pending, PlayerState

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
            a hand of 11, markers that do not add up, …); ``problems`` lists them.
    """
    data = load_json(text, what="snapshot")
    if not isinstance(data, dict):
        raise RecordError("a snapshot is a JSON object", path="$")
    version = data.get("snapshot")
    if version != SNAPSHOT_VERSION or type(version) is not int:
        raise RecordError(
            f"unknown snapshot version {version!r}; this library reads version {SNAPSHOT_VERSION}",
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
    if out:
        return out
    try:
        legal_actions(state)
    except RulesError as err:  # pragma: no cover - no pending raises these when listing
        out.append(f"the pending decision does not fit the state: {err.reason}")
    except (ArithmeticError, LookupError, ValueError, TypeError, AssertionError) as err:
        out.append(f"the pending decision ({pending.describe()}) does not fit the state: {err}")
    return out
