"""The fast paths of the rules build exactly what the general ones build: the draw sampler
(spec §11, CHANCE) and the copies of frozen state objects."""

from __future__ import annotations

import pickle
import random
from fractions import Fraction
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethnos_rules import (
    AreaScored,
    GameState,
    Kingdom,
    MalformedActionError,
    Options,
    Prize,
    TieGroup,
    apply,
    chance_outcomes,
    is_terminal,
    new_game,
    parse_action,
    play_random,
    sample_outcome,
)
from ethnos_rules._replay.replay import Decision, new_decision
from ethnos_rules._rules.bands import BandContext
from ethnos_rules._rules.chance import DrawPending, draw_outcomes, draw_sample
from ethnos_rules._rules.frozen import _draft, evolve, maker
from ethnos_rules._rules.randomness import count_off, pick
from ethnos_rules._rules.scoring import new_area_scored, new_prize, new_tie_group
from ethnos_rules._rules.state import Band
from strategies import GameSetup, game_prefixes, game_setups, random_decision

GOLDEN = Path(__file__).parent / "golden"


def _next_draw(state: GameState, seed: int) -> GameState | None:
    """The first state from ``state`` on whose decision is a card draw, or None."""
    rng = random.Random(seed)
    while not is_terminal(state):
        if isinstance(state.pending, DrawPending):
            return state
        state = apply(state, random_decision(state, rng))
    return None


@settings(max_examples=80, deadline=None)
@given(game_prefixes(), st.integers(0, 2**32 - 1))
def test_draw_sample_is_pick_of_the_outcomes(prefix: object, seed: int) -> None:
    """For any draw and any random state, the integer sampler returns the outcome ``pick``
    returns from the exact probabilities, and consumes the random source alike."""
    state = _next_draw(prefix.state, seed)  # type: ignore[attr-defined]
    if state is None:
        return
    for make in (random.Random, np.random.default_rng):
        fast, slow = make(seed), make(seed)
        assert draw_sample(state, fast) == pick(draw_outcomes(state), slow)
        assert fast.random() == slow.random()


@settings(max_examples=60, deadline=None)
@given(game_setups(), st.integers(0, 2**32 - 1))
def test_every_setup_sampler_is_pick_of_the_outcomes(setup: GameSetup, seed: int) -> None:
    """The samplers of the setup's chance events (tribes, glory tokens, first player, the
    deal, the row) return the outcome ``pick`` returns from the exact probabilities, and
    consume the random source alike; the setup goes on with the drawn outcome."""
    state, rng = setup.start(), random.Random(seed)
    while state.pending.before_split:
        for make in (random.Random, np.random.default_rng):
            fast, slow = make(seed), make(seed)
            assert state.pending.sample(state, fast) == pick(chance_outcomes(state), slow)
            assert fast.random() == slow.random()
        state = apply(state, sample_outcome(state, rng))


@given(st.lists(st.integers(0, 7), min_size=1, max_size=12).filter(any), st.integers(0, 2**32))
def test_count_off_is_pick_of_the_counts(counts: list[int], seed: int) -> None:
    """count_off draws the index ``pick`` draws from the probabilities ``count / sum``, counts
    of 0 left out, from the same random integer: also when the counts share a factor (a gcd
    above 1, a shorter roll; 3, as a factor of 2 happens to give the same index)."""
    total = sum(counts)
    outcomes = [(i, Fraction(c, total)) for i, c in enumerate(counts) if c]
    for scaled in (counts, [3 * c for c in counts]):
        fast, slow = random.Random(seed), random.Random(seed)
        assert count_off(scaled, fast) == pick(outcomes, slow)  # type: ignore[arg-type]
        assert fast.random() == slow.random()


@settings(max_examples=40, deadline=None)
@given(game_prefixes())
def test_fast_evolve_builds_what_attrs_evolve_builds(prefix: object) -> None:
    """The rules' evolve copies every field and sets the changes, as attrs.evolve does, and
    shares what is unchanged: a change to a cold field of a state copies its cold part only."""
    state = prefix.state  # type: ignore[attr-defined]
    for inst, changes in (
        (state, {"row": (), "top_left": 0}),
        (state, {"age": 2, "row": ()}),
        (state, {}),
        (state.players[0], {"glory": 99}),
    ):
        fast = evolve(inst, **changes)
        assert fast == attrs.evolve(inst, **changes) and fast is not inst
        assert hash(fast) == hash(attrs.evolve(inst, **changes))
        kept = [f.name for f in attrs.fields(type(inst)) if f.name not in changes]
        if "age" in changes:
            kept.remove("cold")
        assert all(getattr(fast, name) is getattr(inst, name) for name in kept)
    assert evolve(state, age=2).cold.tribes is state.cold.tribes


def test_the_state_classes_are_copied_through_a_draft_of_their_layout() -> None:
    """A state, a player, a cold part and a band's context are copied as a draft of their
    class, then given the class: each copy is an object of the class itself, frozen, equal to
    what attrs.evolve builds and pickled alike. A class with a __weakref__ slot has another
    layout and gets no draft (it is copied through its slots)."""
    state = play_random(4, seed=3).final
    ctx = BandContext(0, Band(state.rules.card("ELF-red"), ()), 0, False)
    for inst, changes in (
        (state, {"row": ()}),
        (state.players[1], {"glory": 7}),
        (state.cold, {"age": 2}),
        (ctx, {"placed": True}),
    ):
        assert _draft(type(inst)) is not None, type(inst)
        copy = evolve(inst, **changes)
        assert type(copy) is type(inst) and copy == attrs.evolve(inst, **changes)
        assert pickle.loads(pickle.dumps(copy)) == copy and hash(copy) == hash(copy)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(copy, "glory", 1)  # noqa: B010 (any store is refused)
    assert _draft(_Slotted) is None and evolve(_Slotted(1), a=2) == _Slotted(2)


