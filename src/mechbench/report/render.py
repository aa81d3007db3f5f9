"""The report as Markdown, a single self-contained HTML page (figures inlined) and JSON."""

from __future__ import annotations

import base64
import html
import json
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mechbench.plain_text import plain_text
from mechbench.report.build import LADDER_STEPS, Report

LADDER_COLOURS = {
    "geometry": "#c0392b",
    "supports": "#e67e22",
    "hinges": "#f1c40f",
    "loads": "#7fb3d5",
    "correct": "#27ae60",
}


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return "—" if value is None else str(value)


def _table(rows: list[dict[str, Any]], columns: list[tuple[str, str]]) -> tuple[str, str]:
    """Markdown and HTML of one table; columns are (key, heading)."""
    head = "| " + " | ".join(h for _, h in columns) + " |\n|" + "---|" * len(columns) + "\n"
    body = "".join("| " + " | ".join(_fmt(r.get(k)) for k, _ in columns) + " |\n" for r in rows)
    cells = "".join(f"<th>{html.escape(h)}</th>" for _, h in columns)
    trs = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_fmt(r.get(k)))}</td>" for k, _ in columns) + "</tr>" for r in rows
    )
    return head + body, f"<table><thead><tr>{cells}</tr></thead><tbody>{trs}</tbody></table>"


def _png(figure: Figure) -> bytes:
    FigureCanvasAgg(figure)
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return buffer.getvalue()


