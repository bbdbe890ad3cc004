"""A recorded game as one self-contained HTML page that a person steps through, turn by turn
or decision by decision.

The page holds everything (inline SVG, CSS and a little JavaScript; nothing from the
network). It steps by turns: a recruit with its card drawn, or a band with its marker and its
Leader's ability, is one step; which decisions make a turn is read from their events (a turn
begins with an event that ``opens_turn``, in the rules' events). It also steps by single
decisions, as the record holds them.

Each step shows the board and what happened, in the events' own sentences (laid out by the
narration's :class:`~ethnos_rules._text.narration.Teller`), each rule id a link to the rule
with its sentence as a tooltip. Where an Age ends, the page shows the board being scored (the
bands still on the table), then the Age's scores, then the next Age. A hint panel says who is
to move, their legal moves and what the end of the Age would give now
(:func:`~ethnos_rules.score_now`).

A record kept at one seat shows what that seat saw: the other players' cards unseen, and
their legal moves not listed. Each different part of a picture (a kingdom strip, a player's
panel) is written once, so the page stays small.

>>> from ethnos_rules import GameRecord, play_random
>>> from ethnos_rules._text.html_replay import replay_html
>>> page = replay_html(GameRecord.from_playthrough(play_random(2, seed=1)))
>>> page.startswith("<!DOCTYPE html>"), "<link" in page, " src=" in page   # nothing fetched
(True, False, False)
"""

from __future__ import annotations

import base64
import functools
import json
import re
import zlib
from collections.abc import Sequence
from html import escape
from importlib import resources
from itertools import pairwise
from typing import Any

import attrs

from .._io.records import GameRecord, check_record
from .._io.validation import validate
from .._pictures.changes import Changes, read_changes
from .._pictures.drawing import WIDTH, card_defs, marker_defs, seat_picture
from .._pictures.words import drawn_in, shown
from .._replay.replay import Decision, Refusal, Visitor
from .._rules.actions import Action
from .._rules.components import Card
from .._rules.engine import legal_actions, pending_decision, score_now
from .._rules.errors import RulesError
from .._rules.events import (
    AgeBegan,
    AgeEnded,
    AgeScored,
    BandPlayed,
    Event,
    GameEnded,
    Passed,
    Recruited,
    opens_turn,
)
from .._rules.said import Said, said, word
from .._rules.state import GameState, Stage
from .._rules.words import ROMAN, given
from . import rulebook
from .i18n import ENGLISH, language, page_in, say, translate
from .narration import Teller, opening, unseen_sentence


@attrs.frozen
class _Unseen:
    """A decision whose card the record's seat did not see, told from the decision itself."""

    text: str


Item = Event | str | _Unseen
"""What a step tells: an event, a sentence of the page's own (the game's opening), or a card
drawn or kept unseen."""

MOVES_SHOWN = 40
"""The most legal moves of one verb the hint panel lists (it counts the others)."""


@attrs.frozen
class _Segment:
    """Part of a decision's events, told over one board: a decision is cut where the Age ends
    and where its scores are added up, so that the board being scored is shown before the
    next Age's.

    Attributes:
        role: ``""`` (a decision as a whole), ``"ends"`` (up to the Age's end), ``"scoring"``
            (scores, with Orc decisions to come), ``"scored"`` (up to the Age's scores) or
            ``"next"`` (the next Age, or the game's end).
        board: The state shown: after the decision, or before it while the Age is scored.
        items: What is told.
        follows_end: Whether it follows an Age's end or its scores in the same decision (so
            it begins a step of the page's own when stepping by turns).
    """

    role: str
    board: GameState
    items: Sequence[Item]
    follows_end: bool


def _segments(decision: Decision, events: Sequence[Event]) -> list[_Segment]:
    """The decision's ``events`` (those told) cut after an :class:`AgeEnded` and after an
    :class:`AgeScored`. What ends with either is told over the board before the decision (its
    bands still on the table); what follows the Age's scores over the board after it."""
    cuts = [i + 1 for i, e in enumerate(events) if isinstance(e, AgeEnded | AgeScored)]
    if not cuts:
        return [_Segment("", decision.after, events, False)]
    out = []
    bounds = [0, *cuts, len(events)]
    for start, stop in pairwise(bounds):
        part = events[start:stop]
        if not part:
            continue
        follows = start > 0
        if isinstance(part[-1], AgeEnded):
            out.append(_Segment("ends", decision.before, part, follows))
        elif isinstance(part[-1], AgeScored):
            out.append(_Segment("scored", decision.before, part, follows))
        elif isinstance(events[start - 1], AgeEnded):
            out.append(_Segment("scoring", decision.after, part, follows))
        else:
            out.append(_Segment("next", decision.after, part, follows))
    return out


