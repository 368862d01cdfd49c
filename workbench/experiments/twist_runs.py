"""Twist over real TREC runs: per-run means, archetypes (Table 2), effort/gain grids and curve plots (Ferro et al. 2016).

For a set of TREC runs and graded qrels, :func:`twist_table` judges every
run on every topic of the qrels, scores all runs of a topic at once with
:func:`workbench.measures.crp.curves` (exact integer CRP, Fractions for the ratios)
and records per (run, topic) the Twist, recovery ratio, space ratio, first
crossing and archetype, plus the gain measures AP, nDCG and RBP(0.8) from
ir_measures.  :class:`TwistTable` gives the per-run mean Twist table, the
archetype distribution in the columns of Ferro et al. (2016), Table 2
(:meth:`TwistTable.distribution`) and the effort/gain grids of Ferro et al. (2016)
Fig. 7-10 (:meth:`TwistTable.effort_gain`, :class:`EffortGainGrid`,
:func:`workbench.figures.twist_plots.effort_gain_figure`).  :func:`topic_curve` gives the CRP and
DCG curves of one run on one topic (Ferro et al. 2016, Fig. 11), drawn by
:func:`workbench.figures.twist_plots.curve_figure`.

Conventions:

* **Depth.** A run's ranking (trec_eval order) is cut to ``depth`` documents
  and padded with non-relevant documents (grade 0) up to ``depth``, so every
  run has ``N = depth`` on every topic -- also runs that retrieve fewer
  documents, or none for a topic (listed under ``missing``).  Twist depends on
  ``N`` through the full-scale run (Ferro et al. 2016, Def. 14), so runs are only
  comparable at one common ``N``; Robust 2003 has runs of 10 and of 100
  documents per topic, which the padding places at ``N = 1000`` like the rest.
* **Judging.** Unjudged documents and negative grades count as grade 0
  (:func:`workbench.data.trec.judge`); their number within the top ``depth`` is
  reported per run.  The grade scale ``c`` is the highest grade of the qrels.
* **Topics.** Every topic of the qrels (whether or not a run answers it).
  Topics without a relevant document (``RB = 0``: Twist undefined) and topics
  with ``depth < 2 RB`` (the full-scale run, hence the space ratios and Twist,
  undefined: Def. 14) are skipped and listed with the reason.  When no topic
  is left, :class:`~workbench.errors.UndefinedMeasureError` says which depth
  would do; a run answering none of the qrels' topics is refused.
* **Runs** are files or any shape of :func:`workbench.data.adapters.as_run`
  (``{topic: [docid, ...]}``, ``{topic: {docid: score}}``, ``ScoredDoc``
  tuples, DataFrames, ranx, ir_datasets); runs given by scores are ranked as
  trec_eval ranks them (32-bit float scores unless ``score_precision="float64"``).
  Qrels: any shape of :func:`workbench.data.adapters.as_qrels`.
* **Size.** A depth whose arrays would need more than
  :func:`workbench.core.budget.memory_budget` (about ``8 N`` bytes per run
  and topic) is refused before anything is allocated
  (:class:`~workbench.errors.TooLargeError`, with the largest depth that fits).
* **Exactness.** Twist, recovery and space ratios are exact Fractions
  (identical to :meth:`workbench.measures.crp.Curves.twist`); floats appear only in
  tables, JSON and plots.  Means over topics are exact too.
* **Gain measures** (ir_measures, as in :mod:`workbench.ipso.trec_runs`): AP@N
  (pytrec_eval) and RBP(p=0.8) (cwl_eval) in the lenient binary view (grade
  >= 1 relevant, as Ferro et al. (2016) do), nDCG@N (pytrec_eval) graded with gain =
  grade and a log2 discount.  Ferro et al. (2016) use gains 5 and 10 (proportional to
  grades 1 and 2, so the same nDCG) but a log10 discount; the discount is the
  only difference.
* **Effort/gain grid** (Ferro et al. 2016, Fig. 7-10), over all scored (run, topic)
  points: rows are the quartiles of the gain measure's values, with
  thresholds ``q1 <= q2 <= q3`` from ``numpy.quantile`` (linear
  interpolation); a value equal to a threshold goes to the **lower** row, so
  rows are ``[min, q1]``, ``(q1, q2]``, ``(q2, q3]``, ``(q3, max]`` (many tied
  values, e.g. AP = 0, make the rows unequal).  Columns are Twist in
  ``[0, 1/4)``, ``[1/4, 1/2)``, ``[1/2, 3/4)``, ``[3/4, 1]``, the exact Twist
  compared with the exact thresholds (a Twist equal to a threshold goes to
  the **higher** column).  Diagonal quadrants: row ``i`` = column ``i``
  (lower left to upper right); high-high quadrants: the two top gain rows x
  Twist < 1/2.

Examples
--------
>>> qrels = {"1": {"a": 2, "b": 1, "n": 0}, "2": {"c": 1}, "3": {"x": 0}}
>>> ideal = {"1": ["a", "b"], "2": ["c"]}
>>> late = {"1": ["b", "n", "a"], "2": ["z"]}
>>> tab = twist_table(qrels, [ideal, late], depth=6, names=["ideal", "late"])
>>> [(r.run, r.topic, str(r.twist), r.archetype) for r in tab.rows]
[('ideal', '1', '1', 'ideal'), ('late', '1', '19/26', 'excellent'), ('ideal', '2', '1', 'ideal'), ('late', '2', '0', 'worst')]
>>> tab.skipped
[{'topic': '3', 'reason': 'no relevant document (recall base 0)'}]
>>> {d["run"]: str(d["mean_twist"]) for d in tab.run_means()}
{'ideal': '1', 'late': '19/52'}
>>> tab.distribution()["counts"]
{'ideal': 2, 'worst': 1, 'typical A': 0, 'typical B': 0, 'excellent': 1, 'full-scale': 0}

References
----------
Ferro, Silvello, Keskustalo, Pirkola, Järvelin, "The Twist measure for IR
evaluation: taking user's effort into account", JASIST 2016,
Def. 1-6 and 14, Table 2, Fig. 7-11.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from workbench.measures.crp import TABLE2, curves
from workbench.errors import TrecFormatError, UndefinedMeasureError, WorkbenchError
from workbench.core.budget import check_memory
from workbench.core.table import Cell, Table
from workbench.data.trec import topic_key as _topic_key
from workbench.space.runs import Topic, check_depth
from workbench.data.adapters import as_qrels, named_run, run_list
from workbench.data.trec import judge, require_common_topics, topic_of
from workbench.measures.twist import CROSSINGS

#: Gain measures of the effort/gain analysis (labels used in tables and JSON).
GAIN_MEASURES = ("AP", "nDCG", "RBP(0.8)")
#: The Twist columns of Ferro et al. (2016), Fig. 7-10.
TWIST_THRESHOLDS = (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))
#: The columns of Ferro et al. (2016), Table 2 (excellent = excellent + ups-and-downs), full-scale added.
TABLE2_COLUMNS = ("ideal", "worst", "typical A", "typical B", "excellent", "full-scale")
GAIN_NOTE = ("AP@N and RBP(p=0.8) lenient binary (grade >= 1 relevant), nDCG@N graded (gain = grade, log2 "
             "discount), all by ir_measures (pytrec_eval; cwl_eval for RBP); Ferro et al.'s (2016) nDCG uses a log10 "
             "discount.")
Progress = Optional[Callable[[str, int, int], None]]


# ---------------------------------------------------------------- gain measures
class _GainEvaluator:
    """AP@N, nDCG@N (pytrec_eval) and RBP(0.8) (cwl_eval) by ir_measures, on the top-N rankings."""

    def __init__(self, qrels: dict, depth: int):
        # ir_measures is slow to load; only scoring with it needs it
        import ir_measures
        from ir_measures import AP, RBP, nDCG

        self.ims = {"AP": AP(rel=1) @ depth, "nDCG": nDCG @ depth, "RBP(0.8)": RBP(p=0.8, rel=1)}
        self.label = {str(v): k for k, v in self.ims.items()}
        self.evaluator = ir_measures.evaluator(list(self.ims.values()), qrels)

    def scores(self, top: dict[str, list[str]], topics: Sequence[str]) -> dict[str, dict[str, float]]:
        """``{topic: {measure: value}}``; a topic the run does not answer scores 0."""
        out = {t: dict.fromkeys(GAIN_MEASURES, 0.0) for t in topics}
        # unique decreasing scores keep the given (trec_eval) order whatever the docids
        run = {t: {d: float(len(docs) - i) for i, d in enumerate(docs)} for t, docs in top.items() if docs}
        if run:
            for m in self.evaluator.iter_calc(run):
                if m.query_id in out:
                    out[m.query_id][self.label[str(m.measure)]] = float(m.value)
        return out


# ---------------------------------------------------------------- the table
@dataclass(frozen=True)
class TwistRow:
    """One (run, topic): exact Twist and its parts, archetype, gain measures."""

    run: str
    topic: str
    recall_base: int
    twist: Fraction
    recovery_ratio: Fraction
    space_ratio: Fraction
    first_crossing: Optional[int]
    archetype: str
    retrieved: int
    relevant_retrieved: int
    unjudged: int
    gains: dict = field(default_factory=dict)

    @property
    def table2(self) -> str:
        """The Table 2 column of the archetype."""
        return TABLE2[self.archetype]

    def twist_column(self) -> int:
        """Column of the effort/gain grid (:func:`twist_column`)."""
        return twist_column(self.twist)

    def to_dict(self) -> dict:
        return {"run": self.run, "topic": self.topic, "recall_base": self.recall_base,
                "twist": float(self.twist), "twist_exact": str(self.twist),
                "recovery_ratio": float(self.recovery_ratio), "recovery_ratio_exact": str(self.recovery_ratio),
                "space_ratio": float(self.space_ratio), "space_ratio_exact": str(self.space_ratio),
                "first_crossing": self.first_crossing, "archetype": self.archetype, "table2": self.table2,
                "retrieved": self.retrieved, "relevant_retrieved": self.relevant_retrieved,
                "unjudged": self.unjudged, "gains": dict(self.gains)}


def twist_column(twist: Fraction) -> int:
    """Column of the effort/gain grid: ``#{t in (1/4, 1/2, 3/4) : t <= twist}``, compared exactly.

    >>> twist_column(Fraction(1, 4)), twist_column(Fraction(3, 5))
    (1, 2)
    """
    return sum(1 for t in TWIST_THRESHOLDS if twist >= t)


def _mean(values: Sequence[Fraction]) -> Optional[Fraction]:
    return sum(values, Fraction(0)) / len(values) if values else None


def _pct(n: int, total: int) -> Optional[float]:
    return 100.0 * n / total if total else None


@dataclass(frozen=True)
class EffortGainGrid:
    """The 4 x 4 effort/gain grid of one gain measure (Ferro et al. 2016, Fig. 7-10).

    ``counts[i][j]``: points in gain row ``i`` (0 = lowest quartile) and Twist
    column ``j`` (0 = Twist < 1/4).

    >>> g = effort_gain_grid("AP", [0.1, 0.2, 0.3, 0.9], [Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)])
    >>> g.counts
    ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
    >>> g.diagonal, g.high_high, g.share("diagonal")
    (4, 0, 1.0)

    References
    ----------
    Ferro et al. (2016), sec. "Effort/Gain Plots", Fig. 7-10.
    """

    measure: str
    thresholds: tuple[float, float, float]
    counts: tuple[tuple[int, int, int, int], ...]

    @property
    def total(self) -> int:
        return sum(map(sum, self.counts))

    @property
    def diagonal(self) -> int:
        """Points in the diagonal quadrants (row i = column i)."""
        return sum(self.counts[i][i] for i in range(4))

    @property
    def high_high(self) -> int:
        """Points in the four upper-left quadrants: top two gain rows x Twist < 1/2."""
        return sum(self.counts[i][j] for i in (2, 3) for j in (0, 1))

    def share(self, which: str) -> Optional[float]:
        """``diagonal`` or ``high_high`` as a fraction of all points (``None`` without points)."""
        n = {"diagonal": self.diagonal, "high_high": self.high_high}[which]
        return n / self.total if self.total else None

    def to_dict(self) -> dict:
        return {"measure": self.measure, "gain_thresholds": list(self.thresholds),
                "twist_thresholds": [str(t) for t in TWIST_THRESHOLDS],
                "counts": [list(r) for r in self.counts], "rows": "0 = lowest gain quartile",
                "columns": "0 = Twist < 1/4", "total": self.total,
                "diagonal": self.diagonal, "diagonal_share": self.share("diagonal"),
                "high_high": self.high_high, "high_high_share": self.share("high_high")}

    def markdown(self) -> str:
        q = self.thresholds
        heads = ["gain row", "Twist [0, 1/4)", "[1/4, 1/2)", "[1/2, 3/4)", "[3/4, 1]"]
        spans = [f"[min, {q[0]:.4f}]", f"({q[0]:.4f}, {q[1]:.4f}]", f"({q[1]:.4f}, {q[2]:.4f}]", f"({q[2]:.4f}, max]"]
        lines = Table(heads, [[f"Q{i + 1} {spans[i]}", *self.counts[i]] for i in (3, 2, 1, 0)]).markdown_lines()
        lines.append("")
        lines.append(f"{self.measure}: diagonal {self.diagonal} / {self.total} = {100 * self.share('diagonal'):.2f}%, "
                     f"high-high {self.high_high} / {self.total} = {100 * self.share('high_high'):.2f}%")
        return "\n".join(lines)


def gain_rows(values: Sequence[float]) -> tuple[tuple[float, float, float], np.ndarray]:
    """Quartile thresholds of ``values`` and each value's row (ties at a threshold go to the lower row).

    >>> thr, rows = gain_rows([0, 0, 0, 0, 1, 2])
    >>> thr, rows.tolist()
    ((0.0, 0.0, 0.75), [0, 0, 0, 0, 3, 3])

    References
    ----------
    Ferro et al. (2016), sec. "Effort/Gain Plots" (rows = quartiles of the gain measure).
    """
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return (float("nan"),) * 3, np.zeros(0, dtype=int)
    thr = tuple(float(x) for x in np.quantile(v, [0.25, 0.5, 0.75]))
    return thr, np.searchsorted(np.asarray(thr), v, side="left")


def effort_gain_grid(measure: str, gain_values: Sequence[float], twists: Sequence[Fraction]) -> EffortGainGrid:
    """The effort/gain grid of paired gain values and exact Twist values (see the module conventions).

    Examples
    --------
    >>> g = effort_gain_grid("RBP(0.8)", [0, 0, 0, 0.5, 0.9, 0.9], [Fraction(1, 2)] * 3 + [Fraction(1, 4)] * 3)
    >>> g.thresholds, g.counts[0], g.counts[3], g.high_high
    ((0.0, 0.25, 0.8), (0, 0, 3, 0), (0, 2, 0, 0), 3)

    References
    ----------
    Ferro et al. (2016), Fig. 7-10.
    """
    if len(gain_values) != len(twists):
        raise WorkbenchError(f"effort/gain grid: {len(gain_values)} gain values but {len(twists)} Twist values")
    thr, rows = gain_rows(gain_values)
    counts = [[0] * 4 for _ in range(4)]
    for r, t in zip(rows, twists):
        counts[int(r)][twist_column(t)] += 1
    return EffortGainGrid(measure, thr, tuple(tuple(r) for r in counts))


@dataclass
class TwistTable:
    """Twist of every (run, topic): rows, skipped topics, and the summaries of Ferro et al. (2016)."""

    runs: list[str]
    depth: int
    crossing: str
    grades: int
    topics: list[str]
    rows: list[TwistRow]
    skipped: list[dict]
    missing: dict
    unjudged: dict
    short: dict
    gain_measures: tuple = GAIN_MEASURES
    notes: list = field(default_factory=list)

    def run_means(self) -> list[dict]:
        """Per run: topics scored, exact mean Twist / recovery / space ratio, mean gains, Table 2 counts."""
        out = []
        for name in self.runs:
            rs = [r for r in self.rows if r.run == name]
            counts = dict.fromkeys(TABLE2_COLUMNS, 0)
            for r in rs:
                counts[r.table2] += 1
            out.append({"run": name, "topics": len(rs),
                        "mean_twist": _mean([r.twist for r in rs]),
                        "mean_recovery_ratio": _mean([r.recovery_ratio for r in rs]),
                        "mean_space_ratio": _mean([r.space_ratio for r in rs]),
                        "mean_gains": {m: (float(np.mean([r.gains[m] for r in rs])) if rs else None)
                                       for m in self.gain_measures},
                        "archetypes": counts})
        return out

    def distribution(self) -> dict:
        """Archetypes of all (run, topic) rows in the columns of Ferro et al. (2016), Table 2: counts and percentages."""
        counts = dict.fromkeys(TABLE2_COLUMNS, 0)
        fine = {}
        for r in self.rows:
            counts[r.table2] += 1
            fine[r.archetype] = fine.get(r.archetype, 0) + 1
        total = len(self.rows)
        return {"total": total, "counts": counts,
                "percentages": {k: _pct(v, total) for k, v in counts.items()},
                "ups_and_downs": fine.get("ups-and-downs", 0)}

    def effort_gain(self) -> dict[str, EffortGainGrid]:
        """One :class:`EffortGainGrid` per gain measure over all scored (run, topic) points."""
        tw = [r.twist for r in self.rows]
        return {m: effort_gain_grid(m, [r.gains[m] for r in self.rows], tw) for m in self.gain_measures}

    def to_dict(self, per_topic: bool = False) -> dict:
        """JSON-ready summary; exact values per row as strings (``per_topic``), means as floats.

        The exact means (:meth:`run_means`) are left out: over 100 topics their
        denominators already have some 500 digits.
        """

        def f(x):
            return None if x is None else float(x)

        out = {
            "runs": self.runs, "depth": self.depth, "crossing": self.crossing, "grades": self.grades,
            "topics": self.topics, "n_topics": len(self.topics), "n_points": len(self.rows),
            "skipped_topics": self.skipped, "missing_topics": self.missing,
            "unjudged_in_top_depth": self.unjudged, "runs_shorter_than_depth": self.short,
            "per_run": [{"run": d["run"], "topics": d["topics"], "mean_twist": f(d["mean_twist"]),
                         "mean_recovery_ratio": f(d["mean_recovery_ratio"]),
                         "mean_space_ratio": f(d["mean_space_ratio"]), "mean_gains": d["mean_gains"],
                         "archetypes": d["archetypes"], "unjudged": self.unjudged.get(d["run"], 0)}
                        for d in self.run_means()],
            "table2": self.distribution(),
            "effort_gain": ({m: g.to_dict() for m, g in self.effort_gain().items()}
                            if self.gain_measures and self.rows else {}),
            "notes": self.notes,
        }
        if per_topic:
            out["rows"] = [r.to_dict() for r in self.rows]
        return out

    def markdown(self, per_topic: bool = False) -> str:
        def f(x, nd=4):
            return "-" if x is None else f"{float(x):.{nd}f}"

        lines = [f"# Twist of {len(self.runs)} run(s) over {len(self.topics)} topic(s) at depth N = {self.depth}", "",
                 f"Crossing: {self.crossing}. Grades 0..{self.grades}. Every run is cut to N and padded with "
                 "grade 0 up to N; unjudged documents count as grade 0."]
        for s in self.skipped:
            lines.append(f"Skipped topic {s['topic']}: {s['reason']}.")
        if self.short:
            lines.append("Runs with fewer than N documents on some topic (padded): "
                         + ", ".join(f"{k} ({v} topics)" for k, v in self.short.items()) + ".")
        for k, v in self.missing.items():
            if v:
                lines.append(f"Topics missing from {k} (all grade 0): {', '.join(v)}.")
        lines += [n for n in self.notes]
        head = ["run", "topics", "mean Twist", "mean rho", "mean sigma"] + [f"mean {m}" for m in self.gain_measures] \
            + list(TABLE2_COLUMNS) + ["unjudged"]
        def shown(v, digits: int = 4):
            return Cell(v, f(v, digits))

        lines += ["", "## Mean Twist per run", ""] + Table(head, [
            [d["run"], d["topics"], shown(d["mean_twist"]), shown(d["mean_recovery_ratio"]),
             shown(d["mean_space_ratio"])] + [shown(d["mean_gains"][m]) for m in self.gain_measures]
            + [d["archetypes"][k] for k in TABLE2_COLUMNS] + [self.unjudged.get(d["run"], 0)]
            for d in self.run_means()]).markdown_lines()
        dist = self.distribution()
        lines += ["", "## Archetypes (Ferro et al. 2016, Table 2 columns; excellent includes ups-and-downs)", ""]
        lines += Table(["total", *TABLE2_COLUMNS], [
            [dist["total"]] + [Cell(dist["percentages"][k], f(dist["percentages"][k], 2) + "%") for k in TABLE2_COLUMNS],
            ["count"] + [dist["counts"][k] for k in TABLE2_COLUMNS]]).markdown_lines()
        lines += ["", f"(ups-and-downs among excellent: {dist['ups_and_downs']})"]
        if self.gain_measures and self.rows:
            lines += ["", "## Effort/gain grids (Ferro et al. 2016, Fig. 7-10)", "",
                      "Rows: gain quartiles (a value equal to a threshold goes to the lower row), top row = highest; "
                      "columns: exact Twist in [0, 1/4), [1/4, 1/2), [1/2, 3/4), [3/4, 1].", ""]
            for m, g in self.effort_gain().items():
                lines += [f"### {m}", "", g.markdown(), ""]
        if per_topic:
            head = ["run", "topic", "RB", "Twist", "rho", "sigma", "first crossing", "archetype"] + list(self.gain_measures)
            lines += ["", "## Per topic", ""] + Table(head, [
                [r.run, r.topic, r.recall_base, shown(r.twist), shown(r.recovery_ratio), shown(r.space_ratio),
                 Cell(r.first_crossing, str(r.first_crossing or "-")), r.archetype]
                + [shown(r.gains[m]) for m in self.gain_measures] for r in self.rows]).markdown_lines()
        return "\n".join(lines) + "\n"


def _no_topic_left(qrels: dict, depth: int) -> UndefinedMeasureError:
    """The error of a Twist table without a scorable topic: which depth would do."""
    rbs = {t: sum(1 for g in q.values() if g >= 1) for t, q in qrels.items()}
    rbs = {t: rb for t, rb in rbs.items() if rb}
    if not rbs:
        return UndefinedMeasureError("no topic of the qrels has a relevant document (grade >= 1): Twist is undefined")
    t = min(rbs, key=lambda x: (rbs[x], _topic_key(x)))
    return UndefinedMeasureError(
        f"depth {depth}: no topic can be scored, Twist needs N >= 2 RB (Ferro et al. 2016, Def. 14) and the smallest "
        f"2 RB is {2 * rbs[t]} (topic {t}); use depth >= {2 * rbs[t]}")


def _scale(qrels: dict) -> int:
    return max([g for q in qrels.values() for g in q.values()] + [1])


def _check_runs(runs: Sequence) -> list:
    runs = run_list(runs)
    if not runs:
        raise WorkbenchError("twist: give at least one run")
    for r in runs:
        if isinstance(r, (str, Path)) and not Path(r).is_file():
            raise TrecFormatError(f"{r}: no such file")
    return runs


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


def score_topic(block: np.ndarray, topic: Topic, crossing: str = "literal"):
    """Exact ``(twist, rho, sigma, first crossing, archetype)`` of each row of ``block`` (depth ``N >= 2 RB``).

    One :func:`workbench.measures.crp.curves` call; the spaces of all runs and the
    full-scale spaces are computed once, the ratios per run as Fractions (the
    same numbers as :meth:`~workbench.measures.crp.Curves.twist`).

    >>> [tuple(map(str, t[:3])) + t[3:] for t in score_topic(np.array([[1, 0, 0, 0], [0, 0, 0, 1]]), Topic((1,)))]
    [('1', '1', '1', 1, 'ideal'), ('1/6', '1/3', '0', 3, 'full-scale')]

    References
    ----------
    Ferro et al. (2016), Def. 3-6.
    """
    c = curves(block, topic, crossing)
    out = []
    for i in range(c.n):
        rho, sigma = c.recovery_ratio(i), c.space_ratios(i)[2]
        out.append(((rho + sigma) / 2, rho, sigma, int(c.first_crossing[i]) or None, c.archetype(i)))
    return out


def twist_table(qrels, runs: Sequence, depth: int = 1000, crossing: str = "literal", names: Sequence[str] | None = None,
                gain_measures: bool = True, progress: Progress = None, score_precision: str = "float32") -> TwistTable:
    """Twist, its parts and the archetype of every run on every topic of the qrels (Ferro et al. 2016).

    Parameters
    ----------
    qrels
        ``{topic: {docid: grade}}``, a qrels file (plain or gzip) or any shape
        of :func:`workbench.data.adapters.as_qrels`.
    runs : sequence of runs
        TREC run files (plain or gzip) or runs of any shape of
        :func:`workbench.data.adapters.as_run`.
    depth : int
        ``N``: every ranking is cut to ``depth`` and padded with grade 0 up
        to ``depth`` (module conventions).
    crossing : {"literal", "strict"}
        Def. 3's crossing set (:mod:`workbench.measures.twist`).
    names : sequence of str, optional
        Run names (default: file names, ``run1``, ``run2``... for dicts).
    gain_measures : bool
        Also score AP, nDCG and RBP(0.8) with ir_measures (needed for the
        effort/gain grids).
    progress : callable, optional
        ``progress(stage, done, total)``; stages ``"runs"`` (read, judge,
        gain measures; once per run) and ``"topics"`` (Twist; once per topic).
    score_precision : {"float32", "float64"}
        Scores compared as trec_eval's 32-bit floats (default) or as doubles.

    Returns
    -------
    TwistTable

    Examples
    --------
    >>> tab = twist_table({"7": {"a": 1, "b": 1}}, [{"7": ["x", "a", "y", "b"]}], depth=4)
    >>> r = tab.rows[0]
    >>> str(r.twist), str(r.recovery_ratio), str(r.space_ratio), r.first_crossing, r.archetype
    ('1/2', '2/3', '1/3', 3, 'typical A')
    >>> round(r.gains["AP"], 4), tab.unjudged
    (0.5, {'run1': 2})

    References
    ----------
    Ferro et al. (2016), Def. 1-6 and 14, Table 2.
    """
    check_depth(depth)
    if crossing not in CROSSINGS:
        raise WorkbenchError(f"crossing={crossing!r}: use one of {', '.join(CROSSINGS)}")
    runs = _check_runs(runs)
    if names is not None and len(names) != len(runs):
        raise WorkbenchError(f"{len(names)} names for {len(runs)} runs")
    qrels = as_qrels(qrels)
    c = _scale(qrels)
    topics, skipped, tobj = [], [], {}
    for t in sorted(qrels, key=_topic_key):
        rb = sum(1 for g in qrels[t].values() if g >= 1)
        if rb == 0:
            skipped.append({"topic": t, "reason": "no relevant document (recall base 0)"})
        elif depth < 2 * rb:
            skipped.append({"topic": t, "reason": f"depth {depth} < 2 RB = {2 * rb}: the full-scale run, "
                                                  "hence the space ratios and Twist, are undefined (Ferro et al. 2016, Def. 14)"})
        else:
            topics.append(t)
            tobj[t] = topic_of(qrels[t], c)
    if not topics:
        raise _no_topic_left(qrels, depth)
    check_memory(f"Twist of {len(runs)} run(s) x {len(topics)} topic(s)", "depth", depth,
                 8 * len(runs) * len(topics) + 64 * len(runs) + 32 * (c + 1))
    ev = _GainEvaluator(qrels, depth) if gain_measures and topics else None
    run_names: list[str] = []
    blocks = {t: np.zeros((len(runs), depth), dtype=np.int64) for t in topics}
    info: dict[tuple[int, str], tuple[int, int, int]] = {}
    gains: list[dict] = []
    missing, unjudged, short = {}, {}, {}
    for i, run in enumerate(runs):
        ranking, name = named_run(run, f"run{i + 1}", score_precision)
        require_common_topics(ranking, qrels, names[i] if names is not None else name)
        run_names.append(names[i] if names is not None else name)
        miss, unj, shorter, top = [], 0, 0, {}
        for t in topics:
            docs = ranking.get(t, [])[:depth]
            if not docs:
                miss.append(t)
            if len(docs) < depth:
                shorter += 1
            grades, u = judge(docs, qrels[t])
            if grades:
                blocks[t][i, :len(grades)] = grades
            unj += u
            info[(i, t)] = (len(docs), sum(1 for g in grades if g >= 1), u)
            top[t] = docs
        missing[i], unjudged[i], short[i] = miss, unj, shorter
        gains.append(ev.scores(top, topics) if ev else {t: {} for t in topics})
        if progress:
            progress("runs", i + 1, len(runs))
    run_names = _unique(run_names)
    rows = []
    for k, t in enumerate(topics):
        for i, (tw, rho, sigma, first, arch) in enumerate(score_topic(blocks[t], tobj[t], crossing)):
            n_docs, rel, u = info[(i, t)]
            rows.append(TwistRow(run_names[i], t, tobj[t].recall_base, tw, rho, sigma, first, arch,
                                 n_docs, rel, u, gains[i][t]))
        if progress:
            progress("topics", k + 1, len(topics))
    return TwistTable(run_names, depth, crossing, c, topics, rows, skipped,
                      {run_names[i]: v for i, v in missing.items() if v},
                      {run_names[i]: v for i, v in unjudged.items()},
                      {run_names[i]: v for i, v in short.items() if v},
                      GAIN_MEASURES if gain_measures else (), [GAIN_NOTE] if gain_measures else [])


@dataclass
class TopicCurve:
    """One run on one topic: judged grades, CRP/RP (exact), DCG (float), Twist row, gain measures."""

    run: str
    topic_id: str
    topic: Topic
    depth: int
    crossing: str
    grades: tuple[int, ...]
    row: dict
    gains: dict
    unjudged: int
    retrieved: int

    @property
    def dcg(self) -> np.ndarray:
        """``DCG_k = sum_{i <= k} g_i / log2(i + 1)`` with gain = grade (floats, for plotting)."""
        g = np.asarray(self.grades, dtype=float)
        return np.cumsum(g / np.log2(np.arange(2, len(g) + 2)))

    def to_dict(self) -> dict:
        r = {k: v for k, v in self.row.items() if k not in ("rp", "crp")}
        return {"run": self.run, "topic_id": self.topic_id, "topic": list(self.topic.counts),
                "recall_base": self.topic.recall_base, "depth": self.depth, "crossing": self.crossing,
                "retrieved": self.retrieved, "unjudged": self.unjudged,
                "relevant_retrieved": sum(1 for g in self.grades if g >= 1), **r,
                "twist_float": None if r.get("twist") is None else float(Fraction(r["twist"])),
                "gains": self.gains, "dcg_at_depth": float(self.dcg[-1])}


def topic_curve(qrels, run, topic_id: str, depth: int = 1000, crossing: str = "literal",
                name: str | None = None, gain_measures: bool = True, score_precision: str = "float32") -> TopicCurve:
    """CRP, crossings, Twist and archetype of one run on one topic (ranking cut and padded to ``depth``).

    Qrels and run may take any shape of :mod:`workbench.data.adapters`
    (``score_precision`` as in :func:`twist_table`).  Raises
    :class:`~workbench.errors.WorkbenchError` for a topic not in the qrels or
    without a relevant document.  When ``depth < 2 RB`` the row has
    ``twist = None`` and says why (``undefined``).

    >>> tc = topic_curve({"1": {"a": 1, "b": 1}}, {"1": ["x", "a", "b"]}, "1", depth=4, gain_measures=False)
    >>> tc.row["crp"], tc.row["twist"], tc.row["archetype"]
    ([-2, -2, -1, -1], '2/9', 'typical B')

    References
    ----------
    Ferro et al. (2016), Def. 1-6, Fig. 11.
    """
    check_depth(depth)
    if crossing not in CROSSINGS:
        raise WorkbenchError(f"crossing={crossing!r}: use one of {', '.join(CROSSINGS)}")
    _check_runs([run])
    qrels = as_qrels(qrels)
    topic_id = str(topic_id)
    if topic_id not in qrels:
        known = sorted(qrels, key=_topic_key)
        shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
        raise WorkbenchError(f"topic id {topic_id!r} is not in the qrels (topics: {shown})")
    if not any(g >= 1 for g in qrels[topic_id].values()):
        raise WorkbenchError(f"topic {topic_id}: no relevant document in the qrels (recall base 0): Twist undefined")
    topic = topic_of(qrels[topic_id], _scale(qrels))
    check_memory("the curves of one run", "depth", depth, 320)
    ranking, rname = named_run(run, "run", score_precision)
    docs = ranking.get(topic_id, [])[:depth]
    grades, unj = judge(docs, qrels[topic_id])
    grades = tuple(grades) + (0,) * (depth - len(grades))
    row = curves([grades], topic, crossing).row(0)
    g = {}
    if gain_measures:
        g = _GainEvaluator(qrels, depth).scores({topic_id: docs}, [topic_id])[topic_id]
    return TopicCurve(name or rname, topic_id, topic, depth, crossing, grades, row, g, unj, len(docs))
