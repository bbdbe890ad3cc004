"""A fast ``attrs.evolve`` for the frozen classes a game state is made of.

A decision builds about three new state objects; ``attrs.evolve`` looks the fields up and runs
the generated ``__init__`` each time, which was a third of the time of a random game. The
state's classes have no converters and no validators (what they hold is checked by the rules
that build it), so each class gets, the first time one of its objects is copied, a copy
function of its own, generated as attrs generates ``__init__``: one keyword argument per field,
each field taken from the changes or else from the object. Python matches the keywords; no dict
of changes is walked.

A frozen class refuses attribute stores, so attrs' ``__init__`` stores each field with
``object.__setattr__``, a call per field. The copy function instead builds the copy as an
object of the class's *draft*: a plain class with the very same slots, hence the same memory
layout, whose stores are the interpreter's fastest. Once every field is stored, the object is
given its class (``__class__`` assignment, which Python allows between classes of one layout),
and is frozen from then on: a copy costs half of what storing through the slots' descriptors
costs, and a third of ``attrs.evolve``. A class whose layout no draft can share (one with a
``__weakref__`` slot, or whose base refuses stores) is copied through its slots' descriptors;
one without slots, or with a ``__attrs_post_init__``, through its ``__init__``.

A class may keep rarely changed fields in a part of its own (``__evolve_parts__`` maps the
fields holding them to their classes, as :class:`~ethnos_rules.GameState` keeps its cold fields in a
:class:`~ethnos_rules._rules.state.ColdState`): a change to one of them copies that part too.

The code generated here is registered in :mod:`linecache` under a file name of its own (as attrs
registers its ``__init__``), so a traceback through it shows its lines. :func:`typed_copier` and
:func:`maker` are typed from the class's own signature (a ``ParamSpec``): a wrong field name or
type is an error for mypy, as it is for the class itself.

Old pickles: :func:`defaults_when_unpickled` gives a class an ``__setstate__`` that fills a
field missing from an object pickled before the field existed with its default, one mechanism
for every class that gains a field.
"""

from __future__ import annotations

import itertools
import linecache
import types
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import attrs

T = TypeVar("T")
P = ParamSpec("P")


class _Unchanged:
    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED: Any = _Unchanged()
"""The default of each argument of a copy function: the field is not changed. A function that
passes some changes on to a copy takes them with this default, rather than as ``**changes``
(which costs Python a dict at every call and another at every call it forwards them to)."""
_SAME = UNCHANGED

_COPIERS: dict[type, Callable[..., Any]] = {}


def evolve(inst: T, **changes: Any) -> T:
    """A copy of ``inst`` with ``changes``, equal to ``attrs.evolve(inst, **changes)`` (and to
    building it anew); the parts not changed are shared.

    Raises:
        TypeError: for a change that names no field, or a class attrs must build itself.
    """
    result: T = copier(type(inst))(inst, **changes)
    return result


def copier(cls: type[T]) -> Callable[..., T]:
    """The copy function of ``cls``: ``copier(cls)(inst, **changes)`` is ``evolve(inst,
    **changes)``. A module that copies one class all the time keeps its copier, which saves
    looking it up and passing the changes on once more at every copy.

    Raises:
        TypeError: for a class attrs must build itself.
    """
    made = _COPIERS.get(cls)
    if made is None:
        made = _COPIERS[cls] = _copier(cls)
    return made


def typed_copier(cls: Callable[P, T]) -> Callable[Concatenate[T, P], T]:
    """:func:`copier` of a class whose ``__init__`` takes each field by its name, with a
    default: the copy then takes what ``cls(...)`` takes, after the object copied, and a type
    checker checks each change's name and type as it checks ``cls(...)``. (A class with
    fields that must be given, as :class:`~ethnos_rules.GameState`, declares its copy's
    signature where it keeps the copy.)

    Raises:
        TypeError: for a class whose ``__init__`` does not take every field so.
    """
    kind = cast(type, cls)
    if any(
        not f.init or f.alias != f.name or f.default is attrs.NOTHING for f in attrs.fields(kind)
    ):
        raise TypeError(f"{kind.__name__}(...) does not take every field by name with a default")
    return cast(Callable[Concatenate[T, P], T], copier(kind))


