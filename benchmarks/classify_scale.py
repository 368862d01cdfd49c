"""Benchmark: streaming classify at large depths, time and peak memory, by engine (issue 17).

``workbench classify "RBP(p=4/5)" --order dominance`` on binary spaces (depths
20-30) and 2-grade spaces (depths 12-18), each run as its own command in a
fresh process tree: in one process (``--workers 1``), on a local process pool
(``--workers 2``) and on a 2-worker Dask ``LocalCluster`` (``--scheduler
local``).  Peak memory is the largest sum of resident memory over the whole
process tree (the command, its pool or cluster processes), sampled every
0.1 s with psutil; time is the wall time of the command (with ``--repeat N``,
the median of N runs of each row; every time is kept in the JSON).  Beside it,
pytrec_eval (``pytrec_eval-terrier``) times the mere scoring of the same runs
(one query per run, ``P_5`` and ``recip_rank``; only ``evaluate`` is timed)
where building its input fits in memory.

Since issue 25, RBP (a sum of per-position terms) on these full spaces is
decided by kinds of covers without scoring a run (``workbench.scale.by_cover_type``),
so a rerun measures that path, not the block stream these rows were taken
with; ``benchmarks/classify_kernel.py`` compares both paths with a minimal
kernel.

Each measured row is kept in ``benchmarks/results/classify_scale.json`` (so
the long depths can be run later, alone, with ``--only``) and the Markdown
file is rendered from all kept rows.

Run:  python benchmarks/classify_scale.py [--binary 20-26] [--graded 12-16] [--engines 1,2,dask] [--repeat 3]
      python benchmarks/classify_scale.py --binary 27-30 --graded none --engines 2   # the long ones
      python benchmarks/classify_scale.py --binary 20-24 --graded none --engines before --before ../main
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from harness import in_fresh_process  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
MEASURE, ORDER = "RBP(p=4/5)", "dominance"
#: pytrec_eval's input (one dict per run) is built only up to this many runs.
PYTREC_MAX_RUNS = 1 << 20


def _range(text: str) -> list[int]:
    if text in ("", "none"):
        return []
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def tree_rss(proc) -> int:
    """Resident bytes of a process and all its descendants."""
    import psutil

    total = 0
    try:
        procs = [proc] + proc.children(recursive=True)
    except psutil.Error:
        return 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def run_sampled(cmd: list, **popen) -> tuple[str, str, int, float, int]:
    """Run ``cmd``: ``(stdout, stderr, returncode, wall seconds, peak summed RSS of its process tree)``.

    The tree's resident memory is sampled every 0.1 s (pool and cluster
    workers included), which ``ru_maxrss`` of one process cannot see.
    """
    import psutil

    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)
    ps = psutil.Process(proc.pid)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(ps))
            time.sleep(0.1)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    t.join()
    return out, err, proc.returncode, wall, peak[0]


def run_repeated(depth: int, grades: int, engine: str, repeat: int) -> dict:
    """:func:`run_classify` ``repeat`` times: the median wall time and peak memory, every wall time kept."""
    import statistics

    rows = [run_classify(depth, grades, engine) for _ in range(repeat)]
    for r in rows[1:]:
        if [r[k] for k in ("verdict", "witness", "intrinsic", "covers")] != \
                [rows[0][k] for k in ("verdict", "witness", "intrinsic", "covers")]:
            raise SystemExit(f"classify depth {depth} grades {grades} engine {engine}: repeated runs disagree")
    out = dict(rows[-1])
    out.update(wall=statistics.median(r["wall"] for r in rows), peak_mib=statistics.median(r["peak_mib"] for r in rows),
               walls=[round(r["wall"], 2) for r in rows], load=max(r["load"] for r in rows))
    return out


def run_classify(depth: int, grades: int, engine: str) -> dict:
    """One ``workbench classify`` command; wall time and peak summed RSS of its process tree."""
    cmd = [sys.executable, "-m", "workbench.cli.main", "classify", MEASURE, "--order", ORDER,
           "--depth", str(depth), "--json", "--timeout", "36000"]
    if grades != 1:
        cmd += ["--grades", str(grades)]
    env = dict(os.environ, WORKBENCH_TIME_LIMIT="36000")
    if engine == "before":  # the materialised classify of another checkout (the code before issue 17)
        env.update(PYTHONPATH=BEFORE[0], WORKBENCH_MEMORY_LIMIT="16G")
        cmd.remove("--timeout")
        cmd.remove("36000")
    else:
        cmd += ["--workers", "1" if engine == "1" else "2"]
    if engine == "dask":
        cmd += ["--scheduler", "local"]
    # ``python -m`` imports from its working folder first: the checkout measured
    cwd = BEFORE[0] if engine == "before" else ROOT
    out, err, returncode, wall, peak = run_sampled(cmd, env=env, cwd=cwd)
    if returncode != 0:
        raise SystemExit(f"classify depth {depth} grades {grades} engine {engine} failed: {err.strip()[-500:]}")
    res = json.loads(out)
    return {"depth": depth, "grades": grades, "engine": engine, "wall": wall, "peak_mib": peak / 2**20,
            "runs": int(res["runs"]), "covers": int(res["covers"]), "verdict": res["verdict"],  # JSON strings
            "witness": res["witness"], "intrinsic": res["intrinsic"] or res.get("intrinsic_omitted"),
            "load": os.getloadavg()[0], "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def child_partial(depth: int, grades: int, blocks: int, workers: int) -> dict:
    """Classify ``blocks`` consecutive blocks from the middle of the space on ``workers`` processes.

    Memory is bounded by the block size times the workers, so the peak over a
    stretch of blocks is the peak of the whole run; the time per run
    extrapolates the whole run (blocks cost alike: every block holds runs of
    every kind in the same proportions, up to its shared prefix).
    """
    from workbench.core.executors import open_executor
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.stream import DEFAULT_BLOCK, job_for
    from workbench.space.runs import Gains
    from workbench.space.spaces import rank_space

    space = rank_space(depth, grades)
    job = job_for(parse_measure(MEASURE), get_order(ORDER), space, Gains.default(grades), distinct=False)
    start = (space.size // 2) // DEFAULT_BLOCK * DEFAULT_BLOCK
    runs = blocks * DEFAULT_BLOCK
    began = time.perf_counter()
    with open_executor(workers) as ex:
        from workbench.scale import stream

        summary = None
        for a in range(start, start + runs, DEFAULT_BLOCK * 2 * workers):
            stop = min(a + DEFAULT_BLOCK * 2 * workers, start + runs)
            futures = [ex.submit(stream.classify_block, job, b, min(b + DEFAULT_BLOCK, stop))
                       for b in range(a, stop, DEFAULT_BLOCK)] if ex else None
            parts = [f.result() for f in futures] if ex else [stream.classify_block(job, b, min(b + DEFAULT_BLOCK, stop))
                                                              for b in range(a, stop, DEFAULT_BLOCK)]
            for p in parts:
                summary = p if summary is None else summary.merge(p)
    wall = time.perf_counter() - began
    return {"runs_done": runs, "wall": wall, "covers": summary.covers, "size": space.size}


def run_partial(depth: int, grades: int, blocks: int, workers: int) -> dict:
    """:func:`child_partial` in a fresh process tree, with its summed peak memory."""
    code = ("import json, sys; sys.path.insert(0, %r); import classify_scale as b; "
            "print(json.dumps(b.child_partial(%d, %d, %d, %d)))" % (str(ROOT / "benchmarks"), depth, grades, blocks, workers))
    out, err, returncode, _, peak = run_sampled([sys.executable, "-c", code])
    if returncode != 0:
        raise SystemExit(f"partial depth {depth} failed: {err.strip()[-500:]}")
    res = json.loads(out.strip().splitlines()[-1])
    res.update(depth=depth, grades=grades, workers=workers, peak_mib=peak / 2**20,
               projected_s=res["wall"] / res["runs_done"] * res["size"], load=os.getloadavg()[0],
               when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    return res


def child_pytrec(depth: int, grades: int) -> dict:
    """pytrec_eval's time to score every run of the space (one query per run)."""
    import pytrec_eval

    from workbench.space.spaces import rank_space

    runs = rank_space(depth, grades).array()
    docs = [f"d{i}" for i in range(depth)]
    scores = {d: float(depth - i) for i, d in enumerate(docs)}
    qrels = {str(q): {d: int(g) for d, g in zip(docs, row)} for q, row in enumerate(runs.tolist())}
    run = {str(q): scores for q in range(len(runs))}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"P_5", "recip_rank"})
    start = time.perf_counter()
    evaluator.evaluate(run)
    return {"wall": time.perf_counter() - start, "runs": len(runs)}


