"""The referee's message catalogues (issue 38): extract, update and compile them with Babel.

    python scripts/messages.py            # all three steps (make messages)
    python scripts/messages.py extract    # the template, locales/ethnos_rules.pot, from the source
    python scripts/messages.py update     # each language's .po gets the template's new messages
    python scripts/messages.py compile    # each .po compiled to its .mo (what the library reads)

The extraction follows ``babel.cfg``; it is run here rather than by ``pybabel extract`` because
the package's modules live in folders whose names begin with ``_``, which ``pybabel`` skips.
A new message reaches each ``.po`` untranslated; ``tests/test_i18n.py`` fails until it is
translated in every language.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "src" / "ethnos_rules" / "locales"
TEMPLATE = LOCALES / "ethnos_rules.pot"
KEYWORDS = {"said": None, "said_n": (1, 2), "word": None, "_": None}


def languages() -> list[str]:
    """The languages with a folder of their own (a glossary or a catalogue)."""
    return sorted(p.name for p in LOCALES.iterdir() if p.is_dir() and not p.name.startswith("_"))


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / "ethnos_rules.po"


def extracted() -> Catalog:
    """Every message of the source, as ``babel.cfg`` says where to look."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    catalog = Catalog(project="ethnos-rules", version="0.1.0", charset="utf-8")

    def wanted(path: str) -> bool:
        name = Path(path).name
        return not name.startswith(".") and name != "__pycache__"

    found = extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, directory_filter=wanted
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def extract() -> None:
    with open(TEMPLATE, "wb") as out:
        write_po(out, extracted(), width=100, sort_output=True, omit_header=False)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(read_template())} messages")


def read_template() -> Catalog:
    with open(TEMPLATE, "rb") as f:
        return read_po(f)


def update() -> None:
    template = read_template()
    for lang in languages():
        path = po_path(lang)
        if path.exists():
            with open(path, "rb") as f:
                catalog = read_po(f, locale=lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, project="ethnos-rules", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        with open(path, "wb") as out:
            write_po(out, catalog, width=100, sort_output=True, ignore_obsolete=True)
        missing = sum(1 for m in catalog if m.id and not _done(m.string))
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {missing} untranslated")


def _done(string: object) -> bool:
    return all(string) if isinstance(string, tuple) else bool(string)


def compile_all() -> None:
    for lang in languages():
        path = po_path(lang)
        if not path.exists():
            continue
        with open(path, "rb") as f:
            catalog = read_po(f, locale=lang)
        with open(path.with_suffix(".mo"), "wb") as out:
            write_mo(out, catalog, use_fuzzy=False)


def main(argv: list[str]) -> None:
    steps = argv or ["extract", "update", "compile"]
    for step in steps:
        {"extract": extract, "update": update, "compile": compile_all}[step]()


if __name__ == "__main__":
    main(sys.argv[1:])
