"""The report as Markdown, a single self-contained HTML page (figures inlined) and JSON.

Generic over the benchmark registry: each benchmark's section is its leaderboard, its figures, its folded
figures and tables, and a glossary of what its numbers mean, all from its :class:`~mechbench.registry.ReportSpec`.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

from mechbench import registry
from mechbench.core.intervals import INTERVAL_METHOD
from mechbench.core.text import clean, plural
from mechbench.registry import Column
from mechbench.report.build import Report
from mechbench.report.compare import MAX_ALL_PAIRS
from mechbench.report.reading import reading_figure


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return "—" if value != value else f"{value:.3f}"  # NaN: not measured
    return "—" if value is None else str(value)


def _cell(value: Any) -> str:
    """A Markdown table cell: pipes escaped, one line, no raw HTML."""
    text = clean(_fmt(value)).replace("\\", "\\\\").replace("|", "\\|")
    return html.escape(" ".join(text.split()), quote=False)


def _table(rows: list[dict[str, Any]], columns: list[Column]) -> tuple[str, str]:
    """Markdown and HTML of one table."""
    head = "| " + " | ".join(_cell(c.heading) for c in columns) + " |\n|" + "---|" * len(columns) + "\n"
    body = "".join("| " + " | ".join(_cell(r.get(c.key)) for c in columns) + " |\n" for r in rows)
    cells = "".join(f"<th>{html.escape(c.heading)}</th>" for c in columns)
    trs = "".join(
        "<tr>" + "".join(f"<td>{html.escape(clean(_fmt(r.get(c.key))))}</td>" for c in columns) + "</tr>" for r in rows
    )
    return head + body, f"<table><thead><tr>{cells}</tr></thead><tbody>{trs}</tbody></table>"


LEADERBOARD_COLUMNS = [
    Column("model", "model"),
    Column("rank_shown", "rank (could be)"),
    Column("headline", "headline (95 % CI over clusters)"),
    Column("counted", "samples / clusters"),
    Column("naive_shown", "CI if samples were independent"),
    Column("read", "answers unread / decided by a repair or fallback (shares)"),
    Column("runs", "runs"),
    Column("published_shown", "published"),
    Column("setting", "setting"),
    Column("data_shown", "data"),
]


def reading(report: Report) -> str:
    """How to read the report, in words generated from what it computes (the interval's method, named beside the
    code that computes it: :data:`~mechbench.core.intervals.INTERVAL_METHOD`) and from the benchmarks in it (the
    cluster each declares in its spec)."""
    present = {r["benchmark"] for r in report.leaderboard if not r.get("reference")}
    clusters = [
        f"{entry.title}: one {entry.cluster.unit}"
        for entry in registry.specs()
        if entry.name in present and entry.cluster
    ]
    unclustered = [entry.title for entry in registry.specs() if entry.name in present and not entry.cluster]
    where = "; ".join(clusters + [f"{title}: each sample its own (it declares no cluster)" for title in unclustered])
    bounded = [s for s in report.comparison_scope if not s["all_pairs"]]
    pairs = (
        "every two rows that answered the same samples"
        if not bounded
        else f"every two rows that answered the same samples (up to {MAX_ALL_PAIRS:,} pairs; past that, the pairs "
        "named under the leaderboard, and Holm's correction counts every pair)"
    )
    return (
        "Each leaderboard has one row per model and setting, pooled over the benchmark's runs (subjects, domains, "
        "files); a model given different model arguments (-M: another replay file, another seed) is another row, "
        "named by what sets its arguments apart. The headline is a mean over every sample of those runs (a sample "
        "asked in several epochs counts once, its epochs averaged); a sample whose score is not a finite number is "
        "left out, and its row says how many and from which runs. ± is the half-width of its 95 % interval over "
        "clusters, the unit whose answers are correlated"
        + (f" ({where})" if where else "")
        + f": the interval is {INTERVAL_METHOD}, and 'samples / clusters' says how many of each it rests on; the "
        "interval a report would print if every sample were independent is shown beside it (docs/statistics.md). "
        "'rank (could be)' is every rank a row could hold given the pairs below that were told apart (and what they "
        "imply: A ahead of B and B ahead of C put A ahead of C). Higher is better on every headline. 'published' is "
        "the publishers' own number for the same model on the same data, where one exists, with its interval "
        "(computed on the same items and clusters) and whether each number lies in the other's interval; rows marked "
        "'the published number itself' are the publishers' results for other models, shown for reference. Beside "
        "each headline: the share of answers that could not be read, and the share decided by a repair or a "
        "fallback rule of the benchmark's scorer, where it has such rules. Under each leaderboard, the shortcut "
        "panel: what built-in models that never use the skill score on the same data, beside the chance level where "
        f"the score has one; then {pairs}, compared on their paired difference (its clustered interval and the "
        "p-value of the same t, corrected for the number of pairs by Holm's method) and called 'A ahead of B' only "
        "below 0.05 after the correction. A run with tools (-T tools=true) is its own protocol, in its own row, never "
        "mixed into published comparisons. In figures and detailed tables, a model run in several settings is named "
        "with what sets each apart (model [tools (budget 8)]), so no figure pools two settings; the 'answers read' "
        "figure counts, per row, the answers read as given, read only by a repair or fallback rule, and not read at "
        "all (with the most common reason when none was). Column headings say '(count)' for counts of replies; every "
        "other rate is a share."
    )


STYLE = (
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;line-height:1.4}"
    ".wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse;margin:.6em 0}"
    "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}img{max-width:100%;height:auto}figure{margin:1em 0}"
    "details{margin:.8em 0 1.6em}summary{cursor:pointer;color:#1f4e9c}h2{border-bottom:1px solid #ddd}"
    ".note{color:#555;font-size:13px}.matrix td{text-align:right;white-space:nowrap}"
)


def _published_cell(row: dict[str, Any]) -> str:
    if row.get("reference"):  # a published result of another model, shown beside the runs it compares with
        interval = row.get("published_ci95")
        if interval is not None:
            return (
                f"the published number itself, ± {interval:.3f} ({row['published_interval_note']}): "
                f"{row['published_note']}"
            )
        return f"the published number itself: {row['published_note']}"
    if row["published"] is None:
        return "—"
    shown = f"{row['published']:.3f}"
    if row.get("published_ci95") is not None:
        shown += f" ± {row['published_ci95']:.3f}"
        ours = "ours within it" if row["ours_in_published"] else "ours outside it"
        theirs = "it within ours" if row["published_in_ours"] else "it outside ours"
        shown += f" ({ours}, {theirs})"
    return f"{shown} ({row['published_note']})"


def leaderboard_rows(report: Report, benchmark: str) -> list[dict[str, Any]]:
    """The benchmark's leaderboard rows with their shown cells (headline with interval, clusters, published,
    data)."""
    rows = []
    for row in report.leaderboard:
        if row["benchmark"] != benchmark:
            continue
        ci = row["ci95"]
        reference = bool(row.get("reference"))
        if not reference and not row.get("samples"):  # every score left out: listed with why, never as a number
            headline = f"{row['metric']}: no finite score"
        else:
            headline = f"{row['metric']} {row['value']:.3f}" + ("" if ci != ci else f" ± {ci:.3f}")  # NaN: 1 cluster
        digest = f" (sha256 {row['data_sha256']})" if row["data_sha256"] else ""
        read = "—" if reference else f"{row.get('unreadable', 0):.1%} / {row.get('repaired', 0):.1%}"
        counted = "—" if reference else f"{row['samples']} / {row['clusters']} {plural(row.get('cluster_unit', ''))}"
        if not reference and row.get("unclustered"):
            counted += f" ({row['unclustered']} with no cluster in their log: each its own)"
        if not reference and (row.get("epochs") or 1) > 1:
            spread = row.get("run_to_run")
            counted += f"; {row['epochs']} epochs"
            counted += "" if spread is None else f", {spread:.0%} of the spread run-to-run"
        if not reference and row.get("left_out_note"):
            counted += f"; {row['left_out_note']}"
        naive = row.get("naive_ci95")
        if reference or "rank" not in row:
            rank = "—"
        else:
            rank = f"{row['rank']} of {row['rank_of']}"
            rank += f" (from {row['rank_pairs']} compared)" if row.get("rank_pairs") else ""
        rows.append(
            {
                **row,
                "headline": headline,
                "rank_shown": rank,
                "counted": counted,
                "naive_shown": "—" if reference or naive is None or naive != naive else f"± {naive:.3f}",
                "read": read,
                "published_shown": _published_cell(row),
                "data_shown": row["data"] + digest,
            }
        )
    return rows


PAIR_COLUMNS = [
    Column("a", "A"),
    Column("b", "B"),
    Column("difference_shown", "A − B (95 % CI over clusters)"),
    Column("p_shown", "p (Holm)"),
    Column("clusters_shown", "shared samples / clusters"),
    Column("verdict", "verdict"),
]
MAX_LISTED_PAIRS = 45
"""Pairs listed in report.md per benchmark (ten rows' worth); report.json holds every pair compared, report.html
their matrix."""
MAX_MATRIX_ROWS = 40
"""Rows of a benchmark drawn in the HTML matrix of pairs (1,600 cells); past it, the list and report.json."""


def pair_rows(report: Report, benchmark: str) -> list[dict[str, Any]]:
    """The benchmark's pairs with their shown cells, the ones told apart first."""
    rows = []
    for pair in report.comparisons:
        if pair["benchmark"] != benchmark:
            continue
        if pair["compared"]:
            shown = {
                "difference_shown": f"{pair['difference']:+.3f} ± {pair['ci95']:.3f}",
                "p_shown": f"{pair['p_holm']:.3g}",
                "clusters_shown": f"{pair['samples']} / {pair['clusters']}",
            }
        else:
            shown = {"difference_shown": "—", "p_shown": "—", "clusters_shown": "—"}
        rows.append({**pair, **shown})
    return sorted(rows, key=lambda r: (not r.get("ahead"), not r["compared"], r.get("p_holm", 1.0)))


def pair_matrix(report: Report, benchmark: str) -> str:
    """The pairs as a matrix (HTML): the cell of row A and column B holds A − B, marked ▲ where A is ahead after
    Holm's correction, ▼ where B is, and · where the two could not be told apart (— not compared)."""
    pairs = [p for p in report.comparisons if p["benchmark"] == benchmark]
    names = list(dict.fromkeys(name for p in pairs for name in (p["a"], p["b"])))
    if not 2 <= len(names) <= MAX_MATRIX_ROWS:
        return ""
    cells: dict[tuple[str, str], str] = {}
    for p in pairs:
        if not p["compared"]:
            cells[(p["a"], p["b"])] = cells[(p["b"], p["a"])] = "—"
            continue
        for a, b, sign in ((p["a"], p["b"], 1.0), (p["b"], p["a"], -1.0)):
            mark = "▲" if p.get("ahead") == a else "▼" if p.get("ahead") == b else "·"
            cells[(a, b)] = f"{sign * p['difference']:+.3f} {mark}"
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    body = "".join(
        f"<tr><th>{html.escape(a)}</th>"
        + "".join(f"<td>{html.escape(cells.get((a, b), ''))}</td>" for b in names)
        + "</tr>"
        for a in names
    )
    return f"<table class='matrix'><thead><tr><th>A \\ B</th>{head}</tr></thead><tbody>{body}</tbody></table>"


PANEL_COLUMNS = [
    Column("model", "shortcut"),
    Column("score", "score (95 % CI)"),
    Column("chance_shown", "chance"),
    Column("verdict", "against chance"),
    Column("samples", "samples"),
    Column("setting", "setting"),
    Column("data", "data"),
]


def panel_rows(report: Report, benchmark: str) -> list[dict[str, Any]]:
    """The benchmark's shortcut panel with its shown cells."""
    rows = []
    for row in report.shortcut_panels.get(benchmark, []):
        ci, chance = row["ci95"], row.get("chance")
        score = f"{row['metric']} {row['value']:.3f}" + ("" if ci != ci else f" ± {ci:.3f}")
        shown = "—" if chance is None else f"{chance:.3f}"
        rows.append({**row, "score": score, "chance_shown": shown})
    return rows


CALIBRATED_COLUMNS = [
    Column("model", "model"),
    Column("setting", "setting"),
    Column("accuracy", "headline"),
    Column("ability", "ability (95 % CI)"),
    Column("items", "calibrated items answered"),
    Column("calibration", "calibration"),
]

COMPARED_COLUMNS = [
    Column("model", "model"),
    Column("tools_setting", "tool setting"),
    Column("other_setting", "compared with"),
    Column("shown", "difference (95 % CI)"),
    Column("note", "note"),
]


def _difference_row(row: dict[str, Any]) -> dict[str, Any]:
    ci = row["ci95"]
    shown = f"{row['metric']} {row['difference']:+.3f}" + ("" if ci != ci else f" ± {ci:.3f}")
    return {**row, "shown": f"{shown} ({row['tools']:.3f} against {row['other']:.3f})"}


def _args(task_args: dict[str, Any]) -> str:
    return "; ".join(f"{k}={v}" for k, v in sorted(task_args.items())) or "defaults"


RUN_COLUMNS = [
    Column("benchmark", "benchmark"),
    Column("model", "model"),
    Column("data", "data"),
    Column("data_sha256", "data SHA-256"),
    Column("created", "date"),
    Column("mechbench_version", "mechbench"),
    Column("samples", "samples"),
    Column("input_tokens", "input tokens"),
    Column("output_tokens", "output tokens"),
    Column("args", "task arguments"),
]


class _Page:
    """The Markdown and HTML of the report, written side by side."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.md: list[str] = ["# mechbench report", ""]
        self.html: list[str] = ["<h1>mechbench report</h1>"]

    def note(self, text: str) -> None:
        self.md += [_cell(text), ""]
        self.html.append(f"<p class='note'>{html.escape(text)}</p>")

    def heading(self, markdown: str, title: str) -> None:
        self.md += [f"{markdown} {title}", ""]
        self.html.append(f"<h2>{html.escape(title)}</h2>")

    def table(self, title: str | None, rows: list[dict[str, Any]], columns: list[Column], html_extra: str = "") -> None:
        """A table in both pages; ``html_extra``: HTML shown before it in the page only (a matrix of the same rows),
        the table itself then folded under it."""
        text, markup = _table(rows, columns)
        if title:
            self.md += [f"## {title}", ""]
            self.html.append(f"<h3>{html.escape(title)}</h3>")
        self.md.append(text)
        if html_extra:
            self.html.append(f"<div class='wrap'>{html_extra}</div><details><summary>the list</summary>")
        self.html.append(f"<div class='wrap'>{markup}</div>")
        if html_extra:
            self.html.append("</details>")

    def figure(self, name: str, caption: str, png: bytes | None) -> None:
        if png is None:
            return
        (self.out / name).write_bytes(png)
        self.md += [f"![{_cell(caption).replace('[', '(').replace(']', ')')}]({name})", ""]
        encoded = base64.b64encode(png).decode("ascii")
        self.html.append(
            f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{encoded}">'
            f"<figcaption class='note'>{html.escape(caption)}</figcaption></figure>"
        )

    def fold(self, summary: str) -> None:
        self.html.append(f"<details><summary>{html.escape(summary)}</summary>")

    def unfold(self) -> None:
        self.html.append("</details>")

    def glossary(self, title: str, entries: tuple[tuple[str, str], ...]) -> None:
        self.md += [f"**{title}: what the numbers mean**", "", *[f"- *{k}*: {_cell(v)}" for k, v in entries], ""]
        items = "".join(f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in entries)
        self.html.append(
            f"<details><summary>{html.escape(title)}: what the numbers mean</summary><ul>{items}</ul></details>"
        )

    def document(self) -> str:
        return (
            "<!doctype html><html><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>mechbench report</title><style>{STYLE}</style></head><body>{''.join(self.html)}</body></html>"
        )


def write_report(report: Report, out: Path) -> dict[str, Path]:
    """Write report.md, report.html (self-contained), report.json and the PNG figures into ``out``.

    Each benchmark leads with its leaderboard (the headline metric with a 95 % interval, samples, the
    published number where one exists, setting, data and its hash), its figures next to it, then what its
    numbers mean, the figures kept as evidence and the detailed tables folded away; the runs with their task
    arguments come last.
    """
    out.mkdir(parents=True, exist_ok=True)
    page = _Page(out)
    models = sorted({r.model for r in report.runs})
    page.note(f"{len(report.runs)} runs, {len(models)} models: {', '.join(models)}.")
    page.note(reading(report))
    for entry in registry.specs():
        rows = leaderboard_rows(report, entry.name)
        data = report.benchmarks.get(entry.name)
        if not rows and not data:
            continue
        page.heading("## Leaderboard:", entry.title)
        if rows:
            page.table(None, rows, LEADERBOARD_COLUMNS)
            repeated = sum(int(r.get("repeats") or 0) for r in rows)
            if repeated:
                page.note(
                    f"warning: {repeated} samples were scored by more than one run of the same model and setting; "
                    "each counts once (its latest score), and the intervals are over distinct samples."
                )
        if entry.shortcuts:
            panel = panel_rows(report, entry.name)
            if panel:
                page.table(
                    f"{entry.title}: what a model scores without the skill (the shortcut panel)", panel, PANEL_COLUMNS
                )
            else:
                page.note(
                    f"{entry.title}: no shortcut panel in these logs; `mechbench validate {entry.name} --shortcuts "
                    "--log-dir LOGDIR` runs it (" + ", ".join(f"mechbench/{n}" for n in entry.shortcuts) + ")."
                )
        pairs = pair_rows(report, entry.name)
        if pairs:
            scope = [s for s in report.comparison_scope if s["benchmark"] == entry.name]
            every = all(s["all_pairs"] for s in scope)
            which = "every two rows" if every else "pairs of rows"
            title = f"{entry.title}: {which} on the same samples (paired, Holm-corrected)"
            listed = pairs[:MAX_LISTED_PAIRS]
            matrix = pair_matrix(report, entry.name)
            page.table(title, listed, PAIR_COLUMNS, html_extra=matrix)
            if len(pairs) > len(listed):
                where = "report.json (and in the HTML matrix)" if matrix else "report.json"
                page.note(f"{len(pairs) - len(listed)} more pairs in {where}.")
            for group in scope:
                if not group["all_pairs"]:
                    page.note(
                        f"{group['metric']} on data {group['data_sha256']}: {group['rows']} rows, "
                        f"{group['compared']:,} of their {group['pairs']:,} pairs compared: {group['rule']}."
                    )
        calibrated = [
            {
                **r,
                "accuracy": f"{r['value']:.3f}",
                "ability": f"{r['theta']:+.2f} ({r['low']:+.2f} to {r['high']:+.2f})",
            }
            for r in report.calibrated_abilities
            if r["benchmark"] == entry.name
        ]
        if calibrated:
            page.table(
                f"{entry.title}: ability on the calibrated set (2PL, the calibration's scale: its models' θ ~ N(0, 1))",
                calibrated,
                CALIBRATED_COLUMNS,
            )
        compared = [_difference_row(r) for r in report.settings_compared if r["benchmark"] == entry.name]
        if compared:
            page.table("With tools against without (same model, same data)", compared, COMPARED_COLUMNS)
        data = data or {}
        page.figure(
            f"{entry.name}_read.png",
            f"{entry.title}: answers read, per model and setting (counts)",
            reading_figure(rows, entry.title),
        )
        for name, caption, png in entry.report.figures(data):
            page.figure(name, caption, png)
        if entry.report.glossary:
            page.glossary(entry.title, entry.report.glossary)
        folded = [picture for picture in entry.report.folded(data) if picture[2] is not None]
        if folded:
            page.fold(f"{entry.title}: {entry.report.folded_title}")
            for name, caption, png in folded:
                page.figure(name, caption, png)
            page.unfold()
        tables = entry.report.tables(data)
        if tables:
            page.fold(f"{entry.title}: detailed tables")
            for title, table_rows, columns in tables:
                page.table(title, table_rows, columns)
            page.unfold()
    runs = [{**r.model_dump(), "args": _args(r.task_args)} for r in report.runs]
    page.fold("Runs: models, data, task arguments, logs")
    page.table("Runs", runs, RUN_COLUMNS)
    page.unfold()
    if report.skipped_logs:
        page.md += ["## Logs left out", "", *[f"- {_cell(s)}" for s in report.skipped_logs], ""]
        items = "".join(f"<li>{html.escape(s)}</li>" for s in report.skipped_logs)
        page.html.append(f"<details><summary>Logs left out</summary><ul>{items}</ul></details>")
    paths = {"md": out / "report.md", "html": out / "report.html", "json": out / "report.json"}
    paths["md"].write_text("\n".join(page.md))
    paths["html"].write_text(page.document())
    paths["json"].write_text(report.model_dump_json(indent=1))
    return paths
