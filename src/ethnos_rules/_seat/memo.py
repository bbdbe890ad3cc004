"""Remembering what was computed from a part of a state, by the part's identity.

A state shares every part a decision leaves unchanged with the state before it, so the same
hand, band list or player object comes back decision after decision. Hashing such a part
costs as much as the work saved; its identity costs nothing. The table keeps each key object
alive beside its value, so an identity is never mistaken for a newer object's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """``compute(key)``, remembered for each key object (by identity); at most ``size`` are
    kept, and the table starts afresh when full."""

    def __init__(self, compute: Callable[[K], V], size: int = 8192) -> None:
        self.compute, self.size = compute, size
        self.table: dict[int, tuple[K, V]] = {}

    def __call__(self, key: K) -> V:
        found = self.table.get(id(key))
        if found is not None and found[0] is key:
            return found[1]
        if len(self.table) >= self.size:
            self.table.clear()
        value = self.compute(key)
        self.table[id(key)] = (key, value)
        return value
