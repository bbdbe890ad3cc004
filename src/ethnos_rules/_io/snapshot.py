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

import functools
import json
import re
import sys
import typing
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import attrs
import cattrs

from .._checks.invariants import missing_summaries, state_problems
from .._rules.components import Card, Colour, Kingdom, Ruleset, Tribe
from .._rules.decisions import DECISIONS_BY_NAME
from .._rules.editions import default_ruleset, ruleset
from .._rules.errors import InvalidStateError, SetupError
from .._rules.notation import parse_band
from .._rules.options import Options
from .._rules.setup import check_players
from .._rules.state import AgeSummary, Band, Config, GameState, Pending, PlayerState
from .._rules.words import given
from .jsonio import RecordError, json_path, load_json
from .records import document_converter

T = TypeVar("T")

SNAPSHOT_VERSION = 1
"""The snapshot format version this library writes and reads."""


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
    # Written since 2026-12-02; a snapshot without it shows every seat the whole discard.
    discarded_hands: tuple[tuple[Card, ...], ...] = ()


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


def _text_hook(read: Callable[[str], T], what: str) -> Callable[[Any, Any], T]:
    """A structure hook reading a word of the notation; its errors name what is expected."""

    def hook(value: Any, _: Any) -> T:
        if not isinstance(value, str):
            raise TypeError(f"{what} is written as text, not {type(value).__name__}")
        try:
            return read(value)
        except KeyError as err:
            raise ValueError(err.args[0]) from None

    return hook


def _variadic(cls: Any) -> bool:
    args = typing.get_args(cls)
    return typing.get_origin(cls) is tuple and len(args) == 2 and args[1] is Ellipsis


def _sequence_hook(converter: cattrs.Converter) -> Callable[[Any], Any]:
    """Structure ``tuple[X, ...]`` from a JSON list, stopping at the first bad item: a text
    of 8 million characters is not read as 8 million wrong items, nor is a list of them."""

    def factory(cls: Any) -> Callable[[Any, Any], Any]:
        inner = typing.get_args(cls)[0]
        structure = converter.get_structure_hook(inner)

        def hook(value: Any, _: Any) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise TypeError(f"expected a list, found {type(value).__name__}")
            out = []
            for index, item in enumerate(value):
                try:
                    out.append(structure(item, inner))
                except Exception as err:
                    note = cattrs.errors.IterableValidationNote(
                        f"Structuring {cls} @ index {index}", index, inner
                    )
                    err.add_note(note)
                    raise cattrs.errors.IterableValidationError(
                        f"While structuring {cls!r}", [err], cls
                    ) from None
            return tuple(out)

        return hook

    return factory


@functools.cache  # one per edition: its cards, tribes and bands are read by its own names
def _snapshot_converter(rules: Ruleset) -> cattrs.Converter:
    converter = document_converter(detailed_validation=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_structure_hook_factory(_variadic, _sequence_hook(converter))
    converter.register_unstructure_hook(Card, lambda c: c.code)
    converter.register_structure_hook(Card, _text_hook(rules.card, "a card"))
    converter.register_unstructure_hook(Tribe, lambda t: t.code)
    converter.register_structure_hook(Tribe, _text_hook(rules.tribe, "a tribe"))
    converter.register_unstructure_hook(Colour, lambda e: e.label)
    converter.register_structure_hook(Colour, _text_hook(Colour.parse, "a colour"))
    converter.register_unstructure_hook(Kingdom, lambda e: e.label)
    converter.register_structure_hook(Kingdom, _text_hook(Kingdom.parse, "a kingdom"))
    converter.register_unstructure_hook(Band, str)
    band = _text_hook(lambda text: parse_band(text, rules), "a band, e.g. '*ELF-red ELF-blue',")
    converter.register_structure_hook(Band, band)
    classes = DECISIONS_BY_NAME
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
            raise RecordError(
                f"unknown pending type {given(name)} (one of {known})", "$.pending.type"
            )
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


_CONVERTER = _snapshot_converter(default_ruleset())


def _converter_for(data: dict[str, Any]) -> cattrs.Converter:
    """The converter of the edition the snapshot names (the first edition's when it names
    none known: reading it then says so, at ``$.ruleset``)."""
    name = data.get("ruleset")
    try:
        rules = ruleset(name) if isinstance(name, str) else default_ruleset()
    except KeyError:
        rules = default_ruleset()
    return _snapshot_converter(rules)


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
        discarded_hands=state.discarded_hands,
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
            f"unknown snapshot version {given(version)} (the key 'snapshot');"
            f" this library reads version {SNAPSHOT_VERSION}",
            path="$.snapshot",
        )
    try:
        snapshot = _converter_for(data).structure(data, _Snapshot)
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
    try:
        rules = ruleset(snapshot.ruleset)
    except KeyError as err:
        raise RecordError(err.args[0], path="$.ruleset") from None
    players = snapshot.players
    try:
        check_players(players)
    except SetupError as err:
        raise RecordError(err.reason, path="$.players") from None
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
        discarded_hands=tuple(tuple(sorted(hand)) for hand in snapshot.discarded_hands),
    )
    problems = state_problems(state)
    if problems:
        raise InvalidStateError(problems)
    missing = missing_summaries(state)
    if missing is not None:
        raise RecordError(missing, path="$.history")
    return state
