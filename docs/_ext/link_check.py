"""Every internal link of a built HTML site resolves: the page it names exists, and so does the
anchor, if it names one.

:func:`check_site` reads every page once. A link is internal when it names no scheme and no
host (``../reference/rules-1e.html#BAND-2``, ``#top``, ``api.html``); its page is found
relative to the page that holds it (a folder means its ``index.html``), and its anchor among
the ``id`` (and ``<a name>``) attributes of that page. The ``rule_links`` extension runs the
check when an HTML build finishes; it also runs alone::

    python docs/_ext/link_check.py docs/_build/html

Only the standard library is used here, so the tests and mypy need nothing from Sphinx.
"""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

SKIPPED = ("_static", "_sources", "_images", "_downloads")
"""Folders of a Sphinx site whose files are not its pages (the theme's files, the sources)."""

WRITTEN = ("_sources", "_images", "_downloads")
"""The folders to skip to check every page written, those put under ``_static`` by an
extension too (such as the demo replay, ``_static/replay/demo.html``)."""


@dataclass(frozen=True)
class Broken:
    """A link that does not resolve.

    Attributes:
        page: The page holding it, relative to the site's root (``guide/01-quickstart.html``).
        href: The link as written.
        reason: What is missing: ``no page …``, ``no anchor #… in …``, or ``outside the site``.
    """

    page: str
    href: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.href}: {self.reason}"


@dataclass
class Report:
    """What :func:`check_site` checked and found.

    Attributes:
        pages: The pages read.
        links: The internal links checked.
        anchors: Those of them that name an anchor (each anchor looked up in its page).
        broken: The links that do not resolve.
    """

    pages: int = 0
    links: int = 0
    anchors: int = 0
    broken: list[Broken] = field(default_factory=list)


class _Page(HTMLParser):
    """The anchors a page defines and the links it holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("name"):  # the older way to name an anchor
            self.ids.add(str(found["name"]))
        href = found.get("href")
        if tag in ("a", "area") and href is not None:
            self.hrefs.append(href)


class _Site:
    """The pages of a site under ``root``, each read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.read: dict[str, _Page] = {}

    def page(self, name: str) -> _Page:
        if name not in self.read:
            parser = _Page()
            parser.feed((self.root / name).read_text(encoding="utf-8", errors="replace"))
            parser.close()
            self.read[name] = parser
        return self.read[name]

    def target(self, page: str, path: str) -> str | None:
        """The file ``path`` names from ``page`` (relative to the root), or None outside it."""
        if not path:
            return page
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        if joined == ".." or joined.startswith("../") or posixpath.isabs(joined):
            return None
        if (self.root / joined).is_dir():
            joined = posixpath.join(joined, "index.html")
        return joined

    def check(self, page: str, href: str, report: Report) -> None:
        """Count ``href`` (of ``page``) if it is internal, and tell it if it is broken."""
        split = urlsplit(href)
        if split.scheme or split.netloc:
            return
        report.links += 1
        target = self.target(page, unquote(split.path))
        if target is None:
            report.broken.append(Broken(page, href, "outside the site"))
            return
        if not (self.root / target).is_file():
            report.broken.append(Broken(page, href, f"no page {target}"))
            return
        anchor = unquote(split.fragment)
        if not anchor or not target.endswith(".html"):
            return
        report.anchors += 1
        if anchor not in self.page(target).ids:
            report.broken.append(Broken(page, href, f"no anchor #{anchor} in {target}"))


def pages(root: Path, skipped: Iterable[str] = SKIPPED) -> list[str]:
    """The HTML pages under ``root`` (relative, with "/"), outside the ``skipped`` folders."""
    left_out = set(skipped)
    return sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*.html")
        if path.is_file() and not left_out & set(path.relative_to(root).parts[:-1])
    )


def check_site(root: Path, skipped: Iterable[str] = SKIPPED) -> Report:
    """Check every internal link of every page under ``root``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     site = Path(folder)
    ...     _ = (site / "a.html").write_text('<p id="x"><a href="b.html#y">b</a> <a href="#x">')
    ...     _ = (site / "b.html").write_text('<a href="a.html#z">a</a> <a href="https://e.org">')
    ...     report = check_site(site)
    >>> report.pages, report.links, report.anchors
    (2, 3, 3)
    >>> for broken in report.broken:
    ...     print(broken)
    a.html: b.html#y: no anchor #y in b.html
    b.html: a.html#z: no anchor #z in a.html
    """
    site = _Site(root)
    report = Report()
    for page in pages(root, skipped):
        report.pages += 1
        for href in site.page(page).hrefs:
            site.check(page, href, report)
    return report


def main(argv: list[str]) -> int:
    """Check the site in ``argv[0]``; print what is broken; exit 1 if anything is."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python link_check.py SITE_FOLDER", file=sys.stderr)
        return 2
    report = check_site(Path(argv[0]))
    for broken in report.broken:
        print(broken)
    print(
        f"{report.links} internal links ({report.anchors} with an anchor) in {report.pages}"
        f" pages: {len(report.broken)} broken"
    )
    return 1 if report.broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
