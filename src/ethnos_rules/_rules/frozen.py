"""A fast ``attrs.evolve`` for the frozen, slotted classes a game state is made of.

A decision builds several new state objects; ``attrs.evolve`` looks the fields up and runs the
generated ``__init__`` each time, which was a third of the time of a random game. The state's
classes have no converters and no validators (what they hold is checked by the rules that build
it), so a copy of the slots with the changes set is the same object ``attrs.evolve`` builds.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

_SET = object.__setattr__
_LAYOUTS: dict[type, tuple[tuple[str, ...], attrgetter[Any]]] = {}


def _layout(cls: type) -> tuple[tuple[str, ...], attrgetter[Any]]:
    """The field names of ``cls`` and a getter of all of them, checked to be copyable."""
    fields = attrs.fields(cls)
    if any(f.converter is not None or f.validator is not None for f in fields):
        raise TypeError(f"{cls.__name__} converts or validates its fields: use attrs.evolve")
    if not hasattr(cls, "__slots__") or len(fields) < 2:
        raise TypeError(f"{cls.__name__} is not a slotted class of several fields")
    names = tuple(f.name for f in fields)
    layout = names, attrgetter(*names)
    _LAYOUTS[cls] = layout
    return layout


def evolve(inst: T, **changes: Any) -> T:
    """A copy of ``inst`` with ``changes``, equal to ``attrs.evolve(inst, **changes)``; the
    parts not changed are shared."""
    cls = type(inst)
    names, get = _LAYOUTS.get(cls) or _layout(cls)
    new = object.__new__(cls)
    for name, value in zip(names, get(inst), strict=True):
        _SET(new, name, value)
    for name, value in changes.items():  # a name that is no field has no slot: AttributeError
        _SET(new, name, value)
    return new
