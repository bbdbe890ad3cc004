"""Pickles made before the kernel's readers moved out of ``_rules`` (issue 36) still load: a
pickle names a class by its module, and each old module name imports as the new module."""

from __future__ import annotations

import importlib
import pickle

import pytest

import ethnos_rules
from ethnos_rules import Observation, new_game, observation


@pytest.mark.parametrize(("old", "new"), sorted(ethnos_rules._MOVED.items()))
def test_an_old_module_name_is_its_new_module(old: str, new: str) -> None:
    """Each moved module answers to its old name, as the very same module object."""
    assert importlib.import_module(old) is importlib.import_module(new)


def test_a_name_that_never_was_a_module_is_still_refused() -> None:
    """Only the moved modules are aliased: any other missing module stays missing."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ethnos_rules._rules.no_such_module")


def test_an_old_pickle_of_an_observation_loads() -> None:
    """A protocol-0 pickle (its text names the module) written with the old module's name."""
    seen = observation(new_game(2, tribes=["DWA", "ELF", "GIA", "MER", "WIZ"]), 0)
    assert isinstance(seen, Observation)
    new = pickle.dumps(seen, protocol=0)
    old = new.replace(b"ethnos_rules._seat.observation", b"ethnos_rules._rules.observation")
    assert old != new
    assert pickle.loads(old) == seen
