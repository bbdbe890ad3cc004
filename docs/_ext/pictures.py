"""Pictures of the positions in the pages' examples, drawn at build time.

The rules and tribe pages build their positions in ``pycon`` examples, which run as doctests.
This extension runs the same examples, page by page and in order, and after each block draws
every position the block built: each name bound by ``name = position(...)``, and each name an
example binds with a ``# picture`` comment (``seat=N`` in that comment draws what seat N
sees). So the pictures are of exactly the positions the examples test, and cannot drift from
them. A picture is put right after its block, folded under "Picture".
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
from typing import Any

from docutils import nodes

PAGES = ("rules/", "tribes/", "guide/01-quickstart", "guide/06-gallery")
_BOUND = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*position\(")
_MARKED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=.*#\s*picture(?:\s+seat=(\d))?\s*$", re.DOTALL)


def _pictures_of(example: doctest.Example) -> list[tuple[str, int | None]]:
    source = example.source.rstrip("\n")
    marked = _MARKED.match(source.splitlines()[-1]) or _MARKED.match(source)
    if marked:
        return [(marked.group(1), None if marked.group(2) is None else int(marked.group(2)))]
    bound = _BOUND.match(source)
    return [(bound.group(1), None)] if bound else []


def _run(example: doctest.Example, namespace: dict[str, Any]) -> None:
    """One example, as doctest runs it (what it prints or raises does not matter here)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(Exception):
        exec(compile(example.source, "<example>", "single"), namespace)


def _figure(value: Any, seat: int | None, name: str) -> nodes.Node | None:
    from ethnos_rules import GameState, svg

    if not isinstance(value, GameState):
        return None
    picture = svg.board(value, seat=seat)
    who = "the whole position" if seat is None else f"what seat {seat} sees"
    html = (
        f"<details class='ethnos-picture' open><summary>Picture: <code>{name}</code>, {who}"
        f"</summary><div class='ethnos-board'>{picture}</div></details>"
    )
    return nodes.raw("", html, format="html")


def add_pictures(app: Any, doctree: nodes.document) -> None:
    """Draw the positions of a page's examples after the blocks that build them."""
    if not app.env.docname.startswith(PAGES) or app.builder.format != "html":
        return
    parser = doctest.DocTestParser()
    namespace: dict[str, Any] = {"__name__": "__pictures__"}
    for block in list(doctree.findall(nodes.literal_block)):
        if block.get("language") not in ("pycon", "python", "default"):
            continue
        figures = []
        for example in parser.get_examples(block.astext()):
            _run(example, namespace)
            for name, seat in _pictures_of(example):
                figure = _figure(namespace.get(name), seat, name)
                if figure is not None:
                    figures.append(figure)
        parent = block.parent
        at = parent.index(block)
        for offset, figure in enumerate(figures, start=1):
            parent.insert(at + offset, figure)


def always_redraw(app: Any, env: Any, added: Any, changed: Any, removed: Any) -> list[str]:
    """The pages with pictures are read again at every build: their pictures come from the
    package's code, which Sphinx does not watch."""
    return [name for name in env.found_docs if name.startswith(PAGES)]


def setup(app: Any) -> dict[str, Any]:
    app.connect("doctree-read", add_pictures)
    app.connect("env-get-outdated", always_redraw)
    app.add_css_file("pictures.css")
    return {"parallel_read_safe": True, "version": "1"}
