"""Multiple comparisons over topics x systems matrices (workbench.experiments.significance, Ferrante, Ferro and Losiouk 2020, sec. 5.3).

Expected values come from construction (identical systems, one system shifted
far above the others, monotone transformations that leave ranks alone), from
brute-force loops over pairs, from scipy's own ``tukey_hsd`` / ``kruskal`` /
``f_oneway``, from hand-written formulas (average ranks by a quadratic loop,
H and F by their textbook definitions) and from the studentized range
distribution integrated numerically.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

from workbench.errors import WorkbenchError
from workbench.experiments.significance import (
    ANOVA,
    KRUSKAL,
    SIGNIFICANCE_HEADER,
    BadScoreMatrixError,
    MultipleComparison,
    PairDecision,
    anova_tukey,
    decision_changes,
    kruskal_tukey,
    significance_markdown,
    significance_table,
)

TESTS = (anova_tukey, kruskal_tukey)


def names(s: int) -> list[str]:
    return [f"sys{j}" for j in range(s)]


def slow_average_ranks(flat: list[float]) -> list[float]:
    """Average 1-based ranks by counting: rank = #smaller + (#equal + 1) / 2."""
    return [sum(y < x for y in flat) + (sum(y == x for y in flat) + 1) / 2 for x in flat]


def range_sf_infinite_df(q: float, k: int) -> float:
    """P(range of k iid standard normals >= q) = 1 - k int phi(z) (Phi(z) - Phi(z - q))^(k-1) dz."""
    f = lambda z: k * stats.norm.pdf(z) * (stats.norm.cdf(z) - stats.norm.cdf(z - q)) ** (k - 1)
    return 1.0 - integrate.quad(f, -np.inf, np.inf, epsabs=1e-13, epsrel=1e-12)[0]


# ---------------------------------------------------------------- by construction
@pytest.mark.parametrize("test", TESTS)
def test_identical_systems_nothing_significant(test):
    base = np.random.default_rng(1).random(12)
    mc = test(np.column_stack([base] * 4), names(4))
    assert mc.significant == 0 and mc.total == 6 and mc.ratio == 0.0
    assert all(p.diff == 0.0 and p.p_value == pytest.approx(1.0) and not p.significant for p in mc.pairs)


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("shifted", [0, 2, 4])
def test_one_shifted_system_exactly_its_pairs(test, shifted):
    t, s = 15, 5
    base = np.random.default_rng(shifted).random(t)
    x = np.column_stack([base] * s)
    x[:, shifted] += 10.0
    mc = test(x, names(s))
    sig = {(p.a, p.b) for p in mc.pairs if p.significant}
    expected = {tuple(sorted((f"sys{shifted}", f"sys{j}"))) for j in range(s) if j != shifted}
    assert sig == expected and mc.significant == s - 1
    for p in mc.pairs:                            # the shifted system is the better one
        if p.significant:
            sign = 1 if p.a == f"sys{shifted}" else -1
            n = t * s
            want = 10.0 if test is anova_tukey else n / 2  # mean ranks: all T on top vs ties below
            assert sign * p.diff == pytest.approx(want)


@pytest.mark.parametrize("test", TESTS)
def test_shifted_system_with_noise_is_separated(test):
    rng = np.random.default_rng(7)
    x = rng.random((25, 4))
    x[:, 1] += 3.0
    mc = test(x, names(4))
    for p in mc.pairs:
        if "sys1" in (p.a, p.b):
            assert p.significant and p.p_value < 1e-6


def test_monotone_transformation_leaves_kruskal_unchanged():
    x = np.round(np.random.default_rng(3).random((10, 4)), 1)    # ties on purpose
    a, b = kruskal_tukey(x, names(4)), kruskal_tukey(np.exp(3 * x) - 7, names(4))
    assert a == b
    assert decision_changes(a, b).count == 0


