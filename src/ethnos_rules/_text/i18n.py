"""The referee's words in the players' languages: refusals, event sentences, decisions and the
pages' own words, through gettext message catalogues (issue 38).

The rules speak English, and each sentence they make keeps its template and values (a
:class:`~ethnos_rules._rules.said.Said`). :func:`translate` looks the template up in the
catalogue of a language, ``src/ethnos_rules/locales/<lang>/LC_MESSAGES/ethnos_rules.mo``, and
fills in the values, each word among them (a tribe's name, "the row") said in that language too.
Rule ids, the notation of actions and cards, and record files stay as they are.

The catalogues are read with the standard library's :mod:`gettext`; Babel extracts the messages
and compiles the catalogues (``make messages``), so nothing is needed to read them but Python.
English is the default and needs no catalogue. Adding a language is one folder: see
``src/ethnos_rules/locales/README.md``.

>>> from ethnos_rules import RulesError, apply, parse_action, position, translate
>>> state = position(3, ["DWA", "ELF", "GIA", "ORC", "SKE"], hands={0: "ORC-red DWA-blue"})
>>> try:
...     apply(state, parse_action("band *ORC-red DWA-blue"))
... except RulesError as err:
...     print(err.rule, err.reason)
...     print(translate(err, "es"))
...     print(translate(err, "uk"))
BAND-2 the non-Skeleton cards share neither a tribe nor a colour
las cartas que no son Esqueleto no comparten ni tribu ni color
карти, що не є скелетами, не мають спільного ні племені, ні кольору
"""

from __future__ import annotations

import functools
import gettext
import json
import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import IO, Any

from .._rules.decisions import PendingDecision
from .._rules.errors import RulesError
from .._rules.events import Event
from .._rules.said import Said, said, word

DOMAIN = "ethnos_rules"
"""The catalogues' name: ``locales/<lang>/LC_MESSAGES/ethnos_rules.mo``."""

LOCALES = Path(str(resources.files("ethnos_rules").joinpath("locales")))
"""The folder of the catalogues, one folder per language."""

ENGLISH = "en"


def _languages() -> dict[str, str]:
    """English, then each folder of :data:`LOCALES` with a compiled catalogue, by code, with
    the language's name in itself (its glossary's ``language_name``; else its code)."""
    found = {ENGLISH: "English"}
    for folder in sorted(LOCALES.iterdir()):
        if (folder / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file():
            glossary = folder / "glossary.toml"
            name = folder.name
            if glossary.is_file():
                with open(glossary, "rb") as f:
                    name = str(tomllib.load(f).get("language_name", name))
            found[folder.name] = name
    return found


LANGUAGE_NAMES: Mapping[str, str] = _languages()
"""Each language the referee speaks, by code, with its name in itself (the pages' selector):
English and each folder of ``locales/`` that holds a compiled catalogue, so that adding a
language is adding its folder (``locales/README.md``)."""

LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_NAMES)
"""The codes of the languages, English first."""


class LanguageError(ValueError):
    """A language code the referee has no catalogue for."""


def translate(message: RulesError | Event | PendingDecision | str, lang: str = ENGLISH) -> str:
    """What a person reads, in the language ``lang`` (``"es"``, ``"pt"``, ``"uk"``, ``"cs"`` or
    ``"en"``; a region such as ``"pt_BR"`` is read as its language).

    Args:
        message: A refusal (its :attr:`~ethnos_rules.RulesError.reason`), an event (its
            sentence), a pending decision (its text), or a sentence of the rules (a
            :class:`~ethnos_rules._rules.said.Said`); any other text is a message of the
            catalogue, returned as it is when the catalogue does not have it.
        lang: The language's code.

    Raises:
        LanguageError: ``lang`` is no language listed in :data:`LANGUAGES`.

    >>> from ethnos_rules import TribeChosen, card, translate
    >>> translate(TribeChosen(card("ELF-red").tribe), "pt")
    'Os Elfos são escolhidos ao acaso (SETUP-3).'
    """
    return say(sentence_of(message), lang)


def sentence_of(message: RulesError | Event | PendingDecision | str) -> str:
    """The English sentence of ``message``, a :class:`Said` wherever the rules marked it."""
    if isinstance(message, RulesError):
        return message.reason
    if isinstance(message, PendingDecision):
        return message.text
    if isinstance(message, Event):
        return type(message).__str__(message)  # the Said itself, not a copy of its text
    return message


def say(text: str, lang: str = ENGLISH, /, **params: Any) -> str:
    """``text`` in ``lang``: a :class:`Said` with its values (each said in ``lang``), or a
    message of the catalogue whose ``{name}`` fields ``params`` fill in."""
    if not isinstance(text, Said):
        text = said(text, **params) if params else word(text)
    catalogue = catalogue_of(language(lang))
    if text.plural is None:
        template = catalogue.gettext(text.template)
    else:
        template = catalogue.ngettext(text.template, text.plural, int(text.params["n"]))
    values = {k: say(v, lang) if isinstance(v, Said) else v for k, v in text.params.items()}
    return template.format(**values) if values or text.params else template


