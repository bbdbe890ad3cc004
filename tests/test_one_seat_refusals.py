"""Records kept at one seat that must be refused, and how: a typed refusal at the right decision,
with the rule and reason :func:`~ethnos_rules.validate` reports, from every function that reads
such a record (issue 31).

The files in ``tests/data`` are the reproductions of the review of 2026-12-04: a card revealed
while the tribes are still chosen (it raised IndexError), and a ``rest`` with one card too many
after an Elves' ``keep ?`` (it was refused one decision early, for a wrong reason).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import attrs
import pytest

from ethnos_rules import (
    GameRecord,
    GameState,
    InformationState,
    RulesError,
    ValidationReport,
    information_state,
    play_random,
    position,
    redact,
    resample,
    validate,
)
from ethnos_rules._replay.replay import Refusal, decisions
from ethnos_rules._rules.events import PlacementTest
from ethnos_rules._seat.seatview import seat_decisions
from helpers import refused, run

DATA = Path(__file__).resolve().parent / "data"
"""Records the tests read (the reproduction files of reviews among them)."""

REVEAL_DURING_TRIBES = DATA / "seat-record-reveal-during-tribe-choice.json"
EARLY_REFUSAL = DATA / "early-refusal-5087.json"


def whole(record: GameRecord) -> GameRecord:
    """``record``, kept at one seat, read as a record of the whole game (version 1)."""
    document = json.loads(record.to_json())
    del document["seat"]
    document["version"] = 1
    return GameRecord.from_json(json.dumps(document))


def with_actions(record: GameRecord, actions: list[str]) -> GameRecord:
    return attrs.evolve(record, actions=tuple(actions))


def same_refusal(report: ValidationReport, error: RulesError) -> None:
    """``error`` is the refusal ``report`` tells: the same rule, reason and decision."""
    assert (error.rule, error.reason) == (report.rule, report.reason)
    if report.index is not None:
        assert f"at decision {report.index}: {report.action!r}" in error.__notes__


def check_information_state(record: GameRecord) -> ValidationReport:
    """``information_state`` refuses ``record`` exactly when ``validate`` does, as it does."""
    report = validate(record)
    if report.ok or report.path == "$.claimed_glory":
        info = information_state(record, record.seat if record.seat is not None else 0)
        assert info.decisions == (record.actions if record.seat is not None else info.decisions)
    else:
        seat = record.seat if record.seat is not None else 0
        error = refused(lambda: information_state(record, seat), RulesError)
        same_refusal(report, error)
    return report


# --- a decision at a stage where it cannot be (reliability 4A) ----------------------------------


def test_a_card_revealed_while_tribes_are_chosen_is_refused() -> None:
    """SETUP-3: ``reveal ELF-red`` as the first decision of a record kept at one seat, while the
    tribes are chosen (no deck yet), is refused as in a record of the whole game; it raised
    IndexError in validate, resample and information_state."""
    record = GameRecord.read(REVEAL_DURING_TRIBES)
    report = validate(record)
    assert (report.ok, report.index, report.rule) == (False, 0, "SETUP-3")
    assert (
        report.reason
        == validate(whole(record)).reason
        == "expected 'tribe': chance: choose a tribe"
    )
    assert report.legal == validate(whole(record)).legal  # the tribes are public
    same_refusal(report, refused(lambda: information_state(record), RulesError))
    same_refusal(report, refused(lambda: resample(record, random.Random(1)), RulesError))


def test_the_command_line_refuses_it_and_goes_on(tmp_path: Path) -> None:
    """An archive run reports the record refused, and the other files; replay refuses it."""
    (tmp_path / "a.json").write_text(REVEAL_DURING_TRIBES.read_text())
    good = redact(GameRecord.from_playthrough(play_random(2, seed=1)), 0)
    (tmp_path / "b.json").write_text(good.to_json())
    result = run("validate", str(tmp_path))
    assert result.exit_code == 1, result.output
    assert "SETUP-3" in result.output and "1 valid, 1 invalid" in result.output
    assert "Traceback" not in result.output
    result = run("replay", str(REVEAL_DURING_TRIBES))
    assert result.exit_code == 1 and "SETUP-3" in result.output, result.output


SETUP_TEXTS = (
    "reveal ELF-red",
    "reveal ?",
    "reveal DRAGON",
    "keep ?",
    "keep ELF-red",
    "keep done",
    "rest ELF-red",
    "rest ?",
    "band *ELF-red",
    "pass",
    "recruit deck",
    "recruit ELF-red",
    "chain stop",
    "place Rhea",
    "first 0",
    "tribe ELF",
    "tokens Rhea 2 4",
)


@pytest.mark.parametrize("cut", [0, 3, 6, 11, 12, 14])
def test_any_decision_at_any_early_stage_is_a_typed_refusal(cut: int) -> None:
    """Every kind of decision, the one-seat ones included, written while the tribes, the tokens,
    the first player or the starting cards are decided: validate reports it, information_state
    and resample refuse it with the same rule (or accept it when validate does); never another
    error."""
    mine = redact(GameRecord.from_playthrough(play_random(3, seed=4)), 1)
    assert mine.actions[11] == "first 0" and mine.actions[12] == "reveal ?"
    for text in SETUP_TEXTS:
        record = with_actions(mine, [*mine.actions[:cut], text])
        report = check_information_state(record)
        if not report.ok:
            error = refused(lambda: resample(record, random.Random(0)), RulesError)  # noqa: B023
            assert error.rule == report.rule, (text, report.summary())


# --- information_state refuses what validate refuses (reliability 4B) ---------------------------


def test_information_state_checks_a_record_kept_at_one_seat() -> None:
    """The reproduction: a first decision that is not a tribe, and an impossible band at
    decision 40, are refused by information_state with validate's rule and decision."""
    document = {
        "version": 2,
        "players": 2,
        "seat": 0,
        "actions": ["recruit deck"],
    }
    record = GameRecord.from_json(json.dumps(document))
    report = validate(record)
    assert (report.index, report.rule) == (0, "SETUP-3")
    same_refusal(report, refused(lambda: information_state(record), RulesError))
    mine = redact(GameRecord.from_playthrough(play_random(3, seed=2)), 0)
    actions = list(mine.actions)
    actions[40] = "band *DWA-red ELF-blue ORC-gray"
    broken = with_actions(mine, actions)
    report = validate(broken)
    assert (report.index, report.rule) == (40, "BAND-1")
    same_refusal(report, refused(lambda: information_state(broken), RulesError))
    same_refusal(report, refused(lambda: InformationState.of(broken), RulesError))
    assert InformationState.of(mine) == information_state(mine)


