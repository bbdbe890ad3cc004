"""Setup (spec §2, SETUP-1..6): player count, Ages, tribes, glory tokens, tribe pieces, Glory.

Chance decisions of setup (tribes, token layout, Age I first player) are checked here too
(spec §11 for setup), and so are new_game's arguments of every kind and type: anything that is
not a setup is refused with SetupError naming the rule and repeating what was wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    CHANCE,
    FIRST_EDITION,
    ChooseFirstPlayer,
    ChooseTribe,
    GameState,
    IllegalActionError,
    ImpossibleOutcomeError,
    Kingdom,
    LayTokens,
    Options,
    SetupError,
    TokensLaid,
    TribesInPlay,
    apply,
    card,
    chance_outcomes,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    position,
    state_problems,
    to_move,
)
from ethnos_rules._rules.events import trace
from ethnos_rules._rules.setup import ChooseTribes, LayTokensPending
from helpers import (
    FIVE_TRIBES,
    LAYOUT_4P,
    SIX_TRIBES,
    assert_refused,
    end_age,
    refused,
    ruleset_like_first,
)
from strategies import KINGDOM_NAMES

# COMP-5: all 18 tokens; and the 12 left after removing the 4+ tokens 0,4,4,6,6,10.
FULL_LAYOUT: Mapping[Kingdom | str, Sequence[int]] = {
    "Althea": [2, 0, 0],
    "Duris": [4, 2, 4],
    "Ithys": [6, 4, 4],
    "Pelagon": [6, 6, 6],
    "Rhea": [8, 6, 8],
    "Straton": [10, 8, 10],
}
SMALL_LAYOUT: Sequence[Sequence[int]] = [[2, 0], [4, 2], [6, 4], [6, 6], [8, 8], [10, 8]]


def tribes_for(players: int) -> list[str]:
    return SIX_TRIBES if players >= 4 else FIVE_TRIBES


def layout_for(players: int) -> Any:
    return FULL_LAYOUT if players >= 4 else SMALL_LAYOUT


def fixed_game(players: int, **kwargs: Any) -> GameState:
    return new_game(
        players,
        tribes=kwargs.pop("tribes", tribes_for(players)),
        glory_tokens=kwargs.pop("glory_tokens", layout_for(players)),
        first_player=kwargs.pop("first_player", 0),
        **kwargs,
    )


# --- SETUP-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_accepted(players: int) -> None:
    """SETUP-1: 2 to 6 players are seated at seats 0 … n-1."""
    state = fixed_game(players)
    assert len(state.players) == players
    assert state.config.players == players


@pytest.mark.parametrize("players", [0, 1, 7, -2, True, 4.0, "4", None])
def test_bad_player_count_refused(players: Any) -> None:
    """SETUP-1: anything but an int from 2 to 6 is refused, naming SETUP-1."""
    with pytest.raises(SetupError) as err:
        new_game(players)
    assert err.value.rule == "SETUP-1"


@pytest.mark.parametrize("players", ["4", 4.0, True, False, 10**100, -1, 0, 1, 7, None, [4], 4j])
def test_new_game_player_count_of_any_type_is_refused(players: Any) -> None:
    """SETUP-1: only an int from 2 to 6 is a player count; the error repeats what was given."""
    err = refused(lambda: new_game(players), SetupError)
    assert err.rule == "SETUP-1"
    assert repr(players)[:20] in err.reason


@settings(max_examples=60)
@given(
    st.one_of(
        st.integers(),
        st.floats(allow_nan=True),
        st.booleans(),
        st.none(),
        st.text(max_size=3),
        st.lists(st.integers(), max_size=2),
    )
)
def test_new_game_player_count_property(players: Any) -> None:
    """SETUP-1: any value is either a player count from 2 to 6 (an int) or refused by
    SETUP-1."""
    if type(players) is int and 2 <= players <= 6:
        assert new_game(players).config.players == players
    else:
        assert refused(lambda: new_game(players), SetupError).rule == "SETUP-1"


def test_new_game_ruleset_by_name() -> None:
    """SETUP-1: a ruleset that is not a Ruleset object is refused with SetupError."""
    bad: Any = "1e"
    assert_refused(
        lambda: new_game(4, ruleset=bad),
        rule="SETUP-1",
        words=("ruleset must be a Ruleset, not '1e'",),
        error=SetupError,
    )


def test_setup_error_names_the_setup_rule() -> None:
    """SETUP-1, SETUP-3: SetupError for arguments of new_game that break a setup rule."""
    with pytest.raises(SetupError) as err:
        new_game(7)
    assert err.value.rule == "SETUP-1"
    with pytest.raises(SetupError) as err:
        new_game(4, tribes=["DWA", "ELF", "SKE", "TRO", "WIN"])
    assert err.value.rule == "SETUP-3"


# --- SETUP-2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "ages"), [(2, 2), (3, 2), (4, 3), (5, 3), (6, 3)])
def test_number_of_ages(players: int, ages: int) -> None:
    """SETUP-2: 3 Ages with 4–6 players, 2 with 2–3."""
    assert fixed_game(players).config.ages == ages


def test_three_players_have_no_third_age() -> None:
    """SETUP-2: a 3-player position in Age III does not exist."""
    with pytest.raises(SetupError):
        position(3, FIVE_TRIBES, age=3)
    position(4, SIX_TRIBES, age=3)  # exists with 4 players


def test_game_ends_after_age_two_with_three_players() -> None:
    """SETUP-2, END-6: with 3 players the end of Age II ends the game."""
    state = end_age(position(3, FIVE_TRIBES, age=2, dragons_drawn=2, top_left=0))
    assert is_terminal(state)


def test_game_goes_on_after_age_two_with_four_players() -> None:
    """SETUP-2, END-6: with 4 players Age III follows Age II; the game ends after Age III."""
    state = end_age(position(4, SIX_TRIBES, age=2, dragons_drawn=2, top_left=0))
    assert not is_terminal(state)
    assert state.age == 3
    assert is_terminal(end_age(position(4, SIX_TRIBES, age=3, dragons_drawn=2, top_left=0)))


# --- SETUP-3 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "count"), [(2, 5), (3, 5), (4, 6), (5, 6), (6, 6)])
def test_number_of_tribes(players: int, count: int) -> None:
    """SETUP-3: 6 tribes with 4–6 players, 5 with 2–3; other counts are refused."""
    tribes = ["CEN", "DWA", "ELF", "GIA", "HAL", "MER", "MIN"]
    state = fixed_game(players, tribes=tribes[:count])
    assert [t.code for t in state.tribes] == tribes[:count]
    for wrong in (count - 1, count + 1):
        with pytest.raises(SetupError) as err:
            fixed_game(players, tribes=tribes[:wrong])
        assert err.value.rule == "SETUP-3"


@pytest.mark.parametrize(
    "tribes",
    [
        ["DWA", "DWA", "ELF", "GIA", "MER", "ORC"],  # a tribe twice
        ["DWA", "ELF", "GIA", "MER", "ORC", "XYZ"],  # unknown tribe
        "DWA ELF GIA MER ORC WIZ",  # one string, not a list
    ],
)
def test_bad_tribe_list_refused(tribes: Any) -> None:
    """SETUP-3: duplicate, unknown or non-list tribes are refused, naming SETUP-3."""
    with pytest.raises(SetupError) as err:
        fixed_game(4, tribes=tribes)
    assert err.value.rule == "SETUP-3"


def test_tribes_by_name_and_any_order() -> None:
    """SETUP-3: tribes may be given by English name in any order; the state lists them sorted."""
    state = fixed_game(4, tribes=["wizards", "Orcs", "MER", "gia", "ELF", "Dwarves"])
    assert [t.code for t in state.tribes] == SIX_TRIBES


def test_allies_deck_is_every_card_of_the_tribes_in_play() -> None:
    """SETUP-3, COMP-3: the Allies Deck holds 2 of each colour per tribe, 4 per colour of
    Halflings, 12 Skeletons, and nothing of the tribes not in play."""
    state = fixed_game(4, tribes=["DWA", "ELF", "HAL", "MER", "SKE", "WIZ"])
    deck = Counter({state.rules.cards[i]: n for i, n in enumerate(state.deck) if n})
    assert deck[card("DWA-red")] == 2
    assert deck[card("HAL-blue")] == 4
    assert deck[card("SKE")] == 12
    assert deck[card("ORC-red")] == 0
    assert sum(deck.values()) == 4 * 12 + 24 + 12
    assert {c.tribe.code for c in deck} == {"DWA", "ELF", "HAL", "MER", "SKE", "WIZ"}


def test_tribes_chosen_by_chance_uniformly() -> None:
    """SETUP-3, CHANCE: tribe choice is uniform over the tribes not yet chosen; a chosen tribe
    cannot be chosen again."""
    state = new_game(4)
    assert to_move(state) is CHANCE
    outcomes = chance_outcomes(state)
    assert len(outcomes) == 12
    assert all(p == Fraction(1, 12) for _, p in outcomes)
    state = apply(state, parse_action("tribe ELF"))
    outcomes = chance_outcomes(state)
    assert len(outcomes) == 11
    assert all(p == Fraction(1, 11) for _, p in outcomes)
    assert ChooseTribe(state.rules.tribe("ELF")) not in [a for a, _ in outcomes]
    assert_refused(
        state,
        "tribe ELF",
        rule="SETUP-3",
        words=("Elves are already in play",),
        error=ImpossibleOutcomeError,
    )


def test_chance_tribe_of_another_ruleset_refused() -> None:
    """SETUP-3: the tribes are drawn from this game's ruleset; a tribe of another ruleset, even
    one with the same code, is no outcome of the draw."""
    state = new_game(4)
    other = ChooseTribe(ruleset_like_first("copy").tribe("ELF"))
    assert other not in legal_actions(state)
    assert_refused(
        state,
        other,
        rule="SETUP-3",
        reason="that tribe is not in this ruleset",
        error=IllegalActionError,
    )


def test_tribes_of_another_ruleset_refused_by_new_game() -> None:
    """SETUP-3: the tribes given to new_game are this game's ruleset's: a Tribe object of
    another ruleset, even one with the same code, is refused (it would bring no cards)."""
    other = ruleset_like_first("copy")
    tribes = [other.tribe(code) for code in SIX_TRIBES]
    with pytest.raises(SetupError) as info:
        new_game(4, tribes=tribes)
    assert info.value.rule == "SETUP-3"
    assert info.value.reason == (
        f"{', '.join(SIX_TRIBES)}: a tribe of another ruleset than this game's"
    )
    assert new_game(4, tribes=tribes, ruleset=other).tribes == tuple(sorted(tribes))


def test_chance_tribes_stop_after_five_with_three_players() -> None:
    """SETUP-3: with 3 players the fifth tribe completes the choice; the tokens come next."""
    state = new_game(3)
    for code in ["WIZ", "CEN", "SKE", "HAL", "TRO"]:
        assert legal_actions(state)[0].verb == "tribe"
        state = apply(state, parse_action(f"tribe {code}"))
    assert [t.code for t in state.tribes] == ["CEN", "HAL", "SKE", "TRO", "WIZ"]
    assert to_move(state) is CHANCE
    assert all(isinstance(a, LayTokens) for a in legal_actions(state))
    assert sum(state.deck) == 3 * 12 + 24 + 12


@pytest.mark.parametrize(
    "tribes",
    [
        lambda: (t for t in SIX_TRIBES),  # made anew for each run: a generator runs out
        lambda: [t.lower() for t in SIX_TRIBES],
        lambda: ["Dwarves", "elves", "GIANTS", "Merfolk", "Orcs", "Wizards"],
        lambda: [FIRST_EDITION.tribe(t) for t in SIX_TRIBES],
        lambda: list(reversed(SIX_TRIBES)),
    ],
    ids=["generator", "lower-case", "names", "Tribe-objects", "any-order"],
)
def test_new_game_tribes_any_iterable_code_or_name(tribes: Callable[[], Any]) -> None:
    """SETUP-3: tribes may be any iterable of codes, names (any case) or Tribe objects."""
    state = new_game(4, tribes=tribes())
    assert [t.code for t in state.tribes] == SIX_TRIBES


@pytest.mark.parametrize(
    ("tribes", "reason"),
    [
        ("DWAELFGIAMERORCWIZ", "tribes must be a list of tribe codes, not one string"),
        ([*SIX_TRIBES[:5], "DWA"], "a tribe is named twice"),
    ],
)
def test_new_game_bad_tribes_are_refused_in_these_words(tribes: Any, reason: str) -> None:
    """SETUP-3: a single string, or a tribe named twice, is refused in exactly these words."""
    assert_refused(
        lambda: new_game(4, tribes=tribes), rule="SETUP-3", reason=reason, error=SetupError
    )


@pytest.mark.parametrize(
    ("tribes", "words"),
    [
        ("DWAELFGIAMERORCWIZ", "tribes must be a list of tribe codes, not one string"),
        ([*SIX_TRIBES[:5], "DWA"], "a tribe is named twice"),
        ([FIRST_EDITION.tribe("CEN")] * 6, "a tribe is named twice"),
        (5, "tribes must be a list of tribe codes, not 5"),
        ([*SIX_TRIBES[:5], b"WIZ"], "named by its code"),
        ([*SIX_TRIBES[:5], None], "named by its code"),
        ([*SIX_TRIBES[:5], "wiz "], "unknown tribe"),
        ([*SIX_TRIBES[:5], "ＷＩＺ"], "unknown tribe"),
        ([*SIX_TRIBES[:5], ["WIZ"]], "named by its code"),
        (SIX_TRIBES[:5], "6 tribes, not 5"),
        ([*SIX_TRIBES, "HAL"], "6 tribes, not 7"),
        ([], "6 tribes, not 0"),
    ],
)
def test_new_game_bad_tribes_are_refused(tribes: Any, words: str) -> None:
    """SETUP-3: a single string, repeats, unknown or wrongly typed codes and the wrong number of
    tribes are refused, saying which."""
    err = refused(lambda: new_game(4, tribes=tribes), SetupError)
    assert err.rule == "SETUP-3" and words in err.reason


def test_new_game_tribes_not_iterable() -> None:
    """SETUP-3: ``new_game(4, tribes=42)`` is refused with SetupError."""
    bad: Any = 42
    refused(lambda: new_game(4, tribes=bad), SetupError)


# --- SETUP-4 ---------------------------------------------------------------------------------


def test_token_layout_sorted_lowest_on_space_one() -> None:
    """SETUP-4: the tokens of each kingdom are sorted, lowest on space I."""
    state = fixed_game(4)
    assert state.tokens == (
        (0, 0, 2),
        (2, 4, 4),
        (4, 4, 6),
        (6, 6, 6),
        (6, 8, 8),
        (8, 10, 10),
    )
    state = fixed_game(3)
    assert state.tokens == ((0, 2), (2, 4), (4, 6), (6, 6), (8, 8), (8, 10))


def test_layout_as_sequence_or_mapping_with_kingdom_keys() -> None:
    """SETUP-4: a layout may be a mapping keyed by Kingdom or by name, or a list in kingdom
    order; all give the same board."""
    by_enum = {Kingdom(i): values for i, values in enumerate(FULL_LAYOUT.values())}
    by_list = list(FULL_LAYOUT.values())
    expected = fixed_game(4).tokens
    assert fixed_game(4, glory_tokens=by_enum).tokens == expected
    assert fixed_game(4, glory_tokens=by_list).tokens == expected


@pytest.mark.parametrize("players", [2, 3])
def test_four_plus_tokens_removed_with_two_or_three_players(players: int) -> None:
    """SETUP-4, COMP-5: with 2–3 players the 4+ tokens (0,4,4,6,6,10) are removed, 2 tokens per
    kingdom; a layout using all 18 tokens or a 4+ token is refused."""
    assert Options().token_pool(players) == (0, 2, 2, 4, 4, 6, 6, 6, 8, 8, 8, 10)
    with pytest.raises(SetupError) as err:
        fixed_game(players, glory_tokens=FULL_LAYOUT)
    assert err.value.rule == "SETUP-4"
    # Swap the only 10 left for a second 0 (0 is a 4+ token): one 0 too many.
    bad = [[0, 0], [4, 2], [6, 4], [6, 6], [8, 8], [2, 8]]
    with pytest.raises(SetupError) as err:
        fixed_game(players, glory_tokens=bad)
    assert err.value.rule == "SETUP-4"


@pytest.mark.parametrize("players", [4, 5, 6])
def test_all_eighteen_tokens_with_four_or_more_players(players: int) -> None:
    """SETUP-4, COMP-5: with 4–6 players all 18 tokens are laid, 3 per kingdom."""
    assert Options().token_pool(players) == (0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10)
    state = fixed_game(players)
    assert all(len(row) == 3 for row in state.tokens)
    with pytest.raises(SetupError) as err:
        fixed_game(players, glory_tokens=SMALL_LAYOUT)
    assert err.value.rule == "SETUP-4"


@pytest.mark.parametrize(
    "layout",
    [
        {k: v for k, v in FULL_LAYOUT.items() if k != "Rhea"},  # a kingdom missing
        {**FULL_LAYOUT, "Atlantis": [0, 0, 2]},  # unknown kingdom
        list(FULL_LAYOUT.values())[:5],  # five rows
        [*list(FULL_LAYOUT.values())[:5], [8, 10, 10, 10]],  # four tokens on one kingdom
        [*list(FULL_LAYOUT.values())[:5], [8, 10, "10"]],  # not an integer
        [*list(FULL_LAYOUT.values())[:5], [8, 10, 8]],  # not the game's tokens
    ],
)
def test_bad_token_layout_refused(layout: Any) -> None:
    """SETUP-4: a layout must name the six kingdoms and use exactly the available tokens."""
    with pytest.raises(SetupError) as err:
        fixed_game(4, glory_tokens=layout)
    assert err.value.rule == "SETUP-4"


def test_given_tokens_are_told_as_given() -> None:
    """SETUP-3/4: a game set up with its tribes and tokens given tells so: the tribes and each
    kingdom's tokens, in kingdom order, not by chance."""
    state, events = trace(new_game, 4, tribes=SIX_TRIBES, glory_tokens=LAYOUT_4P, first_player=1)
    chosen = events[0]
    assert isinstance(chosen, TribesInPlay)
    assert (chosen.tribes, chosen.by_chance) == (state.tribes, False)
    laid = [e for e in events if isinstance(e, TokensLaid)]
    assert [(e.kingdom, e.values, e.by_chance) for e in laid] == [
        (kingdom, values, False) for kingdom, values in zip(Kingdom, state.tokens, strict=True)
    ]


