"""The OpenSpiel game ``python_ethnos``: OpenSpiel's own random simulation test and its
partial-tree API checks, for 2–6 players and with rule options."""

from __future__ import annotations

import copy
import pickle
import random
import unittest
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

from open_spiel.integration_tests import api_test  # noqa: E402
from open_spiel.python.algorithms import sample_some_states  # noqa: E402

import ethnos_rules.openspiel  # noqa: E402  (registers python_ethnos)
from ethnos_rules import (  # noqa: E402
    RulesError,
    SetupError,
    WrongDecisionError,
    legal_actions,
)
from ethnos_rules.agents import encode, returns  # noqa: E402

OPTIONS = {
    "placement": "mandatory",
    "merfolk_checkpoints": "one_per_move",
    "elves_keep": "exactly_x",
    "wizard_draw": "up_to_x",
    "orc_empty": "any_subset",
}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sim_test(players: int) -> None:
    game = pyspiel.load_game("python_ethnos", {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_with_options_and_tribes() -> None:
    params = {"players": 4, "tribes": "CEN/ELF/MER/ORC/SKE/WIZ", **OPTIONS}
    game = pyspiel.load_game("python_ethnos", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def deep_states(game: Any, seed: int, every: int = 23) -> list[Any]:
    """States all along one random game (OpenSpiel's sampler stays near the start)."""
    rng = random.Random(seed)
    state, out = game.new_initial_state(), []
    while not state.is_terminal():
        if len(state.history()) % every == 0:
            out.append(state.clone())
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return [*out, state]


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 5, **OPTIONS}])
def test_partial_tree_api_checks(params: dict[str, Any]) -> None:
    """OpenSpiel's EnforceAPIOnPartialTree tests: legal actions empty for players not to
    move, observations refuse invalid players, private information present, no invalid
    public observation, sequence lengths within the bounds."""
    game = pyspiel.load_game("python_ethnos", params)

    class PartialTree(api_test.EnforceAPIOnPartialTreeBase):
        @classmethod
        def setUpClass(cls) -> None:
            cls.game, cls.game_name = game, "python_ethnos"
            cls.game_type = game.get_type()
            cls.some_states = [
                *sample_some_states.sample_some_states(game, max_states=150),
                *deep_states(game, seed=1),
            ]

    suite = unittest.defaultTestLoader.loadTestsFromTestCase(PartialTree)
    result = unittest.TextTestRunner(verbosity=0, stream=_Null()).run(suite)
    assert result.testsRun == 5
    assert not result.failures and not result.errors, result.failures + result.errors


class _Null:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def test_the_game_follows_the_rules() -> None:
    """Ids, chance and returns agree with the rules' own functions along a game."""
    game = pyspiel.load_game("python_ethnos", {"players": 3})
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        rules_state = state.game_state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
            state.apply_action(rng.choices(*zip(*outcomes, strict=True))[0])
            continue
        ids = state.legal_actions()
        if not state.node.band:
            firsts = {encode(a)[0] for a in legal_actions(rules_state)}
            assert set(ids) == firsts
        for other in range(game.num_players()):
            if other != state.current_player():
                assert state.legal_actions(other) == []
        state.apply_action(rng.choice(ids))
    assert state.returns() == list(returns(state.game_state))
    assert sum(state.returns()) == pytest.approx(0)


def test_observers_honour_what_they_are_asked() -> None:
    game = pyspiel.load_game("python_ethnos", {"players": 2, "tribes": "DWA/ELF/GIA/MER/ORC"})
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 40:
        state.apply_action(
            state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0]
        )
    hand = state.game_state.players[1].hand
    kinds = pyspiel.PrivateInfoType

    def text(public: bool, private: Any, recall: bool = False) -> str:
        obs_type = pyspiel.IIGObservationType(
            public_info=public, perfect_recall=recall, private_info=private
        )
        observer = game.make_py_observer(obs_type)
        return str(observer.string_from(state, 0))

    assert all(
        card.code not in text(True, kinds.SINGLE_PLAYER).split("hand:")[-1]
        or card in state.game_state.players[0].hand
        for card in hand
    )
    assert "hand:" not in text(True, kinds.NONE)
    assert "seat 1 hand: " + " ".join(c.code for c in hand) in text(True, kinds.ALL_PLAYERS)
    assert "reveal ?" in text(True, kinds.SINGLE_PLAYER, recall=True)
    assert text(True, kinds.NONE, recall=True).count("reveal ?") > text(
        True, kinds.SINGLE_PLAYER, recall=True
    ).count("reveal ?")
    assert "reveal ?" not in text(True, kinds.ALL_PLAYERS, recall=True)
    with pytest.raises(ValueError, match="needs public_info"):
        text(False, kinds.SINGLE_PLAYER, recall=True)
    for recall in (False, True):
        observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
        for seat in (-1, 2, True):
            for ask in (observer.string_from, observer.set_from):
                with pytest.raises(SetupError, match="SETUP-1"):
                    ask(state, seat)


