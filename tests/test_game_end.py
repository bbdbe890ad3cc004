"""End of the game, spec §10 (GAME-1..3) and SETUP-2 / END-6.

Each test ends the last Age of a built position (``dragons_drawn=2, top_left=0``, then
``recruit deck`` / ``reveal DRAGON``) and checks :func:`ethnos_rules.winners`. Glory before the
end is set so that the final totals, worked out by hand in the comments, tie where the test needs
a tie.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import helpers
from ethnos_rules import (
    GameEnded,
    GameOverError,
    GameState,
    apply,
    glory,
    is_terminal,
    outcome,
    parse_action,
    play_random,
    step,
    to_move,
    winners,
)
from helpers import end_age


def at_end(players: int = 4, **kwargs: Any) -> GameState:
    """A position whose next deck draw is the third Dragon of the last Age."""
    kwargs.setdefault("age", 2 if players <= 3 else 3)
    return helpers.at_end(players, **kwargs)


def final(**kwargs: Any) -> GameState:
    """The state after the last Age of a 4-player game (Age III) is scored."""
    state = end_age(at_end(**kwargs))
    assert is_terminal(state)
    return state


# --- GAME-1 ------------------------------------------------------------------------------------


def test_most_glory_wins() -> None:
    """GAME-1: nothing scores at the end here; 12 > 10 > 3 > 0."""
    state = final(glory={0: 10, 1: 12, 2: 3})
    assert glory(state) == (10, 12, 3, 0)
    assert winners(state) == (1,)


def test_glory_beats_markers() -> None:
    """GAME-1: seat 1 has more markers but less Glory: 10 + Althea III = 8 → 18 < 20."""
    state = final(glory={0: 20, 1: 10}, kingdoms={1: {"Althea": 1}})
    assert glory(state) == (20, 18, 0, 0)
    assert winners(state) == (0,)


def test_winners_is_empty_before_the_end() -> None:
    """GAME-1: ``winners`` is () while the game goes on, also between Ages."""
    state = at_end(age=1, glory={0: 30})
    assert winners(state) == ()
    after_age_one = end_age(state)
    assert not is_terminal(after_age_one)
    assert winners(after_age_one) == ()
    assert winners(at_end(age=3, glory={2: 9})) == ()


# --- GAME-2 ------------------------------------------------------------------------------------


def test_tie_goes_to_most_markers_on_the_kingdoms() -> None:
    """GAME-2: Age III. Seat 0: Althea 1 (alone → III = 8) + Duris 1 (alone → III = 8) = 16.
    Seat 1: 5 + Pelagon 1 (alone → III = 8) + a 3-card band (3) = 16. Tie at 16; seat 0 has
    2 markers on the kingdoms, seat 1 has 1: seat 0 wins though seat 1 has the larger band."""
    state = final(
        glory={1: 5},
        kingdoms={0: {"Althea": 1, "Duris": 1}, 1: {"Pelagon": 1}},
        bands={1: ["*ORC-red ORC-blue ORC-green"]},
    )
    assert glory(state) == (16, 16, 0, 0)
    assert winners(state) == (0,)


def test_merfolk_marker_does_not_count_for_the_tie_break() -> None:
    """GAME-2 (Ruling: the six kingdoms only). Age III, Althea 0/4/8.
    Seat 0: 11 + Althea 2 markers, 1st → III = 8: 19.
    Seat 1: 10 + Althea 1 marker, 2nd → II = 4, + Merfolk alone on 5 → III = 4, + a 2-card
    band → 1: 19.
    Kingdom markers 2 > 1: seat 0 wins. Counting the Merfolk marker would make it 2 to 2 and
    seat 1's band (2 cards against none) would win GAME-3."""
    state = final(
        glory={0: 11, 1: 10},
        kingdoms={0: {"Althea": 2}, 1: {"Althea": 1}},
        merfolk={1: 5},
        bands={1: ["*ORC-red ORC-blue"]},
    )
    assert glory(state) == (19, 19, 0, 0)
    assert winners(state) == (0,)


# --- GAME-3 ------------------------------------------------------------------------------------


