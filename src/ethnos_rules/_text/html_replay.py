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
from .._pictures.drawing import MARKER_DEFS, WIDTH, card_defs, seat_picture
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
from .._rules.state import GameState, Stage
from .._rules.words import ROMAN, given
from . import rulebook
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

    def __init__(self, record: GameRecord) -> None:
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
        self._open_turn("The setup")
        told: list[Item] = [*opening(start), *self._seen(events)]
        self._view(0, None, "The start of the game", start, told, "")

    def visit_setup_error(self, error: RulesError) -> None:
        self.error = f"The setup is refused: {error}"

    def visit_decision(self, decision: Decision) -> None:
        step = decision.index + 1  # the page's step N shows the state after N decisions
        seen = self._seen(decision.events)
        for segment in _segments(decision, seen):
            items: Sequence[Item] = segment.items
            if not items:  # a card the record's seat did not see: told from the decision
                items = [_Unseen(unseen_sentence(decision) or _fallback(decision))]
            seat = _turn_opening(items)
            if segment.follows_end:
                self._open_turn(_age_title(segment, decision))
            elif seat is not None:
                self._age_turns += 1
                age = ROMAN[decision.before.age]
                self._open_turn(f"Age {age}, turn {self._age_turns}: seat {seat}")
            if any(isinstance(item, AgeBegan) for item in items):
                self._age_turns = 0
            if segment.role == "ends":  # the turn that draws the last Dragon says so
                self.turns[-1]["title"] += f" · Age {ROMAN[decision.before.age]} ends"
            title = f"Step {step}: {decision.text}{_suffix(segment)}"
            self._view(step, decision.text, title, segment.board, items, segment.role)

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
            "defs": MARKER_DEFS + card_defs(used),
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
            "lines": _told(items),
            "hint": self._hint(board, role),
            "turn": len(self.turns) - 1,
        }
        if role:
            view["role"] = role
        scored = [item for item in items if isinstance(item, AgeScored)]
        if scored:
            view["scores"] = _score_table(scored[-1])
        self.views.append(view)
        self._items += items
        self._board, self._last = board, items

    def _marks(self, items: Sequence[Item]) -> Changes:
        """What the picture marks for ``items``."""
        return read_changes(_events(items), seat=self.seat, players=self._players)

    def _picture(self, board: GameState, items: Sequence[Item]) -> dict[str, Any]:
        """The picture of ``board`` with what ``items`` changed marked, as its height, its
        parts (indexes into the table of distinct parts) and its description."""
        height, parts, desc = seat_picture(board, self.seat, _events(items))
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
        lines = _told(self._items)
        views = self.views[turn["first"] : turn["last"] + 1]
        if lines != [line for view in views for line in view["lines"]]:
            turn["lines"] = lines
        if self._board is not None and self._marks(self._items) != self._marks(self._last):
            turn["picture"] = self._picture(self._board, self._items)  # all the turn did
        self._items = []

    def _hint(self, state: GameState, role: str) -> int:
        """The hint panel of the board shown, as an index into the table of distinct hints."""
        hint = _hint(state, self.seat) if role not in ("ends", "scored") else _AGE_OVER
        key = json.dumps(hint, separators=(",", ":"), sort_keys=True)
        if key not in self._hint_index:
            self._hint_index[key] = len(self.hints)
            self.hints.append(hint)
        return self._hint_index[key]


_AGE_OVER = {"who": "The Age is over: nobody moves while it is scored (END-1 to END-5)."}


def _events(items: Sequence[Item]) -> list[Event]:
    return [item for item in items if isinstance(item, Event)]


def _told(items: Sequence[Item]) -> list[str]:
    """The lines that tell ``items``: events laid out as the narration lays them out, with the
    page's own sentences in their places."""
    teller = Teller(headings=False)
    for item in items:
        if isinstance(item, _Unseen):
            teller.unseen(item.text)
        elif isinstance(item, str):
            teller.note(item, flush=True)
        else:
            teller.tell((item,))
    return teller.finish()


def _turn_opening(items: Sequence[Item]) -> int | None:
    """The seat whose turn begins with these items (see :func:`opens_turn`), or None."""
    for item in items:
        if isinstance(item, Recruited | Passed | BandPlayed) and opens_turn(item):
            return item.seat
    return None


def _fallback(decision: Decision) -> str:
    """A decision that told nothing: what was decided, and how (no decision of the rules
    does this today; the page still says something for every step)."""
    return f"{pending_decision(decision.before).text}: {decision.text}."


def _age_title(segment: _Segment, decision: Decision) -> str:
    """The title of a turn that begins where an Age ends."""
    if segment.role == "next":
        if any(isinstance(item, GameEnded) for item in segment.items):
            return "The game is over"
        return f"Age {ROMAN[decision.after.age]} begins"
    return f"Age {ROMAN[decision.before.age]} is scored"


