"""Real algebraic parameter values (issue 14, part 3): syntax, exact arithmetic in QQ(alpha), verdicts.

Oracles written here, separately from the code under test:

* numbers in QQ(alpha) as Fraction coefficient lists reduced by a polynomial
  remainder written below (:func:`reduce_mod`), with the sign of a non-zero
  element from sympy's evalf at 60 digits (zero only when every coefficient
  is zero: ``1, alpha, ..., alpha^(d-1)`` are independent over QQ);
* the roots of a polynomial from sympy's ``nroots`` at 50 digits;
* RBP of every binary run as ``(1 - p) sum_i p^i r_i`` reduced modulo the
  minimal polynomial, and the rank order as the runs sorted as binary numbers.
"""
from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
import sympy

from workbench.cli.main import main
from workbench.core.algebraic import AlgebraicPoint, endpoint_label
from workbench.core.algebraic_syntax import MAX_DEGREE, parse_real
from workbench.core.exact import ONE, ValueBlock, algebraic_power
from workbench.errors import BadParameterError, NotExpressibleError
from workbench.measures.names import parse_measure
from workbench.scale.thresholds import thresholds, thresholds_over_depths
from workbench.space.runs import Gains

P = sympy.Symbol("p")


# --- oracle: QQ(alpha) with Fractions -------------------------------------------------------


def reduce_mod(coeffs: list, f: list) -> list:
    """``coeffs`` (lowest degree first) modulo the monic ``f`` (lowest first), by long division."""
    c = list(coeffs)
    d = len(f) - 1
    for m in range(len(c) - 1, d - 1, -1):
        top = c[m]
        if top:
            for k in range(d + 1):
                c[m - d + k] -= top * f[k]
    return (c + [Fraction(0)] * d)[:d]


def poly_mul(a: list, b: list) -> list:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, u in enumerate(a):
        for j, v in enumerate(b):
            out[i + j] += u * v
    return out


def monic_low_first(poly: sympy.Poly) -> list:
    c = [Fraction(int(x.p), int(x.q)) for x in poly.all_coeffs()]
    return [x / c[0] for x in reversed(c)]


def oracle_sign(coeffs: list, root: sympy.Expr) -> int:
    return _oracle_sign(tuple(coeffs), root)


@functools.lru_cache(maxsize=None)
def _oracle_sign(coeffs: tuple, root: sympy.Expr) -> int:
    """:func:`oracle_sign`, evaluated once per (coefficients, root): a pure function, cached for speed only
    (the 2^N - 1 consecutive gaps of the rank order take about N distinct values, each a 60-digit evalf)."""
    if not any(coeffs):
        return 0
    v = sum(sympy.Rational(c.numerator, c.denominator) * root**k for k, c in enumerate(coeffs))
    x = sympy.N(v, 60)
    assert abs(x) > sympy.Float("1e-40", 60), "a non-zero element this small: the oracle cannot decide"
    return 1 if x > 0 else -1


def block_row(block: ValueBlock, i: int, d: int) -> list:
    """Row ``i`` of a block in QQ(alpha) as Fraction coefficients of ``1, alpha, ..., alpha^(d-1)``."""
    assert block.scale == 1
    out = [Fraction(0)] * d
    for j, e in enumerate(block.basis):
        k = 0 if e == ONE else e[2]
        out[k] += Fraction(int(block.coords[i if block.n > 1 else 0, j]), block.den)
    return out


def block_of(rows: list, alpha: AlgebraicPoint) -> ValueBlock:
    """A block from Fraction coefficient rows, built through the public arithmetic."""
    out = None
    for k in range(alpha.degree):
        col = [r[k] for r in rows]
        den = 1
        for c in col:
            den = den * c.denominator // np.gcd(den, c.denominator)
        term = ValueBlock.rational([int(c * den) for c in col], den)
        if k:
            term = term * ValueBlock.constant(1, algebraic_power(alpha, k))
        out = term if out is None else out + term
    return out


