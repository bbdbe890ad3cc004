"""Regenerate the golden playthroughs in ``tests/golden/``, the golden pictures in
``tests/golden/svg/`` (defined in ``tests/golden_pictures.py``) and the pictures of steps with
their changes marked in ``tests/golden/highlight/`` (``tests/golden_highlights.py``).

Usage: ``python scripts/regenerate_golden.py`` (from any directory; with the project's
virtualenv, e.g. ``.venv/bin/python scripts/regenerate_golden.py``). The games and their text
format are defined in ``tests/golden_games.py``, which ``tests/test_golden.py`` uses too.
Review the diff (``git diff tests/golden``) before committing: every changed line is a change
in the referee's behaviour.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Rewrite the golden files and say which changed."""
    sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]
    from golden_games import write_all
    from golden_highlights import HIGHLIGHT_DIR, HIGHLIGHTS
    from golden_pictures import PICTURES, SVG_DIR

    for path, changed in write_all():
        print(f"{'rewritten' if changed else 'unchanged'}: {path.relative_to(ROOT)}")
    for folder, pictures in ((SVG_DIR, PICTURES), (HIGHLIGHT_DIR, HIGHLIGHTS)):
        folder.mkdir(exist_ok=True)
        for name, draw in pictures.items():
            path, text = folder / f"{name}.svg", draw() + "\n"
            changed = not path.exists() or path.read_text() != text
            path.write_text(text)
            print(f"{'rewritten' if changed else 'unchanged'}: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
