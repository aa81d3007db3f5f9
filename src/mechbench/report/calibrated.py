"""Abilities on a calibrated fixed set: where ``mechbench calibrate items`` has fitted a set's items (each item's
difficulty and discrimination, stored as ``calibration-<benchmark>.json`` beside the logs), every leaderboard row on
that set also gets its ability on the calibration's scale, with a 95 % interval, beside its accuracy.

The ability is the expected a posteriori θ of the row's answers (each sample's mean over epochs, a share counting as
that share of a right answer) under the fitted 2PL model, with the calibration's population N(0, 1) as prior; the
items a calibration does not hold are left out (and counted)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mechbench.core.intervals import Observation
from mechbench.core.irt import PRIOR_THETA, ability
from mechbench.core.limits import MAX_CALIBRATION_BYTES

CALIBRATION_GLOB = "calibration-*.json"


def find_calibrations(log_dir: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The calibrations stored in ``log_dir`` (not below it), and why any file there could not be used."""
    found, refused = [], []
    for path in sorted(Path(log_dir).glob(CALIBRATION_GLOB)):
        try:
            if path.stat().st_size > MAX_CALIBRATION_BYTES:
                raise ValueError(f"larger than {MAX_CALIBRATION_BYTES:,} bytes")
            record = json.loads(path.read_text(encoding="utf-8"))
            items = {str(k): (float(v["a"]), float(v["b"])) for k, v in record["items"].items()}
            found.append({"path": path.name, "benchmark": str(record["benchmark"]), "data": str(record["data"]),
                          "items": items})  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            refused.append(f"{path.name}: not a calibration of mechbench calibrate items ({error})")
    return found, refused


def calibrated_abilities(
    board: list[dict[str, Any]],
    observations: Callable[[dict[str, Any]], list[Observation]],
    calibrations: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """One row per leaderboard row on a calibrated set: its accuracy, its ability and interval, the items used."""
    out = []
    for calibration in calibrations:
        for row in board:
            same_set = calibration["data"] in (row.get("data_sha256"), row.get("data"))
            if row.get("reference") or row["benchmark"] != calibration["benchmark"] or not same_set:
                continue
            values: dict[str, list[float]] = defaultdict(list)
            for o in observations(row):  # an observation's sample is (benchmark, sample id)
                sample = o.sample[-1] if isinstance(o.sample, tuple) else o.sample
                values[str(sample)].append(min(max(o.value, 0.0), 1.0))
            used = [item for item in values if item in calibration["items"]]
            if not used:
                continue
            found = ability(
                [sum(values[i]) / len(values[i]) for i in used],
                [calibration["items"][i][0] for i in used],
                [calibration["items"][i][1] for i in used],
                prior=PRIOR_THETA,
            )
            out.append({"benchmark": row["benchmark"], "model": row["model"], "setting": row["setting"],
                        "metric": row["metric"], "value": row["value"], "theta": found.theta, "se": found.se,
                        "low": found.low, "high": found.high, "items": len(used),
                        "not_calibrated": len(values) - len(used), "calibration": calibration["path"]})  # fmt: skip
    return out