def test_a_place_after_a_band_that_cannot_place_is_refused_alike() -> None:
    """BAND-5: validate explains a ``place`` after a band that cannot place by the band's size
    test; information_state (and redact) raise that rule and reason too, whole or one seat."""
    game = play_random(3, seed=0)
    band = next(
        d.index
        for d in decisions(game.start, game.actions)
        if not isinstance(d, Refusal)
        and any(isinstance(e, PlacementTest) and not e.allowed for e in d.events)
    )
    record = GameRecord.from_playthrough(game)
    text = record.actions[band]
    for kept in (record, *(redact(record, seat) for seat in range(3))):
        at = kept.actions.index(text, band)
        broken = with_actions(
            kept, [*kept.actions[: at + 1], "place Rhea", *kept.actions[at + 1 :]]
        )
        report = check_information_state(broken)
        assert (report.index, report.rule) == (at + 1, "BAND-5")
        assert "cannot place a marker" in (report.reason or "")


SPOILERS = ("band *DWA-red ELF-blue", "pass", "recruit deck", "reveal ?", "keep ?", "keep done")


def spoilt(record: GameRecord, rng: random.Random) -> GameRecord:
    """``record`` cut somewhere, one of its items changed, dropped, repeated or added."""
    actions = list(record.actions[: rng.randint(1, len(record.actions))])
    i = rng.randrange(len(actions))
    pool = sorted(set(record.actions)) + list(SPOILERS)
    how = rng.choice(("change", "change", "add", "drop", "repeat", "rest"))
    if how == "change":
        actions[i] = rng.choice(pool)
    elif how == "add":
        actions.insert(i, rng.choice(pool))
    elif how == "drop":
        del actions[i]
    elif how == "repeat":
        actions.insert(i, actions[i])
    else:
        rests = [j for j, t in enumerate(actions) if t.startswith("rest ")]
        if rests:
            j = rng.choice(rests)
            words = actions[j].split()
            if rng.random() < 0.5 and len(words) > 2:
                del words[rng.randrange(1, len(words))]
            else:
                words.insert(rng.randrange(1, len(words) + 1), rng.choice(words[1:]))
            actions[j] = " ".join(words)
    return with_actions(record, actions)


