"""Narration (``narrate``, ``ethnos-rules replay``): told from the rules' events only.

Each case plays decisions from a built position under one rule option that changes what an
event says, hands them to the narrator, and checks the line it tells. Whole recorded games are
told in ``test_cli.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from ethnos_rules import Decision, GameRecord, GameState, Options, position
from ethnos_rules._replay.replay import decisions
from ethnos_rules._text.narration import Narrator
from helpers import EXAMPLES, TOKENS_4P, TOKENS_SMALL

MER = ["MER", "MIN", "ORC", "SKE", "TRO", "WIN"]
CEN = ["CEN", "ELF", "ORC", "SKE", "TRO", "WIZ"]
ELF = ["DWA", "ELF", "ORC", "SKE", "TRO", "WIZ"]


def told(state: GameState, *texts: str) -> list[str]:
    """The narration of ``texts`` played from ``state``."""
    narrator = Narrator(GameRecord(players=state.config.players))
    last = state
    for item in decisions(state, texts):
        assert isinstance(item, Decision), item
        narrator.visit_decision(item)
        last = item.after
    narrator.end_game(last)
    return narrator.result()


def at_age_end(**kwargs: Any) -> GameState:
    """A 4-player position whose next deck draw is the Age's third Dragon."""
    kwargs.setdefault("tokens", TOKENS_4P)
    return position(4, MER, dragons_drawn=2, top_left=0, **kwargs)


def troll_ties(options: Options) -> GameState:
    """Age III: seat 0 first in Rhea, seats 1 and 2 equal below, seat 1 with a Troll token."""
    kingdoms = {0: {"Rhea": 2}, 1: {"Rhea": 1}, 2: {"Rhea": 1}}
    return at_age_end(age=3, kingdoms=kingdoms, trolls={1: [3]}, options=options)


def two_player_tie(options: Options) -> GameState:
    """The last Age of a 2-player game, both players tied in Rhea."""
    return position(
        2,
        ["DWA", "GIA", "ORC", "SKE", "TRO"],
        tokens=TOKENS_SMALL,
        age=2,
        dragons_drawn=2,
        top_left=0,
        kingdoms={0: {"Rhea": 1}, 1: {"Rhea": 1}},
        options=options,
    )


MERFOLK_BAND = "band *MER-red MER-red MER-blue MER-blue MER-green MER-green MER-gray"
MERFOLK_HAND = {0: "MER-red MER-red MER-blue MER-blue MER-green MER-green MER-gray"}

CASES: list[tuple[str, str, Any, tuple[str, ...], str, str | None]] = [
    # option, value, position, decisions, a line told, a line not told
    (
        "merfolk_checkpoints",
        "one_per_checkpoint",
        lambda o: position(4, MER, hands=MERFOLK_HAND, options=o),
        (MERFOLK_BAND, "place none"),
        "reaching checkpoints 3 and 7: 2 markers for any kingdom (TRIBE-MER-1, TRIBE-MER-2).",
        None,
    ),
    (
        "merfolk_checkpoints",
        "one_per_move",
        lambda o: position(4, MER, hands=MERFOLK_HAND, options=o),
        (MERFOLK_BAND, "place none"),
        "reaching checkpoints 3 and 7: 1 marker for any kingdom (TRIBE-MER-1, TRIBE-MER-2).",
        "2 markers",
    ),
    (
        "placement",
        "mandatory",
        lambda o: position(4, MER, hands={0: "ORC-red ORC-red"}, options=o),
        ("band *ORC-red ORC-red",),
        "  Seat 0 places a marker in Rhea (now 1 there): placing is mandatory (BAND-5a).",
        None,
    ),
    (
        "placement",
        "optional",
        lambda o: position(4, MER, hands={0: "ORC-red ORC-red"}, options=o),
        ("band *ORC-red ORC-red", "place none"),
        "  Seat 0 chooses not to place a marker (BAND-5a).",
        "mandatory",
    ),
    (
        "merfolk_scoring",
        "first_only",
        lambda o: at_age_end(age=3, merfolk={0: 6, 1: 6, 2: 3}, options=o),
        ("recruit deck", "reveal DRAGON"),
        "only the players furthest ahead earn (merfolk_scoring=first_only); seats 0 and 1 tie"
        " for 1st and share 4 = 4: 2 each (SCORE-K-3); nothing for seat 2 (TRIBE-MER-3).",
        None,
    ),
    (
        "troll_tiebreak",
        "all_ranks",
        troll_ties,
        ("recruit deck", "reveal DRAGON"),
        "seat 1 ahead of seat 2 on Troll tokens (3 to 0) (SCORE-K-3)",
        None,
    ),
    (
        "troll_tiebreak",
        "first_only",
        troll_ties,
        ("recruit deck", "reveal DRAGON"),
        "seats 1 and 2 tie for 2nd and 3rd and share 6 + 2 = 8: 4 each (SCORE-K-3)",
        "on Troll tokens",
    ),
    (
        "two_player_final_tie",
        "split_II",
        two_player_tie,
        ("recruit deck", "reveal DRAGON"),
        "seats 0 and 1 tie for first and split II = 8: 4 each (SCORE-2P-1).",
        None,
    ),
    (
        "two_player_final_tie",
        "split_I_plus_II",
        two_player_tie,
        ("recruit deck", "reveal DRAGON"),
        "seats 0 and 1 tie for first and split I + II = 2 + 8 = 10: 5 each (SCORE-2P-1).",
        None,
    ),
    (
        "wizard_draw",
        "up_to_x",
        lambda o: position(4, ELF, hands={0: "WIZ-red WIZ-blue"}, options=o),
        ("band *WIZ-red WIZ-blue", "place none", "wizard 1", "reveal ORC-red"),
        "  Wizards: seat 0 draws 1 card from the deck (TRIBE-WIZ-1).",
        None,
    ),
    (
        "elves_keep",
        "exactly_x",
        lambda o: position(
            4, ELF, hands={0: "ELF-red ELF-blue DWA-green ORC-gray TRO-purple"}, options=o
        ),
        ("band *ELF-red ELF-blue", "place none", "keep DWA-green", "keep TRO-purple", "keep done"),
        "  Elves: seat 0 keeps 2 cards (up to X = 2) (TRIBE-ELF-1).",
        None,
    ),
    (
        "orc_empty",
        "any_subset",
        lambda o: at_age_end(age=1, horde={1: ["green", "red", "blue"]}, options=o),
        ("recruit deck", "reveal DRAGON", "empty red blue"),
        "Orcs: seat 1 empties the Horde: 2 markers back to supply, +3 Glory (TRIBE-ORC-2).",
        None,
    ),
]


