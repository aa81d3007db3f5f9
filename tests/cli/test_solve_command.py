"""``mechbench solve``: result JSON on stdout; bad input → one line on stderr, exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mechbench.cli import app
from tests import forked_command as forked
from tests.benchmarks.structural_eval.models import overhanging_beam

runner = CliRunner()


def test_solves_a_model_to_its_closed_form_reactions(tmp_path: Path) -> None:
    path = tmp_path / "beam.json"
    path.write_text(json.dumps(overhanging_beam()))
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    values = {(r["atId"], r["type"]): r["value"] for r in out["reactions"]}
    # Moments about A: 8·R_B = 5·2 + 6·5 + (2·2)·9, so R_B = 9.5 kN and R_A = 15 − 9.5 = 5.5 kN.
    assert abs(values[("S2", "normal")] - 9.5) < 1e-9 and abs(values[("S1", "uy")] - 5.5) < 1e-9
    assert len(out["moment"]) == 2 and all(len(d["samples"]) >= 500 for d in out["moment"])


def test_no_diagrams_and_exact_supports(structural_data: Path) -> None:
    path = str(structural_data / "raw_models" / "frame_006.json")
    result = runner.invoke(app, ["solve", path, "--no-diagrams", "--exact-supports"])
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert "moment" not in out and out["reactions"]


def test_invalid_model_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "points": [{"id": "P1", "x": 0, "y": 0}],
                "links": [{"id": "L3", "a": "P1", "b": "P9"}],
                "supports": [],
                "loads": [],
            }
        )
    )
    result = runner.invoke(app, ["solve", str(bad)])
    assert result.exit_code == 2
    assert "link L3: point P9 does not exist" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_unstable_structure_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "mechanism.json"
    path.write_text(
        json.dumps(
            {
                "points": [{"id": "P1", "x": 0, "y": 0}, {"id": "P2", "x": 4, "y": 0}],
                "links": [{"id": "L1", "a": "P1", "b": "P2"}],
                "supports": [{"id": "S1", "at": {"type": "point", "id": "P1"}, "kind": "roller", "angleDeg": 0}],
                "loads": [],
            }
        )
    )
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 2
    assert "slide along x" in result.stderr


def test_missing_file_and_broken_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "does not exist" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"points": [')
    result = runner.invoke(app, ["solve", str(broken)])
    assert result.exit_code == 2 and "is not valid JSON" in result.stderr and "line 1" in result.stderr


def test_unwritable_output_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    import sys

    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    result = forked.run(
        [sys.executable, "-m", "mechbench", "generate", "structural", "-o", str(blocked / "out"), "--n", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr
