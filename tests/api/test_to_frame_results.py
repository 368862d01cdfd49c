"""``to_frame()`` on the census, the IPSO comparison, the counterexample and the conformance report.

Each frame is checked against values worked out here, independently of the
code under test: categories of binary run pairs from their prefix sums,
prefix sums by ``itertools.accumulate``, RBP values from its formula, and the
conformance total as the sum of its parts.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import workbench as wb

pd = pytest.importorskip("pandas")


def category(a, b) -> str:
    """The IPSO category of two binary runs from their prefix sums (equal, ni, ns or nonsep)."""
    da = list(itertools.accumulate(a))
    db = list(itertools.accumulate(b))
    above = any(x > y for x, y in zip(da, db))
    below = any(x < y for x, y in zip(da, db))
    return {(False, False): "equal", (True, False): "ni", (False, True): "ns", (True, True): "nonsep"}[above, below]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_census_frame_counts_every_pair(depth):
    runs = list(itertools.product((0, 1), repeat=depth))
    expected = {key: 0 for key in ("equal", "ni", "ns", "nonsep")}
    for a in runs:
        for b in runs:
            expected[category(a, b)] += 1
    f = wb.census(depth).to_frame()
    assert list(f.index) == ["equal", "ni", "ns", "nonsep"]
    assert f["pairs"].to_dict() == expected
    assert f["fraction"].to_dict() == {k: Fraction(v, len(runs) ** 2) for k, v in expected.items()}
    assert f["fraction_float"].tolist() == pytest.approx([v / len(runs) ** 2 for v in expected.values()])


@pytest.mark.parametrize("a,b", [("100", "011"), ("0101", "0011"), ("1", "0"), ("0110", "0110")])
def test_comparison_frame_is_the_trace_depth_by_depth(a, b):
    ra, rb = [int(c) for c in a], [int(c) for c in b]
    f = wb.compare(a, b).to_frame()
    assert list(f.index) == list(range(1, len(a) + 1))
    assert f["grade_a"].tolist() == ra and f["grade_b"].tolist() == rb
    assert f["prefix_a"].tolist() == list(itertools.accumulate(ra))
    assert f["prefix_b"].tolist() == list(itertools.accumulate(rb))
    assert f["category"].tolist() == [category(ra[:k], rb[:k]) for k in range(1, len(a) + 1)]


def rbp(run, p: Fraction) -> Fraction:
    return sum(((1 - p) * p ** i * g for i, g in enumerate(run)), Fraction(0))


def test_counterexample_frame_holds_the_pair_and_its_exact_values():
    p = Fraction(3, 5)
    f = wb.counterexample("RBP(p=0.6)", max_depth=8).to_frame()
    assert list(f.index) == ["lower", "upper"]
    lower, upper = ([int(c) for c in f.loc[role, "run"]] for role in ("lower", "upper"))
    assert f.loc["lower", "value"] == rbp(lower, p) and f.loc["upper", "value"] == rbp(upper, p)
    assert rbp(lower, p) > rbp(upper, p)  # the violation: lower in the order, higher in value
    assert lower < upper  # binary runs of one depth: the rank order compares them as binary numbers
    assert f["value_float"].tolist() == pytest.approx([float(rbp(lower, p)), float(rbp(upper, p))])


def test_counterexample_frame_is_empty_when_nothing_was_found():
    f = wb.counterexample("P", order="dominance", max_depth=2).to_frame()
    assert len(f) == 0 and list(f.columns) == ["run", "value", "value_float"]


def test_conformance_frame_parts_sum_to_the_total():
    c = wb.conformance("pytrec_eval:P_2", "P@2", depth=2, examples=3)
    f = c.to_frame()
    assert f.index[-2:].tolist() == ["generated", "total"]
    parts = f.drop(index="total")
    for column in ("cells", "agree", "disagree", "no_value", "undefined"):
        assert parts[column].sum() == f.loc["total", column]
    assert f.loc["total", "cells"] == c.to_json()["cells"] and f.loc["total", "agree"] == c.to_json()["agree"]
