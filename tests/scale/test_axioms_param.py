"""Axioms i-iv over a parameter and by z3, against the fixed-value checker and a literal oracle.

* regions (:func:`axioms_over_param`) against :func:`check_measure` (the
  fixed-value checker) at a rational inside every region and at both sides of
  every critical point, and at every rational critical point;
* a literal oracle written here: each measure's formula typed out again
  (Fractions, or exact elements of ``Q(alpha)`` at an algebraic number), every
  quadruple ``a, b, c, d`` of Definition 1's axiom iv looped over, with the
  inner existential over ``d'`` and ``d''`` as written;
* :func:`axioms_smt` against the enumeration, axiom by axiom, on every small
  case; its witnesses re-checked with the oracle's own values; and one depth
  (30) the enumeration refuses, with the witness re-checked by a
  meet-in-the-middle search over the ``2^30`` runs.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
import sympy

from workbench.errors import NotExpressibleError, SpaceTooLargeError, WorkbenchError
from workbench.measures.families import Family, register_family
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.measures.params import ParamSpec
from workbench.scale.axioms import AXIOMS, check_measure
from workbench.scale.axioms_param import axioms_over_param
from workbench.scale.axioms_smt import axioms_smt
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space, set_space

P = sympy.Symbol("p")

# ---------------------------------------------------------------------------
# a user-style polynomial family (parameter q in (0, 1))

_Q = ParamSpec("q", Fraction(1, 2), Fraction(0), Fraction(1), False, False, description="test weight")


def _cubic_def(A, params, topic, k):
    q = params["q"]
    return A.gain(0) * q + A.gain(1) * q * q * q + A.gain(A.depth - 1) * (A.const(1) - q)


CUBIC = "cubic_test.py:cubic"
register_family(Family(CUBIC, (_Q,), False, "test: q g1 + q^3 g2 + (1-q) g_N", "test", _cubic_def))


# the formulas typed out again: sympy expressions in P of one run


def rbp_expr(run, gains):
    return (1 - P) * sum(P**i * (1 if g >= 1 else 0) for i, g in enumerate(run))


def grbp_expr(run, gains):
    gmax = gains.values[-1]
    return (1 - P) * sum(P**i * sympy.Rational(str(gains.values[g])) for i, g in enumerate(run)) / sympy.Rational(str(gmax))


def cubic_expr(run, gains):
    g = [sympy.Rational(str(gains.values[x])) for x in run]
    second = g[1] if len(run) > 1 else 0
    return g[0] * P + second * P**3 + g[-1] * (1 - P)


FORMULAS = {"RBP": (rbp_expr, "p"), "gRBP": (grbp_expr, "p"), CUBIC: (cubic_expr, "q")}


def exprs(name, space, gains):
    f = FORMULAS[name][0]
    return [sympy.expand(f(tuple(int(x) for x in row), gains)) for row in space.array()]


# ---------------------------------------------------------------------------
# exact values at a point: Fractions, or elements of Q(alpha)


class QAlpha:
    """An element of Q(alpha): a polynomial in alpha reduced modulo alpha's minimal polynomial."""

    def __init__(self, poly: sympy.Poly, alpha, minpoly: sympy.Poly | None = None):
        self.alpha = alpha
        self.minpoly = minpoly if minpoly is not None else sympy.Poly(sympy.minimal_polynomial(alpha, P), P).monic()
        self.poly = sympy.Poly(poly.as_expr().subs(poly.gen, self.minpoly.gen), self.minpoly.gen, domain="QQ").rem(self.minpoly)
        self.key = tuple(self.poly.all_coeffs())

    def _lift(self, other):
        return other.poly if isinstance(other, QAlpha) else sympy.Poly(other, self.minpoly.gen, domain="QQ")

    def __add__(self, other):
        return QAlpha(self.poly + self._lift(other), self.alpha, self.minpoly)

    def __sub__(self, other):
        return QAlpha(self.poly - self._lift(other), self.alpha, self.minpoly)

    def __eq__(self, other):
        return (self - other).poly.is_zero

    def __hash__(self):
        return hash(self.key)

    def sign(self) -> int:
        if self.poly.is_zero:
            return 0
        # non-zero exactly (reduced modulo an irreducible polynomial); its sign from 60 digits
        v = sympy.N(self.poly.as_expr().subs(self.minpoly.gen, self.alpha), 60)
        assert abs(v) > sympy.Float("1e-40", 60)
        return 1 if v > 0 else -1

    def __le__(self, other):
        return (self - other).sign() <= 0

    def __lt__(self, other):
        return (self - other).sign() < 0


