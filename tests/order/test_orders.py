"""Orders (docs/theory/orders.md): compare() against the textual definitions, covers()
against the transitive reduction of the brute-force comparability relation."""
from __future__ import annotations

import itertools
from collections import deque
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import BadGainsError, BadRunError, SpaceTooLargeError, UnknownOrderError
from workbench.order.orders import (
    FALLBACK_LIMIT,
    ORDERS,
    Covers,
    OrderSpaceMismatchError,
    _fallback,
    get_order,
)
from workbench.order.preference import PREFERENCE_ORDERS
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space, set_space

BRUTE_LIMIT = 300  # largest space compared pair by pair in pure Python

# ---------------------------------------------------------------------------
# independent oracles for the textual definitions
# ---------------------------------------------------------------------------


def rbto(run, c):
    return sum(g * (c + 1) ** (len(run) - 1 - i) for i, g in enumerate(run))


def set_oracle(r, s, c):
    """docs/theory/orders.md: k = highest grade whose count differs; r < s iff r has fewer of grade k."""
    for k in range(c, 0, -1):
        a, b = list(r).count(k), list(s).count(k)
        if a != b:
            return "<" if a < b else ">"
    return "="


def dominance_closure(depth, c):
    """Reachability under Rule 1 (raise a grade) and Rule 2 (swap a higher grade leftwards, any distance)."""
    runs = list(itertools.product(range(c + 1), repeat=depth))
    reach = {}
    for r in runs:
        seen = {r}
        todo = deque([r])
        while todo:
            x = todo.popleft()
            nxt = []
            for i in range(depth):
                for v in range(x[i] + 1, c + 1):
                    nxt.append(x[:i] + (v,) + x[i + 1:])
                for j in range(i + 1, depth):
                    if x[j] > x[i]:
                        y = list(x)
                        y[i], y[j] = y[j], y[i]
                        nxt.append(tuple(y))
            for y in nxt:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        reach[r] = seen
    return runs, reach


def ipso_oracle(r, s, gains):
    """Moffat and Mackenzie (2024), Alg. 1: signs of the differences of the prefix sums of gains."""
    sr = ss = Fraction(0)
    pos = neg = False
    for a, b in zip(r, s):
        sr += gains(a)
        ss += gains(b)
        pos |= ss > sr
        neg |= ss < sr
    if not pos and not neg:
        return "=" if tuple(r) == tuple(s) else "~"
    if pos and not neg:
        return "<"
    if neg and not pos:
        return ">"
    return None


def replacement_oracle(r, s, c):
    """Threshold counts: sorted r <= sorted s componentwise iff #{r >= a} <= #{s >= a} for all a."""
    le = all(sum(g >= a for g in r) <= sum(g >= a for g in s) for a in range(1, c + 1))
    ge = all(sum(g >= a for g in r) >= sum(g >= a for g in s) for a in range(1, c + 1))
    if le and ge:
        return "="
    return "<" if le else (">" if ge else None)


# ---------------------------------------------------------------------------
# registry and errors
# ---------------------------------------------------------------------------


def test_registry():
    assert list(ORDERS) == ["rank", "set", "dominance", "ipso", "replacement", "swap", "raise",
                            "lexiprecision", "lexirecall", "rpp"]
    for name, o in ORDERS.items():
        assert get_order(name) is o and o.name == name
    assert {n for n, o in ORDERS.items() if o.kind == "total"} == {"rank", "set", "lexiprecision", "lexirecall"}
    assert {n for n, o in ORDERS.items() if o.space_kind == "set"} == {"set", "replacement"}


def test_unknown_order_names_bad_and_valid():
    with pytest.raises(UnknownOrderError) as e:
        get_order("lexico")
    msg = str(e.value)
    assert "lexico" in msg and all(n in msg for n in ORDERS)


@pytest.mark.parametrize("name", list(ORDERS))
def test_wrong_space_kind(name):
    o = get_order(name)
    wrong = set_space(3) if o.space_kind == "rank" else rank_space(3)
    with pytest.raises(OrderSpaceMismatchError) as e:
        o.covers(wrong)
    assert name in str(e.value) and wrong.kind in str(e.value)


