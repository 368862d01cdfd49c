"""Readable exact values (workbench.core.readable): the text is the value, checked by parsing it back.

Each text is read back with sympy (``log2(m)`` as ``log(m)/log(2)``, the
variable named by ``where`` as the ``root(...)`` it names, read by
``parse_real``) and compared with the original exactly: logarithms of
integers become symbols for the logarithms of primes (an identity of
rational functions in those symbols proves equality), and an algebraic
number's difference is reduced modulo its minimal polynomial.  Expected
texts are derived by hand from the measures' definitions.
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy

from workbench.core.algebraic_syntax import parse_real
from workbench.core.readable import joined, readable, show_value
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space


def _prime_logs(expr):
    """``expr`` with every ``log(n)`` (integer n) replaced by sum e_p * L_p over n's prime factors."""
    mapping = {}
    for g in expr.atoms(sympy.log):
        n = g.args[0]
        assert n.is_Integer and n >= 2, g
        mapping[g] = sympy.Add(*(e * sympy.Symbol(f"L{p}") for p, e in sympy.factorint(int(n)).items()))
    return expr.xreplace(mapping)


def _parsed(r):
    """The readable text read back as a sympy expression (and the algebraic number it names, if any)."""
    local = {"log2": lambda n: sympy.log(n) / sympy.log(2)}
    alpha = None
    if r.where:
        name, _, root_text = r.where.partition(" = ")
        alpha = parse_real(root_text)
        local[name] = sympy.Symbol("_alpha")
    return sympy.parse_expr(r.text, local_dict=local), alpha


def assert_same_value(value, r) -> None:
    """``r`` (a Readable) reads back as exactly ``value``."""
    back, alpha = _parsed(r)
    value = sympy.sympify(value)
    roots = value.atoms(sympy.CRootOf)
    if roots:
        (root,) = roots
        assert alpha is not None and alpha.sympy() == root, (r.where, root)
        a = sympy.Symbol("_alpha")
        diff = sympy.together(back - value.xreplace({root: a}))
        num = sympy.Poly(sympy.fraction(diff)[0], a)
        minpoly = sympy.Poly(root.poly.as_expr(), root.poly.gen).as_expr().subs(root.poly.gen, a)
        assert num.rem(sympy.Poly(minpoly, a)).is_zero, (r.text, value)
    else:
        assert alpha is None
        assert sympy.cancel(_prime_logs(back) - _prime_logs(value)) == 0, (r.text, value)
    if r.approx is not None:
        assert abs(float(sympy.N(value, 30)) - float(r.approx)) <= 1e-5 * max(1.0, abs(float(r.approx)))
    else:  # no float beside a rational value
        assert sympy.sympify(back).is_Rational


def _values(name, depth, topic=None, grades=1, limit=120, seed=0):
    t = Topic.parse(topic) if topic else None
    runs = rank_space(depth, grades, t).array()
    block = parse_measure(name).evaluate(runs, Gains.default(grades), t)
    idx = list(range(len(runs)))
    random.Random(seed).shuffle(idx)
    return [block.value(i) for i in idx[:limit]]


CASES = [("DCG", d, None, 1) for d in (2, 4, 6)] + [
    ("nDCG", 3, "2", 1), ("nDCG", 5, "2", 1), ("nDCG", 6, "3", 1), ("nDCG", 4, "1,1", 2), ("DCG", 4, None, 2),
    ("INST(T=root(4*T**3 - 6*T**2 - 4*T - 1, 2.04791))", 3, None, 1),
    ("INST(T=root(T**2 - 3, 1.7))", 4, None, 1),
    ("INSQ(T=root(T**2 - 5, 2.2))", 4, None, 1),
    ("RBP(p=root(p**3 + p**2 + p - 1, 0.54))", 5, None, 1),
    ("RBP(p=root(p**2 + p - 1, 0.6))", 6, None, 1),
]


