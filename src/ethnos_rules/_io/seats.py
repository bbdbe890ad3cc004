"""What one seat knows of a recorded game: the record as that seat keeps it, its information
state, and whole games drawn to fit it.

- :func:`redact` writes a record of a whole game as one seat would have kept it.
- :func:`information_state` is that seat's perfect-recall view, an :class:`InformationState`:
  equal for two games exactly when the seat saw the same things.
- :func:`resample` draws a whole game that fits a record kept at one seat, from the exact
  posterior given uniform shuffles (:mod:`ethnos_rules._seat.resample` says why it is exact).

:func:`~ethnos_rules.validate` checks a record kept at one seat as it checks any record.
"""

from __future__ import annotations

import attrs

from .._replay.replay import Decision, Playthrough, Refusal, Visitor
from .._rules.actions import Action
from .._rules.errors import RulesError
from .._rules.options import Options
from .._rules.randomness import Random
from .._rules.state import GameState
from .._rules.words import given
from .._seat.resample import resample_game
from .._seat.seatview import seen_items
from .jsonio import RecordError
from .records import GameRecord, check_record, options_to_dict
from .validation import refusal_error


def redact(record: GameRecord, seat: int) -> GameRecord:
    """``record``, a record of a whole game, as the player in ``seat`` would have kept it: every
    card that player did not see is ``?``, and the rest of each other player's hand discarded
    into the row is shown (``rest``). Metadata and claimed Glory are kept.

    >>> from ethnos_rules import GameRecord, play_random, redact
    >>> game = GameRecord.from_playthrough(play_random(3, seed=7))
    >>> mine = redact(game, seat=1)
    >>> mine.seat, mine.version
    (1, 2)
    >>> game.actions[12], mine.actions[12]   # seat 0's starting card
    ('reveal CEN-orange', 'reveal ?')
    >>> next(text for text in mine.actions if text.startswith("rest"))
    'rest CEN-orange CEN-orange MER-blue'

    Raises:
        RecordError: ``seat`` is not a seat of the game, or the record is kept at another seat.
        RulesError: the setup or a decision of the record is refused, with the rule and reason
            :func:`~ethnos_rules.validate` reports; a note names the decision.
    """
    _check_seat(record, seat, "redact()")
    if record.seat == seat:  # already as that seat kept it: checked as any record is
        record.accept(_Checker(record))
        return record
    if record.seat is not None:
        raise RecordError(
            f"this record is kept at seat {record.seat}: it does not show what seat {seat} saw"
        )
    items = record.accept(_Redactor(record, seat))
    return attrs.evolve(record, actions=tuple(map(str, items)), seat=seat, version=2)


def _check_seat(record: GameRecord, seat: object, taker: str) -> None:
    check_record(record, taker)
    if type(seat) is not int or not 0 <= seat < record.players:
        raise RecordError(
            f"seat {given(seat)} is not a seat of this {record.players}-player game"
            f" (seats 0 to {record.players - 1})",
            path="$.seat",
        )


class _Checker(Visitor[None]):
    """Raises the refusal of a record (its setup or a decision) as
    :func:`~ethnos_rules.validate` reports it; needs neither decisions nor events."""

    needs_events = needs_decisions = False

    def __init__(self, record: GameRecord) -> None:
        self.record = record

    def visit_setup_error(self, error: RulesError) -> None:
        raise error

    def visit_refusal(self, refusal: Refusal) -> None:
        raise refusal_error(self.record, refusal)

    def result(self) -> None:
        return None


class _Redactor(Visitor[list[Action]]):
    """Collects the record's items as one seat sees them; a refusal is raised as
    :class:`_Checker` raises it."""

    def __init__(self, record: GameRecord, seat: int) -> None:
        self.checker = _Checker(record)
        self.seat = seat
        self.items: list[Action] = []

    def visit_setup_error(self, error: RulesError) -> None:
        self.checker.visit_setup_error(error)

    def visit_decision(self, decision: Decision) -> None:
        self.items += seen_items(decision.action, decision.events, self.seat)

    def visit_refusal(self, refusal: Refusal) -> None:
        self.checker.visit_refusal(refusal)

    def result(self) -> list[Action]:
        return self.items


