"""Validate every example record in ``examples/records/`` and print the result.

Usage: ``python examples/validate_examples.py`` (exit status 1 if a result is not the expected
one).

A ``valid-*.json`` record must validate. An ``invalid-*.json`` record says in
``metadata.broken`` which rule it breaks and at which decision (``null``: in the claimed score);
the validator must refuse it there, with that rule.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ethnos_rules import GameRecord, validate

RECORDS = Path(__file__).resolve().parent / "records"


def check(path: Path) -> tuple[bool, str]:
    """Validate one record; returns (as expected, the line to print)."""
    record = GameRecord.read(path)
    report = validate(record)
    line = f"{path.name}: {report.summary()}"
    if path.name.startswith("valid-"):
        return report.ok and report.complete, line
    expected = record.metadata.get("broken", {})
    agrees = (
        not report.ok
        and report.rule == expected.get("rule")
        and report.index == expected.get("index")
    )
    if not agrees:
        line += f"\n    expected {expected.get('rule')} at decision {expected.get('index')}"
    return agrees, line


def main() -> int:
    failures = 0
    for path in sorted(RECORDS.glob("*.json")):
        as_expected, line = check(path)
        print(("ok    " if as_expected else "WRONG ") + line)
        failures += not as_expected
    print(f"\n{failures} unexpected result(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
