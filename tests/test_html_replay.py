"""The HTML replay (``ethnos-rules replay --html``, ``replay_html``): its steps by turns read
from the events, a sentence for every decision, an Age's end shown as the board being scored,
then its scores, then the next Age; the hint panel's legal moves and scores if the Age ended
now; rule ids as links to the rulebook; and a record kept at one seat leaking nothing.

The page in a real browser is tested in ``test_pictures.py`` (with the other slow tests)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from ethnos_rules import (
    AgeEnded,
    AgeScored,
    GameRecord,
    GameState,
    Playthrough,
    legal_actions,
    pending_decision,
    play_random,
    redact,
    score_now,
    step,
    validate,
)
from ethnos_rules._pictures.drawing import seat_picture
from ethnos_rules._rules.events import opens_turn
from ethnos_rules._text import rulebook
from ethnos_rules._text.html_replay import replay_html
from helpers import EXAMPLES, run
from replay_pages import hint_of, page_data, turn_lines

ORCS = ["ORC", "DWA", "ELF", "MIN", "WIZ", "SKE"]
"""With seed 0, four random players leave Orc Horde decisions at the end of Ages I and II."""

RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-[0-9][a-z0-9]*\b")


@functools.cache
def game(players: int, seed: int, orcs: bool = False) -> Playthrough:
    return play_random(players, seed, tribes=ORCS if orcs else None)


@functools.cache
def states(players: int, seed: int, orcs: bool = False) -> list[GameState]:
    return list(game(players, seed, orcs).states())


@functools.cache
def data_of(players: int, seed: int, orcs: bool = False, seat: int | None = None) -> Any:
    record = GameRecord.from_playthrough(game(players, seed, orcs))
    return page_data(replay_html(record if seat is None else redact(record, seat)))


def events_of(players: int, seed: int, orcs: bool = False) -> list[tuple[Any, ...]]:
    """Each decision's events, replayed with step()."""
    out, played = [], states(players, seed, orcs)
    for state, action in zip(played, game(players, seed, orcs).actions, strict=False):
        out.append(step(state, action).events)
    return out


# --- the page, from the command line --------------------------------------------------------------


