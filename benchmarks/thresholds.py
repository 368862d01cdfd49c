"""Benchmark: exact thresholds in a measure's parameter on the rank order.

Polynomial in the parameter: RBP's and gRBP's persistence ``p``.  A ratio
of polynomials: geometric precision ``GP(p) = sum_i p^(i-1) [r_i >= 1] /
sum_i p^(i-1)`` (RBP normalised by its largest value: the user's measure
file ``examples/geometric_precision.py``, its ``p`` declared there) and INST's ``T`` (C/W/L, ``T`` in ``(0, oo)``).

Each case runs 3 times, each in a fresh subprocess; we report the median wall
time of ``workbench.scale.thresholds.thresholds`` (enumeration, exact scoring at
``2D + 2`` values of the parameter, grouping of cover differences, the sympy
rational function of every group confirmed at those values, root
isolation, verdicts and a certificate per region; ``D = a + 3b`` for values
of degrees ``<= (a, b)``) and the median peak resident memory of the process.

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

#: Geometric precision, a user's measure file with a declared parameter (it is not a built-in family).
GP = str(ROOT / "examples" / "geometric_precision.py") + ":gp"

CASES = [
    # (label, measure, parameter, depth, grades)
    ("binary RBP, depth 12", "RBP", "p", 12, 1),
    ("gRBP, 2 grades, depth 8", "gRBP", "p", 8, 2),
    ("binary GP (geometric precision) in p, depth 12", GP, "p", 12, 1),
    ("binary INST in T, depth 8", "INST", "T", 8, 1),
]


def measure_of(name: str):
    from workbench.measures.names import parse_measure

    return parse_measure(name)


def child(measure: str, param: str, depth: int, grades: int) -> dict:
    import resource

    from workbench.order.orders import get_order
    from workbench.space.spaces import rank_space
    from workbench.scale.thresholds import thresholds

    m = measure_of(measure)
    start = time.perf_counter()
    t = thresholds(m, param, get_order("rank"), rank_space(depth, grades))
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "wall": wall, "peak_mib": peak, "runs": t.runs, "covers": t.covers, "groups": t.groups,
        "degree": t.degree, "critical": len(t.critical), "domain": t.domain,
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
        "# Benchmark: exact thresholds in a parameter (rank order)",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores. Median of {args.repeat} runs, each in a fresh process.",
        "",
        "| case | runs | covers | distinct differences | degree bound | critical points | median s | peak MiB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    partitions = []
    for label, measure, param, depth, grades in CASES:
        rs = [spawn(measure=measure, param=param, depth=depth, grades=grades) for _ in range(args.repeat)]
        wall = statistics.median(r["wall"] for r in rs)
        peak = statistics.median(r["peak_mib"] for r in rs)
        r0 = rs[0]
        row = (f"| {label} | {r0['runs']} | {r0['covers']} | {r0['groups']} | {r0['degree']} | {r0['critical']} | "
               f"{wall:.3f} | {peak:.0f} |")
        print(row, flush=True)
        lines.append(row)
        partitions += ["", f"{label} ({param} in {r0['domain']}):", ""] + [f"- {x}" for x in r0["regions"]]
    lines += ["", "Partitions of the parameter's domain found (regions merged where the verdict is the same):"]
    lines += partitions
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
