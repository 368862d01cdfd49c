"""Thresholds in a parameter that enters as a ratio of polynomials (GP in p, INSQ and INST in T).

Every region is checked two ways that share nothing with the threshold code:

* :func:`workbench.scale.classify.classify` (exact scores of every run) at
  a rational inside every region, at rationals just inside both ends of
  it and at every rational endpoint;
* a brute-force sympy oracle written here: every run's sympy expression
  (ratio guards checked not to vanish in the domain, then dropped), every
  cover difference cancelled, the real roots in the domain of every
  numerator and denominator (and, for total orders, of the numerators of
  ``d_i - d_0``) found by sympy's ``real_roots``, and each region's verdict
  from the exact signs of all cover differences -- the region lists must
  coincide.

Geometric precision ``GP(p) = sum_i p^(i-1) [r_i >= 1] / sum_i p^(i-1)``
(i over the depth; RBP normalised by its largest value) is defined here as
a family of its own.  Refusals: a logarithm, a case split on the parameter,
an irrational zero of a ratio's denominator and a pole are refused; a
rational zero of a ratio's denominator is a point region decided by exact
evaluation.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from workbench.errors import NotExpressibleError
from workbench.measures.families import Family, register_family
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.measures.params import P_PERSISTENCE
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.scale.thresholds import thresholds
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space

BEST = {"total": "interval", "partial": "strict"}


def _def_gp(A, P, topic, k):
    p = P["p"]
    weight, hits, norm = A.const(1), A.const(0), A.const(0)
    for i in range(A.depth):
        hits = hits + weight * A.rel(i)
        norm = norm + weight
        weight = weight * p
    return A.ratio(hits, norm, 0)


def _def_guarded(A, P, topic, k):
    """``sum_i p^(i-1) [r_i >= 1] (2p - 1) / (2p - 1)``, 0 where ``2p - 1 = 0`` (a removable guard)."""
    p = P["p"]
    y = 2 * p - 1
    weight, hits = A.const(1), A.const(0)
    for i in range(A.depth):
        hits = hits + weight * A.rel(i)
        weight = weight * p
    return A.ratio(hits * y, y, 0)


def _def_guarded_pole(A, P, topic, k):
    """``sum_i p^(i-1) [r_i >= 1] / (2p - 1)``, 0 at ``p = 1/2``: the denominator changes sign at the guard."""
    p = P["p"]
    weight, hits = A.const(1), A.const(0)
    for i in range(A.depth):
        hits = hits + weight * A.rel(i)
        weight = weight * p
    return A.ratio(hits, 2 * p - 1, 0)


def _def_irrational_guard(A, P, topic, k):
    p = P["p"]
    y = p * p + p - 1
    return A.ratio(A.rel(0) * y, y, 0)


def _def_pole(A, P, topic, k):
    """A plain division (no guard) by ``2p - 1``: undefined at ``p = 1/2``."""
    p = P["p"]
    return A.rel(0) / (2 * p - 1)


def _def_log(A, P, topic, k):
    p = P["p"]
    return A.rel(0) * p + A.rel(A.depth - 1) * A.log_ratio(2, 3)


def _def_case_split(A, P, topic, k):
    p = P["p"]
    return A.where(A.compare0(2 * p - 1, ">"), A.rel(0) * p, A.rel(0) * p * p)


for _name, _definition in [("gp.py:GP", _def_gp), ("guarded.py:G", _def_guarded),
                           ("guarded_pole.py:G", _def_guarded_pole),
                           ("irrational.py:G", _def_irrational_guard), ("pole.py:P", _def_pole),
                           ("log.py:L", _def_log), ("split.py:S", _def_case_split)]:
    register_family(Family(_name, (P_PERSISTENCE,), False, "test family", "this test", _definition))

GP = "gp.py:GP"


def measure_of(name: str):
    return Measure(name) if ":" in name else parse_measure(name)


# ---------------------------------------------------------------------------
# exact reals


def to_fraction(x) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def rational_inside(low, high):
    """A rational strictly inside ``(low, high)`` (``high`` may be ``oo``), checked exactly."""
    if high == sympy.oo:
        q = sympy.floor(sympy.N(low, 30)) + 1 if low > 0 else sympy.Integer(1)
    else:
        mid = sympy.Rational(str(sympy.N((low + high) / 2, 60)))
        q = mid
    assert low < q and (high == sympy.oo or q < high)
    return sympy.Rational(q)


def rational_near(x, side: int, room):
    """A rational within ``room`` of ``x``, strictly on ``side`` (-1 below, +1 above)."""
    q = sympy.Rational(str(sympy.N(x, 60))) + side * room / 2
    assert side * (q - x) > 0
    return q


def contains(region, x) -> bool:
    above = x > region.low or (region.low_closed and x == region.low)
    below = x < region.high or (region.high_closed and x == region.high)
    return bool(above and below)


# ---------------------------------------------------------------------------
# (a) classify at rationals around every region


def classify_at(name, param, order, space, gains, q) -> str:
    m = measure_of(name).with_params(**{param: Fraction(str(q))})
    return classify(m, get_order(order), space, gains).verdict


def check_against_classify(table, name, param, order, space, gains):
    regions = table.regions
    assert regions[0].low == 0 and not regions[0].low_closed
    for a, b in zip(regions, regions[1:]):
        assert a.high == b.low and a.high_closed != b.low_closed
        assert a.verdict != b.verdict
    for r in regions:
        assert all(ch.verdict == r.verdict for ch in r.certificate)
        points = []
        if not r.is_point:
            points.append(rational_inside(r.low, r.high))
            width = sympy.Rational(1, 2) if r.high == sympy.oo else r.high - r.low
            room = min(sympy.Rational(1, 10**12), width / 4)
            points.append(rational_near(r.low, +1, room))
            if r.high != sympy.oo:
                points.append(rational_near(r.high, -1, room))
            else:
                base = sympy.floor(sympy.N(r.low, 60)) + 1
                points += [base + 7, 10 * base + 1000]
        for end in (r.low, r.high):
            if end.is_Rational and end > 0 and end != regions[-1].high:
                points.append(end)
        for q in points:
            (holder,) = [x for x in regions if contains(x, q)]
            assert classify_at(name, param, order, space, gains, q) == holder.verdict, (r.label(), q)
        if r.verdict == BEST[get_order(order).kind]:
            assert r.witness is None
        else:
            assert r.witness is not None


# ---------------------------------------------------------------------------
# (b) the brute-force sympy oracle


def oracle_regions(name, param, order, space, gains, high):
    """``[(low, high, low_closed, high_closed, verdict)]`` from sympy alone (merged where equal)."""
    x = sympy.Symbol(param, positive=True)
    m = measure_of(name)
    runs = space.array()
    in_domain = (lambda r: r > 0 and (high is None or r < high))

    def value(i):
        expr = m.expression(tuple(int(v) for v in runs[i]), gains, space.topic, free=(param,), keep_guards=True)
        for pw in expr.atoms(sympy.Piecewise):
            (_, cond), (_, other) = pw.args
            assert isinstance(cond, sympy.Eq) and other == sympy.true
            y_num = sympy.fraction(sympy.cancel(cond.lhs - cond.rhs))[0]
            assert not [r for r in sympy.real_roots(sympy.Poly(y_num, x)) if in_domain(r)]
        plain = expr.replace(lambda e: isinstance(e, sympy.Piecewise), lambda e: e.args[1].expr)
        return sympy.cancel(sympy.together(plain))

    values = [value(i) for i in range(len(runs))]
    cov = get_order(order).covers(space, gains)
    diffs = [sympy.cancel(values[up] - values[lo]) for lo, up in cov.pairs()]
    ties = [sympy.cancel(values[up] - values[lo]) for lo, up in zip(cov.tie_lower.tolist(), cov.tie_upper.tolist())]
    total = get_order(order).kind == "total"
    gaps = [sympy.cancel(d - diffs[0]) for d in diffs] if total and diffs else []
    roots = set()
    for e in [*diffs, *ties, *gaps]:
        for part in sympy.fraction(e):
            poly = sympy.Poly(part, x)
            if poly.degree() > 0:
                roots |= {r for r in sympy.real_roots(poly) if in_domain(r)}
    points = sorted(roots, key=lambda r: sympy.N(r, 60))
    for a, b in zip(points, points[1:]):
        assert sympy.N(b - a, 60) > 0  # distinct

    def sign(e, at):
        v = e.subs(x, at)
        if at.is_Rational:
            return sympy.sign(v)
        num, den = sympy.fraction(e)
        minimal = sympy.Poly(sympy.minimal_polynomial(at, x), x)
        if sympy.Poly(num, x).rem(minimal).is_zero:
            return 0
        val = sympy.N(v, 60)
        assert abs(val) > 1e-40
        return 1 if val > 0 else -1

    def verdict(at):
        s = [sign(d, at) for d in diffs]
        ts = [sign(t, at) for t in ties]
        if any(v < 0 for v in s):
            return "violated"
        if any(v == 0 for v in s) or any(v != 0 for v in ts):
            return "weak"
        if not total:
            return "strict"
        return "interval" if all(sign(g, at) == 0 for g in gaps) else "ordinal"

    edges = [sympy.Integer(0), *points, sympy.oo if high is None else sympy.Integer(high)]
    pieces = []
    for i in range(len(edges) - 1):
        lo, hi = edges[i], edges[i + 1]
        pieces.append([lo, hi, False, False, verdict(rational_inside(lo, hi))])
        if i + 1 < len(edges) - 1:
            pieces.append([hi, hi, True, True, verdict(hi)])
    merged = []
    for piece in pieces:
        if merged and merged[-1][4] == piece[4]:
            merged[-1][1], merged[-1][3] = piece[1], piece[3]
        else:
            merged.append(piece)
    return merged


def same_real(a, b) -> bool:
    if a == b:
        return True
    if sympy.oo in (a, b):
        return False
    return abs(sympy.N(a - b, 60)) < sympy.Float("1e-45")


def check_against_oracle(table, name, param, order, space, gains, high):
    expected = oracle_regions(name, param, order, space, gains, high)
    got = [(r.low, r.high, r.low_closed, r.high_closed, r.verdict) for r in table.regions]
    assert len(got) == len(expected), ([r.label() for r in table.regions], expected)
    for g, e in zip(got, expected):
        assert same_real(g[0], e[0]) and same_real(g[1], e[1]) and tuple(g[2:]) == tuple(e[2:]), (g, e)


CASES = [
    # (measure, parameter, upper end of the domain (None: oo), order, depth, grades[, topic])
    *[(GP, "p", 1, "rank", d, 1) for d in range(2, 6)],
    *[(GP, "p", 1, "dominance", d, 1) for d in range(2, 5)],
    (GP, "p", 1, "rank", 3, 2),
    *[("INSQ", "T", None, "rank", d, 1) for d in range(2, 5)],
    ("INSQ", "T", None, "dominance", 3, 1),
    ("INSQ", "T", None, "rank", 2, 2),
    *[("INST", "T", None, "rank", d, 1) for d in range(2, 5)],
    ("INST", "T", None, "dominance", 3, 1),
    ("INST", "T", None, "rank", 2, 2),
    (GP, "p", 1, "rank", 5, 1, Topic((2,))),
    ("INSQ", "T", None, "rank", 4, 1, Topic((2,))),
]


@pytest.mark.parametrize("name,param,high,order,depth,grades,topic", [c + (None,) * (7 - len(c)) for c in CASES])
@pytest.mark.slow
def test_rational_thresholds_agree_with_classify_and_the_sympy_oracle(name, param, high, order, depth, grades, topic):
    space = rank_space(depth, grades, topic)
    gains = Gains.default(grades)
    table = thresholds(measure_of(name), param, get_order(order), space, gains)
    assert table.domain == ("(0, 1)" if high == 1 else "(0, oo)")
    check_against_classify(table, name, param, order, space, gains)
    check_against_oracle(table, name, param, order, space, gains, high)


def test_gp_at_depth_3_by_hand():
    """GP at depth 3 = RBP / (1 - p^3): RBP's regions (same numerators, a positive denominator).

    Covers of the rank order on binary depth 3: adding a document at rank 3
    gains p^2/s, moving one up from rank i+1 to i gains (p^(i-1) - p^i)/s,
    s = 1 + p + p^2.  Equal increments: p^2 = 1 - p = p - p^2 at p = 1/2;
    011 vs 100: p + p^2 - 1 > 0 beyond the root of p^2 + p - 1.
    """
    table = thresholds(Measure(GP), "p", get_order("rank"), rank_space(3))
    root = sympy.CRootOf(sympy.Symbol("p") ** 2 + sympy.Symbol("p") - 1, 1)
    assert [r.verdict for r in table.regions] == ["ordinal", "interval", "ordinal", "weak", "violated"]
    assert table.regions[1].low == sympy.Rational(1, 2) and table.regions[1].is_point
    assert same_real(table.regions[3].low, root) and table.regions[3].is_point


def test_a_rational_zero_of_a_guard_is_a_point_decided_by_exact_evaluation():
    """At p = 1/2 every run scores the guard's 0: all covers tie (weak); elsewhere the generic branch."""
    space = rank_space(2)
    gains = Gains.default(1)
    table = thresholds(Measure("guarded.py:G"), "p", get_order("rank"), space, gains)
    half = [r for r in table.regions if r.is_point and r.low == sympy.Rational(1, 2)]
    assert len(half) == 1 and half[0].verdict == "weak"
    assert classify_at("guarded.py:G", "p", "rank", space, gains, Fraction(1, 2)) == "weak"
    check_against_classify(table, "guarded.py:G", "p", "rank", space, gains)