def test_the_scoring_objects_are_built_as_their_init_builds_them() -> None:
    """The awards, tie groups and kingdom scorings an end of Age builds with frozen.maker equal,
    hash, print and pickle as those of their __init__; Prize and TieGroup are built through a
    draft, AreaScored (an Event: its base keeps a __weakref__ slot) through its slots."""
    prize = new_prize(2, 4)
    group = new_tie_group((0, 1), 2, (0, 0), 1, (prize,), 2)
    area = new_area_scored(Kingdom.RHEA, 2, (2, 4, 8), (2, 2, 0), (group,), "ranks", (2, 2, 0))
    built = (
        Prize(2, 4),
        TieGroup((0, 1), 2, (0, 0), 1, (Prize(2, 4),), 2),
        AreaScored(Kingdom.RHEA, 2, (2, 4, 8), (2, 2, 0), (group,), "ranks", (2, 2, 0)),
    )
    for made, expected in zip((prize, group, area), built, strict=True):
        assert type(made) is type(expected) and made == expected and hash(made) == hash(expected)
        assert str(made) == str(expected) and pickle.loads(pickle.dumps(made)) == made
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(made, "value", 1)  # noqa: B010 (any store is refused)
    assert _draft(Prize) is not None and _draft(TieGroup) is not None
    assert _draft(AreaScored) is None


def test_fast_evolve_refuses_what_it_cannot_copy() -> None:
    """A class that converts or validates its fields, or a name that is no field, is refused."""
    with pytest.raises(TypeError, match=r"use attrs\.evolve"):
        evolve(Options(), placement="mandatory")
    with pytest.raises(TypeError, match="no field 'colour'"):
        evolve(new_game(3), colour="red")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        evolve(new_game(3).players[0], colour="red")


@attrs.frozen
class _Slotted:
    a: int
    b: tuple[int, ...] = ()


@attrs.frozen(slots=False)
class _WithDict:
    a: int
    b: int = 0


@attrs.define
class _PostInit:
    a: int
    doubled: int = 0

    def __attrs_post_init__(self) -> None:
        self.doubled = 2 * self.a


def test_fast_evolve_of_slots_dicts_and_post_init() -> None:
    """A slotted class is copied slot by slot, a class without slots and one with a
    ``__attrs_post_init__`` through ``__init__``: each copy is what attrs.evolve builds."""
    for inst, changes in (
        (_Slotted(1, (2,)), {"a": 5}),
        (_WithDict(1, 2), {"b": 7}),
        (_PostInit(3), {"a": 4}),
    ):
        assert evolve(inst, **changes) == attrs.evolve(inst, **changes)  # type: ignore[arg-type]
    assert evolve(_PostInit(3), a=4).doubled == 8
    kept = _Slotted(1, (2, 3))
    assert evolve(kept, a=5).b is kept.b
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        evolve(_Slotted(1), a=2).a = 3  # type: ignore[misc]


@attrs.frozen
class _Required:
    a: int
    b: tuple[int, ...]


@attrs.frozen(slots=False)
class _RequiredWithDict:
    a: int


@attrs.define
class _RequiredPostInit:
    a: int

    def __attrs_post_init__(self) -> None:
        self.a += 1


def test_maker_builds_what_init_builds_and_refuses_the_rest() -> None:
    """maker(cls) builds, slot by slot, the object cls(...) builds: equal, hashed, printed and
    pickled alike, and frozen. A class with defaults, without slots or with a
    ``__attrs_post_init__`` is refused (its __init__ does more than store the fields)."""
    made, built = maker(_Required)(1, (2,)), _Required(1, (2,))
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert pickle.loads(pickle.dumps(made)) == built
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.a = 3  # type: ignore[misc]
    state = new_game(3)
    decision = new_decision(0, "x", state, parse_action("pass"), state, ())
    assert decision == Decision(0, "x", state, parse_action("pass"), state, ())
    with pytest.raises(TypeError, match="has defaults"):
        maker(_Slotted)
    for refused in (_RequiredWithDict, _RequiredPostInit):
        with pytest.raises(TypeError, match="must be built by its __init__"):
            maker(refused)


def test_a_state_pickled_with_seventeen_fields_still_loads() -> None:
    """A state pickled before its cold fields had a part of their own (at 74a28e9, the 400th
    state of play_random(4, 5)) loads as the same state."""
    old = pickle.loads((GOLDEN / "state-17-fields.pickle").read_bytes())
    now = list(play_random(4, 5).states())[400]
    assert old == now and hash(old) == hash(now) and old.history is not now.history
    assert pickle.loads(pickle.dumps(now)) == now


def test_a_state_pickled_before_the_discarded_hands_still_loads() -> None:
    """A state pickled when its cold part had nine fields (at 30f1873~1, the 400th state of
    play_random(4, 5)) loads as the same state, with no discarded hands."""
    old = pickle.loads((GOLDEN / "state-cold-9-fields.pickle").read_bytes())
    now = list(play_random(4, 5).states())[400]
    assert old.discarded_hands == () and old == now and hash(old) == hash(now)


def test_parsed_texts_are_shared_and_long_ones_still_parse() -> None:
    """A short action text is parsed once and its action shared (actions are immutable); a
    long one (spaces are allowed between words) is parsed as before; a bad one is refused
    every time."""
    assert parse_action("recruit deck") is parse_action("recruit deck")
    spaced = "recruit" + " " * 500 + "deck"
    assert parse_action(spaced) == parse_action("recruit deck")
    for _ in range(2):
        with pytest.raises(MalformedActionError, match="unknown verb"):
            parse_action("recruit-deck")
