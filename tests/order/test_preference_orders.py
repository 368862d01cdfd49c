"""Lexiprecision, lexirecall and RPP as orders (workbench.order.preference), against oracles written here.

The oracles follow the papers' wording with an explicit topic: per grade
threshold (top grade first for the lexicographic orders), the positions of
the topic's ``n_a`` relevant documents, the unretrieved ones at infinity;
lexiprecision compares these lists from the first level, lexirecall from the
last, RPP (Diaz and Ferraro 2022, with ``pref_eval``'s weighting of each
threshold's mean by its number of documents) sums the signs level by level.
The package never sees ``n_a`` (none of the three needs the topic); comparing
it with the oracle on every topic's space checks that claim too.  Covers are
checked against networkx's transitive reduction of the oracle's relation.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

import workbench as wb
from cli_inputs import run_cli
from workbench.errors import IntransitiveOrderError, SpaceTooLargeError
from workbench.measures.names import parse_measure
from workbench.order.covers import covers_in_range
from workbench.order.hasse import hasse_diagram
from workbench.order.orders import get_order
from workbench.order.preference import PREFERENCE_ORDERS, lexiprecision_key, rpp_check
from workbench.scale.axioms import check_rank
from workbench.scale.classify import classify, classify_materialised
from workbench.scale.counterexample import find_counterexample
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space

INF = float("inf")
TOPICS = {1: [None, (1,), (2,), (3,)], 2: [None, (1, 1), (2, 1), (0, 2)]}


# ---------------------------------------------------------------------------
# oracles
# ---------------------------------------------------------------------------

def counts_for(run_depth: int, c: int, topic) -> list[int]:
    """``n_a``: relevant documents of grade >= a (no topic: as many as the depth, enough for any run)."""
    if topic is None:
        return [run_depth] * c
    return [sum(topic[a - 1:]) for a in range(1, c + 1)]


def levels(run, a: int, n: int) -> list[float]:
    pos = [i for i, g in enumerate(run, start=1) if g >= a]
    assert len(pos) <= n
    return pos + [INF] * (n - len(pos))


def lexi_key(run, c: int, topic, last_first: bool) -> tuple:
    """Smaller is better: per threshold from the top grade, the level positions (from the last, for lexirecall)."""
    n = counts_for(len(run), c, topic)
    key = []
    for a in range(c, 0, -1):
        lv = levels(run, a, n[a - 1])
        key.append(tuple(reversed(lv)) if last_first else tuple(lv))
    return tuple(key)


def rpp_value(r, s, c: int, topic) -> Fraction:
    """RPP(r, s) > 0 iff r is preferred: each threshold's mean sign over its n_a levels, weighted by n_a."""
    n = counts_for(len(r), c, topic)
    total, mass = Fraction(0), 0
    for a in range(1, c + 1):
        if n[a - 1] == 0:
            continue
        lr, ls = levels(r, a, n[a - 1]), levels(s, a, n[a - 1])
        mean = Fraction(sum((x < y) - (x > y) for x, y in zip(lr, ls)), n[a - 1])
        total += n[a - 1] * mean
        mass += n[a - 1]
    return total / mass if mass else Fraction(0)


def oracle_compare(name: str, r, s, c: int, topic) -> str | None:
    if r == s:
        return "="
    if name == "rpp":
        v = rpp_value(r, s, c, topic)
        return ">" if v > 0 else ("<" if v < 0 else None)
    kr, ks = (lexi_key(x, c, topic, name == "lexirecall") for x in (r, s))
    return ">" if kr < ks else "<"


def runs_of(depth: int, c: int, topic) -> list[tuple]:
    return [tuple(r) for r in rank_space(depth, c, None if topic is None else Topic(topic)).array().tolist()]


def oracle_less(name: str, runs, c: int, topic) -> np.ndarray:
    n = len(runs)
    less = np.zeros((n, n), dtype=bool)
    for i, j in itertools.product(range(n), repeat=2):
        less[i, j] = oracle_compare(name, runs[i], runs[j], c, topic) == "<"
    return less


def brute_covers(less: np.ndarray) -> list[tuple[int, int]]:
    G = nx.DiGraph()
    G.add_nodes_from(range(len(less)))
    G.add_edges_from(zip(*np.nonzero(less)))
    assert nx.is_directed_acyclic_graph(G)
    return sorted((int(a), int(b)) for a, b in nx.transitive_reduction(G).edges())


def transitive(less: np.ndarray) -> bool:
    n = len(less)
    return all(less[i, k] for i in range(n) for j in np.flatnonzero(less[i]) for k in np.flatnonzero(less[j]))