def values_at(expressions, x):
    """Exact values of all runs at ``x`` (a sympy Rational or a real algebraic number such as ``2*CRootOf(...)``)."""
    if not x.is_Rational:
        mp = sympy.Poly(sympy.minimal_polynomial(x, P), P).monic()
        return [QAlpha(sympy.Poly(e, P, domain="QQ"), x, mp) for e in expressions]
    return [Fraction(str(sympy.Rational(e.subs(P, x)))) for e in expressions]


def iv_literal(vals) -> bool:
    """Axiom iv exactly as Definition 1 writes it: every a, b, c, d, then the d' and d'' it asks for."""
    zero = vals[0] - vals[0]
    for a, b, c, d in itertools.product(range(len(vals)), repeat=4):
        delta = vals[d] - vals[c]
        if zero <= delta and delta <= vals[b] - vals[a]:
            if not any(vals[e] - vals[a] == delta for e in range(len(vals))):
                return False
            if not any(vals[b] - vals[e] == delta for e in range(len(vals))):
                return False
    return True


def iv_literal_distinct(vals) -> bool:
    """The same loop over one run per distinct value (the axiom only sees values)."""
    seen = []
    for v in vals:
        if not any(v == w for w in seen):
            seen.append(v)
    return iv_literal(seen)


# ---------------------------------------------------------------------------
# sample points around every region and critical point


def _rational_near(x, towards) -> sympy.Rational:
    """A rational strictly between the exact reals ``x`` and ``towards`` (near ``x``), checked exactly."""
    xf, tf = sympy.N(x, 50), sympy.N(towards, 50)
    for k in range(3, 60):
        q = sympy.Rational(str(sympy.N(xf + (tf - xf) / 2**k, 50)))
        if (x < q < towards) if towards > x else (towards < q < x):
            return q
    raise AssertionError(f"no rational found between {x} and {towards}")


def _region_of(regions, q):
    hits = [r for r in regions if (q > r.low or (r.low_closed and q == r.low)) and (q < r.high or (r.high_closed and q == r.high))]
    assert len(hits) == 1, (q, [r.label() for r in regions])
    return hits[0]


def sample_points(res, every_critical_point: bool = True):
    """``(point, region)``: rationals inside each piece, both sides of each critical point, the critical points.

    With ``every_critical_point=False`` only the regions' endpoints (after merging) are used.
    """
    lo, hi = res.regions[0].low, res.regions[-1].high
    crit = list(res.critical) if every_critical_point else [r.low for r in res.regions if r.is_point]
    edges = [lo, *crit, hi]
    out = []
    for u, v in zip(edges, edges[1:]):
        q = _rational_near(u, v) if u != lo else _rational_near(v, u)
        out.append(q)
        mid = _rational_near(u, v)
        out.append(mid)
    for i, x in enumerate(crit):
        out.append(_rational_near(x, edges[i]))
        out.append(_rational_near(x, edges[i + 2]))
        out.append(x)
    # the regions' own points too
    return [(x, _region_of(res.regions, x)) for x in out]


# ---------------------------------------------------------------------------
# (a) regions against the fixed-value checker


