"""The docs' pictures (docs/_ext/pictures.py): the ``# picture`` comments of a page's examples,
what each draws and how its caption says so, and a real Sphinx build of a small page with
every form and a few mistakes (each a warning)."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from ethnos_rules import Step, apply, parse_action, position, step

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))  # as docs/conf.py puts it, for Sphinx too

import pictures  # type: ignore[import-not-found]  # noqa: E402  (docs/_ext is not typed)

Mark, PictureError, figure, mark_of = (
    pictures.Mark,
    pictures.PictureError,
    pictures.figure,
    pictures.mark_of,
)

SIX = ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]


# --- the comment --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "mark"),
    [
        ("s = position(4, T)\n", Mark("s", marked=False)),
        ("s = position(4, T)  # picture\n", Mark("s")),
        ("s = position(4, T,\n   hands={})  # picture seat=2\n", Mark("s", "seat", 2)),
        ('r = step(s, parse_action("place Duris"))  # picture\n', Mark("r", action="place Duris")),
        (
            "r = step(s, parse_action('recruit deck'))  # picture hand=1\n",
            Mark("r", "hand", 1, "recruit deck"),
        ),
        ("r = step(s, a)  #picture band=0\n", Mark("r", "band", 0)),
        ("for x in y:\n    print(x)\n", None),
        ("s == position(4, T)\n", None),
    ],
)
def test_what_a_comment_asks(source: str, mark: Any) -> None:
    assert mark_of(source) == mark


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("s = position(4, T)  # picture seat=one\n", "comes nothing, seat=N, hand=N or band=N"),
        ("s = position(4, T)  # picture sea=1\n", "comes nothing, seat=N, hand=N or band=N"),
        ("s = position(4, T)  # picture seat=1 hand=1\n", "comes nothing, seat=N"),
        ("print(s)  # picture\n", "binds no name"),
    ],
)
def test_a_comment_that_asks_for_nothing_drawable_is_refused(source: str, why: str) -> None:
    with pytest.raises(PictureError, match=why):
        mark_of(source)


# --- what is drawn and what the caption says ----------------------------------------------------


def _placed() -> tuple[Step, Step]:
    """Seat 0 plays three Dwarves led by the red one, then places in Rhea."""
    state = position(4, SIX, hands={0: "DWA-red DWA-blue DWA-green ELF-blue"})
    played = step(state, parse_action("band *DWA-red DWA-blue DWA-green"))
    return played, step(played.state, parse_action("place Rhea"))


def test_a_step_is_drawn_after_its_decision_with_its_changes_framed() -> None:
    placed = _placed()[1]
    drawn = figure(placed, Mark("placed", action="place Rhea"))
    assert drawn.caption == (
        "After <code>place Rhea</code> (<code>placed</code>): the whole position, every hand"
        " shown; framed: what it changed"
    )
    assert drawn.sentences == tuple(map(str, placed.events))
    assert drawn.sentences[0].startswith("Seat 0 places a marker in Rhea")
    assert "class='changed'" in drawn.svg and not drawn.small


def test_a_state_is_drawn_as_it_is() -> None:
    played, _ = _placed()
    drawn = figure(played.state, Mark("before", "seat", 1))
    assert drawn.caption == "<code>before</code>: what seat 1 sees, the other hands face down"
    assert drawn.sentences == () and "class='changed'" not in drawn.svg


def test_a_seat_sees_only_its_own_draws() -> None:
    state = position(4, SIX, hands={0: "ELF-red"}, top_left=10)
    drew = step(apply(state, parse_action("recruit deck")), parse_action("reveal DWA-blue"))
    mine = figure(drew, Mark("drew", "seat", 0, "reveal DWA-blue"))
    assert mine.sentences == ("Seat 0 draws DWA-blue from the deck (RECRUIT-1).",)
    assert mine.caption.endswith("framed: what seat 0 saw it change")
    theirs = figure(drew, Mark("drew", "seat", 1, "reveal DWA-blue"))
    assert theirs.sentences == ()
    assert theirs.caption.endswith("nothing it changed shows here")
    hand = figure(drew, Mark("drew", "hand", 0, "reveal DWA-blue"))
    assert hand.small and hand.caption.endswith("seat 0's hand; framed: DWA-blue (new)")


def test_a_band_alone_with_its_leader() -> None:
    played, placed = _placed()
    drawn = figure(played, Mark("played", "band", 0, "band *DWA-red DWA-blue DWA-green"))
    assert drawn.small and "new band" in drawn.svg and "href='#leader'" in drawn.svg
    assert drawn.caption.endswith(
        "seat 0's last band, led by DWA-red (marked ★ leader); framed: just played"
    )
    later = figure(placed, Mark("placed", "band", 0, "place Rhea"))
    assert "new band" not in later.svg and later.caption.endswith("(marked ★ leader)")


@pytest.mark.parametrize(
    ("value", "mark", "why"),
    [
        (3, Mark("n"), "n is int, not a GameState or a Step"),
        (position(4, SIX), Mark("s", "seat", 4), "seat=4: s is a game of seats 0 to 3"),
        (position(4, SIX), Mark("s", "band", 2), "band=2: seat 2 has no band"),
    ],
)
def test_what_cannot_be_drawn_is_refused(value: object, mark: Any, why: str) -> None:
    with pytest.raises(PictureError, match=why):
        figure(value, mark)


# --- a page built by Sphinx -----------------------------------------------------------------------

PAGE = """# Pictures

