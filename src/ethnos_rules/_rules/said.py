"""Sentences that can be said again in another language: the English text the rules speak, which
keeps the template it was made from and the values put into it.

A refusal's reason, an event's sentence and a decision's description are each a :class:`Said`: a
``str`` (the English sentence, so every reader of the text is unchanged) that also holds its
``template`` (the message catalogue's key, with ``{name}`` fields) and its ``params``. A layer
above the rules (:func:`ethnos_rules.translate`) looks the template up in a language's catalogue
and fills in the values, translating those that are words themselves (a :class:`Said` too).

The rules know no language but English and import nothing for this; the templates are found in
the source by Babel (``said``, ``said_n`` and ``word`` are its keywords, ``babel.cfg``).

>>> reason = said("seat {seat} cannot play {cards}", seat=2, cards="ELF-red")
>>> reason
'seat 2 cannot play ELF-red'
>>> reason.template, dict(reason.params)
('seat {seat} cannot play {cards}', {'seat': 2, 'cards': 'ELF-red'})
>>> said_n("{n} card", "{n} cards", 3)
'3 cards'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


class Said(str):
    """An English sentence with the template and values it was made from.

    Attributes:
        template: The sentence with ``{name}`` fields (the catalogue's message id); for a plural
            message, its singular form.
        plural: The plural form of the template, or None when the sentence has one form.
        params: The values of the fields; ``n`` chooses the form of a plural message.
    """

    template: str
    plural: str | None
    params: Mapping[str, Any]

    def __new__(
        cls, text: str, template: str, params: Mapping[str, Any], plural: str | None = None
    ) -> Said:
        made = super().__new__(cls, text)
        made.template = template
        made.plural = plural
        made.params = params
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (Said, (str(self), self.template, dict(self.params), self.plural))


def said(template: str, /, **params: Any) -> Said:
    """``template`` with its ``{name}`` fields filled in by ``params`` (each written with
    ``str``), keeping both."""
    return Said(template.format(**params), template, params)


def said_n(singular: str, plural: str, n: int, /, **params: Any) -> Said:
    """The form of a message that agrees with the number ``n`` (a field ``{n}`` of both forms
    may show it): ``singular`` when ``n == 1`` in English, else ``plural``."""
    params = {"n": n, **params}
    return Said((singular if n == 1 else plural).format(**params), singular, params, plural)


def word(text: str) -> Said:
    """A word or name that another language says differently (``"Elves"``, ``"the row"``): a
    :class:`Said` without fields. The words a rule module names from data (tribe names) are
    listed for the catalogue by the layer that translates them."""
    return Said(text, text, {})


def seats_said(seats: Sequence[int], *, capital: bool = False) -> Said:
    """``seat 2``, ``seats 0 and 2``, ``seats 0, 1 and 3`` (``Seat``/``Seats`` with
    ``capital``)."""
    if len(seats) == 1:
        return said("Seat {seat}", seat=seats[0]) if capital else said("seat {seat}", seat=seats[0])
    head, last = ", ".join(str(s) for s in seats[:-1]), seats[-1]
    if capital:
        return said("Seats {seats} and {last}", seats=head, last=last)
    return said("seats {seats} and {last}", seats=head, last=last)


def and_said(words: Sequence[str]) -> str:
    """``Rhea``, ``Rhea and Duris``, ``Rhea, Duris and Ithys``."""
    if len(words) <= 1:
        return "".join(words)
    return said("{words} and {last}", words=", ".join(words[:-1]), last=words[-1])


def ordinal_said(n: int) -> Said:
    """``1st``, ``2nd``, ``3rd``, ``4th`` …"""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    if suffix == "st":
        return said("{n}st", n=n)
    if suffix == "nd":
        return said("{n}nd", n=n)
    if suffix == "rd":
        return said("{n}rd", n=n)
    return said("{n}th", n=n)


def cards_said(cards: Iterable[object]) -> str:
    """Cards as text separated by spaces, or ``nothing``."""
    return " ".join(map(str, cards)) or word("nothing")


def said_list(items: Sequence[str], sep: str = ", ") -> Said:
    """``items`` joined by ``sep``, each said in the reader's language where it is a
    :class:`Said` (the joined text itself is no message of the catalogue)."""
    names = [f"i{k}" for k in range(len(items))]
    template = sep.join("{" + name + "}" for name in names)
    return Said(sep.join(items), template, dict(zip(names, items, strict=True)))
