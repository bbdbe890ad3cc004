"""Editions declared as data (issue 37): the first edition's declaration, small editions made
from it, and the typed refusal of a declaration the rules cannot play.

COMP-1..11 and SETUP-1..4 give the numbers an edition fixes; a small edition plays by the same
rules with its own numbers (two kingdoms, one Dragon, one Age, …).
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest

from ethnos_rules import (
    FIRST_EDITION,
    Action,
    Checkpoint,
    DecisionKind,
    GameState,
    IllegalActionError,
    Kingdom,
    Options,
    Pass,
    Ruleset,
    SetupError,
    apply,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    pending_decision,
    sample_outcome,
    state_from_json,
    state_problems,
    state_to_json,
)
from ethnos_rules._replay.replay import Refusal
from ethnos_rules._rules.bands import BandContext
from ethnos_rules._rules.editions import register, ruleset, tokens_per_kingdom
from ethnos_rules._rules.state import Band
from ethnos_rules._rules.tribes import CheckpointPending
from ethnos_rules._seat.resample import resample_game
from ethnos_rules._seat.seatview import seat_actions, seat_decisions
from helpers import FIVE_TRIBES, SIX_TRIBES, refused

TINY_OPTIONS = Options(glory_tokens=(1, 2, 3, 4), glory_tokens_4plus=())


def tiny(name: str = "tiny", **changes: Any) -> Ruleset:
    """Elves, Merfolk and Skeletons in red and blue, one copy each, one Dragon, one Age."""
    declared: dict[str, Any] = {
        "tribes": ["ELF", "MER", "SKE"],
        "colours": ["red", "blue"],
        "copies": 1,
        "wild_copies": 2,
        "dragons": 1,
        "ages": (1, 1),
        "tribes_in_play": (3, 3),
        "token_spaces": (2, 2),
        "players": (2, 2),
        "hand_limit": 2,
        "default_options": TINY_OPTIONS,
    }
    return FIRST_EDITION.variant(name, **{**declared, **changes})


# --- the first edition ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "ages", "tribes", "spaces"),
    [(2, 2, 5, 2), (3, 2, 5, 2), (4, 3, 6, 3), (6, 3, 6, 3)],
)
def test_the_first_edition_declares_the_setup_numbers(
    players: int, ages: int, tribes: int, spaces: int
) -> None:
    """SETUP-2..4: 3 Ages, 6 tribes and 3 tokens per kingdom with 4–6 players; 2, 5 and 2 with
    2–3, as the first edition's declaration says and a game reads them."""
    config = new_game(players).config
    assert (config.ages, config.tribe_count, config.token_spaces) == (ages, tribes, spaces)
    assert tokens_per_kingdom(players) == spaces


def test_the_first_edition_is_one_declaration() -> None:
    """COMP-1..4, COMP-6, TURN-2: every number the rules read is in the declaration."""
    first = FIRST_EDITION
    assert len(first.kingdoms) == 6 and len(first.tribes) == 12 and first.dragons == 3
    assert first.hand_limit == 10 and first.markers == 26 and first.players == (2, 6)
    assert sum(first.copies) == 11 * 12 + 12 + 12  # Halflings 24, Skeletons 12
    assert first.default_options == Options()
    assert ruleset("1e") is first and pickle.loads(pickle.dumps(first)) is first


def test_the_first_edition_refuses_tokens_that_do_not_fill_its_kingdoms() -> None:
    """COMP-5, SETUP-4: 18 tokens (12 without the 4+ ones) fill six kingdoms; other counts are
    refused when a game is set up, with the number needed."""
    err = refused(
        lambda: new_game(4, options=Options(glory_tokens=(0,) * 16 + (4,), glory_tokens_4plus=())),
        SetupError,
    )
    assert err.rule == "COMP-5" and "18 in all" in err.reason and "are 17" in err.reason
    five = Options(glory_tokens_4plus=(0, 4, 4, 6, 6))
    err = refused(lambda: new_game(2, options=five), SetupError)
    assert err.rule == "COMP-5" and "12 in all" in err.reason and "less the 4+" in err.reason


# --- a small edition ------------------------------------------------------------------------------


