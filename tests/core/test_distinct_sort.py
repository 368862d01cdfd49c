"""Distinct values by sort (issue 25, part 3) against a plain ``sorted(set(...))`` oracle.

The streaming classify keeps, per block, the sorted distinct values with the
smallest and second smallest run index holding each
(:meth:`workbench.scale.stream.Distinct.of`) and merges blocks' tables in
canonical order (:meth:`Distinct.merge_all`: a stable sort of int64
numerators, or the general path for Python integers).  Here every table is
checked against dictionaries built value by value in Python, on random
blocks with many, few and no repeated values, int64 numerators and Python
integers beyond int64, empty blocks, and merges in several groupings.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from workbench.core.exact import ValueBlock
from workbench.scale.intrinsic import sort_runs, sorted_distinct
from workbench.scale.stream import Distinct


def oracle(values: list[int], offset: int = 0) -> tuple[list[int], list[int], list[int]]:
    """Sorted distinct values, and for each the smallest and second smallest index (-1: none)."""
    where: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        where.setdefault(v, []).append(i + offset)
    distinct = sorted(set(values))
    return (distinct, [where[v][0] for v in distinct],
            [where[v][1] if len(where[v]) > 1 else -1 for v in distinct])


def table(d: Distinct) -> tuple[list[int], list[int], list[int]]:
    return [int(x) for x in d.values.coords[:, 0].tolist()], d.first.tolist(), d.second.tolist()


def block(values: list[int], big: bool) -> ValueBlock:
    if big:
        return ValueBlock(np.array(values, dtype=object).reshape(-1, 1), 7, bound=max(map(abs, values), default=0))
    return ValueBlock.rational(np.array(values, dtype=np.int64), 7)


def draw(rng: random.Random, n: int, big: bool) -> list[int]:
    spread = rng.choice([3, 50, 10 ** 6])  # many, some, hardly any repeats
    base = 1 << 70 if big else 0
    return [base + rng.randrange(-spread, spread) for _ in range(n)]


@pytest.mark.parametrize("big", [False, True], ids=["int64", "python-int"])
@pytest.mark.parametrize("seed", range(12))
def test_block_and_merge_against_sorted_set(seed, big):
    rng = random.Random(seed)
    sizes = [rng.choice([0, 1, 2, 5, 17, 64, 300]) for _ in range(rng.randrange(1, 7))]
    blocks, offset = [], 0
    everything: list[int] = []
    for n in sizes:
        vals = draw(rng, n, big)
        if n:
            d = Distinct.of(block(vals, big), offset)
            assert table(d) == oracle(vals, offset)
            blocks.append(d)
        everything += vals
        offset += n
    if not blocks:
        return
    # merged in one go, and as the stream consolidates: a growing head merged with later parts
    assert table(Distinct.merge_all(blocks)) == oracle(everything)
    head = blocks[0]
    for later in blocks[1:]:
        head = Distinct.merge_all([head, later])
    assert table(head) == oracle(everything)
    if len(blocks) >= 3:
        left = Distinct.merge_all(blocks[:2])
        assert table(Distinct.merge_all([left] + blocks[2:])) == oracle(everything)


@pytest.mark.parametrize("seed", range(8))
def test_sort_runs_and_sorted_distinct(seed):
    rng = np.random.default_rng(seed)
    vals = rng.integers(-(1 << 62), 1 << 62, size=int(rng.integers(0, 400)))
    if len(vals):
        vals[rng.integers(0, len(vals), size=len(vals) // 3)] = vals[0]  # repeats
    order, new = sort_runs(vals)
    distinct, first, _ = oracle(vals.tolist())
    assert vals[order[new]].tolist() == distinct
    assert order[new].tolist() == first
    assert sorted(order.tolist()) == list(range(len(vals)))
    f, inverse = sorted_distinct(ValueBlock.rational(vals))
    assert f.tolist() == first
    assert [distinct[k] for k in inverse.tolist()] == vals.tolist()


def test_int64_extremes():
    vals = [np.iinfo(np.int64).max, np.iinfo(np.int64).min + 1, 0, np.iinfo(np.int64).max, -1]
    assert table(Distinct.of(ValueBlock.rational(np.array(vals, dtype=np.int64)), 10)) == oracle(vals, 10)


def test_refusal_says_the_table_is_not_spilled(monkeypatch):
    """Beyond its memory share the table is not computed (no spilling to disk), and the note says so."""
    import workbench.scale.classify as cl
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.space.spaces import Space

    monkeypatch.setattr(cl, "intrinsic_bytes_limit", lambda: 10.0)
    c = cl.classify(parse_measure("RBP(p=4/5)"), get_order("dominance"), Space("rank", 6))
    assert c.intrinsic is None
    assert "not spilled to disk" in c.intrinsic_text and "WORKBENCH_MEMORY_LIMIT" in c.intrinsic_text
