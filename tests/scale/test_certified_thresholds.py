"""Certified numerics where exact algebra ends: thresholds of measures transcendental in their parameter.

Every expected value is derived here independently of the code under test:
mpmath at 50 digits for the values of the power-law discount and of the
exponential-decay precision, the rank order on binary runs as the
lexicographic order (checked against the order module on every pair), and,
for the exponential-decay measure, the exact RBP thresholds (a separate
code path: rational functions, algebraic numbers) mapped through
``p = e^-s``.
"""
from __future__ import annotations

import functools
import itertools
import re
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy

from workbench.core.algebraic import from_crootof
from workbench.core.certified import RealRoot, isolate_roots, sign
from workbench.errors import BadParameterError, UndecidedComparisonError
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.scale.thresholds import thresholds
from workbench.space.spaces import rank_space

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DP = f"{EXAMPLES / 'power_law.py'}:dp"
EDP = f"{EXAMPLES / 'exp_decay.py'}:edp"
ROOT_OF = re.compile(r"^root_of\((?P<expr>.*), \[(?P<lo>[-0-9.]+), (?P<hi>[-0-9.]+)\]\)$")

mpmath.mp.dps = 50


# --- the independent oracle ---------------------------------------------------

def binary_runs(depth):
    return sorted(itertools.product((0, 1), repeat=depth))  # lexicographic: the rank order on binary runs


def test_the_rank_order_on_binary_runs_is_lexicographic():
    order = get_order("rank")
    runs = binary_runs(4)
    for a, b in itertools.combinations(runs, 2):
        assert order.compare(a, b) == "<"


def dp_value(run, b):
    return mpmath.fsum(mpmath.mpf(1) / mpmath.mpf(i + 1) ** b for i, g in enumerate(run) if g)


def edp_value(run, s):
    return (1 - mpmath.exp(-s)) * mpmath.fsum(mpmath.exp(-s * i) for i, g in enumerate(run) if g)


def cover_functions(value, depth):
    """The cover differences M(upper) - M(lower) along the chain, and the gap differences d_k - d_0."""
    runs = binary_runs(depth)
    d = [(lambda x, a=a, b=b: value(b, x) - value(a, x)) for a, b in zip(runs, runs[1:])]
    e = [(lambda x, f=f: f(x) - d[0](x)) for f in d[1:]]
    return d, e


def mp_roots(functions, lo, hi, steps=4000):
    """Roots in (lo, hi) of each function: sign changes on a fine grid, each refined by bisection at 50 digits."""
    out = []
    xs = [lo + (hi - lo) * mpmath.mpf(k) / steps for k in range(1, steps)]
    for f in functions:
        ys = [f(x) for x in xs]
        for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:]):
            if y0 == 0:
                out.append(x0)
            elif y0 * y1 < 0:
                out.append(mpmath.findroot(f, (x0, x1), solver="anderson"))
    return out


def mp_verdict(value, depth, x):
    """The verdict at a point away from every root: violated, or ordinal/interval by the gaps."""
    d, e = cover_functions(value, depth)
    ds = [f(x) for f in d]
    if min(ds) < 0:
        return "violated"
    assert min(abs(v) for v in ds) > mpmath.mpf(10) ** -30
    return "ordinal"


@functools.lru_cache(maxsize=None)
def dp_roots(depth):
    """The oracle's roots of the power-law cover differences, and those where its verdict changes."""
    d, _ = cover_functions(dp_value, depth)
    eps = mpmath.mpf(10) ** -25
    roots = mp_roots(d, mpmath.mpf("0.05"), mpmath.mpf(6), steps=1000)
    changing = [x for x in roots if mp_verdict(dp_value, depth, x - eps) != mp_verdict(dp_value, depth, x + eps)]
    return roots, changing


def interval_of(text):
    """``(LO, HI)`` of a printed endpoint: a root_of(...) or an exact rational."""
    m = ROOT_OF.match(text)
    if m:
        return mpmath.mpf(m["lo"]), mpmath.mpf(m["hi"])
    q = Fraction(text)
    return mpmath.mpf(q.numerator) / q.denominator, mpmath.mpf(q.numerator) / q.denominator


# --- the power-law discount ---------------------------------------------------

@pytest.fixture(scope="module", params=[4, 5, 6])
def dp_table(request):
    depth = request.param
    return depth, thresholds(parse_measure(DP), "b", get_order("rank"), rank_space(depth))


@pytest.mark.slow
def test_power_law_thresholds_contain_the_true_critical_points(dp_table):
    depth, table = dp_table
    roots, changing = dp_roots(depth)
    assert roots, "the oracle finds the violation threshold"
    ends = [r.to_json()["high"] for r in table.regions if r.to_json()["high"] != "oo"]
    assert ends, "a finite endpoint"
    for text in ends:
        lo, hi = interval_of(text)
        assert hi - lo < mpmath.mpf(10) ** -30
        assert any(lo <= x <= hi for x in roots), f"{text} holds no root of a cover difference"
    # every root where the oracle's verdict changes is a printed endpoint
    assert changing
    for x in changing:
        assert any(interval_of(t)[0] <= x <= interval_of(t)[1] for t in ends)


