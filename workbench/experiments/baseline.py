"""Runs against a baseline: per system and measure the mean, the difference to the baseline and a paired test.

The table of ``pt.Experiment(..., baseline=0)`` (PyTerrier) and
``ranx.compare``: for every measure (one
:class:`~workbench.data.score_matrix.ScoreMatrix`) and every system, the mean
score over the matrix's topics, its difference to the baseline's mean, the
number of topics on which the system scores above (``+``) and below (``-``)
the baseline, and the p-value of a paired test over the topics.

* **Exact where it can be.**  ``+`` and ``-`` are counted from the exact
  per-topic order of the systems (:meth:`ScoreMatrix.topic_signs`): a tie is
  a tie, however the floats round.  Means, differences and p-values are
  statistics of the float copy (:attr:`ScoreMatrix.floats`).
* **Tests.**  ``"t"``: Student's paired t-test (:func:`scipy.stats.ttest_rel`,
  two-sided); ``"wilcoxon"``: the Wilcoxon signed-rank test
  (:func:`scipy.stats.wilcoxon`, two-sided, zero differences dropped).  A
  system whose scores equal the baseline's on every topic has ``p = 1``.
* **Corrections.**  Over the systems of one measure (as PyTerrier corrects
  them): ``None``, ``"bonferroni"`` (``p * m``, capped at 1) or ``"holm"``
  (Holm's step-down, monotone).  ``reject`` is ``p < alpha`` after the
  correction.
* **Refusals** (one line, :class:`~workbench.errors.BadScoreMatrixError`):
  fewer than two systems or two topics, an unknown baseline, test or
  correction, an ``alpha`` outside (0, 1).

Examples
--------
>>> from workbench.data.score_matrix import score_matrices
>>> qrels = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}}
>>> runs = {"base": {"1": ["x", "a"], "2": ["x", "b"], "3": ["c"]}, "new": {"1": ["a"], "2": ["b"], "3": ["c"]}}
>>> t = baseline_table(score_matrices(qrels, runs, ["RR"]), baseline="base")
>>> c = t.cell("new", "RR")
>>> round(c.mean, 4), round(c.delta, 4), c.better, c.worse, round(c.p_value, 4)
(1.0, 0.3333, 2, 0, 0.1835)

References
----------
Student, "The probable error of a mean", Biometrika 1908 (paired t);
Wilcoxon, "Individual comparisons by ranking methods", Biometrics 1945;
Holm, "A simple sequentially rejective multiple test procedure", Scand. J.
Statist. 1979; Macdonald et al., "Simplified Data Wrangling with
ir_datasets / PyTerrier", CIKM 2021 (``pt.Experiment``); Bassani, "ranx",
ECIR 2022 (``compare``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import stats

from workbench.errors import BadScoreMatrixError
from workbench.core.frames import frame

TESTS = ("t", "wilcoxon")
CORRECTIONS = (None, "bonferroni", "holm", "bh")


@dataclass(frozen=True)
class BaselineCell:
    """One system under one measure, against the baseline (for the baseline itself: ``+0 -0``, ``p_value`` and ``reject`` None)."""

    system: str
    measure: str
    mean: float
    delta: float
    better: int
    worse: int
    p_value: float | None
    reject: bool | None


@dataclass(frozen=True)
class BaselineTable:
    """Every system against ``baseline`` under every measure (module notes).

    Attributes
    ----------
    measures, systems : tuple of str
    baseline : str
    test : {"t", "wilcoxon"}
    correction : {None, "bonferroni", "holm"}
    alpha : float
    topics : tuple of int
        The number of topics of each measure's matrix (a measure undefined on a topic drops it).
    cells : tuple of BaselineCell
        Systems in order, and within a system the measures in order.
    """

    measures: tuple
    systems: tuple
    baseline: str
    test: str
    correction: str | None
    alpha: float
    topics: tuple
    cells: tuple

    def cell(self, system: str, measure: str) -> BaselineCell:
        """The cell of ``system`` under ``measure``."""
        for c in self.cells:
            if c.system == system and c.measure == measure:
                return c
        raise BadScoreMatrixError(f"no cell for system {system!r} and measure {measure!r} "
                                  f"(systems {', '.join(self.systems)}; measures {', '.join(self.measures)})")

    def to_frame(self):
        """One row per system (``name``), for each measure the columns ``M``, ``M delta``, ``M +``, ``M -``,
        ``M p-value`` and ``M reject``, as ``pt.Experiment(baseline=...)`` lays them out.

        Examples
        --------
        >>> from workbench.data.score_matrix import score_matrices
        >>> runs = {"b": {"1": ["x", "a"], "2": ["b"]}, "n": {"1": ["a"], "2": ["b"]}}
        >>> f = baseline_table(score_matrices({"1": {"a": 1}, "2": {"b": 1}}, runs, ["RR"])).to_frame()
        >>> f.columns.tolist()
        ['name', 'RR', 'RR delta', 'RR +', 'RR -', 'RR p-value', 'RR reject']
        >>> f.round(4).values.tolist()
        [['b', 0.75, 0.0, 0, 0, nan, None], ['n', 1.0, 0.25, 1, 0, 0.5, False]]

        References
        ----------
        PyTerrier ``pt.Experiment`` (columns ``M +``, ``M -``, ``M p-value``, ``M reject``); pandas ``DataFrame``.
        """
        columns = ["name"] + [f"{m}{suffix}" for m in self.measures
                              for suffix in ("", " delta", " +", " -", " p-value", " reject")]
        rows = []
        for s in self.systems:
            row: dict = {"name": s}
            for m in self.measures:
                c = self.cell(s, m)
                row.update({m: c.mean, f"{m} delta": c.delta, f"{m} +": c.better, f"{m} -": c.worse,
                            f"{m} p-value": c.p_value, f"{m} reject": c.reject})
            rows.append(row)
        return frame(rows, columns)

    def __repr__(self) -> str:
        corr = f", {self.correction} correction" if self.correction else ""
        lines = [f"BaselineTable against {self.baseline}: {len(self.systems)} systems, "
                 f"{', '.join(self.measures)}; paired {self.test}-test{corr}, alpha {self.alpha}"
                 if self.test == "t" else
                 f"BaselineTable against {self.baseline}: {len(self.systems)} systems, "
                 f"{', '.join(self.measures)}; Wilcoxon signed-rank test{corr}, alpha {self.alpha}"]
        width = max(len(s) for s in self.systems)
        for s in self.systems:
            parts = []
            for m in self.measures:
                c = self.cell(s, m)
                if c.p_value is None:
                    parts.append(f"{m} {c.mean:.4f} (baseline)")
                else:
                    mark = " *" if c.reject else ""
                    parts.append(f"{m} {c.mean:.4f} ({c.delta:+.4f}, +{c.better} -{c.worse}, p={c.p_value:.4g}{mark})")
            lines.append(f"  {s:<{width}}  " + "; ".join(parts))
        return "\n".join(lines)


def _p_value(diffs: np.ndarray, test: str) -> float:
    """Two-sided p-value of a paired test on ``diffs``; 1 when every difference is 0."""
    if not np.any(diffs):
        return 1.0
    if test == "t":
        p = stats.ttest_rel(diffs, np.zeros_like(diffs)).pvalue
    else:
        p = stats.wilcoxon(diffs).pvalue
    p = float(p)
    # constant non-zero differences: t is infinite and scipy gives p = 0 (or nan): the systems differ on every topic
    return 0.0 if math.isnan(p) else p


def corrected(p_values: Sequence[float], correction: str | None) -> list[float]:
    """``p_values`` corrected for their number: ``None``, ``"bonferroni"``, ``"holm"`` or ``"bh"`` (capped at 1).

    Holm's step-down is made monotone upwards (each adjusted p-value at least
    the one before it in increasing order); Benjamini and Hochberg's step-up
    ``p_(i) m / i`` is made monotone downwards (the minimum over the larger
    p-values), as ``statsmodels``' ``multipletests(method="fdr_bh")`` does.

    >>> corrected([0.01, 0.04, 0.03], "holm"), corrected([0.01, 0.4], "bonferroni")
    ([0.03, 0.06, 0.06], [0.02, 0.8])
    >>> corrected([0.01, 0.04, 0.03], "bh")
    [0.03, 0.04, 0.04]

    References
    ----------
    Holm, Scand. J. Statist. 1979; Benjamini and Hochberg, J. R. Statist. Soc. B 1995.
    """
    ps = [float(p) for p in p_values]
    m = len(ps)
    if correction is None or m == 0:
        return ps
    if correction == "bonferroni":
        return [min(1.0, p * m) for p in ps]
    if correction == "bh":
        out = [0.0] * m
        running = 1.0
        for rank, k in reversed(list(enumerate(sorted(range(m), key=lambda k: ps[k]), 1))):
            running = min(running, ps[k] * m / rank)
            out[k] = running
        return out
    out = [0.0] * m
    running = 0.0
    for rank, k in enumerate(sorted(range(m), key=lambda k: ps[k])):
        running = max(running, min(1.0, (m - rank) * ps[k]))
        out[k] = running
    return out


def checked_matrices(matrices: Sequence, alpha, too_few: str) -> tuple[list, tuple[str, ...]]:
    """The score matrices of one comparison of systems and their systems, or a one-line refusal.

    At least one matrix, all over the same systems, at least two systems
    (else ``too_few`` says what to give), and a level ``alpha`` in (0, 1).

    >>> from workbench.data.score_matrix import score_matrices
    >>> ms = score_matrices({"1": {"a": 1}}, {"x": {"1": ["a"]}, "y": {"1": ["b"]}}, ["RR"])
    >>> checked_matrices(ms, 0.05, "give two runs")[1]
    ('x', 'y')

    References
    ----------
    PyTerrier ``pt.Experiment``; ranx ``compare`` (the same checks before systems are compared).
    """
    ms = list(matrices)
    if not ms:
        raise BadScoreMatrixError("significance: give at least one score matrix (one measure)")
    systems = tuple(ms[0].systems)
    if any(tuple(m.systems) != systems for m in ms):
        raise BadScoreMatrixError("significance: the matrices score different systems; score them in one call")
    if len(systems) < 2:
        raise BadScoreMatrixError(f"significance: {len(systems)} system(s) ({', '.join(systems)}); {too_few}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise BadScoreMatrixError(f"alpha {alpha!r}: give a number in (0, 1), e.g. 0.05")
    return ms, systems


def baseline_table(matrices: Sequence, baseline: str | int | None = None, test: str = "t",
                   correction: str | None = None, alpha: float = 0.05) -> BaselineTable:
    """Every system of ``matrices`` against ``baseline`` (a system name or index; default the first system).

    Parameters
    ----------
    matrices : sequence of ScoreMatrix
        One per measure, over the same systems (:func:`workbench.data.score_matrix.score_matrices`).
    baseline : str or int, optional
    test : {"t", "wilcoxon"}
    correction : {None, "bonferroni", "holm"}
    alpha : float

    Returns
    -------
    BaselineTable

    References
    ----------
    PyTerrier ``pt.Experiment(baseline=..., test=..., correction=...)``; ranx ``compare``.
    """
    ms, systems = checked_matrices(matrices, alpha, "give a baseline and at least one run")
    if test not in TESTS:
        raise BadScoreMatrixError(f"test {test!r}: use 't' (paired t-test) or 'wilcoxon'")
    if correction not in CORRECTIONS:
        raise BadScoreMatrixError(f"correction {correction!r}: use None, 'bonferroni', 'holm' or 'bh'")
    if baseline is None:
        b = 0
    elif isinstance(baseline, str):
        if baseline not in systems:
            raise BadScoreMatrixError(f"baseline {baseline!r}: not a system (systems: {', '.join(systems)})")
        b = systems.index(baseline)
    elif isinstance(baseline, int) and not isinstance(baseline, bool) and -len(systems) <= baseline < len(systems):
        b = baseline % len(systems)
    else:
        raise BadScoreMatrixError(f"baseline {baseline!r}: give a system's name or its index 0..{len(systems) - 1}")
    cells: dict[tuple[str, str], BaselineCell] = {}
    for m in ms:
        T = len(m.topics)
        if T < 2:
            raise BadScoreMatrixError(f"significance: {m.measure} scores {T} topic(s); a paired test needs at least 2")
        F = np.asarray(m.floats, dtype=float)
        means = F.mean(axis=0)
        signs = np.array([m.topic_signs(t)[:, b] for t in m.topics])   # T x S: sign(score_s - score_baseline)
        others = [j for j in range(len(systems)) if j != b]
        ps = corrected([_p_value(F[:, j] - F[:, b], test) for j in others], correction)
        for j, p in zip(others, ps):
            cells[systems[j], m.measure] = BaselineCell(systems[j], m.measure, float(means[j]),
                                                        float(means[j] - means[b]), int((signs[:, j] > 0).sum()),
                                                        int((signs[:, j] < 0).sum()), p, p < alpha)
        cells[systems[b], m.measure] = BaselineCell(systems[b], m.measure, float(means[b]), 0.0, 0, 0, None, None)
    measures = tuple(m.measure for m in ms)
    if len(set(measures)) != len(measures):
        raise BadScoreMatrixError(f"significance: a measure is given twice ({', '.join(measures)})")
    ordered = tuple(cells[s, m] for s in systems for m in measures)
    return BaselineTable(measures, systems, systems[b], test, correction, float(alpha), tuple(len(m.topics) for m in ms),
                         ordered)


__all__ = ["TESTS", "CORRECTIONS", "BaselineCell", "BaselineTable", "corrected", "baseline_table"]