def test_replay_html_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run("replay", str(EXAMPLES / "valid-2p.json"), "--html", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script>" in page
    assert " src=" not in page and "<link" not in page  # nothing from the network
    assert "fetch(" not in page and "XMLHttpRequest" not in page
    bad = run("replay", str(EXAMPLES / "valid-2p.json"), "--html", str(tmp_path))
    assert bad.exit_code != 0


def test_replay_html_at_opens_the_page_at_that_step(tmp_path: Path) -> None:
    """``replay --at N --html OUT`` writes the whole game's page, opening at step N."""
    out = tmp_path / "page.html"
    result = run("replay", str(EXAMPLES / "valid-2p.json"), "--at", "30", "--html", str(out))
    assert result.exit_code == 0 and "at step 30" in result.output
    assert out.read_text() == replay_html(GameRecord.read(EXAMPLES / "valid-2p.json"), at=30)
    assert out.read_text() != replay_html(GameRecord.read(EXAMPLES / "valid-2p.json"))
    refused = run(
        "replay", str(EXAMPLES / "invalid-band.json"), "--at", "40", "--html", str(out), "--force"
    )
    assert refused.exit_code == 1 and "at step 30" in refused.output  # where it is refused


def test_replay_html_exits_as_replay_does_and_tells_the_whole_game(tmp_path: Path) -> None:
    """A page of a record that breaks a rule or claims the wrong Glory is written, shows the
    refusal as validate() says it (the decision's index, the Age and turn, the rule, what was
    legal), and replay --html exits 1; a whole record's page tells every private draw."""
    out = tmp_path / "page.html"
    for name in ("invalid-tie-split.json", "invalid-band.json"):
        refused = run("replay", str(EXAMPLES / name), "--html", str(out), "--force")
        report = validate(GameRecord.read(EXAMPLES / name))
        assert refused.exit_code == 1 and report.summary() in refused.output
        assert page_data(out.read_text())["error"] == report.summary()
    data = data_of(3, 7)
    drawn = [line for view in data["views"] for line in view["lines"] if "from the deck (" in line]
    assert sum(
        re.match(r"Seat \d draws [A-Z]{3}-[a-z]+ from the deck", x) is not None for x in drawn
    )
    assert all("draws a card" not in line for line in drawn)  # every card named


def test_record_text_cannot_end_or_hide_the_page_script() -> None:
    record = GameRecord.from_playthrough(play_random(2, seed=1))
    bad = attrs.evolve(
        record,
        actions=(*record.actions[:30], "<!--<script></script>"),
        metadata={"name": "</script><script>alert(1)</script>"},
    )
    page = replay_html(bad)
    script = page.split("<script>", 1)[1].rsplit("</script>", 1)[0]
    assert "<" not in script.split("const PACKED = ", 1)[1].split(";\n", 1)[0]
    assert page.count("<script>") == 1 and page.count("</script>") == 1
    assert "<!--" not in page
    assert page_data(page)["views"][-1]["step"] == 30  # the refusal is told, not run


def test_bad_page_arguments_are_refused() -> None:
    record = GameRecord.from_playthrough(play_random(2, seed=1))
    for at in (-1, 1.5, True):
        with pytest.raises(ValueError, match="a number of decisions from 0"):
            replay_html(record, at=at)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules_page is the address of a rules page"):
        replay_html(record, rules_page=5)  # type: ignore[arg-type]


# --- turns and sentences --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 3), (6, 4)])
def test_the_page_steps_by_the_turns_the_events_open(players: int, seed: int) -> None:
    """TURN-1: a turn begins with a recruit, a pass or a band that is not a Centaur chain's
    next one (opens_turn); the page's turns are those, plus the setup and, for each Age's end,
    its scores and the next Age. Together the turns hold every view once, in order."""
    data = data_of(players, seed)
    views, turns = data["views"], data["turns"]
    opened = [
        next(e for e in events if opens_turn(e))
        for events in events_of(players, seed)
        if any(opens_turn(e) for e in events)
    ]
    played = [t for t in turns if ", turn " in t["title"]]
    assert len(played) == len(opened) < len(views) / 1.5
    for turn, event in zip(played, opened, strict=True):
        assert turn["title"].split(" · ")[0].endswith(f": seat {event.seat}")
    ages = game(players, seed).final.config.ages
    assert [t["title"] for t in turns if ", turn " not in t["title"]] == [
        "The setup",
        *[
            title
            for age in ("I", "II", "III")[:ages]
            for title in (f"Age {age} is scored", f"Age {_next(age)} begins")
        ][:-1],
        "The game is over",
    ]
    assert [t["first"] for t in turns] == [0] + [t["last"] + 1 for t in turns[:-1]]
    assert turns[-1]["last"] == len(views) - 1
    assert all(views[i]["turn"] == k for k, t in enumerate(turns) for i in _span(t))
    numbers = [int(t["title"].split(", turn ")[1].split(":")[0]) for t in played]
    assert numbers[:5] == [1, 2, 3, 4, 5] and numbers.count(1) == ages  # counted in each Age


def _next(age: str) -> str:
    return {"I": "II", "II": "III", "III": "IV"}[age]


def _span(turn: dict[str, Any]) -> range:
    return range(turn["first"], turn["last"] + 1)


@pytest.mark.parametrize(
    ("players", "seed", "orcs", "seat"),
    [
        (2, 1, False, None),
        (4, 3, False, None),
        (4, 3, False, 1),
        (4, 0, True, None),
        (5, 2, False, 4),
    ],
)
def test_every_step_is_told(players: int, seed: int, orcs: bool, seat: int | None) -> None:
    """Every view says what happened: chance's cards (`reveal X`) and the Elves' keeps
    included; a card the record's seat did not see is told without it ("a card")."""
    data = data_of(players, seed, orcs, seat)
    for view in data["views"]:
        assert view["lines"] and all(line.strip() for line in view["lines"]), view["title"]
    reveals = [v for v in data["views"] if v["did"] and v["did"].startswith(("reveal", "keep"))]
    assert reveals
    for view in reveals:
        card = view["did"].split()[1]
        told = " ".join(view["lines"])
        if card == "?":
            assert seat is not None and "a card" in told, view
        elif card not in ("DRAGON", "done"):
            assert card in told, view
    assert all(turn_lines(data, t) for t in data["turns"])


def test_a_turn_is_told_at_once() -> None:
    """Stepping by turns, a recruit from the deck is told by the card drawn (one line, not
    the recruit and then the draw)."""
    data = data_of(4, 3)
    turn = next(t for t in data["turns"] if "lines" in t and ", turn " in t["title"])
    views = data["views"][turn["first"] : turn["last"] + 1]
    assert [v["did"].split()[0] for v in views] == ["recruit", "reveal"]
    assert len(turn["lines"]) == 1 and "from the deck" in turn["lines"][0]


# --- the end of an Age ----------------------------------------------------------------------------


@pytest.mark.parametrize("orcs", [False, True])
def test_an_age_ends_on_its_board_then_its_scores_then_the_next_age(orcs: bool) -> None:
    """RECRUIT-4, END: where an Age ends, the page shows the board as the Age ends (its bands
    on the table; the state before the decision), its scores (the Age's summary, as the
    AgeScored event and the state's history carry it), then the next Age, in that order. With
    Orcs, their Horde decisions come between the end and the scores."""
    players, seed = 4, 0 if orcs else 3
    data = data_of(players, seed, orcs)
    views, played = data["views"], states(players, seed, orcs)
    events = events_of(players, seed, orcs)
    final = played[-1]
    ends = [v for v in views if v.get("role") == "ends"]
    scored = [v for v in views if "scores" in v]
    assert len(ends) == len(scored) == final.config.ages
    for age, (end, score) in enumerate(zip(ends, scored, strict=True), start=1):
        i, k = views.index(end), views.index(score)
        assert i < k and views[k + 1]["role"] == "next"
        assert any(isinstance(e, AgeEnded) for e in events[end["step"] - 1])
        assert any(isinstance(e, AgeScored) for e in events[score["step"] - 1])
        before = played[end["step"] - 1]  # the board being scored: bands on the table
        assert any(p.bands for p in before.players)
        told = events[end["step"] - 1]
        cut = next(j for j, e in enumerate(told) if isinstance(e, AgeEnded)) + 1
        assert _drawn(data, end) == seat_picture(before, None, told[:cut])[1]
        after = played[views[k + 1]["step"]]  # the next Age (or the game's end): no band
        assert not any(p.bands for p in after.players)
        told = events[score["step"] - 1]
        cut = next(j for j, e in enumerate(told) if isinstance(e, AgeScored)) + 1
        assert _drawn(data, views[k + 1]) == seat_picture(after, None, told[cut:])[1]
        head, *rows = final.history[age - 1].rows()
        assert score["scores"]["head"] == head
        assert [r[1:] for r in score["scores"]["rows"]] == [r[1:] for r in rows]
        assert [r[0] for r in score["scores"]["rows"]] == [f"seat {r[0]}" for r in rows]
        titles = [data["turns"][views[j]["turn"]]["title"] for j in (i, k, k + 1)]
        assert ", turn " in titles[0] and titles[0].endswith(f" · Age {'I' * age} ends")
        assert titles[1] == f"Age {'I' * age} is scored"
        if orcs and age < final.config.ages:  # the Orc players decide between
            between = views[i + 1 : k + 1]
            assert any(v["did"].startswith("empty") for v in between)


def _drawn(data: dict[str, Any], view: dict[str, Any]) -> list[tuple[float, str]]:
    return [(top, data["parts"][i]) for top, i in view["parts"]]


# --- the hint panel -------------------------------------------------------------------------------


def test_the_hint_panel_lists_the_legal_moves_and_the_scores_if_the_age_ended_now() -> None:
    """At each step the panel names the decision pending, lists the legal moves of the player
    to move (legal_actions) and the Glory each seat would have if the Age ended now
    (score_now) while the Age's turns are played."""
    data, played = data_of(4, 3), states(4, 3)
    checked = 0
    for view in data["views"]:
        if view.get("role") in ("ends", "scored"):
            continue
        state, hint = played[view["step"]], hint_of(data, view)
        pending = pending_decision(state)
        assert f"({pending.rule})" in hint["who"]
        if pending.seat is None:
            assert "moves" not in hint
        else:
            listed = {
                f"{verb} {m}" if m != verb else verb for verb, ms, _ in hint["moves"] for m in ms
            }
            assert listed == {str(a) for a in legal_actions(state)}
            checked += 1
        if view["step"] % 7 == 0 and "now" in hint:
            rows = score_now(state).summary.rows()
            assert [r[1:] for r in hint["now"]["rows"]] == [r[1:] for r in rows[1:]]
    assert checked > 300


def test_a_seat_page_holds_no_hidden_card_and_no_other_seats_moves() -> None:
    """A record kept at one seat: its pictures show the other hands as counts, and its hint
    panel lists only that seat's own moves, the same as the whole record's page lists there."""
    record = GameRecord.read(EXAMPLES / "valid-4p-kept-at-seat-2.json")
    data = page_data(replay_html(record))
    assert any("as seat 2 sees it" in part for part in data["parts"])
    assert any("(hidden)" in part for part in data["parts"])
    assert not any("every hand shown" in part for part in data["parts"])
    whole, kept = data_of(4, 3), data_of(4, 3, seat=1)
    hidden = 0
    for view in kept["views"]:
        hint = hint_of(kept, view)
        if "moves" in hint:
            assert hint["who"].startswith("Seat 1 to move")
        elif hint["who"].startswith("Seat ") and not hint["who"].startswith("Seat 1 "):
            assert "Seat 1 " not in hint.get("hidden", "Seat 1 ")
            hidden += 1
    assert hidden > 100
    mine = [hint_of(kept, v)["moves"] for v in kept["views"] if "moves" in hint_of(kept, v)]
    same = [
        hint_of(whole, v)["moves"]
        for v in whole["views"]
        if hint_of(whole, v)["who"].startswith("Seat 1 to move")
    ]
    assert mine == same and len(mine) > 50


# --- rule ids -------------------------------------------------------------------------------------


def test_every_rule_id_shown_links_to_its_anchor_with_its_sentence() -> None:
    """Each rule id the page shows is in its table of rules cited, with the rule's address on
    the rules page (its own anchor, or its section's) and its sentence for a tooltip; the
    page also lists them in its "Rules cited" section, to be read offline."""
    record = GameRecord.from_playthrough(game(4, 0, True))
    page = replay_html(record, rules_page="/rules")
    data = page_data(page)
    texts = [
        text
        for view in data["views"]
        for text in (*view["lines"], view["title"], hint_of(data, view)["who"])
    ]
    texts += [view["scores"]["caption"] for view in data["views"] if "scores" in view]
    texts += [line for turn in data["turns"] for line in turn_lines(data, turn)]
    shown = {rule for text in texts for rule in RULE_ID.findall(text)}
    assert {"BAND-5", "RECRUIT-4", "END-4", "TRIBE-ORC-2"} <= shown
    assert set(data["rules"]) == {r for r in shown if rulebook.anchor(r)} == shown
    known = set(rulebook.rules()) | rulebook.sections()
    for rule, (link, sentence) in data["rules"].items():
        assert link == f"/rules#{rulebook.anchor(rule)}" and rulebook.anchor(rule) in known
        assert sentence == rulebook.sentence(rule) and sentence.startswith(rule)
        assert f"<dt><a href='{link}'" in page
    published = page_data(replay_html(record))["rules"]["BAND-5"][0]
    assert published == rulebook.address("BAND-5")


# --- size -----------------------------------------------------------------------------------------


def test_each_picture_part_is_written_once_and_the_page_stays_small() -> None:
    record = GameRecord.from_playthrough(game(4, 3))
    page = replay_html(record)
    data = page_data(page)
    assert len(set(data["parts"])) == len(data["parts"])
    assert len(data["views"]) > len(record.actions)  # three views where an Age ends
    assert len(page) < 400_000, len(page)
