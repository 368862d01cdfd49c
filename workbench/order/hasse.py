"""Hasse diagrams of the orders on a space, and their poset properties.

:func:`hasse_diagram` turns the cover relation of an order
(:meth:`workbench.order.orders.Order.covers`) into a :class:`networkx.DiGraph`
whose edges go from the lower run to the upper run.  Where an order has ties
(distinct runs with ``"~"``), each tie class is merged into one node first,
as :func:`networkx.condensation` does with strongly connected components.

:func:`rank_function`, :func:`is_graded`, :func:`is_lattice` and
:func:`width` are plain functions of the diagram.  The last two are
quadratic or worse and meant for small diagrams (see :data:`PROPERTY_LIMIT`).

References
----------
Moffat and Mackenzie (2024), sec. 2.2 (Hasse diagram of the dominance order) and Alg. 1; Ferrante et al. (2019)
eq. 1-6; Ferrante, Ferro, Pontarollo, "A general theory of IR evaluation
measures", IEEE TKDE 2019.
"""
from __future__ import annotations

from typing import Hashable

import networkx as nx
import numpy as np

from workbench.errors import SpaceTooLargeError
from workbench.order.orders import Order, get_order
from workbench.space.runs import Gains
from workbench.core.exact import about

HASSE_LIMIT = 200_000
"""Largest space (number of runs) :func:`hasse_diagram` builds as a networkx graph."""

PROPERTY_LIMIT = 4096
"""Largest diagram (number of nodes) :func:`is_lattice` and :func:`width` accept."""


def hasse_diagram(space, order: Order | str, gains: Gains | None = None) -> nx.DiGraph:
    """The Hasse diagram (cover graph) of ``order`` on ``space``.

    Parameters
    ----------
    space : workbench.space.spaces.Space
        The runs (rank-based or set-based, matching the order).
    order : Order or str
        The order, or its name.
    gains : Gains, optional
        Gain mapping (default ``g(i) = i``); only ``ipso`` depends on it.

    Returns
    -------
    networkx.DiGraph
        Nodes are run tuples (or, for a tie class, the tuple of its runs in
        canonical order) with attributes ``"index"`` (canonical index of the
        node's first run) and ``"unjudged"`` (the most unjudged positions,
        code ``c + 1``, of a run of the node); an edge ``lower -> upper``
        for every cover.  ``G.graph`` holds the space's ``"grades"`` and
        ``"unjudged"`` (the most ``?`` a run may hold), so drawings write
        ``?`` (:func:`workbench.figures.render.node_label`).

    Raises
    ------
    SpaceTooLargeError
        If the space has more than :data:`HASSE_LIMIT` runs.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> G = hasse_diagram(rank_space(2), "dominance")
    >>> sorted(G.edges())
    [((0, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (1, 1))]
    >>> G.nodes[(1, 0)]["index"]
    2
    >>> from workbench.space.spaces import Space
    >>> H = hasse_diagram(Space("rank", 2, unjudged=1), "condensed[rank]")
    >>> H.graph["unjudged"], H.nodes[((0, 0), (0, 2), (2, 0))]["unjudged"]
    (1, 1)

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2; docs/theory/orders.md (Hasse diagram = transitive reduction).
    """
    if isinstance(order, str):
        order = get_order(order)
    size = int(space.size)
    if size > HASSE_LIMIT:
        raise SpaceTooLargeError(
            f"space of {about(size)} runs: a Hasse diagram as a graph is limited to {HASSE_LIMIT:,} runs; "
            f"use a smaller --depth or fewer --grades, or count its runs and covers in blocks "
            f"(hasse --format md|csv|latex; diagram_statistics in workbench.order.diagram_statistics)"
        )
    covers = order.covers(space, gains)
    runs = [tuple(r) for r in np.asarray(space.array(limit=HASSE_LIMIT)).tolist()]
    # tie classes (union-find over the tied pairs); the class node lists its runs
    parent = list(range(size))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in covers.tie_pairs():
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    members: dict[int, list[int]] = {}
    for i in range(size):
        members.setdefault(find(i), []).append(i)
    node_of: dict[int, Hashable] = {}
    unjudged = int(getattr(space, "unjudged", 0))
    q = space.grades + 1
    G = nx.DiGraph(grades=int(space.grades), unjudged=unjudged)
    for rep, idx in members.items():
        node = runs[idx[0]] if len(idx) == 1 else tuple(runs[i] for i in idx)
        G.add_node(node, index=idx[0], unjudged=max(runs[i].count(q) for i in idx) if unjudged else 0)
        for i in idx:
            node_of[i] = node
    G.add_edges_from((node_of[a], node_of[b]) for a, b in covers.pairs())
    return G


def rank_function(G: nx.DiGraph) -> dict | None:
    """The rank function of a graded poset given by its Hasse diagram.

    The poset is graded when there is ``rho`` with ``rho(upper) = rho(lower) + 1``
    for every cover and ``rho = 0`` on every minimal element.

    Parameters
    ----------
    G : networkx.DiGraph
        A Hasse diagram (acyclic, edges lower -> upper).

    Returns
    -------
    dict or None
        ``{node: rank}``, or ``None`` if the poset is not graded.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> rho = rank_function(hasse_diagram(rank_space(2), "dominance"))
    >>> [rho[r] for r in [(0, 0), (0, 1), (1, 0), (1, 1)]]
    [0, 1, 2, 3]
    >>> rank_function(nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c2"), ("c2", "d"), ("c", "d")])) is None
    True

    References
    ----------
    Ferrante et al. (2019), eq. 2-6 (SBTO and RBTO as rank functions of total orders).
    """
    rho: dict = {}
    for node in nx.topological_sort(G):
        preds = list(G.predecessors(node))
        if not preds:
            rho[node] = 0
            continue
        r = rho[preds[0]]
        if any(rho[p] != r for p in preds[1:]):
            return None
        rho[node] = r + 1
    return rho


