"""Game records: a versioned JSON form of one game, its setup and every decision.

A record holds what :func:`~ethnos_rules.new_game` was given (setup parts left ``None`` are
chance decisions at the start of the action list), every decision in the action notation, chance
outcomes included, free metadata that is kept unchanged, and optionally the final Glory the
players claim. The JSON Schema is ``record.schema.json``, shipped inside the package and published
in the docs.

>>> from ethnos_rules import GameRecord, play_random
>>> record = GameRecord.from_playthrough(play_random(3, seed=7), metadata={"table": "kitchen"})
>>> record.actions[:3]
('tribe MER', 'tribe ELF', 'tribe SKE')
>>> GameRecord.from_json(record.to_json()) == record
True
>>> record.replay() == play_random(3, seed=7).final
True

Input from outside (a file, a web request) is checked before anything else: anything that is
not a record of the supported version raises :class:`RecordError` naming the JSON path.

Texts are written as UTF-8 JSON. A lone surrogate (``"\\ud800"`` in JSON: half of a UTF-16
pair, which no UTF-8 text can hold) is read as it is, and written back as the same JSON escape,
so every record that is read can be written and read again unchanged.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import cattrs
from frozendict import frozendict

if TYPE_CHECKING:  # imported where a record is read (see _validator)
    import jsonschema

from .._replay.replay import Playthrough, Refusal, Visitor, replay, visit
from .._rules.actions import Action
from .._rules.components import KINGDOMS
from .._rules.editions import tokens_per_kingdom
from .._rules.errors import RulesError
from .._rules.events import trace
from .._rules.options import MerfolkBoard, Options
from .._rules.setup import TokenLayout, new_game
from .._rules.state import GameState
from .._rules.words import given, shortened
from .._seat.seatview import seat_decisions
from .jsonio import (
    RecordError,
    json_path,
    json_text,
    load_json,
    read_text,
)

T = TypeVar("T")

RECORD_VERSION = 2
"""The newest record format version: version 2 adds ``seat``, a record kept at one seat.
This library reads versions 1 and 2, and writes a record of a whole game as version 1, so that
older readers still read it."""

RECORD_VERSIONS = (1, 2)
"""The record format versions this library reads."""

MAX_DECISIONS = 100_000
"""The most decisions a record may hold. Whole games have 350 to 1,000; longer is refused."""

MAX_CLAIM = 100_000
"""The largest claimed Glory a record holds (the schema's bound too); no game comes near it."""

MAX_ACTION_CHARS = 200
"""The longest action text accepted (a band of 10 cards takes about 100 characters)."""


# --- the schema -------------------------------------------------------------------------------


@cache
def record_schema() -> dict[str, Any]:
    """The JSON Schema of game records (``record.schema.json``, shipped in the package)."""
    text = resources.files("ethnos_rules._io").joinpath("record.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> jsonschema.protocols.Validator:
    # Imported here, when a text is first read: jsonschema (with its dependencies) is a fifth
    # of the package's import, which a bot or a worker that never reads a file need not pay.
    import jsonschema

    schema = record_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator: jsonschema.protocols.Validator = cls(schema)
    return validator


def check_schema(document: Any) -> None:
    """Check a parsed record against the schema; the first problem names its JSON path.

    The version is checked first, so a record of another version gets a plain answer, and the
    number of decisions before the schema runs, so a huge record is refused at once.

    Raises:
        RecordError: for the first problem found.
    """
    if not isinstance(document, dict):
        raise RecordError(f"a game record is a JSON object, not {_json_type(document)}", path="$")
    if "version" not in document:
        hint = ""
        if "snapshot" in document:
            hint = " (this looks like a state snapshot: read it with state_from_json)"
        raise RecordError(
            f"the record has no 'version' key, the format version{hint}; this library reads"
            f' "version": {_versions(" or ")}',
            path="$",
        )
    check_version(document["version"])
    actions = document.get("actions")
    if isinstance(actions, list):
        check_decision_count(len(actions))
        _first_non_text(actions)
        if _valid_at_once(document, actions):
            return
    problem = _schema_problem(document)
    if problem is not None:
        raise problem


def _schema_problem(document: dict[str, Any]) -> RecordError | None:
    """The error for the problem jsonschema finds most relevant in ``document`` (the whole
    schema, every decision descended), or None."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(document))
    if error is None:
        return None
    path = json_path(error.absolute_path)
    index = None
    if len(error.absolute_path) >= 2 and error.absolute_path[0] == "actions":
        index = int(error.absolute_path[1])
    return RecordError(_schema_message(error), path=path, index=index)


def _valid_at_once(document: dict[str, Any], actions: list[str]) -> bool:
    """Whether ``document``, whose decisions are all texts, is a valid record, asked at once.

    jsonschema would descend the decisions one by one (up to 100,000 of them; for a whole game
    that walk was 94 % of reading it): here their lengths are checked in one pass against the
    schema's own bounds, and the schema checks the rest of the record with the decisions left
    out. On False, :func:`check_schema` runs the whole schema for the first problem's words and
    JSON path, so a refused record is told exactly as before.
    """
    shortest, longest = _action_lengths()
    if actions and (min(map(len, actions)) < shortest or max(map(len, actions)) > longest):
        return False
    return _validator().is_valid({**document, "actions": []})


@cache
def _action_lengths() -> tuple[int, int]:
    """The shortest and longest decision text the schema accepts."""
    items = record_schema()["properties"]["actions"]["items"]
    assert items == {"type": "string", "minLength": 1, "maxLength": MAX_ACTION_CHARS}, (
        "the fast check of the decisions knows only these keywords"
    )
    return items["minLength"], items["maxLength"]


def _first_non_text(
    actions: Sequence[Any],
    why: Callable[[int, Any], str] = lambda index, item: (
        f"expected string, found {_json_type(item)}"
    ),
) -> None:
    """Refuse the first decision that is not a text, in the words ``why`` gives (by default
    the schema's; this runs before the schema, which would collect an error for every one of
    up to 100,000 and name the worst, not the first)."""
    if set(map(type, actions)) <= {str}:  # the usual case, asked at C speed
        return
    for index, item in enumerate(actions):
        if not isinstance(item, str):
            raise RecordError(why(index, item), path=f"$.actions[{index}]", index=index)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "true or false"}
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return names.get(type(value), type(value).__name__)


def _schema_message(error: jsonschema.ValidationError) -> str:
    value = error.instance
    limit: Any = error.validator_value
    schema: Any = error.schema
    shown = json.dumps(value) if not isinstance(value, list | dict) else _json_type(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    if error.validator == "enum":
        allowed = ", ".join(map(str, limit))
        return f"{shown} is not one of: {allowed}"
    if error.validator == "type":
        wanted = " or ".join(limit) if isinstance(limit, list) else limit
        return f"expected {wanted}, found {_json_type(value)}"
    if error.validator == "additionalProperties" and isinstance(value, dict):
        known = set(schema.get("properties", {}))
        extra = sorted(k for k in value if k not in known)
        more = f" and {len(extra) - _KEYS_SHOWN} more" if len(extra) > _KEYS_SHOWN else ""
        return f"unknown key(s): {', '.join(map(given, extra[:_KEYS_SHOWN]))}{more}"
    if error.validator == "required":
        return error.message.replace("is a required property", "is missing")
    if error.validator == "minProperties" and isinstance(value, dict):
        return f"needs {limit} keys, found {len(value)}"
    if error.validator == "minLength":
        return "an empty text"
    if error.validator == "maxLength":
        return f"a text longer than {limit} characters"
    return shortened(error.message)  # jsonschema's own words repeat the value in full


_KEYS_SHOWN = 5
"""The most unknown keys a message names."""


# --- (de)serialisation --------------------------------------------------------------------------


def options_to_dict(options: Options) -> dict[str, Any]:
    """The options that differ from the defaults, by name, as JSON values."""
    out: dict[str, Any] = {}
    for field in attrs.fields(Options):
        value = getattr(options, field.name)
        default = getattr(_DEFAULT_OPTIONS, field.name)
        if value == default:
            continue
        if isinstance(value, MerfolkBoard):
            out[field.name] = {
                f.name: list(v) if isinstance(v, tuple) else v
                for f in attrs.fields(MerfolkBoard)
                if (v := getattr(value, f.name)) != getattr(default, f.name)
            }
        else:
            out[field.name] = list(value) if isinstance(value, tuple) else value
    return out


def options_from_dict(data: Mapping[str, Any], path: str = "$.options") -> Options:
    """Options from :func:`options_to_dict` output.

    Raises:
        RecordError: for unknown names or values that break COMP-5 / COMP-10 or §12.
    """
    if not isinstance(data, Mapping):
        raise RecordError("options must be an object", path=path)
    kwargs = dict(data)
    known = {f.name for f in attrs.fields(Options)}
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise RecordError(f"unknown option(s): {', '.join(unknown)}", path=path)
    try:
        if "merfolk_board" in kwargs:
            board = kwargs["merfolk_board"]
            if not isinstance(board, Mapping):
                raise RecordError("merfolk_board must be an object", path=path + ".merfolk_board")
            kwargs["merfolk_board"] = MerfolkBoard(**board)
        return Options(**kwargs)
    except RulesError as err:
        if isinstance(err, RecordError):
            raise
        raise RecordError(f"the options break {err.rule}: {err.reason}", path=path) from None
    except (TypeError, ValueError) as err:
        raise RecordError(f"invalid options: {err}", path=path) from None


_DEFAULT_OPTIONS = Options()


def _tokens_to_json(
    tokens: tuple[tuple[int, ...], ...] | None,
) -> dict[str, list[int]] | None:
    if tokens is None:
        return None
    return {k.label: list(v) for k, v in zip(KINGDOMS, tokens, strict=True)}


def _tokens_from_json(data: Mapping[str, Sequence[int]] | None) -> Any:
    if data is None:
        return None
    return tuple(tuple(data[k.label]) for k in KINGDOMS)


MAX_METADATA_DEPTH = 64
"""How deep arrays and objects may nest in a record's metadata, the metadata object itself
counted as one."""


def _frozen_metadata(value: object) -> frozendict[str, Any]:
    """Metadata as a frozen deep copy (objects become frozendicts, arrays tuples), which JSON
    writes back as it was; refuses anything JSON cannot hold unchanged."""
    if value is None:
        return frozendict()
    if not isinstance(value, Mapping):
        raise RecordError(
            f"metadata must be a JSON object (a dict), not {type(value).__name__}", "$.metadata"
        )
    frozen: frozendict[str, Any] = _freeze(value, ("metadata",))
    return frozen


def _freeze(value: object, where: tuple[str | int, ...]) -> Any:
    """One JSON value, frozen; ``where`` is its path from the record's root, so its length is
    the number of arrays and objects around it, the metadata object included."""
    if isinstance(value, Mapping | list | tuple) and len(where) > MAX_METADATA_DEPTH:
        raise RecordError(
            f"metadata nests arrays and objects more than {MAX_METADATA_DEPTH} deep",
            json_path(where[:2]),
        )
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RecordError(f"{given(value)} is not a JSON number", json_path(where))
        return float(value)
    if isinstance(value, Mapping):
        items = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise RecordError(
                    f"metadata keys are text, not {type(key).__name__} {given(key)}",
                    json_path(where),
                )
            items[str(key)] = _freeze(item, (*where, key))
        return frozendict(items)
    if isinstance(value, list | tuple):
        return tuple(_freeze(item, (*where, i)) for i, item in enumerate(value))
    raise RecordError(
        f"metadata holds only JSON values, not {type(value).__name__}", json_path(where)
    )


def _claims_or_none(value: Iterable[int] | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    claims = _items(value, "claimed Glory is a list of integers, one per seat", "$.claimed_glory")
    for index, claim in enumerate(claims):
        if isinstance(claim, bool) or not isinstance(claim, int):
            raise RecordError(
                f"a claimed Glory is an integer, not {given(claim)}",
                path=f"$.claimed_glory[{index}]",
            )
        if not 0 <= claim <= MAX_CLAIM:  # as the schema says: the record's text must read
            raise RecordError(
                f"a claimed Glory is from 0 to {MAX_CLAIM:,}, not {given(claim)}",
                path=f"$.claimed_glory[{index}]",
            )
    return claims


def _str_tuple_or_none(value: Iterable[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return _items(value, "the tribes are a list of tribe codes, not one text", "$.tribes")


def _tokens_or_none(value: Any) -> tuple[tuple[int, ...], ...] | None:
    return None if value is None else tuple(tuple(row) for row in value)


def _actions(value: Iterable[Any]) -> tuple[Any, ...]:
    return _items(value, "the actions are a list of action texts, not one text", "$.actions")


def _items(value: Iterable[Any], what: str, path: str) -> tuple[Any, ...]:
    """The items of a list given in Python; one text (or bytes) is refused, not split."""
    if isinstance(value, str | bytes | bytearray):
        raise RecordError(what, path=path)
    try:
        return tuple(value)
    except TypeError:
        raise RecordError(f"{what}; found {type(value).__name__}", path=path) from None


def _versions(joined: str) -> str:
    """The record versions this library reads, in words: ``1 or 2``."""
    *first, last = map(str, RECORD_VERSIONS)
    return f"{', '.join(first)}{joined}{last}" if first else last


def check_version(version: object) -> None:
    """Refuse a record format version this library does not read."""
    if type(version) is not int or version not in RECORD_VERSIONS:
        raise RecordError(
            f"unknown record version {given(version)};"
            f" this library reads versions {_versions(' and ')}",
            path="$.version",
        )


def check_decision_count(count: int) -> None:
    """Refuse a record of more than :data:`MAX_DECISIONS` decisions."""
    if count > MAX_DECISIONS:
        raise RecordError(
            f"the record holds {count:,} decisions, more than the limit of"
            f" {MAX_DECISIONS:,} (a whole game has at most about 1,000)",
            path="$.actions",
        )


def claims_problem(claims: Sequence[int], players: int) -> RecordError | None:
    """The error for claimed Glory that is not one score per player, or None."""
    if len(claims) == players:
        return None
    return RecordError(f"{len(claims)} claimed scores for {players} players", "$.claimed_glory")


def _check_actions(instance: Any, attribute: Any, value: tuple[str, ...]) -> None:
    check_decision_count(len(value))
    _first_non_text(
        value, lambda index, item: f"decision {index} is {type(item).__name__}, not a text"
    )


def _check_version(instance: Any, attribute: Any, value: int) -> None:
    check_version(value)
    if instance.seat is not None and value < 2:
        raise RecordError("a record kept at one seat ('seat') is version 2", path="$.version")


def _check_seat(instance: Any, attribute: Any, value: int | None) -> None:
    if value is None:
        return
    players = instance.players
    if type(value) is not int or type(players) is not int or not 0 <= value < players:
        raise RecordError(
            f"the record is kept at seat {given(value)},"
            f" which is not a seat of {given(players)} players",
            path="$.seat",
        )


def _version(record: Any) -> int:
    return 1 if record.seat is None else 2


def check_record(value: object, taker: str) -> None:
    """Refuse what is not a :class:`GameRecord` given to ``taker`` (e.g. ``"validate()"``),
    saying how to get one from what was given."""
    if isinstance(value, GameRecord):
        return
    hint = ""
    if isinstance(value, (str, os.PathLike)):
        hint = "; GameRecord.read(path) reads a file, GameRecord.from_json(text) a text"
    elif isinstance(value, GameState):
        hint = "; a state is not a record: GameRecord.from_start(start, actions) makes one"
    elif isinstance(value, Playthrough):
        hint = "; GameRecord.from_playthrough(game) makes one"
    raise RecordError(f"{taker} takes a GameRecord, not {type(value).__name__}{hint}")


@attrs.frozen
class GameRecord:
    """One game: its setup, every decision in the action notation, metadata and claims.

    Build one with :meth:`start` and :meth:`append` while playing, with
    :meth:`from_playthrough` from :func:`~ethnos_rules.play_random`, or read one with
    :meth:`from_json` / :meth:`read`. Check it with :func:`~ethnos_rules.validate`.

    Attributes:
        players: Number of players (SETUP-1).
        tribes: Tribe codes in play, or None when ``tribe`` chance decisions choose them.
        glory_tokens: The tokens of each kingdom in kingdom order (Althea … Straton), or None
            when ``tokens`` chance decisions lay them.
        first_player: Seat of the Age I first player, or None for a ``first`` chance decision.
        options: The rule options; only those that differ from the defaults are written.
        actions: Every decision in order, chance outcomes included, as action texts.
        metadata: Free JSON information (names, date, source), kept unchanged: a frozen copy
            in which objects are ``frozendict`` mappings and arrays tuples, written back to JSON
            exactly as given.
        claimed_glory: The final Glory the players claim, by seat, or None.
        seat: The seat the record was kept from, or None for a record of the whole game. A
            record kept at a seat holds every public decision and that seat's own cards; the
            cards it did not see are ``?`` (see :func:`~ethnos_rules.redact`).
        version: The record format version: 1, or 2 for a record kept at one seat.
    """

    players: int
    tribes: tuple[str, ...] | None = attrs.field(default=None, converter=_str_tuple_or_none)
    glory_tokens: tuple[tuple[int, ...], ...] | None = attrs.field(
        default=None, converter=_tokens_or_none
    )
    first_player: int | None = None
    options: Options = attrs.field(factory=Options)
    actions: tuple[str, ...] = attrs.field(default=(), converter=_actions, validator=_check_actions)
    metadata: frozendict[str, Any] = attrs.field(
        factory=frozendict, converter=_frozen_metadata, hash=False
    )
    claimed_glory: tuple[int, ...] | None = attrs.field(default=None, converter=_claims_or_none)
    seat: int | None = attrs.field(default=None, validator=_check_seat)
    version: int = attrs.field(
        default=attrs.Factory(_version, takes_self=True), validator=_check_version
    )

    # --- building ---------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        players: int,
        *,
        tribes: Iterable[str] | None = None,
        glory_tokens: TokenLayout | None = None,
        first_player: int | None = None,
        options: Options | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        """An empty record of the game :func:`~ethnos_rules.new_game` starts with these
        arguments; add decisions with :meth:`append` or :meth:`extend`.

        Raises:
            SetupError: as :func:`~ethnos_rules.new_game`.
        """
        state = new_game(
            players,
            tribes=tribes,
            glory_tokens=glory_tokens,
            first_player=first_player,
            options=options,
        )
        return cls.from_start(state, metadata=metadata)

    @classmethod
    def from_start(
        cls,
        start: GameState,
        actions: Iterable[Action | str] = (),
        *,
        metadata: Mapping[str, Any] | None = None,
        claimed_glory: Sequence[int] | None = None,
    ) -> GameRecord:
        """The record of a game that began with ``start`` (a state
        :func:`~ethnos_rules.new_game` returned) and went on with ``actions``.

        Raises:
            RecordError: ``start`` is not a state :func:`~ethnos_rules.new_game` returns (a
                state after some decisions, one built by :func:`~ethnos_rules.position`, a
                snapshot of a game under way): a record must hold every decision from the
                start of the game.
        """
        if not isinstance(start, GameState):
            raise RecordError(
                f"a record starts from a GameState new_game() returned, not {type(start).__name__}"
            )
        if start.rules.name != "1e":
            raise RecordError(
                f"records hold first-edition games; this state uses the ruleset"
                f" {given(start.rules.name)}"
            )
        tribes = tuple(t.code for t in start.tribes) or None
        tokens = start.tokens or None
        try:
            again: GameState | None = new_game(
                start.config.players,
                tribes=tribes,
                glory_tokens=tokens,
                first_player=start.first_player,
                options=start.options,
            )
        except RulesError:
            again = None
        if again != start:
            raise RecordError(
                "a record starts at the start of a game, from a state new_game() returns; this"
                " state is not one (decisions have been made since, or it was built another way),"
                " so the decisions that led to it would be missing from the record"
            )
        return cls(
            players=start.config.players,
            tribes=tribes,
            glory_tokens=tokens,
            first_player=start.first_player,
            options=start.options,
            actions=tuple(map(_text, _actions(actions))),
            metadata=_frozen_metadata(metadata),
            claimed_glory=claimed_glory,
        )

    @classmethod
    def from_playthrough(
        cls,
        game: Playthrough,
        *,
        metadata: Mapping[str, Any] | None = None,
        claimed_glory: Sequence[int] | None = None,
    ) -> GameRecord:
        """The record of a game :func:`~ethnos_rules.play_random` played."""
        return cls.from_start(
            game.start, game.actions, metadata=metadata, claimed_glory=claimed_glory
        )

    def append(self, action: Action | str) -> GameRecord:
        """This record with one more decision (an :class:`Action` or its text)."""
        return attrs.evolve(self, actions=(*self.actions, _text(action)))

    def extend(self, actions: Iterable[Action | str]) -> GameRecord:
        """This record with more decisions."""
        return attrs.evolve(self, actions=(*self.actions, *map(_text, _actions(actions))))

    # --- playing it back ----------------------------------------------------------------------

    def new_game(self) -> GameState:
        """The state before the first decision.

        Raises:
            SetupError: the setup breaks a SETUP rule.
        """
        return new_game(
            self.players,
            tribes=self.tribes,
            glory_tokens=self.glory_tokens,
            first_player=self.first_player,
            options=self.options,
        )

    def accept(self, visitor: Visitor[T], *, stop: int | None = None) -> T:
        """Replay the record into ``visitor`` and return its result, as python-chess's
        ``game.accept(visitor)``: the setup (or its refusal), then every decision with its
        events, up to the end or the first refused decision.

        Args:
            stop: Replay only the first ``stop`` decisions.
        """
        try:
            start, events = trace(self.new_game)
        except RulesError as err:
            visitor.visit_setup_error(err)
            return visitor.result()
        except (TypeError, ValueError, KeyError) as err:
            visitor.visit_setup_error(RecordError(f"the setup cannot be read: {err}"))
            return visitor.result()
        if self.seat is None:
            return replay(start, self.actions, visitor, start_events=events, stop=stop)
        seen = tuple(e for e in events if e.visible_to is None or self.seat in e.visible_to)
        played = seat_decisions(
            start, self.actions, self.seat, events=visitor.needs_events, stop=stop
        )
        return visit(visitor, start, seen, played)

    def replay(self, decisions: int | None = None) -> GameState:
        """The state after the first ``decisions`` decisions (all by default).

        Raises:
            RulesError: the first refused decision; a note names its index. Use
                :func:`~ethnos_rules.validate` for a report instead.
            RecordError: the record is kept at one seat, so it does not tell the state (see
                :func:`~ethnos_rules.information_state` and :func:`~ethnos_rules.resample`).
        """
        if self.seat is not None:
            raise RecordError(
                f"a record kept at seat {self.seat} does not tell the state: the other players'"
                " cards are unseen; use information_state() for what the seat knows, or"
                " resample() for a whole game that fits it"
            )
        return self.accept(_FinalState(), stop=decisions)

    # --- JSON ---------------------------------------------------------------------------------

    def to_json(self, indent: int | None = 2) -> str:
        """The record as JSON text: keys in a fixed order, one key per line and one decision
        per line (``indent=None`` writes it all on one line). Lone surrogates are written as
        JSON escapes (see the module docstring), so the text always encodes as UTF-8."""
        document: dict[str, Any] = _CONVERTER.unstructure(self)
        if indent is None:
            return json_text(document)
        pad = " " * indent
        lines = []
        for key, value in document.items():
            if key == "actions" and value:
                items = ",\n".join(pad * 2 + json_text(a) for a in value)
                text = "[\n" + items + "\n" + pad + "]"
            else:
                text = json_text(value)
            lines.append(f"{pad}{json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}"

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text.

        Raises:
            RecordError: the text is not a record of this version; ``path`` names the place.
        """
        document = load_json(text)
        check_schema(document)
        players = document["players"]
        claims = document.get("claimed_glory")
        problem = claims_problem(claims, players) if claims is not None else None
        if problem is not None:
            raise problem
        tokens = document.get("glory_tokens")
        if tokens is not None:
            spaces = tokens_per_kingdom(players)
            for name, values in tokens.items():
                if len(values) != spaces:
                    raise RecordError(
                        f"{document['players']} players lay {spaces} tokens per kingdom,"
                        f" not {len(values)}",
                        path=json_path(["glory_tokens", name]),
                    )
        try:
            record: GameRecord = _CONVERTER.structure(document, cls)
        except RecordError:
            raise
        except (TypeError, ValueError, KeyError) as err:  # the schema should prevent these
            raise RecordError(f"cannot read the record: {err}") from None
        return record

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record file.

        Raises:
            RecordError: as :meth:`from_json`, or the file cannot be read.
        """
        return cls.from_json(read_text(path))

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the record to a file as UTF-8 JSON."""
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.to_json() + "\n")


class _FinalState(Visitor[GameState]):
    """The state a record reaches; a refusal is raised, with a note naming the decision."""

    needs_events = False
    needs_decisions = False

    def __init__(self) -> None:
        self.state: GameState | None = None

    def visit_setup_error(self, error: RulesError) -> None:
        raise error

    def visit_refusal(self, refusal: Refusal) -> None:
        refusal.error.add_note(f"at decision {refusal.index}: {refusal.text!r}")
        raise refusal.error

    def end_game(self, state: GameState) -> None:
        self.state = state

    def result(self) -> GameState:
        assert self.state is not None
        return self.state


def _text(action: Action | str) -> str:
    return str(action) if isinstance(action, Action) else action


# --- the converter -------------------------------------------------------------------------------


def document_converter(detailed_validation: bool) -> cattrs.Converter:
    """The base of the record and snapshot converters: extra keys are refused, and
    :class:`~ethnos_rules.Options` are written by :func:`options_to_dict` and read by
    :func:`options_from_dict` (errors at ``$.options``).

    ``detailed_validation`` is cattrs' own: with it, errors are grouped and name their place.
    """
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=detailed_validation)
    converter.register_unstructure_hook(Options, options_to_dict)
    converter.register_structure_hook(Options, lambda data, _: options_from_dict(data))
    return converter


