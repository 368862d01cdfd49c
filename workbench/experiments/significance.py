"""Multiple comparisons over a topics x systems score matrix (Ferrante, Ferro and Losiouk 2020, RQ2).

How many system pairs does a measure call significantly different?  Ferrante et al. (2020)
(sec. 5.3, Tables 3-4) counts them with Tukey's Honestly Significant
Difference (HSD) test at ``alpha = 0.05``, once after the Kruskal-Wallis test
(on ranks: fit for ordinal and interval scales) and once after one-way ANOVA
(on the scores themselves: fit for interval scales only).  The systems are
the groups, the topics their observations: ``S`` groups of ``T`` scores.

What is computed
----------------
*ANOVA + HSD* (:func:`anova_tukey`): the omnibus test is
:func:`scipy.stats.f_oneway` over the ``S`` columns; the pairwise test is
Tukey's HSD: for systems ``i, j`` with mean scores ``m_i, m_j``,
``q = |m_i - m_j| / sqrt(MSE / T)`` with the pooled within-system mean square
``MSE`` on ``T S - S`` degrees of freedom, and the p-value is the upper tail
of the studentized range distribution with ``S`` groups and ``T S - S``
degrees of freedom -- the p-values of :func:`scipy.stats.tukey_hsd`, computed
for the ``S (S - 1) / 2`` pairs only (``tukey_hsd`` evaluates all ``S^2``
cells, each a numerical integral).  This is MATLAB's ``multcompare`` after
``anova1`` (its default ``'tukey-kramer'`` is the HSD for equal group sizes).

*Kruskal-Wallis + HSD* (:func:`kruskal_tukey`): all ``N = T S`` scores are
pooled and ranked (ties get their average rank); the omnibus test is
:func:`scipy.stats.kruskal` (tie-corrected ``H``, chi-squared on ``S - 1``
degrees of freedom).  The pairwise test is the one MATLAB's ``multcompare``
performs on ``kruskalwallis`` statistics: Tukey's HSD on the *mean ranks*
``R_i`` with the *known* variance of a single average rank,

    ``sigma^2 = N (N + 1) / 12 - sum(t^3 - t) / (12 (N - 1))``

(``t`` the sizes of the tie groups of the pooled ranking) in place of an
estimated ``MSE``, hence infinite degrees of freedom:
``q = |R_i - R_j| / sqrt(sigma^2 / T)`` and ``p = P(Q_{S, inf} >= q)``.
This is the Nemenyi / Dunn large-sample comparison of mean ranks with the
studentized range critical value; it is *not* :func:`scipy.stats.tukey_hsd`
on the rank-transformed data (which would estimate the variance within
groups and use ``N - S`` degrees of freedom).

In both cases a pair is significant iff ``p < alpha`` (equivalently, its HSD
confidence interval excludes 0, MATLAB's criterion), and the pairwise tests
are *not* gated on the omnibus test (as in ``multcompare`` and Ferrante et al. 2020).

Degenerate inputs.  If every score is the same, nothing is significant: the
omnibus statistic is ``nan`` with p-value 1 and every pair has ``p = 1``.  If
only the ANOVA error term vanishes (every system constant over topics, means
not all equal), ``F = inf`` with p-value 0, and a pair is significant
(``p = 0``) iff its means differ.  Fewer than two topics or systems, a
non-finite score, or system names that are missing or repeated raise
:class:`BadScoreMatrixError`.

References
----------
Ferrante, Ferro, Fuhr, "Towards meaningful statements in IR evaluation:
mapping evaluation measures to interval scales", IRJ 2020, sec. 5.3,
Tables 3-4.  Tukey (1949); Kruskal and Wallis (1952); Dunn (1964),
"Multiple comparisons using rank sums", Technometrics 6(3).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from workbench.errors import BadScoreMatrixError, WorkbenchError
from workbench.core.table import Table

SIGNIFICANCE_HEADER = ("Measure", "Kruskal-Wallis + HSD", "ANOVA + HSD")
KRUSKAL = "kruskal-wallis+hsd"
ANOVA = "anova+hsd"



# ---------------------------------------------------------------- input
def check_score_matrix(values, systems: Sequence[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """``values`` as a float64 ``(T, S)`` array and ``systems`` as a tuple, or a one-line error.

    >>> check_score_matrix([[0.1, 0.2], [0.3, 0.4]], ["A", "B"])[0].shape
    (2, 2)
    >>> check_score_matrix([[0.1, float("nan")], [0.3, 0.4]], ["A", "B"])
    Traceback (most recent call last):
    ...
    workbench.errors.BadScoreMatrixError: score matrix: value nan at topic row 0, system 'B' is not finite

    References
    ----------
    docs/reference/cli.md (bad input: one line naming the bad value).
    """
    try:
        arr = np.array(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise BadScoreMatrixError(f"score matrix: not a numeric array ({exc})") from None
    if arr.ndim != 2:
        raise BadScoreMatrixError(f"score matrix: expected 2 dimensions (topics x systems), got shape {arr.shape}")
    t, s = arr.shape
    if t < 2:
        raise BadScoreMatrixError(f"score matrix: {t} topic(s), at least 2 are needed")
    if s < 2:
        raise BadScoreMatrixError(f"score matrix: {s} system(s), at least 2 are needed")
    names = tuple(systems)
    if len(names) != s:
        raise BadScoreMatrixError(f"score matrix: {len(names)} system names for {s} columns")
    for name in names:
        if not isinstance(name, str):
            raise BadScoreMatrixError(f"score matrix: system name {name!r} is not a string")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise BadScoreMatrixError(f"score matrix: system name {name!r} is repeated")
        seen.add(name)
    bad = np.argwhere(~np.isfinite(arr))
    if len(bad):
        i, j = (int(x) for x in bad[0])
        raise BadScoreMatrixError(
            f"score matrix: value {arr[i, j]} at topic row {i}, system {names[j]!r} is not finite")
    arr.setflags(write=False)
    return arr, names


def _check_alpha(alpha: float) -> float:
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise WorkbenchError(f"alpha {alpha!r}: expected a number strictly between 0 and 1")
    return float(alpha)


# ---------------------------------------------------------------- results
@dataclass(frozen=True)
class PairDecision:
    """One system pair: ``diff`` = mean of ``a`` minus mean of ``b`` (scores for ANOVA, ranks for KW)."""

    a: str
    b: str
    diff: float
    p_value: float
    significant: bool


@dataclass(frozen=True)
class MultipleComparison:
    """An omnibus test and Tukey's HSD over all ``S (S - 1) / 2`` system pairs (in system order)."""

    test: str
    omnibus_statistic: float
    omnibus_p: float
    pairs: tuple[PairDecision, ...]
    significant: int
    total: int
    alpha: float = 0.05

    @property
    def ratio(self) -> float:
        """Significant pairs over all pairs (the percentage of Ferrante et al. 2020, as a fraction)."""
        return self.significant / self.total


