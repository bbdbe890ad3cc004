"""Pictures (ethnos_rules.svg) and the HTML replay: well-formed SVG with a viewBox and a
description, nothing hidden in a seat's picture, golden pictures, and the replay page stepped
through in a real browser."""

from __future__ import annotations

import json
import random
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from ethnos_rules import (
    GameRecord,
    SetupError,
    observation,
    outcome,
    play_random,
    position,
    svg,
    validate,
)
from ethnos_rules._text.html_replay import replay_html
from golden_pictures import PICTURES, SVG_DIR
from helpers import EXAMPLES, install_debian, run

REGENERATE = "pictures changed: python scripts/regenerate_golden.py, then review git diff"
NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_golden_pictures(name: str) -> None:
    assert (SVG_DIR / f"{name}.svg").read_text() == PICTURES[name]() + "\n", REGENERATE


def _parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg" and root.get("viewBox")
    desc = root.find(f"{NS}desc")
    assert desc is not None and desc.text
    return root


def test_every_picture_is_well_formed() -> None:
    for draw in PICTURES.values():
        _parse(draw())
    game = play_random(3, seed=8)
    for state in list(game.states())[::40]:
        _parse(svg.board(state, size=600))
        for seat in range(3):
            _parse(svg.board(state, seat=seat))


def _codes(picture: str) -> set[str]:
    """Every card named anywhere in a picture: in its text and in its attributes."""
    root = ET.fromstring(picture)
    words = set()
    for node in root.iter():
        words.update((node.text or "").replace(",", " ").replace(".", " ").split())
        words.update(v.removeprefix("#card-").removeprefix("card-") for v in node.attrib.values())
    return words


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seat_picture_shows_no_hidden_card(players: int) -> None:
    """No card of another player's hand appears in a seat's picture unless that seat sees a
    card of the same kind (in the row, a band, its own hand)."""
    game = play_random(players, seed=players)
    for state in list(game.states())[::25]:
        for seat in range(players):
            seen = observation(state, seat)
            visible = {c.code for c in (*seen.row, *seen.hand)}
            visible |= {c.code for view in seen.seats for b in view.bands for c in b.cards}
            hidden = {
                c.code for s, p in enumerate(state.players) if s != seat for c in p.hand
            } - visible
            assert not hidden & _codes(svg.board(state, seat=seat))
            assert not hidden & _codes(seen._repr_svg_())


def test_the_full_picture_shows_every_hand_and_the_pieces() -> None:
    state = list(play_random(4, seed=3).states())[300]
    picture = state._repr_svg_()
    for player in state.players:
        assert {c.code for c in player.hand} <= _codes(picture)
    for label in ("Althea", "Straton", "Row", "Deck:", "P0", "P3"):
        assert label in picture
    with pytest.raises(SetupError, match="SETUP-1"):
        svg.board(state, seat=4)


def test_replay_html_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run("replay", str(EXAMPLES / "valid-2p.json"), "--html", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script>" in page
    assert " src=" not in page and "<link" not in page  # nothing from the network
    bad = run("replay", str(EXAMPLES / "valid-2p.json"), "--html", str(tmp_path))
    assert bad.exit_code != 0


def test_a_seat_page_holds_no_hidden_card() -> None:
    record = GameRecord.read(EXAMPLES / "valid-4p-kept-at-seat-2.json")
    page = replay_html(record)
    assert "as seat 2 sees it" in page and "every hand shown" not in page
    assert "cards (hidden)" in page


# --- in a real browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    why = install_debian(
        ["chromium", "chromium-driver"],
        lambda: bool(shutil.which("chromium") and shutil.which("chromedriver")),
    )
    if why is not None:
        pytest.skip(f"the browser test needs headless Chromium: {why}")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    yield driver
    driver.quit()


