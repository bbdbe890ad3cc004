"""The words a picture draws, in the language it is drawn in (issue 38).

A picture's words are marked sentences (:func:`~ethnos_rules._rules.said.said`), English as
they are. Drawn in another language (``svg.board(state, lang="uk")``), each is said in it by
the translator that the package puts in :data:`SPEAKERS` when it is imported (the catalogues
are read by a layer above the pictures, which this layer does not import), as the pictures put
their drawers in :data:`ethnos_rules._rules.state.DRAWERS`.

>>> from ethnos_rules._rules.said import said
>>> import ethnos_rules  # puts the translator in SPEAKERS
>>> with drawn_in("es"):
...     shown(said("seat {seat}", seat=2))
'el asiento 2'
>>> shown(said("seat {seat}", seat=2))
'seat 2'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .._rules.said import Said

ENGLISH = "en"

SPEAKERS: dict[str, Callable[[str], Callable[[str], str]]] = {}
"""``"say"``: for a language's code, the function that says a marked sentence in it (raising
``LanguageError`` for a language the referee does not speak); put here by :mod:`ethnos_rules`."""

_SAYING: ContextVar[Callable[[str], str] | None] = ContextVar("picture_words", default=None)


@contextmanager
def drawn_in(lang: str) -> Iterator[None]:
    """Draw in ``lang`` what is drawn within (English: the words as they are).

    Raises:
        LanguageError: ``lang`` is no language the referee speaks.
    """
    if lang == ENGLISH:
        saying = None
    elif "say" in SPEAKERS:
        saying = SPEAKERS["say"](lang)
    else:  # pragma: no cover - importing the pictures imports the package, which puts it
        raise LookupError("no translator: import ethnos_rules to draw in another language")
    token = _SAYING.set(saying)
    try:
        yield
    finally:
        _SAYING.reset(token)


def shown(text: str) -> str:
    """``text`` in the language being drawn in, where it is a marked sentence."""
    saying = _SAYING.get()
    if saying is None or not isinstance(text, Said):
        return text
    return saying(text)
