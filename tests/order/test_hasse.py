"""Hasse diagrams and their properties against brute-force definitions."""
from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from workbench.errors import SpaceTooLargeError
from workbench.order.hasse import PROPERTY_LIMIT, hasse_diagram, is_graded, is_lattice, rank_function, width
from workbench.order.orders import ORDERS, Covers, get_order
from workbench.order.preference import PREFERENCE_ORDERS
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space, set_space


def _space(name, depth, c, topic=None):
    make = rank_space if get_order(name).space_kind == "rank" else set_space
    return make(depth, c, Topic(topic) if topic else None)


CASES = [
    (name, depth, c, gains, topic)
    for name in ORDERS
    if name not in PREFERENCE_ORDERS  # tests/order/test_preference_orders.py
    for c in (1, 2, 3)
    for depth in range(1, 5)
    for gains in ([None, "0,1,3"] if name == "ipso" and c == 2 else [None])
    for topic in {1: [None, (2,)], 2: [None, (1, 1)], 3: [None]}[c]
    if (c + 1) ** depth <= 81 or get_order(name).space_kind == "set"
]


def _diagram(name, depth, c, gains, topic):
    sp = _space(name, depth, c, topic)
    g = Gains.parse(gains) if gains else Gains.default(c)
    return sp, g, hasse_diagram(sp, name, g)


# brute-force oracles ---------------------------------------------------------


def closure(G):
    return {v: nx.descendants(G, v) | {v} for v in G}


def brute_graded(G):
    """Every path from a minimal element to a node has the same length (all path lengths tracked)."""
    lengths = {}
    for v in nx.topological_sort(G):
        preds = list(G.predecessors(v))
        lengths[v] = {0} if not preds else {l + 1 for p in preds for l in lengths[p]}
    if any(len(s) != 1 for s in lengths.values()):
        return None
    return {v: next(iter(s)) for v, s in lengths.items()}


def brute_lattice(G):
    up = closure(G)
    down = {v: {u for u in G if v in up[u]} for v in G}
    nodes = list(G)
    if not nodes:
        return False
    for x, y in itertools.combinations_with_replacement(nodes, 2):
        ub = up[x] & up[y]
        if not [z for z in ub if ub <= up[z]]:  # a least element of the upper bounds
            return False
        lb = down[x] & down[y]
        if not [z for z in lb if lb <= down[z]]:
            return False
    return True


def brute_width(G):
    return max(len(a) for a in nx.antichains(G)) if len(G) else 0


# tests -------------------------------------------------------------------------


@pytest.mark.parametrize("name,depth,c,gains,topic", CASES)
@pytest.mark.slow
def test_diagram_is_reduction_of_compare(name, depth, c, gains, topic):
    sp, g, G = _diagram(name, depth, c, gains, topic)
    o = get_order(name)
    runs = [tuple(r) for r in sp.array().tolist()]
    assert set(G.nodes) == set(runs)
    for r in runs:
        assert G.nodes[r]["index"] == sp.index(r)
    full = nx.DiGraph()
    full.add_nodes_from(runs)
    full.add_edges_from((r, s) for r in runs for s in runs if o.compare(r, s, g) == "<")
    assert set(G.edges) == set(nx.transitive_reduction(full).edges)


@pytest.mark.parametrize("name,depth,c,gains,topic", CASES)
@pytest.mark.slow
def test_properties_against_brute_force(name, depth, c, gains, topic):
    sp, g, G = _diagram(name, depth, c, gains, topic)
    rho = rank_function(G)
    assert rho == brute_graded(G)
    assert is_graded(G) == (rho is not None)
    assert is_lattice(G) == brute_lattice(G)
    if len(G) <= 40:
        assert width(G) == brute_width(G)
    if get_order(name).kind == "total":
        assert width(G) == 1 and is_lattice(G) and rho is not None


def test_binary_dominance_lattice_and_rank():
    """Binary dominance: checked (not assumed) to be a graded lattice; rank = sum of prefix counts."""
    for depth in range(1, 8):
        G = hasse_diagram(rank_space(depth), "dominance")
        assert is_lattice(G)
        if depth <= 4:
            assert brute_lattice(G)
        rho = rank_function(G)
        assert rho is not None
        for r, k in rho.items():
            assert k == sum(np.cumsum(r))


def test_graded_dominance_not_graded():
    G = hasse_diagram(rank_space(2, 2), "dominance")
    assert G.has_edge((0, 2), (2, 0))
    assert rank_function(G) is None and brute_graded(G) is None


def test_width_values():
    assert width(hasse_diagram(rank_space(5, 2), "rank")) == 1
    assert width(hasse_diagram(set_space(6, 3), "set")) == 1
    # binary dominance at depth 4: widest level has 2 runs (ranks 0..10)
    G = hasse_diagram(rank_space(4), "dominance")
    assert width(G) == brute_width(G)
    assert width(nx.DiGraph([(0, 1), (0, 2), (0, 3)])) == 3
    assert width(nx.DiGraph()) == 0


def test_lattice_small_examples():
    assert not is_lattice(nx.DiGraph([("a", "c"), ("a", "d"), ("b", "c"), ("b", "d")]))
    diamond = nx.DiGraph([("0", "a"), ("0", "b"), ("a", "1"), ("b", "1")])
    assert is_lattice(diamond) and brute_lattice(diamond)
    bowtie = nx.DiGraph([("0", "a"), ("0", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "1"), ("d", "1")])
    assert not is_lattice(bowtie) and not brute_lattice(bowtie)
    single = nx.DiGraph()
    single.add_node("x")
    assert is_lattice(single)
    assert not is_lattice(nx.DiGraph())


def test_tie_classes_are_merged():
    class TiedOrder:
        """Stand-in for a preorder: runs 1 and 2 tied, both above 0 and below 3."""

        def covers(self, space, gains):
            i = lambda *a: np.array(a, dtype=np.int64)
            return Covers(i(0, 1), i(1, 3), i(1), i(2))

    G = hasse_diagram(rank_space(2), TiedOrder())
    cls = ((0, 1), (1, 0))
    assert set(G.nodes) == {(0, 0), cls, (1, 1)}
    assert G.nodes[cls]["index"] == 1
    assert set(G.edges) == {((0, 0), cls), (cls, (1, 1))}
    assert rank_function(G) == {(0, 0): 0, cls: 1, (1, 1): 2}


def test_size_guards():
    with pytest.raises(SpaceTooLargeError) as e:
        hasse_diagram(rank_space(18), "dominance")
    assert "262,144 runs" in str(e.value)
    big = nx.path_graph(PROPERTY_LIMIT + 1, create_using=nx.DiGraph)
    with pytest.raises(SpaceTooLargeError):
        is_lattice(big)
    with pytest.raises(SpaceTooLargeError):
        width(big)
    assert is_graded(big)


@pytest.mark.parametrize("name,depth,c,gains", [("dominance", 4, 2, None), ("ipso", 4, 2, "0,1,3"), ("dominance", 8, 1, None),
                                               ("replacement", 12, 3, None), ("ipso", 3, 3, None)])
@pytest.mark.slow
def test_width_against_networkx_matching(name, depth, c, gains):
    sp, g, G = _diagram(name, depth, c, gains, None)
    C = nx.transitive_closure_dag(G)
    B = nx.Graph()
    left = [("L", v) for v in G]
    B.add_nodes_from(left)
    B.add_nodes_from(("R", v) for v in G)
    B.add_edges_from((("L", u), ("R", v)) for u, v in C.edges)
    m = nx.bipartite.hopcroft_karp_matching(B, top_nodes=left)
    assert width(G) == len(G) - len(m) // 2
