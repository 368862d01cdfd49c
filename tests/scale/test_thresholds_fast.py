"""The exact shortcuts of thresholds (workbench.scale.threshold_fast) against the general computation.

Every shortcut is checked against the path it replaces, on every small case:

* a run's rational function from :class:`FieldAlgebra` equals the sympy
  path's (:func:`workbench.core.rational.rational_function` of the run's
  expression), and its guards include the sympy path's, for every run of
  small spaces of several measures (a topic, a cut-off, a user's measure);
* the additive form is found exactly for RBP, gRBP, RBP@k, INSQ and
  geometric precision (not for INST, Twist, AP, DCG or RR), and its difference of every
  pair of runs equals the difference of the sympy rational functions;
* the analysis with the shortcuts groups covers and tied pairs into the same
  groups, with the same first pairs, the same difference functions and the
  same counts as without them, over measures, orders (rank, set, dominance,
  swap, raise, ipso, replacement), depths up to 8 and topics;
* the whole table (its JSON: regions, witnesses, certificates, floats) is
  the same with and without the shortcuts;
* the batch signs at an algebraic number equal ``RationalFunction.sign_at``
  and the floats read off isolating intervals equal ``to_float``.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
import sympy

from workbench.core.algebraic import AlgebraicPoint, real_roots
from workbench.core.exact import to_float
from workbench.core.rational import rational_function
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale import thresholds as thr
from workbench.scale.threshold_fast import additive_in_param, root_float, run_rational_function, signs_at
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space, set_space

GP = "examples/geometric_precision.py:gp"


def sympy_rf(measure, run, gains, topic, param):
    x = sympy.Symbol(param, positive=True)
    return rational_function(measure.expression(run, gains, topic, free=(param,), keep_guards=True), x)


def coeffs(polys):
    return {tuple(p.all_coeffs()) for p in polys}


RF_CASES = [
    # measure, param, depth, grades, topic, gains
    ("RBP", "p", 8, 1, None, None),
    ("RBP@3", "p", 5, 1, None, None),
    ("gRBP", "p", 4, 2, None, None),
    ("gRBP", "p", 3, 2, None, Gains((Fraction(0), Fraction(1), Fraction(3)))),
    ("INST", "T", 6, 1, None, None),
    ("INST", "T", 3, 2, None, None),
    ("INST(output=ED)", "T", 4, 1, None, None),
    ("INSQ", "T", 5, 1, None, None),
    ("INSQ(output=ETU)", "T", 4, 2, None, None),
    (GP, "p", 6, 1, None, None),
    ("Twist", "w", 4, 1, Topic((2,)), None),
    ("Twist", "w", 3, 2, Topic((1, 1)), None),
]


@pytest.mark.parametrize("case", RF_CASES, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
@pytest.mark.slow
def test_field_algebra_gives_the_sympy_rational_function(case):
    name, param, depth, grades, topic, gains = case
    m = parse_measure(name)
    gains = gains or Gains.default(grades)
    x = sympy.Symbol(param, positive=True)
    followed = 0
    for run in itertools.product(range(grades + 1), repeat=depth):
        try:
            slow = sympy_rf(m, run, gains, topic, param)
        except Exception as e:  # noqa: BLE001 - a run the sympy path refuses (or a run the topic cannot hold)
            fast = run_rational_function(m, run, gains, topic, param, x)
            assert fast is None or type(e).__name__ == "NotExpressibleError", (run, e)
            continue
        fast = run_rational_function(m, run, gains, topic, param, x)
        if fast is None:
            continue
        followed += 1
        assert fast[0].rational_function(x) == slow[0], run
        assert coeffs(fast[1]) >= coeffs(slow[1]), run
    if not name.startswith("Twist"):
        assert followed > 0


ADDITIVE = [("RBP", "p", 6, 1), ("RBP@3", "p", 5, 1), ("gRBP", "p", 4, 2), ("gRBP(p=1/3)", "p", 3, 3),
            ("INSQ", "T", 4, 1), (GP, "p", 5, 1)]  # INSQ's continuation and GP's weights do not depend on the run
NOT_ADDITIVE = [("INST", "T"), ("AP", "p"), ("DCG", "p"), ("RR", "p")]


@pytest.mark.parametrize("case", ADDITIVE, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
@pytest.mark.slow
def test_additive_form_gives_every_difference(case):
    name, param, depth, grades = case
    m = parse_measure(name)
    gains = Gains.default(grades)
    x = sympy.Symbol(param, positive=True)
    form = additive_in_param(m, depth, gains, None, param)
    assert form is not None
    runs = list(itertools.product(range(grades + 1), repeat=depth))
    rf = {r: sympy_rf(m, r, gains, None, param)[0] for r in runs}
    for a in runs:
        for b in runs[:: max(1, len(runs) // 40)]:
            assert form.between(a, b).element(x) == (rf[b] - rf[a]).element, (a, b)


@pytest.mark.parametrize("case", ADDITIVE, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
def test_one_trace_two_coefficient_fields_agree(case):
    """The same trace with the parameter free (rational functions) and fixed (exact constants):
    every coefficient of the free form, evaluated at the fixed value, is the fixed form's."""
    from workbench.measures.additive import additive_form

    name, param, depth, grades = case
    m = parse_measure(name)
    gains = Gains.default(grades)
    free = additive_in_param(m, depth, gains, None, param)
    for q in (Fraction(1, 3), Fraction(3, 4), Fraction(5, 2)):
        try:
            fixed_measure = m.with_params(**{param: q})
        except Exception:  # noqa: BLE001 - outside the parameter's domain
            continue
        fixed = additive_form(fixed_measure, depth, gains)
        assert fixed is not None
        for i in range(depth):
            for g in range(grades + 1):
                rf = free.table[i][g].rational_function(sympy.Symbol(param, positive=True))
                assert rf.value_at(q) == fixed.table[i][g], (i, g, q)
        assert free.const.rational_function(sympy.Symbol(param, positive=True)).value_at(q) == fixed.const


