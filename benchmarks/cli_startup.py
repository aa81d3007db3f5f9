"""How long the command line takes to answer before any work: ``mechbench --help`` and a usage mistake through
``mechbench eval``, with Inspect's own ``inspect eval`` on the same mistake as the peer in the same run.

    python benchmarks/cli_startup.py [--repeat 5]

Each case is a fresh process, timed ``--repeat`` times (median), alone and then beside a CPU-bound process. The test
suite starts the command line a few hundred times, so its start-up is much of the suite's time. Prints a table and
writes JSON next to it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_io import publish

MISTAKE = ["-T", "data=bundled", "-T", "version=v3", "--model", "mechbench/solid", "--display", "none"]
"""An unknown SPhyR version: refused by the task, after the command line and Inspect have loaded."""


def _cases(logs: str) -> dict[str, list[str]]:
    inspect_bin = str(Path(sys.executable).parent / "inspect")
    return {
        "mechbench --help": [sys.executable, "-m", "mechbench", "--help"],
        "mechbench eval, a usage mistake": [sys.executable, "-m", "mechbench", "eval", "sphyr", *MISTAKE,
                                            "--log-dir", logs],
        "inspect eval, the same mistake (peer)": [inspect_bin, "eval", "mechbench/sphyr", *MISTAKE, "--log-dir", logs],
    }  # fmt: skip


def _median_seconds(command: list[str], repeat: int, cwd: str) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, cwd=cwd, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        cases = _cases(str(Path(folder) / "logs"))
        for command in cases.values():  # warm: numba and byte-code caches as a second run finds them
            subprocess.run(command, capture_output=True, cwd=folder, check=False)
        for beside_hog in (False, True):
            hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if beside_hog else None
            try:
                timed = {name: _median_seconds(command, repeat, folder) for name, command in cases.items()}
            finally:
                if hog:
                    hog.kill()
            peer = timed["inspect eval, the same mistake (peer)"]
            for name, seconds in timed.items():
                rows.append({"case": name, "beside_hog": beside_hog, "seconds": seconds, "vs_inspect": seconds / peer})
    lines = [f"command-line start-up, median of {repeat} fresh processes, {os.cpu_count()} cores", ""]
    lines += ["| case | beside a CPU hog | seconds | × inspect eval |", "|---|---|---|---|"]
    for r in rows:
        hog = "yes" if r["beside_hog"] else "no"
        lines.append(f"| {r['case']} | {hog} | {r['seconds']:.2f} | {r['vs_inspect']:.2f} |")
    publish("cli_startup", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
