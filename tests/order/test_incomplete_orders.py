"""Orders over runs with unjudged positions (docs/theory/orders.md): condensed[O], completions[O], bounds[O], judging.

Covers are checked against ``networkx.transitive_reduction`` of the relation
built pair by pair from the definitions written out below (condensed list,
every completion, worst and best completion, "judged more"), independent of
:mod:`workbench.order.incomplete`; the inner orders on judged runs are
written out too, except the two lexicographic preference orders, whose
``compare`` is checked against their definitions in
``tests/order/test_preference_orders.py``.
"""
from __future__ import annotations

import itertools
import pickle
from functools import lru_cache
from math import comb

import networkx as nx
import numpy as np
import pytest

from workbench.errors import BadRunError, OrderSpaceMismatchError, SpaceTooLargeError, UnknownOrderError
from workbench.figures.render import to_dot, to_json, to_tikz
from workbench.measures.names import parse_measure
from workbench.order.covers import covers_in_range, estimate_covers
from workbench.order.hasse import hasse_diagram
from workbench.order import incomplete as inc
from workbench.order.incomplete import MONOTONE
from workbench.order.orders import get_order
from workbench.scale.classify import classify, classify_materialised
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import Space

# ---------------------------------------------------------------------------
# the definitions, written out
# ---------------------------------------------------------------------------


def _prefix_counts(run, c):
    return [sum(1 for x in run[:k] if x >= a) for a in range(1, c + 1) for k in range(1, len(run) + 1)]


def _counts(run, c):
    return [list(run).count(j) for j in range(c, 0, -1)]


def _prefix_sums(run):
    return list(itertools.accumulate(run))  # gains g(i) = i


INNER_LEQ = {
    "rank": lambda r, s, c: tuple(r) <= tuple(s),
    "dominance": lambda r, s, c: all(a <= b for a, b in zip(_prefix_counts(r, c), _prefix_counts(s, c))),
    "raise": lambda r, s, c: all(a <= b for a, b in zip(r, s)),
    "ipso": lambda r, s, c: all(a <= b for a, b in zip(_prefix_sums(r), _prefix_sums(s))),
    "swap": lambda r, s, c: sorted(r) == sorted(s) and INNER_LEQ["dominance"](r, s, c),
    "set": lambda r, s, c: _counts(r, c) <= _counts(s, c),
    "replacement": lambda r, s, c: all(a <= b for a, b in zip(sorted(r, reverse=True), sorted(s, reverse=True))),
    "lexiprecision": lambda r, s, c: get_order("lexiprecision").leq(r, s, Gains.default(c)),
    "lexirecall": lambda r, s, c: get_order("lexirecall").leq(r, s, Gains.default(c)),
    "rpp": lambda r, s, c: get_order("rpp").leq(r, s, Gains.default(c)),
}


def condensed_list(run, c):
    judged = [g for g in run if g != c + 1]
    return tuple(judged) + (0,) * (len(run) - len(judged))


def completions(run, c):
    """Every completion: each ? (code c + 1) replaced by every grade."""
    slots = [range(c + 1) if g == c + 1 else (g,) for g in run]
    return list(itertools.product(*slots))


def oracle_leq(name: str, c: int):
    """``r <= s`` of an order over incomplete runs, from its definition."""
    if name == "judging":
        return lambda r, s: all(a == c + 1 or a == b for a, b in zip(r, s))
    wrapper, inner = name[:-1].split("[")
    leq = lru_cache(maxsize=None)(lambda a, b: INNER_LEQ[inner](a, b, c))
    if wrapper == "condensed":
        return lambda r, s: leq(condensed_list(r, c), condensed_list(s, c))
    if wrapper == "completions":
        return lambda r, s: r == s or all(leq(a, b) for a in completions(r, c) for b in completions(s, c))
    low = lambda r: tuple(0 if g == c + 1 else g for g in r)  # noqa: E731
    high = lambda r: tuple(c if g == c + 1 else g for g in r)  # noqa: E731
    return lambda r, s: leq(low(r), low(s)) and leq(high(r), high(s))


