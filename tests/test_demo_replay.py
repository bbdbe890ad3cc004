"""The docs' demo replay (``docs/_ext/demo_replay.py``): a game of the library's bots
written into the built site, linked from a page in any folder, and played again only when the
package changes.

The Sphinx builds here replace the bots' game (several seconds) by a short random one; the
bots' game itself is checked once, by the last test.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from ethnos_rules import GameRecord, play_random, validate
from helpers import ROOT

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs" / "_ext"))  # as docs/conf.py puts it, for Sphinx too

import demo_replay  # type: ignore[import-not-found]
from docs._ext.link_check import check_site

PAGES = {
    "index.md": "# Home\n\n{demo-replay}`Watch a game`\n\n```{toctree}\nlearn/page\n```\n",
    "learn/page.md": "# Page\n\nOr {demo-replay}`watch it here`.\n",
}
CONF = f"import sys\nsys.path.insert(0, {str(ROOT / 'docs' / '_ext')!r})\n" + (
    "extensions = ['myst_parser', 'demo_replay']\nhtml_theme = 'basic'\n"
)
SHORT = GameRecord.from_playthrough(play_random(2, seed=5))


def _build(root: Path, builder: str = "html") -> str:
    """Build the sample pages under ``root`` (kept between calls); the warnings."""
    from sphinx.application import Sphinx

    source = root / "src"
    for name, text in {**PAGES, "conf.py": CONF}.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text, encoding="utf-8")
    warnings = io.StringIO()  # Sphinx run twice in a process warns of its own nodes again
    app = Sphinx(
        str(source),
        str(source),
        str(root / builder),
        str(root / "doctrees"),
        builder,
        status=io.StringIO(),
        warning=warnings,
    )
    app.build()
    return "".join(
        line for line in warnings.getvalue().splitlines(True) if "already registered" not in line
    )


def _links(page: Path) -> list[tuple[str, str]]:
    found = re.findall(r'<a [^>]*href="([^"]*)"[^>]*>(.*?)</a>', page.read_text(encoding="utf-8"))
    return [(href, words) for href, words in found if "replay" in href]


class Games:
    """The games the extension plays in a test, each named by the package key it was for."""

    def __init__(self) -> None:
        self.key = "first"
        self.played: list[str] = []

    def record(self) -> GameRecord:
        self.played.append(self.key)
        return SHORT


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> Games:
    games = Games()
    monkeypatch.setattr(demo_replay, "_package_key", lambda: games.key)
    monkeypatch.setattr(demo_replay, "demo_record", games.record)
    return games


def test_pages_in_any_folder_link_to_the_replay_in_the_site(tmp_path: Path, games: Games) -> None:
    assert _build(tmp_path) == ""
    site = tmp_path / "html"
    assert _links(site / "index.html") == [("_static/replay/demo.html", "Watch a game")]
    assert _links(site / "learn" / "page.html") == [
        ("../_static/replay/demo.html", "watch it here")
    ]
    replay = (site / demo_replay.REPLAY).read_text(encoding="utf-8")
    assert replay.startswith("<!DOCTYPE html>") and "Ethnos, 2 players" in replay
    assert "href='../../reference/rules-1e.html#TURN-1'" in replay  # the site's own rules page
    assert check_site(site).broken == []
    assert games.played == ["first"]


def test_the_game_is_played_again_only_when_the_package_changes(
    tmp_path: Path, games: Games
) -> None:
    _build(tmp_path)
    _build(tmp_path)
    assert games.played == ["first"]
    games.key = "changed"
    _build(tmp_path)
    assert games.played == ["first", "changed"]
    (tmp_path / "html" / demo_replay.REPLAY).unlink()  # a site cleaned, its doctrees kept
    _build(tmp_path)
    assert games.played == ["first", "changed", "changed"]


def test_other_builders_write_the_words_without_a_link_or_a_replay(
    tmp_path: Path, games: Games
) -> None:
    assert _build(tmp_path, "text") == ""
    assert "Or watch it here." in (tmp_path / "text" / "learn" / "page.txt").read_text()
    assert games.played == []


def test_the_package_key_follows_the_package_files() -> None:
    assert demo_replay._package_key() == demo_replay._package_key()
    assert re.fullmatch(r"[0-9a-f]{64}", demo_replay._package_key())


def test_the_demo_is_a_whole_game_of_four_bots() -> None:
    record = demo_replay.demo_record()
    report = validate(record)
    assert report.ok and report.complete and record.players == 4
    assert dict(record.metadata)["seed"] == str(demo_replay.SEED)
