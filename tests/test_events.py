"""Events (``step``): what each decision did, said by the rules that did it.

Whole random games check the contract of every event: ``step`` gives the state ``apply``
gives, each event names a rule of the spec and cites it in its sentence, only the drawer sees a
card drawn from the deck, and the events' ``gains`` add up to every seat's final Glory. Targeted
positions check what single events say, under each rule option that changes it.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest
from hypothesis import given

from ethnos_rules import (
    EVENT_TYPES,
    AreaScored,
    CardDrawn,
    CardKept,
    ChainStopped,
    CheckpointDeclined,
    Colour,
    Decision,
    DragonRevealed,
    Event,
    GameEnded,
    GameRecord,
    GameState,
    GiantTokenMissed,
    GiantTokenTaken,
    HandDiscarded,
    HordeBlocked,
    HordeDeclined,
    HordeEmptied,
    HordeKept,
    HordeMarkerAdded,
    Kingdom,
    MarkerPlaced,
    MerfolkMoved,
    Options,
    PlacementTest,
    TrollDeclined,
    TrollTokenTaken,
    Visitor,
    apply,
    card,
    glory,
    parse_action,
    play_random,
    position,
    step,
    winners,
)
from helpers import act
from strategies import GameSetup, game_setups, play_prefix, seeds
from test_properties import examples

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docs._ext import rule_catalogue as rc  # noqa: E402

SPEC_IDS = frozenset(
    rule.id for rule in rc.parse_spec((ROOT / rc.SPEC).read_text(encoding="utf-8"))
)
PRIVATE = (CardDrawn, CardKept, HandDiscarded)
"""The events only some seats see: the card drawn (but from the row), the card kept, the hand
discarded at the end of the Age."""


class Events(Visitor[list[Event]]):
    """Every event of a replayed record: the setup's, then each decision's."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.final: GameState | None = None

    def begin_game(self, start: GameState, events: tuple[Event, ...]) -> None:
        self.events += events

    def visit_decision(self, decision: Decision) -> None:
        self.events += decision.events

    def end_game(self, state: GameState) -> None:
        self.final = state

    def result(self) -> list[Event]:
        return self.events


def whole_game(setup: GameSetup, seed: int) -> tuple[GameRecord, Events]:
    game = play_prefix(setup, seed, 100_000)
    record = GameRecord.from_start(game.start, game.actions)
    visitor = Events()
    record.accept(visitor)
    return record, visitor


def check_event(event: Event, players: int) -> None:
    """RULES: the contract of every event."""
    text = str(event)
    assert event.rule in SPEC_IDS, f"{event!r} names {event.rule}, not a rule of the spec"
    assert re.search(rf"[(,;] ?{re.escape(event.rule)}[),;]", text), f"{text!r}: no {event.rule}"
    assert text.endswith(").") and "\n" not in text, text
    seen = event.visible_to
    if isinstance(event, PRIVATE) and not (isinstance(event, CardDrawn) and event.source == "row"):
        assert seen == frozenset({event.seat}), f"{text}: seen only by its player"
    else:
        assert seen is None, f"{text}: a public event"
    assert all(0 <= seat < players and amount > 0 for seat, amount in event.gains), text
    assert attrs.evolve(event) == event and hash(attrs.evolve(event)) == hash(event)


# --- whole games --------------------------------------------------------------------------------


@examples(30)
@given(setup=game_setups(), seed=seeds)
def test_events_of_random_games(setup: GameSetup, seed: int) -> None:
    """RECRUIT-1, AGE-2, END-1, GAME-1: every event names and cites a rule, the private ones
    are seen by their player alone, and the gains of all events add up to the final Glory."""
    _, visitor = whole_game(setup, seed)
    assert visitor.final is not None
    total = [0] * setup.players
    for event in visitor.events:
        check_event(event, setup.players)
        for seat, amount in event.gains:
            total[seat] += amount
    assert tuple(total) == glory(visitor.final)
    assert isinstance(visitor.events[-1], GameEnded)
    assert visitor.events[-1].winners == winners(visitor.final)


