"""Validating a game record: replay it and stop at the first problem.

:func:`validate` replays a :class:`~ethnos_rules.GameRecord` from its setup, decision by
decision, keeping only the current state (memory does not grow with the record). The
:class:`ValidationReport` says whether the record is legal, where and why it is not (the index of
the decision, the rule id, a plain-English reason, who was to act and what was legal there),
whether the game is complete, and the final Glory and winners; claimed scores are compared with
the computed ones.

>>> from ethnos_rules import GameRecord, glory, play_random, validate
>>> record = GameRecord.from_playthrough(play_random(2, seed=5))
>>> report = validate(record)
>>> report.ok, report.complete, report.glory == glory(record.replay())
(True, True, True)
>>> broken = GameRecord.from_json(record.to_json().replace('"first 1"', '"first 2"'))
>>> print(validate(broken).summary())
INVALID at decision 11 (Age I: 'first 2'): AGE-5 – there is no seat 2; chance was to
decide; legal: first 0, first 1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from .._replay.replay import Decision, Refusal, Visitor
from .._rules.actions import Place
from .._rules.engine import CHANCE, ChanceNode, legal_actions, to_move, winners
from .._rules.errors import RulesError, WrongDecisionError
from .._rules.events import AgeBegan, Event, PlacementTest, opens_turn
from .._rules.said import said, said_list, said_n, word
from .._rules.state import DecisionKind, GameState, Stage
from .._rules.words import ROMAN, given
from .jsonio import RecordError
from .records import GameRecord, check_record, claims_problem
from .slips import Slip, slips

LEGAL_SHOWN = 10
"""How many legal alternatives a report lists; ``legal_count`` gives the total."""

VERB_SHOWN = 3
"""How many legal decisions of each verb a summary names when there are too many to list."""


@attrs.frozen
class ClaimDifference:
    """A seat whose claimed final Glory differs from the computed one.

    Attributes:
        seat: The seat.
        claimed: The Glory claimed in the record.
        computed: The Glory the rules give.
        rule: The rule misapplied by every slip that explains the difference, or ``"SCORE"``
            when no slip explains it or the slips that do name different rules.
        explanation: The difference in words.
    """

    seat: int
    claimed: int
    computed: int
    rule: str
    explanation: str


@attrs.frozen
class ValidationReport:
    """The result of :func:`validate`.

    Attributes:
        ok: True if every decision is legal (and the claimed Glory, if any, is right).
        complete: True if the record reaches the end of the game.
        players: The number of players, when the record says it.
        decisions: How many decisions were replayed successfully.
        index: Index (from 0) of the first refused decision, or None.
        action: Its text, or None.
        rule: The id of the rule that refuses the record (``"RECORD"`` for unreadable input,
            ``"SETUP-…"`` for its setup), or None. For a wrong claimed Glory it is the rule of the
            :class:`ClaimDifference` entries when they all name the same one, else ``"SCORE"``.
        reason: The refusal in plain English, or None.
        path: The JSON path of an unreadable part of the input, or None.
        to_move: Who was to act at the refused decision: a seat,
            :data:`~ethnos_rules.CHANCE` (``"chance"`` in :meth:`to_dict`), or None.
        pending: What was being decided there, in words.
        legal: The first ten legal decisions at that point.
        legal_count: How many legal decisions there were.
        legal_verbs: How many of them there were of each verb, in the order of the legal
            decisions (``(("recruit", 9), ("band", 34))``): the summary names a few of each.
        glory: Final Glory of each seat, when the record is complete and legal.
        winners: The winning seats, when the record is complete and legal.
        claims: Each seat whose claimed Glory differs from the computed Glory.
        claims_checked: True if the record claims a final Glory and it could be compared.
        seat: The seat a record kept at one seat was kept from, else None. Such a record is
            valid when at least one whole legal game looks like it from that seat.
        line: For a record read from a file by :func:`~ethnos_rules.validate_files` and
            written on several lines, the line where the refused decision, the wrong claim or
            the unreadable part (:attr:`path`) begins; else None.
    """

    ok: bool
    complete: bool = False
    players: int | None = None
    decisions: int = 0
    index: int | None = None
    action: str | None = None
    rule: str | None = None
    reason: str | None = None
    path: str | None = None
    to_move: int | ChanceNode | None = None
    pending: str | None = None
    legal: tuple[str, ...] = ()
    legal_count: int = 0
    glory: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    claims: tuple[ClaimDifference, ...] = ()
    claims_checked: bool = False
    seat: int | None = None
    age: int | None = None
    turn: int | None = None
    legal_verbs: tuple[tuple[str, int], ...] = ()
    line: int | None = None

    @classmethod
    def refused(cls, error: RecordError) -> ValidationReport:
        """The report for input that is not a readable record."""
        return cls(
            ok=False, rule=error.rule, reason=error.reason, path=error.path, index=error.index
        )

    @property
    def readable(self) -> bool:
        """False when the input is not a readable record at all (rule ``RECORD``): not JSON,
        not the record format, too large, or a file that cannot be opened."""
        return self.rule != "RECORD"

    def summary(self) -> str:
        """One line: ``valid …``, ``INVALID at decision N (…): RULE – reason``, or for input
        that is not a readable record ``UNREADABLE: RECORD – reason``; a marked sentence, so
        that a person may read it in another language (:func:`ethnos_rules.translate`)."""
        if self.ok:
            return self._valid_text()
        kind = word("INVALID") if self.readable else word("UNREADABLE")
        found = {"kind": kind, "rule": self.rule, "reason": self.reason}
        if self.index is not None:
            when: list[str] = [said("Age {age}", age=ROMAN[self.age])] if self.age else []
            when += [said("turn {turn}", turn=self.turn)] if self.turn else []
            parts: list[str] = [said_list(when)] if when else []
            parts += [repr(self.action)] if self.action is not None else []
            if parts:
                text = said(
                    "{kind} at decision {index} ({when}): {rule} – {reason}",
                    index=self.index,
                    when=said_list(parts, ": "),
                    **found,
                )
            else:
                text = said(
                    "{kind} at decision {index}: {rule} – {reason}", index=self.index, **found
                )
        elif self.path is not None:
            text = said("{kind} at {path}: {rule} – {reason}", path=self.path, **found)
        else:
            text = said("{kind}: {rule} – {reason}", **found)
        if self.to_move is not None:
            who = (
                word("chance") if self.to_move is CHANCE else said("seat {seat}", seat=self.to_move)
            )
            text = said("{text}; {who} was to decide", text=text, who=who)
            if self.legal_count:
                text = said("{text}; legal: {legal}", text=text, legal=self._legal_text())
        return text

    def _valid_text(self) -> str:
        """The summary of a valid record."""
        counted = {"players": self.players, "decisions": self.decisions}
        if self.seat is not None:
            what = said(
                "valid (as seen from seat {seat}): {players} players, {decisions} decisions",
                seat=self.seat,
                **counted,
            )
        else:
            what = said("valid: {players} players, {decisions} decisions", **counted)
        if not self.complete:
            return said("{what}, incomplete (the record ends before the game does)", what=what)
        glory = " ".join(map(str, self.glory or ()))
        won = ", ".join(map(str, self.winners or ()))
        text = said(
            "{what}, complete; final Glory {glory}; winner seat {won}",
            what=what,
            glory=glory,
            won=won,
        )
        if self.claims_checked:
            text = said("{text}; claimed Glory matches", text=text)
        return text

    def _legal_text(self) -> str:
        """The legal decisions listed: all of them if they are few, else the first few of
        each verb and how many more (``band *ELF-red, … and 93 more bands``)."""
        more = self.legal_count - len(self.legal)
        if not more or not self.legal_verbs:
            listed = ", ".join(self.legal)
            if more > 0:
                return said_n("{legal} and {n} more", "{legal} and {n} more", more, legal=listed)
            return listed
        groups: list[str] = []
        for verb, count in self.legal_verbs:
            shown = [text for text in self.legal if text.split()[0] == verb][:VERB_SHOWN]
            rest = count - len(shown)
            group = ", ".join(shown)
            if rest:
                verbs = verb + ("s" if rest > 1 and not verb.endswith("s") else "")  # 2 more tokens
                if shown:  # the verbs are the notation's, which stays as it is
                    group = said_n(
                        "{shown} and {n} more {verbs}",
                        "{shown} and {n} more {verbs}",
                        rest,
                        shown=group,
                        verbs=verbs,
                    )
                else:
                    group = f"{rest} {verbs}"
            groups.append(group)
        return said_list(groups, "; ")

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON values (``to_move`` is ``"chance"`` at a chance event)."""
        data: dict[str, Any] = attrs.asdict(self)
        if self.to_move is CHANCE:
            data["to_move"] = "chance"
        return data

    def __str__(self) -> str:
        return self.summary()


