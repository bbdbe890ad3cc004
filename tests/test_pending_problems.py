"""The decisions' own checks: a state whose pending decision cannot come next in it is not
sound, and :func:`~ethnos_rules.state_problems` says why, in words (STATE).

Each test plays to a real decision, changes one thing about it with ``attrs.evolve`` so that
only that decision's check fails, and compares the whole message. (A snapshot read back with
``state_from_json`` is refused with these words.)
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from ethnos_rules import (
    GameState,
    Kingdom,
    Options,
    card,
    is_terminal,
    new_game,
    play_random,
    position,
    state_problems,
)
from ethnos_rules._rules.setup import LayTokensPending
from ethnos_rules._rules.tribes import TrollPending
from helpers import GIA_SET, LAYOUT_4P, MER_SET, SIX_TRIBES, TOKENS_4P, act, end_age

CEN_SET = ["CEN", "ELF", "ORC", "SKE", "TRO", "WIZ"]


def with_pending(state: GameState, **changes: Any) -> GameState:
    """``state`` with its pending decision changed."""
    pending: Any = state.pending  # every decision class is an attrs class
    return attrs.evolve(state, pending=attrs.evolve(pending, **changes))


def with_ctx(state: GameState, **changes: Any) -> GameState:
    """``state`` with the band context of its pending decision changed."""
    ctx = state.pending.ctx  # type: ignore[attr-defined]
    return with_pending(state, ctx=attrs.evolve(ctx, **changes))


def test_a_starting_card_past_the_last_player_is_a_problem() -> None:
    """AGE-2, STATE: one starting card is dealt to each player, no more."""
    state = new_game(4, tribes=SIX_TRIBES, glory_tokens=LAYOUT_4P, first_player=0)
    assert type(state.pending).__name__ == "DealPending" and state_problems(state) == ()
    assert state_problems(with_pending(state, dealt=4)) == (
        "starting card 5 is dealt, but there are 4 players",
    )


def test_a_placement_for_a_band_that_placed_is_a_problem() -> None:
    """BAND-5, STATE: a band places one marker; once it has, no placement is pending."""
    state = act(
        position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "ORC-red ORC-red"}),
        "band *ORC-red ORC-red",
    )
    assert type(state.pending).__name__ == "PlacePending" and state_problems(state) == ()
    assert state_problems(with_ctx(state, placed=True)) == (
        "seat 0: place the band's marker: the band *ORC-red ORC-red has no marker to place"
        " (BAND-5)",
    )


def test_a_chain_after_a_centaur_band_that_did_not_place_is_a_problem() -> None:
    """TRIBE-CEN-1, STATE: only a Centaur-led band that placed a marker is followed by a
    chained band."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "CEN-red ELF-blue ELF-blue"})
    state = act(state, "band *CEN-red", "place Rhea")
    assert type(state.pending).__name__ == "ChainPending" and state_problems(state) == ()
    assert state_problems(with_ctx(state, placed=False)) == (
        "seat 0: play another band (Centaurs) or stop: only a Centaur-led band that placed a"
        " marker chains (TRIBE-CEN-1)",
    )