def test_a_small_edition_plays_on_its_own_kingdoms() -> None:
    """COMP-1, COMP-3, SETUP-4: two colours make two kingdoms; one copy of each card; the tokens
    are laid on Rhea, then Straton."""
    small = tiny()
    assert [c.code for c in small.cards] == [
        "ELF-red",
        "ELF-blue",
        "MER-red",
        "MER-blue",
        "SKE",
    ]
    assert small.copies == (1, 1, 1, 1, 2)
    assert small.kingdoms == (Kingdom.RHEA, Kingdom.STRATON)
    state = new_game(2, ruleset=small, tribes=["ELF", "MER", "SKE"])
    assert [str(a) for a in legal_actions(state)] == [
        "tokens Rhea 1 2",
        "tokens Rhea 1 3",
        "tokens Rhea 1 4",
        "tokens Rhea 2 3",
        "tokens Rhea 2 4",
        "tokens Rhea 3 4",
    ]
    state = apply(state, parse_action("tokens Rhea 1 4", small))
    assert [str(a) for a in legal_actions(state)] == ["tokens Straton 2 3"]


def test_a_small_edition_refuses_what_is_not_in_it() -> None:
    """SETUP-1, SETUP-4, TRIBE-MER-2: its player count, its kingdoms' tokens, a checkpoint
    marker only on its kingdoms."""
    small = tiny()
    err = refused(lambda: new_game(3, ruleset=small), SetupError)
    assert err.rule == "SETUP-1" and "2 to 2 players" in err.reason
    layout = {"Rhea": [1, 2], "Althea": [3, 4]}
    err = refused(lambda: new_game(2, ruleset=small, glory_tokens=layout), SetupError)
    assert err.rule == "SETUP-4" and "Althea is no kingdom of this edition" in err.reason
    state = new_game(2, ruleset=small, tribes=["ELF", "MER", "SKE"], glory_tokens=[[1, 2], [3, 4]])
    assert state.tokens == ((1, 2), (3, 4))
    band = Band(small.card("MER-red"), ())
    pending = CheckpointPending(BandContext(0, band, 0, False), 1)
    assert Checkpoint(Kingdom.ALTHEA) not in pending.legal(state)
    illegal = refused(lambda: pending.apply(state, Checkpoint(Kingdom.ALTHEA)), IllegalActionError)
    assert illegal.rule == "TRIBE-MER-2" and "no kingdom of this edition" in illegal.reason


def test_a_small_edition_refuses_foreign_options() -> None:
    """COMP-5: the first edition's 12 tokens do not fill two kingdoms of two spaces."""
    err = refused(lambda: new_game(2, ruleset=tiny(), options=Options()), SetupError)
    assert err.rule == "COMP-5" and "4 in all" in err.reason and "are 12" in err.reason


def test_markers_off_the_edition_are_an_invalid_state() -> None:
    """COMP-1: markers only on the edition's kingdoms."""
    small = tiny()
    state = new_game(2, ruleset=small, tribes=["ELF", "MER", "SKE"], glory_tokens=[[1, 2], [3, 4]])
    player = state.players[0]
    moved = attrs.evolve(player, supply=player.supply - 1, kingdoms=(1, 0, 0, 0, 0, 0))
    broken = state.with_player(0, moved)
    assert any("Althea, no kingdom of this edition" in p for p in state_problems(broken))


def test_a_registered_small_edition_round_trips_through_a_snapshot() -> None:
    """A snapshot names its edition; registered, it reads back as the same state, its cards
    read by that edition's names."""
    small = register(tiny("tiny-snapshot"))
    assert ruleset("tiny-snapshot") is small and register(small) is small
    state = new_game(
        2,
        ruleset=small,
        tribes=["ELF", "MER", "SKE"],
        glory_tokens=[[1, 2], [3, 4]],
        first_player=1,
    )
    for text in ("reveal SKE", "reveal MER-blue", "reveal ELF-red"):
        state = apply(state, parse_action(text, small))
    assert state_from_json(state_to_json(state)) == state
    err = refused(lambda: register(tiny("tiny-snapshot")), SetupError)
    assert err.rule == "COMP-2" and "another edition" in err.reason
    with pytest.raises(TypeError, match="no home"):
        pickle.dumps(small)


