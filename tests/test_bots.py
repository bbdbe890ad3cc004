"""The library's bots (``ethnos_rules.bots``): whole games for 2 to 6 players with random tribes
and every rule option, every kind of decision reached by each bot, the same choice from the same
information, greedy against random, and typed errors for bad input.

A bot's decision costs a draw of the hidden cards (:func:`~ethnos_rules.resample`, which
replays the record), so the games here are few: one per player count, the bots sharing it.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import defaultdict
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
    parse_action,
    pending_decision,
    play_random,
    redact,
    resample,
    winners,
)
from ethnos_rules.bots import (
    BOTS,
    Bot,
    GreedyBot,
    RandomBot,
    UnknownBotError,
    bot,
    determinize,
    lead,
    play,
)

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


def decided(game: Playthrough, bots: dict[int, Bot]) -> dict[str, set[DecisionKind | str]]:
    """What each bot (by name) decided in ``game``: the kinds of decision, and ``band N`` for
    each size N of band it played."""
    taken: dict[str, set[DecisionKind | str]] = defaultdict(set)
    for state, action in zip(game.states(), game.actions, strict=False):
        decision = pending_decision(state)
        if not decision.chance and decision.seat is not None:
            name = bots[decision.seat].name
            taken[name].add(decision.kind)
            if isinstance(action, PlayBand):
                taken[name].add(f"band {1 + len(action.others)}")
    return taken


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
def games() -> list[tuple[Playthrough, dict[int, Bot]]]:
    """One whole game for each of 2 to 6 players, the greedy and the random bot in turn at the
    seats, with the tribes of :func:`tribe_sets` and the options of :func:`options_for`."""
    rng = random.Random(5)
    tribes = tribe_sets(rng)
    played = []
    for index, players in enumerate(range(2, 7)):
        bots: dict[int, Bot] = {
            seat: Checked(GreedyBot() if (seat + index) % 2 == 0 else RandomBot())
            for seat in range(players)
        }
        start = new_game(players, tribes=tribes[index], options=options_for(index))
        played.append((play(start, bots, rng), bots))
    return played


def test_the_games_cover_every_tribe_and_every_option(
    games: list[tuple[Playthrough, dict[int, Bot]]],
) -> None:
    tribes = [tribe.code for game, _ in games for tribe in game.start.tribes]
    assert {code: tribes.count(code) >= 2 for code in CODES} == dict.fromkeys(CODES, True)
    for name, values in CHOICES.items():
        assert {getattr(game.start.options, name) for game, _ in games} == set(values), name


def test_every_bot_plays_whole_games_for_2_to_6_players(
    games: list[tuple[Playthrough, dict[int, Bot]]],
) -> None:
    """GAME-1: each game ends, and its record (the bots' decisions) validates."""
    for game, _ in games:
        assert is_terminal(game.final)
        assert winners(game.final)
        assert GameRecord.from_playthrough(game).replay() == game.final


def test_every_bot_reaches_every_kind_of_decision(
    games: list[tuple[Playthrough, dict[int, Bot]]],
) -> None:
    """Bands built whole (of 1, 2 and 3 cards at least), placements, every tribe's ability
    (Centaur chains, Orc Hordes, Troll tokens, Merfolk checkpoints, Elves keeps, Wizards) and
    the end-of-Age Horde: each bot decided each kind in these games."""
    taken: dict[str, set[DecisionKind | str]] = defaultdict(set)
    for game, bots in games:
        for name, seen in decided(game, bots).items():
            taken[name] |= seen
    wanted = {*PLAYER_DECISIONS, "band 1", "band 2", "band 3"}
    assert {name: wanted - seen for name, seen in taken.items()} == {
        "greedy": set(),
        "random": set(),
    }


def test_play_gives_each_bot_what_its_seat_knows(
    games: list[tuple[Playthrough, dict[int, Bot]]],
) -> None:
    """The information state ``play`` keeps up step by step, with no replay, is the one
    :func:`~ethnos_rules.information_state` reads from the record so far (checked by
    :class:`Checked` in every game, at every 29th decision of each bot)."""
    for _, bots in games:
        for one in bots.values():
            assert isinstance(one, Checked) and one.checked >= 2


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


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("players", [2, 4])
def test_two_games_that_look_alike_get_the_same_choice(name: str, players: int) -> None:
    """Two whole games drawn to fit one seat's record (different hidden cards) look the same
    from that seat; the bot, given each, chooses the same with the same seed."""
    compared = 0
    for so_far, seat in decision_points(players, seed=players):
        mine = redact(so_far, seat)
        one = resample(mine, random.Random(0))
        # another game with other hidden cards, if the seat does not know them all already
        other = (resample(mine, random.Random(draw)) for draw in range(1, 20))
        two = next((drawn for drawn in other if drawn.actions != one.actions), None)
        if two is None:
            continue
        knowledge = [information_state(GameRecord.from_playthrough(g), seat) for g in (one, two)]
        assert knowledge[0] == knowledge[1]
        choices = [bot(name).choose(k, random.Random(7)) for k in knowledge]
        assert choices[0] == choices[1]
        assert choices[0] in legal_actions(one.final) and choices[0] in legal_actions(two.final)
        # the same information and the same seed, again: the same choice
        assert bot(name).choose(knowledge[1], random.Random(7)) == choices[0]
        compared += 1
        if compared == 5:
            break
    assert compared == 5


def test_determinize_draws_a_world_the_seat_cannot_tell_apart() -> None:
    so_far, seat = decision_points(3, seed=9)[2]
    knowledge = information_state(so_far, seat)
    world = determinize(knowledge, random.Random(0))
    assert world.pending.seat == seat
    assert legal_actions(world) == legal_actions(so_far.replay())
    drawn = GameRecord.from_start(
        so_far.new_game(), resample(knowledge.record(), random.Random(0)).actions
    )
    assert information_state(drawn, seat) == knowledge


# --- greedy against random ------------------------------------------------------------------------


def test_greedy_beats_random() -> None:
    """Greedy wins at least 8 of 10 seeded 2-player games against random, in seat ``game % 2``.

    Why 8 is safe: over 200 games the greedy bot of the bots guide won 96 % (95 % interval
    92 %–98 %). At 96 %, 7 wins or fewer in 10 games happen with probability 0.6 %, at 92 % with
    4 %; the seeds are fixed, so the test is deterministic, and it fails only if a change to
    the rules or the bots makes this set of seeds fall in that tail, or greedy stops being
    greedy (at 50 %, a bot no better than random, 8 or more happens 5 % of the time).
    """
    won = 0.0
    for seed in range(10):
        greedy = seed % 2
        bots: dict[int, Bot] = {greedy: GreedyBot(), 1 - greedy: RandomBot()}
        game = play(new_game(2), bots, random.Random(seed))
        best = winners(game.final)
        won += 1 / len(best) if greedy in best else 0
    assert won >= 8


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


def test_the_registry_lists_every_bot_by_its_name() -> None:
    assert sorted(BOTS) == ["greedy", "random"]
    for name, make in BOTS.items():
        made = make()
        assert isinstance(made, Bot)
        assert made.name == name == bot(name).name
        assert made.description and "\n" not in made.description and len(made.description) < 80
    with pytest.raises(TypeError):
        BOTS["mine"] = RandomBot  # type: ignore[index]


@pytest.mark.parametrize("name", ["GREEDY", "", "ismcts", None, 3])
def test_an_unknown_bot_name_is_refused_naming_the_bots(name: object) -> None:
    with pytest.raises(UnknownBotError, match=r"the bots are: greedy, random$"):
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


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_asked_out_of_turn_is_refused(name: str, short_game: Playthrough) -> None:
    """TURN-1: a seat that is not to decide gets WrongDecisionError naming the decision."""
    record, other = prefix_where(short_game, "turn")
    with pytest.raises(WrongDecisionError) as info:
        bot(name).choose(information_state(record, other), random.Random(0))
    assert info.value.rule == "TURN-1"
    assert f"seat {other} does not decide now" in info.value.reason
    assert "seat " + str(1 - other) in info.value.reason


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_asked_at_a_chance_event_is_refused(name: str, short_game: Playthrough) -> None:
    record, seat = prefix_where(short_game, "chance")
    with pytest.raises(WrongDecisionError, match="does not decide now; the decision is: chance"):
        bot(name).choose(information_state(record, seat), random.Random(0))


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_asked_once_the_game_is_over_is_refused(name: str, short_game: Playthrough) -> None:
    """GAME-1: nothing is left to decide."""
    knowledge = information_state(GameRecord.from_playthrough(short_game), 0)
    with pytest.raises(GameOverError) as info:
        bot(name).choose(knowledge, random.Random(0))
    assert info.value.rule == "GAME-1" and "game is over" in info.value.reason


@pytest.mark.parametrize("name", sorted(BOTS))
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


@pytest.mark.parametrize("name", sorted(BOTS))
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