def test_wizards_drawing_with_cards_left_in_hand_is_a_problem() -> None:
    """TRIBE-WIZ-1, STATE: the rest of the hand is discarded before the Wizards draw."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "WIZ-red WIZ-blue ORC-gray"})
    state = act(state, "band *WIZ-red WIZ-blue", "place none")
    assert type(state.pending).__name__ == "WizardPending" and state_problems(state) == ()
    kept = card("ORC-gray")
    player = attrs.evolve(state.players[0], hand=(kept,))
    row = list(state.row)
    row.remove(kept)
    unsound = attrs.evolve(state, players=(player, *state.players[1:]), row=tuple(row))
    assert state_problems(unsound) == (
        "seat 0: Wizards draw X cards or none: the rest of the hand is discarded before Wizards"
        " draw (TRIBE-WIZ-1)",
    )


def test_more_checkpoint_markers_than_the_move_earns_is_a_problem() -> None:
    """TRIBE-MER-2, STATE: a Merfolk move earns one checkpoint marker per checkpoint reached or
    passed; a move of 3 from space 0 reaches one (space 3)."""
    state = position(4, MER_SET, tokens=TOKENS_4P, hands={0: "MER-red MER-red MER-blue"})
    state = act(state, "band *MER-red MER-red MER-blue", "place none")
    assert type(state.pending).__name__ == "CheckpointPending" and state_problems(state) == ()
    assert state.players[0].merfolk == 3
    assert state_problems(with_pending(state, left=6)) == (
        "seat 0: place a Merfolk checkpoint marker (6 left): a move of 3 to space 3 earns 1"
        " checkpoint marker(s), and one needs a marker in supply (TRIBE-MER-2)",
    )
    # A marker still on space 0 has made no move that earns a marker.
    back = attrs.evolve(
        state, players=(attrs.evolve(state.players[0], merfolk=0), *state.players[1:])
    )
    problems = state_problems(back)
    assert problems[-1] == (
        "seat 0: place a Merfolk checkpoint marker (1 left): a move of 3 to space 0 earns 0"
        " checkpoint marker(s), and one needs a marker in supply (TRIBE-MER-2)"
    )


def test_an_orc_decision_with_gains_of_the_wrong_shape_is_a_problem() -> None:
    """TRIBE-ORC-2, END-3, STATE: the Orc decisions carry the Glory gained so far this end of
    Age, one row per seat of one value per source."""
    state = position(
        4,
        GIA_SET,
        tokens=TOKENS_4P,
        horde={1: ["red", "blue", "green"]},
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    assert type(state.pending).__name__ == "HordeEmptyPending" and state_problems(state) == ()
    for gains in [(), ((0, 0, 0, 0, 0),) * 3 + ((0, 0, 0, -1, 0),), ((0, 0, 0, 0),) * 4]:
        assert state_problems(with_pending(state, gains=gains)) == (
            "the Glory gained this end of Age needs one row per seat of 5 non-negative values"
            " (kingdoms, merfolk, giant, orcs, bands)",
        )


def test_wizard_draws_that_follow_no_wizard_band_or_exceed_x_are_a_problem() -> None:
    """TRIBE-WIZ-1, STATE: the Wizards' draws follow a Wizard-led band of that seat, X cards in
    all (here X = 2, none drawn yet)."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "WIZ-red WIZ-blue"})
    state = act(state, "band *WIZ-red WIZ-blue", "place none", "wizard 2")
    assert type(state.pending).__name__ == "WizardDrawPending" and state_problems(state) == ()
    assert state_problems(with_pending(state, wizard=1)) == (
        "seat 1's Wizard draws follow no Wizard-led band",
    )
    assert state_problems(with_pending(state, left=3)) == (
        "seat 0's Wizards have drawn 0 cards and 3 are left, but X = 2 (TRIBE-WIZ-1)",
    )


def test_a_deal_that_skipped_a_player_is_a_problem() -> None:
    """AGE-2, STATE: the starting cards are dealt one each, from the first player on."""
    state = new_game(4, tribes=SIX_TRIBES, glory_tokens=LAYOUT_4P, first_player=0)
    state = act(state, "reveal DWA-red")
    assert repr(state.pending) == "DealPending(dealt=1)" and state_problems(state) == ()
    dealt = state.players[0]
    moved = (attrs.evolve(dealt, hand=()), attrs.evolve(state.players[1], hand=dealt.hand))
    unsound = attrs.evolve(state, players=(*moved, *state.players[2:]))
    assert state_problems(unsound) == (
        "chance: deal starting card 2: the hands must hold the cards dealt so far (AGE-2)",
    )


def test_a_band_that_no_centaur_band_led_into_is_no_chained_band() -> None:
    """TRIBE-CEN-1, STATE: a band counted as the 2nd of a Centaur chain follows a Centaur-led
    band; here the band before it is led by an Elf."""
    state = position(
        4, CEN_SET, tokens=TOKENS_4P, hands={0: "ELF-red"}, bands={0: ["*ORC-blue", "*ELF-blue"]}
    )
    state = act(state, "band *ELF-red")
    assert type(state.pending).__name__ == "PlacePending" and state_problems(state) == ()
    assert state_problems(with_ctx(state, chain=1)) == (
        "the band *ELF-red cannot be band 2 of a Centaur chain",
    )


