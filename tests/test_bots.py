"""The library's bots (``ethnos_rules.bots``): whole games for 2 to 6 players with random tribes
and every rule option, every kind of decision met by each bot, the same choice from the same
information, the worlds the bots draw, the search bots' budgets and settings, the strength of
the quick bots, and typed errors for bad input.

The search bots play here with budgets of a few simulations: what is tested is that they play
legally, fairly and reproducibly; how strong they are is measured by ``scripts/ladder.py``.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from ethnos_rules import (
    FIRST_EDITION,
    Action,
    DecisionKind,
    EmptyHorde,
    GameOverError,
    GameRecord,
    GameState,
    IllegalActionError,
    InformationState,
    Options,
    PlayBand,
    Playthrough,
    RecordError,
    RulesError,
    SetupError,
    WrongDecisionError,
    apply,
    information_state,
    is_terminal,
    legal_actions,
    new_game,
    observation,
    parse_action,
    pending_decision,
    play_random,
    redact,
    resample,
    sample_outcome,
    winners,
)
from ethnos_rules.bots import (
    BOTS,
    DEFAULT_SIMULATIONS,
    Bot,
    Budget,
    GreedyBot,
    ISMCTSBot,
    MonteCarloBot,
    RandomBot,
    ThumbBot,
    UnknownBotError,
    Worlds,
    bot,
    determinize,
    lead,
    play,
    playout,
    rules_of_thumb,
    search_moves,
    uniform_policy,
    win_shares,
)
from ethnos_rules.bots._worlds import CHECKPOINTS, nothing_hidden
from hoarding import hoarding_game

PLAYER_DECISIONS = {
    DecisionKind.TURN,
    DecisionKind.PLACEMENT,
    DecisionKind.MERFOLK_CHECKPOINT,
    DecisionKind.ORC_HORDE,
    DecisionKind.TROLL_TOKEN,
    DecisionKind.CENTAUR_CHAIN,
    DecisionKind.ELF_KEEP,
    DecisionKind.WIZARD_COUNT,
    DecisionKind.HORDE_EMPTY,
}
"""Every kind of decision a player makes (the rest are chance events and the game's end)."""

CODES = [tribe.code for tribe in FIRST_EDITION.tribes]
CHOICES: dict[str, Any] = Options.choices()

SMALL: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "thumb": ThumbBot,
    "mc": lambda: MonteCarloBot(simulations=2),
    "ismcts": lambda: ISMCTSBot(simulations=3),
    "ismcts-strong": lambda: ISMCTSBot(simulations=4, name="ismcts-strong"),
}
"""Each bot of :data:`BOTS`, the search bots with a budget of a few simulations."""

GAME_BUDGETS: dict[str, Callable[[], Bot]] = {
    **SMALL,
    "mc": lambda: MonteCarloBot(simulations=1),
    "ismcts": lambda: ISMCTSBot(simulations=2),
}
"""The bots of the whole games: the searches at one or two simulations (a playout of a game
for 6 players is hundreds of decisions; the games test that every bot plays them through)."""

KINDS = ["random", "greedy", "thumb", "mc", "ismcts"]
"""The kinds of bot of :data:`SMALL` (``ismcts-strong`` is ``ismcts`` with more simulations)."""

SEATING = [
    ["ismcts", "mc"],
    ["thumb", "ismcts", "greedy"],
    ["mc", "random", "thumb", "greedy"],
    ["random", "greedy", "ismcts", "thumb", "random"],
    ["greedy", "thumb", "random", "mc", "random", "greedy"],
]
"""The bots at the seats of the games for 2 to 6 players: each kind in three games or more,
the searches seldom in the long games of many players."""


def test_small_lists_every_bot() -> None:
    assert list(SMALL) == list(BOTS)
    assert {type(make()) for make in SMALL.values()} == {type(bot(k)) for k in KINDS}


def options_for(game: int) -> Options:
    """The rule options of the ``game``-th game: each switch takes each of its values in some
    game of the five (value ``(game + switch) % 2``), so every option is played both ways."""
    return Options(
        **{
            name: values[(game + i) % len(values)]
            for i, (name, values) in enumerate(CHOICES.items())
        }
    )


def tribe_sets(rng: random.Random) -> list[list[str]]:
    """The tribes of the games for 2 to 6 players: the twelve tribes in a random order, dealt
    round and round to the games (5 for 2–3 players, 6 for 4–6), so each is in two or three."""
    order = rng.sample(CODES, len(CODES)) * 3
    sets, taken = [], 0
    for players in range(2, 7):
        count = 5 if players <= 3 else 6
        sets.append(order[taken : taken + count])
        taken += count
    return sets


