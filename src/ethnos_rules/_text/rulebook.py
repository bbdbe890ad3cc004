"""The rules text as a book with an address per rule: each rule's id, title and sentence, and
the anchor every reader links to (the docs' rules page, the play page, the HTML replay, the
command line).

The text is the copy of ``docs/reference/rules-1e.md`` carried in the package (a test keeps
the two equal). A rule's anchor is its id itself (``#BAND-2``); an id the text has no rule for
(``TRIBE-ELF``, ``NOTATION``) falls back to its section (``#TRIBE``), else to the page.

>>> from ethnos_rules._text.rulebook import anchor, rule
>>> rule("BAND-2").title, anchor("BAND-2"), anchor("TRIBE-ELF")
('Validity', 'BAND-2', 'TRIBE')
>>> rule("BAND-2").sentence  # doctest: +ELLIPSIS
'Every non-Skeleton card in the band has the same tribe, or every non-Skeleton card ...'
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from importlib import resources

import attrs

RULES_FILE = "rules-1e.md"
"""The rules text carried in the package (a copy of ``docs/reference/rules-1e.md``)."""

RULES_PAGE = "reference/rules-1e.html"
"""Where the rules text is in the built docs, from the docs' root."""

DOCS = "https://ethnos-rules.readthedocs.io/en/latest/"
"""Where the docs are published; ``ETHNOS_RULES_DOCS`` in the environment names another root
(for instance ``file:///…/docs/_build/html/`` for a local build)."""

_RULE = re.compile(r"^- \*\*([A-Z][A-Za-z0-9-]*-[0-9][a-z0-9]*)\b(.*?)\*\*(.*)$")
_SECTION = re.compile(r"^## .*`([A-Z]+)`\s*$")
_MARKUP = re.compile(r"\*\*|`")


@attrs.frozen
class Rule:
    """One rule of the text.

    Attributes:
        id: The rule id (``BAND-2``).
        title: Its title in the text (``Validity``), or "" for an untitled rule.
        sentence: Its words as plain text, on one line (no Markdown).
        section: The id of its section (``BAND``).
    """

    id: str
    title: str
    sentence: str
    section: str


def rules_text() -> str:
    """The rules text (Markdown)."""
    return resources.files("ethnos_rules._text").joinpath(RULES_FILE).read_text("utf-8")


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).split())


@functools.cache
def rules() -> Mapping[str, Rule]:
    """Every rule of the text by id, in the text's order."""
    found: dict[str, Rule] = {}
    section = ""
    current: list[str] = []

    def close() -> None:
        if current:
            head = _RULE.match(current[0])
            assert head is not None  # only a rule's first line opens ``current``
            ident, title, rest = head.groups()
            words = " ".join([rest, *current[1:]])
            found[ident] = Rule(ident, _plain(title).rstrip("."), _plain(words), section)
            current.clear()

    for line in rules_text().splitlines():
        if _RULE.match(line):
            close()
            current.append(line)
        elif current and line.startswith("  ") and line.strip():
            current.append(line.strip())
        else:
            close()
            opened = _SECTION.match(line)
            section = opened.group(1) if opened else section
    close()
    return found


@functools.cache
def sections() -> frozenset[str]:
    """The section ids (``BAND``, ``TRIBE``)."""
    return frozenset(m.group(1) for m in map(_SECTION.match, rules_text().splitlines()) if m)


def rule(rule_id: str) -> Rule:
    """The rule ``rule_id``.

    Raises:
        KeyError: the text has no rule of that id.
    """
    return rules()[rule_id]


def anchor(rule_id: str) -> str:
    """The anchor of ``rule_id`` on the rules page: its own, else its section's, else ""."""
    if rule_id in rules() or rule_id in sections():
        return rule_id
    section = rule_id.split("-", 1)[0]
    return section if section in sections() else ""


def sentence(rule_id: str) -> str:
    """What ``rule_id`` says, for a tooltip: "BAND-2 Validity: Every …" (its section's name
    for an id without a rule of its own)."""
    found = rules().get(rule_id)
    if found is None:
        return f"{rule_id}: see the rules text"
    title = f" {found.title}" if found.title else ""
    return f"{found.id}{title}: {found.sentence}"


def docs_root() -> str:
    """The root of the published docs (``ETHNOS_RULES_DOCS`` overrides it), ending in "/"."""
    root = os.environ.get("ETHNOS_RULES_DOCS") or DOCS
    return root if root.endswith("/") else root + "/"


def address(rule_id: str, page: str | None = None) -> str:
    """The link to ``rule_id``: ``page`` (default: the rules page of the published docs) with
    the rule's anchor.

    >>> address("BAND-2", page="/rules")
    '/rules#BAND-2'
    """
    where = docs_root() + RULES_PAGE if page is None else page
    found = anchor(rule_id)
    return f"{where}#{found}" if found else where