class _Page(Visitor[dict[str, Any]]):
    """Collects the page's data as the record is replayed: a view per decision (three where
    an Age ends: the end, the scores, the next Age), each with its picture's parts (as indexes
    into a table of distinct parts), its sentences, its scores and its hint (as indexes into a
    table of distinct hints); and the turns, each a run of views."""

    def __init__(self, record: GameRecord, lang: str = ENGLISH) -> None:
        self.lang = lang
        self.seat = record.seat
        self.parts: dict[str, int] = {}  # each distinct part of a picture, and its index
        self.hints: list[dict[str, Any]] = []  # each distinct hint panel
        self._hint_index: dict[str, int] = {}
        self.views: list[dict[str, Any]] = []
        self.turns: list[dict[str, Any]] = []
        self.error: str | None = None
        self.refused = False
        self.cards: tuple[Card, ...] = ()
        self._items: list[Item] = []  # what the turn under way told so far
        self._board: GameState | None = None  # the board its last view shows
        self._last: Sequence[Item] = ()  # what its last view told
        self._players = record.players
        self._age_turns = 0

    # --- the visitor -----------------------------------------------------------------------

    def begin_game(self, start: GameState, events: tuple[Event, ...]) -> None:
        self.cards = start.rules.cards
        self._open_turn(say(word("The setup"), self.lang))
        told: list[Item] = [*opening(start), *self._seen(events)]
        self._view(0, None, say(word("The start of the game"), self.lang), start, told, "")

    def visit_setup_error(self, error: RulesError) -> None:
        refused = say(error.reason, self.lang)
        if self.lang == ENGLISH:
            refused = str(error).removeprefix(f"{error.rule}: ")
        self.error = say(
            said("The setup is refused: {rule}: {reason}", rule=error.rule, reason=refused),
            self.lang,
        )

    def visit_decision(self, decision: Decision) -> None:
        step = decision.index + 1  # the page's step N shows the state after N decisions
        seen = self._seen(decision.events)
        for segment in _segments(decision, seen):
            items: Sequence[Item] = segment.items
            if not items:  # a card the record's seat did not see: told from the decision
                unseen = unseen_sentence(decision) or _fallback(decision, self.lang)
                items = [_Unseen(unseen)]
            seat = _turn_opening(items)
            if segment.follows_end:
                self._open_turn(say(_age_title(segment, decision), self.lang))
            elif seat is not None:
                self._age_turns += 1
                age = ROMAN[decision.before.age]
                opened = said(
                    "Age {age}, turn {turn}: seat {seat}", age=age, turn=self._age_turns, seat=seat
                )
                self._open_turn(say(opened, self.lang))
            if any(isinstance(item, AgeBegan) for item in items):
                self._age_turns = 0
            if segment.role == "ends":  # the turn that draws the last Dragon says so
                ends = said(" · Age {age} ends", age=ROMAN[decision.before.age])
                self.turns[-1]["title"] += say(ends, self.lang)
            title = said(
                "Step {step}: {did}{suffix}", step=step, did=decision.text, suffix=_suffix(segment)
            )
            self._view(
                step, decision.text, say(title, self.lang), segment.board, items, segment.role
            )

    def visit_refusal(self, refusal: Refusal) -> None:
        self.refused = True  # told as validate() tells it, in the game's terms

    def result(self) -> dict[str, Any]:
        self._close_turn()
        table = sorted(self.parts, key=self.parts.__getitem__)
        joined = "".join(table)
        used = [card for card in self.cards if f"#card-{card.code}'" in joined]
        return {
            "parts": table,
            "hints": self.hints,
            "views": self.views,
            "turns": self.turns,
            "error": self.error,
            "refused": self.refused,
            "defs": self._marker_defs() + card_defs(used),
        }

    # --- views and turns -------------------------------------------------------------------

    def _seen(self, events: Sequence[Event]) -> tuple[Event, ...]:
        """The events the record's seat saw (all of them in a whole record)."""
        if self.seat is None:
            return tuple(events)
        return tuple(e for e in events if e.visible_to is None or self.seat in e.visible_to)

    def _view(
        self,
        step: int,
        did: str | None,
        title: str,
        board: GameState,
        items: Sequence[Item],
        role: str,
    ) -> None:
        """One view: the board after ``step`` decisions (or before the last, while its Age is
        scored), ``did`` the last decision's text, and what it told."""
        view: dict[str, Any] = {
            "step": step,
            "did": did,
            "title": title,
            **self._picture(board, items),
            "lines": _told(items, self.lang),
            "hint": self._hint(board, role),
            "turn": len(self.turns) - 1,
        }
        if role:
            view["role"] = role
        scored = [item for item in items if isinstance(item, AgeScored)]
        if scored:
            view["scores"] = _score_table(scored[-1], self.lang)
        self.views.append(view)
        self._items += items
        self._board, self._last = board, items

    def _marker_defs(self) -> str:
        with drawn_in(self.lang):
            return marker_defs()

    def _marks(self, items: Sequence[Item]) -> Changes:
        """What the picture marks for ``items``."""
        return read_changes(_events(items), seat=self.seat, players=self._players)

    def _picture(self, board: GameState, items: Sequence[Item]) -> dict[str, Any]:
        """The picture of ``board`` with what ``items`` changed marked, as its height, its
        parts (indexes into the table of distinct parts) and its description."""
        with drawn_in(self.lang):  # the picture's words in the page's language
            height, parts, desc = seat_picture(board, self.seat, _events(items))
            desc = shown(desc)
        table = self.parts
        return {
            "height": height,
            "parts": [[top, table.setdefault(part, len(table))] for top, part in parts],
            "desc": desc,
        }

    def _open_turn(self, title: str) -> None:
        self._close_turn()
        self.turns.append({"title": title, "first": len(self.views)})

    def _close_turn(self) -> None:
        """Finish the turn under way: its last view, and its own lines where telling the turn
        at once reads shorter than its decisions one by one (a recruit from the deck is told
        by the card drawn; the row's cards in one line)."""
        if not self.turns:
            return
        turn = self.turns[-1]
        turn["last"] = len(self.views) - 1
        lines = _told(self._items, self.lang)
        views = self.views[turn["first"] : turn["last"] + 1]
        if lines != [line for view in views for line in view["lines"]]:
            turn["lines"] = lines
        if self._board is not None and self._marks(self._items) != self._marks(self._last):
            turn["picture"] = self._picture(self._board, self._items)  # all the turn did
        self._items = []

    def _hint(self, state: GameState, role: str) -> int:
        """The hint panel of the board shown, as an index into the table of distinct hints."""
        if role in ("ends", "scored"):
            hint = {"who": say(_AGE_OVER, self.lang)}
        else:
            hint = _hint(state, self.seat, self.lang)
        key = json.dumps(hint, separators=(",", ":"), sort_keys=True)
        if key not in self._hint_index:
            self._hint_index[key] = len(self.hints)
            self.hints.append(hint)
        return self._hint_index[key]