def in_field(expr, alpha: AlgebraicPoint) -> list:
    """A sympy polynomial expression in ``alpha`` as its reduced coefficients (an exact identity test)."""
    t = sympy.Symbol("t")
    expr = sympy.sympify(expr)
    # sympy caches CRootOf by its polynomial whatever the variable's assumptions, so match roots by
    # (polynomial coefficients, index), not by the identity of the symbol they print with
    target = (tuple(sympy.Poly(alpha.f).monic().all_coeffs()), alpha.sympy().index)
    roots = {r: t for r in expr.atoms(sympy.CRootOf)
             if (tuple(sympy.Poly(r.expr, r.poly.gen).monic().all_coeffs()), r.index) == target}
    poly = sympy.Poly(sympy.expand(expr.xreplace(roots)), t, domain="QQ")
    return reduce_mod([Fraction(int(c.p), int(c.q)) for c in reversed(poly.all_coeffs())], monic_low_first(alpha.f))


def run_cli(argv: list) -> int:
    try:
        main(argv)
    except SystemExit as e:
        return int(e.code or 0)
    return 0


# --- syntax ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_root_is_the_real_root_nearest_the_approximation_by_an_independent_oracle():
    rng = random.Random(14)
    checked = 0
    for _ in range(60):
        deg = rng.randint(2, 5)
        coeffs = [rng.randint(-6, 6) for _ in range(deg)] + [rng.choice([1, 2, 3])]
        expr = sum(c * P**k for k, c in enumerate(coeffs))
        roots = sorted(r for r in sympy.Poly(expr, P).nroots(n=50) if r.is_real)
        if not roots:
            with pytest.raises(BadParameterError, match="has no real root"):
                parse_real(f"root({expr}, 0)")
            continue
        for q in (Fraction(rng.randint(-40, 40), rng.randint(1, 9)) for _ in range(3)):
            dist = sorted((abs(r - sympy.Rational(q.numerator, q.denominator)), r) for r in roots)
            if len(dist) > 1 and dist[1][0] - dist[0][0] < sympy.Float("1e-30"):
                continue  # a near tie: not an oracle question
            got = parse_real(f"root({expr}, {q})")
            assert abs(sympy.N(sympy.Float(float(got), 30) - dist[0][1], 30)) < 1e-9, (expr, q)
            checked += 1
    assert checked > 60


def test_both_syntaxes_name_the_same_number_and_reduce_to_the_irreducible_factor():
    a = parse_real("root(p**3+p**2+p-1, 0.54)")
    b = parse_real("CRootOf(p**3 + p**2 + p - 1, 0)")
    c = parse_real("root((x**3 + x**2 + x - 1) * (x**2 - 7), 1/2)")  # any variable name, a reducible product
    assert a == b == c and hash(a) == hash(c)
    assert a.coeffs == [1, 1, 1, -1]
    assert parse_real("root(2*p**2 - 3*p + 1, 0.9)") == Fraction(1)  # a rational root is a Fraction
    assert parse_real("CRootOf(x**2*(x - 1), 1)") == 0  # sympy's indexing counts multiplicity
    assert str(parse_real("root(4*p**2 - 8, 1.4)")) == "root(p**2 - 2, 1.41421)"
    # a hair off the midpoint 3/2 of sqrt 2 and 3 - sqrt 2 decides between them
    assert parse_real("root((p**2 - 2)*((p - 3)**2 - 2), 1.5000000000000000000000000001)") == \
        parse_real("CRootOf(p**2 - 6*p + 7, 0)")
    assert parse_real("root((p**2 - 2)*((p - 3)**2 - 2), 1.4999999999999999999999999999)") == \
        parse_real("CRootOf(p**2 - 2, 1)")
    assert str(parse_real("root(p**2/3 + p/2 - 1/5, 0.3)")).startswith("root(10*p**2 + 15*p - 6, ")


