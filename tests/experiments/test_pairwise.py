"""Paired tests over every pair of systems (workbench.experiments.pairwise).

Oracles: scipy (``ttest_rel``, ``wilcoxon``, ``permutation_test`` with
``permutation_type="samples"``) to 1e-12; a binomial sum written out; sign
vectors enumerated with ``itertools.product`` and summed in Fractions; the
Monte Carlo count redone in Fractions over the same sign vectors; the
corrections by their textbook definitions (slow loops).  The Robust 2003
figures (88 and 43 significant pairs of 136, 7 changed) are checked when the
data is there.
"""
from __future__ import annotations

import glob
import itertools
import math
import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from workbench.core.exact import ValueBlock
from workbench.data.score_matrix import ScoreMatrix, score_matrices
from workbench.errors import BadScoreMatrixError
from workbench.experiments import pairwise
from workbench.experiments.baseline import corrected
from workbench.experiments.pairwise import flip_count, pairwise_significance, sign_vectors


def matrix(values, name="M", systems=None) -> ScoreMatrix:
    """An exact score matrix from a T x S table of Fractions."""
    T, S = len(values), len(values[0])
    blocks = []
    for row in values:
        den = math.lcm(*(Fraction(v).denominator for v in row))
        blocks.append(ValueBlock.rational([int(Fraction(v) * den) for v in row], den))
    floats = np.array([[float(Fraction(v)) for v in row] for row in values])
    return ScoreMatrix(name, "workbench", "graded", None, tuple(str(t) for t in range(T)),
                       tuple(systems or [f"s{j}" for j in range(S)]), tuple(blocks), floats)


def brute_flips(d) -> int:
    obs = abs(sum(d))
    return sum(abs(sum(s * x for s, x in zip(signs, d))) >= obs for signs in itertools.product((1, -1), repeat=len(d)))


# ---------------------------------------------------------------- the exact randomization count
@pytest.mark.parametrize("seed", range(12))
def test_flip_count_enumeration_and_count_against_brute_force(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    d = [int(x) for x in rng.integers(-6, 7, size=int(rng.integers(1, 11)))]
    want = brute_flips(d)
    assert flip_count(d) == (want, "exact-enumeration")
    monkeypatch.setattr(pairwise, "ENUMERATE_MAX", 0)            # the subset-sum count on the same input
    assert flip_count(d) == (want, "exact-count")


def test_flip_count_big_integers_enumerated_exactly():
    d = [10 ** 30, -(10 ** 30) + 1, 7, 3 * 10 ** 29]
    assert flip_count(d) == (brute_flips(d), "exact-enumeration")


def test_count_of_many_topics_by_construction():
    # 40 differences of 1: |S| >= 40 only for all + or all -; 40 of 1 and one 0: twice as many
    assert flip_count([1] * 40) == (2, "exact-count")
    assert flip_count([1] * 40 + [0]) == (4, "exact-count")
    # 30 of 1 and 30 of -1: observed 0, every vector reaches it
    assert flip_count([1] * 30 + [-1] * 30) == (2 ** 60, "exact-count")


@pytest.mark.parametrize("seed", range(6))
def test_exact_randomization_p_agrees_with_scipy(seed):
    rng = np.random.default_rng(100 + seed)
    T = int(rng.integers(4, 11))
    x = rng.integers(0, 8, size=(T, 3))                      # integers: float sums are exact, scipy's ties too
    m = matrix([[Fraction(int(v), 8) for v in row] for row in x])
    t = pairwise_significance([m], test="randomization")
    for r in t.rows:
        a, b = int(r.a[1]), int(r.b[1])
        want = stats.permutation_test((x[:, a] / 8, x[:, b] / 8), lambda u, v, axis: np.mean(u - v, axis=axis),
                                      permutation_type="samples", n_resamples=np.inf, vectorized=True).pvalue
        assert r.method in ("exact-enumeration", "exact-count")
        assert abs(r.p_value - want) < 1e-12


def test_counted_randomization_many_topics_against_enumeration(monkeypatch):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 5, size=(12, 2))
    m = matrix([[Fraction(int(v), 4) for v in row] for row in x])
    enumerated = pairwise_significance([m], test="randomization").rows[0]
    monkeypatch.setattr(pairwise, "ENUMERATE_MAX", 0)
    counted = pairwise_significance([m], test="randomization").rows[0]
    assert enumerated.method == "exact-enumeration" and counted.method == "exact-count"
    assert counted.p_value == enumerated.p_value == brute_flips([int(u - v) for u, v in x]) / 2 ** 12


