"""The thinning-judgments report on Robust 2003: ``reports/thinning.md``, its JSON twin and its figure.

:func:`run_thinning` reads a TREC collection folder (``qrels.txt`` and
``runs/input.*``, by default ``$WORKBENCH_DATA/robust03``) and runs
:func:`workbench.experiments.thinning.thinning_study` on it; :func:`write_thinning`
writes the report (:func:`thinning_markdown`), the JSON (:func:`thinning_json_text`)
and the figure of tau-b against the share of judgments kept
(:func:`save_tau_figure`, SVG and PDF).  Everything written is deterministic:
exact values or floats rounded from them, no dates, paths or timings; the
figures are written without dates and with SVG ids from a fixed salt, so a
test regenerates the four files byte for byte.

Examples
--------
>>> from workbench.experiments.thinning import thinning_study
>>> qrels = {str(t): {"a": 1, "b": 1, "c": 0, "n": 0, "m": 0} for t in range(6)}
>>> runs = {"x": {str(t): ["a", "n", "b"][t % 3:] + ["c"] for t in range(6)},
...         "y": {str(t): ["n", "a", "m", "b"][t % 2:] for t in range(6)},
...         "z": {str(t): ["m", "n", "c", "a"][:2 + t % 3] for t in range(6)}}
>>> s = thinning_study(qrels, runs, ["P@2", "RR"], pools=[1], fractions=[50], rank_depth=2)
>>> [line for line in thinning_markdown(s).splitlines() if line.startswith("| RR |")]
['| RR | 1 | 1 |', '| RR | 2 | -0/+0 | -1/+0 |', '| RR | 1 | 1 | 1 |']

References
----------
Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006; Sakai, SIGIR
2007; Kendall, Biometrika 1945.
"""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Optional, Sequence

from workbench.core.files import atomic_write, check_output_path
from workbench.core.plotting import TEXT_WIDTH, save_report_figure
from workbench.data.score_matrix import load_runs
from workbench.data.trec import read_qrels
from workbench.errors import WorkbenchError
from workbench.papers.atlas_report import report_json_text
from workbench.experiments.thinning import (FRACTIONS, MEASURES, POOL_DEPTHS, SEED, ThinningCell,
                                            ThinningStudy, tau_text, thinning_study)

__all__ = ["REPORT", "JSON_REPORT", "FIGURE", "FIGURE_SUFFIXES", "read_collection", "run_thinning",
           "thinning_markdown", "thinning_json_text", "tau_figure", "save_tau_figure", "report_paths",
           "check_report_paths", "write_thinning"]

#: The report's file name in the reports folder.
REPORT = "thinning.md"
#: Its JSON twin.
JSON_REPORT = "thinning.json"
#: The figure's file name without suffix, in ``figures/`` of the reports folder.
FIGURE = "thinning"
#: The figure formats written (vector graphics, as the disagreement atlas).
FIGURE_SUFFIXES = (".svg", ".pdf")


# ---------------------------------------------------------------- data
def read_collection(folder) -> tuple[dict, dict]:
    """``(qrels, runs)`` of a TREC collection folder: ``qrels.txt`` and ``runs/input.*`` (plain or gzip).

    >>> read_collection("no/such/folder")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: data folder 'no/such/folder': needs qrels.txt and runs/input.* files

    References
    ----------
    trec_eval qrels and run formats.
    """
    folder = Path(folder)
    qfile, files = folder / "qrels.txt", sorted((folder / "runs").glob("input.*"))
    if not qfile.is_file() or not files:
        raise WorkbenchError(f"data folder {str(folder)!r}: needs qrels.txt and runs/input.* files")
    return read_qrels(qfile), load_runs(files)


def run_thinning(folder, pools: Sequence[int] = POOL_DEPTHS, fractions: Sequence[int] = FRACTIONS,
                 seed: int = SEED, measures: Sequence[str] = MEASURES, progress=None) -> ThinningStudy:
    """The thinning study on the collection in ``folder`` (:func:`read_collection`).

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006.
    """
    qrels, runs = read_collection(folder)
    return thinning_study(qrels, runs, measures, pools=pools, fractions=fractions, seed=seed, progress=progress)


