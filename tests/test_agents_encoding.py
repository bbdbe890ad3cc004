"""The fixed integer action space (ethnos_rules.agents): the pinned table, and bands built step
by step exactly equivalent to the compound ``band`` actions."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings

from ethnos_rules import (
    Action,
    IllegalActionError,
    MalformedActionError,
    PlayBand,
    RulesError,
    SetupError,
    WrongDecisionError,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    parse_action,
    position,
)
from ethnos_rules.agents import (
    BAND_DONE,
    BLOCKS,
    NUM_DISTINCT_ACTIONS,
    EncodedState,
    action_id,
    action_text,
    encode,
)
from helpers import ROOT, SIX_TRIBES
from strategies import game_prefixes, game_setups

GOLDEN = ROOT / "tests" / "golden" / "action-ids.tsv"


def test_the_table_is_pinned() -> None:
    """Ids never change meaning: the whole table equals the golden file."""
    lines = [line for line in GOLDEN.read_text().splitlines() if not line.startswith("#")]
    assert NUM_DISTINCT_ACTIONS == 534 == len(lines)
    assert [f"{i}\t{action_text(i)}" for i in range(NUM_DISTINCT_ACTIONS)] == lines
    assert [b.start for b in BLOCKS] == sorted(b.start for b in BLOCKS)


def completed(node: EncodedState) -> Iterator[tuple[tuple[int, ...], Action]]:
    """Every decision reachable from ``node``: its ids and its action, bands built to the end;
    a band step that leads nowhere fails the test."""
    for i in node.legal_ids():
        if not node.completes(i):
            after = node.apply_id(i)
            assert after.state is node.state and after.legal_ids(), "a band step dead-ends"
            for ids, action in completed(after):
                yield (i, *ids), action
        else:
            yield (i,), node.decision(i)


def check_equivalent(state: object) -> None:
    node = EncodedState.of(state)  # type: ignore[arg-type]
    ids = node.legal_ids()
    assert list(ids) == sorted(set(ids))
    reached = dict((action, ids) for ids, action in completed(node))
    assert set(reached) == set(legal_actions(node.state))
    for action, sequence in reached.items():
        assert encode(action) == sequence
    if node.state.pending.chance:
        assert [
            (encode(a)[0], p)
            for a, p in sorted(chance_outcomes(node.state), key=lambda o: encode(o[0]))
        ] == list(node.chance_outcomes())
        outcomes_first = EncodedState.of(node.state)  # the outcomes asked for before the ids
        assert [i for i, _ in outcomes_first.chance_outcomes()] == list(ids)
        assert outcomes_first.legal_ids() == ids
        assert all(outcomes_first.decision(i) == node.decision(i) for i in ids)


@settings(max_examples=150, deadline=None)
@given(game_prefixes(game_setups(component_data=False)))
def test_every_legal_decision_and_nothing_else_is_reachable(prefix: object) -> None:
    """Property: over random states (2–6 players, all options), the id sequences reach exactly
    the legal actions, each by its own encoding, with no dead end."""
    check_equivalent(prefix.state)  # type: ignore[attr-defined]


def test_the_largest_hand_builds_all_its_1512_bands() -> None:
    hand = "HAL-green HAL-green HAL-purple HAL-purple HAL-orange HAL-orange HAL-gray HAL-red"
    state = position(
        4, ["HAL", "SKE", "DWA", "ELF", "GIA", "ORC"], hands={0: hand + " HAL-blue SKE"}
    )
    bands = [a for a in legal_actions(state) if isinstance(a, PlayBand)]
    assert len(bands) == 1512
    check_equivalent(state)


def test_ids_apply_as_the_actions_do() -> None:
    rng = random.Random(3)
    node = EncodedState.of(new_game(3))
    while node.legal_ids():
        before = node
        node = node.apply_id(rng.choice(node.legal_ids()))
        if not node.band and not before.band:
            assert node.state == apply(before.state, before.decision(_last_id(before, node)))


def _last_id(before: EncodedState, after: EncodedState) -> int:
    return next(i for i in before.legal_ids() if before.apply_id(i) == after)


def test_a_band_is_its_leader_its_cards_in_card_order_and_done() -> None:
    band = parse_action("band *ELF-red SKE ELF-blue ELF-red")
    assert [action_text(i) for i in encode(band)] == [
        "band leader ELF-red",
        "band add ELF-red",
        "band add ELF-blue",
        "band add SKE",
        "band done",
    ]
    assert action_id(parse_action("wizard 3")) == 462
    with pytest.raises(MalformedActionError, match="a band is 5 ids"):
        action_id(band)


@pytest.mark.parametrize("text", ["reveal ?", "keep ?", "rest ELF-red"])
def test_what_one_seat_saw_has_no_id(text: str) -> None:
    with pytest.raises(MalformedActionError, match="what one seat saw"):
        encode(parse_action(text))


@pytest.mark.parametrize("bad", [-1, NUM_DISTINCT_ACTIONS, 2.0, "3", None, True])
def test_a_number_that_is_no_id_is_refused(bad: object) -> None:
    with pytest.raises(MalformedActionError, match="is not an action id"):
        action_text(bad)  # type: ignore[arg-type]
    with pytest.raises(MalformedActionError, match="is not an action id"):
        EncodedState.of(new_game(2)).apply_id(bad)  # type: ignore[arg-type]


def test_an_illegal_id_is_refused_by_the_rule_that_forbids_it() -> None:
    state = position(4, SIX_TRIBES, hands={0: "ELF-red ELF-red"}, row="DWA-blue")
    node = EncodedState.of(state)
    with pytest.raises(IllegalActionError, match="RECRUIT-1: there is no ORC-red in the row"):
        node.apply_id(encode(parse_action("recruit ORC-red"))[0])
    with pytest.raises(WrongDecisionError, match="a player decides here, not chance"):
        node.apply_id(encode(parse_action("reveal ELF-red"))[0])
    begun = node.apply_id(encode(parse_action("band *ELF-red"))[0])
    with pytest.raises(IllegalActionError, match="BAND-1: no legal band goes on from"):
        begun.apply_id(encode(parse_action("recruit deck"))[0])
    for step in (BAND_DONE, encode(parse_action("band *ELF-red ELF-red"))[1]):
        with pytest.raises(IllegalActionError, match=r"BAND-1: .* goes on from a band's Leader"):
            node.apply_id(step)
    with pytest.raises(IllegalActionError, match="BAND-4: 'band leader ELF-red' is a step"):
        node.decision(encode(parse_action("band *ELF-red"))[0])


def test_printed_tokens_only() -> None:
    from ethnos_rules import Options

    tokens = (1, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10)
    game = new_game(4, options=Options(glory_tokens=tokens, glory_tokens_4plus=(0, 4, 4, 6, 6, 10)))
    with pytest.raises(SetupError, match="COMP-5: the action ids cover the printed"):
        EncodedState.of(game)


@pytest.mark.parametrize("seed", range(3))
def test_through_chance_draws_as_sample_outcome_draws(seed: int) -> None:
    """Chance resolved by a node draws each outcome as sample_outcome draws it from the same
    generator, stops where a player decides, and counts the outcomes drawn; where a player
    decides, it is the node itself; a source that is not a generator is refused."""
    import numpy as np

    from ethnos_rules import is_chance, sample_outcome

    state, drawn = new_game(3 + seed), 0
    rng = np.random.default_rng(seed)
    while is_chance(state):
        state, drawn = apply(state, sample_outcome(state, rng)), drawn + 1
    node, count = EncodedState.of(new_game(3 + seed)).through_chance(np.random.default_rng(seed))
    assert (node.state, count) == (state, drawn) and count > 0 and node.band == ()
    assert node.through_chance(rng) == (node, 0) and node.through_chance(rng)[0] is node
    for source in (object(), 42):
        with pytest.raises(RulesError, match="CHANCE"):
            EncodedState.of(new_game(2)).through_chance(source)
        with pytest.raises(RulesError, match="CHANCE"):
            node.through_chance(source)  # where nothing would be drawn


def test_asking_for_chance_outcomes_where_a_player_decides_changes_nothing() -> None:
    """At a player's decision, before a band and in the middle of one, there are no chance
    outcomes, and asking for them first leaves the node's legal ids as they are."""
    node, _ = EncodedState.of(new_game(3)).through_chance(random.Random(1))
    leader = next(i for i in node.legal_ids() if action_text(i).startswith("band leader"))
    turn, band = node.legal_ids(), node.apply_id(leader).legal_ids()
    asked = EncodedState.of(node.state)
    assert asked.chance_outcomes() == () and asked.legal_ids() == turn
    begun = asked.apply_id(leader)
    assert begun.chance_outcomes() == () and begun.legal_ids() == band
    assert begun.apply_id(BAND_DONE).state != node.state


