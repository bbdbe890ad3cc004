"""Rule addresses in the docs (issue 33): every rule has an anchor on the rules page, the rule
ids the pages write link there with the rule's sentence as tooltip, and the built site's
internal links and anchors all resolve (``docs/_ext/rule_links.py``, ``docs/_ext/link_check.py``).

The rule ids these tests look for are read from the rules text (``rulebook``) and from the
sample page ``tests/data/rule_links/index.md``, never written here: the rule catalogue counts
a rule id written in a test as a test of that rule.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ethnos_rules._text import rulebook
from helpers import ROOT

sys.path.insert(0, str(ROOT))

from docs._ext import link_check

SPHINX = [sys.executable, "-m", "sphinx", "--no-color", "-W", "--keep-going", "-b", "html"]
"""Sphinx as ``make docs`` runs it (a warning fails the build), without colour: where CI looks
like a terminal, colour codes would start the warning lines the tests read."""

SAMPLE = Path(__file__).parent / "data" / "rule_links" / "index.md"

CONF = """
import sys
from pathlib import Path
sys.path.insert(0, {ext!r})
extensions = ["myst_parser", "rule_links"]
exclude_patterns = ["_build"]
html_theme = "basic"

def write_late(app, exception):  # as the demo replay is written, once the pages are
    page = Path(app.outdir) / "_static" / "late" / "page.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text('<a href="../../index.html#written-late">back</a>')

def setup(app):
    app.connect("build-finished", write_late)
