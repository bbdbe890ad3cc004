"""The rule catalogue: every rule id of the spec, where the code cites it, which tests cite it.

One module serves two readers:

- the Sphinx extension (:func:`setup`) fills the page ``reference/rule-catalogue.md`` at build
  time, replacing the line :data:`MARKER` with the tables, so the page never goes stale;
- ``tests/test_rule_catalogue.py`` checks the same scan: every rule id is cited by a test, and
  nothing cites an id the spec does not have.

What counts as a citation: a rule id written in a string (docstrings included) or a comment of
a ``.py`` file — never a Python name, so the constant ``CHANCE`` is not a citation but
``"CHANCE"`` is. Short forms expand: ``TRIBE-MER-1/2`` cites TRIBE-MER-1 and TRIBE-MER-2,
``END-1..3`` cites END-1, END-2 and END-3. Wildcards (``SCORE-K-*``) cite nothing. A test cites
the ids written inside its function (decorators, docstring, body); module docstrings and helpers
of a test file cite nothing. Labels that are not spec ids (``NOTATION``, ``STATE``, ``OPTIONS``)
are outside the catalogue.

Only the standard library is used here, so the tests and mypy need nothing from Sphinx.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

SPEC = Path("docs/reference/rules-1e.md")
"""The vendored spec, relative to the repository root."""

PAGE = "reference/rule-catalogue"
"""The docname of the catalogue page."""

MARKER = "<!-- rule-catalogue -->"
"""The line of the page that the generated tables replace."""

SELF_TEST = "test_rule_catalogue.py"
"""The catalogue's own test: it names rule ids as data about the spec, not as rules it checks,
so it cites nothing."""

_RULE_LINE = re.compile(r"^- \*\*(?P<id>[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+[a-z]?)(?P<rest>.*)$")
_SECTION = re.compile(r"^## (?:\d+\.\s*)?(?P<name>.+?)\s+—\s+`(?P<id>[A-Z0-9-]+)`\s*$")
_TEXT_TOKENS = {"STRING", "COMMENT", "FSTRING_MIDDLE"}


# --- the spec -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One rule of the spec.

    Attributes:
        id: Its id, e.g. ``BAND-5a`` or ``CHANCE``.
        title: Its bold title, or the first sentence when it has none.
        section: The name of its spec section, e.g. ``Play a Band``.
        line: Its line in the spec (1-based).
    """

    id: str
    title: str
    section: str
    line: int


def _first_sentence(text: str, limit: int = 90) -> str:
    sentence = re.split(r"(?<=\.)\s", text.strip(), maxsplit=1)[0].rstrip(".")
    if len(sentence) <= limit:
        return sentence
    return sentence[:limit].rsplit(" ", 1)[0] + " …"


def parse_spec(text: str) -> list[Rule]:
    """Every rule of the spec text, in spec order.

    A rule is a list item opening with its bold id (``- **BAND-5 Kingdom placement.** ...``, or
    ``- **TURN-1** ...`` without a title). A section with an id (``## 11. Randomness —
    `CHANCE` ``) but no numbered rule is a rule of its own, titled by its heading.
    """
    rules: list[Rule] = []
    section = ""
    whole: Rule | None = None
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        heading = _SECTION.match(line)
        if heading:
            section = heading["name"]
            whole = Rule(heading["id"], section, section, number)
            rules.append(whole)
            continue
        match = _RULE_LINE.match(line)
        if not match:
            continue
        if whole is not None:
            rules.remove(whole)  # the section has numbered rules
            whole = None
        rest = match["rest"]
        if rest.startswith("**"):
            # ``- **TURN-1** On your turn ...``: no title; take the first sentence.
            body = [rest[2:]]
            for more in lines[number:]:
                if not more.startswith("  "):
                    break
                body.append(more.strip())
            title = _first_sentence(" ".join(body))
        else:
            title = rest.split("**", 1)[0].strip().rstrip(".")
        rules.append(Rule(match["id"], title, section, number))
    return rules


