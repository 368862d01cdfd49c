"""The fast census (issue 17): binary closed forms and the divide-and-conquer DP, each against slow oracles.

Oracles written here, independent of the code under test:

* :func:`slow_walks`: the plain height-by-height DP over a dict (what the
  census ran before issue 17), one step at a time;
* :func:`pairs_by_prefix_sums`: every ordered pair of runs, classified by the
  signs of the differences of its prefix sums of gains (exact fractions);
* ``brute_census`` of the package (Moffat and Mackenzie 2024, Alg. 1 per pair) as a third count.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from workbench.core.lattice_paths import (binary_nonnegative_walks, binary_nonnegative_walks_ending_at,
                                          nonnegative_walks)
from workbench.ipso.census import brute_census, census
from workbench.space.runs import Gains


def slow_walks(depth: int, steps: dict[int, int]) -> dict[int, int]:
    """Weighted walks from 0 never below 0, by final height: one step at a time over a dict."""
    heights = {0: 1}
    for _ in range(depth):
        nxt: dict[int, int] = {}
        for h, count in heights.items():
            for step, mult in steps.items():
                if h + step >= 0:
                    nxt[h + step] = nxt.get(h + step, 0) + mult * count
        heights = nxt
    return heights


def steps_of(gains: str) -> dict[int, int]:
    """Multiset of differences g(x) - g(y) over all grade pairs, gains scaled to coprime integers."""
    values = [Fraction(v) for v in gains.split(",")]
    scale = math.lcm(*(v.denominator for v in values))
    ints = [int(v * scale) for v in values]
    common = math.gcd(*ints)
    ints = [v // common for v in ints]
    out: dict[int, int] = {}
    for x in ints:
        for y in ints:
            out[x - y] = out.get(x - y, 0) + 1
    return out


def pairs_by_prefix_sums(depth: int, gains: str) -> dict[str, int]:
    values = [Fraction(v) for v in gains.split(",")]
    runs = list(itertools.product(range(len(values)), repeat=depth))
    prefix = {r: list(itertools.accumulate(values[x] for x in r)) for r in runs}
    counts = {"equal": 0, "ni": 0, "ns": 0, "nonsep": 0}
    for r in runs:
        for s in runs:
            diffs = [a - b for a, b in zip(prefix[r], prefix[s])]
            up, down = any(d > 0 for d in diffs), any(d < 0 for d in diffs)
            counts["nonsep" if up and down else "ni" if up else "ns" if down else "equal"] += 1
    return counts


def as_dict(c) -> dict[str, int]:
    return {"equal": c.equal, "ni": c.ni, "ns": c.ns, "nonsep": c.nonsep}


# --- binary: closed forms ---------------------------------------------------

@pytest.mark.parametrize("depth", range(1, 8))
def test_binary_closed_forms_match_every_pair(depth):
    counts = pairs_by_prefix_sums(depth, "0,1")
    ni = math.comb(2 * depth + 1, depth) - 2**depth
    assert counts == {"equal": 2**depth, "ni": ni, "ns": ni, "nonsep": 4**depth + 2**depth - 2 * math.comb(2 * depth + 1, depth)}
    assert counts["ni"] + counts["ns"] == 2 * math.comb(2 * depth + 1, depth) - 2 ** (depth + 1)  # issue 17's separable
    if depth <= 6:
        assert as_dict(brute_census(depth)) == counts
    assert as_dict(census(depth)) == counts


@pytest.mark.parametrize("depth", [*range(0, 41), 77, 128, 301])
def test_binary_closed_form_equals_the_slow_dp_height_by_height(depth):
    ends = slow_walks(depth, {-1: 1, 0: 2, 1: 1})
    assert binary_nonnegative_walks(depth) == sum(ends.values())
    assert all(binary_nonnegative_walks_ending_at(depth, h) == ends.get(h, 0) for h in range(-2, depth + 3))


@pytest.mark.parametrize("depth", [1, 2, 7, 16, 17, 33, 100, 301])
def test_fast_dp_on_binary_steps_equals_the_closed_form(depth):
    assert nonnegative_walks(depth, {-1: 1, 0: 2, 1: 1}) == math.comb(2 * depth + 1, depth)


def test_binary_census_at_depth_10000_is_the_closed_form():
    c = census(10000)
    b = math.comb(20001, 10000)
    assert (c.equal, c.ni, c.ns, c.nonsep) == (2**10000, b - 2**10000, b - 2**10000, 4**10000 + 2**10000 - 2 * b)


# --- graded: the fast DP ----------------------------------------------------

GAINS = ["0,1,2", "0,1,3", "0,2,3", "0,1,5", "0,1/2,7/3", "0,1,2,3", "0,1,3,7", "0,2,5,6,9"]


@pytest.mark.parametrize("gains", GAINS)
def test_fast_graded_census_matches_every_pair(gains):
    grades = len(gains.split(",")) - 1
    top = {2: 4, 3: 3, 4: 2}[grades]  # (c+1)^(2k) pairs: at most 6561
    g = Gains.parse(gains)
    for depth in range(1, top + 1):
        counts = pairs_by_prefix_sums(depth, gains)
        assert as_dict(census(depth, gains=g)) == counts, depth
        if depth <= top - 1:
            assert as_dict(brute_census(depth, gains=g)) == counts, depth


@pytest.mark.parametrize("gains", GAINS)
@pytest.mark.slow
def test_fast_dp_equals_the_slow_dp_across_its_recursion_cut_offs(gains):
    steps = steps_of(gains)
    # 16 and 17 straddle the step-by-step cut-off; larger depths recurse several levels
    for depth in [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 50, 97]:
        assert nonnegative_walks(depth, steps) == sum(slow_walks(depth, steps).values()), depth


@pytest.mark.parametrize("gains,depth", [("0,1,2", 300), ("0,1,3", 211), ("0,1,2,3", 150), ("0,2,5,6,9", 64)])
def test_fast_dp_equals_the_slow_dp_at_mid_depths(gains, depth):
    steps = steps_of(gains)
    assert nonnegative_walks(depth, steps) == sum(slow_walks(depth, steps).values())


def test_progress_reaches_the_depth_and_never_goes_back():
    seen = []
    nonnegative_walks(100, steps_of("0,1,2"), seen.append)
    assert seen == sorted(seen) and seen[-1] == 100 and len(seen) > 1


def test_census_counts_sum_to_all_pairs_at_depth_1000_two_grades():
    c = census(1000, grades=2)
    assert c.equal == 3**1000 and c.pairs == 9**1000 and c.equal + c.ni + c.ns + c.nonsep == c.pairs
    assert c.ni > 0 and c.nonsep > 0


def test_degenerate_step_sets():
    assert nonnegative_walks(5, {0: 3}) == 3**5  # one gain value: the walk never moves
    assert nonnegative_walks(4, {1: 1, 2: 1}) == 2**4  # no down step: every walk stays up
    assert nonnegative_walks(0, {-1: 1}) == 1 and nonnegative_walks(3, {-1: 1}) == 0
    with pytest.raises(ValueError, match="-1"):
        nonnegative_walks(-1, {0: 1})


# --- gains 0,1,2: a third count by the kernel method -------------------------

def motzkin_numbers(n: int) -> list[int]:
    """M_0..M_n by their recurrence (n+2) M_n = (2n+1) M_(n-1) + (3n-3) M_(n-2)."""
    m = [1, 1]
    for i in range(2, n + 1):
        m.append(((2 * i + 1) * m[i - 1] + (3 * i - 3) * m[i - 2]) // (i + 2))
    return m[: n + 1]


def kernel_method_two_grades(depth: int) -> int:
    """Nonnegative walks of the census with gains 0,1,2 (steps -2..2 weighted 1,2,3,2,1), by the kernel method.

    The step polynomial is ``S(u) = u^-2 (1 + u + u^2)^2``; the kernel
    ``1 - z S(u)`` has two small roots, ``u = w T(w)`` with ``w = +-sqrt(z)``
    and ``T`` the Motzkin series (``T = 1 + w T + w^2 T^2``), so the meanders
    have the generating function ``(1 - u_+)(1 - u_-) / (1 - 9 z)``
    (Banderier and Flajolet, TCS 281, 2002, Thm. 2).  Its ``z^j`` coefficient
    is ``c_0 = 1``, ``c_j = -2 M_(2j-1) - sum_b (-1)^b M_b M_(2j-2-b)``, and the
    count is ``sum_j 9^(k-j) c_j``: a finite sum in Motzkin numbers.
    """
    m = motzkin_numbers(2 * depth + 1)
    total = 0
    for j in range(depth + 1):
        c = 1 if j == 0 else -2 * m[2 * j - 1] - sum((-1) ** b * m[b] * m[2 * j - 2 - b] for b in range(2 * j - 1))
        total = total * 9 + c
    return total


def test_motzkin_numbers_are_the_known_ones():
    assert motzkin_numbers(10) == [1, 1, 2, 4, 9, 21, 51, 127, 323, 835, 2188]  # OEIS A001006


@pytest.mark.parametrize("depth", [*range(0, 25), 64, 250])
def test_two_grade_census_equals_the_kernel_method_sum(depth):
    expected = kernel_method_two_grades(depth)
    assert nonnegative_walks(depth, steps_of("0,1,2")) == expected
    if depth:
        c = census(depth, grades=2)
        assert c.ni == expected - 3**depth and c.nonsep == 9**depth + 3**depth - 2 * expected


# --- the proof obligation can fail ------------------------------------------

def test_binary_closed_form_obligation_notices_a_wrong_dp(monkeypatch):
    import workbench.core.lattice_paths as lattice_paths
    import workbench.scale.proofs as proofs
    from workbench.scale.proofs import ob_census_binary_closed_form

    real = lattice_paths.nonnegative_walks
    for module in (lattice_paths, proofs):  # the proof holds its own name for it
        monkeypatch.setattr(module, "nonnegative_walks", lambda k, steps: real(k, steps) + (k == 40))
    outcome = ob_census_binary_closed_form({"obligation": "census_binary_closed_form", "grades": 1})
    assert outcome.status == "unknown" and "fast DP at depth 40" in outcome.detail
