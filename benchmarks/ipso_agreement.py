"""Benchmark: IPSO sign test vs metric tests over all pairs of the 17 Robust 2003 runs at depth 10.

Each repetition runs in a fresh subprocess; we report median wall times of
``workbench.ipso.trec_runs.agreement`` (read the qrels and the 17 gzip runs once,
judge the top-10 SERPs, evaluate RR/P@10/AP@10/nDCG@10 and RBP(0.5)/RBP(0.8)
with ir_measures (pytrec_eval, cwl_eval), once per run; then 136 unordered pairs x (IPSO counts + sign
test + 6 metrics x 3 tests)), split into the run-preparation and pair phases,
plus drawing the figure.  For scale, the naive approach (``compare_runs`` per
pair, which re-reads and re-evaluates both runs) is timed on 4 pairs and
extrapolated to 136.

Data: ``$WORKBENCH_DATA/robust03`` (NIST's TREC 2003 Robust track: ``qrels.txt`` and ``runs/input.*.gz``).

Run:  python benchmarks/ipso_agreement.py [--repeat 3] [--out benchmarks/results/ipso_agreement.md]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout whether or not workbench is installed

DEPTH = 10


def child() -> dict:
    import resource

    from workbench.ipso import agreement as ag
    from workbench.ipso import trec_runs as ir

    robust = ir.data_dir() / "robust03"
    runs = sorted((robust / "runs").glob("input.*.gz"))
    qrels = robust / "qrels.txt"
    marks = {}

    def progress(stage, done, total):
        if stage == "runs" and done == total:
            marks["prepared"] = time.perf_counter()

    start = time.perf_counter()
    res = ag.agreement(runs, qrels, DEPTH, progress=progress)
    end = time.perf_counter()
    fig = Path(tempfile.mkdtemp()) / "agreement.pdf"
    ag.agreement_figure(res, fig)
    drawn = time.perf_counter()
    t0 = time.perf_counter()
    for a, b in [(0, 1), (2, 3), (4, 5), (6, 7)]:
        ir.compare_runs(runs[a], runs[b], qrels, DEPTH)
    naive = (time.perf_counter() - t0) / 4 * len(res.pairs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    summary = {f"{m}|{t}": c for (m, t), c in res.summary().items()}
    best = min(res.pairs, key=lambda p: p.ipso.p)
    return {
        "wall": end - start, "prepare": marks["prepared"] - start, "pairs": end - marks["prepared"],
        "figure": drawn - end, "naive": naive, "peak_mib": peak, "runs": len(runs), "n_pairs": len(res.pairs),
        "ipso_sig": sum(p.ipso.significant for p in res.pairs), "summary": summary,
        "unjudged": res.unjudged,
        "example": {"a": best.a, "b": best.b, **best.counts, "p": best.ipso.p, "favours": best.ipso.favours},
        "markdown": res.markdown(),
    }


def spawn() -> dict:
    code = (
        "import json, sys; sys.path.insert(0, %r); sys.path.insert(0, %r); import ipso_agreement as b; "
        "print(json.dumps(b.child()))" % (str(ROOT), str(ROOT / "benchmarks"))
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "ipso_agreement.md")
    args = ap.parse_args()
    rs = []
    for i in range(args.repeat):
        t = time.perf_counter()
        rs.append(spawn())
        print(f"run {i + 1}: agreement {rs[-1]['wall']:.2f} s (process {time.perf_counter() - t:.2f} s)", flush=True)
    med = {k: statistics.median(r[k] for r in rs) for k in ("wall", "prepare", "pairs", "figure", "naive", "peak_mib")}
    r0 = rs[0]
    ex = r0["example"]
    lines = [
        f"# Benchmark: IPSO agreement, {r0['runs']} Robust 2003 runs, {r0['n_pairs']} pairs, depth {DEPTH}",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores. Median of {args.repeat} runs, each in a fresh process.",
        "",
        "| phase | median s |",
        "|---|---|",
        f"| read + judge + evaluate 17 runs once (ir_measures: pytrec_eval, cwl_eval for RBP) | {med['prepare']:.2f} |",
        f"| {r0['n_pairs']} pairs: IPSO counts, sign test, 6 metrics x 3 tests | {med['pairs']:.2f} |",
        f"| **agreement() total** | **{med['wall']:.2f}** |",
        f"| figure (PNG + PDF) | {med['figure']:.2f} |",
        f"| naive: compare_runs per pair (re-reads both runs), extrapolated from 4 pairs | {med['naive']:.1f} |",
        "",
        f"Peak resident memory: {med['peak_mib']:.0f} MiB.",
        "",
        f"Most significant IPSO pair: {ex['a']} vs {ex['b']}: |ni| = {ex['ni']}, |ns| = {ex['ns']}, "
        f"|equal| = {ex['equal']}, |nonsep| = {ex['nonsep']}, sign test p = {ex['p']:.3g} (favours {ex['favours']}).",
        "",
        "Unjudged documents in the top 10 per run (counted as not relevant): "
        + ", ".join(f"{k} {v}" for k, v in r0["unjudged"].items()) + ".",
        "",
        "Result (identical in every repetition: "
        + str(all(r["summary"] == r0["summary"] for r in rs)) + "):",
        "",
    ]
    lines += r0["markdown"].splitlines()[2:]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
