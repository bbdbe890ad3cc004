"""Resampling a record kept at one seat: exact, and bounded in time.

The counting at the heart of :func:`~ethnos_rules.resample` is checked against a brute force
over every labelling of small made-up segments (the same total weight, and draws that follow
it); whole records against the enumeration of :mod:`one_seat` where they end at a Centaur
chain offer; and records of players who hoard unseen cards (:mod:`hoarding`), cut at every
kind of decision, resample to games that validate and look the same from the seat.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import attrs
import pytest
from scipy.stats import chi2

from ethnos_rules import (
    FIRST_EDITION,
    Action,
    Card,
    GameRecord,
    RulesError,
    apply,
    redact,
    resample,
    validate,
)
from ethnos_rules._rules.bands import ChainPending
from ethnos_rules._seat.resample import MAX_STEPS, _Joint, _Segment, resample_game
from ethnos_rules._seat.seatview import seat_actions
from hoarding import hoarding_game
from one_seat import Case, TooLarge, enumerate_games, play_from, small_start

DATA = Path(__file__).parent / "data"


def _resamples_back(record: GameRecord, seeds: range) -> None:
    """Each seed draws a whole game that validates and that the seat records as ``record``."""
    assert record.seat is not None
    for seed in seeds:
        world = GameRecord.from_playthrough(resample(record, random.Random(seed)))
        assert validate(world).ok, seed
        assert redact(world, record.seat).actions == record.actions, seed


# --- the reviews' records -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["resample-assert-chain-offer.json", "resample-assert-1291-seat1.json"]
)
def test_a_record_ending_at_a_chain_offer_resamples(name: str) -> None:
    """A record that ends while another seat is offered a Centaur chain shows that the rest of
    that hand can lead a band: every game drawn holds such a card there (it raised a bare
    AssertionError in about one call in five)."""
    record = GameRecord.from_json((DATA / name).read_text())
    assert validate(record).ok
    _resamples_back(record, range(25))


@pytest.mark.parametrize(
    "name", ["tangled-4p-seat3.json", "tangled-6p-seat0.json", "tangled-6p-seat2.json"]
)
def test_records_of_players_who_draw_blind_to_ten_cards_resample(name: str) -> None:
    """Four or five other players each ending an Age with ten cards drawn blind, some kept by
    Elves and shown late, about twenty kinds asked: an adversarial tester's records that the
    first counting refused as too tangled (30 of 89 such seat records); they resample."""
    record = GameRecord.from_json((DATA / name).read_text())
    _resamples_back(record, range(2))


def test_a_hoarding_record_resamples_within_a_second() -> None:
    """Six players, several keeping Elves cards never shown: resample drew nothing in 400 s by
    rejection; counting takes well under a second."""
    record = GameRecord.from_json((DATA / "hoard-6p-seed2-seat0.json").read_text())
    started = time.perf_counter()
    _resamples_back(record, range(3))
    assert time.perf_counter() - started < 3 * 2.0  # 1 s each here, with room for a slow CI


# --- the counting against a brute force ----------------------------------------------------------


KINDS = [c for c in FIRST_EDITION.cards if not c.wild][:4]


def _random_segments(rng: random.Random) -> tuple[list[_Segment], Counter[Card]]:
    """Two or three small segments sharing a pool of a few kinds, each asking one to three
    kinds, so that they overlap and leave free slots that other kinds take: open ones with
    needs at random points, a closed one, a bound on a kind."""
    pool = Counter({k: rng.randint(1, 3) for k in KINDS})
    segments: list[_Segment] = []
    index = 0
    while index < 6 and len(segments) < 3:
        size = rng.randint(1, min(3, 6 - index))
        slots = tuple(range(index, index + size))
        index += size
        needs = tuple(
            (rng.randint(1, size), Counter({rng.choice(KINDS): 1}))
            for _ in range(rng.randint(1, 3))
        )
        how = rng.random()
        if how < 0.15:
            exact = Counter(rng.choice(KINDS) for _ in range(size))
            segments.append(_Segment(slots, needs, exact))
        elif how < 0.3:
            segments.append(_Segment(slots, needs, None, Counter({rng.choice(KINDS): size - 1})))
        else:
            segments.append(_Segment(slots, needs, None))
    return segments, pool


def _meets(segment: _Segment, labels: dict[int, Card]) -> bool:
    """Whether ``labels`` fits every need, the exact hand and the bounds of ``segment``."""
    cards = [labels[i] for i in segment.slots]
    for at, need in segment.needs:
        have = Counter(cards[:at])
        if any(have[k] < n for k, n in need.items()):
            return False
    if segment.exact is not None and Counter(cards) != +segment.exact:
        return False
    return all(Counter(cards)[k] <= n for k, n in segment.most.items())


def _brute_force(segments: list[_Segment], pool: Counter[Card]) -> dict[tuple[Card, ...], int]:
    """Every labelling of the constrained slots (up to each segment's last point) that fits,
    with the ways to give its slots distinct cards of the pool."""
    joint = _Joint(segments, pool)
    counted = _counted(joint)
    kinds = sorted(pool)
    found: dict[tuple[Card, ...], int] = {}
    for labels in itertools.product(kinds, repeat=len(counted)):
        by_slot = dict(zip(counted, labels, strict=True))
        full = {**{i: KINDS[0] for s in segments for i in s.slots}, **by_slot}
        if not all(_meets(_cut(s, joint), full) for s in segments):
            continue
        used = Counter(labels)
        ways = 1
        for kind, n in used.items():
            for j in range(n):
                ways *= max(pool[kind] - j, 0)
        if ways:
            found[labels] = ways
    return found


def _cut(segment: _Segment, joint: _Joint) -> _Segment:
    """``segment`` as counted: its slots up to its last point (the rest are drawn after)."""
    shape = next(s for s in joint.shapes if s.segment is segment)
    return _Segment(segment.slots[: shape.ends[-1]], segment.needs, segment.exact, segment.most)


def test_counting_agrees_with_a_brute_force() -> None:
    """On 300 made-up sets of segments, the total weight counted kind by kind, in any order of
    the segments, is the sum over every labelling that fits; and draws follow it (chi-square
    over 30 of them)."""
    statistic, freedom, checked = 0.0, 0, 0
    for k in range(3000):
        if k >= 300 and checked == 30:
            break
        rng = random.Random(k)
        segments, pool = _random_segments(rng)
        joint = _Joint(segments, pool)
        found = _brute_force(segments, pool)
        for order in itertools.permutations(segments):
            again = _Joint(order, pool, ordered=True)  # the weight is the same in any order
            assert again.weight(0, again.start()) == sum(found.values()), (k, order, pool)
        if len(found) < 2 or checked == 30:
            continue
        counted = _counted(joint)
        draws = 200
        seen: Counter[tuple[Card, ...]] = Counter()
        for _ in range(draws):
            drawn = _Joint(segments, pool).draw(rng)
            seen[tuple(drawn[i] for i in counted)] += 1
        assert set(seen) <= set(found)
        whole = sum(found.values())
        for labels, ways in found.items():
            expected = draws * ways / whole
            statistic += (seen[labels] - expected) ** 2 / expected
        freedom += len(found) - 1
        checked += 1
    assert checked == 30
    assert chi2.sf(statistic, freedom) > 0.001, (statistic, freedom)


def test_cards_of_other_kinds_taken_before_and_after_a_kind_asked() -> None:
    """A segment that enters while another's kinds are counted takes cards of the kinds before
    from the heap, then of kinds after it that it does not ask: the ways to interleave them
    count too (the random cases rarely reach this)."""
    k0, k1, k2, k3 = KINDS
    first = _Segment((0, 1, 2, 3), ((4, Counter({k0: 1, k1: 1, k3: 1})),), None)
    second = _Segment((4, 5, 6, 7), ((2, Counter({k1: 1})), (4, Counter({k2: 1}))), None)
    pool = Counter(dict.fromkeys(KINDS, 2))
    total = sum(_brute_force([first, second], pool).values())
    for order in ([first, second], [second, first]):
        joint = _Joint(order, pool, ordered=True)
        assert joint.weight(0, joint.start()) == total == 6912


def _counted(joint: _Joint) -> list[int]:
    return sorted(shape.segment.slots[i] for shape in joint.shapes for i in range(shape.ends[-1]))


def test_too_tangled_a_record_is_refused_at_once() -> None:
    """CHANCE: unseen cards whose counting would take more than MAX_STEPS steps are refused
    with a RulesError, within seconds, not counted for hours. (Two players each showing a new
    kind after every one of 24 unseen draws: no legal record comes near, since a hand of 10
    must be shown, or kept by Elves, in between.)"""
    cards = [c for c in FIRST_EDITION.cards if not c.wild][:24]
    size = 24
    needs = tuple(
        (i + 1, Counter(cards[j] for j in range(i + 1) if (j * 5) % size <= i)) for i in range(size)
    )
    segments = [_Segment(tuple(range(at, at + size)), needs, None) for at in (0, 100)]
    pool = Counter({c: 2 for c in cards})
    started = time.perf_counter()
    with pytest.raises(RulesError) as refused:
        _Joint(segments, pool).draw(random.Random(0))
    assert refused.value.rule == "CHANCE"
    assert f"more than {MAX_STEPS:,} steps" in refused.value.reason
    assert time.perf_counter() - started < 10


# --- whole records against the enumeration -------------------------------------------------------


def _chain_cases(wanted: int) -> list[tuple[Case, dict[tuple[Action, ...], Fraction]]]:
    """Small cases cut where another seat than the one keeping the record is offered a
    Centaur chain, with every complete game that fits them."""
    cases = []
    for k in itertools.count():
        rng = random.Random(50_000 + k)
        start = small_start(rng)
        seat = next(q for q, p in enumerate(start.players) if p.hand)
        full = play_from(start, rng, 40)
        state = start
        for n, action in enumerate(full):
            state = apply(state, action)
            pending = state.pending
            if isinstance(pending, ChainPending) and pending.seat != seat:
                case = Case(start, seat, seat_actions(start, full[: n + 1], seat))
                try:
                    found = enumerate_games(case)
                except TooLarge:
                    break
                if 2 <= len(found.games) <= 60:
                    cases.append((case, found.games))
                break
        if len(cases) == wanted or k > 4000:
            return cases
    raise AssertionError("unreachable")


def test_resampling_at_a_chain_offer_draws_from_the_exact_posterior() -> None:
    """Records cut at another seat's chain offer: the games drawn are those the enumeration
    finds, with its probabilities (chi-square over all cases together)."""
    cases = _chain_cases(12)
    assert len(cases) >= 8, len(cases)
    statistic, freedom = 0.0, 0
    for n, (case, games) in enumerate(cases):
        rng = random.Random(n)
        draws = 200
        seen = Counter(
            resample_game(case.start, case.items, case.seat, rng).actions for _ in range(draws)
        )
        assert set(seen) <= set(games), "a game drawn does not fit the record"
        total = sum(games.values())
        for game, p in games.items():
            expected = draws * float(p / total)
            statistic += (seen[game] - expected) ** 2 / expected
        freedom += len(games) - 1
    assert chi2.sf(statistic, freedom) > 0.001, (statistic, freedom)


# --- players who hoard unseen cards ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_hoarding_records_resample_at_every_kind_of_decision(players: int) -> None:
    """Records of players who recruit blind, lead Elves and keep, let Wizards draw and chain
    Centaurs, kept at each seat and cut at decisions of every kind: each resamples to a game
    that validates and looks the same from the seat, and no call takes a second."""
    kinds: Counter[str] = Counter()
    slowest = 0.0
    for seed in range(3 if players >= 5 else 2):
        game = hoarding_game(players, 1000 * players + seed)
        rng = random.Random(seed)
        cuts = [*sorted(rng.sample(range(1, len(game.actions) + 1), 6)), len(game.actions)]
        for cut in cuts:
            prefix = GameRecord.from_start(game.start, game.actions[:cut])
            state = prefix.replay()
            kinds[type(state.pending).__name__] += 1
            seat = rng.randrange(players)
            mine = redact(prefix, seat)
            started = time.perf_counter()
            world = GameRecord.from_playthrough(resample(mine, rng))
            slowest = max(slowest, time.perf_counter() - started)
            assert validate(world).ok
            assert redact(world, seat).actions == mine.actions
    assert slowest < 2.0, slowest  # the bench reports the real figures; this catches a stall
    assert len(kinds) >= 3, kinds


def test_a_refusal_is_kept_and_told_again_as_it_was() -> None:
    """A record resample refuses is refused again with the same rule, reason and note (the
    refusal is kept like a plan, so asking again does not replay or count again)."""
    record = GameRecord.from_json((DATA / "resample-assert-chain-offer.json").read_text())
    bad = attrs.evolve(record, actions=(*record.actions[:9], "band *SKE"))
    errors = []
    for _ in range(2):
        with pytest.raises(RulesError) as refused:
            resample(bad, random.Random(0))
        errors.append(refused.value)
    errors.append(_refusal(lambda: resample(bad, random.Random(0))))  # a third time
    first, again, third = errors
    assert first is not again and type(first) is type(again)
    assert third.__notes__ == first.__notes__  # notes are not added up from call to call
    assert (
        (first.rule, first.reason)
        == (again.rule, again.reason)
        == (
            validate(bad).rule,
            validate(bad).reason,
        )
    )
    assert first.__notes__ == again.__notes__ == ["at decision 9: 'band *SKE'"]


def _refusal(call: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as refused:
        call()
    return refused.value


def test_resample_takes_numpy_generators_and_refuses_other_sources() -> None:
    """rng: a random.Random or a numpy.random.Generator, as sample() takes; anything else is
    refused (CHANCE) before any work."""
    numpy = pytest.importorskip("numpy")
    record = GameRecord.from_json((DATA / "resample-assert-chain-offer.json").read_text())
    world = GameRecord.from_playthrough(resample(record, numpy.random.default_rng(3)))
    assert record.seat is not None
    assert redact(world, record.seat).actions == record.actions
    for source in (None, 3, "seed"):
        with pytest.raises(RulesError) as refused:
            resample(record, source)
        assert refused.value.rule == "CHANCE"


def test_a_refused_record_is_refused_by_resample_as_validate_refuses_it() -> None:
    """resample refuses a record no game fits with validate's rule, reason and decision (it
    named the engine's rule, TRIBE-MER-2, where validate explains BAND-5)."""
    record = GameRecord.from_json((DATA / "resample-rule-as-validate.json").read_text())
    report = validate(record)
    with pytest.raises(RulesError) as refused:
        resample(record, random.Random(0))
    assert (refused.value.rule, refused.value.reason) == (report.rule, report.reason)
    assert refused.value.__notes__[-1].startswith(f"at decision {report.index}:")
