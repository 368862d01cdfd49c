"""Real runs at scale beside pytrec_eval (issue 25, parts 5 and 7).

Generates two shapes with a fixed seed into a temporary folder:

* MS MARCO-shaped: 6,980 topics x 1,000 documents per run (7 million lines),
  1-4 relevant documents per topic (each retrieved with probability 1/2),
  two runs;
* deep: 5 topics x 200,000 documents per run (1 million lines), 8 relevant
  documents per topic, all retrieved at random positions, two runs;
* one topic of 1,000,000 scored documents given as a dict.

Then measures, each in its own process under ``/usr/bin/time -v`` (wall,
user + system CPU, peak RSS), medians of ``--repeat`` runs (3 by default),
the runs interleaved (round ``k`` runs every measurement once, so a change
of load on a shared machine affects pytrec_eval and the workbench alike):

* pytrec_eval: ``parse_qrel``, ``parse_run`` of the runs and
  ``RelevanceEvaluator(qrels, {map, recip_rank, ndcg, P_10}).evaluate`` of each;
* the workbench: ``score_matrices`` (the run files read by the workbench)
  for the same measures exactly (AP, RR, nDCG, P@10; the deep run also RBP and
  RBTO), and ``workbench experiment correlation`` of the two runs.

Usage::

    .venv/bin/python benchmarks/real_runs_scale.py [--repeat 3] [--out benchmarks/results/real_runs_scale.md]
        [--folder DATA] [--before CHECKOUT]

``--before`` adds the MS MARCO-shaped correlation as another checkout of
the workbench computes it (``python -m workbench`` run from that folder, e.g.
a ``git worktree`` of an earlier commit), interleaved with the others.

The machine's load average is written beside the figures: other processes
sharing the cores make wall times longer (CPU times less so).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SEED = 25
MEASURES_TREC = ("map", "recip_rank", "ndcg", "P_10")
MEASURES_WB = ("AP", "RR", "nDCG", "P@10")
MEASURES_DEEP = ("AP", "RR", "RBP(p=0.8)", "nDCG", "RBTO", "P@10")


# ---------------------------------------------------------------- data
def _write_shape(folder: Path, topics: int, docs: int, rel_lo: int, rel_hi: int, p_retrieved: float,
                 runs: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    files = [open(folder / f"run{k}", "w") for k in range(runs)]
    with open(folder / "qrels", "w") as q:
        for t in range(1, topics + 1):
            rel = rng.choice(docs * 4, size=int(rng.integers(rel_lo, rel_hi + 1)), replace=False)
            q.write("".join(f"{t} 0 D{d} 1\n" for d in rel))
            for k, fh in enumerate(files):
                ids = rng.choice(np.setdiff1d(np.arange(docs * 4), rel), size=docs, replace=False)
                keep = rel[rng.random(len(rel)) < p_retrieved]
                ids[rng.choice(docs, size=len(keep), replace=False)] = keep
                scores = np.sort(rng.random(docs))[::-1] * 100
                fh.write("".join(f"{t} Q0 D{d} {i + 1} {s:.6f} r{k}\n" for i, (d, s) in enumerate(zip(ids, scores))))
    for fh in files:
        fh.close()


def generate(folder: Path, seed: int = SEED) -> None:
    """Both shapes (and their qrels) under ``folder/msmarco`` and ``folder/deep``."""
    _write_shape(folder / "msmarco", 6980, 1000, 1, 4, 0.5, 2, seed)
    _write_shape(folder / "deep", 5, 200_000, 8, 8, 1.0, 2, seed + 1)


# ---------------------------------------------------------------- tasks (one process each)
def task_pytrec_eval(folder: str, runs: int) -> dict:
    import pytrec_eval

    with open(Path(folder) / "qrels") as f:
        qrels = pytrec_eval.parse_qrel(f)
    ev = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES_TREC))
    means = {}
    for k in range(runs):
        with open(Path(folder) / f"run{k}") as f:
            run = pytrec_eval.parse_run(f)
        res = ev.evaluate(run)
        means[f"run{k}"] = {m: float(np.mean([v[m] for v in res.values()])) for m in MEASURES_TREC}
    return means


def task_workbench(folder: str, runs: int, measures: list) -> dict:
    from workbench.data.score_matrix import score_matrices

    files = [str(Path(folder) / f"run{k}") for k in range(runs)]
    out = score_matrices(str(Path(folder) / "qrels"), files, measures)
    return {m.measure: [float(x) for x in m.means_float()] for m in out}


def task_dict_topic(n: int = 1_000_000) -> dict:
    """One topic of ``n`` scored documents given as ``{topic: {docid: score}}``, 8 relevant."""
    from workbench.data.score_matrix import score_matrices

    rng = np.random.default_rng(SEED)
    scores = rng.random(n)
    run = {"1": {f"D{i}": float(s) for i, s in enumerate(scores)}}
    qrels = {"1": {f"D{i}": 1 for i in rng.choice(n, size=8, replace=False)}}
    out = score_matrices(qrels, {"dict": run}, list(MEASURES_WB))
    return {m.measure: float(m.floats[0, 0]) for m in out}


def _task_command(name: str, folder: Path) -> list[str]:
    me = [sys.executable, str(Path(__file__).resolve()), "--task", name, "--folder", str(folder)]
    return me


def _correlation_command(folder: Path, measures: str) -> list[str]:
    return [sys.executable, "-m", "workbench", "experiment", "correlation", str(folder / "qrels"),
            str(folder / "run0"), str(folder / "run1"), "--measures", measures]


def _timed(cmd: list[str], cwd: Path = ROOT) -> dict:
    """Wall, CPU (user + system) and peak RSS of ``cmd`` (run in ``cwd``) under ``/usr/bin/time -v``."""
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, cwd=cwd)
    wall = time.perf_counter() - t
    info = {}
    for line in p.stderr.splitlines():
        key, _, val = line.strip().rpartition(": ")
        info[key] = val
    out = {"wall": wall, "cpu": float(info.get("User time (seconds)", "nan")) + float(info.get("System time (seconds)", "nan")),
           "rss_mb": int(info.get("Maximum resident set size (kbytes)", "0")) / 1024, "rc": p.returncode}
    if p.returncode:
        out["error"] = (p.stderr.strip().splitlines() or ["?"])[-1][:200]
    return out


def _commit(checkout: Path) -> str:
    p = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return p.stdout.strip() or "?"


def measure(folder: Path, repeat: int, before: Path | None = None) -> tuple[list[dict], list]:
    """Rows of medians (one per measurement) and the load averages after each round."""
    msm, deep = folder / "msmarco", folder / "deep"
    plan = [
        ("MS MARCO-shaped, 2 runs", "pytrec_eval: parse + map, recip_rank, ndcg, P_10 of both runs",
         _task_command("pytrec_msm", msm)),
        ("MS MARCO-shaped, 2 runs", "workbench score_matrices AP, RR, nDCG, P@10 (uncut, exact) of both runs",
         _task_command("wb_msm", msm)),
        ("MS MARCO-shaped, 2 runs", "workbench experiment correlation --measures AP,RR,nDCG,P@10",
         _correlation_command(msm, "AP,RR,nDCG,P@10")),
        ("deep 5 x 200,000, 1 run", "pytrec_eval: parse + map, recip_rank, ndcg, P_10",
         _task_command("pytrec_deep", deep)),
        ("deep 5 x 200,000, 1 run", "workbench score_matrices AP, RR, RBP(p=0.8), nDCG, RBTO, P@10 (exact)",
         _task_command("wb_deep", deep)),
        ("deep 5 x 200,000, 2 runs", "workbench experiment correlation --measures AP,P@10",
         _correlation_command(deep, "AP,P@10")),
        ("1 topic x 1,000,000 scored documents (dict)", "workbench score_matrices AP, RR, nDCG, P@10",
         _task_command("wb_dict", folder)),
    ]
    plan = [(shape, what, cmd, ROOT) for shape, what, cmd in plan]
    if before is not None:
        plan.insert(3, ("MS MARCO-shaped, 2 runs", f"the same correlation at commit {_commit(before)} (before this round)",
                        _correlation_command(msm, "AP,RR,nDCG,P@10"), before))
    timings: dict[str, list] = {what: [] for _, what, _, _ in plan}
    loads = []
    for k in range(repeat):
        for shape, what, cmd, cwd in plan:
            timings[what].append(_timed(cmd, cwd))
            print(json.dumps({"round": k, "what": what, **timings[what][-1]}), flush=True)
        loads.append(os.getloadavg())
    rows = []
    for shape, what, cmd, cwd in plan:
        runs = timings[what]
        ok = [r for r in runs if not r["rc"]]
        row = {"shape": shape, "what": what, "repeat": len(runs), "failed": len(runs) - len(ok),
               "error": next((r["error"] for r in runs if r["rc"]), None)}
        for key in ("wall", "cpu", "rss_mb"):
            row[key] = statistics.median(r[key] for r in ok) if ok else None
        row["cpu_rounds"] = [None if r["rc"] else r["cpu"] for r in runs]
        rows.append(row)
    return rows, loads


BEFORE = {  # issue 25 (measured before this work) and this session's own before figures
    "pytrec_eval: parse + map, recip_rank, ndcg, P_10 of both runs": "29.5 s, 2.3 GB for one run through ir_measures (issue)",
    "workbench experiment correlation --measures AP,RR,nDCG,P@10":
        "16.6 s CPU, 1,232 MiB (1.38x: commit 8808213, median of 3 beside pytrec_eval's 12.0 s; 1.46x-1.58x under "
        "load); 19.4 s CPU (1.55x: commit c2531ef); earlier 56.1 s wall, 36.8 s CPU, 1,995 MiB (load 4.9, a data "
        "set of this shape from another seed)",
    "workbench score_matrices AP, RR, nDCG, P@10 (uncut, exact) of both runs":
        "14.7 s CPU, 1,196 MiB (commit 8808213); uncut RR alone 326 s on one run (issue); AP, RR@10, nDCG@10, P@10: "
        "22 s, 1.5 GB",
    "pytrec_eval: parse + map, recip_rank, ndcg, P_10": "AP and P@10: 2.8 s, 223 MB (issue)",
    "workbench score_matrices AP, RR, RBP(p=0.8), nDCG, RBTO, P@10 (exact)":
        "AP alone 28 s, 3.9 GB; AP, P@10, nDCG: MemoryError (297 GiB object array); RR: 188.6 s scoring (this session)",
    "workbench experiment correlation --measures AP,P@10": "past 7.6 GB, killed after 3 minutes (issue)",
    "workbench score_matrices AP, RR, nDCG, P@10": "still running after 120 s (issue)",
}


NOTES = [
    "- What made the difference: deep blocks (more than 64 documents) are scored from the positions of the relevant "
    "documents only (`workbench/data/fast_scores.py`: AP over the lcm of those positions, RR from the first one, "
    "RBP over b^(last relevant - 1), DCG/nDCG on the logarithms of those positions, ERR, RBTO by divide and conquer "
    "on its digits), every value the same exact value as the generic evaluation (tests up to depth 3000); run files "
    "are read by columns in 256 K-character chunks (`workbench/data/trec.py`, the line-by-line reader kept for "
    "anything unusual and for every error message).",
    "- This round (same values, same output: the correlation's JSON with `--per-topic` byte for byte, and the exact "
    "values of AP, RR, nDCG, P@10, RBP, ERR and P on every topic of both runs as text, as at commit 8808213): "
    "(1) the reader works on a chunk's bytes: the offsets of the six fields of every line (numpy), the docid column "
    "gathered and split once (no strings for the topic, Q0, rank, score and tag columns), topic changes compared as "
    "bytes, plain decimal scores (sign, digits, one point, at most 15 characters) read in bulk as an exact integer "
    "over an exact power of ten, one correctly rounded division, so the same double as `float` bit for bit "
    "(Clinger's fast path; tested against `float` on random and edge-case decimals; exponents, longer scores and "
    "anything else go through `float` as before, `inf`/`nan` still refused), scores already in descending order not "
    "sorted again; one run: 5.7 s -> 2.8-2.9 s CPU (pytrec_eval's `parse_run` of the same file: 4.1 s); "
    "(2) `judge_runs` keeps the uncut rankings themselves instead of a copy, and the cyclic garbage collector is "
    "paused while `score_matrices` judges and scores (`workbench/data/gc_pause.py`): cyclic collections 2.4-3 s -> "
    "about 0.5 s (no full collection over the 14 million document ids while scoring).",
    "- Where the time goes now (one correlation at load 4-6, about 10.5 s CPU): reading both runs 5.8 s (the docid "
    "column's `split`, the bulk scores, the field offsets, the duplicate check about 0.5-0.7 s each per run), "
    "judging and exact scoring 1.9 s, the correlation table 0.8 s, imports about 0.5 s; cyclic collections "
    "(within these figures) about 0.5 s, after reading.",
    "- pytrec_eval is given the run files (its own `parse_run`), as the workbench is; its peak RSS holds both runs' "
    "dicts of floats.",
    "- The row 'the same correlation at commit ...' is the code before this round (a git worktree of that commit, "
    "`--before`), timed in the same rounds as the others, so the ratios before and after are taken under the same "
    "load (another engineer's work shared the 2 cores).",
]


def write_markdown(rows: list[dict], path: Path, load_before, loads, gen_seconds: float) -> None:
    lines = [
        "# Real runs at scale beside pytrec_eval (issue 25, parts 5 and 7)",
        "",
        f"`.venv/bin/python benchmarks/real_runs_scale.py --repeat {rows[0]['repeat']}`: data generated with seed {SEED} "
        + (f"in {gen_seconds:.0f} s" if gen_seconds is not None else "(by `generate`, reused from `--folder`)")
        + f"; each figure the median of {rows[0]['repeat']} runs in a fresh process under "
        "`/usr/bin/time -v` (wall, user + system CPU, peak RSS), the runs interleaved (each round runs every "
        "measurement once).",
        f"Load average before: {' / '.join(f'{x:.2f}' for x in load_before)}; after each round: "
        + "; ".join(' / '.join(f'{x:.2f}' for x in load) for load in loads)
        + f" (1 / 5 / 15 min) on {os.cpu_count()} cores: other "
        "processes shared the machine, so wall times are inflated; CPU is the steadier figure.",
        "",
        "| shape | what | wall (s) | CPU (s) | peak RSS (MiB) | before |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        f = (lambda v, d=1: "-" if v is None else f"{v:,.{d}f}")
        fail = f" ({r['failed']} of {r['repeat']} failed: {r['error']})" if r["failed"] else ""
        lines.append(f"| {r['shape']} | {r['what']}{fail} | {f(r['wall'])} | {f(r['cpu'])} | {f(r['rss_mb'], 0)} | "
                     f"{BEFORE.get(r['what'], '')} |")
    by = {r["what"]: r for r in rows}

    def ratio(a, b, key):
        x, y = by.get(a, {}).get(key), by.get(b, {}).get(key)
        return None if not x or not y else x / y

    pm, pd = "pytrec_eval: parse + map, recip_rank, ndcg, P_10 of both runs", "pytrec_eval: parse + map, recip_rank, ndcg, P_10"
    cm, wd = "workbench experiment correlation --measures AP,RR,nDCG,P@10", "workbench score_matrices AP, RR, RBP(p=0.8), nDCG, RBTO, P@10 (exact)"
    lines += ["", "## Against the targets", ""]
    for label, a, b, target, (tx, tmib) in (
            ("correlation of two MS MARCO-shaped runs / pytrec_eval scoring both", cm, pm, "1.5x, under 2 GB", (1.5, 2048)),
            ("deep run scored exactly / pytrec_eval", wd, pd, "3x, under 1 GB", (3.0, 1024))):
        rc, rw = ratio(a, b, "cpu"), ratio(a, b, "wall")
        rss = by.get(a, {}).get("rss_mb")
        met = "" if rc is None or rss is None else ("; met on CPU" if rc <= tx and rss < tmib else "; NOT met on CPU")
        rounds = [x / y for x, y in zip(by.get(a, {}).get("cpu_rounds", []), by.get(b, {}).get("cpu_rounds", []))
                  if x and y]
        each = f" (round by round {', '.join(f'{x:.2f}x' for x in rounds)})" if len(rounds) > 1 else ""
        lines.append(f"- {label}: {'-' if rc is None else f'{rc:.2f}x'} CPU{each}, "
                     f"{'-' if rw is None else f'{rw:.2f}x'} wall, "
                     f"{'-' if rss is None else f'{rss:,.0f} MiB'} (target {target}{met}).")
    for r in rows:
        if r["what"].startswith("the same correlation at commit"):
            rc = ratio(r["what"], pm, "cpu")
            rounds = [x / y for x, y in zip(r["cpu_rounds"], by.get(pm, {}).get("cpu_rounds", [])) if x and y]
            rss = "-" if r["rss_mb"] is None else f"{r['rss_mb']:,.0f} MiB"
            each = f" (round by round {', '.join(f'{x:.2f}x' for x in rounds)})" if len(rounds) > 1 else ""
            lines.append(f"- {r['what']} / pytrec_eval scoring both: {'-' if rc is None else f'{rc:.2f}x'} CPU"
                         f"{each}, {rss}.")
    lines += ["", "## Notes", "", *NOTES]
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "real_runs_scale.md"))
    ap.add_argument("--folder", help="use (or, with --task, read) this data folder instead of a temporary one")
    ap.add_argument("--before", help="also time the correlation as the workbench checkout in this folder computes it")
    ap.add_argument("--task", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.task:
        f = args.folder
        result = {"pytrec_msm": lambda: task_pytrec_eval(f, 2), "wb_msm": lambda: task_workbench(f, 2, list(MEASURES_WB)),
                  "pytrec_deep": lambda: task_pytrec_eval(f, 1), "wb_deep": lambda: task_workbench(f, 1, list(MEASURES_DEEP)),
                  "wb_dict": task_dict_topic}[args.task]()
        print(json.dumps(result))
        return
    with tempfile.TemporaryDirectory(prefix="real_runs_scale_") as tmp:
        folder = Path(args.folder or tmp)
        t, gen = time.perf_counter(), None
        if not (folder / "deep" / "run1").exists():
            generate(folder)
            gen = time.perf_counter() - t
        before = os.getloadavg()
        rows, loads = measure(folder, args.repeat, Path(args.before).resolve() if args.before else None)
        write_markdown(rows, Path(args.out), before, loads, gen)
        print(Path(args.out).read_text())


if __name__ == "__main__":
    main()
