"""Pictures of a game as SVG text, with the standard library only.

Everything is drawn from an :class:`~ethnos_rules.Observation` (what one seat sees), plus the
hands the picture may show: all of them for the full view, the seat's own for a seat's view.
So a seat's picture cannot show another player's cards: they are not in what it is drawn
from. Players are told apart by colour (Okabe and Ito's palette, which colour-blind readers
can tell apart), by shape and by a label (``seat 0``...).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from .._rules.components import KINGDOMS, Card, Colour
from .._rules.editions import FIRST_EDITION as _RULES
from .._rules.engine import _game
from .._rules.events import Event
from .._rules.said import said, said_list, said_n, word
from .._rules.state import Band, GameState
from .._rules.words import ROMAN, given
from .._seat.observation import Observation, observation
from .changes import Changes, read_changes
from .words import ENGLISH, drawn_in, shown

CARD_FILL = {
    Colour.GREEN: "#3d9a46",
    Colour.PURPLE: "#7b4fa6",
    Colour.ORANGE: "#e8892b",
    Colour.GRAY: "#8a8d91",
    Colour.RED: "#c8352e",
    Colour.BLUE: "#2f6db5",
}
"""The fill of a card (and of its kingdom) by colour."""
SKELETON_FILL = "#efe9dc"

PLAYER_FILL = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00")
"""Players' colours by seat (Okabe and Ito), each also with its own shape."""
PLAYER_SHAPE = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon")

CARD_W, CARD_H = 46, 64
_FONT = "font-family='Helvetica, Arial, sans-serif'"


def _text(x: float, y: float, words: str, size: int = 12, **style: str) -> str:
    extra = "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in style.items())
    words = shown(words)
    return f"<text x='{x:g}' y='{y:g}' font-size='{size}'{extra}>{escape(words)}</text>"


MAX_SIZE = 100_000
"""The widest a picture is shown, in pixels (``size``)."""


def _svg(width: float, height: float, body: Sequence[str], desc: str, size: int | None) -> str:
    if size is not None and (type(size) is not int or not 0 < size <= MAX_SIZE):
        raise ValueError(
            f"size is a width in pixels, an integer from 1 to {MAX_SIZE:,}, not {given(size)}"
        )
    scaled = f" width='{size}' height='{size * height / width:.0f}'" if size else ""
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width:g} {height:g}'{scaled}"
        f" {_FONT}><desc>{escape(shown(desc))}</desc>{''.join(body)}</svg>"
    )


