"""The import contracts hold the layers: a planted import that a layer does not name is refused.

The allow-list contract (``scripts/import_contracts.py``) is checked on small graphs built here,
one problem at a time; then ``lint-imports`` runs on a copy of the package with an import
planted in it, as ``make test`` runs it on the package itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    from import_contracts import AllowListContract
finally:
    sys.path.remove(str(ROOT / "scripts"))

# A package in three layers: the rules, records above them, and a command line on top.
ALLOW = {
    "pkg._rules": ["attrs"],
    "pkg._io": ["pkg._rules", "cattrs"],
    "pkg.cli": ["pkg._io", "pkg._rules"],
    "pkg": ["pkg._rules"],
}
IMPORTS = [
    ("pkg._rules.turn", "pkg._rules.state"),
    ("pkg._rules.state", "attrs"),
    ("pkg._rules.state", "functools"),
    ("pkg._io.records", "pkg._rules.state"),
    ("pkg._io.records", "cattrs"),
    ("pkg.cli", "pkg._io.records"),
    ("pkg.cli", "pkg._rules.turn"),
    ("pkg", "pkg._rules.turn"),
]


def graph(*planted: tuple[str, str], modules: tuple[str, ...] = ()) -> grimp.ImportGraph:
    """The package's import graph, with ``planted`` imports (importer, imported) added."""
    g = grimp.ImportGraph()
    internal = ["pkg", "pkg._rules", "pkg._rules.turn", "pkg._rules.state", "pkg._io"]
    for module in [*internal, "pkg._io.records", "pkg.cli", *modules]:
        g.add_module(module)
    for importer, imported in [*IMPORTS, *planted]:
        if imported not in g.modules:
            g.add_module(imported, is_squashed=not imported.startswith("pkg"))
        g.add_import(importer=importer, imported=imported, line_number=7, line_contents="import")
    return g


def problems(g: grimp.ImportGraph, allow: dict[str, list[str]] | None = None) -> list[str]:
    contract = AllowListContract(
        name="layers",
        session_options={"root_package": "pkg"},
        contract_options={"allow": ALLOW if allow is None else allow},
    )
    check = contract.check(g, verbose=False)
    found: list[str] = check.metadata["problems"]
    assert check.kept == (not found)
    return found


def test_the_layers_as_declared_are_kept() -> None:
    assert problems(graph()) == []


def test_a_rules_module_importing_a_package_not_on_its_list_is_refused() -> None:
    assert problems(graph(("pkg._rules.turn", "jinja2"))) == [
        "pkg._rules.turn imports jinja2 (l.7), which pkg._rules does not list"
    ]


def test_a_package_allowed_to_another_layer_is_refused_to_the_rules() -> None:
    assert problems(graph(("pkg._rules.state", "cattrs"))) == [
        "pkg._rules.state imports cattrs (l.7), which pkg._rules does not list"
    ]


def test_an_import_upwards_is_refused() -> None:
    assert problems(graph(("pkg._rules.turn", "pkg.cli"))) == [
        "pkg._rules.turn imports pkg.cli (l.7), which pkg._rules does not list"
    ]


def test_the_facade_is_a_layer_of_its_own_not_of_every_module() -> None:
    """The root package's layer is its __init__: a layer that names another layer may not
    import the facade through it, and the facade may not import a layer it does not name."""
    assert problems(graph(("pkg._io.records", "pkg"), ("pkg", "pkg._io.records"))) == [
        "pkg imports pkg._io.records (l.7), which pkg does not list",
        "pkg._io.records imports pkg (l.7), which pkg._io does not list",
    ]


def test_a_module_in_no_layer_is_refused() -> None:
    assert problems(graph(modules=("pkg.newthing",))) == [
        "pkg.newthing belongs to no layer: add it to the allow table"
    ]


def test_an_allowance_not_used_is_refused() -> None:
    allow = {**ALLOW, "pkg._rules": ["attrs", "frozendict"]}
    assert problems(graph(), allow) == [
        "pkg._rules may import frozendict but does not: take it off its list"
    ]