def _copier(cls: type) -> Callable[..., Any]:
    """Generate the copy function of ``cls``, after checking that the class can be copied
    without attrs."""
    fields = attrs.fields(cast(Any, cls))
    if any(f.converter is not None or f.validator is not None for f in fields):
        raise TypeError(f"{cls.__name__} converts or validates its fields: use attrs.evolve")
    part_classes: dict[str, type] = getattr(cls, "__evolve_parts__", {})
    parts = tuple(part_classes)
    routes = {name: part for part, kind in part_classes.items() for name in attrs.fields_dict(kind)}
    scope = {
        "_SAME": _SAME,
        "_new": object.__new__,
        "cls": cls,
        "_init": getattr(cls, "__attrs_init__", None) or cast(Any, cls).__init__,
        "_route": lambda inst, routed, given: _route(inst, routed, parts, given, routes),
    }
    names = [f.name for f in fields]
    setters = slot_setters(cls, names)
    scope.update({f"_set_{name}": store for name, store in (setters or {}).items()})
    draft = _draft(cls) if setters else None
    scope["_draft"] = draft
    how = "draft" if draft is not None else "slots" if setters else "init"
    made = _compile(_source(names, parts, how), "copy", cls, scope)
    made.__qualname__ = f"copy_{cls.__name__}"
    return made


def maker(cls: Callable[P, T]) -> Callable[P, T]:
    """A constructor of ``cls`` that stores each field in its slot: ``maker(cls)(*args)``
    equals ``cls(*args)`` (all fields, in order, no defaults). The ``__init__`` attrs generates
    for a frozen class calls ``object.__setattr__`` once per field; an object the rules or the
    replay build at every decision is built here as a copy is, through the class's draft (or
    through its slots' descriptors where no draft shares its layout), for a half or a third.

    For a type checker it takes what ``cls(...)`` takes.

    Raises:
        TypeError: for a class attrs must build itself, or one with defaults.
    """
    kind = cast(type, cls)
    fields = attrs.fields(kind)
    if any(f.default is not attrs.NOTHING for f in fields):
        raise TypeError(f"{kind.__name__} has defaults: build it with its __init__")
    names = [f.name for f in fields]
    setters = slot_setters(kind, names)
    if setters is None or any(f.converter or f.validator or f.alias != f.name for f in fields):
        raise TypeError(f"{kind.__name__} must be built by its __init__")
    draft = _draft(kind)
    if draft is not None:
        build = ["    new = _new(_draft)", *(f"    new.{n} = {n}" for n in names)]
        build.append("    new.__class__ = cls")
    else:
        build = ["    new = _new(cls)", *(f"    _set_{n}(new, {n})" for n in names)]
    lines = [f"def make({', '.join(names)}):", *build, "    return new"]
    scope: dict[str, Any] = {"_new": object.__new__, "cls": cls, "_draft": draft}
    scope.update({f"_set_{name}": store for name, store in setters.items()})
    made = _compile("\n".join(lines), "make", kind, scope)
    made.__qualname__ = f"make_{kind.__name__}"
    return cast(Callable[P, T], made)


_SOURCES = itertools.count(1)


def _compile(source: str, name: str, cls: type, scope: dict[str, Any]) -> Callable[..., Any]:
    """The function ``name`` that ``source`` (built from field names only) defines for ``cls``,
    its text registered in :mod:`linecache` under a file name of its own, so that a traceback
    through it shows its lines (as attrs does for the methods it generates)."""
    filename = f"<frozen generated {name} {cls.__module__}.{cls.__qualname__} #{next(_SOURCES)}>"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)  # no mtime: kept
    exec(compile(source, filename, "exec"), scope)
    return cast(Callable[..., Any], scope[name])


def slot_setters(cls: type, names: list[str]) -> dict[str, Callable[[Any, Any], None]] | None:
    """The function storing each field in its slot, by field name (a frozen class guards
    its ``__setattr__``, not its slots), or None when an object must go through ``__init__``: a
    field without a slot, or a ``__attrs_post_init__``. Code that builds very many objects of
    a class whose fields it knows are valid (the bands of a hand) stores them so."""
    slots = [getattr(cls, name, None) for name in names]
    if hasattr(cls, "__attrs_post_init__"):
        return None
    if not all(isinstance(slot, types.MemberDescriptorType) for slot in slots):
        return None
    pairs = zip(names, slots, strict=True)
    return {name: cast(Any, slot).__set__ for name, slot in pairs}


def _draft(cls: type) -> type | None:
    """A mutable class with the slots, and so the memory layout, of ``cls``, if Python lets an
    object of it become a ``cls`` (``__class__`` assignment); else None."""
    base = cls.__base__
    stores: object = getattr(base, "__setattr__", None)
    if base is None or stores is not object.__setattr__:  # a frozen base refuses stores
        return None
    slots = cls.__dict__["__slots__"]
    draft = type(
        f"{cls.__name__}Draft", (base,), {"__slots__": slots, "__module__": cls.__module__}
    )
    probe: Any = object.__new__(draft)
    try:
        probe.__class__ = cls
    except TypeError:  # another layout: a __weakref__ slot, or slots the base holds
        return None
    return draft


