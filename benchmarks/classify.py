"""Benchmark: exact scale classification against pytrec_eval's scoring alone.

For each (measure, order, space) of issue 2 the classification runs 3 times,
each in a fresh subprocess; we report the median wall time of
``workbench.scale.classify.classify`` (enumeration, exact scoring, covers, checks,
intrinsic category) and the median peak resident memory of the process.
Side by side, in the same run, pytrec_eval (through which ir_measures scores
trec_eval measures) scores the same runs as a single evaluation over one
query per run; only its ``evaluate`` call is timed, not building its input.

Run:  python benchmarks/classify.py [--repeat 3] [--out benchmarks/results/classify.md]
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout whether or not workbench is installed
sys.path.insert(0, str(ROOT / "benchmarks"))
from harness import in_fresh_process  # noqa: E402

SPACES = {
    "binary, depth 20": dict(depth=20, grades=1, topic=(10,)),
    "2 grades, depth 12": dict(depth=12, grades=2, topic=(5, 5)),
}
MEASURES = ["RBP(p=0.5)", "RBP(p=0.8)", "AP", "ERR", "RR"]
ORDERS = ["rank", "dominance"]
# pytrec_eval cannot compute RBP or ERR; these trec_eval measures are what it
# scores for the timing (the cheapest honest workload: one pass per query).
TREC_MEASURES = {"map", "recip_rank"}


def child_classify(measure: str, order: str, depth: int, grades: int, topic) -> dict:
    import resource

    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.space.runs import Gains, Topic
    from workbench.scale.classify import classify
    from workbench.space.spaces import rank_space

    m = parse_measure(measure)
    t = Topic(tuple(topic)) if m.needs_topic else None
    space = rank_space(depth, grades, t)
    start = time.perf_counter()
    result = classify(m, get_order(order), space, Gains.default(grades))
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"wall": wall, "peak_mib": peak, "verdict": result.verdict, "runs": result.runs, "covers": result.covers}


def child_pytrec(depth: int, grades: int, topic, constrained: bool) -> dict:
    import resource

    import numpy as np
    import pytrec_eval

    from workbench.space.runs import Topic
    from workbench.space.spaces import rank_space

    runs = rank_space(depth, grades, Topic(tuple(topic)) if constrained else None).array()
    rel = int(sum(topic))
    qrels, run = {}, {}
    docs = [f"d{i}" for i in range(depth)]
    extra = [f"u{i}" for i in range(rel)]
    scores = {d: float(depth - i) for i, d in enumerate(docs)}
    for q, row in enumerate(runs):
        qid = str(q)
        judged = {d: int(g) for d, g in zip(docs, row.tolist())}
        missing = max(0, rel - int(np.count_nonzero(row)))
        for u in extra[:missing]:
            judged[u] = 1
        qrels[qid] = judged
        run[qid] = scores
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES)
    start = time.perf_counter()
    evaluator.evaluate(run)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"wall": wall, "peak_mib": peak, "runs": len(runs)}


def spawn(kind: str, **kw) -> dict:
    return in_fresh_process("classify", kind, **kw)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "classify.md")
    args = ap.parse_args()
    lines = [
        "# Benchmark: classify vs pytrec_eval scoring",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{__import__('os').cpu_count()} cores. Median of {args.repeat} runs, each in a fresh process.",
        "",
        "| space | measure | order | runs | covers | verdict | classify median s | peak MiB | pytrec_eval median s | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    from workbench.measures.names import parse_measure

    for label, sp in SPACES.items():
        # pytrec_eval scores exactly the runs that are classified: the whole
        # space, or the topic's space for measures that need a topic.
        trec_by = {}
        for constrained in (False, True):
            trec = [spawn("child_pytrec", constrained=constrained, **sp) for _ in range(args.repeat)]
            trec_by[constrained] = (statistics.median(r["wall"] for r in trec), statistics.median(r["peak_mib"] for r in trec), trec[0]["runs"])
            print(f"{label}: pytrec_eval {trec_by[constrained][0]:.2f}s over {trec_by[constrained][2]} runs", flush=True)
        for measure in MEASURES:
            trec_wall = trec_by[parse_measure(measure).needs_topic][0]
            for order in ORDERS:
                rs = [spawn("child_classify", measure=measure, order=order, **sp) for _ in range(args.repeat)]
                wall = statistics.median(r["wall"] for r in rs)
                peak = statistics.median(r["peak_mib"] for r in rs)
                r0 = rs[0]
                row = (
                    f"| {label} | {measure} | {order} | {r0['runs']} | {r0['covers']} | {r0['verdict']} | "
                    f"{wall:.3f} | {peak:.0f} | {trec_wall:.3f} | {trec_wall / wall:.1f}x |"
                )
                print(row, flush=True)
                lines.append(row)
        for wall, peak, runs in trec_by.values():
            lines.append(
                f"| {label} | pytrec_eval ({', '.join(sorted(TREC_MEASURES))}) | - | {runs} | - | - | - | "
                f"{peak:.0f} | {wall:.3f} | 1.0x |"
            )
    lines += [
        "",
        "The topic (AP) restricts the space to runs with at most n_j documents of grade j; the other",
        "measures classify the full space. pytrec_eval scores exactly the runs that are classified.",
        "ratio = pytrec_eval time / classify time (above 1: classify is faster).",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
