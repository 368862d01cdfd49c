"""Every-depth thresholds against brute force: regions of a free parameter, checked at points inside each.

The oracle here knows nothing of terms, separations or obligations: it
lists the runs of ``{0..c}^N``, relates them (the lexicographic order for
``rank``; the closure of raises and swaps for ``dominance``), scores each
with the measure's own exact ``value`` at a rational parameter and reads
the verdict off the certified signs.  The regions' ends and RBP's first
violated depth are derived by hand in the comments from the definitions
(RBP: a cover at position ``j`` changes the value by ``p^(j-1)(1-2p) +
p^N``), and the first violated depth is also found by the oracle.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import sympy

from workbench.core.certified import sign
from workbench.measures.names import parse_measure
from workbench.measures.position_terms import POSITION
from workbench.scale.every_depth import NoEveryDepthError, every_depth
from workbench.scale.every_depth_thresholds import _param_obligation, every_depth_thresholds
from workbench.space.runs import Gains

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DP = f"{EXAMPLES}/power_law.py:dp"


@lru_cache(maxsize=None)
def _dominance_pairs(depth: int, c: int) -> tuple:
    """Every pair ``r < s`` of dominance: the closure of raising a grade and swapping a lower grade up."""
    runs = list(itertools.product(range(c + 1), repeat=depth))

    def moves(run):
        for i in range(depth):
            if run[i] < c:
                yield run[:i] + (run[i] + 1,) + run[i + 1:]
        for i, j in itertools.combinations(range(depth), 2):
            if run[i] < run[j]:
                s = list(run)
                s[i], s[j] = s[j], s[i]
                yield tuple(s)

    pairs = []
    for r in runs:
        seen, stack = set(), [r]
        while stack:
            for y in moves(stack.pop()):
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        pairs += [(r, s) for s in seen if s != r]
    return tuple(pairs)


@lru_cache(maxsize=None)
def oracle(measure: str, order: str, depth: int, c: int = 1, gains_text: str | None = None) -> str:
    m = parse_measure(measure)
    gains = Gains.parse(gains_text) if gains_text else Gains.default(c)
    runs = list(itertools.product(range(c + 1), repeat=depth))
    value = {r: sympy.sympify(m.value(r, gains)) for r in runs}
    if order == "rank":
        gaps = [value[b] - value[a] for a, b in zip(runs, runs[1:])]
        signs = [sign(g) for g in gaps]
        if min(signs) < 0:
            return "violated"
        if min(signs) == 0:
            return "weak"
        return "interval" if all(sign(g - gaps[0]) == 0 for g in gaps) else "ordinal"
    signs = [sign(value[s] - value[r]) for r, s in _dominance_pairs(depth, c)]
    return "violated" if min(signs) < 0 else "weak" if min(signs) == 0 else "strict"


def verdict_at(ranges, depth: int) -> str:
    for r in ranges:
        if r.first <= depth and (r.last is None or depth <= r.last):
            return r.verdict
    raise AssertionError(depth)


def first_violated_rbp(p: Fraction) -> int:
    """Hand derivation: the cover at position 1 changes RBP by (1 - 2p) + p^N at depth N, the others by
    p^(j-1)(1 - 2p) + p^N, which is never below it; so the first violated depth is the least N with p^N < 2p - 1."""
    n = 1
    while p ** n >= 2 * p - 1:
        n += 1
    return n


@pytest.fixture(scope="module")
def rbp():
    return every_depth_thresholds(parse_measure("RBP"), "p", "rank")


def test_rbp_rank_regions_match_brute_force_inside_and_at_the_ends(rbp):
    # 1 - 2p is the only factor in p: ordinal below 1/2, interval at 1/2, violated above
    assert [r.label() for r in rbp.regions] == ["(0, 1/2)", "[1/2]", "(1/2, 1)"]
    for p in (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(13, 25), Fraction(3, 5), Fraction(4, 5),
              Fraction(9, 10)):
        ranges = rbp.region_of(p).ranges_at(p)
        for depth in range(1, 6):
            assert verdict_at(ranges, depth) == oracle(f"RBP(p={p})", "rank", depth), (p, depth)
    # every region was cross-checked with every_depth at a rational point inside it, and agreed
    assert all(r.cross_check.startswith("cross-checked") and "same ranges" in r.cross_check for r in rbp.regions)
    q = Fraction(13, 25)
    assert rbp.region_of(q).ranges_at(q) == every_depth(parse_measure(f"RBP(p={q})"), "rank").ranges


def test_rbp_first_violated_depth_formula(rbp):
    above = rbp.region_of(Fraction(3, 4))
    assert above.first_violated_depth() == "floor(log(2*p - 1)/log(p)) + 1"
    for p in (Fraction(13, 25), Fraction(3, 5), Fraction(2, 3), Fraction(4, 5), Fraction(9, 10)):
        n = first_violated_rbp(p)
        assert above.ranges_at(p)[-1] .first == n and above.ranges_at(p)[-1].last is None, p
        # the oracle agrees: violated at n, not before (13/25 is the deepest: n = 5)
        if n <= 5:
            assert oracle(f"RBP(p={p})", "rank", n) == "violated"
            assert oracle(f"RBP(p={p})", "rank", n - 1) != "violated"
        # and the formula, evaluated with sympy at that p
        x = sympy.Rational(p.numerator, p.denominator)
        assert sympy.floor(sympy.log(2 * x - 1) / sympy.log(x)) + 1 == n
    assert first_violated_rbp(Fraction(13, 25)) == 5
    j = rbp.to_json()["every_depth_regions"][2]
    assert j["every_depth"][-1] == {"from": "n(p)", "to": None, "verdict": "violated"}
    assert j["first_violated_depth"] == "n(p) = floor(log(2*p - 1)/log(p)) + 1"


def test_grbp_two_grades_rank():
    # tau = (1-p) p^(i-1) g/2 with g = 0, 1, 2: a_0 = a_1 = (1-p) p^(i-1) / 2, e = (1-p) p^(i-1), the tail below
    # position j is p^j, so a cover outweighs it iff (1-p)/2 - p >= 0: the threshold is p = 1/3
    t = every_depth_thresholds(parse_measure("gRBP"), "p", "rank", grades=2, cross_check=False)
    assert [r.label() for r in t.regions] == ["(0, 1/3)", "[1/3]", "(1/3, 1)"]
    for p in (Fraction(1, 4), Fraction(1, 3), Fraction(1, 2)):
        ranges = t.region_of(p).ranges_at(p)
        for depth in range(1, 4):
            assert verdict_at(ranges, depth) == oracle(f"gRBP(p={p})", "rank", depth, 2), (p, depth)


def test_grbp_gains_0_1_3_ties_where_the_formula_is_an_integer():
    # gains 0, 1, 3 (top 3): a_0 = (1-p) p^(i-1)/3, a_1 = 2 (1-p) p^(i-1)/3, e = (1-p) p^(i-1), tail p^j, so
    # h_0 = p^(j-1) (1 - 4p)/3 and h_1 = p^(j-1) (2 - 5p)/3: critical points 1/4 and 2/5.  At p = 1/3 the cover at
    # position 1 from grade 0 changes the value by (1 - 4p)/3 + p^N = -1/9 + 3^-N: a tie at depth 2 (02 and 10
    # both score 2/9), violated from depth 3
    t = every_depth_thresholds(parse_measure("gRBP"), "p", "rank", Gains.parse("0,1,3"), cross_check=False)
    assert [r.label() for r in t.regions] == ["(0, 1/4)", "[1/4]", "(1/4, 2/5)", "[2/5]", "(2/5, 1)"]
    third = Fraction(1, 3)
    ranges = t.region_of(third).ranges_at(third)
    assert [(r.first, r.last, r.verdict) for r in ranges] == [(1, 1, "ordinal"), (2, 2, "weak"), (3, None, "violated")]
    for depth in (1, 2, 3):
        assert verdict_at(ranges, depth) == oracle("gRBP(p=1/3)", "rank", depth, 2, "0,1,3"), depth


def test_dp_dominance_is_strict_for_every_b():
    t = every_depth_thresholds(parse_measure(DP), "b", "dominance", cross_check=False)
    assert [(r.label(), r.summary()) for r in t.regions] == [("(0, oo)", "strict from depth 1 on")]
    assert all(o.status == "proved" for o in t.regions[0].obligations)
    for b in ("1/2", "2"):
        for depth in (1, 2, 3):
            assert oracle(f"{DP}(b={b})", "dominance", depth) == "strict"


def test_dp_rank_regions_of_the_depths_decided():
    # sum_(i > j) i^-b has no closed form: the regions are those of depths 1..3, violated onward or unknown
    t = every_depth_thresholds(parse_measure(DP), "b", "rank", search=3, cross_check=False)
    assert t.method == "depths" and t.decided == 3
    checked = 0
    for r in t.regions:
        if not isinstance(r.at, Fraction):
            continue
        for depth in (1, 2, 3):
            assert verdict_at(r.head, depth) == oracle(f"{DP}(b={r.at})", "rank", depth), (r.label(), depth)
        last = r.head[-1]
        assert last.last is None and (last.verdict == "violated" or (last.verdict, last.first) == ("unknown", 4))
        checked += 1
    assert checked >= 3
    # b = 1 by hand: at depth 2 the covers gain 1/2, 1 - 1/2 and 1/2, equal; at depth 3 no longer
    one = t.region_of(1)
    assert one.label() == "[1]" and verdict_at(one.head, 2) == "interval" == oracle(f"{DP}(b=1)", "rank", 2)
    assert t.regions[-1].head[-1].verdict == "unknown"  # large b: ordinal as far as decided


def test_parameter_obligations_prove_the_true_claim_and_not_the_false_one():
    p, b, i = sympy.Symbol("p", positive=True), sympy.Symbol("b", positive=True), POSITION
    h = p ** (i - 1) * (1 - 2 * p)
    below = {p: (Fraction(0), Fraction(1, 2), False, False)}
    above = {p: (Fraction(1, 2), Fraction(1), False, False)}
    assert _param_obligation("h", h, 1, ">=", "h >= 0", below).status == "proved"
    assert _param_obligation("h", h, 1, ">=", "h >= 0", above).status == "unknown"
    whole = {b: (Fraction(0), None, False, False)}
    assert _param_obligation("d", i ** -b - (i + 1) ** -b, 1, ">", "d > 0", whole).status == "proved"
    assert _param_obligation("d", (i + 1) ** -b - i ** -b, 1, ">", "d > 0", whole).status == "unknown"


def test_refusals():
    with pytest.raises(NoEveryDepthError, match="order 'set'"):
        every_depth_thresholds(parse_measure("RBP"), "p", "set")
    with pytest.raises(NoEveryDepthError, match="no position term"):
        every_depth_thresholds(parse_measure("INST"), "T", "rank")
