"""Records kept at one seat: redacting, validating, information states and resampling.

The validator and the resampler are checked three ways: on whole random games written as each
seat saw them (every one must be accepted, and resampled into a game that looks the same), and
on hundreds of small constructed cases against a brute-force enumeration of every way to name
the hidden cards (same verdict, same refused decision; sampled frequencies that match the exact
posterior).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from scipy.stats import chi2

from ethnos_rules import (
    Decision,
    Event,
    GameRecord,
    HiddenCardError,
    InformationState,
    Playthrough,
    RecordError,
    RulesError,
    Visitor,
    information_state,
    play_random,
    redact,
    resample,
    validate,
)
from ethnos_rules._replay.replay import Refusal
from ethnos_rules._seat.resample import resample_game
from ethnos_rules._seat.seatview import seat_decisions
from helpers import refused
from one_seat import Case, TooLarge, enumerate_games, small_case
from strategies import GameSetup, game_setups, play_prefix, seeds


def whole_game(setup: GameSetup, seed: int) -> GameRecord:
    """A random whole game from ``setup``, as a record."""
    prefix = play_prefix(setup, seed, 10_000)
    return GameRecord.from_start(prefix.start, prefix.actions)


def with_item(record: GameRecord, index: int, text: str) -> GameRecord:
    """``record`` with its item ``index`` replaced by ``text``."""
    actions = list(record.actions)
    actions[index] = text
    return attrs.evolve(record, actions=tuple(actions))


class _SeenEvents(Visitor[list[tuple[Event, ...]]]):
    """The events of each decision, as the seat of the record sees them."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.events: list[tuple[Event, ...]] = []

    def visit_decision(self, decision: Decision) -> None:
        seen = (e for e in decision.events if e.visible_to is None or self.seat in e.visible_to)
        self.events.append(tuple(seen))

    def result(self) -> list[tuple[Event, ...]]:
        return self.events


# --- whole games ----------------------------------------------------------------------------------


@settings(max_examples=12)
@given(setup=game_setups(), seed=seeds)
def test_every_seat_of_a_random_game_is_accepted(setup: GameSetup, seed: int) -> None:
    """A whole legal game written as any seat saw it is accepted, with the same final Glory and
    winners; replaying it shows that seat exactly the events it saw in the game itself."""
    record = whole_game(setup, seed)
    full = validate(record)
    assert full.ok and full.complete
    for seat in range(setup.players):
        mine = redact(record, seat)
        report = validate(mine)
        assert report.ok and report.complete, report.summary()
        assert (report.glory, report.winners, report.seat) == (full.glory, full.winners, seat)
        truth = _seen_in(record, seat)
        assert mine.accept(_SeenEvents(seat)) == truth


def _seen_in(record: GameRecord, seat: int) -> list[tuple[Event, ...]]:
    return record.accept(_SeenEvents(seat))


@settings(max_examples=8)
@given(setup=game_setups(), seed=seeds)
def test_resampled_games_look_the_same_from_the_seat(setup: GameSetup, seed: int) -> None:
    """resample draws a whole legal game that the seat would have recorded just as it did:
    redacting it gives the record back, and its information state is the record's."""
    record = whole_game(setup, seed)
    rng = random.Random(seed)
    for seat in range(setup.players):
        mine = redact(record, seat)
        game = resample(mine, rng)
        again = GameRecord.from_playthrough(game)
        assert validate(again).ok
        assert redact(again, seat) == mine
        assert information_state(again, seat) == information_state(mine)


def test_resampling_a_game_in_progress() -> None:
    """A record that ends before the game does is resampled up to where it ends."""
    game = play_random(4, seed=11)
    so_far = GameRecord.from_start(game.start, game.actions[:300])
    mine = redact(so_far, 2)
    world = resample(mine, random.Random(1))
    assert len(world.actions) == 300 and not world.final.pending.terminal
    assert redact(GameRecord.from_playthrough(world), 2) == mine


# --- information states -------------------------------------------------------------------------