CASES_A = [
    ("RBP", 1, None, [2, 3, 4, 5]),
    ("gRBP", 2, None, [2, 3]),
    ("gRBP", 1, "0,1,3", [2, 3]),
    (CUBIC, 1, None, [2, 3, 4]),
    (CUBIC, 2, None, [2]),
]


@pytest.mark.parametrize("name,grades,gains,depths", CASES_A, ids=[f"{c[0]}-c{c[1]}-{c[2]}" for c in CASES_A])
@pytest.mark.slow
def test_regions_agree_with_fixed_value_checker(name, grades, gains, depths):
    g = Gains.parse(gains) if gains else Gains.default(grades)
    param = FORMULAS[name][1]
    m = Measure(name)
    for depth in depths:
        space = rank_space(depth, g.grades)
        res = axioms_over_param(m, param, space, g)
        # the regions tile the domain, in order, alternating open intervals and points where they meet
        assert res.regions[0].low == 0 and res.regions[-1].high == 1
        for r, s in zip(res.regions, res.regions[1:]):
            assert r.high == s.low and r.high_closed != s.low_closed
            assert r.holds != s.holds  # merged: neighbours differ
        checked = 0
        for x, region in sample_points(res, every_critical_point=len(res.critical) <= 60):
            if not x.is_Rational:
                continue  # (b) checks algebraic points with the literal oracle
            q = Fraction(str(x))
            want = check_measure(m.with_params(**{param: q}), space, g)
            assert region.holds == want.holds, (depth, q, region.label())
            assert [region.axioms[k].holds for k in AXIOMS] == [want.axioms[k].holds for k in AXIOMS]
            checked += 1
        assert checked >= 2 * len(res.regions)


def test_rbp_regions_depth_3_by_hand():
    # RBP(p) = (1-p)(x1 + p x2 + p^2 x3): the 8 values are equally spaced iff
    # x -> sum x_i p^(i-1) lists 0..7 in binary steps, i.e. p = 1/2 exactly.
    res = axioms_over_param("RBP", "p", rank_space(3))
    assert [(r.label(), r.holds) for r in res.regions] == [("(0, 1/2)", False), ("[1/2]", True), ("(1/2, 1)", False)]
    assert all(r.axioms[k].holds for r in res.regions for k in ("i", "ii", "iii"))


@pytest.mark.slow
def test_grbp_holds_at_one_over_c_plus_one():
    # gRBP with gains 0..c: (1-p)/c sum g_i p^(i-1); at p = 1/(c+1) the values are the
    # base-(c+1) numerals over (c+1)^N, all of them, equally spaced.
    res = axioms_over_param("gRBP", "p", rank_space(3, 2))
    assert [r.label() for r in res.regions if r.holds] == ["[1/3]", "[1/2]"]


# ---------------------------------------------------------------------------
# (b) the literal oracle on tiny spaces, at rationals and algebraic numbers


CASES_B = [("RBP", 1, 2), ("RBP", 1, 3), ("gRBP", 2, 2), (CUBIC, 1, 2), (CUBIC, 1, 3)]


@pytest.mark.parametrize("name,grades,depth", CASES_B, ids=[f"{c[0]}-c{c[1]}-N{c[2]}" for c in CASES_B])
@pytest.mark.slow
def test_regions_against_literal_oracle(name, grades, depth):
    g = Gains.default(grades)
    space = rank_space(depth, grades)
    res = axioms_over_param(Measure(name), FORMULAS[name][1], space, g)
    ex = exprs(name, space, g)
    names = ["".join(str(int(x)) for x in row) for row in space.array()]
    points = sample_points(res)
    if (name, depth) in {("RBP", 3), (CUBIC, 2), (CUBIC, 3)}:
        assert any(not x.is_Rational for x, _ in points)
    for x, region in points:
        vals = values_at(ex, x)
        assert region.holds == iv_literal_distinct(vals), (x, region.label())
    # every failing region's witness, at its own point, with the oracle's values
    for region in res.regions:
        w = region.axioms["iv"].witness
        if w is None:
            continue
        at = sympy.sympify(w["at"])
        vals = dict(zip(names, values_at(ex, at)))
        a, b, c, d = (vals[w[k]] for k in "abcd")
        delta = d - c
        zero = a - a
        assert zero <= delta and delta <= b - a
        assert not any(v - a == delta for v in vals.values())