def brute_space(kind, depth, c, topic, u):
    """The runs over {0..c, ?} with at most u ?, the topic's counts, n0 zeros; multisets sorted non-increasing."""
    t = Topic.parse(topic) if topic else None
    out = []
    for run in itertools.product(range(c + 2), repeat=depth):
        if kind == "set" and list(run) != sorted(run, reverse=True):
            continue
        if run.count(c + 1) > u:
            continue
        if t is not None and any(run.count(j) > n for j, n in enumerate(t.counts, start=1)):
            continue
        if t is not None and t.nonrelevant is not None and run.count(0) > t.nonrelevant:
            continue
        out.append(run)
    return sorted(out)


def oracle_covers(runs, leq):
    """``(covers, ties)``: the transitive reduction of the relation on the tie classes (each named by its
    smallest index), and each class's smallest index paired with every other member."""
    n = len(runs)
    le = [[leq(runs[i], runs[j]) for j in range(n)] for i in range(n)]
    rep = [min(j for j in range(n) if le[i][j] and le[j][i]) for i in range(n)]
    ties = sorted((rep[i], i) for i in range(n) if rep[i] != i)
    reps = sorted(set(rep))
    G = nx.DiGraph()
    G.add_nodes_from(reps)
    G.add_edges_from((i, j) for i in reps for j in reps if i != j and le[i][j])
    return sorted(nx.transitive_reduction(G).edges()), ties


def make_space(kind, depth, c, topic, u):
    return Space(kind, depth, c, Topic.parse(topic) if topic else None, u)


RANK_INNER = ("rank", "dominance", "raise", "ipso", "swap", "lexiprecision", "lexirecall")


def _names(inners):
    out = [f"condensed[{o}]" for o in inners]
    out += [f"completions[{o}]" for o in inners if o in MONOTONE]
    out += [f"bounds[{o}]" for o in inners]
    return out


# every order on three spaces, and the orders of dominance and rank on the others
CORE = [("rank", 3, 1, None, 3), ("rank", 2, 2, None, 2), ("rank", 4, 1, "n0=1,3", 2)]
MORE = [("rank", 3, 1, None, 1), ("rank", 4, 1, "2", 2), ("rank", 3, 1, "n0=0,2", 3),
        ("rank", 3, 2, "1,1", 1), ("rank", 3, 2, "n0=1,1,2", 2), ("rank", 3, 1, None, 0), ("rank", 3, 2, None, 1)]
FREE = ("rank", 4, 1, None, 2)  # no binding topic, fewer ? than positions: the shortcuts of completions and bounds
SET_SPACES = [("set", 4, 1, None, 4), ("set", 3, 2, None, 2), ("set", 4, 2, "n0=1,1,2", 2)]

CASES = ([(sp, name) for sp in CORE for name in _names(RANK_INNER) + ["judging"]]
         + [(sp, name) for sp in MORE for name in _names(("dominance", "rank")) + ["judging"]]
         + [(sp, name) for sp in SET_SPACES for name in _names(("set", "replacement"))]
         + [(FREE, name) for name in _names(RANK_INNER) if not name.startswith("condensed")]
         + [(CORE[0], "condensed[rpp]"), (FREE, "condensed[rpp]")])


@pytest.mark.parametrize("spec,name", CASES, ids=[f"{n}-{'-'.join(map(str, s))}" for s, n in CASES])
def test_covers_match_transitive_reduction(spec, name):
    space = make_space(*spec)
    runs = [tuple(r) for r in space]
    assert runs == brute_space(*spec)
    want_covers, want_ties = oracle_covers(runs, oracle_leq(name, spec[2]))
    cv = get_order(name).covers(space)
    assert cv.pairs() == want_covers
    assert cv.tie_pairs() == want_ties


