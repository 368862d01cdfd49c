"""Paired tests over every pair of systems (or each against a baseline), corrected, and what changes between measures.

For one measure (a :class:`~workbench.data.score_matrix.ScoreMatrix`, topics
x systems) and each unordered pair of systems ``(a, b)`` (``pairs="all"``,
in system order) or each system ``a`` against a baseline ``b``
(``pairs="baseline:RUN"``): the mean difference ``mean_a - mean_b`` over
the topics, the topics on which ``a`` scores above (``+``) and below
(``-``) ``b``, the two-sided p-value of a paired test, the p-value
corrected over the pairs of that measure, and ``reject``
(corrected ``p < alpha``).

Tests
-----
``"t"``
    Student's paired t-test (:func:`scipy.stats.ttest_rel`) on the float
    copy of the scores.  Differences equal to 0 on every topic (decided
    exactly) give ``p = 1``; equal non-zero differences on every topic give
    ``p = 0`` (t is infinite).
``"wilcoxon"``
    Wilcoxon's signed-rank test (:func:`scipy.stats.wilcoxon`, its automatic
    choice between the exact and the normal distribution) on the float
    differences of the topics where the two systems differ; the topics with
    a zero difference (decided exactly) are dropped first, as Wilcoxon
    proposed.  No differing topic: ``p = 1``.
``"sign"``
    The sign test: ``+`` and ``-`` counted from the exact per-topic order
    (:meth:`~workbench.data.score_matrix.ScoreMatrix.topic_signs`), ties
    dropped, and the exact two-sided binomial p-value
    (:func:`scipy.stats.binomtest` with ``p = 1/2``).
``"randomization"``
    Fisher's paired randomization (permutation) test as Smucker, Allan and
    Carterette (2007) recommend it for IR: under the null hypothesis each
    per-topic difference ``d_t`` is as likely to have the other sign, and
    the p-value is the share of the ``2^T`` sign flips whose
    ``|sum_t s_t d_t|`` is at least the observed ``|sum_t d_t|`` (the mean
    difference, up to the factor ``1/T``).  How it is computed is the
    ``method`` of each row:

    * ``exact-enumeration``: at most :data:`ENUMERATE_MAX` topics, every sign
      vector enumerated;
    * ``exact-count``: the differences are rationals (every workbench
      measure without a logarithm; ir_measures' floats, each exactly a
      dyadic rational) whose numerators over a common denominator are small
      enough (:data:`COUNT_MAX_BYTES`): the number of sign vectors reaching
      the observed sum is counted exactly, as the number of subsets of the
      ``|d_t|`` whose sum is at least ``(sum |d_t| + |sum d_t|) / 2``, by
      multiplying the polynomials ``1 + x^|d_t|`` in one big integer
      (Kronecker substitution: every coefficient in a slot of whole bytes);
    * ``monte-carlo``: otherwise ``B`` (``permutations``) sign vectors drawn
      with ``numpy.random.default_rng(seed)``, the same for every pair of the
      measure; with ``b`` of them reaching the observed sum the p-value is
      ``(b + 1) / (B + 1)``, which never gives 0 and is a valid p-value
      (Phipson and Smyth 2010), with standard error
      ``sqrt(p (1 - p) / B)`` (``p_se``).

    The sums are compared in floats only where the answer is certain; a
    permuted sum within ``1e-9 sum_t |d_t|`` of the observed one is compared
    exactly (integers, or certified arithmetic for values with logarithms,
    :func:`workbench.data.exact_scores.sum_signs`): floating point never
    decides a tie.

Corrections over the pairs of one measure (:func:`corrected`): ``"none"``,
``"bonferroni"`` (``p m``), ``"holm"`` (Holm's step-down) and ``"bh"``
(Benjamini and Hochberg's step-up false discovery rate), each capped at 1.

What changes between two measures (:func:`changes_between`): a pair of
systems is decided differently when it is significant under one measure
and not the other (``kind`` ``"first"`` / ``"second"``) or significant under
both with opposite directions (``"opposite"``); directions are the exact
order of the two means (:meth:`ScoreMatrix.mean_signs`).

Refusals (one line, :class:`~workbench.errors.BadScoreMatrixError`): an
unknown test, correction or pairs, a baseline that is not a system, fewer
than two systems or topics, ``alpha`` outside (0, 1), ``permutations`` below 1.

Examples
--------
>>> from workbench.data.score_matrix import score_matrices
>>> qrels = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}, "4": {"d": 1}}
>>> runs = {"x": {"1": ["n", "a"], "2": ["n", "b"], "3": ["c"], "4": ["n", "m", "d"]},
...         "y": {"1": ["a"], "2": ["b"], "3": ["n", "c"], "4": ["d"]},
...         "z": {"1": ["a"], "2": ["b"], "3": ["c"], "4": ["d"]}}
>>> t = pairwise_significance(score_matrices(qrels, runs, ["RR"]), test="randomization", correction="holm")
>>> [(r.a, r.b, str(r.diff_exact), r.p_value, r.method) for r in t.rows]
[('x', 'y', '-7/24', 0.5, 'exact-enumeration'), ('x', 'z', '-5/12', 0.25, 'exact-enumeration'), ('y', 'z', '-1/8', 1.0, 'exact-enumeration')]

References
----------
Fisher, "The Design of Experiments", 1935 (the randomization test);
Smucker, Allan and Carterette, "A comparison of statistical significance
tests for information retrieval evaluation", CIKM 2007; Phipson and Smyth,
"Permutation p-values should never be zero", Stat. Appl. Genet. Mol. Biol.
2010; Student 1908 (paired t); Wilcoxon 1945; Holm, Scand. J. Statist. 1979;
Benjamini and Hochberg, J. R. Statist. Soc. B 1995.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Optional, Sequence

import numpy as np
from scipy import stats

from workbench.core.display import html_table
from workbench.core.exact import exact_str
from workbench.core.frames import frame
from workbench.core.table import Cell, Table
from workbench.data.exact_scores import sum_signs
from workbench.errors import BadScoreMatrixError
from workbench.experiments.baseline import checked_matrices, corrected

#: The paired tests (module notes).
TESTS = ("t", "wilcoxon", "sign", "randomization")
#: The corrections over the pairs of one measure.
CORRECTIONS = ("none", "bonferroni", "holm", "bh")
#: The randomization test enumerates the ``2^T`` sign vectors up to this many topics.
ENUMERATE_MAX = 16
#: The exact count keeps one big integer of at most this many bytes.
COUNT_MAX_BYTES = 1 << 25
#: Permuted sums within this share of ``sum |d_t|`` of the observed one are compared exactly.
BAND = 1e-9
DEFAULT_PERMUTATIONS = 10_000


# ---------------------------------------------------------------- the randomization test on integers
def flip_count(d: Sequence[int]) -> tuple[int, str]:
    """``(count, method)``: how many of the ``2^n`` sign vectors ``s`` give ``|sum s_i d_i| >= |sum d_i|``.

    ``method`` is ``"exact-enumeration"`` (``n <= ENUMERATE_MAX``) or
    ``"exact-count"`` (module notes); a :class:`~workbench.errors.BadScoreMatrixError`
    when neither fits.

    >>> flip_count([1, 2, 3]), flip_count([0, 0])
    ((2, 'exact-enumeration'), (4, 'exact-enumeration'))
    >>> flip_count([1] * 20)                              # only all + and all -
    (2, 'exact-count')

    References
    ----------
    Fisher 1935; Smucker et al., CIKM 2007.
    """
    d = [int(x) for x in d]
    n, obs = len(d), abs(sum(d))
    if n <= ENUMERATE_MAX:
        big = sum(abs(x) for x in d) >= 1 << 62
        sums = np.zeros(1, dtype=object if big else np.int64)
        for x in d:
            sums = np.concatenate([sums + x, sums - x])
        return int(np.count_nonzero(np.abs(sums) >= obs)), "exact-enumeration"
    a = [abs(x) for x in d]
    total = sum(a)
    if obs == 0:
        return 1 << n, "exact-count"
    slot = (n + 1 + 7) // 8                      # a coefficient is at most 2^n: n + 1 bits
    if (total + 1) * slot > COUNT_MAX_BYTES:
        raise BadScoreMatrixError(f"randomization test: sum of |d| = {total} too large for an exact count")
    # prod (1 + x^a_i), coefficient of x^s = subsets summing to s, one slot of `slot` bytes each
    poly = 1
    for x in a:
        poly += poly << (x * 8 * slot)
    coeffs = np.frombuffer(poly.to_bytes((total + 1) * slot, "little"), dtype=np.uint8).reshape(total + 1, slot)
    # |S| >= obs with S = 2 Q - total (Q: the sum of the + terms) iff Q >= (total + obs) / 2 or, by symmetry, Q <= ...
    columns = coeffs[(total + obs) // 2:].sum(axis=0, dtype=np.int64)
    return 2 * sum(int(c) << (8 * k) for k, c in enumerate(columns)), "exact-count"


def can_count_exactly(d: Sequence[int]) -> bool:
    """Whether :func:`flip_count` fits for these integer differences.

    >>> can_count_exactly([10 ** 30] * 40), can_count_exactly([3] * 40)
    (False, True)
    """
    n = len(d)
    return n <= ENUMERATE_MAX or (sum(abs(int(x)) for x in d) + 1) * ((n + 8) // 8) <= COUNT_MAX_BYTES


def sign_vectors(permutations: int, topics: int, seed: int) -> np.ndarray:
    """The ``permutations x topics`` matrix of random signs (+1/-1, int8) of the Monte Carlo test.

    >>> sign_vectors(2, 3, 0).tolist()
    [[-1, 1, 1], [1, 1, 1]]
    """
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 2, size=(permutations, topics), dtype=np.int8) * 2 - 1).astype(np.int8)


def monte_carlo_p(b: int, permutations: int) -> tuple[float, float]:
    """``((b + 1) / (B + 1), its standard error sqrt(p (1 - p) / B))`` (Phipson and Smyth 2010).

    >>> monte_carlo_p(0, 9999)
    (0.0001, 0.0001)
    """
    p = (b + 1) / (permutations + 1)
    return p, math.sqrt(p * (1 - p) / permutations)


# ---------------------------------------------------------------- one measure's exact differences
class _Exact:
    """A matrix's exact values: integer numerators over one denominator when rational, else its blocks."""

    def __init__(self, m):
        self.m = m
        self.ints: Optional[list[list[int]]] = None
        self.den = 1
        if m.exact and all(b.is_rational and b.scale == 1 for b in m.blocks):
            dens = [int(b.den) for b in m.blocks]
            self.den = math.lcm(*dens)
            self.ints = [[int(x) * (self.den // den) for x in b.coords[:, 0].tolist()] for b, den in zip(m.blocks, dens)]
        elif not m.exact:                         # ir_measures' floats: each exactly a dyadic rational
            fr = [[Fraction(float(x)) for x in row] for row in np.asarray(m.floats)]
            self.den = math.lcm(*(f.denominator for row in fr for f in row))
            self.ints = [[int(f * self.den) for f in row] for row in fr]

    def mean_difference(self, a: int, b: int):
        """The exact mean difference ``mean_a - mean_b`` where the values are rational, else its float."""
        d = self.diffs(a, b)
        if d is None:
            F = np.asarray(self.m.floats)
            return float(np.mean(F[:, a] - F[:, b]))
        return Fraction(sum(d), self.den * len(d))

    def diffs(self, a: int, b: int) -> Optional[list[int]]:
        return None if self.ints is None else [row[a] - row[b] for row in self.ints]

    def sign(self, a: int, b: int, coeffs: Sequence[int]) -> int:
        """Exact sign of ``sum_t c_t (x_ta - x_tb)``."""
        d = self.diffs(a, b)
        if d is not None:
            s = sum(c * x for c, x in zip(coeffs, d))
            return (s > 0) - (s < 0)
        blocks = [replace(blk, coords=blk.coords[[a, b]]) * Fraction(int(c)) for blk, c in zip(self.m.blocks, coeffs)]
        return int(sum_signs(blocks, self.m.measure)[0, 1])

    def at_least(self, a: int, b: int, flips: Sequence[int], observed_sign: int) -> bool:
        """Exactly: ``|sum_t s_t d_t| >= |sum_t d_t|`` for the sign vector ``flips``."""
        s = self.sign(a, b, flips)
        if s == 0:
            return observed_sign == 0
        return self.sign(a, b, [s * f - observed_sign for f in flips]) >= 0


def _randomization(ex: _Exact, a: int, b: int, d_float: np.ndarray, mc_sums: Optional[np.ndarray],
                   flips: Optional[np.ndarray], observed_sign: int) -> tuple[float, str, Optional[float]]:
    d = ex.diffs(a, b)
    T = len(d_float)
    if observed_sign == 0 and d is not None and not any(d):
        return 1.0, "exact-count", None
    if d is not None and can_count_exactly(d):
        count, method = flip_count(d)
        return float(Fraction(count, 1 << T)), method, None
    tol = BAND * float(np.sum(np.abs(d_float)))
    obs = abs(float(np.sum(d_float)))
    if T <= ENUMERATE_MAX:                        # irrational values, few topics: every sign vector
        vecs = np.array(np.meshgrid(*([[1, -1]] * T), indexing="ij")).reshape(T, -1).T
        sums = np.abs(vecs @ d_float)
        count = int(np.count_nonzero(sums > obs + tol))
        count += sum(ex.at_least(a, b, v.tolist(), observed_sign) for v in vecs[np.abs(sums - obs) <= tol])
        return float(Fraction(count, 1 << T)), "exact-enumeration", None
    sums = np.abs(mc_sums)
    count = int(np.count_nonzero(sums > obs + tol))
    count += sum(ex.at_least(a, b, v.tolist(), observed_sign) for v in flips[np.abs(sums - obs) <= tol])
    p, se = monte_carlo_p(count, len(flips))
    return p, "monte-carlo", se


# ---------------------------------------------------------------- results
@dataclass(frozen=True)
class PairRow:
    """One pair of systems under one measure: ``a`` against ``b`` (``diff = mean_a - mean_b``).

    ``direction`` is the exact sign of ``mean_a - mean_b``; ``better``,
    ``worse``, ``ties`` count topics by the exact per-topic order; ``p_se``
    is the Monte Carlo standard error (None for the other methods).
    """

    measure: str
    a: str
    b: str
    mean_a: float
    mean_b: float
    diff: float
    diff_exact: object
    direction: int
    better: int
    worse: int
    ties: int
    p_value: float
    p_adjusted: float
    reject: bool
    method: str
    p_se: Optional[float] = None

    def to_json(self) -> dict:
        """The row as a JSON object (exact difference as a string beside its float)."""
        return {"measure": self.measure, "system_a": self.a, "system_b": self.b, "mean_a": self.mean_a,
                "mean_b": self.mean_b, "diff": exact_str(self.diff_exact), "diff_float": self.diff,
                "direction": self.direction, "better": self.better, "worse": self.worse, "ties": self.ties,
                "p_value": self.p_value, "p_adjusted": self.p_adjusted, "reject": self.reject,
                "method": self.method, "p_se": self.p_se}


@dataclass(frozen=True)
class PairChange:
    """A pair decided differently by two measures: ``kind`` ``"first"``, ``"second"`` or ``"opposite"``."""

    a: str
    b: str
    kind: str
    first: PairRow
    second: PairRow


@dataclass(frozen=True)
class MeasureChanges:
    """The pairs two measures decide differently, with counts by kind."""

    first: str
    second: str
    changes: tuple
    total: int

    @property
    def count(self) -> int:
        """Number of pairs decided differently."""
        return len(self.changes)

    def kinds(self, kind: str) -> int:
        """How many changes are of ``kind``."""
        return sum(c.kind == kind for c in self.changes)


def changes_between(first: Sequence[PairRow], second: Sequence[PairRow]) -> MeasureChanges:
    """The pairs the rows of two measures (the same pairs, in the same order) decide differently.

    >>> r = lambda m, rej, d: PairRow(m, "x", "y", 0, 0, d, d, d, 0, 0, 0, 0.01, 0.01, rej, "t")
    >>> c = changes_between([r("A", True, 1)], [r("B", True, -1)])
    >>> c.count, c.changes[0].kind
    (1, 'opposite')

    References
    ----------
    Ferrante, Ferro and Losiouk, IRJ 2020, sec. 5.3 (decisions changed by the interval transformation).
    """
    if [(r.a, r.b) for r in first] != [(r.a, r.b) for r in second]:
        raise BadScoreMatrixError("changes_between: the two measures cover different system pairs")
    out = []
    for p, q in zip(first, second):
        if p.reject and not q.reject:
            kind = "first"
        elif q.reject and not p.reject:
            kind = "second"
        elif p.reject and q.reject and p.direction != q.direction:
            kind = "opposite"
        else:
            continue
        out.append(PairChange(p.a, p.b, kind, p, q))
    m1 = first[0].measure if first else ""
    m2 = second[0].measure if second else ""
    return MeasureChanges(m1, m2, tuple(out), len(first))


@dataclass(frozen=True)
class PairwiseSignificance:
    """Paired tests over the pairs of systems of each measure, corrected, and the changes between measures.

    Attributes
    ----------
    measures, systems : tuple of str
    test, correction : str
    pairs : str
        ``"all"`` or ``"baseline:RUN"``.
    alpha : float
    seed, permutations : int
        Of the Monte Carlo randomization test (used only by its ``monte-carlo`` rows).
    topics : tuple of int
        Topics scored by each measure.
    rows : tuple of PairRow
        Measures in order, within one measure the pairs in system order.
    changes : tuple of MeasureChanges
    notes : tuple of str
    """

    measures: tuple
    systems: tuple
    test: str
    correction: str
    pairs: str
    alpha: float
    seed: int
    permutations: int
    topics: tuple
    rows: tuple
    changes: tuple = ()
    notes: tuple = field(default=())

    def of(self, measure: str) -> list:
        """The rows of one measure."""
        if measure not in self.measures:
            raise BadScoreMatrixError(f"measure {measure!r}: not in the table ({', '.join(self.measures)})")
        return [r for r in self.rows if r.measure == measure]

    def significant(self, measure: str) -> int:
        """How many pairs ``measure`` rejects (after the correction)."""
        return sum(r.reject for r in self.of(measure))

    def _head(self) -> str:
        test = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test", "sign": "sign test",
                "randomization": "paired randomization test"}[self.test]
        corr = "" if self.correction == "none" else f", {self.correction} correction"
        n = len(self.of(self.measures[0])) if self.measures else 0
        what = "every pair of systems" if self.pairs == "all" else f"each system against {self.pairs[9:]}"
        return f"{test}{corr}, alpha {self.alpha:g}, {what} ({n} pairs, {len(self.systems)} systems)"

    def summary(self) -> list[dict]:
        """Per measure: topics, pairs, significant pairs, their share."""
        out = []
        for m, t in zip(self.measures, self.topics):
            rows = self.of(m)
            out.append({"measure": m, "topics": t, "pairs": len(rows), "significant": self.significant(m),
                        "ratio": self.significant(m) / len(rows) if rows else 0.0})
        return out

    def tables(self) -> list[Table]:
        """The summary, the changes between measures, the changed pairs and every pair, as tables.

        References
        ----------
        :mod:`workbench.core.table` (one table type for every format).
        """
        head = self._head()
        summary = Table(["measure", "topics", "pairs", "significant"],
                        [[s["measure"], s["topics"], s["pairs"],
                          Cell(s["significant"], f"{s['significant']} ({100 * s['ratio']:.2f}%)")]
                         for s in self.summary()],
                        caption=f"Significant system pairs: {head}", notes=list(self.notes))
        out = [summary]
        if self.changes:
            out.append(Table(["measure_a", "measure_b", "changed", "first_only", "second_only", "opposite"],
                             [[c.first, c.second, c.count, c.kinds("first"), c.kinds("second"),
                               c.kinds("opposite")] for c in self.changes],
                             caption="Conclusions that change between two measures (significant under one only, "
                                     "or under both in opposite directions)"))
            listed = [[c.first, c.second, p.a, p.b, p.kind, _p(p.first.p_adjusted), _p(p.second.p_adjusted)]
                      for c in self.changes for p in c.changes]
            if listed:
                out.append(Table(["measure_a", "measure_b", "system_a", "system_b", "kind", "p_first", "p_second"],
                                 listed, caption="The pairs decided differently (corrected p-values)"))
        rows = [[r.measure, r.a, r.b, Cell(r.diff, f"{r.diff:+.4f}"), r.better, r.worse, _p(r.p_value),
                 _p(r.p_adjusted), r.reject, r.method, None if r.p_se is None else Cell(r.p_se, f"{r.p_se:.2g}")]
                for r in self.rows]
        out.append(Table(["measure", "system_a", "system_b", "diff", "+", "-", "p", "p_adjusted", "reject",
                          "method", "p_se"], rows, caption="Every pair (diff: mean of system_a minus system_b)"))
        return out

    def to_json(self) -> dict:
        """One JSON object: the setting, ``summary``, ``changes`` (with their pairs) and ``rows``.

        >>> from workbench.data.score_matrix import score_matrices
        >>> runs = {"x": {"1": ["a"], "2": ["n", "b"]}, "y": {"1": ["n", "a"], "2": ["b"]}}
        >>> t = pairwise_significance(score_matrices({"1": {"a": 1}, "2": {"b": 1}}, runs, ["RR"]), test="sign")
        >>> j = t.to_json()
        >>> j["test"], j["summary"][0]["significant"], j["rows"][0]["p_value"], j["rows"][0]["method"]
        ('sign', 0, 1.0, 'exact binomial')
        """
        return {"study": "significance", "test": self.test, "correction": self.correction, "pairs": self.pairs,
                "alpha": self.alpha, "seed": self.seed, "permutations": self.permutations,
                "measures": list(self.measures), "systems": list(self.systems), "summary": self.summary(),
                "changes": [{"measure_a": c.first, "measure_b": c.second, "changed": c.count,
                             "first_only": c.kinds("first"), "second_only": c.kinds("second"),
                             "opposite": c.kinds("opposite"),
                             "pairs": [{"system_a": p.a, "system_b": p.b, "kind": p.kind,
                                        "p_first": p.first.p_adjusted, "p_second": p.second.p_adjusted,
                                        "direction_first": p.first.direction,
                                        "direction_second": p.second.direction} for p in c.changes]}
                            for c in self.changes],
                "rows": [r.to_json() for r in self.rows], "notes": list(self.notes)}

    def to_frame(self):
        """One row per measure and pair: the columns of :meth:`PairRow.to_json`.

        References
        ----------
        pandas ``DataFrame``; ranx ``compare`` (one row per pair).
        """
        rows = [r.to_json() for r in self.rows]
        return frame(rows, list(rows[0]) if rows else ["measure", "system_a", "system_b"])

    def __repr__(self) -> str:
        lines = [f"PairwiseSignificance: {self._head()}"]
        for s in self.summary():
            lines.append(f"  {s['measure']}: {s['significant']} of {s['pairs']} pairs significant "
                         f"({s['topics']} topics)")
        for c in self.changes:
            lines.append(f"  {c.first} vs {c.second}: {c.count} pair(s) decided differently")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = [(s["measure"], str(s["topics"]), str(s["pairs"]), f"{s['significant']} ({100 * s['ratio']:.2f}%)")
                for s in self.summary()]
        rows += [(f"{c.first} vs {c.second}", "", "", f"{c.count} changed") for c in self.changes]
        return html_table(rows, header=("measure", "topics", "pairs", "significant"),
                          caption=f"Significant system pairs: {self._head()}", kind="significance")


def _p(p: float) -> Cell:
    return Cell(p, f"{p:.4g}")


# ---------------------------------------------------------------- the computation
def _check(matrices, test, correction, pairs, alpha, permutations, seed):
    ms, systems = checked_matrices(matrices, alpha, "compare at least two runs")
    if test not in TESTS:
        raise BadScoreMatrixError(f"test {test!r}: use {', '.join(TESTS)}")
    if correction not in CORRECTIONS:
        raise BadScoreMatrixError(f"correction {correction!r}: use {', '.join(CORRECTIONS)}")
    for name, value, low in (("permutations", permutations, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise BadScoreMatrixError(f"{name} {value!r}: give an integer >= {low}")
    if not isinstance(pairs, str):
        raise BadScoreMatrixError(f"pairs {pairs!r}: use 'all' or 'baseline:RUN'")
    if pairs == "all":
        index = [(i, j) for i in range(len(systems)) for j in range(i + 1, len(systems))]
    elif pairs.startswith("baseline:"):
        base = pairs[len("baseline:"):]
        if base not in systems:
            raise BadScoreMatrixError(f"pairs {pairs!r}: {base!r} is not a system ({', '.join(systems)})")
        b = systems.index(base)
        index = [(i, b) for i in range(len(systems)) if i != b]
    else:
        raise BadScoreMatrixError(f"pairs {pairs!r}: use 'all' or 'baseline:RUN'")
    names = [m.measure for m in ms]
    if len(set(names)) != len(names):
        raise BadScoreMatrixError(f"significance: a measure is given twice ({', '.join(names)})")
    for m in ms:
        if len(m.topics) < 2:
            raise BadScoreMatrixError(f"significance: {m.measure} scores {len(m.topics)} topic(s); "
                                      "a paired test needs at least 2")
    return ms, systems, index


def _measure_rows(m, index, test, correction, alpha, permutations, seed) -> list[PairRow]:
    F = np.asarray(m.floats, dtype=np.float64)
    T = F.shape[0]
    signs = np.array([m.topic_signs(t) for t in m.topics])           # T x S x S, exact per topic
    order = m.mean_signs()
    means = F.mean(axis=0)
    ex = _Exact(m)
    mc_sums = flips = None
    if test == "randomization":
        flips = sign_vectors(permutations, T, seed)
        need = [k for k, (a, b) in enumerate(index)
                if not (ex.diffs(a, b) is not None and can_count_exactly(ex.diffs(a, b))) and T > ENUMERATE_MAX]
        if need:                                  # one product for every pair drawn at random
            D = np.column_stack([F[:, index[k][0]] - F[:, index[k][1]] for k in need])
            prod = flips.astype(np.float64) @ D
            mc_sums = {k: prod[:, c] for c, k in enumerate(need)}
    raw = []
    for k, (a, b) in enumerate(index):
        s = signs[:, a, b]
        plus, minus = int((s > 0).sum()), int((s < 0).sum())
        d = F[:, a] - F[:, b]
        se = None
        if plus + minus == 0:
            p, method = 1.0, {"t": "t", "wilcoxon": "wilcoxon", "sign": "exact binomial",
                              "randomization": "exact-count"}[test]
        elif test == "t":
            p = float(stats.ttest_rel(F[:, a], F[:, b]).pvalue)
            p, method = (0.0 if math.isnan(p) else p), "t"
        elif test == "wilcoxon":
            p, method = float(stats.wilcoxon(d[s != 0]).pvalue), "wilcoxon"
        elif test == "sign":
            p, method = float(stats.binomtest(plus, plus + minus, 0.5).pvalue), "exact binomial"
        else:
            p, method, se = _randomization(ex, a, b, d, None if mc_sums is None else mc_sums.get(k), flips,
                                           int(order[a, b]))
        raw.append((a, b, plus, minus, p, method, se))
    adjusted = corrected([x[4] for x in raw], None if correction == "none" else correction)
    out = []
    for (a, b, plus, minus, p, method, se), q in zip(raw, adjusted):
        diff_exact = ex.mean_difference(a, b)
        out.append(PairRow(m.measure, m.systems[a], m.systems[b], float(means[a]), float(means[b]),
                           float(means[a] - means[b]), diff_exact, int(order[a, b]), plus, minus, T - plus - minus,
                           min(1.0, p), q, q < alpha, method, se))
    return out


def pairwise_significance(matrices: Sequence, test: str = "t", correction: str = "none", pairs: str = "all",
                          alpha: float = 0.05, permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0,
                          compare: Optional[Sequence[tuple[str, str]]] = None) -> PairwiseSignificance:
    """Paired tests over every pair of systems (or each against a baseline) for each measure (module notes).

    Parameters
    ----------
    matrices : sequence of ScoreMatrix
        One per measure, over the same systems.
    test : {"t", "wilcoxon", "sign", "randomization"}
    correction : {"none", "bonferroni", "holm", "bh"}
        Over the pairs of each measure.
    pairs : str
        ``"all"`` (every unordered pair, in system order) or ``"baseline:RUN"``.
    alpha : float
        ``reject`` is ``p_adjusted < alpha``.
    permutations, seed : int
        Of the Monte Carlo randomization test.
    compare : sequence of (str, str), optional
        The measure pairs whose changed decisions are listed (default: every
        pair of the measures, in order).

    Returns
    -------
    PairwiseSignificance

    Examples
    --------
    >>> from workbench.data.score_matrix import score_matrices
    >>> qrels = {str(t): {"a": 1} for t in range(6)}
    >>> runs = {"x": {str(t): ["a"] for t in range(6)}, "y": {str(t): ["n", "a"] for t in range(6)}}
    >>> t = pairwise_significance(score_matrices(qrels, runs, ["RR", "P@1"]), test="sign")
    >>> t
    PairwiseSignificance: sign test, alpha 0.05, every pair of systems (1 pairs, 2 systems)
      RR: 1 of 1 pairs significant (6 topics)
      P@1: 1 of 1 pairs significant (6 topics)
      RR vs P@1: 0 pair(s) decided differently
    >>> t.rows[0].p_value                                  # 2 * (1/2)^6
    0.03125

    References
    ----------
    Smucker, Allan and Carterette, CIKM 2007; Phipson and Smyth 2010; Holm 1979; Benjamini and Hochberg 1995.
    """
    ms, systems, index = _check(matrices, test, correction, pairs, alpha, permutations, seed)
    rows = {m.measure: _measure_rows(m, index, test, correction, alpha, int(permutations), int(seed)) for m in ms}
    names = [m.measure for m in ms]
    if compare is None:
        compare = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    changes = []
    for x, y in compare:
        for name in (x, y):
            if name not in rows:
                raise BadScoreMatrixError(f"compare: measure {name!r} is not among {', '.join(names)}")
        changes.append(changes_between(rows[x], rows[y]))
    notes = []
    if test == "randomization" and any(r.method == "monte-carlo" for rs in rows.values() for r in rs):
        notes.append(f"monte-carlo rows: {permutations} random sign vectors (seed {seed}), p = (b + 1) / (B + 1) "
                     "with standard error p_se (Phipson and Smyth 2010)")
    if test == "wilcoxon":
        notes.append("Wilcoxon: topics with a zero difference (decided exactly) are dropped before ranking")
    if test == "sign":
        notes.append("sign test: + and - from the exact per-topic order, ties dropped")
    return PairwiseSignificance(tuple(names), systems, test, correction, pairs, float(alpha), int(seed),
                                int(permutations), tuple(len(m.topics) for m in ms),
                                tuple(r for m in ms for r in rows[m.measure]), tuple(changes), tuple(notes))


__all__ = ["TESTS", "CORRECTIONS", "ENUMERATE_MAX", "COUNT_MAX_BYTES", "DEFAULT_PERMUTATIONS", "flip_count",
           "can_count_exactly", "sign_vectors", "monte_carlo_p", "PairRow", "PairChange", "MeasureChanges",
           "changes_between", "PairwiseSignificance", "pairwise_significance"]
