"""Rule ids as links: every rule has an anchor on the rules page, every rule id the docs write
links there, and every internal link of the built site is checked.

- **Anchors.** On the rules page (``reference/rules-1e.md``, left as it is: a vendored copy)
  each rule's list item gets its id as its anchor (``id="BAND-2"``) and each section its
  section id (``id="BAND"``): the anchors of :func:`ethnos_rules._text.rulebook.anchor`, the
  same as the play page's. Docutils lowercases the ids it makes from names, so these are put
  into the nodes' ids as they are. Each is also a label of Sphinx's standard domain, so a
  Markdown link ``[BAND-2](rules-1e.md#BAND-2)`` resolves (as the rule catalogue writes).
- **Links.** When a page is written, each rule id in its prose or inline code
  (:func:`~ethnos_rules._text.rulebook.mentions`: ``BAND-5``, ``TRIBE-MER-1/2``,
  ``END-1..3``, ``SETUP-*``) becomes a link to its anchor with the rule's sentence as its
  tooltip; so does every link already made to a rule's anchor. Code blocks, headings and
  text already in a link are left alone, and so is a rule's id in its own item of the rules
  page. A numbered id the rules text has no rule for is a warning.
- **Check.** When an HTML build finishes, every internal link and anchor of the site is
  checked (``link_check.py``), in the pages other extensions write as the build finishes
  too (the demo replay); each broken one is a warning, so ``-W`` fails the build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from docutils import nodes
from link_check import WRITTEN, check_site
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

from ethnos_rules._text import rulebook

RULES_DOC = rulebook.RULES_PAGE.removesuffix(".html")
"""The docname of the rules page."""

LINK_CLASS = "rule-link"
"""The class of every link to a rule (``a.rule-link``)."""

HTML_BUILDERS = ("html", "dirhtml", "singlehtml")
"""The builders whose pages get the links and the check."""

_LEFT_ALONE = (
    nodes.FixedTextElement,  # code blocks, doctest blocks, raw HTML, comments
    nodes.reference,
    addnodes.pending_xref,
    nodes.title,
    nodes.target,
    nodes.system_message,
    nodes.substitution_definition,
    addnodes.desc_signature,
)
"""Where a rule id is left as written."""

logger = logging.getLogger(__name__)


# --- anchors on the rules page ----------------------------------------------------------------


def _item_rule(item: nodes.list_item) -> str | None:
    """The rule a list item of the rules page states: the id its bold start opens with."""
    first = item.children[0] if item.children else None
    if not isinstance(first, nodes.paragraph):
        return None
    filled = (child for child in first.children if child.astext().strip())  # MyST puts "" first
    head = next(filled, None)
    if not isinstance(head, nodes.strong):
        return None
    words = head.astext().split()
    return words[0] if words and words[0] in rulebook.rules() else None


def _section_id(section: nodes.section) -> str | None:
    """The id a section of the rules page is headed with (``## 6. Play a Band — `BAND` ``)."""
    title = section.children[0] if section.children else None
    if not isinstance(title, nodes.title):
        return None
    for code in title.findall(nodes.literal):
        if code.astext() in rulebook.sections():
            return str(code.astext())
    return None


def _anchors(doctree: nodes.document) -> list[tuple[nodes.Element, str]]:
    """Each rule's list item and each section of the rules page, with its anchor."""
    found: list[tuple[nodes.Element, str]] = []
    for section in doctree.findall(nodes.section):
        if (ident := _section_id(section)) is not None:
            found.append((section, ident))
    for item in doctree.findall(nodes.list_item):
        if (ident := _item_rule(item)) is not None:
            found.append((item, ident))
    return found


def _heading(ident: str) -> str:
    """A rule's or a section's id and title (``BAND-2 Validity``), as a reference shows it."""
    found = rulebook.rules().get(ident)
    title = found.title if found is not None else rulebook.section(ident).title
    return f"{ident} {title}".strip()


def add_anchors(app: Sphinx, doctree: nodes.document) -> None:
    """Give each rule and section of the rules page its anchor (and label); warn for a rule
    of :func:`~ethnos_rules._text.rulebook.rules` the page has no item for."""
    docname = app.env.current_document.docname
    if docname != RULES_DOC:
        return
    std = app.env.domains.standard_domain
    anchored = _anchors(doctree)
    for node, ident in anchored:
        node["ids"].insert(0, ident)  # first: the element's own id, so CSS :target finds it
        doctree.ids[ident] = node
        label = ident.lower()  # Sphinx's labels are lowercase; the anchor keeps its case
        std.anonlabels[label] = (docname, ident)
        std.labels[label] = (docname, ident, _heading(ident))
    missing = set(rulebook.rules()) - {ident for _, ident in anchored}
    for ident in sorted(missing):
        logger.warning("the rules page has no item for rule %s", ident, location=docname)


# --- links to the rules -----------------------------------------------------------------------


class _Linker:
    """Links the rule ids of one page (``docname``) to the rules page."""

    def __init__(self, app: Sphinx, docname: str) -> None:
        self.here = docname == RULES_DOC
        uri = "" if self.here else app.builder.get_relative_uri(docname, RULES_DOC)
        self.page = uri.split("#", 1)[0]  # singlehtml names the page with a fragment

    def uri(self, anchor: str) -> str:
        return f"{self.page}#{anchor}"

    def link(self, text: str, ident: str) -> nodes.reference:
        """``text``, which names ``ident``, as a link to its anchor titled with its sentence."""
        anchor = rulebook.anchor(ident)
        return nodes.reference(
            text,
            text,
            refuri=self.uri(anchor),
            internal=True,
            reftitle=rulebook.sentence(ident),
            classes=[LINK_CLASS],
        )

    def pieces(self, text: nodes.Text) -> list[nodes.Node] | None:
        """``text`` cut into text and links, or None when it mentions no rule to link."""
        words = text.astext()
        found = rulebook.mentions(words)
        if not found:
            return None
        around = _ids_around(text) if self.here else set()
        out: list[nodes.Node] = []
        at = 0
        for mention in found:
            if not rulebook.known(mention.id):
                logger.warning(
                    "%s is not a rule of the rules text", mention.id, location=text.parent
                )
                continue
            if rulebook.anchor(mention.id) in around:
                continue  # a link to where it already is
            out += [nodes.Text(words[at : mention.start])] if mention.start > at else []
            out.append(self.link(words[mention.start : mention.end], mention.id))
            at = mention.end
        if at == 0:
            return None
        return out + ([nodes.Text(words[at:])] if at < len(words) else [])

    def titled(self, ref: nodes.reference) -> None:
        """Give a link already made to a rule's anchor the rule's sentence as its tooltip."""
        if "reftitle" in ref or LINK_CLASS in ref["classes"]:
            return
        if "refid" in ref:
            anchor = ref["refid"] if self.here else ""
        else:
            split = urlsplit(ref.get("refuri", ""))
            anchor = split.fragment if split.path == self.page and not split.netloc else ""
        if anchor and (anchor in rulebook.rules() or anchor in rulebook.sections()):
            ref["reftitle"] = rulebook.sentence(anchor)
            ref["classes"].append(LINK_CLASS)


def _ids_around(node: nodes.Node) -> set[str]:
    """The ids of the list items and sections that hold ``node``."""
    ids: set[str] = set()
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.list_item | nodes.section):
            ids.update(parent["ids"])
        parent = parent.parent
    return ids


