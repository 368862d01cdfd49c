"""Benchmark: Twist of all 17 Robust 2003 runs x all 100 topics at depth 1000 (Ferro et al. 2016).

Each case runs 3 times, each in a fresh subprocess (``harness.in_fresh_process``);
we report median wall times of ``workbench.experiments.twist_runs.twist_table`` split into
its two phases (read + judge the 17 gzip runs, and with gain measures score
AP@1000, nDCG@1000, RBP(0.8) by ir_measures; then exact Twist of every
topic: one ``crp.curves`` call per topic with the 17 runs stacked, Fractions
for the ratios), the summaries (per-run means, Table 2, effort/gain grids),
the effort/gain figure, and reading the runs alone (``trec.read_run``, for
scale), plus peak resident memory.

Data: ``$WORKBENCH_DATA/robust03`` (NIST's TREC 2003 Robust track: ``qrels.txt`` and ``runs/input.*.gz``).

Run:  python benchmarks/twist_runs.py [--repeat 3] [--out benchmarks/results/twist_runs.md]
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

DEPTH = 1000
CASES = [
    # (label, crossing, gain measures)
    ("Twist only, literal crossing", "literal", False),
    ("Twist + AP, nDCG, RBP(0.8), literal crossing, + figure", "literal", True),
    ("Twist + AP, nDCG, RBP(0.8), strict crossing, + figure", "strict", True),
]


def child(crossing: str, gains: bool) -> dict:
    import resource
    import tempfile

    from workbench.data.trec import data_dir
    from workbench.data.trec import read_run
    from workbench.figures.twist_plots import effort_gain_figure
    from workbench.experiments.twist_runs import twist_table

    robust = data_dir() / "robust03"
    runs = sorted((robust / "runs").glob("input.*.gz"))
    marks = {}

    def progress(stage, done, total):
        if done == total:
            marks[stage] = time.perf_counter()

    start = time.perf_counter()
    tab = twist_table(robust / "qrels.txt", runs, DEPTH, crossing, gain_measures=gains, progress=progress)
    end = time.perf_counter()
    dist = tab.distribution()
    means = tab.run_means()
    grids = {m: g.to_dict() for m, g in tab.effort_gain().items()} if gains else {}
    summarised = time.perf_counter()
    figure = None
    if gains:
        effort_gain_figure(tab, Path(tempfile.mkdtemp()) / "effort_gain.png")
        figure = time.perf_counter() - summarised
    t0 = time.perf_counter()
    for p in runs:
        read_run(p)
    read_only = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    total = sum((r.twist for r in tab.rows), start=0)
    return {
        "wall": end - start, "prepare": marks["runs"] - start, "twist": end - marks["runs"],
        "summaries": summarised - end, "figure": figure, "read_only": read_only, "peak_mib": peak,
        "runs": len(tab.runs), "topics": len(tab.topics), "points": len(tab.rows), "skipped": len(tab.skipped),
        "table2": dist,
        "grids": {m: {"diagonal": g["diagonal_share"], "high_high": g["high_high_share"], "counts": g["counts"]}
                  for m, g in grids.items()},
        # the exact sum has thousands of digits: compare its (deterministic) rational hash and its float
        "twist_sum": [hash(total), float(total)],
        "best": max(((d["run"], float(d["mean_twist"])) for d in means), key=lambda x: x[1]),
        "markdown": tab.markdown() if gains else "",
    }


def spawn(**kw) -> dict:
    return in_fresh_process("twist_runs", "child", **kw)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "twist_runs.md")
    args = ap.parse_args()
    lines = [
        f"# Benchmark: Twist over 17 Robust 2003 runs x all topics, depth {DEPTH}",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores. Median of {args.repeat} runs, each in a fresh process.",
        "",
        "| case | points | read + judge (+ gain measures) s | exact Twist, 100 topics s | **twist_table total s** "
        "| summaries s | figure s | read_run alone s | peak MiB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    results = {}
    for label, crossing, gains in CASES:
        rs = []
        for i in range(args.repeat):
            t = time.perf_counter()
            rs.append(spawn(crossing=crossing, gains=gains))
            print(f"{label}, run {i + 1}: twist_table {rs[-1]['wall']:.2f} s "
                  f"(process {time.perf_counter() - t:.2f} s)", flush=True)
        med = {k: statistics.median(r[k] for r in rs) for k in ("wall", "prepare", "twist", "summaries", "read_only",
                                                                  "peak_mib")}
        fig = statistics.median(r["figure"] for r in rs) if gains else None
        same = all(r["twist_sum"] == rs[0]["twist_sum"] and r["table2"] == rs[0]["table2"] for r in rs)
        results[label] = (rs[0], same)
        lines.append(f"| {label} | {rs[0]['points']} | {med['prepare']:.2f} | {med['twist']:.2f} | **{med['wall']:.2f}** "
                     f"| {med['summaries']:.2f} | {'-' if fig is None else f'{fig:.2f}'} | {med['read_only']:.2f} "
                     f"| {med['peak_mib']:.0f} |")
    lines += ["", "Results identical in every repetition (exact sum of all Twist values, Table 2): "
              + str(all(s for _, s in results.values())) + ".", "",
              "## Table 2 distribution (Ferro et al. 2016 columns; excellent includes ups-and-downs)", "",
              "| crossing | total | ideal | worst | typical A | typical B | excellent | full-scale | (ups-and-downs) |",
              "|---|---|---|---|---|---|---|---|---|"]
    for label, crossing, gains in CASES[1:]:
        d = results[label][0]["table2"]
        lines.append(f"| {crossing} | {d['total']} | " + " | ".join(
            f"{d['percentages'][k]:.2f}% ({d['counts'][k]})" for k in
            ("ideal", "worst", "typical A", "typical B", "excellent", "full-scale")) + f" | {d['ups_and_downs']} |")
    lines += ["| Ferro et al. (2016), TREC 14 (Robust 2005), for comparison | 3,700 | 0.00% | 1.86% | 80.24% | 17.89% | 0.00% | - | |",
              "", "## Effort/gain shares", "", "| gain measure | crossing | diagonal | high-high |", "|---|---|---|---|"]
    for label, crossing, gains in CASES[1:]:
        for m, g in results[label][0]["grids"].items():
            lines.append(f"| {m} | {crossing} | {100 * g['diagonal']:.2f}% | {100 * g['high_high']:.2f}% |")
    lines += ["| AP | Ferro et al. (2016), TREC 14 | not stated | 37% |", "| RBP(0.8) | Ferro et al. (2016), TREC 14 | 38% | 37.4% |"]
    full = results[CASES[1][0]][0]
    lines += ["", f"Highest mean Twist: {full['best'][0]} ({full['best'][1]:.4f}).", "",
              "## Full output (`workbench twist-runs`, literal crossing)", ""]
    lines += full["markdown"].splitlines()[2:]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