# ---------------------------------------------------------------- Monte Carlo
def test_monte_carlo_against_a_fraction_loop_with_ties(monkeypatch):
    """Thirds (inexact in floats) with many exact ties: the count must be the exact one over the same vectors."""
    monkeypatch.setattr(pairwise, "COUNT_MAX_BYTES", 0)           # no exact count: Monte Carlo
    T = 20
    third = Fraction(1, 3)
    vals = [[third * (t % 3), third * ((t + 1) % 3) if t % 4 else third * (t % 3)] for t in range(T)]
    m = matrix(vals)
    t = pairwise_significance([m], test="randomization", permutations=500, seed=3)
    row = t.rows[0]
    d = [v[0] - v[1] for v in vals]
    obs = abs(sum(d))
    flips = sign_vectors(500, T, 3)
    b = sum(abs(sum(int(s) * x for s, x in zip(v, d))) >= obs for v in flips)
    assert row.method == "monte-carlo"
    assert row.p_value == (b + 1) / 501
    assert row.p_se == pytest.approx(math.sqrt(row.p_value * (1 - row.p_value) / 500), rel=1e-12)


def test_monte_carlo_is_deterministic_given_the_seed(monkeypatch):
    monkeypatch.setattr(pairwise, "COUNT_MAX_BYTES", 0)
    rng = np.random.default_rng(5)
    m = matrix([[Fraction(int(v), 7) for v in row] for row in rng.integers(0, 7, size=(30, 3))])
    one = pairwise_significance([m], test="randomization", permutations=200, seed=1)
    two = pairwise_significance([m], test="randomization", permutations=200, seed=1)
    other = pairwise_significance([m], test="randomization", permutations=200, seed=2)
    assert one.to_json() == two.to_json()
    assert [r.p_value for r in one.rows] != [r.p_value for r in other.rows]


# ---------------------------------------------------------------- the other tests against scipy
@pytest.mark.parametrize("seed", range(4))
def test_t_wilcoxon_and_sign_against_scipy_and_a_binomial_sum(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 30, size=(25, 4))
    m = matrix([[Fraction(int(v), 30) for v in row] for row in x])
    F = x / 30
    for test in ("t", "wilcoxon", "sign"):
        for r in pairwise_significance([m], test=test).rows:
            a, b = int(r.a[1]), int(r.b[1])
            d = x[:, a] - x[:, b]
            if test == "t":
                want = stats.ttest_rel(F[:, a], F[:, b]).pvalue
            elif test == "wilcoxon":
                want = stats.wilcoxon(F[:, a][d != 0], F[:, b][d != 0]).pvalue
            else:
                k, n = int((d > 0).sum()), int((d != 0).sum())
                tail = sum(math.comb(n, i) for i in range(0, min(k, n - k) + 1))
                want = min(1.0, 2 * tail / 2 ** n)
            assert abs(r.p_value - want) < 1e-12, (test, r)
            assert (r.better, r.worse, r.ties) == (int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()))


def test_identical_systems_have_p_one_under_every_test():
    m = matrix([[Fraction(t, 7)] * 3 for t in range(6)])
    for test in pairwise.TESTS:
        assert all(r.p_value == 1.0 and not r.reject for r in pairwise_significance([m], test=test).rows)


# ---------------------------------------------------------------- corrections
def slow_holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda k: p[k])
    return [min(1.0, max((m - i) * p[order[i]] for i in range(order.index(k) + 1))) for k in range(m)]


def slow_bh(p):
    m = len(p)
    order = sorted(range(m), key=lambda k: p[k])
    return [min(1.0, min(p[order[i]] * m / (i + 1) for i in range(order.index(k), m))) for k in range(m)]


@pytest.mark.parametrize("seed", range(5))
def test_corrections_against_their_definitions(seed):
    p = list(np.random.default_rng(seed).random(9) ** 3)
    assert corrected(p, "holm") == pytest.approx(slow_holm(p), abs=1e-15)
    assert corrected(p, "bh") == pytest.approx(slow_bh(p), abs=1e-15)
    assert corrected(p, "bonferroni") == pytest.approx([min(1.0, 9 * x) for x in p], abs=1e-15)


def test_reject_uses_the_corrected_p_value():
    rng = np.random.default_rng(11)
    x = rng.integers(0, 20, size=(15, 5))
    x[:, 4] += 12
    m = matrix([[Fraction(int(v), 32) for v in row] for row in x])
    for corr in pairwise.CORRECTIONS:
        t = pairwise_significance([m], test="t", correction=corr, alpha=0.01)
        raw = [r.p_value for r in t.rows]
        want = raw if corr == "none" else corrected(raw, corr)
        assert [r.p_adjusted for r in t.rows] == want
        assert [r.reject for r in t.rows] == [q < 0.01 for q in want]


# ---------------------------------------------------------------- pairs, changes, results
def test_baseline_pairs_and_directions():
    m = matrix([[Fraction(1), Fraction(0), Fraction(1, 2)], [Fraction(1), Fraction(1, 2), Fraction(0)]],
               systems=["a", "b", "c"])
    t = pairwise_significance([m], pairs="baseline:b")
    assert [(r.a, r.b) for r in t.rows] == [("a", "b"), ("c", "b")]
    assert [(r.diff_exact, r.direction) for r in t.rows] == [(Fraction(3, 4), 1), (Fraction(0), 0)]