def language(lang: str) -> str:
    """The code of the language ``lang`` names: ``"pt"`` for ``"pt_BR"`` or ``"pt-BR.UTF-8"``.

    Raises:
        LanguageError: no language of :data:`LANGUAGES`.
    """
    code = re.split(r"[_.@-]", lang.strip(), maxsplit=1)[0].lower() if isinstance(lang, str) else ""
    if code not in LANGUAGE_NAMES:
        known = ", ".join(LANGUAGES)
        raise LanguageError(f"no catalogue for the language {lang!r} (one of {known})")
    return code


def chosen_language(wanted: Iterable[str | None], default: str = ENGLISH) -> str:
    """The first of ``wanted`` that the referee speaks (codes, locale names, an HTTP
    ``Accept-Language`` list's entries), else ``default``.

    >>> chosen_language(["fr_FR.UTF-8", "uk_UA"])
    'uk'
    """
    for each in wanted:
        for code in re.split(r"[:,]", each or ""):
            try:
                return language(code.split(";")[0])
            except LanguageError:
                continue
    return default


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment's locale, as gettext reads it: ``LANGUAGE`` (a list),
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English when none names a language spoken here."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value and value not in ("C", "POSIX"):
            return chosen_language([value])
    return ENGLISH


@functools.cache
def catalogue_of(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (English: none, every message is its own translation)."""
    if lang == ENGLISH:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALES, languages=[lang])


# --- words the rules take from data --------------------------------------------------------------

TERMS: tuple[str, ...] = (
    # the tribes of the first edition (COMP-2), plural
    "Centaurs",
    "Dwarves",
    "Elves",
    "Giants",
    "Halflings",
    "Merfolk",
    "Minotaurs",
    "Orcs",
    "Skeletons",
    "Trolls",
    "Wingfolk",
    "Wizards",
    # where an Age's Glory comes from (END-5, scoring.SOURCES)
    "kingdoms",
    "merfolk",
    "giant",
    "orcs",
    "bands",
    "this Age",
    # what setup's errors name by its type
    "colour",
    "kingdom",
)
"""Names the rules write from their data (the tribes, the sources of Glory), so not found in the
source by Babel:
the catalogue keeps them through :func:`terms_for_extraction`."""


def terms_for_extraction(
    fileobj: IO[bytes], keywords: Sequence[str], comment_tags: Sequence[str], options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor (``babel.cfg``) that gives :data:`TERMS`, whatever file it reads."""
    for term in TERMS:
        yield 1, "word", term, ["a name the rules take from their data"]


_MARKED = re.compile(r'_\("((?:[^"\\]|\\.)*)"\)')
"""A page's message: ``_("text")`` in its HTML or JavaScript."""


def marked_messages(
    fileobj: IO[bytes], keywords: Sequence[str], comment_tags: Sequence[str], options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor (``babel.cfg``) for the pages: each ``_("text")`` of a file."""
    text = fileobj.read().decode("utf-8")
    for found in _MARKED.finditer(text):
        yield text.count("\n", 0, found.start()) + 1, "_", _unescaped(found[1]), []


def _unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def page_in(text: str, lang: str, *, javascript: bool = False) -> str:
    """A page's file with each ``_("text")`` said in ``lang``: in a script (a JavaScript file,
    or a ``<script>`` of an HTML page) as a JavaScript string, else as the text itself (the
    page's HTML: a translation is the project's own, trusted as its HTML is).

    >>> page_in('<p>_("the rules")</p><script>say(_("the rules"))</script>', "es")
    '<p>las reglas</p><script>say("las reglas")</script>'
    """
    if javascript:
        return _MARKED.sub(lambda found: json.dumps(say(_unescaped(found[1]), lang)), text)
    pieces = re.split(r"(<script\b.*?</script>)", text, flags=re.DOTALL)
    return "".join(
        page_in(piece, lang, javascript=True)
        if piece.startswith("<script")
        else _MARKED.sub(lambda found: say(_unescaped(found[1]), lang), piece)
        for piece in pieces
    )


def localized(answer: Any, lang: str) -> Any:
    """``answer`` (a JSON value) with each marked sentence in it said in ``lang`` (in English
    as it is: a marked sentence is its English text)."""
    if lang == ENGLISH:
        return answer
    if isinstance(answer, Said):
        return say(answer, lang)
    if isinstance(answer, dict):
        return {key: localized(value, lang) for key, value in answer.items()}
    if isinstance(answer, list | tuple):
        return [localized(value, lang) for value in answer]
    return answer
