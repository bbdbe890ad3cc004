"""Pictures (ethnos_rules.svg) and the HTML replay: well-formed SVG with a viewBox and a
description, nothing hidden in a seat's picture, golden pictures, and the replay page stepped
through in a real browser."""

from __future__ import annotations

import os
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
)
from ethnos_rules._text import rulebook
from ethnos_rules._text.html_replay import replay_html
from golden_pictures import PICTURES, SVG_DIR
from helpers import install_debian
from replay_pages import page_data, turn_lines

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
    for label in ("Althea", "Straton", "Row", "Deck:", "seat 0", "seat 3"):
        assert label in picture
    with pytest.raises(SetupError, match="SETUP-1"):
        svg.board(state, seat=4)


def test_bad_picture_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="an integer from 1 to 100,000, not -5"):
        svg.board(play_random(2, seed=1).final, size=-5)


# --- the HTML replay in a real browser (its other tests: test_html_replay.py) ---------------------

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parent.parent / "build" / "replay-screenshots"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:  # pragma: no cover - the dev extras install it
        pytest.skip(f"the replay's browser test needs Playwright for Python: {err}")
    why = install_debian(["chromium"], lambda: os.access(CHROMIUM, os.X_OK))
    if why is not None:
        pytest.skip(f"the replay's browser test needs Debian's Chromium at {CHROMIUM}: {why}")
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
        except Exception as err:  # pragma: no cover - depends on the machine
            pytest.skip(f"Chromium at {CHROMIUM} does not start under Playwright: {err}")
        yield browser
        browser.close()


class Opened:
    """A replay page in the browser, with every console error, page error and request it
    makes."""

    def __init__(self, chromium: Any, width: int) -> None:
        self.page = chromium.new_page(viewport={"width": width, "height": 1000})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.errors.append(f"console {message.type}: {message.text}")

    def open(self, url: str) -> Any:
        self.page.goto("about:blank")
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready]")
        return self.page

    def where(self) -> str:
        return str(self.page.inner_text("#where"))

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_the_replay_steps_in_a_browser(chromium: Any, tmp_path: Path) -> None:
    """By turn (the default) and by decision, with the buttons, the keys, the slider and the
    address (#N after N decisions, #N.2 the second view of a step where an Age ends, #tK turn
    K); rule ids as links with the rule's sentence; the Age's scores; no request, no error;
    and at 420 px nothing scrolls sideways. Screenshots go to build/replay-screenshots/."""
    record = GameRecord.from_playthrough(play_random(3, seed=2))
    file = tmp_path / "replay.html"
    file.write_text(replay_html(record), encoding="utf-8")
    data = page_data(file.read_text(encoding="utf-8"))
    views, turns, total = data["views"], data["turns"], len(record.actions)
    browser = Opened(chromium, 1280)
    page = browser.open(file.as_uri())
    last_of_setup = views[turns[0]["last"]]["step"]
    assert browser.where() == f"0 of {len(turns) - 1} by turn · steps 0–{last_of_setup} of {total}"
    assert page.inner_text("#story h2") == "The setup"
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    assert page.inner_text("#story h2") == turns[2]["title"]
    assert page.locator("#story p:not(.did)").count() == len(turn_lines(data, turns[2]))
    assert page.evaluate("location.hash") == "#t2"
    assert page.locator("#board svg g.kingdom").count() == 6
    page.keyboard.press("Shift+ArrowRight")  # one decision on, by decision from now
    after = views[turns[2]["last"] + 1]
    assert browser.where() == f"step {after['step']} of {total}"
    assert page.inner_text("#story h2") == after["title"]
    page.click("#by-turn")  # back by turn: the turn holding that decision
    assert page.evaluate("location.hash") == f"#t{after['turn']}"
    page.keyboard.press("d")
    page.click("#next")
    assert browser.where() == f"step {views[turns[after['turn']]['last'] + 1]['step']} of {total}"
    rule = page.locator("#story a.rule").first
    said = rulebook.sentence(rule.inner_text())
    assert rule.get_attribute("title") == said
    assert rule.get_attribute("href") == rulebook.address(rule.inner_text())
    page.keyboard.press("End")  # the game's end: the last view of the last decision
    assert browser.where() == f"step {total} of {total} (part 3 of 3)"
    assert "win" in page.inner_text("#story")
    browser.shot("replay-1280-end")

    scored = next(v for v in views if "scores" in v)
    k = next(i for i, v in enumerate(views) if v["step"] == scored["step"])
    part = views.index(scored) - k + 1  # the second view of its step: after the Age's end
    page = browser.open(f"{file.as_uri()}#{scored['step']}.{part}")
    assert "Age I scored" in page.inner_text("table.scores caption")
    assert page.locator("table.scores tr").count() == 1 + 3 + page.locator("#hint tr").count()
    browser.shot("replay-1280-age-scored")
    page.keyboard.press("t")  # by turn: the Age's scores are a step of their own
    assert page.inner_text("#story h2") == "Age I is scored"
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#story h2") == "Age II begins"

    page = browser.open(file.as_uri() + "#7")  # an address names a step; the page opens there
    assert browser.where() == f"step 7 of {total}"
    page.evaluate("location.hash = '#9'")  # and follows it when it changes
    assert browser.where() == f"step 9 of {total}"
    page.evaluate("location.hash = '#t5'")
    assert page.inner_text("#story h2") == turns[5]["title"]
    for bad in ("#abc", "#12abc", "#-3", f"#t{len(turns)}", f"#{total + 1}", "#9.4"):
        page.evaluate(f"location.hash = '{bad}'")  # not a step: the address goes back
        assert page.evaluate("location.hash") == "#t5", bad
    file.write_text(replay_html(record, at=11), encoding="utf-8")
    page = browser.open(file.as_uri())  # at=11: after 11 decisions, by decision
    assert browser.where() == f"step 11 of {total}"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#12"
    page.focus("#slider")
    page.keyboard.press("ArrowRight")  # the slider steps by itself: one step, not two
    assert browser.where() == f"step 13 of {total}"
    assert browser.errors == [] and set(browser.requests) == {file.as_uri()}

    phone = Opened(chromium, 420)  # a phone: the page fits, the board within it
    for name, address in (
        ("setup", ""),
        ("end", f"#{total}"),
        ("turn-40", "#t40"),
        ("age-scored", f"#{scored['step']}.{part}"),
    ):
        page = phone.open(file.as_uri() + address)
        assert page.evaluate("document.documentElement.scrollWidth") <= 420, address
        assert page.locator("#board svg").bounding_box()["width"] <= 420
        phone.shot(f"replay-420-{name}")
    page.click("#board")  # a tap shows the board full size, in a box that scrolls by itself
    assert page.locator("#board svg").bounding_box()["width"] >= 700
    assert page.evaluate("document.documentElement.scrollWidth") <= 420
    assert phone.errors == []

    refused = attrs.evolve(record, first_player=5)  # the setup itself is refused
    file.write_text(replay_html(refused), encoding="utf-8")
    page = browser.open(file.as_uri())
    assert "The setup is refused: AGE-5" in page.inner_text("#story")


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
