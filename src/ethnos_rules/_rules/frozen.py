"""A fast ``attrs.evolve`` for the frozen classes a game state is made of.

A decision builds several new state objects; ``attrs.evolve`` looks the fields up and runs the
generated ``__init__`` each time, which was a third of the time of a random game. The state's
classes have no converters and no validators (what they hold is checked by the rules that build
it), so the values of the fields, changed, handed to the ``__init__`` attrs generated (its
straight-line code, without the lookups of ``attrs.evolve``) build the same object.

A class may keep rarely changed fields in a part of its own (``__evolve_parts__`` names the
fields holding them, as :class:`~ethnos_rules.GameState` keeps its cold fields in a
:class:`~ethnos_rules._rules.state.ColdState`): a change to one of them copies that part too.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, cast

import attrs

T = TypeVar("T")


@attrs.frozen
class _Layout:
    index: dict[str, int]
    """Each field's place in the attrs-generated ``__init__``."""
    get: attrgetter[Any]
    init: Callable[..., None]
    """The attrs-generated ``__init__`` (``__attrs_init__`` for a class with its own)."""
    routes: dict[str, str]
    """Each field of a part, by name, to the field that holds the part."""


_LAYOUTS: dict[type, _Layout] = {}


def _layout(inst: object) -> _Layout:
    """How to copy objects of the class of ``inst``, checked to be copyable without attrs."""
    cls = type(inst)
    fields = attrs.fields(cast(Any, cls))
    if any(f.converter is not None or f.validator is not None for f in fields):
        raise TypeError(f"{cls.__name__} converts or validates its fields: use attrs.evolve")
    if len(fields) < 2:
        raise TypeError(f"{cls.__name__} has fewer than two fields: build it anew")
    names = tuple(f.name for f in fields)
    init = getattr(cls, "__attrs_init__", None) or cls.__init__
    routes = {
        name: part
        for part in getattr(cls, "__evolve_parts__", ())
        for name in attrs.fields_dict(type(getattr(inst, part)))
    }
    index = {name: i for i, name in enumerate(names)}
    layout = _Layout(index, attrgetter(*names), init, routes)
    _LAYOUTS[cls] = layout
    return layout


def evolve(inst: T, **changes: Any) -> T:
    """A copy of ``inst`` with ``changes``, equal to ``attrs.evolve(inst, **changes)`` (and to
    building it anew); the parts not changed are shared.

    Raises:
        TypeError: for a change that names no field, or a class attrs must build itself.
    """
    cls = type(inst)
    layout = _LAYOUTS.get(cls) or _layout(inst)
    index = layout.index
    if not index.keys() >= changes.keys():
        changes = _routed(inst, layout, changes)
    values = list(layout.get(inst))
    for name, value in changes.items():
        values[index[name]] = value
    new = object.__new__(cls)
    layout.init(new, *values)  # attrs' straight-line __init__: faster than a loop of setattr
    return new


def _routed(inst: object, layout: _Layout, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` with those to the fields of a part replaced by a changed copy of it."""
    own: dict[str, Any] = {}
    parts: dict[str, dict[str, Any]] = {}
    for name, value in changes.items():
        if name in layout.index:
            own[name] = value
        elif name in layout.routes:
            parts.setdefault(layout.routes[name], {})[name] = value
        else:
            raise TypeError(f"{type(inst).__name__} has no field {name!r}")
    for part, sub in parts.items():
        own[part] = evolve(own.get(part, getattr(inst, part)), **sub)
    return own
