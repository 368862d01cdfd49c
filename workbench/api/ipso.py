"""Innate pairwise SERP orderings, one call each: ``workbench ipso grid|compare|census|freedom|freedom-use|runs|agreement``.

Each function takes what its command takes (depth, grades, gains ``"0,1,3"``,
topic ``"2,1"``, runs ``"0110"``, measure names, TREC files), checks them
with the command's one-line messages (typed errors of
:mod:`workbench.errors`; options named as the caller spells them:
``grades=2`` in Python, ``--grades 2`` on the command line), computes and
returns the library's result object; a figure asked for is drawn on the way.
The command line only formats the result.

``progress`` is a progress report (:mod:`workbench.api.progress`: the
command line's progress bar); ``None`` runs silently.

Examples
--------
>>> from workbench.api.ipso import compare
>>> compare("0110", "1001", depth=4).category
'nonsep'

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 75(6), 2024.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from workbench.api.progress import reporter
from workbench.api.convert import (as_depth, as_gains, as_gains_for, as_measure, as_measure_names, as_setting,
                                   as_topic, as_unjudged, option)
from workbench.errors import BadRunError, WorkbenchError

__all__ = ["setting", "census", "compare", "freedom", "freedom_use", "grid", "runs", "agreement", "AgreementStudy"]

#: Names the command line's tables take from the library (loaded on first use): the agreement categories of
#: one run pair (Moffat and Mackenzie 2024, Fig. 7), their names and the tests' names; the metrics of ``ipso runs``' table
#: (Moffat and Mackenzie 2024, Fig. 5) and the difference below which two scores tie.
_LIBRARY_NAMES = {"AGREEMENT": "workbench.ipso.agreement", "AGREEMENT_NAMES": "workbench.ipso.agreement",
                  "TEST_NAMES": "workbench.ipso.agreement", "METRICS": "workbench.ipso.trec_runs",
                  "TIE": "workbench.ipso.trec_runs"}


def __getattr__(name: str):
    if name in _LIBRARY_NAMES:
        import importlib

        return getattr(importlib.import_module(_LIBRARY_NAMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def setting(depth, grades=None, gains=None, topic=None):
    """``(depth, c, Gains, Topic|None)`` from the common options (:func:`workbench.api.convert.as_setting`).

    >>> d, c, g, t = setting(4, gains="0,1,3")
    >>> d, c, str(g), t
    (4, 2, '0,1,3', None)
    >>> setting(4, grades=2, gains="0,1")
    Traceback (most recent call last):
    ...
    workbench.errors.BadGainsError: gains 0,1: give 3 values for grades=2
    """
    n = as_depth(depth)
    c, g, t = as_setting(grades, gains, topic)
    return n, c, g, t


def census(depth=4, grades=None, gains=None, progress=None, topic=None, unjudged=0):
    """Exact counts of the IPSO categories over all ordered pairs of runs (``workbench ipso census``).

    ``topic`` counts only the runs it allows (at most ``n_j`` documents of grade ``j``).
    ``progress.advance`` counts the depths done.  ``unjudged``: runs hold up to
    that many unjudged positions (``?``), a pair categorised by all its
    completions (:func:`workbench.ipso.census.unjudged_census`).

    >>> census(5).nonsep, census(5).pairs
    (132, 1024)
    >>> census(6, topic="3").runs, census(6, topic="3").unordered()["nonsep"]
    (42, 175)
    """
    from workbench.ipso.census import census as run_census, unjudged_census

    bar = reporter(progress)
    n, c, g, t = setting(depth, grades, gains, topic)
    u = as_unjudged(unjudged, n)
    if u:
        return unjudged_census(n, c, g, t, u)
    bar.total(n)
    done = [0]

    def advance(now: int) -> None:
        bar.advance(now - done[0])
        done[0] = now

    return run_census(n, c, g, progress=advance, topic=t)


def freedom_use(measures, against="nDCG", depth=6, grades=None, gains=None, topic=None, within="nonsep",
                progress=None, unjudged=0):
    """How each measure orders the non-separable pairs against a reference measure (``workbench ipso freedom-use``).

    For every unordered pair of distinct runs in the IPSO category ``within``
    (``nonsep``, ``separable`` or ``all``) of the space (depth, grades,
    gains, topic): ordered as ``against`` orders it, oppositely, or tied (by
    the measure, the reference or both), exactly.  ``progress.advance``
    counts the runs whose pairs are done.  ``unjudged``: runs hold up to that
    many unjudged positions (``?``), a pair separable when all its completions
    are.

    >>> f = freedom_use("AP,RBP(p=0.8)", against="nDCG", depth=6, topic="3")
    >>> f.pairs, [(m.measure, m.counts["same"], m.counts["tied_measure"]) for m in f.measures]
    (175, [('AP', 161, 7), ('RBP(p=0.8)', 143, 0)])
    """
    from workbench.ipso.free_pairs import WITHIN, freedom_use as run_freedom_use

    bar = reporter(progress)
    if within not in WITHIN:
        raise WorkbenchError(f"{option('within', repr(within))}: use one of {', '.join(WITHIN)}")
    if not isinstance(against, str) or not against.strip():
        raise WorkbenchError(f"{option('against', repr(against))}: name a reference measure, e.g. nDCG")
    names, _ = as_measure_names(measures)
    ms = [as_measure(name) for name in names]
    ref = as_measure(against)
    n, c, g, t = setting(depth, grades, gains, topic)
    done = [0]

    def advance(now: int, total: int) -> None:
        if done[0] == 0:
            bar.total(total)
        bar.advance(now - done[0])
        done[0] = now

    return run_freedom_use(ms, ref, n, gains=g, topic=t, within=within, grades=c, progress=advance,
                           unjudged=as_unjudged(unjudged, n))


def compare(run_a, run_b, depth=None, grades=None, gains=None):
    """The IPSO category of ``run_a`` against ``run_b`` with its per-depth trace (``workbench ipso compare``).

    Gains default to ``g(i) = i`` up to ``grades``, else up to the largest grade present.

    >>> compare("02", "11", gains="0,1,2").differ
    True
    """
    from workbench.ipso.compare import compare as run_compare
    from workbench.space.runs import Gains, parse_run

    for run in (run_a, run_b):
        if isinstance(run, str) and "?" in run:
            raise BadRunError(f"run {run!r}: ipso compare takes fully judged runs; for runs with unjudged positions "
                              "compare them under --order 'completions[ipso]' or 'bounds[ipso]' (classify, hasse) "
                              "or count them with ipso census --unjudged")
    g = as_gains_for(grades, gains)
    a, b = parse_run(run_a), parse_run(run_b)
    if g is None:
        g = Gains.default(max(1, max(a), max(b)))
    return run_compare(a, b, gains=g, depth=depth)


def freedom(run_a, run_b, measures="RR,P,RBP(p=0.5)", param_measure=None, depth=None, grades=None, gains=None,
            topic=None):
    """Each measure's order of a pair, and the exact parameter values where it ties (``workbench ipso freedom``).

    ``param_measure`` names the measures whose parameter is swept (default:
    the parameterised ones in ``measures``).

    >>> f = freedom("100", "011", "RR,P@3")
    >>> f.category, [(m.measure, m.order) for m in f.orders]
    ('nonsep', [('RR', 'a>b'), ('P@3', 'a<b')])
    """
    from workbench.ipso.freedom import freedom as run_freedom
    from workbench.space.runs import Gains

    if not measures.strip(" ,"):
        raise WorkbenchError(f"{option('measures', repr(measures))}: name at least one measure, e.g. 'RR,P@3,RBP(p=0.5),AP'")
    if param_measure is not None and not param_measure.strip(" ,"):
        raise WorkbenchError(f"{option('param_measure', repr(param_measure))}: name a measure with a parameter, e.g. RBP")
    g = as_gains_for(grades, gains)
    t = as_topic(topic)
    if g is None and t is not None:
        g = Gains.default(t.grades)
    return run_freedom(run_a, run_b, measures, gains=g, topic=t, vary=param_measure, depth=depth)


def _figure_suffix(figure) -> None:
    if figure is not None and Path(figure).suffix.lower() not in (".png", ".pdf"):
        raise WorkbenchError(f"figure {str(figure)!r}: unknown format {Path(figure).suffix!r} (use .png or .pdf)")


def grid(depth=4, rows="RBP(p=0.5)", cols="AP", grades=None, gains=None, topic=None, figure=None,
         title: Optional[str] = None, progress=None, unjudged=0):
    """The grid of pair categories, rows and columns ordered by two measures (``workbench ipso grid``).

    ``unjudged``: runs hold up to that many unjudged positions (``?``), a pair
    categorised by all its completions; both measures must read ``?``.

    ``figure`` (``.png`` or ``.pdf``) draws it as in Moffat and Mackenzie (2024), Fig. 2-3.

    >>> g = grid(2, "RBP(p=0.5)", "RR")
    >>> g.n, g.counts["equal"]
    (4, 4)
    """
    from workbench.ipso.pairgrid import draw_pair_grid, pair_grid

    bar = reporter(progress)
    for key, name in (("rows", rows), ("cols", cols)):
        if not name.strip():
            raise WorkbenchError(f"{option(key, repr(name))}: name a measure, e.g. 'RBP(p=0.5)' or AP")
    n, c, g, t = setting(depth, grades, gains, topic)
    _figure_suffix(figure)
    bar.phase("categories")
    result = pair_grid(n, rows, cols, grades=c, gains=g, topic=t, unjudged=as_unjudged(unjudged, n))
    if figure is not None:
        bar.phase("drawing")
        draw_pair_grid(result, figure, title=title)
    return result


def _alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise WorkbenchError(f"alpha {alpha}: must be in (0, 1)")


def runs(run_a, run_b, qrels, depth: int = 10, gains=None, relevance_level: int = 1, alpha: float = 0.05,
         score_precision: str = "float32"):
    """IPSO per topic between two TREC run files, with the sign test on ``|ni|`` vs ``|ns|`` (``workbench ipso runs``).

    >>> from pathlib import Path
    >>> trec = Path(__file__).resolve().parents[2] / "examples" / "trec"
    >>> r = runs(trec / "run.good.txt", trec / "run.poor.txt", trec / "qrels.txt", depth=5)
    >>> r.name_a, r.name_b, len(r.rows)
    ('run.good.txt', 'run.poor.txt', 8)
    """
    from workbench.ipso.trec_runs import compare_runs

    _alpha(alpha)
    return compare_runs(run_a, run_b, qrels, depth, as_gains(gains), relevance_level, alpha, score_precision=score_precision)


@dataclass
class AgreementStudy:
    """The agreement of the IPSO sign test with six metrics' tests (``result``) and the figure files written."""

    result: Any
    figures: list

    @property
    def pairs(self) -> int:
        """Unordered run pairs compared."""
        return len(self.result.pairs)


