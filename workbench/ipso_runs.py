"""IPSO over topics: two TREC runs compared topic by topic, and all pairs of a set of runs.

For two systems' runs at depth ``k`` every topic of the qrels gets its IPSO
category (``equal``, ``ni``, ``ns``, ``nonsep``) and trace, from the prefix
sums of the gains of the two judged SERPs (seed 001, Algorithm 1).  The counts
``|ni|``, ``|ns|``, ``|equal|``, ``|nonsep|`` feed a two-tailed sign test on
``|ni|`` vs ``|ns|`` (seed 001 sec. 3.5).  The per-topic table follows seed 001
Fig. 5; the all-pairs agreement of the IPSO sign test with each metric's
paired t-test, Wilcoxon signed-rank and sign tests follows Fig. 7.

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
  its pytrec_eval provider (``iter_calc``).  ir_measures can compute RBP only
  through trectools, which is not installed, so **RBP(0.5) and RBP(0.8) are
  computed exactly by** :mod:`workbench.measures` (``RBP`` in the binary view,
  ``gRBP`` with the gains in the graded view) and converted to float.
* Statistics are on floats (the metric values are trec_eval's floats): a
  per-topic difference of magnitude below ``1e-12`` is a tie.  A test whose
  differences are all ties has p = 1.  Significance is ``p < alpha``.
* Pairs are unordered: runs ``i < j`` in the order given, System A = run
  ``i``; swapping A and B flips every direction and changes no verdict.

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
have?", JASIST 2024 (seed 001), Algorithm 1, sec. 3.4-3.5, Fig. 5 and Fig. 7.
"""
from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from .errors import WorkbenchError
from .runs import Gains
from .trec import judge, read_qrels, read_run

METRICS = ("RR", "P@k", "RBP(0.5)", "RBP(0.8)", "AP", "nDCG@k")
CATEGORIES = ("ni", "ns", "equal", "nonsep")
SYMBOL = {"equal": "==", "ni": "ni", "ns": "ns", "nonsep": "**"}
TESTS = ("t", "wilcoxon", "sign")
TEST_NAMES = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank", "sign": "sign test"}
AGREEMENT = ("both_yes", "both_no", "metric_only", "ipso_only", "conflict")
AGREEMENT_NAMES = {
    "both_yes": "Both: Yes", "both_no": "Both: No", "metric_only": "Metric: Yes (metric only)",
    "ipso_only": "Metric: No (IPSO only)", "conflict": "Both: Yes, opposite directions",
}
TIE = 1e-12
Progress = Optional[Callable[[str, int, int], None]]


