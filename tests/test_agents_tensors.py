"""Tensors and returns (ethnos_rules.agents): what a seat sees and only that, perfect recall,
bounds that hold, returns that sum to 0; chance sampled with a numpy generator."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the [agents] extra is not installed")

import attrs  # noqa: E402
from hypothesis import given, settings  # noqa: E402

from ethnos_rules import (  # noqa: E402
    CHANCE,
    Card,
    GameRecord,
    GameState,
    Observation,
    Options,
    RulesError,
    SetupError,
    chance_outcomes,
    information_state,
    legal_actions,
    new_game,
    observation,
    play_random,
    redact,
    sample,
    sample_outcome,
    to_move,
)
from ethnos_rules._rules.decisions import DECISION_TYPES  # noqa: E402
from ethnos_rules._rules.editions import FIRST_EDITION  # noqa: E402
from ethnos_rules._rules.tribes import KeepPending  # noqa: E402
from ethnos_rules.agents import (  # noqa: E402
    OBSERVATION_PIECES,
    SEAT_PIECES,
    EncodedState,
    action_text,
    information_state_tensor,
    max_chance_events,
    max_game_length,
    max_history_tokens,
    observation_pieces,
    observation_size,
    observation_tensor,
    returns,
)
from strategies import GamePrefix, game_prefixes, game_setups  # noqa: E402
from strategies import seeds as st_seeds  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(game_prefixes(game_setups(component_data=False)))
def test_the_observation_is_what_the_seat_sees(prefix: GamePrefix) -> None:
    """Property: the tensor has its documented size for every view, and two states that one
    seat sees alike (its observation) give it equal tensors."""
    state = prefix.state
    for seat in range(state.config.players):
        tensor = observation_tensor(state, seat)
        assert tensor.shape == (observation_size(),) and tensor.dtype == np.float32
        for private in ("none", "all"):
            other = observation_tensor(state, seat, private=private)
            assert other.shape == (observation_size(private=private),)
    other_seat = (state.pending.seat or 0) % state.config.players
    twin = _swap_hidden(state, other_seat)
    if twin is not None:
        viewer = (other_seat + 1) % state.config.players
        assert observation(twin, viewer) == observation(state, viewer)
        assert (observation_tensor(twin, viewer) == observation_tensor(state, viewer)).all()
        assert not (
            observation_tensor(twin, other_seat) == observation_tensor(state, other_seat)
        ).all()


def _split(tensor: Any, pieces: list[tuple[str, tuple[int, ...]]]) -> dict[str, Any]:
    out, at = {}, 0
    for name, shape in pieces:
        size = int(np.prod(shape))
        out[name] = tensor[at : at + size].reshape(shape)
        at += size
    assert at == len(tensor)
    return out


def _counts(cards: tuple[Card, ...]) -> list[int]:
    counts = [0] * 67
    for card in cards:
        counts[card.index] += 1
    return counts


@settings(max_examples=40, deadline=None)
@given(game_prefixes(game_setups(component_data=False)))
def test_each_piece_holds_what_the_seat_sees(prefix: GamePrefix) -> None:
    """Property: read piece by piece (OBSERVATION_PIECES, SEAT_PIECES), the tensor holds what
    observation() shows the seat: its documented layout, checked against the rules' view."""
    state = prefix.state
    n = state.config.players
    for seat in range(n):
        seen = observation(state, seat)
        piece = _split(observation_tensor(state, seat), observation_pieces())
        one_hot = {name: list(np.flatnonzero(piece[name])) for name in piece}
        assert one_hot["observer"] == [seat] and one_hot["players"] == [n - 2]
        assert one_hot["stage"] == [state.pending.stage]
        assert one_hot["decision"] == [DECISION_TYPES.index(type(state.pending))]
        mover = to_move(state)
        assert one_hot["to_move"] == [6 if not isinstance(mover, int) else (mover - seat) % n]
        assert one_hot["age"] == [seen.age - 1] and sum(piece["dragons_drawn"]) == (
            seen.dragons_drawn
        )
        assert list(piece["deck"]) == [seen.deck_size, seen.top_left]
        assert sorted(one_hot["tribes"]) == sorted(t.index for t in state.tribes)
        assert list(piece["row"]) == _counts(seen.row)
        assert list(piece["hand"]) == _counts(seen.hand)
        kept = state.pending.kept if isinstance(state.pending, KeepPending) else ()
        assert piece["elves_kept"].tolist() == [len(kept)]
        mine = kept if isinstance(state.pending, KeepPending) and mover == seat else ()
        assert list(piece["kept"]) == _counts(mine)
        tokens = [[*values, *[0] * (3 - len(values))] for values in seen.tokens]
        assert piece["tokens"][: len(tokens)].tolist() == tokens
        assert not piece["tokens"][len(tokens) :].any()
        assert not piece["band_leader"].any() and not piece["band_added"].any()
        for rel, row in enumerate(piece["seats"]):
            _check_seat_row(row, seen, (seat + rel) % n if rel < n else None)
    _check_band_built(EncodedState.of(state))


