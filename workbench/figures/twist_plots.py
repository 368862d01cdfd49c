"""Figures of Twist on real runs (Ferro et al. 2016): effort/gain scatter grids and CRP/DCG curves.

Every figure is PNG or PDF by suffix and saved atomically (a temporary file
beside the target, then renamed: :func:`workbench.core.files.save_figure`), so a
failure never leaves half a figure; a missing folder is created.

References
----------
Ferro et al., JASIST 2016, Fig. 7-11.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from workbench.errors import WorkbenchError
from workbench.core.plotting import (COLUMN_WIDTH, SMALL_FONT_SIZE, TEXT_WIDTH, check_figure_path,  # noqa: F401
                                     publication_style, pyplot, save_figure)
from workbench.experiments.twist_runs import TWIST_THRESHOLDS, TopicCurve, TwistTable

# ---------------------------------------------------------------- figures
def effort_gain_figure(table: TwistTable, path, title: str | None = None) -> Path:
    """Scatter plots of each gain measure over Twist with the 4 x 4 grid, one panel per measure (PNG or PDF).

    Across both columns of a paper; each panel's title gives the share of
    points on the grid's diagonal and in its high-high cell; ``title`` adds
    a figure title (none by default).

    >>> import os, tempfile
    >>> from workbench.experiments.twist_runs import topic_curve, twist_table
    >>> tab = twist_table({"1": {"a": 1}, "2": {"b": 1}}, [{"1": ["a"], "2": ["x", "b"]}], depth=3)
    >>> p = effort_gain_figure(tab, os.path.join(tempfile.mkdtemp(), "eg.png"))
    >>> p.suffix, p.stat().st_size > 0
    ('.png', True)

    References
    ----------
    Ferro et al. (2016), Fig. 7-10.
    """
    path = check_figure_path(path)
    if not table.gain_measures:
        raise WorkbenchError("effort/gain figure: the table was built without gain measures")
    if not table.rows:
        raise WorkbenchError("effort/gain figure: no (run, topic) point has a Twist (every topic was skipped)")
    with publication_style():
        return _effort_gain_figure(table, path, title)


def _effort_gain_figure(table: TwistTable, path: Path, title: str | None) -> Path:
    plt = pyplot()
    grids = table.effort_gain()
    x = np.array([float(r.twist) for r in table.rows])
    width = COLUMN_WIDTH if len(grids) == 1 else TEXT_WIDTH  # one column, or across both
    fig, axes = plt.subplots(1, len(grids), figsize=(width, 0.3 + 0.9 * width / len(grids)), squeeze=False)
    for ax, (m, g) in zip(axes[0], grids.items()):
        y = np.array([r.gains[m] for r in table.rows])
        ax.scatter(x, y, s=2, alpha=0.35, color="#2c7fb8", linewidths=0, rasterized=len(x) > 2000)
        for t in TWIST_THRESHOLDS:
            ax.axvline(float(t), color="k", lw=0.8)
        for q in g.thresholds:
            ax.axhline(q, color="k", lw=0.8, ls="--")
        ymax = max(1.0, float(y.max()) if y.size else 1.0)
        xs = [0, 0.25, 0.5, 0.75, 1.0]
        ys = [0.0, *g.thresholds, ymax]
        for i in range(4):
            for j in range(4):
                if g.total:
                    ax.text((xs[j] + xs[j + 1]) / 2, (ys[i] + ys[i + 1]) / 2 if ys[i + 1] > ys[i] else ys[i],
                            f"{100 * g.counts[i][j] / g.total:.0f}%", ha="center", va="center",
                            fontsize=SMALL_FONT_SIZE, color="#b2182b")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, ymax)
        ax.set_xlabel("Twist")
        ax.set_ylabel(m)
        ax.set_title(f"diagonal {100 * g.share('diagonal'):.1f}%, high-high {100 * g.share('high_high'):.1f}%",
                     fontsize=SMALL_FONT_SIZE)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return save_figure(fig, path)


def curve_figure(tc: TopicCurve, path, title: str | None = None) -> Path:
    """CRP (recall base dotted, x axis at 0) above the DCG curve of one run and topic (Ferro et al. 2016, Fig. 11).

    One column wide.  The legend names the recall base, the first crossing
    and the Twist (and nDCG when computed); ``title`` adds a title (none by
    default, e.g. the run, topic and archetype).

    >>> import os, tempfile
    >>> from workbench.experiments.twist_runs import topic_curve, twist_table
    >>> tc = topic_curve({"1": {"a": 1, "b": 2}}, {"1": ["x", "a", "b"]}, "1", depth=5, gain_measures=False)
    >>> curve_figure(tc, os.path.join(tempfile.mkdtemp(), "c.pdf")).stat().st_size > 0
    True

    References
    ----------
    Ferro et al. (2016), Fig. 11.
    """
    path = check_figure_path(path)
    with publication_style():
        plt = pyplot()
        ranks = np.arange(1, tc.depth + 1)
        crp = np.asarray(tc.row["crp"])
        fig, (a1, a2) = plt.subplots(2, 1, figsize=(COLUMN_WIDTH, 0.95 * COLUMN_WIDTH), sharex=True)
        tw = tc.row.get("twist")
        tw_text = "undefined" if tw is None else f"{float(Fraction(tw)):.4f}"
        a1.plot(ranks, crp, color="#2c7fb8", label=f"CRP (Twist {tw_text})")
        a1.axhline(0, color="k", lw=0.6)
        a1.axvline(tc.topic.recall_base, color="k", ls=":", label=f"RB = {tc.topic.recall_base}")
        if tc.row["first_crossing"]:
            a1.plot([tc.row["first_crossing"]], [crp[tc.row["first_crossing"] - 1]], "o", color="#d7301f",
                    label=f"first crossing {tc.row['first_crossing']}")
        a1.set_ylabel("CRP")
        if title:
            a1.set_title(title)
        a1.legend(loc="best")
        nd = tc.gains.get("nDCG")
        a2.plot(ranks, tc.dcg, color="#1b7837", label=None if nd is None else f"nDCG@{tc.depth} = {nd:.4f}")
        a2.set_ylabel("DCG (gain = grade)")
        a2.set_xlabel("rank")
        a2.set_xlim(1, max(tc.depth, 2))
        if nd is not None:
            a2.legend(loc="lower right")
        fig.tight_layout()
        return save_figure(fig, path)
