"""Measure names: exact parsing, canonical strings, aliases, errors, user measures."""
from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import (
    BadParameterError, NeedsTopicError, NotExpressibleError, UnknownMeasureError, UserMeasureError,
)
from workbench.measures.measure import FAMILIES, Measure
from workbench.measures.names import describe_families, parse_measure
from workbench.space.runs import Gains, Topic


@pytest.mark.parametrize(
    "text,family,params,cutoff,canonical",
    [
        ("RBP(p=0.8)@10", "RBP", {"p": Fraction(4, 5)}, 10, "RBP(p=0.8)@10"),
        ("RBP(p=4/5)", "RBP", {"p": Fraction(4, 5)}, None, "RBP(p=0.8)"),
        ("RBP(p=1/3)", "RBP", {"p": Fraction(1, 3)}, None, "RBP(p=1/3)"),
        ("RBP", "RBP", {"p": Fraction(4, 5)}, None, "RBP(p=0.8)"),
        ("RBP(p=0.95)", "RBP", {"p": Fraction(19, 20)}, None, "RBP(p=0.95)"),
        ("RBP(p=0.1)", "RBP", {"p": Fraction(1, 10)}, None, "RBP(p=0.1)"),
        ("RBP(p=2/6)", "RBP", {"p": Fraction(1, 3)}, None, "RBP(p=1/3)"),
        ("RBP(p=31/100)", "RBP", {"p": Fraction(31, 100)}, None, "RBP(p=0.31)"),
        ("RBP(p=1/1024)", "RBP", {"p": Fraction(1, 1024)}, None, "RBP(p=0.0009765625)"),
        ("RBP(p=1/1048576)", "RBP", {"p": Fraction(1, 2**20)}, None, "RBP(p=0.00000095367431640625)"),
        ("RBP(p=1/2097152)", "RBP", {"p": Fraction(1, 2**21)}, None, "RBP(p=1/2097152)"),
        ("INST", "INST", {"T": Fraction(1), "output": "EU"}, None, "INST(T=1)"),
        ("INSQ(T=5/2)", "INSQ", {"T": Fraction(5, 2), "output": "EU"}, None, "INSQ(T=2.5)"),
        ("gRBP(p=.5)@3", "gRBP", {"p": Fraction(1, 2)}, 3, "gRBP(p=0.5)@3"),
        ("nDCG@5", "nDCG", {"b": 2, "discount": "log2p1"}, 5, "nDCG@5"),
        ("NDCG@5", "nDCG", {"b": 2, "discount": "log2p1"}, 5, "nDCG@5"),
        ("DCG(discount=logb,b=2)", "DCG", {"b": 2, "discount": "logb"}, None, "DCG(discount=logb)"),
        ("DCG(discount='logb',b=10)", "DCG", {"b": 10, "discount": "logb"}, None, "DCG(b=10,discount=logb)"),
        ("P@10", "P", {}, 10, "P@10"),
        ("AP", "AP", {}, None, "AP"),
        ("MAP", "AP", {}, None, "AP"),
        ("ERR@10", "ERR", {}, 10, "ERR@10"),
        ("RR", "RR", {}, None, "RR"),
        ("MRR", "RR", {}, None, "RR"),
        ("Succ@5", "Succ", {}, 5, "Succ@5"),
        ("Success@5", "Succ", {}, 5, "Succ@5"),
        (" SBTO ", "SBTO", {}, None, "SBTO"),
    ],
)
def test_parse_examples(text, family, params, cutoff, canonical):
    m = parse_measure(text)
    assert m.family == family
    assert dict(m.params) == params
    assert m.cutoff == cutoff
    assert str(m) == canonical
    assert parse_measure(str(m)) == m


def test_family_names_case_sensitive():
    with pytest.raises(UnknownMeasureError, match="nDCG"):
        parse_measure("nDcG@5")
    with pytest.raises(UnknownMeasureError) as e:
        parse_measure("RPB(p=0.5)")
    assert "'RPB'" in str(e.value) and "RBP" in str(e.value)


