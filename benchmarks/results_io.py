"""Where benchmark scripts leave their results: a printed table, kept as text and JSON in ``benchmarks/results``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def publish(name: str, table: str, rows: Any) -> None:
    """Print ``table`` and write it to ``results/<name>.txt``, and ``rows`` to ``results/<name>.json``."""
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.txt").write_text(table + "\n")
    (RESULTS / f"{name}.json").write_text(json.dumps(rows, indent=2) + "\n")