def _expect(value: object, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise TypeError(
            f"{what}: expected {kind.__name__}, not {type(value).__name__} {given(value)}"
        )


# --- what a step changed -------------------------------------------------------------------------

CHANGED_FILL = "#f9a8d4"
"""The fill behind what a step changed. It is never the only sign: a thick dark outline
surrounds it and a dark tag names the change, so it reads without colour too."""
CHANGED_INK = "#111"

_WIDTHS = {  # Helvetica's advance widths, in thousandths of the font size
    **dict.fromkeys("ijl", 222),
    **dict.fromkeys(" !,./:;I[]ft·'|", 278),
    **dict.fromkeys("()-r`", 333),
    **dict.fromkeys("*", 389),
    **dict.fromkeys("Jckszvxy", 500),
    **dict.fromkeys("+", 584),
    **dict.fromkeys("FTZ", 611),
    **dict.fromkeys("ABEKPSVXY", 667),
    **dict.fromkeys("CDHNRUw", 722),
    **dict.fromkeys("GOQ", 778),
    **dict.fromkeys("mM", 833),
    **dict.fromkeys("W", 944),
}


def text_width(words: str, size: float) -> float:
    """How wide ``words`` are in Helvetica (and Arial, which has its widths) at ``size``, to
    frame them; a letter it does not list counts as a digit (556)."""
    return size * sum(_WIDTHS.get(c, 556) for c in words) / 1000


def _fitting(words: str, size: int, width: float) -> int:
    """The font size, ``size`` or less (down to 8), at which ``words`` fit in ``width``: a
    label before a drawing, longer in some languages."""
    while size > 8 and text_width(words, size) * 1.1 > width:  # bold is about a tenth wider
        size -= 1
    return size


def _halo(x: float, y: float, w: float, h: float, r: float = 6) -> str:
    """The frame behind a changed thing: a light fill inside a thick dark outline."""
    return (
        f"<rect class='changed' x='{x:g}' y='{y:g}' width='{w:g}' height='{h:g}' rx='{r:g}'"
        f" fill='{CHANGED_FILL}' stroke='{CHANGED_INK}' stroke-width='2.5'/>"
    )


def _tag(x: float, y: float, words: str, room: float | None = None) -> tuple[str, float]:
    """A dark label naming a change, its left end at ``x`` and its middle at ``y``; and its
    width. Given the ``room`` it has (on a card), its words are made smaller (down to 7) to
    fit, as longer words in another language may need."""
    words, size = shown(words), 9
    while room is not None and size > 7 and text_width(words, size) + 8 > room:
        size -= 1
    w = text_width(words, size) + 8
    style = {"fill": "#fff", "text_anchor": "middle", "font_weight": "bold"}
    return (
        f"<g class='change-tag'><rect x='{x:g}' y='{y - 7:g}' width='{w:.1f}' height='14'"
        f" rx='3' fill='{CHANGED_INK}'/>"
        + _text(x + w / 2, y + 3.2, words, size, **style)
        + "</g>",
        w,
    )


def _changed_text(x: float, y: float, words: str, size: int, tag: str) -> tuple[str, float]:
    """``words`` framed as changed, with ``tag`` after them; and the width taken."""
    words = shown(words)
    w = text_width(words, size)
    label, tw = _tag(x + w + 7, y - size * 0.35, tag)
    out = _halo(x - 4, y - size - 1, w + 8, size + 6, 4) + _text(x, y, words, size) + label
    return out, w + 7 + tw


_STEP_HINT = "changes: {item} is not in {where}: pass the events of the step that led to the state"


def _marked_positions(
    items: Sequence[object], wanted: Iterable[object], where: str, refusal: str = _STEP_HINT
) -> dict[int, int]:
    """For each of ``wanted`` in turn, the last position of ``items`` holding it that no
    earlier one took: which position shows which change. A change the picture does not hold
    is refused (``refusal``): by default, the events are of another step than the state's."""
    taken: dict[int, int] = {}
    for n, item in enumerate(wanted):
        spots = [i for i, it in enumerate(items) if it == item and i not in taken]
        if not spots:
            raise ValueError(refusal.format(item=item, where=where))
        taken[spots[-1]] = n
    return taken


# --- cards, bands, hands ----------------------------------------------------------------------


def card_symbol(card: Card) -> str:
    """The drawing of a card kind, once per picture (each card drawn refers to it)."""
    fill = SKELETON_FILL if card.colour is None else CARD_FILL[card.colour]
    ink = "#222" if card.colour is None else "#fff"
    colour = "wild" if card.colour is None else card.colour.label
    return "".join(
        [
            f"<symbol id='card-{card.code}' viewBox='0 0 {CARD_W} {CARD_H}'>",
            f"<rect x='0.5' y='0.5' width='{CARD_W - 1}' height='{CARD_H - 1}' rx='5'"
            f" fill='{fill}' stroke='#555'/>",
            _text(
                CARD_W / 2,
                26,
                card.tribe.code,
                14,
                fill=ink,
                text_anchor="middle",
                font_weight="bold",
            ),
            _text(CARD_W / 2, 44, colour, 10, fill=ink, text_anchor="middle"),
            "</symbol>",
        ]
    )


def card_defs(cards: Iterable[Card]) -> str:
    """The symbols of these card kinds, for a picture that draws them."""
    kinds = sorted(set(cards))
    return "<defs>" + "".join(map(card_symbol, kinds)) + "</defs>" if kinds else ""


def _card(card: Card, x: float, y: float, leader: bool = False) -> str:
    out = (
        f"<use href='#card-{card.code}' x='{x:g}' y='{y:g}' width='{CARD_W}'"
        f" height='{CARD_H}' data-card='{card.code}'/>"
    )
    if leader:
        out += f"<use href='#leader' x='{x:g}' y='{y:g}'/>"
    return out


def _cards(
    cards: Iterable[Card],
    x: float,
    y: float,
    leader: int | None = None,
    marked: dict[int, str] | None = None,
) -> list[str]:
    """Cards side by side; those at the positions ``marked`` framed as changed and tagged."""
    out = []
    for i, c in enumerate(cards):
        cx = x + i * (CARD_W + 4)
        tag = (marked or {}).get(i)
        if tag is None:
            out.append(_card(c, cx, y, i == leader))
            continue
        out.append(_halo(cx - 3, y - 3, CARD_W + 6, CARD_H + 6, 7) + _card(c, cx, y, i == leader))
        out.append(_tag(cx + 2, y + 4, tag, room=CARD_W)[0])
    return out


def card_svg(card: Card, *, size: int | None = None) -> str:
    """A picture of one card.

    >>> from ethnos_rules import card
    >>> from ethnos_rules import svg
    >>> picture = svg.card(card("ELF-red"))
    >>> picture.startswith("<svg") and "ELF" in picture and "viewBox" in picture
    True
    """
    _expect(card, Card, "a card")
    body = [card_defs([card]), _card(card, 2, 2)]
    return _svg(CARD_W + 4, CARD_H + 4, body, said("The card {card}.", card=card.code), size)


def _checked_cards(cards: object, what: str) -> Sequence[Card]:
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise TypeError(f"{what} are a sequence of Card, not {given(cards)}")
    for card in cards:
        _expect(card, Card, f"{what}: a card")
    return cards


def hand_svg(
    cards: Sequence[Card],
    *,
    size: int | None = None,
    new: Sequence[Card] = (),
    kept: Sequence[Card] = (),
) -> str:
    """A picture of some cards side by side (a hand, the row); cards just put there (``new``)
    or kept there (``kept``, by Elves) are framed and tagged, one copy for each given.

    >>> from ethnos_rules import card, svg
    >>> picture = svg.hand([card("DWA-red"), card("ELF-red")], new=[card("ELF-red")])
    >>> picture.count("class='changed'"), "new" in picture
    (1, True)

    Raises:
        TypeError: ``cards``, ``new`` or ``kept`` is not a sequence of Card.
        ValueError: a card of ``new`` or ``kept`` is not among ``cards``.
    """
    cards = _checked_cards(cards, "cards")
    tags: list[str] = [word("new")] * len(_checked_cards(new, "new"))
    tags += [word("kept")] * len(_checked_cards(kept, "kept"))
    where = _marked_positions(
        cards, [*new, *kept], "the cards", "new and kept: {item} is not in {where}"
    )
    margin = 5 if where else 2  # room for the frames
    width = max(1, len(cards)) * (CARD_W + 4) + 2 * margin
    codes = ", ".join(c.code for c in cards)
    desc = said("Cards: {cards}.", cards=codes) if codes else said("Cards: none.")
    if where:
        marks = [said("{card} ({tag})", card=cards[i].code, tag=tags[n]) for i, n in where.items()]
        desc = said("{cards} Marked: {marks}.", cards=desc, marks=said_list(marks))
    marked = {i: tags[n] for i, n in where.items()}
    body = [card_defs(cards), *_cards(cards, margin, margin, marked=marked)]
    return _svg(width, CARD_H + 2 * margin, body, desc, size)


def band_svg(band: Band, *, size: int | None = None, new: bool = False) -> str:
    """A picture of a band, its Leader first and marked; framed and tagged when ``new`` (just
    played).

    >>> from ethnos_rules import Band, card, svg
    >>> band = Band(card("DWA-red"), (card("DWA-blue"), card("SKE")))
    >>> picture = svg.band(band, size=160, new=True)
    >>> "A band of 3 led by DWA-red" in picture, "new band" in picture
    (True, True)
    """
    _expect(band, Band, "a band")
    _expect(new, bool, "new")
    cards = band.cards
    margin = 6 if new else 2
    width = len(cards) * (CARD_W + 4) + 2 * margin
    codes = ", ".join(c.code for c in cards)
    desc = said(
        "A band of {n} led by {leader}: {cards}.",
        n=len(cards),
        leader=band.leader.code,
        cards=codes,
    )
    body = [marker_defs(), card_defs(cards)]
    if new:
        desc = said("{band} Marked as just played.", band=desc)
        body.append(_halo(margin - 4, margin - 4, width - 2 * margin + 4, CARD_H + 8, 8))
    body += _cards(cards, margin, margin, leader=0)
    if new:
        room = len(cards) * (CARD_W + 4) + 2
        body.append(_tag(margin + 2, margin + 4, word("new band"), room)[0])
    return _svg(width, CARD_H + 2 * margin, body, desc, size)


# --- players' pieces ----------------------------------------------------------------------------


def _marker_shape(seat: int, r: float = 7) -> str:
    fill, shape = PLAYER_FILL[seat], PLAYER_SHAPE[seat]
    style = f"fill='{fill}' stroke='#222' stroke-width='1'"
    if shape == "circle":
        return f"<circle cx='0' cy='0' r='{r:g}' {style}/>"
    if shape == "square":
        return f"<rect x='{-r:g}' y='{-r:g}' width='{2 * r:g}' height='{2 * r:g}' {style}/>"
    sides = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6}[shape]
    points = " ".join(
        f"{r * 1.2 * math.sin(2 * math.pi * k / sides):.1f},"
        f"{-r * 1.2 * math.cos(2 * math.pi * k / sides):.1f}"
        for k in range(sides)
    )
    return f"<polygon points='{points}' {style}/>"