def _result(test, stat, p, names, diffs, pvals, alpha) -> MultipleComparison:
    s = len(names)
    pairs = tuple(
        PairDecision(names[i], names[j], float(diffs[i, j]), float(pvals[i, j]), bool(pvals[i, j] < alpha))
        for i in range(s) for j in range(i + 1, s))
    return MultipleComparison(test, float(stat), float(p), pairs,
                              sum(pd.significant for pd in pairs), len(pairs), alpha)


# ---------------------------------------------------------------- tests
def anova_tukey(values, systems: Sequence[str], alpha: float = 0.05) -> MultipleComparison:
    """One-way ANOVA over the systems, then Tukey's HSD on the mean scores (Ferrante et al. 2020, Tables 3-4).

    Parameters
    ----------
    values : array of shape (T, S)
        Scores, one row per topic, one column per system.
    systems : sequence of str
        The ``S`` system names, in column order.
    alpha : float
        Significance level of the HSD decisions.

    Returns
    -------
    MultipleComparison
        ``test == "anova+hsd"``; each pair's ``diff`` is a difference of mean scores.

    Examples
    --------
    >>> base = np.array([0.1, 0.4, 0.2, 0.5, 0.3, 0.6])
    >>> mc = anova_tukey(np.column_stack([base, base, base + 1.0]), ["A", "B", "C"])
    >>> [(p.a, p.b, p.significant) for p in mc.pairs]
    [('A', 'B', False), ('A', 'C', True), ('B', 'C', True)]
    >>> mc.significant, mc.total
    (2, 3)

    References
    ----------
    Ferrante et al., IRJ 2020, sec. 5.3; Tukey (1949).
    """
    # scipy.stats is slow to load (~1 s); only these statistics use it
    from scipy import stats

    arr, names = check_score_matrix(values, systems)
    alpha = _check_alpha(alpha)
    means = arr.mean(axis=0)
    diffs = means[:, None] - means[None, :]
    if np.all(arr == arr[0]):                      # every system constant over topics: MSE = 0
        if np.all(means == means[0]):
            return _result(ANOVA, np.nan, 1.0, names, diffs, np.ones_like(diffs), alpha)
        return _result(ANOVA, np.inf, 0.0, names, diffs, np.where(diffs == 0, 1.0, 0.0), alpha)
    t, s = arr.shape
    omnibus = stats.f_oneway(*(arr[:, j] for j in range(s)))
    mse = float(np.sum((arr - means) ** 2)) / (t * s - s)
    iu = np.triu_indices(s, k=1)                   # the studentized range tail is costly: pairs only
    pvals = np.ones_like(diffs)
    pvals[iu] = stats.studentized_range.sf(np.abs(diffs[iu]) / np.sqrt(mse / t), s, t * s - s)
    pvals = np.clip(pvals, 0.0, 1.0)
    return _result(ANOVA, omnibus.statistic, omnibus.pvalue, names, diffs, pvals, alpha)


