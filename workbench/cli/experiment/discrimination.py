"""``workbench experiment discrimination``: Sakai's paired bootstrap over all system pairs.

One call of :func:`workbench.experiments.discrimination.paired_bootstrap`
per measure plus the table and the ASL curves.

References
----------
Ferro et al., JASIST 2016 (seed 002), Fig. 14; Sakai, SIGIR 2006.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt,
    CutDepthOpt, FormatOpt, JsonOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SeedOpt, SkipOpt, StudyGainsOpt, ViewOpt,
    caption, check_range, csv_table, emit_table, markdown_table, matrix_notes, prepare_study, progress_bar,
    scorer, study_setting, with_notes,
)


def register(app: typer.Typer) -> None:
    """Add ``discrimination`` to ``app``."""
    app.command("discrimination")(discrimination_cmd)


def discrimination_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = CutDepthOpt,
    gains: Optional[str] = StudyGainsOpt,
    skip_missing: bool = SkipOpt,
    score_precision: str = ScorePrecisionOpt,
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap samples B (>= 1; Sakai: 1000)."),
    seed: int = SeedOpt,
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level, in (0, 1)."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Draw the ASL curves: FIG.png or FIG.pdf."),
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none: a paper's figure has its caption)."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Sakai's paired bootstrap over all system pairs: ASL curves, discriminative power, minimum delta (seed 002 Fig. 14)."""
    from workbench.errors import WorkbenchError
    from workbench.experiments.discrimination import asl_curve_figure, discrimination_rows, paired_bootstrap

    check_range("--bootstrap", bootstrap, 1)
    check_range("--seed", seed, 0)
    check_range("--alpha", alpha, 0, 1, open_interval=True)
    names, q, r, fmt, output, figure = prepare_study(qrels, runs, measures, view, depth, gains, skip_missing, fmt,
                                                output, figure, as_json=as_json, score_precision=score_precision)
    with progress_bar(label="discrimination") as bar:
        matrices = scorer(view, depth, gains, skip_missing, bar)(q, r, names)
        results = []
        for m in matrices:
            bar.phase(f"bootstrap {m.measure}")
            try:
                results.append(paired_bootstrap(m.floats, m.systems, m.measure, alpha=alpha, B=bootstrap, seed=seed))
            except WorkbenchError as e:
                raise type(e)(f"{m.measure}: {e}") from None
        if figure is not None:
            bar.phase("figure")
            asl_curve_figure(results, figure, title=title)
    s, notes = study_setting(matrices, view, depth), matrix_notes(matrices)
    head = ["measure", "significant", "pairs", "power", "min_delta", "alpha", "bootstrap", "seed"]
    table = [[d.measure, d.significant, len(d.pair_asl), d.power, None if math.isnan(d.min_delta) else d.min_delta,
              alpha, bootstrap, seed] for d in results]

    cap = caption(f"Paired bootstrap, B = {bootstrap}, alpha = {alpha:g}, seed {seed}", s)
    md_head = ["Measure", "Significant pairs", "Discriminative power", "Minimum delta"]

    def md():
        return with_notes(cap + "\n\n" + markdown_table(md_head, discrimination_rows(results)), notes)

    def tables():
        from workbench.core.table import Cell, Table

        return [Table(md_head, [[name, Cell(d.significant, sig), Cell(d.power, power),
                                 Cell(None if math.isnan(d.min_delta) else d.min_delta, delta)]
                                for d, (name, sig, power, delta) in zip(results, discrimination_rows(results))],
                      caption=cap, notes=notes)]

    obj = {"study": "discrimination", **s, "alpha": alpha, "bootstrap": bootstrap, "seed": seed,
           "rows": [dict(zip(head, row), asl_curve=d.asl,
                         pair_asl=[{"system_a": a, "system_b": b, "asl": x, "delta": y}
                                   for (a, b), x, y in zip(d.pairs, d.pair_asl, d.pair_delta)])
                    for row, d in zip(table, results)], "notes": notes}
    emit_table(fmt, output, md, lambda: csv_table(head, table), obj, figure, tables)
