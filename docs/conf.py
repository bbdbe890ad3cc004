"""Sphinx configuration for the ethnos_rules documentation.

The package is imported from the editable install made by ``make venv``; only the local
extensions in ``docs/_ext`` are put on ``sys.path``.  No extension that needs the network
(such as intersphinx) is enabled: CI has no network access.
"""

import sys
import tomllib
import warnings
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

# sphinx-autodoc-typehints calls a Sphinx API that Sphinx 10 will remove; the Python warning it
# raises says nothing about these docs (Sphinx's own warnings still fail the build with -W).
warnings.filterwarnings("ignore", message=".*set_application.*is deprecated")

sys.path.insert(0, str(Path(__file__).parent / "_ext"))  # local extensions, not the package

project = "ethnos-rules"
author = "ethnos-rules contributors"
copyright = "2026, ethnos-rules contributors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",  # must come before sphinx_autodoc_typehints
    "sphinx.ext.doctest",
    # sphinx_click must be loaded BEFORE sphinx_autodoc_typehints. On Sphinx 9,
    # sphinx_autodoc_typehints imports the submodule ``sphinx.ext.autodoc.mock``,
    # which rebinds the package attribute ``sphinx.ext.autodoc.mock`` from the
    # ``mock()`` function to that module; sphinx_click does
    # ``from sphinx.ext.autodoc import mock`` at import time, so if it is loaded
    # afterwards every ``click`` directive fails with "'module' object is not
    # callable" (click-contrib/sphinx-click issue #159).
    "sphinx_click",
    "sphinx_autodoc_typehints",
    "rule_catalogue",  # local: docs/_ext/rule_catalogue.py fills reference/rule-catalogue.md
    "pictures",  # local: docs/_ext/pictures.py draws the positions of the pages' examples
    "rule_links",  # local: docs/_ext/rule_links.py links rule ids to their rule, checks links
    "demo_replay",  # local: docs/_ext/demo_replay.py writes a bots' game replay into the site
]

source_suffix = {
    ".rst": "restructuredtext",
    ".md": "markdown",
}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# -- MyST ----------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]

# -- autodoc / napoleon / typehints ---------------------------------------------
napoleon_google_docstring = True
napoleon_numpy_docstring = False
autodoc_member_order = "bysource"
autodoc_typehints = "description"
typehints_use_signature = False
typehints_use_signature_return = False

# -- general ---------------------------------------------------------------------
nitpicky = False

# -- HTML ------------------------------------------------------------------------
html_theme = "furo"
html_title = "ethnos-rules"
html_static_path = ["_static"]
html_css_files = ["tables.css"]

# The docstrings' examples wrap long output lines as the pytest doctests allow (pyproject.toml).
import doctest  # noqa: E402

doctest_default_flags = (
    doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1
)

# -- languages (issue 38) --------------------------------------------------------
# The learner's pages are translated with Sphinx's gettext workflow (sphinx-intl). A language
# is one folder, src/ethnos_rules/locales/<lang>/ (see its README.md): the docs' catalogues are
# in its LC_MESSAGES/, beside the referee's ethnos_rules.po, one per part of the docs that has
# learner's pages: index.po, learn.po, rules.po and tribes.po (`gettext_compact = True`: a
# page's catalogue is named by its folder). The guide and the reference have none and stay
# English: one catalogue for every page (`gettext_compact = "docs"`) would also translate their
# messages that a learner's page has too (a tribe's name in the API reference). A message
# without a translation stays English. `make docs` builds English as before; `make docs-i18n`
# builds each language with an index.po (`-D language=<lang> -t i18n`) into
# docs/_build/html/<lang>/.
_LOCALES = Path(__file__).parent.parent / "src" / "ethnos_rules" / "locales"
_REFEREE = "ethnos_rules.po"  # the library's catalogue in the same folder, not the docs'
locale_dirs = ["../src/ethnos_rules/locales/"]
gettext_compact = True
gettext_uuid = False
gettext_location = True
# Sphinx would compile every .po of the language's folder, the referee's ethnos_rules.po too,
# whose .mo is the library's, compiled by `make messages` and committed: only the docs'
# catalogues are compiled here, to the .mo Sphinx reads (not committed), when a language is
# built.
gettext_auto_build = False


def _compile_the_docs_catalogues(app: object, config: Any) -> None:
    for po in sorted((_LOCALES / config.language / "LC_MESSAGES").glob("*.po")):
        mo = po.with_suffix(".mo")
        # Only when the .po changed: the pages are read again whenever their .mo is newer.
        if po.name != _REFEREE and (not mo.is_file() or mo.stat().st_mtime < po.stat().st_mtime):
            with po.open("rb") as source:
                catalog = read_po(source, locale=config.language)
            with mo.open("wb") as compiled:
                write_mo(compiled, catalog, use_fuzzy=False)


def setup(app: Any) -> None:
    """This file's own step of the build: the docs' catalogues, before the pages are read."""
    app.connect("config-inited", _compile_the_docs_catalogues)


# Sphinx gives conf.py its `tags`; a reader that runs this file by itself has none.
if "tags" in globals() and globals()["tags"].has("i18n"):
    _NAMES = {"en": "English"} | {
        folder.name: tomllib.loads((folder / "glossary.toml").read_text())["language_name"]
        for folder in sorted(_LOCALES.iterdir())
        if (folder / "LC_MESSAGES" / "index.po").is_file()
    }
    # A banner on every page with each language's version of the same page. The links are made
    # in the browser from the page's own address: the languages sit in <English root>/<lang>/.
    _LINKS = " · ".join(f'<a data-lang="{code}">{name}</a>' for code, name in _NAMES.items())
    html_theme_options = {
        "announcement": f'<span class="ethnos-languages">{_LINKS}</span>'
        "<script>(function () {"
        "const html = document.documentElement, here = html.lang || 'en';"
        "const root = new URL(html.dataset.content_root || './', location.href);"
        "const page = location.href.slice(root.href.length).split('#')[0];"
        "const english = here === 'en' ? root : new URL('../', root);"
        "document.querySelectorAll('.ethnos-languages a').forEach(function (a) {"
        "const code = a.dataset.lang;"
        "if (code === here) { a.removeAttribute('href'); a.style.fontWeight = 'bold'; return; }"
        "a.href = new URL((code === 'en' ? '' : code + '/') + page, english).href;"
        "});})();</script>"
    }
