"""A recorded game as one self-contained HTML page to step through, decision by decision.

The page holds everything (inline SVG, CSS and a little JavaScript; nothing from the
network). Each step shows the board after the decision and the sentences of its events; the
steps that end an Age also show the Age's scores by source. A record kept at one seat shows
what that seat saw. Each different part of a picture (a kingdom strip, a player's panel) is
written once, so the page stays small.

>>> from ethnos_rules import GameRecord, play_random
>>> from ethnos_rules._text.html_replay import replay_html
>>> page = replay_html(GameRecord.from_playthrough(play_random(2, seed=1)))
>>> page.startswith("<!DOCTYPE html>"), "<link" in page, " src=" in page   # nothing fetched
(True, False, False)
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from .._io.records import GameRecord, check_record
from .._io.validation import validate
from .._rules.components import Card
from .._rules.drawing import MARKER_DEFS, WIDTH, card_defs, seat_picture
from .._rules.errors import RulesError
from .._rules.events import AgeScored, Event
from .._rules.replay import Decision, Refusal, Visitor
from .._rules.state import GameState
from .._rules.words import ROMAN, given


class _Frames(Visitor[dict[str, Any]]):
    """Collects one frame per decision: the picture's parts (as indexes into a table of
    distinct parts), the decision, its sentences, and the Age's scores where it ends one."""

    def __init__(self, record: GameRecord) -> None:
        self.seat = record.seat
        self.parts: dict[str, int] = {}
        self.frames: list[dict[str, Any]] = []
        self.error: str | None = None
        self.refused = False
        self.cards: tuple[Card, ...] = ()

    def _seen(self, events: tuple[Event, ...]) -> list[str]:
        return [str(e) for e in events if e.visible_to is None or self.seat in e.visible_to]

    def _frame(self, state: GameState, title: str, events: tuple[Event, ...]) -> None:
        height, parts, desc = seat_picture(state, self.seat)
        ids = [[top, self.parts.setdefault(part, len(self.parts))] for top, part in parts]
        frame: dict[str, Any] = {
            "title": title,
            "height": height,
            "parts": ids,
            "desc": desc,
            "lines": self._seen(events),
        }
        if any(isinstance(e, AgeScored) for e in events) and state.history:
            frame["scores"] = _score_table(state)
        self.frames.append(frame)

    def begin_game(self, start: GameState, events: tuple[Event, ...]) -> None:
        self.cards = start.rules.cards
        self._frame(start, "The start of the game", events)

    def visit_setup_error(self, error: RulesError) -> None:
        self.error = f"The setup is refused: {error}"

    def visit_decision(self, decision: Decision) -> None:
        title = f"Step {decision.index + 1}: {decision.text}"  # the state after it
        self._frame(decision.after, title, decision.events)

    def visit_refusal(self, refusal: Refusal) -> None:
        self.refused = True  # told as validate() tells it, in the game's terms

    def result(self) -> dict[str, Any]:
        table = sorted(self.parts, key=self.parts.__getitem__)
        used = [card for card in self.cards if f"#card-{card.code}'" in "".join(table)]
        return {
            "parts": table,
            "frames": self.frames,
            "error": self.error,
            "refused": self.refused,
            "defs": MARKER_DEFS + card_defs(used),
        }