def test_information_states_are_what_the_seat_saw() -> None:
    """Games that look the same from a seat have equal (and equally hashed) information states;
    games that differ in anything it saw have different ones."""
    game = play_random(3, seed=5)
    record = GameRecord.from_playthrough(game)
    mine = information_state(record, 0)
    worlds = [
        GameRecord.from_playthrough(resample(mine.record(), random.Random(k))) for k in (1, 2)
    ]
    assert worlds[0].actions != worlds[1].actions != record.actions
    for world in worlds:
        same = information_state(world, 0)
        assert same == mine and hash(same) == hash(mine)
        assert {same: "policy"}[mine] == "policy"
    # Another seat saw other cards; a shorter game is a different view.
    assert information_state(record, 1) != mine
    shorter = GameRecord.from_start(game.start, game.actions[:-1])
    assert information_state(shorter, 0) != mine
    # What the seat did not see does not matter: another world, other seats differ.
    assert information_state(worlds[0], 1) != information_state(record, 1)


def test_information_state_text_and_record() -> None:
    """An information state prints as its setup and one decision per line, and gives back the
    record kept at its seat."""
    game = play_random(2, seed=3)
    so_far = GameRecord.from_start(game.start, game.actions[:20])
    state = information_state(so_far, 1)
    lines = str(state).splitlines()
    assert lines[0].startswith("seat 1 of 2")
    assert lines[1:] == [f"{i} {t}" for i, t in enumerate(state.decisions)]
    assert state.record() == redact(so_far, 1)
    assert InformationState.of(state.record()) == state


def test_information_state_is_at_one_seat() -> None:
    """RECORD: a seat out of range, or a record kept at another seat, is refused."""
    record = GameRecord.from_playthrough(play_random(2, seed=3))
    assert "seat 2 is not a seat" in str(refused(lambda: information_state(record, 2), RecordError))
    refused(lambda: information_state(record), RecordError)
    mine = redact(record, 0)
    assert information_state(mine) == information_state(record, 0)
    error = refused(lambda: redact(mine, 1), RecordError)
    assert "kept at seat 0" in str(error)


# --- the brute force ------------------------------------------------------------------------------


def _verdict(case: Case) -> int:
    """How many items of the case the validator accepts."""
    for item in seat_decisions(case.start, case.items, case.seat, events=False):
        if isinstance(item, Refusal):
            return item.index
    return len(case.items)


def test_validation_agrees_with_brute_force() -> None:
    """On 400 small cases (a small deck, the others' cards unseen, some records spoilt), the
    validator accepts exactly the records some complete game fits, and refuses the others at
    the first item no complete game reaches, as an enumeration of every hidden card finds."""
    verdicts: Counter[str] = Counter()
    for k in range(400):
        rng = random.Random(k)
        case = small_case(rng, spoil=rng.random() < 0.6)
        try:
            found = enumerate_games(case)
        except TooLarge:
            verdicts["too large"] += 1
            continue
        assert _verdict(case) == found.fitted, case
        verdicts["accepted" if found.fitted == len(case.items) else "refused"] += 1
        verdicts["hidden"] += sum(a.hidden for a in case.items)
    assert verdicts["accepted"] > 120 and verdicts["refused"] > 120, verdicts
    assert verdicts["too large"] < 10 and verdicts["hidden"] > 800, verdicts


def test_resampling_draws_from_the_exact_posterior() -> None:
    """On small cases with 2 to 40 complete games that fit, resampled games follow the exact
    posterior the enumeration gives (each game weighted by its chance outcomes' probability):
    a chi-square test over all cases together, with fixed seeds."""
    statistic, freedom, cases = 0.0, 0, 0
    for k in range(200):
        case = small_case(random.Random(k), spoil=False)
        try:
            found = enumerate_games(case)
        except TooLarge:
            continue
        if not 2 <= len(found.games) <= 40:
            continue
        total = sum(found.games.values())
        draws = 240
        rng = random.Random(10_000 + k)
        seen = Counter(
            resample_game(case.start, case.items, case.seat, rng).actions for _ in range(draws)
        )
        assert set(seen) <= set(found.games), "a game drawn does not fit the record"
        for game, p in found.games.items():
            expected = draws * float(p / total)
            statistic += (seen[game] - expected) ** 2 / expected
        freedom += len(found.games) - 1
        cases += 1
        if cases == 24:
            break
    assert cases == 24
    assert chi2.sf(statistic, freedom) > 0.001, (statistic, freedom)


# --- refusals -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seat_one() -> tuple[GameRecord, GameRecord]:
    """A whole 3-player game and the record seat 1 kept of it."""
    record = GameRecord.from_playthrough(play_random(3, seed=7))
    return record, redact(record, 1)


