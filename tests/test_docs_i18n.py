"""The learner's pages in Spanish, Portuguese, Ukrainian and Czech are complete and say the same
things (issue 38).

The English messages are those Sphinx's gettext builder extracts from the docs today, so a
sentence added to a learner's page fails here until each language has it. The learner's
messages are those of "Ethnos in ten minutes", the index's lead and "Start here", the overview
of the rules by example and the "In plain words" part of each of its pages, the overview of the
tribes and each tribe page's lead, its ability in plain words (``LEARNER_PARTS``), with each of
those pages' title and the sidebar's captions. Each translation must keep the markup that is
not words: roles and their link targets, rule ids, inline code, link targets and placeholders;
and each game term of the glossary (``src/ethnos_rules/locales/<lang>/glossary.toml``) in an
English message must be said with one of the glossary's words for it.

A language is one folder, ``src/ethnos_rules/locales/<lang>/``: its translations of the docs are
there, in ``LC_MESSAGES/`` beside the referee's messages, one catalogue per part of the docs
(``index.po``, ``learn.po``, ``rules.po``, ``tribes.po``; ``gettext_compact`` in docs/conf.py).
"""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LOCALES = ROOT / "src" / "ethnos_rules" / "locales"
SEEDS = ROOT.parent / "shared" / "seeds"
# Each language folder (one with a glossary): a language added is held to these tests at once.
LANGUAGES = tuple(sorted(path.parent.name for path in LOCALES.glob("*/glossary.toml")))

# Each learner's page, with the sections (their headings) whose messages are the learner's;
# None is the whole page, "" the lead before the first section. A page's title, and the
# captions of its tables of contents (the sidebar of every page), are always included.
LEARNER_PARTS: dict[str, tuple[str, ...] | None] = {
    "learn/ten-minutes": None,
    "index": ("", "Learning the game? Start here"),
    "rules/00-overview": ("The pages", "How to read the pictures"),
    "rules/01-setup-and-ages": ("In plain words",),
    "rules/02-recruiting-and-dragons": ("In plain words",),
    "rules/03-bands-and-placement": ("In plain words",),
    "rules/04-two-and-three-players": ("In plain words",),
    "rules/05-end-of-age-and-scoring": ("In plain words",),
    "rules/06-end-of-game": ("In plain words",),
    "tribes/00-overview": None,
    **{f"tribes/{page.stem}": ("",) for page in sorted((DOCS / "tribes").glob("[01]*.md"))[1:]},
}


@dataclass(frozen=True)
class Learner:
    """An English message of a learner's page."""

    page: str
    line: int
    text: str


def learner_lines(page: str) -> set[int]:
    """The line numbers of ``page``'s source that are the learner's: the title and the
    sections of ``LEARNER_PARTS`` (each up to the next heading of its level or above)."""
    lines = (DOCS / f"{page}.md").read_text(encoding="utf-8").splitlines()
    wanted = LEARNER_PARTS[page]
    if wanted is None:
        return set(range(1, len(lines) + 1))
    chosen = {1}
    level = 6 if "" in wanted else 0  # the heading level of the section being taken, 0 when none
    in_fence = False
    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            in_fence = not in_fence
        heading = None if in_fence else re.match(r"(#+) (.*)", line)
        if heading:
            depth, title = len(heading.group(1)), heading.group(2).strip()
            if level and depth <= level and number > 1:
                level = 0
            if title in wanted:
                level = depth
        if level or line.startswith(("```{toctree}", ":caption:")):
            chosen.add(number)
    return chosen


def page_of(location: str, pot_dir: Path) -> str:
    """The page (``rules/01-setup-and-ages``) of a message's location, which Sphinx writes
    relative to the folder it wrote the template in (``../../rules/01-setup-and-ages.md``)."""
    source = Path(os.path.normpath(pot_dir / location))
    return source.relative_to(DOCS).with_suffix("").as_posix()


def part_of(page: str) -> str:
    """The part of the docs a page is in, which names its catalogue: ``index``, ``rules``..."""
    return page.partition("/")[0]


