"""A light import (issue 36): ``import ethnos_rules`` loads the errors and the pictures' drawers;
every other public name is imported from its module when first asked for."""

from __future__ import annotations

import importlib
import subprocess
import sys

import ethnos_rules


def _run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_import_loads_neither_the_rest_of_the_rules_nor_records_nor_seat_views() -> None:
    """A new interpreter importing the package loads none of these modules."""
    heavy = [
        "cattrs",
        "jsonschema",
        "ethnos_rules._rules.events",
        "ethnos_rules._rules.engine",
        "ethnos_rules._io.records",
        "ethnos_rules._seat.seatview",
        "ethnos_rules._text.narration",
    ]
    code = f"import sys, ethnos_rules; print([m for m in {heavy!r} if m in sys.modules])"
    assert _run(code) == "[]"


def test_every_public_name_is_the_one_its_module_holds() -> None:
    """Each name of __all__ is found, and is the very object of the module it lives in."""
    homes = ethnos_rules._homes()
    for name in ethnos_rules.__all__:
        value = getattr(ethnos_rules, name)
        if name in homes:
            module = importlib.import_module(homes[name], "ethnos_rules")
            assert getattr(module, name) is value, name
    assert set(homes) <= set(ethnos_rules.__all__)
    assert set(ethnos_rules.__all__) <= set(dir(ethnos_rules))


def test_a_name_the_package_does_not_have_is_refused() -> None:
    """An unknown name is an AttributeError, as for any module."""
    try:
        getattr(ethnos_rules, "no_such_name")  # noqa: B009
    except AttributeError as err:
        assert "no_such_name" in str(err)
    else:
        raise AssertionError("an unknown name was found")


def test_a_state_draws_itself_when_only_the_rules_were_imported() -> None:
    """The pictures' drawers are in place as soon as any module of the package is imported, so a
    program importing the rules' modules alone still prints a state."""
    code = (
        "from ethnos_rules._rules.setup import new_game;"
        " import sys; text = str(new_game(2, tribes=['DWA','ELF','GIA','ORC','WIZ']));"
        " print(text.splitlines()[0])"
    )
    assert _run(code)


def test_errors_show_as_the_package_s_own_before_any_other_name_is_asked_for() -> None:
    """A refusal raised by the rules' modules is shown as ethnos_rules.<Error>."""
    code = (
        "from ethnos_rules._rules.setup import new_game\n"
        "try:\n    new_game(7)\nexcept Exception as err:\n"
        "    print(type(err).__module__, type(err).__name__)"
    )
    assert _run(code) == "ethnos_rules SetupError"