def spaces(max_depth: dict):
    for c in (1, 2):
        for depth in range(1, max_depth[c] + 1):
            for topic in TOPICS[c]:
                yield c, depth, topic


# ---------------------------------------------------------------------------
# pairwise comparison and covers against the oracles
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", PREFERENCE_ORDERS)
def test_compare_and_covers_match_the_oracle_on_small_spaces(name):
    o = get_order(name)
    checked = 0
    for c, depth, topic in spaces({1: 4, 2: 3}):
        runs = runs_of(depth, c, topic)
        less = oracle_less(name, runs, c, topic)
        for i, j in itertools.product(range(len(runs)), repeat=2):
            want = "=" if i == j else ("<" if less[i, j] else (">" if less[j, i] else None))
            assert o.compare(runs[i], runs[j]) == want, (runs[i], runs[j], topic)
        if transitive(less):
            space = rank_space(depth, c, None if topic is None else Topic(topic))
            assert o.covers(space).pairs() == brute_covers(less), (name, c, depth, topic)
            checked += 1
        else:
            assert name == "rpp"
    assert checked >= 20


@pytest.mark.slow
@pytest.mark.parametrize("name", PREFERENCE_ORDERS)
def test_covers_match_the_brute_force_reduction_to_depth_5(name):
    for c, depth, topic in spaces({1: 5, 2: 5}):
        if depth <= (4 if c == 1 else 3):
            continue  # the quick test above
        runs = runs_of(depth, c, topic)
        less = oracle_less(name, runs, c, topic)
        space = rank_space(depth, c, None if topic is None else Topic(topic))
        if name != "rpp" or transitive(less):
            assert get_order(name).covers(space).pairs() == brute_covers(less), (name, c, depth, topic)
        else:
            with pytest.raises(IntransitiveOrderError):
                get_order(name).covers(space)


def test_the_lexicographic_orders_are_total_chains():
    for name in ("lexiprecision", "lexirecall"):
        for c, depth, topic in spaces({1: 6, 2: 4}):
            space = rank_space(depth, c, None if topic is None else Topic(topic))
            cov = get_order(name).covers(space)
            assert len(cov) == space.size - 1 and len(cov.tie_lower) == 0
            G = nx.DiGraph(cov.pairs())
            if space.size > 1:
                assert nx.is_directed_acyclic_graph(G) and nx.dag_longest_path_length(G) == space.size - 1
            assert cov.lower.tolist() == sorted(cov.lower.tolist())


# ---------------------------------------------------------------------------
# how they relate to the other orders (exhaustive on small spaces)
# ---------------------------------------------------------------------------

def test_lexiprecision_is_the_rank_order_on_binary_runs():
    for depth in range(1, 9):
        for topic in (None, (1,), (3,)):
            space = rank_space(depth, 1, None if topic is None else Topic(topic))
            assert get_order("lexiprecision").covers(space).pairs() == get_order("rank").covers(space).pairs()
    for r, s in itertools.product(runs_of(6, 1, None), repeat=2):
        assert get_order("lexiprecision").compare(r, s) == get_order("rank").compare(r, s)


def test_on_graded_runs_lexiprecision_is_neither_rank_nor_an_extension_of_ipso():
    lp = get_order("lexiprecision")
    # threshold 2 first: (0, 2, 0) reaches a grade-2 document at position 2, (1, 0, 2) only at 3
    assert lp.compare((1, 0, 2), (0, 2, 0)) == "<" and get_order("rank").compare((1, 0, 2), (0, 2, 0)) == ">"
    # ipso (gains 0, 1, 2): prefix sums (0, 2) below (1, 2); lexiprecision: a grade-2 document beats none
    assert get_order("ipso").compare((0, 2), (1, 1)) == "<" and lp.compare((0, 2), (1, 1)) == ">"


@pytest.mark.parametrize("name", PREFERENCE_ORDERS)
def test_each_extends_dominance(name):
    for c, depth, topic in spaces({1: 5, 2: 3}):
        runs = runs_of(depth, c, topic)
        dom = oracle_less_dominance(runs, c)
        less = oracle_less(name, runs, c, topic)
        assert not (dom & ~less).any(), (name, c, depth, topic)


def oracle_less_dominance(runs, c: int) -> np.ndarray:
    def prefix(run):
        return [sum(g >= a for g in run[:k]) for a in range(1, c + 1) for k in range(1, len(run) + 1)]
    p = [prefix(r) for r in runs]
    n = len(runs)
    return np.array([[i != j and all(x <= y for x, y in zip(p[i], p[j])) for j in range(n)] for i in range(n)])


