"""``workbench experiment significance``: significantly different system pairs per measure.

One call of :func:`workbench.api.experiments.significance_study` (Tukey HSD
after Kruskal-Wallis and after ANOVA, optionally on each measure's interval
transformation) plus the tables.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020, Tables 3-4.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt, CutDepthOpt, FormatOpt, JsonOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SkipOpt,
    StudyGainsOpt, ViewOpt, caption, csv_table, emit_table, fmt_number, markdown_table, progress_bar, table_format, with_notes,
)


def register(app: typer.Typer) -> None:
    """Add ``significance`` to ``app``."""
    app.command("significance")(significance_cmd)


def _mc(mc) -> dict:
    return {"significant": mc.significant, "pairs": mc.total, "ratio": mc.ratio,
            "omnibus_statistic": mc.omnibus_statistic, "omnibus_p": mc.omnibus_p}


SIG_HEAD = ["measure", "pairs", "kw_significant", "kw_ratio", "anova_significant", "anova_ratio"]
SIG_T_HEAD = ["transformed", "t_kw_significant", "t_kw_ratio", "t_anova_significant", "t_anova_ratio",
              "kw_changes", "anova_changes"]
CHANGE_HEAD = ["measure_a", "measure_b", "test", "system_a", "system_b", "kind", "p_first", "p_second"]


def significance_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = CutDepthOpt,
    gains: Optional[str] = StudyGainsOpt,
    skip_missing: bool = SkipOpt,
    score_precision: str = ScorePrecisionOpt,
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level of the HSD decisions, in (0, 1)."),
    compare: Optional[list[str]] = typer.Option(
        None, "--compare", help="A,B: list the system pairs measures A and B decide differently (repeatable)."),
    transform: bool = typer.Option(
        False, "--transform", help="Add each measure's interval transformation and the decisions it changes."),
    transform_depth: Optional[int] = typer.Option(
        None, "--transform-depth",
        help="Depth N of the transformation rank[M]@N (default: the rankings' depth; needed when that space is too large)."),
    test: str = typer.Option(
        "tukey", "--test",
        help="tukey (HSD after Kruskal-Wallis and after ANOVA), or a paired test over the pairs: t, wilcoxon, sign, "
             "randomization."),
    correction: str = typer.Option(
        "none", "--correction", help="For a paired test, over the pairs of each measure: none, bonferroni, holm, bh."),
    pairs: str = typer.Option(
        "all", "--pairs", help="For a paired test: all (every pair of runs) or baseline:RUN (each run against RUN)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the Monte Carlo randomization test."),
    permutations: int = typer.Option(
        10_000, "--permutations",
        help="Random sign flips of the Monte Carlo randomization test (used where no exact count fits)."),
    max_space: Optional[int] = typer.Option(
        None, "--max-space",
        help="Most runs enumerated per topic for an interval transformation (default 2**20 = 1048576)."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Significantly different system pairs per measure: Tukey HSD after Kruskal-Wallis and after ANOVA (Ferrante et al. 2020, Tables 3-4), or a paired test over every pair.

    CSV: the counts table; with --compare, a blank line and then the table of pairs decided differently.
    LaTeX: the same tables; in the pairs table a dagger marks each p-value below alpha.
    With --test t|wilcoxon|sign|randomization: per measure the significant pairs, the conclusions that change
    between two measures (--compare, --transform, else every two), the changed pairs, then every pair.
    """
    from workbench.api.experiments import significance_study

    from workbench.core.files import check_output_path
    from workbench.core.table import format_of_path

    # --json is --format json; else the -o file's suffix, else Markdown
    fmt = table_format(fmt, as_json) or ("json" if as_json else format_of_path(output, "md") if output else "md")
    output = None if output is None else check_output_path(output)
    with progress_bar(label="significance") as bar:
        study = significance_study(qrels, runs, measures, view=view, depth=depth, gains=gains,
                                   skip_missing=skip_missing, score_precision=score_precision, alpha=alpha,
                                   compare=compare or [], transform=transform, transform_depth=transform_depth,
                                   test=test, correction=correction, pairs=pairs, seed=seed,
                                   permutations=permutations, max_space=max_space, progress=bar)
    if study.pairwise is not None:
        from workbench.core.table import render

        result = study.pairwise
        extra = {**study.setting}
        emit_table(fmt, output, lambda: render(result.tables(), "md"), lambda: render(result.tables(), "csv"),
                   {**extra, **result.to_json()}, tables=result.tables)
        return
    rows, changes, pairs, s, notes = study.rows, study.changes, study.compare, study.setting, study.notes

    def counts(a, b):
        return [a.significant, a.ratio, b.significant, b.ratio]

    table, md_rows = [], []
    for row in rows:
        kw, an, t = row.kw, row.an, row.t
        table.append([row.m.measure, kw.total, *counts(kw, an)])
        md_rows.append([row.m.measure, row.kw_text, row.an_text])
        if transform and t is not None:
            table[-1] += [t.measure, *counts(row.tkw, row.tan), row.ckw.count, row.can.count]
            md_rows[-1] += [t.measure, row.tkw_text, row.tan_text, row.ckw.count, row.can.count]
        elif transform:
            table[-1] += [None] * len(SIG_T_HEAD)
            md_rows[-1] += ["n/a (ranked already)" if row.m.exact else "n/a (ir_measures)", "-", "-", "-", "-"]

    head = ["Measure", "Kruskal-Wallis + HSD", "ANOVA + HSD"]
    head += ["Interval version", "KW + HSD", "ANOVA + HSD", "KW changes", "ANOVA changes"] if transform else []
    cap = caption(f"System pairs significantly different at alpha = {alpha:g}", s)

    def tables():
        from workbench.core.table import Cell, Table

        # distinct names for the interval version's columns (a JSON row is an object)
        named = head[:3] + [f"{h} (interval)" if h in head[:3] else h for h in head[3:]]
        out = [Table(named, [[Cell(v, str(v)) if isinstance(v, str) else v for v in row] for row in md_rows],
                     caption=cap, notes=notes if not pairs else ())]
        if pairs:
            def p_cell(p):
                return Cell(p, fmt_number(p, ".4g"), ("dagger",) if p is not None and p < alpha else ())

            out.append(Table(CHANGE_HEAD, [[p_cell(c[k]) if k.startswith("p_") else c[k] for k in CHANGE_HEAD]
                                           for c in changes],
                             caption="System pairs decided differently (kind: significant only under the first / "
                                     "second measure, or under both in opposite directions)",
                             legend={"dagger": f"p < alpha = {alpha:g}"}, notes=notes))
        return out

    def md():
        text = cap + "\n\n"
        text += markdown_table(head, md_rows)
        if pairs:
            text += ("\nSystem pairs decided differently (kind: significant only under the first / second "
                     "measure, or under both in opposite directions)\n\n")
            text += markdown_table(CHANGE_HEAD, [[fmt_number(c[k], ".4g") if k.startswith("p_") else c[k] for k in CHANGE_HEAD]
                                            for c in changes]) if changes else "none\n"
        return with_notes(text, notes)

    def csv_text():
        text = csv_table(SIG_HEAD + (SIG_T_HEAD if transform else []), table)
        return text + ("\n" + csv_table(CHANGE_HEAD, [[c[k] for k in CHANGE_HEAD] for c in changes]) if pairs else "")

    def row_json(row):
        d = {"measure": row.m.measure, "topics": len(row.m.topics), "kruskal_wallis_hsd": _mc(row.kw),
             "anova_hsd": _mc(row.an)}
        if transform:
            t = row.t
            d["transformed"] = t and {"measure": t.measure, "topics": len(t.topics),
                                      "kruskal_wallis_hsd": _mc(row.tkw), "anova_hsd": _mc(row.tan),
                                      "kruskal_wallis_changes": row.ckw.count, "anova_changes": row.can.count}
        return d

    obj = {"study": "significance", **s, "alpha": alpha, "rows": [row_json(row) for row in rows],
           "compare": pairs, "changes": changes, "notes": notes}
    emit_table(fmt, output, md, csv_text, obj, tables=tables)