def test_still_tied_largest_band_wins() -> None:
    """GAME-3: seat 0 bands of 4 and 1 cards (6 + 0 = 6), seat 1 bands of 3 and 3 (3 + 3 = 6);
    equal Glory and no markers; largest band 4 > 3: seat 0 wins."""
    state = final(
        bands={
            0: ["*ORC-red ORC-red ORC-blue ORC-blue", "*TRO-red"],
            1: ["*ORC-green ORC-green ORC-gray", "*TRO-blue TRO-blue TRO-green"],
        }
    )
    assert glory(state) == (6, 6, 0, 0)
    assert winners(state) == (0,)


def test_band_size_is_x_as_played() -> None:
    """GAME-3 (Ruling: X as played, Skeletons included). Seat 0: 3 + a band ORC SKE SKE SKE
    (1 card after Skeletons → 0) = 3; seat 1: a 3-card band → 3. Compared as played, 4 > 3:
    seat 0 wins (after removing Skeletons it would be 1 < 3)."""
    state = final(
        glory={0: 3},
        bands={0: ["*ORC-red SKE SKE SKE"], 1: ["*ORC-blue ORC-blue ORC-green"]},
    )
    assert glory(state) == (3, 3, 0, 0)
    assert winners(state) == (0,)


def test_more_bands_wins_when_compared_sizes_are_equal() -> None:
    """GAME-3: seat 0 bands 3, 2, 1 (3 + 1 + 0 = 4), seat 1 bands 3, 2 (3 + 1 = 4): the
    compared sizes 3 and 2 are equal and seat 0 has one more band: seat 0 wins."""
    state = final(
        bands={
            0: ["*ORC-red ORC-red ORC-blue", "*TRO-red TRO-red", "*TRO-blue"],
            1: ["*ORC-green ORC-green ORC-gray", "*TRO-green TRO-green"],
        }
    )
    assert glory(state) == (4, 4, 0, 0)
    assert winners(state) == (0,)


def test_second_largest_band_decides_before_the_number_of_bands() -> None:
    """GAME-3: seat 0 bands 3, 3 (3 + 3 = 6), seat 1 bands 3, 2, 2, 2 (3 + 1 + 1 + 1 = 6):
    largest 3 = 3, second 3 > 2: seat 0 wins though seat 1 has more bands."""
    state = final(
        bands={
            0: ["*ORC-red ORC-red ORC-blue", "*ORC-green ORC-green ORC-gray"],
            1: [
                "*TRO-red TRO-red TRO-blue",
                "*TRO-green TRO-green",
                "*TRO-gray TRO-gray",
                "*TRO-purple TRO-purple",
            ],
        }
    )
    assert glory(state) == (6, 6, 0, 0)
    assert winners(state) == (0,)


def test_full_tie_shares_the_victory() -> None:
    """GAME-3: seats 0 and 1 each have 10 + a 2-card band (1) = 11, no markers, and equal
    bands: both win; seat 2 (11 Glory, no band) loses the band comparison."""
    state = final(
        glory={0: 10, 1: 10, 2: 11},
        bands={0: ["*ORC-red ORC-blue"], 1: ["*ORC-green ORC-gray"]},
    )
    assert glory(state) == (11, 11, 11, 0)
    assert winners(state) == (0, 1)


def test_tie_breaks_apply_among_the_tied_players_only() -> None:
    """GAME-2, GAME-3: seats 0, 1, 2 tie at 10. Seat 0: Rhea alone → III = 10; seat 1: Straton
    alone → III = 10; seat 2: 10 set beforehand. Seat 2 has no marker and drops out; seats 0
    and 1 have 1 marker each and no bands: they share the victory."""
    state = final(glory={2: 10}, kingdoms={0: {"Rhea": 1}, 1: {"Straton": 1}})
    assert glory(state) == (10, 10, 10, 0)
    assert winners(state) == (0, 1)


def test_only_the_last_ages_bands_are_compared() -> None:
    """GAME-3: 2 players. In Age I seat 1 played the larger band; in Age II (the last) seat 0
    did: with Glory and markers equal, Age II decides for seat 0."""
    age_one = end_age(
        at_end(2, age=1, bands={0: ["*ORC-red ORC-red"], 1: ["*ORC-blue ORC-blue ORC-green"]})
    )
    assert age_one.history[-1].band_sizes == ((2,), (3,))
    # Age I: seat 0 1 Glory, seat 1 3 Glory; Age II: seat 0 a 3-card band (3) → 1 + 3 = 4,
    # seat 1 a 2-card band (1) → 3 + 1 = 4.
    age_two = at_end(
        2,
        age=2,
        glory={0: 1, 1: 3},
        bands={0: ["*TRO-red TRO-red TRO-blue"], 1: ["*TRO-green TRO-green"]},
    )
    age_two = attrs.evolve(age_two, history=age_one.history)
    state = end_age(age_two)
    assert is_terminal(state)
    assert glory(state) == (4, 4)
    assert winners(state) == (0,)