def test_tokens_laid_by_chance_kingdom_by_kingdom() -> None:
    """SETUP-4, CHANCE: each kingdom's tokens are a uniform draw from those left; the
    probability of a sorted set is (ways to pick it) / C(left, 3)."""
    state = new_game(4, tribes=SIX_TRIBES, first_player=0)
    outcomes = dict(chance_outcomes(state))
    assert sum(outcomes.values()) == 1
    assert all(isinstance(a, LayTokens) and a.kingdom is Kingdom.ALTHEA for a in outcomes)
    # C(18, 3) = 816; {0, 0, 2}: C(2,2) * C(2,1) = 2 ways.
    assert outcomes[parse_action("tokens Althea 0 0 2")] == Fraction(2, 816)
    # {6, 6, 6}: C(5, 3) = 10 ways.
    assert outcomes[parse_action("tokens Althea 6 6 6")] == Fraction(10, 816)
    # {0, 4, 8}: 2 * 4 * 3 = 24 ways.
    assert outcomes[parse_action("tokens Althea 8 0 4")] == Fraction(24, 816)
    assert parse_action("tokens Althea 0 0 0") not in outcomes


def test_token_chance_refusals() -> None:
    """SETUP-4: tokens come kingdom by kingdom, 3 each, from those left; the refusal says
    which kingdom is next, how many tokens it gets, or which tokens are not left."""
    state = new_game(4, tribes=SIX_TRIBES, first_player=0)
    assert_refused(
        state,
        "tokens Duris 0 0 2",
        rule="SETUP-4",
        words=("kingdom by kingdom; now Althea",),
        error=IllegalActionError,
    )
    assert_refused(
        state,
        "tokens Althea 0 2",
        rule="SETUP-4",
        words=("each kingdom gets 3 tokens",),
        error=IllegalActionError,
    )
    assert_refused(
        state,
        "tokens Althea 0 0 0",
        rule="SETUP-4",
        words=("tokens [0, 0, 0] are not all among those left",),
        error=ImpossibleOutcomeError,
    )
    state = apply(state, parse_action("tokens Althea 0 0 2"))
    # Both 0s are gone now.
    assert parse_action("tokens Duris 0 2 4") not in legal_actions(state)
    assert_refused(
        state,
        "tokens Duris 0 2 4",
        rule="SETUP-4",
        words=("tokens [0, 2, 4] are not all among those left",),
        error=ImpossibleOutcomeError,
    )
    assert_refused(
        state,
        "tokens Althea 2 4 4",
        rule="SETUP-4",
        words=("now Duris",),
        error=IllegalActionError,
    )