_AGE_OVER = said("The Age is over: nobody moves while it is scored (END-1 to END-5).")


def _events(items: Sequence[Item]) -> list[Event]:
    return [item for item in items if isinstance(item, Event)]


def _told(items: Sequence[Item], lang: str = ENGLISH) -> list[str]:
    """The lines that tell ``items``: events laid out as the narration lays them out, with the
    page's own sentences in their places; in ``lang``, each line that is an event's sentence
    or a marked line of the narration's own (such as the row's cards in one line)."""
    teller = Teller(headings=False)
    for item in items:
        if isinstance(item, _Unseen):
            teller.unseen(item.text)
        elif isinstance(item, str):
            teller.note(item, flush=True)
        else:
            teller.tell((item,))
    lines = teller.finish()
    if lang == ENGLISH:
        return lines
    sentences = {str(e): e for e in items if isinstance(e, Event)}
    return [_line_in(line, sentences, lang) for line in lines]


def _line_in(line: str, sentences: dict[str, Event], lang: str) -> str:
    """``line`` in ``lang`` where it is a marked sentence (the narration's own lines) or an
    event's sentence (kept indented as it was)."""
    if isinstance(line, Said):
        return say(line, lang)
    text = line.lstrip(" ")
    event = sentences.get(text)
    return line if event is None else line[: len(line) - len(text)] + translate(event, lang)


def _turn_opening(items: Sequence[Item]) -> int | None:
    """The seat whose turn begins with these items (see :func:`opens_turn`), or None."""
    for item in items:
        if isinstance(item, Recruited | Passed | BandPlayed) and opens_turn(item):
            return item.seat
    return None


def _fallback(decision: Decision, lang: str = ENGLISH) -> str:
    """A decision that told nothing: what was decided, and how (no decision of the rules
    does this today; the page still says something for every step)."""
    return f"{translate(pending_decision(decision.before), lang)}: {decision.text}."


