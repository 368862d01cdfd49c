"""The Twist measure, one call each: ``workbench twist``, ``twist-curve``, ``twist-runs`` and ``twist-scale``.

Each function takes what its command takes (a judged run ``"0112"`` and a
topic ``"3,2,2"``, or TREC files), checks it with the command's one-line
messages (typed errors of :mod:`workbench.errors`), computes and returns
the result; a figure asked for is drawn on the way.  The command line only
formats the result.

Examples
--------
>>> from workbench.api.twist import twist
>>> out = twist("1", "1")            # the one relevant document first: nothing to recover
>>> out["archetype"], out["recall_base"], out["twist"]
('ideal', 1, None)

References
----------
Ferro, Silvello, Keskustalo, Pirkola and Järvelin, "The Twist measure for IR
evaluation: taking user's effort into account", JASIST 67(3), 2016.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from workbench.api.progress import reporter
from workbench.api.convert import as_topic

__all__ = ["twist", "twist_curve", "twist_runs", "TwistScale", "twist_scale"]


def twist(run, topic, crossing: str = "literal") -> dict:
    """RP, CRP, crossings, ratios, Twist and archetype of one judged run: the object ``workbench twist --json`` prints.

    ``crossing`` is ``literal`` (Def. 3's formula) or ``strict`` (the text's
    reading).  A run shorter than 2 gets its curves and recovery ratio; the
    space ratios and Twist are ``None`` with the reason in ``undefined``.
    """
    from workbench.measures.crp import curves
    from workbench.space.runs import parse_run

    t = as_topic(topic)
    r = parse_run(run, t.grades)
    row = curves([r], t, crossing).row(0)
    return {"run": list(r), "topic": list(t.counts), "depth": len(r), "recall_base": t.recall_base,
            "crossing": crossing, **row}


def twist_curve(qrels, run, topic_id: str, depth: int = 1000, crossing: str = "literal",
                score_precision: str = "float32", figure=None, title: Optional[str] = None):
    """CRP and DCG curves of one TREC run on one topic, with its Twist (``workbench twist-curve``).

    Returns the :class:`~workbench.experiments.twist_runs.TopicCurve`;
    ``figure`` (``.png`` or ``.pdf``, checked before the files are read)
    draws it as in Fig. 11.
    """
    from workbench.experiments.twist_runs import topic_curve
    from workbench.figures.twist_plots import check_figure_path, curve_figure

    if figure is not None:
        check_figure_path(figure)
    tc = topic_curve(qrels, run, topic_id, depth, crossing, score_precision=score_precision)
    if figure is not None:
        curve_figure(tc, figure, title=title)
    return tc


def twist_runs(qrels, runs, depth: int = 1000, crossing: str = "literal", score_precision: str = "float32",
               effort_gain=None, title: Optional[str] = None, progress=None):
    """Twist of TREC runs over the topics of the qrels (``workbench twist-runs``): a TwistTable.

    ``effort_gain`` (``.png`` or ``.pdf``) draws the effort/gain scatter
    (Fig. 7-10); ``progress.advance`` counts the runs read.
    """
    from workbench.experiments.twist_runs import twist_table
    from workbench.figures.twist_plots import check_figure_path, effort_gain_figure

    bar = reporter(progress)
    runs = list(runs)
    if effort_gain is not None:
        check_figure_path(effort_gain)
    bar.total(len(runs))

    def stage(text: str, done: int, total: int) -> None:
        if text == "runs":
            bar.advance(1, f"read, judged, scored run {done}/{total}")
        else:
            bar.phase(f"Twist of topic {done}/{total}")

    table = twist_table(qrels, runs, depth, crossing, progress=stage, score_precision=score_precision)
    if effort_gain is not None:
        bar.phase("drawing")
        effort_gain_figure(table, effort_gain, title=title)
    return table


@dataclass
class TwistScale:
    """The scale of Twist and each component on the rank and dominance orders.

    ``text`` is the report (Markdown), ``rows`` the classifications,
    ``verdicts`` their count per verdict and ``summary`` the verdicts per
    measure and order.
    """

    text: str
    rows: list
    verdicts: dict
    summary: list


def twist_scale(progress=None) -> TwistScale:
    """Settle the scale of Twist and each component on the rank and dominance orders (``workbench twist-scale``)."""
    from workbench.papers.twist_scale import scale_rows, summary, surprises, twist_markdown, weight_rows

    bar = reporter(progress)
    rows = scale_rows(progress=bar.phase)
    bar.phase("weights")
    weights = weight_rows()
    text = twist_markdown(rows, weights, surprises())
    counts: dict = {}
    for r in rows:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    return TwistScale(text, rows, counts,
                      [{"measure": m, "order": o, "verdicts": sorted(v)} for m, o, v, _ in summary(rows)])
