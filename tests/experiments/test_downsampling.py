"""Tests of pool downsampling (Ferrante, Ferro and Losiouk 2020, sec. 5.4, Ferro, Silvello, Keskustalo, Pirkola and Järvelin 2016, Fig. 13).

Expected values come from hand derivations, a ``Decimal`` ROUND_HALF_UP
recount, exhaustive enumeration of permutations, and stand-in score and
Kendall tau-b functions written here from their textbook definitions.
"""
from __future__ import annotations

import itertools
import json
import math
import os
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import workbench.experiments.downsampling as ds
from workbench.experiments.downsampling import (BadSamplingError, DownsamplingResult, curve_figure, sample_pools,
                                    self_tau_curves)
from workbench.errors import WorkbenchError

FRACTIONS = (90, 70, 50, 30, 10, 5)


def random_qrels(seed: int, topics: int = 12) -> dict:
    """Topics with 0..60 non-relevant, 0..25 grade-1 and 0..6 grade-2 documents, some tiny."""
    rng = np.random.default_rng(seed)
    q = {}
    for t in range(topics):
        counts = {0: int(rng.integers(0, 61)), 1: int(rng.integers(0, 26)), 2: int(rng.integers(0, 7))}
        if t == 0:
            counts = {0: 5, 1: 1, 2: 0}
        docs = [(f"d{t}-{g}-{i}", g) for g, n in counts.items() for i in range(n)]
        if t == 1:
            docs.append((f"d{t}-neg", -1))  # a negative grade is judged not relevant
        order = rng.permutation(len(docs))
        q[f"T{t}"] = {docs[i][0]: docs[i][1] for i in order}
    return q