def _suffix(segment: _Segment) -> str:
    """What a view's title adds to its decision where an Age ends."""
    age = ROMAN[segment.board.age]
    if segment.role == "ends":
        return f" · Age {age} ends"
    if segment.role in ("scoring", "scored"):
        return f" · Age {age} is scored"
    if segment.role == "next":
        return " · the game is over" if segment.board.pending.terminal else f" · Age {age} begins"
    return ""


def _score_table(scored: AgeScored) -> dict[str, Any]:
    """The Age's Glory by source and in all, from its summary (END-6)."""
    head, *rows = scored.summary.rows()
    return {
        "caption": f"Age {ROMAN[scored.summary.age]} scored ({scored.rule})",
        "head": head,
        "rows": [[f"seat {row[0]}", *row[1:]] for row in rows],
    }


def _hint(state: GameState, seat: int | None) -> dict[str, Any]:
    """Who is to move in ``state`` and how: the legal moves of the player to move (for a
    record kept at one seat, only that seat's own), and the scores if the Age ended now."""
    pending = pending_decision(state)
    hint: dict[str, Any] = {"who": _to_move(pending.seat, pending.text, pending.rule)}
    if pending.chance or pending.seat is None:
        pass  # chance, or the game is over: no one's moves
    elif seat is None or pending.seat == seat:
        hint["moves"] = _moves(legal_actions(state))
    else:
        hint["hidden"] = (
            f"Seat {pending.seat}'s legal moves are not listed: this record is kept at seat"
            f" {seat}, and lists that seat's own moves only."
        )
    if state.pending.stage is Stage.PLAY:
        now = score_now(state)
        head, *rows = now.summary.rows()
        hordes = " (each Orc Horde emptied)" if any(p.horde for p in state.players) else ""
        hint["now"] = {
            "caption": f"If the Age ended now{hordes}",
            "head": head,
            "rows": [[f"seat {row[0]}", *row[1:]] for row in rows],
        }
    return hint


def _to_move(seat: int | None, text: str, rule: str) -> str:
    """Who decides next, and what, in the pending decision's words."""
    if seat is not None:
        return f"Seat {seat} to move: {text.split(': ', 1)[-1]} ({rule})."
    if text.startswith("chance: "):
        return f"Chance is next: {text.removeprefix('chance: ')} ({rule})."
    return f"{text[0].upper()}{text[1:]} ({rule})."


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


def _rules_section(cited: dict[str, list[str]]) -> str:
    """The rules cited, each with its sentence and link: the page reads offline."""
    items = "".join(
        f"<dt><a href='{escape(link)}' target='_blank' rel='noopener'>{escape(rule)}</a></dt>"
        f"<dd>{escape(said.split(': ', 1)[-1])}</dd>"
        for rule, (link, said) in cited.items()
    )
    head = f"<summary>Rules cited ({len(cited)})</summary>"
    return f"<details id='rules'>{head}<dl>{items}</dl></details>"


# --- the page -----------------------------------------------------------------------------------


@functools.cache
def _template() -> str:
    """The page with its style and script in place (each is a file of its own here)."""
    folder = resources.files("ethnos_rules._text").joinpath("replay_page")
    page = folder.joinpath("page.html").read_text("utf-8")
    for name in ("page.css", "page.js"):
        page = page.replace(f"/*{name}*/", folder.joinpath(name).read_text("utf-8"))
    return page


def replay_html(record: GameRecord, *, at: int = 0, rules_page: str | None = None) -> str:
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

    Raises:
        RecordError: ``record`` is not a GameRecord.
        ValueError: ``at`` is not a number of decisions (an int from 0).
        TypeError: ``rules_page`` is neither text nor None.
    """
    check_record(record, "replay_html()")
    if type(at) is not int or at < 0:
        raise ValueError(f"the page opens after a number of decisions from 0, not {given(at)}")
    if rules_page is not None and not isinstance(rules_page, str):
        raise TypeError(
            f"rules_page is the address of a rules page (text), not {given(rules_page)}"
        )
    data = record.accept(_Page(record))
    if data.pop("refused") or record.claimed_glory is not None:  # as validate says
        report = validate(record)
        if not report.ok:
            data["error"] = report.summary()
    who = "the whole game" if record.seat is None else f"the game as seat {record.seat} saw it"
    title = f"Ethnos, {record.players} players: {who}"
    defs = data.pop("defs")
    told = json.dumps({k: v for k, v in data.items() if k != "parts"}, ensure_ascii=False)
    data["rules"] = cited = _cited(told, rules_page)
    return _fill(title, defs, cited, at, data)


def _fill(title: str, defs: str, cited: dict[str, list[str]], at: int, data: Any) -> str:
    """The page, its data packed: JSON, compressed, in base64, whose letters can neither end
    nor hide the script (no "</script>", no "<!--")."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    payload = base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")
    filled = {
        "title": escape(title),
        "width": str(WIDTH),
        "defs": defs,
        "rules": _rules_section(cited),
        "at": str(at),
        "data": payload,
    }
    return re.sub(r"\{\{(\w+)\}\}", lambda m: filled[m.group(1)], _template())