def validate(record: GameRecord) -> ValidationReport:
    """Replay ``record`` and report the first problem, or the final result.

    The setup is checked as :func:`~ethnos_rules.new_game` checks it, every decision as
    :func:`~ethnos_rules.apply` does (chance outcomes included: a card that is not in the
    deck, a Dragon from the top part of the deck are refused with rule ``CHANCE``), and the
    claimed final Glory, if any, against the Glory the rules award; a wrong claim is explained
    by the scoring slips that would give it (a second replay, with the scoring events, that
    only a wrong claim costs).

    Raises:
        RecordError: ``record`` is not a :class:`~ethnos_rules.GameRecord` (read text with
            :meth:`GameRecord.from_json` first).
    """
    check_record(record, "validate()")
    return record.accept(_Validator(record))


class _Validator(Visitor[ValidationReport]):
    """Builds the report of :func:`validate` as the record is replayed.

    It needs no decisions: a claim is checked against the final Glory, and a wrong claim, like
    a refusal, is explained from a second replay (with the scoring events) that only a record
    with a problem pays for."""

    needs_events = needs_decisions = False

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.players = record.players if type(record.players) is int else None
        self.seat = record.seat
        self.items = len(record.actions)
        self.claims = record.claimed_glory
        self.report: ValidationReport | None = None

    def begin_game(self, start: GameState, events: tuple[Event, ...]) -> None:
        claims = self.claims
        problem = claims_problem(claims, start.config.players) if claims is not None else None
        if problem is not None:
            self.report = attrs.evolve(ValidationReport.refused(problem), players=self.players)

    def visit_setup_error(self, error: RulesError) -> None:
        self.report = ValidationReport(
            ok=False,
            players=self.players,
            rule=error.rule,
            reason=error.reason,
            path=_setup_path(error.rule),
        )

    def visit_refusal(self, refusal: Refusal) -> None:
        if self.report is None:
            counted = self.record.accept(_TurnCounter(), stop=refusal.index)
            rule, reason = _explain(refusal, counted.last)
            report = _failure(refusal, rule, reason, self.players, self.seat)
            turn = counted.turn_of(refusal.state)
            self.report = attrs.evolve(report, age=refusal.state.age, turn=turn)

    def end_game(self, state: GameState) -> None:
        self.report = self.report or attrs.evolve(self._final(state), seat=self.seat)

    def result(self) -> ValidationReport:
        assert self.report is not None
        return self.report

    def _wrong(self, final: tuple[int, ...]) -> tuple[ClaimDifference, ...]:
        """How the claims differ from the ``final`` Glory, each with the slips that explain it."""
        assert self.claims is not None
        found: list[Slip] = self.record.accept(_SlipFinder())
        return _compare_claims(self.claims, final, found)

    def _final(self, state: GameState) -> ValidationReport:
        decisions = self.items  # every item replayed, the 'rest' of a one-seat record included
        if not state.pending.terminal:
            return ValidationReport(
                ok=True, complete=False, players=self.players, decisions=decisions
            )
        final = tuple(p.glory for p in state.players)
        won = winners(state)
        claims = self.claims
        differences = () if claims is None or tuple(claims) == final else self._wrong(final)
        if not differences:
            return ValidationReport(
                ok=True,
                complete=True,
                players=self.players,
                decisions=decisions,
                glory=final,
                winners=won,
                claims_checked=claims is not None,
            )
        rules = {d.rule for d in differences}
        reason = "the claimed final Glory is wrong: " + "; ".join(
            d.explanation for d in differences
        )
        return ValidationReport(
            ok=False,
            complete=True,
            players=self.players,
            decisions=decisions,
            rule=rules.pop() if len(rules) == 1 else "SCORE",
            reason=reason,
            path="$.claimed_glory",
            glory=final,
            winners=won,
            claims=differences,
            claims_checked=True,
        )