@examples(20)
@given(setup=game_setups(), seed=seeds)
def test_step_gives_the_state_apply_gives(setup: GameSetup, seed: int) -> None:
    """TURN-1, CHANCE: for every decision of a random game, ``step(...).state`` equals
    ``apply(...)``, and neither changes the state it is given."""
    game = play_prefix(setup, seed, 100_000)
    state = game.start
    for action in game.actions:
        copy = state
        result = step(state, action)
        assert result.state == apply(state, action)
        assert state is copy
        state = result.state


def test_every_kind_of_event_happens_in_seeded_games() -> None:
    """RULES: seeded games with every tribe and option between them emit every kind of event
    but the few that need a rare position (those have a test of their own below)."""
    rare = {"Passed", "CheckpointsLost"}
    seen: Counter[str] = Counter()
    for seed in range(12):
        options = Options(
            placement=("optional", "mandatory")[seed % 2],
            elves_keep=("up_to_x", "exactly_x")[seed // 2 % 2],
            wizard_draw=("all_or_none", "up_to_x")[seed // 4 % 2],
        )
        game = play_random(2 + seed % 5, seed, options=options)
        visitor = Events()
        GameRecord.from_playthrough(game).accept(visitor)
        seen.update(type(e).__name__ for e in visitor.events)
    missing = {cls.__name__ for cls in EVENT_TYPES} - set(seen) - rare
    assert not missing, f"never emitted: {sorted(missing)}"


# --- what single events say ---------------------------------------------------------------------

MER = ["MER", "MIN", "ORC", "SKE", "TRO", "WIN"]


def events_of(state: GameState, *texts: str) -> list[Event]:
    """The events of the decisions ``texts``, in order."""
    out: list[Event] = []
    for text in texts:
        result = step(state, parse_action(text))
        out += result.events
        state = result.state
    return out


def only(events: list[Event], kind: type[Event]) -> Event:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"{kind.__name__}: {found}"
    return found[0]


@pytest.mark.parametrize(
    ("rule", "markers", "said"),
    [("one_per_checkpoint", 2, "2 markers for any kingdom"), ("one_per_move", 1, "1 marker")],
)
def test_merfolk_move_says_the_markers_the_option_gives(rule: str, markers: int, said: str) -> None:
    """TRIBE-MER-2: a Merfolk move from 0 to 7 reaches checkpoints 3 and 7; it earns one marker
    each, or one in all under ``merfolk_checkpoints=one_per_move``, and says so."""
    state = position(
        4,
        MER,
        hands={0: "MER-red MER-red MER-blue MER-blue MER-green MER-green MER-gray"},
        options=Options(merfolk_checkpoints=rule),  # type: ignore[arg-type]
    )
    band = "band *MER-red MER-red MER-blue MER-blue MER-green MER-green MER-gray"
    events = events_of(state, band, "place none")
    moved = only(events, MerfolkMoved)
    assert isinstance(moved, MerfolkMoved)
    assert (moved.start, moved.end, moved.checkpoints, moved.markers) == (0, 7, (3, 7), markers)
    assert said in str(moved) and "checkpoints 3 and 7" in str(moved)


def test_mandatory_single_placement_says_it_is_mandatory() -> None:
    """BAND-5a: under ``placement=mandatory`` the one possible marker is placed at once, and the
    event cites BAND-5a."""
    state = position(4, MER, hands={0: "ORC-red ORC-red"}, options=Options(placement="mandatory"))
    placed = only(events_of(state, "band *ORC-red ORC-red"), MarkerPlaced)
    assert isinstance(placed, MarkerPlaced) and placed.forced and placed.rule == "BAND-5a"
    assert (
        str(placed)
        == "Seat 0 places a marker in Rhea (now 1 there): placing is mandatory (BAND-5a)."
    )


def test_the_placement_test_event_holds_the_numbers_of_the_test() -> None:
    """BAND-5, TRIBE-MIN-1, TRIBE-WIN-1, TRIBE-HAL-1: the size test of a band, field by field:
    an Orc pair tested in Rhea only; a Minotaur's +1; a Wingfolk tested in every kingdom and
    free to choose; a Halfling never tested."""
    hands = {0: "ORC-red ORC-red MIN-blue WIN-gray HAL-green"}
    tribes = ["HAL", "MIN", "ORC", "SKE", "TRO", "WIN"]
    state = position(4, tribes, hands=hands, kingdoms={0: {"Rhea": 1, "Duris": 1}})
    held = {Kingdom.RHEA, Kingdom.DURIS}
    cases = {
        "band *ORC-red ORC-red": PlacementTest(
            0, card("ORC-red"), 2, 0, ((Kingdom.RHEA, (1,)),), (Kingdom.RHEA,)
        ),
        "band *MIN-blue": PlacementTest(
            0, card("MIN-blue"), 1, 1, ((Kingdom.STRATON, (0,)),), (Kingdom.STRATON,)
        ),
        "band *WIN-gray": PlacementTest(
            0,
            card("WIN-gray"),
            1,
            0,
            tuple((k, (1,) if k in held else (0,)) for k in Kingdom),
            tuple(k for k in Kingdom if k not in held),
            any_kingdom=True,
        ),
        "band *HAL-green": PlacementTest(0, card("HAL-green"), 1, 0, (), (), blocked="never"),
    }
    for band, expected in cases.items():
        assert only(events_of(state, band), PlacementTest) == expected, band


def test_troll_and_centaur_decisions_name_the_seat() -> None:
    """TRIBE-TRO-1, TRIBE-CEN-1: taking or declining a Troll token, and stopping a Centaur
    chain, are told for the seat that decides (seat 1 here), with the band's X."""
    hands = {1: "TRO-red TRO-red TRO-blue CEN-green ORC-gray"}
    state = position(4, ["CEN", "DWA", "ORC", "SKE", "TRO", "WIZ"], to_move=1, hands=hands)
    trolls = act(state, "band *TRO-red TRO-red TRO-blue", "place none")
    assert only(events_of(trolls, "troll 3"), TrollTokenTaken) == TrollTokenTaken(1, 3, 3)
    assert only(events_of(trolls, "troll none"), TrollDeclined) == TrollDeclined(1, 3)
    # Every token claimed already: the band takes none, and the event says why.
    claimed = position(
        4,
        ["CEN", "DWA", "ORC", "SKE", "TRO", "WIZ"],
        to_move=1,
        hands=hands,
        trolls={0: [1, 2, 3, 4, 5, 6]},
    )
    band = events_of(claimed, "band *TRO-red TRO-red TRO-blue", "place none")
    assert only(band, TrollDeclined) == TrollDeclined(1, 3, none_left=True)
    centaur = act(state, "band *CEN-green", "place Althea")
    assert only(events_of(centaur, "chain stop"), ChainStopped) == ChainStopped(1)


def test_a_card_kept_by_the_elves_is_told_with_x() -> None:
    """TRIBE-ELF-1: each card the Elves keep is an event naming the seat, the card and X."""
    hands = {2: "ELF-red ELF-blue ORC-gray DWA-green"}
    state = position(4, ["CEN", "DWA", "ELF", "ORC", "SKE", "WIZ"], to_move=2, hands=hands)
    state = act(state, "band *ELF-red ELF-blue", "place none")
    kept = only(events_of(state, "keep ORC-gray"), CardKept)
    assert kept == CardKept(2, card("ORC-gray"), 2)


@pytest.mark.parametrize("age", [1, 3])
def test_an_orc_horde_kept_or_emptied_is_told_for_its_seat(age: int) -> None:
    """TRIBE-ORC-2, COMP-11: at the end of an Age the Orc player's choice is told for that
    seat: the Horde kept, or emptied with the markers and the Glory (3 markers: 6); in the last
    Age it is emptied without a choice, and the event says it was forced."""
    state = position(
        4,
        ["DWA", "GIA", "ORC", "SKE", "TRO", "WIN"],
        age=age,
        horde={1: ["red", "blue", "green"]},
        dragons_drawn=2,
        top_left=0,
    )
    emptied = HordeEmptied(1, (Colour.GREEN, Colour.RED, Colour.BLUE), 6, age == 3)
    if age == 3:
        assert only(events_of(state, "recruit deck", "reveal DRAGON"), HordeEmptied) == emptied
        return
    state = act(state, "recruit deck", "reveal DRAGON")
    assert only(events_of(state, "empty none"), HordeKept) == HordeKept(1)
    assert only(events_of(state, "empty green red blue"), HordeEmptied) == emptied


def test_an_orc_band_adding_to_the_horde_or_not_is_told_for_its_seat() -> None:
    """TRIBE-ORC-1: after an Orc-led band the player adds a marker to the Horde space of the
    Leader's colour, or not; a space already taken is told as such."""
    tribes = ["DWA", "GIA", "ORC", "SKE", "TRO", "WIN"]
    hands = {3: "ORC-red ORC-blue"}
    state = position(4, tribes, to_move=3, hands=hands, horde={3: ["blue"]})
    red = act(state, "band *ORC-red", "place none")
    assert only(events_of(red, "horde add"), HordeMarkerAdded) == HordeMarkerAdded(3, Colour.RED)
    assert only(events_of(red, "horde none"), HordeDeclined) == HordeDeclined(3)
    blue = events_of(state, "band *ORC-blue", "place none")
    assert only(blue, HordeBlocked) == HordeBlocked(3, Colour.BLUE, "taken")
    # 25 markers on the board: none left in supply, for the kingdom or the Horde.
    board = {3: {k: 5 for k in ["Althea", "Duris", "Ithys", "Pelagon", "Rhea"]}}
    spent = position(4, tribes, to_move=3, hands=hands, kingdoms=board)
    assert spent.players[3].supply == 0
    no_supply = events_of(spent, "band *ORC-red")
    assert only(no_supply, HordeBlocked) == HordeBlocked(3, Colour.RED, "supply")


def test_a_giant_band_not_larger_than_the_largest_is_told_for_its_seat() -> None:
    """TRIBE-GIA-1: a Giant-led band no larger than the largest Giant-led band of the Age is
    told with its seat, its size and that largest size."""
    tribes = ["DWA", "GIA", "ORC", "SKE", "TRO", "WIN"]
    bands = {0: ["*GIA-green GIA-gray GIA-orange"]}
    state = position(4, tribes, to_move=2, hands={2: "GIA-red GIA-blue"}, bands=bands, giant=(0, 3))
    missed = only(events_of(state, "band *GIA-red GIA-blue", "place none"), GiantTokenMissed)
    assert missed == GiantTokenMissed(2, size=2, largest=3)
    # A larger band takes the token from seat 0: 2 Glory, and the size it beat.
    larger = position(
        4,
        tribes,
        to_move=2,
        hands={2: "GIA-red GIA-blue GIA-purple GIA-red"},
        bands=bands,
        giant=(0, 3),
    )
    taken = only(
        events_of(larger, "band *GIA-red GIA-blue GIA-purple GIA-red", "place none"),
        GiantTokenTaken,
    )
    assert taken == GiantTokenTaken(2, size=4, previous=3, glory=2)


def test_a_merfolk_checkpoint_marker_placed_or_declined_is_told_for_its_seat() -> None:
    """TRIBE-MER-2: the checkpoint marker a Merfolk move earns is placed in any kingdom (told
    with the markers there after it) or declined, by the seat that moved."""
    tribes = ["MER", "MIN", "ORC", "SKE", "TRO", "WIN"]
    hands = {1: "MER-red MER-red MER-blue"}
    state = position(4, tribes, to_move=1, hands=hands, kingdoms={1: {"Duris": 2}})
    state = act(state, "band *MER-red MER-red MER-blue", "place none")
    placed = only(events_of(state, "checkpoint Duris"), MarkerPlaced)
    assert placed == MarkerPlaced(1, Kingdom.DURIS, "checkpoint", now=3)
    assert only(events_of(state, "checkpoint none"), CheckpointDeclined) == CheckpointDeclined(1)


def test_a_chosen_placement_is_a_band_marker_not_forced() -> None:
    """BAND-5: a marker the player chooses to place is the band's, not forced, and says so."""
    state = position(4, MER, hands={0: "ORC-red ORC-red"})
    placed = only(events_of(state, "band *ORC-red ORC-red", "place Rhea"), MarkerPlaced)
    assert placed == MarkerPlaced(0, Kingdom.RHEA, "band", now=1, forced=False)
    assert str(placed) == "Seat 0 places a marker in Rhea (now 1 there) (BAND-5)."


def test_two_player_placement_test_counts_both_players() -> None:
    """BAND-5 (2 players): the size test counts both players' markers, and says so."""
    state = position(
        2,
        ["DWA", "ELF", "ORC", "SKE", "TRO"],
        hands={0: "ORC-red ORC-red"},
        kingdoms={0: {"Rhea": 1}, 1: {"Rhea": 1}},
    )
    test = only(events_of(state, "band *ORC-red ORC-red"), PlacementTest)
    assert isinstance(test, PlacementTest) and test.allowed == ()
    assert str(test) == (
        "No marker: 2 cards are not more than both players' 1 + 1 = 2 markers in Rhea"
        " (the 2-player rule) (BAND-5)."
    )


def test_third_dragon_ends_the_age_and_scores_it() -> None:
    """RECRUIT-4, END-1, END-2: the third Dragon's events: the Dragon, the Age's end, the hands
    discarded, the six kingdoms scored, the Age summed up, the next Age's beginning."""
    state = position(
        4, MER, dragons_drawn=2, top_left=0, hands={1: "ORC-red"}, kingdoms={0: {"Rhea": 1}}
    )
    events = events_of(state, "recruit deck", "reveal DRAGON")
    kinds = [type(e).__name__ for e in events]
    assert kinds[:4] == ["Recruited", "DragonRevealed", "AgeEnded", "HandDiscarded"]
    dragon = events[1]
    assert isinstance(dragon, DragonRevealed) and dragon.ends_age and dragon.rule == "RECRUIT-4"
    areas = [e for e in events if isinstance(e, AreaScored)]
    assert [a.name for a in areas] == [
        "Althea",
        "Duris",
        "Ithys",
        "Pelagon",
        "Rhea",
        "Straton",
        "the Merfolk board",
    ]
    assert areas[4].gains == ((0, areas[4].tokens[0]),)
    assert kinds[-3:] == ["AgeScored", "AgeBegan", "FirstPlayer"]


def test_a_game_of_given_setup_starts_with_its_setup_events() -> None:
    """SETUP-3, SETUP-4, AGE-1, AGE-5: a record whose setup is given tells it as events before
    the first decision."""
    record = GameRecord.start(
        3,
        tribes=["DWA", "ELF", "ORC", "SKE", "TRO"],
        first_player=2,
        glory_tokens=[[0, 6], [2, 6], [4, 8], [6, 8], [2, 8], [4, 10]],
    )
    visitor = Events()
    record.accept(visitor)
    kinds = [type(e).__name__ for e in visitor.events]
    assert kinds == ["TribesInPlay", *["TokensLaid"] * 6, "AgeBegan", "FirstPlayer"]
    assert str(visitor.events[-1]) == "Seat 2 is the first player (given) (AGE-5)."


def test_a_full_hand_without_a_band_passes() -> None:
    """TURN-3: ten Skeletons form no band; the player passes, and the event says so."""
    state = position(4, MER, hands={0: ["SKE"] * 10})
    (passed,) = events_of(state, "pass")
    assert str(passed) == "Seat 0 holds 10 cards that form no band and passes (TURN-3)."


def test_checkpoint_markers_without_supply_are_lost() -> None:
    """TRIBE-MER-2, BAND-5: with no marker in supply the band places none and the checkpoint's
    marker is lost; both events say why."""
    markers = {"Althea": 4, "Duris": 4, "Ithys": 4, "Pelagon": 4, "Rhea": 4, "Straton": 4}
    state = position(4, MER, hands={0: "MER-red MER-red MER-blue"}, kingdoms={0: markers})
    assert state.players[0].supply == 0
    events = events_of(state, "band *MER-red MER-red MER-blue")
    test = only(events, PlacementTest)
    assert isinstance(test, PlacementTest) and test.blocked == "supply"
    lost = [e for e in events if type(e).__name__ == "CheckpointsLost"]
    assert [str(e) for e in lost] == [
        "Merfolk: seat 0 has no marker left in supply for 1 checkpoint marker (TRIBE-MER-2)."
    ]


def test_events_of_threads_do_not_mix() -> None:
    """RULES: each thread's ``step`` records its own events, while other threads ``apply``."""
    games = [play_random(2 + k % 5, k) for k in range(6)]

    def events_of_game(k: int) -> list[str]:
        game, out = games[k], []
        state = game.start
        for action in game.actions:
            result = step(state, action) if k % 2 else None
            out += [str(e) for e in result.events] if result else []
            state = result.state if result else apply(state, action)
        return out

    alone = [events_of_game(k) for k in range(6)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        together = list(pool.map(events_of_game, range(6)))
    assert together == alone
    assert all(alone[k] for k in range(1, 6, 2)) and not any(alone[k] for k in range(0, 6, 2))
