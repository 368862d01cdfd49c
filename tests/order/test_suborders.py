"""The sub-orders ``swap`` (Rule 2 alone) and ``raise`` (Rule 1 alone) against oracles written from their definitions.

The oracle relations are built here without the workbench's order code: the
reflexive-transitive closure of single moves on the unconstrained space
(Rule 2: a higher grade at a later position swaps with a lower one at an
earlier position, any distance; Rule 1: one grade raised in place), restricted
to a topic's runs (the induced sub-order); dominance straight from its
prefix-count definition.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.scale.counterexample import find_counterexample
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space

TOPICS = {
    1: [None, (0,), (1,), (2,), (4,)],
    2: [None, (0, 0), (1, 1), (0, 2), (2, 0), (1, 0), (0, 1), (5, 1)],
    3: [None, (0, 0, 0), (1, 1, 1), (0, 0, 2), (2, 0, 1), (0, 1, 0)],
}
DEPTHS = {1: range(1, 6), 2: range(1, 6), 3: range(1, 5)}


def all_runs(depth, c):
    return list(itertools.product(range(c + 1), repeat=depth))


def in_topic(run, topic):
    return topic is None or all(run.count(j) <= n for j, n in enumerate(topic, start=1))


def rule2_moves(run):
    for i in range(len(run)):
        for j in range(i + 1, len(run)):
            if run[i] < run[j]:
                s = list(run)
                s[i], s[j] = s[j], s[i]
                yield tuple(s)


def rule1_moves(run, c):
    for i in range(len(run)):
        for v in range(run[i] + 1, c + 1):
            yield run[:i] + (v,) + run[i + 1:]


def closure_of_moves(depth, c, moves):
    """``{r: set of s with r <= s}``: reachability by the moves on the unconstrained space."""
    up = {}
    for r in all_runs(depth, c):
        seen, todo = {r}, [r]
        while todo:
            x = todo.pop()
            for y in moves(x):
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        up[r] = seen
    return up


_CACHE: dict = {}


def oracle(name, depth, c):
    key = (name, depth, c)
    if key not in _CACHE:
        if name == "swap":
            _CACHE[key] = closure_of_moves(depth, c, rule2_moves)
        elif name == "raise":
            _CACHE[key] = closure_of_moves(depth, c, lambda r: rule1_moves(r, c))
        else:  # dominance, from its definition: every prefix count of every threshold
            def counts(r):
                return [sum(1 for g in r[:k] if g >= a) for a in range(1, c + 1) for k in range(1, depth + 1)]
            runs = all_runs(depth, c)
            cnt = {r: counts(r) for r in runs}
            _CACHE[key] = {r: {s for s in runs if all(x <= y for x, y in zip(cnt[r], cnt[s]))} for r in runs}
    return _CACHE[key]


def space_runs(depth, c, topic):
    space = rank_space(depth, c, Topic(topic) if topic is not None else None)
    runs = [tuple(r) for r in space.array().tolist()]
    assert runs == [r for r in all_runs(depth, c) if in_topic(r, topic)]  # canonical order: RBTO
    return space, runs


def strict_matrix(runs, up):
    n = len(runs)
    m = np.zeros((n, n), dtype=np.int64)
    for a, r in enumerate(runs):
        for b, s in enumerate(runs):
            if a != b and s in up[r]:
                m[a, b] = 1
    return m


def reduction(lt):
    two = (lt @ lt) > 0
    lo, hi = np.nonzero((lt > 0) & ~two)
    return sorted(zip(lo.tolist(), hi.tolist()))


def closure(n, pairs):
    m = np.eye(n, dtype=bool)
    for a, b in pairs:
        m[a, b] = True
    while True:
        nxt = (m.astype(np.int64) @ m.astype(np.int64)) > 0
        if (nxt == m).all():
            return m
        m = nxt


def cases():
    for c in (1, 2, 3):
        for depth in DEPTHS[c]:
            for topic in TOPICS[c]:
                yield c, depth, topic


@pytest.mark.parametrize("c,depth", [(c, d) for c in (1, 2, 3) for d in DEPTHS[c]])
@pytest.mark.parametrize("name", ["swap", "raise"])
@pytest.mark.slow
def test_compare_matches_closure_of_the_rule(name, c, depth):
    o, up = get_order(name), oracle(name, depth, c)
    runs = all_runs(depth, c)
    g = Gains.default(c)
    for r in runs:
        for s in runs:
            want = "=" if r == s else ("<" if s in up[r] else (">" if r in up[s] else None))
            assert o.compare(r, s, g) == want, (r, s)


@pytest.mark.parametrize("c,depth,topic", list(cases()))
@pytest.mark.parametrize("name", ["swap", "raise"])
def test_covers_are_the_transitive_reduction(name, c, depth, topic):
    space, runs = space_runs(depth, c, topic)
    want = reduction(strict_matrix(runs, oracle(name, depth, c)))
    assert get_order(name).covers(space).pairs() == want


@pytest.mark.parametrize("c,depth,topic", list(cases()))
def test_union_of_swap_and_raise_generates_dominance(c, depth, topic):
    space, runs = space_runs(depth, c, topic)
    pairs = get_order("swap").covers(space).pairs() + get_order("raise").covers(space).pairs()
    got = closure(len(runs), pairs)
    want = strict_matrix(runs, oracle("dominance", depth, c)).astype(bool) | np.eye(len(runs), dtype=bool)
    assert (got == want).all()


def test_cover_rules_under_a_topic_by_hand():
    # topic (1, 1): one grade-1 and one grade-2 document.  From (1, 0) raise may
    # go to (2, 0) (grade 2 has room) and must skip the full grade 1 at
    # position 2, so (1, 0) -> (1, 2) is a cover although it jumps two grades.
    space = rank_space(2, 2, Topic((1, 1)))
    runs = [tuple(r) for r in space.array().tolist()]
    got = {(runs[a], runs[b]) for a, b in get_order("raise").covers(space).pairs()}
    assert ((1, 0), (2, 0)) in got and ((1, 0), (1, 2)) in got and ((1, 0), (1, 1)) not in got
    got = {(runs[a], runs[b]) for a, b in get_order("swap").covers(space).pairs()}
    assert got == {((0, 1), (1, 0)), ((0, 2), (2, 0)), ((1, 2), (2, 1))}


def oracle_verdict(m, name, depth, c, topic, g):
    _, runs = space_runs(depth, c, topic)
    t = Topic(topic) if topic is not None else None
    val = {r: m.value(r, g, t) for r in runs}
    up = oracle(name, depth, c)
    worst = "strict"
    for r in runs:
        for s in runs:
            if r != s and s in up[r]:
                if val[r] > val[s]:
                    return "violated"
                if val[r] == val[s]:
                    worst = "weak"
    return worst


MEASURES = ["P", "RR", "AP", "RBP(p=0.5)", "RBP(p=0.8)", "SBTO", "RBTO", "gP", "ERR", "Succ"]


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("name", ["swap", "raise"])
@pytest.mark.slow
def test_classify_matches_all_pairs_oracle(measure, name):
    m = parse_measure(measure)
    for c in (1, 2):
        if c == 2 and measure in ("AP", "RR", "P", "Succ"):
            continue
        g = Gains.default(c)
        for depth in (1, 2, 3, 4):
            for topic in TOPICS[c][:4]:
                if (topic is None and m.needs_topic) or m.undefined_reason(Topic(topic) if topic else None):
                    continue  # AP on the empty topic: tests/measures/test_empty_topic.py
                space = rank_space(depth, c, Topic(topic) if topic is not None else None)
                got = classify(m, get_order(name), space, g).verdict
                assert got == oracle_verdict(m, name, depth, c, topic, g), (depth, c, topic)


def test_known_verdicts():
    # RR ignores every relevant document after the first: raising a later grade
    # keeps it, so raise is weak; a swap moving the first relevant one up raises it.
    space = rank_space(3)
    assert classify(parse_measure("RR"), get_order("raise"), space).verdict == "weak"
    # P@3 counts relevant documents only: every swap keeps it
    assert classify(parse_measure("P"), get_order("swap"), space).verdict == "weak"
    # RBP(p=0.5) is RBTO/8 at depth 3 in binary: strict on both
    for o in ("swap", "raise"):
        assert classify(parse_measure("RBP(p=0.5)"), get_order(o), space).verdict == "strict"


@pytest.mark.parametrize("measure,grades,topic", [
    ("RBP(p=0.8)", 1, None), ("RR", 1, None), ("AP", 1, (2,)), ("ERR", 2, None), ("gP", 2, None),
    ("RBP(p=0.5)", 2, None), ("P", 1, (1,)), ("gRBP(p=1/3)", 2, (1, 1)),
])
@pytest.mark.parametrize("name", ["swap", "raise"])
@pytest.mark.slow
def test_smt_agrees_with_enumeration(name, measure, grades, topic):
    g = Gains.default(grades)
    t = Topic(topic) if topic is not None else None
    for depth in range(1, 5):
        enum = find_counterexample(measure, name, depth=depth, grades=grades, gains=g, topic=t)
        smt = find_counterexample(measure, name, depth=depth, grades=grades, gains=g, topic=t, method="smt")
        assert enum.status in ("found", "unknown")
        assert smt.found == enum.found and smt.status in ("found", "unknown"), (depth, smt.reason)
        if smt.found:
            for cx in (smt, enum):
                assert get_order(name).compare(cx.lower, cx.upper, g) == "<"
                m = parse_measure(measure)
                assert m.value(cx.lower, g, t) > m.value(cx.upper, g, t)
                assert in_topic(cx.lower, topic) and in_topic(cx.upper, topic)


LATE = """
def late(A):
    # rewards relevance lower down: violates swap, respects raise
    return A.sum(A.gain(i) * A.const(i + 1) for i in range(A.depth))