@attrs.frozen
class InformationState:
    """Everything one seat knows of a game: the setup and every decision as it saw them, in
    order (perfect recall). Two games give equal information states exactly when the seat saw
    the same things; an information state is hashable, so it can key a table (an ISMCTS tree,
    a policy cache).

    Attributes:
        seat: The seat whose view it is.
        players: The number of players.
        tribes: The tribes given by the setup, or None (then ``tribe`` decisions choose them).
        glory_tokens: The glory-token layout given by the setup, or None.
        first_player: The Age I first player given by the setup, or None.
        options: The rule options.
        decisions: Every decision as the seat saw it, as action texts (``reveal ?``,
            ``rest ...``).
    """

    seat: int
    players: int
    tribes: tuple[str, ...] | None
    glory_tokens: tuple[tuple[int, ...], ...] | None
    first_player: int | None
    options: Options
    decisions: tuple[str, ...]

    @classmethod
    def of(cls, record: GameRecord) -> InformationState:
        """The information state of ``record``, a record kept at one seat, checked as
        :func:`~ethnos_rules.information_state` checks it.

        Raises:
            RecordError: ``record`` is a record of the whole game.
            RulesError: as :func:`~ethnos_rules.information_state`.
        """
        if record.seat is None:
            raise RecordError("a record of the whole game holds no one seat's view: redact it")
        check_record(record, "InformationState.of()")
        record.accept(_Checker(record))  # as validate() checks it, without events
        return cls._checked(record)

    @classmethod
    def _checked(cls, record: GameRecord) -> InformationState:
        """The information state of ``record``, kept at one seat and known to be legal."""
        assert record.seat is not None
        return cls(
            record.seat,
            record.players,
            record.tribes,
            record.glory_tokens,
            record.first_player,
            record.options,
            record.actions,
        )

    def record(self) -> GameRecord:
        """The record kept at :attr:`seat` that this information state is."""
        return GameRecord(
            players=self.players,
            tribes=self.tribes,
            glory_tokens=self.glory_tokens,
            first_player=self.first_player,
            options=self.options,
            actions=self.decisions,
            seat=self.seat,
        )

    def __str__(self) -> str:
        setup = [f"seat {self.seat} of {self.players}"]
        if self.tribes is not None:
            setup.append("tribes " + " ".join(self.tribes))
        if self.first_player is not None:
            setup.append(f"first player {self.first_player}")
        changed = options_to_dict(self.options)
        if changed:
            setup.append("options " + ", ".join(f"{k}={v}" for k, v in sorted(changed.items())))
        if self.glory_tokens is not None:
            setup.append("tokens " + " / ".join(" ".join(map(str, t)) for t in self.glory_tokens))
        lines = [" · ".join(setup)]
        lines += [f"{i} {text}" for i, text in enumerate(self.decisions)]
        return "\n".join(lines)


def information_state(record: GameRecord, seat: int | None = None) -> InformationState:
    """What the player in ``seat`` knows of the game ``record`` holds so far: its setup and
    every decision as that seat saw it. ``record`` is a record of the whole game, or a record
    kept at ``seat`` (then ``seat`` may be left out).

    >>> from ethnos_rules import GameRecord, information_state, play_random, redact
    >>> game = play_random(2, seed=3)
    >>> so_far = GameRecord.from_start(game.start, game.actions[:20])
    >>> print(information_state(so_far, seat=0))
    seat 0 of 2
    0 tribe GIA
    ...
    11 first 1
    12 reveal ?
    13 reveal TRO-green
    ...
    18 recruit deck
    19 reveal ?
    >>> information_state(so_far, 1) == information_state(redact(so_far, 1))
    True

    Raises:
        RecordError: ``seat`` is not a seat of the game, or the record is kept at another seat.
        RulesError: the setup or a decision of the record is refused, with the rule and reason
            :func:`~ethnos_rules.validate` reports (a record kept at ``seat`` is checked as
            ``validate`` checks it; its claimed Glory is not read); a note names the decision.
    """
    check_record(record, "information_state()")
    seat = record.seat if seat is None else seat
    if seat is None:
        raise RecordError("information_state() needs the seat whose view it is")
    if record.seat is None or record.seat != seat:
        return InformationState._checked(redact(record, seat))  # redact() replays and checks
    return InformationState.of(record)


def resample(record: GameRecord, rng: Random) -> Playthrough:
    """A whole game that fits ``record``, a record kept at one seat: every card the seat did
    not see named, drawn from the exact posterior given uniform shuffles. Each game that looks
    like ``record`` from its seat comes with the probability of its chance outcomes; the
    players' choices are taken to tell nothing beyond being legal.

    ``redact(GameRecord.from_playthrough(resample(record, rng)), record.seat)`` is ``record``
    again (but for metadata and claims). ``rng`` is a :class:`random.Random` or a
    ``numpy.random.Generator``. The hidden cards are counted, never proposed and rejected, so a
    call cannot stall: within a second for any record (the counting has a fixed bound), and
    the replay and counts of the last few records are kept, so that drawing again from the
    same record costs only the draw.

    Raises:
        RecordError: ``record`` is not kept at one seat.
        RulesError: no game fits ``record`` (as :func:`~ethnos_rules.validate` reports); a note
            names the decision. ``CHANCE`` when ``rng`` is no random source, or when the other
            players' unseen cards shown later are too tangled to count within the bound (the
            hardest legal records met take under half of it).
    """
    check_record(record, "resample()")
    if record.seat is None:
        raise RecordError(
            "resample() fills in what one seat did not see: give it a record kept at one seat"
            " (redact a record of the whole game first)"
        )
    start: GameState = record.new_game()
    try:
        return resample_game(start, record.actions, record.seat, rng)
    except RulesError:
        record.accept(_Checker(record))  # a refused record: as validate tells it
        raise  # the record fits some game: the random source, or too tangled
