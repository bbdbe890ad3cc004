"""The play table in Spanish and Ukrainian (issue 38), in Debian's headless Chromium driven by
Playwright against the real server, as tests/test_play_browser.py drives it (its fixtures).

An illegal band is built by clicks on the page opened with ``?lang=es`` and refused in Spanish
with its rule linked; the same in Ukrainian at 420 px wide, where the Cyrillic text renders and
the page does not scroll sideways. The language selector takes a page from one language to
another. Screenshots go to build/play-screenshots/ to be looked at.
"""

from __future__ import annotations

from typing import Any

import pytest

from test_play_browser import (
    Console,
    chromium,
    new_page,
    pick_band,
    server,
    settle,
    shot,
    start_game,
    version,
)

__all__ = ["chromium", "server"]  # the fixtures, used by name

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def mismatched_pair(page: Any) -> tuple[str, str] | None:
    """Two cards of the hand that share neither tribe nor colour (no Skeleton), if any."""
    cards = [
        str(c)
        for c in page.locator("#hand .card").evaluate_all("n => n.map(c => c.dataset.card)")
        if c != "SKE"
    ]
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            ta, _, ca = a.partition("-")
            tb, _, cb = b.partition("-")
            if ta != tb and ca != cb:
                return a, b
    return None


def refuse_a_band(page: Any, server: str, lang: str, console: Console) -> dict[str, Any]:
    """Start a game against a bot on the page in ``lang``, then build a band of two cards that
    share neither tribe nor colour by clicks and play it; what the page shows then."""
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#seat-1")
    start_game_in(page, lang)
    settle(page)
    pair = mismatched_pair(page)
    while pair is None:  # recruit from the deck until the hand holds such a pair
        before = version(page)
        page.click("#deck")
        page.wait_for_function(
            "v => Number(document.body.dataset.version) > v", arg=before, timeout=15_000
        )
        settle(page)
        pair = mismatched_pair(page)
    before = version(page)
    pick_band(page, list(pair), pair[0])
    console.refusals += 1
    page.click("#play-band")
    page.wait_for_selector("#refusal:not([hidden])")
    link = page.locator("#refusal a.rule")
    return {
        "before": before,
        "after": version(page),
        "text": page.inner_text("#refusal"),
        "rule": link.inner_text(),
        "href": link.get_attribute("href"),
        "lang": page.get_attribute("html", "lang"),
        "heading": page.inner_text(".zone h3 >> nth=0"),
    }


def start_game_in(page: Any, lang: str) -> None:
    """The start page's form, as start_game fills it, on the page already open in ``lang``."""
    page.select_option("#players", "2")
    page.select_option("#seat-0", "person")
    page.select_option("#seat-1", "greedy")
    page.fill("#seed", "11")
    page.click("#start")
    page.wait_for_url(f"**/seat/**lang={lang}*")


def test_an_illegal_band_refused_in_spanish(chromium: Any, server: str) -> None:
    console = Console()
    page = new_page(chromium, console, 1280)
    shown = refuse_a_band(page, server, "es", console)
    shot(page, "i18n-es-refusal-1280")
    assert shown["lang"] == "es"
    assert shown["heading"].startswith("Tu mano")
    assert shown["text"].startswith("Rechazado: las cartas que no son Esqueleto no comparten")
    assert "(regla BAND-2)" in shown["text"] and "Intentaste band *" in shown["text"]
    assert shown["rule"] == "BAND-2" and shown["href"] == "/rules#BAND-2"
    assert shown["after"] == shown["before"]  # nothing changed
    log = page.inner_text("#log")
    assert "Tribus en juego" in log and "Seat " not in log
    page.close()
    console.check()


def test_an_illegal_band_refused_in_ukrainian_at_420_px(chromium: Any, server: str) -> None:
    console = Console()
    page = new_page(chromium, console, 420)
    shown = refuse_a_band(page, server, "uk", console)
    page.locator("#refusal").scroll_into_view_if_needed()
    shot(page, "i18n-uk-refusal-420")
    assert shown["lang"] == "uk"
    assert shown["heading"].startswith("Ваша рука")
    assert shown["text"].startswith("Відмовлено: карти, що не є скелетами")
    assert "(правило BAND-2)" in shown["text"]
    assert shown["rule"] == "BAND-2" and shown["href"] == "/rules#BAND-2"
    assert shown["after"] == shown["before"]
    # no sideways scrolling, and the Cyrillic is drawn with a real font (not the tofu boxes of
    # a font without those letters: each letter of a word has a width of its own)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 420, f"the page is {wide} px wide at 420"
    widths = page.evaluate(
        """() => [...'Відмовлено'].map(ch => {
            const s = document.createElement('span'); s.textContent = ch;
            document.body.appendChild(s); const w = s.getBoundingClientRect().width;
            s.remove(); return Math.round(w * 10); })"""
    )
    assert len(set(widths)) > 3, widths
    shot(page, "i18n-uk-table-420", full=True)
    page.close()
    console.check()


def test_the_selector_changes_the_language(chromium: Any, server: str) -> None:
    console = Console()
    page = new_page(chromium, console, 1280)
    page.goto(server + "/")
    page.wait_for_selector("#seat-1")
    assert page.inner_text("#start") == "start the game"
    page.select_option("#language", "cs")
    page.wait_for_url("**/?lang=cs")
    page.wait_for_selector("#seat-1")
    assert page.inner_text("#start") == "začít hru"
    assert page.get_attribute("html", "lang") == "cs"
    assert page.locator("#seat-0 option").first.inner_text() == "člověk"
    page.close()
    console.check()


def test_the_english_page_is_unchanged(chromium: Any, server: str) -> None:
    """Without ?lang the game is played in English, as before."""
    console = Console()
    page = new_page(chromium, console, 1280)
    start_game(page, server, ["person", "greedy"], 11)
    settle(page)
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text(".zone h3 >> nth=0").startswith("Your hand")
    assert "Tribes in play" in page.inner_text("#log")
    page.close()
    console.check()