@pytest.mark.parametrize("players", [2, 3])
def test_token_chance_refusals_small_game(players: int) -> None:
    """SETUP-4: with 2–3 players each kingdom gets 2 tokens, and the 4+ tokens are not left."""
    state = new_game(players, tribes=FIVE_TRIBES, first_player=0)
    assert_refused(
        state,
        "tokens Althea 0 2 2",
        rule="SETUP-4",
        words=("each kingdom gets 2 tokens",),
        error=IllegalActionError,
    )
    assert_refused(
        state,
        "tokens Althea 0 0",
        rule="SETUP-4",
        words=("tokens [0, 0] are not all among those left",),
        error=ImpossibleOutcomeError,
    )


def test_chance_token_layout_small_game_ends_sorted() -> None:
    """SETUP-4: with 3 players each kingdom gets 2 of the 12 tokens (C(12,2) = 66 pairs at
    first); the last kingdom's pair is forced; the board ends sorted."""
    state = new_game(3, tribes=FIVE_TRIBES, first_player=1)
    outcomes = dict(chance_outcomes(state))
    assert outcomes[parse_action("tokens Althea 2 0")] == Fraction(2, 66)
    assert outcomes[parse_action("tokens Althea 6 6")] == Fraction(3, 66)
    assert parse_action("tokens Althea 0 4 4") not in outcomes
    for name, values in zip(
        ["Althea", "Duris", "Ithys", "Pelagon", "Rhea"], SMALL_LAYOUT[:5], strict=True
    ):
        state = apply(state, parse_action(f"tokens {name} {values[0]} {values[1]}"))
    last = chance_outcomes(state)
    assert last == ((parse_action("tokens Straton 8 10"), Fraction(1)),)
    state = apply(state, parse_action("tokens Straton 10 8"))
    assert state.tokens == ((0, 2), (2, 4), (4, 6), (6, 6), (8, 8), (8, 10))
    assert to_move(state) is CHANCE  # the deal (AGE-2) follows: first player was given


