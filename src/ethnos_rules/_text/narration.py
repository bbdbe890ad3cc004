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

from collections.abc import Callable, Iterator

from .._io.records import GameRecord, check_record, options_to_dict
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
    ChainOffered,
    CheckpointDeclined,
    CheckpointsLost,
    Event,
    GameEnded,
    GiantTokenMissed,
    GiantTokenTaken,
    HandDiscarded,
    HordeBlocked,
    HordeDeclined,
    HordeMarkerAdded,
    KeepingDone,
    MarkerPlaced,
    MerfolkMoved,
    Passed,
    PlacementDeclined,
    PlacementTest,
    Recruited,
    RestToRow,
    TokensLaid,
    TribeChosen,
    TrollDeclined,
    TrollTokenTaken,
    WizardsDraw,
    opens_turn,
)
from .._rules.replay import Decision, Refusal, Visitor
from .._rules.state import GameState
from .._rules.words import ROMAN

BAND_STEPS: tuple[type[Event], ...] = (
    PlacementTest,
    MarkerPlaced,
    PlacementDeclined,
    GiantTokenTaken,
    GiantTokenMissed,
    MerfolkMoved,
    CheckpointDeclined,
    CheckpointsLost,
    HordeMarkerAdded,
    HordeDeclined,
    HordeBlocked,
    TrollTokenTaken,
    TrollDeclined,
    ChainOffered,
    CardKept,
    KeepingDone,
    WizardsDraw,
    RestToRow,
    HandDiscarded,
)
"""Events told indented, under the band (or the end of the Age) they follow."""


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
    and :attr:`error` the refusal, if any."""

    def __init__(self, record: GameRecord) -> None:
        check_record(record, "narrate()")
        self.record = record
        self.state: GameState | None = None
        self.error: RulesError | None = None
        self._lines: list[str] = []
        self._run: list[Event] = []
        self._kingdoms_told = False
        self._turn, self._turn_told = 0, True
        self._deck_recruit: Recruited | None = None
        self._handlers: dict[type[Event], Callable[[Event], None]] = {
            TribeChosen: lambda event: None,  # TribesInPlay names them all
            Recruited: self._recruited,
            BandPlayed: self._turn_begins,
            Passed: self._turn_begins,
            TokensLaid: self._in_run,
            CardDrawn: self._card_drawn,
            AgeBegan: self._age_began,
            AgeEnded: self._age_ended,
            AreaScored: self._area,
            BandScored: self._in_run,
            AgeScored: self._age_scored,
            GameEnded: self._game_ended,
        }

    def tell(self, stop: int | None = None) -> list[str]:
        """The narration of the first ``stop`` decisions (all by default)."""
        return self.record.accept(self, stop=stop)

    # --- the visitor -----------------------------------------------------------------------

    def begin_game(self, start: GameState, events: tuple[Event, ...]) -> None:
        self.state = start
        self._lines.append(f"A game of Ethnos for {start.config.players} players.")
        changed = options_to_dict(start.options)
        if changed:
            options = ", ".join(f"{k}={v}" for k, v in changed.items())
            self._lines.append(f"Rule options: {options}.")
        self._tell(events)

    def visit_setup_error(self, error: RulesError) -> None:
        self.error = error
        self._lines.append(f"The setup is refused: {error.rule} – {error.reason}.")

    def visit_decision(self, decision: Decision) -> None:
        self._tell(decision.events)
        self.state = decision.after

    def visit_refusal(self, refusal: Refusal) -> None:
        self._flush()
        self.error = refusal.error
        refusal.error.add_note(f"at decision {refusal.index}: {refusal.text!r}")
        error, where = refusal.error, f"Decision {refusal.index} ({refusal.text!r})"
        self._lines.append(f"{where} is refused: {error.rule} – {error.reason}.")

    def end_game(self, state: GameState) -> None:
        if self._deck_recruit is not None:  # the record stops before the card is drawn
            self._line(self._deck_recruit)
        self._flush()

    def result(self) -> list[str]:
        return self._lines

    # --- laying out events -----------------------------------------------------------------

    def _tell(self, events: tuple[Event, ...]) -> None:
        for event in events:
            if self._run and not _same_run(self._run[-1], event):
                self._flush()
            self._deck_draw_unseen(event)
            self._handlers.get(type(event), self._line)(event)

    def _deck_draw_unseen(self, event: Event) -> None:
        """A recruit from the deck is told by the card drawn; in a record kept at one seat,
        another player's card drawn is unseen, so the recruit itself is told instead."""
        waiting, self._deck_recruit = self._deck_recruit, None
        drawn = isinstance(event, CardDrawn) and event.source == "deck"
        if waiting is not None and not drawn:
            self._line(waiting)

    def _line(self, event: Event) -> None:
        indent = "  " if isinstance(event, BAND_STEPS) else ""
        if not self._turn_told and not indent:
            indent, self._turn_told = f"Turn {self._turn}: ", True
        self._lines.append(indent + str(event))

    def _count_turn(self, event: Event) -> None:
        """A turn begins with this event (see :func:`opens_turn`): its number goes on the
        next line told."""
        if opens_turn(event):
            self._turn += 1
            self._turn_told = False

    def _turn_begins(self, event: Event) -> None:
        """The first line of a turn (see :func:`opens_turn`) carries its number in the Age."""
        self._count_turn(event)
        self._line(event)

    def _in_run(self, event: Event) -> None:
        self._run.append(event)

    def _flush(self) -> None:
        run, self._run = self._run, []
        if not run:
            return
        if isinstance(run[0], TokensLaid):
            self._lines.append(_tokens_line([e for e in run if isinstance(e, TokensLaid)]))
        elif isinstance(run[0], CardDrawn):
            self._lines.append(_cards_line([e for e in run if isinstance(e, CardDrawn)]))
        elif isinstance(run[0], BandScored):
            self._lines.append("Bands, after Skeletons leave them (END-4, COMP-7):")
            self._lines += _band_lines([e for e in run if isinstance(e, BandScored)])

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
        self._lines += ["", f"=== Age {ROMAN[event.age]} of {ROMAN[event.ages]} ==="]
        self._turn = 0

    def _age_ended(self, event: Event) -> None:
        assert isinstance(event, AgeEnded)
        self._lines += ["", f"--- End of Age {ROMAN[event.age]} (END) ---"]
        self._kingdoms_told = False

    def _area(self, event: Event) -> None:
        assert isinstance(event, AreaScored)
        if event.kingdom is None:
            self._lines.append(str(event))
            return
        if not self._kingdoms_told:
            self._lines.append("Kingdoms (END-2):")
            self._kingdoms_told = True
        self._lines.append("  " + str(event))

    def _age_scored(self, event: Event) -> None:
        assert isinstance(event, AgeScored)
        self._lines.append("Glory this Age (END-6), by source:")
        self._lines += ["  " + row for row in event.summary.table().splitlines()]

    def _game_ended(self, event: Event) -> None:
        assert isinstance(event, GameEnded)
        final = ", ".join(f"seat {s} {g}" for s, g in enumerate(event.glory))
        self._lines += ["", "=== The game is over ===", f"Final Glory: {final}.", str(event)]


