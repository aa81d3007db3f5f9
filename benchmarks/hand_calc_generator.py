"""Time to generate a HandCalc set of 500 items (``mechbench generate hand_calc --n 500``), the drawings included.

    python benchmarks/hand_calc_generator.py [--n 500]

In one run on this machine, as a user runs the command (a fresh process, imports included): 1 and 2 worker
processes, and 2 beside a CPU-bound process. The peer is the same command on one worker (the speed-up is the ratio),
and the items alone (no drawings) show what the drawings cost. Every run must write the same ``items.jsonl``
bytes, whatever the workers or the load beside it. Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_io import publish

SEED = 2027
ITEMS_ONLY = (
    "import sys, time\n"
    "from mechbench.benchmarks.hand_calc.generated_set import make_item\n"
    "start = time.perf_counter()\n"
    "for k in range(int(sys.argv[1])): make_item({seed}, k)\n"
    "print(time.perf_counter() - start)\n"
)


def _generate(n: int, workers: int, hog: bool) -> tuple[float, str]:
    beside = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if hog else None
    try:
        with tempfile.TemporaryDirectory() as out:
            command = [sys.executable, "-m", "mechbench", "generate", "hand_calc", "--n", str(n), "--seed", str(SEED),
                       "--workers", str(workers), "-o", out]  # fmt: skip
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            seconds = time.perf_counter() - start
            digest = hashlib.sha256((Path(out) / "items.jsonl").read_bytes()).hexdigest()[:12]
    finally:
        if beside:
            beside.kill()
    return seconds, digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    args = parser.parse_args()
    rows, digests = [], set()
    for label, workers, hog in (("1 worker", 1, False), ("2 workers", 2, False), ("2 workers, CPU hog", 2, True)):
        seconds, digest = _generate(args.n, workers, hog)
        digests.add(digest)
        rows.append({"case": label, "items": args.n, "seconds": seconds, "sha256": digest})
    if len(digests) != 1:
        raise SystemExit(f"the runs wrote different bytes: {sorted(digests)}")
    done = subprocess.run([sys.executable, "-c", ITEMS_ONLY.format(seed=SEED), str(args.n)], check=True,
                          capture_output=True, text=True)  # fmt: skip
    items_only = float(done.stdout.strip())
    single = rows[0]["seconds"]
    lines = [f"HandCalc generation, {args.n} items with their drawings (same items.jsonl in every run)", ""]
    lines += ["| case | seconds | items/s | speed-up over 1 worker |", "|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['seconds']:.1f} | {args.n / r['seconds']:.0f} | {single / r['seconds']:.2f}× |"
        )
    lines.append(f"| the items alone (no drawings, in process) | {items_only:.1f} | {args.n / items_only:.0f} | — |")
    publish("hand_calc_generator", "\n".join(lines), [*rows, {"case": "items only", "seconds": items_only}])


if __name__ == "__main__":
    main()