def _star(x: float, y: float, r: float) -> str:
    """A five-pointed star centred on (x, y), drawn rather than written: a glyph needs a font
    that has it, which not every renderer finds."""
    points = " ".join(
        f"{x + (r if k % 2 == 0 else r * 0.4) * math.sin(math.pi * k / 5):.1f},"
        f"{y - (r if k % 2 == 0 else r * 0.4) * math.cos(math.pi * k / 5):.1f}"
        for k in range(10)
    )
    return f"<polygon points='{points}' fill='#fff'/>"


def _leader_mark() -> str:
    return (
        f"<g id='leader'><rect x='0' y='0' width='{CARD_W}' height='{CARD_H}' rx='5' fill='none'"
        " stroke='#111' stroke-width='3'/><rect x='3' y='51' width='40' height='11' rx='3'"
        " fill='#111'/>"
        + _star(9, 56.6, 3.8)
        + _text(27, 59.5, word("leader"), 8, fill="#fff", text_anchor="middle")
        + "</g>"
    )


def marker_defs() -> str:
    """The players' marker shapes and the Leader's mark, once per picture (the mark's word in
    the language being drawn in)."""
    return (
        "<defs>"
        + "".join(f"<g id='mark-{seat}'>{_marker_shape(seat)}</g>" for seat in range(6))
        + _leader_mark()
        + "</defs>"
    )