def pooled_ranks(values) -> tuple[np.ndarray, float]:
    """Average ranks (1-based) of all ``T S`` scores pooled, and the tie sum ``sum(t^3 - t)``.

    >>> r, ties = pooled_ranks(np.array([[1.0, 2.0], [2.0, 5.0]]))
    >>> r.tolist(), ties
    ([[1.0, 2.5], [2.5, 4.0]], 6.0)

    References
    ----------
    Kruskal and Wallis (1952), tie correction; Ferrante et al. (2020), sec. 5.3.
    """
    # scipy.stats is slow to load (~1 s); only these statistics use it
    from scipy import stats

    arr = np.asarray(values, dtype=np.float64)
    ranks = stats.rankdata(arr.ravel(), method="average").reshape(arr.shape)
    _, counts = np.unique(arr.ravel(), return_counts=True)
    counts = counts.astype(np.float64)
    return ranks, float(np.sum(counts ** 3 - counts))


def kruskal_tukey(values, systems: Sequence[str], alpha: float = 0.05) -> MultipleComparison:
    """Kruskal-Wallis over the systems, then Tukey's HSD on the mean ranks (MATLAB ``multcompare``).

    All ``N = T S`` scores are ranked together (average ranks for ties).  A pair
    ``i, j`` has ``q = |R_i - R_j| / sqrt(sigma^2 / T)`` with ``R`` the mean
    ranks and ``sigma^2 = N (N + 1) / 12 - sum(t^3 - t) / (12 (N - 1))``, and
    ``p = P(Q >= q)`` for the studentized range ``Q`` of ``S`` groups with
    infinite degrees of freedom (see the module docstring).

    Parameters
    ----------
    values : array of shape (T, S)
        Scores, one row per topic, one column per system.
    systems : sequence of str
        The ``S`` system names, in column order.
    alpha : float
        Significance level of the HSD decisions.

    Returns
    -------
    MultipleComparison
        ``test == "kruskal-wallis+hsd"``; each pair's ``diff`` is a difference of mean ranks.

    Examples
    --------
    >>> base = np.arange(10.0)
    >>> mc = kruskal_tukey(np.column_stack([base, base, base + 100.0]), ["A", "B", "C"])
    >>> [(p.a, p.b, p.diff, p.significant) for p in mc.pairs]
    [('A', 'B', 0.0, False), ('A', 'C', -15.0, True), ('B', 'C', -15.0, True)]

    References
    ----------
    Ferrante et al., IRJ 2020, sec. 5.3; Kruskal and Wallis (1952); Dunn (1964).
    """
    # scipy.stats is slow to load (~1 s); only these statistics use it
    from scipy import stats

    arr, names = check_score_matrix(values, systems)
    alpha = _check_alpha(alpha)
    t, s = arr.shape
    n = t * s
    ranks, ties = pooled_ranks(arr)
    mean_ranks = ranks.mean(axis=0)
    diffs = mean_ranks[:, None] - mean_ranks[None, :]
    sigma2 = n * (n + 1) / 12.0 - ties / (12.0 * (n - 1))
    if np.all(arr == arr.flat[0]):                 # one tie group: no ranking information at all
        return _result(KRUSKAL, np.nan, 1.0, names, diffs, np.ones_like(diffs), alpha)
    omnibus = stats.kruskal(*(arr[:, j] for j in range(s)))
    q = np.abs(diffs) / np.sqrt(sigma2 / t)
    iu = np.triu_indices(s, k=1)                   # the studentized range tail is costly: pairs only (as ANOVA)
    pvals = np.ones_like(diffs)
    pvals[iu] = stats.studentized_range.sf(q[iu], s, np.inf)
    pvals = np.clip(pvals, 0.0, 1.0)
    return _result(KRUSKAL, omnibus.statistic, omnibus.pvalue, names, diffs, pvals, alpha)


# ---------------------------------------------------------------- comparing decisions
@dataclass(frozen=True)
class PairChange:
    """A pair decided differently: ``kind`` is ``"first"``/``"second"`` (significant only there) or ``"opposite"``."""

    a: str
    b: str
    kind: str
    first: PairDecision
    second: PairDecision


@dataclass(frozen=True)
class DecisionChanges:
    """The pairs two multiple comparisons decide differently, with counts by kind."""

    changes: tuple[PairChange, ...]
    first_only: int
    second_only: int
    opposite: int
    total: int

    @property
    def count(self) -> int:
        """Number of pairs decided differently."""
        return len(self.changes)


