"""Breadth-first search over every reachable state of a small scope, checking each state and
each transition against the rules text (:mod:`exhaustive.rules_text`).

On every state: the referee's own invariants and the ones counted here (every card and marker
is somewhere once, hands within the limit, every band valid); ``legal_actions`` equal to the
brute-force enumeration, deterministic and without duplicates; at a chance event the outcomes
with exactly the probabilities of spec §11, summing to 1; the snapshot and every legal action's
notation read back equal. On every transition (each legal action applied with ``step``): the
decision that follows and its seat as the rules text says, Glory never falling, each seat's
Glory gain equal to both the events' gains and the rules text's (Giants, each end of Age by
source, tie groups split as SCORE-K-3 and SCORE-2P-1 say), each band marker placed by the size
test of BAND-5 (both players' markers with 2 players), the deck split of AGE-4, the next Age's
deck and first player, the winners.

A violation is kept with a snapshot of the state and the action, to replay it; the search goes
on, so a report counts them all.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ethnos_rules import (
    Action,
    AreaScored,
    BandPlayed,
    BandScored,
    CardDrawn,
    CardKept,
    ChainOffered,
    DecisionKind,
    DragonRevealed,
    Event,
    FirstPlayer,
    GameEnded,
    GameState,
    GiantScored,
    GiantTokenMissed,
    GiantTokenTaken,
    HordeEmptied,
    HordeKept,
    HordeMarkerAdded,
    MarkerPlaced,
    MerfolkMoved,
    Passed,
    Place,
    PlacementDeclined,
    PlacementTest,
    PlayBand,
    RulesError,
    TokensLaid,
    TribeChosen,
    TrollTokenTaken,
    chance_outcomes,
    legal_actions,
    parse_action,
    pending_decision,
    state_from_json,
    state_problems,
    state_to_json,
    step,
    winners,
)
from ethnos_rules._rules.editions import register

from . import rules_text
from .scopes import Scope

MAX_KEPT = 20
"""Violations kept in full (with a snapshot) per scope; the others are counted."""


@dataclass
class Violation:
    """A check that failed: which, where, and how to replay it."""

    check: str
    message: str
    snapshot: str
    action: str | None = None

    def __str__(self) -> str:
        at = f" after {self.action!r}" if self.action else ""
        return f"[{self.check}] {self.message}{at}"


@dataclass
class Report:
    """What the search of one scope visited and found."""

    scope: str
    states: int = 0
    transitions: int = 0
    terminal: int = 0
    seconds: float = 0.0
    violations: int = 0
    kept: list[Violation] = field(default_factory=list)
    reached: Counter[str] = field(default_factory=Counter)

    def fail(
        self, check: str, message: str, state: GameState, action: Action | None = None
    ) -> None:
        """Count a violation; keep the first ones with a snapshot to replay them."""
        self.violations += 1
        if len(self.kept) < MAX_KEPT:
            try:
                snapshot = state_to_json(state)
            except Exception as err:  # the snapshot may be what fails
                snapshot = f"(no snapshot: {err!r})"
            text = str(action) if action is not None else None
            self.kept.append(Violation(check, message, snapshot, text))


def explore(scope: Scope, limit: int | None = None) -> Report:
    """Visit every state reachable from the scope's start, checking each state and transition.

    Args:
        limit: Stop after this many states (a quick look at a scope too large to finish).
    """
    register(scope.edition)
    report = Report(scope.name)
    began = time.perf_counter()
    root = scope.start()
    seen = {root}
    frontier = [root]
    while frontier and (limit is None or report.states < limit):
        following = []
        for state in frontier:
            report.states += 1
            for action in _check_state(state, report):
                after = _check_transition(state, action, report)
                if after is not None and after not in seen:
                    seen.add(after)
                    following.append(after)
        frontier = following
    report.seconds = time.perf_counter() - began
    return report


# --- every state ------------------------------------------------------------------------------


def _check_state(state: GameState, report: Report) -> tuple[Action, ...]:
    """Every check of one state; the legal actions to follow."""
    problems = state_problems(state)
    if problems:
        report.fail("invariants", "; ".join(problems), state)
    for problem in counted_problems(state):
        report.fail("counted", problem, state)
    legal = legal_actions(state)
    if not legal:
        report.terminal += 1
    if legal_actions(state) != legal or len(set(legal)) != len(legal):
        report.fail("legal", "legal_actions is not deterministic or lists a duplicate", state)
    expected = rules_text.choices(state)
    if set(legal) != set(expected):
        extra = sorted(map(str, set(legal) - set(expected)))
        missing = sorted(map(str, set(expected) - set(legal)))
        report.fail("legal", f"offered beyond the rules {extra}, missing {missing}", state)
    _check_chance(state, legal, expected, report)
    _check_round_trips(state, legal, report)
    return legal


def counted_problems(state: GameState) -> list[str]:
    """What every state holds, counted here from the rules text: COMP-3 every card somewhere
    once, COMP-6 every marker, TURN-2 hands within the limit, BAND-1..4 every band valid,
    COMP-8 Troll tokens, COMP-11 Horde spaces, TRIBE-MER-1 the track, COMP-1 the kingdoms."""
    rules = state.rules
    out = []
    if len(state.tribes) == state.config.tribe_count:
        printed = Counter(
            {
                c: n
                for c, n in zip(rules.cards, rules.copies, strict=True)
                if c.tribe in state.tribes
            }
        )
        found = Counter({c: n for c, n in zip(rules.cards, state.deck, strict=True) if n})
        places = [state.row, state.discard]
        for player in state.players:
            places += [player.hand, *(band.cards for band in player.bands)]
        for cards in places:
            found.update(cards)
        if found != printed:
            out.append(
                f"COMP-3: cards {dict(found - printed)} too many, {dict(printed - found)} lost"
            )
    for seat, p in enumerate(state.players):
        if len(p.hand) > rules.hand_limit:
            out.append(f"TURN-2: seat {seat} holds {len(p.hand)} cards")
        for band in p.bands:
            if not rules_text.band_is_valid(band.cards, band.leader, rules.hand_limit):
                out.append(f"BAND-1..4: seat {seat}'s band {band} is not a band")
        markers = p.supply + sum(p.kingdoms) + len(p.horde) + (p.merfolk is not None) + 1
        if markers != rules.markers or p.supply < 0:
            out.append(f"COMP-6: seat {seat} has {markers} markers")
        if any(n for k, n in enumerate(p.kingdoms) if k not in rules.kingdoms):
            out.append(f"COMP-1: seat {seat} has markers off the edition's kingdoms")
        if len(set(p.horde)) != len(p.horde) or not set(p.horde) <= set(rules.colours):
            out.append(f"COMP-11: seat {seat}'s Horde {p.horde}")
        last = state.options.merfolk_board.last_space
        if p.merfolk is not None and not 0 <= p.merfolk <= last:
            out.append(f"TRIBE-MER-1: seat {seat} on space {p.merfolk}")
    held = Counter(v for p in state.players for v in p.trolls)
    if held - Counter(rules.troll_tokens):
        out.append(f"COMP-8: Troll tokens held {dict(held)}")
    return out


def _check_chance(
    state: GameState,
    legal: tuple[Action, ...],
    expected: dict[Action, Any],
    report: Report,
) -> None:
    """Spec §11: at a chance event the outcomes are the legal actions with the exact
    probabilities, each above 0, summing to 1; elsewhere there are none."""
    outcomes = chance_outcomes(state)
    if not state.pending.chance:
        if outcomes:
            report.fail("chance", "chance outcomes where a player decides", state)
        return
    if tuple(a for a, _ in outcomes) != legal:
        report.fail("chance", "the outcomes are not the legal actions", state)
    if dict(outcomes) != expected:
        wrong = {
            str(a): (str(p), str(expected.get(a))) for a, p in outcomes if expected.get(a) != p
        }
        report.fail("chance", f"probabilities (referee, rules) differ: {wrong}", state)
    if sum(p for _, p in outcomes) != 1 or any(p <= 0 for _, p in outcomes):
        report.fail("chance", "probabilities are not positive and summing to 1", state)


def _check_round_trips(state: GameState, legal: tuple[Action, ...], report: Report) -> None:
    """A snapshot reads back as the same state; every legal action's text reads back as it."""
    try:
        if state_from_json(state_to_json(state)) != state:
            report.fail("snapshot", "the snapshot reads back as another state", state)
    except RulesError as err:
        report.fail("snapshot", f"the snapshot is refused: {err}", state)
    for action in legal:
        text = str(action)
        if parse_action(text, state.rules) != action:
            report.fail("notation", f"{text!r} reads back as another action", state, action)