def half_up(percent: int, count: int) -> int:
    return int((Decimal(percent) * Decimal(count) / Decimal(100)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def stratum(grade: int) -> int:
    return grade if grade > 0 else 0


# ---------------------------------------------------------------- sampling rules
@pytest.mark.parametrize("strategy", ["stratified", "uniform"])
def test_samples_are_nested_per_topic_and_grade(strategy):
    q = random_qrels(1)
    for rep in range(3):
        pools = sample_pools(q, FRACTIONS, strategy, seed=3, repetition=rep)
        assert list(pools) == sorted(FRACTIONS, reverse=True)
        for t, full in q.items():
            chain = [full] + [pools[p][t] for p in sorted(FRACTIONS, reverse=True)]
            for big, small in zip(chain, chain[1:]):
                assert set(small.items()) <= set(big.items())
                for g in {stratum(x) for x in full.values()}:
                    assert ({d for d, x in small.items() if stratum(x) == g}
                            <= {d for d, x in big.items() if stratum(x) == g})


def test_stratified_keeps_each_grade_fraction_rounded_half_up():
    q = random_qrels(2, topics=20)
    pools = sample_pools(q, FRACTIONS, "stratified", seed=5)
    for t, full in q.items():
        sizes = {g: sum(stratum(x) == g for x in full.values()) for g in (0, 1, 2)}
        for p in FRACTIONS:
            kept = pools[p][t]
            for g, n in sizes.items():
                floor = 10 if g == 0 else 1
                want = min(n, max(floor, half_up(p, n)))
                assert sum(stratum(x) == g for x in kept.values()) == want, (t, p, g)


def test_rounding_by_hand():
    # grade-1 strata of 50, 30 and 13 documents (the floor of 1 does not bind)
    q = {"h": {**{f"a{i}": 1 for i in range(50)}, **{f"n{i}": 0 for i in range(200)}},
         "k": {**{f"a{i}": 1 for i in range(30)}, **{f"n{i}": 0 for i in range(13)}},
         "m": {**{f"a{i}": 1 for i in range(13)}}}
    pools = sample_pools(q, (50, 10, 5), "stratified")
    rel = {p: {t: sum(g == 1 for g in s.values()) for t, s in pools[p].items()} for p in pools}
    non = {p: {t: sum(g == 0 for g in s.values()) for t, s in pools[p].items()} for p in pools}
    assert rel[5] == {"h": 3, "k": 2, "m": 1}     # 2.5 -> 3, 1.5 -> 2, 0.65 -> 1
    assert rel[10] == {"h": 5, "k": 3, "m": 1}    # 5, 3, 1.3 -> 1
    assert rel[50] == {"h": 25, "k": 15, "m": 7}  # 25, 15, 6.5 -> 7
    assert non[5] == {"h": 10, "k": 10, "m": 0}   # 10 -> floor 10; 0.65 -> floor 10 of 13
    assert non[50] == {"h": 100, "k": 10, "m": 0}  # 6.5 -> 7, floor 10


def test_uniform_sizes_follow_the_whole_pool():
    q = random_qrels(3, topics=20)
    pools = sample_pools(q, FRACTIONS, "uniform", seed=1)
    for t, full in q.items():
        for p in FRACTIONS:
            assert len(pools[p][t]) == min(len(full), max(1, half_up(p, len(full))))
            if any(g > 0 for g in full.values()):
                assert any(g > 0 for g in pools[p][t].values())  # redrawn until a relevant document is in


def test_minimum_kept_on_a_topic_with_one_relevant_and_five_nonrelevant():
    topic = {"r": 1, **{f"n{i}": 0 for i in range(5)}}
    q = {"small": topic, "big": {**{f"a{i}": 1 for i in range(3)}, **{f"b{i}": 2 for i in range(2)},
                                  **{f"n{i}": 0 for i in range(40)}},
         "norel": {f"n{i}": 0 for i in range(30)}, "empty": {}}
    for rep in range(5):
        strat = sample_pools(q, FRACTIONS, "stratified", repetition=rep)
        unif = sample_pools(q, FRACTIONS, "uniform", repetition=rep)
        for p in FRACTIONS:
            assert strat[p]["small"] == topic  # fewer than 10 non-relevant: all kept, and the relevant one
            assert "r" in unif[p]["small"]
            assert strat[p]["empty"] == {} and unif[p]["empty"] == {}
        assert unif[5]["small"] == {"r": 1}  # 5 % of 6 is 0.3: one document, redrawn until relevant
        grades = sorted(strat[5]["big"].values())
        assert grades == [0] * 10 + [1, 2]  # max(10, 2) non-relevant, max(1, 0) per relevant grade
        assert len(strat[5]["norel"]) == 10 and len(unif[5]["norel"]) == 2  # 1.5 -> 2, no redraw possible


def conditional_inclusion(grades: list[int], k: int) -> list[Fraction]:
    """Slow oracle: P(doc in first k | a relevant doc in first k) over all permutations."""
    hits, total = [0] * len(grades), 0
    for perm in itertools.permutations(range(len(grades))):
        head = perm[:k]
        if any(grades[i] > 0 for i in head):
            total += 1
            for i in head:
                hits[i] += 1
    return [Fraction(h, total) for h in hits]


@pytest.mark.parametrize("grades,percent", [([1, 1, 0, 0, 0, 0], 50), ([2, 1, 1, 2, 1, 1, 2], 30)])
def test_uniform_inclusion_frequency_matches_the_conditional_law(grades, percent):
    exact = conditional_inclusion(grades, max(1, half_up(percent, len(grades))))
    if grades == [1, 1, 0, 0, 0, 0]:
        assert exact == [Fraction(5, 8)] * 2 + [Fraction(7, 16)] * 4  # by hand: (1/2)/(4/5); (3 - 5/4)/4
    q = {"t": {f"d{i}": g for i, g in enumerate(grades)}}
    n = 3000
    counts = dict.fromkeys(q["t"], 0)
    for rep in range(n):
        for d in sample_pools(q, (percent,), "uniform", seed=11, repetition=rep)[percent]["t"]:
            counts[d] += 1
    for i, d in enumerate(q["t"]):
        p = float(exact[i])
        # 5 binomial standard deviations (<= 0.046 here): a wrong law (e.g. no redraw: 1/2 vs 5/8) fails
        assert abs(counts[d] / n - p) < 5 * math.sqrt(p * (1 - p) / n), (d, counts[d] / n, p)


def test_determinism_and_independence():
    q = random_qrels(4)
    for strategy in ("stratified", "uniform"):
        a = sample_pools(q, FRACTIONS, strategy, seed=7, repetition=2)
        assert a == sample_pools(q, FRACTIONS, strategy, seed=7, repetition=2)
        other_rep = sample_pools(q, FRACTIONS, strategy, seed=7, repetition=3)
        other_seed = sample_pools(q, FRACTIONS, strategy, seed=8, repetition=2)
        big = [t for t, d in q.items() if len(d) >= 30]
        assert all(a[50][t] != other_rep[50][t] for t in big)
        assert all(a[50][t] != other_seed[50][t] for t in big)
        # a topic's sample depends neither on insertion order nor on the other topics
        t = big[0]
        shuffled = {t: dict(reversed(list(q[t].items())))}
        assert sample_pools(shuffled, FRACTIONS, strategy, seed=7, repetition=2)[50][t] == a[50][t]


_CHILD = """
import json, sys
from workbench.experiments.downsampling import sample_pools
q = {f"T{t}": {f"d{i}": (i % 4 == 0) + (i % 9 == 0) for i in range(40 + t)} for t in range(5)}
out = {s: {p: {t: sorted(d) for t, d in v.items()} for p, v in sample_pools(q, (50, 5), s).items()}
       for s in ("stratified", "uniform")}
sys.stdout.write(json.dumps(out, sort_keys=True))
"""


def test_samples_do_not_depend_on_pythonhashseed():
    src = Path(ds.__file__).read_text()
    assert not re.search(r"(?<![\w.])hash\(", src)  # no salted built-in hash()
    outs = []
    for hseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hseed}
        outs.append(subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True,
                                   check=True).stdout)
    assert outs[0] == outs[1] and json.loads(outs[0])["uniform"]["5"]