def test_changes_between_two_measures_against_a_loop():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 20, size=(30, 6))
    x[:, 5] += 10
    x[:, 4] += 4
    y = x.copy()
    y[:, 5] = np.maximum(0, 19 - x[:, 5])                 # a different measure: system 5 turned around
    m1, m2 = matrix([[Fraction(int(v), 32) for v in r] for r in x], "A"), matrix([[Fraction(int(v), 32) for v in r] for r in y], "B")
    t = pairwise_significance([m1, m2], test="t", correction="holm")
    (c,) = t.changes
    want = []
    for p, q in zip(t.of("A"), t.of("B")):
        if p.reject != q.reject:
            want.append((p.a, p.b, "first" if p.reject else "second"))
        elif p.reject and np.sign(p.diff) != np.sign(q.diff):
            want.append((p.a, p.b, "opposite"))
    assert [(ch.a, ch.b, ch.kind) for ch in c.changes] == want and c.count == len(want) > 0
    assert {ch.kind for ch in c.changes} >= {"opposite"}


def test_result_object_json_frame_tables_repr_html():
    rng = np.random.default_rng(2)
    m = matrix([[Fraction(int(v), 5) for v in r] for r in rng.integers(0, 5, size=(8, 3))], "RR")
    t = pairwise_significance([m], test="randomization", correction="bh")
    j = t.to_json()
    assert {"test", "correction", "pairs", "alpha", "summary", "changes", "rows"} <= set(j)
    assert len(j["rows"]) == 3 and j["rows"][0]["method"] == "exact-enumeration"
    f = t.to_frame()
    assert f.shape[0] == 3 and {"system_a", "system_b", "p_value", "p_adjusted", "reject", "method"} <= set(f.columns)
    from workbench.core.table import render
    for fmt in ("md", "csv", "latex", "json"):
        assert "RR" in render(t.tables(), fmt)
    assert repr(t).startswith("PairwiseSignificance: paired randomization test, bh correction")
    assert "<table" in t._repr_html_()


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw, words", [
    ({"test": "z"}, ["'z'"]), ({"correction": "sidak"}, ["'sidak'"]), ({"pairs": "baseline:NOPE"}, ["'NOPE'"]),
    ({"pairs": "some"}, ["'some'"]), ({"alpha": 1.0}, ["1.0"]), ({"alpha": 0}, ["alpha 0"]),
    ({"permutations": 0}, ["permutations 0"]),
])
def test_bad_input_one_line(kw, words):
    m = matrix([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]])
    with pytest.raises(BadScoreMatrixError) as e:
        pairwise_significance([m], **kw)
    assert "\n" not in str(e.value) and all(w in str(e.value) for w in words)


def test_one_run_only_refused():
    with pytest.raises(BadScoreMatrixError, match="1 system"):
        pairwise_significance([matrix([[Fraction(1)], [Fraction(0)]])])


# ---------------------------------------------------------------- the figures of issue 33 on Robust 2003
ROBUST = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data")) / "robust03"


@pytest.mark.slow
@pytest.mark.skipif(not (ROBUST / "qrels.txt").is_file(), reason=f"Robust 2003 data not found at {ROBUST} (set WORKBENCH_DATA)")
def test_robust03_paired_t_holm_88_and_43_and_7_changed():
    from workbench.api.experiments import study_inputs

    runs = sorted(glob.glob(str(ROBUST / "runs" / "input.*.gz")))
    ms = study_inputs(ROBUST / "qrels.txt", runs, "AP,rank[AP]@10,AP@10").score()
    t = pairwise_significance(ms, test="t", correction="holm", compare=[("AP", "rank[AP]@10"), ("AP@10", "rank[AP]@10")])
    assert len(t.of("AP")) == 136
    # an independent count: scipy's t-test and a slow Holm over the float matrices
    for m in ms:
        F = m.floats
        raw = [stats.ttest_rel(F[:, i], F[:, j]).pvalue for i, j in itertools.combinations(range(17), 2)]
        assert sum(q < 0.05 for q in slow_holm(raw)) == t.significant(m.measure)
    assert (t.significant("AP"), t.significant("rank[AP]@10")) == (88, 43)
    assert t.changes[1].count == 7


def test_values_with_logarithms_enumerated_against_scipy():
    """nDCG (logarithms: no common denominator): every sign vector, ties decided by certified arithmetic."""
    rng = np.random.default_rng(9)
    qrels = {str(t): {"a": 2, "b": 1, "c": 1} for t in range(7)}
    docs = ["a", "b", "c", "x", "y"]
    runs = {s: {str(t): list(rng.permutation(docs)[:3]) for t in range(7)} for s in ("p", "q", "r")}
    runs["r"]["0"] = runs["p"]["0"]                               # an exact zero difference
    (m,) = score_matrices(qrels, runs, ["nDCG@3"])
    assert not all(b.is_rational for b in m.blocks)
    F = m.floats
    for r in pairwise_significance([m], test="randomization").rows:
        a, b = m.systems.index(r.a), m.systems.index(r.b)
        want = stats.permutation_test((F[:, a], F[:, b]), lambda u, v, axis: np.mean(u - v, axis=axis),
                                      permutation_type="samples", n_resamples=np.inf, vectorized=True).pvalue
        assert r.method == "exact-enumeration" and abs(r.p_value - want) < 1e-12
