"""Rewrite the generated lists of the README and the docs from the registry (``mechbench list --markdown``).

Run after adding a benchmark or a built-in model: the benchmarks table of README.md, the built-in models of
docs/reference.md and the shortcut panels of docs/validity.md are the only text outside a benchmark's folder that
names it. ``tests/test_docs_lists.py`` fails while they are out of date.
"""

from __future__ import annotations

from pathlib import Path

from mechbench.cli.listing import synced

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/reference.md", "docs/validity.md")

if __name__ == "__main__":
    for name in PAGES:
        page = ROOT / name
        text = page.read_text(encoding="utf-8")
        rewritten = synced(text, name)
        if rewritten != text:
            page.write_text(rewritten, encoding="utf-8")
            print(f"rewrote the generated lists of {name}")