def test_bad_inputs():
    with pytest.raises(BadGainsError):
        get_order("ipso").covers(rank_space(3, 2), Gains.default(1))
    with pytest.raises(BadRunError):
        get_order("dominance").compare((0, 1), (0, 1, 1))
    with pytest.raises(BadRunError):
        get_order("dominance").compare((0, 2), (0, 1), Gains.default(1))


def test_fallback_size_guard():
    sp = rank_space(8, 2)  # 6561 runs, unequal gaps: no rule
    with pytest.raises(SpaceTooLargeError) as e:
        get_order("ipso").covers(sp, Gains.parse("0,1,3"))
    assert "6,561 runs" in str(e.value) and f"{FALLBACK_LIMIT:,}" in str(e.value)


# ---------------------------------------------------------------------------
# compare() against the definitions
# ---------------------------------------------------------------------------

SMALL = [(d, c) for c in (1, 2, 3) for d in range(1, 5) if (c + 1) ** d <= 81]


@pytest.mark.parametrize("depth,c", SMALL)
def test_rank_compare_is_rbto(depth, c):
    o = get_order("rank")
    runs = list(itertools.product(range(c + 1), repeat=depth))
    for r in runs:
        for s in runs:
            a, b = rbto(r, c), rbto(s, c)
            assert o.compare(r, s) == ("=" if a == b else "<" if a < b else ">")


@pytest.mark.parametrize("depth,c", SMALL)
def test_set_compare(depth, c):
    o = get_order("set")
    g = Gains.default(c)
    runs = list(itertools.product(range(c + 1), repeat=depth))  # any arrangement of a multiset
    for r in runs:
        for s in runs:
            assert o.compare(r, s, g) == set_oracle(r, s, c)


@pytest.mark.parametrize("depth,c", [(d, 1) for d in range(1, 6)] + [(d, 2) for d in range(1, 5)] + [(3, 3)])
def test_dominance_compare_is_rule_closure(depth, c):
    o = get_order("dominance")
    g = Gains.default(c)
    runs, reach = dominance_closure(depth, c)
    for r in runs:
        for s in runs:
            got = o.compare(r, s, g)
            if r == s:
                assert got == "="
            elif s in reach[r]:
                assert got == "<"
            elif r in reach[s]:
                assert got == ">"
            else:
                assert got is None


IPSO_GAINS = ["0,1", "0,1/2", "0,1,2", "0,1,3", "0,2,3", "0,1,2,3", "0,1,2,4"]


@pytest.mark.parametrize("gains", IPSO_GAINS)
def test_ipso_compare_alg1(gains):
    g = Gains.parse(gains)
    o = get_order("ipso")
    for r in itertools.product(range(g.grades + 1), repeat=3):
        for s in itertools.product(range(g.grades + 1), repeat=3):
            assert o.compare(r, s, g) == ipso_oracle(r, s, g)


@pytest.mark.parametrize("depth,c", SMALL)
def test_replacement_compare(depth, c):
    o = get_order("replacement")
    g = Gains.default(c)
    runs = list(itertools.product(range(c + 1), repeat=depth))
    for r in runs:
        for s in runs:
            assert o.compare(r, s, g) == replacement_oracle(r, s, c)


# ---------------------------------------------------------------------------
# Hypothesis: compare() is antisymmetric and transitive
# ---------------------------------------------------------------------------

FLIP = {"<": ">", ">": "<", "=": "=", "~": "~", None: None}


@st.composite
def triples(draw):
    c = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 6))
    run = st.tuples(*[st.integers(0, c)] * depth)
    steps = draw(st.lists(st.integers(1, 5), min_size=c, max_size=c))
    gains = Gains(tuple(Fraction(sum(steps[:j]), 2) for j in range(c + 1)))
    name = draw(st.sampled_from([n for n in ORDERS if n != "rpp"]))  # rpp: tests/order/test_preference_orders.py
    return name, gains, draw(run), draw(run), draw(run)