def _left_alone(node: nodes.Node) -> bool:
    """Whether ``node`` is inside code, a heading, a link or other text to leave as written."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _LEFT_ALONE):
            return True
        parent = parent.parent
    return False


def link_rule_ids(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Make each rule id of the page a link to its rule, with the rule's sentence as tooltip."""
    if app.builder.name not in HTML_BUILDERS or RULES_DOC not in app.env.all_docs:
        return
    linker = _Linker(app, docname)
    for ref in list(doctree.findall(nodes.reference)):
        linker.titled(ref)
    for text in list(doctree.findall(nodes.Text)):
        if text.parent is None or _left_alone(text):
            continue
        pieces = linker.pieces(text)
        if pieces is not None:
            text.parent.replace(text, pieces)


# --- the check --------------------------------------------------------------------------------


def check_links(app: Sphinx, exception: BaseException | None) -> None:
    """Check every internal link of the site written, the pages extensions put under
    ``_static`` included; warn for each broken one."""
    if exception is not None or app.builder.name not in HTML_BUILDERS:
        return
    report = check_site(Path(app.outdir), skipped=WRITTEN)
    for broken in report.broken:
        page = broken.page.removesuffix(".html")
        if page in app.env.all_docs:
            where, told = page, ""  # Sphinx names the source file
        else:  # a page no source file makes (the demo replay)
            where, told = None, f"in {broken.page} "
        logger.warning(
            "broken link %s%s: %s",
            told,
            broken.href,
            broken.reason,
            location=where,
            type="rule_links",
            subtype="broken",
        )
    logger.info(
        "link check: %d internal links (%d with an anchor) in %d pages: %d broken",
        report.links,
        report.anchors,
        report.pages,
        len(report.broken),
    )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the anchors, the links and the check."""
    app.connect("doctree-read", add_anchors)
    app.connect("doctree-resolved", link_rule_ids)
    app.connect("build-finished", check_links, priority=900)  # after pages written then
    app.add_css_file("rule_links.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