def test_information_states_are_perfect_recall_and_hide_other_hands() -> None:
    """Two games that differ only in seat 1's hidden draw look the same to seat 0."""
    game = pyspiel.load_game("python_ethnos", {"players": 2, "tribes": "DWA/ELF/GIA/MER/ORC"})

    def after(deal: int) -> Any:
        state = game.new_initial_state()
        while len(state.history()) < 8:  # 6 token layouts, first player 0, seat 0 dealt
            state.apply_action(state.chance_outcomes()[0][0])
        state.apply_action(state.chance_outcomes()[deal][0])  # seat 1's starting card
        return state

    one, two = after(0), after(1)
    assert one.information_state_string(0) == two.information_state_string(0)
    assert list(one.information_state_tensor(0)) == list(two.information_state_tensor(0))
    assert one.information_state_string(1) != two.information_state_string(1)


def test_states_pickle_and_bad_parameters_are_refused() -> None:
    game = pyspiel.load_game("python_ethnos", {"players": 4})
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(
            state.chance_outcomes()[-1][0] if state.is_chance_node() else state.legal_actions()[-1]
        )
    # pyspiel's own pickling (its serialisation) rebuilds the C++ side of the state too: the
    # copies play on, apart from the original.
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert str(again) == str(state) and again.node == state.node
        assert again.recall == state.recall
        assert again.played.length == state.played.length > 20
        assert again.history() == state.history()
        assert again.legal_actions() == state.legal_actions()
        assert again.current_player() == state.current_player()
        again.apply_action(again.legal_actions()[0])
        assert len(again.history()) == len(state.history()) + 1
        assert again.clone().history() == again.history()
    with pytest.raises(SetupError, match="SETUP-1"):
        ethnos_rules.openspiel.EthnosGame({"players": 7})
    with pytest.raises(RulesError, match="OPTIONS"):
        ethnos_rules.openspiel.EthnosGame({"players": 2, "placement": "sometimes"})


def test_games_copy_and_pickle_and_tribes_with_commas_serialise() -> None:
    """A game copied or pickled is the game made anew from its parameters; tribes separated
    by commas are kept separated by "/", so the game's string, and with it every copy of a
    state, reads back."""
    game = pyspiel.load_game("python_ethnos", {"players": 3, "tribes": "ELF,DWA,GIA,MER,ORC"})
    assert "tribes=ELF/DWA/GIA/MER/ORC," in str(game)
    assert str(pyspiel.load_game(str(game))) == str(game)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and again.legal_actions() == state.legal_actions()
    _, read = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(read) == str(state)
    for protocol in (0, 1):  # pyspiel's serialisation needs 2: refused, not an abort
        with pytest.raises(pickle.PicklingError, match="protocol 2 or later"):
            pickle.dumps(state, protocol)
    for copied in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game, 0))):
        assert str(copied) == str(game) and copied.tribes == game.tribes
        fresh = copied.new_initial_state()
        assert fresh.chance_outcomes() == game.new_initial_state().chance_outcomes()
        copied.make_py_observer()


