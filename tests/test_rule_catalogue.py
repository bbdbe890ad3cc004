"""The rule catalogue (issue 4): every rule id of the spec is cited by a test, and nothing cites
an id the spec does not have.

The scan is the one the docs page uses (``docs/_ext/rule_catalogue.py``). This file is left out
of the scan (``rc.SELF_TEST``): the rule ids it names are data about the spec, not rules it
tests. The tests of the scanner itself use a made-up spec with made-up ids.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docs._ext import rule_catalogue as rc  # noqa: E402


@pytest.fixture(scope="module")
def catalogue() -> rc.Catalogue:
    return rc.scan(ROOT)


def _where(citations: list[rc.Citation]) -> str:
    return "\n".join(f"  {c.rule} at {c.path}:{c.line}" for c in citations)


# --- the project's catalogue ------------------------------------------------------------------


def test_every_rule_of_the_spec_is_cited_by_a_test(catalogue: rc.Catalogue) -> None:
    """Catalogue: each rule id of the spec appears in at least one test function."""
    untested = catalogue.untested()
    assert not untested, f"rule ids cited by no test: {', '.join(untested)}"


def test_tests_cite_only_ids_of_the_spec(catalogue: rc.Catalogue) -> None:
    """Catalogue: no test file cites a rule id that the spec does not have."""
    ids = catalogue.ids
    unknown = [c for c in catalogue.tests if c.rule not in ids]
    assert not unknown, "tests cite ids that are not in the spec:\n" + _where(unknown)


def test_source_cites_only_ids_of_the_spec(catalogue: rc.Catalogue) -> None:
    """Catalogue: the code (docstrings, comments, error rule ids) cites only ids of the spec."""
    ids = catalogue.ids
    unknown = [c for c in catalogue.src if c.rule not in ids]
    assert not unknown, "src cites ids that are not in the spec:\n" + _where(unknown)


def test_spec_parsing_finds_every_rule(catalogue: rc.Catalogue) -> None:
    """Catalogue: the spec's 74 numbered rules plus the CHANCE section, each once, in order.

    Counted by hand in rules-1e.md: COMP 11, SETUP 6, AGE 6, TURN 3, RECRUIT 5, BAND 9 (with 5a),
    TRIBE 19, END 6, SCORE 6, GAME 3.
    """
    ids = [rule.id for rule in catalogue.rules]
    assert len(ids) == len(set(ids)) == 75
    counts: dict[str, int] = {}
    for rule_id in ids:
        counts[rule_id.split("-")[0]] = counts.get(rule_id.split("-")[0], 0) + 1
    assert counts == {
        "COMP": 11,
        "SETUP": 6,
        "AGE": 6,
        "TURN": 3,
        "RECRUIT": 5,
        "BAND": 9,
        "TRIBE": 19,
        "END": 6,
        "SCORE": 6,
        "GAME": 3,
        "CHANCE": 1,
    }
    assert ids[0] == "COMP-1" and ids[-1] == "CHANCE"
    assert ids.index("BAND-5a") == ids.index("BAND-5") + 1
    titles = {rule.id: rule.title for rule in catalogue.rules}
    assert titles["BAND-5a"] == "Placing is a choice"
    assert titles["SCORE-2P-1"] == "Two players, Age II (final)"
    assert titles["BAND-7"] == "Playing a band that places no marker is legal"
    assert titles["CHANCE"] == "Randomness"


def test_the_catalogue_test_cites_nothing(catalogue: rc.Catalogue) -> None:
    """Catalogue: the ids named in this file count for no rule."""
    assert Path(__file__).name == rc.SELF_TEST
    assert all(c.path != f"tests/{rc.SELF_TEST}" for c in catalogue.tests)


def test_rendered_page_lists_every_rule(catalogue: rc.Catalogue) -> None:
    """Catalogue: the generated Markdown has one table row per rule id, linked to its anchor in
    the spec."""
    text = rc.render(catalogue)
    rows = [line for line in text.splitlines() if line.startswith("| [")]
    assert [row.split("]")[0].removeprefix("| [") for row in rows] == [
        rule.id for rule in catalogue.rules
    ]
    assert all(f"](rules-1e.md#{row.split(']')[0].removeprefix('| [')})" in row for row in rows)


def test_the_docs_page_is_generated_by_the_extension() -> None:
    """Catalogue: conf.py loads the extension and the page carries the line it replaces."""
    conf: dict[str, Any] = {"__file__": str(ROOT / "docs" / "conf.py")}
    exec((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"), conf)
    assert "rule_catalogue" in conf["extensions"]
    page = (ROOT / "docs" / f"{rc.PAGE}.md").read_text(encoding="utf-8")
    assert rc.MARKER in page.splitlines()


# --- the scanner, on a made-up spec -------------------------------------------------------------

SPEC = """\
# A made-up spec

## 1. Zaps — `ZAP`

- **ZAP-1 First.** The first rule.
- **ZAP-2** An untitled rule. Its title is this first sentence.
  More text.
- **ZAP-5a Lettered.** A rule with a letter.
- **ZAP-Q-2 Grouped.** An id with a group.
- **ZAP-2P-1 Two players.** An id with a digit in its group.

## 2. Dice — `DICE`

Dice have no numbered rules; the section is a rule of its own.

## 3. At a glance