@plain_text
def sphyr_figure(report: Report) -> bytes | None:
    """Topology score and exact match per subject, one bar group per model."""
    if not report.sphyr:
        return None
    several = len({r.get("version", "v1") for r in report.sphyr}) > 1

    def label(row: dict) -> str:  # versions apart: v1 and v2 full_easy are different benchmarks
        return f"{row['subject']} [{row.get('version', 'v1')}]" if several else row["subject"]

    subjects = sorted({label(r) for r in report.sphyr})
    models = sorted({r["model"] for r in report.sphyr})
    figure = Figure(figsize=(12, 4.5))
    ax = figure.add_subplot()
    width = 0.8 / len(models)
    for k, model in enumerate(models):
        values = [
            next(
                (
                    r.get("topology_score", r.get("normalized_score", 0.0))
                    for r in report.sphyr
                    if r["model"] == model and label(r) == s
                ),
                0.0,
            )
            for s in subjects
        ]
        ax.bar(np.arange(len(subjects)) + k * width, values, width, label=model)
    ax.set_xticks(np.arange(len(subjects)) + 0.4 - width / 2, subjects, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("topology score (or normalised score)")
    ax.set_title("SPhyR per subject")
    ax.legend(fontsize=8)
    return _png(figure)


@plain_text
def ladder_figure(report: Report) -> bytes | None:
    """StructuralEval diagnostic ladder: stacked shares per model and difficulty."""
    if not report.structural_ladder:
        return None
    bars = [(m, d, counts) for m, by in sorted(report.structural_ladder.items()) for d, counts in sorted(by.items())]
    figure = Figure(figsize=(max(6, 0.6 * len(bars) + 2), 4.5))
    ax = figure.add_subplot()
    bottom = np.zeros(len(bars))
    totals = np.array([max(sum(c.values()), 1) for _, _, c in bars], dtype=float)
    for step in LADDER_STEPS:
        values = np.array([c.get(step, 0) for _, _, c in bars]) / totals
        ax.bar(range(len(bars)), values, bottom=bottom, color=LADDER_COLOURS[step], label=step)
        bottom += values
    ax.set_xticks(range(len(bars)), [f"{m}\nd{d}" for m, d, _ in bars], fontsize=7, rotation=45, ha="right")
    ax.set_ylabel("share of tasks")
    ax.set_title("StructuralEval ladder by model and difficulty")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    return _png(figure)


@plain_text
def seesim_figure(report: Report) -> bytes | None:
    """SeeSim accuracy by modality and domain."""
    if not report.seesim:
        return None
    rows = sorted(report.seesim, key=lambda r: (str(r["modality"]), str(r["model"])))
    figure = Figure(figsize=(8, 4))
    ax = figure.add_subplot()
    labels = [f"{str(r['model']).removeprefix('mechbench/')}\n{r['modality']}" for r in rows]
    for k, key in enumerate(("accuracy_structural", "accuracy_fluid", "consistency")):
        ax.bar(np.arange(len(labels)) + k * 0.27, [r.get(key, 0.0) for r in rows], 0.27, label=key)
    ax.set_xticks(np.arange(len(labels)) + 0.27, labels, fontsize=7, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_title("SeeSim")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    figure.tight_layout()
    return _png(figure)


@plain_text
def failure_figures(report: Report) -> list[tuple[str, bytes]]:
    """A failed StructuralEval answer drawn beside the ground truth."""
    from mechbench.frame.render import render_figure

    out = []
    for failure in report.structural_failures:
        try:
            answer, truth = json.loads(failure["answer"]), json.loads(failure["truth"])
            images = [
                _png(render_figure(m, title=t, dimensions=True))
                for m, t in ((answer, "model's answer"), (truth, "ground truth"))
            ]
        except Exception:
            continue
        out.append((f"{failure['model']} · {failure['id']}: {failure['explanation']}", _side_by_side(images)))
    return out


def _side_by_side(images: list[bytes]) -> bytes:
    from PIL import Image

    pictures = [Image.open(BytesIO(b)).convert("RGB") for b in images]
    height = max(p.height for p in pictures)
    canvas = Image.new("RGB", (sum(p.width for p in pictures), height), "white")
    x = 0
    for p in pictures:
        canvas.paste(p, (x, 0))
        x += p.width
    buffer = BytesIO()
    canvas.thumbnail((1800, 900))
    canvas.save(buffer, format="PNG")
    return buffer.getvalue()


BENCHMARK_TITLES = {"structural_eval": "StructuralEval", "sphyr": "SPhyR", "seesim": "SeeSim"}
LEADERBOARD_COLUMNS = [
    ("model", "model"),
    ("headline", "headline (95 % CI)"),
    ("samples", "samples"),
    ("published_shown", "published"),
    ("protocol", "protocol"),
    ("data_shown", "data"),
]
STYLE = (
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;line-height:1.4}"
    ".wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse;margin:.6em 0}"
    "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}img{max-width:100%;height:auto}figure{margin:1em 0}"
    "details{margin:.8em 0 1.6em}summary{cursor:pointer;color:#1f4e9c}h2{border-bottom:1px solid #ddd}"
    ".note{color:#555;font-size:13px}"
)


def _leaderboard_rows(report: Report, benchmark: str) -> list[dict[str, Any]]:
    rows = []
    for row in report.leaderboard:
        if row["benchmark"] != benchmark:
            continue
        ci = row["ci95"]
        headline = f"{row['metric']} {row['value']:.3f}" + ("" if ci != ci else f" ± {ci:.3f}")  # NaN: one sample
        if row.get("reference"):  # a published result of another model, shown beside the runs it compares with
            published = f"the published number itself: {row['published_note']}"
        elif row["published"] is not None:
            published = f"{row['published']:.3f} ({row['published_note']})"
        else:
            published = "—"
        digest = f" (sha256 {row['data_sha256']})" if row["data_sha256"] else ""
        rows.append({**row, "headline": headline, "published_shown": published, "data_shown": row["data"] + digest})
    return rows


def _args(task_args: dict[str, Any]) -> str:
    return "; ".join(f"{k}={v}" for k, v in sorted(task_args.items())) or "defaults"


def _detail_tables(report: Report) -> dict[str, list[tuple[str, list[dict[str, Any]], list[tuple[str, str]]]]]:
    """The detailed tables of each benchmark (folded away under its leaderboard in the HTML)."""
    out: dict[str, list[tuple[str, list[dict[str, Any]], list[tuple[str, str]]]]] = {}
    if report.structural:
        ladder_rows = [
            {"model": m, "difficulty": d, **c}
            for m, by in sorted(report.structural_ladder.items())
            for d, c in sorted(by.items())
        ]
        out["structural_eval"] = [
            (
                "StructuralEval",
                report.structural,
                [
                    ("model", "model"),
                    ("prompt", "prompt"),
                    ("scoring", "scoring"),
                    ("weighted_accuracy", "weighted acc."),
                    ("mean_ratio", "mean ratio"),
                    ("beam", "beam"),
                    ("frame", "frame"),
                    ("truss", "truss"),
                    ("exact_success", "exact"),
                    ("unparsable_replies", "unparsable"),
                    ("budget_exhausted_replies", "budget exhausted"),
                    ("samples", "tasks"),
                ],
            ),
            (
                "StructuralEval ladder (counts)",
                ladder_rows,
                [("model", "model"), ("difficulty", "difficulty"), *[(s, s) for s in LADDER_STEPS]],
            ),
        ]
    if report.sphyr:
        subjects = sorted({r["subject"] for r in report.sphyr})
        tables = []
        for metric, title in (("topology_score", "topology score"), ("exact_match", "exact match")):
            pivot = []
            for model, version in sorted({(r["model"], r.get("version", "v1")) for r in report.sphyr}):
                row: dict[str, Any] = {"model": model, "version": version}
                row.update(
                    {
                        r["subject"]: r[metric]
                        for r in report.sphyr
                        if r["model"] == model and r.get("version", "v1") == version and metric in r
                    }
                )
                pivot.append(row)
            if any(len(row) > 2 for row in pivot):
                short = [(s, s.replace("_random_", " ").replace("_", " ")) for s in subjects]
                tables.append(
                    (f"SPhyR {title} (model × subject)", pivot, [("model", "model"), ("version", "version"), *short])
                )
        tables.append(
            (
                "SPhyR per subject",
                sorted(report.sphyr, key=lambda r: (r.get("version", "v1"), r["subject"], r["model"])),
                [
                    ("version", "version"),
                    ("subject", "subject"),
                    ("model", "model"),
                    ("exact_match", "EM"),
                    ("normalized_score", "norm. score"),
                    ("topology_score", "topology score"),
                    ("invalid_output_grid", "invalid"),
                    ("budget_exhausted", "budget exhausted"),
                    ("samples", "samples"),
                ],
            )
        )
        out["sphyr"] = tables
    if report.seesim:
        out["seesim"] = [
            (
                "SeeSim",
                report.seesim,
                [
                    ("model", "model"),
                    ("modality", "modality"),
                    ("accuracy", "accuracy"),
                    ("accuracy_structural", "structural"),
                    ("accuracy_fluid", "fluid"),
                    ("consistency", "consistency"),
                    ("validation_accuracy", "validation"),
                    ("unparsable", "unparsable"),
                    ("budget_exhausted", "budget exhausted"),
                    ("samples", "samples"),
                    ("left_out", "files left out (no media)"),
                ],
            )
        ]
    return out


def write_report(report: Report, out: Path) -> dict[str, Path]:
    """Write report.md, report.html (self-contained), report.json and the PNG figures into ``out``.

    Each benchmark leads with its leaderboard (the headline metric with a 95 % interval, samples, the
    published number where one exists, protocol, data and its hash), its figure next to it, and the detailed
    tables folded away; the runs with their task arguments come last.
    """
    out.mkdir(parents=True, exist_ok=True)
    md, page = ["# mechbench report", ""], ["<h1>mechbench report</h1>"]
    models = sorted({r.model for r in report.runs})
    summary = f"{len(report.runs)} runs, {len(models)} models: {', '.join(models)}."
    md += [summary, ""]
    page.append(f"<p class='note'>{html.escape(summary)}</p>")
    figures = {
        "sphyr": [("sphyr.png", "SPhyR per subject", sphyr_figure(report))],
        "structural_eval": [("structural_ladder.png", "StructuralEval ladder", ladder_figure(report))],
        "seesim": [("seesim.png", "SeeSim", seesim_figure(report))],
    }
    # Failed answers drawn beside the truth are evidence, not the headline: folded away under the ladder.
    folded = {"structural_eval": [(f"failure_{k}.png", c, png) for k, (c, png) in enumerate(failure_figures(report))]}
    details = _detail_tables(report)

    def table(title: str, rows: list[dict[str, Any]], columns: list[tuple[str, str]], level: str = "##") -> None:
        text, markup = _table(rows, columns)
        md.extend([f"{level} {title}", "", text])
        page.append(f"<h3>{html.escape(title)}</h3><div class='wrap'>{markup}</div>")

    for benchmark, title in BENCHMARK_TITLES.items():
        rows = _leaderboard_rows(report, benchmark)
        if not rows and benchmark not in details:
            continue
        md.extend([f"## Leaderboard: {title}", ""])
        page.append(f"<h2>{html.escape(title)}</h2>")
        if rows:
            text, markup = _table(rows, LEADERBOARD_COLUMNS)
            md.append(text)
            page.append(f"<div class='wrap'>{markup}</div>")

        def figure(name: str, caption: str, png: bytes | None) -> None:
            if png is None:
                return
            (out / name).write_bytes(png)
            md.extend([f"![{caption}]({name})", ""])
            encoded = base64.b64encode(png).decode("ascii")
            page.append(
                f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{encoded}">'
                f"<figcaption class='note'>{html.escape(caption)}</figcaption></figure>"
            )

        for name, caption, png in figures[benchmark]:
            figure(name, caption, png)
        if folded.get(benchmark):
            page.append(f"<details><summary>{html.escape(title)}: failed answers drawn beside the truth</summary>")
            for name, caption, png in folded[benchmark]:
                figure(name, caption, png)
            page.append("</details>")
        if benchmark in details:
            page.append(f"<details><summary>{html.escape(title)}: detailed tables</summary>")
            for detail_title, detail_rows, columns in details[benchmark]:
                table(detail_title, detail_rows, columns)
            page.append("</details>")
    runs = [{**r.model_dump(), "args": _args(r.task_args)} for r in report.runs]
    page.append("<details><summary>Runs: models, data, task arguments, logs</summary>")
    table(
        "Runs",
        runs,
        [
            ("benchmark", "benchmark"),
            ("model", "model"),
            ("data", "data"),
            ("data_sha256", "data SHA-256"),
            ("created", "date"),
            ("mechbench_version", "mechbench"),
            ("samples", "samples"),
            ("input_tokens", "input tokens"),
            ("output_tokens", "output tokens"),
            ("args", "task arguments"),
        ],
    )
    page.append("</details>")
    if report.skipped_logs:
        md += ["## Logs left out", "", *[f"- {s}" for s in report.skipped_logs], ""]
        items = "".join(f"<li>{html.escape(s)}</li>" for s in report.skipped_logs)
        page.append(f"<details><summary>Logs left out</summary><ul>{items}</ul></details>")
    document = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>mechbench report</title><style>{STYLE}</style></head><body>{''.join(page)}</body></html>"
    )
    paths = {"md": out / "report.md", "html": out / "report.html", "json": out / "report.json"}
    paths["md"].write_text("\n".join(md))
    paths["html"].write_text(document)
    paths["json"].write_text(report.model_dump_json(indent=1))
    return paths