def _age_title(segment: _Segment, decision: Decision) -> str:
    """The title of a turn that begins where an Age ends."""
    if segment.role == "next":
        if any(isinstance(item, GameEnded) for item in segment.items):
            return said("The game is over")
        return said("Age {age} begins", age=ROMAN[decision.after.age])
    return said("Age {age} is scored", age=ROMAN[decision.before.age])


def _suffix(segment: _Segment) -> str:
    """What a view's title adds to its decision where an Age ends."""
    age = ROMAN[segment.board.age]
    if segment.role == "ends":
        return said(" · Age {age} ends", age=age)
    if segment.role in ("scoring", "scored"):
        return said(" · Age {age} is scored", age=age)
    if segment.role == "next" and segment.board.pending.terminal:
        return said(" · the game is over")
    if segment.role == "next":
        return said(" · Age {age} begins", age=age)
    return ""


def _score_table(scored: AgeScored, lang: str = ENGLISH) -> dict[str, Any]:
    """The Age's Glory by source and in all, from its summary (END-6)."""
    head, *rows = scored.summary.rows()
    caption = said("Age {age} scored ({rule})", age=ROMAN[scored.summary.age], rule=scored.rule)
    return {
        "caption": say(caption, lang),
        "head": [say(name, lang) for name in head],
        "rows": [[say(said("seat {seat}", seat=row[0]), lang), *row[1:]] for row in rows],
    }


def _hint(state: GameState, seat: int | None, lang: str = ENGLISH) -> dict[str, Any]:
    """Who is to move in ``state`` and how: the legal moves of the player to move (for a
    record kept at one seat, only that seat's own), and the scores if the Age ended now."""
    pending = pending_decision(state)
    to_move = _to_move(pending.seat, translate(pending, lang), pending.rule)
    hint: dict[str, Any] = {"who": say(to_move, lang)}
    if pending.chance or pending.seat is None:
        pass  # chance, or the game is over: no one's moves
    elif seat is None or pending.seat == seat:
        hint["moves"] = _moves(legal_actions(state))
    else:
        hidden = said(
            "Seat {seat}'s legal moves are not listed: this record is kept at seat {kept}, and "
            "lists that seat's own moves only.",
            seat=pending.seat,
            kept=seat,
        )
        hint["hidden"] = say(hidden, lang)
    if state.pending.stage is Stage.PLAY:
        now = score_now(state)
        head, *rows = now.summary.rows()
        if any(p.horde for p in state.players):
            caption = said("If the Age ended now (each Orc Horde emptied)")
        else:
            caption = said("If the Age ended now")
        hint["now"] = {
            "caption": say(caption, lang),
            "head": [say(name, lang) for name in head],
            "rows": [[say(said("seat {seat}", seat=row[0]), lang), *row[1:]] for row in rows],
        }
    return hint


def _to_move(seat: int | None, text: str, rule: str) -> str:
    """Who decides next, and what, in the pending decision's words (already in the page's
    language: what it decides follows the first colon, as "seat 2: …" and "chance: …")."""
    what = text.split(": ", 1)[-1]
    if seat is not None:
        return said("Seat {seat} to move: {what} ({rule}).", seat=seat, what=what, rule=rule)
    if ": " in text:  # chance
        return said("Chance is next: {what} ({rule}).", what=what, rule=rule)
    return said("{text} ({rule}).", text=text[0].upper() + text[1:], rule=rule)


def _moves(actions: Sequence[Action]) -> list[list[Any]]:
    """The legal moves by verb, in the rules' order: ``[["recruit", ["DWA-red", "deck"], 0],
    ...]``, the last number counting those not listed."""
    verbs: dict[str, list[str]] = {}
    for action in actions:
        verb, _, rest = str(action).partition(" ")
        verbs.setdefault(verb, []).append(rest or verb)
    return [
        [verb, shown[:MOVES_SHOWN], max(0, len(shown) - MOVES_SHOWN)]
        for verb, shown in verbs.items()
    ]


# --- rule ids -----------------------------------------------------------------------------------

_RULE_ID = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-[0-9][a-z0-9]*(?![\w-])")
"""A rule id as the sentences cite it (``BAND-5``, ``TRIBE-MER-2``, ``BAND-5a``)."""