# ---------------------------------------------------------------- text
def _pct(x) -> str:
    return f"{100 * float(x):.2f}%"


def _value(c: ThinningCell) -> float:
    return math.nan if c.tau is None or c.tau.value is None else c.tau.value


def _set_text(s) -> str:
    """How the findings name a set: ``the pool of depth 10``, ``the random 10% sample``."""
    return f"the pool of depth {s.parameter}" if s.kind == "pool" else f"the random {s.parameter}% sample"


def _extremes(study: ThinningStudy, name: str) -> str:
    cells = [study.cell(m, name) for m in study.measures]
    defined = [c for c in cells if not math.isnan(_value(c))]
    if not defined:
        return "tau-b is undefined for every measure"
    lo, hi = min(defined, key=_value), max(defined, key=_value)

    def who(x) -> str:
        return ", ".join(f"`{c.measure}`" for c in defined if tau_text(c.tau) == tau_text(x.tau))

    if tau_text(lo.tau) == tau_text(hi.tau):
        return f"tau-b is {tau_text(lo.tau)} for every measure"
    return f"tau-b runs from {tau_text(lo.tau)} ({who(lo)}) to {tau_text(hi.tau)} ({who(hi)})"


def _stayed(c: ThinningCell) -> int:
    """Pairs significant with the full judgments that stay significant, in the same direction."""
    return c.significant_full - len(c.lost) - len(c.opposite)


def _findings(study: ThinningStudy) -> list[str]:
    """The findings in words, every number computed from ``study``."""
    out = []
    groups = [[s for s in study.sets if s.kind == kind] for kind in ("pool", "random")]
    for group in groups:
        if not group:
            continue
        first, last = group[0], group[-1]
        text = f"- **{'Pools' if first.kind == 'pool' else 'Random samples'}.** With {_set_text(first)} " \
               f"({_pct(first.fraction)} of the judgments), {_extremes(study, first.name)}"
        if last is not first:
            text += f"; with {_set_text(last)} ({_pct(last.fraction)}), {_extremes(study, last.name)}"
        kept = "; ".join(f"`{m}` {_stayed(study.cell(m, last.name))} of {study.cell(m, 'full').significant}"
                         for m in study.measures)
        out.append(text + f". Pairs of systems significant with the full judgments that stay significant with "
                          f"{_set_text(last)}: {kept}.")
    thinned = study.thinned
    if not thinned:
        return out
    mean = {}
    for m in study.measures:
        v = [_value(study.cell(m, s.name)) for s in thinned]
        if not any(math.isnan(x) for x in v):
            mean[m] = sum(v) / len(v)
    if len(mean) > 1:
        best, worst = max(mean, key=mean.__getitem__), min(mean, key=mean.__getitem__)
        out.append(f"- **Over the {len(thinned)} thinned sets**, the mean tau-b is highest for `{best}` "
                   f"({mean[best]:.3f}) and lowest for `{worst}` ({mean[worst]:.3f}).")
    gained = sum(len(study.cell(m, s.name).gained) for m in study.measures for s in thinned)
    opposite = sum(len(study.cell(m, s.name).opposite) for m in study.measures for s in thinned)
    lost = sum(len(study.cell(m, s.name).lost) for m in study.measures for s in thinned)
    out.append(f"- **Conclusions that change**, over every measure and thinned set: {lost} lost, {gained} gained "
               f"(significant with the thinned judgments only), {opposite} in opposite directions.")
    for group in groups:
        if not group:
            continue
        last = group[-1]
        drops = {}
        for m in study.measures:
            a, b = study.cell(m, "full").rank_tau, study.cell(m, last.name).rank_tau
            if a is not None and b is not None and a.value is not None and b.value is not None:
                drops[m] = (a, b)
        if drops:
            m = max(drops, key=lambda k: abs(drops[k][0].value - drops[k][1].value))
            a, b = drops[m]
            out.append(f"- **rank[M]@{study.rank_depth}, {_set_text(last)}.** The tau-b of M with its interval "
                       f"transformation changes most for `{m}`: {tau_text(a)} on the full judgments, "
                       f"{tau_text(b)} with {_set_text(last)}.")
    return out