def test_given_tokens_with_chance_tribes() -> None:
    """SETUP-3, SETUP-4: with the layout given and the tribes left to chance, the deal (AGE-2)
    follows the sixth tribe directly, with the given layout on the board."""
    state = new_game(4, glory_tokens=FULL_LAYOUT, first_player=1)
    for code in ["ELF", "SKE", "CEN", "TRO", "MIN", "HAL"]:
        state = apply(state, parse_action(f"tribe {code}"))
    assert state.tokens == fixed_game(4).tokens
    assert all(a.verb == "reveal" for a in legal_actions(state))
    state = apply(state, parse_action("reveal HAL-red"))
    assert state.players[1].hand == (card("HAL-red"),)


# A layout naming Duris by name and again as a Kingdom.
DURIS_TWICE: dict[str | Kingdom, list[int]] = {
    **dict(zip(KINGDOM_NAMES, LAYOUT_4P, strict=True)),
    Kingdom.DURIS: [2, 4, 4],
}


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        (LAYOUT_4P[:5], "6 kingdoms, not 5"),
        ([*LAYOUT_4P, [1]], "6 kingdoms, not 7"),
        ("abcdef", "needs 3 glory tokens"),
        ([[0, 0, 2.0], *LAYOUT_4P[1:]], "integers"),
        ([[True, 0, 2], *LAYOUT_4P[1:]], "integers"),
        ([[0, 0, "2"], *LAYOUT_4P[1:]], "integers"),
        ([[-1, 1, 2], *LAYOUT_4P[1:]], "exactly the available tokens"),
        ([[0, 0, 2]] * 6, "exactly the available tokens"),
        ([[0, 2], *LAYOUT_4P[1:]], "needs 3 glory tokens"),
        ([b"abc", *LAYOUT_4P[1:]], "needs 3 glory tokens"),
        ({"Althea": [0, 0, 2]}, "no glory tokens given for Duris"),
        (
            {"Atlantis": [1], **dict(zip(KINGDOM_NAMES, LAYOUT_4P, strict=True))},
            "unknown kingdom 'Atlantis'",
        ),
        ({0: [0, 0, 2]}, "unknown kingdom 0"),
        ({None: [0, 0, 2]}, "unknown kingdom None"),
        (5, "glory_tokens must map kingdoms to tokens or list 6 rows, not 5"),
        ([*LAYOUT_4P[:5], "8 10"], "Straton needs 3 glory tokens, not '8 10'"),
        ([*LAYOUT_4P[:5], None], "Straton needs 3 glory tokens, not None"),
        ([*LAYOUT_4P[:5], [8, 10]], "Straton needs 3 glory tokens"),
        ([*LAYOUT_4P[:5], [8, 10, 10.0]], "Straton: glory tokens are integers"),
        (
            {**dict(zip(KINGDOM_NAMES[:3], LAYOUT_4P, strict=False)), "Straton": [8, 10, 10]},
            "no glory tokens given for Pelagon, Rhea",
        ),
        (
            DURIS_TWICE,
            "glory tokens are given twice for Duris",
        ),
        (
            [[0, 0, 2]] * 6,
            "exactly the available tokens [0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10]",
        ),
    ],
)
def test_new_game_bad_token_layouts_are_refused(layout: Any, words: str) -> None:
    """SETUP-4: a layout must give 3 integer tokens (2 with 2–3 players) to each of the six
    kingdoms, using the available tokens exactly; the error says which part is wrong."""
    assert_refused(
        lambda: new_game(4, glory_tokens=layout), rule="SETUP-4", words=(words,), error=SetupError
    )