def test_order_against_rationals_and_equality():
    a = parse_real("root(p**2 + p - 1, 0.6)")  # 0.6180339887...
    assert Fraction(618033, 10**6) < a < Fraction(618034, 10**6)
    assert a > 0 and a <= 1 and not a == Fraction(618034, 10**6) and a != 0
    assert sorted([Fraction(1, 2), a, Fraction(2, 3)]) == [Fraction(1, 2), a, Fraction(2, 3)]
    assert parse_real("root(p**2 + p - 1, -2)") < -1


def test_printed_approximation_identifies_the_root_even_when_roots_are_close():
    # 1 +- sqrt(2) 10^-9: both roots round to 1 at 6 digits, which is equally near both
    expr = "p**2 - 2*p + 1 - 2/10**18"
    lo, hi = parse_real(f"CRootOf({expr}, 0)"), parse_real(f"CRootOf({expr}, 1)")
    for x in (lo, hi):
        text = str(x)
        approx = text.rsplit(", ", 1)[1].rstrip(")")
        assert len(approx.replace(".", "").lstrip("0")) > 6, text
        assert parse_real(text) == x
        # the oracle: the approximation is nearer this root than the other one
        other = hi if x is lo else lo
        q = sympy.Rational(approx)
        assert abs(q - x.sympy()).evalf(40) < abs(q - other.sympy()).evalf(40)


@pytest.mark.parametrize("text", [
    "RBP(p=root(p**3+p**2+p-1, 0.54))", "RBP(p=CRootOf(x**2 + x - 1, 1))@5", "gRBP(p=root(3*p**3 - 1, 0.7))",
    "RBP(p=root(p**2 - p + 1/4 - 2/10**18, 0.5000001))",
])
def test_canonical_names_print_the_syntax_and_parse_back_to_an_equal_measure(text):
    m = parse_measure(text)
    s = str(m)
    assert "=root(" in s and "p**" in s and "CRootOf" not in s and "x" not in s
    again = parse_measure(s)
    assert again == m and hash(again) == hash(m) and str(again) == s
    assert m.with_params(p=m.param_dict["p"]) == m and m.with_params(p=str(m.param_dict["p"])) == m


@pytest.mark.parametrize("text, words", [
    ("root(p**2 + 1, 0)", "has no real root"),
    ("root(p**2 - 2, 0)", "equally near 0"),
    ("root((p-1)**2 - 2, 1)", "equally near 1"),
    ("root((p**2 - 2)*((p - 3)**2 - 2), 1.5)", "equally near 1.5"),  # sqrt 2 and 3 - sqrt 2: different factors
    ("root(p*q - 1, 1)", "one variable only"),
    ("root(p**2 - 2)", "two arguments"),
    ("root(p**1000 - 2, 1)", f"above {MAX_DEGREE}"),
    ("root(p**2.5 - 2, 1)", "exponent 2.5"),
    ("root(p**p - 2, 1)", "exponent p"),
    ("root(sin(p), 1)", "sin(p) is not allowed"),
    ("root(__import__('os'), 1)", "is not allowed"),
    ("root(p/(p+1) - 2, 1)", "only constant divisors"),
    ("root(p/0, 1)", "division by zero"),
    ("root(p - 1e-99999, 1)", "1000 digits"),
    ("root((p + 10**900)**5 - 1, 1)", "1000 digits"),
    ("root(7, 1)", "degree >= 1"),
    ("root(p**2 - 2, q)", "is not a number"),
    ("CRootOf(p**2 - 2, 2)", "no real root of index 2"),
    ("CRootOf(p**2 + 1, 0)", "no real root of index 0"),
    ("CRootOf(p**2 - 2, 1/2)", "integer >= 0"),
    ("root(p**2-2, 1", "not a number"),
])
def test_bad_algebraic_values_are_refused_in_one_line_naming_the_text(text, words):
    with pytest.raises(BadParameterError) as e:
        parse_real(text)
    msg = str(e.value)
    assert words in msg and "\n" not in msg and msg.startswith(text.strip()), msg