def test_lexirecall_on_binary_runs_counts_relevant_documents_first():
    for depth in range(1, 7):
        runs = runs_of(depth, 1, None)
        for r, s in itertools.product(runs, repeat=2):
            if sum(r) < sum(s):
                assert get_order("lexirecall").compare(r, s) == "<"
    # then the last relevant document earlier: 011 < 101 < 110
    assert [get_order("lexirecall").compare(a, b) for a, b in [((0, 1, 1), (1, 0, 1)), ((1, 0, 1), (1, 1, 0))]] \
        == ["<", "<"]


def test_rpp_is_dominance_up_to_depth_3_and_with_at_most_two_relevant_documents():
    for depth in range(1, 4):
        runs = runs_of(depth, 1, None)
        assert (oracle_less("rpp", runs, 1, None) == oracle_less_dominance(runs, 1)).all()
    for n in (1, 2):
        for depth in range(1, 9):
            runs = runs_of(depth, 1, (n,))
            assert (oracle_less("rpp", runs, 1, (n,)) == oracle_less_dominance(runs, 1)).all()
            assert get_order("rpp").covers(rank_space(depth, 1, Topic((n,)))).pairs() == \
                get_order("dominance").covers(rank_space(depth, 1, Topic((n,)))).pairs()
    # depth 4: RPP orders 1001 below 0111 (levels 1: 1 < 2, 2: 4 > 3, 3: missing > 4), dominance does not
    assert get_order("rpp").compare((1, 0, 0, 1), (0, 1, 1, 1)) == "<"
    assert get_order("dominance").compare((1, 0, 0, 1), (0, 1, 1, 1)) is None


# ---------------------------------------------------------------------------
# RPP's transitivity, decided by enumeration
# ---------------------------------------------------------------------------

def test_rpp_transitivity_frontier_and_witnesses():
    for c, last_ok in ((1, 4), (2, 3), (3, 2)):
        for depth in range(1, last_ok + 2):
            space = rank_space(depth, c)
            got = rpp_check(space)
            runs = runs_of(depth, c, None)
            assert got.transitive == transitive(oracle_less("rpp", runs, c, None)) == (depth <= last_ok)
            if not got.transitive:  # the witness, re-checked by the oracle
                r, s, t = got.witness
                assert oracle_compare("rpp", r, s, c, None) == "<" and oracle_compare("rpp", s, t, c, None) == "<"
                assert oracle_compare("rpp", r, t, c, None) is None and not got.cycle


@pytest.mark.slow
def test_rpp_has_a_cycle_at_binary_depth_6():
    got = rpp_check(rank_space(6))
    r, s, t = got.witness
    assert got.cycle
    assert [oracle_compare("rpp", a, b, 1, None) for a, b in ((r, s), (s, t), (t, r))] == ["<", "<", "<"]


def test_rpp_refuses_where_intransitive_in_one_line(capsys):
    code, out, err = run_cli(capsys, "classify", "RR", "--order", "rpp", "--depth", "5")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "rpp" in err and "not transitive" in err and "10000" in err
    with pytest.raises(IntransitiveOrderError):
        hasse_diagram(rank_space(4, 2), "rpp")
    with pytest.raises(SpaceTooLargeError):
        rpp_check(rank_space(13))


def test_rpp_has_no_smt_encoding_and_says_so_in_one_line(capsys):
    code, out, err = run_cli(capsys, "counterexample", "RR", "--order", "rpp", "--method", "smt", "--max-depth", "3")
    assert code == 2 and out == "" and err.strip().splitlines() == [
        "workbench: error: order 'rpp': no SMT encoding (use --method enumeration)"]


def test_the_python_front_door_takes_them():
    assert wb.classify("RR", order="lexirecall", depth=3).witness.lower == (1, 0, 0)  # 100 < 011: 1 > 1/2
    assert wb.classify("RR", order="rpp", depth=4, topic=2).verdict == "weak"