def agreement(runs, qrels, depth: int = 10, gains=None, relevance_level: int = 1, alpha: float = 0.05,
              figure=None, title: Optional[str] = None, score_precision: str = "float32",
              progress=None) -> AgreementStudy:
    """The IPSO sign test against paired t, Wilcoxon and sign tests of six metrics (``workbench ipso agreement``).

    All unordered pairs of ``runs`` (two or more files); ``figure`` writes the
    stacked bars of Moffat and Mackenzie (2024), Fig. 7 as ``.png`` and ``.pdf``.
    ``progress.advance`` counts the pairs.

    >>> agreement(["a.txt"], "q.txt")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: agreement: give at least two runs, got 1
    """
    from workbench.core.files import check_output_path
    from workbench.ipso.agreement import agreement as run_agreement, agreement_figure

    bar = reporter(progress)
    runs = list(runs)
    if len(runs) < 2:
        raise WorkbenchError(f"agreement: give at least two runs, got {len(runs)}")
    _alpha(alpha)
    _figure_suffix(figure)
    if figure is not None:
        check_output_path(figure, option("figure"))
    bar.total(len(runs) * (len(runs) - 1) // 2)

    def stage(text: str, done: int, total: int) -> None:
        if text == "runs":
            bar.phase(f"reading runs {done}/{total}")
        else:
            bar.advance(1, f"pair {done}/{total}")

    result = run_agreement(runs, qrels, depth, as_gains(gains), relevance_level, alpha, progress=stage,
                           score_precision=score_precision)
    written = agreement_figure(result, figure, title=title) if figure is not None else []
    return AgreementStudy(result, list(written))
