"""A measure against its interval transformation over the systems: ``experiment correlation --transform``.

Ferrante, Ferro and Fuhr (IEEE Access 2021) map a measure ``M``'s value on
a run of depth ``N`` to the position of that value among the distinct
values ``M`` takes on the space of runs of depth ``N``, and compare the
rankings of systems by the mean of ``M`` and by the mean of its ranked
version with Kendall's tau.  The Robust 2003 test derives that tau with no
workbench code: the runs are read and ranked as trec_eval does (scores as
32-bit floats, descending, ties by docid descending), cut at ``N``; each
topic's space is every binary run of depth ``N`` with at most ``R``
relevant documents (``R`` the topic's relevant documents, binary view),
enumerated here, scored by a few lines per measure in exact fractions;
the means are exact, their order is given to ``scipy.stats.kendalltau``
(tau-b) as dense ranks.  The test skips when the data is missing.
"""
from __future__ import annotations

import gzip
import itertools
import json
import math
import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import kendalltau

from workbench.cli.main import main

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
ROBUST = DATA / "robust03"
DEPTHS = (5, 10)
P = Fraction(4, 5)


# ---------------------------------------------------------------- an oracle independent of the workbench
def ap(rel, R):
    hits, total = 0, Fraction(0)
    for i, r in enumerate(rel, 1):
        if r:
            hits += 1
            total += Fraction(hits, i)
    return total / R


def rr(rel, R):
    return next((Fraction(1, i) for i, r in enumerate(rel, 1) if r), Fraction(0))


def rbp(rel, R):
    return (1 - P) * sum((P ** (i - 1) for i, r in enumerate(rel, 1) if r), Fraction(0))


def p10(rel, R):
    return Fraction(sum(rel[:10]), 10)


ORACLE = {"AP": ap, "RR": rr, "RBP(p=0.8)": rbp, "P@10": p10}


def attainable(f, n, R):
    """The sorted distinct values of ``f`` over binary runs of depth ``n`` with at most ``R`` relevant documents."""
    return sorted({f(list(rel), R) for rel in itertools.product((0, 1), repeat=n) if sum(rel) <= R})


def read_qrels(path):
    rel = {}
    for line in path.read_text().splitlines():
        t, _, d, g = line.split()
        rel.setdefault(t, set())
        if int(g) >= 1:
            rel[t].add(d)
    return {t: s for t, s in rel.items() if s}          # topics without a relevant document score nothing


def read_run(path):
    """``{topic: [docid, ...]}`` ranked as trec_eval ranks: float32 score descending, then docid descending."""
    by_topic = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            t, _, d, _, score, _ = line.split()
            by_topic.setdefault(t, []).append((np.float32(float(score)), d))
    return {t: [d for _, d in sorted(docs, reverse=True)] for t, docs in by_topic.items()}


def dense_ranks(values):
    order = sorted(set(values))
    return [order.index(v) for v in values]


def expected_taus(qrels, runs, n):
    """``{measure: (overall tau, topic-by-topic mean, undefined topics)}`` of M against its ranked version at ``n``."""
    out = {}
    for name, f in ORACLE.items():
        cache = {}
        means_m, means_r = [Fraction(0)] * len(runs), [Fraction(0)] * len(runs)
        per_topic, undefined = [], 0
        for t, relevant in qrels.items():
            R = len(relevant)
            key = (min(R, n), R if name == "AP" else None)      # AP alone reads R beyond the constraint
            if key not in cache:
                cache[key] = {v: k for k, v in enumerate(attainable(f, n, R))}
            pos = cache[key]
            vals = [f([int(d in relevant) for d in run.get(t, [])[:n]] + [0] * (n - len(run.get(t, [])[:n])), R)
                    for run in runs]
            ranks = [pos[v] for v in vals]
            for j in range(len(runs)):
                means_m[j] += vals[j]
                means_r[j] += ranks[j]
            if len(set(vals)) == 1:
                undefined += 1
            else:
                per_topic.append(kendalltau(dense_ranks(vals), ranks).statistic)
        overall = kendalltau(dense_ranks(means_m), dense_ranks(means_r)).statistic
        out[name] = (overall, sum(per_topic) / len(per_topic), undefined)
    return out


@pytest.mark.skipif(not (ROBUST / "qrels.txt").is_file(), reason=f"Robust 2003 data not found at {ROBUST}")
def test_robust03_transform_tau_matches_an_independent_derivation(capsys):
    files = sorted((ROBUST / "runs").glob("*.gz"))
    names = ",".join(ORACLE)
    try:
        main(["experiment", "correlation", str(ROBUST / "qrels.txt"), *map(str, files), "--measures", names,
              "--view", "binary", "--transform", *[x for n in DEPTHS for x in ("--transform-depth", str(n))],
              "--format", "json"])
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 0, err
    js = json.loads(out)
    got = {(r["measure_a"], r["depth"]): r for r in js["transform"]}
    assert [(r["measure_a"], r["measure_b"]) for r in js["transform"]] == \
        [(m, f"rank[{m}]@{n}") for n in DEPTHS for m in ORACLE]

    qrels = read_qrels(ROBUST / "qrels.txt")
    runs = [read_run(f) for f in files]
    assert js["topics"] == len(qrels) and len(js["systems"]) == len(runs)
    derived = {}
    for n in DEPTHS:
        for name, (overall, by_topic, undefined) in expected_taus(qrels, runs, n).items():
            row = got[(name, n)]
            derived[(name, n)] = round(overall, 4)
            assert math.isclose(row["overall"], overall, rel_tol=0, abs_tol=1e-12), (name, n)
            assert math.isclose(row["topic_by_topic"], by_topic, rel_tol=0, abs_tol=1e-12), (name, n)
            assert len(row["undefined_topics"]) == undefined and row["topics"] == len(qrels)
    # the figures, for the record (derived above, not copied from the command's output)
    print(derived)
    assert derived[("P@10", 5)] == derived[("P@10", 10)] == 1.0     # P's values are equally spaced already
    assert derived[("AP", 10)] < 1 and derived[("RBP(p=0.8)", 5)] < 1
