"""An import-linter contract that is an allow-list: each layer names exactly what it may import.

import-linter's own contracts forbid: a ``layers`` contract says what may not import what, a
``forbidden`` one lists packages a module may not use. Neither catches a layer that starts to
use a package nobody thought of forbidding (a probe of ``jinja2`` in the rules passed), nor a
module that belongs to no layer. This contract turns the question round. ``pyproject.toml``
declares it (``contract_types``) and gives it a table, layer by layer::

    [tool.importlinter.contracts.allow]
    "ethnos_rules._rules" = ["attrs", "frozendict"]
    "ethnos_rules._checks" = ["ethnos_rules._rules", "attrs"]

A layer is a package (with every module under it) or a single module; the root package's
layer is its ``__init__`` alone (the facade), as every other module belongs to a layer of its
own. What a layer may import is named by layer, by module or by third-party package; the
standard library is allowed everywhere. ``lint-imports`` (in ``make test``) then finds the
contract broken when

- a module imports something its layer does not name (whether at the top, in a function or
  for the type checker only),
- a layer names something it does not import (the list is exact, so it says what the layer
  needs, not what someone once thought it might),
- a module of the package belongs to no layer, or a layer names a module that does not exist,
- the layers' allowances form a circle (then they are not layers).

``tests/test_import_contracts.py`` plants such imports and sees each refused.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


class AllowTableField(fields.Field[dict[str, frozenset[str]]]):
    """A TOML table: layer name -> the list of what it may import."""

    def parse(self, raw_data: object) -> dict[str, frozenset[str]]:
        if not isinstance(raw_data, Mapping):
            raise fields.ValidationError("expected a table of layer = [what it may import]")
        table: dict[str, frozenset[str]] = {}
        for layer, allowed in raw_data.items():
            if not isinstance(allowed, list) or not all(isinstance(a, str) for a in allowed):
                raise fields.ValidationError(f"{layer}: expected a list of module names")
            if len(set(allowed)) != len(allowed):
                raise fields.ValidationError(f"{layer}: a name is listed twice")
            table[str(layer)] = frozenset(allowed)
        return table


class AllowListContract(Contract):
    """Each layer imports only the layers, modules and packages it names, and all of them.

    Configuration options:
        - allow: the table, layer -> what it may import (see the module's docstring).
        - standard_library: whether the standard library is allowed everywhere (default True).
    """

    type_name = "allow_list"

    allow = AllowTableField()
    standard_library = fields.BooleanField(required=False, default=True)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        table: dict[str, frozenset[str]] = self.allow  # type: ignore[assignment]
        stdlib = str(self.standard_library).lower() == "true"
        roots = _roots(self.session_options)
        layers = Layers(table, roots)
        problems = [*layers.missing(graph), *layers.circles()]
        used: dict[str, set[str]] = {layer: set() for layer in table}
        for module in sorted(m for m in graph.modules if _is_internal(m, roots)):
            layer = layers.of(module)
            if layer is None:
                problems.append(f"{module} belongs to no layer: add it to the allow table")
                continue
            for imported in sorted(graph.find_modules_directly_imported_by(module)):
                if layers.of(imported) == layer:
                    continue
                if stdlib and imported.split(".")[0] in sys.stdlib_module_names:
                    continue
                entry = layers.entry_for(layer, imported)
                if entry is None:
                    problems.append(_refusal(graph, module, imported, layer))
                else:
                    used[layer].add(entry)
        for layer, allowed in table.items():
            for entry in sorted(allowed - used[layer]):
                problems.append(f"{layer} may import {entry} but does not: take it off its list")
        return ContractCheck(kept=not problems, metadata={"problems": problems})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for problem in check.metadata["problems"]:
            output.print_error(f"- {problem}", bold=False)
        output.new_line()


class Layers:
    """The layers of an allow table, and which one a module belongs to."""

    def __init__(self, table: Mapping[str, frozenset[str]], roots: Iterable[str]) -> None:
        self.table = table
        self.roots = frozenset(roots)

    def of(self, module: str) -> str | None:
        """The most specific layer holding ``module``; a root package's layer holds only its
        ``__init__``."""
        best: str | None = None
        for layer in self.table:
            holds = module == layer or (module.startswith(layer + ".") and layer not in self.roots)
            if holds and (best is None or len(layer) > len(best)):
                best = layer
        return best

    def entry_for(self, layer: str, imported: str) -> str | None:
        """The entry of ``layer``'s list that allows importing ``imported``, if any: a layer
        allows its modules, another name itself and what is under it."""
        for entry in self.table[layer]:
            if entry in self.table:
                if self.of(imported) == entry:
                    return entry
            elif imported == entry or imported.startswith(entry + "."):
                return entry
        return None

    def missing(self, graph: ImportGraph) -> list[str]:
        """A layer or an internal entry that names no module of the graph."""
        names = [*self.table, *(e for a in self.table.values() for e in a)]
        return [
            f"{name} is named in the allow table but is no module"
            for name in sorted(set(names))
            if _is_internal(name, self.roots) and name not in graph.modules
        ]

    def circles(self) -> list[str]:
        """Each circle among the layers' allowances (layers allowed to import each other)."""
        edges = {
            layer: [e for e in sorted(a) if e in self.table] for layer, a in self.table.items()
        }
        found: list[str] = []
        state: dict[str, str] = {}

        def visit(layer: str, path: list[str]) -> None:
            state[layer] = "open"
            for nxt in edges[layer]:
                if state.get(nxt) == "open":
                    circle = [*path[path.index(nxt) :], nxt]
                    found.append("the layers allow a circle: " + " -> ".join(circle))
                elif nxt not in state:
                    visit(nxt, [*path, nxt])
            state[layer] = "done"

        for layer in sorted(edges):
            if layer not in state:
                visit(layer, [layer])
        return found


def _roots(session_options: Mapping[str, object]) -> list[str]:
    """The root packages import-linter was given (``root_package`` or ``root_packages``)."""
    if "root_packages" in session_options:
        return [str(r) for r in session_options["root_packages"]]  # type: ignore[attr-defined]
    return [str(session_options["root_package"])]


def _is_internal(module: str, roots: Iterable[str]) -> bool:
    return any(module == r or module.startswith(r + ".") for r in roots)


def _refusal(graph: ImportGraph, module: str, imported: str, layer: str) -> str:
    """The sentence for an import the layer does not allow, with the lines that make it."""
    details = graph.get_import_details(importer=module, imported=imported)
    lines = ", ".join(f"l.{d['line_number']}" for d in details)
    where = f" ({lines})" if lines else ""
    return f"{module} imports {imported}{where}, which {layer} does not list"
