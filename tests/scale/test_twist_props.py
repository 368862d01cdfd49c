"""Ferro, Silvello, Keskustalo, Pirkola and Järvelin (2016), Prop. 1-3 beyond the enumerated scope of proofs/24-32, and the `bounds` proof method.

The oracle here is written from the paper, independent of workbench.measures.twist:
the ideal run (Def. 12), the full-scale run as the ideal run reversed
(Def. 14), min/max rank as the first/last position of a grade in the ideal run
(Def. 15), RP (Def. 1), CRP (Def. 2) and the recovery ratio with its crossing
set (Def. 3).  Random topics have RB up to 30 over up to 3 grades (zero counts
allowed), depths up to 200.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from workbench.measures.crp import curves
from workbench.errors import BadDepthError, WorkbenchError
from workbench.scale.proofs import Claim, ClaimFileError, load_claim, settle, settle_bounds
from workbench.space.runs import Topic
from workbench.space.spaces import rank_space
from workbench.scale.twist_props import check, topics

ROOT = Path(__file__).resolve().parents[2]
HALF = Fraction(1, 2)


# --- the paper, read naively ----------------------------------------------


def ideal(counts, n):
    """Def. 12: relevant documents by decreasing grade, then non-relevant ones."""
    docs = [g for g in range(len(counts), 0, -1) for _ in range(counts[g - 1])]
    return docs + [0] * (n - len(docs))


def full_scale(counts, n):
    """Def. 14: fs[j] = i[N - j + 1]."""
    return ideal(counts, n)[::-1]


def min_max_rank(counts, n):
    """Def. 15: first and last (1-based) position of each grade present in the ideal run."""
    i = ideal(counts, n)
    return {g: (i.index(g) + 1, n - i[::-1].index(g)) for g in set(i)}


def rp(run, counts):
    """Def. 1."""
    ranks, out = min_max_rank(counts, len(run)), []
    for j, g in enumerate(run, start=1):
        lo, hi = ranks[g]
        out.append(0 if lo <= j <= hi else (j - lo if j < lo else j - hi))
    return out


def crp(run, counts):
    """Def. 2."""
    out, total = [], 0
    for v in rp(run, counts):
        total += v
        out.append(total)
    return out


def rho(run, counts, strict=False):
    """Def. 3 (``strict``: the reading of the text under Def. 3)."""
    c, rb = crp(run, counts), sum(counts)
    if strict:
        x = [j for j in range(1, len(c)) if (c[j - 1] < 0 <= c[j]) or (c[j - 1] > 0 >= c[j])]
    else:
        x = [j for j in range(1, len(c)) if (c[j - 1] <= 0 <= c[j]) or (c[j - 1] >= 0 >= c[j])]
    return Fraction(rb, max(rb, min(x))) if x else Fraction(0)


def top_grade(counts):
    """max(REL): the highest grade with documents (Ferro et al. 2016, footnote 8)."""
    return max(g for g, n in enumerate(counts, start=1) if n)


def max_crp_over_all_runs(counts, n):
    """max over every run respecting the topic and every rank h of crp[h].

    Exact: crp[h] is a sum of per-rank terms, so a dynamic programme over the
    number of documents of each grade used so far gives the maximum at each h.
    """
    ranks = min_max_rank(counts, n)
    neg = -(10**9)
    best = np.full(tuple(k + 1 for k in counts), neg, dtype=np.int64)
    best[(0,) * len(counts)] = 0
    top = neg

    def term(g, j):
        lo, hi = ranks[g]
        return 0 if lo <= j <= hi else (j - lo if j < lo else j - hi)

    for j in range(1, n + 1):
        new = np.where(best > neg, best + term(0, j), neg)
        for g in range(1, len(counts) + 1):
            if counts[g - 1]:
                src = [slice(None)] * len(counts)
                dst = [slice(None)] * len(counts)
                src[g - 1], dst[g - 1] = slice(0, -1), slice(1, None)
                moved = np.where(best[tuple(src)] > neg, best[tuple(src)] + term(g, j), neg)
                new[tuple(dst)] = np.maximum(new[tuple(dst)], moved)
        best = new
        top = max(top, int(best.max()))
    return top


# --- strategies ------------------------------------------------------------


@st.composite
def topic_and_depth(draw, factor=2, max_rb=30, max_depth=200):
    c = draw(st.integers(1, 3))
    rb = draw(st.integers(1, max_rb))
    cuts = sorted(draw(st.lists(st.integers(0, rb), min_size=c - 1, max_size=c - 1)))
    counts = tuple(b - a for a, b in zip([0] + cuts, cuts + [rb]))
    n = draw(st.integers(factor * rb, max(factor * rb, max_depth)))
    return counts, n


@st.composite
def topic_depth_run(draw, factor=2):
    counts, n = draw(topic_and_depth(factor))
    used = [draw(st.integers(0, k)) for k in counts]
    docs = [g for g, k in enumerate(used, start=1) for _ in range(k)]
    run = draw(st.permutations(docs + [0] * (n - len(docs))))
    return counts, n, list(run)


def workbench_curves(run, counts, crossing="literal"):
    return curves([run], Topic(counts), crossing)


# --- the naive oracle agrees with the workbench -----------------------------


@settings(max_examples=60, deadline=None)
@given(topic_depth_run())
def test_naive_definitions_agree_with_workbench(case):
    counts, n, run = case
    c = workbench_curves(run, counts)
    assert c.rp[0].tolist() == rp(run, counts)
    assert c.crp[0].tolist() == crp(run, counts)
    assert workbench_curves(run, counts, "strict").recovery_ratio(0) == rho(run, counts, strict=True)
    assert c.recovery_ratio(0) == rho(run, counts)


# --- Prop. 1 and Prop. 2 (1), (2) closed form: hold -------------------------


@settings(max_examples=60, deadline=None)
@given(topic_depth_run())
def test_prop1_closed_form_and_bound_over_runs(case):
    counts, n, run = case
    rb, ranks, fs = sum(counts), min_max_rank(counts, n), rp(full_scale(counts, n), counts)
    top = top_grade(counts)
    assert min(fs) == fs[ranks[top][0] - 1] == -rb
    assert max(fs) == fs[ranks[0][1] - 1] == n - ranks[top][1]
    assert all(min(fs) <= v <= max(fs) for v in rp(run, counts))
    assert check("rp-bounds", Topic(counts), n, part="closed-form") == (1, None)


@settings(max_examples=60, deadline=None)
@given(topic_depth_run())
def test_prop2_lower_bound_closed_form_and_bound_over_runs(case):
    counts, n, run = case
    rb, fs = sum(counts), crp(full_scale(counts, n), counts)
    assert min(fs) == fs[rb - 1] == -rb * (rb + 1) // 2
    assert all(v >= min(fs) for v in crp(run, counts))
    assert check("crp-lower-bound", Topic(counts), n, part="closed-form") == (1, None)


@settings(max_examples=60, deadline=None)
@given(topic_and_depth())
def test_prop2_upper_closed_form(case):
    counts, n = case
    rb, ranks, fs = sum(counts), min_max_rank(counts, n), crp(full_scale(counts, n), counts)
    delta = {g: ranks[g][1] - ranks[g][0] + 1 for g in range(1, len(counts) + 1) if counts[g - 1]}
    paper = rb * (n - rb) - sum(d * sum(delta[k] for k in delta if k <= g) for g, d in delta.items())
    assert max(fs) == fs[-1] == paper
    assert check("crp-upper-bound", Topic(counts), n, part="closed-form") == (1, None)


# --- Prop. 2 (2) over all runs: fails exactly for N <= 2 RB + max_j n_j - 2 ----


def test_max_crp_dynamic_programme_agrees_with_enumeration():
    for c in (1, 2, 3):
        for t in topics(c, 1, 3):
            for n in range(2 * t.recall_base, 9):
                enumerated = max(int(curves(b, t).crp.max()) for _, b in rank_space(n, c, t).blocks())
                assert max_crp_over_all_runs(t.counts, n) == enumerated, (t, n)


def one_moved_into_place(counts, n):
    """fs with one document of the most numerous grade moved to its min rank (Def. 15)."""
    g = max(range(1, len(counts) + 1), key=lambda j: counts[j - 1])
    rb = sum(counts)
    tail = full_scale(counts, n)[n - rb:]
    tail.remove(g)
    run = [0] * (n - rb + 1) + tail
    run[min_max_rank(counts, n)[g][0] - 1] = g
    return run


@settings(max_examples=60, deadline=None)
@example(((2,), 4))
@example(((1, 1), 4))
@example(((2, 1, 1), 9))
@given(topic_and_depth())
def test_prop2_upper_bound_over_runs_fails_exactly_below_2rb_plus_nmax_minus_1(case):
    counts, drawn = case
    rb, edge = sum(counts), 2 * sum(counts) + max(counts) - 1  # the first depth where the bound holds
    for n in sorted({2 * rb, max(2 * rb, edge - 1), edge, drawn}):
        fs_max = max(crp(full_scale(counts, n), counts))
        assert (max_crp_over_all_runs(counts, n) > fs_max) == (n < edge), (counts, n)
        run = one_moved_into_place(counts, n)
        assert sorted(run) == sorted(ideal(counts, n))
        assert crp(run, counts)[-1] - fs_max == 2 * rb - n + max(counts) - 1
        assert workbench_curves(run, counts).crp[0].tolist() == crp(run, counts)


@settings(max_examples=60, deadline=None)
@given(topic_depth_run())
def test_prop2_upper_bound_holds_for_random_runs_from_2rb_plus_nmax_minus_1(case):
    counts, n, run = case
    if n >= 2 * sum(counts) + max(counts) - 1:
        assert max(crp(run, counts)) <= max(crp(full_scale(counts, n), counts))


# --- Prop. 3: fails exactly at N = 3 RB with RB <= 2 --------------------------


@settings(max_examples=100, deadline=None)
@example(((1,), 3))
@example(((1, 1), 6))
@example(((0, 2, 0), 6))
@example(((0, 0, 3), 9))
@given(topic_and_depth(factor=3))
def test_prop3_fails_exactly_at_3rb_for_rb_up_to_2(case):
    counts, n = case
    rb, fs = sum(counts), full_scale(counts, n)
    for strict, crossing in ((False, "literal"), (True, "strict")):
        r = rho(fs, counts, strict)
        assert (r >= HALF) == (n == 3 * rb and rb <= 2)
        assert r <= HALF
        _, witness = check("fs-recovery-below-half", Topic(counts), n, crossing=crossing)
        assert (witness is None) == (r < HALF)


def test_prop3_characterisation_exhaustive_small():
    for c in (1, 2, 3):
        for t in topics(c, 1, 8):
            rb = t.recall_base
            for n in range(3 * rb, 3 * rb + 12):
                for strict in (False, True):
                    r = rho(full_scale(t.counts, n), t.counts, strict)
                    assert (r >= HALF) == (n == 3 * rb and rb <= 2), (t, n, strict)


# --- the refuted claims' witnesses are real violations ----------------------


def settled(name):
    return settle(load_claim(ROOT / "proofs" / name))


def test_crp_upper_bound_witness_is_a_real_violation():
    out = settled("29-twist-crp-upper-bound-all-runs.toml")
    assert out.status == "refuted"
    w = out.witness
    counts, n, run = tuple(w["topic"]), w["depth"], [int(ch) for ch in w["run"]]
    assert len(run) == n and all(run.count(g) <= k for g, k in enumerate(counts, start=1))
    mine, fs = crp(run, counts), crp(full_scale(counts, n), counts)
    assert w["crp"] == mine and w["crp_fs"] == fs
    assert mine[w["rank"] - 1] > max(fs)
    assert (w["topic"], n, w["run"], w["rank"], mine[w["rank"] - 1], max(fs)) == ([2], 4, "1001", 4, 1, 0)


@pytest.mark.parametrize("name, strict", [("30-twist-fs-recovery-below-half.toml", False),
                                          ("31-twist-fs-recovery-below-half-strict.toml", True)])
def test_fs_recovery_witness_is_a_real_violation(name, strict):
    out = settled(name)
    assert out.status == "refuted"
    w = out.witness
    counts, n = tuple(w["topic"]), w["depth"]
    assert [int(ch) for ch in w["run"]] == full_scale(counts, n)
    assert n >= 3 * sum(counts)
    assert rho(full_scale(counts, n), counts, strict) == Fraction(w["recovery_ratio"]) == HALF
    assert (w["topic"], n, w["run"]) == ([1], 3, "001")


# --- the `bounds` method ------------------------------------------------------


BASE = {"property": "crp-lower-bound", "part": "all-runs", "grades": 1, "max_recall_base": 2, "depths": "2..4"}


def test_bounds_counts_exactly_the_runs_of_the_scope():
    # RB 1: N = 2, 3, 4 (3 + 4 + 5 runs); RB 2: N = 4 (1 + 4 + 6 runs)
    out = settle_bounds(BASE)
    assert out.status == "proved" and "23 runs checked" in out.bound
    assert sum(rank_space(n, 1, Topic((k,))).size for k in (1, 2) for n in range(2 * k, 5)) == 23


@pytest.mark.parametrize("change, error", [
    ({"property": "crp-sideways"}, ClaimFileError),
    ({"part": "both"}, ClaimFileError),
    ({"depths": "5..2"}, BadDepthError),
    ({"depths": "2..3"}, ClaimFileError),          # no depth N >= 2 RB for RB = 2
    ({"min_depth_factor": 1}, ClaimFileError),     # the full-scale run needs N >= 2 RB
    ({"max_recall_base": 0}, ClaimFileError),
    ({"grades": 0}, ClaimFileError),
    ({"property": "fs-recovery-below-half", "crossing": "sideways"}, WorkbenchError),
])
def test_bounds_rejects_a_malformed_scope(change, error):
    with pytest.raises(error):
        settle_bounds({**BASE, **change})
    assert issubclass(error, WorkbenchError)


def test_bounds_scope_missing_a_key_is_a_claim_file_error():
    claim = Claim("x", "s", "Ferro et al. (2016)", "proved", "bounds", {k: v for k, v in BASE.items() if k != "part"})
    with pytest.raises(ClaimFileError, match="part"):
        settle(claim)
