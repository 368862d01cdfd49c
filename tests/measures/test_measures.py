"""Measures: three algebras agree, and every family matches a slow oracle.

The oracles below are written directly from docs/reference/measures.md (and Ferrante
et al. 2020, sec. 4.1; Ferrante et al. 2019, eq. 2-3 and 5-6) with Fraction in plain loops; they share no
code with workbench.measures.measure.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import (
    BadParameterError,
    BadRunError,
    NeedsTopicError,
    NotExpressibleError,
    WorkbenchError,
)
from workbench.measures.measure import FAMILIES, Measure
from workbench.space.runs import Gains, Topic

# ---------------------------------------------------------------------------
# slow oracles (docs/reference/measures.md), one run at a time


def o_rel(r):
    return [1 if x >= 1 else 0 for x in r]


def o_P(r, g, t, k):
    return Fraction(sum(o_rel(r[:k])), k)


def o_gP(r, g, t, k):
    return sum((g(x) / g.gmax for x in r[:k]), Fraction(0)) / k


def o_R(r, g, t, k):
    return Fraction(sum(o_rel(r[:k])), sum(t.counts))


def o_gR(r, g, t, k):
    rbg = sum((n * g(j + 1) for j, n in enumerate(t.counts)), Fraction(0))
    return sum((g(x) / g.gmax for x in r[:k]), Fraction(0)) / (rbg / g.gmax)


def o_F(r, g, t, k):
    # harmonic mean of P@k and R@k
    P, R = o_P(r, g, t, k), o_R(r, g, t, k)
    return Fraction(0) if P + R == 0 else 2 * P * R / (P + R)


def o_AP(r, g, t, k):
    rel = o_rel(r[:k])
    total = Fraction(0)
    for i in range(1, len(rel) + 1):
        if rel[i - 1]:
            total += Fraction(sum(rel[:i]), i)
    return total / sum(t.counts)


def o_RBP(p):
    def f(r, g, t, k):
        return (1 - p) * sum(p ** (i - 1) * o_rel(r[:k])[i - 1] for i in range(1, len(r[:k]) + 1))
    return f


def o_gRBP(p):
    def f(r, g, t, k):
        return (1 - p) / g.gmax * sum(p ** (i - 1) * g(x) for i, x in enumerate(r[:k], start=1))
    return f


def o_DCG_logb(b):
    def f(r, g, t, k):
        return sum(
            sympy.Rational(g(x).numerator, g(x).denominator) / sympy.Max(1, sympy.log(i, b))
            for i, x in enumerate(r[:k], start=1)
        )
    return f


def o_DCG_log2p1(r, g, t, k):
    return sum(
        sympy.Rational(g(x).numerator, g(x).denominator) / sympy.log(i + 1, 2) for i, x in enumerate(r[:k], start=1)
    )


def o_ideal(t, depth):
    docs = []
    for grade in range(len(t.counts), 0, -1):
        docs += [grade] * t.counts[grade - 1]
    docs = (docs + [0] * depth)[:depth]
    return tuple(docs)


def o_nDCG(dcg):
    def f(r, g, t, k):
        return dcg(r, g, t, k) / dcg(o_ideal(t, k), g, t, k)
    return f


def o_ERR(r, g, t, k):
    total = Fraction(0)
    x = [Fraction(2 ** int(g(v)) - 1, 2 ** int(g.gmax)) for v in r[:k]]
    for i in range(1, len(x) + 1):
        prod = Fraction(1)
        for j in range(1, i):
            prod *= 1 - x[j - 1]
        total += Fraction(1, i) * x[i - 1] * prod
    return total


def o_RR(r, g, t, k):
    for i, v in enumerate(r[:k], start=1):
        if v >= 1:
            return Fraction(1, i)
    return Fraction(0)


def o_Succ(r, g, t, k):
    return Fraction(int(any(v >= 1 for v in r[:k])))


def o_SBTO(r, g, t, k):
    s = sorted(r[:k], reverse=True)
    N = len(s)
    return Fraction(sum(math.comb(s[j - 1] + N - j, N - j + 1) for j in range(1, N + 1)))


def o_RBTO(r, g, t, k):
    s = r[:k]
    N, c = len(s), g.grades
    return Fraction(sum(s[i - 1] * (c + 1) ** (N - i) for i in range(1, N + 1)))


# (measure name, params, oracle)
CASES = [
    ("P", {}, o_P),
    ("gP", {}, o_gP),
    ("R", {}, o_R),
    ("gR", {}, o_gR),
    ("F", {}, o_F),
    ("AP", {}, o_AP),
    ("RBP", {"p": Fraction(1, 2)}, o_RBP(Fraction(1, 2))),
    ("RBP", {"p": Fraction(4, 5)}, o_RBP(Fraction(4, 5))),
    ("RBP", {"p": Fraction(1, 3)}, o_RBP(Fraction(1, 3))),
    ("gRBP", {"p": Fraction(1, 3)}, o_gRBP(Fraction(1, 3))),
    ("gRBP", {"p": Fraction(9, 10)}, o_gRBP(Fraction(9, 10))),
    ("DCG", {}, o_DCG_log2p1),
    ("DCG", {"discount": "logb", "b": 2}, o_DCG_logb(2)),
    ("DCG", {"discount": "logb", "b": 3}, o_DCG_logb(3)),
    ("nDCG", {}, o_nDCG(o_DCG_log2p1)),
    ("nDCG", {"discount": "logb", "b": 2}, o_nDCG(o_DCG_logb(2))),
    ("ERR", {}, o_ERR),
    ("RR", {}, o_RR),
    ("Succ", {}, o_Succ),
    ("SBTO", {}, o_SBTO),
    ("RBTO", {}, o_RBTO),
]

# (gains, topic, max depth)
SPACES = [
    (Gains.default(1), Topic((3,)), 5),
    (Gains.default(1), Topic((1,)), 4),
    (Gains.default(2), Topic((2, 1)), 4),
    (Gains.parse("0,1,3"), Topic((1, 2)), 3),
]


def space(c, depth):
    return list(itertools.product(range(c + 1), repeat=depth))


def as_exact(v):
    """Fraction if rational, else a sympy expression."""
    if isinstance(v, Fraction):
        return v
    v = sympy.sympify(v)
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    return v


def same(a, b) -> bool:
    a, b = as_exact(a), as_exact(b)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a == b
    d = sympy.sympify(a) - sympy.sympify(b)
    if sympy.simplify(sympy.expand_log(d, force=True)) == 0:
        return True
    # logs of different integers: certify |d| < 10^-60 (the exact forms differ only in writing)
    return abs(sympy.N(d, 80)) < sympy.Float("1e-60")


def z3_value(term) -> Fraction:
    t = z3.simplify(term)
    assert z3.is_rational_value(t), t
    return t.as_fraction()


def _all_cases():
    for name, params, oracle in CASES:
        for gains, topic, maxdepth in SPACES:
            if name == "ERR" and any(g.denominator != 1 for g in gains.values):
                continue
            for cutoff in (None, 2, 7):
                yield pytest.param(name, params, oracle, gains, topic, maxdepth, cutoff,
                                   id=f"{name}{params}-g{gains}-t{topic}-@{cutoff}")


@pytest.mark.parametrize("name,params,oracle,gains,topic,maxdepth,cutoff", list(_all_cases()))
@pytest.mark.slow
def test_oracle_and_three_algebras(name, params, oracle, gains, topic, maxdepth, cutoff):
    m = Measure(name, params, cutoff)
    for depth in range(1, maxdepth + 1):
        runs = space(gains.grades, depth)
        block = m.evaluate(np.array(runs, dtype=np.uint8), gains, topic)
        k = cutoff if cutoff is not None else depth
        for idx, run in enumerate(runs):
            expected = oracle(run, gains, topic, k)
            got = block.value(idx)
            assert same(got, expected), (str(m), run, got, expected)
            assert same(m.value(run, gains, topic), got)
            assert same(m.expression(run, gains, topic), got)
            if depth <= 3 or idx % 7 == 0:
                try:
                    term = m.z3_term(run, gains, topic)
                except NotExpressibleError:
                    assert not isinstance(as_exact(got), Fraction) or not FAMILIES[name].z3_ok, (str(m), run)
                    continue
                assert z3_value(term) == as_exact(got), (str(m), run)


@pytest.mark.parametrize("name,params,oracle", [(n, p, o) for n, p, o in CASES if FAMILIES[n].z3_ok])
def test_z3_symbolic_grades(name, params, oracle):
    """A term over z3 Int grades, evaluated at every run, gives the exact value."""
    for gains, topic, _ in SPACES[:3]:
        if name == "ERR" and any(g.denominator != 1 for g in gains.values):
            continue
        depth = 3
        xs = [z3.Int(f"x{i}") for i in range(depth)]
        for cutoff in (None, 2):
            m = Measure(name, params, cutoff)
            term = m.z3_term(xs, gains, topic)
            for run in space(gains.grades, depth):
                sub = z3.substitute(term, *[(x, z3.IntVal(v)) for x, v in zip(xs, run)])
                assert z3_value(sub) == m.value(run, gains, topic), (str(m), run)


def test_z3_logarithm_not_expressible():
    with pytest.raises(NotExpressibleError, match="DCG"):
        Measure("DCG").z3_term([1, 1, 1], Gains.default())
    # DCG at depth 1 has no logarithm and is expressible
    assert z3_value(Measure("DCG").z3_term([1], Gains.default())) == 1


@pytest.mark.parametrize("name", ["RBP", "gRBP"])
def test_free_parameter(name):
    p = sympy.Symbol("p", positive=True)
    for gains in (Gains.default(1), Gains.default(2)):
        for run in space(gains.grades, 4):
            expr = Measure(name).expression(run, gains, free=("p",))
            assert expr.free_symbols <= {p}
            for q in (Fraction(1, 2), Fraction(4, 5), Fraction(1, 7)):
                at = expr.subs(p, sympy.Rational(q.numerator, q.denominator))
                assert as_exact(at) == Measure(name, {"p": q}).value(run, gains)
            # and the same free parameter in z3
            P = z3.Real("p")
            term = Measure(name).z3_term(run, gains, free=("p",), params={"p": P})
            at = z3.substitute(term, (P, z3.RealVal("2/3")))
            assert z3_value(at) == Measure(name, {"p": Fraction(2, 3)}).value(run, gains)


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    c=st.integers(1, 3),
    depth=st.integers(1, 9),
    num=st.integers(1, 99),
)
@pytest.mark.slow
def test_hypothesis_three_algebras_agree_with_oracles(data, c, depth, num):
    gains = Gains.default(c)
    p = Fraction(num, 100)
    runs = data.draw(st.lists(st.lists(st.integers(0, c), min_size=depth, max_size=depth), min_size=1, max_size=8))
    counts = tuple(data.draw(st.integers(0, 3)) for _ in range(c))
    if sum(counts) == 0:
        counts = (1,) + counts[1:]
    topic = Topic(counts)
    cutoff = data.draw(st.one_of(st.none(), st.integers(1, 12)))
    arr = np.array(runs, dtype=np.uint8)
    cases = [("RBP", {"p": p}, o_RBP(p)), ("gRBP", {"p": p}, o_gRBP(p))] + [
        (n, pr, o) for n, pr, o in CASES if not pr and n not in ("DCG", "nDCG")
    ]
    for name, params, oracle in cases:
        m = Measure(name, params, cutoff)
        block = m.evaluate(arr, gains, topic)
        k = cutoff if cutoff is not None else depth
        for i, run in enumerate(runs):
            value = block.value(i)
            assert value == oracle(tuple(run), gains, topic, k), (str(m), run)
            # the three algebras agree: exact block, sympy expression, z3 term
            assert as_exact(m.expression(tuple(run), gains, topic)) == value, (str(m), run)
            assert z3_value(m.z3_term(tuple(run), gains, topic)) == value, (str(m), run)


def test_values_by_hand():
    """A few values worked out on paper."""
    g1, g2 = Gains.default(1), Gains.default(2)
    assert Measure("AP").value((1, 0, 1), g1, Topic((3,))) == Fraction(1, 3) * (1 + Fraction(2, 3))
    assert Measure("ERR").value((0, 2, 1), g2) == Fraction(1, 2) * Fraction(3, 4) + Fraction(1, 3) * Fraction(1, 4) * Fraction(1, 4)
    assert Measure("P", cutoff=10).value((1, 1), g1) == Fraction(1, 5)
    assert Measure("SBTO").value((0, 2, 1), g2) == math.comb(2 + 2, 3) + math.comb(1 + 1, 2)
    assert Measure("RBTO").value((2, 0, 1), g2) == 2 * 9 + 1
    # Ferrante et al. (2020), sec. 4.3 example: DCG_2(r) = 1 + 2/log2 3 + 1/log2 5 for r = (1, 0, 2, 0, 1)
    v = Measure("DCG", {"discount": "logb", "b": 2}).value((1, 0, 2, 0, 1), g2)
    assert same(v, 1 + 2 * sympy.log(2) / sympy.log(3) + sympy.log(2) / sympy.log(5))
    # RBP is binary, gRBP graded
    assert Measure("RBP", {"p": "1/2"}).value((2,), g2) == Fraction(1, 2)
    assert Measure("gRBP", {"p": "1/2"}).value((1,), g2) == Fraction(1, 4)


def test_large_depth_exact():
    """Depth 40 with p = 4/5 overflows int64 denominators: values stay exact."""
    runs = np.ones((3, 40), dtype=np.uint8)
    runs[1, ::2] = 0
    m = Measure("RBP", {"p": "4/5"})
    vals = m.evaluate(runs, Gains.default()).values()
    assert vals[0] == 1 - Fraction(4, 5) ** 40
    assert vals[1] == o_RBP(Fraction(4, 5))(tuple(runs[1]), Gains.default(), None, 40)


# ---------------------------------------------------------------------------
# bad inputs


def test_needs_topic():
    for name in ("R", "gR", "F", "AP", "nDCG"):
        with pytest.raises(NeedsTopicError, match="--topic") as e:
            Measure(name).value((1, 0), Gains.default())
        assert name in str(e.value)


def test_topic_grades_mismatch():
    with pytest.raises(WorkbenchError, match="2,1"):
        Measure("AP").value((1, 0), Gains.default(1), Topic((2, 1)))


@pytest.mark.parametrize("p, shown", [(1, "1"), (0, "0"), (Fraction(-1, 2), "-0.5"), ("1.5", "1.5"), ("abc", "abc")])
def test_p_outside_domain(p, shown):
    with pytest.raises(BadParameterError) as e:
        Measure("RBP", {"p": p})
    assert f"p={shown} " in str(e.value) and "(0, 1)" in str(e.value)


def test_bad_params_and_runs():
    with pytest.raises(BadParameterError, match="q"):
        Measure("RBP", {"q": "1/2"})
    with pytest.raises(BadParameterError, match="b=1"):
        Measure("DCG", {"discount": "logb", "b": 1})
    with pytest.raises(BadParameterError, match="b=10"):
        Measure("DCG", {"b": 10})  # b without discount=logb
    with pytest.raises(BadParameterError, match="log10"):
        Measure("DCG", {"discount": "log10"})
    with pytest.raises(BadParameterError, match="@0"):
        Measure("P", cutoff=0)
    with pytest.raises(BadRunError, match="grade 4 outside 0..2"):
        Measure("P").value((0, 4), Gains.default(2))
    with pytest.raises(BadRunError, match=r"unjudged positions \(\?\): P needs complete judgments"):
        Measure("P").value((0, 3), Gains.default(2))  # 3 = c + 1 is the unjudged code
    with pytest.raises(NotExpressibleError, match="1/2"):
        Measure("ERR").value((1, 0), Gains.parse("0,1/2,1"))
    with pytest.raises(BadParameterError, match="cannot be free"):
        Measure("DCG").expression((1,), Gains.default(), free=("b",))


def test_immutable_and_hashable():
    m = Measure("RBP", {"p": "0.5"}, 10)
    with pytest.raises(Exception):
        m.cutoff = 3
    assert m == Measure("RBP", (("p", Fraction(1, 2)),), 10)
    assert len({m, Measure("RBP", {"p": Fraction(1, 2)}, 10)}) == 1