def _setup_path(rule: str) -> str | None:
    return {
        "SETUP-1": "$.players",
        "SETUP-3": "$.tribes",
        "SETUP-4": "$.glory_tokens",
        "AGE-5": "$.first_player",
        "OPTIONS": "$.options",
    }.get(rule)


class _SlipFinder(Visitor[list[Slip]]):
    """The scoring slips of a game (see :func:`slips`): what a player would have scored with a
    wrong count, to explain a wrong claim; run only when a claim is wrong."""

    def __init__(self) -> None:
        self.found: list[Slip] = []

    def visit_decision(self, decision: Decision) -> None:
        for event in decision.events:
            self.found += slips(event, decision.before.rules)

    def result(self) -> list[Slip]:
        return self.found


class _TurnCounter(Visitor["_TurnCounter"]):
    """Counts the turns of the Age so far, and whose the last one is (see
    :func:`opens_turn`), and keeps the last decision; run only when a record is refused, as
    it needs events."""

    needs_events = True

    def __init__(self) -> None:
        self.turns, self.owner = 0, None
        self.last: Decision | None = None

    def visit_decision(self, decision: Decision) -> None:
        self.last = decision
        for event in decision.events:
            if isinstance(event, AgeBegan):
                self.turns, self.owner = 0, None
            elif opens_turn(event):
                self.turns, self.owner = self.turns + 1, getattr(event, "seat", None)

    def turn_of(self, state: GameState) -> int | None:
        """The turn of the decision pending in ``state``: the last one while its player goes
        on (a follow-up, a draw), the next when another player is to decide; None before the
        Age's first turn or outside play."""
        if state.pending.stage != Stage.PLAY:
            return None
        mover = to_move(state)
        starts = isinstance(mover, int) and mover != self.owner
        return self.turns + 1 if starts else self.turns or None

    def result(self) -> _TurnCounter:
        return self