# --- declarations refused -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "rule", "words"),
    [
        ({"tribes": []}, "COMP-2", "non-empty list"),
        ({"tribes": ["ELF", "ELF"]}, "COMP-2", "same code"),
        ({"tribes": ["XYZ"]}, "COMP-2", "unknown tribe"),
        ({"tribes": [("elf", "Elves", None, False)]}, "COMP-2", "upper-case"),
        ({"tribes": [("ELF", "Elves", None, False)]}, "COMP-2", "an Ability"),
        ({"tribes": ["SKE"]}, "BAND-3", "one that leads"),
        ({"colours": []}, "COMP-1", "non-empty"),
        ({"colours": ["red", "red"]}, "COMP-1", "named twice"),
        ({"colours": ["mauve"]}, "COMP-1", "unknown colour"),
        ({"copies": 0}, "COMP-3", "copies must be an integer ≥ 1"),
        ({"copies_per_colour": {"SKE": 2}}, "COMP-3", "no coloured tribe"),
        ({"wild_copies": 0}, "COMP-3", "wild_copies"),
        ({"tribes": ["ELF", "MER"], "wild_copies": 2}, "COMP-3", "there is none"),
        ({"dragons": 0}, "COMP-4", "dragons"),
        ({"markers": 1}, "COMP-6", "markers"),
        ({"hand_limit": 0}, "TURN-2", "hand_limit"),
        ({"ages": (1,)}, "SETUP-2", "a pair"),
        ({"ages": (3, 3)}, "COMP-9", "a value for each Age"),
        ({"ages": (3, 3), "giant_values": ((2, 4, 6), (2, 5, 7))}, "SCORE-K-2", "token_spaces"),
        ({"tribes_in_play": (4, 4)}, "SETUP-3", "from 1 to 3"),
        ({"tribes_in_play": (1, 1)}, "SETUP-3", "a tribe that leads"),
        ({"token_spaces": (1, 1)}, "SCORE-2P-1", "2 token spaces"),
        ({"players": (3, 2)}, "SETUP-1", "the fewest come first"),
        ({"players": (1, 2)}, "SETUP-1", "from 2 to 6"),
        ({"orc_glory": (1,)}, "COMP-11", "each Horde space"),
        ({"band_glory": ()}, "COMP-7", "a list of integers"),
        ({"troll_tokens": (1, -1)}, "COMP-8", "non-negative"),
        ({"copies": 1, "wild_copies": 1, "tribes_in_play": (2, 2)}, "AGE-3", "take 6 cards"),
        ({"wild_copies": 4}, "TURN-3", "pass for ever"),
        ({"default_options": Options()}, "COMP-5", "4 in all"),
        ({"default_options": {}}, "COMP-5", "an Options"),
    ],
)
def test_a_bad_declaration_is_refused_naming_the_rule(
    changes: dict[str, Any], rule: str, words: str
) -> None:
    """COMP-*, SETUP-*, AGE-3, TURN-3: a declaration the rules cannot play to its end is
    refused with a SetupError naming the rule and what is wrong."""
    err = refused(lambda: tiny(**changes), SetupError)
    assert err.rule == rule and words in err.reason, err


def test_the_first_edition_is_built_as_any_other() -> None:
    """The first edition's own declaration passes the checks every edition passes (a variant
    with every number kept is another object with the same numbers)."""
    again = FIRST_EDITION.variant("1e-again", tribes=[t.code for t in FIRST_EDITION.tribes])
    assert again.copies == FIRST_EDITION.copies and again.kingdoms == FIRST_EDITION.kingdoms
    assert again.cards[0] is not FIRST_EDITION.cards[0]
    assert new_game(4, ruleset=again, tribes=SIX_TRIBES).config.ages == 3
    assert new_game(3, ruleset=again, tribes=FIVE_TRIBES).config.token_spaces == 2


