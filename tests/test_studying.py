"""Studying positions: the decision type, and what the end of the Age would award now."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    AgeBegan,
    AgeScored,
    DecisionKind,
    DeckSplit,
    EmptyHorde,
    Event,
    FirstPlayer,
    GameState,
    InvalidStateError,
    RulesError,
    apply,
    end_age_now,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    pending_decision,
    position,
    score_now,
    step,
)
from ethnos_rules._rules.decisions import DECISION_TYPES
from ethnos_rules._rules.events import trace
from ethnos_rules._rules.state import Stage
from ethnos_rules._rules.turn import TurnPending, can_recruit
from helpers import SIX_TRIBES, refused
from strategies import game_prefixes, random_decision

# --- the decision type ------------------------------------------------------------------------


def test_every_decision_class_names_its_own_kind() -> None:
    """Each concrete decision class has one kind, and every kind belongs to one class."""
    kinds = [cls.kind for cls in DECISION_TYPES]
    assert len(set(kinds)) == len(kinds)
    assert set(kinds) == set(DecisionKind)


def _check_facts(state: GameState, before: GameState | None) -> None:
    """The facts of the decision pending in ``state`` agree with the state and with what the
    decision before it did."""
    decision = pending_decision(state)
    pending = state.pending
    assert (decision.kind, decision.seat) == (pending.kind, pending.seat)
    assert decision.rule == pending.rule
    assert decision.chance == pending.chance and str(decision) == pending.describe()
    facts = decision.facts
    if decision.kind in (DecisionKind.DECK_DRAW, DecisionKind.WIZARD_DRAW):
        assert before is not None and facts["drawer"] in before.pending.seats()
    if decision.kind is DecisionKind.TURN:
        assert facts["can_recruit"] == can_recruit(state, decision.seat or 0)
    if "band" in facts:
        assert state.players[decision.seat or 0].bands[-1] == facts["band"]
    if decision.kind is DecisionKind.ELF_KEEP:
        hand = state.players[decision.seat or 0].hand
        assert facts["target"] == min(facts["band"].size, len(hand))
    if decision.kind is DecisionKind.DEAL:
        assert before is not None and len(state.players[facts["receiver"]].hand) == 0
    assert set(facts) == FACTS[decision.kind]
    for name, value in _expected(state).items():
        assert facts[name] == value, (decision.kind, name)


FACTS = {
    DecisionKind.TRIBE_CHOICE: {"chosen", "in_play"},
    DecisionKind.TOKEN_LAYOUT: {"kingdom"},
    DecisionKind.FIRST_PLAYER: set(),
    DecisionKind.DEAL: {"receiver", "card_number"},
    DecisionKind.ROW: {"left"},
    DecisionKind.TURN: {"can_recruit"},
    DecisionKind.DECK_DRAW: {"drawer"},
    DecisionKind.PLACEMENT: {"band", "chain"},
    DecisionKind.MERFOLK_CHECKPOINT: {"band", "chain", "left"},
    DecisionKind.ORC_HORDE: {"band", "chain", "colour"},
    DecisionKind.TROLL_TOKEN: {"band", "chain", "max_value"},
    DecisionKind.CENTAUR_CHAIN: {"band", "chain"},
    DecisionKind.ELF_KEEP: {"band", "chain", "kept", "target"},
    DecisionKind.WIZARD_COUNT: {"band", "chain", "counts"},
    DecisionKind.WIZARD_DRAW: {"drawer", "left"},
    DecisionKind.HORDE_EMPTY: {"horde", "after", "third_dragon"},
    DecisionKind.GAME_OVER: {"winners"},
}
"""The facts of each kind, as pending_decision documents them."""


def _expected(state: GameState) -> dict[str, object]:
    """The facts read from the pending decision's own fields, where it has them."""
    pending: Any = state.pending
    out: dict[str, object] = {}
    if hasattr(pending, "ctx"):
        out.update(band=pending.ctx.band, chain=pending.ctx.chain)
    kind = pending.kind
    if kind in (DecisionKind.ROW, DecisionKind.MERFOLK_CHECKPOINT, DecisionKind.WIZARD_DRAW):
        out["left"] = pending.left
    if kind is DecisionKind.TRIBE_CHOICE:
        out.update(chosen=state.tribes, in_play=state.config.tribe_count)
    if kind is DecisionKind.TOKEN_LAYOUT:
        out["kingdom"] = pending.kingdom
    if kind is DecisionKind.DEAL:
        out["card_number"] = pending.dealt + 1
    if kind is DecisionKind.ORC_HORDE:
        out["colour"] = pending.ctx.leader.colour
    if kind is DecisionKind.TROLL_TOKEN:
        out["max_value"] = pending.ctx.size
    if kind is DecisionKind.ELF_KEEP:
        out["kept"] = pending.kept
    if kind is DecisionKind.WIZARD_COUNT:
        out["counts"] = pending.counts(state)
    if kind is DecisionKind.HORDE_EMPTY:
        seat = pending.queue[0]
        out.update(horde=state.players[seat].horde, after=pending.queue[1:])
        out["third_dragon"] = pending.drawer
    return out