@pytest.mark.slow
def test_power_law_regions_violated_weak_ordinal_at_the_issue_values(dp_table):
    depth, table = dp_table
    assert [r.verdict for r in table.regions] == ["violated", "weak", "ordinal"]
    # the oracle's b*: the largest root of a cover difference where the verdict changes
    b_star = max(dp_roots(depth)[1])
    lo, hi = interval_of(table.regions[1].to_json()["low"])
    assert lo <= b_star <= hi
    assert abs(b_star - {4: 1.29, 5: 1.79, 6: 2.36}[depth]) < 0.01  # the values the issue reports


def test_classify_agrees_inside_every_region_and_on_both_sides_of_each_endpoint(dp_table):
    depth, table = dp_table
    order, space = get_order("rank"), rank_space(depth)

    def verdict_at(value):
        return classify(parse_measure(DP).with_params(b=value), order, space, intrinsic=False).verdict

    for region in table.regions:
        assert verdict_at(region.at) == region.verdict
        if not region.is_point:
            x = region.at
            assert mp_verdict(dp_value, depth, mpmath.mpf(x.numerator) / x.denominator) == region.verdict
    for k, region in enumerate(table.regions):
        if region.is_point:
            text = region.to_json()["low"]
            assert verdict_at(text) == region.verdict == "weak"  # the printed root_of pastes back
            m = ROOT_OF.match(text)
            below, above = Fraction(m["lo"]), Fraction(m["hi"])
            assert verdict_at(below) == table.regions[k - 1].verdict
            assert verdict_at(above) == table.regions[k + 1].verdict


def test_a_printed_endpoint_reads_back_as_the_same_number():
    table = thresholds(parse_measure(DP), "b", get_order("rank"), rank_space(4))
    text = table.regions[1].to_json()["low"]
    measure = parse_measure(f"{DP}(b={text})")
    value = measure.param_dict["b"]
    assert isinstance(value, RealRoot)
    m = ROOT_OF.match(text)
    assert Fraction(m["lo"]) < value < Fraction(m["hi"])


# --- a second transcendental measure: RBP with persistence e^-s --------------

@pytest.mark.parametrize("depth", [2, 3, 4])
def test_exponential_decay_thresholds_are_the_rbp_thresholds_through_p_equals_e_to_minus_s(depth):
    order, space = get_order("rank"), rank_space(depth)
    edp = thresholds(parse_measure(EDP), "s", order, space)
    rbp = thresholds(parse_measure("RBP"), "p", order, space)  # the exact path: rational functions of p
    # s = -ln p reverses the domain: the regions come in reverse order, verdict for verdict
    assert [r.verdict for r in edp.regions] == [r.verdict for r in reversed(rbp.regions)]
    rbp_points = [from_crootof(r.low) for r in rbp.regions if r.is_point]
    edp_points = [r.to_json()["low"] for r in edp.regions if r.is_point]
    assert len(rbp_points) == len(edp_points)
    for p, text in zip(reversed(rbp_points), edp_points):
        p_mp = mpmath.mpf(p.numerator) / p.denominator if isinstance(p, Fraction) else mpmath.findroot(
            lambda x: sum(mpmath.mpf(int(c)) * x ** k for k, c in enumerate(reversed(p.f.all_coeffs()))),
            float(p))
        s = -mpmath.log(p_mp)
        lo, hi = interval_of(text)
        assert lo <= s <= hi and hi - lo < mpmath.mpf(10) ** -30
    for region in edp.regions:
        x = region.at
        assert classify(parse_measure(EDP).with_params(s=x), order, space, intrinsic=False).verdict == region.verdict
        if not region.is_point:
            assert mp_verdict(edp_value, depth, mpmath.mpf(x.numerator) / x.denominator) == (
                "ordinal" if region.verdict in ("ordinal", "interval") else region.verdict)


# --- the certified primitives --------------------------------------------------

def test_a_root_of_without_a_proven_single_root_is_refused_in_one_line():
    b = sympy.Symbol("b")
    with pytest.raises(BadParameterError, match="no sign change"):
        RealRoot(2**-b + 3**-b - 1, b, Fraction(1), Fraction(2))
    with pytest.raises(BadParameterError, match=r"root_of\(EXPR, \[LO, HI\]\)"):
        parse_measure(f"{DP}(b=root_of(2**b - 3, 1.5))")
    with pytest.raises(BadParameterError, match="not allowed"):
        parse_measure(f"{DP}(b=root_of(__import__('os'), [1, 2]))")


def test_signs_are_proved_zero_or_left_undecided_never_guessed():
    assert sign(sympy.sqrt(8) - 2 * sympy.sqrt(2)) == 0
    assert sign(sympy.log(3) / sympy.log(2) - sympy.Rational(158, 100)) == 1
    b = sympy.Symbol("b")
    # log2(3) defined two ways: the equality 2^-r = 1/3 holds, but no proof of it is available here
    r = RealRoot(b * sympy.log(2) - sympy.log(3), b, Fraction(3, 2), Fraction(8, 5))
    with pytest.raises(UndecidedComparisonError, match="bits"):
        sign(2 ** -r.sympy() - sympy.Rational(1, 3))
    # the same number defined by an exponential sum in one generator: proved by its defining relation
    r2 = RealRoot(2**b - 3, b, Fraction(3, 2), Fraction(8, 5))
    assert sign(2 ** -r2.sympy() - sympy.Rational(1, 3)) == 0