def _failure(
    refusal: Refusal, rule: str, reason: str, players: int | None, seat: int | None
) -> ValidationReport:
    state = refusal.state
    legal = _legal_seen(state, seat)
    return ValidationReport(
        ok=False,
        complete=False,
        players=players,
        decisions=refusal.index,
        index=refusal.index,
        action=refusal.text,
        rule=rule,
        reason=reason,
        path=f"$.actions[{refusal.index}]",
        to_move=to_move(state),
        pending=state.pending.describe(),
        legal=legal[:LEGAL_SHOWN],
        legal_count=len(legal),
        legal_verbs=tuple(Counter(text.split()[0] for text in legal).items()),
        seat=seat,
    )


_PUBLIC_CHANCE = frozenset(
    (DecisionKind.TRIBE_CHOICE, DecisionKind.TOKEN_LAYOUT, DecisionKind.FIRST_PLAYER)
)
"""The chance events a record kept at one seat writes as a record of the whole game does."""


def _legal_seen(state: GameState, seat: int | None) -> tuple[str, ...]:
    """The legal decisions, as a record kept at ``seat`` writes them: its own decisions; only
    ``reveal ?`` for a card another player draws; every one for the setup's chance events,
    which depend on no card (tribes, tokens, first player); none for another player's decision
    or a card drawn into the row (what they may be depends on cards the seat did not see, and
    the state replayed is only one possibility)."""
    legal = tuple(str(a) for a in legal_actions(state))
    if seat is None or to_move(state) == seat or state.pending.kind in _PUBLIC_CHANCE:
        return legal
    if state.pending.drawn_to(state) not in (None, seat):
        return ("reveal ?",)
    return ()


