"""``mechbench calibrate items LOGDIR…``: item response theory on several models' runs of one set: each item's
difficulty and discrimination, each model's ability, the items that do not discriminate and those that discriminate
the wrong way (the sign of a wrong key or an unreadable item), stored beside the set."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer

from mechbench.harness.commands import fail, log_folder, output_file

MIN_RESPONDERS = 3
"""Runs a calibration needs at the least (it recommends far more: docs/statistics.md)."""


def register(groups: Any) -> None:
    """Add ``calibrate items`` to the command line."""
    groups.calibrate.command("items")(calibrate_items)


def _responses(folders: list[Path]) -> tuple[str, str, list[str], list[str], list[list[float]]]:
    """(benchmark, data, responders, items, responses) of every finished run in ``folders``: one row per model and
    setting, one column per sample (its epochs' mean), NaN where a run did not ask it."""
    from mechbench.report.build import digests_in

    rows: dict[str, dict[str, list[float]]] = {}
    sets: set[tuple[str, str]] = set()
    for folder in folders:
        for digest in digests_in(folder, tables=False):
            if digest.run is None or not digest.known:
                continue
            run = digest.run
            sets.add((run.benchmark, run.data_sha256 or run.data))
            who = f"{run.model}" + (f" [{digest.setting}]" if digest.setting else "")
            answers = rows.setdefault(who, {})
            for _, (_, sample, _), part in digest.headlines:
                if part is not None and math.isfinite(part.value):
                    answers.setdefault(str(sample), []).append(min(max(part.value, 0.0), 1.0))
    if len(sets) != 1:
        found = "no finished run of a mechbench benchmark" if not sets else f"runs of {len(sets)} sets"
        fail(f"calibrate items takes the runs of one set by several models; found {found} under the folders given")
    ((benchmark, data),) = sets
    items = sorted({item for answers in rows.values() for item in answers})
    responders = sorted(rows)
    matrix = [[sum(v) / len(v) if (v := rows[r].get(i)) else math.nan for i in items] for r in responders]
    return benchmark, data, responders, items, matrix


def calibrate_items(
    log_dirs: Annotated[list[Path], typer.Argument(help="Folders of Inspect logs: several models' runs of one set.")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Where to write the calibration (JSON).")
    ] = None,
    show: Annotated[int, typer.Option(help="Items to list in each group.")] = 20,
) -> None:
    """Fit a two-parameter IRT model (difficulty, discrimination) on several models' runs of one set; print the items
    that barely discriminate and those that discriminate the wrong way, and write the calibration."""
    import numpy as np

    from mechbench.core.irt import WEAK, fit_2pl, flagged

    folders = [log_folder(folder, "calibrate items") for folder in log_dirs]
    benchmark, data, responders, items, matrix = _responses(folders)
    if len(responders) < MIN_RESPONDERS:
        fail(f"calibrate items needs the runs of at least {MIN_RESPONDERS} models or settings; found {len(responders)}")
    target = output or folders[0] / f"calibration-{benchmark}.json"
    output_file(target, "-o")
    fitted = fit_2pl(np.array(matrix), items=items, responders=responders)
    flat, negative = flagged(fitted)
    typer.echo(f"{benchmark} on {data}: {len(items)} items, {len(responders)} models or settings (2PL, marginal MAP)")
    for who, theta in sorted(zip(responders, fitted.theta, strict=True), key=lambda pair: -pair[1]):
        typer.echo(f"  ability {theta:+.2f}  {who}")
    a_of = dict(zip(items, fitted.a, strict=True))
    typer.echo(f"discriminating the wrong way (a < 0: a wrong key or an unreadable item?): {len(negative)}")
    for item in sorted(negative, key=a_of.__getitem__)[:show]:
        typer.echo(f"  {item}  a = {a_of[item]:+.2f}")
    typer.echo(f"barely discriminating (0 <= a < {WEAK}): {len(flat)}")
    for item in sorted(flat, key=a_of.__getitem__)[:show]:
        typer.echo(f"  {item}  a = {a_of[item]:+.2f}")
    record = {"benchmark": benchmark, "data": data, **fitted.to_json(), "negative": negative, "flat": flat}
    target.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    typer.echo(f"wrote {target}")
