"""SeeSim's difficulty levels: what each level's media withdraw, and that every question still asked is decided by
the figures the level prints (read back from the report's text, not from the generator's own readings)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mechbench.benchmarks.openseesime.generated_set import rows, value_questions
from mechbench.benchmarks.seesim import rules
from mechbench.benchmarks.seesim.generated_set import shown, write_seesim
from mechbench.benchmarks.seesim.levels import LEVELS, withdrawn
from mechbench.cli import app
from mechbench.simulation.flow import FlowSetup, run_flow
from mechbench.simulation.materials import MATERIALS
from mechbench.simulation.media import _flow_rows, _structural_rows
from mechbench.simulation.reports import LEGEND
from mechbench.simulation.structural import StructuralSetup, run_structural
from mechbench.simulation.units import flow_units

pytestmark = [pytest.mark.slow, pytest.mark.long]  # simulations

STEEL, GLASS = (next(i for i, m in enumerate(MATERIALS) if m.name.startswith(p)) for p in ("Struct", "Soda"))
STRUCTURAL = {
    "steel past yield": StructuralSetup("plate_hole", STEEL, 6, "static", "none", False, 0.6, "0.5"),
    "steel well below yield": StructuralSetup("plate_hole", STEEL, 6, "static", "none", False, 2.5, "0.5"),
    "glass below its strength": StructuralSetup("plate_hole", GLASS, 6, "static", "none", False, 2.5, "0.5"),
    "cyclic steel": StructuralSetup("cantilever", STEEL, 6, "cyclic", "none", False, 1.2, "0.5", cycles=1e7),
    "slender strut": StructuralSetup("column", STEEL, 4, "static", "none", False, 2.0, "0.3"),
}
FLUID = {
    "heated cylinder": FlowSetup("heated_cylinder", 30, 1.0, 0, "air", 0.02, False),
    "channel": FlowSetup("channel", 30, 0.0, 0, "air", 0.02, False),
}
VERDICT_WORDS = ("the part yields", "buckles", "shedding", "dynamic pressures", "% of the mean inflow", "Neuber")
"""Phrases that carry a verdict at level 1 and must not survive above it."""


@pytest.fixture(scope="module")
def levels() -> dict[str, dict[int, dict]]:
    """Each simulation solved once and shown at every level."""
    out: dict[str, dict[int, dict]] = {}
    for name, setup in STRUCTURAL.items():
        run = run_structural(setup)
        out[name] = {n: {**shown("structural", run, name, level), "rows": _structural_rows(run, level.disclosure),
                         "domain": "structural", "facts": run.facts} for n, level in LEVELS.items()}  # fmt: skip
    for name, setup in FLUID.items():
        run = run_flow(setup)
        units = flow_units(run)
        out[name] = {n: {**shown("fluid", run, name, level), "rows": _flow_rows(run, units, level.disclosure),
                         "domain": "fluid", "facts": run.facts} for n, level in LEVELS.items()}  # fmt: skip
    return out


def _has_line(text: str, name: str) -> bool:
    return re.search(rf"^\s+{re.escape(name)}\s", text, re.MULTILINE) is not None


def _figure(text: str, name: str) -> float:
    """The first number printed on the report's line ``name``."""
    line = re.search(rf"^\s+{re.escape(name)}\s+(.*)$", text, re.MULTILINE)
    assert line, f"no line {name!r}"
    return float(re.search(r"-?[\d.]+(?:e[+-]?\d+)?", line.group(1)).group(0))  # type: ignore[union-attr]


@pytest.mark.parametrize("level", [2, 3])
def test_no_withdrawn_line_or_verdict_appears_in_the_report_the_image_or_the_video_above_level_one(
    levels: dict[str, dict[int, dict]], level: int
) -> None:
    for name, shown_at in levels.items():
        at, first = shown_at[level], shown_at[1]
        gone = withdrawn(level, at["domain"])
        present_at_one = [line for line in gone if _has_line(first["text"], line)]
        assert present_at_one, f"{name}: level 1 states none of the lines level {level} withdraws"
        for line in gone:
            assert not _has_line(at["text"], line), f"{name}, level {level}: the report states {line!r}"
            assert all(not label.startswith(line) for label, _ in at["rows"]), f"{name}: the details box has {line!r}"
        words = [w for w in VERDICT_WORDS if w in at["text"] or any(w in value for _, value in at["rows"])]
        assert not words, f"{name}, level {level}: {words}"
        # Every level names what the answers are decided on where it shows it; the inputs stay at every level.
        for line in ("Tensile yield strength", "Elongation at break") if at["domain"] == "structural" else ("Fluid",):
            assert line in at["text"] and any(label.startswith(line) for label, _ in at["rows"])


def test_level_one_is_shown_as_it_always_was(levels: dict[str, dict[int, dict]]) -> None:
    for shown_at in levels.values():
        first = shown_at[1]
        assert "level" not in first and "readings" not in first
        assert first["answers"] == rules.answers(first["domain"], first["facts"])


def test_every_strength_question_asked_above_level_one_is_decided_by_the_figures_its_report_prints(
    levels: dict[str, dict[int, dict]],
) -> None:
    """A ductile part's failure index re-formed from the report's own lines (peak stress or the colour bar's range
    over the yield strength) gives each asked strength answer with the key's margin; a brittle part below its
    strength is asked the categorical questions alone or its bounded index."""
    exceeds, plastic = "a7e94b2c6f1d83052c9e", "n46e2f9ba03e6545205b"
    checked = 0
    for name in ("steel past yield", "steel well below yield"):
        for level in (2, 3):
            at = levels[name][level]
            peak_line = "Maximum equivalent (von Mises) stress" if level == 2 else LEGEND
            text = at["text"]
            if level == 3:
                peak = float(re.search(r"to ([\d.]+) MPa", text.split(LEGEND)[1]).group(1))  # type: ignore[union-attr]
            else:
                peak = _figure(text, peak_line)
            index = peak / _figure(text, "Tensile yield strength")
            assert index >= rules.MARGIN or index <= 1 / rules.MARGIN
            for qid in (exceeds, plastic):
                assert at["answers"][qid] is (index > 1), (name, level, qid, index)
                assert f"report: {peak_line}" in at["evidence"][qid]["shown_in"]
                checked += 1
    assert checked == 8
    # The part past yield is still asked whether it exceeds its limit at level 3, from the colour bar alone.
    assert levels["steel past yield"][3]["answers"][exceeds] is True