@pytest.mark.parametrize("kwargs,bad", [({"fractions": (0,)}, "0"), ({"fractions": (101,)}, "101"),
                                        ({"fractions": (2.5,)}, "2.5"), ({"fractions": (True,)}, "True"),
                                        ({"fractions": (50, 50)}, "(50, 50)"),
                                        ({"strategy": "systematic"}, "'systematic'"),
                                        ({"repetition": -1}, "-1"), ({"seed": "x"}, "'x'")])
def test_bad_parameters_raise_one_line_errors(kwargs, bad):
    with pytest.raises(BadSamplingError) as e:
        sample_pools({"t": {"a": 1}}, **kwargs)
    assert isinstance(e.value, WorkbenchError) and bad in str(e.value) and "\n" not in str(e.value)


# ---------------------------------------------------------------- self tau with stand-ins
GAIN = {1: 1, 2: 10}


def standin_score(qrels, runs, measures):
    """Topics x systems matrices: 'rel@10' (relevant in the top 10), 'gain' (sum of GAIN), 'len' (run length)."""
    topics, systems = sorted(qrels), sorted(runs)

    def one(m, t, s):
        docs = runs[s].get(t, [])
        if m == "rel@10":
            return Fraction(sum(qrels[t].get(d, 0) > 0 for d in docs[:10]), 10)
        if m == "gain":
            return sum(GAIN.get(qrels[t].get(d, 0), 0) for d in docs)  # unjudged: not relevant
        return len(docs)
    return [[[one(m, t, s) for s in systems] for t in topics] for m in measures]


def tau_b(x, y):
    """Kendall tau-b by enumerating pairs (ties as in Ferrante et al. 2020, eq. 7)."""
    conc = disc = tx = ty = 0
    pairs = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        pairs += 1
        a, b = (x[i] > x[j]) - (x[i] < x[j]), (y[i] > y[j]) - (y[i] < y[j])
        tx += a == 0
        ty += b == 0
        conc += a * b > 0
        disc += a * b < 0
    den = math.sqrt((pairs - tx) * (pairs - ty))
    return (conc - disc) / den if den else float("nan")