def test_new_game_token_layout_any_order_and_key_kind() -> None:
    """SETUP-4: rows in any order within a kingdom, Kingdom or (any-case) name keys, or an
    iterator of rows; the tokens are sorted lowest first."""
    by_name = {
        name.upper(): list(reversed(row))
        for name, row in zip(KINGDOM_NAMES, LAYOUT_4P, strict=True)
    }
    by_kingdom = dict(zip(Kingdom, LAYOUT_4P, strict=True))
    expected = tuple(tuple(row) for row in LAYOUT_4P)
    layouts: list[Any] = [by_name, by_kingdom, iter(LAYOUT_4P)]
    for layout in layouts:
        assert new_game(4, glory_tokens=layout).tokens == expected


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param(5, id="int"),
        pytest.param([None] * 6, id="rows-None"),
        pytest.param(b"abcdef", id="bytes"),
        pytest.param([iter([0, 0, 2]), *LAYOUT_4P[1:]], id="row-iterator"),
        pytest.param({"Althea": None, **{k: [] for k in KINGDOM_NAMES[1:]}}, id="mapping-to-None"),
    ],
)
def test_new_game_token_layout_of_the_wrong_shape(layout: Any) -> None:
    """SETUP-4: every malformed layout is refused with SetupError."""
    refused(lambda: new_game(4, glory_tokens=layout), SetupError)


