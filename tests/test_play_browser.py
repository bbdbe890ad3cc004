"""The play table (issue 32) in a real browser: Debian's headless Chromium driven by Playwright
against the real server (`ethnos-rules play`, started on 127.0.0.1 at a free port).

A whole 2-player game against a bot is played by clicks to the final scores (a row card
recruited by clicking it, a band built by picking its cards and starring its Leader, the other
decisions by clicking the referee's legal moves); an illegal band is refused with its rule shown
and nothing changes; two seats on two pages never show each other's hand; hot-seat play hides
the hand until the next person clicks; no page logs an error. Screenshots at 420 px and 1280 px
are written to build/play-screenshots/ to be looked at.

Where Chromium or Playwright cannot be had, every test here skips and says why.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ethnos_rules._text import rulebook
from helpers import install_debian

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parent.parent / "build" / "play-screenshots"
# Chromium logs every 4xx answer to fetch() as a console error; a refusal (422) is the answer
# the page asks for when it sends an illegal try, so those lines are expected there and only there.
REFUSED_FETCH = re.compile(r"Failed to load resource: the server responded with a status of 422")

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


# --- the browser and the server ------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:  # pragma: no cover - the dev extras install it
        pytest.skip(f"the play table's browser tests need Playwright for Python: {err}")
    why = install_debian(["chromium"], lambda: os.access(CHROMIUM, os.X_OK))
    if why is not None:
        pytest.skip(f"the play table's browser tests need Debian's Chromium at {CHROMIUM}: {why}")
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as err:  # pragma: no cover - depends on the machine
            pytest.skip(f"Chromium at {CHROMIUM} does not start under Playwright: {err}")
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a running play server: `python -m ethnos_rules play --no-browser`."""
    given = os.environ.get("ETHNOS_PLAY_URL")
    if given:
        yield given.rstrip("/")
        return
    folder = tmp_path_factory.mktemp("play")
    process = subprocess.Popen(
        [sys.executable, "-m", "ethnos_rules", "play", "--no-browser", "--dir", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=folder,
    )
    assert process.stdout is not None
    address = None
    seen = []
    deadline = time.monotonic() + 30
    while address is None and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            address = found.group(0)
    if address is None:
        process.kill()
        pytest.fail("the play server printed no address: " + "".join(seen))
    try:
        yield address
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            process.kill()


class Console:
    """Every console message and page error of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.refusals = 0  # how many illegal tries were sent on purpose

    def watch(self, page: Any) -> Any:
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        return page

    def outside(self, route: Any) -> None:
        self.errors.append(f"a request left the machine: {route.request.url}")
        route.abort()

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def check(self) -> None:
        expected = [e for e in self.errors if REFUSED_FETCH.search(e)]
        others = [e for e in self.errors if not REFUSED_FETCH.search(e)]
        assert others == [], others
        assert len(expected) <= self.refusals, expected


def new_page(chromium: Any, console: Console, width: int) -> Any:
    page = chromium.new_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(15_000)
    console.watch(page)
    # nothing may leave the machine: a request anywhere but the local server is an error
    page.route(re.compile(r"^(?!http://127\.0\.0\.1:\d+/|data:|about:).*"), console.outside)
    return page


def shot(page: Any, name: str, *, full: bool = False) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    return path


# --- reading the page ----------------------------------------------------------------------------


def settle(page: Any) -> str:
    """Wait until the seat has a decision to make or the game is over; the state then."""
    page.wait_for_selector(
        "body[data-state='yours'], body[data-state='finished'], body[data-state='covered']",
        timeout=30_000,
    )
    return str(page.get_attribute("body", "data-state"))


def version(page: Any) -> int:
    return int(page.get_attribute("body", "data-version") or "-1")


def hand(page: Any) -> list[str]:
    return [
        str(c) for c in page.locator("#hand .card").evaluate_all("n => n.map(c => c.dataset.card)")
    ]


def row(page: Any) -> list[str]:
    return [
        str(c) for c in page.locator("#row .card").evaluate_all("n => n.map(c => c.dataset.card)")
    ]


def legal(page: Any) -> list[str]:
    page.click("#hint-legal")
    page.wait_for_selector("#legal p")
    return [
        str(a)
        for a in page.locator("#legal .legal-move").evaluate_all(
            "n => n.map(b => b.dataset.action)"
        )
    ]


def wait_moved(page: Any, before: int) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v", arg=before, timeout=15_000
    )


def pick_band(page: Any, cards: list[str], leader: str) -> None:
    """Pick the band's cards in the hand, then star its Leader (by clicking, as a person does)."""
    page.click("#clear-band") if page.is_visible("#clear-band") else None
    for code in cards:
        page.locator(f"#hand .card[data-card='{code}'][aria-pressed='false']").first.click()
    page.locator(f"#band-cards .chip[data-card='{leader}']").first.click()


def start_game(page: Any, server: str, seats: list[str], seed: int) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#seat-1")
    page.select_option("#players", str(len(seats)))
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#seed", str(seed))
    page.click("#start")


# --- the tests -----------------------------------------------------------------------------------


def test_a_whole_game_against_a_bot_by_clicks(chromium: Any, server: str) -> None:
    console = Console()
    page = new_page(chromium, console, 1280)
    start_game(page, server, ["person", "random"], seed=5)
    page.wait_for_url(re.compile(r"/seat/"))

    rng = random.Random(5)
    recruited_from_row = band_by_picking = refused = False
    decisions = 0
    highlighted = False
    while settle(page) == "yours":
        assert decisions < 400, "the game does not end"
        before = version(page)
        moves = legal(page)
        assert moves, "the referee lists no legal move at a decision of this seat"
        bands = [m for m in moves if m.startswith("band ")]
        if not refused and len(hand(page)) >= 2:
            # an illegal band: two cards of the hand that the referee does not list together
            cards = hand(page)
            tries = [
                f"band *{a} {b}"
                for i, a in enumerate(cards)
                for j, b in enumerate(cards)
                if i != j and f"band *{a} {b}" not in moves
            ]
            if tries:
                leader, other = tries[0].removeprefix("band *").split()
                before_hand, before_row = hand(page), row(page)
                pick_band(page, [leader, other], leader)
                console.refusals += 1
                page.click("#play-band")
                page.wait_for_selector("#refusal:not([hidden])")
                text = page.inner_text("#refusal")
                assert "Refused" in text and f"band *{leader} {other}" in text
                link = page.locator("#refusal a.rule")
                rule = link.inner_text()
                assert re.fullmatch(r"[A-Z]+(-[A-Z0-9]+)+", rule), rule
                assert link.get_attribute("href", timeout=1000).endswith(f"/rules#{rule}")
                assert link.get_attribute("title", timeout=1000) == rulebook.sentence(rule)
                assert version(page) == before
                assert hand(page) == before_hand and row(page) == before_row
                shot(page, "table-1280-refused")
                refused = True
                page.click("#clear-band")
                moves = legal(page)
        if not recruited_from_row and any(m.startswith("recruit ") for m in moves):
            targets = [c for c in row(page) if f"recruit {c}" in moves]
            if targets:
                page.locator(f"#row .card[data-card='{targets[0]}']").first.click()
                wait_moved(page, before)
                recruited_from_row = True
                decisions += 1
                continue
        long_bands = [m for m in bands if len(m.split()) >= 3]
        if not band_by_picking and long_bands:
            words = long_bands[0].split()[1:]
            leader = words[0].removeprefix("*")
            pick_band(page, [leader, *words[1:]], leader)
            shot(page, "table-1280-band-picked")
            page.click("#play-band")
            wait_moved(page, before)
            band_by_picking = True
            decisions += 1
            continue
        # otherwise a legal move by clicking it. The Ages end as the deck runs down, so the
        # game is short when the seat draws from the deck and plays its longest band when it
        # must (the referee then lists no recruit).
        if "recruit deck" in moves:
            choice = "recruit deck"
        elif bands:
            choice = max(bands, key=lambda m: len(m.split()))
        else:
            choice = rng.choice(moves)
        page.locator(f"#legal .legal-move[data-action='{choice}']").first.click()
        wait_moved(page, before)
        decisions += 1
        highlighted = highlighted or page.locator(".changed").count() > 0

    assert settle(page) == "finished"
    assert recruited_from_row and band_by_picking and refused
    final = page.locator("#final")
    assert final.is_visible()
    assert page.locator("#final-scores tbody tr").count() == 2
    assert "wins" in final.inner_text()
    for link in ("#dl-seat", "#dl-whole", "#open-replay"):
        assert page.get_attribute(link, "href")
    record = page.request.get(server + str(page.get_attribute("#dl-whole", "href")))
    assert record.status == 200 and record.json()
    replay = page.request.get(server + str(page.get_attribute("#open-replay", "href")))
    assert replay.status == 200 and "<svg" in replay.text()
    assert highlighted, "the page never marked what a step changed"
    shot(page, "table-1280-final")
    # the newest step of the log is highlighted, each rule a link to its text, and what the
    # rule says is the link's tooltip
    assert page.locator("#log li.newest").count() >= 1
    assert page.locator("#log a.rule").count() > 10
    shown = page.locator("#log a.rule, #pending a.rule, #final a.rule").evaluate_all(
        "links => links.map(a => [a.textContent, a.title])"
    )
    assert shown and all(title == rulebook.sentence(rule) for rule, title in shown)
    console.check()
    page.close()


def test_two_seats_never_see_each_others_hand(chromium: Any, server: str) -> None:
    console = Console()
    setup = new_page(chromium, console, 1280)
    start_game(setup, server, ["person", "person"], seed=11)
    setup.wait_for_selector("#created:not([hidden])")
    links = [str(a) for a in setup.locator("a.seat-link").evaluate_all("n => n.map(a => a.href)")]
    hotseat = str(setup.locator("#hotseat-link").evaluate("a => a.href"))
    assert len(links) == 2
    shot(setup, "start-1280-created")
    setup.close()

    pages = [new_page(chromium, console, width) for width in (1280, 420)]
    for page, link in zip(pages, links, strict=True):
        page.goto(link)
        page.wait_for_selector("body[data-state='yours'], body[data-state='waiting']")

    def unseen(me: int) -> list[str]:
        """The cards of the other hand this seat's page has no other reason to show."""
        seen = set(hand(pages[me])) | set(row(pages[me]))
        return [c for c in hand(pages[1 - me]) if c not in seen]

    for _ in range(8):  # draw from the deck until each hand holds a card the other cannot see
        if unseen(0) and unseen(1):
            break
        mover = next(p for p in pages if p.get_attribute("body", "data-state") == "yours")
        before = version(mover)
        mover.click("#deck")
        for page in pages:
            wait_moved(page, before)
    for me, page in enumerate(pages):
        hidden = unseen(me)
        assert hidden, "the test needs a card only the other seat holds"
        # all that the page draws from the server (the notation's examples aside)
        html = page.evaluate(
            """() => ["summary", "pending", "hand", "row", "board", "log", "legal", "hint-out"]
                .map(id => document.getElementById(id).outerHTML).join("\\n")"""
        )
        for card in hidden:
            assert card not in html, f"seat {me}'s page shows {card} of the other hand"
        assert page.get_attribute("body", "data-seat") == str(me)
    # at phone width nothing scrolls sideways
    assert pages[1].evaluate("document.documentElement.scrollWidth") <= 420
    shot(pages[1], "table-420-seat", full=False)
    pages[1].evaluate("document.getElementById('board').scrollIntoView()")
    shot(pages[1], "table-420-board")

    # hot-seat on one device: the hand stays hidden behind the cover until its seat clicks
    page = new_page(chromium, console, 420)
    page.goto(hotseat)
    page.wait_for_selector("#cover:not([hidden])")
    assert page.locator("#hand .card").count() == 0 and page.is_hidden("#table")
    seat = page.get_attribute("body", "data-seat")
    assert f"seat {seat}" in page.inner_text("#cover")
    shot(page, "hotseat-420-cover")
    page.click("#cover-show")
    page.wait_for_selector("body[data-state='yours']")
    assert page.locator("#hand .card").count() > 0
    assert page.get_attribute("body", "data-seat") == seat
    page.click("#deck")  # recruit from the deck: the other person decides next
    page.wait_for_selector("#cover:not([hidden])")
    assert page.get_attribute("body", "data-seat") != seat
    assert page.locator("#hand .card").count() == 0 and page.is_hidden("#table")
    page.click("#cover-show")
    page.wait_for_selector("body[data-state='yours']")
    for p in [*pages, page]:
        p.close()
    console.check()


def test_the_start_page_offers_every_option(chromium: Any, server: str) -> None:
    console = Console()
    page = new_page(chromium, console, 420)
    page.goto(server + "/")
    page.wait_for_selector("#seat-1")
    setup = page.request.get(server + "/api/setup").json()
    for name, values in setup["options"].items():
        offered = page.locator(f"#opt-{name} option").evaluate_all("n => n.map(o => o.value)")
        assert offered == values
    assert (
        page.locator("#players option").evaluate_all("n => n.map(o => Number(o.value))")
        == setup["players"]
    )
    bots = [b["name"] for b in page.request.get(server + "/api/bots").json()["bots"]]
    offered = page.locator("#seat-1 option").evaluate_all("n => n.map(o => o.value)")
    assert offered == ["person", *bots]
    shot(page, "start-420", full=True)
    console.check()
    page.close()
