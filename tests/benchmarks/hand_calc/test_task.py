"""HandCalc end to end: a fresh set is the same bytes on any run, every family appears, the text holds every number
the drawing shows, the shortcut panel stays near zero on a fresh seed, the report pairs drawing and text, and bad
replies score zero with their reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage

from mechbench.benchmarks.hand_calc.families import FAMILIES
from mechbench.benchmarks.hand_calc.generated_set import write_items
from mechbench.benchmarks.hand_calc.items import Item
from mechbench.benchmarks.hand_calc.prompts import prompt
from mechbench.benchmarks.hand_calc.protocol import ASKED_SHARE, DRAWINGS, ITEMS_FILE
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import hand_calc

pytestmark = pytest.mark.slow
SHORTCUT_CEILING = 0.10
"""The most a shortcut may score on a fresh set (the textbook formula is right where it truly applies)."""


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """70 items of seed 11 (no shipped set uses it), drawn by two worker processes."""
    out = tmp_path_factory.mktemp("hand_calc")
    write_items(out, 70, 11, workers=2)
    return out


def _items(folder: Path) -> list[Item]:
    return [Item.model_validate_json(line) for line in (folder / ITEMS_FILE).read_text().splitlines()]


def test_a_seed_gives_the_same_items_in_one_process_or_two(fresh: Path, tmp_path: Path) -> None:
    # Item k depends only on (seed, k): the first 30, made in this process, are the two workers' first 30 lines and
    # drawings (across the workers' first chunk boundary, at 25).
    write_items(tmp_path, 30, 11, workers=1)
    alone = (tmp_path / ITEMS_FILE).read_text(encoding="utf-8").splitlines()
    assert alone == (fresh / ITEMS_FILE).read_text(encoding="utf-8").splitlines()[:30]
    for drawing in (tmp_path / DRAWINGS).iterdir():
        assert drawing.read_bytes() == (fresh / DRAWINGS / drawing.name).read_bytes(), drawing.name
    assert len(list((tmp_path / DRAWINGS).iterdir())) == 30
    items = _items(fresh)
    assert [i.id for i in items] == [f"hc-{k:04d}" for k in range(70)]  # the workers' chunks back in order
    assert {i.family for i in items} == set(FAMILIES)
    assert all((fresh / DRAWINGS / f"{i.id}.png").read_bytes()[:4] == b"\x89PNG" for i in items)
    for item in items:  # nothing asked that always-zero gets right
        for q in item.quantities:
            same = [abs(o.truth) for o in item.quantities if o.unit == q.unit]
            assert abs(q.truth) >= ASKED_SHARE * max(same) and q.floor > 0


def test_the_text_states_every_number_the_drawing_shows(fresh: Path) -> None:
    """The text presentation can be solved without the figure: every coordinate and load value of the structure
    drawn, and every datum of the drawing's title, is in the words."""
    for item in _items(fresh):
        text = prompt(item, "text")
        if item.structure is None:
            assert item.element is not None
            assert all(f"= {v:g} MPa" in text for v in item.element.values())
            continue
        if item.family in ("reactions", "truss", "moment", "deflection"):
            for point in item.structure["points"]:
                assert re.search(rf"{point['id']} \({point['x']:g}, {point['y']:g}\)", text), (item.id, point)
            for load in item.structure["loads"]:
                value = load.get("value", load.get("wStart"))
                assert f"{value:g} kN" in text, (item.id, load)
        for datum in re.findall(r"(\d+(?:\.\d+)?) (?:GPa|mm²|kN·m²|K)", item.title):
            assert datum in text, (item.id, datum)


def test_the_shortcut_panel_stays_near_zero_on_a_fresh_seed(fresh: Path, tmp_path: Path) -> None:
    from mechbench.conformance.shortcuts import run_shortcuts

    panel = run_shortcuts("hand_calc", {"data": str(fresh)}, tmp_path / "logs")
    assert {row["model"] for row in panel} == {f"mechbench/{n}" for n in ("zero", "largest-load", "textbook", "random")}
    for row in panel:
        assert row["samples"] == 140 and row["value"] <= SHORTCUT_CEILING, row


def test_the_report_pairs_drawing_and_text_and_shows_the_planted_gap(demo_run: tuple[Path, str]) -> None:
    """The demo's replayed reader misreads every third drawing: the table shows the gap, paired over items."""
    folder, _ = demo_run
    data = json.loads((folder / "report" / "report.json").read_text())
    rows = {r["model"]: r for r in data["benchmarks"]["hand_calc"]["presentations"]}
    replay = rows["mechbench/replay"]
    assert replay["text"] == 1.0 and replay["drawing"] < 1.0 and replay["gap"] > replay["gap_ci95"] > 0
    assert replay["perception_share"] == 1.0
    assert all(rows[m]["gap"] == 0 for m in rows if m != "mechbench/replay")  # built-in models read both alike
    markdown = (folder / "report" / "report.md").read_text()
    assert "HandCalc: drawing against text, on the same items" in markdown
    assert f"{replay['gap']:+.3f} ± {replay['gap_ci95']:.3f}" in markdown


def test_presentations_and_bad_replies(tmp_path: Path) -> None:
    """The drawing sample carries the image, the text sample none; a malformed reply scores 0 with its reason and
    the run goes on."""
    task = hand_calc(data="bundled", family="stress")
    images = {s.id: any(getattr(c, "type", "") == "image" for c in s.input[0].content) for s in task.dataset}
    assert images and all(images[k] == k.endswith("-drawing") for k in images)
    outputs = [ModelOutput.from_content("mockllm/model", "sigma_1 = twelve MPa") for _ in task.dataset]
    for output in outputs:  # counted here: mockllm would fetch a tokenizer to count them (offline, it cannot)
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    (log,) = inspect_eval(task, model="mockllm/model", model_args={"custom_outputs": outputs},
                          log_dir=str(tmp_path), **QUIET_EVAL)  # fmt: skip
    assert log.status == "success" and len(log.samples) == len(task.dataset)
    for sample in log.samples:
        score = next(iter(sample.scores.values()))
        assert score.value == 0 and "no line" in score.explanation


def test_the_tool_setting_runs_the_frame_solver(tmp_path: Path) -> None:
    (log,) = inspect_eval(hand_calc(data="bundled", family="reactions", presentation="text", tools=True),
                          model="mechbench/tool-demo", log_dir=str(tmp_path), limit=2, **QUIET_EVAL)  # fmt: skip
    assert log.status == "success"
    for sample in log.samples:
        tools = [m for m in sample.messages if m.role == "tool"]
        assert tools and '"reactions"' in tools[0].text and "5" in tools[0].text