def id_pattern(rules: Iterable[Rule]) -> re.Pattern[str]:
    """A regex for rule ids written with the spec's prefixes, with ``/`` and ``..`` short forms.

    Groups: ``stem`` (``TRIBE-MER``), ``num``, ``letter``, ``more`` (``/2/3``), ``upto`` (the
    end of a ``..`` range), or ``word`` for a whole-section id such as ``CHANCE``.
    """
    prefixes = sorted({r.id.split("-")[0] for r in rules if "-" in r.id}, key=len, reverse=True)
    words = sorted({r.id for r in rules if "-" not in r.id}, key=len, reverse=True)
    numbered = (
        rf"(?P<stem>(?:{'|'.join(prefixes) or '(?!)'})(?:-[A-Z0-9]*[A-Z][A-Z0-9]*)*)"
        r"-(?P<num>\d+)(?P<letter>[a-z]?)(?P<more>(?:/\d+[a-z]?)*)(?:\.\.(?P<upto>\d+))?"
    )
    word = rf"(?P<word>{'|'.join(words) or '(?!)'})"
    return re.compile(rf"(?<![\w-])(?:{numbered}|{word})(?![\w-])")


def expand(match: re.Match[str]) -> list[str]:
    """The ids one match of :func:`id_pattern` cites."""
    if match["word"]:
        return [match["word"]]
    stem = match["stem"]
    ids = [f"{stem}-{match['num']}{match['letter']}"]
    ids += [f"{stem}-{part}" for part in match["more"].split("/") if part]
    if match["upto"]:
        ids += [f"{stem}-{n}" for n in range(int(match["num"]) + 1, int(match["upto"]) + 1)]
    return ids


# --- citations in Python files --------------------------------------------------------------


@dataclass(frozen=True)
class Citation:
    """A rule id written in a file.

    Attributes:
        rule: The id cited (it may not exist in the spec).
        path: The file, relative to the repository root.
        line: The line (1-based).
        test: The test function it is written in (``test_x.py::test_y``), if any.
    """

    rule: str
    path: str
    line: int
    test: str | None = None


def _text_tokens(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string and comment token; a string spanning lines gives each line."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if tokenize.tok_name[token.type] in _TEXT_TOKENS:
            for offset, text in enumerate(token.string.splitlines()):
                yield token.start[0] + offset, text


def _test_spans(source: str, filename: str) -> list[tuple[int, int, str]]:
    """(first line, last line, pytest id) of every test function, decorators included."""
    spans: list[tuple[int, int, str]] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"
            ):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                last = node.end_lineno or node.lineno
                spans.append((first, last, f"{filename}::{prefix}{node.name}"))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                visit(node.body, f"{prefix}{node.name}::")

    visit(ast.parse(source).body, "")
    return spans


def scan_file(path: Path, root: Path, pattern: re.Pattern[str], tests: bool) -> list[Citation]:
    """Every rule id cited in the strings and comments of one Python file, once per line.

    With ``tests``, each citation inside a test function names that test; citations elsewhere in
    a test file (module docstring, helpers) name none and count for no test.
    """
    source = path.read_text(encoding="utf-8")
    relative = path.relative_to(root).as_posix()
    spans = _test_spans(source, path.name) if tests else []
    out: dict[Citation, None] = {}
    for line, text in _text_tokens(source):
        test = next((name for first, last, name in spans if first <= line <= last), None)
        for match in pattern.finditer(text):
            out.update((Citation(rule, relative, line, test), None) for rule in expand(match))
    return list(out)


# --- the catalogue --------------------------------------------------------------------------