@pytest.mark.parametrize(
    "text,needle",
    [
        ("RBP(p=1)", "p=1"),
        ("RBP(p=0)", "p=0"),
        ("RBP(p=-0.5)", "p=-0.5"),
        ("RBP(p=-1/2)", "p=-0.5"),
        ("RBP(p=1.5)", "p=1.5"),
        ("RBP(p=4/3)", "p=4/3"),
        ("RBP(q=0.5)", "'q'"),
        ("RBP(p=x)", "p=x"),
        ("RBP(p=1/0)", "1/0"),
        ("RBP(0.5)", "0.5"),
        ("RBP(p=0.5,p=0.6)", "p"),
        ("P@0", "@0"),
        ("P@-1", "@-1"),
        ("P@1.5", "@1.5"),
        ("P@2.0", "@2.0"),
        ("P@k", "@k"),
        ("DCG(discount=log10)", "log10"),
        ("DCG(discount=logb,b=1)", "b=1"),
        ("DCG(discount=logb,b=5/2)", "b=2.5"),
        ("P(rel=2)@5", "'rel'"),
    ],
)
def test_bad_parameters(text, needle):
    with pytest.raises(BadParameterError) as e:
        parse_measure(text)
    assert needle in str(e.value)


@pytest.mark.parametrize("text", ["", "RBP(p=", "P@@3", "1+2", "RBP.x", "__import__('os')", "P[3]"])
def test_malformed(text):
    with pytest.raises((UnknownMeasureError, BadParameterError)) as e:
        parse_measure(text)
    assert repr(text.strip()) in str(e.value) or text in str(e.value)


def test_never_evaluates():
    # a call expression is only inspected, never run
    with pytest.raises(UnknownMeasureError, match="__import__"):
        parse_measure("__import__(name='os')")


# ---------------------------------------------------------------------------
# round trip property


def rationals_in(low, high):
    """Rationals strictly between the bounds: any denominator, finite decimals (2^a 5^b) and long ones."""
    decimals = st.builds(lambda k, a, b: Fraction(k, 2**a * 5**b), st.integers(-10**6, 10**6),
                         st.integers(0, 30), st.integers(0, 30))
    return st.one_of(st.fractions(min_value=low, max_value=high, max_denominator=1000), decimals).filter(
        lambda q: (low is None or low < q) and (high is None or q < high))


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GP = f"{EXAMPLES / 'geometric_precision.py'}:gp"


@st.composite
def measures(draw):
    name = draw(st.sampled_from(sorted(FAMILIES) + [GP]))
    params = {}
    if name in ("RBP", "gRBP", GP):
        if draw(st.booleans()):
            params["p"] = draw(rationals_in(Fraction(0), Fraction(1)))
    if name in ("DCG", "nDCG"):
        if draw(st.booleans()):
            params["discount"] = "logb"
            params["b"] = draw(st.integers(2, 1000))
    if name in ("INST", "INSQ"):
        params["T"] = draw(st.one_of(st.integers(1, 10).map(Fraction), rationals_in(Fraction(0), None)))
    if name == "Twist":
        params["w"] = draw(st.one_of(st.sampled_from([Fraction(0), Fraction(1)]), rationals_in(Fraction(0), Fraction(1))))
    cutoff = draw(st.one_of(st.none(), st.integers(1, 10**6)))
    return Measure(name, params, cutoff)


def decimal_oracle(q: Fraction) -> str | None:
    """The finite decimal of ``q`` by the decimal module (exact division at 200 digits), or None when it has none."""
    import decimal

    with decimal.localcontext() as ctx:
        ctx.prec = 200
        ctx.traps[decimal.Inexact] = True
        try:
            d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
        except decimal.Inexact:
            return None
        return format(d.normalize(), "f")


@settings(max_examples=300, deadline=None)
@given(rationals_in(None, None))
@pytest.mark.slow
def test_decimal_text_matches_the_decimal_module(q):
    from workbench.core.exact import MAX_DECIMAL_PLACES, decimal_str, parse_exact

    oracle = decimal_oracle(q)
    text = decimal_str(q)
    if oracle is not None and len(oracle.partition(".")[2]) <= MAX_DECIMAL_PLACES:
        assert text == oracle
    else:
        assert text == (f"{q.numerator}/{q.denominator}" if q.denominator != 1 else str(q.numerator))
    assert "e" not in text.lower() and parse_exact(text, "q") == q


