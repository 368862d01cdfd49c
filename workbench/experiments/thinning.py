"""Thinning the judgments: what a shallower pool or a random fraction of the qrels does to each measure's conclusions.

The judgments of a test collection are thinned in two ways, and every
measure is scored on each thinned set of judgments and compared with the same
measure on the full judgments:

* **pool** (:func:`pool_qrels`): the pool of depth ``k`` of a topic is the
  union of the first ``k`` documents of every given run on that topic (each
  run ranked as trec_eval ranks a run file: score descending, ties by docid
  descending); every qrels entry of a document outside it is dropped.  A
  shallower pool of the runs at hand imitates judging less deeply; when the
  official pool was built from more runs than are given, it is an
  approximation of the shallower official pool, not that pool.
* **random fraction** (:func:`random_qrels`): each topic keeps a seeded
  uniform random sample of ``P %`` of its judgments, Yilmaz and Aslam's (2006)
  sampling, drawn by :func:`workbench.experiments.downsampling.sample_pools`
  with ``strategy="uniform"``: ``X = P % x D`` judgments of the topic's ``D``,
  rounded half up in exact integers, at least one; the samples of one seed are
  nested (a prefix of one seeded permutation per topic, the permutation
  redrawn until the smallest sample holds a relevant document); each topic's
  generator comes from the seed and the topic id alone.

A dropped judgment makes its document **unjudged**.  Measures made for
complete judgments read an unjudged document as not relevant (trec_eval's
convention); measures made for incomplete judgments (bpref, infAP, the
condensed lists) read it as unjudged, as their scorer does.  The gains are
those of the full qrels throughout, so a thinned set that loses every
highly relevant document keeps its scale.

For each measure ``M`` and each thinned set, :func:`thinning_study` reports:

* **Kendall's tau-b** between the ranking of the systems by their mean ``M``
  over the topics on the full judgments and on the thinned ones
  (:func:`workbench.experiments.correlation.tau_b_from_signs` on the exact
  order of the means, :meth:`~workbench.data.score_matrix.ScoreMatrix.mean_signs`:
  ties are exact ties); the exact value is
  :func:`workbench.scale.disagreement.tau_b_value` of the same pair counts;
* the **significance conclusions that change**: a paired test over every
  pair of systems, corrected over the pairs
  (:func:`workbench.experiments.pairwise.pairwise_significance`, default
  Student's t with Holm's correction at alpha 0.05), on the full and on the
  thinned judgments; a pair significant on the full judgments only is
  *lost*, on the thinned only *gained*, on both with opposite directions
  *opposite* (:func:`~workbench.experiments.pairwise.changes_between`);
* the **correlation with rank[M]@N**: tau-b between ``M`` and its interval
  transformation ``rank[M]@N`` (the positions of
  :func:`workbench.data.ranked_matrix.ranked_matrix`) on the same judgments,
  full and thinned; where the transformation does not apply, the reason is
  kept instead.

Every run is judged and scored once per set of judgments
(:func:`workbench.data.score_matrix.score_matrices`, exact value blocks);
the spaces the transformation enumerates are shared between the sets.

Examples
--------
>>> qrels = {"1": {"a": 1, "b": 0, "c": 1, "d": 0}}
>>> runs = {"x": {"1": ["a", "b", "e"]}, "y": {"1": ["c", "a", "d"]}}
>>> pool_qrels(qrels, runs, 1)
{'1': {'a': 1, 'c': 1}}
>>> sorted(random_qrels(qrels, (50,), seed=0)[50]["1"].items())
[('b', 0), ('c', 1)]

References
----------
Buckley and Voorhees, "Retrieval evaluation with incomplete information",
SIGIR 2004; Yilmaz and Aslam, "Estimating average precision with incomplete
and imperfect judgments", CIKM 2006; Sakai, "Alternatives to bpref", SIGIR
2007; Kendall, Biometrika 1945 (tau-b); Holm, Scand. J. Statist. 1979.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Mapping, Optional, Sequence

import numpy as np

from workbench.core.display import html_table
from workbench.core.frames import frame
from workbench.core.table import Cell, Table
from workbench.data.adapters import as_qrels, as_runs
from workbench.data.exact_scores import evaluate_measure
from workbench.data.score_matrix import ScoreMatrix, score_matrices
from workbench.errors import BadSamplingError, UndefinedMeasureError, WorkbenchError
from workbench.experiments.correlation import TauB, tau_b_from_signs
from workbench.experiments.downsampling import sample_pools
from workbench.experiments.pairwise import changes_between, pairwise_significance
from workbench.measures.ranked import MAX_SPACE, SpacePositions
from workbench.scale.disagreement import PairCounts, tau_b_value
from workbench.space.runs import Gains

__all__ = ["POOL_DEPTHS", "FRACTIONS", "SEED", "RANK_DEPTH", "COMPLETE_MEASURES", "INCOMPLETE_MEASURES", "MEASURES",
           "check_pool_depths", "check_fractions", "pool_qrels", "random_qrels", "JudgmentSet", "judgment_sets",
           "ThinningCell", "ThinningStudy", "thinning_study", "exact_tau", "tau_text"]

#: The pool depths of the study (the first ``k`` documents of every run).
POOL_DEPTHS = (10, 20, 50, 100)
#: The percentages of each topic's judgments kept at random.
FRACTIONS = (90, 70, 50, 30, 10)
#: The seed of the random samples.
SEED = 0
#: The depth ``N`` of ``rank[M]@N``.
RANK_DEPTH = 10
#: Measures made for complete judgments (an unjudged document reads as not relevant).
COMPLETE_MEASURES = ("AP", "nDCG@10", "P@10", "RBP(p=0.8)", "RR")
#: Measures made for incomplete judgments (an unjudged document reads as unjudged).
INCOMPLETE_MEASURES = ("Bpref", "infAP", "AP(judged_only=True)", "nDCG(judged_only=True)@10",
                       "P(judged_only=True)@10")
#: Every measure of the study, in the report's order.
MEASURES = COMPLETE_MEASURES + INCOMPLETE_MEASURES

Qrels = dict[str, dict[str, int]]
Progress = Optional[Callable[[str, int, int], None]]


# ---------------------------------------------------------------- checks
def _positive_ints(values, what: str, low: int, high: Optional[int]) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        values = (values,)
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low or (high is not None and v > high):
            bound = f"an integer in {low}..{high}" if high is not None else f"an integer >= {low}"
            raise BadSamplingError(f"{what} {v!r}: must be {bound}")
        out.append(int(v))
    if len(set(out)) != len(out):
        raise BadSamplingError(f"{what}s {tuple(values)!r}: a value is repeated")
    return tuple(out)


def check_pool_depths(depths) -> tuple[int, ...]:
    """Pool depths as a tuple, deepest first; a depth that is not an integer >= 1, or a repeat, is refused.

    >>> check_pool_depths([10, 100, 20])
    (100, 20, 10)
    >>> check_pool_depths([0])
    Traceback (most recent call last):
    ...
    workbench.errors.BadSamplingError: pool depth 0: must be an integer >= 1

    References
    ----------
    Buckley and Voorhees, SIGIR 2004 (pools of decreasing depth).
    """
    return tuple(sorted(_positive_ints(depths, "pool depth", 1, None), reverse=True))


def check_fractions(fractions) -> tuple[int, ...]:
    """Percentages of the judgments kept, largest first: integers in 1..99 (100 is the full set), no repeat.

    >>> check_fractions([10, 90, 50])
    (90, 50, 10)
    >>> check_fractions([1.5])
    Traceback (most recent call last):
    ...
    workbench.errors.BadSamplingError: fraction (%) 1.5: must be an integer in 1..99

    References
    ----------
    Yilmaz and Aslam, CIKM 2006 (random samples of the judgments).
    """
    return tuple(sorted(_positive_ints(fractions, "fraction (%)", 1, 99), reverse=True))


# ---------------------------------------------------------------- thinning
def pool_qrels(qrels: Mapping, runs: Mapping, depth: int) -> Qrels:
    """The judgments of the documents in the depth-``depth`` pool of ``runs``, per topic.

    Parameters
    ----------
    qrels : mapping
        ``{topic: {docid: grade}}``.
    runs : mapping
        ``{name: {topic: [docid, ...]}}``, each ranking best first.
    depth : int
        The pool depth ``k`` (>= 1).

    Returns
    -------
    dict
        ``{topic: {docid: grade}}``: every topic of ``qrels`` (possibly with
        no judgment left), the entries of documents some run ranks in its
        first ``k``, in the qrels' order.

    Examples
    --------
    >>> pool_qrels({"1": {"a": 1, "b": 0, "z": 1}}, {"x": {"1": ["b", "a"]}, "y": {"2": ["z"]}}, 1)
    {'1': {'b': 0}}

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Sparck Jones and van Rijsbergen 1975 (pooling).
    """
    (depth,) = check_pool_depths([depth])
    out: Qrels = {}
    for t, judged in qrels.items():
        pool: set = set()
        for r in runs.values():
            pool.update(r.get(t, ())[:depth])
        kept = pool.intersection(judged)
        out[t] = {d: g for d, g in judged.items() if d in kept}
    return out


def random_qrels(qrels: Mapping, fractions: Sequence[int] = FRACTIONS, seed: int = SEED) -> dict[int, Qrels]:
    """A seeded uniform random ``P %`` of each topic's judgments, for every ``P`` of ``fractions``.

    Yilmaz and Aslam's (2006) uniform sampling, as
    :func:`workbench.experiments.downsampling.sample_pools` draws it
    (``strategy="uniform"``): ``round(P D / 100)`` of a topic's ``D``
    judgments (half up, at least one), nested, the permutation redrawn until
    the smallest sample holds a relevant document.

    >>> q = {"7": {f"d{i}": int(i < 3) for i in range(20)}}
    >>> s = random_qrels(q, (50, 10), seed=4)
    >>> len(s[50]["7"]), len(s[10]["7"]), s[10]["7"].items() <= s[50]["7"].items()
    (10, 2, True)

    References
    ----------
    Yilmaz and Aslam, CIKM 2006.
    """
    return sample_pools(qrels, check_fractions(fractions), "uniform", seed)


@dataclass(frozen=True)
class JudgmentSet:
    """One set of judgments: ``full``, a pool (``pool 10``) or a random fraction (``random 30%``).

    ``kept`` judgments of the full ``total`` remain, ``relevant`` of them
    relevant (grade >= 1); :attr:`fraction` is ``kept / total``, exactly.
    """

    name: str
    kind: str
    parameter: Optional[int]
    kept: int
    relevant: int
    total: int
    qrels: dict = field(repr=False, compare=False)

    @property
    def fraction(self) -> Fraction:
        """The share of the full judgments kept, an exact fraction."""
        return Fraction(self.kept, self.total) if self.total else Fraction(0)

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "parameter": self.parameter, "kept": self.kept,
                "relevant": self.relevant, "total": self.total, "fraction": str(self.fraction),
                "fraction_float": float(self.fraction)}


def _judgment_set(name: str, kind: str, parameter, qrels: Qrels, total: int) -> JudgmentSet:
    kept = sum(len(q) for q in qrels.values())
    relevant = sum(g >= 1 for q in qrels.values() for g in q.values())
    return JudgmentSet(name, kind, parameter, kept, relevant, total, qrels)


def judgment_sets(qrels: Mapping, runs: Mapping, pools: Sequence[int] = POOL_DEPTHS,
                  fractions: Sequence[int] = FRACTIONS, seed: int = SEED) -> tuple[JudgmentSet, ...]:
    """The full judgments, then each pool (deepest first), then each random fraction (largest first).

    >>> q = {"1": {"a": 1, "b": 0, "c": 1, "d": 0}}
    >>> sets = judgment_sets(q, {"x": {"1": ["a", "b"]}}, pools=[1], fractions=[50])
    >>> [(s.name, s.kept, str(s.fraction)) for s in sets]
    [('full', 4, '1'), ('pool 1', 1, '1/4'), ('random 50%', 2, '1/2')]

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006.
    """
    pools, fractions = check_pool_depths(pools), check_fractions(fractions)
    qrels = {t: dict(q) for t, q in qrels.items()}
    total = sum(len(q) for q in qrels.values())
    out = [_judgment_set("full", "full", None, qrels, total)]
    out += [_judgment_set(f"pool {k}", "pool", k, pool_qrels(qrels, runs, k), total) for k in pools]
    sampled = random_qrels(qrels, fractions, seed)
    out += [_judgment_set(f"random {p}%", "random", p, sampled[p], total) for p in fractions]
    return tuple(out)


# ---------------------------------------------------------------- the study
def exact_tau(t: TauB):
    """Kendall's tau-b of the pair counts ``t`` exactly (:func:`workbench.scale.disagreement.tau_b_value`), or None.

    >>> str(exact_tau(TauB(2, 0, 0, 1)))
    'sqrt(6)/3'

    References
    ----------
    Kendall, Biometrika 1945.
    """
    n = t.P + t.Q + t.T + t.U + t.both
    return tau_b_value(PairCounts(0, n, t.Q, t.P, t.T, t.U, t.both))


@dataclass(frozen=True)
class ThinningCell:
    """One measure on one thinned set of judgments against the same measure on the full judgments.

    Attributes
    ----------
    measure, judgments : str
        The measure's name and the set's name.
    topics : int
        Topics scored on the thinned judgments (those with a relevant document judged).
    tau : TauB or None
        Pair counts of the two system rankings (None for the full set itself).
    significant_full, significant : int
        Pairs of systems significant on the full judgments, on the thinned ones.
    lost, gained, opposite : tuple of (str, str)
        The pairs significant on the full judgments only, on the thinned only,
        on both in opposite directions.
    rank_tau : TauB or None
        Pair counts of ``M`` against ``rank[M]@N`` on these judgments.
    rank_note : str or None
        Why ``rank[M]@N`` does not apply, when it does not.
    """

    measure: str
    judgments: str
    topics: int
    tau: Optional[TauB]
    significant_full: int
    significant: int
    lost: tuple = ()
    gained: tuple = ()
    opposite: tuple = ()
    rank_tau: Optional[TauB] = None
    rank_note: Optional[str] = None

    @property
    def changed(self) -> int:
        """How many conclusions change: lost + gained + opposite."""
        return len(self.lost) + len(self.gained) + len(self.opposite)

    def to_json(self) -> dict:
        def tau(t: Optional[TauB]):
            return None if t is None else {"tau": None if exact_tau(t) is None else str(exact_tau(t)),
                                           "tau_float": t.value, "concordant": t.P, "discordant": t.Q,
                                           "tied_full_only": t.T, "tied_thinned_only": t.U, "tied_both": t.both}

        def rank(t: Optional[TauB]):
            return None if t is None else {"tau": None if exact_tau(t) is None else str(exact_tau(t)),
                                           "tau_float": t.value, "concordant": t.P, "discordant": t.Q,
                                           "tied_measure_only": t.T, "tied_rank_only": t.U, "tied_both": t.both}

        return {"measure": self.measure, "judgments": self.judgments, "topics": self.topics,
                "tau_vs_full": tau(self.tau), "significant_full": self.significant_full,
                "significant": self.significant, "lost": [list(p) for p in self.lost],
                "gained": [list(p) for p in self.gained], "opposite": [list(p) for p in self.opposite],
                "rank_tau": rank(self.rank_tau), "rank_note": self.rank_note}


def tau_text(t: Optional[TauB]) -> str:
    """Tau-b to 3 digits: ``1`` (``-1``) only when exactly 1 (-1), ``>0.999`` when it rounds to 1 without being 1.

    >>> tau_text(TauB(5, 0, 0, 0)), tau_text(TauB(2, 0, 0, 1)), tau_text(TauB(4000, 1, 0, 0)), tau_text(None)
    ('1', '0.816', '>0.999', '')

    References
    ----------
    Kendall, Biometrika 1945.
    """
    if t is None:
        return ""
    if t.value is None:
        return "undefined"
    if t.T == 0 and t.U == 0 and (t.P == 0) != (t.Q == 0):
        return "1" if t.Q == 0 else "-1"
    text = f"{t.value:.3f}"
    return {"1.000": ">0.999", "-1.000": "<-0.999"}.get(text, text)


@dataclass(frozen=True)
class ThinningStudy:
    """Each measure on each set of judgments against the full judgments (module notes).

    Attributes
    ----------
    measures, systems : tuple of str
    sets : tuple of JudgmentSet
        ``full`` first.
    cells : tuple of ThinningCell
        One per measure and set (measures outer, sets inner, in order).
    seed : int
        Of the random fractions.
    test, correction : str
    alpha : float
    rank_depth : int
        ``N`` of ``rank[M]@N``.
    gains : str
        The gains of every set (the full qrels').
    incomplete : tuple of str
        The measures that read an unjudged document as unjudged (made for incomplete judgments).
    written : tuple of str
        Files a report was written to (by the caller; empty otherwise).
    """

    measures: tuple
    systems: tuple
    sets: tuple
    cells: tuple
    seed: int
    test: str
    correction: str
    alpha: float
    rank_depth: int
    gains: str
    incomplete: tuple = ()
    written: tuple = ()

    def cell(self, measure: str, judgments: str) -> ThinningCell:
        """The cell of ``measure`` on the set named ``judgments``.

        References
        ----------
        Buckley and Voorhees, SIGIR 2004.
        """
        for c in self.cells:
            if (c.measure, c.judgments) == (measure, judgments):
                return c
        raise WorkbenchError(f"no cell for measure {measure!r} on judgments {judgments!r}")

    @property
    def thinned(self) -> tuple:
        """The sets other than ``full``."""
        return tuple(s for s in self.sets if s.kind != "full")

    @property
    def pairs(self) -> int:
        """Pairs of systems tested."""
        n = len(self.systems)
        return n * (n - 1) // 2

    def tables(self) -> list[Table]:
        """The judgment sets, tau-b against the full judgments, changed conclusions, tau-b with ``rank[M]@N``.

        References
        ----------
        :mod:`workbench.core.table`.
        """
        sets = Table(["judgments", "kept", "of the full", "relevant kept", "topics scored"],
                     [[s.name, s.kept, Cell(s.fraction, f"{100 * float(s.fraction):.2f}%"), s.relevant,
                       self.cell(self.measures[0], s.name).topics] for s in self.sets],
                     align=[None, "r", "r", "r", "r"], caption="The sets of judgments")
        names = [s.name for s in self.thinned]
        tau = Table(["measure", *names],
                    [[m, *(_tau_cell(self.cell(m, n).tau) for n in names)] for m in self.measures],
                    align=[None] + ["r"] * len(names),
                    caption="Kendall's tau-b of the system ranking (exact means) against the full judgments")
        changed = Table(["measure", "significant (full)", *names],
                        [[m, self.cell(m, "full").significant,
                          *(_change_cell(self.cell(m, n)) for n in names)] for m in self.measures],
                        align=[None] + ["r"] * (len(names) + 1),
                        caption=f"Significance conclusions that change ({self._test_text()}; "
                                f"-lost/+gained, and 'opp' for opposite directions)")
        every = [s.name for s in self.sets]
        rank = Table(["measure", *every],
                     [[m, *(_tau_cell(self.cell(m, n).rank_tau) if self.cell(m, n).rank_note is None else "n/a"
                            for n in every)] for m in self.measures],
                     align=[None] + ["r"] * len(every),
                     caption=f"Kendall's tau-b of M against rank[M]@{self.rank_depth} on the same judgments")
        return [sets, tau, changed, rank]

    def _test_text(self) -> str:
        test = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test", "sign": "sign test",
                "randomization": "paired randomization test"}[self.test]
        corr = "" if self.correction == "none" else f", {self.correction} correction"
        return f"{test}{corr}, alpha {self.alpha:g}, {self.pairs} pairs of systems"

    def to_json(self) -> dict:
        """The setting, the sets and every cell, exact values as strings.

        References
        ----------
        docs/reference/cli.md (JSON contract).
        """
        return {"study": "thinning", "measures": list(self.measures), "systems": list(self.systems),
                "seed": self.seed, "test": self.test, "correction": self.correction, "alpha": self.alpha,
                "rank_depth": self.rank_depth, "gains": self.gains, "pairs": self.pairs,
                "incomplete": list(self.incomplete),
                "sets": [s.to_json() for s in self.sets], "cells": [c.to_json() for c in self.cells]}

    def to_frame(self):
        """One row per measure and set: tau-b against the full judgments, conclusions changed, tau-b with rank[M]@N.

        References
        ----------
        pandas ``DataFrame``.
        """
        frac = {s.name: float(s.fraction) for s in self.sets}
        rows = [{"measure": c.measure, "judgments": c.judgments, "fraction": frac[c.judgments], "topics": c.topics,
                 "tau": None if c.tau is None else c.tau.value, "significant_full": c.significant_full,
                 "significant": c.significant, "lost": len(c.lost), "gained": len(c.gained),
                 "opposite": len(c.opposite), "rank_tau": None if c.rank_tau is None else c.rank_tau.value}
                for c in self.cells]
        return frame(rows, list(rows[0]) if rows else ["measure", "judgments"])

    def __repr__(self) -> str:
        return (f"ThinningStudy({len(self.measures)} measures, {len(self.systems)} systems, "
                f"{len(self.thinned)} thinned sets of judgments, seed {self.seed})")

    def _repr_html_(self) -> str:
        names = [s.name for s in self.thinned]
        rows = [[m, *(tau_text(self.cell(m, n).tau) for n in names)] for m in self.measures]
        return html_table(rows, header=["measure", *names], kind="thinning",
                          caption="Kendall's tau-b against the full judgments")


def _tau_cell(t: Optional[TauB]):
    if t is None:
        return None
    e = exact_tau(t)
    return Cell(None if e is None else str(e), tau_text(t))


def _change_cell(c: ThinningCell) -> Cell:
    text = f"-{len(c.lost)}/+{len(c.gained)}" + (f" opp {len(c.opposite)}" if c.opposite else "")
    return Cell(c.changed, text)


def _rank(m: ScoreMatrix, depth: int, spaces: dict) -> tuple[Optional[TauB], Optional[str]]:
    """``M`` against ``rank[M]@depth`` on the same judgments, or the reason the transformation does not apply.

    The positions are those of :func:`workbench.data.ranked_matrix.ranked_matrix` (one
    :class:`~workbench.measures.ranked.SpacePositions` per measure, here kept in ``spaces`` across the sets
    of judgments, so that each topic space's attainable values are enumerated once for the whole study);
    the systems are ordered by their exact integer sums of positions over the topics where ``M`` is defined.
    """
    label = f"rank[{m.measure}]@{depth}"
    J = m.judged
    if not m.exact or m.spec is None or J is None:
        return None, f"{label}: the interval transformation needs an exact workbench measure, not {m.measure}"
    if depth > J.depth:
        return None, f"{label}: depth {depth} beyond the rankings scored ({J.depth} documents)"
    if m.spec.accepts_unjudged:
        return None, (f"{label}: {m.measure} reads unjudged documents, and the interval transformation places a "
                      f"value among those of the runs of depth {depth} over the judged grades only (no unjudged "
                      f"position), so a run with unjudged documents has no position there")
    key = (str(m.spec), str(J.gains))
    if key not in spaces:
        spaces[key] = SpacePositions(m.spec, J.gains, depth, MAX_SPACE, evaluate_measure)
    sp = spaces[key]
    row_of = {t: k for k, t in enumerate(J.topics)}
    try:
        sp.check([J.topic_objs[row_of[t]] for t in m.topics], label)
    except WorkbenchError as e:
        return None, str(e)
    sums = [0] * len(m.systems)
    kept = []
    for t in m.topics:
        k = row_of[t]
        try:
            pos, _ = sp.positions(J.topic_objs[k], J.arrays[k], label)
        except UndefinedMeasureError:
            continue
        sums = [a + int(b) for a, b in zip(sums, pos)]
        kept.append(t)
    if not kept:
        return None, f"{label}: undefined on every topic"
    signs = np.array([[(a > b) - (a < b) for b in sums] for a in sums], dtype=np.int64)
    return tau_b_from_signs(m.mean_signs(kept), signs), None


def thinning_study(qrels, runs, measures: Sequence[str] = MEASURES, pools: Sequence[int] = POOL_DEPTHS,
                   fractions: Sequence[int] = FRACTIONS, seed: int = SEED, test: str = "t",
                   correction: str = "holm", alpha: float = 0.05, rank_depth: int = RANK_DEPTH,
                   progress: Progress = None) -> ThinningStudy:
    """Each measure on each thinned set of judgments against the full judgments (module notes).

    Parameters
    ----------
    qrels
        ``{topic: {docid: grade}}`` or any shape of :func:`workbench.data.adapters.as_qrels`.
    runs
        ``{name: run}`` or run files (:func:`workbench.data.adapters.as_runs`); they make the pools.
    measures : sequence of str
        Measure names (:func:`workbench.data.score_matrix.score_matrices`), at least one.
    pools : sequence of int
        Pool depths (>= 1).
    fractions : sequence of int
        Percentages of each topic's judgments kept at random (1..99).
    seed : int
        Of the random fractions (>= 0).
    test, correction, alpha
        Of :func:`workbench.experiments.pairwise.pairwise_significance`.
    rank_depth : int
        ``N`` of ``rank[M]@N``.
    progress : callable, optional
        ``progress(stage, done, total)`` after each set of judgments.

    Returns
    -------
    ThinningStudy

    Examples
    --------
    >>> qrels = {str(t): {"a": 1, "b": 1, "c": 0, "n": 0, "m": 0} for t in range(6)}
    >>> runs = {"x": {str(t): ["a", "n", "b"][t % 3:] + ["c"] for t in range(6)},
    ...         "y": {str(t): ["n", "a", "m", "b"][t % 2:] for t in range(6)},
    ...         "z": {str(t): ["m", "n", "c", "a"][:2 + t % 3] for t in range(6)}}
    >>> s = thinning_study(qrels, runs, ["P@2", "RR"], pools=[1], fractions=[50], rank_depth=2)
    >>> s
    ThinningStudy(2 measures, 3 systems, 2 thinned sets of judgments, seed 0)
    >>> c = s.cell("RR", "random 50%")
    >>> c.topics, c.tau.value, c.significant_full, c.significant, c.lost
    (6, 1.0, 2, 1, (('x', 'z'),))
    >>> s.cell("P@2", "pool 1").topics     # topic 4: no relevant document in the pool of depth 1
    5

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006; Kendall, Biometrika 1945.
    """
    if isinstance(measures, str) or not measures:
        raise WorkbenchError(f"measures {measures!r}: give a non-empty list of measure names")
    if len(set(measures)) != len(measures):
        raise WorkbenchError(f"measures {tuple(measures)!r}: a measure is repeated")
    pools, fractions = check_pool_depths(pools), check_fractions(fractions)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise BadSamplingError(f"seed {seed!r}: must be an integer >= 0")
    qrels = as_qrels(qrels)
    runs = as_runs(runs)
    if len(runs) < 2:
        raise WorkbenchError(f"thinning: {len(runs)} run(s); compare at least two")
    top = max([g for q in qrels.values() for g in q.values()] + [1])
    gains = str(Gains.default(top))
    sets = judgment_sets(qrels, runs, pools, fractions, seed)
    names = list(measures)
    full: list = []
    full_rows: list = []
    cells = []
    spaces: dict = {}
    for k, s in enumerate(sets):
        ms = score_matrices(s.qrels, runs, names, view="graded", gains=gains)
        if k == 0:
            full = ms
        sig = pairwise_significance(ms, test=test, correction=correction, alpha=alpha, compare=[])
        rows = [sig.of(m.measure) for m in ms]
        if k == 0:
            full_rows = rows
        for j, m in enumerate(ms):
            tau = None if k == 0 else tau_b_from_signs(full[j].mean_signs(), m.mean_signs())
            ch = changes_between(full_rows[j], rows[j])
            pick = {kind: tuple((p.a, p.b) for p in ch.changes if p.kind == kind)
                    for kind in ("first", "second", "opposite")}
            rank_tau, note = _rank(m, rank_depth, spaces)
            cells.append((j, k, ThinningCell(m.measure, s.name, len(m.topics), tau,
                                             sum(r.reject for r in full_rows[j]), sum(r.reject for r in rows[j]),
                                             pick["first"], pick["second"], pick["opposite"], rank_tau, note)))
        if progress:
            progress(s.name, k + 1, len(sets))
    labels = tuple(m.measure for m in full)
    ordered = tuple(c for _, _, c in sorted(cells, key=lambda x: (x[0], x[1])))
    incomplete = tuple(m.measure for m in full if m.spec is not None and m.spec.accepts_unjudged)
    return ThinningStudy(labels, tuple(full[0].systems), sets, ordered, int(seed), test, correction, float(alpha),
                         rank_depth, gains, incomplete)