@pytest.mark.parametrize("name,param", NOT_ADDITIVE)
def test_not_additive_measures_are_not_traced_as_additive(name, param):
    assert additive_in_param(parse_measure(name), 3, Gains.default(1), Topic((2,)), param) is None
    assert additive_in_param(parse_measure("Twist"), 3, Gains.default(1), Topic((2,)), "w") is None


ANALYSIS_CASES = (
    [("RBP", "p", order, rank_space(d)) for order in ("dominance", "rank", "swap", "raise") for d in range(1, 9)]
    + [("RBP", "p", "set", set_space(d)) for d in range(1, 9)]
    + [("RBP@3", "p", "dominance", rank_space(d)) for d in range(1, 7)]
    + [("gRBP", "p", order, rank_space(d, 2)) for order in ("dominance", "ipso", "raise") for d in range(1, 6)]
    + [("gRBP", "p", "replacement", set_space(d, 2, Topic((1, 1)))) for d in range(1, 5)]
    + [("gRBP", "p", "raise", rank_space(d, 2, Topic((1, 2)))) for d in range(1, 5)]
    + [("RBP", "p", "dominance", rank_space(d, 1, Topic((2,)))) for d in range(1, 8)]
    + [("INST", "T", "rank", rank_space(d)) for d in range(1, 6)]
    + [("INST", "T", "dominance", rank_space(d)) for d in range(1, 5)]
    + [("INSQ", "T", "dominance", rank_space(d)) for d in range(1, 5)]
    + [(GP, "p", "rank", rank_space(d)) for d in range(1, 5)]
)


def analysis(case, fast: bool, gains=None):
    name, param, order, space = case
    gains = gains or Gains.default(space.grades)
    return thr._Analysis(parse_measure(name), param, get_order(order), space, gains, lambda s: None, None, fast)


