"""Kendall's tau-b between measures: overall and topic by topic (Ferrante et al. 2020 RQ1, Tables 1-2).

Two rankings of ``S`` systems are given as sign matrices ``sx[i, j] =
sign(x_i - x_j)`` (from :meth:`workbench.data.score_matrix.ScoreMatrix.topic_signs`
and :meth:`~workbench.data.score_matrix.ScoreMatrix.mean_signs`, decided exactly
for the workbench's measures).  Over the ``S (S - 1) / 2`` pairs ``i < j``:
``P`` concordant pairs, ``Q`` discordant pairs, ``T`` pairs tied in the first
ranking only, ``U`` tied in the second only (pairs tied in both count in
none), and Ferrante et al. (2020), eq. 7::

    tau = (P - Q) / sqrt((P + Q + T) (P + Q + U))

which is tau-b (``scipy.stats.kendalltau``'s default).  ``P, Q, T, U`` are
exact integers; the float appears only at the square root
(:attr:`TauB.value`).  When a factor under the root is 0 (every pair tied in
one ranking) tau is undefined: ``value`` is None.

* **Overall** (:func:`overall_tau`): systems ranked by their mean score over
  the topics both matrices score (exact for exact matrices), then tau-b.
* **Topic by topic** (:func:`topic_by_topic_tau`): tau-b on each common
  topic, then the mean of the defined values; the undefined topics (e.g.
  all systems tied under one measure) are counted and listed.
* **Table** (:func:`correlation_table`): every pair of the given matrices,
  rows in the order of Ferrante et al. (2020), Tables 1-2 (pair, topic-by-topic, overall).
* **Interval transformation** (:func:`transform_correlation`): each
  measure ``M`` scored on rankings cut at ``N`` against its ranked version
  ``rank[M]@N`` (:func:`workbench.experiments.ranked.ranked_version`), as
  Ferrante, Ferro and Fuhr (2021) compare a measure with its mapping to an
  interval scale.

Examples
--------
>>> import numpy as np
>>> x = np.array([3, 2, 1]); y = np.array([3, 1, 1])
>>> t = tau_b_from_signs(np.sign(x[:, None] - x), np.sign(y[:, None] - y))
>>> (t.P, t.Q, t.T, t.U), round(t.value, 4)
((2, 0, 0, 1), 0.8165)

References
----------
Ferrante, Ferro, Losiouk, "How do interval scales help us with better
understanding IR evaluation measures?", IRJ 2020, sec. 5.2, eq. 7,
Tables 1-2; Kendall, "Rank correlation methods", 1948 (tau-b).
"""
from __future__ import annotations

import functools

import csv
import io
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from workbench.data.gc_pause import cyclic_gc_paused
from workbench.errors import WorkbenchError
from workbench.core.frames import frame
from workbench.core.table import Cell, Table
from workbench.experiments.ranked import ranked_version


@dataclass(frozen=True)
class TauB:
    """Kendall's tau-b from exact pair counts (Ferrante et al. 2020, eq. 7).

    Attributes
    ----------
    P, Q : int
        Concordant and discordant pairs.
    T, U : int
        Pairs tied in the first ranking only, in the second only.
    both : int
        Pairs tied in both rankings (in no term of eq. 7).
    """

    P: int
    Q: int
    T: int
    U: int
    both: int = 0

    @property
    def defined(self) -> bool:
        return (self.P + self.Q + self.T) > 0 and (self.P + self.Q + self.U) > 0

    @property
    def squared(self) -> Fraction | None:
        """``sign(tau) * tau**2`` exactly (None when undefined): compares taus without floats."""
        if not self.defined:
            return None
        d = self.P - self.Q
        return Fraction(d * abs(d), (self.P + self.Q + self.T) * (self.P + self.Q + self.U))

    @property
    def value(self) -> float | None:
        """``(P - Q) / sqrt((P + Q + T)(P + Q + U))``, the one float conversion (None when undefined)."""
        if not self.defined:
            return None
        return (self.P - self.Q) / math.sqrt((self.P + self.Q + self.T) * (self.P + self.Q + self.U))

    def __float__(self) -> float:
        v = self.value
        return math.nan if v is None else v

    def to_dict(self) -> dict:
        return {"tau": self.value, "P": self.P, "Q": self.Q, "T": self.T, "U": self.U, "tied_in_both": self.both}