def test_information_state_refuses_exactly_what_validate_refuses() -> None:
    """For random records kept at one seat, whole or cut, as kept or spoilt:
    information_state raises exactly when validate refuses, with its rule, reason and decision;
    and a refused record's prefix before the refused decision is accepted."""
    rng = random.Random(31)
    refusals = 0
    for n in range(8):
        record = GameRecord.from_playthrough(play_random(rng.choice((2, 3, 4)), seed=500 + n))
        for seat in range(record.players):
            mine = redact(record, seat)
            check_information_state(mine)
            for _ in range(3):
                broken = spoilt(mine, rng)
                report = check_information_state(broken)
                if not report.ok:
                    refusals += 1
                    assert report.index is not None
                    prefix = with_actions(broken, list(broken.actions[: report.index]))
                    assert validate(prefix).ok, (report.summary(), validate(prefix).summary())
                    assert not re.search(r"\bin (;|$)", report.reason or ""), report.reason
    assert refusals > 20


# --- a rest that does not fit the hand (one-seat review D3) ------------------------------------


def test_a_rest_with_one_card_too_many_is_refused_at_its_decision() -> None:
    """BAND-6: Elves keep two cards unseen (``keep ?`` twice), then the rest shows two cards
    where the hand holds one: the refusal is at ``keep done``, the decision the rest follows,
    and says what the hand holds and what the rest shows; the record up to that decision is
    accepted. It was refused at the second ``keep ?`` ("no card can be kept here")."""
    record = GameRecord.read(EARLY_REFUSAL)
    assert record.actions[310:315] == (
        "band *ELF-orange ELF-blue",
        "keep ?",
        "keep ?",
        "keep done",
        "rest HAL-purple HAL-purple",
    )
    report = validate(record)
    assert (report.index, report.action, report.rule) == (313, "keep done", "BAND-6")
    assert report.reason == (
        "seat 1 holds 1 card when the rest of its hand goes face up into the row here, but the"
        " 'rest' that follows shows 2 cards (HAL-purple HAL-purple): more than the hand holds"
    )
    assert validate(with_actions(record, list(record.actions[:313]))).ok
    same_refusal(report, refused(lambda: information_state(record), RulesError))
    fixed = list(record.actions)
    fixed[314] = "rest HAL-purple"
    assert validate(with_actions(record, fixed)).ok


def test_a_rest_with_a_card_too_many_or_too_few_is_refused_at_its_decision() -> None:
    """BAND-6: in random games, every ``rest`` with one card more or one fewer is refused at the
    decision it follows (or, where a Centaur chain could go on there, at the rest itself),
    saying how many cards the hand holds, and the record before that is accepted."""
    rng = random.Random(5087)
    checked = 0
    for seed in range(4):
        record = GameRecord.from_playthrough(play_random(3, seed=seed))
        mine = redact(record, seed % 3)
        rests = [j for j, t in enumerate(mine.actions) if t.startswith("rest ")]
        for j in rng.sample(rests, min(4, len(rests))):
            words = mine.actions[j].split()
            for changed in (
                [*words, rng.choice(words[1:])],
                words[:-1] if len(words) > 2 else None,
            ):
                if changed is None:
                    continue
                broken = with_actions(mine, [*mine.actions[:j], " ".join(changed)])
                report = validate(broken)
                assert report.rule == "BAND-6" and report.index in (j - 1, j), report.summary()
                if report.index == j - 1:
                    assert "the 'rest' that follows shows" in (report.reason or "")
                prefix = with_actions(broken, list(broken.actions[: report.index]))
                assert validate(prefix).ok
                checked += 1
    assert checked > 10