"""


# --- the link check on a planted site ---------------------------------------------------------


def _site(root: Path, pages: dict[str, str]) -> Path:
    for name, text in pages.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_check_finds_each_planted_broken_link(tmp_path: Path) -> None:
    """A missing page, a missing anchor and a link out of the site are each reported once, with
    the page holding them; good links (an anchor by id or by name, a folder's index, an encoded
    anchor, the page's own top) and links elsewhere are not."""
    site = _site(
        tmp_path,
        {
            "index.html": '<h1 id="top">t</h1><a href="guide/a.html#x%20y">a</a>'
            '<a href="guide/">folder</a><a href="#">top</a><a href="https://example.org/#z">'
            '</a><a href="mailto:a@b.c">m</a>',
            "guide/index.html": '<a name="old">o</a><a href="../index.html#top">up</a>',
            "guide/a.html": '<p id="x y"></p><a href="index.html#old">ok</a>'
            '<a href="b.html">gone</a><a href="../index.html#nowhere">no anchor</a>'
            '<a href="../../outside.html">out</a><a href="data.json#k">a file</a>',
            "guide/data.json": "{}",
            "_static/skipped.html": '<a href="nothing.html">not a page of the site</a>',
        },
    )
    report = link_check.check_site(site)
    assert (report.pages, report.links) == (3, 9)  # the two links elsewhere are not counted
    assert report.anchors == 4  # x y, top, old, nowhere ("#" is the top; a JSON file has none)
    assert [(b.page, b.href, b.reason) for b in report.broken] == [
        ("guide/a.html", "b.html", "no page guide/b.html"),
        ("guide/a.html", "../index.html#nowhere", "no anchor #nowhere in index.html"),
        ("guide/a.html", "../../outside.html", "outside the site"),
    ]


def test_the_check_passes_a_site_whose_links_resolve(tmp_path: Path) -> None:
    """Nothing broken, nothing reported; the command line says so and exits 0 (1 when broken)."""
    site = _site(tmp_path / "good", {"a.html": '<p id="p"><a href="a.html#p">x</a>'})
    assert link_check.check_site(site).broken == []
    assert link_check.main([str(site)]) == 0
    bad = _site(tmp_path / "bad", {"a.html": '<a href="a.html#q">x</a>'})
    assert link_check.main([str(bad)]) == 1
    assert link_check.main([str(tmp_path / "none")]) == 2


# --- a small Sphinx project with the rules page -----------------------------------------------


VOID = {"area", "base", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Links(HTMLParser):
    """The ids of a page (with their tags), and its rule links with the elements around them."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[str, str] = {}
        self.links: list[dict[str, str]] = []  # href, title, text, inside ("p li#BAND-2 pre")
        self.open: list[str] = []
        self.link: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if "id" in found:
            self.ids[found["id"]] = tag
        if tag == "a" and "rule-link" in found.get("class", "").split():
            inside = " ".join(self.open)
            self.link = {"href": found["href"], "title": found.get("title", ""), "text": ""}
            self.link["inside"] = inside
        if tag not in VOID:
            self.open.append(f"{tag}#{found['id']}" if tag == "li" and "id" in found else tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.link is not None:
            self.links.append(self.link)
            self.link = None
        while self.open and self.open.pop().split("#")[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self.link is not None:
            self.link["text"] += data


def _read(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The sample page and the rules page, built with ``-W`` (the planted links fail it)."""
    source = tmp_path_factory.mktemp("rule-links")
    (source / "conf.py").write_text(CONF.format(ext=str(ROOT / "docs" / "_ext")))
    shutil.copy(SAMPLE, source / "index.md")
    (source / "reference").mkdir()
    shutil.copy(ROOT / "docs" / "reference" / "rules-1e.md", source / "reference")
    out = source / "_build"
    done = subprocess.run(
        [*SPHINX, str(source), str(out), "-d", str(source / "_doctrees")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return out, done


def _prose_mentions() -> list[rulebook.Mention]:
    """The rule ids written in the sample page's paragraphs (not its code, not its headings)."""
    blocks = SAMPLE.read_text(encoding="utf-8").split("\n\n")
    prose = "\n\n".join(b for b in blocks if not b.startswith(("#", "```")))
    return [m for m in rulebook.mentions(prose) if rulebook.known(m.id)]


def test_every_rule_and_section_has_its_anchor_on_the_rules_page(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """Each rule id of the rules text is the id of its list item (case kept: docutils would
    lowercase it), each section id the id of its section."""
    out, _ = built
    ids = _read(out / "reference" / "rules-1e.html").ids
    assert {rule: ids.get(rule) for rule in rulebook.rules()} == dict.fromkeys(
        rulebook.rules(), "li"
    )
    assert {part: ids.get(part) for part in rulebook.sections()} == dict.fromkeys(
        rulebook.sections(), "section"
    )


def test_the_rules_page_links_other_rules_but_no_rule_to_itself(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """The rules cite one another: those ids are links on the page (``#ID``), each with the
    sentence of the rule it names; no rule's item links its own id."""
    out, _ = built
    links = _read(out / "reference" / "rules-1e.html").links
    assert len(links) > 20
    for link in links:
        anchor = link["href"].removeprefix("#")
        assert link["href"].startswith("#"), link
        assert anchor in set(rulebook.rules()) | rulebook.sections(), link
        assert f"li#{anchor}" not in link["inside"].split(), link
        if anchor in rulebook.rules():
            assert link["title"] == rulebook.sentence(anchor)


def test_the_ids_of_a_page_link_to_their_rule_with_its_sentence(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """Every rule id the sample page's paragraphs write (short forms: each number) is a link to
    its anchor on the rules page, titled with what the rule says; its code block and heading
    keep their ids as text; names that merely look like ids are left alone."""
    out, _ = built
    links = _read(out / "index.html").links
    expected = [rulebook.anchor(m.id) for m in _prose_mentions()]
    assert [link["href"] for link in links] == [
        f"reference/rules-1e.html#{anchor}" for anchor in expected
    ]
    assert len(expected) == 8  # 7 written in prose, 1 link made by hand
    for link, mention in zip(links, _prose_mentions(), strict=True):
        assert link["title"] == rulebook.sentence(mention.id)
        assert not {"pre", "h1", "h2"} & set(link["inside"].split())
    short = [link["text"] for link in links if link["text"].isdigit()]
    assert len(short) == 2  # the second number of TRIBE-MER-1/2 and of END-1..3


def test_the_build_fails_on_each_broken_link_and_unknown_id(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """With -W the build fails, warning for exactly the two planted links, the one of a page
    written under _static as the build finishes, and the id the rules text does not have;
    the check tells how much it read."""
    _, done = built
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert done.returncode == 1, done.stderr
    assert len(warnings) == 4, "\n".join(warnings)
    assert any("is not a rule of the rules text" in w and "-99 " in w for w in warnings)
    assert any(
        "#NO-SUCH-ANCHOR: no anchor #NO-SUCH-ANCHOR in reference/rules-1e.html" in w
        for w in warnings
    )
    assert any("broken link gone.html: no page gone.html" in w for w in warnings)
    late = "WARNING: broken link in _static/late/page.html ../../index.html#written-late: no"
    assert any(w.startswith(late) for w in warnings), warnings
    assert re.search(r"index\.md: WARNING: broken link gone\.html", done.stderr)
    checked = re.search(r"link check: (\d+) internal links \((\d+) with an anchor\)", done.stdout)
    assert checked is not None and int(checked[2]) > len(rulebook.rules()), done.stdout