def tau_b_from_signs(sx, sy) -> TauB:
    """Tau-b of two rankings given as ``S x S`` sign matrices (``s[i, j] = sign(x_i - x_j)``).

    Examples
    --------
    >>> s = np.sign(np.arange(4)[:, None] - np.arange(4))
    >>> tau_b_from_signs(s, s).value, tau_b_from_signs(s, -s).value
    (1.0, -1.0)
    >>> tau_b_from_signs(s, np.zeros((4, 4), dtype=int)).value is None
    True

    References
    ----------
    Ferrante et al. (2020), eq. 7.
    """
    sx, sy = np.asarray(sx), np.asarray(sy)
    if sx.shape != sy.shape or sx.ndim != 2 or sx.shape[0] != sx.shape[1]:
        raise WorkbenchError(f"sign matrices of shapes {sx.shape} and {sy.shape}: need two S x S matrices")
    iu = _upper(sx.shape[0])
    a, b = np.sign(sx[iu]).astype(np.int64), np.sign(sy[iu]).astype(np.int64)
    # one pass: the pairs counted by (sign x, sign y), code 3 (sx + 1) + (sy + 1)
    n = np.bincount(3 * a + b + 4, minlength=9).tolist()
    return TauB(n[0] + n[8], n[2] + n[6], n[3] + n[5], n[1] + n[7], n[4])


@functools.lru_cache(maxsize=64)
def _upper(S: int):
    """The indices of the pairs ``i < j`` of ``S`` systems (cached: one call per topic and measure pair)."""
    return np.triu_indices(S, k=1)


def _check_pair(a, b) -> list[str]:
    if tuple(a.systems) != tuple(b.systems):
        raise WorkbenchError(f"{a.measure} and {b.measure} score different systems "
                             f"({len(a.systems)} vs {len(b.systems)}, or in another order)")
    common = set(b.topics)
    topics = [t for t in a.topics if t in common]
    if not topics:
        raise WorkbenchError(f"{a.measure} and {b.measure} have no topic in common")
    return topics


def overall_tau(a, b) -> TauB:
    """Tau-b of the systems ranked by their mean score under ``a`` and under ``b`` (Ferrante et al. 2020 "overall").

    Means are over the topics both matrices score; the order of the means
    is exact for exact matrices (:meth:`ScoreMatrix.mean_signs`).

    >>> from workbench.data.score_matrix import score_matrices
    >>> runs = {"x": {"1": ["a"], "2": ["n", "b"]}, "y": {"1": ["n", "a"], "2": ["b"]}, "z": {"1": ["a"], "2": ["b"]}}
    >>> ap, rr = score_matrices({"1": {"a": 1}, "2": {"b": 1}}, runs, ["AP", "RR"], depth=2)
    >>> [str(v) for v in ap.blocks[0].values()], [str(v) for v in ap.blocks[1].values()]
    (['1', '1/2', '1'], ['1/2', '1', '1'])
    >>> overall_tau(ap, rr).to_dict()     # x and y tie (mean 3/4) under both
    {'tau': 1.0, 'P': 2, 'Q': 0, 'T': 0, 'U': 0, 'tied_in_both': 1}

    References
    ----------
    Ferrante et al. (2020), sec. 5.2 ("overall" correlation), eq. 7.
    """
    topics = _check_pair(a, b)
    return tau_b_from_signs(a.mean_signs(topics), b.mean_signs(topics))


@dataclass(frozen=True)
class TopicByTopicTau:
    """Tau-b on each common topic and their mean over the topics where it is defined."""

    per_topic: tuple[tuple[str, TauB], ...]

    @property
    def defined(self) -> tuple[str, ...]:
        return tuple(t for t, x in self.per_topic if x.defined)

    @property
    def undefined(self) -> tuple[str, ...]:
        """Topics where tau-b is undefined (every pair tied under one measure)."""
        return tuple(t for t, x in self.per_topic if not x.defined)

    @property
    def mean(self) -> float | None:
        vals = [x.value for _, x in self.per_topic if x.defined]
        return float(np.mean(vals)) if vals else None

    def __float__(self) -> float:
        v = self.mean
        return math.nan if v is None else v

    def to_dict(self, per_topic: bool = False) -> dict:
        out = {"mean": self.mean, "topics": len(self.per_topic), "defined": len(self.defined),
               "undefined_topics": list(self.undefined)}
        if per_topic:
            out["per_topic"] = {t: x.to_dict() for t, x in self.per_topic}
        return out