def test_information_state_tensors_are_the_librarys_information_states() -> None:
    """Worked out only when asked for, a seat's information state tensor is the library's
    information_state of the decisions so far, seat by seat, after the observer's one-hot."""
    from ethnos_rules import GameRecord, information_state
    from ethnos_rules.agents import information_state_tensor, max_history_tokens

    game = pyspiel.load_game("python_ethnos", {"players": 3})
    rng, state = random.Random(5), game.new_initial_state()
    start, checked = state.game_state, 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.node.band or (len(state.history()) % 97 and not state.is_terminal()):
            continue
        record = GameRecord.from_start(start, [d for d, _ in state.played.pairs()])
        for seat in range(3):
            tensor = state.information_state_tensor(seat)
            info = information_state(record, seat)
            assert tensor[seat] == 1 and list(tensor[6:]) == list(
                information_state_tensor(info, max_history_tokens(3))
            )
        checked += 1
    assert checked >= 3


def _played_to(game: Any, rng: random.Random, stop: Callable[[Any], bool]) -> Any:
    """A state of a random game of ``game``, played until ``stop`` says so."""
    state = game.new_initial_state()
    while not stop(state):
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _replayed(game: Any, state: Any) -> Any:
    """A state reached by applying ``state``'s history id by id, as OpenSpiel would."""
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 4, **OPTIONS}])
def test_resample_from_infostate_keeps_what_the_seat_knows(params: dict[str, Any]) -> None:
    """A resampled state looks the same to the seat (information state, observation, legal
    ids, the band being built), is a whole game OpenSpiel can replay from its history, and
    hides what the seat did not see: the other hands differ from draw to draw."""
    game = pyspiel.load_game("python_ethnos", params)
    rng, checked, bands, differ = random.Random(2), 0, 0, 0
    for seed in range(3):
        for cut in (60, 170, 330):
            state = _played_to(
                game,
                random.Random(seed),
                lambda s, cut=cut: (
                    s.is_terminal()  # type: ignore[misc]
                    or (len(s.history()) >= cut and not s.is_chance_node())
                ),
            )
            if state.is_terminal():
                continue
            bands += bool(state.node.band)
            for seat in range(game.num_players()):
                drawn = state.resample_from_infostate(seat, rng)
                assert drawn.information_state_string(seat) == state.information_state_string(seat)
                assert drawn.observation_string(seat) == state.observation_string(seat)
                assert list(drawn.information_state_tensor(seat)) == list(
                    state.information_state_tensor(seat)
                )
                assert drawn.node.band == state.node.band
                assert drawn.current_player() == state.current_player()
                assert drawn.legal_actions(seat) == state.legal_actions(seat)
                assert len(drawn.history()) == len(state.history())
                # The other seats' views, worked out only when asked, are the replay's.
                again = _replayed(game, drawn)
                assert again.node == drawn.node
                for other in range(game.num_players()):
                    assert drawn.information_state_string(other) == (
                        again.information_state_string(other)
                    )
                differ += any(
                    drawn.game_state.players[other].hand != state.game_state.players[other].hand
                    for other in range(game.num_players())
                    if other != seat
                )
                checked += 1
    assert checked >= 12 and differ >= checked // 2


def test_resample_from_infostate_takes_a_band_begun_seeds_and_samplers() -> None:
    game = pyspiel.load_game("python_ethnos", {"players": 3})
    state = _played_to(game, random.Random(1), lambda s: len(s.node.band) >= 2)
    seat = state.current_player()
    drawn = state.resample_from_infostate(seat, random.Random(7))
    assert drawn.node.band == state.node.band and drawn.legal_actions() == state.legal_actions()
    assert drawn.history()[-2:] == state.history()[-2:]
    # The same seed, the same world; a pickle of it plays on.
    again = state.resample_from_infostate(seat, random.Random(7))
    assert again.node == drawn.node
    copied = pickle.loads(pickle.dumps(drawn))
    assert copied.node == drawn.node and copied.history() == drawn.history()
    # OpenSpiel's sampler, as its ISMCTS passes it; numpy's generator.
    for sampler in (pyspiel.UniformProbabilitySampler(0.0, 1.0), np.random.default_rng(3)):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
    for bad in (None, 3, lambda: 1.5):
        with pytest.raises(RulesError, match="CHANCE"):
            state.resample_from_infostate(seat, bad)
    for player in (-1, 3, True):
        with pytest.raises(SetupError, match="SETUP-1"):
            state.resample_from_infostate(player, random.Random(0))