def learner_messages(pot_dir: Path) -> list[Learner]:
    """The learner's messages of the templates Sphinx's gettext builder wrote in ``pot_dir``,
    one for each part of the docs (``rules.pot``: the messages of every page of rules/)."""
    found = []
    for page in LEARNER_PARTS:
        wanted = learner_lines(page)
        with (pot_dir / f"{part_of(page)}.pot").open("rb") as pot:
            catalog = read_po(pot)
        for message in catalog:
            if not message.id:
                continue
            lines = [line for path, line in message.locations if page_of(path, pot_dir) == page]
            if any(line in wanted for line in lines):
                found.append(Learner(page, min(lines), str(message.id)))
    return found


PARTS = sorted({part_of(page) for page in LEARNER_PARTS})
"""The parts of the docs with learner's pages, each a catalogue in each language's folder."""


def catalogue(lang: str, part: str) -> Path:
    """Where the translations of a part of the docs into ``lang`` are: in the language's folder."""
    return LOCALES / lang / "LC_MESSAGES" / f"{part}.po"


def translations(lang: str, part: str) -> Catalog | None:
    """The catalogue of a part of the docs in ``lang``, or None when there is none."""
    if not catalogue(lang, part).exists():
        return None
    with catalogue(lang, part).open("rb") as po:
        return read_po(po)


# --- what a translation keeps ------------------------------------------------------------------