def thinning_markdown(study: ThinningStudy, figure: Optional[str] = None) -> str:
    """The deterministic Markdown report (floats rounded from exact values; no paths but the figure's relative one).

    Parameters
    ----------
    study : ThinningStudy
    figure : str, optional
        The relative path of the SVG figure, linked from the report.

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006; Kendall, Biometrika 1945.
    """
    full = study.sets[0]
    grades: dict = {}
    for q in full.qrels.values():
        for g in q.values():
            grades[g] = grades.get(g, 0) + 1
    incomplete = [m for m in study.measures if m in study.incomplete]
    complete = [m for m in study.measures if m not in incomplete]
    pools = [s for s in study.sets if s.kind == "pool"]
    randoms = [s for s in study.sets if s.kind == "random"]
    lines = [
        "# Thinning the judgments of TREC 2003 Robust", "",
        "Generated by `workbench experiment thinning` (modules `workbench/experiments/thinning.py` and "
        "`workbench/papers/thinning_report.py`); do not edit by hand.", "",
        "What happens to each measure's ranking of the systems, and to the significance conclusions drawn from it, "
        "when fewer documents are judged? The judgments are thinned in two ways, every run is scored exactly on each "
        "thinned set, and each measure is compared with itself on the full judgments.", "",
        "## Setup", "",
        f"- **Data.** {len(full.qrels)} topics, {full.total:,} judgments (per grade: "
        + ", ".join(f"{g}: {n:,}" for g, n in sorted(grades.items())) + f"), {len(study.systems)} runs: "
        + ", ".join(study.systems) + ". Rankings are read as trec_eval reads a run file (score descending, ties by "
        "docid descending) and scored uncut. A topic is scored when it has a relevant document judged.",
        "- **Pools.** `pool k` keeps the judgments of the documents some run ranks in its first k, per topic, and "
        "drops the others. The pools are built from the runs above only: the official judgments were made from "
        "pools of more runs, so even the deepest pool here keeps only part of them, and `pool k` approximates "
        "judging to depth k rather than reproducing the official pool of depth k.",
        f"- **Random fractions.** `random P%` keeps, per topic, a uniform random sample of P% of its judgments "
        f"(Yilmaz and Aslam 2006): round(P D / 100) of its D judgments, half up, at least one, the samples nested, "
        f"the permutation redrawn until the smallest sample holds a relevant document (so the samples depend on "
        f"the smallest fraction asked for); seed {study.seed}, each "
        f"topic's generator fixed by the seed and the topic id (`workbench.experiments.downsampling.sample_pools`, "
        f"`strategy=\"uniform\"`).",
        "- **Unjudged documents.** A dropped judgment leaves its document unjudged. The measures made for complete "
        "judgments (" + (", ".join(f"`{m}`" for m in complete) or "none") + ") read it as not relevant, as "
        "trec_eval does" + ("; the measures made for incomplete judgments (" + ", ".join(f"`{m}`" for m in incomplete)
                            + ") read it as unjudged." if incomplete else "."),
        f"- **Gains** `{study.gains}` on every set (those of the full qrels); `AP`, `P`, `RBP` and `RR` read "
        "grade >= 1 as relevant.",
        "- **Kendall's tau-b** between the ranking of the systems by their mean score over the scored topics on "
        "the full judgments and on the thinned ones. The means are exact and so are their ties; tau-b is exact (the "
        "JSON report holds it, e.g. `sqrt(6)/3`, with the pair counts) and shown here to 3 digits.",
        f"- **Significance.** {study._test_text()[0].upper() + study._test_text()[1:]}, on the full and on each "
        "thinned set. A pair is *lost* when it is significant with the full judgments only, *gained* when with "
        "the thinned ones only, *opposite* when with both but in opposite directions.",
        f"- **rank[M]@{study.rank_depth}.** Tau-b between M and its interval transformation `rank[M]@"
        f"{study.rank_depth}` (each run's value replaced by its position among the values M attains on the "
        f"topic's runs of depth {study.rank_depth}) on the same judgments: how far M is from an interval scale, and "
        f"whether thinning moves it. M is scored on whole rankings and `rank[M]@{study.rank_depth}` on their first "
        f"{study.rank_depth} documents, so for a measure without a cut-off part of the difference is the cut.",
    ]
    if "infAP" in study.measures:
        lines.append("- **infAP** follows trec_eval, which tells a document outside the pool (absent from the qrels) "
                     "from one in the pool but not judged (qrels grade -1, a sampled-out document). The workbench's "
                     "unjudged position is the first kind, so a thinned judgment counts as outside the pool and "
                     "infAP stays within 1e-5 of `AP` reading it as not relevant: the estimate infAP makes for "
                     "sampled-out documents is not what this study measures.")
    inc = [m for m in study.measures if m in study.incomplete
           and any(study.cell(m, s.name).rank_note is not None for s in study.sets)]
    if inc:
        lines.append(f"- **rank[M]@{study.rank_depth} does not apply** to " + ", ".join(f"`{m}`" for m in inc)
                     + ": they read unjudged documents, and the interval transformation places a value among those "
                     f"of the runs of depth {study.rank_depth} over the judged grades only, with no unjudged "
                     "position.")
    notes = sorted({(m, study.cell(m, s.name).rank_note) for m in study.measures for s in study.sets
                    if study.cell(m, s.name).rank_note is not None and m not in inc})
    for m, why in notes:
        lines.append(f"- `rank[{m}]@{study.rank_depth}` does not apply: {why}")
    if figure is not None:
        lines += ["", f"![Kendall's tau-b against the share of judgments kept]({figure})", "",
                  f"The figure (`{figure}`, and as PDF beside it): tau-b of each measure against itself on the full "
                  "judgments, over the share of judgments kept (log scale); left the random fractions, right the "
                  "pools (depth k on top). The point at 100% is the full set (tau-b 1)."
                  + (" Dashed lines: measures made for incomplete judgments." if incomplete else "")]
    lines += ["", "## Findings", "", *_findings(study)]
    tables = study.tables()
    lines += ["", "## The sets of judgments", ""]
    lines += replace(tables[0], caption=None).markdown_lines()
    lines += ["", "## Kendall's tau-b against the full judgments", ""]
    lines += replace(tables[1], caption=None).markdown_lines()
    lines += ["", "## Significance conclusions that change", "",
              "Per measure, the pairs significant with the full judgments, and per thinned set `-lost/+gained` "
              "(and `opp N`: significant in opposite directions). The JSON report lists the pairs.", ""]
    lines += replace(tables[2], caption=None).markdown_lines()
    lines += ["", f"## Correlation with rank[M]@{study.rank_depth}", "",
              f"Tau-b between M and `rank[M]@{study.rank_depth}` on each set of judgments (`n/a`: the "
              "transformation does not apply, see Setup).", ""]
    lines += replace(tables[3], caption=None).markdown_lines()
    what = ",".join(str(s.parameter) for s in pools)
    lines += ["", "## Regenerate", "",
              "```",
              "workbench experiment thinning"
              + ("" if sorted(s.parameter for s in pools) == sorted(POOL_DEPTHS) else f" --pools {what}")
              + ("" if sorted(s.parameter for s in randoms) == sorted(FRACTIONS)
                 else " --fractions " + ",".join(str(s.parameter) for s in randoms))
              + ("" if study.seed == SEED else f" --seed {study.seed}"),
              "```", "",
              "It reads `$WORKBENCH_DATA/robust03` (`qrels.txt`, `runs/input.*.gz`) and writes this report, "
              f"`{JSON_REPORT}` and `figures/{FIGURE}.svg` and `.pdf`."]
    return "\n".join(lines) + "\n"