def topic_by_topic_tau(a, b) -> TopicByTopicTau:
    """Tau-b on every topic both matrices score, and their mean (Ferrante et al. 2020 "topic-by-topic").

    >>> from workbench.data.score_matrix import score_matrices
    >>> runs = {"x": {"1": ["a"], "2": ["n", "b"]}, "y": {"1": ["n", "a"], "2": ["b"]}}
    >>> ap, rr = score_matrices({"1": {"a": 1}, "2": {"b": 1}}, runs, ["AP", "RR"], depth=2)
    >>> tbt = topic_by_topic_tau(ap, rr)
    >>> tbt.mean, tbt.undefined
    (1.0, ())

    References
    ----------
    Ferrante et al. (2020), sec. 5.2 ("topic-by-topic" correlation, footnote 2 on its mean).
    """
    topics = _check_pair(a, b)
    counts = _pair_counts_by_row(_order_keys(a, topics), _order_keys(b, topics))
    return TopicByTopicTau(tuple((t, TauB(*row)) for t, row in zip(topics, counts)))


def _order_keys(m, topics: Sequence[str]) -> np.ndarray:
    """``T x S`` integers ordered within each row as the systems' scores on that topic (ties equal).

    A topic's exact rational block over a positive denominator orders its
    systems as its integer numerators (``int64`` ones are used as they are);
    any other topic takes :meth:`ScoreMatrix.ranks`, the dense ranks the
    topic's sign matrix (:meth:`ScoreMatrix.topic_signs`) is made of.  Only
    the order within a row is meaningful.
    """
    S = len(m.systems)
    keys = np.empty((len(topics), S), dtype=np.int64)
    blocks = m.blocks if getattr(m, "exact", False) else None
    for k, t in enumerate(topics):
        if blocks is not None:
            blk = blocks[m.topic_index(t)]
            if blk.is_rational and blk.den > 0 and blk.n == S and blk.coords.dtype == np.int64:
                keys[k] = blk.coords[:, 0]
                continue
        keys[k] = m.ranks(t)
    return keys


