"""Time to generate a whole SPhyR release (``mechbench generate sphyr --like v2|v2-20``, 16 subjects × N items).

    python benchmarks/sphyr_release.py --against DIR_V2 DIR_V2_20   # local copies of the official files

In one run on this machine: each set with 1 and 2 worker processes, and with 2 beside a CPU-bound process; the peer
is the same command on one worker (the speed-up is the ratio). Every run of a set must write the same bytes (its
``release.json`` digest), whatever the workers or the load beside it. Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_io import publish


def _generate(like: str, workers: int, against: str, hog: bool) -> tuple[float, str]:
    beside = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if hog else None
    try:
        with tempfile.TemporaryDirectory() as out:
            command = [sys.executable, "-m", "mechbench", "generate", "sphyr", "--like", like, "--release", "2026-12",
                       "--against", against, "--workers", str(workers), "-o", out]  # fmt: skip
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            seconds = time.perf_counter() - start
            digest = json.loads((Path(out) / "release.json").read_text())["sha256"]
    finally:
        if beside:
            beside.kill()
    return seconds, digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", nargs=2, default=["official", "official"], metavar=("V2", "V2_20"))
    args = parser.parse_args()
    rows = []
    for like, against in zip(("v2", "v2-20"), args.against, strict=True):
        digests = set()
        for label, workers, hog in (("1 worker", 1, False), ("2 workers", 2, False), ("2 workers, CPU hog", 2, True)):
            seconds, digest = _generate(like, workers, against, hog)
            digests.add(digest)
            rows.append({"set": like, "case": label, "items": 100, "seconds": seconds, "sha256": digest})
        if len(digests) != 1:
            raise SystemExit(f"{like}: the runs wrote different bytes: {sorted(digests)}")
    single = {r["set"]: r["seconds"] for r in rows if r["case"] == "1 worker"}
    lines = ["SPhyR release generation, 16 subjects × 100 items (same bytes in every run)", ""]
    lines += ["| set | case | seconds | speed-up over 1 worker |", "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['set']} | {r['case']} | {r['seconds']:.1f} | {single[r['set']] / r['seconds']:.2f}× |")
    publish("sphyr_release", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
