"""Kendall's tau-b (Ferrante, Ferro and Losiouk 2020, eq. 7), overall and topic by topic (workbench.experiments.correlation).

Pair counts against a brute-force loop over pairs and scipy's tau-b; the
correlation of measures that are linear transformations of one another is 1
by construction (Ferrante et al. 2020, Tables 1-2); exact ties of means that floats would
break are counted as ties.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import kendalltau

from workbench.experiments.correlation import (
    TauB,
    correlation_table,
    overall_tau,
    tau_b_from_signs,
    topic_by_topic_tau,
)
from workbench.errors import WorkbenchError
from workbench.data.score_matrix import score_matrices


def signs(x):
    x = np.asarray(x)
    return np.sign(x[:, None] - x[None, :])


def brute(x, y):
    P = Q = T = U = B = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = (x[i] > x[j]) - (x[i] < x[j]), (y[i] > y[j]) - (y[i] < y[j])
        if dx == 0 and dy == 0:
            B += 1
        elif dx == 0:
            T += 1
        elif dy == 0:
            U += 1
        elif dx == dy:
            P += 1
        else:
            Q += 1
    return P, Q, T, U, B


@pytest.mark.parametrize("seed", range(20))
def test_tau_b_against_brute_force_and_scipy(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 12)
    x = [rng.randint(0, 3) for _ in range(n)]
    y = [rng.randint(0, 3) for _ in range(n)]
    t = tau_b_from_signs(signs(x), signs(y))
    assert (t.P, t.Q, t.T, t.U, t.both) == brute(x, y)
    ref = kendalltau(x, y).statistic           # tau-b
    if t.value is None:
        assert math.isnan(ref)
    else:
        assert t.value == pytest.approx(ref, abs=1e-12)
        assert t.squared == Fraction(t.P - t.Q) * abs(t.P - t.Q) / ((t.P + t.Q + t.T) * (t.P + t.Q + t.U))


def test_identical_reversed_and_tied_rankings():
    x = list(range(7))
    assert tau_b_from_signs(signs(x), signs(x)).value == 1.0
    assert tau_b_from_signs(signs(x), signs(x[::-1])).value == -1.0
    flat = tau_b_from_signs(signs(x), signs([0] * 7))
    assert flat.value is None and (flat.P, flat.Q, flat.U) == (0, 0, 21) and math.isnan(float(flat))
    assert TauB(1, 0, 0, 0).to_dict()["tau"] == 1.0
    with pytest.raises(WorkbenchError, match="S x S"):
        tau_b_from_signs(np.zeros((2, 2)), np.zeros((3, 3)))


def _collection(seed, topics=6, systems=7, depth=8):
    rng = random.Random(seed)
    qrels = {str(t): {f"d{t}_{i}": rng.choice([0, 1, 1, 2]) for i in range(10)} for t in range(1, topics + 1)}
    for t, q in qrels.items():
        q[f"d{t}_0"] = 2                                     # every topic has a relevant document
    runs = {f"s{k}": {t: rng.sample(list(q) + [f"u{i}" for i in range(6)], depth) for t, q in qrels.items()}
            for k in range(systems)}
    return qrels, runs


def test_linear_transformations_correlate_perfectly():
    # binary RBP(1/2) = RBTO / 2^N and P = SBTO / N on every topic: tau 1 topic by topic and overall.
    qrels, runs = _collection(1)
    rbp, rbto, p, sbto = score_matrices(qrels, runs, ["RBP(p=0.5)", "RBTO", "P", "SBTO"], view="binary", depth=8)
    for a, b in ((rbp, rbto), (p, sbto)):
        tbt = topic_by_topic_tau(a, b)
        assert tbt.undefined == () and tbt.mean == 1.0
        assert overall_tau(a, b).value == 1.0
    reversed_rbp = dataclasses.replace(rbp, blocks=tuple(-b for b in rbp.blocks))
    assert topic_by_topic_tau(rbto, reversed_rbp).mean == -1.0


def test_topic_by_topic_against_scipy_and_undefined_topics():
    qrels, runs = _collection(2)
    qrels["9"] = {"rel": 1}                                  # no system retrieves it: all tie on topic 9
    ap, rbp = score_matrices(qrels, runs, ["AP", "RBP(p=0.8)"], depth=8)
    tbt = topic_by_topic_tau(ap, rbp)
    assert tbt.undefined == ("9",) and len(tbt.per_topic) == 7
    expect = [kendalltau(ap.floats[k], rbp.floats[k]).statistic for k in range(6)]
    assert tbt.mean == pytest.approx(float(np.mean(expect)), abs=1e-12)
    assert tbt.to_dict()["defined"] == 6


def test_overall_counts_exact_ties_of_means():
    # P@10 of x: 1/10, 2/10, 3/10 on three topics; of y: 3/10, 2/10, 1/10 (at the bottom ranks); z: 0.
    # The means of x and y are equal (float sums are not); RBTO tells them apart.
    qrels = {t: {f"r{t}{i}": 1 for i in range(3)} for t in ("1", "2", "3")}
    pad = [f"n{i}" for i in range(10)]
    x = {t: [f"r{t}{i}" for i in range(k)] for k, t in zip((1, 2, 3), ("1", "2", "3"))}
    y = {t: pad[:10 - k] + [f"r{t}{i}" for i in range(k)] for k, t in zip((3, 2, 1), ("1", "2", "3"))}
    z = {t: pad for t in ("1", "2", "3")}
    p, rbto = score_matrices(qrels, {"x": x, "y": y, "z": z}, ["P", "RBTO"], view="binary", depth=10)
    assert sum(p.floats[:, 0].tolist()) != sum(p.floats[:, 1].tolist())
    t = overall_tau(p, rbto)
    assert (t.P, t.Q, t.T, t.U, t.both) == (2, 0, 1, 0, 0)
    assert t.value == pytest.approx(2 / math.sqrt(3 * 2), abs=1e-15)


def test_correlation_table_layout_and_errors():
    qrels, runs = _collection(3)
    ms = score_matrices(qrels, runs, ["AP", "ir:AP@8", "RBTO"], depth=8)
    tab = correlation_table(ms)
    assert [(r.a, r.b) for r in tab.rows] == [("AP", "ir:AP@8"), ("AP", "RBTO"), ("ir:AP@8", "RBTO")]
    assert tab.rows[0].overall.value == 1.0 and tab.rows[0].topic_by_topic.mean == 1.0
    for r in tab.rows:
        ref = kendalltau(ms[[m.measure for m in ms].index(r.a)].means_float(),
                         ms[[m.measure for m in ms].index(r.b)].means_float()).statistic
        assert r.overall.value == pytest.approx(ref, abs=1e-12)
    md = tab.markdown()
    assert md.splitlines()[0] == "| Measure pair | Topic-by-Topic | Overall | topics | undefined |"
    assert "| AP vs RBTO |" in md and len(tab.csv().splitlines()) == 4
    assert tab.to_dict()["rows"][1]["measure_b"] == "RBTO"
    other, = score_matrices(qrels, {k: runs[k] for k in list(runs)[:3]}, ["AP"], depth=8)
    with pytest.raises(WorkbenchError, match="different systems"):
        overall_tau(ms[0], other)
    with pytest.raises(WorkbenchError, match="at least two"):
        correlation_table(ms[:1])
    tw, = score_matrices(qrels, runs, ["Twist"], depth=2)        # undefined everywhere at depth 2
    with pytest.raises(WorkbenchError, match="no topic in common"):
        topic_by_topic_tau(ms[0], tw)


def _exact_key(v):
    """A comparable value: a Fraction as it is, a sympy value as the Fraction of its 60-digit decimal."""
    import sympy

    return v if isinstance(v, Fraction) else Fraction(str(sympy.N(v, 60)))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_topic_by_topic_counts_against_pairs_of_exact_values(seed):
    """Topic-by-topic pair counts against a loop over the pairs of exact values (and the sign-matrix path).

    Rational blocks of int64 numerators, of Python integers (RBTO at depth 70), irrational ones (nDCG),
    a negated matrix and an ir_measures (float) matrix; many systems and ties.
    """
    rng = random.Random(seed)
    qrels, runs = _collection(seed + 10, topics=5, systems=rng.randint(2, 12), depth=8)
    names = ["AP", "RR", "nDCG", "P@3", "RBTO", "ir:P@5"]
    ms = score_matrices(qrels, runs, names, depth=8)
    ms += score_matrices(qrels, runs, ["RBTO"], depth=70)
    ms.append(dataclasses.replace(ms[0], blocks=tuple(-b for b in ms[0].blocks)))
    assert ms[-2].blocks[0].coords.dtype == object         # Python integers
    for a, b in itertools.combinations(ms, 2):
        tbt = topic_by_topic_tau(a, b)
        assert [t for t, _ in tbt.per_topic] == list(a.topics)
        for t, got in tbt.per_topic:
            def vals(m):
                k = m.topic_index(t)
                return [_exact_key(m.blocks[k].value(i)) for i in range(len(m.systems))] if m.exact \
                    else m.floats[k].tolist()
            assert (got.P, got.Q, got.T, got.U, got.both) == brute(vals(a), vals(b)), (a.measure, b.measure, t)
            slow = tau_b_from_signs(a.topic_signs(t), b.topic_signs(t))
            assert got == slow


def test_pair_counts_in_several_slices_of_topics():
    """Counting topics a few at a time (a memory bound) gives the same counts as all at once and as the loop."""
    from workbench.experiments.correlation import _pair_counts_by_row

    rng = np.random.default_rng(5)
    big = 2 ** 62
    ka = rng.integers(-3, 3, size=(40, 9)) * (big // 4)      # differences would overflow int64
    kb = rng.integers(0, 3, size=(40, 9))
    whole = _pair_counts_by_row(ka, kb)
    assert _pair_counts_by_row(ka, kb, cells=50) == whole    # 50 // 36 pairs = 1 topic at a time
    assert whole == [brute(x.tolist(), y.tolist()) for x, y in zip(ka, kb)]
    assert _pair_counts_by_row(ka[:, :1], kb[:, :1]) == [(0, 0, 0, 0, 0)] * 40