@settings(max_examples=400, deadline=None)
@given(triples())
@pytest.mark.slow
def test_compare_antisymmetric_transitive(t):
    name, gains, r, s, u = t
    o = get_order(name)
    rs, sr = o.compare(r, s, gains), o.compare(s, r, gains)
    assert sr == FLIP[rs]
    assert o.compare(r, r, gains) == "="
    if o.space_kind == "rank":
        assert (rs == "=") == (r == s)
    else:
        assert (rs == "=") == (sorted(r) == sorted(s))
    assert rs != "~"  # strictly increasing gains: no ties
    if o.kind == "total":
        assert rs is not None
    su = o.compare(s, u, gains)
    if rs in ("<", "=") and su in ("<", "="):
        assert o.compare(r, u, gains) == ("=" if rs == su == "=" else "<")


# ---------------------------------------------------------------------------
# covers() against the brute-force transitive reduction
# ---------------------------------------------------------------------------

TOPICS = {1: [None, (1,), (2,)], 2: [None, (1, 1), (0, 2), (2, 0), (5, 1)], 3: [None, (1, 1, 1), (0, 0, 2), (5, 5, 1)]}


def _gains_for(name, c):
    if name != "ipso":
        return [None]
    return {1: [None, "0,1/2"], 2: [None, "0,1,3", "0,2,3"], 3: [None, "0,1,2,4", "0,2,3,4"]}[c]


def _cases():
    out = []
    for name, o in ORDERS.items():
        if name in PREFERENCE_ORDERS:  # brute force of their own: tests/order/test_preference_orders.py
            continue
        for c in (1, 2, 3):
            for depth in range(1, 6):
                for gains in _gains_for(name, c):
                    for topic in TOPICS[c]:
                        out.append((name, c, depth, gains, topic))
    return out


def _space(o, depth, c, topic):
    make = rank_space if o.space_kind == "rank" else set_space
    return make(depth, c, Topic(topic) if topic else None)


def brute_covers(o, space, gains):
    runs = [tuple(r) for r in space.array().tolist()]
    G = nx.DiGraph()
    G.add_nodes_from(range(len(runs)))
    for i, r in enumerate(runs):
        for j, s in enumerate(runs):
            got = o.compare(r, s, gains)
            assert got != "~"
            if got == "<":
                G.add_edge(i, j)
    return sorted(nx.transitive_reduction(G).edges())


def _check_covers_shape(cv: Covers, size: int):
    assert cv.lower.dtype == np.int64 and cv.upper.dtype == np.int64
    assert len(cv.lower) == len(cv.upper)
    assert len(cv.tie_lower) == len(cv.tie_upper) == 0
    if len(cv):
        assert cv.lower.min() >= 0 and cv.upper.max() < size
        key = cv.lower * size + cv.upper
        assert np.all(np.diff(key) > 0)  # sorted by (lower, upper), no duplicates


@pytest.mark.parametrize("name,c,depth,gains,topic", _cases())
@pytest.mark.slow
def test_covers_equal_transitive_reduction(name, c, depth, gains, topic):
    o = get_order(name)
    space = _space(o, depth, c, topic)
    if space.size > BRUTE_LIMIT:
        pytest.skip(f"{space.size} runs: beyond the pairwise oracle (see test_rules_against_fallback)")
    g = Gains.parse(gains) if gains else Gains.default(c)
    cv = o.covers(space, g)
    _check_covers_shape(cv, space.size)
    assert cv.pairs() == brute_covers(o, space, g)


def test_fallback_against_brute():
    """The generic fallback itself, on cases where rules would otherwise apply."""
    for name, c, depth in [("dominance", 2, 4), ("dominance", 1, 5), ("ipso", 2, 4), ("replacement", 3, 5)]:
        o = get_order(name)
        space = _space(o, depth, c, None)
        g = Gains.default(c)
        assert _fallback(name, space, g, "test").pairs() == brute_covers(o, space, g)