def test_algebraic_points_where_the_axioms_hold():
    # cubic at depth 2 (x1 q + x2 q^3 + x2 (1 - q)): values 0, q, 1 - q + q^3, 1 + q^3; the top gap is q.
    # Below phi = (sqrt(5) - 1)/2 they sort 0 < q < 1 - q + q^3 < 1 + q^3: equal gaps iff q^3 - 3q + 1 = 0.
    # At phi, 1 - q + q^3 = q (a tie) and 1 + q^3 = 2q: three values, equally spaced.
    # Above phi: 0 < 1 - q + q^3 < q < 1 + q^3, equal gaps iff 2q^3 - 3q + 2 = 0, no root in (0, 1).
    res = axioms_over_param(Measure(CUBIC), "q", rank_space(2))
    holds = [r for r in res.regions if r.holds]
    assert len(holds) == 2 and all(r.is_point for r in holds)
    minpolys = []
    for r in holds:
        x = r.low
        assert not x.is_Rational and 0 < x < 1
        minpolys.append(sympy.Poly(sympy.minimal_polynomial(x, P), P).monic())
    assert [f.as_expr() for f in minpolys] == [P**3 - 3 * P + 1, P**2 + P - 1]
    assert not any(r.holds for r in res.regions if not r.is_point)


# ---------------------------------------------------------------------------
# refusals


def test_not_a_polynomial_is_refused():
    with pytest.raises(NotExpressibleError, match="not a polynomial in T"):
        axioms_over_param("INST", "T", rank_space(2))


def test_unknown_parameter_is_refused():
    with pytest.raises(WorkbenchError, match="unknown parameter"):
        axioms_over_param("RBP", "z", rank_space(2))


def test_too_many_runs_is_refused():
    with pytest.raises(SpaceTooLargeError, match="use a smaller --depth"):
        axioms_over_param("RBP", "p", rank_space(13))


def test_set_order_needs_set_space():
    res = axioms_over_param("gRBP", "p", set_space(3, 2), order="set")
    assert res.order == "set" and res.kind == "set"
    with pytest.raises(WorkbenchError):
        axioms_over_param("gRBP", "p", rank_space(3, 2), order="set")


# ---------------------------------------------------------------------------
# (c) z3 against the enumeration


CASES_C = [
    ("RBP(p=0.5)", "rank", 1, None, None, [1, 2, 3, 4]),
    ("RBP(p=1/3)", "rank", 1, None, None, [1, 2, 3, 4]),
    ("RBP(p=0.8)", "rank", 1, None, None, [2, 3, 4]),
    ("gRBP(p=1/3)", "rank", 2, None, None, [1, 2, 3]),
    ("gRBP(p=0.5)", "set", 2, None, None, [1, 2, 3]),
    ("P", "rank", 1, None, None, [3, 4]),
    ("RR", "rank", 1, None, None, [2, 3]),
    ("R", "rank", 1, None, "2", [3]),
    ("AP", "rank", 1, None, "2", [3]),
    ("gRBP(p=0.5)", "rank", 2, "0,1,3", None, [2]),
]