def test_pending_decision_over_random_games() -> None:
    """Every kind of decision comes up in random games, with facts that agree with the state;
    the Orc players' decision names the drawer of the third Dragon before the summary does."""
    rng = random.Random(14)
    seen: set[DecisionKind] = set()
    for game in range(24):
        state = new_game(2 + game % 5)
        before: GameState | None = None
        while True:
            _check_facts(state, before)
            decision = pending_decision(state)
            seen.add(decision.kind)
            if decision.kind is DecisionKind.HORDE_EMPTY:
                third = decision.facts["third_dragon"]
                later = state
                while later.pending.kind is DecisionKind.HORDE_EMPTY:
                    later = apply(later, legal_actions(later)[0])
                assert later.history[-1].third_dragon == third
            if is_terminal(state):
                assert decision.facts["winners"] and decision.seat is None
                break
            before, state = state, apply(state, random_decision(state, rng))
    assert seen == set(DecisionKind)


def test_deck_draw_names_the_drawer() -> None:
    """A deck draw is chance (no seat decides) and names who draws."""
    state = position(4, SIX_TRIBES, to_move=2)
    decision = pending_decision(apply(state, parse_action("recruit deck")))
    assert decision.kind is DecisionKind.DECK_DRAW and decision.chance
    assert decision.seat is None and dict(decision.facts) == {"drawer": 2}
    with pytest.raises(TypeError):
        decision.facts["drawer"] = 3  # type: ignore[index]


def test_pending_decision_refuses_what_is_not_a_state() -> None:
    refused(lambda: pending_decision("a state"), InvalidStateError)  # type: ignore[arg-type]


# --- what if the Age ended now ----------------------------------------------------------------


def _third_dragon_next(state: GameState) -> GameState:
    """The same position, with the Age's last Dragon on top of the deck (the idiom the rules
    need to end an Age by a deck draw)."""
    dragons = state.rules.dragons
    return attrs.evolve(state, dragons_drawn=dragons - 1, dragons_in_deck=1, top_left=0)


def _real_end(state: GameState, hordes: str) -> GameState:
    """The player to move recruits from the deck and draws the last Dragon; each Orc player
    then empties the whole Horde or keeps it, as ``hordes`` says."""
    state = apply(_third_dragon_next(state), parse_action("recruit deck"))
    state = apply(state, parse_action("reveal DRAGON"))
    while state.pending.kind is DecisionKind.HORDE_EMPTY:
        horde = state.players[state.pending.seat or 0].horde
        state = apply(state, EmptyHorde(horde if hordes == "empty" else ()))
    return state


def _at_a_turn(prefix_state: GameState) -> bool:
    pending = prefix_state.pending
    return isinstance(pending, TurnPending) and can_recruit(prefix_state, pending.turn_seat)


@settings(max_examples=60, deadline=None)
@given(game_prefixes(), st.sampled_from(["empty", "keep"]))
def test_score_now_is_what_the_end_of_the_age_gives(prefix: object, hordes: str) -> None:
    """At any turn where the player may recruit, score_now equals the summary the real end of
    the Age writes when that player draws the last Dragon, event for event, and end_age_now
    reaches the same state as the real draw."""
    state = prefix.state  # type: ignore[attr-defined]
    rng = random.Random(prefix.seed)  # type: ignore[attr-defined]
    while not _at_a_turn(state) and not is_terminal(state):  # on to the next such turn
        state = apply(state, random_decision(state, rng))
    if is_terminal(state):
        return
    score = score_now(state, hordes=hordes)  # type: ignore[arg-type]
    real = _real_end(state, hordes)
    assert score.summary == real.history[len(state.history)]
    assert score.gains == score.summary.gains and score.glory == score.summary.glory
    assert sum(g for e in score.events for _, g in e.gains) == sum(score.glory) - sum(
        p.glory for p in state.players
    )
    assert isinstance(score.events[-1], AgeScored)
    assert score_now(state, hordes=hordes) == score  # type: ignore[arg-type]
    ended = end_age_now(state)
    if ended.pending.kind is not DecisionKind.HORDE_EMPTY:
        assert ended == real


