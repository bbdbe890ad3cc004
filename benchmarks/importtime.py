"""What ``import ethnos_rules`` costs, side by side with ``import chess`` (issue 36: at most 2x).

Each round imports both packages in fresh interpreters, in alternating order, under
``python -X importtime``, and reads the cumulative time of the top-level package from its report:
the import alone, without the interpreter's own start, which both pay alike. The ratio is taken
per round and its median reported, with the lowest and highest, so a busy machine slows both
sides alike. A second figure is the time to a first position, wall clock beyond a bare
interpreter: ``import ethnos_rules; ethnos_rules.new_game(4)`` against ``import chess;
chess.Board()``, which loads the rules themselves.

Usage (the section alone, without the rest of ``make bench``)::

    python benchmarks/importtime.py              # 15 rounds
    python benchmarks/importtime.py --rounds 5

``python -X importtime -c "import ethnos_rules"`` shows where the time goes, module by module.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
IMPORTS = {"ethnos_rules": "import ethnos_rules", "chess": "import chess"}
FIRST = {
    "ethnos_rules": "import ethnos_rules; ethnos_rules.new_game(4)",
    "chess": "import chess; chess.Board()",
}
HEAVY = ("cattrs", "jsonschema", "ethnos_rules._io.records", "ethnos_rules._seat.seatview")
"""Modules only reading records or one seat's view needs: the import should not load them."""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC)}


def import_us(package: str) -> int:
    """Microseconds ``import package`` takes in a new interpreter, by its own importtime report
    (the package's cumulative time: every module it loads, the interpreter's start left out)."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", IMPORTS[package]],
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    for line in out.splitlines():
        fields = line.split("|")
        if len(fields) == 3 and fields[2].strip() == package:
            return int(fields[1])
    raise RuntimeError(f"importtime reported no {package}:\n{out[-2000:]}")


def wall_s(code: str) -> float:
    """Seconds a new interpreter takes to run ``code``, start and exit included."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=_env(), check=True)
    return time.perf_counter() - start


def loaded_heavy() -> list[str]:
    """The modules of :data:`HEAVY` that ``import ethnos_rules`` loads."""
    code = f"import sys, ethnos_rules; print(*[m for m in {HEAVY!r} if m in sys.modules])"
    out = subprocess.run(
        [sys.executable, "-c", code], env=_env(), capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def measure(rounds: int) -> dict[str, Any]:
    """Both imports and both first positions, ``rounds`` alternating rounds each."""
    imports: dict[str, list[float]] = {name: [] for name in IMPORTS}
    firsts: dict[str, list[float]] = {name: [] for name in FIRST}
    bare: list[float] = []
    ratios, first_ratios = [], []
    for i in range(rounds):
        order = list(IMPORTS) if i % 2 == 0 else list(IMPORTS)[::-1]
        for name in order:
            imports[name].append(import_us(name) / 1e3)
        ratios.append(imports["ethnos_rules"][-1] / imports["chess"][-1])
        bare.append(wall_s("pass"))
        for name in order:
            firsts[name].append(wall_s(FIRST[name]) - bare[-1])
        first_ratios.append(firsts["ethnos_rules"][-1] / firsts["chess"][-1])
    return {
        "runs": rounds,
        "import_ms": statistics.median(imports["ethnos_rules"]),
        "chess_ms": statistics.median(imports["chess"]),
        "ratio_median": statistics.median(ratios),
        "ratio_low": min(ratios),
        "ratio_high": max(ratios),
        "first_ms": statistics.median(firsts["ethnos_rules"]) * 1e3,
        "chess_first_ms": statistics.median(firsts["chess"]) * 1e3,
        "first_ratio_median": statistics.median(first_ratios),
        "python_ms": statistics.median(bare) * 1e3,
        "heavy_loaded": loaded_heavy(),
        "jsonschema_loaded": "jsonschema" in loaded_heavy(),
    }


def markdown(m: dict[str, Any]) -> list[str]:
    """The section of the performance page."""
    heavy = ", ".join(m["heavy_loaded"]) or "none of them"
    return [
        "",
        "## Start-up",
        "",
        "| | ethnos_rules | python-chess | ratio (median, lowest–highest) |",
        "|---|---|---|---|",
        f"| `import` (importtime, the package's own) | {m['import_ms']:.0f} ms"
        f" | {m['chess_ms']:.0f} ms | **{m['ratio_median']:.2f}**"
        f" ({m['ratio_low']:.2f}–{m['ratio_high']:.2f}) |",
        f"| import and a first position (`new_game(4)`, `Board()`), beyond the interpreter's"
        f" own {m['python_ms']:.0f} ms | {m['first_ms']:.0f} ms | {m['chess_first_ms']:.0f} ms"
        f" | {m['first_ratio_median']:.2f} |",
        "",
        f"{m['runs']} alternating rounds, each import in a new interpreter"
        " (`benchmarks/importtime.py`). The package's names are imported from their modules"
        " when first used: the import loads the rules' errors and the pictures' drawers (with"
        " the state's module they register in), not the rest of the rules, records, their"
        " schema, seat views or narration; a first position loads the rules."
        f" Of {', '.join(HEAVY)}, the import loads: {heavy}.",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    print("\n".join(markdown(measure(args.rounds))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