def _source(names: list[str], parts: tuple[str, ...], how: str) -> str:
    """The code of a copy function: an argument per field (and, for a class with parts, the
    fields of its parts, gathered in ``routed``), each stored in the slot of a draft then given
    the class (``how="draft"``), stored through the slot's descriptor (``"slots"``), or all
    handed to ``__init__`` (``"init"``). The arguments are not keyword-only: Python fills
    missing keyword-only arguments from a dict, one lookup each, and the others from a tuple."""
    held = "".join(f"{p}, " for p in parts)  # e.g. "cold, "
    values = [f"inst.{n} if {n} is _SAME else {n}" for n in names]
    pairs = zip(names, values, strict=True)
    if how == "draft":
        build = ["    new = _new(_draft)", *(f"    new.{n} = {value}" for n, value in pairs)]
        build.append("    new.__class__ = cls")
    elif how == "slots":
        build = ["    new = _new(cls)", *(f"    _set_{n}(new, {value})" for n, value in pairs)]
    else:
        build = ["    new = _new(cls)", f"    _init(new, {', '.join(values)})"]
    lines = [
        f"def copy(inst, {', '.join(f'{n}=_SAME' for n in names)}"
        + (", **routed):" if parts else "):"),  # without parts, Python refuses other names
        *(["    if routed:", f"        {held}= _route(inst, routed, ({held}))"] if parts else []),
        *build,
        "    return new",
    ]
    return "\n".join(lines)


def _route(
    inst: object,
    routed: dict[str, Any],
    parts: tuple[str, ...],
    given: tuple[Any, ...],
    routes: dict[str, str],
) -> tuple[Any, ...]:
    """The parts of ``inst`` (or those ``given``) with the changes ``routed`` to their fields
    made, in the order of ``parts``."""
    out = dict(zip(parts, given, strict=True))
    changes: dict[str, dict[str, Any]] = {}
    for name, value in routed.items():
        if name not in routes:
            raise TypeError(f"{type(inst).__name__} has no field {name!r}")
        changes.setdefault(routes[name], {})[name] = value
    for part, sub in changes.items():
        held = getattr(inst, part) if out[part] is _SAME else out[part]
        out[part] = evolve(held, **sub)
    return tuple(out[part] for part in parts)


def defaults_when_unpickled(cls: type[T]) -> type[T]:
    """Give the attrs class ``cls`` an ``__setstate__`` that fills each field an old pickle
    lacks (it was pickled before the field existed) with the field's default: a new field
    with a default needs nothing more for old pickles to load. A missing field without a
    default is refused, naming it. Use it as a decorator above ``attrs.frozen``.

    >>> @defaults_when_unpickled
    ... @attrs.frozen
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> old = object.__new__(Point)
    >>> old.__setstate__({"x": 3})  # as pickle loads one pickled when Point had no y
    >>> old
    Point(x=3, y=0)
    """

    def __setstate__(self: Any, state: dict[str, Any] | tuple[Any, ...]) -> None:
        restore_fields(self, state)

    __setstate__.__qualname__ = f"{cls.__qualname__}.__setstate__"
    cast(Any, cls).__setstate__ = __setstate__
    return cls


def restore_fields(inst: object, state: dict[str, Any] | tuple[Any, ...]) -> None:
    """Store each field of the attrs object ``inst`` from the pickled ``state`` (a dict by
    name, or attrs' older tuple in field order), the default of each field ``state`` lacks:
    what :func:`defaults_when_unpickled` installs, for a class whose own ``__setstate__``
    first migrates an older layout.

    Raises:
        TypeError: for a missing field without a default, naming it.
    """
    fields = attrs.fields(cast(Any, type(inst)))
    if isinstance(state, tuple):
        state = {f.name: value for f, value in zip(fields, state, strict=False)}
    for field in fields:
        if field.name in state:
            value = state[field.name]
        elif isinstance(field.default, cast(type, attrs.Factory)):
            factory = cast(Any, field.default)
            value = factory.factory(inst) if factory.takes_self else factory.factory()
        elif field.default is not attrs.NOTHING:
            value = field.default
        else:
            raise TypeError(f"a pickled {type(inst).__name__} without its field {field.name!r}")
        object.__setattr__(inst, field.name, value)