# --- every transition -----------------------------------------------------------------------


def _check_transition(state: GameState, action: Action, report: Report) -> GameState | None:
    """Apply ``action`` and check what it did; the state reached (None when it failed)."""
    report.transitions += 1
    try:
        result = step(state, action)
    except Exception as err:
        report.fail("apply", f"a legal action failed: {err!r}", state, action)
        return None
    done = Transition(state, action, result.state, result.events)
    for check in _TRANSITION_CHECKS:
        for problem in check(done):
            report.fail(check.__name__.strip("_"), problem, state, action)
    report.reached.update(reached(done))
    return result.state


@dataclass
class Transition:
    """A decision applied: the state before, the action, the state after, the events, and what
    the rules text says follows."""

    before: GameState
    action: Action
    after: GameState
    events: tuple[Event, ...]
    expected: rules_text.Next = field(init=False)

    def __post_init__(self) -> None:
        self.expected = rules_text.next_decision(self.before, self.action)


def _glory(done: Transition) -> Iterable[str]:
    """Glory never falls, and each seat gains what the events award, and what the rules text
    awards (TRIBE-GIA-1 during an Age; END-2..4, SCORE-*, TRIBE-*-end at its end)."""
    pairs = zip(done.after.players, done.before.players, strict=True)
    gained = [a.glory - b.glory for a, b in pairs]
    if min(gained) < 0:
        yield f"Glory fell: {gained}"
    told = [0] * len(gained)
    for event in done.events:
        for seat, amount in event.gains:
            told[seat] += amount
    if told != gained:
        yield f"Glory gained {gained}, the events award {told}"
    if done.expected.gains != gained:
        yield f"Glory gained {gained}, the rules text gives {done.expected.gains}"


