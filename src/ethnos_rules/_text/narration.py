"""A game told in plain English, for people learning the rules.

:func:`narrate` replays a :class:`~ethnos_rules.GameRecord` and tells what happened and why,
from the events the rules emit (:func:`~ethnos_rules.step`): who recruited what, who played
which band, why a marker was or was not placed (the size test of BAND-5 with its numbers), what
each tribe ability did, the Dragons, and each Age's scoring with its tie splits. Every sentence
is an event's own; the narrator only lays them out: headings for the Ages, indentation for what
follows a band, and one line for what comes in a run (the tokens, the starting cards, the row,
a player's bands at scoring). Rule ids are cited in brackets: ``(BAND-5)``.

>>> from ethnos_rules import GameRecord, narrate, play_random
>>> record = GameRecord.from_playthrough(play_random(4, seed=3))
>>> lines = list(narrate(record))
>>> lines[0]
'A game of Ethnos for 4 players.'
>>> any("(BAND-5)" in line for line in lines)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .._io.records import GameRecord, check_record, options_to_dict
from .._replay.replay import Decision, Refusal, Visitor
from .._rules.actions import Keep
from .._rules.chance import DrawPending
from .._rules.engine import pending_decision
from .._rules.errors import RulesError
from .._rules.events import (
    AgeBegan,
    AgeEnded,
    AgeScored,
    AreaScored,
    BandPlayed,
    BandScored,
    CardDrawn,
    CardKept,
    Event,
    GameEnded,
    Passed,
    Recruited,
    TokensLaid,
    TribeChosen,
    TribesInPlay,
    opens_turn,
)
from .._rules.said import Said, said, said_list, said_n
from .._rules.state import AgeSummary, GameState
from .._rules.words import ROMAN
from .i18n import ENGLISH, say


def narrate(record: GameRecord, *, stop: int | None = None) -> Iterator[str]:
    """The game of ``record`` in plain English, one line at a time.

    Args:
        stop: Narrate only the first ``stop`` decisions.

    The narration ends with the refusal if a decision breaks a rule.

    Raises:
        RecordError: ``record`` is not a :class:`~ethnos_rules.GameRecord`.
    """
    return iter(Narrator(record).tell(stop))


class Narrator(Visitor[list[str]]):
    """Tells a record as it is replayed; after :meth:`tell`, :attr:`state` is the state reached
    and :attr:`error` the refusal, if any. Its lines are English, each a marked sentence that
    a reader says in its language; the Age's score table, a text table whose columns fit its
    headings, is laid out in ``lang`` (its words are not said again)."""

    def __init__(self, record: GameRecord, lang: str = ENGLISH) -> None:
        check_record(record, "narrate()")
        self.record = record
        self.state: GameState | None = None
        self.error: RulesError | None = None
        self._teller = Teller(lang=lang)

    def tell(self, stop: int | None = None) -> list[str]:
        """The narration of the first ``stop`` decisions (all by default)."""
        return self.record.accept(self, stop=stop)

    # --- the visitor -----------------------------------------------------------------------

    def begin_game(self, start: GameState, events: tuple[Event, ...]) -> None:
        self.state = start
        for line in opening(start):
            self._teller.note(line)
        self._teller.tell(events)

    def visit_setup_error(self, error: RulesError) -> None:
        self.error = error
        refused = said(
            "The setup is refused: {rule} – {reason}.", rule=error.rule, reason=error.reason
        )
        self._teller.note(refused)

    def visit_decision(self, decision: Decision) -> None:
        self._teller.tell(decision.events)
        self.state = decision.after

    def visit_refusal(self, refusal: Refusal) -> None:
        self.error = refusal.error
        refusal.error.add_note(f"at decision {refusal.index}: {refusal.text!r}")
        error = refusal.error
        refused = said(
            "Decision {index} ({text}) is refused: {rule} – {reason}.",
            index=refusal.index,
            text=repr(refusal.text),
            rule=error.rule,
            reason=error.reason,
        )
        self._teller.note(refused, flush=True)

    def end_game(self, state: GameState) -> None:
        self._teller.finish()

    def result(self) -> list[str]:
        return self._teller.lines


class Teller:
    """Lays events out in lines, as the narration tells them: indentation for what follows a
    band, one line for what comes in a run (the tokens, the starting cards, the row, a player's
    bands at scoring), a recruit from the deck told by the card drawn.

    Args:
        headings: Headings for the Ages and their ends, each turn's number on its first line
            and the Age's Glory as a text table (the narration's); without them, the Ages' own
            sentences and no table, for a reader that titles its steps and draws the scores
            itself (the HTML replay).

    >>> from ethnos_rules import parse_action, position, step
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], to_move=1)
    >>> teller = Teller(headings=False)
    >>> for text in ("recruit deck", "reveal ORC-red"):
    ...     result = step(state, parse_action(text))
    ...     teller.tell(result.events)
    ...     state = result.state
    >>> teller.finish()
    ['Seat 1 draws ORC-red from the deck (RECRUIT-1).']
    """

    def __init__(self, *, headings: bool = True, lang: str = ENGLISH) -> None:
        self.headings = headings
        self.lang = lang
        self.lines: list[str] = []
        self._run: list[Event] = []
        self._kingdoms_told = False
        self._turn, self._turn_told = 0, True
        self._deck_recruit: Recruited | None = None
        self._handlers: dict[type[Event], Callable[[Event], None]] = {
            TribeChosen: self._in_run,  # told unless TribesInPlay, naming them all, follows
            Recruited: self._recruited,
            BandPlayed: self._turn_begins,
            Passed: self._turn_begins,
            TokensLaid: self._in_run,
            CardDrawn: self._card_drawn,
            AreaScored: self._area,
            BandScored: self._in_run,
            GameEnded: self._game_ended,
        }
        if headings:
            self._handlers |= {
                AgeBegan: self._age_began,
                AgeEnded: self._age_ended,
                AgeScored: self._age_scored,
            }
        else:  # the page draws the Age's scores as a table
            self._handlers |= {AgeEnded: self._age_ended, AgeScored: lambda event: None}

    def tell(self, events: Iterable[Event]) -> None:
        """Lay out ``events``, after those told before."""
        for event in events:
            if self._run and not _same_run(self._run[-1], event):
                self._flush(then=event)
            self._deck_draw_unseen(event)
            self._handlers.get(type(event), self._line)(event)

    def note(self, line: str, *, flush: bool = False) -> None:
        """A line of the teller's own after what was told (``flush``: after the recruit
        from the deck waiting for its card, too)."""
        if flush and self._deck_recruit is not None:
            self._line(self._deck_recruit)
            self._deck_recruit = None
        self._flush()
        self.lines.append(line)

    def unseen(self, line: str) -> None:
        """A card drawn or kept that the listener did not see, told in ``line`` (from the
        decision: :func:`unseen_sentence`); like a card seen, it tells the recruit from the
        deck that waits for it."""
        self._deck_recruit = None
        self.note(line)

    def finish(self) -> list[str]:
        """Every line, the run and the recruit waiting for its card included."""
        if self._deck_recruit is not None:  # the events stop before the card is drawn
            self._line(self._deck_recruit)
            self._deck_recruit = None
        self._flush()
        return self.lines

    # --- laying out events -----------------------------------------------------------------

    def _deck_draw_unseen(self, event: Event) -> None:
        """A recruit from the deck is told by the card drawn; in a record kept at one seat,
        another player's card drawn is unseen, so the recruit itself is told instead."""
        waiting, self._deck_recruit = self._deck_recruit, None
        drawn = isinstance(event, CardDrawn) and event.source == "deck"
        if waiting is not None and not drawn:
            self._line(waiting)

    def _line(self, event: Event) -> None:
        # A step of a band or of the end of an Age goes under it (the event says which it is).
        sentence = str(event)
        if event.step:
            self.lines.append(indented("  ", sentence))
        elif not self._turn_told:
            self._turn_told = True
            self.lines.append(said("Turn {turn}: {told}", turn=self._turn, told=sentence))
        else:
            self.lines.append(sentence)

    def _count_turn(self, event: Event) -> None:
        """A turn begins with this event (see :func:`opens_turn`): its number goes on the
        next line told."""
        if opens_turn(event):
            self._turn += 1
            self._turn_told = not self.headings

    def _turn_begins(self, event: Event) -> None:
        """The first line of a turn (see :func:`opens_turn`) carries its number in the Age."""
        self._count_turn(event)
        self._line(event)

    def _in_run(self, event: Event) -> None:
        self._run.append(event)

    def _flush(self, then: Event | None = None) -> None:
        """Tell the run of events under way (``then``: the event that ends it)."""
        run, self._run = self._run, []
        if not run:
            return
        if isinstance(run[0], TribeChosen):
            if not isinstance(then, TribesInPlay):
                self.lines += map(str, run)
        elif isinstance(run[0], TokensLaid):
            self.lines.append(_tokens_line([e for e in run if isinstance(e, TokensLaid)]))
        elif isinstance(run[0], CardDrawn):
            self.lines.append(_cards_line([e for e in run if isinstance(e, CardDrawn)]))
        elif isinstance(run[0], BandScored):
            self.lines.append(said("Bands, after Skeletons leave them (END-4, COMP-7):"))
            self.lines += _band_lines([e for e in run if isinstance(e, BandScored)])

    def _recruited(self, event: Event) -> None:
        assert isinstance(event, Recruited)
        self._count_turn(event)
        if event.card is not None:
            self._line(event)
        else:  # told by the card drawn, when the record shows it
            self._deck_recruit = event

    def _card_drawn(self, event: Event) -> None:
        assert isinstance(event, CardDrawn)
        if event.source in ("deal", "row"):
            self._in_run(event)
        else:
            self._line(event)

    def _age_began(self, event: Event) -> None:
        assert isinstance(event, AgeBegan)
        heading = said("=== Age {age} of {ages} ===", age=ROMAN[event.age], ages=ROMAN[event.ages])
        self.lines += ["", heading]
        self._turn = 0

    def _age_ended(self, event: Event) -> None:
        assert isinstance(event, AgeEnded)
        if self.headings:
            self.lines += ["", said("--- End of Age {age} (END) ---", age=ROMAN[event.age])]
        else:
            self._line(event)
        self._kingdoms_told = False

    def _area(self, event: Event) -> None:
        assert isinstance(event, AreaScored)
        if event.kingdom is None:
            self.lines.append(str(event))
            return
        if not self._kingdoms_told:
            self.lines.append(said("Kingdoms (END-2):"))
            self._kingdoms_told = True
        self.lines.append(indented("  ", str(event)))

    def _age_scored(self, event: Event) -> None:
        assert isinstance(event, AgeScored)
        self.lines.append(said("Glory this Age (END-6), by source:"))
        self.lines += ["  " + row for row in score_table(event.summary, self.lang)]

    def _game_ended(self, event: Event) -> None:
        assert isinstance(event, GameEnded)
        final = said_list(
            [said("seat {seat} {glory}", seat=s, glory=g) for s, g in enumerate(event.glory)]
        )
        head = ["", said("=== The game is over ===")] if self.headings else []
        self.lines += [*head, said("Final Glory: {final}.", final=final), str(event)]


