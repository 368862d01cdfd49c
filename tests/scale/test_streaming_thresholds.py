"""Thresholds read the space in blocks: the result must not depend on the block size.

Two checks:

* the whole ThresholdTable (its docs/reference/cli.md JSON, witnesses and
  certificates included) is the same for tiny blocks (1, 2, 3, 7 runs) as
  for one block holding the whole space, over several measures, orders,
  depths and a topic;
* a slow oracle written here, independent of the covers module and of the
  value blocks: it enumerates the space's runs in canonical order, finds the
  covers by comparing every pair with ``Order.leq`` and scores each run
  alone with ``Measure.value`` at a rational inside each region; the
  region's verdict, and the witness (the first offending cover in canonical
  order, or the first cover and the first one whose increment differs) must
  be the oracle's.
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from workbench.errors import TooLargeError
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.thresholds import check_thresholds, thresholds
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space, set_space

CASES = [
    # measure, param, order, space
    ("RBP", "p", "rank", rank_space(4)),
    ("RBP", "p", "dominance", rank_space(5)),
    ("RBP", "p", "set", set_space(4)),
    ("RBP@3", "p", "swap", rank_space(5)),
    ("gRBP", "p", "dominance", rank_space(3, 2)),
    ("gRBP", "p", "ipso", rank_space(3, 2)),
    ("gRBP", "p", "replacement", set_space(3, 2, Topic((1, 1)))),
    ("gRBP", "p", "raise", rank_space(4, 2, Topic((1, 2)))),
    ("INSQ", "T", "dominance", rank_space(3)),
    ("INST", "T", "rank", rank_space(3)),
    ("RBP", "p", "dominance", rank_space(5, 1, Topic((2,)))),
    ("examples/geometric_precision.py:gp", "p", "rank", rank_space(2)),
]


def table(case, block_size=None, gains=None):
    measure, param, order, space = case
    return thresholds(parse_measure(measure), param, get_order(order), space, gains, block_size=block_size)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
@pytest.mark.slow
def test_every_block_size_gives_the_same_table(case):
    whole = json.dumps(table(case, block_size=case[3].size).to_json(), sort_keys=True)
    for size in (1, 2, 3, 7):
        assert json.dumps(table(case, block_size=size).to_json(), sort_keys=True) == whole, size


def test_unequal_gains_fallback_covers_stream_the_same():
    """ipso with unequally spaced gains takes the generic cover computation (sliced per block)."""
    gains = Gains((Fraction(0), Fraction(1), Fraction(3)))
    case = ("gRBP", "p", "ipso", rank_space(3, 2))
    whole = json.dumps(table(case, block_size=27, gains=gains).to_json(), sort_keys=True)
    for size in (1, 2, 5):
        assert json.dumps(table(case, block_size=size, gains=gains).to_json(), sort_keys=True) == whole, size


# ---------------------------------------------------------------------------
# the slow oracle


def naive_covers(order, runs, gains):
    """``(i, j)`` with ``runs[i] < runs[j]`` and no run strictly between, in canonical (i, j) order."""
    n = len(runs)
    less = [[i != j and order.leq(runs[i], runs[j], gains) and not order.leq(runs[j], runs[i], gains)
             for j in range(n)] for i in range(n)]
    return [(i, j) for i in range(n) for j in range(n)
            if less[i][j] and not any(less[i][k] and less[k][j] for k in range(n))]


def naive_verdict(measure, param, order, space, gains, q):
    """``(verdict, witness pairs)`` at the rational ``q`` by the definition (docs/theory/scales.md)."""
    runs = list(space)
    m = parse_measure(measure).with_params(**{param: q})
    value = [m.value(r, gains, space.topic) for r in runs]
    covers = naive_covers(get_order(order), runs, gains)
    assert not [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))
                if get_order(order).leq(runs[i], runs[j], gains) and get_order(order).leq(runs[j], runs[i], gains)]
    inc = [value[j] - value[i] for i, j in covers]
    for k, d in enumerate(inc):
        if d < 0:
            return "violated", [covers[k]]
    for k, d in enumerate(inc):
        if d == 0:
            return "weak", [covers[k]]
    if get_order(order).kind != "total":
        return "strict", []
    for k, d in enumerate(inc):
        if d != inc[0]:
            return "ordinal", [covers[0], covers[k]]
    return "interval", []


ORACLE_CASES = [
    ("RBP", "p", "rank", rank_space(3)),
    ("RBP", "p", "dominance", rank_space(4)),
    ("RBP@2", "p", "swap", rank_space(4)),
    ("gRBP", "p", "dominance", rank_space(2, 2)),
    ("INSQ", "T", "rank", rank_space(3)),
    ("RBP", "p", "rank", rank_space(4, 1, Topic((2,)))),
]


@pytest.mark.parametrize("case", ORACLE_CASES, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
def test_each_region_agrees_with_the_naive_oracle(case):
    measure, param, order, space = case
    gains = Gains.default(space.grades)
    t = table(case, block_size=3)
    index = {r: i for i, r in enumerate(space)}
    checked = 0
    for region in t.regions:
        if not isinstance(region.at, Fraction):
            continue  # an algebraic point: tests/scale/test_thresholds.py checks those with sympy
        verdict, pairs = naive_verdict(measure, param, order, space, gains, region.at)
        assert region.verdict == verdict == t.verdict_at(region.at), (region.label(), region.at)
        got = [] if region.witness is None else (
            [region.witness] if region.gap_witness is None else list(region.gap_witness))
        assert [(index[w.lower], index[w.upper]) for w in got] == pairs, (region.label(), region.at)
        checked += 1
    assert checked


# ---------------------------------------------------------------------------
# limits


def test_groups_beyond_the_exact_budget_are_refused_while_streaming(monkeypatch):
    """INST has one difference per cover: with small blocks the count passes the budget before the last block."""
    monkeypatch.setenv("WORKBENCH_TIME_LIMIT", "0.5")
    with pytest.raises(TooLargeError) as e:
        thresholds(parse_measure("INST"), "T", get_order("rank"), rank_space(6), block_size=8)
    msg = str(e.value)
    assert "\n" not in msg and "distinct cover differences of degree bound 40 in T" in msg, msg
    counted = int(msg.split("in the first ")[1].split(" of ")[0])
    assert "at least" in msg and counted < 64 and " of 64 runs" in msg, msg


def test_a_deep_space_is_refused_for_its_time_not_its_memory():
    """Blocks bound the memory: depth 24 (16.8 million runs) no longer needs gigabytes, only too much time."""
    with pytest.raises(TooLargeError) as e:
        check_thresholds(parse_measure("RBP"), get_order("dominance"), "rank", [24], 1, None, Gains.default(1))
    msg = str(e.value)
    assert "\n" not in msg and "of work" in msg and "GB" not in msg and "depth <= " in msg, msg


@pytest.mark.slow
def test_an_additive_measure_is_estimated_by_its_grouping_by_type(monkeypatch):
    """RBP is additive in the runs: grouping its covers by type costs a few scoring passes, not ``2 * depth + 2``.

    Depth 20 on the dominance order (about 3 s of work) fits the default budget; depth 22 (about 15 s) does
    not, and the message names depth 21 as the largest that fits.  Without the parameter named (or for a
    measure that is not additive) the general estimate stands.
    """
    from workbench.scale.thresholds import thresholds_estimate

    monkeypatch.delenv("WORKBENCH_TIME_LIMIT", raising=False)
    rbp, dom, g = parse_measure("RBP"), get_order("dominance"), Gains.default(1)
    check_thresholds(rbp, dom, "rank", [20], 1, None, g, param="p")
    with pytest.raises(TooLargeError) as e:
        check_thresholds(rbp, dom, "rank", [22], 1, None, g, param="p")
    assert "depth <= 21 fits" in str(e.value), str(e.value)
    with pytest.raises(TooLargeError):
        check_thresholds(rbp, dom, "rank", [20], 1, None, g)
    typed = thresholds_estimate(rbp, dom, "rank", 18, 1, None, g, param="p")
    general = thresholds_estimate(rbp, dom, "rank", 18, 1, None, g)
    assert typed.seconds < general.seconds / 5 and typed.bytes < general.bytes
    inst = get_order("rank")
    assert (thresholds_estimate(parse_measure("INST"), inst, "rank", 8, 1, None, g, param="T")
            == thresholds_estimate(parse_measure("INST"), inst, "rank", 8, 1, None, g))


def test_certificates_beyond_the_time_budget_are_refused_once_the_critical_points_are_known(monkeypatch):
    """One exact pass over the space per rational certificate point: counted after the critical points."""
    import workbench.scale.thresholds as thr

    monkeypatch.setattr(thr, "_pass_seconds", lambda *args: 100.0)
    # the model says 100 s a pass, and so does the pass timed when the model does not fit: refused
    monkeypatch.setattr(thr._Analysis, "_timed_pass", lambda self: 100.0)
    with pytest.raises(TooLargeError) as e:
        thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(4))
    msg = str(e.value)
    # RBP at depth 4 on the rank order: critical points 1/2 and two algebraic numbers, so 4 open pieces and one
    # rational point region, 5 rational certificates, one of them counted up front (the additive path)
    assert "\n" not in msg and "certificates at 4 more rational points (3 critical points in p)" in msg, msg
    monkeypatch.setattr(thr, "_pass_seconds", lambda *args: 1.0)
    assert thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(4)).depth == 4
    # a model far too high is corrected by the timed pass (a real pass at depth 4 takes milliseconds)
    monkeypatch.undo()
    monkeypatch.setattr(thr, "_pass_seconds", lambda *args: 100.0)
    assert thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(4)).depth == 4


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "8"])
def test_a_bad_block_size_is_refused_in_one_line_naming_it(bad):
    from workbench.errors import WorkbenchError

    with pytest.raises(WorkbenchError) as e:
        thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(2), block_size=bad)
    assert f"block size {bad!r}" in str(e.value) and "\n" not in str(e.value)


# ---------------------------------------------------------------------------
# tied pairs: no built-in order has them on these spaces, so the test declares some


@pytest.mark.parametrize("measure,ties,groups", [
    ("RBP", [(3, 4), (5, 6)], 3 + 2),  # 011 ~ 100 and 101 ~ 110: scored unequally (but 011, 100 at one p)
    # 000 ~ 001 and 010 ~ 011: RBP@2 scores them equal (one group); its covers differ by 0, p(1-p) or (1-p)^2
    ("RBP@2", [(0, 1), (2, 3)], 3 + 1),
])
def test_declared_tied_pairs_stream_and_agree_with_the_oracle(monkeypatch, measure, ties, groups):
    """Tied pairs declared on the rank order at depth 3: a tie scored unequally violates, before any cover.

    The tie's witness lists first the run that scores higher, as a violated cover's witness
    does (``lower`` scores above ``upper``, so the printed witness is true); the oracle finds
    the first tied pair (canonical order) whose runs score differently, else
    decides by the covers alone.
    """
    import numpy as np

    import workbench.order.covers as covers_module
    import workbench.scale.stream as stream_module
    import workbench.scale.thresholds as thresholds_module

    original = covers_module.covers_in_range

    def with_ties(name, space, gains, start, stop, sort=True):
        cov = original(name, space, gains, start, stop, sort)
        mine = [(a, b) for a, b in ties if start <= a < stop]
        return covers_module.Covers(cov.lower, cov.upper, np.array([a for a, _ in mine], dtype=np.int64),
                                    np.array([b for _, b in mine], dtype=np.int64))

    for module in (covers_module, stream_module, thresholds_module):  # each caller holds its own name for it
        monkeypatch.setattr(module, "covers_in_range", with_ties)
    case = (measure, "p", "rank", rank_space(3))
    whole = table(case, block_size=8)
    assert whole.groups == groups
    for size in (1, 2, 3):
        assert json.dumps(table(case, block_size=size).to_json(), sort_keys=True) == json.dumps(whole.to_json(),
                                                                                                sort_keys=True)
    space, gains = case[3], Gains.default(1)
    runs = list(space)

    def oracle(q):
        value = [parse_measure(measure).with_params(p=q).value(r, gains, None) for r in runs]
        unequal = [(a, b) if value[a] > value[b] else (b, a) for a, b in ties if value[a] != value[b]]
        if unequal:
            return "violated", unequal[:1]
        return naive_verdict(measure, "p", "rank", space, gains, q)

    for q in [Fraction(k, 20) for k in range(1, 20)]:
        assert whole.verdict_at(q) == oracle(q)[0], q
    for region in whole.regions:
        if isinstance(region.at, Fraction):
            got = [] if region.witness is None else (
                [region.witness] if region.gap_witness is None else list(region.gap_witness))
            assert [(runs.index(w.lower), runs.index(w.upper)) for w in got] == oracle(region.at)[1], region.label()