def _next(done: Transition) -> Iterable[str]:
    """The decision that follows, its seat and the facts that matter, as the rules text says;
    the winners at the end (GAME-1..3) and each end of Age's gains by source."""
    expected, after = done.expected, done.after
    decision = pending_decision(after)
    if (decision.kind, decision.seat) != (expected.kind, expected.seat):
        yield (
            f"next: {decision.kind.name} of seat {decision.seat}; the rules text gives"
            f" {expected.kind.name} of seat {expected.seat}"
        )
        return
    wrong = {k: v for k, v in expected.facts.items() if decision.facts.get(k) != v}
    if wrong:
        yield f"next {decision.kind.name}: facts {dict(decision.facts)}, expected {wrong}"
    if expected.winners is not None and winners(after) != expected.winners:
        yield f"winners {winners(after)}, the rules text gives {expected.winners}"
    if expected.age_scored is not None:
        summary = after.history[-1]
        for seat in range(after.config.players):
            want = {src: g[seat] for src, g in expected.age_scored.items() if g[seat]}
            if summary.gains_of(seat) != want:
                yield f"Age summary of seat {seat}: {summary.gains_of(seat)}, expected {want}"


def _placement(done: Transition) -> Iterable[str]:
    """BAND-5: a band's marker goes only where X (+1 Minotaurs) beats the markers counted:
    the player's own, both players' with 2 players."""
    played = [e for e in done.events if isinstance(e, BandPlayed)]
    for event in done.events:
        if not (isinstance(event, MarkerPlaced) and event.reason == "band"):
            continue
        band = played[-1].band if played else pending_decision(done.before).facts["band"]
        allowed = rules_text.placement_kingdoms(done.before, event.seat, band.leader, band.size)
        if event.kingdom not in allowed:
            yield f"a marker placed in {event.kingdom.label}; BAND-5 allows {sorted(allowed)}"