# ---------------------------------------------------------------- against independent computations
@pytest.mark.parametrize("seed", [0, 1])
def test_anova_against_scipy_tukey_hsd_and_textbook_f(seed):
    rng = np.random.default_rng(seed)
    t, s = 8, 4
    x = rng.random((t, s)) + np.array([0.0, 0.1, 0.5, 0.55])
    mc = anova_tukey(x, names(s))
    hsd = stats.tukey_hsd(*x.T)
    for (i, j), p in zip(itertools.combinations(range(s), 2), mc.pairs):
        assert (p.a, p.b) == (f"sys{i}", f"sys{j}")
        assert p.diff == pytest.approx(hsd.statistic[i, j], abs=1e-14)
        assert p.p_value == pytest.approx(hsd.pvalue[i, j], rel=1e-9, abs=1e-12)
    grand = x.mean()
    ssb = sum(t * (x[:, j].mean() - grand) ** 2 for j in range(s))
    ssw = sum((x[i, j] - x[:, j].mean()) ** 2 for i in range(t) for j in range(s))
    f = (ssb / (s - 1)) / (ssw / (t * s - s))
    assert mc.omnibus_statistic == pytest.approx(f, rel=1e-12)
    assert mc.omnibus_p == pytest.approx(stats.f.sf(f, s - 1, t * s - s), rel=1e-9)


@pytest.mark.parametrize("seed", [0, 5])
@pytest.mark.slow
def test_kruskal_against_slow_ranks_formula_and_integral(seed):
    rng = np.random.default_rng(seed)
    t, s = 7, 4
    x = np.round(rng.random((t, s)) + np.array([0.0, 0.0, 0.3, 0.6]), 1)   # many ties
    n = t * s
    ranks = np.array(slow_average_ranks(x.ravel().tolist())).reshape(t, s)
    rbar = ranks.mean(axis=0)
    # the HSD's sigma^2 is the sample variance of the pooled average ranks
    sigma2 = float(np.var(ranks, ddof=1))
    # H from its definition, tie-corrected by the variance of the average ranks
    h = (n - 1) * sum(t * (rbar[j] - (n + 1) / 2) ** 2 for j in range(s)) / (sigma2 * (n - 1))
    mc = kruskal_tukey(x, names(s))
    assert mc.test == KRUSKAL
    assert mc.omnibus_statistic == pytest.approx(h, rel=1e-12)
    assert mc.omnibus_statistic == pytest.approx(stats.kruskal(*x.T).statistic, rel=1e-12)
    assert mc.omnibus_p == pytest.approx(stats.chi2.sf(h, s - 1), rel=1e-9)
    for (i, j), p in zip(itertools.combinations(range(s), 2), mc.pairs):
        assert p.diff == pytest.approx(rbar[i] - rbar[j], abs=1e-12)
        q = abs(rbar[i] - rbar[j]) / math.sqrt(sigma2 / t)
        assert p.p_value == pytest.approx(range_sf_infinite_df(q, s), abs=1e-8)


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
def test_counts_match_brute_force_loop(test, alpha):
    rng = np.random.default_rng(11)
    x = rng.random((10, 5)) + np.linspace(0, 0.6, 5)
    mc = test(x, names(5), alpha=alpha)
    count = 0
    for p in mc.pairs:
        count += p.p_value < alpha
        assert p.significant == (p.p_value < alpha)
    assert mc.significant == count and mc.total == math.comb(5, 2) == len(mc.pairs)
    assert mc.alpha == alpha and mc.ratio == count / 10


def test_more_significant_pairs_at_larger_alpha():
    x = np.random.default_rng(2).random((10, 5)) + np.linspace(0, 0.5, 5)
    for test in TESTS:
        counts = [test(x, names(5), alpha=a).significant for a in (0.001, 0.01, 0.05, 0.2, 0.5)]
        assert counts == sorted(counts)


# ---------------------------------------------------------------- degenerate and bad input
@pytest.mark.parametrize("test", TESTS)
def test_all_scores_equal(test):
    mc = test(np.full((4, 3), 0.25), names(3))
    assert math.isnan(mc.omnibus_statistic) and mc.omnibus_p == 1.0
    assert mc.significant == 0 and all(p.p_value == 1.0 for p in mc.pairs)


