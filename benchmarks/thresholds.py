"""Benchmark: exact thresholds in RBP's / gRBP's persistence ``p`` on the rank order.

Each case runs 3 times, each in a fresh subprocess; we report the median wall
time of ``workbench.scale.thresholds.thresholds`` (enumeration, exact scoring at
``2D + 2`` values of ``p``, grouping of cover differences, interpolation,
sympy confirmation, root isolation, verdicts and a certificate per region)
and the median peak resident memory of the process.

Run:  python benchmarks/thresholds.py [--repeat 3] [--out benchmarks/results/thresholds.md]
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

CASES = [
    # (label, measure, depth, grades)
    ("binary RBP, depth 12", "RBP", 12, 1),
    ("gRBP, 2 grades, depth 8", "gRBP", 8, 2),
]


def child(measure: str, depth: int, grades: int) -> dict:
    import resource

    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.space.spaces import rank_space
    from workbench.scale.thresholds import thresholds

    start = time.perf_counter()
    t = thresholds(parse_measure(measure), "p", get_order("rank"), rank_space(depth, grades))
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "wall": wall, "peak_mib": peak, "runs": t.runs, "covers": t.covers, "groups": t.groups,
        "degree": t.degree, "critical": len(t.critical),
        "regions": [f"{r.label()} {r.verdict}" for r in t.regions],
    }


def spawn(**kw) -> dict:
    return in_fresh_process("thresholds", "child", **kw)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "thresholds.md")
    args = ap.parse_args()
    lines = [
        "# Benchmark: exact thresholds in p (rank order)",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores. Median of {args.repeat} runs, each in a fresh process.",
        "",
        "| case | runs | covers | distinct differences | degree bound | critical points | median s | peak MiB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    partitions = []
    for label, measure, depth, grades in CASES:
        rs = [spawn(measure=measure, depth=depth, grades=grades) for _ in range(args.repeat)]
        wall = statistics.median(r["wall"] for r in rs)
        peak = statistics.median(r["peak_mib"] for r in rs)
        r0 = rs[0]
        row = (f"| {label} | {r0['runs']} | {r0['covers']} | {r0['groups']} | {r0['degree']} | {r0['critical']} | "
               f"{wall:.3f} | {peak:.0f} |")
        print(row, flush=True)
        lines.append(row)
        partitions += ["", f"{label}:", ""] + [f"- {x}" for x in r0["regions"]]
    lines += ["", "Partitions of (0, 1) found (regions merged where the verdict is the same):"] + partitions
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
