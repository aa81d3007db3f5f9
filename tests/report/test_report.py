"""Reports from Inspect logs of all three benchmarks: tables, figures, JSON, and the HTML in Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from PIL import Image
from typer.testing import CliRunner

from mechbench.cli import app
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import seesim, sphyr_suite, structural_eval

runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory, structural_data: Path, sphyr_data: Path, seesim_data: Path) -> Path:
    folder = tmp_path_factory.mktemp("logs")
    common = {"log_dir": str(folder), **QUIET_EVAL}
    inspect_eval(structural_eval(data=str(structural_data), filter="beam", debug=True), model="mockllm/model", **common)
    truth = json.loads((structural_data / "raw_models" / "beam_001.json").read_text())
    wrong = {**truth, "points": [{**p, "x": p["x"] * 2} for p in truth["points"]]}
    replies = folder / "replies.jsonl"
    replies.write_text(json.dumps({"id": "beam_001", "reply": json.dumps(wrong)}))
    inspect_eval(
        structural_eval(data=str(structural_data), filter="beam_001", max_retries=0),
        model="mechbench/replay",
        model_args={"file": str(replies)},
        **common,
    )
    inspect_eval(
        sphyr_suite("full_easy,1_random_cell_hard", data=str(sphyr_data), physics=False),
        model="mechbench/solid",
        **common,
    )
    inspect_eval(
        seesim(modality="text", domain="fluid", data=str(seesim_data)), model="mechbench/always-true", **common
    )
    return folder


def test_report_has_every_leaderboard(logs: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(logs), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    md = (tmp_path / "out" / "report.md").read_text()
    for heading in ("## StructuralEval", "## StructuralEval ladder", "## SeeSim", "## SPhyR", "## Runs"):
        assert heading in md
    assert "| mechbench/replay |" in md and "full_easy" in md and "1_random_cell_hard" in md
    assert "files left out (no media)" in md  # SeeSim says which files had no media (none for text here)
    assert (tmp_path / "out" / "failure_0.png").is_file()  # the wrong beam drawn beside the truth
    for name in ("sphyr.png", "structural_ladder.png", "seesim.png"):
        assert Image.open(tmp_path / "out" / name).size[0] > 300
    page = (tmp_path / "out" / "report.html").read_text()
    assert "http://" not in page and "https://" not in page  # self-contained: opens offline
    assert page.count("data:image/png;base64,") >= 4
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    weighted = {r["model"]: r["weighted_accuracy"] for r in data["benchmarks"]["structural_eval"]["runs"]}
    assert weighted == {"oracle: the ground truth (no model called)": 1.0, "mechbench/replay": 0.0}
    assert {r["mechbench_version"] for r in data["runs"]} != {None}


def test_json_format_and_usage_errors(logs: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(logs), "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["benchmarks"]["sphyr"]["subjects"]
    assert runner.invoke(app, ["report", str(tmp_path / "none")]).exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["report", str(empty)])
    assert result.exit_code == 2 and "no successful Inspect logs" in result.stderr


def test_html_renders_in_headless_chromium(logs: Path, tmp_path: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "Chromium is required for this test (.ci/run installs Debian's chromium package)"
    runner.invoke(app, ["report", str(logs), "-o", str(tmp_path / "out")])
    shot = tmp_path / "shot.png"
    profile = tmp_path / "profile"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--screenshot={shot}",
            "--window-size=1400,2000",
            (tmp_path / "out" / "report.html").as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    pixels = np.asarray(Image.open(shot).convert("L"))
    assert pixels.std() > 10, "the screenshot is blank"
    assert (pixels < 128).mean() > 0.005  # text and tables drawn


def test_mathtext_in_names_and_labels_is_drawn_as_plain_text(logs: Path, tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    hostile = r"$\undefinedcommand{x}$"
    copy = tmp_path / "logs"
    copy.mkdir()
    for path in logs.glob("*.eval"):
        log = read_eval_log(str(path))
        log.eval.model = f"mechbench/{hostile}"
        log.eval.task_args = {**log.eval.task_args, "label": hostile}
        write_eval_log(log, str(copy / path.name))
    result = runner.invoke(app, ["report", str(copy), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "sphyr.png").is_file() and (tmp_path / "out" / "failure_0.png").is_file()
    assert r"\undefinedcommand" in (tmp_path / "out" / "report.md").read_text()


def test_a_point_id_with_mathtext_renders(structural_data: Path, tmp_path: Path) -> None:
    from mechbench.frame.render import render

    model = json.loads((structural_data / "raw_models" / "beam_001.json").read_text())
    text = json.dumps(model).replace('"P1"', '"$\\\\undefinedcommand{x}$"')
    assert render(json.loads(text), tmp_path / "x.png")[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_report_leads_with_leaderboards_and_fits_a_laptop_screen(logs: Path, tmp_path: Path) -> None:
    """At 1366 px wide nothing runs off the page; leaderboards with intervals come first, details are folded."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "Chromium is required for this test (.ci/run installs Debian's chromium package)"
    runner.invoke(app, ["report", str(logs), "-o", str(tmp_path / "out")])
    page = (tmp_path / "out" / "report.html").read_text()
    first_details = page.index("<details>")
    for title in ("StructuralEval", "SPhyR", "SeeSim"):
        assert page.index(f"<h2>{title}</h2>") < page.index("<details><summary>Runs")
    assert page.index("headline (95 % CI over clusters)") < first_details
    assert "{'" not in page  # task arguments as name=value, never raw Python dicts
    assert "±" in page
    probe = tmp_path / "probe.html"
    measure = (
        "<script>window.addEventListener('load',()=>{document.title="
        "document.documentElement.scrollWidth+'x'+window.innerWidth;});</script>"
    )
    probe.write_text(page.replace("</body>", measure + "</body>"))
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1366,768",
            "--virtual-time-budget=5000",
            "--dump-dom",
            probe.as_uri(),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    title = done.stdout.split("<title>", 1)[1].split("</title>", 1)[0]
    scroll, width = (int(v) for v in title.split("x"))
    assert scroll <= width, f"the page is {scroll} px wide in a {width} px window"


def test_odd_logs_never_stop_the_report(logs: Path, tmp_path: Path) -> None:
    """Difficulties that are not positive numbers, and model names with pipes, markup, a lone surrogate and ANSI
    escapes: the report is written, the weights fall back to 1, the text is escaped and one line per cell."""
    from inspect_ai.log import read_eval_log, write_eval_log

    copy = tmp_path / "logs"
    copy.mkdir()
    odd = "evil|model<script>\ud800\x1b[31m\nnext"
    for path in logs.glob("*.eval"):
        log = read_eval_log(str(path))
        if (log.eval.metadata or {}).get("benchmark") == "structural_eval":
            log.eval.model = odd
            for k, sample in enumerate(log.samples):
                sample.metadata["difficulty"] = ["hard", 0, None, float("nan")][k % 4]
        write_eval_log(log, str(copy / path.name))
    result = runner.invoke(app, ["report", str(copy), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "<script>" not in markdown and "\x1b" not in markdown and "evil\\|model&lt;script&gt;" in markdown
    page = (tmp_path / "out" / "report.html").read_text()
    assert "<script>" not in page
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    rows = [r for r in data["leaderboard"] if r["benchmark"] == "structural_eval"]
    assert rows and all(0.0 <= r["value"] <= 1.0 for r in rows) and not data["skipped_logs"]


def test_a_log_file_given_for_the_log_folder_is_named_with_its_folder(tmp_path: Path) -> None:
    log = tmp_path / "run.eval"
    log.write_bytes(b"PK")
    result = runner.invoke(app, ["report", str(log), "-o", str(tmp_path / "report")])
    assert result.exit_code == 2 and f"is a file (its folder: {tmp_path})" in result.stderr
    result = runner.invoke(app, ["report", str(tmp_path / "none"), "-o", str(tmp_path / "report")])
    assert result.exit_code == 2 and "does not exist" in result.stderr