def test_new_game_token_layout_naming_a_kingdom_twice() -> None:
    """SETUP-4: two rows for Althea are ambiguous and refused."""
    layout = {
        "Althea": [1, 1, 1],
        **dict(zip(KINGDOM_NAMES, LAYOUT_4P, strict=True)),
        "althea": [0, 0, 2],
    }
    refused(lambda: new_game(4, glory_tokens=layout), SetupError)


# --- SETUP-5 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_merfolk_marker_on_space_zero_from_supply(players: int) -> None:
    """SETUP-5, COMP-6: with Merfolk every player's Merfolk marker starts on space 0, taken from
    supply (26 markers: 1 score marker, 1 on the Merfolk board, 24 in supply)."""
    state = fixed_game(players)
    for player in state.players:
        assert player.merfolk == 0
        assert player.supply == 24


def test_no_merfolk_marker_without_merfolk() -> None:
    """SETUP-5, COMP-6: without Merfolk no marker leaves the supply (25 besides the score
    marker)."""
    state = fixed_game(4, tribes=["CEN", "DWA", "ELF", "GIA", "ORC", "WIZ"])
    for player in state.players:
        assert player.merfolk is None
        assert player.supply == 25


def test_tribe_pieces_start_unclaimed_and_empty() -> None:
    """SETUP-5: all six Troll tokens unclaimed, Giant token unclaimed, every Horde empty."""
    state = fixed_game(5, tribes=["GIA", "MER", "ORC", "TRO", "WIN", "WIZ"])
    assert state.unclaimed_trolls() == (1, 2, 3, 4, 5, 6)
    assert state.giant_holder is None
    assert all(p.horde == () and p.trolls == () for p in state.players)


