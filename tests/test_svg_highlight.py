"""Pictures that mark what a step changed (``svg.board(..., changes=step.events)``): the marks
come from the events given and from nothing else, a seat's picture marks only what that seat
may see, bad ``changes`` are refused with a typed error, and golden pictures of a few steps.

Regenerate the golden pictures (tests/golden/highlight/) with
``python scripts/regenerate_golden.py``, then review ``git diff tests/golden``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from ethnos_rules import (
    AreaScored,
    Band,
    BandPlayed,
    CardDrawn,
    Event,
    GiantScored,
    Kingdom,
    MarkerPlaced,
    SetupError,
    Step,
    TieGroup,
    card,
    observation,
    parse_action,
    play_random,
    position,
    step,
    svg,
)
from ethnos_rules._pictures.drawing import seat_picture
from golden_highlights import HIGHLIGHT_DIR, HIGHLIGHTS, SIX, band_with_placement, recruit

REGENERATE = "pictures changed: python scripts/regenerate_golden.py, then review git diff"
NS = "{http://www.w3.org/2000/svg}"
CHANGED = "class='changed'"


def _desc(picture: str) -> str:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg" and root.get("viewBox")
    desc = root.find(f"{NS}desc")
    assert desc is not None and desc.text
    return desc.text


def _tags(picture: str) -> list[str]:
    """The words of every tag the picture puts on a change, in order."""
    return re.findall(r"<g class='change-tag'>.*?>([^<>]+)</text></g>", picture)


def _marked(picture: str) -> str:
    """What the description says is marked ('' for nothing)."""
    return _desc(picture).partition("Marked as just changed: ")[2]


# --- golden pictures --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(HIGHLIGHTS))
def test_golden_highlights(name: str) -> None:
    path = HIGHLIGHT_DIR / f"{name}.svg"
    assert path.is_file(), REGENERATE
    assert path.read_text() == HIGHLIGHTS[name]() + "\n", REGENERATE


def test_every_golden_step_marks_something_and_says_what() -> None:
    expected = {
        "band-with-placement": ["+1", "new", "new band"],  # Rhea, the row, the band
        "giant-token": ["+2", "new", "new band"],  # Glory, the token, the band
        "recruit": ["new"],
        "recruit-seat-0": ["DWA-blue"],  # another hand, face down: the card is public
        "orc-horde": ["new", "+red"],  # the rest into the row, the Horde's red space
        "merfolk-move": ["new band"],  # and the arrow, which has no tag
        "age-scored": ["+15", "+5"],
    }
    for name, tags in expected.items():
        picture = HIGHLIGHTS[name]()
        assert _tags(picture) == tags, name
        assert _marked(picture), name


# --- the marks come from the events given -----------------------------------------------------


def test_no_changes_draws_the_picture_as_before() -> None:
    result = band_with_placement()
    assert svg.board(result.state, changes=()) == svg.board(result.state)
    assert svg.board(result.state, changes=[]) == svg.board(result.state)
    assert CHANGED not in svg.board(result.state) and not _marked(svg.board(result.state))


def test_only_the_events_given_are_marked() -> None:
    result = band_with_placement()
    played = [e for e in result.events if isinstance(e, BandPlayed)]
    placed = [e for e in result.events if isinstance(e, MarkerPlaced)]
    band_only = svg.board(result.state, changes=played)
    assert _tags(band_only) == ["new band"]
    assert _marked(band_only) == "the band seat 0 played, led by DWA-red."
    marker_only = svg.board(result.state, changes=tuple(placed))
    assert _tags(marker_only) == ["+1"]
    assert _marked(marker_only) == "1 marker seat 0 placed in Rhea."
    assert "<g class='kingdom' data-kingdom='Rhea'><rect" in marker_only
    assert f"stroke='{svg.CHANGED_INK}' stroke-width='3'/>" in marker_only  # Rhea outlined


def test_hand_made_events_are_marked_as_they_say_never_recomputed() -> None:
    """Nothing happened to this position: the picture marks what the events claim."""
    state = position(4, SIX, kingdoms={2: {"Duris": 3}}, glory={3: 10})
    claims: list[Event] = [
        MarkerPlaced(2, Kingdom.DURIS, "band", now=3),
        GiantScored(3, value=4, age=1),
        AreaScored(
            Kingdom.DURIS,
            1,
            (2, 4, 8),
            (0, 0, 3, 0),
            (TieGroup((2,), 3, None, 1, (), 5),),
            "ranks",
            (0, 0, 5, 0),
        ),
    ]
    picture = svg.board(state, changes=claims)
    assert _tags(picture) == ["+1", "+5", "+4"]  # Duris's line of seat 2; then Glory, by seat
    assert "seat 2: 3 markers" in picture and "Glory 10" in picture
    assert _marked(picture) == "1 marker seat 2 placed in Duris; seat 2 +5 Glory; seat 3 +4 Glory."


def test_a_seat_picture_marks_only_what_that_seat_may_see() -> None:
    state = position(4, SIX, hands={0: "ELF-red"}, top_left=10)
    drawing = step(state, parse_action("recruit deck")).state
    drew = step(drawing, parse_action("reveal DWA-blue"))
    assert [type(e) for e in drew.events] == [CardDrawn] and drew.events[0].visible_to == frozenset(
        {0}
    )
    mine = svg.board(drew.state, seat=0, changes=drew.events)
    assert _tags(mine) == ["new"] and _marked(mine) == "DWA-blue into seat 0's hand."
    theirs = svg.board(drew.state, seat=1, changes=drew.events)
    assert theirs == svg.board(drew.state, seat=1)  # nothing marked, nothing told
    assert _tags(svg.board(drew.state, changes=drew.events)) == ["new"]  # every hand shown
    view = observation(drew.state, 1)
    assert svg.view(view, changes=drew.events) == svg.view(view)


def test_a_card_kept_by_elves_is_marked_for_its_keeper_only() -> None:
    state = position(
        4, SIX, hands={0: "ELF-red ELF-blue DWA-green GIA-red"}, kingdoms={0: {"Rhea": 3}}
    )
    played = step(state, parse_action("band *ELF-red ELF-blue"))
    kept = step(played.state, parse_action("keep DWA-green"))
    assert _tags(svg.board(kept.state, seat=0, changes=kept.events)) == ["kept"]
    assert CHANGED not in svg.board(kept.state, seat=2, changes=kept.events)
    hand = svg.hand(kept.state.players[0].hand, kept=[card("DWA-green")])
    assert _tags(hand) == ["kept"] and "DWA-green (kept)" in _desc(hand)


def test_another_players_public_recruit_is_named_on_the_hidden_hand() -> None:
    result = recruit()
    theirs = svg.board(result.state, seat=0, changes=result.events)
    assert _tags(theirs) == ["DWA-blue"]
    assert _marked(theirs) == "DWA-blue into seat 2's hand."


def test_only_the_parts_a_step_changed_differ() -> None:
    """The replay keeps each distinct part once: a mark changes only the parts it is in."""
    result = band_with_placement()
    height, plain, _ = seat_picture(result.state, None)
    marked_height, marked, desc = seat_picture(result.state, None, changes=result.events)
    assert height == marked_height and len(plain) == len(marked)
    differ = [part for (_, a), (_, part) in zip(plain, marked, strict=True) if a != part]
    assert len(differ) == 3  # Rhea, the row, seat 0's bands
    assert all(CHANGED in part for part in differ)
    assert "Marked as just changed" in desc


def test_every_step_of_random_games_is_marked_as_each_seat_may_see_it() -> None:
    for players, seed in ((3, 11), (4, 12)):
        game = play_random(players, seed=seed)
        state = game.start
        for n, action in enumerate(game.actions):
            result = step(state, action)
            state = result.state
            if n % 7:
                continue
            for seat in range(players):
                seen = [e for e in result.events if e.visible_to is None or seat in e.visible_to]
                picture = svg.board(state, seat=seat, changes=result.events)
                assert picture == svg.board(state, seat=seat, changes=seen)
            svg.board(state, changes=result.events)  # every hand shown: every event fits


# --- bad changes ---------------------------------------------------------------------------------


def test_changes_that_are_not_events_are_refused() -> None:
    result = band_with_placement()
    state, event = result.state, result.events[0]
    with pytest.raises(TypeError, match=r"not Step .*pass its \.events"):
        svg.board(state, changes=result)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not one event BandPlayed"):
        svg.board(state, changes=event)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not str 'band'"):
        svg.board(state, changes="band")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"changes\[1\]: expected an Event, not int 3"):
        svg.board(state, changes=[event, 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not set"):
        svg.view(observation(state, 0), changes={event})  # type: ignore[arg-type]


def test_events_of_another_step_are_refused() -> None:
    state = position(4, SIX)
    stranger = BandPlayed(1, Band(card("DWA-red"), (card("DWA-blue"),)), chain=0)
    with pytest.raises(ValueError, match=r"\*DWA-red DWA-blue is not in seat 1's bands"):
        svg.board(state, changes=[stranger])
    with pytest.raises(ValueError, match="MarkerPlaced of seat 5, in a game of seats 0 to 3"):
        svg.board(state, changes=[MarkerPlaced(5, Kingdom.RHEA, "band", now=1)])
    too_many = AreaScored(None, 1, (3,), (0,) * 5, (), "ranks", (0, 0, 0, 0, 3))
    with pytest.raises(ValueError, match="AreaScored gives Glory to seat 4"):
        svg.board(state, changes=[too_many])
    with pytest.raises(SetupError, match="SETUP-1"):
        svg.board(state, seat=4, changes=[])


def test_bad_marks_on_a_hand_or_a_band_are_refused() -> None:
    with pytest.raises(ValueError, match="ELF-red is not in the cards"):
        svg.hand([card("DWA-red")], new=[card("ELF-red")])
    with pytest.raises(TypeError, match="new are a sequence of Card"):
        svg.hand([card("DWA-red")], new=card("DWA-red"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="new: expected bool"):
        svg.band(Band(card("DWA-red"), ()), new="yes")  # type: ignore[arg-type]


def test_small_pictures_of_a_hand_and_a_band() -> None:
    cards = [card("DWA-red"), card("DWA-red"), card("ELF-blue")]
    hand = svg.hand(cards, new=[card("DWA-red")], size=150)
    assert hand.count(CHANGED) == 1 and "width='150'" in hand
    assert "DWA-red (new)" in _desc(hand)
    band = Band(card("DWA-red"), (card("DWA-blue"),))
    assert _tags(svg.band(band, new=True)) == ["new band"]
    assert CHANGED not in svg.band(band) and "href='#leader'" in svg.band(band, size=100)


def test_a_step_is_not_a_state() -> None:
    result: object = band_with_placement()
    assert isinstance(result, Step)
    with pytest.raises(Exception, match="expected a GameState, not Step"):
        svg.board(result)  # type: ignore[arg-type]