@pytest.mark.parametrize(
    ("option", "value", "build", "texts", "line", "absent"),
    CASES,
    ids=[f"{case[0]}={case[1]}" for case in CASES],
)
def test_narration_under_each_option(
    option: str,
    value: str,
    build: Any,
    texts: tuple[str, ...],
    line: str,
    absent: str | None,
) -> None:
    """TRIBE-MER-2, BAND-5a, TRIBE-MER-3, SCORE-K-3, SCORE-2P-1, TRIBE-WIZ-1, TRIBE-ELF-1,
    TRIBE-ORC-2, TRIBE-CEN-2: each option that changes what an event says is told as the rule
    applied it."""
    chosen: dict[str, Any] = {option: value}
    lines = told(build(Options(**chosen)), *texts)
    assert any(line in told_line for told_line in lines), "\n".join(lines)
    if absent is not None:
        text = "\n".join(lines) + "\n"
        assert absent not in text, text


@pytest.mark.parametrize(("chain", "offers"), [("allowed", 2), ("single", 1)])
def test_a_second_centaur_band_chains_only_when_the_option_allows(chain: str, offers: int) -> None:
    """TRIBE-CEN-2: with ``centaur_chain=allowed`` the second Centaur band that places may be
    followed by a third, and the narration says so twice; under ``single``, once."""
    options = Options(centaur_chain=chain)  # type: ignore[arg-type]
    state = position(4, CEN, hands={0: "CEN-red CEN-blue CEN-green"}, options=options)
    lines = told(state, "band *CEN-red", "place Rhea", "band *CEN-blue", "place Straton")
    assert sum("may play another band" in line for line in lines) == offers


def test_the_narration_of_a_turn_is_indented_under_its_band() -> None:
    """BAND-4, BAND-6: a band's placement and ability lines are indented under the band; the
    next turn is not."""
    state = position(4, MER, hands={0: "ORC-red ORC-red"})
    lines = told(
        state, "band *ORC-red ORC-red", "place Rhea", "horde add", "recruit deck", "reveal MER-red"
    )
    assert lines == [
        "Turn 1: Seat 0 plays a band of 2 cards (*ORC-red ORC-red), led by ORC-red (Orcs)"
        " (BAND-4).",
        "  The band may place a marker: 2 cards > 0 markers of seat 0 in Rhea (BAND-5).",
        "  Seat 0 places a marker in Rhea (now 1 there) (BAND-5).",
        "  Orcs: seat 0 puts a marker on the red space of the Horde (TRIBE-ORC-1).",
        "Turn 2: Seat 1 draws MER-red from the deck (RECRUIT-1).",
    ]


def test_turns_are_numbered_and_coloured_only_on_a_terminal() -> None:
    """The replay numbers each turn within its Age; colour only where the output is a
    terminal; another player's unseen deck draw is told as a recruit from the deck."""
    from click.testing import CliRunner

    from ethnos_rules.cli import main

    plain = CliRunner().invoke(main, ["replay", str(EXAMPLES / "valid-2p.json")])
    lines = plain.output.splitlines()
    assert "Turn 1: Seat 0 recruits GIA-orange from the row (RECRUIT-1)." in lines
    assert "\x1b[" not in plain.output
    coloured = CliRunner().invoke(main, ["replay", str(EXAMPLES / "valid-2p.json")], color=True)
    assert "\x1b[1mTurn 1:\x1b[0m Seat 0 recruits GIA-orange" in coloured.output
    seat = CliRunner().invoke(main, ["replay", str(EXAMPLES / "valid-4p-kept-at-seat-2.json")])
    assert "Turn 13: Seat 1 recruits from the deck (RECRUIT-1)." in seat.output.splitlines()
    turns = [
        int(line.split(":")[0].split()[1])
        for line in seat.output.splitlines()
        if line.startswith("Turn ")
    ]
    assert turns[:40] == list(range(1, 41))


def test_each_band_that_scores_has_a_line_and_a_lone_band_worth_nothing_is_named() -> None:
    """END-4, COMP-7, TRIBE-SKE-1: under each seat and its total, one line per band that earns
    Glory; bands worth nothing are counted together when their worth reads the same, and a
    lone one is named."""
    bands = {
        0: ["*MER-red MER-green MER-blue", "*ORC-red", "*TRO-gray"],
        1: ["*MIN-red SKE"],
    }
    lines = told(at_age_end(bands=bands), "recruit deck", "reveal DRAGON")
    start = lines.index("Bands, after Skeletons leave them (END-4, COMP-7):")
    assert lines[start + 1 : start + 6] == [
        "  seat 0 (3 Glory):",
        "    *MER-red MER-green MER-blue: 3 cards → 3",
        "    2 bands of 1 card → 0",
        "  seat 1 (0 Glory):",
        "    *MIN-red SKE: 1 card without Skeletons → 0",
    ]
