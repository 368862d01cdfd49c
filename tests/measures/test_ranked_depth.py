"""The transformation depth of ``rank[M]@N`` (issue 33): one refusal over all topics, binary measures on binary runs.

Oracles: space sizes counted with binomials (a binary run of depth ``e``
with at most ``RB`` relevant documents), every graded run enumerated with
``itertools.product`` and the measure's values sorted in Fractions.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

import workbench as wb
from workbench.data.ranked_matrix import ranked_matrix
from workbench.data.score_matrix import score_matrices
from workbench.errors import BadDepthError, SpaceTooLargeError
from workbench.measures.names import parse_measure
from workbench.measures.ranked import BINARY_VIEW
from workbench.space.runs import Gains, Topic


def binary_size(e: int, rb: int) -> int:
    return sum(math.comb(e, k) for k in range(min(rb, e) + 1))


def test_binary_view_families_read_only_the_binary_run():
    """Every graded run of depth 3 over 2 grades: value(r) == value(min(r, 1)) on the binary topic RB."""
    assert BINARY_VIEW == {"P", "R", "F", "AP", "RBP", "RR", "Succ"}
    names = ["P@2", "R", "F", "AP", "RBP(p=0.8)", "RR", "Succ@2", "P"]
    assert {parse_measure(n).family for n in names} == BINARY_VIEW
    for gains in (Gains.default(2), Gains.parse("0,1,3")):
        for counts in ((1, 1), (2, 1), (0, 3), (3, 3)):
            graded, binary = Topic(counts), Topic((sum(counts),))
            for run in itertools.product(range(3), repeat=3):
                if any(sum(1 for g in run if g == j + 1) > n for j, n in enumerate(counts)):
                    continue
                flat = tuple(min(g, 1) for g in run)
                for name in names:
                    m = parse_measure(name)
                    assert m.value(run, gains, graded) == m.value(flat, Gains.default(1), binary), (name, run)


def _collection(rbs, depth, systems=3, seed=0):
    import random

    rng = random.Random(seed)
    qrels = {str(t): {f"d{t}_{i}": 1 + (i % 2) for i in range(rb)} for t, rb in enumerate(rbs)}
    runs = {f"s{k}": {str(t): rng.sample(list(qrels[str(t)]) + [f"n{i}" for i in range(depth)], depth)
                      for t in range(len(rbs))} for k in range(systems)}
    return qrels, runs


def test_graded_positions_equal_positions_among_every_graded_run():
    """rank[AP]@4 in the graded view (binary runs enumerated) against every 3-grade run enumerated."""
    qrels, runs = _collection([3, 2, 5], 4, seed=2)
    (ap,) = score_matrices(qrels, runs, ["AP"], view="graded", depth=4)
    r = ranked_matrix(ap)
    for k, t in enumerate(r.topics):
        n1 = sum(1 for g in qrels[t].values() if g == 1)
        n2 = sum(1 for g in qrels[t].values() if g == 2)
        rb = n1 + n2
        values = set()
        for run in itertools.product(range(3), repeat=4):
            if sum(g == 1 for g in run) <= n1 and sum(g == 2 for g in run) <= n2:
                hits, total = 0, Fraction(0)
                for i, g in enumerate(run, 1):
                    if g:
                        hits += 1
                        total += Fraction(hits, i)
                values.add(total / rb)
        ordered = sorted(values)
        assert r.blocks[k].values() == [Fraction(ordered.index(v)) for v in ap.blocks[k].values()]


def test_graded_ap_reaches_depth_20():
    qrels, runs = _collection([25, 30], 20, systems=2)
    (ap,) = score_matrices(qrels, runs, ["AP"], view="graded", depth=20)
    with pytest.raises(SpaceTooLargeError, match="pass depth=19 or less"):
        ranked_matrix(ap, max_space=(1 << 20) - 1)
    assert "rank-binary space" in ranked_matrix(ap, depth=8).notes[-1]


def test_one_refusal_names_the_depth_every_topic_allows():
    rbs = [2, 6, 9, 4]
    qrels, runs = _collection(rbs, 14)
    (ap,) = score_matrices(qrels, runs, ["AP"], view="binary", depth=14)
    limit = 900
    # oracle: the largest depth whose binary space fits for every topic; the first topic alone allows more
    fits = [e for e in range(1, 15) if all(binary_size(e, rb) <= limit for rb in rbs)]
    deepest = max(fits)
    alone = max(e for e in range(1, 15) if binary_size(e, rbs[1]) <= limit)
    assert alone > deepest
    with pytest.raises(SpaceTooLargeError) as err:
        ranked_matrix(ap, max_space=limit)
    msg = str(err.value)
    assert f"every topic allows is {deepest}: pass depth={deepest} or less" in msg and "\n" not in msg
    assert ranked_matrix(ap, depth=deepest, max_space=limit).shape == (4, 3)      # the depth named works
    with pytest.raises(SpaceTooLargeError):
        ranked_matrix(ap, depth=deepest + 1, max_space=limit)


def test_ranked_measure_without_its_depth_is_refused_naming_it():
    qrels, runs = _collection([2, 3, 1], 6)
    with pytest.raises(BadDepthError, match=r"pass depth=4 \(") as err:
        wb.significance(qrels, runs, "rank[AP]@4")
    assert "\n" not in str(err.value)
    with pytest.raises(BadDepthError, match="pass depth=4"):
        wb.significance(qrels, runs, "AP,rank[AP]@4", depth=5, pairs="all")
    t = wb.significance(qrels, runs, "rank[AP]@4", depth=4, pairs="all", test="sign")
    # the same positions as the transformation of AP's matrix at depth 4
    (ap,) = score_matrices(qrels, runs, ["AP"], depth=4)
    assert [r.diff_exact for r in t.rows] == [
        Fraction(sum(ranked_matrix(ap).blocks[k].values()[a] - ranked_matrix(ap).blocks[k].values()[b]
                     for k in range(3)), 3) for a, b in ((0, 1), (0, 2), (1, 2))]
