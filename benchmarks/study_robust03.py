"""Benchmark: the whole Robust 2003 study (``workbench experiment study``, ``workbench.papers.study.run_study``).

Each repetition runs the study with its defaults (17 runs x 100 topics, depth
250, 5 seeded repetitions of the pool samples, B = 1000 bootstrap samples,
seed 0) in a fresh interpreter (``harness.in_fresh_process``) into a temporary
folder; we report the median wall time of ``run_study`` and of the whole
process (imports included), the median time of each stage (from the
``progress`` callback: the time from a stage's first report to the next
stage's), peak resident memory, and whether every repetition wrote the same
Markdown (SHA-256).  The target (issue 7, "done when") is under 15 minutes.

Data: ``$WORKBENCH_DATA`` (default ``<repo>/../shared/data``)/robust03.

Run:  python benchmarks/study_robust03.py [--repeat 3] [--out benchmarks/results/study_robust03.md]
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout whether or not workbench is installed
sys.path.insert(0, str(ROOT / "benchmarks"))
from harness import in_fresh_process  # noqa: E402

TARGET_S = 15 * 60


def child(repetitions: int = 5, bootstrap: int = 1000, seed: int = 0) -> dict:
    import hashlib
    import resource
    import tempfile

    from workbench.ipso.trec_runs import data_dir
    from workbench.papers.study import run_study

    starts: dict[str, float] = {}

    def progress(stage, done=0, total=1):
        starts.setdefault(stage, time.perf_counter())

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        path = run_study(data_dir() / "robust03", Path(tmp), repetitions, bootstrap, seed, progress=progress)
        wall = time.perf_counter() - t0
        text = path.read_bytes()
        figures = sorted(p.name for p in (Path(tmp) / "figures").glob("*.png"))
    order = sorted(starts, key=starts.get)
    stages = {s: (starts[order[i + 1]] if i + 1 < len(order) else t0 + wall) - starts[s] for i, s in enumerate(order)}
    return {"wall": wall, "stages": stages, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "sha256": hashlib.sha256(text).hexdigest(), "bytes": len(text), "figures": figures}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "study_robust03.md")
    args = ap.parse_args()
    rs, procs = [], []
    for i in range(args.repeat):
        t = time.perf_counter()
        rs.append(in_fresh_process("study_robust03", "child"))
        procs.append(time.perf_counter() - t)
        print(f"run {i + 1}: run_study {rs[-1]['wall']:.1f} s (process {procs[-1]:.1f} s)", flush=True)
    wall, proc = statistics.median(r["wall"] for r in rs), statistics.median(procs)
    stages = list(rs[0]["stages"])
    per_run = ", ".join(f"{r['wall']:.1f} s" for r in rs)
    lines = [
        "# Benchmark: the whole Robust 2003 study (`workbench experiment study`)",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores (shared with other work while measured). Defaults: 17 runs x 100 topics, depth 250, "
        f"5 repetitions of every pool sample, B = 1000, seed 0. Median of {args.repeat} run(s), each in a fresh process.",
        "",
        f"**run_study: {wall:.1f} s ({wall / 60:.1f} min); whole process with imports: {proc:.1f} s** "
        f"(target: under {TARGET_S // 60} min: {'met' if proc < TARGET_S else 'NOT met'}). "
        f"Per run: {per_run}. Peak memory {statistics.median(r['peak_mib'] for r in rs):.0f} MiB.",
        "",
        "| stage | median s | share |",
        "|---|---|---|",
    ]
    for s in stages:
        m = statistics.median(r["stages"].get(s, 0.0) for r in rs)
        lines.append(f"| {s} | {m:.1f} | {100 * m / wall:.0f}% |")
    same = len({r["sha256"] for r in rs}) == 1
    lines += ["", f"Markdown identical in every run (SHA-256 {rs[0]['sha256'][:16]}..., {rs[0]['bytes']:,} bytes): {same}. "
              f"Figures: {', '.join(rs[0]['figures'])}."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
