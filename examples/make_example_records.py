"""Write the example game records of ``examples/records/``.

Usage: ``python examples/make_example_records.py`` (rewrites the files; the output is the same on
every run).

The valid records are seeded random games, as ``ethnos-rules simulate --claim`` plays them, and
one of them as seat 2 kept it (``ethnos-rules redact``). Each
invalid record is a valid one with one decision (or the claimed score) changed at a chosen place,
so that it breaks one rule there. Its ``metadata.broken`` says where and which rule; the script
``validate_examples.py`` checks that the validator agrees.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from ethnos_rules import (
    Action,
    Card,
    GameRecord,
    GameState,
    Kingdom,
    Place,
    PlayBand,
    Recruit,
    Reveal,
    apply,
    chance_outcomes,
    glory,
    is_chance,
    legal_actions,
    new_game,
    parse_action,
    play_random,
    redact,
    step,
)

OUT = Path(__file__).resolve().parent / "records"

Policy = Callable[[GameState, random.Random], Action]


def simulated(players: int, seed: int, **setup: Any) -> GameRecord:
    """The record ``ethnos-rules simulate --players P --seed S --claim`` writes."""
    game = play_random(players, seed, **setup)
    return GameRecord.from_playthrough(
        game,
        metadata={"source": "ethnos-rules simulate", "seed": seed},
        claimed_glory=glory(game.final),
    )


def states(record: GameRecord) -> list[GameState]:
    """The state before each decision of ``record`` (and the final one)."""
    state = record.new_game()
    out = [state]
    for text in record.actions:
        state = apply(state, parse_action(text))
        out.append(state)
    return out


def broken(record: GameRecord, actions: list[str], index: int, rule: str, how: str) -> GameRecord:
    """``record`` with other actions, marked as broken at ``index`` (-1: not at a decision)
    by ``rule``."""
    where = index if index >= 0 else None
    meta = dict(record.metadata, broken={"index": where, "rule": rule, "how": how})
    return attrs.evolve(record, actions=tuple(actions), metadata=meta)


# --- TURN-2: a player with 10 cards recruits -----------------------------------------------------


def hoarder(players: int, seed: int) -> GameRecord:
    """A legal game in which seat 0 recruits from the deck whenever it may (TURN-2 stops it at
    10 cards); every other decision is random, chance drawn with its exact probability."""
    rng = random.Random(seed)
    state = new_game(players, first_player=0)
    start = state
    actions: list[Action] = []
    while not state.pending.terminal:
        if is_chance(state):
            outcomes = chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            legal = legal_actions(state)
            action = (
                Recruit(None)
                if Recruit(None) in legal and state.pending.seat == 0
                else (rng.choice(legal))
            )
        state = apply(state, action)
        actions.append(action)
    return GameRecord.from_start(
        start,
        actions,
        metadata={"source": "examples/make_example_records.py (seat 0 hoards cards)"},
        claimed_glory=glory(state),
    )


def hand_limit(record: GameRecord) -> GameRecord:
    for index, state in enumerate(states(record)[:-1]):
        seat = state.pending.seat
        if (
            not is_chance(state)
            and seat is not None
            and len(state.players[seat].hand) == 10
            and isinstance(parse_action(record.actions[index]), PlayBand)
        ):
            actions = list(record.actions)
            actions[index] = "recruit deck"
            how = f"seat {seat} holds 10 cards and recruits from the deck"
            return broken(record, actions, index, "TURN-2", how)
    raise LookupError("no turn with 10 cards in hand")


# --- BAND-2: a band whose cards share neither a tribe nor a colour ----------------------------


def bad_band(record: GameRecord) -> GameRecord:
    for index, state in enumerate(states(record)[:-1]):
        seat = state.pending.seat
        if is_chance(state) or seat is None or type(state.pending).__name__ != "TurnPending":
            continue
        hand = [c for c in state.players[seat].hand if not c.wild]
        for a in hand:
            for b in hand:
                if a.tribe is not b.tribe and a.colour is not b.colour and a.index < b.index:
                    actions = list(record.actions)
                    actions[index] = str(PlayBand.of(a, b))
                    how = f"seat {seat} plays {a} with {b}: no common tribe or colour"
                    return broken(record, actions, index, "BAND-2", how)
    raise LookupError("no hand with two unrelated cards")


# --- BAND-5: the 2-player placement rule -----------------------------------------------------


def two_player_placement(record: GameRecord) -> GameRecord:
    """A band larger than its player's markers in the kingdom but not larger than both players'
    markers there; the log places a marker anyway, right after the band."""
    all_states = states(record)
    for index, state in enumerate(all_states[:-1]):
        action = parse_action(record.actions[index])
        if not isinstance(action, PlayBand) or action.leader.tribe.code in ("HAL", "WIN"):
            continue
        after = all_states[index + 1]
        if type(after.pending).__name__ == "PlacePending":
            continue
        seat = state.pending.seat
        assert seat is not None and action.leader.colour is not None
        kingdom: Kingdom = action.leader.colour.kingdom
        size = len(action.cards) + action.leader.tribe.ability.placement_bonus
        own = state.players[seat].kingdoms[kingdom]
        both = sum(p.kingdoms[kingdom] for p in state.players)
        if own < size <= both and state.players[seat].supply:
            actions = list(record.actions)
            actions.insert(index + 1, str(Place(kingdom)))
            how = (
                f"seat {seat}'s band of {size} places in {kingdom.label}, where it beats its own"
                f" {own} marker(s) but not both players' {both}"
            )
            return broken(record, actions, index + 1, "BAND-5", how)
    raise LookupError("no band that only the 2-player rule stops")


# --- SCORE-K-3: a wrong tie split in the claimed score ---------------------------------------


def wrong_tie_split(record: GameRecord) -> GameRecord:
    """The claimed score of a seat that shared a two-way tie counts the better of the two
    awards instead of its share of their sum."""
    from ethnos_rules._io.slips import slips

    all_states = states(record)
    alternatives = [
        alt
        for index, state in enumerate(all_states[:-1])
        for event in step(state, parse_action(record.actions[index])).events
        for alt in slips(event, state.rules)
    ]
    for alt in alternatives:
        same = [a for a in alternatives if a.seat == alt.seat and a.delta == alt.delta]
        pair = re.search(r"each of seats \d+ and \d+ ", alt.text)
        if alt.kind == "best_rank" and pair and len(same) == 1:
            claims = list(record.claimed_glory or glory(all_states[-1]))
            claims[alt.seat] += alt.delta
            changed = broken(record, list(record.actions), -1, "SCORE-K-3", alt.text)
            return _with_claims(changed, claims)
    raise LookupError("no split tie in this game")


def _with_claims(record: GameRecord, claims: list[int]) -> GameRecord:
    return GameRecord(
        players=record.players,
        tribes=record.tribes,
        glory_tokens=record.glory_tokens,
        first_player=record.first_player,
        options=record.options,
        actions=record.actions,
        metadata=record.metadata,
        claimed_glory=claims,
    )


# --- CHANCE: impossible draws ----------------------------------------------------------------


def third_copy(record: GameRecord) -> GameRecord:
    """A draw of a card both of whose copies are already out of the deck."""
    for index, state in enumerate(states(record)[:-1]):
        action = parse_action(record.actions[index])
        if not isinstance(action, Reveal) or not isinstance(action.card, Card):
            continue
        for kind in state.rules.cards:
            if kind.tribe in state.tribes and not kind.wild and state.deck[kind.index] == 0:
                copies = state.rules.copies[kind.index]
                actions = list(record.actions)
                actions[index] = f"reveal {kind}"
                how = f"{kind} is drawn, but all {copies} copies of it are already out of the deck"
                return broken(record, actions, index, "CHANCE", how)
    raise LookupError("no draw after a card ran out")


def dragon_on_top(record: GameRecord) -> GameRecord:
    """A Dragon drawn while cards of the top part of the deck remain (AGE-4)."""
    for index, state in enumerate(states(record)[:-1]):
        action = parse_action(record.actions[index])
        if isinstance(action, Reveal) and state.dragons_in_deck and state.top_left > 5:
            actions = list(record.actions)
            actions[index] = "reveal DRAGON"
            how = f"a Dragon is drawn while {state.top_left} top-part cards remain"
            return broken(record, actions, index, "CHANCE", how)
    raise LookupError("no draw from the top part")


# --- BAND-1 from one seat: a card whose every copy the seat sees elsewhere ---------------------


def unseen_impossible(record: GameRecord, seat: int) -> GameRecord:
    """The record ``seat`` kept of ``record``, where another player plays a band of one card
    every copy of which ``seat`` sees in the row, in bands or in its own hand."""
    kept = redact(record, seat)
    whole = states(record)
    full_index = 0
    for index, text in enumerate(kept.actions):
        if text.startswith("rest"):
            continue
        state = whole[full_index]
        full_index += 1
        if not text.startswith("band") or state.pending.seat in (None, seat):
            continue
        seen = Counter(state.row) + Counter(state.players[seat].hand)
        for player in state.players:
            for band in player.bands:
                seen.update(band.cards)
        for kind in state.rules.cards:
            if not kind.wild and seen[kind] == state.rules.copies[kind.index]:
                actions = list(kept.actions)
                actions[index] = f"band *{kind}"
                who = state.pending.seat
                how = f"seat {who} plays {kind}, every copy of which seat {seat} sees"
                return broken(kept, actions, index, "BAND-1", how)
    raise LookupError("no band after a card is all in sight")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    valid = {
        "valid-2p.json": simulated(2, 11),
        "valid-3p.json": simulated(3, 12),
        "valid-4p.json": simulated(4, 13),
        "valid-6p.json": simulated(6, 14),
        "valid-3p-full-hand.json": hoarder(3, 15),
    }
    valid["valid-4p-kept-at-seat-2.json"] = redact(valid["valid-4p.json"], 2)
    invalid = {
        "invalid-hand-limit.json": hand_limit(valid["valid-3p-full-hand.json"]),
        "invalid-band.json": bad_band(valid["valid-4p.json"]),
        "invalid-2p-placement.json": two_player_placement(valid["valid-2p.json"]),
        "invalid-tie-split.json": wrong_tie_split(valid["valid-6p.json"]),
        "invalid-draw.json": third_copy(valid["valid-6p.json"]),
        "invalid-dragon-on-top.json": dragon_on_top(valid["valid-3p.json"]),
        "invalid-kept-at-seat-1.json": unseen_impossible(valid["valid-3p.json"], 1),
    }
    for name, record in {**valid, **invalid}.items():
        record.write(OUT / name)
        print(f"wrote {name}: {len(record.actions)} decisions")


if __name__ == "__main__":
    main()
