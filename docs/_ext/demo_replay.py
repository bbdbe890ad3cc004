"""A game to watch from the docs: four bots play one seeded game at build time.

At each HTML build the library's rules-of-thumb bots (``thumb`` of :mod:`ethnos_rules.bots`, the
strongest that plays a game in about a second) play a 4-player game from a fixed seed, and its
HTML replay, the page ``ethnos-rules replay --html`` writes, is put into the built site at
``_static/replay/demo.html``. The game is played by the package being documented, so the replay
cannot drift from the rules the pages describe.

Its rule ids link to this site's own rules page, so the replay and the rules it cites come
from the same build. Pages link to it with the role ``{demo-replay}`words```; the link is
written relative to the page it is on, so it resolves from any folder, in the built site only
(the source has no such file). The replay is written before the link check runs.

Playing the game takes a few seconds. The page is kept between builds while the package's
source is the same, so a build that changes only the docs plays nothing.
"""

from __future__ import annotations

import hashlib
import posixpath
import random
from importlib import resources
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util.osutil import relative_uri

REPLAY = "_static/replay/demo.html"
"""Where the replay is in the built site, from its root."""

PLAYERS = 4
SEED = 7
"""The seed of the game shown: chance and the bots' own draws both come from it."""


def demo_record() -> Any:
    """The record of the demo game: the ``thumb`` bot at each seat, chance drawn from SEED."""
    from ethnos_rules import GameRecord, new_game
    from ethnos_rules.bots import bot, play

    game = play(new_game(PLAYERS), {s: bot("thumb") for s in range(PLAYERS)}, random.Random(SEED))
    metadata = {"event": "ethnos-rules docs: four thumb bots", "seed": str(SEED)}
    return GameRecord.from_playthrough(game, metadata=metadata)


def _package_key() -> str:
    """A digest of the package's files and of this extension: the game and its page change
    only when one of them does."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    root = Path(str(resources.files("ethnos_rules")))
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def write_replay(app: Any, exception: Exception | None) -> None:
    """Write the demo replay into the built HTML site, unless the one there is up to date."""
    if exception is not None or app.builder.format != "html":
        return
    from ethnos_rules._text.html_replay import replay_html
    from ethnos_rules._text.rulebook import RULES_PAGE

    page = Path(app.outdir) / REPLAY
    stamp = Path(app.doctreedir) / "demo-replay.key"  # beside the doctrees, not in the site
    key = _package_key()
    if page.exists() and stamp.exists() and stamp.read_text() == key:
        return
    page.parent.mkdir(parents=True, exist_ok=True)
    rules = posixpath.relpath(RULES_PAGE, posixpath.dirname(REPLAY))  # this site's rules page
    page.write_text(replay_html(demo_record(), rules_page=rules), encoding="utf-8")
    stamp.write_text(key)


class demo_link(nodes.reference):  # docutils names its node classes in lower case
    """A link to the demo replay, its address filled in when the page is written."""


def demo_replay_role(
    name: str, rawtext: str, text: str, *args: Any, **kwargs: Any
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{demo-replay}`words```: ``words`` linked to the demo replay."""
    return [demo_link(rawtext, text, internal=False)], []


def resolve_links(app: Any, doctree: nodes.document, docname: str) -> None:
    """Point each demo link of a page at the replay, relative to that page."""
    for link in doctree.findall(demo_link):
        if app.builder.format == "html":
            link["refuri"] = relative_uri(app.builder.get_target_uri(docname), REPLAY)
        else:
            link.replace_self(nodes.Text(link.astext()))


def visit_demo_link(translator: Any, node: demo_link) -> None:
    translator.visit_reference(node)


def depart_demo_link(translator: Any, node: demo_link) -> None:
    translator.depart_reference(node)


def setup(app: Any) -> dict[str, Any]:
    app.add_node(demo_link, html=(visit_demo_link, depart_demo_link))
    app.add_role("demo-replay", demo_replay_role)
    app.connect("doctree-resolved", resolve_links)
    app.connect("build-finished", write_replay, priority=400)  # before the link check (500)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