CARDS = FIRST_EDITION.cards


def _check_band_built(node: EncodedState) -> None:
    """Each step of a band being built shows in the mover's tensor: its Leader, its cards."""
    leaders = [i for i in node.legal_ids() if action_text(i).startswith("band leader")]
    if not leaders:
        return
    node = node.apply_id(leaders[-1])
    added = [i for i in node.legal_ids() if action_text(i).startswith("band add")]
    if added:
        node = node.apply_id(added[0])
    seat = to_move(node.state)
    assert isinstance(seat, int)
    piece = _split(observation_tensor(node, seat), observation_pieces())
    leader = action_text(leaders[-1]).removeprefix("band leader ")
    assert [CARDS[i].code for i in np.flatnonzero(piece["band_leader"])] == [leader]
    assert [CARDS[i].code for i in np.flatnonzero(piece["band_added"])] == [
        action_text(i).removeprefix("band add ") for i in added[:1]
    ]


def _check_seat_row(row: Any, seen: Observation, seat: int | None) -> None:
    fields = _split(row, [(name, (size,)) for name, size in SEAT_PIECES])
    if seat is None:  # a seat the game lacks
        assert not row.any()
        return
    view = seen.seats[seat]
    merfolk = -1 if view.merfolk is None else view.merfolk
    assert [float(fields[k][0]) for k in ("hand_size", "glory", "supply", "merfolk")] == [
        view.hand_size,
        view.glory,
        view.supply,
        merfolk,
    ]
    assert list(fields["kingdoms"]) == list(view.kingdoms)
    assert list(np.flatnonzero(fields["horde"])) == sorted(set(view.horde))
    assert sum(fields["trolls"]) == len(view.trolls)
    assert float(fields["giant_token"][0]) == (seen.giant_holder == seat)
    assert float(fields["bands"][0]) == len(view.bands)
    cards = tuple(card for band in view.bands for card in band.cards)
    assert list(fields["band_cards"]) == _counts(cards)
    leaders = tuple(band.leader for band in view.bands)
    assert list(fields["band_leaders"]) == _counts(leaders)


def _swap_hidden(state: GameState, seat: int) -> GameState | None:
    """``state`` with one card of ``seat``'s hand swapped for a different one in the deck."""
    player = state.players[seat]
    deck = list(state.deck)
    cards = state.rules.cards
    for card in dict.fromkeys(player.hand):
        for new in cards:
            if new is not card and deck[new.index]:
                deck[new.index] -= 1
                deck[card.index] += 1
                hand = tuple(
                    sorted(
                        [
                            *player.hand[: player.hand.index(card)],
                            *player.hand[player.hand.index(card) + 1 :],
                            new,
                        ]
                    )
                )
                changed = state.with_player(seat, attrs.evolve(player, hand=hand))
                return attrs.evolve(changed, deck=tuple(deck))
    return None


def test_information_state_tensors_follow_information_states() -> None:
    """Equal information states give equal tensors; a different one a different tensor."""
    game = play_random(3, seed=11)
    record = GameRecord.from_playthrough(game)
    length = max_history_tokens(3)
    tensors = {}
    for seat in range(3):
        info = information_state(record, seat)
        tensor = information_state_tensor(info, length)
        assert tensor.shape == (length,)
        assert (
            tensor == information_state_tensor(information_state(redact(record, seat)), length)
        ).all()
        tensors[seat] = tensor
    assert not (tensors[0] == tensors[1]).all()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_games_stay_within_the_bounds(players: int) -> None:
    for seed in range(3):
        game = play_random(players, seed=seed)
        node, ids, chance = EncodedState.of(game.start), 0, 0
        for action in game.actions:
            ids += len(_ids(action))
            chance += action.chance
        assert ids <= max_game_length(players) // 5
        assert chance <= max_chance_events(players)
        del node