# --- when the game ends (SETUP-2, END-6) -------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "age", "ends"),
    [
        (4, 1, False),
        (4, 2, False),
        (4, 3, True),
        (5, 2, False),
        (5, 3, True),
        (6, 2, False),
        (6, 3, True),
        (2, 1, False),
        (2, 2, True),
        (3, 1, False),
        (3, 2, True),
    ],
)
def test_game_ends_after_age_three_or_age_two(players: int, age: int, ends: bool) -> None:
    """GAME-1, SETUP-2, END-6: the game ends after Age III with 4–6 players and after Age II
    with 2–3 players; only then are there winners. Seat 0 leads with 7 Glory."""
    state = end_age(at_end(players, age=age, glory={0: 7}))
    assert is_terminal(state) is ends
    if ends:
        assert to_move(state) is None
        assert winners(state) == (0,)
        with pytest.raises(GameOverError):
            apply(state, parse_action("recruit deck"))
    else:
        assert state.age == age + 1
        assert winners(state) == ()


# --- the event that tells the end --------------------------------------------------------------


def ended(**kwargs: Any) -> GameEnded:
    """The last event of the game, when the third Dragon of the last Age is drawn."""
    drawing = step(at_end(**kwargs), parse_action("recruit deck")).state
    events = step(drawing, parse_action("reveal DRAGON")).events
    last = events[-1]
    assert isinstance(last, GameEnded)
    return last


@pytest.mark.parametrize(
    ("position", "rule", "won", "said"),
    [
        ({"glory": {0: 10, 1: 12, 2: 3}}, "GAME-1", (1,), "Seat 1 wins with 12 Glory (GAME-1)."),
        (
            {
                "glory": {1: 5},
                "kingdoms": {0: {"Althea": 1, "Duris": 1}, 1: {"Pelagon": 1}},
                "bands": {1: ["*ORC-red ORC-blue ORC-green"]},
            },
            "GAME-2",
            (0,),
            "seat 0 wins with the most markers on the kingdoms (seat 0 2, seat 1 1) (GAME-2).",
        ),
        (
            {
                "bands": {
                    0: ["*ORC-red ORC-red ORC-blue ORC-blue", "*TRO-red"],
                    1: ["*ORC-green ORC-green ORC-gray", "*TRO-blue TRO-blue TRO-green"],
                }
            },
            "GAME-3",
            (0,),
            "the last Age's bands, largest first (seat 0 4, 1; seat 1 3, 3), give the victory"
            " to seat 0 (GAME-3).",
        ),
        (
            {
                "glory": {0: 10, 1: 10, 2: 11},
                "bands": {0: ["*ORC-red ORC-blue"], 1: ["*ORC-green ORC-gray"]},
            },
            "GAME-3",
            (0, 1),
            "seats 0 and 1 are equal on markers and bands (seat 0 2; seat 1 2; seat 2 none) and"
            " share the victory (GAME-3).",
        ),
    ],
    ids=["glory", "markers", "bands", "shared"],
)
def test_the_game_ended_event_names_the_deciding_rule(
    position: dict[str, Any], rule: str, won: tuple[int, ...], said: str
) -> None:
    """GAME-1, GAME-2, GAME-3: the last event gives the winners and the rule that decided
    between the best, with the numbers it compared."""
    event = ended(**position)
    assert (event.decided_by, event.rule, event.winners) == (rule, rule, won)
    assert str(event).endswith(said)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_outcome_is_the_last_decisions_game_ended_event(players: int) -> None:
    """GAME-1..3: outcome() is None while the game goes on; once it is over it is the
    GameEnded event the last decision emitted (winners, the deciding rule, its numbers)."""
    game = play_random(players, seed=players)
    states = list(game.states())
    assert all(outcome(state) is None for state in states[:-1:50])
    assert outcome(states[-2]) is None
    last = step(states[-2], game.actions[-1])
    ended = [event for event in last.events if isinstance(event, GameEnded)]
    assert ended == [outcome(game.final)]
    assert outcome(game.final).winners == winners(game.final)  # type: ignore[union-attr]