def standin_tau(full, reduced):
    """Overall tau: rank systems by their mean over topics, then tau-b."""
    def means(mat):
        return [sum(Fraction(r[s]) for r in mat) / len(mat) for s in range(len(mat[0]))]
    return tau_b(means(full), means(reduced))


def flip_case():
    """One topic: 20 grade-1, 1 grade-2, 10 non-relevant documents; A has all grade-1, B the grade-2 one."""
    q = {"t": {**{f"g{i:02d}": 1 for i in range(20)}, "h": 2, **{f"n{i}": 0 for i in range(10)}}}
    runs = {"A": {"t": [f"g{i:02d}" for i in range(20)]}, "B": {"t": ["h", "u1", "u2"]}, "C": {"t": ["u3", "u4"]}}
    return q, runs


def test_removing_relevant_documents_flips_a_known_pair():
    q, runs = flip_case()
    res = self_tau_curves(q, runs, ["gain"], standin_score, standin_tau, fractions=(100, *FRACTIONS),
                          strategies=("stratified",), repetitions=3, seed=2)
    # full: A 20 > B 10 > C 0.  Reduced (stratified): A keeps P% of 20 grade-1 docs, B keeps h (max(1, .)).
    # 90, 70: A 18, 14 > B 10: tau 1;  50: A = B = 10: tau-b 2 / sqrt(3 * 2);  30, 10, 5: A 6, 2, 1 < B: 1/3
    want = {100: 1.0, 90: 1.0, 70: 1.0, 50: 2 / math.sqrt(6), 30: 1 / 3, 10: 1 / 3, 5: 1 / 3}
    for p, w in want.items():
        c = res.cell("gain", "stratified", p)
        assert c.taus == pytest.approx((w,) * 3) and c.mean == pytest.approx(w) and c.sd == pytest.approx(0)


