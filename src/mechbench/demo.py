"""``mechbench demo``: the offline main job, on data mechbench ships or generates itself."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from mechbench.examples import example_names, load_example
from mechbench.frame import solve
from mechbench.frame.render import render


def run_demo(out: Path, echo: Callable[[str], None] = print) -> Path:
    """Solve and draw every bundled example model into ``out``; returns the summary file written."""
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# mechbench demo: bundled example structures", ""]
    for name in example_names():
        model = load_example(name)
        result = solve(model)
        (out / f"{name}.result.json").write_text(json.dumps(result))
        render(model, out / f"{name}.png", title=name)
        reactions = ", ".join(f"{r['atId']}.{r['type']} = {r['value']:.3f}" for r in result["reactions"])
        line = f"{name}: max |M| = {result['maxMoment']['overall']:.3f} kN·m; reactions {reactions}"
        echo(line)
        lines += [f"## {name}", "", f"![{name}]({name}.png)", "", line, ""]
    summary = out / "README.md"
    summary.write_text("\n".join(lines))
    return summary
