"""``make demo``, the README's first command: the seeded game it tells, and the files it
writes, are what it says they are."""

from __future__ import annotations

import re
import runpy
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ethnos_rules import BandPlayed, GameRecord, step, validate, winners

DEMO = Path(__file__).parents[1] / "examples" / "play_seeded_game.py"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (6, 9)])
def test_the_demo_tells_a_game_and_writes_what_it_lists(
    players: int, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo tells the setup and the first turns, shows each Age's table and the winner, a
    refused band with its rule, and both records checked by the command line; every file it
    lists exists: the records validate as it says (the changed one names a card of a tribe in
    play), the pictures are SVG and the page is HTML."""
    demo = runpy.run_path(str(DEMO))
    demo["main"](players, seed, str(tmp_path))
    told = capsys.readouterr().out
    game = demo["demo_game"](players, seed)
    ages = len(game.final.history)
    assert f"A game of Ethnos for {players} players." in told
    opening = told.split("… and so on")[0]
    assert opening.count("plays a band of") == 2  # told up to the turn after Age I's 2nd band
    assert opening.rstrip().splitlines()[-1].lstrip().startswith(("Turn ", "Seat "))
    assert told.count("this Age  Glory") == ages
    assert f"A game between {players} {demo['DEMO_BOT']} bots (seed {seed})" in told
    sizes = Counter(len(e.band.cards) for e in _events(game) if isinstance(e, BandPlayed))
    counted = ", ".join(f"{n} of {size}" for size, n in sorted(sizes.items()))
    assert f"Bands played, by number of cards: {counted};" in told
    won = " and ".join(f"seat {s}" for s in winners(game.final))
    assert f"The game is over: {won}" in told
    assert "raises\n  IllegalActionError: BAND-2: " in told
    assert f"game.json: valid: {players} players" in told
    assert re.search(r"changed\.json:\d+: INVALID at decision", told)  # at its line
    assert "1 valid, 1 invalid, 0 unreadable" in told
    files = told.split("Files written")[1].split("\n\n")[0].splitlines()[1:]
    listed = [Path(line.split()[0]) for line in files]
    assert all(path.exists() for path in listed)
    pictures = {f"end-of-age-{age}.svg" for age in range(1, ages + 1)}
    assert {p.name for p in listed} == {"game.json", "changed.json", "game.html", *pictures}
    assert GameRecord.read(tmp_path / "game.json").actions == tuple(map(str, game.actions))
    assert validate(GameRecord.read(tmp_path / "game.json")).ok
    changed = validate(GameRecord.read(tmp_path / "changed.json"))
    assert changed.rule == "RECRUIT-1" and changed.action is not None
    assert changed.action.split()[1].split("-")[0] in {t.code for t in game.final.tribes}
    for picture in tmp_path.glob("*.svg"):
        assert ET.parse(picture).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    assert (tmp_path / "game.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    demo["main"](players, seed, str(tmp_path))  # a second `make demo` replaces its own files
    assert "Files written" in capsys.readouterr().out


def _events(game: Any) -> list[Any]:
    state, events = game.start, list[Any]()
    for action in game.actions:
        result = step(state, action)
        events += result.events
        state = result.state
    return events