def test_the_replay_steps_in_a_browser(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    record = GameRecord.from_playthrough(play_random(3, seed=2))
    page = tmp_path / "replay.html"
    page.write_text(replay_html(record))
    browser.get(page.as_uri())
    where = browser.find_element(By.ID, "where")
    total = len(record.actions)
    assert where.text == f"step 0 of {total}"
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_LEFT)
    assert where.text == f"step 2 of {total}"
    assert browser.find_element(By.CSS_SELECTOR, "#story h2").text.startswith("Step 2: ")
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg g.kingdom")
    browser.find_element(By.ID, "next").click()
    assert where.text == f"step 3 of {total}"
    ends = browser.execute_script("return DATA.frames.flatMap((f, i) => f.scores ? [i] : [])")
    assert len(ends) == 2  # two Ages with 3 players
    browser.execute_script(f"show({ends[0]})")
    assert "Age I scored" in browser.find_element(By.CSS_SELECTOR, "table.scores").text
    body.send_keys(Keys.END)
    assert where.text == f"step {total} of {total}"
    assert "win" in browser.find_element(By.ID, "story").text
    shot = tmp_path / "replay.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    browser.set_window_size(600, 1000)  # a phone: the board keeps a legible width, scrolling
    board = browser.find_element(By.CSS_SELECTOR, "#board svg")
    assert board.size["width"] >= 540
    browser.save_screenshot(str(tmp_path / "replay-600.png"))
    browser.set_window_size(1280, 1000)
    rng = random.Random(1)
    browser.execute_script(f"show({rng.randrange(total)})")
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg use")
    browser.get("about:blank")
    browser.get(page.as_uri() + "#7")  # an address names a step; the page opens there
    assert browser.find_element(By.ID, "where").text == f"step 7 of {total}"
    browser.execute_script("location.hash = '#9'")  # and follows it when it changes
    assert browser.find_element(By.ID, "where").text == f"step 9 of {total}"
    for bad in ("#abc", "#12abc", "#-3"):  # not a step: the address goes back to the step
        browser.execute_script(f"location.hash = '{bad}'")
        assert browser.execute_script("return location.hash") == "#9"
    page.write_text(replay_html(record, at=11))
    browser.get("about:blank")
    browser.get(page.as_uri())
    assert browser.find_element(By.ID, "where").text == f"step 11 of {total}"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert browser.execute_script("return location.hash") == "#12"
    browser.find_element(By.ID, "slider").send_keys(Keys.ARROW_RIGHT)  # one step, not two
    assert browser.find_element(By.ID, "where").text == f"step 13 of {total}"
    refused = attrs.evolve(record, first_player=5)  # the setup itself is refused
    page.write_text(replay_html(refused))
    browser.get(page.as_uri())
    assert "The setup is refused: AGE-5" in browser.find_element(By.ID, "story").text


def test_replay_html_exits_as_replay_does_and_tells_the_whole_game(tmp_path: Path) -> None:
    """A page of a record that breaks a rule or claims the wrong Glory is written, shows the
    refusal as validate() says it (the decision's index, the Age and turn, the rule, what was
    legal), and replay --html exits 1; a whole record's page tells every private draw."""
    out = tmp_path / "page.html"
    for name in ("invalid-tie-split.json", "invalid-band.json"):
        refused = run("replay", str(EXAMPLES / name), "--html", str(out), "--force")
        report = validate(GameRecord.read(EXAMPLES / name))
        assert refused.exit_code == 1 and report.summary() in refused.output
        page = out.read_text()
        data = json.loads(page.split("const DATA = ", 1)[1].split(";\n", 1)[0])
        assert data["error"] == report.summary()
    page = replay_html(GameRecord.from_playthrough(play_random(3, seed=7)))
    assert page.count("from the deck (RECRUIT-1)") > 20  # "Seat 0 draws MER-blue from the deck"


def test_record_text_cannot_end_or_hide_the_page_script() -> None:
    record = GameRecord.from_playthrough(play_random(2, seed=1))
    bad = attrs.evolve(record, actions=(*record.actions[:30], "<!--<script></script>"))
    page = replay_html(bad)
    script = page.split("<script>", 1)[1].rsplit("</script>", 1)[0]
    assert "<" not in script.split("const DATA = ", 1)[1].split(";\n", 1)[0]


def test_bad_picture_and_page_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="an integer from 1 to 100,000, not -5"):
        svg.board(play_random(2, seed=1).final, size=-5)
    for at in (-1, 1.5, True):
        with pytest.raises(ValueError, match="a number of decisions from 0"):
            replay_html(GameRecord.from_playthrough(play_random(2, seed=1)), at=at)  # type: ignore[arg-type]


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


def test_the_text_picture_names_the_kingdoms_and_the_outcome() -> None:
    """str(state): each seat's markers by kingdom name, with the Merfolk track, Horde, Troll
    and Giant tokens it holds; at the end, the outcome's sentence (GAME-1..3)."""
    state = position(
        4,
        ["DWA", "ELF", "GIA", "MER", "ORC", "TRO"],
        kingdoms={1: {"Rhea": 2, "Althea": 1}},
        horde={1: ["red"]},
        trolls={1: [3]},
        giant=(1, 2),
        bands={1: ["*GIA-red GIA-blue"]},
    )
    lines = str(state).splitlines()
    seat = lines.index(
        "seat 1: glory 0, supply 20, merfolk track 0, horde red, trolls 3, giant token"
    )
    assert lines[seat + 1] == "  markers: Althea 1, Rhea 2"
    assert "  markers: -" in lines
    final = play_random(2, seed=5).final
    assert str(final).splitlines()[0].endswith(f"the game is over. {outcome(final)}")
