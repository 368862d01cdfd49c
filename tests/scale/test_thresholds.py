"""Thresholds in a parameter, checked against classify() at exact rational points.

Every region's verdict is re-derived by :func:`workbench.scale.classify.classify` (the
exact engine, which knows nothing of polynomials or critical points) at a
rational inside it, at rationals just inside the regions on both sides of
every endpoint, and at every rational endpoint itself.  Irrational point
regions are checked by an oracle that substitutes the root into each cover
difference written by sympy (zero iff the minimal polynomial divides it).
The known shapes (RBP interval at 1/2, the violation threshold at depth 3)
are derived here by hand from the definition, not taken from thresholds().
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

from cli_inputs import run_cli
from workbench.errors import BadDepthError, BadParameterError, WorkbenchError
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.space.runs import Gains
from workbench.scale.classify import classify
from workbench.space.spaces import rank_space
from workbench.space.runs import parse_depths
from workbench.scale.thresholds import thresholds, thresholds_over_depths

p = sympy.Symbol("p", positive=True)
BEST = {"total": "interval", "partial": "strict"}


def verdict_at(measure, order, space, gains, q: Fraction) -> str:
    return classify(parse_measure(measure).with_params(p=q), get_order(order), space, gains).verdict


def rational_near(x, side: int, room) -> Fraction:
    """A rational within ``room`` of the exact real ``x``, strictly on ``side`` (-1 below, +1 above)."""
    xf = sympy.Rational(str(sympy.N(x, 40)))  # within 1e-38 of x
    q = Fraction(str(xf)) + side * Fraction(str(room)) / 2
    assert side * (sympy.Rational(q.numerator, q.denominator) - x) > 0
    return q


def to_sympy(q: Fraction):
    return sympy.Rational(q.numerator, q.denominator)


def contains(region, x) -> bool:
    above = x > region.low or (region.low_closed and x == region.low)
    below = x < region.high or (region.high_closed and x == region.high)
    return bool(above and below)


def check_table(measure, order, space, gains=None):
    """All the classify() cross-checks of one table; returns the table."""
    table = thresholds(parse_measure(measure), "p", get_order(order), space, gains)
    regions = table.regions
    # a partition of (0, 1), in order
    assert regions[0].low == 0 and not regions[0].low_closed
    assert regions[-1].high == 1 and not regions[-1].high_closed
    for a, b in zip(regions, regions[1:]):
        assert a.high == b.low and a.high_closed != b.low_closed
        assert a.verdict != b.verdict  # merged where equal
    for r in regions:
        assert all(ch.verdict == r.verdict for ch in r.certificate)
        width = r.high - r.low
        if not r.is_point:
            # a rational inside; then rationals just inside at both ends
            room = min(sympy.Rational(1, 10**9), width / 4)
            inside = [rational_near(r.low, +1, room), rational_near(r.high, -1, room)]
            if isinstance(r.at, Fraction):
                inside.append(r.at)
            for q in inside:
                assert contains(r, to_sympy(q))
                assert verdict_at(measure, order, space, gains, q) == r.verdict, (r.label(), q)
        for end, closed in ((r.low, r.low_closed), (r.high, r.high_closed)):
            if end.is_Rational and 0 < end < 1:
                q = Fraction(int(end.p), int(end.q))
                holder = [x for x in regions if contains(x, end)]
                assert len(holder) == 1 and (holder[0] is r) == closed
                assert verdict_at(measure, order, space, gains, q) == holder[0].verdict, (end, holder[0].label())
        if r.verdict != BEST[get_order(order).kind]:
            check_witness(measure, order, gains or Gains.default(space.grades), r)
        else:
            assert r.witness is None
    # every irrational endpoint: the oracle's verdict AT the root is that of the region holding it
    for end in {r.low for r in regions} | {r.high for r in regions}:
        if not end.is_Rational:
            (holder,) = [x for x in regions if contains(x, end)]
            assert oracle_at_root(measure, order, space, gains, end) == holder.verdict, (end, holder.label())
    return table


def check_witness(measure, order, gains, region):
    """The witness is genuine: ordered pair(s) whose exact values at ``region.at`` show the verdict."""
    w = region.witness
    assert w is not None
    pairs = region.gap_witness or (w,)
    for x in pairs:
        assert get_order(order).compare(x.lower, x.upper, gains) == "<"
    if isinstance(region.at, Fraction):
        m = parse_measure(measure).with_params(p=region.at)
        for x in pairs:
            assert (m.value(x.lower, gains), m.value(x.upper, gains)) == (x.lower_value, x.upper_value)
    else:  # at an algebraic number: values from the sympy expression with the root substituted
        m = parse_measure(measure)
        for x in pairs:
            for run, val in ((x.lower, x.lower_value), (x.upper, x.upper_value)):
                e = m.expression(run, gains, free=("p",)).subs(p, region.at)
                assert abs(sympy.N(e - val, 50)) < 1e-40
    diff = sympy.nsimplify(w.lower_value - w.upper_value) if isinstance(region.at, Fraction) else sympy.expand(
        w.lower_value - w.upper_value)
    if region.verdict == "violated":
        assert sympy.N(diff, 50) > 0
    elif region.verdict == "weak":
        assert diff == 0
    else:  # ordinal: two covers with unequal increments
        w0, w1 = region.gap_witness
        assert sympy.N((w0.upper_value - w0.lower_value) - (w1.upper_value - w1.lower_value), 50) != 0


def oracle_at_root(measure, order, space, gains, root) -> str:
    """Verdict at an algebraic root from sympy cover differences: zero iff the minimal polynomial divides."""
    m = parse_measure(measure)
    gains = gains or Gains.default(space.grades)
    f = sympy.Poly(root.expr, p)
    cov = get_order(order).covers(space, gains)
    runs = space.array()
    expr = {}

    def poly(i):
        if i not in expr:
            expr[i] = sympy.Poly(sympy.expand(m.expression(tuple(int(v) for v in runs[i]), gains, free=("p",))), p)
        return expr[i]

    diffs = []
    for lo, up in cov.pairs():
        d = poly(up) - poly(lo)
        if d.is_zero or d.rem(f).is_zero:
            diffs.append(sympy.Integer(0))
        else:
            v = sympy.N(d.as_expr().subs(p, root), 50)
            assert abs(v) > 1e-30
            diffs.append(v)
    if any(d < 0 for d in diffs):
        return "violated"
    if any(d == 0 for d in diffs):
        return "weak"
    if get_order(order).kind != "total":
        return "strict"
    exact = [poly(up) - poly(lo) for lo, up in cov.pairs()]
    same = all((e - exact[0]).is_zero or (e - exact[0]).rem(f).is_zero for e in exact)
    return "interval" if same else "ordinal"


# ---------------------------------------------------------------------------
# regions agree with classify()


@pytest.mark.parametrize("depth", range(1, 8))
@pytest.mark.slow
def test_rbp_rank_regions_agree_with_classify(depth):
    check_table("RBP", "rank", rank_space(depth))


@pytest.mark.parametrize("gains", [None, "0,1,3"])
@pytest.mark.parametrize("depth", range(1, 5))
@pytest.mark.slow
def test_grbp_two_grades_regions_agree_with_classify(depth, gains):
    check_table("gRBP", "rank", rank_space(depth, 2), Gains.parse(gains) if gains else None)


@pytest.mark.parametrize("depth", range(1, 6))
def test_rbp_dominance_regions_agree_with_classify(depth):
    t = check_table("RBP", "dominance", rank_space(depth))
    assert [r.verdict for r in t.regions] == ["strict"]


# ---------------------------------------------------------------------------
# the known shapes, derived


def rbp(run):
    """RBP written out from its definition (docs/reference/measures.md), independently of the workbench."""
    return sympy.expand((1 - p) * sum(p**i * g for i, g in enumerate(run)))


@pytest.mark.parametrize("depth", range(2, 8))
def test_rbp_is_interval_exactly_at_one_half(depth):
    # by hand: the increments are (1-p) p^(N-1) (raise the last grade) and
    # (1-p)(p^(N-2) - p^(N-1)) (carry one place); equal iff 1 - p = p.
    last = rbp((0,) * (depth - 1) + (1,)) - rbp((0,) * depth)
    carry = rbp((0,) * (depth - 2) + (1, 0)) - rbp((0,) * (depth - 1) + (1,))
    assert [x for x in sympy.solve(sympy.Eq(last, carry), p) if x < 1] == [sympy.Rational(1, 2)]
    t = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(depth))
    half = [r for r in t.regions if r.is_point and r.low == sympy.Rational(1, 2)]
    assert len(half) == 1 and half[0].verdict == "interval"
    assert verdict_at("RBP", "rank", rank_space(depth), None, Fraction(1, 2)) == "interval"
    # interval nowhere else: ordinal just below and above
    assert t.verdict_at(Fraction(1, 2) - Fraction(1, 10**6)) == "ordinal"
    assert t.verdict_at(Fraction(1, 2) + Fraction(1, 10**9)) == "ordinal"


@pytest.mark.parametrize("depth", range(2, 8))
def test_rbp_violation_threshold_is_derived_from_the_worst_carry(depth):
    # the carry 0 1...1 -> 1 0...0 changes RBP by (1-p)(1 - p - ... - p^(N-1)),
    # the only cover difference that can turn negative
    lower, upper = (0,) + (1,) * (depth - 1), (1,) + (0,) * (depth - 1)
    d = sympy.factor(rbp(upper) - rbp(lower))
    roots = [r for r in sympy.Poly(sympy.cancel(d / (1 - p)), p).real_roots() if 0 < r < 1]
    t = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(depth))
    violated = [r for r in t.regions if r.verdict == "violated"]
    if depth == 2:  # 1 - p > 0 on (0, 1): never violated
        assert roots == [] and violated == []
        return
    assert len(roots) == 1 and len(violated) == 1
    (root,), (v,) = roots, violated
    assert v.high == 1 and not v.low_closed
    assert sympy.minimal_polynomial(v.low, p) == sympy.minimal_polynomial(root, p)
    assert abs(sympy.N(v.low - root, 50)) < 1e-40
    weak = [r for r in t.regions if r.verdict == "weak"]
    assert len(weak) == 1 and weak[0].is_point and weak[0].low == v.low
    w = v.witness
    assert (w.lower, w.upper) == (lower, upper)


def test_rbp_depth_3_threshold_is_the_root_of_p2_plus_p_minus_1():
    d = rbp((1, 0, 0)) - rbp((0, 1, 1))  # = (1-p)(1 - p - p^2)
    assert sympy.expand(d - (1 - p) * (1 - p - p**2)) == 0
    expected = [r for r in sympy.solve(1 - p - p**2, p) if r.is_positive][0]  # (sqrt(5) - 1)/2
    t = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(3))
    (v,) = [r for r in t.regions if r.verdict == "violated"]
    assert sympy.minimal_polynomial(v.low, p) == sympy.minimal_polynomial(expected, p) == p**2 + p - 1
    assert abs(sympy.N(v.low - expected, 60)) < 1e-55
    assert sympy.sstr(v.low) == "CRootOf(p**2 + p - 1, 1)"
    js = t.to_json()
    assert js["regions"][-1]["low"] == "CRootOf(p**2 + p - 1, 1)"
    assert abs(js["regions"][-1]["low_float"] - float(expected)) < 1e-15


def test_grbp_interval_point_is_derived():
    # by hand, 2 grades, g = (0, 1, 2): raising the last grade adds (1-p) p^(N-1) / 2,
    # the carry x 0 2 -> x 1 0 adds (1-p)(p^(N-2) - 2 p^(N-1)) / 2: equal iff p = 1/3
    for depth in (2, 3, 4):
        t = thresholds(parse_measure("gRBP"), "p", get_order("rank"), rank_space(depth, 2))
        pts = [r for r in t.regions if r.verdict == "interval"]
        assert len(pts) == 1 and pts[0].is_point and pts[0].low == sympy.Rational(1, 3)
    # with gains 0,1,3 the last-grade increments 1 and 2 differ for every p: never interval
    t = thresholds(parse_measure("gRBP"), "p", get_order("rank"), rank_space(3, 2), Gains.parse("0,1,3"))
    assert "interval" not in [r.verdict for r in t.regions]


def test_depth_range_helper_and_cutoff_merge():
    rows = thresholds_over_depths(parse_measure("RBP"), "p", "rank", [2, 3])
    assert [t.depth for t in rows] == [2, 3]
    # RBP@3 at depth 5 ties the runs differing only below rank 3: weak up to the
    # threshold, the threshold itself included (a merged, half-closed region)
    t = check_table("RBP@3", "rank", rank_space(5))
    assert [r.verdict for r in t.regions] == ["weak", "violated"]
    assert t.regions[0].high_closed and len(t.regions[0].certificate) == 2


# ---------------------------------------------------------------------------
# bad input


def test_rejects_unknown_integer_and_choice_parameters():
    order, space = get_order("rank"), rank_space(3)
    with pytest.raises(BadParameterError, match="unknown parameter 'q'"):
        thresholds(parse_measure("RBP"), "q", order, space)
    with pytest.raises(BadParameterError, match="parameter b is an integer parameter"):
        thresholds(parse_measure("DCG"), "b", order, space)
    with pytest.raises(BadParameterError, match="parameter discount is a choice"):
        thresholds(parse_measure("DCG"), "discount", order, space)
    with pytest.raises(BadParameterError, match="unknown parameter 'p'"):
        thresholds(parse_measure("AP"), "p", order, space)
    with pytest.raises(WorkbenchError, match="set"):
        thresholds(parse_measure("RBP"), "p", get_order("set"), space)


def test_parse_depths():
    assert parse_depths("3") == [3] and parse_depths(" 2..4 ") == [2, 3, 4]
    for bad in ("0", "x", "2..", "4..2", "0..3", "-1"):
        with pytest.raises(BadDepthError, match=repr(bad).replace(".", r"\.")):
            parse_depths(bad)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["RBP", "--param", "q"], "'q'"),
        (["DCG", "--param", "b"], "parameter b"),
        (["AP"], "AP"),
        (["RBP", "--depth", "2..x"], "2..x"),
        (["RBP", "--depth", "0"], "'0'"),
        (["RBP", "--order", "lex"], "'lex'"),
        (["gRBP", "--gains", "0,1,3", "--grades", "1"], "0,1,3"),
        (["RPB"], "'RPB'"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, needle):
    code, out, err = run_cli(capsys, "thresholds", *argv, "--json")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err


def test_cli_json_contract_one_depth(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "RBP", "--param", "p", "--depth", "3", "--json")
    assert code == 0
    obj = json.loads(out)
    assert (obj["measure"], obj["param"], obj["depth"]) == ("RBP", "p", 3)
    regs = obj["regions"]
    for r in regs:
        assert set(r) >= {"low", "high", "low_closed", "high_closed", "verdict", "low_float", "high_float",
                          "witness", "certificate"}
    assert [r["verdict"] for r in regs] == ["ordinal", "interval", "ordinal", "weak", "violated"]
    assert (regs[1]["low"], regs[1]["high"], regs[1]["low_closed"]) == ("1/2", "1/2", True)
    assert regs[-1]["witness"]["lower"] == [0, 1, 1] and regs[-1]["witness"]["at"] == "2/3"
    assert regs[0]["low"] == "0" and regs[-1]["high"] == "1"


def test_cli_json_depth_range_has_rows(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "gRBP", "--grades", "2", "--depth", "2..4", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["measure"] == "gRBP" and obj["param"] == "p"
    assert [row["depth"] for row in obj["rows"]] == [2, 3, 4]
    assert all(row["regions"][1]["low"] == "1/3" for row in obj["rows"])


def test_cli_human_table(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "RBP", "--depth", "2..3")
    assert code == 0 and "interval" in out and "violated" in out