def _record_converter() -> cattrs.Converter:
    converter = document_converter(detailed_validation=False)
    converter.register_structure_hook_func(
        lambda cls: getattr(cls, "__origin__", cls) is frozendict,
        lambda data, _: _frozen_metadata(data),
    )
    # The decisions and the tribes, which the schema has checked are texts, as they are: cattrs
    # would structure each of up to 100,000 texts one by one (the field's converter makes the
    # tuple).
    converter.register_structure_hook_func(lambda cls: cls == tuple[str, ...], lambda data, _: data)

    def unstructure_record(record: GameRecord) -> dict[str, Any]:
        seat = {"seat": record.seat} if record.seat is not None else {}
        return {
            "version": record.version,
            "players": record.players,
            **seat,
            "tribes": list(record.tribes) if record.tribes is not None else None,
            "glory_tokens": _tokens_to_json(record.glory_tokens),
            "first_player": record.first_player,
            "options": options_to_dict(record.options),
            "claimed_glory": (
                list(record.claimed_glory) if record.claimed_glory is not None else None
            ),
            "metadata": record.metadata,
            "actions": list(record.actions),
        }

    base = cattrs.gen.make_dict_structure_fn(GameRecord, converter)

    def structure_record(data: Mapping[str, Any], _: Any) -> GameRecord:
        data = dict(data)
        data["glory_tokens"] = _tokens_from_json(data.get("glory_tokens"))
        data.setdefault("metadata", {})
        return base(data, GameRecord)

    converter.register_unstructure_hook(GameRecord, unstructure_record)
    converter.register_structure_hook(GameRecord, structure_record)
    return converter


_CONVERTER = _record_converter()
