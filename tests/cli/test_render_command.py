"""``mechbench render``: a PNG of the structure; deterministic; bad input is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from PIL import Image
from typer.testing import CliRunner

from mechbench.cli import app
from mechbench.frame.render import render

runner = CliRunner()


def test_renders_every_raw_model_of_a_set(structural_data: Path, tmp_path: Path) -> None:
    paths = sorted((structural_data / "raw_models").glob("*.json"))
    assert len(paths) == 30
    for path in paths:
        out = tmp_path / f"{path.stem}.png"
        result = runner.invoke(app, ["render", str(path), "-o", str(out), "--title", path.stem])
        assert result.exit_code == 0, result.stderr
        image = np.asarray(Image.open(out).convert("L"))
        assert image.shape[0] > 250 and image.shape[1] > 800
        dark = (image < 100).mean()
        assert 0.005 < dark < 0.25, f"{path.stem}: {dark:.3f} of the pixels are dark"


def test_drawing_shows_load_colours_and_is_deterministic(structural_data: Path) -> None:
    model = json.loads((structural_data / "raw_models" / "beam_005.json").read_text())
    first, second = render(model), render(model)
    assert first == second
    rgb = np.asarray(Image.open(__import__("io").BytesIO(first)).convert("RGB")).astype(int)
    red = (rgb[:, :, 0] > 150) & (rgb[:, :, 1] < 90) & (rgb[:, :, 2] < 90)
    purple = (rgb[:, :, 0] > 100) & (rgb[:, :, 2] > 140) & (rgb[:, :, 1] < 110)
    assert red.sum() > 200, "force arrows are drawn in red"
    assert purple.sum() > 100, "moment arcs are drawn in purple"


def test_loads_change_the_drawing(structural_data: Path) -> None:
    model = json.loads((structural_data / "raw_models" / "beam_001.json").read_text())
    unloaded = {**model, "loads": []}
    assert render(model) != render(unloaded)


def test_bad_model_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"points": [], "links": [{"id": "L1", "a": "P1", "b": "P2"}], "supports": [], "loads": []})
    )
    result = runner.invoke(app, ["render", str(bad), "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "link L1: point P1 does not exist" in result.stderr
    assert not (tmp_path / "x.png").exists()
