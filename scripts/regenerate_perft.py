"""Regenerate the perft golden, ``tests/golden/perft.tsv`` (positions chosen in
``benchmarks/perft.py``).

Usage: ``python scripts/regenerate_perft.py`` (with the project's virtualenv). Review the diff
(``git diff tests/golden/perft.tsv``) before committing: a changed count is a change in the
decisions the referee offers.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Rewrite the golden file and print its lines."""
    sys.path[:0] = [str(ROOT / "src"), str(ROOT / "benchmarks")]
    import perft

    positions = list(perft.regenerate())
    old = perft.GOLDEN.read_text() if perft.GOLDEN.exists() else None
    perft.write(positions)
    for p in positions:
        print(f"{p.name}: {len(p.path)} steps from {p.start}; nodes at depth 1..: {list(p.counts)}")
    print(f"{'unchanged' if old == perft.GOLDEN.read_text() else 'rewritten'}: {perft.GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
