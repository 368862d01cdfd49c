"""Every-depth verdicts against brute force: every run, every related pair, exact values, on small depths.

The oracle here knows nothing of position terms, sequences or obligations:
it lists the runs of ``{0..c}^N``, builds each order's relation as the
closure of its generating moves (or the lexicographic order for ``rank``),
scores every run with the measure's own exact ``value`` and reads the
verdict off the signs.  The engine is run with a small exact search
(``search=3``), so that most depths checked here are settled by its tail
proof (obligations, or the padding lemma), not by its exact search.
"""
from __future__ import annotations

import itertools
from functools import lru_cache
from pathlib import Path

import pytest
import sympy

from workbench.core.certified import sign
from workbench.measures.names import parse_measure
from workbench.measures.position_terms import TermMismatchError
from workbench.scale.certificates import abstract_obligation
from workbench.measures.position_terms import POSITION
from workbench.scale.every_depth import NoEveryDepthError, every_depth
from workbench.space.runs import Gains

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _moves(order: str, run: tuple, c: int):
    n = len(run)
    if order in ("dominance", "raise", "ipso"):
        for i in range(n):
            if run[i] < c and (order != "ipso" or i == n - 1):
                yield run[:i] + (run[i] + 1,) + run[i + 1:]
    if order in ("dominance", "swap"):
        for i, j in itertools.combinations(range(n), 2):
            if run[i] < run[j]:
                s = list(run)
                s[i], s[j] = s[j], s[i]
                yield tuple(s)
    if order == "ipso":
        for i in range(n - 1):
            if run[i] < c and run[i + 1] > 0:
                s = list(run)
                s[i] += 1
                s[i + 1] -= 1
                yield tuple(s)


@lru_cache(maxsize=None)
def _related(order: str, depth: int, c: int) -> list:
    """Every pair ``(r, s)``, ``r < s`` in the order: the closure of the moves (depth-first from each run)."""
    runs = list(itertools.product(range(c + 1), repeat=depth))
    pairs = []
    for r in runs:
        seen, stack = set(), [r]
        while stack:
            x = stack.pop()
            for y in _moves(order, x, c):
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        pairs += [(r, s) for s in seen if s != r]
    return pairs


def _brute(measure: str, order: str, depth: int, c: int) -> str:
    m = parse_measure(measure)
    gains = Gains.default(c)
    runs = list(itertools.product(range(c + 1), repeat=depth))
    value = {r: sympy.sympify(m.value(r, gains)) for r in runs}
    if order == "rank":  # lexicographic: consecutive runs are the covers
        gaps = [value[b] - value[a] for a, b in zip(runs, runs[1:])]
        signs = [sign(g) for g in gaps]
        if any(s < 0 for s in signs):
            return "violated"
        if any(s == 0 for s in signs):
            return "weak"
        return "interval" if all(sign(g - gaps[0]) == 0 for g in gaps) else "ordinal"
    signs = [sign(value[s] - value[r]) for r, s in _related(order, depth, c)]
    if any(s < 0 for s in signs):
        return "violated"
    return "weak" if any(s == 0 for s in signs) else "strict"


CASES = [  # (measure, order, relevant grades, deepest depth checked)
    ("RBP(p=4/5)", "rank", 1, 6), ("RBP(p=1/2)", "rank", 1, 6), ("RBP(p=1/3)", "rank", 1, 6),
    ("RBP(p=4/5)", "dominance", 1, 5), ("RBP(p=1/2)", "ipso", 2, 3), ("RBP(p=1/2)", "swap", 1, 5),
    ("gRBP(p=1/2)", "rank", 2, 3), ("gRBP(p=1/4)", "dominance", 2, 3), ("gRBP(p=2/3)", "raise", 2, 3),
    ("DCG", "rank", 1, 5), ("DCG", "dominance", 1, 5), ("P@2", "rank", 1, 5), ("P@2", "dominance", 1, 4),
    ("gP@2", "ipso", 2, 3), ("RBTO", "rank", 2, 3), ("INSQ", "rank", 1, 6), ("INSQ", "dominance", 1, 4),
    (f"{EXAMPLES}/power_law.py:dp(b=3)", "rank", 1, 8), (f"{EXAMPLES}/power_law.py:dp(b=1/2)", "dominance", 1, 4),
    ("DCG(discount=logb,b=3)", "dominance", 2, 3),
]