def is_graded(G: nx.DiGraph) -> bool:
    """``True`` iff the poset has a rank function (see :func:`rank_function`).

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> is_graded(hasse_diagram(rank_space(3), "dominance"))
    True
    >>> is_graded(hasse_diagram(rank_space(2, grades=2), "dominance"))  # (0,2) -> (2,0) is a cover
    False

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2; Ferrante et al. (TKDE 2019).
    """
    return rank_function(G) is not None


def _closure_bits(G: nx.DiGraph) -> tuple[list, list[int], list[int]]:
    """Nodes in topological order, and up-/down-sets (including the node) as bitsets."""
    nodes = list(nx.topological_sort(G))
    pos = {v: i for i, v in enumerate(nodes)}
    n = len(nodes)
    up = [0] * n
    for i in range(n - 1, -1, -1):
        acc = 1 << i
        for w in G.successors(nodes[i]):
            acc |= up[pos[w]]
        up[i] = acc
    down = [0] * n
    for i in range(n):
        acc = 1 << i
        for w in G.predecessors(nodes[i]):
            acc |= down[pos[w]]
        down[i] = acc
    return nodes, up, down


def _guard(G: nx.DiGraph, what: str) -> None:
    n = G.number_of_nodes()
    if n > PROPERTY_LIMIT:
        raise SpaceTooLargeError(
            f"Hasse diagram of {n} nodes: {what} is computed for at most {PROPERTY_LIMIT} nodes; "
            f"use a smaller --depth"
        )


def is_lattice(G: nx.DiGraph) -> bool:
    """``True`` iff every pair of elements has a least upper and a greatest lower bound.

    Uses the up- and down-sets of every node (bitsets over a topological
    order): the join of ``x, y`` exists iff the first common upper bound in
    topological order has exactly the common upper bounds as its up-set
    (dually for the meet).  An empty diagram is not a lattice.

    Parameters
    ----------
    G : networkx.DiGraph
        A Hasse diagram with at most :data:`PROPERTY_LIMIT` nodes.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> is_lattice(hasse_diagram(rank_space(3), "dominance"))
    True
    >>> is_lattice(nx.DiGraph([("a", "c"), ("a", "d"), ("b", "c"), ("b", "d")]))
    False

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2; Ferrante et al. (TKDE 2019).
    """
    _guard(G, "the lattice test")
    n = G.number_of_nodes()
    if n == 0:
        return False
    nodes, up, down = _closure_bits(G)
    for i in range(n):
        ui, di = up[i], down[i]
        for j in range(i + 1, n):
            m = ui & up[j]
            if not m:
                return False
            z = (m & -m).bit_length() - 1  # lowest common upper bound in topological order
            if up[z] != m:
                return False
            m = di & down[j]
            if not m:
                return False
            z = m.bit_length() - 1  # highest common lower bound
            if down[z] != m:
                return False
    return True


def width(G: nx.DiGraph) -> int:
    """Size of a largest antichain (Dilworth: ``n`` minus a maximum matching).

    The matching is taken in the bipartite graph with an edge ``x -> y'`` for
    every strict comparability ``x < y`` (transitive closure of the diagram),
    by augmenting paths over bitsets (a largest antichain of 4096 nodes takes
    well under a second).

    Parameters
    ----------
    G : networkx.DiGraph
        A Hasse diagram with at most :data:`PROPERTY_LIMIT` nodes.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> width(hasse_diagram(rank_space(3), "rank")), width(hasse_diagram(rank_space(4), "dominance"))
    (1, 2)

    References
    ----------
    Dilworth (1950); Moffat and Mackenzie (2024), sec. 2.2.
    """
    _guard(G, "the width")
    n = G.number_of_nodes()
    if n == 0:
        return 0
    _, up, _ = _closure_bits(G)
    strict = [up[i] & ~(1 << i) for i in range(n)]
    return n - _max_matching(strict, n)


def _max_matching(adj: list[int], n: int) -> int:
    """Maximum bipartite matching, left ``i`` to right ``j`` in bitset ``adj[i]`` (Kuhn, bitsets)."""
    match_r = [-1] * n
    match_l = [-1] * n
    free = (1 << n) - 1  # unmatched right nodes
    size = 0
    for i in range(n):  # greedy start
        cand = adj[i] & free
        if cand:
            j = (cand & -cand).bit_length() - 1
            match_r[j], match_l[i] = i, j
            free &= ~(1 << j)
            size += 1
    for root in range(n):
        if match_l[root] != -1:
            continue
        visited = 0
        path = [root]  # left nodes; path[k+1] = match_r[via[k]]
        via: list[int] = []
        while path:
            x = path[-1]
            cand = adj[x] & ~visited
            hit = cand & free
            if hit:  # augment along the path
                j = (hit & -hit).bit_length() - 1
                free &= ~(1 << j)
                for k in range(len(path) - 1, -1, -1):
                    left = path[k]
                    prev = match_l[left]
                    match_r[j], match_l[left] = left, j
                    j = prev
                size += 1
                break
            if not cand:
                path.pop()
                if via:
                    via.pop()
                continue
            j = (cand & -cand).bit_length() - 1
            visited |= 1 << j
            via.append(j)
            path.append(match_r[j])
    return size
