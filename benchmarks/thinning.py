"""Benchmark: the thinning-judgments study on Robust 2003 (``workbench experiment thinning``).

Each measurement runs the whole command with its defaults (17 runs x 100
topics; the full judgments, pools of depth 10, 20, 50, 100 and random 90, 70,
50, 30, 10 % of each topic's judgments, seed 0; 10 measures) in a fresh
process under ``/usr/bin/time -v`` into a temporary folder, and reports the CPU
time (user + system), the wall time, the peak resident memory and the SHA-256
of the four files written (the same every time).  A second, in-process run
with a progress callback gives the CPU seconds of each stage (reading, then
each set of judgments: judging and scoring every run, the paired tests, the
interval transformation).  The target (issue 34) is under 5 minutes on the
2 cores; the regenerating test (``tests/experiments/test_thinning.py``) must
stay under about 60 s of CPU.

Data: ``$WORKBENCH_DATA/robust03`` (NIST's TREC 2003 Robust track: ``qrels.txt`` and ``runs/input.*.gz``).

Run:  python benchmarks/thinning.py [--repeat 3] [--out benchmarks/results/thinning.md]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout whether or not workbench is installed

TARGET_S = 5 * 60
FILES = ("thinning.md", "thinning.json", "figures/thinning.svg", "figures/thinning.pdf")


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def measure_process() -> dict:
    """One ``workbench experiment thinning`` in a fresh process under ``/usr/bin/time -v``."""
    with tempfile.TemporaryDirectory() as d:
        start = _load()
        argv = ["/usr/bin/time", "-v", sys.executable, "-m", "workbench", "experiment", "thinning", "--reports", d]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"workbench experiment thinning failed: {done.stderr.strip().splitlines()[-1]}")
        out = done.stderr

        def field(name: str) -> str:
            return re.search(rf"{re.escape(name)}: (.+)", out).group(1).strip()

        wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
        digests = {f: hashlib.sha256((Path(d) / f).read_bytes()).hexdigest() for f in FILES}
        return {"cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
                "wall": sum(float(x) * 60 ** k for k, x in enumerate(reversed(wall))),
                "rss_mib": int(field("Maximum resident set size (kbytes)")) / 1024, "digests": digests,
                "load": (start, _load())}


def measure_stages() -> list[tuple[str, float]]:
    """CPU seconds of each stage of the study, in this process."""
    from workbench.data.trec import data_dir
    from workbench.papers.thinning_report import read_collection
    from workbench.experiments.thinning import thinning_study

    stages = []
    t = time.process_time()
    qrels, runs = read_collection(data_dir() / "robust03")
    stages.append(("reading the qrels and the 17 runs", time.process_time() - t))
    last = [time.process_time()]

    def progress(stage: str, done: int, total: int) -> None:
        now = time.process_time()
        stages.append((stage, now - last[0]))
        last[0] = now

    t = time.process_time()
    thinning_study(qrels, runs, progress=progress)
    stages.append(("the whole study after reading", time.process_time() - t))
    return stages


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "thinning.md")
    args = ap.parse_args()
    runs = [measure_process() for _ in range(args.repeat)]
    stages = measure_stages()
    cpu = statistics.median(r["cpu"] for r in runs)
    same = len({tuple(sorted(r["digests"].items())) for r in runs}) == 1
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    lines = [
        "# Benchmark: thinning the judgments of Robust 2003 (`workbench experiment thinning`)", "",
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, {os.cpu_count()} cores, shared with "
        f"other work while measured (load averages 1/5/15 min at the start and end of each run). Code at {commit} "
        "(plus the working tree). Defaults: 17 runs x 100 topics, 10 measures, the full judgments and 9 thinned "
        "sets (pools of depth 10, 20, 50, 100; random 90, 70, 50, 30, 10 %), seed 0. Each run is a fresh process "
        "under `/usr/bin/time -v` (`python benchmarks/thinning.py`).", "",
        f"**Median of {len(runs)}: {cpu:.1f} s of CPU (user + system), {statistics.median(r['wall'] for r in runs):.1f}"
        f" s wall, peak memory {statistics.median(r['rss_mib'] for r in runs):.0f} MiB** (target: under "
        f"{TARGET_S // 60} minutes: {'met' if cpu < TARGET_S else 'NOT met'}; one process, so the second core is "
        "not used).", "",
        "| run | CPU s | wall s | peak MiB | load at start | load at end |", "|---|---:|---:|---:|---|---|",
        *(f"| {k + 1} | {r['cpu']:.1f} | {r['wall']:.1f} | {r['rss_mib']:.0f} | {r['load'][0]} | {r['load'][1]} |"
          for k, r in enumerate(runs)), "",
        f"The four files written are identical in every run: {same} "
        + "(" + ", ".join(f"`{f}` {runs[0]['digests'][f][:12]}..." for f in FILES) + ").", "",
        "CPU seconds per stage (one in-process run; each set of judgments: judging and scoring the 17 runs, "
        "the paired tests, tau-b, and the interval transformation, whose topic spaces are shared between the sets):",
        "", "| stage | CPU s |", "|---|---:|", *(f"| {s} | {x:.1f} |" for s, x in stages), "",
    ]
    args.out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
