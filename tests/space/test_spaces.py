"""Tests of workbench.space.spaces against slow, obvious oracles (docs/theory/runs.md and docs/theory/orders.md)."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import (
    BadDepthError,
    BadParameterError,
    BadRunError,
    BadTopicError,
    SpaceTooLargeError,
    WorkbenchError,
)
from workbench.space.runs import Topic
from workbench.space.spaces import BadIndexError, Space, rank_space, set_space

# ---------------------------------------------------------------- oracles


def within_topic(run, topic):
    if topic is None:
        return True
    return all(run.count(j) <= n for j, n in enumerate(topic.counts, start=1))


def oracle(kind, depth, grades, topic=None):
    """All runs of the space in canonical order, by brute force."""
    if kind == "rank":
        runs = [r for r in itertools.product(range(grades + 1), repeat=depth) if within_topic(r, topic)]
        return sorted(runs, key=lambda r: tuple(r))  # lexicographic, position 1 most significant
    runs = {
        tuple(sorted(m, reverse=True))
        for m in itertools.combinations_with_replacement(range(grades + 1), depth)
    }
    runs = [r for r in runs if within_topic(r, topic)]

    def set_key(r):  # docs/theory/orders.md: counts (n_c, ..., n_1), highest grade decides, fewer is lower
        return tuple(r.count(j) for j in range(grades, 0, -1))

    return sorted(runs, key=set_key)


TOPICS = {
    1: [None, (1,), (2,), (0,) * 0 + (3,)],
    2: [None, (1, 1), (0, 2), (2, 1), (0, 1), (3, 0)],
    3: [None, (1, 0, 2), (1, 1, 1), (0, 0, 1)],
}

SMALL = [
    (kind, depth, grades, t)
    for kind in ("rank", "set")
    for grades in (1, 2, 3)
    for depth in range(1, 6)
    for t in TOPICS[grades]
]


def make(kind, depth, grades, t):
    topic = Topic(t) if t is not None else None
    return Space(kind, depth, grades, topic), topic


def sbto(run):
    """Ferrante et al. (2019), eq. 2-3: sum_j C(delta(r_j) + N - j, N - j + 1) over the sorted run."""
    n = len(run)
    r = sorted(run, reverse=True)
    return sum(math.comb(r[j - 1] + n - j, n - j + 1) for j in range(1, n + 1))


# ---------------------------------------------------------------- exhaustive small cases


@pytest.mark.parametrize("kind,depth,grades,t", SMALL)
def test_small_spaces_against_oracle(kind, depth, grades, t):
    sp, topic = make(kind, depth, grades, t)
    expected = oracle(kind, depth, grades, topic)
    arr = sp.array()
    assert arr.dtype == np.uint8 and arr.shape == (len(expected), depth)
    assert [tuple(r) for r in arr.tolist()] == expected
    assert sp.size == len(expected) == len(sp)
    assert list(sp) == expected
    # run / index round trip for every run
    for i, r in enumerate(expected):
        assert sp.run(i) == r
        assert sp.index(r) == i
        assert r in sp
    # vectorised index
    assert sp.indices(arr).tolist() == list(range(len(expected)))
    assert sp.indices(arr, check=True).dtype == np.int64
    # contains over every vector of {0..c}^N plus out-of-range grades
    every = np.array(list(itertools.product(range(grades + 2), repeat=depth)), dtype=np.int64)
    members = set(expected)
    want = [tuple(r) in members for r in every.tolist()]
    assert sp.contains(every).tolist() == want
    assert sp.contains(every.astype(np.uint8)).tolist() == want
    neg = every.copy()
    neg[:, 0] = -1
    assert not sp.contains(neg).any()


@pytest.mark.parametrize("kind,depth,grades,t", SMALL[::3])
@pytest.mark.parametrize("block_size", [1, 2, 3, 7, 1000])
def test_blocks_reassemble(kind, depth, grades, t, block_size):
    sp, _ = make(kind, depth, grades, t)
    full = sp.array()
    got = list(sp.blocks(block_size=block_size))
    assert all(b.shape[0] <= block_size and b.dtype == np.uint8 for _, b in got)
    assert [a for a, _ in got] == list(range(0, sp.size, block_size))
    assert np.array_equal(np.concatenate([b for _, b in got]), full)
    for start in range(0, sp.size + 1, max(1, sp.size // 5)):
        for stop in (start, min(sp.size, start + 3), sp.size):
            parts = list(sp.blocks(block_size=block_size, start=start, stop=stop))
            rows = np.concatenate([b for _, b in parts]) if parts else np.zeros((0, depth), np.uint8)
            assert np.array_equal(rows, full[start:stop])
            if parts:
                assert parts[0][0] == start


@pytest.mark.parametrize("depth", range(1, 8))
@pytest.mark.parametrize("grades", [1, 2, 3, 4])
def test_sbto_is_rank_of_set_order(depth, grades):
    """Ferrante et al. (2019), eq. 2-3 against the enumeration of the set order."""
    sp = set_space(depth, grades)
    for i, r in enumerate(oracle("set", depth, grades)):
        assert sbto(r) == i == sp.index(r)


def test_rbto_is_rank_of_rank_order():
    for depth, grades in [(1, 1), (3, 2), (4, 3), (6, 1)]:
        sp = rank_space(depth, grades)
        for r in sp:
            assert sp.index(r) == sum(g * (grades + 1) ** (depth - i) for i, g in enumerate(r, start=1))


# ---------------------------------------------------------------- sizes


def test_sizes_closed_form_without_enumerating():
    assert rank_space(30).size == 2**30
    assert rank_space(1000, grades=2).size == 3**1000
    assert set_space(1000, grades=3).size == math.comb(1003, 3)
    assert set_space(30, grades=1).size == 31
    # binary topic with n relevant: sum_{k<=n} C(N, k)
    assert rank_space(30, topic=Topic((5,))).size == sum(math.comb(30, k) for k in range(6))
    assert rank_space(200, topic=Topic((3,))).size == sum(math.comb(200, k) for k in range(4))
    # set, binary, topic n: n + 1 runs (0..n relevant)
    assert set_space(50, topic=Topic((7,))).size == 8
    # a topic at least as large as the depth does not bind
    assert rank_space(4, grades=2, topic=Topic((9, 9))).size == 81


@given(
    depth=st.integers(1, 7),
    grades=st.integers(1, 3),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_random_topics_against_oracle(depth, grades, data):
    counts = tuple(data.draw(st.lists(st.integers(0, 4), min_size=grades, max_size=grades)))
    if sum(counts) == 0:
        counts = (1,) + counts[1:]
    kind = data.draw(st.sampled_from(["rank", "set"]))
    sp = Space(kind, depth, grades, Topic(counts))
    expected = oracle(kind, depth, grades, Topic(counts))
    assert sp.size == len(expected)
    assert [tuple(r) for r in sp.array().tolist()] == expected


# ---------------------------------------------------------------- large spaces


@pytest.mark.parametrize(
    "sp",
    [
        rank_space(70),
        rank_space(45, grades=2),
        rank_space(300, grades=3),
        rank_space(100, topic=Topic((50,))),
        rank_space(40, grades=2, topic=Topic((3, 30))),
        set_space(600, grades=9),
        set_space(400, grades=5, topic=Topic((100, 3, 250, 7, 399))),
    ],
    ids=str,
)
@pytest.mark.slow
def test_large_spaces_round_trip(sp):
    rng = np.random.default_rng(0)
    size = sp.size
    picks = [0, 1, size - 1, size // 2, size // 3] + [int(x) * size // 10**6 for x in rng.integers(0, 10**6, 20)]
    runs = [sp.run(i) for i in picks]
    for i, r in zip(picks, runs):
        assert sp.index(r) == i
    arr = np.array(runs, dtype=np.uint8)
    assert list(sp.indices(arr)) == picks
    assert sp.contains(arr).all()
    # blocks at arbitrary (huge) starts agree with unranking
    for i in picks[:6]:
        start = max(0, min(i, size - 5))
        for a, b in sp.blocks(block_size=3, start=start, stop=min(size, start + 5)):
            assert [tuple(x) for x in b.tolist()] == [sp.run(a + k) for k in range(b.shape[0])]
    # consecutive runs are strictly increasing in the order
    for a, b in sp.blocks(block_size=4, start=size // 7, stop=size // 7 + 8):
        rows = [tuple(x) for x in b.tolist()]
        if sp.kind == "rank":
            assert rows == sorted(rows) and len(set(rows)) == len(rows)


@pytest.mark.parametrize("base,power", [(2, 62), (3, 39), (5, 27)])
def test_rank_blocks_across_int64_split(base, power):
    """Blocks straddling the internal high/low digit split of huge rank spaces."""
    sp = rank_space(80, grades=base - 1)
    m = base**power
    for centre in (m, 2 * m, 7 * m):
        got = list(sp.blocks(block_size=4, start=centre - 5, stop=centre + 6))
        rows = [tuple(x) for _, b in got for x in b.tolist()]
        assert rows == [sp.run(i) for i in range(centre - 5, centre + 6)]


@given(st.integers(0, 3**120 - 1))
@settings(max_examples=50, deadline=None)
def test_huge_rank_unrank_is_base_expansion(i):
    sp = rank_space(120, grades=2)
    r = sp.run(i)
    assert int("".join(map(str, r)), 3) == i
    assert sp.index(r) == i


@given(st.data())
@settings(max_examples=50, deadline=None)
def test_huge_set_round_trip_and_sbto(data):
    depth = data.draw(st.integers(50, 400))
    grades = data.draw(st.integers(1, 8))
    sp = set_space(depth, grades)
    i = data.draw(st.integers(0, sp.size - 1))
    r = sp.run(i)
    assert list(r) == sorted(r, reverse=True)
    assert sp.index(r) == i == sbto(r)


def test_rank20_and_ternary12_are_the_digits_of_their_indices():
    # their speed is measured in benchmarks/space_array.py (CPU time), never asserted here
    for depth, grades in ((20, 1), (12, 2)):
        a = rank_space(depth, grades=grades).array()
        x = np.arange((grades + 1) ** depth, dtype=np.int64)
        digits = np.empty_like(a)
        for p in range(depth - 1, -1, -1):
            x, d = np.divmod(x, grades + 1)
            digits[:, p] = d
        assert a.dtype == np.uint8 and np.array_equal(a, digits)
    assert rank_space(20).array()[12345].tolist() == [int(ch) for ch in format(12345, "020b")]


# ---------------------------------------------------------------- sampling


@pytest.mark.parametrize(
    "sp",
    [
        rank_space(5, grades=2),
        set_space(6, grades=3, topic=Topic((1, 2, 1))),
        rank_space(200, grades=2),
        rank_space(100, topic=Topic((30,))),
        set_space(1000, grades=7),
    ],
    ids=str,
)
def test_sample_reproducible_and_inside(sp):
    a = sp.sample(300, seed=42)
    b = sp.sample(300, seed=42)
    c = sp.sample(300, seed=43)
    assert a.shape == (300, sp.depth) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert sp.contains(a).all()
    assert sp.sample(0, seed=1).shape == (0, sp.depth)
    idx = sp.sample_indices(300, seed=42)
    assert [sp.run(i) for i in idx] == [tuple(x) for x in a.tolist()]


def test_sample_covers_small_space_roughly_uniformly():
    sp = rank_space(3, grades=2, topic=Topic((1, 1)))
    idx = sp.indices(sp.sample(20000, seed=5))
    counts = np.bincount(idx, minlength=sp.size)
    assert len(counts) == sp.size
    expected = 20000 / sp.size
    assert counts.min() > 0.8 * expected and counts.max() < 1.2 * expected


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("depth", [0, -3, "4", 2.0, True])
def test_bad_depth(depth):
    with pytest.raises(BadDepthError, match=repr(depth).replace("(", r"\(")):
        rank_space(depth)


@pytest.mark.parametrize("grades", [0, -1, 256, 1.5, True])
def test_bad_grades(grades):
    with pytest.raises(BadParameterError, match=f"grades {grades!r}"):
        rank_space(3, grades=grades)


def test_bad_kind_and_topic():
    with pytest.raises(BadParameterError, match="'ranks'"):
        Space("ranks", 3)
    with pytest.raises(BadTopicError, match="topic 1,1"):
        rank_space(3, grades=1, topic=Topic((1, 1)))
    with pytest.raises(BadParameterError, match="topic"):
        rank_space(3, topic=(1,))


@pytest.mark.parametrize(
    "sp,run,words",
    [
        (rank_space(3), (0, 1), "run 01: has 2 grade"),
        (rank_space(3), "0120", "grade 2 outside 0..1"),
        (rank_space(3, grades=2), (0, 3, 1), "run 031: grade 3 outside 0..2"),
        (rank_space(3), (0, -1, 1), "grade -1"),
        (set_space(3, grades=2), (0, 2, 1), "run 021: .*sorted non-increasing \\(write 210\\)"),
        (set_space(3, grades=2), "021", "write 210"),
        (rank_space(3, topic=Topic((1,))), (1, 0, 1), "run 101: retrieves 2 document.* grade 1 but topic 1 has only 1"),
        (set_space(3, grades=2, topic=Topic((2, 0))), (2, 0, 0), "run 200: retrieves 1 .* grade 2 but topic 2,0"),
        (rank_space(3), (0, 1.5, 1), "grades must be integers"),
    ],
)
def test_bad_runs(sp, run, words):
    with pytest.raises(BadRunError, match=words):
        sp.index(run)
    assert run not in sp


@pytest.mark.parametrize("index", [-1, 8, 2**70, 1.0, "3", True])
def test_bad_index(index):
    sp = rank_space(3)
    with pytest.raises(BadIndexError, match=f"index {index!r}"):
        sp.run(index)
    with pytest.raises(IndexError):
        sp.run(index)
    with pytest.raises(WorkbenchError):
        sp.run(index)


def test_bad_blocks_arguments():
    sp = rank_space(3)
    with pytest.raises(BadParameterError, match="block_size 0"):
        list(sp.blocks(block_size=0))
    with pytest.raises(BadParameterError, match="start 9"):
        list(sp.blocks(start=9))
    with pytest.raises(BadParameterError, match="stop 2"):
        list(sp.blocks(start=3, stop=2))
    with pytest.raises(BadParameterError, match="stop 9"):
        list(sp.blocks(stop=9))
    assert list(sp.blocks(start=8)) == []


def test_too_large_and_bad_arrays():
    with pytest.raises(SpaceTooLargeError, match="1099511627776 runs.*--depth or sampling"):
        rank_space(40).array()
    with pytest.raises(SpaceTooLargeError, match="81 runs.*limit 80"):
        rank_space(4, grades=2).array(limit=80)
    sp = set_space(3, grades=2)
    with pytest.raises(BadRunError, match=r"shape \(2, 2\)"):
        sp.contains(np.zeros((2, 2), dtype=int))
    with pytest.raises(BadRunError, match="dtype float64"):
        sp.indices(np.zeros((2, 3)))
    with pytest.raises(BadRunError, match="run 012: a set-based run must be sorted"):
        sp.indices(np.array([[0, 0, 0], [0, 1, 2]]), check=True)
    with pytest.raises(BadRunError, match="grade 3 outside"):
        sp.indices(np.array([[3, 0, 0]]), check=True)
    with pytest.raises(BadParameterError, match="sample size -1"):
        sp.sample(-1, seed=0)
    with pytest.raises(SpaceTooLargeError, match="size"):
        len(rank_space(64))