@settings(max_examples=300, deadline=None)
@given(measures())
@pytest.mark.slow
def test_round_trip(m):
    s = str(m)
    assert parse_measure(s) == m
    assert str(parse_measure(s)) == s
    for name, value in m.params:
        if isinstance(value, Fraction):
            oracle = decimal_oracle(value)
            shown = s.split(f"{name}=", 1)[1].split(",")[0].split(")")[0] if f"{name}=" in s else None
            if shown is not None and oracle is not None and len(oracle.partition(".")[2]) <= 20:
                assert Fraction(shown) == value and "/" not in shown


# ir_measures' families, named as the workbench names them, read back by ir_measures with the same meaning
# (not INST/INSQ: ir_measures' need a max_rel the workbench's have no counterpart for)
IR_MEASURES_FAMILIES = {"RBP": "p", "P": None, "R": None, "AP": None, "RR": None,
                        "nDCG": None, "ERR": None}


@st.composite
def ir_measures_family_members(draw):
    """Measures of ir_measures' families as ir_measures can take them: finite-decimal p, P and R with a cut-off."""
    family = draw(st.sampled_from(sorted(IR_MEASURES_FAMILIES)))
    params = {}
    if family == "RBP" and draw(st.booleans()):
        params["p"] = draw(st.builds(lambda k, a, b: Fraction(k, 2**a * 5**b), st.integers(1, 10**6),
                                     st.integers(0, 9), st.integers(0, 9)).filter(lambda q: q < 1))
    needs_cutoff = family in ("P", "R")
    cutoff = draw(st.integers(1, 10**6) if needs_cutoff else st.one_of(st.none(), st.integers(1, 10**6)))
    return Measure(family, params, cutoff)


@settings(max_examples=100, deadline=None)
@given(ir_measures_family_members())
def test_ir_measures_reads_the_names_of_its_families(m):
    import ir_measures

    im = ir_measures.parse_measure(str(m))
    im.validate_params()
    assert im.NAME == m.family
    param = IR_MEASURES_FAMILIES[m.family]
    if param is not None:
        assert im[param] == float(m.param_dict[param])  # ir_measures reads the decimal as the nearest float
    assert im.params.get("cutoff") == m.cutoff


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10**6), st.integers(1, 10**6))
@pytest.mark.slow
def test_decimal_and_fraction_spellings(a, b):
    if a >= b:
        a, b = b, a + b
    q = Fraction(a, b)
    assert parse_measure(f"RBP(p={a}/{b})").param_dict["p"] == q
    # a terminating decimal is read exactly from its text
    digits = a % 10**6 or 1
    d = f"0.{digits:06d}"
    assert parse_measure(f"RBP(p={d})").param_dict["p"] == Fraction(digits, 10**6)


# ---------------------------------------------------------------------------
# user measures


