"""Speed of mechbench.frame against anaStruct, PyNite and OpenSeesPy on the same structures.

    python benchmarks/frame_solver.py [--data ../shared/data/structural_eval/raw_models] [--random 1000]

Cases: the 20 StructuralEval raw models and a batch of random stable multi-bay frames. Each solver
builds its model from scratch and solves (what a user pays for); "reactions" reads the support
reactions, "diagrams" also samples internal forces along every member (OpenSeesPy has no such
output and is timed for reactions only). Peers' reactions are checked against mechbench's exact-
restraint solution so the table never compares wrong answers. Prints a table and writes JSON.
Needs the benchmark extra: pip install -e ".[bench]" (OpenSeesPy also needs libblas3 liblapack3).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from frame_peers import PeerModel, solve_anastruct, solve_opensees, solve_pynite, to_peer_form
from mechbench.frame import FrameModel, analyze_many, diagrams_of, solve, solve_many
from mechbench.frame.loads import cos_sin_deg

REPO = Path(__file__).resolve().parent.parent
PEERS: dict[str, Callable[[PeerModel, bool], dict | None]] = {
    "anaStruct": solve_anastruct,
    "PyNite": solve_pynite,
    "OpenSeesPy": solve_opensees,
}


def random_frame(rng: random.Random) -> dict:
    """A random multi-bay, multi-storey rigid frame with hinges, fixed or pinned bases and mixed loads."""
    bays, storeys = rng.randint(1, 3), rng.randint(1, 3)
    xs = [0.0]
    for _ in range(bays):
        xs.append(xs[-1] + rng.choice([3.0, 4.0, 5.0, 6.0]))
    ys = [0.0]
    for _ in range(storeys):
        ys.append(ys[-1] + rng.choice([3.0, 3.5, 4.0]))
    points, links, supports, loads = [], [], [], []
    pid = {}
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            pid[i, j] = f"P{len(points) + 1}"
            points.append({"id": pid[i, j], "x": x, "y": y})
    fixed_bases = rng.random() < 0.6
    for i in range(len(xs)):
        kind = "fixed" if fixed_bases else "pin"
        supports.append({"id": f"S{i + 1}", "at": {"type": "point", "id": pid[i, 0]}, "kind": kind, "angleDeg": 0})
    for j in range(storeys):
        for i in range(len(xs)):
            links.append({"id": f"L{len(links) + 1}", "a": pid[i, j], "b": pid[i, j + 1]})
    for j in range(1, storeys + 1):
        for i in range(bays):
            link = {"id": f"L{len(links) + 1}", "a": pid[i, j], "b": pid[i + 1, j]}
            if fixed_bases and rng.random() < 0.25:
                link["endB"] = "hinge"  # fixed columns keep every storey stable
            links.append(link)
            lid = link["id"]
            w = rng.choice([5.0, 10.0, 15.0, 20.0])
            loads.append(
                {
                    "id": f"LD{len(loads) + 1}",
                    "kind": "distributedLoad",
                    "at": {"type": "link", "id": lid},
                    "wStart": w,
                    "wEnd": w,
                    "fromStart": 0,
                    "fromEnd": 0,
                    "angleDeg": 270,
                    "angleMode": "world",
                    "flip": 1,
                }
            )
            if rng.random() < 0.4:
                loads.append(
                    {
                        "id": f"LD{len(loads) + 1}",
                        "kind": "pointLoad",
                        "at": {"type": "link", "id": lid},
                        "value": rng.choice([10.0, 20.0, 30.0]),
                        "angleDeg": 270,
                        "angleMode": "world",
                        "flip": 1,
                        "offsetMode": "percent",
                        "offsetPercent": 50,
                        "offset": 0,
                        "refEnd": "A",
                    }
                )
        loads.append(
            {
                "id": f"LD{len(loads) + 1}",
                "kind": "pointLoad",
                "at": {"type": "point", "id": pid[0, j]},
                "value": rng.choice([5.0, 10.0, 20.0]),
                "angleDeg": 0,
                "angleMode": "world",
                "flip": 1,
            }
        )
    return {"points": points, "links": links, "supports": supports, "loads": loads}


def world_reactions(model: FrameModel, result: dict) -> dict[str, tuple[float, float, float]]:
    """mechbench's reactions summed per support point as world (Fx, Fy, Mz)."""
    support_at = {s.id: s for s in model.supports}
    out: dict[str, list[float]] = {}
    for r in result["reactions"]:
        s = support_at[r["atId"]]
        c, sn = cos_sin_deg(s.angleDeg)
        direction = {
            "ux": (1.0, 0.0, 0.0),
            "uy": (0.0, 1.0, 0.0),
            "rz": (0.0, 0.0, 1.0),
            "normal": (-sn, c, 0.0) if s.kind == "roller" else (c, sn, 0.0),
        }[r["type"]]
        acc = out.setdefault(s.at.id, [0.0, 0.0, 0.0])
        for k in range(3):
            acc[k] += r["value"] * direction[k]
    return {k: tuple(v) for k, v in out.items()}  # type: ignore[misc]