def test_a_chain_offer_without_skeletons_is_resampled() -> None:
    """TRIBE-CEN-1, BAND-4: in an edition without Skeletons every card can lead a band, so a
    record kept at seat 0 that ends where seat 1 is offered a Centaur chain is resampled
    (it raised StopIteration while looking for the kind that cannot lead)."""
    edition = tiny(
        "no-skeletons",
        tribes=["CEN", "DWA"],
        copies=2,
        wild_copies=0,
        tribes_in_play=(2, 2),
        hand_limit=3,
    )
    start = new_game(2, ruleset=edition, first_player=0, glory_tokens=[[1, 2], [3, 4]])
    actions = _until_seat_one_may_chain(start)
    record = seat_actions(start, actions, 0)
    drawn = resample_game(start, record, 0, random.Random(1))
    assert seat_actions(start, drawn.actions, 0) == record
    assert pending_decision(drawn.final).kind is DecisionKind.CENTAUR_CHAIN


def _until_seat_one_may_chain(start: GameState) -> list[Action]:
    """The decisions of the first seeded random game that offers seat 1 a Centaur chain."""
    for seed in range(100):
        rng, state, actions = random.Random(seed), start, list[Action]()
        while not is_terminal(state):
            decision = pending_decision(state)
            if decision.kind is DecisionKind.CENTAUR_CHAIN and decision.seat == 1:
                return actions
            action = rng.choice(legal_actions(state))
            if state.pending.chance:
                action = sample_outcome(state, rng)
            state = apply(state, action)
            actions.append(action)
    raise AssertionError("no game offered seat 1 a chain")


def test_a_pass_in_an_edition_without_skeletons_is_refused() -> None:
    """TURN-3: where every card can lead a band no full hand passes, so a record kept at seat
    0 in which seat 1 passes is refused, naming TURN-3 (the validator raised StopIteration
    while looking for the kind that cannot lead)."""
    edition = tiny(
        "no-skeletons-pass",
        tribes=["DWA", "WIZ"],
        colours=["red"],
        copies=3,
        wild_copies=0,
        tribes_in_play=(2, 2),
        hand_limit=1,
        default_options=Options(glory_tokens=(1, 3), glory_tokens_4plus=()),
    )
    start = new_game(2, ruleset=edition, first_player=0, glory_tokens=[[1, 3]])
    state, actions = start, list[Action]()
    while not (state.pending.seat == 1 and state.players[1].hand):
        rng = random.Random(len(actions))
        action = sample_outcome(state, rng) if state.pending.chance else legal_actions(state)[0]
        state = apply(state, action)
        actions.append(action)
    record = [*seat_actions(start, actions, 0), Pass()]
    told = list(seat_decisions(start, record, 0))
    assert isinstance(told[-1], Refusal) and told[-1].index == len(record) - 1
    assert told[-1].error.rule == "TURN-3" and "can lead a band" in told[-1].error.reason


def test_a_player_who_passed_shows_no_band_until_the_age_ends() -> None:
    """TURN-3: a pass is made with a full hand of Skeletons, which stays so all Age; a record
    kept at seat 0 in which seat 1 later plays a band is refused there (the validator let the
    witness relabel the passed hand; found by ``make exhaustive``'s one-seat check)."""
    edition = tiny(
        "passed-then-band",
        tribes=["WIZ", "SKE"],
        colours=["red"],
        copies=6,
        wild_copies=1,
        tribes_in_play=(2, 2),
        hand_limit=1,
        default_options=Options(glory_tokens=(1, 3), glory_tokens_4plus=()),
    )
    options = Options(glory_tokens=(1, 3), glory_tokens_4plus=(), placement="mandatory")
    start = new_game(2, ruleset=edition, first_player=0, glory_tokens=[[1, 3]], options=options)
    opening = "tribe SKE, tribe WIZ, reveal WIZ-red, reveal SKE" + ", reveal WIZ-red" * 4
    game = [parse_action(t, edition) for t in opening.split(", ")]
    game += [parse_action(t, edition) for t in ("band *WIZ-red", "wizard 0", "pass")]
    state = start
    for action in game:
        state = apply(state, action)
    record = [
        *seat_actions(start, game, 0),
        *(parse_action(t, edition) for t in ("recruit WIZ-red", "band *WIZ-red")),
    ]
    told = list(seat_decisions(start, record, 0))
    assert all(not isinstance(d, Refusal) for d in told[:-1])
    assert isinstance(told[-1], Refusal) and told[-1].index == len(record) - 1
    assert told[-1].error.rule == "BAND-1" and "passed earlier this Age" in told[-1].error.reason