def test_an_ability_the_leader_does_not_have_is_a_problem() -> None:
    """BAND-6, STATE: a follow-up decision belongs to the Leader's ability: an Elf-led band
    takes no Troll token."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "ELF-red ORC-gray"})
    state = act(state, "band *ELF-red", "place none")
    assert type(state.pending).__name__ == "KeepPending" and state_problems(state) == ()
    ctx: Any = state.pending.ctx  # type: ignore[attr-defined]
    assert state_problems(attrs.evolve(state, pending=TrollPending(ctx))) == (
        "seat 0: take a Troll token or not: the band's Leader ELF-red has no such ability",
    )


def test_a_row_card_turned_up_into_a_hand_is_a_problem() -> None:
    """AGE-2, AGE-3, STATE: while the row is turned up every player holds one starting card."""
    state = new_game(4, tribes=SIX_TRIBES, glory_tokens=LAYOUT_4P, first_player=0)
    state = act(state, *(f"reveal {c}" for c in ["DWA-red", "DWA-blue", "ELF-red", "ELF-blue"]))
    state = act(state, "reveal GIA-red")
    assert repr(state.pending) == "RowPending(left=7)" and state_problems(state) == ()
    # Seat 0 takes the row card; seat 1's card goes into the row: the row still holds one.
    first, second = state.players[0], state.players[1]
    players = (
        attrs.evolve(first, hand=(*first.hand, *state.row)),
        attrs.evolve(second, hand=()),
        *state.players[2:],
    )
    unsound = attrs.evolve(state, players=players, row=second.hand)
    assert state_problems(unsound) == (
        "chance: turn up a row card (7 left): the row must hold the cards turned up so far",
    )


def test_a_game_over_before_the_last_age_or_its_summary_is_a_problem() -> None:
    """END-6, GAME-1, STATE: the game ends after the last Age is scored, and every Age leaves
    its summary."""
    final = play_random(4, 3).final
    assert is_terminal(final) and state_problems(final) == ()
    two = attrs.evolve(final, history=final.history[:2], last_dragon=final.history[1].third_dragon)
    assert state_problems(two) == ("the game is over, so each of the 3 Ages has a summary",)
    assert state_problems(attrs.evolve(two, age=2)) == (
        "the game ends after Age 3, not Age 2 (END-6)",
        "the game is over, so each of the 3 Ages has a summary",
    )


@pytest.mark.parametrize(
    ("bands", "chain", "centaur_chain", "problem"),
    [
        # One band before this one: it can be band 1 or 2 of a chain, not band 3.
        (["*CEN-blue"], 1, "allowed", None),
        (["*CEN-blue"], 2, "allowed", "the band *ELF-red cannot be band 3 of a Centaur chain"),
        # Two Centaur bands before it: band 3 of a chain, unless chains stop at two bands.
        (["*CEN-blue", "*CEN-red"], 2, "allowed", None),
        (
            ["*CEN-blue", "*CEN-red"],
            2,
            "single",
            "the band *ELF-red cannot be band 3 of a Centaur chain",
        ),
        (["*CEN-blue", "*CEN-red"], 1, "single", None),
        (["*CEN-blue"], -1, "allowed", "the band *ELF-red cannot be band 0 of a Centaur chain"),
    ],
)
def test_a_chained_band_follows_as_many_centaur_bands_as_the_chain_allows(
    bands: list[str], chain: int, centaur_chain: str, problem: str | None
) -> None:
    """TRIBE-CEN-1, TRIBE-CEN-2, STATE: the n-th band of a chain follows n - 1 bands of the
    player, each led by a Centaur; under centaur_chain=single a chain has two bands at most."""
    options = Options(centaur_chain="single" if centaur_chain == "single" else "allowed")
    state = position(
        4, CEN_SET, tokens=TOKENS_4P, hands={0: "ELF-red"}, bands={0: bands}, options=options
    )
    state = act(state, "band *ELF-red")
    assert type(state.pending).__name__ == "PlacePending" and state_problems(state) == ()
    assert state_problems(with_ctx(state, chain=chain)) == ((problem,) if problem else ())


def test_a_draw_for_a_player_at_the_hand_limit_is_a_problem() -> None:
    """TURN-2, STATE: a player holding 10 cards may not recruit, so no draw is theirs."""
    nine = "ORC-red ORC-red ORC-blue ORC-blue ORC-green ORC-green ORC-gray ORC-gray ORC-purple"
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: nine, 1: "SKE"})
    state = act(state, "recruit deck")
    assert repr(state.pending) == "RecruitDraw(recruiter=0)" and state_problems(state) == ()
    first, second = state.players[0], state.players[1]
    ten = tuple(sorted((*first.hand, *second.hand), key=lambda c: c.index))
    players = (attrs.evolve(first, hand=ten), attrs.evolve(second, hand=()), *state.players[2:])
    assert state_problems(attrs.evolve(state, players=players)) == (
        "seat 0 holds 10 cards and may not recruit (TURN-2)",
    )


def test_elf_kept_cards_out_of_card_order_are_a_problem() -> None:
    """TRIBE-ELF-1, STATE: the cards the Elves keep are named in card order."""
    state = position(4, CEN_SET, tokens=TOKENS_4P, hands={0: "ELF-red ELF-blue ORC-gray CEN-green"})
    state = act(state, "band *ELF-red ELF-blue", "place none", "keep CEN-green", "keep ORC-gray")
    assert type(state.pending).__name__ == "KeepPending" and state_problems(state) == ()
    backwards = (card("ORC-gray"), card("CEN-green"))
    assert state_problems(with_pending(state, kept=backwards)) == (
        "seat 0: Elves keep a card or stop (2 kept): the kept cards must be in the hand, named"
        " in card order",
    )


def test_glory_tokens_laid_after_every_kingdom_has_them_are_a_problem() -> None:
    """SETUP-4, STATE: once the six kingdoms have their tokens, no more are laid."""
    state = new_game(4, tribes=SIX_TRIBES, glory_tokens=LAYOUT_4P)
    assert len(state.tokens) == 6
    unsound = attrs.evolve(state, pending=LayTokensPending(Kingdom.STRATON))
    assert state_problems(unsound) == (
        "the glory tokens of Straton are laid after 6 kingdoms: tokens are laid kingdom by"
        " kingdom, from Althea (SETUP-4)",
    )