@pytest.mark.parametrize("depth", [2, 3])
def test_a_pole_at_a_rational_guard_flips_every_sign(depth):
    """Below p = 1/2 the denominator 2p - 1 is negative: more relevance scores lower (violated).

    Above it the measure is a positive multiple of a polynomial in p, and at
    1/2 every run scores the guard's 0 (weak).
    """
    space, gains = rank_space(depth), Gains.default(1)
    table = thresholds(Measure("guarded_pole.py:G"), "p", get_order("rank"), space, gains)
    assert table.regions[0].verdict == "violated" and table.regions[0].high == sympy.Rational(1, 2)
    assert table.regions[1].is_point and table.regions[1].verdict == "weak"
    assert table.verdict_at(Fraction(11, 20)) != "violated"
    check_against_classify(table, "guarded_pole.py:G", "p", "rank", space, gains)


@pytest.mark.parametrize("name,needle", [
    ("log.py:L", "not rational (log("),
    ("split.py:S", "not rational (a case split"),
    ("irrational.py:G", "vanishes at the irrational p=root(p**2 + p - 1, 0.618034)"),
    ("pole.py:P", "has a pole at p=1/2"),
])
def test_refusals_name_the_reason(name, needle):
    with pytest.raises(NotExpressibleError) as e:
        thresholds(Measure(name), "p", get_order("rank"), rank_space(2))
    assert needle in str(e.value), str(e.value)


def test_an_exact_phase_beyond_the_time_budget_is_refused_once_the_differences_are_counted(monkeypatch):
    """INST's differences depend on the whole run: one per cover (63 at depth 6, degree bound 40 in T)."""
    from workbench.errors import TooLargeError

    monkeypatch.setenv("WORKBENCH_TIME_LIMIT", "0.5")
    with pytest.raises(TooLargeError) as e:
        thresholds(parse_measure("INST"), "T", get_order("rank"), rank_space(6))
    assert "63 distinct cover differences of degree bound 40 in T" in str(e.value), str(e.value)
    monkeypatch.setenv("WORKBENCH_TIME_LIMIT", "60")
    # GP at depth 6: adding a document at rank 6 (p^5 / s) or moving one up from rank i+1 to i
    # (p^(i-1) (1 - p) / s, i = 1..5): 6 distinct differences, well within the budget
    assert thresholds(Measure(GP), "p", get_order("rank"), rank_space(6)).groups == 6