def _pair_counts_by_row(ka: np.ndarray, kb: np.ndarray, cells: int = 1 << 22) -> list[tuple[int, int, int, int, int]]:
    """``(P, Q, T, U, both)`` of :func:`tau_b_from_signs` for each row of two ``T x S`` key matrices.

    Row ``k`` compares the rankings ``ka[k]`` and ``kb[k]`` of the ``S``
    systems over the pairs ``i < j``, by integer comparisons (no difference
    that could overflow); topics are taken ``cells / (S (S - 1) / 2)`` at a
    time to bound the memory.

    >>> ka = np.array([[3, 2, 1], [1, 1, 1]]); kb = np.array([[3, 1, 1], [0, 1, 2]])
    >>> _pair_counts_by_row(ka, kb)
    [(2, 0, 0, 1, 0), (0, 0, 3, 0, 0)]
    """
    T, S = ka.shape
    lo, hi = _upper(S)
    if lo.size == 0:
        return [(0, 0, 0, 0, 0)] * T
    step = max(1, cells // lo.size)
    out: list = []
    for s in range(0, T, step):
        a_i, a_j, b_i, b_j = ka[s:s + step, lo], ka[s:s + step, hi], kb[s:s + step, lo], kb[s:s + step, hi]
        # code 3 (sign a + 1) + (sign b + 1), as in tau_b_from_signs, offset by 9 per row
        code = 3 * ((a_i > a_j).astype(np.int64) - (a_i < a_j)) + ((b_i > b_j).astype(np.int64) - (b_i < b_j)) + 4
        rows = code.shape[0]
        n = np.bincount((code + 9 * np.arange(rows)[:, None]).ravel(), minlength=9 * rows).reshape(rows, 9)
        n = np.stack([n[:, 0] + n[:, 8], n[:, 2] + n[:, 6], n[:, 3] + n[:, 5], n[:, 1] + n[:, 7], n[:, 4]], axis=1)
        out.extend(map(tuple, n.tolist()))
    return out


@dataclass(frozen=True)
class CorrelationRow:
    """One measure pair of Ferrante et al. (2020), Tables 1-2."""

    a: str
    b: str
    topic_by_topic: TopicByTopicTau
    overall: TauB

    def to_dict(self, per_topic: bool = False) -> dict:
        return {"measure_a": self.a, "measure_b": self.b, "topic_by_topic": self.topic_by_topic.mean,
                "overall": self.overall.value, "topics": len(self.topic_by_topic.per_topic),
                "undefined_topics": list(self.topic_by_topic.undefined),
                "overall_counts": self.overall.to_dict(),
                **({"per_topic": self.topic_by_topic.to_dict(True)["per_topic"]} if per_topic else {})}


def _fmt(v) -> str:
    return "-" if v is None else f"{v:.4f}"


@dataclass(frozen=True)
class CorrelationTable:
    """Topic-by-topic and overall tau-b of measure pairs (Ferrante et al. 2020, Tables 1-2 layout)."""

    rows: tuple[CorrelationRow, ...]
    view: str = ""

    def to_dict(self, per_topic: bool = False) -> dict:
        return {"view": self.view, "rows": [r.to_dict(per_topic) for r in self.rows]}

    def to_frame(self):
        """The table as a pandas DataFrame: one row per measure pair (tau-b topic by topic and overall, as floats).

        Examples
        --------
        >>> from workbench.data.score_matrix import score_matrices
        >>> runs = {"x": {"1": ["a", "b"]}, "y": {"1": ["b", "n"]}, "z": {"1": ["n", "a"]}}
        >>> f = correlation_table(score_matrices({"1": {"a": 2, "b": 1}}, runs, ["SBTO", "gP"], depth=2)).to_frame()
        >>> f.values.tolist()
        [['SBTO', 'gP', 1.0, 1.0, 1, 0]]

        References
        ----------
        Ferrante et al. (2020), Tables 1-2; pandas ``DataFrame``.
        """
        rows = [{"measure_a": r.a, "measure_b": r.b, "topic_by_topic": r.topic_by_topic.mean,
                 "overall": r.overall.value, "topics": len(r.topic_by_topic.per_topic),
                 "undefined_topics": len(r.topic_by_topic.undefined)} for r in self.rows]
        return frame(rows, ["measure_a", "measure_b", "topic_by_topic", "overall", "topics", "undefined_topics"])

    def table(self, caption: str | None = None, notes: Sequence[str] = ()):
        """The Ferrante et al. (2020), Table 1-2 layout as a :class:`~workbench.core.table.Table` (tau to 4 decimals on show)."""
        return Table(["Measure pair", "Topic-by-Topic", "Overall", "topics", "undefined"],
                     [[f"{r.a} vs {r.b}", Cell(r.topic_by_topic.mean, _fmt(r.topic_by_topic.mean)),
                       Cell(r.overall.value, _fmt(r.overall.value)), len(r.topic_by_topic.per_topic),
                       len(r.topic_by_topic.undefined)] for r in self.rows], caption=caption, notes=notes)

    def markdown(self) -> str:
        return self.table().to_markdown()

    def csv(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["measure_a", "measure_b", "topic_by_topic", "overall", "topics", "undefined_topics"])
        for r in self.rows:
            w.writerow([r.a, r.b, r.topic_by_topic.mean, r.overall.value, len(r.topic_by_topic.per_topic),
                        len(r.topic_by_topic.undefined)])
        return buf.getvalue()


def correlation_table(matrices: Sequence, pairs: Sequence[tuple[int, int]] | None = None) -> CorrelationTable:
    """Topic-by-topic and overall tau-b for every pair of ``matrices`` (or the given index ``pairs``).

    Examples
    --------
    >>> from workbench.data.score_matrix import score_matrices
    >>> runs = {"x": {"1": ["a", "b"]}, "y": {"1": ["b", "n"]}, "z": {"1": ["n", "a"]}}
    >>> ms = score_matrices({"1": {"a": 2, "b": 1}}, runs, ["SBTO", "RBTO", "gP"], depth=2)
    >>> print(correlation_table(ms).markdown())
    | Measure pair | Topic-by-Topic | Overall | topics | undefined |
    |---|---|---|---|---|
    | SBTO vs RBTO | 0.3333 | 0.3333 | 1 | 0 |
    | SBTO vs gP | 1.0000 | 1.0000 | 1 | 0 |
    | RBTO vs gP | 0.3333 | 0.3333 | 1 | 0 |
    <BLANKLINE>

    References
    ----------
    Ferrante et al. (2020), sec. 5.2, Tables 1-2.
    """
    ms = list(matrices)
    if len(ms) < 2:
        raise WorkbenchError(f"correlation table: give at least two matrices, got {len(ms)}")
    idx = pairs if pairs is not None else [(i, j) for i in range(len(ms)) for j in range(i + 1, len(ms))]
    rows = []
    # one TauB per topic and pair, no reference cycles: a cyclic collection triggered by them would walk every
    # object the matrices hold (on two MS MARCO-sized runs, their 14 million document ids: 0.7 s per collection)
    with cyclic_gc_paused():
        for i, j in idx:
            a, b = ms[i], ms[j]
            rows.append(CorrelationRow(a.measure, b.measure, topic_by_topic_tau(a, b), overall_tau(a, b)))
    views = sorted({m.view for m in ms})
    return CorrelationTable(tuple(rows), "/".join(views))


def transform_correlation(matrices: Sequence, hint: str = "use a depth of ",
                          max_space: int | None = None) -> tuple[CorrelationTable, list[str]]:
    """Tau-b of each measure and its interval transformation at the depth of its rankings.

    Each exact matrix ``M`` (scored on rankings of depth ``N``: cut at ``N``
    or all shorter) is paired with ``rank[M]@N``, its values replaced by
    their positions among the distinct values ``M`` takes on the topic's
    space of runs of depth ``N``; the row is ``M vs rank[M]@N``, overall and
    topic by topic as in :func:`correlation_table`.

    Parameters
    ----------
    matrices : sequence of ScoreMatrix
        ir_measures matrices and ranked ones are skipped (named in the second result).
    hint : str
        How an error for a space too large to enumerate names the remedy
        (see :func:`workbench.experiments.ranked.ranked_version`).
    max_space : int, optional
        Largest space of runs enumerated per topic (default ``2**20``).

    Returns
    -------
    table : CorrelationTable
    skipped : list of str
        The measures without a transformation, with the reason.

    Examples
    --------
    >>> from workbench.data.score_matrix import score_matrices
    >>> qrels = {"1": {"a": 1, "b": 1, "c": 1}, "2": {"a": 1}}
    >>> runs = {"x": {"1": ["a", "b", "n"], "2": ["a"]}, "y": {"1": ["n", "a", "b"], "2": ["n", "a"]},
    ...         "z": {"1": ["a", "n", "b"], "2": ["n", "m", "a"]}}
    >>> ms = score_matrices(qrels, runs, ["AP", "ir:P@2"], view="binary", depth=3)
    >>> table, skipped = transform_correlation(ms)
    >>> print(table.markdown())
    | Measure pair | Topic-by-Topic | Overall | topics | undefined |
    |---|---|---|---|---|
    | AP vs rank[AP]@3 | 1.0000 | 1.0000 | 2 | 0 |
    <BLANKLINE>
    >>> skipped
    ['ir:P@2 (ir_measures floats)']

    References
    ----------
    Ferrante, Ferro, Fuhr, IEEE Access 2021 (Kendall's tau between a measure
    and its interval-scaled version over the systems); Ferrante et al. (2020), eq. 7.
    """
    rows, skipped = [], []
    with cyclic_gc_paused():
        for m in matrices:
            if not m.exact:
                skipped.append(f"{m.measure} (ir_measures floats)")
                continue
            if m.spec is None:
                skipped.append(f"{m.measure} (ranked already)")
                continue
            t = ranked_version(m, hint=hint, max_space=max_space)
            rows.append(CorrelationRow(m.measure, t.measure, topic_by_topic_tau(m, t), overall_tau(m, t)))
    views = sorted({m.view for m in matrices})
    return CorrelationTable(tuple(rows), "/".join(views)), skipped


__all__ = ["TauB", "tau_b_from_signs", "overall_tau", "TopicByTopicTau", "topic_by_topic_tau",
           "CorrelationRow", "CorrelationTable", "correlation_table", "transform_correlation"]
