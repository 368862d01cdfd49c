"""Benchmark: regenerating the atlas of measure scales (reports/atlas.md and reports/atlas.json).

The whole built-in atlas (27 measures x 5 orders x grades 1-3 x depths 2-8,
and the exact threshold tables of RBP's and gRBP's p and Twist's w) runs 3
times, each in a fresh subprocess (``harness.in_fresh_process``); we report
the median wall time of ``workbench.papers.atlas.build_atlas`` split into its phases
(the set-based test, the verdict cells, the threshold rows), of writing the
Markdown and JSON text, and the median peak resident memory.  No threshold
cell of the built-in atlas is capped (it would be listed).

Run:  python benchmarks/atlas.py [--repeat 3] [--out benchmarks/results/atlas.md]
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


def child_atlas() -> dict:
    import resource

    from workbench.papers.atlas import plan_atlas, run_atlas
    from workbench.papers.atlas_report import atlas_markdown, json_text

    marks = {}
    start = time.perf_counter()
    plan = plan_atlas()
    marks["set-based test"] = time.perf_counter() - start

    def progress(text: str) -> None:
        if "thresholds" in text and "cells" not in marks:
            marks["cells"] = time.perf_counter() - start - marks["set-based test"]

    atlas = run_atlas(plan, progress=progress)
    built = time.perf_counter() - start
    marks["thresholds"] = built - marks["set-based test"] - marks["cells"]
    t0 = time.perf_counter()
    md, js = atlas_markdown(atlas), json_text(atlas)
    marks["writing text"] = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"build": built, "total": built + marks["writing text"], "phases": marks, "peak_mib": peak,
            "cells": len(atlas.cells), "threshold_rows": len(atlas.thresholds),
            "capped": sum(1 for r in atlas.thresholds if r.note.startswith("capped")),
            "capped_rows": [[r.measure, r.param, r.order, r.grades, r.depth]
                            for r in atlas.thresholds if r.note.startswith("capped")],
            "md_bytes": len(md.encode()), "json_bytes": len(js.encode())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "atlas.md")
    args = ap.parse_args()
    runs = []
    for k in range(args.repeat):
        runs.append(in_fresh_process("atlas", "child_atlas"))
        print(f"run {k + 1}: {runs[-1]['total']:.1f} s", flush=True)
    med = lambda xs: statistics.median(xs)  # noqa: E731
    r0 = runs[0]
    lines = [
        "# Benchmark: regenerating the atlas of measure scales",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores (shared with other work while measured). Median of {args.repeat} runs, "
        "each in a fresh process.",
        "",
        f"The atlas: {r0['cells']} verdict cells, {r0['threshold_rows']} threshold rows ({r0['capped']} capped); "
        f"reports/atlas.md {r0['md_bytes']:,} bytes, reports/atlas.json {r0['json_bytes']:,} bytes.",
        "",
        "| phase | median s | runs (s) |",
        "|---|---|---|",
    ]
    for phase in ("set-based test", "cells", "thresholds", "writing text"):
        xs = [r["phases"][phase] for r in runs]
        lines.append(f"| {phase} | {med(xs):.1f} | {', '.join(f'{x:.1f}' for x in xs)} |")
    totals = [r["total"] for r in runs]
    lines += [f"| **total** | **{med(totals):.1f}** | {', '.join(f'{x:.1f}' for x in totals)} |", "",
              f"Peak resident memory: {med([r['peak_mib'] for r in runs]):.0f} MiB (median).", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