def _score_table(state: GameState) -> str:
    """The last Age's Glory by source and in all, as an HTML table (from its summary)."""
    summary = state.history[-1]
    head, *rows = summary.rows()
    cells = "".join(f"<th>{escape(name)}</th>" for name in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return (
        f"<table class='scores'><caption>Age {ROMAN[summary.age]} scored</caption>"
        f"<tr>{cells}</tr>{body}</table>"
    )


def replay_html(record: GameRecord, *, at: int = 0) -> str:
    """The page of ``record``: every decision, its board and its sentences.

    It opens at step ``at`` (the state after ``at`` decisions; a step past the last opens the
    last, where a refused record shows its refusal), or at the step its address names
    (``page.html#40``); the address follows the step shown, to be bookmarked or sent.

    Raises:
        RecordError: ``record`` is not a GameRecord.
        ValueError: ``at`` is not a number of decisions (an int from 0).
    """
    check_record(record, "replay_html()")
    if type(at) is not int or at < 0:
        raise ValueError(f"the page opens after a number of decisions from 0, not {given(at)}")
    data = record.accept(_Frames(record))
    if data.pop("refused") or record.claimed_glory is not None:  # as validate says
        report = validate(record)
        if not report.ok:
            data["error"] = report.summary()
    who = "the whole game" if record.seat is None else f"the game as seat {record.seat} saw it"
    title = f"Ethnos, {record.players} players: {who}"
    defs = data.pop("defs")
    # No "<" at all inside the script: neither "</script>" nor "<!--" can end or hide it.
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return _PAGE.format(title=escape(title), width=WIDTH, data=payload, defs=defs, at=at)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 0; color: #222; }}
header {{ position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc;
  padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }}
header h1 {{ font-size: 16px; margin: 0 12px 0 0; }}
button {{ font-size: 15px; padding: 4px 10px; }}
#slider {{ flex: 1 1 160px; }}
main {{ display: flex; flex-wrap: wrap; gap: 12px; padding: 10px; }}
#board {{ flex: 1 1 560px; max-width: {width}px; overflow-x: auto; }}
#board svg {{ width: 100%; min-width: 560px; height: auto; }}
#story {{ flex: 1 1 280px; max-width: 520px; font-size: 15px; line-height: 1.4; }}
#story h2 {{ font-size: 16px; }}
table.scores {{ border-collapse: collapse; margin: 8px 0; }}
table.scores td, table.scores th {{ border: 1px solid #bbb; padding: 2px 6px;
  text-align: right; }}
.error {{ color: #a00; font-weight: bold; }}
</style></head>
<body>
<header><h1>{title}</h1>
<button id="first" title="the start (Home)">|&#x25C0;</button>
<button id="prev" title="back (left arrow)">&#x25C0;</button>
<button id="next" title="forward (right arrow)">&#x25B6;</button>
<button id="last" title="the end (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" value="0" aria-label="decision">
<span id="where"></span></header>
<svg width="0" height="0" style="position:absolute">{defs}</svg>
<main><div id="board"></div><div id="story"></div></main>
<script>
const DATA = {data};
let at = 0;
const slider = document.getElementById("slider");
slider.max = Math.max(0, DATA.frames.length - 1);
function esc(text) {{
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}}
function show(k) {{
  if (!DATA.frames.length) {{  // the setup itself is refused: nothing to draw
    document.getElementById("story").innerHTML = "<p class='error'>" + esc(DATA.error) + "</p>";
    return;
  }}
  at = Math.max(0, Math.min(DATA.frames.length - 1, k));
  const f = DATA.frames[at];
  const parts = f.parts.map(([top, i]) => top ?
    "<g transform='translate(0 " + top + ")'>" + DATA.parts[i] + "</g>" : DATA.parts[i]).join("");
  document.getElementById("board").innerHTML =
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} " + f.height +
    "' font-family='Helvetica, Arial, sans-serif'><desc>" + esc(f.desc) + "</desc>" +
    "<rect x='0' y='0' width='{width}' height='" + f.height + "' fill='#fff'/>" + parts +
    "</svg>";
  let story = "<h2>" + esc(f.title) + "</h2>" +
    f.lines.map(line => "<p>" + esc(line) + "</p>").join("");
  if (f.scores) story += f.scores;
  if (at === DATA.frames.length - 1 && DATA.error)
    story += "<p class='error'>" + esc(DATA.error) + "</p>";
  document.getElementById("story").innerHTML = story;
  document.getElementById("where").textContent =
    "step " + at + " of " + (DATA.frames.length - 1);
  slider.value = at;
  try {{ history.replaceState(null, "", "#" + at); }} catch (e) {{}}  // not on every file: URL
}}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(DATA.frames.length - 1);
slider.oninput = () => show(Number(slider.value));
document.addEventListener("keydown", e => {{
  if (e.target === slider) return;  // the slider steps by itself
  if (e.key === "ArrowRight") show(at + 1);
  else if (e.key === "ArrowLeft") show(at - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(DATA.frames.length - 1);
}});
function asked() {{  // the step the address names (#40), or NaN
  const named = /^#(\\d+)$/.exec(location.hash);
  return named ? Number(named[1]) : NaN;
}}
window.addEventListener("hashchange", () => show(Number.isNaN(asked()) ? at : asked()));
show(Number.isNaN(asked()) ? {at} : asked());
</script></body></html>
"""
