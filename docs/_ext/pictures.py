"""Pictures of the positions in the pages' examples, drawn at build time.

The pages build their positions in ``pycon`` examples, which run as doctests. This extension
runs the same examples, page by page and in order, and draws the positions each block built.
So the pictures are of exactly the positions the examples test, and cannot drift from them. A
picture is put right before its block (a reader sees the position first, then the code),
under its caption; a picture no comment asked for is folded.

**What is drawn.** On the rules and tribe pages, the quickstart and the gallery (``PAGES``),
every name bound by ``name = position(...)`` is drawn, the whole position. On every page, an
example whose statement ends with a ``# picture`` comment draws the name it binds (these are
the statements of ``>>>`` lines)::

    board = position(4, TRIBES, hands={0: "DWA-red"})  # picture
    placed = step(played.state, parse_action("place Duris"))  # picture seat=0
    recruited = step(board, parse_action("recruit DWA-purple"))  # picture hand=0
    played = step(state, parse_action("band *DWA-purple DWA-red"))  # picture band=0

The name may be bound to a :class:`~ethnos_rules.GameState` (drawn as it is) or to a
:class:`~ethnos_rules.Step`, the result of ``step(state, action)``: its ``state`` is drawn with
what the step's events say it changed framed and tagged (``changes=result.events``, see
:func:`ethnos_rules.svg.board`), and its events' sentences are listed under the picture. So a
page shows a position before a decision (the state) and after it (the step). The comment may
end the last line of a statement that spans several, and may say what to draw:

- nothing: the whole position, every hand shown;
- ``seat=N``: what seat N sees, the other hands face down; of a step, only the events seat N
  may see are marked and listed;
- ``hand=N``: seat N's hand alone, small (:func:`ethnos_rules.svg.hand`); of a step, the
  cards it just put into that hand are framed;
- ``band=N``: seat N's last band alone, small, its Leader first and marked
  (:func:`ethnos_rules.svg.band`); of a step that played it, framed as just played.

Every caption says what the picture shows: the name, the decision it is after (the text of
the step's ``parse_action("...")``), whose view, and what is framed. A ``# picture`` that
cannot be drawn (its example raised, its name is bound to something else, an option or seat
that is not one, a seat without a band) is a build warning, so ``-W`` stops the build.
"""

from __future__ import annotations

import contextlib
import doctest
import html
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util import logging

PAGES = ("rules/", "tribes/", "guide/01-quickstart", "guide/06-gallery")
"""The pages where every ``name = position(...)`` is drawn without a ``# picture`` comment."""

VIEWS = ("seat", "hand", "band")
"""What a ``# picture`` comment may ask for, as ``view=N``."""

LONG = 8
"""A step with more sentences than this lists them folded."""