def thinning_json_text(study: ThinningStudy) -> str:
    """:meth:`ThinningStudy.to_json` as text, one line per set and per cell (the committed reports' layout).

    References
    ----------
    RFC 8259 (JSON).
    """
    return report_json_text(study.to_json())


# ---------------------------------------------------------------- the figure
def tau_figure(study: ThinningStudy):
    """Tau-b against the share of judgments kept: random fractions (left), pools (right), one line per measure.

    Floats here are for the picture only; the reports hold the exact values.  Draw and save it inside
    :func:`~workbench.core.plotting.publication_style` (as :func:`save_tau_figure` does).

    References
    ----------
    Buckley and Voorhees, SIGIR 2004 (Fig. 1: tau against the pool kept); matplotlib.
    """
    # matplotlib is slow to load (~0.5 s); only the figure needs it
    import matplotlib
    from matplotlib.figure import Figure

    fig = Figure(figsize=(TEXT_WIDTH - 1.3, 2.6))   # the legend to the right takes the rest of the text width
    axes = fig.subplots(1, 2, sharey=True)
    colors = matplotlib.colormaps["tab10"]
    lows = [1.0]
    for ax, kind, title in ((axes[0], "random", "random sample per topic"), (axes[1], "pool", "pool of depth k")):
        sets = sorted((s for s in study.sets if s.kind == kind), key=lambda s: s.fraction)
        for i, m in enumerate(study.measures):
            xs = [100 * float(s.fraction) for s in sets] + [100.0]
            ys = [_value(study.cell(m, s.name)) for s in sets] + [1.0]
            lows += [y for y in ys if not math.isnan(y)]
            ax.plot(xs, ys, marker="s" if m in study.incomplete else "o", color=colors(i % 10), label=m,
                    linestyle="--" if m in study.incomplete else "-")
        ax.set_xscale("log")
        low = 100 * float(sets[0].fraction) if sets else 1.0
        ticks = [t for t in (1, 2, 5, 10, 20, 30, 50, 100) if t >= 0.8 * low]
        ax.set_xticks(ticks, labels=[f"{t}%" for t in ticks])
        ax.minorticks_off()
        ax.set_xlabel(f"judgments kept ({title})")
        ax.grid(alpha=0.3)
        if kind == "pool" and sets:
            top = ax.secondary_xaxis("top")
            top.set_xticks([100 * float(s.fraction) for s in sets], labels=[str(s.parameter) for s in sets])
            top.minorticks_off()
            top.set_xlabel("pool depth k", labelpad=2)
    axes[0].set_ylabel("Kendall's tau-b vs full judgments")
    low = min(lows)
    axes[0].set_ylim((math.floor(10 * low) / 10 if low >= 0 else -1.0) - 0.02, 1.02)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(0.985, 0.5))
    fig.subplots_adjust(left=0.1, right=0.98, wspace=0.06)
    return fig


