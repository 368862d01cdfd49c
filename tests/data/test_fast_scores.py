"""The integer fast paths (workbench.data.fast_scores) against the generic algebra evaluation, on random small blocks."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from workbench.data.fast_scores import FAST_FAMILIES, fast_evaluate
from workbench.errors import WorkbenchError
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic

NAMES = ["P", "P@3", "gP", "R", "gR", "F", "AP", "AP@4", "RBP(p=0.2)", "RBP(p=0.8)", "RBP(p=1/2)", "gRBP(p=1/3)",
         "gRBP(p=0.8)", "RBTO", "SBTO", "ERR", "ERR@5", "DCG", "DCG(discount=logb,b=10)", "DCG(discount=logb,b=2)@6",
         "Twist", "Twist(crossing=strict)", "Twist(w=1/3)", "nDCG@5"]


def _cases(seed=7, n=80):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        c = int(rng.integers(1, 3))
        gains = [Gains.default(c), Gains.parse("0,5,10") if c == 2 else Gains.parse("0,3"),
                 Gains.parse("0,1/2,3") if c == 2 else Gains.parse("0,1/3")][int(rng.integers(0, 3))]
        depth = int(rng.integers(1, 13))
        counts = tuple(int(x) for x in rng.integers(0, 5, size=c))
        topic = Topic(counts)
        rows = int(rng.integers(1, 9))
        if rng.random() < 0.5:  # any grades (may hold more documents of a grade than the topic has)
            runs = rng.integers(0, c + 1, size=(rows, depth)).astype(np.uint8)
        else:  # judged runs of the topic: its documents shuffled among non-relevant ones
            pool = np.array([g for g, n in enumerate(counts, start=1) for _ in range(n)] + [0] * depth, dtype=np.uint8)
            runs = np.array([rng.permutation(pool)[:depth] for _ in range(rows)], dtype=np.uint8)
        yield gains, topic, runs


def _generic(m, runs, gains, topic):
    try:
        return m.evaluate(runs, gains, topic)
    except (WorkbenchError, ZeroDivisionError, ValueError) as e:
        return e


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.slow
def test_fast_path_equals_generic(name):
    m = parse_measure(name)
    fast_seen = 0
    for gains, topic, runs in _cases():
        slow = _generic(m, runs, gains, topic)
        fast = fast_evaluate(m, runs, gains, topic) if m.family != "nDCG" else None
        if isinstance(slow, Exception):
            assert fast is None, (name, gains, topic, runs, slow)
            continue
        if fast is None:
            continue
        fast_seen += 1
        assert fast.values() == slow.values(), (name, gains, topic, runs.tolist())
        if m.family == "DCG":  # irrational: the very same block, so its float read-out is unchanged
            assert fast.den == slow.den and fast.basis == slow.basis and fast.coords.dtype == slow.coords.dtype
            assert fast.bound == slow.bound and fast.coords.tolist() == slow.coords.tolist()
    if m.family in FAST_FAMILIES:
        assert fast_seen >= 5, name


def test_evaluate_measure_uses_the_same_values_for_ndcg():
    import sympy

    from workbench.data.exact_scores import evaluate_measure

    m = parse_measure("nDCG(discount=logb,b=10)@10")
    for gains, topic, runs in _cases(3, 15):
        if topic.empty:
            continue
        a = evaluate_measure(m, runs, gains, topic)
        b = m.evaluate(runs, gains, topic)
        assert [sympy.simplify(x - y) for x, y in zip(a.values(), b.values())] == [0] * len(b.values())


def test_deep_runs_use_python_integers():
    """Depth 250 (the study's): bounds beyond int64 take Python integers, still equal to the generic values."""
    rng = np.random.default_rng(1)
    runs = rng.integers(0, 3, size=(3, 250)).astype(np.uint8)
    runs[:, 60:] = 0
    gains, topic = Gains.parse("0,5,10"), Topic((40, 40))
    for name in ("AP", "RBP(p=0.8)", "gRBP(p=0.8)", "RBTO", "SBTO", "ERR", "DCG(discount=logb,b=10)", "Twist"):
        m = parse_measure(name)
        assert fast_evaluate(m, runs, gains, topic).values() == m.evaluate(runs, gains, topic).values(), name


def test_outside_the_fast_forms_returns_none():
    gains = Gains.default(1)
    runs = np.array([[1, 0, 1]], dtype=np.uint8)
    assert fast_evaluate(parse_measure("nDCG"), runs, gains, Topic((2,))) is None        # evaluate_measure's
    assert fast_evaluate(parse_measure("AP"), runs, gains, Topic((0,))) is None            # undefined there
    assert fast_evaluate(parse_measure("Twist"), runs, gains, Topic((1,))) is None         # 2 ones, RB = 1
    assert fast_evaluate(parse_measure("P"), np.array([[2]], dtype=np.uint8), gains) is None  # grade > c
    assert fast_evaluate(parse_measure("ERR"), runs, Gains.parse("0,1/2")) is None        # 2**g irrational
    assert fast_evaluate(parse_measure("P"), runs, gains).values() == [Fraction(2, 3)]


def test_mean_order_from_system_balls_matches_pairwise_differences(monkeypatch):
    """sum_signs over blocks of different irrational scales (nDCG): the per-system balls decide as the pairs do."""
    import sympy

    import workbench.data.exact_scores as es

    m = parse_measure("nDCG(discount=logb,b=10)@8")
    rng = np.random.default_rng(11)
    gains = Gains.parse("0,5,10")
    for trial in range(4):
        blocks = []
        base = rng.integers(0, 3, size=(6, 8)).astype(np.uint8)
        base[4] = base[1]                                     # an exact tie in every topic
        for t in range(5):
            topic = Topic((int(rng.integers(1, 5)), int(rng.integers(1, 5))))
            runs = base if t % 2 else rng.integers(0, 3, size=(6, 8)).astype(np.uint8)
            runs = np.minimum(runs, 2)
            runs[4] = runs[1]
            blocks.append(es.evaluate_measure(m, runs, gains, topic))
        fast = es.sum_signs(blocks, "nDCG")
        with monkeypatch.context() as mp:
            mp.setattr(es, "_decide_by_system_balls", lambda sums, n, pairs, out, prec=128: pairs)
            slow = es.sum_signs(blocks, "nDCG")
        totals = [sum(sympy.N(b.value(i), 60) for b in blocks) for i in range(6)]
        oracle = [[0 if i == j or (i, j) in ((1, 4), (4, 1)) else (1 if totals[i] > totals[j] else -1)
                   for j in range(6)] for i in range(6)]
        assert fast.tolist() == slow.tolist() == oracle, trial


DEEP_NAMES = ["AP", "AP@100", "RR", "RR@70", "Succ", "RBP(p=0.8)", "RBP(p=1/2)", "gRBP(p=1/3)", "RBTO", "DCG",
              "DCG(discount=logb,b=10)", "ERR", "P@10", "R", "SBTO"]


def _same_value(fast, slow) -> bool:
    """Equal exact values: the same rational per basis element (sparse DCG blocks have another basis and den)."""
    def per_element(b):
        rows = []
        for row in b.coords.tolist():
            d: dict = {}
            for c, e in zip(row, b.basis):
                if c:
                    d[e] = d.get(e, 0) + Fraction(int(c), b.den)
            rows.append(d)
        return rows, b.scale
    return per_element(fast) == per_element(slow)


def _deep_cases(seed=11, n=14):
    """Deep blocks of real-run shape: depth 65..3000 (past SPARSE_DEPTH), a few relevant documents per row."""
    rng = np.random.default_rng(seed)
    for k in range(n):
        c = int(rng.integers(1, 3))
        gains = [Gains.default(c), Gains.parse("0,5,10") if c == 2 else Gains.parse("0,3"),
                 Gains.parse("0,1/2,3") if c == 2 else Gains.parse("0,1/3")][k % 3]
        depth = int(rng.integers(65, 3001)) if k % 2 else int(rng.integers(65, 400))
        counts = tuple(int(x) for x in rng.integers(1, 6, size=c))
        rows = int(rng.integers(1, 4))
        runs = np.zeros((rows, depth), dtype=np.uint8)
        for r in range(rows):
            pos = rng.choice(depth, size=int(rng.integers(0, min(sum(counts), 6) + 1)), replace=False)
            runs[r, pos] = rng.integers(1, c + 1, size=len(pos))
        if k == 0:
            runs[0, -1] = 1  # a relevant document at the last position
        yield gains, Topic(counts), runs


@pytest.mark.parametrize("name", DEEP_NAMES)
@pytest.mark.slow
def test_sparse_deep_paths_equal_generic(name):
    """The sparse forms of deep blocks (depth > SPARSE_DEPTH) give the generic evaluation's exact values."""
    from workbench.data.fast_scores import SPARSE_DEPTH

    m = parse_measure(name)
    seen = 0
    for gains, topic, runs in _deep_cases():
        assert runs.shape[1] > SPARSE_DEPTH
        if name == "ERR" and any(g.denominator != 1 for g in gains.values):
            continue
        fast = fast_evaluate(m, runs, gains, topic)
        assert fast is not None, (name, gains)
        slow = m.evaluate(runs, gains, topic)
        assert _same_value(fast, slow), (name, str(gains), topic, [np.flatnonzero(r).tolist() for r in runs])
        seen += 1
    assert seen >= 8


def test_deep_ranking_scores_in_bounded_memory():
    """A 200,000-long ranking with 8 relevant documents: AP, RR, nDCG, P@10, RBP, RBTO, ERR in linear memory.

    Before: AP over lcm(1..200000) (3.9 GB), nDCG's 200,000 x 199,489 object array (MemoryError), RR 190 s.
    """
    import tracemalloc

    from workbench.data.exact_scores import evaluate_rankings

    N = 200_000
    rng = np.random.default_rng(5)
    runs = np.zeros((2, N), dtype=np.uint8)
    for r in range(2):
        runs[r, rng.choice(N, size=8, replace=False)] = 1
    runs[0, N - 1] = 1
    topic, gains = Topic((8,)), Gains.default(1)
    tracemalloc.start()
    try:
        for name in ("AP", "RR", "nDCG", "P@10", "RBP(p=0.8)", "RBTO", "ERR"):
            block = evaluate_rankings(parse_measure(name), runs, [N, N], gains, topic)
            assert block.n == 2
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2 ** 20, peak           # the 2 x 200,000 grades and integers of ~N digits, no N^2 table
    ap = evaluate_rankings(parse_measure("AP"), runs, [N, N], gains, topic)
    pos = np.flatnonzero(runs[1]) + 1
    assert ap.value(1) == sum(Fraction(k + 1, int(p)) for k, p in enumerate(pos)) / 8


def test_basis_balls_hold_the_logarithm_ratios():
    """The balls of the mean orders (built with arb.log) hold ln b / ln m to 60 digits, at every precision used."""
    import flint
    import sympy

    from workbench.core.exact import log_ratio
    from workbench.data.exact_scores import _basis_ball

    old = flint.ctx.prec
    try:
        for prec in (128, 512):
            flint.ctx.prec = prec
            for base, m in ((2, 3), (2, 1001), (10, 11), (3, 2), (7, 999983)):
                _, elem = log_ratio(base, m)
                ball = _basis_ball(elem, prec)
                exact = sympy.N(sympy.log(base) / sympy.log(m), 60)
                assert abs(ball.mid() - flint.arb(str(exact))) <= ball.rad() + flint.arb(10) ** -55, (base, m)
                assert ball.rad() < flint.arb(2) ** (20 - prec)
            assert _basis_ball(("one",), prec) == 1
    finally:
        flint.ctx.prec = old