def _same_run(told: Event, event: Event) -> bool:
    """Whether ``event`` continues the run of ``told`` (the same kind, from the same source)."""
    return type(told) is type(event) and getattr(told, "source", None) == getattr(
        event, "source", None
    )


def _tokens_line(run: list[TokensLaid]) -> str:
    how = "laid at random" if run[0].by_chance else "given"
    laid = ", ".join(f"{e.kingdom.label} {e.tokens_text}" for e in run)
    return f"Glory tokens ({how}, lowest on space I): {laid} ({run[0].rule})."


def _cards_line(run: list[CardDrawn]) -> str:
    if run[0].source == "deal":
        dealt = ", ".join(f"seat {e.seat} {e.card}" for e in run)
        return f"Starting cards ({run[0].rule}): {dealt}."
    return f"The row ({run[0].rule}): {' '.join(str(e.card) for e in run)}."


def _band_lines(run: list[BandScored]) -> list[str]:
    """Under each seat and its total, one line per band that earns Glory, then the bands that
    earn nothing, counted together when their worth reads the same."""
    lines = []
    for seat in dict.fromkeys(e.seat for e in run):
        mine = [e for e in run if e.seat == seat]
        lines.append(f"  seat {seat} ({sum(e.value for e in mine)} Glory):")
        lines += [f"    {e.band}: {e.worth}" for e in mine if e.value]
        nothing: dict[str, list[BandScored]] = {}
        for e in mine:
            if not e.value:
                nothing.setdefault(e.worth, []).append(e)
        for worth, alike in nothing.items():
            told = (
                f"{alike[0].band}: {worth}" if len(alike) == 1 else f"{len(alike)} bands of {worth}"
            )
            lines.append(f"    {told}")
    return lines