@pytest.mark.parametrize("case", ANALYSIS_CASES, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
@pytest.mark.slow
def test_shortcuts_group_covers_as_the_general_path(case):
    fast, slow = analysis(case, True), analysis(case, False)
    if case[0].startswith("RBP") or case[0] in ("gRBP", "INSQ", GP):
        assert fast.form is not None
    assert slow.form is None
    assert fast.cover_groups == slow.cover_groups
    assert fast.tie_groups == slow.tie_groups
    assert [f.element for f in fast.d] == [f.element for f in slow.d]
    assert [f.element for f in fast.t] == [f.element for f in slow.t]
    assert (fast.n_covers, fast.n_ties, fast.degree) == (slow.n_covers, slow.n_ties, slow.degree)
    assert set(fast.exact_points) == set(slow.exact_points)


def test_unequal_gains_group_the_same():
    gains = Gains((Fraction(0), Fraction(1), Fraction(3)))
    for order in ("ipso", "dominance"):
        case = ("gRBP", "p", order, rank_space(3, 2))
        fast, slow = analysis(case, True, gains), analysis(case, False, gains)
        assert fast.form is not None and fast.cover_groups == slow.cover_groups


TABLE_CASES = (
    [("RBP", "p", order, rank_space(d)) for order in ("dominance", "rank") for d in range(1, 9)]
    + [("RBP", "p", "set", set_space(d)) for d in range(1, 9)]
    + [("gRBP", "p", "dominance", rank_space(d, 2)) for d in (2, 3, 4)]
    + [("RBP", "p", "dominance", rank_space(d, 1, Topic((2,)))) for d in (3, 5)]
    + [("INST", "T", "rank", rank_space(d)) for d in range(1, 6)]
    + [("INSQ", "T", "dominance", rank_space(3))]
    + [(GP, "p", "rank", rank_space(d)) for d in (2, 3, 4)]
)


@pytest.mark.parametrize("case", TABLE_CASES, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
@pytest.mark.slow
def test_tables_are_the_same_with_and_without_shortcuts(case, monkeypatch):
    name, param, order, space = case

    def table():
        return json.dumps(thr.thresholds(parse_measure(name), param, get_order(order), space).to_json(),
                          sort_keys=True)

    fast = table()
    monkeypatch.setattr(thr, "FAST_PATHS", False)
    thr._PRINTED.clear()
    assert table() == fast


def test_signs_at_algebraic_numbers_match_sign_at():
    p = sympy.Symbol("p", positive=True)
    points = [r for f in (p**2 + p - 1, p**3 - 2 * p + Fraction(1, 3), 5 * p**4 - 7 * p + 1)
              for r in real_roots(sympy.Poly(f, p)) if isinstance(r, AlgebraicPoint)]
    exprs = [p**2 + p - 1, (p**2 + p - 1) * (p - 3), 2 * p - 1, (p**3 - 2 * p + sympy.Rational(1, 3)) / (p + 4),
             (5 * p**4 - 7 * p + 1) ** 2 - p, 1 / (p**2 + p - 1 + sympy.Rational(1, 10**12)), sympy.Integer(0),
             p - sympy.Rational(618033988, 10**9)]
    functions = [rational_function(e, p)[0] for e in exprs]
    for x in points:
        assert signs_at(functions, x).tolist() == [f.sign_at(x) for f in functions], x


def test_root_floats_match_to_float():
    p = sympy.Symbol("p")
    for f in (p**2 + p - 1, p**2 - 2, 10**12 * p**2 - 2, p**5 - p - 1, p**3 - 10**30, 3 * p**7 - 5 * p**2 + 1):
        for r in real_roots(sympy.Poly(f, p, domain="QQ")):
            if isinstance(r, AlgebraicPoint):
                assert root_float(r) == to_float(r.sympy()), r


@pytest.mark.slow
def test_crootof_text_and_descartes_filter_match_sympy():
    from workbench.core.algebraic import roots_in
    from types import SimpleNamespace

    from workbench.scale.threshold_fast import crootof_text, no_roots_in

    p = sympy.Symbol("T", positive=True)
    an = analysis(("INST", "T", "rank", rank_space(5)), True)
    polys = [h for f in [*an.d, *an.e] for h in (f.num, f.den)]
    polys += [sympy.Poly(e, p) for e in (p**2 + p - 1, 3 * p**5 - p**2 + 7 * p - 1, -p**3 + 2, p - 5, p**4 + 1)]
    domains = [SimpleNamespace(low=Fraction(0), high=None), SimpleNamespace(low=Fraction(0), high=Fraction(1)),
               SimpleNamespace(low=None, high=Fraction(1, 2)), SimpleNamespace(low=Fraction(-3), high=Fraction(2))]
    for poly in polys:
        for ps in domains:
            if no_roots_in(poly, ps.low, ps.high):
                assert roots_in(poly, ps, {}) == [], (poly, ps)
        for r in real_roots(poly) if poly.degree() >= 1 else []:
            if isinstance(r, AlgebraicPoint):
                c = r.sympy()
                assert crootof_text(c) == sympy.sstr(c)


# ---------------------------------------------------------------------------
# covers grouped by the runs' exact rational functions (small spaces of high degree)

FUNCTION_CASES = (
    [("INST", "T", "rank", rank_space(d)) for d in range(1, 7)]
    + [("INST", "T", "dominance", rank_space(d)) for d in range(1, 6)]
    + [("INST", "T", "rank", rank_space(d, 2)) for d in (2, 3)]
    + [("INST(output=ED)", "T", "rank", rank_space(4))]
    + [("INST", "T", "set", set_space(4))]
    + [("INST", "T", "replacement", set_space(3, 2, Topic((1, 1))))]
    + [("Twist", "w", "rank", rank_space(d, 1, Topic((2,)))) for d in (4, 5)]
)


@pytest.mark.parametrize("block", [None, 1, 3])
@pytest.mark.parametrize("case", FUNCTION_CASES, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
@pytest.mark.slow
def test_grouping_by_functions_groups_as_the_general_path(case, block, monkeypatch):
    """Forced on every small case: the same groups, representatives, differences and increments as scoring."""
    monkeypatch.setattr(thr, "_FUNCTION_GROUPING_POINTS", 0)
    name, param, order, space = case
    gains = Gains.default(space.grades)

    def run(fast):
        return thr._Analysis(parse_measure(name), param, get_order(order), space, gains, lambda s: None, block, fast)

    fast, slow = run(True), run(False)
    if name.startswith("INST"):
        assert fast.by_functions
    assert not slow.by_functions
    assert fast.cover_groups == slow.cover_groups and fast.tie_groups == slow.tie_groups
    assert [f.element for f in fast.d] == [f.element for f in slow.d]
    assert [f.element for f in fast.t] == [f.element for f in slow.t]
    assert [f.element for f in fast.e] == [f.element for f in slow.e]
    assert (fast.n_covers, fast.n_ties, fast.degree) == (slow.n_covers, slow.n_ties, slow.degree)
    assert set(fast.exact_points) == set(slow.exact_points)


@pytest.mark.parametrize("case", [("INST", "T", "rank", rank_space(6)), ("INST", "T", "dominance", rank_space(4)),
                                  ("INST(output=ED)", "T", "rank", rank_space(4))],
                         ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
@pytest.mark.slow
def test_tables_grouped_by_functions_are_the_general_tables(case, monkeypatch):
    name, param, order, space = case
    monkeypatch.setattr(thr, "_FUNCTION_GROUPING_POINTS", 0)

    def table():
        return json.dumps(thr.thresholds(parse_measure(name), param, get_order(order), space).to_json(),
                          sort_keys=True)

    fast = table()
    monkeypatch.setattr(thr, "FAST_PATHS", False)
    thr._PRINTED.clear()
    assert table() == fast


def test_a_run_function_that_disagrees_with_the_measures_evaluation_is_an_error(monkeypatch):
    """The functions are checked against Measure.evaluate at a few rationals: a wrong one is caught."""
    from workbench.errors import NotExpressibleError
    from workbench.scale import threshold_fast as tf

    monkeypatch.setattr(thr, "_FUNCTION_GROUPING_POINTS", 0)
    real = tf.run_rational_function

    def off_by_a_little(measure, run, *args, **kwargs):
        out = real(measure, run, *args, **kwargs)
        if out is not None and tuple(run) == (0, 1, 1):
            out = (out[0] + tf.RF.gen() * Fraction(1, 10**6), out[1])
        return out

    monkeypatch.setattr(thr, "run_rational_function", off_by_a_little)
    with pytest.raises(NotExpressibleError) as e:
        thr._Analysis(parse_measure("INST"), "T", get_order("rank"), rank_space(3), Gains.default(1),
                      lambda s: None)
    assert "rational function of run 011" in str(e.value), str(e.value)


@pytest.mark.slow
def test_the_shortcuts_at_exact_points_match_the_slow_ones():
    """Flint refinement, rational signs and Newton enclosures against AlgebraicPoint, sign_at and to_float."""
    import copy

    import flint

    from workbench.scale import threshold_fast as tf

    an = analysis(("INST", "T", "rank", rank_space(6)), True)
    slow = analysis(("INST", "T", "rank", rank_space(6)), False)
    points = slow.critical_points()
    algebraic = [r for r in points if isinstance(r, AlgebraicPoint)]
    assert len(algebraic) > 20
    # the same bisections: the intervals end up equal
    for r in algebraic:
        a, b = copy.deepcopy(r), copy.deepcopy(r)
        tf.refine_to(a, Fraction(1, 1 << 40))
        b.refine_to(Fraction(1, 1 << 40))
        assert (a.lo, a.hi) == (b.lo, b.hi)
    assert [r.key if isinstance(r, AlgebraicPoint) else r for r in an.critical_points()] == \
        [r.key if isinstance(r, AlgebraicPoint) else r for r in points]
    # signs at rationals, and at the algebraic numbers
    functions = [*an.d, *an.e]
    table = [f.flint_polys()[:2] + (f.is_polynomial,) for f in functions]
    for q in [Fraction(1, 7), Fraction(1), Fraction(5, 3), Fraction(40)] + [r for r in points if not isinstance(r, AlgebraicPoint)]:
        assert tf.signs_at_rational(table, q).tolist() == [f.sign_at(q) for f in functions], q
    for r in algebraic[:10]:
        assert tf.signs_at_prepared(tf.prepare_signs(functions), r).tolist() == [f.sign_at(r) for f in functions]
    # Newton enclosures are proved by signs; the floats are to_float's
    for r in algebraic:
        minimal = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in reversed(r.coeffs)])
        lo, hi = flint.fmpq(r.lo.numerator, r.lo.denominator), flint.fmpq(r.hi.numerator, r.hi.denominator)
        got = tf._newton_enclosure(minimal, lo, hi, r.sign_at_lo)
        if got is not None:
            a, b = got
            assert lo < a < b < hi and tf.sgn(minimal(a)) == r.sign_at_lo == -tf.sgn(minimal(b))
        assert root_float(r) == to_float(r.sympy()), r


def _def_late_guard(A, P, topic, k):
    """``sum_i p^(i-1) [r_i >= 1]`` times ``y / y`` (``y = 2p - 1`` when the last rank is relevant, else 1), 0 where ``y = 0``."""
    p = P["p"]
    y = A.const(1) + A.rel(A.depth - 1) * (2 * p - 2)
    hits = A.sum(p ** i * A.rel(i) for i in range(A.depth))
    return A.ratio(hits * y, y, 0)


def test_a_run_with_a_guard_root_in_the_domain_sends_the_grouping_back_to_scoring(monkeypatch):
    """Runs ending in a relevant document take if_zero at p = 1/2: grouping by functions gives up (mid-stream
    with one run per block) and the space is scored at the sample points, as on the general path."""
    from workbench.measures.families import Family, register_family
    from workbench.measures.measure import Measure
    from workbench.measures.params import P_PERSISTENCE

    register_family(Family("late_guard.py:G", (P_PERSISTENCE,), False, "test family", "this test", _def_late_guard))
    monkeypatch.setattr(thr, "_FUNCTION_GROUPING_POINTS", 0)
    for block in (None, 1):
        def run(fast):
            return thr._Analysis(Measure("late_guard.py:G"), "p", get_order("rank"), rank_space(4),
                                 Gains.default(1), lambda s: None, block, fast)

        fast, slow = run(True), run(False)
        assert fast.form is None and not fast.by_functions
        assert fast.cover_groups == slow.cover_groups and fast.tie_groups == slow.tie_groups
        assert [f.element for f in fast.d] == [f.element for f in slow.d]
        assert (fast.n_covers, fast.n_ties) == (slow.n_covers, slow.n_ties)
        assert set(fast.exact_points) == set(slow.exact_points) == {Fraction(1, 2)}
