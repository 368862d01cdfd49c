"""Benchmark: ``experiment significance --test randomization`` over the 17 Robust 2003 runs, beside a numpy kernel.

Issue 33's target: the paired randomization test with 10,000 permutations
over the 17 runs x 100 topics (136 pairs) in under 30 s.  Three figures,
each the median of ``--repeat`` fresh processes under ``/usr/bin/time -v``
(CPU = user + system, peak RSS):

* **command**: ``workbench experiment significance QRELS RUNS --measures AP
  --test randomization --permutations 10000 --json`` end to end (start-up,
  reading the 17 gzip runs, scoring AP exactly, the test);
* **test only**: the same test on AP's score matrix, scored before the clock
  starts (:func:`test_only`, CPU of the call alone, in a fresh process);
* **kernel**: ``benchmarks/significance_kernel.py`` on the same matrix (saved
  as ``.npy``): the same sign vectors, one matrix product, floats only.

The kernel's p-values must equal the workbench's (AP's rows are all Monte
Carlo; the workbench resolves near-ties exactly, which here changes none):
a mismatch stops the benchmark with nothing written.

Run:  python benchmarks/significance.py [--repeat 3]   (needs $WORKBENCH_DATA/robust03)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from classify_kernel import median_of, timed
from harness import in_fresh_process

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
KERNEL = Path(__file__).resolve().parent / "significance_kernel.py"
TARGET = 30.0


def data() -> Path:
    folder = Path(os.environ.get("WORKBENCH_DATA", ROOT.parent / "shared" / "data")) / "robust03"
    if not (folder / "qrels.txt").is_file():
        raise SystemExit(f"no Robust 2003 data at {folder}: set WORKBENCH_DATA")
    return folder


def _matrix(folder: str):
    sys.path.insert(0, str(ROOT))
    from workbench.api.experiments import study_inputs

    runs = sorted(str(p) for p in Path(folder, "runs").glob("input.*.gz"))
    (ap,) = study_inputs(Path(folder, "qrels.txt"), runs, "AP").score()
    return ap


def save_matrix(folder: str, out: str) -> dict:
    """AP's float matrix of the Robust runs into ``out`` (``.npy``)."""
    import numpy as np

    ap = _matrix(folder)
    np.save(out, np.asarray(ap.floats))
    return {"shape": list(ap.floats.shape), "systems": list(ap.systems)}


def test_only(folder: str, permutations: int, seed: int) -> dict:
    """CPU seconds of :func:`pairwise_significance` alone on AP's matrix, and its p-values."""
    from workbench.experiments.pairwise import pairwise_significance

    ap = _matrix(folder)
    t0 = time.process_time()
    result = pairwise_significance([ap], test="randomization", permutations=permutations, seed=seed)
    cpu = time.process_time() - t0
    return {"cpu": cpu, "p": [r.p_value for r in result.rows], "methods": sorted({r.method for r in result.rows})}


def command(folder: Path, permutations: int, seed: int) -> list[str]:
    runs = sorted(str(p) for p in (folder / "runs").glob("input.*.gz"))
    return [sys.executable, "-m", "workbench.cli.main", "experiment", "significance", str(folder / "qrels.txt"),
            *runs, "--measures", "AP", "--test", "randomization", "--permutations", str(permutations),
            "--seed", str(seed), "--json"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--permutations", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    folder = data()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        npy = str(Path(tmp) / "ap.npy")
        info = in_fresh_process("significance", "save_matrix", folder=str(folder), out=npy)
        c_runs, k_runs, t_runs = [], [], []
        for _ in range(args.repeat):
            c_runs.append(timed(command(folder, args.permutations, args.seed)))
            k_runs.append(timed([sys.executable, str(KERNEL), npy, "--permutations", str(args.permutations),
                                 "--seed", str(args.seed)]))
            t_runs.append(in_fresh_process("significance", "test_only", folder=str(folder),
                                           permutations=args.permutations, seed=args.seed))
    kernel_p = json.loads(k_runs[-1]["stdout"])["p"]
    command_p = [r["p_value"] for r in json.loads(c_runs[-1]["stdout"])["rows"]]
    for name, ps in (("command", command_p), ("test only", t_runs[-1]["p"])):
        if ps != kernel_p:
            bad = next(k for k, (x, y) in enumerate(zip(ps, kernel_p)) if x != y)
            raise SystemExit(f"MISMATCH: pair {bad}: {name} p = {ps[bad]}, kernel p = {kernel_p[bad]}")
    import statistics

    doc = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit, "repeat": args.repeat,
           "permutations": args.permutations, "seed": args.seed, "matrix": info,
           "load_before": load_before, "load_after": os.getloadavg(),
           "command": median_of(c_runs), "kernel": median_of(k_runs),
           "test_only_cpu": statistics.median(r["cpu"] for r in t_runs),
           "kernel_test_cpu": statistics.median(json.loads(r["stdout"])["cpu"] for r in k_runs),
           "methods": t_runs[-1]["methods"]}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "significance.json").write_text(json.dumps(doc, indent=1) + "\n")
    render(doc)
    print(json.dumps({k: doc[k] for k in ("command", "kernel", "test_only_cpu", "kernel_test_cpu")}))


def render(doc: dict) -> None:
    c, k, t, kt = doc["command"], doc["kernel"], doc["test_only_cpu"], doc["kernel_test_cpu"]
    met = "met" if c["cpu"] <= TARGET and c["wall"] <= TARGET else "MISSED"
    lines = [
        "# experiment significance --test randomization on the Robust 2003 runs, beside a numpy kernel (issue 33)",
        "",
        f"`python benchmarks/significance.py --repeat {doc['repeat']}` at commit {doc['commit']}, {doc['when']}; "
        f"medians of {doc['repeat']} fresh processes under `/usr/bin/time -v` (CPU = user + system, interpreter "
        f"start-up included). AP's {doc['matrix']['shape'][0]} topics x {doc['matrix']['shape'][1]} runs, "
        f"136 pairs, {doc['permutations']:,} sign vectors (seed {doc['seed']}); methods of the rows: "
        f"{', '.join(doc['methods'])}. Load average before {doc['load_before'][0]:.2f}, after "
        f"{doc['load_after'][0]:.2f} (2 cores shared with other jobs).",
        "",
        "| what | wall s | CPU s | peak MiB |",
        "|---|---:|---:|---:|",
        f"| command (read 17 runs, score AP exactly, test) | {c['wall']:.2f} | {c['cpu']:.2f} | {c['rss_mib']:.0f} |",
        f"| the test alone (`pairwise_significance`, CPU of the call) | - | {t:.2f} | - |",
        f"| numpy kernel (load the matrix, same sign vectors, one product) | {k['wall']:.2f} | {k['cpu']:.2f} | "
        f"{k['rss_mib']:.0f} |",
        f"| the kernel's test alone (CPU of `randomization()`) | - | {kt:.3f} | - |",
        "",
        f"Target (under {TARGET:.0f} s): {met}. The test alone, workbench over kernel: {t / kt:.1f}x (the "
        "workbench also counts the + and - topics exactly, orders the means exactly and checks near-ties exactly); "
        f"the whole command over the kernel's whole process: {c['cpu'] / k['cpu']:.1f}x, most of it reading and "
        "scoring the runs. The p-values of the command, of the test alone and of the kernel are equal, pair by pair.",
        "",
    ]
    (RESULTS / "significance.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