def test_score_now_assumes_the_orc_choice_it_is_told() -> None:
    """Orc Hordes are the one end-of-Age choice: emptied, they pay now; kept, they do not."""
    state = position(4, SIX_TRIBES, horde={1: ["red", "blue"]}, to_move=0)
    assert score_now(state).gains_of(1) == {"orcs": state.rules.orc_glory[1]}
    assert score_now(state, hordes="keep").gains_of(1) == {}
    assert (score_now(state).hordes, score_now(state, hordes="keep").hordes) == ("empty", "keep")
    assert score_now(state, hordes="keep", drawer=3).summary.third_dragon == 3


def test_score_now_and_end_age_now_refuse_bad_arguments() -> None:
    state = position(4, SIX_TRIBES)
    err = refused(lambda: score_now(new_game(4)), RulesError)
    assert err.rule == "RECRUIT-4" and "turns of an Age" in err.reason
    err = refused(lambda: end_age_now(state, drawer=4), RulesError)
    assert "seat from 0 to 3" in err.reason
    err = refused(lambda: score_now(state, drawer=True), RulesError)
    assert "not True" in err.reason
    err = refused(lambda: score_now(state, hordes="some"), RulesError)  # type: ignore[arg-type]
    assert err.rule == "TRIBE-ORC-2" and "'empty' or 'keep'" in err.reason
    refused(lambda: score_now(None), InvalidStateError)  # type: ignore[arg-type]


def test_end_age_now_in_the_last_age_ends_the_game() -> None:
    state = position(3, ["DWA", "ELF", "GIA", "ORC", "WIZ"], age=2, bands={2: ["*ELF-red"]})
    after = end_age_now(state)
    assert after.pending.stage is Stage.OVER and len(after.history) == 1
    assert pending_decision(after).facts["winners"] == (2,)


def test_end_age_now_only_where_a_dragon_can_be_drawn() -> None:
    """A Dragon comes from the deck: during a band being resolved the Age cannot end (which
    would leave, say, a larger Giant band than the Giant token's), and at a draw only its
    drawer draws."""
    tribes = SIX_TRIBES
    state = position(
        4,
        tribes,
        hands={0: "GIA-red GIA-blue GIA-green"},
        bands={0: ["*GIA-purple GIA-orange"]},
        giant=(0, 2),
    )
    placing = apply(state, parse_action("band *GIA-red GIA-blue GIA-green"))
    assert pending_decision(placing).kind is DecisionKind.PLACEMENT
    err = refused(lambda: end_age_now(placing), RulesError)
    assert err.rule == "RECRUIT-4" and "place the band's marker" in err.reason
    assert score_now(placing).gains_of(0)  # what it would award is still a fair question
    drawing = apply(state, parse_action("recruit deck"))
    err = refused(lambda: end_age_now(drawing, drawer=1), RulesError)
    assert "seat 0 is drawing, so seat 1 cannot draw now" in err.reason


def test_end_age_now_at_a_wizard_draw_is_the_wizards_draw() -> None:
    """At a Wizard draw the last Dragon is the Wizards' (RECRUIT-4): the same events as the
    real draw of it, the lost draws told."""
    state = position(
        4,
        SIX_TRIBES,
        hands={0: "WIZ-red WIZ-blue"},
        dragons_drawn=2,
        top_left=0,
    )
    for text in ("band *WIZ-red WIZ-blue", "place Rhea", "wizard 2"):
        state = apply(state, parse_action(text))
    assert pending_decision(state).kind is DecisionKind.WIZARD_DRAW
    real = step(state, parse_action("reveal DRAGON"))
    assert end_age_now(state) == real.state
    assert trace(end_age_now, state)[1] == real.events


def test_the_start_of_an_age_tells_its_numbers() -> None:
    """AGE-1/4/5 events carry the numbers the rules used: the Age of how many, the first player
    given for Age I, and the split of the deck (the top half without Dragons, the rest with
    them)."""
    tribes = SIX_TRIBES
    start = new_game(4, tribes=tribes, first_player=2)
    rng = random.Random(4)
    state, seen = start, list[Event]()
    while not isinstance(state.pending, TurnPending):
        result = step(state, random_decision(state, rng))
        state, seen = result.state, [*seen, *result.events]
    begun = next(e for e in seen if isinstance(e, AgeBegan))
    assert (begun.age, begun.ages) == (1, 3)
    first = next(e for e in seen if isinstance(e, FirstPlayer))
    assert (first.seat, first.age, first.how) == (2, 1, "given")
    split = next(e for e in seen if isinstance(e, DeckSplit))
    allies = sum(state.deck)
    assert (split.top, split.bottom, split.dragons) == (allies // 2, allies - allies // 2 + 3, 3)
    assert state.top_left == allies // 2