class Checked:
    """A bot that checks, at every 29th decision, that what it is given is what
    :func:`~ethnos_rules.information_state` reads from the record so far."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.description = inner.description
        self.calls = self.checked = 0

    def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
        if self.calls % 29 == 0:
            assert information_state(knowledge.record()) == knowledge
            self.checked += 1
        self.calls += 1
        return self.inner.choose(knowledge, rng)


@pytest.fixture(scope="module")
def games() -> list[tuple[Playthrough, dict[int, Checked]]]:
    """One whole game for each of 2 to 6 players, the bots of :data:`SEATING` at the seats,
    with the tribes of :func:`tribe_sets` and the options of :func:`options_for`."""
    rng = random.Random(5)
    tribes = tribe_sets(rng)
    played = []
    for index, players in enumerate(range(2, 7)):
        bots = {seat: Checked(GAME_BUDGETS[kind]()) for seat, kind in enumerate(SEATING[index])}
        start = new_game(players, tribes=tribes[index], options=options_for(index))
        played.append((play(start, bots, rng), bots))
    return played


def test_the_games_cover_every_tribe_every_option_and_every_bot(
    games: list[tuple[Playthrough, dict[int, Checked]]],
) -> None:
    tribes = [tribe.code for game, _ in games for tribe in game.start.tribes]
    assert {code: tribes.count(code) >= 2 for code in CODES} == dict.fromkeys(CODES, True)
    for name, values in CHOICES.items():
        assert {getattr(game.start.options, name) for game, _ in games} == set(values), name
    seated = Counter(one.name for _, bots in games for one in bots.values())
    assert {kind: seated[kind] >= 3 for kind in KINDS} == dict.fromkeys(KINDS, True)


def test_every_bot_plays_whole_games_for_2_to_6_players(
    games: list[tuple[Playthrough, dict[int, Checked]]],
) -> None:
    """GAME-1: each game ends, and its record (the bots' decisions) validates."""
    for game, _ in games:
        assert is_terminal(game.final)
        assert winners(game.final)
        assert GameRecord.from_playthrough(game).replay() == game.final


def test_play_gives_each_bot_what_its_seat_knows(
    games: list[tuple[Playthrough, dict[int, Checked]]],
) -> None:
    """The information state ``play`` keeps up step by step, with no replay, is the one
    :func:`~ethnos_rules.information_state` reads from the record so far (checked by
    :class:`Checked` in every game, at every 29th decision of each bot)."""
    for _, bots in games:
        for one in bots.values():
            assert one.checked >= 2


# --- every kind of decision -------------------------------------------------------------------


def thumb_game(players: int, seed: int, tribes: list[str], options: Options) -> Playthrough:
    """A whole game played by :func:`rules_of_thumb` on the whole state (it reads only the
    decider's hand and what is public), chance drawn with its exact probabilities: hands grow
    larger than in random play, so large bands come up."""
    rng = random.Random(seed)
    start = state = new_game(players, tribes=tribes, options=options)
    actions = []
    while not is_terminal(state):
        if state.pending.chance:
            action = sample_outcome(state, rng)
        elif rng.random() < 0.25:  # a little randomness, for small bands and declines
            action = rng.choice(legal_actions(state))
        else:
            action = rules_of_thumb(state, legal_actions(state), rng)
        state = apply(state, action)
        actions.append(action)
    return Playthrough(start, tuple(actions), state)


WANTED = [kind.value for kind in PLAYER_DECISIONS] + ["band of 1", "band of 5 or more"]


def kinds_of(state: GameState, legal: tuple[Action, ...]) -> list[str]:
    """The kind of the decision, and ``band of 1`` (only bands of 1 card offered) or ``band
    of 5 or more``."""
    bands = [1 + len(a.others) for a in legal if isinstance(a, PlayBand)]
    names = [state.pending.kind.value]
    if bands and max(bands) == 1:
        names.append("band of 1")
    if bands and max(bands) >= 5:
        names.append("band of 5 or more")
    return names


@pytest.fixture(scope="module")
def every_kind() -> dict[str, tuple[GameRecord, int]]:
    """For each kind of decision (and a turn offering bands of 1 card only, and one offering a
    band of 5 cards or more), a game so far where a seat makes it among several actions."""
    found: dict[str, tuple[GameRecord, int]] = {}
    tribes = ["CEN", "ELF", "MER", "ORC", "TRO", "WIZ"]
    for seed in range(12):
        played = [thumb_game(4, seed, tribes, options_for(seed)), hoarding_game(4, seed)]
        for game in played:
            state = game.start
            for index, action in enumerate(game.actions):
                seat = state.pending.seat
                legal = legal_actions(state)
                if not state.pending.chance and seat is not None and len(legal) > 1:
                    for name in kinds_of(state, legal):
                        if name not in found:
                            so_far = GameRecord.from_start(game.start, game.actions[:index])
                            found[name] = (so_far, seat)
                state = apply(state, action)
        if set(found) >= set(WANTED):
            break
    return found


@pytest.mark.parametrize("name", KINDS)
def test_every_bot_decides_every_kind_of_decision(
    name: str, every_kind: dict[str, tuple[GameRecord, int]]
) -> None:
    """Bands built whole (of 1 card, and of 5 or more), placements, every tribe's ability
    (Centaur chains, Orc Hordes, Troll tokens, Merfolk checkpoints, Elves' keeps, Wizards) and
    the end-of-Age Horde: each bot chooses a legal action at each."""
    assert sorted(every_kind) == sorted(WANTED)
    for kind, (so_far, seat) in every_kind.items():
        choice = SMALL[name]().choose(information_state(so_far, seat), random.Random(1))
        assert choice in legal_actions(so_far.replay()), (name, kind)


# --- the same information, the same choice --------------------------------------------------------


def decision_points(players: int, seed: int) -> list[tuple[GameRecord, int]]:
    """Prefixes of a random game, every 20th decision or so, each ending where a player
    decides among several actions, with that seat."""
    game = play_random(players, seed=seed)
    points = []
    state = game.start
    for index, action in enumerate(game.actions):
        if not state.pending.chance and len(legal_actions(state)) > 2 and index % 20 == 0:
            seat = state.pending.seat
            assert seat is not None
            points.append((GameRecord.from_start(game.start, game.actions[:index]), seat))
        state = apply(state, action)
    return points


Alike = tuple[InformationState, InformationState, GameState, GameState]


def look_alike(players: int, seed: int, count: int) -> list[Alike]:
    """``count`` decisions of a random game, each with two whole games drawn to fit the
    deciding seat's record that differ in cards the seat did not see: what the seat saw of
    each (equal), and each game's state."""
    out = []
    for so_far, seat in decision_points(players, seed):
        mine = redact(so_far, seat)
        one = resample(mine, random.Random(0))
        other = (resample(mine, random.Random(draw)) for draw in range(1, 20))
        two = next((drawn for drawn in other if drawn.actions != one.actions), None)
        if two is None:
            continue
        seen = [information_state(GameRecord.from_playthrough(g), seat) for g in (one, two)]
        assert seen[0] == seen[1] and one.final != two.final
        out.append((seen[0], seen[1], one.final, two.final))
        if len(out) == count:
            return out
    raise AssertionError("too few decisions with hidden cards")


@pytest.mark.parametrize("name", list(BOTS))
@pytest.mark.parametrize("players", [2, 4])
def test_two_games_that_look_alike_get_the_same_choice(name: str, players: int) -> None:
    """Two whole games drawn to fit one seat's record (different hidden cards) look the same
    from that seat; the bot, given what it saw of each, chooses the same with the same seed,
    whatever checkpoints its process has kept."""
    for mine, theirs, one, two in look_alike(players, seed=players, count=3):
        choices = [SMALL[name]().choose(k, random.Random(7)) for k in (mine, theirs)]
        assert choices[0] == choices[1]
        assert choices[0] in legal_actions(one) and choices[0] in legal_actions(two)
        CHECKPOINTS.clear()  # the same information and the same seed, in a fresh process
        assert SMALL[name]().choose(theirs, random.Random(7)) == choices[0]


def test_a_budget_in_simulations_replays_the_same_search() -> None:
    """The search bots' choices are the same with the same seed, and a seed that does not
    always choose the same shows the search is not blind to its generator."""
    knowledge = look_alike(2, seed=8, count=1)[0][0]
    for make in (ISMCTSBot, MonteCarloBot):
        again = {str(make(simulations=12).choose(knowledge, random.Random(3))) for _ in range(2)}
        assert len(again) == 1
        # without the pull towards the playout policy's move, a few simulations differ
        blind = make(simulations=12, prior=0)
        assert len({str(blind.choose(knowledge, random.Random(s))) for s in range(12)}) >= 2


# --- the worlds the bots draw -------------------------------------------------------------------


def test_determinize_draws_a_world_the_seat_cannot_tell_apart() -> None:
    so_far, seat = decision_points(3, seed=9)[2]
    knowledge = information_state(so_far, seat)
    truth = so_far.replay()
    for draw in range(5):
        world = determinize(knowledge, random.Random(draw))
        assert world.pending.seat == seat
        assert legal_actions(world) == legal_actions(truth)
        assert observation(world, seat) == observation(truth, seat)
        # every card is somewhere: the seat's unseen cards are a reshuffle of the true ones
        unseen = [Counter(p.hand) for s, p in enumerate(world.players) if s != seat]
        true_unseen = [Counter(p.hand) for s, p in enumerate(truth.players) if s != seat]
        assert sum(unseen, Counter()) + Counter(
            world.rules.cards[i] for i, n in enumerate(world.deck) for _ in range(n)
        ) == sum(true_unseen, Counter()) + Counter(
            truth.rules.cards[i] for i, n in enumerate(truth.deck) for _ in range(n)
        )


def test_a_checkpoint_is_the_same_state_in_every_world() -> None:
    """The worlds are drawn from the last point of the record where the seat knows the whole
    state (every other hand empty, no other hand discarded at the end of the Age): at every
    such point, whole games drawn with different seeds are in the same state."""
    points = 0
    for players, seed in [(2, 1), (4, 3), (6, 5)]:
        game = play_random(players, seed=seed)
        cut = GameRecord.from_start(game.start, game.actions[: len(game.actions) * 2 // 3])
        for seat in range(players):
            mine = redact(cut, seat)
            drawn = [list(resample(mine, random.Random(d)).states()) for d in range(3)]
            assert drawn[0] != drawn[1]  # the worlds differ somewhere
            known = [
                [(i, s) for i, s in enumerate(states) if nothing_hidden(s, seat)]
                for states in drawn
            ]
            assert known[0] == known[1] == known[2]
            points += len(known[0])
    assert points > 100


def test_the_worlds_drawn_do_not_depend_on_the_checkpoints_kept() -> None:
    so_far, seat = decision_points(4, seed=2)[-1]
    knowledge = information_state(so_far, seat)
    CHECKPOINTS.clear()
    cold = [Worlds(knowledge).draw(random.Random(d)) for d in range(3)]
    CHECKPOINTS.clear()
    for cut in range(60, len(knowledge.decisions), 40):  # a record growing, as in a game
        earlier = attrs.evolve(knowledge, decisions=knowledge.decisions[:cut])
        with contextlib.suppress(RulesError):  # not the seat's decision: a checkpoint all the same
            Worlds(earlier)
    warm = Worlds(knowledge)
    assert warm.replayed < len(knowledge.decisions)
    assert [warm.draw(random.Random(d)) for d in range(3)] == cold


def test_the_worlds_drawn_follow_resample() -> None:
    """Drawn from the checkpoint or by ``resample`` from the start, the other player's hand
    holds each card kind as often (300 draws each; within 4 standard errors)."""
    game = play_random(2, seed=11)
    so_far, seat = next(
        (GameRecord.from_start(game.start, game.actions[:i]), s.pending.seat)
        for i, s in enumerate(game.states())
        if i > 120 and s.pending.seat is not None and len(s.players[1 - s.pending.seat].hand) >= 4
    )
    assert seat is not None
    knowledge, mine = information_state(so_far, seat), redact(so_far, seat)
    worlds = Worlds(knowledge)
    assert worlds.replayed < len(knowledge.decisions)
    rng = random.Random(4)
    ours = [Counter(worlds.draw(rng).players[1 - seat].hand) for _ in range(300)]
    theirs = [Counter(resample(mine, rng).final.players[1 - seat].hand) for _ in range(300)]
    kinds = set().union(*ours, *theirs)
    assert len(kinds) >= 4
    for kind in kinds:
        a = [c[kind] for c in ours]
        b = [c[kind] for c in theirs]
        mean_a, mean_b = sum(a) / 300, sum(b) / 300
        spread = (sum((x - mean_a) ** 2 for x in a + b) / 600) ** 0.5
        assert abs(mean_a - mean_b) <= 4 * spread * (2 / 300) ** 0.5 + 1e-9, kind


# --- the search bots ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def midgame() -> InformationState:
    so_far, seat = decision_points(4, seed=6)[4]
    return information_state(so_far, seat)


@pytest.mark.parametrize("make", [ISMCTSBot, MonteCarloBot])
def test_a_budget_in_seconds_is_kept(make: type[ISMCTSBot], midgame: InformationState) -> None:
    """With seconds only, the search runs until the time is up (from the call, the world's
    first draw included) and stops within one simulation of it."""
    Worlds(midgame)  # the checkpoint found once, as in a game
    one = make(seconds=0.4)
    started = time.perf_counter()
    choice = one.choose(midgame, random.Random(0))
    took = time.perf_counter() - started
    assert choice in legal_actions(determinize(midgame, random.Random(0)))
    assert 0.4 <= took < 0.4 + 0.6, took  # a simulation takes tens of ms; the machine is busy
    capped = make(simulations=3, seconds=30.0)  # the count comes first
    started = time.perf_counter()
    capped.choose(midgame, random.Random(0))
    assert time.perf_counter() - started < 10


def test_budgets_and_settings_are_checked() -> None:
    assert Budget(simulations=5).reproducible and not Budget(seconds=1.0).reproducible
    budgets: list[tuple[dict[str, Any], str]] = [
        ({"simulations": 0}, "whole number of 1 or more"),
        ({"simulations": 2.5}, "whole number of 1 or more"),
        ({"simulations": True}, "whole number of 1 or more"),
        ({"simulations": {2: 5, 3: 4}}, "one for each player count from 2 to 6"),
        ({"simulations": {n: 0 for n in range(2, 7)}}, "one for each player count from 2 to 6"),
        ({"seconds": 0}, "a number above 0"),
        ({"seconds": "1"}, "a number above 0"),
        ({}, "needs simulations, seconds or both"),
    ]
    for bad, words in budgets:
        with pytest.raises(ValueError, match=words):
            Budget(**bad)
    settings: list[tuple[dict[str, Any], str]] = [
        ({"playout": "smart"}, "no playout policy 'smart'; the policies: thumb, random"),
        ({"exploration": -1}, "exploration must be a number of 0 or more"),
        ({"value": "glory"}, "no value 'glory'; the values: margin, win"),
        ({"simulations": -3}, "whole number of 1 or more"),
    ]
    for bad, words in settings:
        for make in (ISMCTSBot, MonteCarloBot):
            with pytest.raises(ValueError, match=words):
                make(**bad)
    assert repr(ISMCTSBot(simulations=9, seconds=0.5, playout="random")) == (
        "ISMCTSBot(simulations=9, seconds=0.5, playout='random')"
    )


def test_a_decision_with_one_move_worth_searching_takes_no_simulation() -> None:
    """A seat with one legal move, or one move worth searching, gets it at once."""
    so_far, seat = next(
        (GameRecord.from_start(g.start, g.actions[:i]), s.pending.seat)
        for g in [play_random(2, seed=2)]
        for i, s in enumerate(g.states())
        if s.pending.seat is not None and len(search_moves(s, legal_actions(s))) == 1
    )
    assert seat is not None
    started = time.perf_counter()
    ISMCTSBot(simulations=10_000).choose(information_state(so_far, seat), random.Random(0))
    assert time.perf_counter() - started < 2


def test_search_moves_keep_the_largest_band_of_each_leader_and_group(
    every_kind: dict[str, tuple[GameRecord, int]],
) -> None:
    """Every move but the bands is kept; every legal band is contained in a kept band with the
    same Leader card and of the same kind of group (one tribe, or one colour)."""
    so_far, _ = every_kind["band of 5 or more"]
    state = so_far.replay()
    legal = legal_actions(state)
    kept = search_moves(state, legal)
    assert set(kept) <= set(legal) and len(kept) < len(legal)
    assert [a for a in legal if not isinstance(a, PlayBand)] == [
        a for a in kept if not isinstance(a, PlayBand)
    ]

    def one_tribe(band: PlayBand) -> bool:
        return all(c.wild or c.tribe is band.leader.tribe for c in band.others)

    for band in (a for a in legal if isinstance(a, PlayBand)):
        cards = Counter(band.cards)
        assert any(
            isinstance(k, PlayBand)
            and k.leader == band.leader
            and one_tribe(k) == one_tribe(band)
            and cards <= Counter(k.cards)
            for k in kept
        ), str(band)


def test_playouts_end_the_game_and_value_the_victory() -> None:
    state = play_random(3, seed=1).start
    for policy in (rules_of_thumb, uniform_policy):
        final = playout(state, policy, random.Random(2))
        assert is_terminal(final)
        shares = win_shares(final)
        best = winners(final)
        assert sum(shares) == pytest.approx(1.0)
        assert [s for s in range(3) if shares[s] > 0] == list(best)


# --- the quick bots' strength ------------------------------------------------------------------


def wins(players: int, games: int, mine: Callable[[], Bot], other: Callable[[], Bot]) -> float:
    """The games won by ``mine`` (shared victories counted as shares), in seat ``game %
    players``, the others' seats held by ``other``, each game seeded by its number."""
    won = 0.0
    for seed in range(games):
        seat = seed % players
        bots = {s: mine() if s == seat else other() for s in range(players)}
        best = winners(play(new_game(players), bots, random.Random(seed)).final)
        won += 1 / len(best) if seat in best else 0
    return won


def test_greedy_beats_random() -> None:
    """Greedy wins at least 8 of 10 seeded 2-player games against random, in seat ``game % 2``.

    Why 8 is safe: over 200 games the greedy bot of the bots guide won 96 % (95 % interval
    92 %–98 %). At 96 %, 7 wins or fewer in 10 games happen with probability 0.6 %, at 92 % with
    4 %; the seeds are fixed, so the test is deterministic, and it fails only if a change to
    the rules or the bots makes this set of seeds fall in that tail, or greedy stops being
    greedy (at 50 %, a bot no better than random, 8 or more happens 5 % of the time).
    """
    assert wins(2, 10, GreedyBot, RandomBot) >= 8


def test_the_rules_of_thumb_beat_greedy() -> None:
    """The thumb bot wins at least 8 of 10 seeded 2-player games against greedy: it won 94 %
    to 98 % of several hundred such games while its rules were chosen (the bots guide), and at
    94 % fewer than 8 wins in 10 happen 2 % of the time; a bot no better than greedy reaches 8
    with probability 5 %."""
    assert wins(2, 10, ThumbBot, GreedyBot) >= 8


def test_greedy_empties_the_whole_horde_and_keeps_the_best_lead() -> None:
    """TRIBE-ORC-2: at the end of an Age the greedy bot empties the whole Horde; elsewhere its
    choice has the best :func:`~ethnos_rules.bots.lead` of all legal actions."""
    seen_horde = seen_turn = 0
    for seed in range(40):
        game = play_random(2, seed=seed, tribes=["CEN", "ORC", "ELF", "WIZ", "MER"])
        state = game.start
        for index, action in enumerate(game.actions):
            decision = pending_decision(state)
            interesting = decision.kind is DecisionKind.HORDE_EMPTY or (
                decision.kind is DecisionKind.TURN and index % 97 == 0
            )
            if interesting and decision.seat is not None:
                record = GameRecord.from_start(game.start, game.actions[:index])
                knowledge = information_state(record, decision.seat)
                choice = GreedyBot().choose(knowledge, random.Random(0))
                if decision.kind is DecisionKind.HORDE_EMPTY:
                    seen_horde += 1
                    sizes = [
                        len(a.colours) for a in legal_actions(state) if isinstance(a, EmptyHorde)
                    ]
                    assert isinstance(choice, EmptyHorde) and len(choice.colours) == max(sizes)
                else:
                    seen_turn += 1
                    leads = [lead(apply(state, a), decision.seat) for a in legal_actions(state)]
                    assert lead(apply(state, choice), decision.seat) == max(leads)
            state = apply(state, action)
        if seen_horde >= 3 and seen_turn >= 5:
            break
    assert seen_horde >= 3 and seen_turn >= 5


# --- the registry ---------------------------------------------------------------------------------


def test_the_registry_lists_every_bot_by_its_name_weakest_first() -> None:
    assert list(BOTS) == ["random", "greedy", "thumb", "mc", "ismcts", "ismcts-strong"]
    for name, make in BOTS.items():
        made = make()
        assert isinstance(made, Bot)
        assert made.name == name == bot(name).name
        assert made.description and "\n" not in made.description and len(made.description) < 80
    default, strong = bot("ismcts"), bot("ismcts-strong")
    assert isinstance(default, ISMCTSBot) and isinstance(strong, ISMCTSBot)
    assert default.budget.reproducible and strong.budget.reproducible
    for players in range(2, 7):
        count = DEFAULT_SIMULATIONS[players]
        assert default.budget.count(players) == count
        assert strong.budget.count(players) == 4 * count
    with pytest.raises(TypeError):
        BOTS["mine"] = RandomBot  # type: ignore[index]


@pytest.mark.parametrize("name", ["GREEDY", "", "best", None, 3])
def test_an_unknown_bot_name_is_refused_naming_the_bots(name: object) -> None:
    with pytest.raises(UnknownBotError, match=r"the bots are: random, greedy, thumb, mc, ismcts"):
        bot(name)  # type: ignore[arg-type]


# --- bad input ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def short_game() -> Playthrough:
    return play_random(2, seed=4)


def prefix_where(game: Playthrough, wanted: str) -> tuple[GameRecord, int]:
    """The first prefix of ``game`` where ``wanted`` holds: ``chance``, or ``turn`` (then the
    seat is the one NOT to move)."""
    state = game.start
    for index, action in enumerate(game.actions):
        pending = state.pending
        if index > 30 and wanted == "chance" and pending.chance:
            return GameRecord.from_start(game.start, game.actions[:index]), 0
        if index > 30 and wanted == "turn" and not pending.chance and pending.seat is not None:
            return GameRecord.from_start(game.start, game.actions[:index]), 1 - pending.seat
        state = apply(state, action)
    raise AssertionError(wanted)


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_asked_out_of_turn_is_refused(name: str, short_game: Playthrough) -> None:
    """TURN-1: a seat that is not to decide gets WrongDecisionError naming the decision."""
    record, other = prefix_where(short_game, "turn")
    with pytest.raises(WrongDecisionError) as info:
        bot(name).choose(information_state(record, other), random.Random(0))
    assert info.value.rule == "TURN-1"
    assert f"seat {other} does not decide now" in info.value.reason
    assert "seat " + str(1 - other) in info.value.reason


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_asked_at_a_chance_event_is_refused(name: str, short_game: Playthrough) -> None:
    record, seat = prefix_where(short_game, "chance")
    with pytest.raises(WrongDecisionError, match="does not decide now; the decision is: chance"):
        bot(name).choose(information_state(record, seat), random.Random(0))


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_asked_once_the_game_is_over_is_refused(name: str, short_game: Playthrough) -> None:
    """GAME-1: nothing is left to decide."""
    knowledge = information_state(GameRecord.from_playthrough(short_game), 0)
    with pytest.raises(GameOverError) as info:
        bot(name).choose(knowledge, random.Random(0))
    assert info.value.rule == "GAME-1" and "game is over" in info.value.reason


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_given_anything_but_an_information_state_is_refused(
    name: str, short_game: Playthrough
) -> None:
    record = GameRecord.from_start(short_game.start, short_game.actions[:40])
    for wrong, hint in [
        (record.replay(), "a state holds every hidden card"),
        (record, "information_state(record, seat) gives it"),
        (str(information_state(record, 0)), "not str"),
        (None, "not NoneType"),
    ]:
        with pytest.raises(RecordError, match="an InformationState") as info:
            bot(name).choose(wrong, random.Random(0))  # type: ignore[arg-type]
        assert hint in info.value.reason


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_given_no_random_generator_is_refused(name: str, short_game: Playthrough) -> None:
    record = GameRecord.from_start(short_game.start, short_game.actions[:40])
    seat = record.replay().pending.seat or 0
    with pytest.raises(RulesError, match=r"random\.Random") as info:
        bot(name).choose(information_state(record, seat), 7)  # type: ignore[arg-type]
    assert info.value.rule == "CHANCE"


def test_a_knowledge_that_fits_no_game_is_refused_as_validate_refuses_it(
    short_game: Playthrough,
) -> None:
    record = GameRecord.from_start(short_game.start, short_game.actions[:40])
    knowledge = information_state(record, 0)
    broken = attrs.evolve(knowledge, decisions=(*knowledge.decisions, "band *DWA-red DWA-red"))
    with pytest.raises(RulesError) as info:
        GreedyBot().choose(broken, random.Random(0))
    where = f"at decision {len(knowledge.decisions)}: 'band *DWA-red DWA-red'"
    assert info.value.__notes__ == [where]


def test_play_refuses_bad_seats_bots_and_starts() -> None:
    """SETUP-1: a bot for each seat, each a bot; a record starts from new_game."""
    start = new_game(3)
    for bots, words in [
        ({0: RandomBot(), 1: RandomBot()}, "a bot for each seat 0 to 2"),
        ({0: RandomBot(), 1: RandomBot(), 2: RandomBot(), 3: RandomBot()}, "[0, 1, 2, 3]"),
        ([RandomBot()] * 3, "by seat"),
        ({0: RandomBot(), 1: RandomBot(), 2: "greedy"}, "the bot of seat 2 has no name"),
    ]:
        with pytest.raises(SetupError) as info:
            play(start, bots, random.Random(0))  # type: ignore[arg-type]
        assert info.value.rule == "SETUP-1" and words in info.value.reason
    later = apply(start, legal_actions(start)[0])
    with pytest.raises(RecordError, match="start of a game"):
        play(later, {0: RandomBot(), 1: RandomBot(), 2: RandomBot()}, random.Random(0))


def test_play_names_the_bot_whose_decision_is_refused() -> None:
    """BAND-1: a bot that plays a band of a card it does not hold is refused, with a note
    naming the bot and its seat."""

    class Careless:
        name = "careless"
        description = "plays a Skeleton it does not hold"

        def choose(self, knowledge: InformationState, rng: random.Random) -> Action:
            return parse_action("band *SKE")

        def __repr__(self) -> str:
            return "Careless()"

    start = new_game(2, tribes=["DWA", "ELF", "GIA", "MER", "ORC"])
    with pytest.raises(IllegalActionError) as info:
        play(start, {0: Careless(), 1: Careless()}, random.Random(0))
    assert any(note.startswith("chosen by Careless() for seat") for note in info.value.__notes__)


def test_importing_the_bots_needs_neither_jsonschema_nor_numpy() -> None:
    code = (
        "import sys, ethnos_rules.bots;"
        " print(sorted(m for m in ('jsonschema', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- the ladder ---------------------------------------------------------------------------------


def _ladder() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "ladder.py"
    spec = importlib.util.spec_from_file_location("ladder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module
    spec.loader.exec_module(module)
    return module


def test_the_ladder_plays_seeded_games_keeps_them_and_writes_its_page(tmp_path: Any) -> None:
    """A tiny ladder: every pairing at 2 and 3 players, each game's result kept as it ends;
    asked again, it plays nothing and writes the same tables; the page has a table a player
    count, the ratings and the times."""
    pytest.importorskip("openskill", reason="the [ladder] extra is not installed")
    ladder = _ladder()
    results, page = tmp_path / "results.jsonl", tmp_path / "page.md"
    argv = ["--games", "2", "--players", "2,3", "--bots", "random,greedy", "-j", "1"]
    argv += ["--results", str(results), "--out", str(page)]
    assert ladder.main(argv) == 0
    kept = results.read_text().splitlines()
    assert len(kept) == 2 + 2 * 2  # one pair at 2 players, two ordered pairs at 3
    first = page.read_text()
    for heading in ("## 2 players", "## 3 players", "## Ratings", "## Time", "| **greedy** |"):
        assert heading in first
    assert "--games 2 --players 2,3 --bots random,greedy" in first
    assert ladder.main(argv) == 0
    assert results.read_text().splitlines() == kept  # nothing played again

    def tables(text: str) -> str:
        return text[text.index("## 2 players") : text.index("## Time")]

    assert tables(page.read_text()) == tables(first)
    # a game played again from its seed is the same game
    again = ladder.play_one(ladder.tasks(["random", "greedy"], [2], 1, 2026)[0])
    before = next(json.loads(line) for line in kept if json.loads(line)["key"] == again["key"])
    assert (again["winners"], again["glory"]) == (before["winners"], before["glory"])


def test_the_ladder_counts_shares_and_wilson_intervals() -> None:
    ladder = _ladder()
    low, high = ladder.wilson(19, 20)
    assert (round(low, 3), round(high, 3)) == (0.764, 0.991)
    result = {"winners": [0, 2], "glory": [50, 60, 50, 40]}
    assert [ladder.share(result, s) for s in range(4)] == [0.5, 0.0, 0.5, 0.0]
    assert ladder.ranks(result) == [1, 3, 1, 4]  # the winners first, then by Glory


def test_a_pairing_stops_at_a_batch_boundary_once_its_interval_is_narrow_enough() -> None:
    """The stop is decided from the bot's results in game order at batch boundaries only:
    lopsided pairings stop early, even ones play on to the cap."""
    ladder = _ladder()
    stopping = ladder.Stopping(cap=400, batch=10, half_width=0.05)
    assert stopping.verdict([1.0] * 35) == (30, False)  # 30 counted, the next batch wanted
    assert stopping.verdict([1.0] * 40) == (40, True)  # 40 straight wins: ±4.4 points
    assert stopping.verdict([1.0, 0.0] * 100) == (200, False)  # 50 %: ±6.8 points at 200
    assert stopping.verdict([1.0, 0.0] * 200) == (390, True)
    assert ladder.Stopping(cap=25, batch=10, half_width=0.05).verdict([1.0, 0.0] * 20) == (
        25,
        True,
    )
    assert ladder.Stopping(cap=30, batch=10, half_width=0).verdict([1.0] * 30) == (30, True)
    assert round(ladder.half_width(20, 40), 4) == round(
        (ladder.wilson(20, 40)[1] - ladder.wilson(20, 40)[0]) / 2, 4
    )


def test_an_adaptive_ladder_plays_the_same_games_and_stops_again_at_the_same_point(
    tmp_path: Any,
) -> None:
    """Greedy against random stops after a batch or two; asked again it plays nothing; played
    into a fresh file it keeps the same games; a pairing given either way round at 2 players
    is the same pairing."""
    pytest.importorskip("openskill", reason="the [ladder] extra is not installed")
    ladder = _ladder()
    first, again = tmp_path / "first.jsonl", tmp_path / "again.jsonl"
    argv = ["--games", "40", "--batch", "5", "--half-width", "0.2", "-j", "1"]
    argv += ["--out", str(tmp_path / "page.md")]
    assert ladder.main([*argv, "--pairings", "2:greedy:random", "--results", str(first)]) == 0
    kept = first.read_text().splitlines()
    assert 5 <= len(kept) < 40 and len(kept) % 5 == 0
    page = (tmp_path / "page.md").read_text()
    assert "## The pairings" in page and f"| 2 | greedy | random | {len(kept)} |" in page
    assert ladder.main([*argv, "--pairings", "2:random:greedy", "--results", str(first)]) == 0
    assert first.read_text().splitlines() == kept
    assert ladder.main([*argv, "--pairings", "2:random:greedy", "--results", str(again)]) == 0

    def games(path: Any) -> list[tuple[str, list[int], list[int]]]:
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return sorted((r["key"], r["winners"], r["glory"]) for r in rows)

    assert games(again) == games(first)
    with pytest.raises(SystemExit):
        ladder.main([*argv, "--pairings", "2:greedy:best"])


def test_the_play_table_seats_the_default_ismcts_bot_when_no_seats_are_given() -> None:
    """The play page's opponent by default is the ISMCTS bot at its default level (the
    strongest that answers within about 1 s a decision), at every seat but the first."""
    pytest.importorskip("starlette", reason="the [play] extra is not installed")
    from ethnos_rules._play.games import DEFAULT_OPPONENT, PERSON, check_setup

    assert DEFAULT_OPPONENT == "ismcts" and DEFAULT_OPPONENT in BOTS
    players, kinds, *_ = check_setup({"players": 4, "seed": 1})
    assert (players, kinds) == (4, [PERSON, "ismcts", "ismcts", "ismcts"])


def test_the_play_server_names_its_default_bot_to_the_start_page(tmp_path: Any) -> None:
    """``GET /api/bots`` lists every bot and names the default the start page seats."""
    pytest.importorskip("starlette", reason="the [play] extra is not installed")
    from starlette.testclient import TestClient

    from ethnos_rules._play.games import GameStore
    from ethnos_rules._play.server import app

    with TestClient(app(GameStore(str(tmp_path / "games")))) as client:
        listed = client.get("/api/bots").json()
    assert [b["name"] for b in listed["bots"]] == list(BOTS)
    assert listed["default"] == "ismcts"