def test_key_width_and_space_size_are_refused_before_allocating():
    with pytest.raises(SpaceTooLargeError, match="lexiprecision"):
        lexiprecision_key(np.zeros((1, 63), dtype=np.uint8), 1)
    with pytest.raises(SpaceTooLargeError, match="4,194,304"):
        get_order("lexirecall").covers(rank_space(23, 1, Topic((22,))))  # a topic: keys sorted
    with pytest.raises(SpaceTooLargeError, match="4,194,304"):
        get_order("lexiprecision").covers(rank_space(14, 2))
    # binary lexirecall without a topic: each run's successor by arithmetic, at any depth
    space = rank_space(40)
    for v in (0, 1, 2**39, 2**40 - 2**20, 3 * 2**37 + 5, 2**40 - 2):
        (lo, up), = covers_in_range("lexirecall", space, Gains.default(1), v, v + 1).pairs()
        run, nxt = (tuple(int(b) for b in format(x, "040b")) for x in (lo, up))
        assert lo == v and oracle_compare("lexirecall", run, nxt, 1, None) == "<"
    assert len(covers_in_range("lexirecall", space, Gains.default(1), 2**40 - 1, 2**40)) == 0  # the top run
    # binary lexiprecision is the rank order: its covers stream from the indices at any depth
    got = covers_in_range("lexiprecision", space, Gains.default(1), 2**39, 2**39 + 3)
    assert got.pairs() == [(2**39 + k, 2**39 + k + 1) for k in range(3)]


def test_lexirecall_successors_are_the_oracles_chain():
    for depth in range(1, 11):
        runs = runs_of(depth, 1, None)
        chain = sorted(range(len(runs)), key=lambda i: lexi_key(runs[i], 1, None, True), reverse=True)
        want = sorted(zip(chain, chain[1:]))
        assert get_order("lexirecall").covers(rank_space(depth)).pairs() == want, depth
        got = [covers_in_range("lexirecall", rank_space(depth), Gains.default(1), a, a + 3).pairs()
               for a in range(0, len(runs), 3)]
        assert [p for part in got for p in part] == want, depth


# ---------------------------------------------------------------------------
# the orders in use: classification, rank function, SMT
# ---------------------------------------------------------------------------

def rr(run) -> Fraction:
    return next((Fraction(1, i) for i, g in enumerate(run, 1) if g), Fraction(0))


def rbp_half(run) -> Fraction:
    return sum((Fraction(1, 2) ** i * g for i, g in enumerate(run)), Fraction(0)) / 2


def p2(run) -> Fraction:
    return Fraction(sum(1 for g in run[:2] if g), 2)


def oracle_verdict(name: str, runs, f, total: bool) -> str:
    less = oracle_less(name, runs, 1, None)
    v = [f(r) for r in runs]
    pairs = list(zip(*np.nonzero(less)))
    if any(v[i] > v[j] for i, j in pairs):
        return "violated"
    if any(v[i] == v[j] for i, j in pairs):
        return "weak"
    if not total:
        return "strict"
    chain = sorted(v)
    gaps = {b - a for a, b in zip(chain, chain[1:])}
    return "interval" if len(gaps) <= 1 else "ordinal"


@pytest.mark.parametrize("name", PREFERENCE_ORDERS)
def test_classify_agrees_with_the_brute_force_verdict(name):
    o = get_order(name)
    for depth in (3, 4):
        runs = runs_of(depth, 1, None)
        for m, f in (("RR", rr), ("RBP(p=1/2)", rbp_half), ("P@2", p2)):
            want = oracle_verdict(name, runs, f, o.kind == "total")
            streamed = classify(parse_measure(m), o, rank_space(depth), block_size=3)
            whole = classify_materialised(parse_measure(m), o, rank_space(depth))
            assert streamed.verdict == whole.verdict == want, (name, m, depth)
            if want == "violated":
                w = streamed.witness
                assert oracle_compare(name, w.lower, w.upper, 1, None) == "<" and f(w.lower) > f(w.upper)
                assert (w.lower, w.upper) == (whole.witness.lower, whole.witness.upper)


def test_rank_function_of_lexirecall_is_its_chain_position():
    runs = runs_of(4, 1, None)
    want = sorted(range(len(runs)), key=lambda i: lexi_key(runs[i], 1, None, True), reverse=True)
    report = check_rank(get_order("lexirecall"), rank_space(4))
    rho = [int(x) for x in report.representation.tolist()]
    assert [runs[i] for i in sorted(range(len(runs)), key=rho.__getitem__)] == [runs[i] for i in want]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lexiprecision", "lexirecall"])
def test_smt_search_finds_violations_at_the_depth_enumeration_does(name):
    for m in ("RR", "RBP(p=0.8)", "P@2"):
        by_smt = find_counterexample(m, name, max_depth=4, method="smt")
        by_enum = find_counterexample(m, name, max_depth=4)
        assert by_smt.found == by_enum.found and by_smt.depth == by_enum.depth, (name, m)
        if by_smt.found:
            assert oracle_compare(name, by_smt.lower, by_smt.upper, 1, None) == "<"