ROLE = re.compile(r"\{([\w:-]+)\}`([^`]*)`")
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
INLINE_CODE = re.compile(r"``?([^`]+)``?")
RULE_ID = re.compile(r"\b(?:[A-Z]{2,}-)+(?:[A-Z]+-)?\d+[a-z]?\b|\b[A-Z]{2,}-\*")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sd]|\{\w*\}(?!`)")


def role_target(body: str) -> str:
    """What a role points at: the target of ``text <target>``, or the body itself."""
    explicit = re.fullmatch(r"(?s).*<([^<>]+)>\s*", body)
    return explicit.group(1) if explicit else body


def kept_parts(text: str) -> Counter[str]:
    """The parts of a message a translation must keep as they are."""
    kept: Counter[str] = Counter()
    for role, body in ROLE.findall(text):
        target = role_target(body)
        # A role without an explicit target shows its page's title (translated there) or, for
        # the replay, its own words: only the role, and an explicit target, are kept.
        kept[f"role {role}" + (f" -> {target}" if target != body or role == "doc" else "")] += 1
    without_roles = ROLE.sub(" ", text)
    kept.update(f"link -> {target}" for target in LINK_TARGET.findall(without_roles))
    kept.update(f"code {code}" for code in INLINE_CODE.findall(without_roles))
    without_code = INLINE_CODE.sub(" ", without_roles)
    kept.update(f"rule {rule}" for rule in RULE_ID.findall(without_code))
    kept.update(f"placeholder {held}" for held in PLACEHOLDER.findall(without_code))
    return kept


def role_words(body: str) -> str:
    """The words a role shows itself: the text of ``text <target>``, or a body that is words
    (``{demo-replay}`watch a game```); a bare target shows its page's title, not its words."""
    if role_target(body) != body:
        return re.sub(r"<[^<>]*>\s*$", " ", body)
    return body if " " in body.strip() else " "


def words_of(text: str) -> str:
    """The words of a message, without its roles' targets, inline code, link targets and
    rule ids (``RECRUIT-4`` is not the word "recruit")."""
    text = ROLE.sub(lambda match: f" {role_words(match.group(2))} ", text)
    text = LINK_TARGET.sub("] ", text)
    return RULE_ID.sub(" ", INLINE_CODE.sub(" ", text))


# --- the glossary ------------------------------------------------------------------------------


def glossary(lang: str) -> dict[str, Any]:
    """The glossary of ``lang``."""
    return tomllib.loads((LOCALES / lang / "glossary.toml").read_text(encoding="utf-8"))


def has_word(text: str, form: str) -> bool:
    """Whether ``text`` has ``form`` as a whole word (English), any case."""
    return re.search(rf"(?<![\w-]){re.escape(form)}(?!\w)", text, re.IGNORECASE) is not None


def has_stem(text: str, form: str) -> bool:
    """Whether a word of ``text`` starts with ``form`` (a translation's word or stem), any case."""
    return re.search(rf"(?<!\w){re.escape(form)}", text, re.IGNORECASE) is not None


def term_mismatches(english: str, translated: str, terms: dict[str, Any]) -> Iterator[str]:
    """Each checked term of the glossary that ``english`` says and ``translated`` does not."""
    english_words, translated_words = words_of(english), words_of(translated)
    for key, term in terms.items():
        said = any(has_word(english_words, form) for form in term["en_forms"])
        kept = any(has_stem(translated_words, form) for form in term["forms"])
        if term["checked"] and said and not kept:
            yield f"{key} ({term['en']!r} -> one of {term['forms']})"


# --- the tests ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def messages(tmp_path_factory: pytest.TempPathFactory) -> list[Learner]:
    """The learner's messages of the docs as they are now (Sphinx's gettext builder).

    Only the learner's pages are read (a tenth of the time): the others are excluded, so the
    links to them are unknown documents, which changes no message."""
    out = tmp_path_factory.mktemp("gettext")
    others = [
        str(path.relative_to(DOCS).with_suffix(""))
        for path in [*DOCS.rglob("*.md"), *DOCS.rglob("*.rst")]
        if str(path.relative_to(DOCS).with_suffix("")) not in LEARNER_PARTS
        and "_build" not in path.parts
    ]
    excluded = ",".join(["_build", *(f"{page}.*" for page in others)])
    sphinx = [sys.executable, "-m", "sphinx", "--no-color", "-q", "-b", "gettext"]
    subprocess.run(
        [*sphinx, "-D", f"exclude_patterns={excluded}", str(DOCS), str(out)],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    found = learner_messages(out)
    assert len(found) > 100, "the learner's pages have hardly any messages: LEARNER_PARTS?"
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_learner_message_is_translated(messages: list[Learner], lang: str) -> None:
    missing = []
    catalogs = {part: translations(lang, part) for part in PARTS}
    for learner in messages:
        catalog = catalogs[part_of(learner.page)]
        message = catalog.get(learner.text) if catalog else None
        if not isinstance(message, Message) or not message.string or message.fuzzy:
            missing.append(f"{learner.page}.md:{learner.line}: {learner.text[:70]}")
    assert not missing, f"{len(missing)} messages without a {lang} translation:\n" + "\n".join(
        missing
    )


def translated_pairs(lang: str) -> Iterator[tuple[str, str, str]]:
    """Each (where, English, translation) of the docs' catalogues of ``lang``; where is the
    first page and line the message is on."""
    for part in PARTS:
        for message in translations(lang, part) or ():
            if message.id and message.string and not message.fuzzy:
                path, line = message.locations[0] if message.locations else ("?", 0)
                yield f"{path.lstrip('./')}:{line}", str(message.id), str(message.string)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_markup_rule_ids_and_code(lang: str) -> None:
    changed = []
    for page, english, translated in translated_pairs(lang):
        if kept_parts(english) != kept_parts(translated):
            lost = kept_parts(english) - kept_parts(translated)
            added = kept_parts(translated) - kept_parts(english)
            changed.append(f"{page}: {english[:60]!r}: lost {dict(lost)}, added {dict(added)}")
    assert not changed, "\n".join(changed)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_use_the_glossary_terms(lang: str) -> None:
    terms = glossary(lang)["terms"]
    wrong = []
    for page, english, translated in translated_pairs(lang):
        for mismatch in term_mismatches(english, translated, terms):
            wrong.append(f"{page}: {mismatch}: {translated[:80]!r}")
    assert not wrong, f"{len(wrong)} terms not as the {lang} glossary says:\n" + "\n".join(wrong)


def test_a_language_is_one_folder() -> None:
    """The docs read their catalogues from the languages' folders, and nothing of a language is
    kept beside the docs (``src/ethnos_rules/locales/README.md``)."""
    assert {"es", "pt", "uk", "cs"} <= set(LANGUAGES), LANGUAGES
    conf = runpy.run_path(str(DOCS / "conf.py"))
    assert [(DOCS / each).resolve() for each in conf["locale_dirs"]] == [LOCALES.resolve()]
    assert conf["gettext_compact"] is True, "a catalogue for each part of the docs"
    assert PARTS == ["index", "learn", "rules", "tribes"]
    for lang in LANGUAGES:
        held = {path.relative_to(LOCALES / lang).as_posix() for path in (LOCALES / lang).rglob("*")}
        wanted = {"glossary.toml", "LC_MESSAGES", "LC_MESSAGES/ethnos_rules.po"}
        wanted |= {"LC_MESSAGES/ethnos_rules.mo", *(f"LC_MESSAGES/{part}.po" for part in PARTS)}
        compiled = {f"LC_MESSAGES/{part}.mo" for part in PARTS}  # by a docs build, not committed
        assert wanted <= held <= wanted | compiled, (lang, held - wanted - compiled, wanted - held)
    beside_the_docs = [p for p in DOCS.rglob("*.po") if "_build" not in p.relative_to(DOCS).parts]
    assert not beside_the_docs


def test_the_glossaries_name_the_same_terms() -> None:
    keys = {lang: set(glossary(lang)["terms"]) for lang in LANGUAGES}
    assert all(each == keys["es"] for each in keys.values()), keys
    assert {"glory", "band", "leader", "kingdom", "age", "dwarves", "rhea", "red"} <= keys["es"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_glossary_term_is_quoted_from_its_seed_or_said_not_in_it(lang: str) -> None:
    found = glossary(lang)
    seed = SEEDS / Path(found["seed_file"]).name
    if not seed.exists():
        pytest.skip(f"the seed texts are not beside the repository ({SEEDS})")
    lines = seed.read_text(encoding="utf-8").splitlines()
    for key, term in found["terms"].items():
        assert term["forms"] and term["translation"], key
        if term.get("seed") == "not in seed":
            assert "seed_line" not in term, key
            continue
        line = " ".join(lines[term["seed_line"] - 1].split())
        assert " ".join(term["seed_quote"].split()) in line, (key, term["seed_line"])


# --- the checks check --------------------------------------------------------------------------


def test_kept_parts_see_a_dropped_role_rule_id_code_or_link() -> None:
    english = "Read {doc}`the rules <../rules/00-overview>` (BAND-5): `place none`, [I](#ties)."
    assert kept_parts(english) == kept_parts(
        "Lee {doc}`las reglas <../rules/00-overview>` (BAND-5): `place none`, [I](#ties)."
    )
    for broken in (
        "Lee las reglas (BAND-5): `place none`, [I](#ties).",
        "Lee {doc}`las reglas <../rules/01-setup>` (BAND-5): `place none`, [I](#ties).",
        "Lee {doc}`las reglas <../rules/00-overview>` (BAND-6): `place none`, [I](#ties).",
        "Lee {doc}`las reglas <../rules/00-overview>` (BAND-5): `colocar`, [I](#ties).",
        "Lee {doc}`las reglas <../rules/00-overview>` (BAND-5): `place none`, [I](#empates).",
        "Lee {doc}`las reglas <../rules/00-overview>` (BAND-5, END-4): `place none`, [I](#ties).",
    ):
        assert kept_parts(english) != kept_parts(broken), broken


def test_term_mismatches_see_a_term_said_otherwise() -> None:
    terms = glossary("es")["terms"]
    english = "A band of Dwarves scores at the end of the Age (END-4)."
    good = "Una banda de Enanos puntúa al final de la Edad (END-4)."
    assert list(term_mismatches(english, good, terms)) == []
    said_otherwise = "Un grupo de Enanos puntúa al final de la Era (END-4)."
    assert sorted(term_mismatches(english, said_otherwise, terms)) == [
        "age ('Age' -> one of ['edad'])",
        "band ('band' -> one of ['banda'])",
    ]
    # Inline code and link targets are not words: `band` names the action, not a band.
    assert list(term_mismatches("Play `band *DWA-red`.", "Juega `band *DWA-red`.", terms)) == []


def test_learner_lines_take_the_named_sections_and_the_title() -> None:
    lines = learner_lines("rules/03-bands-and-placement")
    source = (DOCS / "rules/03-bands-and-placement.md").read_text(encoding="utf-8").splitlines()
    assert 1 in lines and 3 in lines
    example = next(n for n, line in enumerate(source, 1) if line.startswith("## The rulebook"))
    assert example not in lines and example - 1 in lines
    index = learner_lines("index")
    source = (DOCS / "index.md").read_text(encoding="utf-8").splitlines()
    assert 3 in index, "the index's lead"
    using = next(n for n, line in enumerate(source, 1) if line == "## Using the library")
    assert using not in index and using + 2 not in index
    assert all(n in index for n, line in enumerate(source, 1) if line.startswith("```{toctree}"))
