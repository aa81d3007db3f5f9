"""Cost of judging the worst StructuralEval replies the limits allow, against an ordinary published task.

    python benchmarks/structural_worst_case.py [--data ../shared/data/structural_eval]

Each case is one reply, judged end to end as in an evaluation (extract → schema → solve → compare → the
diagnostic ladder's controlled variants), against beam_001's ground truth; the peer row is the truth of the
largest published task (frame_010 or the largest available) judged the same way. Time is the median of 3;
memory is the peak Python allocation during one judgement (tracemalloc). Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import tracemalloc
from pathlib import Path

from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.scoring import solve_response
from mechbench.frame import FrameModel
from mechbench.frame.model import MAX_LINKS, MAX_LOADS, MAX_POINTS, MAX_SUPPORTS

REPO = Path(__file__).resolve().parent.parent


def grid_frame(rows: int = 10, cols: int = 20, loads_on_one_link: bool = False, hinged: bool = False) -> dict:
    """A rigid grid frame at the point, link and load limits, fixed along its bottom row."""
    points = [{"id": f"P{r}_{c}", "x": float(c), "y": float(r)} for r in range(rows) for c in range(cols)]
    pairs = [(f"P{r}_{c}", f"P{r}_{c + 1}") for r in range(rows) for c in range(cols - 1)]
    pairs += [(f"P{r}_{c}", f"P{r + 1}_{c}") for r in range(rows - 1) for c in range(cols)]
    pairs += [(f"P{k % (rows - 1)}_{k % (cols - 1)}", f"P{k % (rows - 1) + 1}_{k % (cols - 1) + 1}") for k in range(30)]
    pairs = pairs[:MAX_LINKS]
    end = {"endA": "hinge"} if hinged else {}
    links = [{"id": f"L{k}", "a": a, "b": b, "E": 2e8, "A": 0.01, "Iz": 1e-4, **end} for k, (a, b) in enumerate(pairs)]
    supports = [{"id": f"S{c}", "at": {"type": "point", "id": f"P0_{c}"}, "kind": "fixed", "angleDeg": 0}
                for c in range(cols)]  # fmt: skip
    loads = [
        {"id": f"D{k}", "kind": "distributedLoad", "at": {"type": "link", "id": "L5" if loads_on_one_link else f"L{k}"},
         "fromStart": (k % 97) * 0.003, "fromEnd": (k % 89) * 0.003, "wStart": 1 + k % 7, "wEnd": 2.0,
         "angleDeg": 90, "angleMode": "relative", "flip": -1}
        for k in range(MAX_LOADS)
    ]  # fmt: skip
    return {"points": points, "links": links, "supports": supports, "loads": loads}


def chain_mechanism(points: int = MAX_POINTS) -> dict:
    """A chain of hinged links across every allowed point: a mechanism, so the diagnosis runs."""
    return {
        "points": [{"id": f"P{i}", "x": float(i), "y": 0.0} for i in range(points)],
        "links": [
            {"id": f"L{i}", "a": f"P{i}", "b": f"P{i + 1}", "endA": "hinge", "endB": "hinge"} for i in range(points - 1)
        ],
        "supports": [
            {"id": f"S{i}", "at": {"type": "point", "id": f"P{i}"}, "kind": "roller", "angleDeg": 0}
            for i in range(0, points, max(1, points // MAX_SUPPORTS))
        ][:MAX_SUPPORTS],
        "loads": [
            {
                "id": "F",
                "kind": "pointLoad",
                "at": {"type": "point", "id": "P1"},
                "value": 1.0,
                "angleDeg": 90,
                "angleMode": "relative",
                "flip": -1,
            }
        ],
    }


def measure(judge, reply: str) -> tuple[float, float, str]:
    """(median seconds of 3, peak MB of one run, outcome)."""
    tracemalloc.start()
    attempt = judge(reply)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    times = []
    for _ in range(3):
        start = time.perf_counter()
        judge(reply)
        times.append(time.perf_counter() - start)
    return statistics.median(times), peak, attempt.outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "structural_eval")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/structural_worst_case.json")
    args = parser.parse_args()
    models = args.data / "raw_models"
    truth = FrameModel.parse(json.loads((models / "beam_001.json").read_text()))
    response = solve_response(truth)

    def judge(reply: str):
        return check_reply(reply, truth, response, tolerance=0.05, scoring="strict")

    largest = max(models.glob("*.json"), key=lambda p: len(json.loads(p.read_text())["links"]))
    peer_time, peer_memory, _ = measure(judge, largest.read_text())
    cases = {
        f"grid frame at the limits ({MAX_POINTS} points, {MAX_LINKS} links, {MAX_LOADS} partial loads)": grid_frame(),
        f"same, all {MAX_LOADS} partial loads on one link": grid_frame(loads_on_one_link=True),
        "same, every link hinged at one end": grid_frame(hinged=True),
        f"{MAX_POINTS}-point hinged chain (a mechanism: diagnosis runs)": chain_mechanism(),
    }
    rows = []
    print(f"peer: {largest.stem} judged as a reply: {peer_time * 1e3:.1f} ms, {peer_memory:.1f} MB peak")
    print(f"{'case':<75}{'seconds':>9}{'MB':>8}{'× peer':>9}  outcome")
    for name, model in cases.items():
        seconds, memory, outcome = measure(judge, json.dumps(model))
        rows.append({"case": name, "seconds": seconds, "peak_mb": memory, "outcome": outcome,
                     "peer_seconds": peer_time})  # fmt: skip
        print(f"{name:<75}{seconds:9.2f}{memory:8.1f}{seconds / peer_time:9.0f}  {outcome}")
    args.out.write_text(json.dumps({"peer": {"task": largest.stem, "seconds": peer_time, "peak_mb": peer_memory},
                                    "cases": rows}, indent=1))  # fmt: skip
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
