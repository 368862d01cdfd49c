"""classify at the thresholds that ``thresholds`` prints, rational or algebraic (issue 26, part 5).

``thresholds`` finds where a verdict changes from the signs of rational
functions of the parameter; ``classify`` evaluates every run exactly at one
value of it (for an algebraic value, in QQ(alpha), quotients row by row).
The two paths share no code on the way to a verdict, so they must agree: at
each isolated point that ``thresholds`` calls ``weak`` (a tie appears),
``classify`` answers ``weak`` with a witness pair whose values are equal,
and strictly inside each open region it answers the region's verdict.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy

import workbench as wb


def _root_name(text: str, approx: float) -> str:
    """``CRootOf(POLY, k)`` as the ``root(POLY, APPROX)`` value a measure name accepts."""
    poly = re.fullmatch(r"CRootOf\((.*), \d+\)", text).group(1)
    return f"root({poly}, {approx:.6f})"


def _value_name(text: str, approx: float) -> str:
    return _root_name(text, approx) if text.startswith("CRootOf") else text


def _inside(region) -> str:
    lo = Fraction(region["low"]) if region["low"] != "-oo" and not region["low"].startswith("CRootOf") else None
    hi = Fraction(region["high"]) if region["high"] != "oo" and not region["high"].startswith("CRootOf") else None
    if lo is None:
        lo = Fraction(region["low_float"] or 0).limit_denominator(10**6) if region["low"] != "-oo" else None
    if hi is None and region["high"] != "oo":
        hi = Fraction(region["high_float"]).limit_denominator(10**6)
    lo = lo if lo is not None else (hi - 1)
    hi = hi if hi is not None else lo + 1
    # a rational strictly inside, away from the float-rounded irrational ends
    mid = (lo + hi) / 2
    return str(mid)


@pytest.mark.parametrize("family", ["INST", "INSQ"])
@pytest.mark.slow
def test_classify_agrees_with_thresholds_at_and_between_every_endpoint(family):
    table = wb.thresholds(family, "T", order="rank", depth=3).to_json()
    points = [r for r in table["regions"] if r["low"] == r["high"]]
    assert any(r["low"].startswith("CRootOf") for r in points), "an algebraic threshold to test"
    for region in table["regions"]:
        if region["low"] == region["high"]:
            value = _value_name(region["low"], region["low_float"])
        else:
            value = _inside(region)
        c = wb.classify(f"{family}(T={value})", order="rank", depth=3)
        assert c.verdict == region["verdict"], (family, region["low"], region["high"], c.verdict)
        if region["low"] == region["high"] and region["verdict"] == "weak":
            w = c.witness
            assert sympy.simplify(sympy.sympify(str(w.lower_value)) - sympy.sympify(str(w.upper_value))) == 0