@dataclass
class Catalogue:
    """The spec's rules and every citation of them in ``src/`` and ``tests/``.

    Attributes:
        rules: The spec's rules, in order.
        src: Citations in the source code.
        tests: Citations in test files; those inside a test function name it.
    """

    rules: list[Rule]
    src: list[Citation] = field(default_factory=list)
    tests: list[Citation] = field(default_factory=list)

    @property
    def ids(self) -> set[str]:
        """Every rule id of the spec."""
        return {rule.id for rule in self.rules}

    def tests_citing(self, rule: str) -> list[str]:
        """The tests that cite ``rule``, in file order, each once."""
        return list(dict.fromkeys(c.test for c in self.tests if c.rule == rule and c.test))

    def code_citing(self, rule: str) -> dict[str, list[int]]:
        """The source files that cite ``rule``, with the lines."""
        out: dict[str, list[int]] = {}
        for c in self.src:
            if c.rule == rule and c.line not in out.setdefault(c.path, []):
                out[c.path].append(c.line)
        return out

    def untested(self) -> list[str]:
        """Rule ids no test cites, in spec order."""
        cited = {c.rule for c in self.tests if c.test}
        return [rule.id for rule in self.rules if rule.id not in cited]

    def unknown(self) -> list[Citation]:
        """Citations, in the code or the tests, of ids the spec does not have."""
        ids = self.ids
        return [c for c in [*self.src, *self.tests] if c.rule not in ids]


def scan(root: Path) -> Catalogue:
    """Read the spec under ``root`` and every ``.py`` file of ``root/src`` and ``root/tests``
    (except :data:`SELF_TEST`)."""
    rules = parse_spec((root / SPEC).read_text(encoding="utf-8"))
    pattern = id_pattern(rules)
    catalogue = Catalogue(rules)
    for path in sorted((root / "src").rglob("*.py")):
        catalogue.src += scan_file(path, root, pattern, tests=False)
    for path in sorted((root / "tests").rglob("test_*.py")):
        if path.name != SELF_TEST:
            catalogue.tests += scan_file(path, root, pattern, tests=True)
    return catalogue


# --- the page -------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _code_cell(where: dict[str, list[int]], limit: int = 6) -> str:
    parts = []
    for path, lines in where.items():
        shown = ", ".join(str(n) for n in lines[:limit]) + (", …" if len(lines) > limit else "")
        parts.append(f"`{path.removeprefix('src/ethnos_rules/')}` ({shown})")
    return "; ".join(parts) or "—"


def render(catalogue: Catalogue, spec_link: str = "rules-1e.md") -> str:
    """The catalogue as MyST Markdown: a summary, then one table per spec section; each rule
    id links to its own anchor on the spec page (``rules-1e.md#BAND-2``, an anchor the
    ``rule_links`` extension gives the page)."""
    untested = catalogue.untested()
    lines = [
        f"{len(catalogue.rules)} rule ids; {len(catalogue.rules) - len(untested)} cited by at "
        f"least one test; {len(catalogue.tests)} citations in tests and {len(catalogue.src)} in "
        "the source code.",
        "",
    ]
    if untested:
        lines += ["**Not yet cited by any test:** " + ", ".join(untested) + ".", ""]
    unknown = catalogue.unknown()
    if unknown:
        cited = ", ".join(f"{c.rule} (`{c.path}`:{c.line})" for c in unknown)
        lines += [f"**Cited but not in the spec:** {cited}.", ""]
    section = None
    for rule in catalogue.rules:
        if rule.section != section:
            section = rule.section
            lines += [
                "",
                f"## {section}",
                "",
                "| Rule | Title | Implemented in (`src/ethnos_rules/`, lines) | Tests |",
                "|---|---|---|---|",
            ]
        tests = catalogue.tests_citing(rule.id)
        tested = ", ".join(f"`{t}`" for t in tests) or "**none**"
        lines.append(
            f"| [{rule.id}]({spec_link}#{rule.id}) | {_cell(rule.title)} "
            f"| {_code_cell(catalogue.code_citing(rule.id))} | {tested} |"
        )
    return "\n".join(lines) + "\n"


# --- Sphinx ---------------------------------------------------------------------------------


def _fill_page(app: Sphinx, docname: str, source: list[str]) -> None:
    if docname != PAGE or MARKER not in source[0]:
        return
    root = Path(app.srcdir).parent
    source[0] = source[0].replace(MARKER, render(scan(root)))


def _always_outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    # The page depends on src/ and tests/, which Sphinx does not watch: read it on every build.
    return [PAGE] if PAGE in env.found_docs else []


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the extension: the catalogue page is filled in when Sphinx reads it."""
    app.connect("source-read", _fill_page)
    app.connect("env-get-outdated", _always_outdated)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