@pytest.mark.parametrize("spec", [CORE[0], ("rank", 4, 1, "n0=1,3", 2), ("rank", 3, 2, "n0=1,1,2", 2)])
def test_covers_in_range_slices_the_whole(spec):
    space = make_space(*spec)
    for name in ("condensed[dominance]", "bounds[ipso]", "completions[rank]", "judging"):
        whole = get_order(name).covers(space)
        size = int(space.size)
        for a, b in [(0, size // 3), (size // 3, size)]:
            part = covers_in_range(name, space, Gains.default(spec[2]), a, b)
            assert part.pairs() == [p for p in whole.pairs() if a <= p[0] < b]
            assert part.tie_pairs() == [p for p in whole.tie_pairs() if a <= p[0] < b]
        covers, _ = estimate_covers(name, space, Gains.default(spec[2]), np.asarray(space.array()), float(size))
        assert covers >= 0


# ---------------------------------------------------------------------------
# the orders on judged runs, where the topic's n0 binds (the zeros are bounded)
# ---------------------------------------------------------------------------

N0_CASES = [("rank", name, c, topic) for name in ("rank", "dominance", "raise", "ipso", "swap", "lexirecall")
            for c, topic in [(1, "n0=2,4"), (2, "n0=2,4,4")]] + [
    ("set", name, c, topic) for name in ("set", "replacement") for c, topic in [(1, "n0=2,4"), (2, "n0=2,4,4")]]


@pytest.mark.parametrize("kind,name,c,topic", N0_CASES)
def test_judged_orders_with_binding_n0(kind, name, c, topic):
    space = make_space(kind, 4, c, topic, 0)
    runs = [tuple(r) for r in space]
    assert runs == brute_space(kind, 4, c, topic, 0)
    leq = lambda r, s: INNER_LEQ[name](r, s, c)  # noqa: E731
    want, ties = oracle_covers(runs, leq)
    assert not ties
    assert get_order(name).covers(space).pairs() == want
    size = len(runs)
    part = covers_in_range(name, space, Gains.default(c), size // 2, size)
    assert part.pairs() == [p for p in want if p[0] >= size // 2]


# ---------------------------------------------------------------------------
# axioms, by brute force
# ---------------------------------------------------------------------------

AXIOM_ORDERS = [f"{w}[{o}]" for w in ("condensed", "completions", "bounds") for o in ("rank", "dominance", "ipso")]
AXIOM_ORDERS += ["bounds[swap]", "judging"]


@pytest.mark.parametrize("name", AXIOM_ORDERS)
def test_axioms(name):
    space = Space("rank", 3, 1, None, 2)
    order = get_order(name)
    runs = [tuple(r) for r in space]
    verdicts = [[order.compare(r, s) for s in runs] for r in runs]
    le = np.array([[v in ("<", "=", "~") for v in row] for row in verdicts])
    assert all(verdicts[i][i] == "=" for i in range(len(runs)))  # reflexive
    assert not ((le.astype(int) @ le.astype(int) > 0) & ~le).any()  # transitive
    for i, j in itertools.product(range(len(runs)), repeat=2):  # the verdict is the relation's
        v = verdicts[i][j]
        flip = {"<": ">", ">": "<", "=": "=", "~": "~", None: None}[v]
        assert verdicts[j][i] == flip
        assert (v in ("<", "=", "~")) == bool(le[i, j])
    tied = [(i, j) for i in range(len(runs)) for j in range(len(runs)) if verdicts[i][j] == "~"]
    if name.startswith("condensed"):  # a preorder: tied iff the same condensed list
        assert order.kind == "preorder"
        assert tied == [(i, j) for i in range(len(runs)) for j in range(len(runs))
                        if i != j and condensed_list(runs[i], 1) == condensed_list(runs[j], 1)]
    else:  # antisymmetric
        assert order.kind == "partial" and tied == []


@pytest.mark.parametrize("inner", MONOTONE)
def test_monotone_inner_orders_contain_raise(inner):
    """The shortcut top(r) <= bottom(s) needs that raising a grade never lowers a run under O."""
    order = get_order(inner)
    kind = order.space_kind
    runs = [tuple(r) for r in Space(kind, 3, 2)]
    for r, s in itertools.product(runs, repeat=2):
        if kind == "set":
            if all(a <= b for a, b in zip(r, s)):  # sorted rows: componentwise is raising some grades
                assert order.leq(r, s, Gains.default(2)), (r, s)
        elif all(a <= b for a, b in zip(r, s)):
            assert order.leq(r, s, Gains.default(2)), (r, s)


def test_swap_is_not_monotone_and_completions_of_swap_is_refused():
    assert not get_order("swap").leq((0, 1), (1, 1))
    with pytest.raises(UnknownOrderError, match="raising a grade never lowers"):
        get_order("completions[swap]")


# ---------------------------------------------------------------------------
# compare: examples derived by hand
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,r,s,want", [
    ("condensed[rank]", "1?0", "10?", "~"),  # both condense to 100
    ("condensed[rank]", "?1", "10", "~"),
    ("condensed[rank]", "0?1", "100", "<"),  # 010 < 100
    ("condensed[dominance]", "?01", "1?0", "<"),  # 010 below 100
    ("completions[dominance]", "0?", "10", "<"),  # best of 0? is 01, below 10
    ("completions[dominance]", "?0", "01", None),  # 10 vs 01, 00 vs 01: neither way
    ("completions[dominance]", "1?", "?1", None),
    ("completions[rank]", "0?", "01", "<"),  # 01 <= 01: every completion of 0? is at most 01
    ("completions[rank]", "??", "11", "<"),
    ("bounds[rank]", "?", "1", "<"),  # 0 <= 1 and 1 <= 1
    ("bounds[rank]", "?0", "01", None),  # worst 00 <= 01 but best 10 > 01
    ("bounds[dominance]", "?0", "0?", ">"),  # worst 00 = 00, best 10 above 01
    ("judging", "0?", "01", "<"),
    ("judging", "0?", "?1", None),
    ("judging", "??", "10", "<"),
    ("judging", "01", "10", None),
])
def test_compare_by_hand(name, r, s, want):
    assert get_order(name).compare(r, s) == want


def test_compare_graded_and_codes():
    assert get_order("judging").compare("0?", "02", grades=2) == "<"
    assert get_order("judging").compare((0, 3), (0, 2), Gains.default(2)) == "<"  # 3 is ? with two grades
    assert get_order("condensed[ipso]").compare("?2", "11", grades=2) == ">"  # 20 above 11 in prefix sums
    with pytest.raises(BadRunError, match="outside"):
        get_order("judging").compare((0, 3), (0, 1))
    with pytest.raises(BadRunError, match="equal depth"):
        get_order("bounds[rank]").compare("0?", "0")


@pytest.mark.parametrize("inner", ["rank", "dominance", "ipso", "lexirecall"])
def test_reduce_to_inner_order_without_unjudged(inner):
    space = Space("rank", 3, 2)
    base = get_order(inner).covers(space)
    for w in ("condensed", "completions", "bounds"):
        cv = get_order(f"{w}[{inner}]").covers(space)
        assert cv.pairs() == base.pairs() and not cv.tie_pairs()
    assert get_order("judging").covers(space).pairs() == []


# ---------------------------------------------------------------------------
# refusals
# ---------------------------------------------------------------------------

def test_judged_orders_refuse_unjudged_spaces():
    space = Space("rank", 2, unjudged=1)
    for call in (lambda: get_order("dominance").covers(space),
                 lambda: get_order("rank").space(2, unjudged=1),
                 lambda: covers_in_range("raise", space, Gains.default(1), 0, 4)):
        with pytest.raises(OrderSpaceMismatchError, match=r"unjudged .*condensed\["):
            call()
    with pytest.raises(OrderSpaceMismatchError, match="set space"):
        get_order("condensed[set]").covers(space)


@pytest.mark.parametrize("name,match", [
    ("condensed[nope]", "inner order 'nope' is unknown"),
    ("condensed[dominance", "not an order over incomplete runs"),
    ("judging[rank]", "not an order over incomplete runs"),
    ("bounds[rpp]", "exact integer keys"),
])
def test_unknown_orders(name, match):
    with pytest.raises(UnknownOrderError, match=match) as e:
        get_order(name)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("spec", [("rank", 4, 1, "n0=1,3", 2), ("rank", 3, 2, "1,1", 2), ("set", 4, 2, "n0=1,1,2", 2),
                                  ("rank", 4, 1, None, 2)])
def test_every_completions_method_matches_the_oracle(spec):
    """The three ways completions[O] covers are computed (without a binding topic, grouped by bottom, pairwise)."""
    space, c = make_space(*spec), spec[2]
    runs = [tuple(r) for r in space]
    for inner in (("set", "replacement") if spec[0] == "set" else ("rank", "dominance", "lexirecall")):
        want, _ = oracle_covers(runs, oracle_leq(f"completions[{inner}]", c))
        got = [inc._completions_by_bottom(inner, space, Gains.default(c)),
               inc._pairwise("completions", inner, space, Gains.default(c), "completions")]
        if spec[3] is None:
            got.append(inc._completions_free(inner, space, Gains.default(c)))
        for cv in got:
            assert cv.pairs() == want


def test_condensed_rpp_refused_where_n0_binds():
    with pytest.raises(OrderSpaceMismatchError, match=r"n0=1 < depth 4.*exact integer keys of 'rpp'"):
        get_order("condensed[rpp]").covers(make_space("rank", 4, 1, "n0=1,3", 2))


def test_quadratic_covers_refused_by_size():
    graded = Space("rank", 7, 2, None, 7)  # 4^7 = 16,384 runs
    with pytest.raises(SpaceTooLargeError, match="16,384 runs"):
        get_order("bounds[dominance]").covers(graded)
    topic = Space("rank", 6, 3, Topic.parse("2,2,2"), 6)  # a binding topic and 4^6 judged runs: pairwise only
    with pytest.raises(SpaceTooLargeError, match="11,050 runs.*quadratic"):
        get_order("completions[dominance]").covers(topic)
    space = Space("rank", 8, unjudged=8)  # 3^8 = 6,561 runs
    with pytest.raises(SpaceTooLargeError, match="6,561 runs"):
        get_order("bounds[rank]").covers(space)
    # condensed and judging follow their covers, not the square of the space, and so do completions without
    # a binding topic and binary bounds of dominance (the shortcuts of docs/theory/orders.md)
    assert len(get_order("completions[dominance]").covers(space)) > 0
    assert len(get_order("bounds[dominance]").covers(space)) > 0
    assert len(get_order("condensed[dominance]").covers(space).tie_pairs()) == 6561 - 256
    # a run with k ? has 2k judging covers (one ? judged 0 or 1): sum_k C(8, k) 2^(8-k) 2k
    assert len(get_order("judging").covers(space)) == sum(comb(8, k) * 2 ** (8 - k) * 2 * k for k in range(9))


# ---------------------------------------------------------------------------
# Hasse diagrams
# ---------------------------------------------------------------------------

def test_hasse_diagram_of_condensed_merges_classes():
    G = hasse_diagram(Space("rank", 2, unjudged=1), "condensed[rank]")
    classes = sorted(n for n in G.nodes if isinstance(n[0], tuple))
    assert classes == [((0, 0), (0, 2), (2, 0)), ((1, 0), (1, 2), (2, 1))]
    assert nx.is_directed_acyclic_graph(G) and G.number_of_edges() == 3


@pytest.mark.parametrize("inner", ["rank", "dominance", "lexirecall"])
def test_completions_inside_bounds(inner):
    """docs/theory/orders.md: top(r) <= bottom(s) puts each end of r below the same end of s."""
    runs = [tuple(r) for r in Space("rank", 3, 1, None, 3)]
    comp, bnd = get_order(f"completions[{inner}]"), get_order(f"bounds[{inner}]")
    pairs = [(r, s) for r in runs for s in runs if comp.leq(r, s)]
    assert len(pairs) > len(runs)
    assert all(bnd.leq(r, s) for r, s in pairs)
    assert any(not comp.leq(r, s) for r in runs for s in runs if bnd.leq(r, s))  # strictly larger


def test_hasse_drawings_write_unjudged_positions_distinctly():
    G = hasse_diagram(Space("rank", 2, unjudged=1), "completions[rank]")
    dot = to_dot(G)
    assert '"0?" [style="rounded,dashed"]' in dot and "\n\t\t00\n" in dot  # judged runs keep the plain box
    assert '"0?" -> 01' in dot
    tikz = to_tikz(G)
    assert r"\node[run, unjudged] (n2) at" in tikz and tikz.count("unjudged]") == 4
    assert to_json(G)["nodes"][2] == [0, "?"]
    complete = hasse_diagram(Space("rank", 2), "dominance")
    assert "dashed" not in to_dot(complete) and "unjudged" not in to_tikz(complete)


@pytest.mark.parametrize("order", ["dominance", "raise"])
def test_classification_where_n0_binds_uses_the_space_itself(order):
    """A topic's n0 bounds the zeros: the cover-kind shortcuts, which assume every run with few relevant
    documents is present, must not be taken (they asked for the absent run 000)."""
    space = make_space("rank", 6, 1, "n0=2,6", 0)
    for m in ("P@3", "RBP(p=1/2)"):
        a = classify_materialised(parse_measure(m), get_order(order), space)
        b = classify(parse_measure(m), get_order(order), space)
        assert (a.verdict, a.witness) == (b.verdict, b.witness)


def test_orders_pickle_by_name():
    """Process pools ship orders: the compound ones compare through closures, so they travel by name."""
    for name in ("dominance", "condensed[dominance]", "bounds[ipso]", "judging"):
        assert pickle.loads(pickle.dumps(get_order(name))) is get_order(name)