def refusal_error(record: GameRecord, refusal: Refusal) -> RulesError:
    """The error of ``refusal``, a decision of ``record`` refused, with the rule and reason
    :func:`validate` reports for it and a note naming the decision: what the functions that
    raise on a refused record (:func:`~ethnos_rules.information_state`,
    :func:`~ethnos_rules.redact`) raise. Only a ``place`` refused replays the record again (to
    the decision before it, as :func:`validate` does)."""
    err = refusal.error
    if _explained_by_last(refusal):
        last = record.accept(_TurnCounter(), stop=refusal.index).last
        rule, reason = _explain(refusal, last)
        if (rule, reason) != (err.rule, err.reason):
            err = type(err)(rule, reason, err.action)
    err.add_note(f"at decision {refusal.index}: {refusal.text!r}")
    return err


def _explained_by_last(refusal: Refusal) -> bool:
    """Whether the decision before ``refusal`` may explain it (see :func:`_explain`)."""
    err = refusal.error
    return isinstance(err, WrongDecisionError) and isinstance(err.action, Place)


def _explain(refusal: Refusal, last: Decision | None) -> tuple[str, str]:
    """The rule and reason for a refusal; a ``place`` right after a band that could not place is
    explained by that band's size test rather than by the decision that was due."""
    err = refusal.error
    if not (_explained_by_last(refusal) and last is not None and last.index == refusal.index - 1):
        return err.rule, err.reason
    for event in last.events:
        if isinstance(event, PlacementTest) and not event.allowed:
            due = refusal.state.pending.describe()
            return event.rule, (
                f"the band played just before cannot place a marker: {event.reason}; so no"
                f" placement follows it, and the next decision is {given(due)}"
            )
    return err.rule, err.reason


def _compare_claims(
    claims: Sequence[int], final: Sequence[int], alternatives: Sequence[Slip]
) -> tuple[ClaimDifference, ...]:
    out = []
    for seat, (claimed, computed) in enumerate(zip(claims, final, strict=True)):
        if claimed == computed:
            continue
        delta = claimed - computed
        rule, why = _best_explanation(seat, delta, alternatives)
        more = f"{abs(delta)} {'more' if delta > 0 else 'less'}"
        text = f"seat {seat} claims {claimed} Glory, the rules give {computed} ({more})"
        if why:
            text += f": {why}"
        else:
            text += "; no single scoring slip explains it"
        out.append(ClaimDifference(seat, claimed, computed, rule, text))
    return tuple(out)


def _best_explanation(seat: int, delta: int, alternatives: Sequence[Slip]) -> tuple[str, str]:
    """Slips that explain ``delta`` for ``seat``: single alternatives (up to three shown when
    several fit), else all alternatives of one kind together; ``("SCORE", "")`` when none fits.
    The rule is the one every fitting slip names, or ``"SCORE"`` when they name several."""
    mine = [a for a in alternatives if a.seat == seat]
    single = [a for a in mine if a.delta == delta]
    if single:
        texts = [f"{a.text} ({a.rule})" for a in single[:3]]
        more = len(single) - len(texts)
        if more == 1:
            texts.append("one other slip that gives the same difference")
        elif more > 1:
            texts.append(f"{more} other slips that give the same difference")
        rules = {a.rule for a in single}
        return (rules.pop() if len(rules) == 1 else "SCORE"), "; or ".join(texts)
    kinds: dict[str, list[Slip]] = {}
    for alt in mine:
        kinds.setdefault(alt.kind, []).append(alt)
    for group in kinds.values():
        if len(group) > 1 and sum(a.delta for a in group) == delta:
            joined = "; ".join(a.text for a in group)
            return group[0].rule, f"every time: {joined} ({group[0].rule})"
    return "SCORE", ""