def capped(A):
    # a penalty per top-grade document: violates raise, and is a function of the
    # multiset, so swaps still strictly gain through the first term
    return A.sum(A.gain(i) / A.const(i + 1) - A.const(10) * A.rel(i, 2) for i in range(A.depth))
"""


@pytest.mark.parametrize("function,grades,violated", [
    ("late", 1, {"swap"}), ("late", 2, {"swap"}), ("capped", 2, {"raise"}),
])
def test_user_measures_violate_exactly_one_sub_order(tmp_path, function, grades, violated):
    path = tmp_path / "late.py"
    path.write_text(LATE)
    name = f"{path}:{function}"
    m = parse_measure(name)
    g = Gains.default(grades)
    for order in ("swap", "raise"):
        assert oracle_verdict(m, order, 3, grades, None, g) == ("violated" if order in violated else "strict")
        enum = find_counterexample(name, order, max_depth=3, grades=grades, gains=g)
        smt = find_counterexample(name, order, max_depth=3, grades=grades, gains=g, method="smt")
        assert (smt.status, enum.status) == (("found",) * 2 if order in violated else ("unknown", "unknown"))
        assert smt.depth == enum.depth
        if enum.found:
            for cx in (smt, enum):
                assert get_order(order).compare(cx.lower, cx.upper, g) == "<"
                assert m.value(cx.lower, g) > m.value(cx.upper, g)


def test_atlas_on_the_sub_orders():
    from workbench.papers.atlas import ATLAS_ORDERS, LETTERS, build_atlas

    assert "swap" not in ATLAS_ORDERS and "raise" not in ATLAS_ORDERS  # reports/atlas.md keeps its five orders
    a = build_atlas(["P", "RR", "RBP(p=0.5)"], orders=["swap", "raise"], grades=[1], depths=[2, 3])
    for measure in ("P", "RR", "RBP(p=0.5)"):
        m = parse_measure(measure)
        for order in ("swap", "raise"):
            want = " ".join(LETTERS[oracle_verdict(m, order, d, 1, None, Gains.default(1))] for d in (2, 3))
            assert a.verdicts(measure, order, 1) == want, (measure, order)
