"""Additive measures decided by kinds of covers at any depth, counts exact (issue 35, no depth wall).

Oracles, written apart from the code under test, in plain ``Fraction``
arithmetic with the RBP weights ``w_i = (1 - p) p^(i-1)`` (Moffat and Zobel,
TOIS 2008):

* binary dominance: the covers are the raise of a last 0 and the swaps
  ``01 -> 10`` of adjacent positions (Ferrante, Ferro and Pontarollo, TKDE
  2019, Rules 1 and 2; the other swaps and raises have a grade between them),
  so RBP is strict iff ``w_N > 0`` and ``w_i - w_(i+1) > 0`` for every ``i``;
  the covers number ``2^(N-1) + (N - 1) 2^(N-2) = (N + 1) 2^(N-2)``;
* the rank order: the cover from ``x 0 1..1`` to ``x 1 0..0`` (the ``1`` at
  position ``i``) changes RBP by ``w_i - sum_(j>i) w_j``; the first negative
  cover in canonical order is the one with the smallest lower end
  ``0..0 0 1..1``, i.e. the largest such ``i``; the witness values are summed
  here from the weights.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

from workbench.core.budget import time_budget
from workbench.core.exact import json_safe
from workbench.errors import TooLargeError
from workbench.measures.additive import additive_form, minus, sign_of
from workbench.measures.names import parse_measure
from workbench.order.cover_types import cover_types
from workbench.order.orders import get_order
from workbench.scale.by_cover_type import kind_differences, kinds_estimate
from workbench.scale.classify import classify
from workbench.space.runs import Gains
from workbench.space.spaces import rank_space


def rbp_weights(p: Fraction, N: int) -> list[Fraction]:
    return [(1 - p) * p ** i for i in range(N)]


def test_rbp_under_binary_dominance_at_depths_63_and_100_against_the_kinds_by_hand():
    p = Fraction(4, 5)
    for N in (63, 100):
        w = rbp_weights(p, N)
        strict = w[-1] > 0 and all(w[i] - w[i + 1] > 0 for i in range(N - 1))
        c = classify(parse_measure("RBP(p=4/5)"), get_order("dominance"), rank_space(N))
        assert c.verdict == ("strict" if strict else "violated") == "strict"
        assert c.runs == 2 ** N and c.covers == (N + 1) * 2 ** (N - 2)
        assert c.witness is None and c.intrinsic is None and "10^" in c.notes[0]
        j = json.loads(json.dumps(json_safe(c.to_json())))
        assert (j["runs"], j["runs_digits"], j["covers"]) == (str(2 ** N), len(str(2 ** N)), str((N + 1) * 2 ** (N - 2)))


def test_rbp_on_the_rank_order_at_depth_100_finds_the_first_negative_cover_and_its_values():
    p, N = Fraction(4, 5), 100
    w = rbp_weights(p, N)
    negative = [i for i in range(N) if w[i] - sum(w[i + 1:]) < 0]
    i = max(negative)  # smallest lower end 0..0 0 1..1 among the negative kinds
    lower = (0,) * (i + 1) + (1,) * (N - 1 - i)
    upper = (0,) * i + (1,) + (0,) * (N - 1 - i)
    c = classify(parse_measure("RBP(p=4/5)"), get_order("rank"), rank_space(N))
    assert c.verdict == "violated" and c.runs == 2 ** N and c.covers == 2 ** N - 1
    assert (c.witness.lower, c.witness.upper) == (lower, upper)
    value = lambda run: sum(wi for wi, g in zip(w, run) if g)  # noqa: E731
    assert (c.witness.lower_value, c.witness.upper_value) == (value(lower), value(upper))
    assert value(lower) > value(upper)


def test_rows_at_python_int_indices_are_the_base_digits():
    for N, c in [(4, 1), (3, 2), (2, 3)]:
        space = rank_space(N, c)
        runs = list(itertools.product(range(c + 1), repeat=N))  # canonical order: base-(c+1) digits
        idx = np.array(list(range(len(runs)))[::-1], dtype=object)
        assert [tuple(r) for r in space.rows_at(idx).tolist()] == runs[::-1]
    space = rank_space(100, 2)
    for k in (0, 1, 3 ** 60 + 7, 3 ** 100 - 1, 2 ** 150 + 12345):
        digits = [(k // 3 ** (99 - i)) % 3 for i in range(100)]
        got = space.rows_at(np.array([k], dtype=object))[0].tolist()
        assert got == digits == list(space.run(k)) and space.index(tuple(got)) == k


def test_count_fields_are_strings_at_depth_1_and_at_depth_100():
    for N in (1, 100):
        c = classify(parse_measure("RBP(p=1/2)"), get_order("rank"), rank_space(N), intrinsic=False)
        j = json.loads(json.dumps(json_safe(c.to_json())))
        assert j["runs"] == str(2 ** N) and j["covers"] == str(2 ** N - 1)
        assert j["runs_digits"] == len(str(2 ** N)) and j["covers_digits"] == len(str(2 ** N - 1))
        assert j["depth"] == N and j["grades"] == 1  # not counts: JSON numbers
        assert c.verdict == "interval" and c.runs == 2 ** N  # the Python API keeps exact ints


def test_rank_differences_by_suffix_sums_are_the_changes_themselves():
    for name, grades in [("RBP(p=4/5)", 1), ("DCG", 2), ("gRBP(p=1/3)", 2), ("RBTO", 1)]:
        for N in (1, 2, 5):
            form = additive_form(parse_measure(name), N, Gains.default(grades), None)
            kinds = cover_types("rank", N, grades)
            for t, d in zip(kinds, kind_differences(form, "rank", kinds)):
                assert sign_of(minus(d, form.change(t.changes))) == 0, (name, N, t.changes)


def test_a_deep_classification_beyond_the_time_budget_is_refused_before_its_differences():
    form = additive_form(parse_measure("DCG"), 1000, Gains.default(1), None)
    assert kinds_estimate(form, "rank", 1000).seconds > time_budget()[0]  # ~18 s of suffix sums over 900 logarithms
    with pytest.raises(TooLargeError, match="DCG on rank order at depth 1,000 by kinds of covers.*--timeout"):
        classify(parse_measure("DCG"), get_order("rank"), rank_space(1000))