```pycon
>>> from ethnos_rules import parse_action, position, step
>>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
...                  hands={0: "DWA-red DWA-blue", 1: "ELF-red"})  # picture hand=0
>>> unmarked = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"])
>>> played = step(state, parse_action("band *DWA-red DWA-blue"))  # picture band=0
>>> placed = step(played.state, parse_action("place Rhea"))  # picture seat=1
>>> count = 3  # picture
>>> broken = step(state, parse_action("place Nowhere"))  # picture
Traceback (most recent call last):
MalformedActionError: ...

```
"""


def test_a_page_shows_before_and_after_and_warns_of_what_it_cannot_draw(tmp_path: Path) -> None:
    from sphinx.application import Sphinx

    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        "extensions = ['myst_parser', 'pictures']\n"
        f"html_static_path = [{str(ROOT / 'docs' / '_static')!r}]\n"
    )
    (source / "index.md").write_text(PAGE)
    warnings = io.StringIO()
    app = Sphinx(
        str(source),
        str(source),
        str(tmp_path / "html"),
        str(tmp_path / "doctrees"),
        "html",
        status=io.StringIO(),
        warning=warnings,
        freshenv=True,
    )
    app.build()
    page = (tmp_path / "html" / "index.html").read_text()
    captions = [part.split("</summary>")[0] for part in page.split("<summary>")[1:]]
    assert captions == [
        "<code>state</code>: seat 0's hand",
        "After <code>band *DWA-red DWA-blue</code> (<code>played</code>): seat 0's last"
        " band, led by DWA-red (marked ★ leader); framed: just played",
        "After <code>place Rhea</code> (<code>placed</code>): what seat 1 sees, the other hands"
        " face down; framed: what seat 1 saw it change",
    ]  # not the unmarked position: this page is not one of PAGES
    assert page.count("<svg") == 3
    assert page.index("<details class='ethnos-picture' open>") < page.index("&gt;&gt;&gt;")
    assert "Seat 0 places a marker in Rhea (now 1 there) (BAND-5)." in page
    told = warnings.getvalue()
    assert "# picture: count is int, not a GameState or a Step" in told
    assert "# picture: broken cannot be drawn, as MalformedActionError" in told
    # only the pictures' own warnings: a second Sphinx app in one process (another test's)
    # warns that Sphinx's node classes are already registered
    assert told.count("[pictures]") == 2
    assert pictures.always_redraw(app, app.env, set(), set(), set()) == ["index"]