@settings(max_examples=60, deadline=None)
@given(game_prefixes(game_setups(component_data=False)))
def test_a_node_built_with_its_band_is_the_node_its_steps_reach(prefix: object) -> None:
    """Property: ``EncodedState(state, band)`` for every begun part of every legal band (a
    sample of them) equals the node its steps reach, with the same legal ids; and the steps
    that complete a decision are refused as a band begun."""
    state = prefix.state  # type: ignore[attr-defined]
    bands = [a for a in legal_actions(state) if isinstance(a, PlayBand)]
    for band in random.Random(len(bands)).sample(bands, min(len(bands), 20)):
        ids, node = encode(band), EncodedState.of(state)
        for k, step in enumerate(ids[:-1]):
            node = node.apply_id(step)
            built = EncodedState(state, ids[: k + 1])
            assert built == node and built.legal_ids() == node.legal_ids()
        with pytest.raises(IllegalActionError, match="BAND-1: 'band done' is not a step"):
            EncodedState(state, ids)


def test_a_band_begun_that_no_legal_band_begins_with_is_refused() -> None:
    state = position(2, ["DWA", "ELF", "GIA", "MER", "ORC"], hands={0: "ELF-red ELF-red"})
    leader, add = encode(parse_action("band *ELF-red ELF-red"))[:2]
    assert EncodedState(state, [leader, add]) == EncodedState(state, (leader, add))
    assert EncodedState(state, []) == EncodedState(state) == EncodedState.of(state)
    import attrs
    import numpy as np

    begun = EncodedState(state, (leader, add))
    assert EncodedState(state, np.array([leader, add])) == begun  # as a replay buffer keeps it
    assert EncodedState(state, np.array([], int)) == EncodedState(state)
    assert attrs.evolve(begun) == begun and attrs.evolve(begun).legal_ids() == begun.legal_ids()
    assert attrs.evolve(begun, band=(leader,)) == EncodedState(state, [leader])
    refusals: list[tuple[object, type[Exception], str]] = [
        ([add], IllegalActionError, "BAND-1: 'band add ELF-red' goes on from a band's Leader"),
        ([leader, add, add], IllegalActionError, "BAND-1: no legal band goes on from"),
        ([action_id(parse_action("recruit deck"))], IllegalActionError, "begins with its Leader"),
        ([leader, "x"], MalformedActionError, "'x' is not an action id"),
        ([True], MalformedActionError, "True is not an action id"),
        ("band", MalformedActionError, "a sequence of action ids, not 'band'"),
        (7, MalformedActionError, "a sequence of action ids, not 7"),
        (np.int64(7), MalformedActionError, "a sequence of action ids, not np.int64"),
    ]
    for band, error, message in refusals:
        with pytest.raises(error, match=message):
            EncodedState(state, band)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="STATE: expected a GameState"):
        EncodedState(None)  # type: ignore[arg-type]