def max_difference(ours: dict, theirs: dict) -> float:
    scale = max(max(abs(v) for v in r) for r in ours.values())
    return max(abs(a - b) for node in ours for a, b in zip(ours[node], theirs[node], strict=True)) / scale


def median_time(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up (imports, caches)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_case(name: str, data: dict, repeat: int) -> dict:
    model = FrameModel.parse(data)
    row: dict = {"case": name, "links": len(model.links)}
    # Peers start from an in-memory, already checked structure; so does "mechbench" (a FrameModel).
    # "mechbench_from_json_dict" adds the schema validation of a raw dict.
    row["mechbench"] = median_time(lambda: solve(model, diagrams=False), repeat)
    row["mechbench_from_json_dict"] = median_time(lambda: solve(data, diagrams=False), repeat)
    row["mechbench_diagrams"] = median_time(lambda: solve(model, diagrams=True), repeat)
    row["mechbench_diagram_arrays"] = median_time(lambda: diagrams_of(analyze_many([model])[0]), repeat)
    peer = to_peer_form(model)
    reference = world_reactions(model, solve(model, diagrams=False, exact_supports=True))
    for peer_name, peer_solve in PEERS.items():
        if peer is None:
            continue
        try:
            answer = peer_solve(peer, False)
        except Exception as error:  # a peer that cannot express or solve the case is left out
            row[f"{peer_name}_error"] = f"{type(error).__name__}: {error}"[:200]
            continue
        if answer is None:
            continue
        row[f"{peer_name}_max_rel_diff"] = max_difference(reference, answer)
        if row[f"{peer_name}_max_rel_diff"] > 1e-5:
            row[f"{peer_name}_error"] = "reactions disagree with mechbench; not timed"
            continue
        row[peer_name] = median_time(lambda ps=peer_solve: ps(peer, False), repeat)
        if peer_name != "OpenSeesPy":
            row[f"{peer_name}_diagrams"] = median_time(lambda ps=peer_solve: ps(peer, True), max(3, repeat // 3))
    return row


def _ratio(row: dict, peer: str, suffix: str = "") -> str:
    if peer + suffix not in row:
        return "—"
    return f"{row[peer + suffix] * 1e3:7.2f} ({row[peer + suffix] / row['mechbench' + suffix]:5.1f}×)"


def print_table(rows: list[dict]) -> None:
    print(
        f"{'case':<14}{'links':>6}  {'mechbench ms':>12}  {'anaStruct ms (×)':>17}  {'PyNite ms (×)':>17}  "
        f"{'OpenSeesPy ms (×)':>18}   reactions only"
    )
    for row in rows:
        print(
            f"{row['case']:<14}{row['links']:>6}  {row['mechbench'] * 1e3:12.3f}  "
            f"{_ratio(row, 'anaStruct'):>17}  {_ratio(row, 'PyNite'):>17}  {_ratio(row, 'OpenSeesPy'):>18}"
        )
    print(
        f"\n{'case':<14}{'links':>6}  {'mechbench ms':>12}  {'as arrays ms':>12}  {'anaStruct ms (×)':>17}  "
        f"{'PyNite ms (×)':>17}   with N/V/M diagrams (ratios against the FrameCalc-format result)"
    )
    for row in rows:
        print(
            f"{row['case']:<14}{row['links']:>6}  {row['mechbench_diagrams'] * 1e3:12.3f}  "
            f"{row['mechbench_diagram_arrays'] * 1e3:12.3f}  "
            f"{_ratio(row, 'anaStruct', '_diagrams'):>17}  {_ratio(row, 'PyNite', '_diagrams'):>17}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared/data/structural_eval/raw_models")
    parser.add_argument("--random", type=int, default=1000, help="random frames in the batch case")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/frame_solver.json")
    args = parser.parse_args()

    paths = sorted(args.data.glob("*.json"))
    if not paths:
        sys.exit(f"no models in {args.data}")
    rows = [run_case(p.stem, json.loads(p.read_text()), args.repeat) for p in paths]
    print_table(rows)

    rng = random.Random(args.seed)
    frames = [FrameModel.parse(random_frame(rng)) for _ in range(args.random)]
    batch: dict = {"models": len(frames), "mean_links": statistics.mean(len(f.links) for f in frames)}
    start = time.perf_counter()
    singles = [solve(f, diagrams=False) for f in frames]
    batch["mechbench_single"] = (time.perf_counter() - start) / len(frames)
    start = time.perf_counter()
    many = solve_many(frames, diagrams=False)
    batch["mechbench_solve_many"] = (time.perf_counter() - start) / len(frames)
    assert all(not isinstance(r, Exception) for r in many), "random frames must all be stable"
    for a, b in zip(singles, many, strict=True):  # padding in the batch changes only round-off
        scale = max(abs(r["value"]) for r in a["reactions"])
        pairs = zip(a["reactions"], b["reactions"], strict=True)
        assert all(abs(x["value"] - y["value"]) <= 1e-9 * scale for x, y in pairs)
    start = time.perf_counter()
    for f in frames:
        solve(f, diagrams=True)
    batch["mechbench_diagrams"] = (time.perf_counter() - start) / len(frames)
    worst: dict[str, float] = {}
    for peer_name, peer_solve in PEERS.items():
        peers = [to_peer_form(f) for f in frames]
        start = time.perf_counter()
        answers = [peer_solve(p, False) for p in peers]
        batch[peer_name] = (time.perf_counter() - start) / len(frames)
        worst[peer_name] = max(
            max_difference(world_reactions(f, solve(f, diagrams=False, exact_supports=True)), a)
            for f, a in zip(frames, answers, strict=True)
            if a is not None
        )
    batch["max_rel_diff"] = worst
    print(f"\nbatch of {len(frames)} random frames ({batch['mean_links']:.1f} links on average), ms per model:")
    print(f"  mechbench solve      {batch['mechbench_single'] * 1e3:8.3f}")
    print(f"  mechbench solve_many {batch['mechbench_solve_many'] * 1e3:8.3f}")
    print(f"  mechbench diagrams   {batch['mechbench_diagrams'] * 1e3:8.3f}")
    for peer_name in PEERS:
        print(
            f"  {peer_name:<20} {batch[peer_name] * 1e3:8.3f}  "
            f"({batch[peer_name] / batch['mechbench_solve_many']:.1f}× "
            f"solve_many; reactions agree to {worst[peer_name]:.1e})"
        )

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "machine": {
                    "python": platform.python_version(),
                    "processor": platform.processor() or platform.machine(),
                },
                "cases": rows,
                "batch": batch,
            },
            indent=1,
        )
    )
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
