"""``make demo``: a seeded game of Ethnos, told by the referee, with its pictures and records.

Usage: ``python examples/play_seeded_game.py [PLAYERS] [SEED] [OUT]`` (default: 4 players,
seed 2026, files in ``build/demo``).

It plays one game between the library's bots (:data:`DEMO_BOT` at every seat; chance drawn
with its exact probabilities) and then, from the public API and the ``ethnos-rules`` command:

- tells the setup and the first turns, how large the bands were and where markers went, and
  shows each Age's score table and the winner;
- shows the referee refusing a band that breaks a rule, with the rule's id;
- writes the game's record, validates it, and validates a copy with one decision changed;
- writes the board at the end of each Age as SVG, and a page that steps through the game.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ethnos_rules import (
    AgeEnded,
    BandPlayed,
    DecisionKind,
    GameRecord,
    GameState,
    MarkerPlaced,
    PlayBand,
    Playthrough,
    Recruit,
    RulesError,
    apply,
    narrate,
    new_game,
    parse_action,
    pending_decision,
    step,
    svg,
    winners,
)
from ethnos_rules.bots import bot, play

OPENING_BANDS = 2
"""Age I is told in full up to the turn after its second band (bots collect cards first)."""

ROMAN = {1: "I", 2: "II", 3: "III"}

DEMO_BOT = "thumb"
"""The bot at every seat: the strongest of :data:`ethnos_rules.bots.BOTS` that plays a whole
game in about a second (it beat greedy in 39 of 40 2-player games here), so that bands,
placements and abilities look like a game people play."""


def demo_game(players: int, seed: int) -> Playthrough:
    """The game the demo tells: :data:`DEMO_BOT` at every seat, chance and bots from ``seed``."""
    seats = {seat: bot(DEMO_BOT) for seat in range(players)}
    return play(new_game(players), seats, random.Random(seed))


def main(players: int = 4, seed: int = 2026, out: str = "build/demo") -> None:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    game = demo_game(players, seed)
    record = GameRecord.from_playthrough(game)
    print(f"A game between {players} {DEMO_BOT} bots (seed {seed}), told by the referee.\n")
    tell_opening(record, game)
    tell_bands(game)
    pictures = tell_ages(game, folder)
    refuse_a_band(game)
    files = write_and_validate(record, game, folder)
    print("\nFiles written (open the .html and .svg files in a browser):")
    written = [*files, *pictures]
    width = max(len(str(path)) for path, _ in written)
    for path, what in written:
        print(f"  {path!s:{width}}  {what}")
    print("\nNext: docs/guide/01-quickstart.md, or `make docs` for the whole site.")


def tell_opening(record: GameRecord, game: Playthrough) -> None:
    """The narration of the setup and the first turns of Age I, up to the turn after its
    :data:`OPENING_BANDS`-th band."""
    starts = _turn_starts(game)
    bands = [i for i in starts[:-1] if isinstance(game.actions[i], PlayBand)]
    shown = starts.index(bands[OPENING_BANDS - 1]) + 2 if len(bands) >= OPENING_BANDS else -1
    stop = starts[min(shown, len(starts) - 1)]
    for line in narrate(record, stop=stop):
        print(line)
    print(f"  … and so on: `ethnos-rules replay FILE` tells every one of the {len(game.actions)}")
    print("  decisions like this, and why each marker was placed or not, citing the rules.")


def tell_bands(game: Playthrough) -> None:
    """How many bands of each size were played, and how many of them placed a marker."""
    sizes: Counter[int] = Counter()
    placed = 0
    state = game.start
    for action in game.actions:
        result = step(state, action)
        for event in result.events:
            if isinstance(event, BandPlayed):
                sizes[len(event.band.cards)] += 1
            placed += isinstance(event, MarkerPlaced)
        state = result.state
    told = ", ".join(f"{n} of {size}" for size, n in sorted(sizes.items()))
    print(f"\nBands played, by number of cards: {told}; {placed} placed a marker.")


def tell_ages(game: Playthrough, folder: Path) -> list[tuple[Path, str]]:
    """Each Age's score table, and the board as the Age ends, drawn to an SVG file."""
    pictures = []
    for state in _third_dragons(game):
        age = state.age
        path = folder / f"end-of-age-{age}.svg"
        path.write_text(svg.board(state, size=900), encoding="utf-8")
        pictures.append((path, f"the board as the third Dragon of Age {ROMAN[age]} comes"))
        print(f"\nEnd of Age {ROMAN[age]}: the Glory scored at its end, by source, and in all")
        print(game.final.history[age - 1].table())
    won = winners(game.final)
    names = " and ".join(f"seat {s}" for s in won)
    print(f"\nThe game is over: {names} {'wins' if len(won) == 1 else 'share the win'}.")
    return pictures