def test_user_measure(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(textwrap.dedent('''
        from fractions import Fraction

        def top_heavy(A):
            """First document counts double."""
            return A.sum(A.gain(i) * A.const(Fraction(2 if i == 0 else 1)) for i in range(A.depth))

        def recall3(A, topic):
            return A.sum(A.rel(i) for i in range(min(3, A.depth))) / A.const(topic.recall_base)
    '''))
    spec = f"{f}:top_heavy"
    m = parse_measure(spec)
    assert m.family == spec and str(m) == spec and not m.needs_topic
    g = Gains.default(2)
    runs = [(2, 1, 0), (0, 1, 1), (1, 0, 2)]
    block = m.evaluate(np.array(runs), g)
    assert block.values() == [Fraction(5), Fraction(2), Fraction(4)]
    assert m.expression((2, 1, 0), g) == 5
    assert z3.simplify(m.z3_term((2, 1, 0), g)).as_fraction() == 5
    x = z3.Int("x")
    t = m.z3_term([x, 1, 0], g)
    assert z3.simplify(z3.substitute(t, (x, z3.IntVal(2)))).as_fraction() == 5
    # cut-off applies to user measures too
    assert parse_measure(spec + "@1").value((2, 1, 0), g) == 4
    assert parse_measure(str(parse_measure(spec + "@1"))) == parse_measure(spec + "@1")

    m2 = parse_measure(f"{f}:recall3")
    assert m2.needs_topic
    with pytest.raises(NeedsTopicError, match="recall3"):
        m2.value((1, 1), Gains.default())
    assert m2.value((1, 0, 1, 1), Gains.default(), Topic((4,))) == Fraction(1, 2)


def test_user_measure_errors(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text("def f(A):\n    return A.gain(0)\n")
    with pytest.raises(UnknownMeasureError, match="nothere"):
        parse_measure(f"{f}:nothere")
    with pytest.raises(UnknownMeasureError, match="missing.py"):
        parse_measure(f"{tmp_path}/missing.py:f")
    bad = tmp_path / "broken.py"
    bad.write_text("def f(A):\n  return (\n")
    with pytest.raises(UserMeasureError, match="broken.py:2"):
        parse_measure(f"{bad}:f")


def test_user_measure_with_log(tmp_path):
    f = tmp_path / "logm.py"
    f.write_text("def f(A):\n    return A.sum(A.gain(i) * A.log_ratio(2, i + 2) for i in range(A.depth))\n")
    m = parse_measure(f"{f}:f")
    v = m.value((1, 1), Gains.default())
    assert sympy.simplify(v - (1 + sympy.log(2) / sympy.log(3))) == 0
    with pytest.raises(NotExpressibleError):
        m.z3_term((1, 1), Gains.default())


def test_describe_families():
    rows = describe_families()
    names = [r["name"] for r in rows]
    assert set(names) == set(FAMILIES) and {"Twist", "RecoveryRatio", "SpaceRatio"} <= set(names)
    by = {r["name"]: r for r in rows}
    assert by["RBP"]["params"][0]["domain"] == "(0, 1)"
    assert by["RBP"]["params"][0]["default"] == "0.8"
    assert by["AP"]["needs_topic"] and not by["ERR"]["needs_topic"]
    assert not by["nDCG"]["z3_ok"] and by["SBTO"]["z3_ok"]
    assert all(r["reference"] for r in rows)


# ---------------------------------------------------------------- rank[M]@N: a measure's interval transformation
@pytest.mark.parametrize("text,canonical,depth,unit", [
    ("rank[AP]@10", "rank[AP]@10", 10, False),
    (" rank[ RBP(p=0.80) ] @ 05 ", "rank[RBP(p=0.8)]@5", 5, False),
    ("rank[NDCG@5]@20", "rank[nDCG@5]@20", 20, False),
    ("rank[DCG(discount=logb,b=3)]@4", "rank[DCG(b=3,discount=logb)]@4", 4, False),
    ("unit-rank[MAP]@3", "unit-rank[AP]@3", 3, True),
])
def test_ranked_names_parse_to_canonical_labels(text, canonical, depth, unit):
    from workbench.measures.names import parse_ranked

    r = parse_ranked(text)
    assert (str(r), r.depth, r.unit) == (canonical, depth, unit)
    assert r.measure == parse_measure(text.strip()[text.strip().index("[") + 1:text.strip().rindex("]")])


@pytest.mark.parametrize("text,error,word", [
    ("rank[AP]", BadParameterError, "rank[M]@N"),
    ("rank[AP]@0", BadParameterError, ">= 1"),
    ("rank[AP]@2.5", BadParameterError, ">= 1"),
    ("rank[Foo]@3", UnknownMeasureError, "Foo"),
    ("rank[RBP(p=2)]@3", BadParameterError, "p=2"),
    ("rank[rank[AP]@3]@4", UnknownMeasureError, "ranked already"),
    ("rank[ir:P@5]@3", UnknownMeasureError, "workbench measure"),
])
def test_ranked_names_refused_in_one_line(text, error, word):
    from workbench.measures.names import parse_ranked

    with pytest.raises(error) as e:
        parse_ranked(text)
    assert word in str(e.value) and "\n" not in str(e.value)


def test_ranked_names_are_measures_and_other_names_unchanged():
    from workbench.measures.names import parse_ranked

    m = parse_measure(" rank[ MAP ]@010")  # a measure since issue 26 part 4 (tests/measures/test_ranked_measure.py)
    assert str(m) == "rank[AP]@10" and m == parse_measure("rank[AP]@10") and m.params == () and m.cutoff is None
    for text in ("AP", "RBP(p=0.8)@10", "nDCG@5", "P@5", "Foo", "rankAP", "ranked"):
        assert parse_ranked(text) is None
    assert str(parse_measure("RBP(p=0.8)@10")) == "RBP(p=0.8)@10"