def test_self_tau_is_one_at_full_pool_and_for_a_measure_ignoring_relevance():
    q = random_qrels(5, topics=6)
    rng = np.random.default_rng(9)
    pool = sorted({d for v in q.values() for d in v})
    runs = {f"S{s}": {t: [pool[i] for i in rng.choice(len(pool), size=int(rng.integers(1, 30)), replace=False)]
                      for t in q} for s in range(6)}
    calls, seen = [], []

    def counting_score(qr, rn, ms):
        calls.append(qr)
        return standin_score(qr, rn, ms)
    res = self_tau_curves(q, runs, ["rel@10", "gain", "len"], counting_score, standin_tau,
                          fractions=(100, 30, 5), repetitions=2, seed=4,
                          progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert len(calls) == 1 + 2 * 2 * 3 and calls[0] is q  # the full pool is scored once
    assert [d for _, d, _ in seen] == list(range(1, 13)) and {t for _, _, t in seen} == {12}
    for s in ("stratified", "uniform"):
        for m in ("rel@10", "gain", "len"):
            assert res.cell(m, s, 100).taus == (1.0, 1.0)
        for p in (30, 5):
            assert res.cell("len", s, p).taus == (1.0, 1.0)
    assert res.measures == ("rel@10", "gain", "len") and res.fractions == (100, 30, 5)
    # sanity: the relevance measures did move somewhere (the test can see a change)
    assert min(c.mean for c in res.cells if c.measure != "len") < 1.0


@pytest.mark.slow
def test_rows_adapter_and_figure(tmp_path):
    q, runs = flip_case()
    res = self_tau_curves(q, runs, ["gain", "len"], standin_score,
                          lambda a, b: SimpleNamespace(value=standin_tau(a, b)),  # an object with .value
                          fractions=(50, 5), repetitions=2)
    assert isinstance(res, DownsamplingResult)
    rows = res.to_rows()
    assert len(rows) == 2 * 2 * 2
    r = next(r for r in rows if (r["measure"], r["strategy"], r["fraction"]) == ("gain", "stratified", 5))
    assert r["tau_1"] == r["tau_2"] == pytest.approx(1 / 3) and r["repetitions"] == 2
    assert json.loads(json.dumps(rows)) == rows
    for name in ("tau.png", "tau.pdf"):
        out = curve_figure(res, tmp_path / name)
        assert out.stat().st_size > 0 and out.read_bytes()[:4] in (b"\x89PNG", b"%PDF")
    with pytest.raises(WorkbenchError, match="svg"):
        curve_figure(res, tmp_path / "tau.svg")
    with pytest.raises(BadSamplingError, match="repetitions 0"):
        self_tau_curves(q, runs, ["gain"], standin_score, standin_tau, repetitions=0)


ROBUST03 = Path(__file__).resolve().parents[3] / "shared" / "data" / "robust03" / "qrels.txt"


@pytest.mark.skipif(not ROBUST03.is_file(), reason="shared Robust 2003 qrels not present")
def test_structure_on_robust03_qrels():
    from workbench.data.trec import read_qrels

    q = read_qrels(ROBUST03)
    for strategy in ("stratified", "uniform"):
        pools = sample_pools(q, FRACTIONS, strategy)
        for t, full in q.items():
            prev = set(full.items())
            for p in FRACTIONS:
                cur = set(pools[p][t].items())
                assert cur <= prev
                prev = cur
                if any(g > 0 for g in full.values()):
                    assert any(g > 0 for _, g in cur)
            if strategy == "stratified":
                n0 = sum(g <= 0 for g in full.values())
                assert sum(g <= 0 for g in pools[5][t].values()) == min(n0, max(10, half_up(5, n0)))


def _small_collection():
    rng = np.random.default_rng(5)
    qrels = {str(t): {f"d{i}": int(rng.choice([0, 0, 0, 0, 0, 1, 2])) for i in range(30)} for t in range(1, 7)}
    for t in qrels:
        qrels[t]["d0"] = 2                                    # every topic has a relevant document
    runs = {f"s{j}": {t: [f"d{i}" for i in rng.permutation(30)[:12]] for t in qrels} for j in range(5)}
    return qrels, runs


def test_worker_processes_give_the_sequential_result():
    """Two worker processes, one process, and precomputed full-pool matrices: identical cells (measures exact)."""
    from functools import partial

    from workbench.data.score_matrix import score_matrices

    qrels, runs = _small_collection()
    measures = ["AP", "RBP(p=0.8)", "nDCG@5", "Twist", "ERR"]
    score = partial(score_matrices, depth=30)   # Twist needs depth >= 2 RB
    kw = dict(fractions=(70, 30, 10), repetitions=2, seed=1)
    one = ds.self_tau_curves(qrels, runs, measures, score, **kw)
    two = ds.self_tau_curves(qrels, runs, measures, score, workers=2, **kw)
    pre = ds.self_tau_curves(qrels, runs, measures, score, full=score(qrels, runs, measures), **kw)
    assert one == two == pre
    assert len(one.cells) == len(measures) * 2 * 3 and all(len(c.taus) == 2 for c in one.cells)
    # each task re-scores exactly the pool sample_pools draws: the sequential oracle, written out here
    from workbench.experiments.correlation import overall_tau

    full = score(qrels, runs, measures)
    for strategy in ("stratified", "uniform"):
        for r in range(2):
            pools = sample_pools(qrels, (70, 30, 10), strategy, seed=1, repetition=r)
            for p, pool in pools.items():
                for m, a, b in zip(measures, full, score(pool, runs, measures)):
                    x = overall_tau(a, b).value
                    got = one.cell(m, strategy, p).taus[r]
                    assert got == x or (math.isnan(got) and x is None)


def test_workers_must_be_a_positive_integer():
    qrels, runs = _small_collection()
    with pytest.raises(BadSamplingError, match="workers 0"):
        ds.self_tau_curves(qrels, runs, ["AP"], workers=0)
