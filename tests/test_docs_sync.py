"""Docs (issue 4): the quickstart page and the README open with the same example."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = "## Quick example"


def quick_example(path: Path) -> str:
    """The first fenced code block after the ``## Quick example`` heading of ``path``."""
    text = path.read_text(encoding="utf-8")
    assert HEADING in text, f"{path.name} has no '{HEADING}' section"
    section = text.split(HEADING, 1)[1]
    match = re.search(r"^```[^\n]*\n(.*?)^```", section, re.DOTALL | re.MULTILINE)
    assert match is not None, f"{path.name}: no code block after '{HEADING}'"
    return match.group(1)


def test_quickstart_snippet_equals_readme() -> None:
    """The quickstart's example is character for character the README's."""
    readme = quick_example(ROOT / "README.md")
    quickstart = quick_example(ROOT / "docs" / "guide" / "01-quickstart.md")
    assert ">>>" in readme
    assert quickstart == readme


def test_quick_example_finds_the_first_block(tmp_path: Path) -> None:
    """The extractor reads the block under the heading, not an earlier or a later one."""
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n>>> 0\n0\n```\n## Quick example\ntext\n```python\n>>> 1\n1\n\n```\n"
        "```python\n>>> 2\n```\n",
        encoding="utf-8",
    )
    assert quick_example(page) == ">>> 1\n1\n\n"
