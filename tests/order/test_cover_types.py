"""Covers decided by kind (issue 25): kinds of covers, additive forms, and the summary they give.

Oracles, each written apart from the code under test:

* kinds of covers against the explicit cover relation (``Order.covers``):
  every run is tried as a lower end of every kind, its upper end built by
  applying the kind's changes, and the pair looked up among the explicit
  covers; the counts, first lower ends, steps and the union must match;
* additive forms against the measure's own exact evaluation, run by run;
* the summary against the block stream (``run_blocks``: covers generated
  and scored block by block), and whole classifications against
  ``classify_materialised``.
"""
from __future__ import annotations

import itertools
import json
import numpy as np
import pytest

from workbench.core.exact import ValueBlock
from workbench.measures.additive import minus, plus, additive_form, prefix_values, sign_of
from workbench.measures.names import parse_measure
from workbench.order.cover_types import TYPED_ORDERS, cover_types
from workbench.order.orders import get_order
from workbench.scale import kind_blocks
from workbench.scale.by_cover_type import distinct_values, summary_by_cover_type
from workbench.scale.classify import classify, classify_materialised
from workbench.scale.stream import job_for, run_blocks
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space

SPACES = [(1, d) for d in range(1, 8)] + [(2, d) for d in range(1, 6)] + [(3, d) for d in range(1, 5)]


@pytest.mark.parametrize("order", TYPED_ORDERS)
def test_kinds_of_covers_are_exactly_the_explicit_covers(order):
    for grades, depth in SPACES:
        space, gains = rank_space(depth, grades), Gains.default(grades)
        explicit = get_order(order).covers(space, gains)
        assert len(explicit.tie_lower) == 0
        want = set(explicit.pairs())
        runs = space.array().tolist()
        index = {tuple(r): k for k, r in enumerate(runs)}
        seen = []
        for kind in cover_types(order, depth, grades, gains):
            mine = []
            for k, run in enumerate(runs):
                if all(run[p] == a for p, a, _ in kind.changes):
                    up = list(run)
                    for p, _, b in kind.changes:
                        up[p] = b
                    if (k, index[tuple(up)]) in want:
                        mine.append((k, index[tuple(up)]))
            assert len(mine) == kind.count, (order, grades, depth, kind)
            product = {index[r] for r in itertools.product(*kind.allowed)}
            assert {a for a, _ in mine} == product, (order, grades, depth, kind)
            assert min(mine)[0] == kind.first and {b - a for a, b in mine} == {kind.step}, (order, grades, depth, kind)
            seen += mine
        assert len(seen) == len(set(seen)) and set(seen) == want, (order, grades, depth)


def test_ipso_with_unequal_gaps_is_not_described():
    assert cover_types("ipso", 3, 2, Gains.parse("0,1,3")) is None
    assert cover_types("set", 3, 1) is None


ADDITIVE = ["RBP(p=4/5)", "RBP(p=1/2)", "gRBP(p=1/3)", "DCG", "DCG@2", "DCG(discount=logb,b=3)", "P", "P@2", "gP",
            "RBTO", "R", "gR", "F", "nDCG", "nDCG@2", "INSQ"]
NOT_ADDITIVE = ["AP", "RR", "ERR", "SBTO", "Succ", "INST", "RecoveryRatio"]  # INSQ: static weights, a sum


def _topic(measure, grades: int, depth: int):
    return Topic((depth,) * grades) if measure.needs_topic else None


@pytest.mark.parametrize("name", ADDITIVE)
def test_additive_forms_give_the_exact_values(name):
    m = parse_measure(name)
    for grades, depth in [(1, 5), (2, 3), (3, 2)]:
        gains = Gains.default(grades) if grades != 2 else Gains.parse("0,1,3")
        topic = _topic(m, grades, depth)
        form = additive_form(m, depth, gains, topic)
        assert form is not None, (name, grades)
        runs = rank_space(depth, grades).array()
        want = m.evaluate(runs, gains, topic)
        for k, run in enumerate(runs.tolist()):
            got = plus(form.const, form.change([(i, 0, g) for i, g in enumerate(run)]))
            one = ValueBlock(want.coords[k:k + 1], want.den, want.basis, want.bound, want.scale)
            assert sign_of(minus(one, got)) == 0, (name, grades, run)