@pytest.mark.parametrize("name,order,grades,gains,topic,depths", CASES_C, ids=[f"{c[0]}-{c[1]}-c{c[2]}" for c in CASES_C])
@pytest.mark.slow
def test_smt_agrees_with_enumeration(name, order, grades, gains, topic, depths):
    g = Gains.parse(gains) if gains else Gains.default(grades)
    t = Topic.parse(topic) if topic else None
    m = parse_measure(name)
    build = rank_space if order == "rank" else set_space
    for depth in depths:
        space = build(depth, grades, t)
        want = check_measure(m, space, g)
        got = axioms_smt(m, order, depth, grades, g, t, timeout=60)
        for k in AXIOMS:
            # no unknown on these small spaces: each is decided well within the limit
            assert got.axioms[k].status == ("holds" if want.axioms[k].holds else "fails"), (depth, k, got.axioms[k])
        w = got.axioms["iv"].witness
        if w is not None:
            runs = {"".join(str(int(x)) for x in row): row for row in space.array()}
            val = {n: Fraction(m.value(tuple(int(x) for x in r), g, t)) for n, r in runs.items()}
            a, b, c, d = (val[w[k]] for k in "abcd")
            assert 0 <= d - c <= b - a
            assert str(a + d - c) == w["needed_value"] and a + d - c not in set(val.values())


@pytest.mark.slow
def test_smt_beyond_enumeration_depth_30():
    depth = 30
    with pytest.raises(SpaceTooLargeError):
        check_measure(parse_measure("RBP(p=0.8)"), rank_space(depth))
    got = axioms_smt("RBP(p=0.8)", "rank", depth, timeout=60)
    assert [got.axioms[k].status for k in AXIOMS] == ["holds", "holds", "holds", "fails"]
    w = got.axioms["iv"].witness

    # 5^30 * RBP(p=0.8)(x) = sum_i x_i 4^(i-1) 5^(30-i): integers.  Is the needed value attained?
    # Meet in the middle over the 2^15 halves, independent of z3.
    weights = [4**i * 5 ** (depth - 1 - i) for i in range(depth)]

    def scaled(run):
        return sum(wt for wt, ch in zip(weights, run) if ch == "1")

    a, b, c, d = (scaled(w[k]) for k in "abcd")
    assert Fraction(a, 5**depth) == Fraction(w["a_value"]) and Fraction(d, 5**depth) == Fraction(w["d_value"])
    assert 0 <= d - c <= b - a
    need = a + d - c
    assert Fraction(need, 5**depth) == Fraction(w["needed_value"])
    left = {sum(wt for wt, bit in zip(weights[:15], bits) if bit) for bits in itertools.product((0, 1), repeat=15)}
    right = [sum(wt for wt, bit in zip(weights[15:], bits) if bit) for bits in itertools.product((0, 1), repeat=15)]
    assert not any(need - r in left for r in right)


def test_smt_refuses_logarithms():
    with pytest.raises(NotExpressibleError):
        axioms_smt("DCG", "rank", 3)


# ---------------------------------------------------------------------------
# the command line


def _cli(capsys, *argv):
    from workbench.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out = capsys.readouterr()
    return exc.value.code or 0, out.out, out.err


def test_cli_param_json(capsys):
    code, out, _ = _cli(capsys, "axioms", "--measure", "RBP", "--param", "p", "--depth", "3", "--json")
    js = json.loads(out)
    assert code == 0
    assert {"measure", "param", "depth", "regions", "critical_points"} <= set(js)
    assert [(r["low"], r["high"], r["low_closed"], r["high_closed"], r["difference_structure"]) for r in js["regions"]] == [
        ("0", "1/2", False, False, False), ("1/2", "1/2", True, True, True), ("1/2", "1", False, False, False)]
    assert [r["verdict"] for r in js["regions"]] == ["fails iv", "holds", "fails iv"]
    assert js["regions"][0]["axioms"]["iv"]["witness"]["a"] == "000"


def test_cli_param_exit_1_when_no_region_holds(capsys):
    code, out, _ = _cli(capsys, "axioms", "--measure", "gRBP", "--param", "p", "--order", "set", "--grades", "2", "--depth", "2")
    assert code == 1 and "fails iv" in out