def test_layers_allowed_to_import_each_other_are_refused() -> None:
    allow = {**ALLOW, "pkg._rules": ["attrs", "pkg._io"]}
    assert problems(graph(("pkg._rules.turn", "pkg._io.records")), allow) == [
        "the layers allow a circle: pkg._rules -> pkg._io -> pkg._rules"
    ]


def test_a_layer_that_is_no_module_is_refused() -> None:
    allow = {**ALLOW, "pkg._gone": ["pkg._rules"]}
    assert problems(graph(), allow) == [
        "pkg._gone is named in the allow table but is no module",
        "pkg._gone may import pkg._rules but does not: take it off its list",
    ]


# --- lint-imports on a copy of the package, as `make test` runs it ----------------------------


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The project's package, pyproject.toml and contract module, copied."""
    if "MUTANT_UNDER_TEST" in os.environ:  # mutmut's copy imports its own trampolines
        pytest.skip("under mutmut the package imports mutmut's helpers, which no layer lists")
    where = tmp_path_factory.mktemp("layers")
    shutil.copytree(
        ROOT / "src" / "ethnos_rules",
        where / "src" / "ethnos_rules",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (where / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "import_contracts.py", where / "scripts")
    shutil.copy(ROOT / "pyproject.toml", where)
    yield where


def lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).parent / "lint-imports"
    return subprocess.run(
        [str(command), "--no-cache"],
        cwd=project,
        env={"PYTHONPATH": str(project / "src"), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@contextmanager
def planted(copy: Path, module: str, line: str) -> Iterator[subprocess.CompletedProcess[str]]:
    """lint-imports with ``line`` added to ``module`` of the copy (then taken out again)."""
    path = copy / "src" / "ethnos_rules" / module
    text = path.read_text()
    path.write_text(text + f"\n{line}  # planted by a test\n")
    try:
        yield lint_imports(copy)
    finally:
        path.write_text(text)


def test_lint_imports_keeps_the_copy_as_it_is(copy: Path) -> None:
    result = lint_imports(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_lint_imports_refuses_a_rules_module_importing_jinja2(copy: Path) -> None:
    with planted(copy, "_rules/turn.py", "import jinja2") as result:
        assert result.returncode == 1
        assert "ethnos_rules._rules.turn imports jinja2" in " ".join(result.stdout.split())


def test_lint_imports_refuses_the_rules_importing_the_pictures(copy: Path) -> None:
    with planted(copy, "_rules/state.py", "from .. import svg") as result:
        assert result.returncode == 1
        assert "ethnos_rules._rules.state imports ethnos_rules.svg" in " ".join(
            result.stdout.split()
        )


def test_lint_imports_refuses_a_rules_module_importing_one_above_it(copy: Path) -> None:
    """Inside the rules, the state is below the engine: the order contract refuses it."""
    with planted(copy, "_rules/state.py", "from . import engine") as result:
        assert result.returncode == 1
        out = " ".join(result.stdout.split())
        assert "The rules' modules in order; the game loop is their one circle BROKEN" in out
        assert "ethnos_rules._rules.state -> ethnos_rules._rules.engine" in out


# --- the design page's map ------------------------------------------------------------------


def mapped_modules() -> set[str]:
    """The modules the map under "The layers" of the design page names, as paths in the package
    (``_rules/turn.py``, ``cli.py``; ``__init__.py`` for the facade)."""
    page = (ROOT / "docs" / "guide" / "03-design.md").read_text()
    block = page.split("## The layers", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    named, package = set(), ""
    for line in block.splitlines():
        words = line.split()
        if not words or not (words[0].endswith((".py", "/")) or words[0] == "ethnos_rules"):
            continue
        if not line.startswith("   "):  # a package, a top-level module or the facade
            package = words[0] if words[0].endswith("/") else ""
            named.add("__init__.py" if words[0] == "ethnos_rules" else words[0])
        else:
            named.add(package + words[0])
    return named


def test_the_design_page_maps_every_module() -> None:
    package = ROOT / "src" / "ethnos_rules"
    modules = {
        str(p.relative_to(package))
        if p.name != "__init__.py" or p.parent == package
        else str(p.parent.relative_to(package)) + "/"
        for p in package.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert mapped_modules() == modules