_BOUND = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*position\(")
_NAME = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")
_MARK = re.compile(r"#\s*picture\b(?P<options>[^#\n]*)$")
_OPTION = re.compile(r"^(?P<view>\w+)=(?P<seat>\d+)$")
_ACTION = re.compile(r"""parse_action\(\s*(?P<quote>["'])(?P<text>.+?)(?P=quote)\s*\)""")
_ANY_MARK = re.compile(r"#\s*picture\b")

logger = logging.getLogger(__name__)


class PictureError(ValueError):
    """A ``# picture`` comment that cannot be drawn, and why."""


@dataclass(frozen=True)
class Mark:
    """What one example asks to draw.

    Attributes:
        name: The name whose value is drawn.
        view: ``"board"`` (the whole position), ``"seat"``, ``"hand"`` or ``"band"``.
        seat: The seat of a ``seat``, ``hand`` or ``band`` view.
        action: The text of the decision the example parses (``"place Duris"``), if any.
        marked: Whether a ``# picture`` comment asked for it (else it is a ``position(...)``).
    """

    name: str
    view: str = "board"
    seat: int | None = None
    action: str | None = None
    marked: bool = True


def mark_of(source: str) -> Mark | None:
    """What the example ``source`` asks to draw, if anything.

    >>> mark_of('placed = step(s, parse_action("place Duris"))  # picture seat=0\\n')
    Mark(name='placed', view='seat', seat=0, action='place Duris', marked=True)
    >>> mark_of('board = position(4, TRIBES)\\n')
    Mark(name='board', view='board', seat=None, action=None, marked=False)

    Raises:
        PictureError: the comment asks for something it cannot.
    """
    lines = source.rstrip("\n").splitlines() or [""]
    comment = _MARK.search(lines[-1])
    name = _NAME.match(source)
    if comment is None:
        bound = _BOUND.match(source)
        return Mark(bound.group(1), marked=False) if bound else None
    said = comment.group(0).strip()
    if name is None:
        raise PictureError(f"'{said}' ends an example that binds no name (write name = ...)")
    options = comment.group("options").split()
    if not options:
        return Mark(name.group(1), action=_action(source))
    option = _OPTION.match(options[0])
    if len(options) > 1 or option is None or option.group("view") not in VIEWS:
        raise PictureError(f"'{said}': after '# picture' comes nothing, seat=N, hand=N or band=N")
    return Mark(name.group(1), option.group("view"), int(option.group("seat")), _action(source))


def _action(source: str) -> str | None:
    found = _ACTION.search(source)
    return found.group("text") if found else None


# --- drawing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A picture and what it shows in words.

    Attributes:
        svg: The picture.
        caption: Its caption, as HTML.
        sentences: What the step did, one sentence per event shown (none for a state).
        small: Whether it is a hand or a band, drawn at its own size.
    """

    svg: str
    caption: str
    sentences: tuple[str, ...] = ()
    small: bool = False


def figure(value: object, mark: Mark) -> Figure:
    """The picture ``mark`` asks of ``value``, a GameState or a Step.

    Raises:
        PictureError: ``value`` is neither, or the view cannot be drawn of it.
    """
    from ethnos_rules import GameState, Step

    if isinstance(value, Step):
        state, events = value.state, value.events
    elif isinstance(value, GameState):
        state, events = value, ()
    else:
        raise PictureError(
            f"# picture: {mark.name} is {type(value).__name__}, not a GameState or a Step"
        )
    players = len(state.players)
    if mark.seat is not None and not 0 <= mark.seat < players:
        raise PictureError(
            f"# picture {mark.view}={mark.seat}: {mark.name} is a game of seats 0 to {players - 1}"
        )
    shown = tuple(e for e in events if mark.seat is None or _seen_by(e, mark.seat))
    draw = {"board": _board, "seat": _board, "hand": _hand, "band": _band}[mark.view]
    svg, what = draw(state, events, mark)
    return Figure(
        svg,
        _caption(mark, isinstance(value, Step), what),
        tuple(map(str, shown)),
        small=mark.view in ("hand", "band"),
    )


def _seen_by(event: Any, seat: int) -> bool:
    return event.visible_to is None or seat in event.visible_to


def _board(state: Any, events: Sequence[Any], mark: Mark) -> tuple[str, str]:
    from ethnos_rules import svg
    from ethnos_rules._pictures.changes import read_changes

    picture = svg.board(state, seat=mark.seat, changes=events)
    if mark.seat is None:
        whose, framed = "the whole position, every hand shown", "framed: what it changed"
    else:
        whose = f"what seat {mark.seat} sees, the other hands face down"
        framed = f"framed: what seat {mark.seat} saw it change"
    if not events:
        return picture, whose
    if not read_changes(events, seat=mark.seat, players=len(state.players)):
        framed = "nothing it changed shows here"
    return picture, f"{whose}; {framed}"


def _hand(state: Any, events: Sequence[Any], mark: Mark) -> tuple[str, str]:
    from ethnos_rules import svg
    from ethnos_rules._pictures.changes import read_changes

    assert mark.seat is not None
    taken = read_changes(events, seat=mark.seat, players=len(state.players)).hand
    cards = taken.get(mark.seat, [])
    new = [card for card, tag in cards if tag == "new"]
    kept = [card for card, tag in cards if tag == "kept"]
    picture = svg.hand(state.players[mark.seat].hand, new=new, kept=kept)
    whose = f"seat {mark.seat}'s hand"
    if not state.players[mark.seat].hand:
        whose += " (empty)"
    if not events:
        return picture, whose
    if not cards:
        return picture, f"{whose}; nothing it changed is in this hand"
    named = ", ".join(f"{card} ({tag})" for card, tag in cards)
    return picture, f"{whose}; framed: {named}"


def _band(state: Any, events: Sequence[Any], mark: Mark) -> tuple[str, str]:
    from ethnos_rules import BandPlayed, svg

    assert mark.seat is not None
    bands = state.players[mark.seat].bands
    if not bands:
        raise PictureError(f"# picture band={mark.seat}: seat {mark.seat} has no band")
    band = bands[-1]
    new = any(isinstance(e, BandPlayed) and e.seat == mark.seat and e.band == band for e in events)
    whose = f"seat {mark.seat}'s last band, led by {band.leader} (marked ★ leader)"
    if not events:
        return svg.band(band), whose
    return svg.band(band, new=new), whose + ("; framed: just played" if new else "")


def _caption(mark: Mark, is_step: bool, what: str) -> str:
    name = f"<code>{_escape(mark.name)}</code>"
    if not is_step:
        return f"{name}: {_escape(what)}"
    if mark.action is None:
        return f"After the decision of {name}: {_escape(what)}"
    return f"After <code>{_escape(mark.action)}</code> ({name}): {_escape(what)}"


def _escape(words: str) -> str:
    return html.escape(words, quote=False)  # text between tags: no quotes to escape


# --- the pages ----------------------------------------------------------------------------------


def _nodes(drawn: Figure, asked: bool) -> list[nodes.Node]:
    """The figure as nodes: a fold with the caption, the picture, and the step's sentences as
    a list (docutils nodes, so the rule ids in them become links as in any prose). A picture
    a ``# picture`` comment asked for is open; one drawn only because a page draws every
    ``position(...)`` is folded, so that a programmer's long example stays short to read."""
    kind = "ethnos-cards" if drawn.small else "ethnos-board"
    fold = "open" if asked else ""
    head = f"<details class='ethnos-picture' {fold}><summary>{drawn.caption}</summary>"
    out: list[nodes.Node] = [
        nodes.raw("", f"{head}<div class='{kind}'>{drawn.svg}</div>", format="html")
    ]
    if drawn.sentences:
        items = nodes.bullet_list(classes=["ethnos-changes"])
        for sentence in drawn.sentences:
            items += nodes.list_item("", nodes.paragraph(sentence, sentence))
        if len(drawn.sentences) > LONG:
            told = f"What it did, in {len(drawn.sentences)} events"
            fold = f"<details class='ethnos-changes'><summary>{told}</summary>"
            out += [
                nodes.raw("", fold, format="html"),
                items,
                nodes.raw("", "</details>", format="html"),
            ]
        else:
            out.append(items)
    out.append(nodes.raw("", "</details>", format="html"))
    return out


def _run(example: doctest.Example, namespace: dict[str, Any]) -> BaseException | None:
    """One example, as doctest runs it; what it raised, if anything (what it prints does not
    matter here)."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(example.source, "<example>", "single"), namespace)
    except Exception as raised:  # an example may show an error on purpose
        return raised
    return None


def _pictures_of_block(
    block: nodes.literal_block, namespace: dict[str, Any], auto: bool
) -> list[nodes.Node]:
    """Run the examples of one block; the nodes of the pictures they ask for."""
    out: list[nodes.Node] = []
    for example in doctest.DocTestParser().get_examples(block.astext()):
        raised = _run(example, namespace)
        try:
            mark = mark_of(example.source)
            if mark is None or not (mark.marked or auto):
                continue
            if raised is not None or mark.name not in namespace:
                if mark.marked:
                    why = f"{type(raised).__name__}: {raised}" if raised else "it is not bound"
                    raise PictureError(f"# picture: {mark.name} cannot be drawn, as {why}")
                continue
            out += _nodes(figure(namespace[mark.name], mark), mark.marked)
        except (PictureError, ValueError, TypeError) as problem:
            logger.warning(f"{problem}", location=block, type="pictures")
    return out


def add_pictures(app: Any, doctree: nodes.document) -> None:
    """Draw the positions of a page's examples just before the blocks that build them: a
    reader sees the position, then the code for programmers."""
    if app.builder.format != "html":
        return
    auto = app.env.docname.startswith(PAGES)
    blocks = [
        block
        for block in doctree.findall(nodes.literal_block)
        if block.get("language") in ("pycon", "python", "default")
    ]
    if not auto and not any(_ANY_MARK.search(block.astext()) for block in blocks):
        return
    namespace: dict[str, Any] = {"__name__": "__pictures__"}
    for block in blocks:
        figures = _pictures_of_block(block, namespace, auto)
        parent = block.parent
        at = parent.index(block)
        for offset, node in enumerate(figures):
            parent.insert(at + offset, node)


def _has_pictures(env: Any, name: str) -> bool:
    if name.startswith(PAGES):
        return True
    path = Path(env.doc2path(name))
    return path.is_file() and bool(_ANY_MARK.search(path.read_text(encoding="utf-8")))


def always_redraw(app: Any, env: Any, added: Any, changed: Any, removed: Any) -> list[str]:
    """The pages with pictures are read again at every build: their pictures come from the
    package's code, which Sphinx does not watch."""
    return [name for name in env.found_docs if _has_pictures(env, name)]


def setup(app: Any) -> dict[str, Any]:
    app.connect("doctree-read", add_pictures)
    app.connect("env-get-outdated", always_redraw)
    app.add_css_file("pictures.css")
    return {"parallel_read_safe": True, "version": "2"}