def _age_start(done: Transition) -> Iterable[str]:
    """AGE-4: the deck split with the top part n // 2 and every Dragon below; AGE-1 the next
    Age's deck holds every card of the tribes in play again."""
    before, after = done.before, done.after
    split = before.pending.kind is DecisionKind.ROW and after.pending.kind is DecisionKind.TURN
    deck = sum(after.deck)
    if split and (after.top_left != deck // 2 or after.dragons_in_deck != after.rules.dragons):
        yield f"AGE-4: top part {after.top_left} of {deck}, {after.dragons_in_deck} Dragons"
    if after.age > before.age:
        rules = after.rules
        printed = tuple(
            n if c.tribe in after.tribes else 0
            for c, n in zip(rules.cards, rules.copies, strict=True)
        )
        if after.deck != printed or after.row or after.discard:
            yield "AGE-1: the next Age's deck is not every card of the tribes in play"


_TRANSITION_CHECKS: tuple[Callable[[Transition], Iterable[str]], ...] = (
    _glory,
    _next,
    _placement,
    _age_start,
)


# --- what a scope reached ---------------------------------------------------------------------


def reached(done: Transition) -> set[str]:
    """The rules a transition put to work, in words starting with a rule id (each scope is
    chosen to reach its list, :attr:`Scope.covers`)."""
    out = set()
    for event in done.events:
        out |= _event_rules(event)
    action, state = done.action, done.before
    if isinstance(action, Place) and action.kingdom is not None:
        leader = pending_decision(state).facts["band"].leader
        if action.kingdom is not rules_text.kingdom_of(leader.colour):
            out.add("TRIBE-WIN-1 a marker in another kingdom")
    if isinstance(action, PlayBand) and state.config.players == 2:
        out |= _two_player_placement(state, action)
    return out


def _event_rules(event: Event) -> set[str]:
    """What one event shows was put to work."""
    if isinstance(event, BandPlayed):
        leads = {f"BAND-4 {event.band.leader.tribe.code} leads"}
        if event.chain:
            leads.add("TRIBE-CEN-2 a chained band")
        if any(rules_text.wild(c) for c in event.band.others):
            leads.add("BAND-3 a Skeleton in a band")
        return leads
    if isinstance(event, AreaScored):
        return _scoring_rules(event)
    simple = {
        CardKept: "TRIBE-ELF-1 a card kept",
        ChainOffered: "TRIBE-CEN-1 a chain offered",
        GiantTokenTaken: "TRIBE-GIA-1 the Giant token taken",
        GiantTokenMissed: "TRIBE-GIA-1 a Giant band not larger",
        GiantScored: "TRIBE-GIA-2 the Giant token scored",
        MerfolkMoved: "TRIBE-MER-1 the Merfolk moved",
        HordeMarkerAdded: "TRIBE-ORC-1 a Horde marker added",
        TrollTokenTaken: "TRIBE-TRO-1 a Troll token taken",
        Passed: "TURN-3 a pass",
        PlacementDeclined: "BAND-5a a placement declined",
        TribeChosen: "SETUP-3 a tribe chosen by chance",
    }
    rule = simple.get(type(event))
    if rule is not None:
        return {rule}
    return _other_rules(event)


def _other_rules(event: Event) -> set[str]:
    """What an event with a telling field shows was put to work."""
    if isinstance(event, MarkerPlaced) and event.reason == "checkpoint":
        return {"TRIBE-MER-2 a checkpoint marker placed"}
    if isinstance(event, PlacementTest) and event.blocked is not None:
        return {f"BAND-5 no placement: {event.blocked}"}
    if isinstance(event, GameEnded):
        return {f"{event.decided_by} decided the game"}
    if isinstance(event, FirstPlayer) and event.how != "given":
        tied = " (tied)" if len(event.tied) > 1 else ""
        return {f"AGE-5 the first player by {event.how.replace('_', ' ')}{tied}"}
    if isinstance(event, TokensLaid) and event.by_chance:
        return {"SETUP-4 tokens laid by chance"}
    if isinstance(event, DragonRevealed) and not event.ends_age:
        return {"RECRUIT-3 a Dragon set aside"}
    if isinstance(event, HordeEmptied | HordeKept):
        how = "forced" if getattr(event, "forced", False) else "by choice"
        return {f"TRIBE-ORC-2 {'emptied' if isinstance(event, HordeEmptied) else 'kept'} {how}"}
    if isinstance(event, CardDrawn) and event.source == "wizard":
        return {"TRIBE-WIZ-1 a card drawn by Wizards"}
    if isinstance(event, BandScored) and event.bonus and event.value:
        return {"TRIBE-DWA-1 the bonus scored"}
    if isinstance(event, BandScored) and event.kept < event.band.size:
        return {"TRIBE-SKE-1 Skeletons removed before scoring"}
    return set()


def _scoring_rules(event: AreaScored) -> set[str]:
    """SCORE-K-3 ties and their rounding, Troll tie-breaks (TRIBE-TRO-2), SCORE-2P-1's cases,
    the Merfolk board (TRIBE-MER-3)."""
    out = {"TRIBE-MER-3 the Merfolk board scored"} if event.kingdom is None else set()
    values = [group.value for group in event.groups]
    if len(set(values)) < len(values):
        out.add("TRIBE-TRO-2 Troll tokens broke a tie")
    if event.scheme == "two_player_final":
        groups = [len(group.seats) for group in event.groups]
        case = {(2,): "a tie", (1,): "a lone contender", (1, 1): "first and second"}
        if tuple(groups) in case:
            out.add(f"SCORE-2P-1 {case[tuple(groups)]}")
        return out
    for group in event.groups:
        if len(group.seats) > 1:
            out.add(f"SCORE-K-3 a tie of {len(group.seats)} from rank {group.first_rank}")
            if sum(p.value for p in group.prizes) % len(group.seats):
                out.add("SCORE-K-3 a share rounded down")
    return out


def _two_player_placement(state: GameState, action: PlayBand) -> set[str]:
    """BAND-5 with 2 players: a kingdom where the band beats its player's markers but not both
    players' (the opponent's markers decided), and one where the Minotaur's +1 decided."""
    seat = pending_decision(state).seat
    assert seat is not None
    code = action.leader.tribe.code
    if code in rules_text.NEVER_PLACES or not state.players[seat].supply:
        return set()
    size = len(action.cards)
    bonus = rules_text.PLACEMENT_BONUS.get(code, 0)
    home = rules_text.kingdom_of(action.leader.colour)
    out = set()
    for kingdom in state.rules.kingdoms:
        if code not in rules_text.ANY_KINGDOM and kingdom is not home:
            continue
        own = state.players[seat].kingdoms[kingdom]
        both = sum(p.kingdoms[kingdom] for p in state.players)
        if own < size + bonus <= both:
            out.add("BAND-5 both players' markers counted (2 players)")
        if bonus and size <= both < size + bonus:
            out.add("TRIBE-MIN-1 the +1 decided")
    return out
