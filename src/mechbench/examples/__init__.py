"""Example FrameCalc models written for mechbench (not taken from any benchmark)."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any


def example_names() -> list[str]:
    """Names of the bundled example models."""
    return sorted(p.name.removesuffix(".json") for p in files(__name__).iterdir() if p.name.endswith(".json"))


def load_example(name: str) -> dict[str, Any]:
    """The bundled example model ``name`` as a dict."""
    return json.loads(files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8"))