def test_a_card_no_hidden_card_can_be_is_refused(seat_one: tuple[GameRecord, GameRecord]) -> None:
    """BAND-1: another player plays a card whose every copy the seat sees elsewhere; the report
    says where they are."""
    _, mine = seat_one
    report = validate(with_item(mine, 78, "band *MER-blue"))
    assert (report.ok, report.index, report.rule) == (False, 78, "BAND-1")
    assert report.reason == (
        "both MER-blue are already in seat 1's band and seat 1's hand, so seat 0 cannot hold"
        " one more"
    )
    assert report.legal == () and report.to_move == 0


def test_hidden_cards_where_the_seat_sees_them(seat_one: tuple[GameRecord, GameRecord]) -> None:
    """CHANCE: a '?' for the seat's own draw, a card named for another player's draw, and a
    '?' in a record of the whole game are refused with HiddenCardError, naming the decision."""
    record, mine = seat_one
    assert mine.actions[12:14] == ("reveal ?", "reveal GIA-orange")
    report = validate(with_item(mine, 13, "reveal ?"))
    assert (report.index, report.rule) == (13, "CHANCE")
    assert report.reason == "seat 1 draws this card: name it"
    report = validate(with_item(mine, 12, "reveal CEN-blue"))
    assert report.index == 12 and "write 'reveal ?'" in (report.reason or "")
    assert report.legal == ("reveal ?",)
    whole = with_item(record, 12, "reveal ?")
    report = validate(whole)
    assert report.index == 12 and "kept at one seat" in (report.reason or "")
    error = refused(whole.replay, HiddenCardError)
    assert "at decision 12: 'reveal ?'" in error.__notes__


def test_a_rest_out_of_place_is_refused(seat_one: tuple[GameRecord, GameRecord]) -> None:
    """BAND-6: a 'rest' where no decision discards one, or a decision that discards the rest of
    another player's hand without it, is refused."""
    _, mine = seat_one
    rest = next(i for i, t in enumerate(mine.actions) if t.startswith("rest"))
    dropped = attrs.evolve(mine, actions=mine.actions[:rest] + mine.actions[rest + 1 :])
    report = validate(dropped)
    assert (report.index, report.rule) == (rest - 1, "BAND-6")
    assert "shows it with 'rest ...'" in (report.reason or "")
    doubled = attrs.evolve(mine, actions=mine.actions[: rest + 1] + mine.actions[rest:])
    report = validate(doubled)
    assert (report.index, report.rule) == (rest + 1, "BAND-6")


def test_a_record_kept_at_a_seat_out_of_range() -> None:
    """RECORD: the seat must be a seat of the game, and a record kept at one is version 2."""
    text = GameRecord.from_playthrough(play_random(2, seed=1)).to_json()
    document: dict[str, Any] = json.loads(text)
    document.update(seat=2, version=2)
    error = refused(lambda: GameRecord.from_json(json.dumps(document)), RecordError)
    assert error.path == "$.seat"
    document.update(seat=1, version=1)
    error = refused(lambda: GameRecord.from_json(json.dumps(document)), RecordError)
    assert error.path == "$.version"


def test_resample_needs_a_record_kept_at_one_seat(seat_one: tuple[GameRecord, GameRecord]) -> None:
    """RECORD: resample refuses a record of the whole game; a record no game fits raises the
    refusal, naming the decision."""
    record, mine = seat_one
    refused(lambda: resample(record, random.Random(0)), RecordError)
    error = refused(
        lambda: resample(with_item(mine, 78, "band *MER-blue"), random.Random(0)), RulesError
    )
    assert "at decision 78: 'band *MER-blue'" in error.__notes__
    refused(mine.replay, RecordError)


def test_one_seat_records_round_trip_through_json(seat_one: tuple[GameRecord, GameRecord]) -> None:
    """A record kept at one seat is written as version 2 with its seat, and read back equal;
    a record of the whole game is still written as version 1."""
    record, mine = seat_one
    assert '"seat": 1' in mine.to_json() and '"version": 2' in mine.to_json()
    assert GameRecord.from_json(mine.to_json()) == mine
    assert '"version": 1' in record.to_json() and '"seat"' not in record.to_json()


def test_resample_is_reproducible(seat_one: tuple[GameRecord, GameRecord]) -> None:
    """The same seed draws the same game; the draw is a Playthrough of the whole game."""
    _, mine = seat_one
    first, again = (resample(mine, random.Random(3)) for _ in range(2))
    assert isinstance(first, Playthrough) and first == again
    assert first.final.pending.terminal