def test_bad_values_in_measure_names_and_on_the_cli(capsys):
    with pytest.raises(BadParameterError, match=r"outside \(0, 1\)"):
        parse_measure("RBP(p=root(p**2 - 2, 1.4))")
    with pytest.raises(BadParameterError, match="integers >= 2"):
        parse_measure("DCG(b=root(p**2 - 5, 2), discount=logb)")
    with pytest.raises(BadParameterError, match="equally near"):
        parse_measure("RBP(p=root(p**2 - 1/4, 0))")
    assert run_cli(["classify", "RBP(p=root(p**2 + 1, 0.5))", "--depth", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "root(p**2 + 1, 0.5)" in err[0] and "no real root" in err[0]


# --- ValueBlock arithmetic in QQ(alpha) against the Fraction oracle ----------------------------


FIELDS = ["CRootOf(p**2 + p - 1, 1)", "CRootOf(p**3 + p**2 + p - 1, 0)", "CRootOf(2*p**3 - 3*p + 5, 0)",
          "CRootOf(p**5 - 4*p + 2, 1)"]


@pytest.mark.parametrize("text", FIELDS)
@pytest.mark.slow
def test_products_quotients_and_signs_match_the_oracle(text):
    alpha = parse_real(text)
    f = monic_low_first(alpha.f)
    d = alpha.degree
    root = alpha.sympy()
    rng = random.Random(text)

    def rand_elem():
        return [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) if rng.random() < 0.8 else Fraction(0) for _ in range(d)]

    a_rows = [rand_elem() for _ in range(12)] + [[Fraction(0)] * d, [Fraction(1)] + [Fraction(0)] * (d - 1)]
    b_rows = [rand_elem() for _ in range(len(a_rows))]
    A, B = block_of(a_rows, alpha), block_of(b_rows, alpha)
    for i in range(len(a_rows)):
        assert block_row(A, i, d) == a_rows[i]
    prod, total = A * B, A + B - A * Fraction(1, 3)
    for i, (a, b) in enumerate(zip(a_rows, b_rows)):
        assert block_row(prod, i, d) == reduce_mod(poly_mul(a, b), f)
        assert block_row(total, i, d) == [x + y - x / 3 for x, y in zip(a, b)]
    # one row times many (broadcast), and quotients by one-row constants: (a / c) * c == a
    for c in b_rows[:4]:
        if not any(c):
            continue
        C = block_of([c], alpha)
        q = A / C
        for i, a in enumerate(a_rows):
            assert reduce_mod(poly_mul(block_row(q, i, d), c), f) == a
            assert block_row(A * C, i, d) == reduce_mod(poly_mul(a, c), f)
    # powers of alpha itself by repeated multiplication
    x = ValueBlock.constant(1, algebraic_power(alpha, 1)) if d > 1 else None
    w, expect = ValueBlock.constant(1), [Fraction(1)]
    for _ in range(2 * d + 2):
        w, expect = w * x, reduce_mod(poly_mul(expect, [Fraction(0), Fraction(1)]), f)
        assert block_row(w, 0, d) == expect
    # exact signs of all pairwise differences, and of each value
    lower, upper = np.array([i for i, j in itertools.product(range(len(a_rows)), repeat=2)]), \
        np.array([j for i, j in itertools.product(range(len(a_rows)), repeat=2)])
    got = A.signs(lower, upper)
    for s, i, j in zip(got, lower, upper):
        assert s == oracle_sign([y - x for x, y in zip(a_rows[i], a_rows[j])], root)
    assert A.sign().tolist() == [oracle_sign(a, root) for a in a_rows]
    assert [sympy.N(v - sum(sympy.Rational(c.numerator, c.denominator) * root**k for k, c in enumerate(a)), 30) == 0
            for v, a in zip(A.values(), a_rows)] == [True] * len(a_rows)


def test_signs_need_ball_arithmetic_near_zero():
    alpha = parse_real("root(p**2 - 2, 1.4)")
    # 665857/470832 - sqrt(2) is about 1.6e-12: a tiny positive difference, decided exactly
    close = block_of([[Fraction(665857, 470832), Fraction(0)], [Fraction(0), Fraction(1)]], alpha)
    assert close.signs(np.array([1]), np.array([0])).tolist() == [1]
    neg = parse_real("root(p**3 + 5, -1.7)")  # alpha < 0: alpha^1 alone in the basis is negative
    v = ValueBlock.constant(3, algebraic_power(neg, 1))
    assert v.sign().tolist() == [-1] and (v * v).sign().tolist() == [1]


def test_mixing_an_algebraic_number_with_logarithms_or_another_one_is_refused():
    alpha = ValueBlock.constant(1, algebraic_power(parse_real("root(p**2 - 2, 1)"), 1))
    beta = ValueBlock.constant(1, algebraic_power(parse_real("root(p**2 - 3, 1)"), 1))
    log = ValueBlock.constant(1, ("logratio", 2, 3))
    for bad in (lambda: alpha + log, lambda: alpha * log, lambda: alpha + beta, lambda: alpha * beta,
                lambda: ValueBlock.sum_of([alpha, log])):
        with pytest.raises(NotExpressibleError):
            bad()
    with pytest.raises(ZeroDivisionError):
        alpha / (alpha - alpha)


def test_measures_with_an_algebraic_parameter_in_each_algebra():
    m = parse_measure("RBP(p=root(p**2 + p - 1, 0.6))")
    alpha = m.param_dict["p"]
    phi = alpha.sympy()
    run = (1, 0, 1, 1)
    expect = (1 - phi) * (1 + phi**2 + phi**3)
    assert in_field(m.value(run, Gains.default()), alpha) == in_field(expect, alpha)
    assert in_field(m.expression(run, Gains.default()), alpha) == in_field(expect, alpha)
    with pytest.raises(NotExpressibleError, match="pinned by its polynomial"):
        m.z3_term(list(run), Gains.default())
    g = parse_measure("gRBP(p=root(p**2 + p - 1, 0.6))").value((2, 1), Gains.default(2))
    assert in_field(g, alpha) == in_field((1 - phi) * (2 + phi) / 2, alpha)


# --- acceptance: at every critical point of RBP's thresholds, depths 3..8 ----------------------


def oracle_rbp(run, f: list) -> list:
    """RBP of a binary run, ``(1 - p) sum_i p^i r_i``, reduced modulo the monic ``f``."""
    poly = [Fraction(0)] * (len(run) + 1)
    for i, r in enumerate(run):
        poly[i] += r
        poly[i + 1] -= r
    return reduce_mod(poly, f)


def oracle_verdict(depth: int, alpha) -> tuple[str, set, set]:
    """Verdict of RBP at ``alpha`` on binary runs in rank order, and the tied and violating consecutive pairs."""
    if isinstance(alpha, AlgebraicPoint):
        f, root = monic_low_first(alpha.f), alpha.sympy()
    else:  # a rational point: the field QQ, p - q = 0
        f, root = [-alpha, Fraction(1)], sympy.Rational(alpha.numerator, alpha.denominator)
    d = len(f) - 1
    runs = [tuple((n >> (depth - 1 - i)) & 1 for i in range(depth)) for n in range(2**depth)]  # rank order

    vals = [oracle_rbp(r, f) for r in runs]
    gaps = [[y - x for x, y in zip(a, b)] for a, b in zip(vals, vals[1:])]
    signs = [oracle_sign(g, root) for g in gaps]
    ties = {(runs[k], runs[k + 1]) for k, s in enumerate(signs) if s == 0}
    drops = {(runs[k], runs[k + 1]) for k, s in enumerate(signs) if s < 0}
    if drops:
        verdict = "violated"
    elif ties:
        verdict = "weak"
    else:
        verdict = "interval" if all(g == gaps[0] for g in gaps) else "ordinal"
    assert d >= 1
    return verdict, ties, drops


@pytest.mark.slow
def test_rbp_at_every_critical_point_of_depths_3_to_8_matches_exhaustive_enumeration():
    from workbench import api

    tables = thresholds_over_depths("RBP", "p", "rank", range(3, 9))
    seen = 0
    for table in tables:
        n = table.depth
        for c in table.critical:
            label = endpoint_label(c)  # the text the table prints, pasted back
            m = parse_measure(f"RBP(p={label})")
            alpha = m.param_dict["p"]
            verdict, ties, drops = oracle_verdict(n, alpha)
            got = api.classify(str(m), order="rank", depth=n)
            assert got.verdict == verdict, (n, label)
            assert table.verdict_at(label) == verdict and table.verdict_at(alpha) == verdict
            w = got.witness
            if verdict == "weak":
                # a witness is a tie of two runs lower <= upper in the rank order (not nec. consecutive)
                assert w is not None and w.lower < w.upper
                assert in_field(w.lower_value, alpha) == in_field(w.upper_value, alpha)
                assert any(a >= w.lower and b <= w.upper for a, b in ties)
            elif verdict == "violated":
                assert w is not None and w.lower < w.upper
                assert oracle_sign([x - y for x, y in zip(in_field(w.lower_value, alpha), in_field(w.upper_value, alpha))],
                                   alpha.sympy()) > 0
            else:
                assert w is None
            seen += 1
        # the weak point is the root of p + ... + p^(N-1) = 1 in (1/2, 1), with the tie 01..1 = 10..0
        weak = [r for r in table.regions if r.is_point and r.verdict == "weak"]
        assert len(weak) == 1
        alpha = parse_measure(f"RBP(p={endpoint_label(weak[0].low)})").param_dict["p"]
        assert alpha.coeffs == [1] * (n - 1) + [-1]
        assert ((0,) + (1,) * (n - 1), (1,) + (0,) * (n - 1)) in oracle_verdict(n, alpha)[1]
    assert seen == sum(len(t.critical) for t in tables) >= 20


def test_classify_cli_at_the_depth_4_threshold(capsys):
    assert run_cli(["classify", "RBP(p=root(p**3+p**2+p-1, 0.54))", "--depth", "4", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["measure"] == "RBP(p=root(p**3 + p**2 + p - 1, 0.543689))"
    assert out["verdict"] == "weak"
    assert (out["witness"]["lower"], out["witness"]["upper"]) == ([0, 1, 1, 1], [1, 0, 0, 0])
    assert out["witness"]["lower_value"] == out["witness"]["upper_value"]


@pytest.mark.slow
def test_counterexample_enumeration_and_thresholds_table_labels(capsys):
    from workbench import api

    golden = parse_real("root(p**2 + p - 1, 0.7)")
    for method in ("enumeration", "smt"):  # z3 pins p by f(p) = 0 and the isolating interval
        ce = api.counterexample("RBP(p=root(p**2 + p - 1, 0.7))", max_depth=6, method=method)
        assert ce.found and ce.depth == 4, method
        assert ce.lower < ce.upper  # lexicographic: the rank order
        f = monic_low_first(golden.f)
        gap = [x - y for x, y in zip(oracle_rbp(ce.lower, f), oracle_rbp(ce.upper, f))]
        assert oracle_sign(gap, golden.sympy()) > 0
        assert not oracle_verdict(3, golden)[2]
    at_threshold = parse_real("root(p**3 + p**2 + p - 1, 0.54)")
    assert not oracle_verdict(4, at_threshold)[2]
    none = api.counterexample("RBP(p=root(p**3 + p**2 + p - 1, 0.54))", depth=4, method="smt")
    assert not none.found and none.proof == "unsat"
    from workbench.order.orders import get_order
    from workbench.space.spaces import rank_space

    t = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(3))
    labels = [r.label() for r in t.regions]
    assert labels[3] == "[root(p**2 + p - 1, 0.618034)]"
    assert "root(p**2 + p - 1, 0.618034)" in repr(t) and "root(p**2 + p - 1, 0.618034)" in t._repr_html_()


def test_json_endpoints_and_critical_points_read_back_as_the_same_numbers():
    from workbench.core.algebraic import from_crootof

    for table in thresholds_over_depths("RBP", "p", "rank", range(3, 6)):
        data = table.to_json()
        for text, exact in zip(data["critical_points"], table.critical):
            assert parse_real(text) == from_crootof(exact) == parse_real(endpoint_label(exact))
        for r, region in zip(data["regions"], table.regions):
            for end, exact in ((r["low"], region.low), (r["high"], region.high)):
                if exact not in (sympy.oo, -sympy.oo):
                    assert parse_real(end) == from_crootof(exact)


def test_hasse_marks_the_ties_at_the_depth_3_threshold(capsys):
    import json

    label = "root(p**2 + p - 1, 0.6)"
    assert run_cli(["hasse", "--order", "rank", "--depth", "3", "--violations", f"RBP(p={label})", "--ties",
                    "--format", "json"]) == 0
    marks = {h["label"].split(": ", 1)[1]: h["edges"] for h in json.loads(capsys.readouterr().out)["highlights"]}
    alpha = parse_real(label)
    _, ties, drops = oracle_verdict(3, alpha)  # in a chain the covers are the consecutive pairs
    assert {tuple(map(tuple, e)) for e in marks["not strict, equal scores (1 covers)"]} == ties
    assert marks["lower run scores higher (0 of 7 covers)"] == [] and not drops


def test_a_users_parameterised_measure_takes_an_algebraic_value():
    """``p ** i`` in a user's file stays exact in QQ(alpha) (examples/geometric_precision.py)."""
    from pathlib import Path

    gp = Path(__file__).resolve().parents[2] / "examples" / "geometric_precision.py"
    m = parse_measure(f"{gp}:gp(p=root(p**2 + p - 1, 0.6))")
    alpha = m.param_dict["p"]
    # by hand: alpha^2 = 1 - alpha, alpha^3 = 2 alpha - 1, so gp(0110) = (alpha + alpha^2) / (1 + alpha + alpha^2
    # + alpha^3) = 1 / (1 + 2 alpha) = 1/5 + 2 alpha / 5 (multiply out: (1 + 2a)(1 + 2a)/5 = (1 + 4a + 4a^2)/5 = 1)
    assert in_field(m.value((0, 1, 1, 0), Gains.default()), alpha) == [Fraction(1, 5), Fraction(2, 5)]
    # at the golden ratio p + p^2 = 1: the runs 0110 and 1000 tie exactly
    assert m.value((0, 1, 1, 0), Gains.default()) == m.value((1, 0, 0, 0), Gains.default())


def test_the_thresholds_table_prints_the_algebraic_point_region(capsys):
    """``[root(...)]`` is a label, not rich markup: the weak point of RBP at depth 3 is printed, and reads back."""
    assert run_cli(["thresholds", "RBP", "--param", "p", "--depth", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "[root(p**2 + p - 1," in out
    assert parse_measure("RBP(p=root(p**2 + p - 1, 0.618034))").param_dict["p"].sympy() == \
        sympy.CRootOf(sympy.Symbol("p") ** 2 + sympy.Symbol("p") - 1, 1)


@pytest.mark.parametrize("text", FIELDS)
def test_row_wise_quotients_in_the_field_match_the_oracle(text):
    """``ValueBlock.ratio`` row by row in QQ(alpha): ``q[i] * b[i] == a[i]`` by polynomial arithmetic mod f."""
    alpha = parse_real(text)
    f = monic_low_first(alpha.f)
    d = alpha.degree
    rng = random.Random("ratio" + text)

    def rand_elem():
        return [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) if rng.random() < 0.8 else Fraction(0) for _ in range(d)]

    a_rows = [rand_elem() for _ in range(10)]
    b_rows = [rand_elem() for _ in range(9)] + [[Fraction(0)] * d]  # the last denominator is 0
    b_rows[3] = b_rows[1]  # a repeated denominator
    q = ValueBlock.ratio(block_of(a_rows, alpha), block_of(b_rows, alpha), Fraction(7, 2))
    for i, (a, b) in enumerate(zip(a_rows, b_rows)):
        if any(b):
            assert reduce_mod(poly_mul(block_row(q, i, d), b), f) == a
        else:
            assert block_row(q, i, d) == [Fraction(7, 2)] + [Fraction(0)] * (d - 1)