def test_buckling_is_asked_above_level_one_only_where_a_hand_euler_load_from_the_set_up_decides_it(
    levels: dict[str, dict[int, dict]],
) -> None:
    """The strut's answer re-formed from its level-3 report: π²E·(d t³/12)/(2L)² over the load, against the larger
    of 3 and the strength factor of safety; a plate only pulled is asked it too (nothing is compressed)."""
    buckling, safety = "f68a3b09d15c7246a05f", "r80c6d90f47c0329649f"
    text = levels["slender strut"][3]["text"]
    length, depth = (float(v) for v in re.search(r"Bounding box\s+([\d.]+) mm × ([\d.]+) mm", text).groups())  # type: ignore[union-attr]
    thickness, young = _figure(text, "Thickness"), _figure(text, "Young's modulus")
    load = float(re.search(r"axial compression on the right end, ([\d.e+]+) N", text).group(1))  # type: ignore[union-attr]
    factor = math.pi**2 * young * depth * thickness**3 / 12 / (2 * length) ** 2 / load
    peak = float(re.search(r"to ([\d.]+) MPa", text.split(LEGEND)[1]).group(1))  # type: ignore[union-attr]
    bound = max(3.0, _figure(text, "Tensile yield strength") / peak)
    assert factor * rules.MARGIN <= bound
    for level in (1, 2, 3):
        assert levels["slender strut"][level]["answers"][buckling] is True
        assert levels["slender strut"][level]["answers"][safety] is (min(factor, bound) > 1)
        assert levels["steel well below yield"][level]["answers"][buckling] is False
    assert levels["cyclic steel"][3]["not_asked"][buckling].startswith("level 3: ")


def test_a_heated_flows_buoyancy_is_asked_at_every_level_from_the_set_up(levels: dict[str, dict[int, dict]]) -> None:
    natural = "x46c2d01f03c6546905f"
    for level in (1, 2, 3):
        at = levels["heated cylinder"][level]
        assert at["answers"][natural] is True
    at = levels["heated cylinder"][3]
    text = at["text"]
    beta = _figure(text, "Thermal expansion coefficient")
    rise = float(re.search(r"wall at ([\d.]+) °C", text).group(1)) - 20  # type: ignore[union-attr]
    diameter = float(re.search(r"diameter ([\d.]+) mm", text).group(1)) / 1e3  # type: ignore[union-attr]
    inflow = _figure(text, "Reference velocity (mean inflow)")
    richardson = 9.81 * beta * rise * diameter / inflow**2
    assert richardson == pytest.approx(at["facts"]["richardson"], rel=0.01)
    assert not _has_line(text, "Richardson number Gr/Re²") and "Results (end of run)" not in text


def test_questions_withdrawn_at_a_level_say_why_and_nothing_asked_lacks_its_evidence(
    levels: dict[str, dict[int, dict]],
) -> None:
    for name, shown_at in levels.items():
        for level in (2, 3):
            at = shown_at[level]
            assert at["level"] == level and at["readings"]
            for qid in at["answers"]:
                assert qid in at["evidence"]
                for place in at["evidence"][qid]["shown_in"]:
                    if place.startswith("report: "):
                        line = place.removeprefix("report: ")
                        assert line in at["text"], (name, level, qid, line)
            for qid in shown_at[1]["answers"]:
                if qid not in at["answers"]:
                    assert at["not_asked"][qid].startswith(f"level {level}: "), (name, qid)


def test_a_mixed_set_is_balanced_per_question_and_says_its_levels(tmp_path: Path) -> None:
    table = write_seesim(tmp_path, 3, 4, questions="mechbench", difficulty=None, workers=1)
    for row in table["questions"].values():
        assert 2 * row["true"] == row["files"]
    qa = json.loads((tmp_path / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    assert qa["generator"]["difficulty"] == "mix" and set(qa["generator"]["levels"]) == {"1", "2", "3"}
    manifest = json.loads((tmp_path / "generated.json").read_text())
    assert [manifest["files"][f"structural/File_{k}"].get("level", 1) for k in (1, 2, 3)] == [1, 2, 3]
    # OpenSeeSimE's rows written from it: every level's Yes/No facts, and value ranges from level-1 files alone
    levels_asked = set()
    for domain in ("structural", "fluid"):
        for row in rows(tmp_path, domain):
            index = int(row["source_file"].rsplit("_", 1)[1])
            entry = manifest["files"][f"{domain}/File_{index + (6 if domain == 'fluid' else 0)}"]
            levels_asked.add(entry.get("level", 1))
            assert row["question_type"] != "value range" or entry.get("level", 1) == 1
    assert levels_asked == {1, 2, 3}
    for key, entry in manifest["files"].items():
        domain = key.split("/")[0]
        assert bool(value_questions(domain, entry)) is (entry.get("level", 1) == 1)


def test_the_command_takes_a_level_and_refuses_one_it_lacks(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["generate", "seesim", "-o", str(tmp_path / "x"), "--difficulty", "4"])
    assert result.exit_code == 2 and "--difficulty must be mix or a level 1-3, got '4'" in result.output