@pytest.mark.parametrize(
    "name,c,depth,topic",
    [
        ("dominance", 1, 12, None),
        ("dominance", 1, 12, (4,)),
        ("dominance", 2, 7, None),
        ("dominance", 2, 7, (7, 2)),
        ("dominance", 2, 7, (2, 3)),
        ("dominance", 2, 7, (0, 3)),
        ("dominance", 2, 8, (3, 3)),
        ("dominance", 3, 6, (1, 2, 1)),
        ("dominance", 3, 6, (2, 0, 3)),
        ("dominance", 3, 6, None),
        ("ipso", 1, 12, None),
        ("ipso", 1, 12, (3,)),
        ("ipso", 2, 7, None),
        ("ipso", 3, 6, None),
        ("replacement", 3, 20, None),
        ("replacement", 2, 30, (30, 5)),
    ],
)
@pytest.mark.slow
def test_rules_against_fallback(name, c, depth, topic):
    """Beyond the pairwise oracle: rule-based covers = generic fallback (validated above)."""
    o = get_order(name)
    space = _space(o, depth, c, topic)
    assert space.size <= FALLBACK_LIMIT
    g = Gains.default(c)
    assert o.covers(space, g).pairs() == _fallback(name, space, g, "test").pairs()


def test_ipso_binary_is_dominance():
    for depth in range(1, 9):
        for topic in (None, (2,)):
            sp = rank_space(depth, 1, Topic(topic) if topic else None)
            a = get_order("dominance").covers(sp).pairs()
            assert get_order("ipso").covers(sp, Gains.parse("0,2/3")).pairs() == a


def test_ipso_unequal_gaps_has_three_position_covers():
    """Why there is no two-position rule for ipso with unequal gaps: (0,0,2) < (1,1,1) is a cover under 0,1,3."""
    sp = rank_space(3, 2)
    cv = get_order("ipso").covers(sp, Gains.parse("0,1,3")).pairs()
    assert (sp.index((0, 0, 2)), sp.index((1, 1, 1))) in cv
    cv2 = get_order("ipso").covers(sp, Gains.parse("0,1,2")).pairs()
    assert (sp.index((0, 0, 2)), sp.index((1, 1, 1))) not in cv2


def test_binary_dominance_cover_count():
    # covers per run: adjacent "01" pairs + [last grade is 0]
    for depth in (1, 2, 10, 16):
        n = len(get_order("dominance").covers(rank_space(depth)))
        assert n == (depth - 1) * 2 ** max(depth - 2, 0) * (depth > 1) + 2 ** (depth - 1)


def test_total_orders_are_chains():
    for o, sp in [(get_order("rank"), rank_space(4, 2)), (get_order("set"), set_space(5, 2, Topic((1, 2))))]:
        cv = o.covers(sp)
        assert cv.pairs() == [(i, i + 1) for i in range(sp.size - 1)]
        runs = sp.array().tolist()
        assert all(o.compare(runs[i], runs[i + 1]) == "<" for i in range(len(runs) - 1))


@pytest.mark.slow
def test_dominance_many_grades():
    """c >= 62 takes the loop path of Rule 1 (no value bitmask): same covers as the fallback."""
    for c, depth in [(63, 2), (70, 1)]:
        sp = rank_space(depth, c)
        g = Gains.default(c)
        assert get_order("dominance").covers(sp, g).pairs() == _fallback("dominance", sp, g, "test").pairs()


def test_set_index_arithmetic():
    from workbench.order.orders import _binomial_table, _set_index_from_counts

    for depth, c in [(1, 1), (5, 1), (4, 2), (6, 3), (9, 4)]:
        sp = set_space(depth, c)
        arr = sp.array()
        counts = np.stack([(arr == v).sum(axis=1) for v in range(c, 0, -1)], axis=1).astype(np.int64)
        got = _set_index_from_counts(counts, depth, c, _binomial_table(depth + c + 1, c))
        assert got.tolist() == list(range(sp.size))


def test_replacement_rules_with_top_grade_topic():
    """Top-grade bound only: a down-set, so the rules (with dropped successors) apply; = brute force."""
    sp = set_space(5, 2, Topic((5, 1)))
    o = get_order("replacement")
    assert o.covers(sp).pairs() == brute_covers(o, sp, Gains.default(2))
