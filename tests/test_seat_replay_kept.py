"""Replays of records kept at one seat are kept at checkpoints, so that a record growing a
decision at a time is replayed from its last checkpoint: what it tells must be exactly what a
replay from the start tells, whatever the record became since (grown, cut, changed)."""

from __future__ import annotations

import random

from ethnos_rules import Action, GameRecord, RulesError, parse_action, play_random, redact
from ethnos_rules._replay.replay import Decision, Refusal
from ethnos_rules._rules.state import GameState
from ethnos_rules._seat.seatview import _REPLAYS, SeatReplay, seat_decisions
from hoarding import hoarding_game


def _fresh(start: GameState, actions: tuple[str, ...], seat: int) -> list[Decision | Refusal]:
    """The replay from the start, nothing kept."""
    items = [(i, text, _parsed(text)) for i, text in enumerate(actions)]
    return list(SeatReplay(start, seat).run(items))


def _parsed(text: str) -> Action | RulesError:
    try:
        return parse_action(text)
    except RulesError as err:
        return err


def _told(items: list[Decision | Refusal]) -> list[tuple[object, ...]]:
    return [
        (d.index, str(d.action), d.after, d.events)
        if isinstance(d, Decision)
        else ("refused", d.index, d.error.rule, d.error.reason)
        for d in items
    ]


def test_a_growing_record_tells_what_a_replay_from_the_start_tells() -> None:
    """Prefixes growing by one to forty decisions, of random and hoarding games of 2 to 6
    players at each seat, cut and changed now and then: the replay kept tells the same."""
    rng = random.Random(5)
    for players in (2, 3, 4, 6):
        games = [play_random(players, seed=players), hoarding_game(players, 31 * players)]
        for game in games:
            seat = rng.randrange(players)
            mine = redact(GameRecord.from_playthrough(game), seat)
            start, actions = mine.new_game(), mine.actions
            at = 0
            while at < len(actions):
                at = min(len(actions), at + rng.randint(1, 40))
                prefix = tuple(actions[:at])
                if rng.random() < 0.15:  # a record changed behind the last checkpoint
                    k = rng.randrange(at)
                    prefix = (*prefix[:k], "pass", *prefix[k + 1 :])
                kept = list(seat_decisions(start, prefix, seat))
                assert _told(kept) == _told(_fresh(start, prefix, seat)), (players, at)


def test_replays_are_kept_for_a_few_records_only() -> None:
    """At most eight records' replays are kept."""
    for seed in range(12):
        game = play_random(2, seed=seed)
        mine = redact(GameRecord.from_playthrough(game), 0)
        list(seat_decisions(mine.new_game(), mine.actions, 0))
    assert len(_REPLAYS.kept) <= 8