| not | rules |
"""


def test_parse_spec_titles_and_sections() -> None:
    """Catalogue scanner: bold titles, first sentences for untitled rules, whole sections."""
    rules = rc.parse_spec(SPEC)
    assert [(r.id, r.title, r.section) for r in rules] == [
        ("ZAP-1", "First", "Zaps"),
        ("ZAP-2", "An untitled rule", "Zaps"),
        ("ZAP-5a", "Lettered", "Zaps"),
        ("ZAP-Q-2", "Grouped", "Zaps"),
        ("ZAP-2P-1", "Two players", "Zaps"),
        ("DICE", "Dice", "Dice"),
    ]
    assert [r.line for r in rules] == [5, 6, 8, 9, 10, 12]


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("see ZAP-1.", ["ZAP-1"]),
        ("ZAP-5a: lettered", ["ZAP-5a"]),
        ("ZAP-Q-2 and ZAP-2P-1", ["ZAP-Q-2", "ZAP-2P-1"]),
        ("ZAP-1/2 short form", ["ZAP-1", "ZAP-2"]),
        ("ZAP-1..3 a range", ["ZAP-1", "ZAP-2", "ZAP-3"]),
        ("ZAP-9 does not exist", ["ZAP-9"]),
        ("ZAP-Q-* is a wildcard", []),
        ("ZAP-1x is not in the spec", ["ZAP-1x"]),
        ("XZAP-1, ZAP-1-2, UTF-8 and ZAP alone", []),
        ("DICE: a whole section", ["DICE"]),
        ("DICED or PARADICE", []),
    ],
)
def test_id_pattern(text: str, cited: list[str]) -> None:
    """Catalogue scanner: which ids a piece of text cites."""
    pattern = rc.id_pattern(rc.parse_spec(SPEC))
    assert [i for m in pattern.finditer(text) for i in rc.expand(m)] == cited


SOURCE = '''\
"""Module docstring: ZAP-1 (outside any test)."""

DICE = 1  # the name is not a citation, this comment is: ZAP-Q-2


def helper() -> str:
    return "ZAP-2"


@mark("ZAP-5a")
def test_one() -> None:
    """ZAP-1/2: the docstring."""
    assert DICE == 1  # ZAP-9 is unknown
    message = f"{DICE} DICE"


class TestGroup:
    def test_two(self) -> None:
        """DICE: in a class."""
'''


def test_scan_file_attributes_citations_to_tests(tmp_path: Path) -> None:
    """Catalogue scanner: strings and comments only, attributed to the enclosing test function."""
    pattern = rc.id_pattern(rc.parse_spec(SPEC))
    path = tmp_path / "test_sample.py"
    path.write_text(SOURCE, encoding="utf-8")
    found = [(c.rule, c.line, c.test) for c in rc.scan_file(path, tmp_path, pattern, tests=True)]
    assert found == [
        ("ZAP-1", 1, None),
        ("ZAP-Q-2", 3, None),
        ("ZAP-2", 7, None),
        ("ZAP-5a", 10, "test_sample.py::test_one"),
        ("ZAP-1", 12, "test_sample.py::test_one"),
        ("ZAP-2", 12, "test_sample.py::test_one"),
        ("ZAP-9", 13, "test_sample.py::test_one"),
        ("DICE", 14, "test_sample.py::test_one"),
        ("DICE", 19, "test_sample.py::TestGroup::test_two"),
    ]


def _project(tmp_path: Path, test_source: str) -> Path:
    (tmp_path / "docs" / "reference").mkdir(parents=True)
    (tmp_path / rc.SPEC).write_text(SPEC, encoding="utf-8")
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "mod.py").write_text(
        '"""Implements ZAP-1 and ZAP-7."""\n', encoding="utf-8"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(test_source, encoding="utf-8")
    return tmp_path


def test_catalogue_reports_untested_and_unknown_ids(tmp_path: Path) -> None:
    """Catalogue scanner: rules no test cites, and citations of ids the spec lacks."""
    root = _project(
        tmp_path,
        'NAMES = ["ZAP-8"]\n\n\ndef test_a() -> None:\n    """ZAP-1, ZAP-Q-2: a test."""\n',
    )
    catalogue = rc.scan(root)
    assert catalogue.untested() == ["ZAP-2", "ZAP-5a", "ZAP-2P-1", "DICE"]
    assert [(c.rule, c.path, c.line) for c in catalogue.unknown()] == [
        ("ZAP-7", "src/pkg/mod.py", 1),
        ("ZAP-8", "tests/test_a.py", 1),
    ]
    assert catalogue.tests_citing("ZAP-1") == ["test_a.py::test_a"]
    assert catalogue.code_citing("ZAP-1") == {"src/pkg/mod.py": [1]}
    text = rc.render(catalogue)
    assert "**Not yet cited by any test:** ZAP-2, ZAP-5a, ZAP-2P-1, DICE." in text
    assert (
        "| [ZAP-1](rules-1e.md#ZAP-1) | First | `src/pkg/mod.py` (1) | `test_a.py::test_a` |"
        in text
    )
    assert "| [ZAP-2](rules-1e.md#ZAP-2) | An untitled rule | — | **none** |" in text
    assert "**Cited but not in the spec:** ZAP-7 (`src/pkg/mod.py`:1)" in text


def test_sphinx_hook_fills_only_the_catalogue_page(tmp_path: Path) -> None:
    """Catalogue extension: the marker line of the catalogue page becomes the tables."""
    root = _project(tmp_path, 'def test_a() -> None:\n    """ZAP-1: a test."""\n')
    app = cast(Any, SimpleNamespace(srcdir=str(root / "docs")))
    source = [f"# Catalogue\n\n{rc.MARKER}\n"]
    rc._fill_page(app, rc.PAGE, source)
    assert rc.MARKER not in source[0]
    assert "| [ZAP-1](rules-1e.md#ZAP-1) | First |" in source[0]
    other = [f"# Other\n\n{rc.MARKER}\n"]
    rc._fill_page(app, "reference/other", other)
    assert other == [f"# Other\n\n{rc.MARKER}\n"]