kept_partial: list = [[]]

ENGINE_NAMES = {"1": "1 process", "2": "2 processes", "dask": "Dask LocalCluster, 2 workers",
                "before": "before: materialised, 1 process"}
#: The checkout whose classify the ``before`` engine runs (``--before PATH``).
BEFORE = [""]


def render(rows: list[dict], trec: dict) -> str:
    lines = [
        "# Benchmark: streaming classify at large depths (issue 17)",
        "",
        f'`workbench classify "{MEASURE}" --order {ORDER}`; machine: {platform.machine()}, '
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores shared with "
        "other work (the load average at the end of each run is listed). Peak memory: the largest sum of "
        "resident memory over the command's process tree (pool or cluster processes included), sampled "
        "every 0.1 s. Wall time and peak memory are medians over the runs measured (the deepest spaces ran once). pytrec_eval: time of `evaluate` alone scoring the same runs (P_5, recip_rank), "
        f"where its input fits (at most {PYTREC_MAX_RUNS:,} runs); ratio = pytrec_eval time / classify time.",
        "",
        "| grades | depth | runs | covers | engine | wall s | runs measured | peak MiB | verdict | intrinsic | pytrec_eval s | ratio | load | when |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    rank = {"before": 0, "1": 1, "2": 2, "dask": 3}
    for r in sorted(rows, key=lambda r: (r["grades"], r["depth"], rank[r["engine"]])):
        t = trec.get(f"{r['grades']}/{r['depth']}")
        tw = f"{t:.2f}" if t is not None else "-"
        ratio = f"{t / r['wall']:.2f}x" if t is not None else "-"
        intrinsic = r["intrinsic"]
        if intrinsic.startswith("not computed, needs "):
            intrinsic = f"not computed (needs {' '.join(intrinsic.split()[3:5])})"
        lines.append(
            f"| {r['grades']} | {r['depth']} | {r['runs']:,} | {r['covers']:,} | {ENGINE_NAMES[r['engine']]} | "
            f"{r['wall']:.1f} | {len(r.get('walls', [r['wall']]))} | {r['peak_mib']:.0f} | {r['verdict']} | {intrinsic} | {tw} | {ratio} | "
            f"{r['load']:.1f} | {r['when']} |")
    partial = kept_partial[0]
    if partial:
        lines += ["", "## Deeper spaces, measured on a stretch of blocks", "",
                  "A stretch of consecutive blocks from the middle of the space, classified on the process pool "
                  "(no distinct-value table): memory is bounded by the block size times the workers, so its peak "
                  "is the peak of a whole run; the whole run's time is projected from the time per run.", "",
                  "| grades | depth | runs of the space | runs classified | workers | wall s | peak MiB | projected whole run | load | when |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for r in sorted(partial, key=lambda r: (r["grades"], r["depth"], r["workers"])):
            lines.append(f"| {r['grades']} | {r['depth']} | {r['size']:,} | {r['runs_done']:,} | {r['workers']} | "
                         f"{r['wall']:.1f} | {r['peak_mib']:.0f} | {r['projected_s'] / 60:.0f} min | {r['load']:.1f} | {r['when']} |")
    lines += ["", "## Identical results", ""]
    by = {}
    for r in rows:
        if r["engine"] == "before":  # its intrinsic category is always computed
            continue
        by.setdefault((r["grades"], r["depth"]), set()).add(json.dumps([r["verdict"], r["witness"], r["intrinsic"], r["covers"]]))
    same = all(len(v) == 1 for v in by.values())
    lines.append(("Every engine gave the same verdict, witness, covers and intrinsic category at every depth "
                  "measured with more than one engine." if same else "ENGINES DISAGREE somewhere: see the rows."))
    lines.append("")
    notes = RESULTS / "classify_scale_notes.md"
    if notes.exists():
        lines.append(notes.read_text().rstrip())
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="20-26")
    ap.add_argument("--graded", default="12-16")
    ap.add_argument("--engines", default="1,2,dask")
    ap.add_argument("--pytrec", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--repeat", type=int, default=1, help="runs per row: the median time and memory are kept")
    ap.add_argument("--partial", default="", help="DEPTH:BLOCKS[,DEPTH:BLOCKS]: classify a stretch of blocks on 2 workers")
    ap.add_argument("--before", default="", help="a checkout of the code before issue 17, for engine 'before'")
    args = ap.parse_args()
    BEFORE[0] = args.before
    if "before" in args.engines.split(",") and not args.before:
        ap.error("engine 'before' needs --before PATH (a checkout of the code before issue 17)")
    store = RESULTS / "classify_scale.json"
    kept = json.loads(store.read_text()) if store.exists() else {"rows": [], "pytrec": {}}
    for grades, depths in ((1, _range(args.binary)), (2, _range(args.graded))):
        for depth in depths:
            for engine in [e for e in args.engines.split(",") if e and e != "none"]:
                row = run_repeated(depth, grades, engine, args.repeat)
                kept["rows"] = [r for r in kept["rows"] if (r["depth"], r["grades"], r["engine"]) != (depth, grades, engine)]
                kept["rows"].append(row)
                print(json.dumps(row), flush=True)
                store.write_text(json.dumps(kept, indent=1) + "\n")
            if args.pytrec and (grades + 1) ** depth <= PYTREC_MAX_RUNS and f"{grades}/{depth}" not in kept["pytrec"]:
                kept["pytrec"][f"{grades}/{depth}"] = in_fresh_process("classify_scale", "child_pytrec", depth=depth, grades=grades)["wall"]
                store.write_text(json.dumps(kept, indent=1) + "\n")
    for item in [x for x in args.partial.split(",") if x]:
        depth, blocks = (int(v) for v in item.split(":"))
        row = run_partial(depth, 1, blocks, 2)
        kept.setdefault("partial", [])
        kept["partial"] = [r for r in kept["partial"] if (r["depth"], r["grades"], r["workers"]) != (depth, 1, 2)]
        kept["partial"].append(row)
        print(json.dumps(row), flush=True)
        store.write_text(json.dumps(kept, indent=1) + "\n")
    kept_partial[0] = kept.get("partial", [])
    (RESULTS / "classify_scale.md").write_text(render(kept["rows"], kept["pytrec"]))
    print(f"wrote {RESULTS / 'classify_scale.md'}")


if __name__ == "__main__":
    main()