def _cited(texts: str, page: str | None) -> dict[str, list[str]]:
    """Every rule id in ``texts`` that the rulebook has an anchor for, with its link and its
    sentence, in the rulebook's order."""
    found = set(_RULE_ID.findall(texts))
    order = {rule: i for i, rule in enumerate(rulebook.rules())}
    last = len(order)  # an id the text has no rule for goes after those it has
    known = sorted((r for r in found if rulebook.anchor(r)), key=lambda r: (order.get(r, last), r))
    return {r: [rulebook.address(r, page), rulebook.sentence(r)] for r in known}


def _rules_section(cited: dict[str, list[str]], lang: str = ENGLISH) -> str:
    """The rules cited, each with its sentence and link: the page reads offline."""
    items = "".join(
        f"<dt><a href='{escape(link)}' target='_blank' rel='noopener'>{escape(rule)}</a></dt>"
        f"<dd>{escape(said.split(': ', 1)[-1])}</dd>"
        for rule, (link, said) in cited.items()
    )
    heading = say(said("Rules cited ({n})", n=len(cited)), lang)
    head = f"<summary>{escape(heading)}</summary>"
    return f"<details id='rules'>{head}<dl>{items}</dl></details>"


# --- the page -----------------------------------------------------------------------------------


@functools.cache
def _template(lang: str = ENGLISH) -> str:
    """The page with its style and script in place (each is a file of its own here), its
    words in ``lang``."""
    folder = resources.files("ethnos_rules._text").joinpath("replay_page")
    page = folder.joinpath("page.html").read_text("utf-8")
    for name in ("page.css", "page.js"):
        page = page.replace(f"/*{name}*/", folder.joinpath(name).read_text("utf-8"))
    return page_in(page, lang)


def replay_html(
    record: GameRecord, *, at: int = 0, rules_page: str | None = None, lang: str = ENGLISH
) -> str:
    """The page of ``record``: every turn and decision, its board and its sentences.

    It opens at step ``at`` (the state after ``at`` decisions, shown decision by decision; a
    step past the last opens the last, where a refused record shows its refusal), else at the
    setup, stepping by turns; or where its address says: ``page.html#40`` (after 40
    decisions), ``page.html#t12`` (the twelfth step by turn, the setup being 0). The address
    follows what is shown, to be bookmarked or sent.

    Args:
        record: The game; a record kept at one seat shows what that seat saw.
        at: The number of decisions to open at (0: the setup, by turns).
        rules_page: Where the rule ids link to (their anchors on it); by default the rules
            page of the published docs (:func:`~ethnos_rules._text.rulebook.address`).
        lang: The page's language (``"es"``, ``"pt"``, ``"uk"``, ``"cs"``; English by
            default): its own words, the events' sentences, the hints and the scores (the
            rules' text in the tooltips, the pictures and the narration's own summary lines
            stay English).

    Raises:
        RecordError: ``record`` is not a GameRecord.
        ValueError: ``at`` is not a number of decisions (an int from 0).
        TypeError: ``rules_page`` is neither text nor None.
        LanguageError: ``lang`` is no language the referee speaks.
    """
    check_record(record, "replay_html()")
    if type(at) is not int or at < 0:
        raise ValueError(f"the page opens after a number of decisions from 0, not {given(at)}")
    if rules_page is not None and not isinstance(rules_page, str):
        raise TypeError(
            f"rules_page is the address of a rules page (text), not {given(rules_page)}"
        )
    lang = language(lang)
    data = record.accept(_Page(record, lang))
    if data.pop("refused") or record.claimed_glory is not None:  # as validate says
        report = validate(record)
        if not report.ok:
            data["error"] = report.summary()
    if record.seat is None:
        title = said("Ethnos, {players} players: the whole game", players=record.players)
    else:
        title = said(
            "Ethnos, {players} players: the game as seat {seat} saw it",
            players=record.players,
            seat=record.seat,
        )
    defs = data.pop("defs")
    told = json.dumps({k: v for k, v in data.items() if k != "parts"}, ensure_ascii=False)
    data["rules"] = cited = _cited(told, rules_page)
    return _fill(say(title, lang), defs, cited, at, data, lang)


def _fill(
    title: str,
    defs: str,
    cited: dict[str, list[str]],
    at: int,
    data: Any,
    lang: str = ENGLISH,
) -> str:
    """The page, its data packed: JSON, compressed, in base64, whose letters can neither end
    nor hide the script (no "</script>", no "<!--")."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    payload = base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")
    filled = {
        "title": escape(title),
        "width": str(WIDTH),
        "defs": defs,
        "rules": _rules_section(cited, lang),
        "at": str(at),
        "data": payload,
        "lang": lang,
    }
    return re.sub(r"\{\{(\w+)\}\}", lambda m: filled[m.group(1)], _template(lang))