def decision_changes(mc1: MultipleComparison, mc2: MultipleComparison) -> DecisionChanges:
    """System pairs that two measures (or a measure and its interval version) decide differently.

    A pair changes if it is significant under one comparison and not the other
    (``kind`` ``"first"`` or ``"second"``), or significant under both with
    differences of opposite sign (``"opposite"``).  Both comparisons must cover
    the same systems in the same order.

    >>> x = np.array([[0.1, 0.5], [0.2, 0.6], [0.3, 0.7]])
    >>> dc = decision_changes(anova_tukey(x, ["A", "B"]), anova_tukey(x[:, ::-1], ["A", "B"]))
    >>> dc.count, dc.opposite, dc.changes[0].kind
    (1, 1, 'opposite')

    References
    ----------
    Ferrante et al., IRJ 2020, sec. 5.3; docs/howto/real-runs.md (``--transform``).
    """
    keys1 = [(p.a, p.b) for p in mc1.pairs]
    keys2 = [(p.a, p.b) for p in mc2.pairs]
    if keys1 != keys2:
        diff = next((k for k, m in zip(keys1, keys2) if k != m), None) or (
            keys1[len(keys2)] if len(keys1) > len(keys2) else keys2[len(keys1)])
        raise WorkbenchError(f"decision_changes: the comparisons cover different system pairs (first mismatch {diff})")
    changes = []
    for p, r in zip(mc1.pairs, mc2.pairs):
        if p.significant and not r.significant:
            kind = "first"
        elif r.significant and not p.significant:
            kind = "second"
        elif p.significant and r.significant and np.sign(p.diff) != np.sign(r.diff):
            kind = "opposite"
        else:
            continue
        changes.append(PairChange(p.a, p.b, kind, p, r))
    kinds = [c.kind for c in changes]
    return DecisionChanges(tuple(changes), kinds.count("first"), kinds.count("second"),
                           kinds.count("opposite"), len(keys1))


# ---------------------------------------------------------------- tables
def format_count(mc: MultipleComparison) -> str:
    """``"1,566 (18.97%)"``: significant pairs and their percentage of all pairs, as in Ferrante et al. (2020).

    >>> format_count(MultipleComparison("anova+hsd", 0.0, 1.0, (), 1566, 8256))
    '1,566 (18.97%)'

    References
    ----------
    Ferrante et al., IRJ 2020, Tables 3-4.
    """
    return f"{mc.significant:,} ({100.0 * mc.ratio:.2f}%)"


def significance_table(named: Mapping[str, tuple[MultipleComparison, MultipleComparison]]) -> list[tuple[str, str, str]]:
    """Rows ``(measure, KW+HSD cell, ANOVA+HSD cell)`` of a Ferrante et al. (2020), Table 3/4, in ``named``'s order.

    Each value is the pair of comparisons of one measure, in either order (they
    are told apart by their ``test``); the header is :data:`SIGNIFICANCE_HEADER`.

    >>> x = np.column_stack([np.arange(8.0), np.arange(8.0), np.arange(8.0) + 50])
    >>> s = ["A", "B", "C"]
    >>> significance_table({"P": (kruskal_tukey(x, s), anova_tukey(x, s))})
    [('P', '2 (66.67%)', '2 (66.67%)')]

    References
    ----------
    Ferrante et al., IRJ 2020, Tables 3-4.
    """
    rows = []
    for measure, pair in named.items():
        try:
            by_test = {mc.test: mc for mc in pair}
        except (TypeError, AttributeError):
            raise WorkbenchError(f"significance_table: {measure!r} is not a pair of MultipleComparison") from None
        if set(by_test) != {KRUSKAL, ANOVA} or len(pair) != 2:
            raise WorkbenchError(
                f"significance_table: {measure!r} needs one {KRUSKAL} and one {ANOVA} comparison, got {sorted(by_test)}")
        rows.append((measure, format_count(by_test[KRUSKAL]), format_count(by_test[ANOVA])))
    return rows


def significance_markdown(named: Mapping[str, tuple[MultipleComparison, MultipleComparison]]) -> str:
    """:func:`significance_table` as a Markdown table with :data:`SIGNIFICANCE_HEADER`.

    >>> x = np.column_stack([np.arange(8.0), np.arange(8.0) + 50])
    >>> print(significance_markdown({"P": (kruskal_tukey(x, "AB"), anova_tukey(x, "AB"))}))
    | Measure | Kruskal-Wallis + HSD | ANOVA + HSD |
    | --- | --- | --- |
    | P | 1 (100.00%) | 1 (100.00%) |

    References
    ----------
    Ferrante et al., IRJ 2020, Tables 3-4.
    """
    return "\n".join(Table(SIGNIFICANCE_HEADER, significance_table(named), rule="spaced").markdown_lines())