def refuse_a_band(game: Playthrough) -> None:
    """The first turn whose player holds two cards that share neither tribe nor colour: the
    band of those two is refused (BAND-2), with the reason."""
    for state in game.states():
        seat = pending_decision(state).seat
        if not _opens_turn(state) or seat is None:
            continue
        hand = [card for card in state.players[seat].hand if not card.wild]
        pairs = [(a, b) for a in hand for b in hand if a.tribe != b.tribe and a.colour != b.colour]
        if not pairs:
            continue
        text = f"band *{pairs[0][0]} {pairs[0][1]}"
        try:
            apply(state, parse_action(text))
        except RulesError as err:
            print(f"\nThe referee refuses what breaks a rule: seat {seat} holds")
            print(f"  {' '.join(map(str, state.players[seat].hand))};")
            print(f"  apply(state, parse_action('{text}')) raises")
            print(f"  {type(err).__name__}: {err}")
            return
        raise AssertionError(f"{text} was accepted")


def write_and_validate(
    record: GameRecord, game: Playthrough, folder: Path
) -> list[tuple[Path, str]]:
    """The record, a copy with one row recruit changed to a card that is not in the row, and
    the replay page, through the ``ethnos-rules`` command."""
    good, bad, page = folder / "game.json", folder / "changed.json", folder / "game.html"
    record.write(good)
    _changed(record, game).write(bad)
    print("\nChecking the records with the command line:")
    _command("validate", str(good), str(bad), expect=1)  # 1: a record breaks a rule
    _command("replay", "--force", "--html", str(page), str(good), expect=0)  # again: replaced
    return [
        (good, "the game's record: every decision, chance outcomes included"),
        (bad, "the same record with one decision changed, refused by `validate`"),
        (page, "the game turn by turn (or decision by decision), what changed marked"),
    ]


def _changed(record: GameRecord, game: Playthrough) -> GameRecord:
    """``record`` with its first recruit from the row naming a card of a tribe in play that
    is not in the row."""
    actions = list(record.actions)
    for index, (state, action) in enumerate(zip(game.states(), game.actions, strict=False)):
        if isinstance(action, Recruit) and action.card is not None:
            in_play = [c for c in state.rules.cards if c.tribe in state.tribes]
            missing = next(c for c in in_play if c not in state.row)
            actions[index] = f"recruit {missing}"
            break
    return GameRecord.from_start(game.start, actions)


def _command(*args: str, expect: int) -> None:
    """Run ``ethnos-rules ARGS`` (the script beside this Python, as a venv has it) and show
    what it prints; stop the demo if it exits otherwise than ``expect``."""
    print(f"$ ethnos-rules {' '.join(args)}")
    script = Path(sys.executable).with_name("ethnos-rules")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ethnos_rules.cli"]
    done = subprocess.run([*command, *args], capture_output=True, text=True, check=False)
    for line in (done.stdout + done.stderr).splitlines():
        print(f"  {line}")
    if done.returncode != expect:
        sys.exit(f"ethnos-rules {args[0]} exited with {done.returncode}, not {expect}")


def _turn_starts(game: Playthrough) -> list[int]:
    """The index of each decision that opens a player's turn in Age I, and then the end."""
    starts = [
        i
        for i, state in enumerate(game.states())
        if i < len(game.actions) and state.age == 1 and _opens_turn(state)
    ]
    return [*starts, len(game.actions)]


def _opens_turn(state: GameState) -> bool:
    return pending_decision(state).kind is DecisionKind.TURN


def _third_dragons(game: Playthrough) -> Iterator[GameState]:
    """For each Age, the state in which its third Dragon is revealed (every band still out)."""
    state = game.start
    for action in game.actions:
        result = step(state, action)
        if any(isinstance(event, AgeEnded) for event in result.events):
            yield state
        state = result.state


if __name__ == "__main__":
    given = sys.argv[1:4]
    main(
        int(given[0]) if len(given) > 0 else 4,
        int(given[1]) if len(given) > 1 else 2026,
        given[2] if len(given) > 2 else "build/demo",
    )