@pytest.mark.parametrize("measure,order,grades,deepest", CASES, ids=[f"{m.split('/')[-1]}-{o}-{g}" for m, o, g, _ in CASES])
def test_every_depth_matches_brute_force(measure, order, grades, deepest):
    answer = every_depth(parse_measure(measure), order, Gains.default(grades), search=3)
    assert answer.ranges[0].first == 1 and answer.ranges[-1].last is None
    for a, b in zip(answer.ranges, answer.ranges[1:]):
        assert b.first == a.last + 1
    for depth in range(1, deepest + 1):
        assert answer.verdict_at(depth) == _brute(measure, order, depth, grades), (measure, order, depth)


def test_ipso_lemma_a_raise_anywhere_is_related():
    # the IPSO lemma takes a raise at any position as a related pair (not only at the last one)
    for depth, c in ((3, 2), (4, 1)):
        related = set(_related("ipso", depth, c))
        for r in itertools.product(range(c + 1), repeat=depth):
            for i in range(depth):
                if r[i] < c:
                    assert (r, r[:i] + (r[i] + 1,) + r[i + 1:]) in related


def test_the_issue_examples_are_proved_for_every_depth():
    rbp = every_depth(parse_measure("RBP(p=4/5)"), "rank")
    assert [(r.first, r.last, r.verdict) for r in rbp.ranges] == [
        (1, 1, "interval"), (2, 2, "ordinal"), (3, None, "violated")]
    half = every_depth(parse_measure("RBP(p=1/2)"), "rank")
    assert [(r.first, r.last, r.verdict) for r in half.ranges] == [(1, None, "interval")]
    assert half.proved and all(o.status == "proved" for o in half.obligations) and half.obligations
    dp = every_depth(parse_measure(f"{EXAMPLES}/power_law.py:dp(b=3)"), "rank")
    assert dp.ranges[-1].verdict == "violated" and dp.proved
    # the witness of the first violated depth is a cover scored downwards, checked with the measure itself
    n = dp.ranges[-1].first
    lower, upper, _ = dp.witnesses[n]
    m = parse_measure(f"{EXAMPLES}/power_law.py:dp(b=3)")
    assert len(lower) == n and sign(sympy.sympify(m.value(upper, Gains.default(1))) -
                                    sympy.sympify(m.value(lower, Gains.default(1)))) < 0


def test_ordinal_for_every_depth_rests_on_proved_obligations():
    below = every_depth(parse_measure("RBP(p=1/3)"), "rank")
    assert below.ranges[-1].verdict == "ordinal" and below.proved
    statuses = {o.name: o.status for o in below.obligations}
    assert statuses and set(statuses.values()) == {"proved"}
    # the same inequality is false above 1/2: the abstraction must not prove it
    i = POSITION
    false = sympy.Rational(1, 5) * sympy.Rational(4, 5) ** (i - 1) - sympy.Rational(4, 5) ** i
    assert abstract_obligation("x", false, i, 1, ">=", "false claim").status == "unknown"


def test_json_shape():
    j = every_depth(parse_measure("RBP(p=4/5)"), "rank").to_json()
    assert j["every_depth"][-1] == {"from": 3, "to": None, "verdict": "violated"}
    assert isinstance(j["proof"], list) and j["proof"]


def test_refusals_name_the_problem(tmp_path):
    with pytest.raises(NoEveryDepthError, match="AP has no position term"):
        every_depth(parse_measure("AP"), "rank")
    with pytest.raises(NoEveryDepthError, match="order 'set'"):
        every_depth(parse_measure("RBP"), "set")
    f = tmp_path / "wrong.py"
    f.write_text("import workbench\n\n@workbench.position_term('rel / i**2')\n"
                 "def w(A):\n    return A.sum(A.rel(i) * A.const(1) / (i + 1) for i in range(A.depth))\n")
    with pytest.raises(TermMismatchError, match="at depth 2, position 2, grade 1"):
        every_depth(parse_measure(f"{f}:w"), "rank")
