"""Writing generated benchmark data in the official layouts (``mechbench generate ...``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from mechbench.frame.generate import KINDS, generate_structure
from mechbench.frame.render import render
from mechbench.frame.solve import solve
from mechbench.topopt.generate import generate_sphyr


def write_structural(
    out: Path, n: int, seed: int, difficulty: int | None = None, kinds: tuple[str, ...] = KINDS, diagrams: bool = True
) -> list[str]:
    """``n`` tasks in the StructuralEval layout under ``out/data``; returns their ids. Same seed, same bytes."""
    rng = random.Random(seed)
    data = out / "data"
    for folder in ("images", "raw_models", "ground_truth_meta"):
        (data / folder).mkdir(parents=True, exist_ok=True)
    counters: dict[str, int] = {}
    ids = []
    for i in range(n):
        level = difficulty if difficulty is not None else i % 5 + 1
        kind, model = generate_structure(rng, level, kinds)
        counters[kind] = counters.get(kind, 0) + 1
        task_id = f"{kind}_{counters[kind]:03d}"
        (data / "raw_models" / f"{task_id}.json").write_text(json.dumps(model, indent=1, sort_keys=True))
        render(model, data / "images" / f"{task_id}.png")
        result = solve(model, diagrams=True)
        keys = ("reactions", "axial", "shear", "moment", "maxMoment") if diagrams else ("reactions", "maxMoment")
        solution = {k: result[k] for k in keys}
        meta = {"id": task_id, "difficulty": level, "image_filename": f"{task_id}.png", "solution": solution}
        (data / "ground_truth_meta" / f"{task_id}.json").write_text(json.dumps(meta, sort_keys=True))
        ids.append(task_id)
    return ids


def write_sphyr(
    out: Path, n: int, seed: int, rows: int = 10, cols: int = 10, subjects: list[str] | None = None
) -> list[str]:
    """``<subject>.jsonl`` files in the official SPhyR format; returns the subjects written."""
    out.mkdir(parents=True, exist_ok=True)
    data = generate_sphyr(n, seed, rows, cols, subjects)
    for subject, records in data.items():
        (out / f"{subject}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return list(data)