@pytest.mark.parametrize("name,depth,topic,grades", CASES)
@pytest.mark.slow
def test_values_and_gaps_read_back_exactly(name, depth, topic, grades):
    values = _values(name, depth, topic, grades)
    gaps = [b - a for a, b in zip(values, values[1:])][:40]
    for v in values + gaps:
        assert_same_value(v, readable(v))


def test_no_crootof_and_no_natural_log_ratio_in_texts():
    values = _values("nDCG", 6, "3") + _values("INST(T=root(4*T**3 - 6*T**2 - 4*T - 1, 2.04791))", 3)
    for v in values:
        r = readable(v)
        assert "CRootOf" not in r.text and "log(" not in r.text, r.text


def test_ndcg_values_written_as_dcg_over_ideal_dcg():
    # topic with 2 relevant documents, depth 3: IDCG = 1 + 1/log2(3); DCG(010) = 1/log2(3), DCG(001) = 1/log2(4) = 1/2
    ln = sympy.log
    idcg = 1 + ln(2) / ln(3)
    assert readable((ln(2) / ln(3)) / idcg).text == "(1/log2(3))/(1 + 1/log2(3))"
    assert readable(sympy.Rational(1, 2) / idcg).text == "(1/2)/(1 + 1/log2(3))"
    assert readable((sympy.Rational(1, 2) + ln(2) / ln(3)) / idcg).text == "(1/2 + 1/log2(3))/(1 + 1/log2(3))"
    # DCG(111111) = 1 + 1/log2(3) + 1/2 + 1/log2(5) + 1/log2(6) + 1/log2(7) + 0 (log2(8) = 3 is past depth 6)
    dcg = 1 + sum(ln(2) / ln(m) for m in range(3, 8))
    assert readable(dcg).text == "3/2 + 1/log2(3) + 1/log2(5) + 1/log2(6) + 1/log2(7)"
    # perfect powers reduced: 1/log2(9) = 1/(2*log2(3)); 1/log2(8) = 1/3
    assert readable(ln(2) / ln(9) + ln(2) / ln(8)).text == "1/3 + 1/(2*log2(3))"
    assert readable(ln(3) / ln(2)).text == "log2(3)"
    ideal = readable(idcg / idcg.expand())
    assert ideal.text == "1" and ideal.approx is None


def test_rbp_at_the_golden_ratio_by_hand():
    # p^2 = 1 - p: RBP(11) = (1-p)(1+p) = 1 - p^2 = p; RBP(111) = 1 - p^3 = 1 - (2p - 1) = 2 - 2p
    p = parse_real("root(p**2 + p - 1, 0.6)").sympy()
    r = readable((1 - p) * (1 + p))
    assert (r.text, r.where) == ("p", "p = root(p**2 + p - 1, 0.618034)")
    assert readable((1 - p) * (1 + p + p**2)).text == "2 - 2*p"
    # 1/p = p + 1 (from p^2 + p = 1)
    assert readable(1 / p).text == "p + 1"


def test_inst_tie_named_once():
    t = parse_real("root(4*T**3 - 6*T**2 - 4*T - 1, 2.04791)").sympy()
    # a value -4T^2/7 + 8T/7 + 4/7 as in the issue, written over its common denominator
    v = -4 * t**2 / 7 + sympy.Rational(4, 7) + 8 * t / 7
    assert readable(v).text == "(-4*T**2 + 8*T + 4)/7"
    text = joined([v, v], " vs ")
    assert text.count("root(") == 1 and text.endswith(", where T = root(4*T**3 - 6*T**2 - 4*T - 1, 2.04791)")


def test_rationals_and_radicals():
    assert show_value(Fraction(144, 625)) == "144/625"
    assert show_value(sympy.Rational(-3, 4)) == "-3/4"
    r = readable(sympy.sqrt(5 + 2 * sympy.sqrt(6)))  # (sqrt(2) + sqrt(3))^2 = 5 + 2 sqrt(6)
    assert r.text == "sqrt(2) + sqrt(3)" and r.approx == "3.14626"
    a = parse_real("root(x**2 - 2, 1.4)")
    assert show_value(a) == "root(x**2 - 2, 1.41421)"