def test_anova_zero_error_variance_distinct_means():
    x = np.tile([0.1, 0.1, 0.7], (5, 1))          # every system constant over topics
    mc = anova_tukey(x, ["A", "B", "C"])
    assert mc.omnibus_statistic == math.inf and mc.omnibus_p == 0.0
    assert [(p.a, p.b, p.significant) for p in mc.pairs] == [
        ("A", "B", False), ("A", "C", True), ("B", "C", True)]


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("values, systems, message", [
    ([[0.1, 0.2]], ["A", "B"], "1 topic(s)"),
    ([[0.1], [0.2]], ["A"], "1 system(s)"),
    ([[0.1, 0.2], [0.3, math.inf]], ["A", "B"], "value inf at topic row 1, system 'B'"),
    ([[0.1, 0.2], [0.3, 0.4]], ["A"], "1 system names for 2 columns"),
    ([[0.1, 0.2], [0.3, 0.4]], ["A", "A"], "'A' is repeated"),
    ([0.1, 0.2], ["A", "B"], "shape (2,)"),
    ([["a", "b"], ["c", "d"]], ["A", "B"], "not a numeric array"),
])
def test_bad_matrices(test, values, systems, message):
    with pytest.raises(BadScoreMatrixError, match=None) as err:
        test(values, systems)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert isinstance(err.value, WorkbenchError)


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, "0.05"])
def test_bad_alpha(alpha):
    with pytest.raises(WorkbenchError, match="alpha"):
        anova_tukey(np.eye(3), names(3), alpha=alpha)


# ---------------------------------------------------------------- decision changes
def comparison(decisions: list[tuple[float, bool]], test: str = ANOVA) -> MultipleComparison:
    keys = list(itertools.combinations("ABC", 2))
    pairs = tuple(PairDecision(a, b, d, 0.01 if s else 0.5, s) for (a, b), (d, s) in zip(keys, decisions))
    return MultipleComparison(test, 1.0, 0.5, pairs, sum(s for _, s in decisions), len(pairs))


def test_decision_changes_kinds():
    first = comparison([(0.3, True), (0.2, False), (-0.4, True)])
    second = comparison([(0.3, False), (0.2, True), (0.4, True)])
    dc = decision_changes(first, second)
    assert [(c.a, c.b, c.kind) for c in dc.changes] == [("A", "B", "first"), ("A", "C", "second"),
                                                        ("B", "C", "opposite")]
    assert (dc.first_only, dc.second_only, dc.opposite, dc.count, dc.total) == (1, 1, 1, 3, 3)
    same = decision_changes(first, first)
    assert same.count == 0 and same.total == 3


def test_decision_changes_brute_force_on_real_tests():
    rng = np.random.default_rng(4)
    x = rng.random((12, 6)) + np.linspace(0, 0.5, 6)
    a, k = anova_tukey(x, names(6)), kruskal_tukey(x, names(6))
    dc = decision_changes(a, k)
    want = {(p.a, p.b) for p, r in zip(a.pairs, k.pairs)
            if p.significant != r.significant or (p.significant and (p.diff > 0) != (r.diff > 0))}
    assert {(c.a, c.b) for c in dc.changes} == want
    assert dc.first_only - dc.second_only == a.significant - k.significant


def test_decision_changes_needs_same_pairs():
    with pytest.raises(WorkbenchError, match="different system pairs"):
        decision_changes(anova_tukey(np.eye(3), ["A", "B", "C"]), anova_tukey(np.eye(3), ["A", "B", "D"]))


# ---------------------------------------------------------------- tables
def test_significance_table_formats_like_seed_000():
    kw = MultipleComparison(KRUSKAL, 1.0, 0.1, (), 1566, 8256)
    an = MultipleComparison(ANOVA, 1.0, 0.1, (), 2785, 8256)
    rows = significance_table({"Precision": (an, kw), "SBTO": (kw, an)})    # either order
    assert rows == [("Precision", "1,566 (18.97%)", "2,785 (33.73%)"),
                    ("SBTO", "1,566 (18.97%)", "2,785 (33.73%)")]
    md = significance_markdown({"P": (kw, an)}).splitlines()
    assert md[0] == "| " + " | ".join(SIGNIFICANCE_HEADER) + " |"
    assert md[2] == "| P | 1,566 (18.97%) | 2,785 (33.73%) |"


def test_significance_table_rejects_two_of_a_kind():
    an = MultipleComparison(ANOVA, 1.0, 0.1, (), 1, 3)
    with pytest.raises(WorkbenchError, match="'P' needs one"):
        significance_table({"P": (an, an)})