def _ids(action: object) -> tuple[int, ...]:
    from ethnos_rules.agents import encode

    return encode(action)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_returns_sum_to_zero_and_a_sole_winner_gets_one(players: int) -> None:
    final = play_random(players, seed=players).final
    values = returns(final)
    assert sum(values) == pytest.approx(0)
    assert max(values) <= 1 and min(values) >= -1 / (players - 1)
    assert returns(new_game(players)) == (0.0,) * players


def test_chance_from_a_numpy_generator_is_exact() -> None:
    state = new_game(4, tribes=["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], first_player=0)
    state = sample(state, random.Random(1))
    from ethnos_rules import apply, parse_action

    state = apply(state, parse_action("recruit deck"))
    outcomes = dict(chance_outcomes(state))
    rng = np.random.default_rng(3)
    draws = [sample_outcome(state, rng) for _ in range(4000)]
    for action, p in outcomes.items():
        assert abs(draws.count(action) / 4000 - float(p)) < 0.02
    assert sum(outcomes.values()) == Fraction(1)
    again = [sample_outcome(state, np.random.default_rng(3)) for _ in range(3)]
    assert again[0] == draws[0]
    with pytest.raises(RulesError, match=r"CHANCE: sampling needs a random\.Random or a numpy"):
        sample_outcome(state, np.random.RandomState(1))


def test_large_denominators_from_numpy_are_exact() -> None:
    from ethnos_rules._rules.randomness import below

    rng = np.random.default_rng(5)
    big = 3 * (1 << 70) + 1
    values = [below(rng, big) for _ in range(200)]
    assert all(0 <= v < big for v in values) and len(set(values)) == 200
    assert max(values) > 1 << 70


@settings(max_examples=25, deadline=None)
@given(game_setups(component_data=False), st_seeds)
def test_the_observation_writer_writes_the_observation(setup: object, seed: int) -> None:
    """Property: a seat's ObservationWriter, kept along a whole random game (band steps
    included), gives at every step exactly observation_tensor of that step."""
    import random as _random

    from ethnos_rules.agents import ObservationWriter

    rng = _random.Random(seed)
    node = EncodedState.of(setup.start())  # type: ignore[attr-defined]
    n = node.state.config.players
    writers = [ObservationWriter(seat, n) for seat in range(n)]
    steps = 0
    while node.legal_ids() and steps < 400:
        seat = steps % n
        assert (writers[seat].write(node) == observation_tensor(node, seat)).all()
        node = node.apply_id(rng.choice(node.legal_ids()))
        steps += 1


@settings(max_examples=15, deadline=None)
@given(st_seeds, st_seeds)
def test_a_writer_fed_states_in_any_order_writes_each_one(seed: int, order: int) -> None:
    """Property: a writer that last wrote any other state (of another game, or much later in
    this one), for any choice of pieces, still writes exactly the observation of each state;
    and what it returns is the caller's: changing it changes nothing the writer writes
    next."""
    from ethnos_rules.agents import ObservationWriter

    n = 2 + seed % 5
    states = [s for g in (seed, seed + 1) for s in list(play_random(n, g).states())[::7]]
    random.Random(order).shuffle(states)
    public, private = order % 2 == 0, ("none", "seat", "all")[order % 3]
    writers = [ObservationWriter(s, n, public=public, private=private) for s in range(n)]
    for i, state in enumerate(states[:120]):
        seat = i % n
        tensor = writers[seat].write(EncodedState(state))
        new = ObservationWriter(seat, n, public=public, private=private)
        fresh = new.write(EncodedState(state))  # a writer that wrote nothing before
        assert (observation_tensor(state, seat, public=public, private=private) == fresh).all()
        assert (tensor == fresh).all()
        tensor[:] = -7


@settings(max_examples=20, deadline=None)
@given(st_seeds, st_seeds)
def test_recall_tokens_asked_in_any_order_are_every_items_tokens(seed: int, order: int) -> None:
    """Property: whichever links of a chain are asked first (each link remembers some tokens),
    a link's tokens are those of its items from the start, in order."""
    from ethnos_rules.agents import Recall, item_tokens

    actions = play_random(2 + seed % 5, seed % 1000).actions
    links = [Recall.empty()]
    for action in actions:
        links.append(links[-1].add((action,)))
    asked = random.Random(order).sample(range(len(links)), min(len(links), 60))
    for i in asked:
        assert links[i].tokens() == [t for item in actions[:i] for t in item_tokens(item)]


def test_arguments_of_the_wrong_kind_are_refused_by_name() -> None:
    """Bounds, writers, returns and the information-state helpers refuse what is not theirs
    with the library's errors; returns also takes a node."""
    from ethnos_rules import InvalidStateError, MalformedActionError, RecordError, SetupError
    from ethnos_rules.agents import ObservationWriter, information_state_text, item_tokens

    for bound in (max_game_length, max_history_tokens, max_chance_events):
        wrong: tuple[Any, ...] = (1, 7, 3.0, "3", True)
        for players in wrong:
            refusal = "2 to 6 players" if type(players) is int else "players is an int"
            with pytest.raises(SetupError, match=f"SETUP-1: .*{refusal}"):
                bound(players)
        with pytest.raises(SetupError, match="OPTIONS"):
            bound(2, "x")  # type: ignore[arg-type]
    for players in (1, 7, "3"):
        with pytest.raises(SetupError, match="SETUP-1"):
            ObservationWriter(0, players)  # type: ignore[arg-type]
    final = play_random(2, seed=5).final
    assert returns(EncodedState(final)) == returns(final) == (-1.0, 1.0)
    with pytest.raises(InvalidStateError, match="STATE: expected a GameState"):
        returns(None)  # type: ignore[arg-type]
    with pytest.raises(MalformedActionError, match="expected an Action"):
        item_tokens(None)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="takes an InformationState"):
        information_state_tensor(None)  # type: ignore[arg-type]
    record = GameRecord.from_playthrough(play_random(2, seed=5))
    with pytest.raises(ValueError, match="whole number"):
        information_state_tensor(information_state(record, 0), -1)
    for seat in (-1, 2, True):
        with pytest.raises(SetupError, match="SETUP-1"):
            information_state_text((), EncodedState(final), seat)
    publics: list[Any] = ["no", 0, None]
    for public in publics:
        with pytest.raises(ValueError, match="public must be True or False"):
            observation_tensor(final, 0, public=public)
        with pytest.raises(ValueError, match="public must be True or False"):
            ObservationWriter(0, 2, public=public)
    assert observation_tensor(final, 0, public=np.bool_(False)).shape == (
        observation_size(public=False),
    )
    with pytest.raises(InvalidStateError, match="STATE: expected an EncodedState"):
        information_state_text((), final, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_what_the_tensor_does_not_tell_apart_the_seat_does_not_either(players: int) -> None:
    """The converse of the property above, over whole games with the Elves and random rule
    options: states that give a seat equal tensors are equal to it (its observation), and
    where it is to move they offer it the same actions (the Elves' cards kept so far)."""
    tribes = ["ELF", "WIZ", "MER", "CEN", "ORC", "TRO"][: 5 if players < 4 else 6]
    choices: dict[str, Any] = Options.choices()
    for seed in range(4):
        rng = random.Random(seed)
        options = Options(**{name: rng.choice(values) for name, values in choices.items()})
        seen: dict[tuple[int, bytes], tuple[Observation, frozenset[Any] | None]] = {}
        for state in play_random(players, seed=seed, tribes=tribes, options=options).states():
            mover = to_move(state)
            for seat in range(players):
                key = (seat, observation_tensor(state, seat).tobytes())
                legal = frozenset(legal_actions(state)) if mover == seat else None
                now = (observation(state, seat), legal)
                assert seen.setdefault(key, now) == now, (seed, seat, state.pending.describe())


@settings(max_examples=25, deadline=None)
@given(game_setups(component_data=False), st_seeds)
def test_observations_stay_within_their_bounds_and_scale_into_the_unit_interval(
    setup: object, seed: int
) -> None:
    """Property: along a whole random game (2-6 players, any options, every choice of
    pieces), each number of the observation lies within observation_bounds (worked out from
    the rules' counts, not measured), and the Scaler puts it in [0, 1], keeping the order of
    any two values of the same number (a count that grows, grows scaled)."""
    from ethnos_rules.agents import Scaler, observation_bounds

    rng = random.Random(seed)
    node = EncodedState.of(setup.start())  # type: ignore[attr-defined]
    n, options = node.state.config.players, node.state.options
    views = [(True, "seat"), (True, "all"), (False, "none")]
    bounds = {v: observation_bounds(n, options, public=v[0], private=v[1]) for v in views}
    scalers = {v: Scaler(n, options, public=v[0], private=v[1]) for v in views}
    steps, reached_top = 0, 0.0
    while node.legal_ids():
        if steps % 9 == 0:
            for public, private in views:
                raw = observation_tensor(node, steps % n, public=public, private=private)
                low, high = bounds[public, private]
                assert (low <= raw).all() and (raw <= high).all()
                scaled = scalers[public, private](raw)
                assert (scaled >= 0).all() and (scaled <= 1).all()
                room = raw + 1 <= high  # one more of these would still be within bounds
                assert (scalers[public, private](raw + 1)[room] > scaled[room]).all()
                reached_top = max(reached_top, float(scaled.max()))
        node = node.apply_id(rng.choice(node.legal_ids()))
        steps += 1
    assert reached_top == 1.0  # one-hots at least: the scale is not squashed flat


def test_bounds_come_from_the_setup() -> None:
    """More players deal from a larger deck: the deck's bound grows; the printed counts of
    a card kind bound the row."""
    from ethnos_rules import SetupError
    from ethnos_rules.agents import observation_bounds, observation_pieces

    starts, at = {}, 0
    for name, shape in observation_pieces():
        starts[name] = at
        at += int(np.prod(shape))
    two, six = observation_bounds(2)[1], observation_bounds(6)[1]
    assert six[starts["deck"]] > two[starts["deck"]]
    row = two[starts["row"] : starts["row"] + 67]
    assert list(row) == list(FIRST_EDITION.copies)
    with pytest.raises(SetupError, match="SETUP-1"):
        observation_bounds(7)


@settings(max_examples=15, deadline=None)
@given(st_seeds, st_seeds)
def test_one_writer_writes_every_seats_observation(seed: int, order: int) -> None:
    """Property: one writer asked for any seat's observation (its board turned to each
    observer), of states partly in game order and partly shuffled, band steps included, writes
    exactly what a new writer for that seat writes."""
    from ethnos_rules.agents import ObservationWriter

    n = 2 + seed % 5
    rng = random.Random(order)
    nodes = []
    for state in list(play_random(n, seed).states())[::3]:
        node = EncodedState(state)
        if node.to_move() is not None and node.to_move() is not CHANCE:
            leaders = [i for i in node.legal_ids() if not node.completes(i)]
            if leaders:  # a band begun here too
                nodes.append(node.apply_id(rng.choice(leaders)))
        nodes.append(node)
    tail = nodes[len(nodes) // 2 :]
    rng.shuffle(tail)
    public, private = order % 2 == 0, ("none", "seat", "all")[order % 3]
    shared = ObservationWriter(0, n, public=public, private=private)
    for node in (nodes[: len(nodes) // 2] + tail)[:150]:
        seat = rng.randrange(n)
        fresh = ObservationWriter(seat, n, public=public, private=private).write(node)
        assert (shared.write(node, seat) == fresh).all()
    with pytest.raises(SetupError, match="SETUP-1"):
        shared.write(nodes[0], n)


def test_the_tensors_are_sized_by_the_editions_counts() -> None:
    """Every size of the observation is a count of the edition the ids cover, not a number
    written again in the agents' layer."""
    from ethnos_rules.agents import observation_bounds

    edition = FIRST_EDITION
    shapes = dict(OBSERVATION_PIECES)
    most = edition.players[1]
    assert shapes["observer"] == (most,) and shapes["to_move"] == (most + 1,)
    assert shapes["players"] == (most - edition.players[0] + 1,)
    assert shapes["age"] == (max(edition.ages),) and shapes["dragons_drawn"] == (edition.dragons,)
    assert shapes["tribes"] == (len(edition.tribes),)
    assert shapes["tokens"] == (len(edition.kingdoms), max(edition.token_spaces))
    assert shapes["row"] == shapes["hand"] == (len(edition.cards),)
    assert shapes["hands"] == (most, len(edition.cards))
    seat = dict(SEAT_PIECES)
    assert seat["kingdoms"] == len(edition.kingdoms) and seat["horde"] == len(edition.colours)
    assert seat["trolls"] == len(edition.troll_tokens) and seat["band_cards"] == len(edition.cards)
    assert shapes["seats"] == (most, sum(seat.values()))
    for players in range(edition.players[0], most + 1):
        low, high = observation_bounds(players)
        assert low.shape == high.shape == (observation_size(),)