def save_tau_figure(study: ThinningStudy, path) -> Path:
    """Write the figure to ``path`` (``.svg`` or ``.pdf``): atomically, the same bytes every time.

    References
    ----------
    matplotlib ``Figure.savefig`` (``metadata``, ``svg.hashsalt``); POSIX rename(2).
    """
    return save_report_figure(lambda: tau_figure(study), path, FIGURE_SUFFIXES)


# ---------------------------------------------------------------- writing
def report_paths(folder) -> tuple[Path, ...]:
    """The files :func:`write_thinning` writes in ``folder``: the report, the JSON, the SVG and the PDF.

    >>> [p.as_posix() for p in report_paths("reports")]
    ['reports/thinning.md', 'reports/thinning.json', 'reports/figures/thinning.svg', 'reports/figures/thinning.pdf']
    """
    folder = Path(folder)
    return (folder / REPORT, folder / JSON_REPORT, *(folder / "figures" / f"{FIGURE}{s}" for s in FIGURE_SUFFIXES))


def check_report_paths(folder) -> tuple[Path, ...]:
    """:func:`report_paths`, each checked writable (:func:`workbench.core.files.check_output_path`); nothing created.

    References
    ----------
    docs/reference/cli.md (bad input: one line, nothing written).
    """
    return tuple(check_output_path(p, "report" if k < 2 else "figure") for k, p in enumerate(report_paths(folder)))


def write_thinning(study: ThinningStudy, folder) -> tuple[Path, ...]:
    """Write the report, its JSON twin and the figure (SVG, PDF) into ``folder``; returns the paths.

    Each file is written atomically (a temporary file, then a rename); the figures first, the report last.

    References
    ----------
    POSIX rename(2).
    """
    md, js, svg, pdf = check_report_paths(folder)
    save_tau_figure(study, svg)
    save_tau_figure(study, pdf)
    atomic_write(js, thinning_json_text(study))
    atomic_write(md, thinning_markdown(study, f"figures/{FIGURE}.svg"))
    return md, js, svg, pdf

