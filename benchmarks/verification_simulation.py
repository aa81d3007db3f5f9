"""Time of each case of the simulation verification table (``mechbench verify simulation``), and its rows.

    python benchmarks/verification_simulation.py

The fast cases are unit tests (``tests/simulation/test_verification.py``); the flow past a cylinder (DFG 2D-1, a
minute on one core) runs here. The peer each case is timed against is the same case's solve on one BLAS thread
beside a CPU-bound process (these machines have 2 cores). Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import subprocess
import sys
import time

from results_io import publish


def _timed(case) -> tuple[float, list]:
    start = time.perf_counter()
    rows = case.run()
    return time.perf_counter() - start, rows


def main() -> None:
    from threadpoolctl import threadpool_limits

    from mechbench.simulation.verification import CASES

    results = []
    with threadpool_limits(1):
        for case in CASES:
            alone, rows = _timed(case)
            hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            try:
                beside, _ = _timed(case)
            finally:
                hog.kill()
            for row in rows:
                results.append(
                    {
                        "case": case.name,
                        "quantity": row.quantity,
                        "computed": row.computed,
                        "reference": row.reference,
                        "error": row.error,
                        "passed": row.passed,
                    }
                )
            results.append({"case": case.name, "seconds": alone, "seconds_beside_hog": beside, "ratio": beside / alone})
    lines = [f"{'case':<14}{'quantity':<52}{'error':>9}{'within':>8}"]
    for row in results:
        if "quantity" in row:
            within = "yes" if row["passed"] else "no"
            lines.append(f"{row['case']:<14}{row['quantity'][:50]:<52}{100 * row['error']:>+8.2f}%{within:>8}")
        else:
            lines.append(
                f"{row['case']:<14}{'time alone / beside a CPU hog (s)':<52}{row['seconds']:>9.1f}"
                f"{row['seconds_beside_hog']:>8.1f}  (×{row['ratio']:.2f})"
            )
    publish("verification_simulation", "\n".join(lines), results)


if __name__ == "__main__":
    main()