@pytest.mark.slow
def test_isolate_roots_of_an_exponential_sum_against_mpmath():
    s = sympy.Symbol("s")
    f = 1 - 3 * sympy.exp(-s) + sympy.Rational(5, 2) * sympy.exp(-2 * s) - sympy.Rational(1, 2) * sympy.exp(-3 * s)
    roots, unsettled = isolate_roots(f, s, Fraction(-10), None, False, False)
    assert unsettled == []
    g = (lambda x: 1 - 3 * mpmath.exp(-x) + mpmath.mpf(5) / 2 * mpmath.exp(-2 * x)
         - mpmath.mpf(1) / 2 * mpmath.exp(-3 * x))
    expected = mp_roots([g], mpmath.mpf(-5), mpmath.mpf(20), steps=20000)
    assert len(roots) == len(expected) == 3  # t = e^-s: (t - 1)(t^2 - 4t + 2) / 2, roots 1 and 2 -+ sqrt 2 (all > 0)
    assert Fraction(0) in roots  # t = 1 is s = 0, found exactly
    for r, x in zip(roots, sorted(expected)):
        lo, hi = (r, r) if isinstance(r, Fraction) else (r.lo, r.hi)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= x + mpmath.mpf(10) ** -45
        assert x - mpmath.mpf(10) ** -45 <= mpmath.mpf(hi.numerator) / hi.denominator


def test_classify_says_unknown_when_no_precision_decides_and_no_proof_settles(tmp_path):
    # 2^-b at b = log2(3), written as the root of b*log(2) - log(3), is 1/3: true, but not provable here
    (tmp_path / "und.py").write_text(
        "import workbench\nfrom fractions import Fraction\n\n\n"
        "@workbench.parameter('b', '1', '(0, inf)')\n"
        "def und(A, b):\n"
        "    return A.rel(0) * A.const(Fraction(1, 3)) + A.rel(1) * A.power(2, -b)\n")
    measure = parse_measure(f"{tmp_path / 'und.py'}:und(b=root_of(b*log(2) - log(3), [1.5, 1.6]))")
    c = classify(measure, get_order("rank"), rank_space(2))
    assert c.verdict == "unknown" and "8192 bits" in c.reason and c.to_json()["reason"] == c.reason
    # the same number as a root of an exponential sum in one generator: the tie is proved, the verdict weak
    proved = parse_measure(f"{tmp_path / 'und.py'}:und(b=root_of(2**b - 3, [1.5, 1.6]))")
    c = classify(proved, get_order("rank"), rank_space(2))
    assert c.verdict == "weak" and (c.witness.lower, c.witness.upper) == ((0, 1), (1, 0))


@pytest.mark.parametrize("depth", [3, 4])
def test_exponential_decay_classify_on_both_sides_of_each_endpoint(depth):
    order, space = get_order("rank"), rank_space(depth)
    table = thresholds(parse_measure(EDP), "s", order, space)
    for k, region in enumerate(table.regions):
        if not region.is_point:
            continue
        m = ROOT_OF.match(region.to_json()["low"])
        for side, q in ((k - 1, Fraction(m["lo"])), (k + 1, Fraction(m["hi"]))):
            c = classify(parse_measure(EDP).with_params(s=q), order, space, intrinsic=False)
            assert c.verdict == table.regions[side].verdict


def test_a_logarithm_base_as_the_parameter_unknown_where_no_test_settles():
    table = thresholds(parse_measure(f"{EXAMPLES / 'log_base.py'}:ld"), "b", get_order("rank"), rank_space(3))
    verdicts = [r.verdict for r in table.regions]
    # the oracle: 011 ties 100 where 1/(1 + log_b 2) + 1/(1 + log_b 3) = 1
    root = mpmath.findroot(lambda b: 1 / (1 + mpmath.log(2) / mpmath.log(b)) + 1 / (1 + mpmath.log(3) / mpmath.log(b))
                           - 1, (2, 3), solver="anderson")
    weak = [r for r in table.regions if r.verdict == "weak"]
    assert len(weak) == 1
    lo, hi = interval_of(weak[0].to_json()["low"])
    assert lo <= root <= hi and hi - lo < mpmath.mpf(10) ** -30
    # below the root ordinal, above violated (mpmath at points), the unsettled ends unknown, never guessed
    assert verdicts == ["unknown", "ordinal", "weak", "violated", "unknown"]
    assert mp_verdict(lambda run, b: mpmath.fsum(1 / (1 + mpmath.log(i + 1) / mpmath.log(b))
                                                 for i, g in enumerate(run) if g), 3, mpmath.mpf(2)) == "ordinal"
    assert table.regions[-1].to_json()["high"] == "oo" and "search bound" in table.regions[-1].certificate[0].method