def test_ismcts_plays_a_whole_game_against_a_library_bot() -> None:
    """OpenSpiel's own ISMCTSBot, out of the box (its default sampler and information-state
    keys), with a tiny budget, against the greedy bot played through BotPlayer."""
    from open_spiel.python.algorithms import ismcts

    from ethnos_rules.bots import bot
    from ethnos_rules.openspiel import BotPlayer, RandomPlayouts

    game = pyspiel.load_game("python_ethnos", {"players": 2})
    searcher = ismcts.ISMCTSBot(
        game, RandomPlayouts(1, rng=1), uct_c=2.0, max_simulations=2,
        random_state=np.random.RandomState(1),
    )  # fmt: skip
    players = [searcher, BotPlayer(bot("greedy"), rng=2)]
    state, rng, searched = game.new_initial_state(), np.random.RandomState(3), 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(ids, p=probs))
        else:
            searched += state.current_player() == 0 and len(state.legal_actions()) > 1
            state.apply_action(players[state.current_player()].step(state))
    assert searched > 50
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]


def test_random_playouts_and_bot_players_refuse_bad_arguments() -> None:
    from ethnos_rules.bots import bot
    from ethnos_rules.openspiel import BotPlayer, RandomPlayouts

    game = pyspiel.load_game("python_ethnos", {"players": 3})
    state = _played_to(game, random.Random(4), lambda s: not s.is_chance_node())
    value = RandomPlayouts(4, rng=random.Random(0)).evaluate(state)
    assert value.shape == (3,) and sum(value) == pytest.approx(0) and max(value) > 0
    assert sum(p for _, p in RandomPlayouts().prior(state)) == pytest.approx(1)
    for playouts in (0, 1.5, True):
        with pytest.raises(ValueError, match="playouts"):
            RandomPlayouts(playouts)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="CHANCE"):
        RandomPlayouts(1, rng="seed")
    with pytest.raises(SetupError, match="SETUP-1"):
        BotPlayer("greedy")  # type: ignore[arg-type]
    player = BotPlayer(bot("random"), rng=0)
    ids: list[int] = []
    while not ids or state.node.band:  # a decision, id by id
        ids.append(player.step(state))
        state.apply_action(ids[-1])
    chance = _played_to(game, random.Random(4), lambda s: True)
    with pytest.raises(WrongDecisionError):
        player.step(chance)


def test_information_state_tokens_are_the_tensors_tokens() -> None:
    from ethnos_rules.agents import NUM_TOKENS, token_text

    game = pyspiel.load_game("python_ethnos", {"players": 3})
    state = _played_to(game, random.Random(6), lambda s: len(s.node.band) >= 2)
    for seat in range(3):
        tokens = state.information_state_tokens(seat)
        tensor = state.information_state_tensor(seat)
        band = list(state.node.band)  # what everyone sees being built
        assert tokens[-len(band) :] == band
        assert [int(v) - 1 for v in tensor[6 : 6 + len(tokens)]] == tokens
        assert tensor[6 + len(tokens)] == 0 and all(0 <= t < NUM_TOKENS for t in tokens)
        assert "reveal ?" in [token_text(t) for t in tokens]


def test_decisions_are_counted_and_a_clone_logs_its_own() -> None:
    """``state.decisions`` counts each chance outcome and a band once (not its Leader and
    cards); the events are worked out when asked for, and a clone, made before or after that,
    shares the decisions so far and logs its own from there."""
    from ethnos_rules.agents import block_of

    def steps(state: Any, count: int, rng: random.Random) -> None:
        for _ in range(count):
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    def counted(state: Any) -> int:
        return sum(block_of(a).name not in ("band leader", "band add") for a in state.history())

    game = pyspiel.load_game("python_ethnos", {"players": 4})
    rng = random.Random(11)
    state = _played_to(game, rng, lambda s: len(s.history()) >= 300 and not s.node.band)
    early = state.clone()  # before the events are worked out
    assert state.decisions == counted(state) == state.played.length
    late = state.clone()  # after
    for clone in (early, late):
        steps(clone, 60, rng)
        assert clone.decisions == counted(clone) == clone.played.length > state.decisions
        assert clone.played.decisions()[: state.decisions] == state.played.decisions()
    assert state.decisions == state.played.length == counted(state)
    assert _replayed(game, late).played.pairs() == late.played.pairs()
