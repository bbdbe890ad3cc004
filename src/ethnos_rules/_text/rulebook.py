"""The rules text as a book with an address per rule: each rule's id, title and sentence, and
the anchor every reader links to (the docs' rules page, the play page, the HTML replay, the
command line).

The text is the copy of ``docs/reference/rules-1e.md`` carried in the package (a test keeps
the two equal). A rule's anchor is its id itself (``#BAND-2``); a section's is its id too
(``#BAND``); an id the text has no rule for (``TRIBE-ELF``, ``NOTATION``) falls back to its
section (``#TRIBE``), else to the page.

>>> from ethnos_rules._text.rulebook import anchor, mentions, rule
>>> rule("BAND-2").title, anchor("BAND-2"), anchor("TRIBE-ELF")
('Validity', 'BAND-2', 'TRIBE')
>>> rule("BAND-2").sentence  # doctest: +ELLIPSIS
'Every non-Skeleton card in the band has the same tribe, or every non-Skeleton card ...'
>>> [m.id for m in mentions("a band of 3 cards > 2 markers (BAND-5); see END-1..3")]
['BAND-5', 'END-1', 'END-3']
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
_SECTION = re.compile(r"^## (?:\d+\.\s*)?(.*?)\s*(?:—\s*)?`([A-Z]+)`\s*$")
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


@attrs.frozen
class Section:
    """One section of the text (``## 6. Play a Band — `BAND` ``).

    Attributes:
        id: The section id (``BAND``).
        title: Its heading's words (``Play a Band``).
        intro: Its first paragraph before its rules, as plain text on one line; "" if its
            rules come first (the whole of ``CHANCE``'s words are such paragraphs).
        rules: The ids of its rules, in the text's order (none for ``CHANCE``).
    """

    id: str
    title: str
    intro: str
    rules: tuple[str, ...]


@attrs.frozen
class Mention:
    """A rule id written in a text: ``text[start:end]`` names the rule (or section) ``id``.

    A short form is one mention per number written: ``TRIBE-MER-1/2`` mentions ``TRIBE-MER-1``
    (its first 11 characters) and ``TRIBE-MER-2`` (the ``2``); ``END-1..3`` mentions ``END-1``
    and ``END-3``. A wildcard (``SETUP-*``) mentions its stem (``SETUP``), whose anchor is the
    section's.
    """

    start: int
    end: int
    id: str


def rules_text() -> str:
    """The rules text (Markdown)."""
    return resources.files("ethnos_rules._text").joinpath(RULES_FILE).read_text("utf-8")


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).split())


class _Reader:
    """Reads the text line by line into rules and sections (see :func:`_book`)."""

    def __init__(self) -> None:
        self.rules: dict[str, Rule] = {}
        self.sections: dict[str, Section] = {}
        self.section: str | None = None  # the id of the section being read, if any
        self.rule: list[str] = []  # the lines of the rule being read
        self.intro: list[str] = []  # the section's first paragraph, while it is read
        self.intro_open = False

    def read(self, line: str) -> None:
        if _RULE.match(line):
            self.close_rule()
            self.close_intro()
            self.rule.append(line)
        elif self.rule and line.startswith("  ") and line.strip():
            self.rule.append(line.strip())
        elif (opened := _SECTION.match(line)) or line.startswith("## "):
            self.close_rule()
            self.close_intro()
            self.open_section(opened)
        else:
            self.close_rule()
            self.read_prose(line)

    def open_section(self, opened: re.Match[str] | None) -> None:
        self.section = opened[2] if opened else None
        if opened:
            self.sections[opened[2]] = Section(opened[2], _plain(opened[1]), "", ())
            self.intro_open = True

    def read_prose(self, line: str) -> None:
        if not self.intro_open:
            return
        if line.strip() and not line.startswith("- "):
            self.intro.append(line.strip())
        elif self.intro or line.startswith("- "):
            self.close_intro()

    def close_intro(self) -> None:
        if self.section is not None and self.intro:
            done = self.sections[self.section]
            self.sections[self.section] = attrs.evolve(done, intro=_plain(" ".join(self.intro)))
        self.intro.clear()
        self.intro_open = False

    def close_rule(self) -> None:
        if not self.rule:
            return
        head = _RULE.match(self.rule[0])
        assert head is not None  # only a rule's first line opens ``rule``
        ident, title, rest = head.groups()
        words = " ".join([rest, *self.rule[1:]])
        section = self.section or ""
        self.rules[ident] = Rule(ident, _plain(title).rstrip("."), _plain(words), section)
        if section:
            held = self.sections[section]
            self.sections[section] = attrs.evolve(held, rules=(*held.rules, ident))
        self.rule.clear()


@functools.cache
def _book() -> _Reader:
    reader = _Reader()
    for line in rules_text().splitlines():
        reader.read(line)
    reader.read("")
    return reader


def rules() -> Mapping[str, Rule]:
    """Every rule of the text by id, in the text's order."""
    return _book().rules


@functools.cache
def sections() -> frozenset[str]:
    """The section ids (``BAND``, ``TRIBE``)."""
    return frozenset(_book().sections)


def contents() -> Mapping[str, Section]:
    """Every section of the text by id, in the text's order."""
    return _book().sections


def section(section_id: str) -> Section:
    """The section ``section_id`` (``BAND``).

    >>> section("CHANCE").title, section("CHANCE").rules, section("BAND").rules[:2]
    ('Randomness', (), ('BAND-1', 'BAND-2'))

    Raises:
        KeyError: the text has no section of that id.
    """
    return _book().sections[section_id]


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
    stem = rule_id.split("-", 1)[0]
    return stem if stem in sections() else ""


def sentence(rule_id: str) -> str:
    """What ``rule_id`` says, for a tooltip: "BAND-2 Validity: Every …"; for a section, its
    title and first paragraph (or the rules it holds); for another id, the section to read.

    >>> sentence("BAND")
    'BAND Play a Band: the rules BAND-1 to BAND-8'
    >>> sentence("TRIBE-ELF"), sentence("NOTATION")
    ("TRIBE-ELF: see the rules' section Tribe abilities (TRIBE)", 'NOTATION: see the rules text')
    """
    found = rules().get(rule_id)
    if found is not None:
        title = f" {found.title}" if found.title else ""
        return f"{found.id}{title}: {found.sentence}"
    if rule_id in sections():
        part = section(rule_id)
        if not part.rules:
            return f"{part.id} {part.title}: {part.intro}"
        held = f"the rules {part.rules[0]} to {part.rules[-1]}"
        if not part.intro:
            return f"{part.id} {part.title}: {held}"
        return f"{part.id} {part.title} ({held}): {part.intro}"
    where = anchor(rule_id)
    if where:
        return f"{rule_id}: see the rules' section {section(where).title} ({where})"
    return f"{rule_id}: see the rules text"


@functools.cache
def _stems() -> frozenset[str]:
    """The sections and the starts of rule ids (``TRIBE``, ``TRIBE-MER``, ``SCORE-K``)."""
    stems = set(sections())
    for ident in rules():
        parts = ident.split("-")[:-1]
        stems.update("-".join(parts[: n + 1]) for n in range(len(parts)))
    return frozenset(stems)


def known(rule_id: str) -> bool:
    """Whether ``rule_id`` names a rule, a section or the start of rule ids (``TRIBE-MER``):
    what a :class:`Mention` names unless its number is none of the text's.

    >>> beyond = "BAND-%d" % 9  # a rule id written whole would be a citation of it
    >>> known("BAND-5a"), known("TRIBE-MER"), known(beyond), known("NOTATION")
    (True, True, False, False)
    """
    return rule_id in rules() or rule_id in _stems()


@functools.cache
def _mention_pattern() -> re.Pattern[str]:
    """Rule ids as written: a stem (a section, or a rule id's start such as ``TRIBE-MER``) with
    a number and short forms (``-1/2``, ``-1..3``), a wildcard (``-*``), or nothing."""
    alternatives = "|".join(sorted(_stems(), key=len, reverse=True))
    return re.compile(
        rf"(?<![\w.-])(?P<stem>{alternatives})"
        r"(?:-(?P<num>\d+[a-z]?)(?P<more>(?:/\d+[a-z]?)*)(?:(?:\.\.|…)(?P<upto>\d+[a-z]?))?"
        r"|-\*)?(?![\w-])"
    )


def mentions(text: str) -> list[Mention]:
    """The rule ids written in ``text``, in order (see :class:`Mention`). Ids are matched by
    their stems, so a number the text has no rule for is still a mention (its anchor is the
    section's, and :func:`known` tells that it is no rule); a word in capitals that
    is no section (``NOTATION``, ``DRAGON``) or is part of a name (``DecisionKind.TURN``) is
    not one.

    >>> text = "TRIBE-MER-1/2, SETUP-*"
    >>> [(m.id, text[m.start : m.end]) for m in mentions(text)]
    [('TRIBE-MER-1', 'TRIBE-MER-1'), ('TRIBE-MER-2', '2'), ('SETUP', 'SETUP-*')]
    """
    found: list[Mention] = []
    for match in _mention_pattern().finditer(text):
        stem = match["stem"]
        if match["num"] is None:
            found.append(Mention(match.start(), match.end(), stem))
            continue
        found.append(Mention(match.start(), match.end("num"), f"{stem}-{match['num']}"))
        for part in re.finditer(r"\d+[a-z]?", match["more"]):
            start = match.start("more") + part.start()
            found.append(Mention(start, start + len(part[0]), f"{stem}-{part[0]}"))
        if match["upto"] is not None:
            found.append(Mention(match.start("upto"), match.end(), f"{stem}-{match['upto']}"))
    return found


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