@pytest.mark.parametrize(("players", "merfolk_ii", "giant_ii"), [(3, 3, 5), (4, 2, 4)])
def test_board_sides_match_player_count(players: int, merfolk_ii: int, giant_ii: int) -> None:
    """SETUP-5, COMP-9, COMP-10: the 2–3 players sides of the Merfolk board and Giant token
    (Age II: Merfolk II = 3, Giant 5) differ from the 4–6 players sides (2 and 4)."""
    tribes = SIX_TRIBES[: 6 if players >= 4 else 5]
    state = position(
        players,
        tribes,
        age=2,
        merfolk={0: 5},
        bands={0: ["*GIA-red GIA-blue GIA-green"]},
        giant=(0, 3),
        dragons_drawn=2,
        top_left=0,
    )
    state = end_age(state)
    gains = dict(state.history[-1].gains[0])
    # Alone on the Merfolk track: ranked first, Age II → space II.
    assert gains["merfolk"] == merfolk_ii
    assert gains["giant"] == giant_ii


# --- SETUP-6 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_everyone_starts_at_zero_glory(players: int) -> None:
    """SETUP-6: every player starts at 0 Glory."""
    assert all(p.glory == 0 for p in fixed_game(players).players)
    assert all(p.glory == 0 for p in new_game(players).players)


# --- Age I first player (AGE-5) and the rule options: arguments and chance -----------------


@pytest.mark.parametrize("first", [-1, 4, "0", 1.0])
def test_bad_first_player_refused(first: Any) -> None:
    """AGE-5: a given first player must be a seat."""
    with pytest.raises(SetupError) as err:
        fixed_game(4, first_player=first)
    assert err.value.rule == "AGE-5"


