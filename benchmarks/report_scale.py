"""Time of ``mechbench report``, ``mechbench plan --from`` and ``mechbench eval … --dry-run`` over a folder of many
models' runs (issue 63: they grew with the square of the number of rows).

    python benchmarks/report_scale.py [--models 1000] [--plan-models 300] [--keep DIR]

One real run of the built-in random model on SeeSim's bundled text set (46 questions in 12 simulations) is cloned
into ``--models`` runs of as many models, each right on a question with its own rate (seeded), and written as Inspect
logs. Then, each in a fresh process: the report of them all (seconds, peak memory, the size of report.json), and
``plan --from`` beside ``--plan-models`` of them and ``--dry-run`` beside all; and the report again in this process,
reading the logs and the rest timed apart. Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_io import publish

TASK = ["seesim", "-T", "data=bundled", "-T", "modality=text"]


def base_log(folder: Path):
    """One run of mechbench/random on the bundled SeeSim text set."""
    from inspect_ai import eval as inspect_eval

    from mechbench.harness.quiet import QUIET_EVAL
    from mechbench.tasks import seesim

    (log,) = inspect_eval(seesim(data="bundled", modality="text"), model="mechbench/random",
                          log_dir=str(folder / "base"), **QUIET_EVAL)  # fmt: skip
    return log


def clone(log, model: str, rate: float, rng: random.Random):
    """``log`` as if ``model`` had answered right at ``rate`` (each sample's score drawn anew; its events dropped)."""
    samples = []
    for sample in log.samples or []:
        scores = {
            name: score.model_copy(update={"value": float(rng.random() < rate)})
            for name, score in (sample.scores or {}).items()
        }
        samples.append(sample.model_copy(update={"scores": scores, "events": []}))
    return log.model_copy(update={"eval": log.eval.model_copy(update={"model": model}), "samples": samples})


def write_logs(folder: Path, count: int, base) -> None:
    """``count`` models' runs, one log each, in ``folder``."""
    from inspect_ai.log import write_eval_log

    rng = random.Random(63)
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        log = clone(base, f"scale/model-{k:04d}", 0.3 + 0.4 * k / max(count - 1, 1), rng)
        # Named as Inspect names its logs, so that listing the folder reads no log's header.
        write_eval_log(log, str(folder / f"2026-01-01T00-00-00-00-00_seesim_model{k:04d}.eval"))


PEAK = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
    "sys.stderr.write(done.stderr[-2000:] if done.returncode else ''); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(done.returncode)"
)
"""Runs a command and prints its peak resident memory (KB): each command's own, not the largest of all so far."""


def timed(command: list[str], timeout: float) -> dict[str, float | int | None]:
    """Seconds, peak resident memory (MB) and exit code of ``command`` in a fresh process (None past ``timeout``)."""
    start = time.perf_counter()
    # A session of its own, so that a command stopped at the timeout is stopped with the wrapper around it.
    with subprocess.Popen([sys.executable, "-c", PEAK, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, start_new_session=True) as process:  # fmt: skip
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return {"seconds": time.perf_counter() - start, "peak_mb": None, "exit": None}
    done = subprocess.CompletedProcess(command, process.returncode, out, err)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
    peak = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "0"
    return {"seconds": seconds, "peak_mb": int(peak) / 1024, "exit": done.returncode}


def split_report(folder: Path, out: Path) -> list[dict[str, float | int | None]]:
    """The same report in this process, its two parts timed apart: reading the logs into what the report keeps of
    them (Inspect's ``read_eval_log`` on every core, each log's runs, headlines and tables) and everything after
    (pools, comparisons, tables, figures, the files written)."""
    from mechbench.report import write_report
    from mechbench.report.build import build_report, digests_in

    start = time.perf_counter()
    digests = digests_in(folder)
    read = time.perf_counter() - start
    start = time.perf_counter()
    write_report(build_report(folder, digests=digests), out)
    rest = time.perf_counter() - start
    return [
        {"case": f"  of which reading the {len(digests)} logs", "seconds": read, "peak_mb": None, "exit": 0},
        {"case": "  of which the report itself (logs read)", "seconds": rest, "peak_mb": None, "exit": 0},
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=int, default=1000)
    parser.add_argument("--plan-models", type=int, default=300)
    parser.add_argument("--keep", type=Path, help="A folder to write the logs and the report into (kept).")
    parser.add_argument("--timeout", type=float, default=600.0, help="Seconds after which a command is stopped.")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="mechbench-report-scale-"))
    base = base_log(work)
    many, few = work / f"logs-{args.models}", work / f"logs-{args.plan_models}"
    if not many.is_dir():
        write_logs(many, args.models, base)
    if not few.is_dir():
        write_logs(few, args.plan_models, base)
    mechbench = [sys.executable, "-m", "mechbench"]
    rows = []
    report = timed([*mechbench, "report", str(many), "-o", str(work / "report")], args.timeout)
    size = (work / "report" / "report.json").stat().st_size if (work / "report" / "report.json").exists() else 0
    rows.append({"case": f"report of {args.models} models", **report, "report_json_mb": size / 1024**2})
    rows += split_report(many, work / "report-split")
    plan = timed([*mechbench, "plan", *TASK, "--from", str(few)], args.timeout)
    rows.append({"case": f"plan --from {args.plan_models} runs", **plan})
    dry = timed(
        [*mechbench, "eval", *TASK, "--model", "mechbench/random", "--dry-run", "--log-dir", str(many)], args.timeout
    )
    rows.append({"case": f"eval --dry-run beside {args.models} runs", **dry})
    lines = [f"report, plan and dry run over many models' runs (SeeSim bundled text, 46 questions), "
             f"{os.cpu_count()} cores", "", "| case | seconds | peak MB | report.json MB | exit |",
             "|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        json_mb = f"{r['report_json_mb']:.1f}" if "report_json_mb" in r else "—"
        peak = "—" if r["peak_mb"] is None else f"{r['peak_mb']:.0f}"
        ended = f"stopped at {args.timeout:g} s" if r["exit"] is None else r["exit"]
        lines.append(f"| {r['case']} | {r['seconds']:.1f} | {peak} | {json_mb} | {ended} |")
    publish("report_scale", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