# --- where inferred cards are (one-seat review D4) -----------------------------------------------

TRIBES = ["DWA", "ELF", "GIA", "ORC", "SKE"]
FULL_1 = "DWA-blue DWA-blue DWA-gray DWA-gray ELF-red ELF-red ELF-gray GIA-red GIA-red ORC-red"
FULL_2 = (
    "DWA-green DWA-green DWA-orange DWA-orange ELF-green ELF-green ELF-orange GIA-green GIA-green"
    " ORC-green"
)


def refusal_of(start: GameState, items: list[str], seat: int = 0) -> Refusal:
    """The refusal of ``items``, kept at ``seat`` from ``start``."""
    found = [d for d in seat_decisions(start, items, seat) if isinstance(d, Refusal)]
    assert len(found) == 1
    return found[0]


def test_pass_then_pass_names_the_skeletons_of_the_hand_that_passed() -> None:
    """TURN-3: two other players pass at 10 cards each, so they would hold 20 Skeletons of 12;
    the second pass is refused, naming where the Skeletons are: the first passer's hand, which
    the seat never saw but knows holds only Skeletons. It read "already in ;"."""
    start = position(3, TRIBES, to_move=1, hands={0: "DWA-red", 1: FULL_1, 2: FULL_2})
    refusal = refusal_of(start, ["pass", "pass"])
    assert (refusal.index, refusal.error.rule) == (1, "TURN-3")
    assert refusal.error.reason == (
        "seat 2 passes with a full hand, so its 10 cards are all Skeletons; but only 2 of the 12"
        " SKE can be in its hand: 10 are in seat 1's hand (it passed, so it holds only Skeletons)"
    )


def test_every_skeleton_placed_is_named_with_how_many() -> None:
    """TURN-3: with 2 Skeletons in a band, the second passer can hold none: every place is
    named, with how many copies each holds; and one pass that needs more Skeletons than are
    left says how many can be in the hand."""
    bands = {0: ["*DWA-purple SKE SKE"]}
    start = position(3, TRIBES, to_move=1, hands={0: "DWA-red", 1: FULL_1, 2: FULL_2}, bands=bands)
    assert refusal_of(start, ["pass", "pass"]).error.reason == (
        "seat 2 passes with a full hand, so its 10 cards are all Skeletons; but all 12 SKE are"
        " already elsewhere: 2 in seat 0's band and 10 in seat 1's hand (it passed, so it holds"
        " only Skeletons)"
    )
    start = position(3, TRIBES, to_move=1, hands={0: "DWA-red", 1: FULL_1}, row="SKE", bands=bands)
    assert refusal_of(start, ["pass"]).error.reason == (
        "seat 1 passes with a full hand, so its 10 cards are all Skeletons; but only 9 of the 12"
        " SKE can be in its hand: 1 is in the row and 2 are in seat 0's band"
    )


def test_a_band_asking_more_copies_than_are_free() -> None:
    """BAND-1: a band of three copies of a card with two, one of them in the seat's hand."""
    start = position(3, TRIBES, to_move=1, hands={0: "DWA-red", 1: "DWA-blue DWA-gray ELF-red"})
    refusal = refusal_of(start, ["band *DWA-red DWA-red DWA-red"])
    assert refusal.error.reason == (
        "seat 1 must hold 3 DWA-red here, but only 1 of the 2 DWA-red can be in its hand: 1 is in"
        " seat 0's hand"
    )
    start = position(3, TRIBES, to_move=1, hands={0: "DWA-red", 1: "DWA-blue"}, row="DWA-red")
    assert refusal_of(start, ["band *DWA-red"]).error.reason == (
        "both DWA-red are already in the row and seat 0's hand, so seat 1 cannot hold one more"
    )