@pytest.mark.parametrize("first", [True, False, -1, 4, 3.0, "0", 10**30, [0]])
def test_new_game_bad_first_player(first: Any) -> None:
    """AGE-5: the Age I first player is a seat: an int from 0 to players - 1 (not a bool)."""
    assert refused(lambda: new_game(4, first_player=first), SetupError).rule == "AGE-5"


def test_bad_options_refused() -> None:
    """OPTIONS: options must be an Options; an unknown value of an option is refused."""
    with pytest.raises(SetupError) as err:
        fixed_game(4, options={"placement": "mandatory"})
    assert err.value.rule == "OPTIONS"
    with pytest.raises(SetupError) as err:
        Options(placement="sometimes")  # type: ignore[arg-type]
    assert err.value.rule == "OPTIONS"


@pytest.mark.parametrize("options", [{}, {"placement": "optional"}, "optional", Options, 1])
def test_new_game_options_must_be_options(options: Any) -> None:
    """OPTIONS: rule options are an Options object, not a dict or a name."""
    err = refused(lambda: new_game(4, options=options), SetupError)
    assert err.rule == "OPTIONS" and "must be an Options" in err.reason
    assert ("Options(**{...}) builds one" in err.reason) is isinstance(options, dict)


@pytest.mark.parametrize("players", [2, 5])
def test_first_player_chosen_by_chance_uniformly(players: int) -> None:
    """AGE-5, CHANCE: without a given first player, a uniform chance decision over the seats
    follows the token layout; the chosen seat receives the first starting card (AGE-2)."""
    state = new_game(players, tribes=tribes_for(players), glory_tokens=layout_for(players))
    outcomes = chance_outcomes(state)
    assert [a for a, _ in outcomes] == [ChooseFirstPlayer(s) for s in range(players)]
    assert all(p == Fraction(1, players) for _, p in outcomes)
    state = apply(state, parse_action(f"first {players - 1}"))
    assert state.first_player == players - 1
    state = apply(state, parse_action("reveal DWA-red"))
    assert state.players[players - 1].hand == (card("DWA-red"),)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_first_player_seat_out_of_range_is_refused(players: int) -> None:
    """AGE-5: `first n` in an n-player game is refused naming AGE-5 and the seat."""
    state = new_game(players, tribes=tribes_for(players), glory_tokens=layout_for(players))
    assert_refused(
        state,
        f"first {players}",
        rule="AGE-5",
        words=(f"there is no seat {players}",),
        error=IllegalActionError,
    )


def test_first_player_seat_out_of_range_is_impossible_outcome() -> None:
    """AGE-5, CHANCE: an outcome with probability 0 is an ImpossibleOutcomeError."""
    state = new_game(4, tribes=SIX_TRIBES, glory_tokens=FULL_LAYOUT)
    with pytest.raises(ImpossibleOutcomeError):
        apply(state, parse_action("first 4"))


# --- the setup decisions' own checks (state_problems) ------------------------------------------


def test_a_tribe_drawn_when_every_tribe_is_chosen_is_a_problem() -> None:
    """SETUP-3, STATE: chance cannot be drawing a tribe once every tribe is chosen and the deck
    is built."""
    # With the Merfolk in play (their markers on the track) and without.
    for tribes in [SIX_TRIBES, ["DWA", "ELF", "GIA", "ORC", "SKE", "WIZ"]]:
        state = new_game(4, tribes=tribes, glory_tokens=LAYOUT_4P)
        assert state_problems(attrs.evolve(state, pending=ChooseTribes())) == (
            "every tribe is chosen, yet another one is to be drawn (SETUP-3)",
            "no card is in the deck, no marker on the track before the tribes (SETUP-3)",
        )


def test_glory_tokens_laid_out_of_turn_or_not_in_the_game_are_a_problem() -> None:
    """SETUP-4, STATE: the tokens are laid kingdom by kingdom from Althea, from the game's
    tokens only."""
    state = new_game(4, tribes=SIX_TRIBES)
    assert state.pending == LayTokensPending(Kingdom.ALTHEA) and state_problems(state) == ()
    assert state_problems(attrs.evolve(state, pending=LayTokensPending(Kingdom.DURIS))) == (
        "the glory tokens of Duris are laid after 0 kingdoms: tokens are laid kingdom by"
        " kingdom, from Althea (SETUP-4)",
    )
    three_zeros = attrs.evolve(state, tokens=((0, 0, 0),), pending=LayTokensPending(Kingdom.DURIS))
    assert state_problems(three_zeros) == (
        "the glory tokens laid so far are not among the game's tokens (SETUP-4)",
    )