def data_dir() -> Path:
    """The real-data folder: ``$WORKBENCH_DATA`` or ``<repo>/../shared/data``.

    >>> data_dir().name == "data" or "WORKBENCH_DATA" in os.environ
    True

    References
    ----------
    /work/shared/data/README.md (one setting for the data path).
    """
    env = os.environ.get("WORKBENCH_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _topic_key(t: str):
    return (0, int(t), t) if t.isdigit() else (1, 0, t)


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
    Seed 001 sec. 3.1 (binary, grade >= 1 relevant, unjudged not relevant).
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
    """IPSO category and trace of two judged SERPs of equal length (seed 001 Algorithm 1).

    Exact prefix sums of gains; the trace holds the category at depths
    ``1..k``.  A thin, cached wrapper around :func:`workbench.ipso.compare`
    (real SERPs repeat a lot: empty and identical SERPs).

    >>> ipso_category((1, 0, 1, 1), (1, 1, 0, 0))
    ('nonsep', ('equal', 'ns', 'ns', 'nonsep'))
    >>> ipso_category((2, 0), (1, 1), Gains.parse("0,1,2"))[0]
    'ni'

    References
    ----------
    Seed 001, Algorithm 1; SPEC section 5.
    """
    if len(run_a) != len(run_b):
        raise WorkbenchError(f"SERPs of lengths {len(run_a)} and {len(run_b)}: need equal depth")
    return _cached_category(tuple(run_a), tuple(run_b), gains)


@lru_cache(maxsize=65536)
def _cached_category(run_a: tuple, run_b: tuple, gains: Gains | None):
    from .ipso import compare

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
    Seed 001 sec. 3.5 (81 ns vs 109 ni topics, p = 0.0499).
    """
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
    """ir_measures (pytrec_eval) for RR, P@k, AP@k, nDCG@k; workbench.measures for RBP."""

    def __init__(self, qrels: dict, depth: int, view: View):
        import ir_measures
        from ir_measures import AP, RR, P, nDCG

        from .measures import Measure

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
        self.evaluator = ir_measures.evaluator(list(self.ims.values()), qrels)
        fam = "gRBP" if view.graded else "RBP"
        self.rbp = {"RBP(0.5)": Measure(fam, {"p": Fraction(1, 2)}, cutoff=depth),
                    "RBP(0.8)": Measure(fam, {"p": Fraction(4, 5)}, cutoff=depth)}
        self.view = view

    def scores(self, top: dict[str, list[str]], topics: Sequence[str], serps: dict) -> dict[str, np.ndarray]:
        from .exact import to_float

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


def _ranking_of(run, name_hint=None):
    if isinstance(run, (str, Path)):
        return read_run(run), Path(run).name
    return run, name_hint or "run"


def prepare_runs(runs: Sequence, qrels, depth: int, gains: Gains | str | None = None, relevance_level: int = 1,
                 names: Sequence[str] | None = None, progress: Progress = None) -> list[PreparedRun]:
    """Read each run once and compute its judged SERPs, unjudged counts and metric values per topic.

    Parameters
    ----------
    runs : sequence of path or dict
        TREC run files (plain or gzip) or ``{topic: [docid, ...]}`` already in
        trec_eval order.
    qrels : path or dict
        ``{topic: {docid: grade}}`` or a qrels file.
    depth : int
        ``k``.
    gains, relevance_level
        The :class:`View` (binary by default).
    progress : callable, optional
        ``progress(stage, done, total)`` after each run.

    Examples
    --------
    >>> pr = prepare_runs([{"1": ["x", "a"]}], {"1": {"a": 1}, "2": {"b": 1}}, 3)[0]
    >>> pr.serps, pr.unjudged, pr.missing, pr.scores["P@k"].round(3).tolist()
    ({'1': (0, 1, 0), '2': (0, 0, 0)}, {'1': 1, '2': 0}, ('2',), [0.333, 0.0])

    References
    ----------
    trec_eval run ordering; seed 001 sec. 3.1 (unjudged documents not relevant).
    """
    from .runs import check_depth

    check_depth(depth)
    view = View.make(gains, relevance_level)
    if isinstance(qrels, (str, Path)):
        qrels = read_qrels(qrels)
    topics = tuple(sorted(qrels, key=_topic_key))
    if not topics:
        raise WorkbenchError("qrels: no topics")
    ev = _Evaluator(qrels, depth, view)
    out = []
    for i, run in enumerate(runs):
        ranking, name = _ranking_of(run, names[i] if names else f"run{i + 1}")
        if names:
            name = names[i]
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
    """One row of the seed 001 Fig. 5 table."""

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
    """Rows in the five groups of seed 001 Fig. 5, ordered within each group.

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
    Seed 001 sec. 3.4 and Fig. 5.
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
        head = ["Group", "Topic", "A", "B", "Relationship"] + [self.label(m) for m in METRICS]
        lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in self.rows:
            cells = [str(r.group), r.topic, f"`{r.serp_a}`", f"`{r.serp_b}`", f"`{r.trace_str}`"]
            cells += [f"{r.diffs[m]:+.2f}" if abs(r.diffs[m]) > TIE else "0.00" for m in METRICS]
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"


RBP_NOTE = ("RBP(0.5) and RBP(0.8) are computed exactly by workbench.measures (ir_measures has no offline RBP "
            "provider here); RR, P@k, AP@k and nDCG@k by ir_measures/pytrec_eval.")


def compare_runs(run_a, run_b, qrels, depth: int, gains: Gains | str | None = None, relevance_level: int = 1,
                 alpha: float = 0.05, names: Sequence[str] | None = None) -> RunComparison:
    """Compare two runs topic by topic: IPSO categories, counts, sign test and Fig. 5 table.

    Parameters
    ----------
    run_a, run_b : path or dict
        TREC run files (gzip or plain) or ``{topic: [docid, ...]}``.
    qrels : path or dict
    depth : int
    gains : Gains or str, optional
        Graded view with these gains; binary view at ``relevance_level`` if omitted.
    alpha : float
        Significance level (``p < alpha``).

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
    Seed 001 sec. 3.4-3.5, Fig. 5 and Fig. 6.
    """
    a, b = prepare_runs([run_a, run_b], qrels, depth, gains, relevance_level, names)
    if a.name == b.name:
        a.name, b.name = a.name + " (A)", b.name + " (B)"
    view = View.make(gains, relevance_level)
    counts, rows = _ipso_rows(a, b, view.gains)
    return RunComparison(a.name, b.name, depth, view, order_rows(rows), counts,
                         sign_test(counts["ni"], counts["ns"], alpha),
                         {a.name: a.unjudged_total, b.name: b.unjudged_total},
                         {a.name: list(a.missing), b.name: list(b.missing)}, alpha, [RBP_NOTE])


@dataclass(frozen=True)
class PairedTest:
    """One paired test on per-topic metric values."""

    p: float
    significant: bool
    direction: str  # "A", "B" or "none" (sign of the test's statistic)


def metric_tests(values_a, values_b, alpha: float = 0.05) -> dict[str, PairedTest]:
    """Paired two-tailed t-test, Wilcoxon signed-rank and sign test of per-topic values (scipy.stats).

    Differences below ``1e-12`` in magnitude are ties (dropped by Wilcoxon and
    the sign test); all ties give p = 1.  The direction is the sign of the mean
    difference (t), of ``W+ - W-`` (Wilcoxon) and of ``n+ - n-`` (sign).

    >>> r = metric_tests([0.5, 0.6, 0.7, 0.9, 0.8, 0.4], [0.1, 0.2, 0.3, 0.4, 0.5, 0.45])
    >>> {k: (round(v.p, 4), v.direction) for k, v in r.items()}
    {'t': (0.0094, 'A'), 'wilcoxon': (0.0625, 'A'), 'sign': (0.2188, 'A')}

    References
    ----------
    Seed 001 sec. 4 and Fig. 7; scipy.stats.ttest_rel, wilcoxon, binomtest.
    """
    from scipy.stats import binomtest, rankdata, ttest_rel, wilcoxon

    a, b = np.asarray(values_a, float), np.asarray(values_b, float)
    d = a - b
    d[np.abs(d) < TIE] = 0.0
    nz = d[d != 0]
    out = {}
    if nz.size == 0:
        none = PairedTest(1.0, False, "none")
        return {"t": none, "wilcoxon": none, "sign": none}

    def res(p, s):
        p = 1.0 if p is None or math.isnan(p) else float(p)
        sig = p < alpha
        return PairedTest(p, sig, ("A" if s > 0 else "B" if s < 0 else "none"))

    with warnings.catch_warnings():  # constant differences: scipy warns, p is still defined (0 or nan)
        warnings.simplefilter("ignore", RuntimeWarning)
        out["t"] = res(ttest_rel(a, b).pvalue, d.mean())
        r = rankdata(np.abs(nz))
        out["wilcoxon"] = res(wilcoxon(nz).pvalue, r[nz > 0].sum() - r[nz < 0].sum())
    npos, nneg = int((nz > 0).sum()), int((nz < 0).sum())
    out["sign"] = res(binomtest(npos, npos + nneg, 0.5).pvalue, npos - nneg)
    return out


def agreement_category(ipso: SignTest, metric: PairedTest) -> str:
    """Fig. 7 category of one system pair for one metric/test.

    ``both_yes`` (same direction), ``conflict`` (both significant, opposite
    directions), ``metric_only`` (Fig. 7 "Metric: Yes"), ``ipso_only``
    ("Metric: No"), ``both_no``.

    >>> agreement_category(sign_test(109, 81), PairedTest(0.01, True, "B"))
    'conflict'

    References
    ----------
    Seed 001 sec. 4, Fig. 7.
    """
    if ipso.significant and metric.significant:
        return "both_yes" if ipso.favours == metric.direction else "conflict"
    if metric.significant:
        return "metric_only"
    return "ipso_only" if ipso.significant else "both_no"


@dataclass
class PairResult:
    a: str
    b: str
    counts: dict
    ipso: SignTest
    tests: dict  # metric -> test -> PairedTest
    agreement: dict  # metric -> test -> category


@dataclass
class AgreementResult:
    """All unordered pairs of a set of runs: IPSO sign test vs metric tests (seed 001 Fig. 7)."""

    runs: list[str]
    depth: int
    view: View
    alpha: float
    pairs: list[PairResult]
    unjudged: dict
    missing: dict
    notes: list = field(default_factory=list)

    def summary(self) -> dict:
        out = {}
        for m in METRICS:
            for t in TESTS:
                cnt = dict.fromkeys(AGREEMENT, 0)
                for p in self.pairs:
                    cnt[p.agreement[m][t]] += 1
                out[(m, t)] = cnt
        return out

    def label(self, metric: str) -> str:
        return metric.replace("@k", f"@{self.depth}")

    def to_dict(self) -> dict:
        return {
            "runs": self.runs, "depth": self.depth, "view": self.view.describe(), "alpha": self.alpha,
            "pairs_kind": "unordered (A = earlier run in the order given)", "n_pairs": len(self.pairs),
            "ipso_significant": sum(p.ipso.significant for p in self.pairs),
            "summary": [{"metric": self.label(m), "test": t, **c} for (m, t), c in self.summary().items()],
            "unjudged_in_top_k": self.unjudged, "missing_topics": self.missing, "notes": self.notes,
            "pairs": [{"a": p.a, "b": p.b, "counts": p.counts, "ipso": p.ipso.to_dict(),
                       "tests": {self.label(m): {t: {"p": r.p, "significant": r.significant, "direction": r.direction}
                                                 for t, r in v.items()} for m, v in p.tests.items()},
                       "agreement": {self.label(m): v for m, v in p.agreement.items()}} for p in self.pairs],
        }

    def markdown(self) -> str:
        n = len(self.pairs)
        lines = [f"# IPSO sign test vs metric tests: {len(self.runs)} runs, {n} unordered pairs, depth {self.depth}",
                 "", f"View: {self.view.describe()}. alpha = {self.alpha} (p < alpha), all tests two-tailed.",
                 f"IPSO sign test significant for {sum(p.ipso.significant for p in self.pairs)} of {n} pairs.", ""]
        lines += [f"{x}" for x in self.notes] + [""]
        head = ["Metric", "Test"] + [AGREEMENT_NAMES[c] for c in AGREEMENT] + ["agree %"]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for (m, t), c in self.summary().items():
            agree = 100.0 * (c["both_yes"] + c["both_no"]) / n if n else float("nan")
            lines.append("| " + " | ".join([self.label(m), TEST_NAMES[t]] + [str(c[k]) for k in AGREEMENT]
                                           + [f"{agree:.1f}"]) + " |")
        return "\n".join(lines) + "\n"


def agreement(runs: Sequence, qrels, depth: int, gains: Gains | str | None = None, relevance_level: int = 1,
              alpha: float = 0.05, names: Sequence[str] | None = None, progress: Progress = None) -> AgreementResult:
    """IPSO sign test and metric tests for every unordered pair of runs (seed 001 Fig. 7).

    Each run is read and evaluated once (:func:`prepare_runs`); then for each
    pair ``i < j`` the IPSO counts and sign test, and for each metric the
    t-test, Wilcoxon and sign test (:func:`metric_tests`) and their agreement
    category (:func:`agreement_category`).

    Parameters
    ----------
    runs : sequence of path or dict
    qrels : path or dict
    depth : int
    progress : callable, optional
        ``progress(stage, done, total)``; stages ``"runs"`` and ``"pairs"``.

    Examples
    --------
    >>> q = {str(t): {"r": 1} for t in range(8)}
    >>> good = {str(t): ["r"] for t in range(8)}
    >>> bad = {str(t): ["x", "r"] for t in range(8)}
    >>> res = agreement([good, bad, good], q, 2, names=["g1", "b", "g2"])
    >>> [(p.a, p.b, p.counts["ni"], p.ipso.favours, p.agreement["P@k"]["t"]) for p in res.pairs]
    [('g1', 'b', 8, 'A', 'ipso_only'), ('g1', 'g2', 0, 'none', 'both_no'), ('b', 'g2', 0, 'B', 'ipso_only')]

    References
    ----------
    Seed 001 sec. 4 and Fig. 7.
    """
    prepared = prepare_runs(runs, qrels, depth, gains, relevance_level, names,
                            (lambda s, d, t: progress(s, d, t)) if progress else None)
    view = View.make(gains, relevance_level)
    pairs = []
    total = len(prepared) * (len(prepared) - 1) // 2
    for i in range(len(prepared)):
        for j in range(i + 1, len(prepared)):
            a, b = prepared[i], prepared[j]
            counts, _ = _ipso_rows(a, b, view.gains, with_rows=False)
            st = sign_test(counts["ni"], counts["ns"], alpha)
            tests = {m: metric_tests(a.scores[m], b.scores[m], alpha) for m in METRICS}
            agree = {m: {t: agreement_category(st, r) for t, r in tests[m].items()} for m in METRICS}
            pairs.append(PairResult(a.name, b.name, counts, st, tests, agree))
            if progress:
                progress("pairs", len(pairs), total)
    return AgreementResult([p.name for p in prepared], depth, view, alpha, pairs,
                           {p.name: p.unjudged_total for p in prepared},
                           {p.name: list(p.missing) for p in prepared if p.missing}, [RBP_NOTE])


COLOURS = {"both_yes": "#1b7837", "both_no": "#a6dba0", "metric_only": "#d9b300",
           "ipso_only": "#999999", "conflict": "#d73027"}


def agreement_figure(result: AgreementResult, path) -> list[Path]:
    """Stacked bars of the agreement categories, one pane per test, one bar per metric (PNG and PDF).

    Writes ``path`` with both suffixes ``.png`` and ``.pdf``; returns the two paths.

    >>> import tempfile, os
    >>> q = {str(t): {"r": 1} for t in range(4)}
    >>> res = agreement([{t: ["r"] for t in q}, {t: ["x"] for t in q}], q, 1)
    >>> sorted(p.suffix for p in agreement_figure(res, os.path.join(tempfile.mkdtemp(), "f.pdf")))
    ['.pdf', '.png']

    References
    ----------
    Seed 001 Fig. 7.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summ = result.summary()
    n = max(len(result.pairs), 1)
    fig, axes = plt.subplots(1, len(TESTS), figsize=(12, 4), sharey=True)
    for ax, t in zip(axes, TESTS):
        bottom = np.zeros(len(METRICS))
        for c in AGREEMENT:
            vals = np.array([summ[(m, t)][c] / n for m in METRICS])
            ax.bar(range(len(METRICS)), vals, bottom=bottom, color=COLOURS[c], label=AGREEMENT_NAMES[c],
                   edgecolor="white", linewidth=0.5)
            bottom += vals
        ax.set_xticks(range(len(METRICS)), [result.label(m) for m in METRICS], rotation=45, ha="right")
        ax.set_title(f"{TEST_NAMES[t]}, k = {result.depth}")
        ax.set_ylim(0, 1)
    axes[0].set_ylabel(f"fraction of {len(result.pairs)} system pairs")
    axes[-1].legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    fig.tight_layout()
    base = Path(path)
    out = [base.with_suffix(".png"), base.with_suffix(".pdf")]
    for p in out:
        fig.savefig(p, dpi=150, bbox_inches="tight")
    plt.close(fig)
    return out