def score_table(summary: AgeSummary, lang: str = ENGLISH) -> list[str]:
    """The lines of an Age's Glory by source (:meth:`~ethnos_rules.AgeSummary.rows`), its
    headings in ``lang`` and its columns as wide as they are there.

    >>> from ethnos_rules import play_random
    >>> summary = play_random(2, seed=5).final.history[0]
    >>> score_table(summary) == summary.table().splitlines()
    True
    >>> print(score_table(summary, "es")[0])
    asiento  reinos  bandas  esta Edad  Gloria
    """
    rows = summary.rows()
    rows[0] = [say(name, lang) for name in rows[0]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def opening(start: GameState) -> list[str]:
    """The first lines of a game's story: the players, and the rule options that differ from
    the rulebook's.

    >>> from ethnos_rules import Options, new_game
    >>> opening(new_game(3, options=Options(placement="mandatory")))
    ['A game of Ethnos for 3 players.', 'Rule options: placement=mandatory.']
    """
    players = start.config.players
    lines: list[str] = [
        said_n("A game of Ethnos for {n} player.", "A game of Ethnos for {n} players.", players)
    ]
    changed = options_to_dict(start.options)
    if changed:
        options = ", ".join(f"{k}={v}" for k, v in changed.items())
        lines.append(said("Rule options: {options}.", options=options))
    return lines


def unseen_sentence(decision: Decision) -> str | None:
    """What a decision whose card the teller's seat did not see did, from the decision itself
    (a record kept at one seat holds another player's card drawn or kept as ``?``, and the
    seat saw no event of it): who drew or kept a card. None for any other decision."""
    before = decision.before
    pending = before.pending
    if isinstance(pending, DrawPending):
        seat = pending.receiver(before)
        return None if seat is None else CardDrawn.unseen(seat, pending.source)
    if isinstance(decision.action, Keep) and decision.action.card is not None:
        seat = pending_decision(before).seat
        return None if seat is None else CardKept.unseen(seat)
    return None


def _same_run(told: Event, event: Event) -> bool:
    """Whether ``event`` continues the run of ``told`` (the same kind, from the same source)."""
    return type(told) is type(event) and getattr(told, "source", None) == getattr(
        event, "source", None
    )


def _tokens_line(run: list[TokensLaid]) -> str:
    laid = ", ".join(f"{e.kingdom.label} {e.tokens_text}" for e in run)
    if run[0].by_chance:
        return said(
            "Glory tokens (laid at random, lowest on space I): {laid} ({rule}).",
            laid=laid,
            rule=run[0].rule,
        )
    return said(
        "Glory tokens (given, lowest on space I): {laid} ({rule}).", laid=laid, rule=run[0].rule
    )


def _cards_line(run: list[CardDrawn]) -> str:
    if run[0].source == "deal":
        dealt = said_list([said("seat {seat} {card}", seat=e.seat, card=e.card) for e in run])
        return said("Starting cards ({rule}): {dealt}.", rule=run[0].rule, dealt=dealt)
    row = " ".join(str(e.card) for e in run)
    return said("The row ({rule}): {cards}.", rule=run[0].rule, cards=row)


def _band_lines(run: list[BandScored]) -> list[str]:
    """Under each seat and its total, one line per band that earns Glory, then the bands that
    earn nothing, counted together when their worth reads the same."""
    lines = []
    for seat in dict.fromkeys(e.seat for e in run):
        mine = [e for e in run if e.seat == seat]
        glory = sum(e.value for e in mine)
        lines.append(indented("  ", said("seat {seat} ({glory} Glory):", seat=seat, glory=glory)))
        lines += [indented("    ", _worth(e.band, e.worth)) for e in mine if e.value]
        nothing: dict[str, list[BandScored]] = {}
        for e in mine:
            if not e.value:
                nothing.setdefault(e.worth, []).append(e)
        for alike in nothing.values():
            told = (
                _worth(alike[0].band, alike[0].worth)
                if len(alike) == 1
                else said_n(
                    "{n} band of {worth}", "{n} bands of {worth}", len(alike), worth=alike[0].worth
                )
            )
            lines.append(indented("    ", told))
    return lines


def _worth(band: object, worth: str) -> Said:
    """A band and what it is worth: ``DWA-red DWA-blue: 2 cards → 1``."""
    return Said(f"{band}: {worth}", "{band}: {worth}", {"band": band, "worth": worth})


def indented(indent: str, line: str) -> str:
    """``line`` after ``indent``, still said in another language where it is a :class:`Said`
    (the indented text is no message of the catalogue of its own)."""
    if not isinstance(line, Said):
        return indent + line
    return Said(indent + line, indent + "{line}", {"line": line})