MARKER_DEFS = marker_defs()
"""The players' marker shapes and the Leader's mark, in English."""


def _marker(seat: int, x: float, y: float, r: float = 7) -> str:
    scale = f" transform='translate({x:g} {y:g}) scale({r / 7:g})'"
    return f"<use href='#mark-{seat}'{scale}/>"


def _label(seat: int, x: float, y: float) -> str:
    label = said("seat {seat}", seat=seat)
    return _marker(seat, x, y) + _text(x + 11, y + 4, label, 11, font_weight="bold")


# --- the board ----------------------------------------------------------------------------------

WIDTH = 720
"""The width of a board picture, in SVG units: drawn 1:1, its words are 10 to 15 px."""
_COLUMNS = 3


def _kingdoms(view: Observation, top: float, changes: Changes) -> tuple[list[str], float]:
    """The six kingdoms in two rows of three; a kingdom where a marker was just placed is
    outlined, and the placing player's line is framed and tagged."""
    out, w = [], WIDTH / _COLUMNS
    n = len(view.seats)
    height = 70 + 18 * n
    for k, kingdom in enumerate(KINGDOMS):
        x, y = (k % _COLUMNS) * w, top + (k // _COLUMNS) * (height + 8)
        fill = CARD_FILL[kingdom.colour]
        placed = {s: n for (s, k), n in changes.markers.items() if k == kingdom}
        edge = (
            f"stroke='{CHANGED_INK}' stroke-width='3'"
            if placed
            else f"stroke='{fill}' stroke-width='2'"
        )
        part = [
            f"<g class='kingdom' data-kingdom='{kingdom.label}'><rect x='{x + 4:g}' y='{y:g}'"
            f" width='{w - 8:g}' height='{height}' rx='8' fill='{fill}' fill-opacity='0.18'"
            f" {edge}/>",
            _text(x + 12, y + 20, kingdom.label, 14, font_weight="bold"),
        ]
        tokens = view.tokens[k] if k < len(view.tokens) else ()
        for i, value in enumerate(tokens):
            now = i == view.age - 1
            tx = x + 14 + i * 42
            part.append(
                f"<rect x='{tx:g}' y='{y + 28:g}' width='36' height='22' rx='11'"
                f" fill='{'#ffd966' if now else '#fff'}' stroke='#333'"
                f" stroke-width='{2 if now else 1}'/>"
            )
            part.append(_text(tx + 18, y + 43, f"{ROMAN[i + 1]}:{value}", 10, text_anchor="middle"))
        for seat, seen in enumerate(view.seats):
            count = seen.kingdoms[k]
            my = y + 68 + 18 * seat
            part.append(_marker(seat, x + 20, my - 4, 6))
            line = said_n("seat {seat}: {n} marker", "seat {seat}: {n} markers", count, seat=seat)
            if seat in placed:
                part.append(_changed_text(x + 32, my, line, 11, f"+{placed[seat]}")[0])
            else:
                part.append(_text(x + 32, my, line, 11))
        out.append("".join(part) + "</g>")
    rows = -(-len(KINGDOMS) // _COLUMNS)
    return out, top + rows * (height + 8) + 2


def _merfolk(view: Observation, y: float, changes: Changes) -> tuple[list[str], float]:
    """The Merfolk track; a move just made is an arrow from the space left to the space
    reached, where the marker is framed."""
    if "track" not in view.pieces:
        return [], y
    board = view.options.merfolk_board
    step = (WIDTH - 120) / max(board.last_space, 1)
    title = shown(said("Merfolk track"))
    out = [_text(10, y + 18, title, _fitting(title, 12, 88), font_weight="bold")]
    for space in range(board.last_space + 1):
        x = 110 + space * step
        checkpoint = space in board.checkpoints
        out.append(
            f"<rect x='{x - 10:g}' y='{y + 4:g}' width='20' height='20' rx='3'"
            f" fill='{'#bfe3f2' if checkpoint else '#fff'}' stroke='#2f6db5'/>"
        )
        out.append(_text(x, y + 18, str(space), 9, text_anchor="middle"))
    for seat, seen in enumerate(view.seats):
        if seen.merfolk is not None:
            x, my = 110 + seen.merfolk * step, y + 34 + 10 * (seat % 3)
            if seat in changes.merfolk:
                out.append(_move(110 + changes.merfolk[seat][0] * step, x, my))
            out.append(_marker(seat, x, my, 5))
    spaces = ", ".join(map(str, board.checkpoints))
    out.append(_text(110, y + 70, said("checkpoints (shaded): {spaces}", spaces=spaces), 10))
    return out, y + 80


def _move(start: float, end: float, y: float) -> str:
    """A Merfolk marker's move: a frame where it stands, an arrow from where it was (from
    beside the space it left, where another player's marker may stand)."""
    out = _halo(end - 8, y - 8, 16, 16, 8)
    if end > start:
        out += (
            f"<line x1='{min(start + 7, end - 13):g}' y1='{y:g}' x2='{end - 12:g}' y2='{y:g}'"
            f" stroke='{CHANGED_INK}' stroke-width='2.5'/><polygon points='{end - 13:g},{y - 5:g}"
            f" {end - 7:g},{y:g} {end - 13:g},{y + 5:g}' fill='{CHANGED_INK}'/>"
        )
    return out


def _row(view: Observation, y: float, changes: Changes) -> tuple[list[str], float]:
    """The deck, the row and the tokens beside the board; cards just put into the row are
    framed, and so is the deck's line when a Dragon was just revealed."""
    deck = said_n(
        "Deck: {n} card ({above} above the Dragons), Dragons revealed {drawn} of 3",
        "Deck: {n} cards ({above} above the Dragons), Dragons revealed {drawn} of 3",
        view.deck_size,
        above=view.top_left,
        drawn=view.dragons_drawn,
    )
    extra: list[str] = []
    if "trolls" in view.pieces:
        left = " ".join(map(str, view.unclaimed_trolls))
        extra.append(
            said("Troll tokens left: {tokens}", tokens=left)
            if left
            else said("Troll tokens left: none")
        )
    if "giant" in view.pieces:
        holder = view.giant_holder
        extra.append(
            said("Giant token: nobody")
            if holder is None
            else said("Giant token: seat {seat}", seat=holder)
        )
    out = [_text(10, y + 16, word("Row"), 13, font_weight="bold")]
    if changes.dragon:
        out.append(_changed_text(60, y + 16, deck, 12, word("Dragon"))[0])
    else:
        out.append(_text(60, y + 16, deck, 12))
    if extra:
        out.append(_text(60, y + 32, said_list(extra, "; "), 12))
    y += 16 if extra else 0
    new = _marked_positions(view.row, changes.row, "the row")
    out += _cards(view.row, 10, y + 24, marked=dict.fromkeys(new, word("new")))
    if not view.row:
        out.append(_text(10, y + 40, said("(the row is empty)"), 11, fill="#555"))
        return out, y + 52
    return out, y + 24 + CARD_H + 12


def _player(
    view: Observation, seat: int, hand: tuple[Card, ...] | None, changes: Changes
) -> tuple[list[tuple[float, str]], float]:
    """A player's panel as two parts (what changes often, then the bands, which change
    seldom), each drawn from its own top; and the panel's height. What ``changes`` says this
    player just gained is framed and tagged."""
    seen = view.seats[seat]
    out = [
        f"<g class='player' data-seat='{seat}'>",
        f"<rect x='4' y='0' width='{WIDTH - 8}' height='__H__' rx='8' fill='#fafafa'"
        f" stroke='{PLAYER_FILL[seat]}' stroke-width='3'/>",
        _label(seat, 20, 18),
    ]
    gained = changes.glory.get(seat, 0)
    facts: list[tuple[str, str | None]] = [
        (said("Glory {glory}", glory=seen.glory), f"+{gained}" if gained else None)
    ]
    supply = said("{n} markers in supply", n=seen.supply)  # "1 markers": English kept as it was
    facts.append((supply, None))
    filled = [colour for s, colour in changes.horde if s == seat]
    if seen.horde:
        tag = "+" + " ".join(c.label for c in filled) if filled else None
        horde = " ".join(c.label for c in seen.horde)
        facts.append((said("Horde: {spaces}", spaces=horde), tag))
    elif "horde" in view.pieces:
        facts.append((said("Horde: empty"), None))
    if seen.trolls:
        taken = changes.trolls.get(seat)
        tag = said("took {tokens}", tokens=" ".join(map(str, taken))) if taken else None
        trolls = " ".join(map(str, seen.trolls))
        facts.append((said("Troll tokens {tokens}", tokens=trolls), tag))
    if view.giant_holder == seat:
        facts.append(
            (said("holds the Giant token"), word("new") if changes.giant == seat else None)
        )
    # The facts start after the seat's label, which is longer in some languages ("el asiento 0").
    label = text_width(shown(said("seat {seat}", seat=seat)), 11) * 1.1  # bold: a tenth wider
    start = max(84.0, 31 + label + 12)
    drawn, lines = _facts(facts, start, 22, WIDTH - 260 if "horde" in view.pieces else WIDTH - 10)
    out += drawn
    inner = 14.0 + 18 * lines
    if "horde" in view.pieces:
        out += _horde(seen.horde, WIDTH - 200, 8, filled)
    new = changes.hand.get(seat, [])
    if hand is None:
        out += _hidden_hand(seen.hand_size, inner, [card for card, _ in new])
        inner += 28
    elif not hand:
        out.append(_text(20, inner + 16, said("Hand: empty"), 12))
        inner += 28
    else:
        out.append(_text(20, inner + 16, said("Hand ({n}):", n=len(hand)), 12))
        where = _marked_positions(hand, [c for c, _ in new], f"seat {seat}'s hand")
        out += _cards(hand, 100, inner, marked={i: new[n][1] for i, n in where.items()})
        inner += CARD_H + 8
    played = [band for s, band in changes.bands if s == seat]
    bands, rows = _bands(seen.bands, _marked_positions(seen.bands, played, f"seat {seat}'s bands"))
    height = inner + rows * (CARD_H + 8) + 6
    out[1] = out[1].replace("__H__", f"{height:g}")
    out.append("</g>")
    parts = [(0.0, "".join(out))]
    if bands:
        parts.append((inner, bands))
    return parts, height + 8


def _facts(
    facts: Sequence[tuple[str, str | None]], x: float, y: float, right: float
) -> tuple[list[str], int]:
    """Facts in a line from ``x``; those with a tag (what just changed them) framed and
    tagged, going on to a next line rather than past ``right`` (so do facts without tags that
    do not fit, as longer words in another language may not). And how many lines."""
    facts = [(shown(words), None if tag is None else shown(tag)) for words, tag in facts]
    line = " · ".join(words for words, _ in facts)
    if all(tag is None for _, tag in facts) and x + text_width(line, 12) <= right:
        return [_text(x, y, line, 12)], 1
    out, left, lines = [], x, 1
    for n, (words, tag) in enumerate(facts):
        width = text_width(words, 12) + (14 + text_width(tag, 9) + 8 if tag else 0)
        if n and x + 10 + width > right:
            x, y, lines = left, y + 18, lines + 1
        elif n:
            out.append(_text(x + text_width(" ", 12), y, "·", 12))  # SVG drops edge spaces
            x += text_width(" · ", 12)
        if tag is None:
            out.append(_text(x, y, words, 12))
            x += width
        else:
            drawn, width = _changed_text(x + 4, y, words, 12, tag)
            out.append(drawn)
            x += width + 4
    return out, lines


def _hidden_hand(size: int, top: float, new: Sequence[Card]) -> list[str]:
    """Another player's hand as card backs; as many of the last as the cards ``new`` (which
    this seat saw go into that hand) framed, and tagged with those cards."""
    hidden = shown(said_n("Hand: {n} card (hidden)", "Hand: {n} cards (hidden)", size))
    out = [_text(20, top + 16, hidden, 12)]
    left = 30 + 7 * len(hidden)  # the backs begin after the words, about 7 px a letter
    taken = min(len(new), size)
    if taken:
        first = left + (size - taken) * 14
        out.append(_halo(first - 3, top + 1, taken * 14 + 4, 22, 3))
        out.append(_tag(left + size * 14 + 6, top + 12, " ".join(c.code for c in new))[0])
    out += [
        f"<rect x='{left + i * 14:g}' y='{top + 4:g}' width='12' height='16' rx='2'"
        " fill='#445' stroke='#222'/>"
        for i in range(size)
    ]
    return out


def _bands(bands: tuple[Band, ...], new: dict[int, int] | None = None) -> tuple[str, int]:
    """A player's bands, drawn from 0, and how many rows of cards they take; the bands at the
    positions ``new`` framed and tagged as just played."""
    if not bands:
        return "", 0
    out, x, top = [_text(20, 16, said("Bands:"), 12)], 100, 0.0
    for i, band in enumerate(bands):
        width = band.size * (CARD_W + 4)
        if x + width > WIDTH - 10:
            x, top = 100, top + CARD_H + 8
        if new and i in new:
            out.append(_halo(x - 4, top - 4, width + 4, CARD_H + 8, 8))
            out += _cards(band.cards, x, top, leader=0)
            out.append(_tag(x + 2, top + 4, word("new band"), room=width + 2)[0])
        else:
            out += _cards(band.cards, x, top, leader=0)
        x += width + 14
    return "".join(out), int(top // (CARD_H + 8)) + 1


def _horde(
    horde: tuple[Colour, ...], x: float, y: float, filled: Sequence[Colour] = ()
) -> list[str]:
    """A player's Orc Horde, a space of each colour; the spaces just ``filled`` framed."""
    out = [_text(x - 48, y + 14, word("Horde"), 11)]
    for i, colour in enumerate(Colour):
        taken = colour in horde
        if colour in filled:
            out.append(_halo(x + i * 22 - 3, y - 3, 24, 24, 4))
        out.append(
            f"<rect x='{x + i * 22:g}' y='{y:g}' width='18' height='18' rx='3'"
            f" fill='{CARD_FILL[colour]}' fill-opacity='{1 if taken else 0.25}' stroke='#333'/>"
        )
        if taken:
            out.append(_text(x + i * 22 + 9, y + 13, "●", 11, fill="#fff", text_anchor="middle"))
    return out


def picture_parts(
    view: Observation,
    hands: dict[int, tuple[Card, ...]],
    who: str,
    changes: Changes | None = None,
) -> tuple[float, list[tuple[float, str]], str]:
    """The picture of ``view`` in parts, top to bottom: its height, each part with where it
    starts (the heading, the kingdoms, the Merfolk track, the row, each player; each drawn
    from its own top, so that it is the same text wherever it stands), and its description.
    A replay that draws many positions keeps each different part once. ``changes`` (read
    from a step's events by :func:`~ethnos_rules._pictures.changes.read_changes`) are marked.

    Raises:
        ValueError: ``changes`` name a card, band or seat the picture does not hold.
    """
    changes = changes if changes is not None else Changes()
    n = len(view.seats)
    head = said(
        "Age {age} of {ages} · next: {decision}",
        age=ROMAN[view.age],
        ages=ROMAN[view.ages],
        decision=view.decision,
    )
    parts = [
        (
            0.0,
            _text(10, 22, head, 15, font_weight="bold")
            + _text(WIDTH - 10, 22, who, 12, text_anchor="end", fill="#555"),
        )
    ]
    y = 34.0
    kingdoms, bottom = _kingdoms(view, 0.0, changes)
    parts += [(y, kingdom) for kingdom in kingdoms]  # one part each: they change apart
    y += bottom
    for draw in (_merfolk, _row):
        pieces, bottom = draw(view, 0.0, changes)
        if pieces:
            parts.append((y, "".join(pieces)))
        y += bottom
    for seat in range(n):
        panel, bottom = _player(view, seat, hands.get(seat), changes)
        parts += [(y + top, part) for top, part in panel]
        y += bottom
    return y, parts, _description(view, hands, who, changes)


def place(top: float, part: str) -> str:
    """A part of a picture moved down to ``top``."""
    return f"<g transform='translate(0 {top:g})'>{part}</g>" if top else part


def svg_of(
    height: float, parts: Sequence[tuple[float, str]], desc: str, size: int | None = None
) -> str:
    """The whole picture from :func:`picture_parts`."""
    background = f"<rect x='0' y='0' width='{WIDTH}' height='{height:g}' fill='#fff'/>"
    drawn = [place(top, part) for top, part in parts]
    defs = card_defs(_RULES.card(code) for code in set(_USED.findall("".join(drawn))))
    return _svg(WIDTH, height, [marker_defs(), defs, background, *drawn], desc, size)


_USED = re.compile(r"href='#card-([A-Za-z-]+)'")


def seat_picture(
    state: GameState, seat: int | None, changes: Sequence[Event] = ()
) -> tuple[float, list[tuple[float, str]], str]:
    """:func:`picture_parts` of the state: every hand shown, or what ``seat`` sees; what the
    events ``changes`` (those of the step that led to ``state``) did is marked, as far as
    ``seat`` may see them (every event when None).

    Raises:
        TypeError: ``changes`` is not a sequence of events.
        ValueError: ``changes`` do not fit the state (events of another step).
    """
    players = len(state.players)
    if seat is None:
        hands = {s: p.hand for s, p in enumerate(state.players)}
        marks = read_changes(changes, seat=None, players=players)
        return picture_parts(observation(state, 0), hands, said("every hand shown"), marks)
    view = observation(state, seat)
    marks = read_changes(changes, seat=seat, players=players)
    return picture_parts(view, {seat: view.hand}, said("as seat {seat} sees it", seat=seat), marks)


def _description(
    view: Observation, hands: dict[int, tuple[Card, ...]], who: str, changes: Changes
) -> str:
    lines = [
        said(
            "Ethnos, {who}. Age {age}; next: {decision}.",
            who=who,
            age=view.age,
            decision=view.decision,
        )
    ]
    row = ", ".join(c.code for c in view.row)
    lines.append(said("Row: {cards}.", cards=row) if row else said("Row: empty."))
    for seat, seen in enumerate(view.seats):
        hand = hands.get(seat)
        held = (
            said("hand {cards}", cards=", ".join(c.code for c in hand))
            if hand is not None
            else said("hand {n} cards", n=seen.hand_size)
        )
        lines.append(
            said(
                "Seat {seat}: Glory {glory}, {hand}, {bands} bands.",
                seat=seat,
                glory=seen.glory,
                hand=held,
                bands=len(seen.bands),
            )
        )
    marked = changes.phrases()
    if marked:
        lines.append(said("Marked as just changed: {marks}.", marks=said_list(marked, "; ")))
    return said_list(lines, " ")


def board_svg(
    state: GameState,
    *,
    seat: int | None = None,
    size: int | None = None,
    changes: Sequence[Event] = (),
    lang: str = ENGLISH,
) -> str:
    """A picture of the whole state, or of what ``seat`` sees (other hands as counts only).

    As ``chess.svg.board(lastmove=...)`` marks the last move, ``changes`` marks what the
    events of a step did: the band just played, the markers just placed, the cards, tokens
    and Horde spaces just taken, the Merfolk's move, and the Glory gained (``+N``). Each is
    framed by a thick dark outline and named by a dark tag, so colour is never the only sign;
    the picture's description names them too. A seat's picture marks only the events that
    seat may see (``event.visible_to``).

    Args:
        state: The state to draw.
        seat: Draw what this seat sees; every hand when None.
        size: The width in pixels to show it at (it scales: the picture has a viewBox).
        changes: The events of the step that led to ``state`` (``step(...).events``), or
            any of them: only those are marked.
        lang: The language of the picture's words (``"es"``, ``"pt"``, ``"uk"``, ``"cs"``;
            English by default); cards and kingdoms keep their names of the notation.

    >>> from ethnos_rules import position
    >>> from ethnos_rules.svg import board
    >>> state = position(3, ["DWA", "ELF", "GIA", "MER", "ORC"],
    ...                  hands={0: "ELF-red", 1: "DWA-blue GIA-green"})
    >>> full, mine = board(state), board(state, seat=0)
    >>> "DWA-blue" in full, "DWA-blue" in mine, "2 cards (hidden)" in mine
    (True, False, True)

    What a step changed, marked:

    >>> from ethnos_rules import parse_action, step
    >>> result = step(state, parse_action("band *ELF-red"))
    >>> picture = board(result.state, changes=result.events)
    >>> "class='changed'" in picture, "new band" in picture
    (True, True)
    >>> print(picture.split("<desc>")[1].split("</desc>")[0].split("Marked as just changed: ")[1])
    the band seat 0 played, led by ELF-red.

    Raises:
        SetupError: (``SETUP-1``) ``seat`` is not a seat of the game.
        LanguageError: ``lang`` is no language the referee speaks.
        TypeError: ``changes`` is not a sequence of :class:`~ethnos_rules.Event`.
        ValueError: ``changes`` name a seat, card or band the state does not hold (events of
            another step than the one that led to ``state``).
    """
    with drawn_in(lang):
        return svg_of(*seat_picture(_game(state), seat, changes), size=size)


def view_svg(
    view: Observation,
    *,
    size: int | None = None,
    changes: Sequence[Event] = (),
    lang: str = ENGLISH,
) -> str:
    """A picture of what one seat sees: its own hand face up, the others' as counts; the
    events ``changes`` that seat may see are marked, as :func:`board_svg` marks them; its
    words in ``lang``.

    >>> from ethnos_rules import observation, position
    >>> from ethnos_rules.svg import view
    >>> state = position(3, ["DWA", "ELF", "GIA", "MER", "ORC"], hands={1: "DWA-blue"})
    >>> "Рука (1):" in view(observation(state, 1), lang="uk")
    True

    Raises:
        TypeError: ``view`` is not an Observation, or ``changes`` not a sequence of events.
        ValueError: ``changes`` do not fit the view.
        LanguageError: ``lang`` is no language the referee speaks.
    """
    _expect(view, Observation, "a view")
    marks = read_changes(changes, seat=view.seat, players=len(view.seats))
    with drawn_in(lang):
        who = said("as seat {seat} sees it", seat=view.seat)
        height, parts, desc = picture_parts(view, {view.seat: view.hand}, who, marks)
        return svg_of(height, parts, desc, size)
