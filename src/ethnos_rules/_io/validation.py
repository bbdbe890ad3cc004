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
INVALID at decision 11 ('first 2'): AGE-5 – there is no seat 2; chance was to decide;
legal: first 0, first 1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .._rules.actions import Action, Place, PlayBand, parse_action
from .._rules.bands import PlacePending
from .._rules.engine import CHANCE, ChanceNode, apply, legal_actions, to_move, winners
from .._rules.errors import RulesError, WrongDecisionError
from .._rules.state import GameState
from .._text.narration import (
    AgeScoring,
    Alternative,
    drawer_of,
    explain_age_end,
    is_third_dragon,
    placement_analysis,
)
from .records import GameRecord, RecordError

LEGAL_SHOWN = 10
"""How many legal alternatives a report lists; ``legal_count`` gives the total."""


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
        glory: Final Glory of each seat, when the record is complete and legal.
        winners: The winning seats, when the record is complete and legal.
        claims: Each seat whose claimed Glory differs from the computed Glory.
        claims_checked: True if the record claims a final Glory and it could be compared.
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

    @classmethod
    def refused(cls, error: RecordError) -> ValidationReport:
        """The report for input that is not a readable record."""
        return cls(
            ok=False, rule=error.rule, reason=error.reason, path=error.path, index=error.index
        )

    def summary(self) -> str:
        """One line: ``valid …`` or ``INVALID at decision N (…): RULE – reason``."""
        if self.ok:
            what = f"valid: {self.players} players, {self.decisions} decisions"
            if not self.complete:
                return what + ", incomplete (the record ends before the game does)"
            glory = " ".join(map(str, self.glory or ()))
            won = ", ".join(map(str, self.winners or ()))
            text = f"{what}, complete; final Glory {glory}; winner seat {won}"
            if self.claims_checked:
                text += "; claimed Glory matches"
            return text
        where = ""
        if self.index is not None:
            where = f" at decision {self.index}"
            if self.action is not None:
                where += f" ({self.action!r})"
        elif self.path is not None:
            where = f" at {self.path}"
        text = f"INVALID{where}: {self.rule} – {self.reason}"
        if self.to_move is not None:
            who = "chance" if self.to_move is CHANCE else f"seat {self.to_move}"
            text += f"; {who} was to decide"
            if self.legal_count:
                shown = ", ".join(self.legal)
                more = self.legal_count - len(self.legal)
                text += f"; legal: {shown}" + (f" and {more} more" if more > 0 else "")
        return text

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
    claimed final Glory, if any, against the computed one.

    Raises:
        RecordError: ``record`` is not a :class:`~ethnos_rules.GameRecord` (read text with
            :meth:`GameRecord.from_json` first).
    """
    if not isinstance(record, GameRecord):
        raise RecordError(f"validate() takes a GameRecord, not {type(record).__name__}")
    players = record.players if type(record.players) is int else None
    try:
        state = record.new_game()
    except RulesError as err:
        path = _setup_path(err.rule)
        return ValidationReport(
            ok=False, players=players, rule=err.rule, reason=err.reason, path=path
        )
    except (TypeError, ValueError, KeyError) as err:
        return ValidationReport(
            ok=False, players=players, rule="RECORD", reason=f"the setup cannot be read: {err}"
        )
    claims = record.claimed_glory
    if claims is not None and len(claims) != state.config.players:
        return ValidationReport(
            ok=False,
            players=players,
            rule="RECORD",
            path="$.claimed_glory",
            reason=f"{len(claims)} claimed scores for {state.config.players} players",
        )
    band: tuple[int, GameState, PlayBand] | None = None
    scorings: list[AgeScoring] = []
    for index, text in enumerate(record.actions):
        try:
            action = parse_action(text)
            after = apply(state, action)
        except RulesError as err:
            rule, reason = _explain(err, band, index, state)
            return _failure(state, index, text, rule, reason, players)
        if claims is not None and is_third_dragon(state, action):
            scorings.append(explain_age_end(state, drawer_of(state)))
        band = _band_context(index, state, action, after)
        state = after
    decisions = len(record.actions)
    if not state.pending.terminal:
        return ValidationReport(
            ok=True, complete=False, players=players, decisions=decisions, claims_checked=False
        )
    final = tuple(p.glory for p in state.players)
    won = winners(state)
    differences: tuple[ClaimDifference, ...] = ()
    if claims is not None:
        alternatives = [a for s in scorings for a in s.alternatives]
        differences = _compare_claims(claims, final, alternatives)
    if differences:
        rules = {d.rule for d in differences}
        reason = "the claimed final Glory is wrong: " + "; ".join(
            d.explanation for d in differences
        )
        return ValidationReport(
            ok=False,
            complete=True,
            players=players,
            decisions=decisions,
            rule=rules.pop() if len(rules) == 1 else "SCORE",
            reason=reason,
            path="$.claimed_glory",
            glory=final,
            winners=won,
            claims=differences,
            claims_checked=True,
        )
    return ValidationReport(
        ok=True,
        complete=True,
        players=players,
        decisions=decisions,
        glory=final,
        winners=won,
        claims_checked=claims is not None,
    )


def _setup_path(rule: str) -> str | None:
    return {
        "SETUP-1": "$.players",
        "SETUP-3": "$.tribes",
        "SETUP-4": "$.glory_tokens",
        "AGE-5": "$.first_player",
        "OPTIONS": "$.options",
    }.get(rule)


def _failure(
    state: GameState, index: int, text: Any, rule: str, reason: str, players: int | None
) -> ValidationReport:
    legal = legal_actions(state)
    return ValidationReport(
        ok=False,
        complete=False,
        players=players,
        decisions=index,
        index=index,
        action=text if isinstance(text, str) else repr(text),
        rule=rule,
        reason=reason,
        path=f"$.actions[{index}]",
        to_move=to_move(state),
        pending=state.pending.describe(),
        legal=tuple(str(a) for a in legal[:LEGAL_SHOWN]),
        legal_count=len(legal),
    )


def _band_context(
    index: int, before: GameState, action: Action, after: GameState
) -> tuple[int, GameState, PlayBand] | None:
    """The band just played, if it was offered no placement (kept to explain a stray
    ``place``)."""
    if isinstance(action, PlayBand) and not isinstance(after.pending, PlacePending):
        return index, before, action
    return None


def _explain(
    err: RulesError, band: tuple[int, GameState, PlayBand] | None, index: int, state: GameState
) -> tuple[str, str]:
    """The rule and reason for a refusal; a ``place`` after a band that could not place is
    explained by BAND-5 rather than by the decision that was due."""
    if (
        isinstance(err, WrongDecisionError)
        and isinstance(err.action, Place)
        and band is not None
        and band[0] == index - 1
    ):
        _, before, action = band
        seat = before.pending.seat
        assert seat is not None
        analysis = placement_analysis(before, seat, action.leader, len(action.cards))
        if not analysis.kingdoms:
            return analysis.rule, (
                f"the band played just before cannot place a marker: {analysis.text}; so no"
                f" placement follows it, and the next decision is {state.pending.describe()!r}"
            )
    return err.rule, err.reason


def _compare_claims(
    claims: Sequence[int], final: Sequence[int], alternatives: Sequence[Alternative]
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


def _best_explanation(
    seat: int, delta: int, alternatives: Sequence[Alternative]
) -> tuple[str, str]:
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
    kinds: dict[str, list[Alternative]] = {}
    for alt in mine:
        kinds.setdefault(alt.kind, []).append(alt)
    for group in kinds.values():
        if len(group) > 1 and sum(a.delta for a in group) == delta:
            joined = "; ".join(a.text for a in group)
            return group[0].rule, f"every time: {joined} ({group[0].rule})"
    return "SCORE", ""
