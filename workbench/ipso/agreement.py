"""IPSO sign test against metric tests over all pairs of a set of TREC runs (Moffat and Mackenzie 2024, Fig. 7).

For every unordered pair of runs, the IPSO sign test on ``|ni|`` vs ``|ns|``
(:func:`workbench.ipso.trec_runs.sign_test`) is set beside each metric's paired
two-tailed t-test, Wilcoxon signed-rank and sign test (:func:`metric_tests`),
and each (metric, test) gets an agreement category (:func:`agreement_category`):
``both_yes``, ``both_no``, ``metric_only``, ``ipso_only`` or ``conflict``.
:func:`agreement` does this for all pairs (:class:`AgreementResult`, with its
summary table) and :func:`agreement_figure` draws the stacked bars.  Runs are
read, judged and evaluated by :func:`workbench.ipso.trec_runs.prepare_runs`, whose
conventions (SERPs, views, metrics) apply here.

Conventions:

* Statistics are on floats (the metric values are trec_eval's floats): a
  per-topic difference of magnitude below ``1e-12``
  (:data:`workbench.ipso.trec_runs.TIE`) is a tie.  A test whose differences are
  all ties has p = 1.  Significance is ``p < alpha``.
* Pairs are unordered: runs ``i < j`` in the order given, System A = run
  ``i``; swapping A and B flips every direction and changes no verdict.

Examples
--------
>>> tests = metric_tests([0.5, 0.6, 0.7, 0.9, 0.8, 0.4], [0.1, 0.2, 0.3, 0.4, 0.5, 0.45])
>>> {t: agreement_category(sign_test(8, 0), r) for t, r in tests.items()}
{'t': 'both_yes', 'wilcoxon': 'ipso_only', 'sign': 'ipso_only'}

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 2024, sec. 3.5, sec. 4 and Fig. 7.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from workbench.ipso.trec_runs import (
    METRICS,
    RBP_NOTE,
    TIE,
    Progress,
    SignTest,
    View,
    _ipso_rows,
    prepare_runs,
    sign_test,
)
from workbench.space.runs import Gains
from workbench.core.files import check_output_path, save_figure
from workbench.core.plotting import PNG_DPI, TEXT_WIDTH, publication_style, pyplot
from workbench.core.table import Cell, Table

TESTS = ("t", "wilcoxon", "sign")
TEST_NAMES = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank", "sign": "sign test"}
AGREEMENT = ("both_yes", "both_no", "metric_only", "ipso_only", "conflict")
AGREEMENT_NAMES = {
    "both_yes": "Both: Yes", "both_no": "Both: No", "metric_only": "Metric: Yes (metric only)",
    "ipso_only": "Metric: No (IPSO only)", "conflict": "Both: Yes, opposite directions",
}


@dataclass(frozen=True)
class PairedTest:
    """One paired test on per-topic metric values."""

    p: float
    significant: bool
    direction: str  # "A", "B" or "none" (sign of the test's statistic)


def metric_tests(values_a, values_b, alpha: float = 0.05) -> dict[str, PairedTest]:
    """Paired two-tailed t-test, Wilcoxon signed-rank and sign test of per-topic values (scipy.stats).

    Differences below ``1e-12`` in magnitude are ties (dropped by Wilcoxon and
    the sign test); all ties give p = 1, and so does an undefined p-value (NaN:
    e.g. a single topic, where the t-test has no variance estimate), so such
    a pair is never significant.  The direction is the sign of the mean
    difference (t), of ``W+ - W-`` (Wilcoxon) and of ``n+ - n-`` (sign).

    >>> r = metric_tests([0.5, 0.6, 0.7, 0.9, 0.8, 0.4], [0.1, 0.2, 0.3, 0.4, 0.5, 0.45])
    >>> {k: (round(v.p, 4), v.direction) for k, v in r.items()}
    {'t': (0.0094, 'A'), 'wilcoxon': (0.0625, 'A'), 'sign': (0.2188, 'A')}

    References
    ----------
    Moffat and Mackenzie (2024), sec. 4 and Fig. 7; scipy.stats.ttest_rel, wilcoxon, binomtest.
    """
    # scipy.stats is slow to load (~1 s); only these statistics use it
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
    Moffat and Mackenzie (2024), sec. 4, Fig. 7.
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
    """All unordered pairs of a set of runs: IPSO sign test vs metric tests (Moffat and Mackenzie 2024, Fig. 7)."""

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
        lines += self.table().markdown_lines()
        return "\n".join(lines) + "\n"

    def pairs_table(self) -> Table:
        """Each metric's tests beside the IPSO sign test, pair by pair: one row per (run pair, metric).

        Columns: the two runs, ``|ni|`` and ``|ns|`` with the IPSO sign
        test's p-value and the run it favours, the metric, then for each test
        (paired t, Wilcoxon, sign) its p-value, the run it favours and the
        agreement category with the IPSO sign test (Moffat and Mackenzie 2024, Fig. 7).

        >>> q = {str(t): {"r": 1} for t in range(8)}
        >>> res = agreement([{t: ["r"] for t in q}, {t: ["x", "r"] for t in q}], q, 2, names=["g", "b"])
        >>> t = res.pairs_table()
        >>> t.columns[:7], t.values()[0][:7]
        (['A', 'B', 'ni topics', 'ns topics', 'IPSO p', 'IPSO favours', 'metric'], ['g', 'b', 8, 0, 0.0078125, 'A', 'RR'])

        References
        ----------
        Moffat and Mackenzie (2024), sec. 4 and Fig. 7.
        """
        head = ["A", "B", "ni topics", "ns topics", "IPSO p", "IPSO favours", "metric"]
        for t in TESTS:
            head += [f"{t} p", f"{t} favours", f"{t} vs IPSO"]
        rows = []
        for p in self.pairs:
            for m in METRICS:
                row = [p.a, p.b, p.ipso.ni, p.ipso.ns, Cell(p.ipso.p, f"{p.ipso.p:.4g}"), p.ipso.favours,
                       self.label(m)]
                for t in TESTS:
                    r = p.tests[m][t]
                    row += [Cell(r.p, f"{r.p:.4g}"), r.direction, p.agreement[m][t]]
                rows.append(row)
        return Table(head, rows, align=[None, None, "r", "r", "r", None, None] + ["r", None, None] * len(TESTS),
                     caption=f"Each metric's tests beside the IPSO sign test on the same run pairs: "
                             f"{len(self.runs)} runs, {len(self.pairs)} unordered pairs, depth {self.depth}, "
                             f"alpha = {self.alpha}")

    def table(self):
        """The agreement counts per metric and test as a :class:`~workbench.core.table.Table`."""
        n = len(self.pairs)
        head = ["Metric", "Test"] + [AGREEMENT_NAMES[c] for c in AGREEMENT] + ["agree %"]
        rows = []
        for (m, t), c in self.summary().items():
            agree = 100.0 * (c["both_yes"] + c["both_no"]) / n if n else float("nan")
            rows.append([self.label(m), TEST_NAMES[t]] + [c[k] for k in AGREEMENT] + [Cell(agree, f"{agree:.1f}")])
        return Table(head, rows, caption=f"IPSO sign test vs metric tests: {len(self.runs)} runs, {n} unordered "
                                         f"pairs, depth {self.depth}, alpha = {self.alpha}")


def agreement(runs: Sequence, qrels, depth: int, gains: Gains | str | None = None, relevance_level: int = 1,
              alpha: float = 0.05, names: Sequence[str] | None = None, progress: Progress = None,
              score_precision: str = "float32") -> AgreementResult:
    """IPSO sign test and metric tests for every unordered pair of runs (Moffat and Mackenzie 2024, Fig. 7).

    Each run is read and evaluated once (:func:`prepare_runs`); then for each
    pair ``i < j`` the IPSO counts and sign test, and for each metric the
    t-test, Wilcoxon and sign test (:func:`metric_tests`) and their agreement
    category (:func:`agreement_category`).

    Parameters
    ----------
    runs : sequence of runs
        Run files or runs of any shape of :func:`workbench.data.adapters.as_run`.
    qrels
        Any shape of :func:`workbench.data.adapters.as_qrels`.
    depth : int
    progress : callable, optional
        ``progress(stage, done, total)``; stages ``"runs"`` and ``"pairs"``.
    score_precision : {"float32", "float64"}
        Scores compared as trec_eval's 32-bit floats (default) or as doubles.

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
    Moffat and Mackenzie (2024), sec. 4 and Fig. 7.
    """
    prepared = prepare_runs(runs, qrels, depth, gains, relevance_level, names,
                            (lambda s, d, t: progress(s, d, t)) if progress else None, score_precision)
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


def agreement_figure(result: AgreementResult, path, title: str | None = None) -> list[Path]:
    """Stacked bars of the agreement categories, one pane per test, one bar per metric (PNG and PDF).

    Writes ``path`` with both suffixes ``.png`` and ``.pdf``, each atomically
    (:func:`workbench.core.files.save_figure`; a missing folder is created, a path
    that cannot be written raises :class:`~workbench.errors.OutputPathError`);
    returns the two paths.  Across both columns of a paper, the legend below
    the panes; ``title`` adds a title (none by default).

    >>> import tempfile, os
    >>> q = {str(t): {"r": 1} for t in range(4)}
    >>> res = agreement([{t: ["r"] for t in q}, {t: ["x"] for t in q}], q, 1)
    >>> sorted(p.suffix for p in agreement_figure(res, os.path.join(tempfile.mkdtemp(), "f.pdf")))
    ['.pdf', '.png']

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 7.
    """
    base = Path(path)
    out = [base.with_suffix(".png"), base.with_suffix(".pdf")]
    for p in out:
        check_output_path(p, "figure")
    with publication_style():
        plt = pyplot()
        summ = result.summary()
        n = max(len(result.pairs), 1)
        fig, axes = plt.subplots(1, len(TESTS), figsize=(TEXT_WIDTH, 2.6), sharey=True)
        for ax, t in zip(axes, TESTS):
            bottom = np.zeros(len(METRICS))
            for c in AGREEMENT:
                vals = np.array([summ[(m, t)][c] / n for m in METRICS])
                ax.bar(range(len(METRICS)), vals, bottom=bottom, color=COLOURS[c], label=AGREEMENT_NAMES[c],
                       edgecolor="white", linewidth=0.4)
                bottom += vals
            ax.set_xticks(range(len(METRICS)), [result.label(m) for m in METRICS], rotation=45, ha="right")
            ax.set_title(f"{TEST_NAMES[t]}, k = {result.depth}")
            ax.set_ylim(0, 1)
        axes[0].set_ylabel(f"fraction of {len(result.pairs)} system pairs")
        handles, labels = axes[0].get_legend_handles_labels()
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=len(AGREEMENT))
        try:
            for p in out:
                save_figure(fig, p, close=False, dpi=PNG_DPI, bbox_inches="tight", pad_inches=0.02)
        finally:
            plt.close(fig)
    return out