@pytest.mark.slow
def test_cli_smt(capsys):
    code, out, _ = _cli(capsys, "axioms", "--measure", "RBP(p=0.5)", "--method", "smt", "--depth", "5", "--json")
    js = json.loads(out)
    assert code == 0 and js["status"] == "holds" and js["method"] == "smt"
    code, out, _ = _cli(capsys, "axioms", "--measure", "RBP(p=1/3)", "--method", "smt", "--depth", "25", "--json")
    js = json.loads(out)
    assert code == 1 and js["axioms"]["iv"]["status"] == "fails" and js["axioms"]["i"]["status"] == "holds"


@pytest.mark.parametrize("argv,named", [
    (["--measure", "RBP", "--param", "p", "--method", "smt"], "--method smt"),
    (["--rank", "rank", "--param", "p"], "--param"),
    (["--measure", "RBP", "--param", "p", "--compare", "RBP"], "--compare"),
    (["--measure", "RBP", "--method", "magic"], "magic"),
    (["--measure", "INST", "--param", "T", "--depth", "2"], "not a polynomial"),
    (["--measure", "RBP(p=0.5)", "--method", "smt", "--axiom-timeout", "0"], "--axiom-timeout 0"),
    (["--measure", "DCG", "--method", "smt"], "logarithms"),
])
def test_cli_bad_combinations(capsys, argv, named):
    code, out, err = _cli(capsys, "axioms", *argv)
    assert code == 2 and named in err and out == ""


def test_unique_rows_of_huge_coefficients_against_a_literal_scan():
    # rows whose coefficients overflow int64 take the object-array path; the oracle scans pairs literally
    import random

    import numpy as np

    from workbench.scale.axioms_param import _Analysis

    rng = random.Random(14)
    for _ in range(100):
        rows = [[rng.choice([0, 1, -3, 10**30]) for _ in range(3)] for _ in range(rng.randint(1, 25))]
        V, first, inverse = _Analysis._unique_object(np.array(rows, dtype=object))
        distinct = [list(r) for r in V.tolist()]
        assert all(distinct[i] != distinct[j] for i in range(len(distinct)) for j in range(i))
        assert [distinct[int(k)] for k in inverse] == rows
        for k, i in enumerate(first):
            assert rows[i] == distinct[k] and all(rows[j] != distinct[k] for j in range(i))


@pytest.mark.parametrize("method", [("--param", "p"), ("--method", "smt")])
def test_cli_header_prints_a_bracketed_file_name_literally(capsys, tmp_path, method):
    path = tmp_path / "m[red].py"
    path.write_text('import workbench as wb\n\n\n@wb.parameter("p", "1/2", "(0, 1)")\n'
                    "def f(A, p):\n    return A.rel(0) + p * A.rel(1)\n")
    code, out, _ = _cli(capsys, "axioms", "--measure", f"{path}:f", *method, "--depth", "2")
    assert code == 0 and "m[red].py:f" in out.replace("\n", "")  # a long path may wrap anywhere, even inside the name


def test_values_closer_than_a_double_are_ordered_at_an_algebraic_point():
    """Two values 2^-70 apart at p = sqrt 2: their order is certified by exact ball midpoints, not by doubles."""
    import signal

    import numpy as np
    import sympy

    from workbench.core.algebraic import from_crootof
    from workbench.scale.axioms_param import _PointValues

    def stop(*_):
        raise AssertionError("ordering the values did not finish (a float key cannot separate them)")

    signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    try:
        p = sympy.Symbol("p")
        point = from_crootof(sympy.CRootOf(p**2 - 2, 1))
        rows = np.array([[2**70 + 1, 0], [2**70, 0]], dtype=object)  # 1 + 2^-70 and 1 (den 2^70)
        values = _PointValues(rows, 2**70, point)
    finally:
        signal.alarm(0)
    assert values.order == [1, 0]