def test_a_second_rest_in_one_turn_is_refused_at_once() -> None:
    """BAND-6: a turn puts the rest of its hand into the row once. A second ``rest`` in the
    same turn (here after the Wizards' draw is chosen, which discards nothing) is refused
    itself; the witness used to restart the turn for each of the two rests in turn, without
    end (validate never returned)."""
    record = GameRecord.read(DATA / "two-rests-one-turn.json")
    assert record.actions[161:] == (
        "band *WIZ-blue",
        "place none",
        "rest DWA-green HAL-orange",
        "wizard 1",
        "rest TRO-green TRO-blue",
    )
    report = validate(record)
    assert (report.index, report.rule) == (165, "BAND-6")
    assert validate(with_actions(record, list(record.actions[:165]))).ok
    same_refusal(report, refused(lambda: information_state(record), RulesError))


def _with_decision_78(text: str) -> ValidationReport:
    """The report on the record seat 1 kept of a 3-player game, decision 78 (seat 0's) made
    ``text``."""
    mine = redact(GameRecord.from_playthrough(play_random(3, seed=7)), 1)
    actions = list(mine.actions)
    actions[78] = text
    return validate(with_actions(mine, actions))


def test_a_card_of_a_tribe_not_in_play() -> None:
    """BAND-1 and TURN-3: a card of a tribe not in play, shown in a band or needed for a pass,
    is told as such (it read "all 4 HAL-red are already in ")."""
    report = _with_decision_78("band *HAL-red")
    assert (report.index, report.rule) == (78, "BAND-1")
    assert report.reason == "Halflings are not in play, so seat 0 cannot hold HAL-red"
    start = position(3, ["DWA", "ELF", "GIA", "ORC", "TRO"], to_move=1, hands={1: FULL_1})
    assert refusal_of(start, ["pass"]).error.reason == (
        "seat 1 passes with a full hand, so its 10 cards are all Skeletons; but Skeletons are"
        " not in play"
    )


def test_a_pass_without_a_full_hand_is_refused_for_that() -> None:
    """TURN-3: another player passes holding fewer than 10 cards: refused because the hand is
    not full, as in a record of the whole game, not for Skeletons it would need (it read
    "seat 0 passes with a full hand, so its 2 cards are all Skeletons; ...")."""
    start = position(
        3, ["DWA", "ELF", "GIA", "ORC", "TRO"], to_move=1, hands={1: "DWA-red ELF-red"}
    )
    refusal = refusal_of(start, ["pass"])
    assert (refusal.error.rule, refusal.error.reason) == (
        "TURN-3",
        "passing is allowed only with a full hand",
    )
    report = _with_decision_78("pass")
    assert (report.index, report.rule) == (78, "TURN-3")
    assert report.reason == "passing is allowed only with a full hand"


def test_a_band_larger_than_the_unseen_cards() -> None:
    """BAND-1: a band needs more cards than the hand holds besides those the seat saw it take
    from the row; the reason says how many are which."""
    start = position(
        2,
        ["DWA", "ELF", "GIA", "ORC", "TRO"],
        to_move=1,
        hands={0: "TRO-red", 1: "GIA-red"},
        row="DWA-blue ORC-red",
    )
    refusal = refusal_of(start, ["recruit DWA-blue", "recruit ORC-red", "band *ELF-red ELF-gray"])
    assert (refusal.index, refusal.error.rule) == (2, "BAND-1")
    assert refusal.error.reason == (
        "seat 1 holds 2 cards: DWA-blue taken from the row and 1 unseen, too few for ELF-gray"
        " ELF-red"
    )