@pytest.mark.parametrize("name", NOT_ADDITIVE)
def test_measures_that_are_not_sums_are_not_taken_for_sums(name):
    m = parse_measure(name)
    broken = []
    for grades, depth in [(1, 4), (2, 3)]:
        topic = Topic((2,) * grades) if m.needs_topic else None
        assert additive_form(m, depth, Gains.default(grades), topic) is None
        # and indeed no sum of per-position terms fits: some run breaks c + sum_i (M(e_i(r_i)) - c)
        # (SBTO on binary runs counts relevant documents, a sum: it breaks with grades)
        runs = rank_space(depth, grades).array()
        if topic is not None:
            runs = runs[rank_space(depth, grades, topic).contains(runs)]
        v = m.evaluate(runs, Gains.default(grades), topic).values()
        at = {tuple(r): x for r, x in zip(runs.tolist(), v)}
        zero = at[(0,) * depth]

        def unit(i, g):
            r = [0] * depth
            r[i] = g
            return at[tuple(r)] - zero

        broken.append(any(at[tuple(r)] != zero + sum(unit(i, g) for i, g in enumerate(r) if g)
                          for r in runs.tolist()))
    assert any(broken), name


def test_prefix_values_are_the_digit_sums():
    rng = np.random.default_rng(25)
    for grades, depth in [(1, 9), (2, 6), (3, 5)]:
        W = rng.integers(-50, 50, size=(depth, grades + 1))
        W[:, 0] = 0
        rows = rank_space(depth, grades).array().astype(np.int64)
        want = 7 + W[np.arange(depth), rows].sum(axis=1)
        size = len(rows)
        for start, n in [(0, size), (0, 1), (3, 5), (size - 4, 4), (1, size - 1), (size // 3, size // 2)]:
            assert prefix_values(W, 7, start, n).tolist() == want[start:start + n].tolist()


def _summary_fields(s):
    pair = lambda p: None if p is None else (p.lower, p.upper)  # noqa: E731
    return s.covers, pair(s.negative), pair(s.zero), pair(s.first_cover), pair(s.unequal)


SUMMARY_MEASURES = ["RBP(p=4/5)", "RBP(p=1/2)", "gRBP(p=1/2)", "DCG", "P", "RBTO", "nDCG@2", "DCG@2"]


@pytest.mark.parametrize("order", TYPED_ORDERS)
@pytest.mark.slow
def test_summary_by_kind_is_the_block_streams(order):
    o = get_order(order)
    for grades, depth, gains in [(1, 6, None), (2, 4, None), (2, 3, "0,1,3"), (3, 3, None)]:
        g = Gains.parse(gains) if gains else Gains.default(grades)
        space = rank_space(depth, grades)
        for name in SUMMARY_MEASURES:
            m = parse_measure(name)
            if m.needs_topic:
                space = rank_space(depth, grades, Topic((depth,) * grades))
            typed = summary_by_cover_type(m, o, space, g)
            if order == "ipso" and gains:
                assert typed is None
                continue
            assert typed is not None, (order, name)
            streamed = run_blocks(job_for(m, o, space, g, distinct=False), space.size, 5)
            want = _summary_fields(streamed)
            got = _summary_fields(typed)
            if o.kind != "total":  # the unequal increment is looked for on chains only
                got, want = got[:4], want[:4]
            assert got == want, (order, grades, depth, gains, name)


@pytest.mark.slow
def test_classify_by_kind_is_the_materialised_classification():
    for order in TYPED_ORDERS:
        o = get_order(order)
        for name in ("RBP(p=4/5)", "RBP(p=1/2)", "DCG", "gRBP(p=1/2)", "P", "nDCG", "F", "INSQ"):
            for grades, depth in [(1, 1), (1, 2), (2, 1), (1, 7), (2, 4)]:
                m = parse_measure(name)
                space = rank_space(depth, grades, Topic((depth,) * grades) if m.needs_topic else None)
                got = classify(m, o, space, ranked_limit=None)
                want = classify_materialised(m, o, space, ranked_limit=None)
                assert json.dumps(got.to_json(), sort_keys=True) == json.dumps(want.to_json(), sort_keys=True), \
                    (order, name, grades, depth)


def test_distinct_values_by_recurrence_are_the_evaluated_ones():
    for name, grades, depth in [("RBP(p=4/5)", 1, 8), ("gRBP(p=1/2)", 2, 5), ("P", 1, 6), ("DCG", 1, 5)]:
        m, gains = parse_measure(name), Gains.default(grades)
        space = rank_space(depth, grades)
        form = additive_form(m, depth, gains, None)
        fast = distinct_values(m, space, gains, 7, form)
        slow = distinct_values(m, space, gains, 7, None)  # every block scored by the exact evaluation
        assert fast.values.values() == slow.values.values(), name
        assert fast.first.tolist() == slow.first.tolist() and fast.second.tolist() == slow.second.tolist(), name


def test_a_billion_runs_are_classified_without_enumerating_them():
    c = classify(parse_measure("RBP(p=4/5)"), get_order("dominance"), rank_space(30), intrinsic=False)
    # (N - 1) 2^(N-2) adjacent swaps plus 2^(N-1) raises of a last 0
    assert c.covers == 29 * 2**28 + 2**29 and c.verdict == "strict"
    c = classify(parse_measure("RBP(p=1/2)"), get_order("rank"), rank_space(40), intrinsic=False)
    assert c.verdict == "interval" and c.covers == 2**40 - 1


# --- any measure, block by block (workbench.scale.kind_blocks) --------------------------------

KIND_MEASURES = ["AP", "RR", "ERR", "SBTO", "RBP(p=1/2)", "nDCG", "INST", "DCG"]


@pytest.mark.parametrize("order", kind_blocks.KIND_ORDERS)
@pytest.mark.slow
def test_kind_blocks_give_the_block_streams_summary(order):
    """Every setting it applies to, blocks of 1 position up to the whole space, against run_blocks."""
    o = get_order(order)
    settings = [(1, 6, None), (1, 6, (2,)), (1, 5, (1,)), (1, 5, (0,)), (2, 4, None), (3, 3, None)]
    for grades, depth, topic in settings:
        g = Gains.default(grades)
        space = rank_space(depth, grades, Topic(topic) if topic else None)
        assert kind_blocks.applies(o, space, g)
        for name in KIND_MEASURES:
            m = parse_measure(name)
            if m.needs_topic and topic is None:
                space_m = rank_space(depth, grades, Topic((depth,) * grades))
            else:
                space_m = space
            if name in ("AP", "nDCG", "RBP(p=1/2)") and topic == (0,):
                continue  # undefined, or a one-run space either way
            job = job_for(m, o, space_m, g, distinct=False)
            want = _summary_fields(run_blocks(job, space_m.size, 7))[:4]
            for block_runs in (1, 4, 9, 10**6):
                got = _summary_fields(kind_blocks.summary_by_kind_blocks(job, space_m, block_runs=block_runs))[:4]
                assert got == want, (order, grades, depth, topic, name, block_runs)


def test_kind_blocks_on_two_processes_equal_one():
    from workbench.core.executors import open_executor

    space = rank_space(12, 1, Topic((5,)))
    job = job_for(parse_measure("AP"), get_order("dominance"), space, Gains.default(1), distinct=False)
    one = _summary_fields(kind_blocks.summary_by_kind_blocks(job, space, block_runs=64))
    with open_executor(2) as ex:
        two = _summary_fields(kind_blocks.summary_by_kind_blocks(job, space, ex, 2, block_runs=64))
    assert one == two == _summary_fields(run_blocks(job, space.size, 100))[:4] + (None,)


@pytest.mark.slow
def test_classify_through_kind_blocks_is_the_materialised_classification():
    for name, topic in [("AP", (3,)), ("RR", None), ("ERR", (2,)), ("nDCG", (4,))]:
        m, o = parse_measure(name), get_order("dominance")
        space = rank_space(8, 1, Topic(topic) if topic else None)
        got = classify(m, o, space, ranked_limit=None)
        want = classify_materialised(m, o, space, ranked_limit=None)
        assert json.dumps(got.to_json(), sort_keys=True) == json.dumps(want.to_json(), sort_keys=True), name


@pytest.mark.slow
def test_kind_blocks_distinct_values_are_the_block_streams():
    """Giner's table from blocks of kinds: values and their two smallest run indices, under a topic too."""
    for name, grades, depth, topic in [("AP", 1, 8, (3,)), ("RR", 1, 7, None), ("ERR", 2, 4, None),
                                       ("SBTO", 1, 8, (2,))]:
        m, o = parse_measure(name), get_order("dominance")
        space = rank_space(depth, grades, Topic(topic) if topic else None)
        job = job_for(m, o, space, Gains.default(grades), distinct=True)
        want = run_blocks(job, space.size, 7).distinct[0]
        for block_runs in (2, 8, 10**6):
            got = kind_blocks.summary_by_kind_blocks(job, space, block_runs=block_runs).distinct[0]
            assert got.values.values() == want.values.values(), (name, block_runs)
            assert got.first.tolist() == want.first.tolist() and got.second.tolist() == want.second.tolist(), \
                (name, block_runs)
