"""IPSO over topics: two TREC runs compared topic by topic, and all pairs of a set of runs.

For two systems' runs at depth ``k`` every topic of the qrels gets its IPSO
category (``equal``, ``ni``, ``ns``, ``nonsep``) and trace, from the prefix
sums of the gains of the two judged SERPs (Moffat and Mackenzie 2024, Algorithm 1).  The counts
``|ni|``, ``|ns|``, ``|equal|``, ``|nonsep|`` feed a two-tailed sign test on
``|ni|`` vs ``|ns|`` (Moffat and Mackenzie 2024, sec. 3.5).  The per-topic table follows Moffat and Mackenzie (2024)
Fig. 5.

This module holds reading and judging runs (:class:`View`,
:func:`prepare_runs`), the IPSO category of two SERPs
(:func:`ipso_category`), the IPSO sign test (:func:`sign_test`) and the
two-run comparison (:func:`compare_runs`, :class:`RunComparison`, Fig. 5 rows).
The all-pairs agreement of the IPSO sign test with each metric's paired
t-test, Wilcoxon signed-rank and sign tests (Fig. 7) is in
:mod:`workbench.ipso.agreement`.

Conventions (the paper's where it states one):

* A SERP is the top ``k`` documents of a run in trec_eval's order (score
  descending, ties by docid descending); unjudged documents and negative
  grades count as not relevant, and their number (within the top ``k``) is
  reported per run and topic.  A SERP shorter than ``k`` is padded with
  non-relevant documents.
* The topics are those of the qrels.  A topic the run does not answer is an
  empty SERP (all non-relevant, every metric 0) and is listed under
  ``missing``.
* Binary view (the paper's; the default): a document is relevant when its
  grade is at least ``relevance_level``.  Graded view: ``gains`` maps grade
  ``j`` to ``g(j)``; IPSO uses prefix sums of gains and nDCG uses those gains.
  RR, P and AP are binary at ``relevance_level`` in both views.
* Metrics, all on the top-``k`` SERP: RR, P@k, AP (AP@k, divided by all
  relevant documents of the qrels) and nDCG@k are computed by ir_measures with
  its pytrec_eval provider (``iter_calc``); RBP(0.5) and RBP(0.8) in the
  binary view by ir_measures with its cwl_eval provider.  ir_measures' RBP is
  binary, so in the graded view **gRBP is computed exactly by**
  :mod:`workbench.measures.measure` with the gains and converted to float.
* Metric values are trec_eval's floats: a per-topic difference of magnitude
  below ``TIE = 1e-12`` is a tie (see :mod:`workbench.ipso.agreement` for the
  paired tests).  The sign test's significance is ``p < alpha``; with
  ``|ni| + |ns| = 0`` it has p = 1.

Examples
--------
>>> qrels = {"1": {"a": 1, "b": 1}, "2": {"c": 1}}
>>> res = compare_runs({"1": ["a", "x"], "2": ["y", "c"]}, {"1": ["x", "a"], "2": ["c"]}, qrels, 2)
>>> [(r.topic, r.serp_a, r.serp_b, r.category) for r in res.rows]
[('2', '01', '10', 'ns'), ('1', '10', '01', 'ni')]
>>> res.counts
{'ni': 1, 'ns': 1, 'equal': 0, 'nonsep': 0}

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 2024, Algorithm 1, sec. 3.4-3.5, Fig. 5 and Fig. 7.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Optional, Sequence

import numpy as np

from workbench.errors import WorkbenchError
from workbench.core.budget import check_memory
from workbench.space.runs import Gains, check_depth
from workbench.data.adapters import as_qrels, named_run, run_list
from workbench.data.trec import topic_key as _topic_key, judge, require_common_topics
from workbench.core.exact import to_float
from workbench.core.table import Cell, Table
from workbench.ipso.compare import compare
from workbench.measures.measure import Measure

METRICS = ("RR", "P@k", "RBP(0.5)", "RBP(0.8)", "AP", "nDCG@k")
CATEGORIES = ("ni", "ns", "equal", "nonsep")
SYMBOL = {"equal": "==", "ni": "ni", "ns": "ns", "nonsep": "**"}
TIE = 1e-12
Progress = Optional[Callable[[str, int, int], None]]


@dataclass(frozen=True)
class View:
    """How grades become SERP values: binary at a relevance level, or graded with gains.

    >>> v = View.make(None, 2)
    >>> v.serp([0, 1, 2, -1]), v.graded
    ((0, 0, 1, 0), False)
    >>> View.make(Gains.parse("0,1,3")).serp([2, 0, 1])
    (2, 0, 1)

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3.1 (binary, grade >= 1 relevant, unjudged not relevant).
    """

    gains: Gains
    relevance_level: int
    graded: bool

    @classmethod
    def make(cls, gains: Gains | str | None = None, relevance_level: int = 1) -> "View":
        if isinstance(relevance_level, bool) or not isinstance(relevance_level, int) or relevance_level < 1:
            raise WorkbenchError(f"relevance level {relevance_level!r}: must be an integer >= 1")
        if isinstance(gains, str):
            gains = Gains.parse(gains)
        if gains is None:
            return cls(Gains.default(1), relevance_level, False)
        return cls(gains, relevance_level, True)

    def serp(self, grades: Sequence[int]) -> tuple[int, ...]:
        if not self.graded:
            return tuple(1 if g >= self.relevance_level else 0 for g in grades)
        out = tuple(max(int(g), 0) for g in grades)
        for g in out:
            if g > self.gains.grades:
                raise WorkbenchError(f"grade {g} in the qrels has no gain in --gains {self.gains} (give {g + 1} values)")
        return out

    def describe(self) -> str:
        if self.graded:
            return f"graded, gains {self.gains}; RR/P/AP relevant at grade >= {self.relevance_level}"
        return f"binary, relevant at grade >= {self.relevance_level}"


def ipso_category(run_a: Sequence[int], run_b: Sequence[int], gains: Gains | None = None) -> tuple[str, tuple[str, ...]]:
    """IPSO category and trace of two judged SERPs of equal length (Moffat and Mackenzie 2024, Algorithm 1).

    Exact prefix sums of gains; the trace holds the category at depths
    ``1..k``.  A thin, cached wrapper around :func:`workbench.ipso.compare.compare`
    (real SERPs repeat a lot: empty and identical SERPs).

    >>> ipso_category((1, 0, 1, 1), (1, 1, 0, 0))
    ('nonsep', ('equal', 'ns', 'ns', 'nonsep'))
    >>> ipso_category((2, 0), (1, 1), Gains.parse("0,1,2"))[0]
    'ni'

    References
    ----------
    Moffat and Mackenzie (2024), Algorithm 1; docs/theory/ipso.md.
    """
    if len(run_a) != len(run_b):
        raise WorkbenchError(f"SERPs of lengths {len(run_a)} and {len(run_b)}: need equal depth")
    return _cached_category(tuple(run_a), tuple(run_b), gains)


@lru_cache(maxsize=65536)
def _cached_category(run_a: tuple, run_b: tuple, gains: Gains | None):
    c = compare(run_a, run_b, gains, len(run_a))
    return c.category, tuple(c.trace)


@dataclass(frozen=True)
class SignTest:
    """Two-tailed sign test on ``|ni|`` vs ``|ns|`` (or positive vs negative differences)."""

    ni: int
    ns: int
    p: float
    significant: bool
    favours: str  # "A", "B" or "none"

    def to_dict(self) -> dict:
        return {"ni": self.ni, "ns": self.ns, "p": self.p, "significant": self.significant, "favours": self.favours}


def sign_test(ni: int, ns: int, alpha: float = 0.05) -> SignTest:
    """Two-tailed exact sign test of ``ni`` successes against ``ns`` (``scipy.stats.binomtest``).

    With ``ni + ns = 0`` there is nothing to test: p = 1.

    >>> st = sign_test(109, 81)
    >>> round(st.p, 4), st.significant, st.favours
    (0.0499, True, 'A')

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3.5 (81 ns vs 109 ni topics, p = 0.0499).
    """
    # scipy.stats is slow to load (~1 s); only these statistics use it
    from scipy.stats import binomtest

    n = ni + ns
    p = float(binomtest(ni, n, 0.5, alternative="two-sided").pvalue) if n else 1.0
    sig = p < alpha
    fav = "none" if not sig else ("A" if ni > ns else "B")
    return SignTest(ni, ns, p, sig, fav)


@dataclass
class PreparedRun:
    """One run read once: per-topic judged SERPs at depth k, unjudged counts, metric values."""

    name: str
    depth: int
    serps: dict[str, tuple[int, ...]]
    unjudged: dict[str, int]
    missing: tuple[str, ...]
    scores: dict[str, np.ndarray]  # metric label -> values in topic order
    topics: tuple[str, ...]

    @property
    def unjudged_total(self) -> int:
        return sum(self.unjudged.values())


class _Evaluator:
    """ir_measures for the metrics (pytrec_eval; cwl_eval for binary RBP); workbench.measures.measure for graded RBP."""

    def __init__(self, qrels: dict, depth: int, view: View):
        # ir_measures is slow to load; only scoring with it needs it
        import ir_measures
        from ir_measures import AP, RBP, RR, P, nDCG

        L = view.relevance_level
        all_grades = {g for q in qrels.values() for g in q.values()}
        if view.graded:
            gmap = {}
            for g in all_grades:
                v = view.gains.values[g] if 0 <= g <= view.gains.grades else None
                if g > view.gains.grades:
                    raise WorkbenchError(f"grade {g} in the qrels has no gain in --gains {view.gains} (give {g + 1} values)")
                v = Fraction(0) if v is None else v
                if v.denominator != 1:
                    raise WorkbenchError(f"gains {view.gains}: pytrec_eval's nDCG needs integer gains")
                gmap[g] = int(v)
        else:
            gmap = {g: int(g >= L) for g in all_grades}
        self.ims = {"RR": RR(rel=L), "P@k": P(rel=L) @ depth, "AP": AP(rel=L) @ depth, "nDCG@k": nDCG(gains=gmap) @ depth}
        self.rbp = {}
        if view.graded:
            # ir_measures' RBP (cwl_eval) is binary: graded RBP is computed exactly here.
            self.rbp = {"RBP(0.5)": Measure("gRBP", {"p": Fraction(1, 2)}, cutoff=depth),
                        "RBP(0.8)": Measure("gRBP", {"p": Fraction(4, 5)}, cutoff=depth)}
        else:
            # cwl_eval's RBP takes no cut-off; the runs passed in are already the top k.
            self.ims["RBP(0.5)"] = RBP(p=0.5, rel=L)
            self.ims["RBP(0.8)"] = RBP(p=0.8, rel=L)
        self.evaluator = ir_measures.evaluator(list(self.ims.values()), qrels)
        self.view = view

    def scores(self, top: dict[str, list[str]], topics: Sequence[str], serps: dict) -> dict[str, np.ndarray]:
        idx = {t: i for i, t in enumerate(topics)}
        out = {m: np.zeros(len(topics)) for m in METRICS}
        run = {t: {d: float(len(docs) - i) for i, d in enumerate(docs)} for t, docs in top.items() if docs and t in idx}
        label = {str(v): k for k, v in self.ims.items()}
        for m in self.evaluator.iter_calc(run):
            out[label[str(m.measure)]][idx[m.query_id]] = float(m.value)
        block = np.asarray([serps[t] for t in topics], dtype=np.int64)
        for name, meas in self.rbp.items():
            out[name] = np.asarray([to_float(v) for v in meas.evaluate(block, self.view.gains).values()])
        return out


def prepare_runs(runs: Sequence, qrels, depth: int, gains: Gains | str | None = None, relevance_level: int = 1,
                 names: Sequence[str] | None = None, progress: Progress = None,
                 score_precision: str = "float32") -> list[PreparedRun]:
    """Read each run once and compute its judged SERPs, unjudged counts and metric values per topic.

    Parameters
    ----------
    runs : sequence of runs
        Each a TREC run file (plain or gzip), ``{topic: [docid, ...]}``,
        ``{topic: {docid: score}}``, ``ScoredDoc`` tuples, a DataFrame, a
        ranx ``Run`` or an ir_datasets dataset (:func:`workbench.data.adapters.as_run`:
        runs given by scores ranked as trec_eval does).  A run answering none of the
        qrels' topics is refused (:func:`workbench.data.trec.require_common_topics`).
        A depth whose SERPs would need more than
        :func:`workbench.core.budget.memory_budget` is refused first
        (:class:`~workbench.errors.TooLargeError`).
    qrels
        A qrels file, ``{topic: {docid: grade}}`` or any shape of
        :func:`workbench.data.adapters.as_qrels`.
    depth : int
        ``k``.
    gains, relevance_level
        The :class:`View` (binary by default).
    progress : callable, optional
        ``progress(stage, done, total)`` after each run.
    score_precision : {"float32", "float64"}
        Scores compared as trec_eval's 32-bit floats (default) or as doubles.

    Examples
    --------
    >>> pr = prepare_runs([{"1": ["x", "a"]}], {"1": {"a": 1}, "2": {"b": 1}}, 3)[0]
    >>> pr.serps, pr.unjudged, pr.missing, pr.scores["P@k"].round(3).tolist()
    ({'1': (0, 1, 0), '2': (0, 0, 0)}, {'1': 1, '2': 0}, ('2',), [0.333, 0.0])

    References
    ----------
    trec_eval run ordering; Moffat and Mackenzie (2024), sec. 3.1 (unjudged documents not relevant).
    """
    check_depth(depth)
    view = View.make(gains, relevance_level)
    runs = run_list(runs)
    qrels = as_qrels(qrels)
    topics = tuple(sorted(qrels, key=_topic_key))
    check_memory(f"the SERPs of {len(runs)} run(s) x {len(topics)} topic(s)", "depth", depth,
                 48 * len(runs) * len(topics))
    ev = _Evaluator(qrels, depth, view)
    out = []
    for i, run in enumerate(runs):
        ranking, name = named_run(run, names[i] if names else f"run{i + 1}", score_precision)
        if names:
            name = names[i]
        require_common_topics(ranking, qrels, name)
        serps, unj, missing, top = {}, {}, [], {}
        for t in topics:
            docs = ranking.get(t, [])[:depth]
            if not docs:
                missing.append(t)
            grades, u = judge(docs, qrels[t])
            serps[t] = view.serp(list(grades) + [0] * (depth - len(grades)))
            unj[t] = u
            top[t] = docs
        out.append(PreparedRun(name, depth, serps, unj, tuple(missing), ev.scores(top, topics, serps), topics))
        if progress:
            progress("runs", i + 1, len(runs))
    return out


@dataclass(frozen=True)
class TopicRow:
    """One row of the Moffat and Mackenzie (2024), Fig. 5 table."""

    topic: str
    group: int
    serp_a: str
    serp_b: str
    category: str
    trace: tuple[str, ...]
    diffs: dict
    unjudged_a: int
    unjudged_b: int

    @property
    def trace_str(self) -> str:
        return "".join(SYMBOL[c] for c in self.trace)


def _group_and_key(topic: str, category: str, trace: Sequence[str]):
    stars = trace.count("nonsep")
    lead = next((i for i, c in enumerate(trace) if c != "equal"), len(trace))
    tk = _topic_key(topic)
    if category == "nonsep":
        mid = trace[len(trace) - stars - 1]
        if mid == "ns":
            return 1, (-stars, lead, tk)
        return 5, (stars, -lead, tk)
    if category == "ns":
        return 2, (lead, tk)
    if category == "equal":
        return 3, (tk,)
    return 4, (-lead, tk)


def order_rows(rows: Sequence[TopicRow]) -> list[TopicRow]:
    """Rows in the five groups of Moffat and Mackenzie (2024), Fig. 5, ordered within each group.

    Groups: 1 ``nonsep`` with an ``ns`` midpoint, 2 ``ns``, 3 ``equal``,
    4 ``ni``, 5 ``nonsep`` with an ``ni`` midpoint.  Within a group rows go by
    the number of ``**`` cells, then the length of the leading ``==`` zone,
    so the table wraps around a cylinder: group 1 has the most ``**`` cells
    first and group 5 last, group 2 the shortest leading ``==`` first and
    group 4 last; ties by topic number.

    >>> rows = [TopicRow(t, 0, "", "", *ipso_category(a, b), {}, 0, 0) for t, a, b in
    ...         [("1", (1, 0), (0, 1)), ("2", (0, 1), (1, 0)), ("3", (0, 0), (0, 0)), ("4", (0, 1), (0, 0))]]
    >>> [(r.topic, r.group) for r in order_rows(rows)]
    [('2', 2), ('3', 3), ('4', 4), ('1', 4)]

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3.4 and Fig. 5.
    """
    keyed = []
    for r in rows:
        g, key = _group_and_key(r.topic, r.category, r.trace)
        keyed.append(((g, key), TopicRow(r.topic, g, r.serp_a, r.serp_b, r.category, r.trace, r.diffs,
                                         r.unjudged_a, r.unjudged_b)))
    return [r for _, r in sorted(keyed, key=lambda x: x[0])]


def _ipso_rows(a: PreparedRun, b: PreparedRun, gains: Gains, with_rows: bool = True):
    counts = dict.fromkeys(CATEGORIES, 0)
    rows = []
    for i, t in enumerate(a.topics):
        cat, trace = ipso_category(a.serps[t], b.serps[t], gains)
        counts[cat] += 1
        if with_rows:
            diffs = {m: float(a.scores[m][i] - b.scores[m][i]) for m in METRICS}
            rows.append(TopicRow(t, 0, "".join(map(str, a.serps[t])), "".join(map(str, b.serps[t])),
                                 cat, trace, diffs, a.unjudged[t], b.unjudged[t]))
    return counts, rows


@dataclass
class RunComparison:
    """Two runs over the topics of the qrels: Fig. 5 rows, counts and the IPSO sign test."""

    name_a: str
    name_b: str
    depth: int
    view: View
    rows: list[TopicRow]
    counts: dict
    test: SignTest
    unjudged: dict
    missing: dict
    alpha: float = 0.05
    notes: list = field(default_factory=list)

    def label(self, metric: str) -> str:
        return metric.replace("@k", f"@{self.depth}")

    def to_dict(self) -> dict:
        return {
            "run_a": self.name_a, "run_b": self.name_b, "depth": self.depth, "view": self.view.describe(),
            "topics": len(self.rows), "counts": self.counts, "sign_test": self.test.to_dict(), "alpha": self.alpha,
            "unjudged_in_top_k": self.unjudged, "missing_topics": self.missing,
            "groups": {str(g): sum(r.group == g for r in self.rows) for g in range(1, 6)},
            "metrics": [self.label(m) for m in METRICS], "notes": self.notes,
            "rows": [{"topic": r.topic, "group": r.group, "serp_a": r.serp_a, "serp_b": r.serp_b,
                      "category": r.category, "trace": r.trace_str,
                      "diffs": {self.label(m): r.diffs[m] for m in METRICS},
                      "unjudged_a": r.unjudged_a, "unjudged_b": r.unjudged_b} for r in self.rows],
        }

    def markdown(self) -> str:
        c, st = self.counts, self.test
        lines = [
            f"# IPSO: {self.name_a} (A) vs {self.name_b} (B) at depth {self.depth}", "",
            f"View: {self.view.describe()}. Topics: {len(self.rows)} (those of the qrels).", "",
            f"|ni| = {c['ni']}, |ns| = {c['ns']}, |equal| = {c['equal']}, |nonsep| = {c['nonsep']}; "
            f"two-tailed sign test on |ni| vs |ns|: p = {st.p:.4f} "
            f"({'significant' if st.significant else 'not significant'} at alpha = {self.alpha}"
            f"{', favours ' + st.favours if st.significant else ''}).", "",
            f"Unjudged documents in the top {self.depth} (counted as not relevant): "
            + ", ".join(f"{k} {v}" for k, v in self.unjudged.items()) + ".",
        ]
        for k, v in self.missing.items():
            if v:
                lines.append(f"Topics missing from {k} (empty SERP): {', '.join(v)}.")
        lines += [f"{n}" for n in self.notes]
        lines += [""] + self.table().markdown_lines()
        return "\n".join(lines) + "\n"

    def table(self):
        """The Moffat and Mackenzie (2024), Fig. 5 rows as a :class:`~workbench.core.table.Table` (metric differences B - A as floats)."""
        head = ["Group", "Topic", "A", "B", "Relationship"] + [self.label(m) for m in METRICS]
        rows = [[r.group, r.topic, Cell(r.serp_a, f"`{r.serp_a}`"), Cell(r.serp_b, f"`{r.serp_b}`"),
                 Cell(r.trace_str, f"`{r.trace_str}`")]
                + [Cell(r.diffs[m], f"{r.diffs[m]:+.2f}" if abs(r.diffs[m]) > TIE else "0.00") for m in METRICS]
                for r in self.rows]
        return Table(head, rows, caption=f"IPSO: {self.name_a} (A) vs {self.name_b} (B) at depth {self.depth}")


RBP_NOTE = ("RR, P@k, AP@k and nDCG@k by ir_measures (pytrec_eval); RBP(0.5), RBP(0.8) by ir_measures (cwl_eval) "
            "in the binary view, and exactly by workbench.measures.measure (gRBP with the gains) in the graded view.")


def compare_runs(run_a, run_b, qrels, depth: int, gains: Gains | str | None = None, relevance_level: int = 1,
                 alpha: float = 0.05, names: Sequence[str] | None = None,
                 score_precision: str = "float32") -> RunComparison:
    """Compare two runs topic by topic: IPSO categories, counts, sign test and Fig. 5 table.

    Parameters
    ----------
    run_a, run_b
        TREC run files (gzip or plain) or runs of any shape of
        :func:`workbench.data.adapters.as_run`.
    qrels
        Any shape of :func:`workbench.data.adapters.as_qrels`.
    depth : int
    gains : Gains or str, optional
        Graded view with these gains; binary view at ``relevance_level`` if omitted.
    alpha : float
        Significance level (``p < alpha``).
    score_precision : {"float32", "float64"}
        Scores compared as trec_eval's 32-bit floats (default) or as doubles.

    Examples
    --------
    >>> q = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}}
    >>> res = compare_runs({"1": ["a"], "2": ["b"]}, {"1": ["a"], "3": ["x", "c"]}, q, 2)
    >>> res.counts, res.missing, res.unjudged
    ({'ni': 1, 'ns': 1, 'equal': 1, 'nonsep': 0}, {'run1': ['3'], 'run2': ['2']}, {'run1': 0, 'run2': 1})
    >>> round(res.test.p, 3)
    1.0

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3.4-3.5, Fig. 5 and Fig. 6.
    """
    a, b = prepare_runs([run_a, run_b], qrels, depth, gains, relevance_level, names,
                        score_precision=score_precision)
    if a.name == b.name:
        a.name, b.name = a.name + " (A)", b.name + " (B)"
    view = View.make(gains, relevance_level)
    counts, rows = _ipso_rows(a, b, view.gains)
    return RunComparison(a.name, b.name, depth, view, order_rows(rows), counts,
                         sign_test(counts["ni"], counts["ns"], alpha),
                         {a.name: a.unjudged_total, b.name: b.unjudged_total},
                         {a.name: list(a.missing), b.name: list(b.missing)}, alpha, [RBP_NOTE])
