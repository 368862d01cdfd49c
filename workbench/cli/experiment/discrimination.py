"""``workbench experiment discrimination``: Sakai's paired bootstrap over all system pairs.

One call of :func:`workbench.api.experiments.discrimination_study` (the
bootstrap per measure, the ASL curves drawn on request) plus the table.

References
----------
Ferro et al., JASIST 2016, Fig. 14; Sakai, SIGIR 2006.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt, CutDepthOpt, FormatOpt, JsonOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SeedOpt, SkipOpt,
    StudyGainsOpt, ViewOpt, caption, csv_table, emit_table, markdown_table, progress_bar, table_format, with_notes,
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
    """Sakai's paired bootstrap over all system pairs: ASL curves, discriminative power, minimum delta (Ferro et al. 2016, Fig. 14)."""
    from workbench.api.experiments import discrimination_study

    from workbench.core.files import check_output_path
    from workbench.core.table import format_of_path

    # --json is --format json; else the -o file's suffix, else Markdown
    fmt = table_format(fmt, as_json) or ("json" if as_json else format_of_path(output, "md") if output else "md")
    output = None if output is None else check_output_path(output)
    with progress_bar(label="discrimination") as bar:
        study = discrimination_study(qrels, runs, measures, view=view, depth=depth, gains=gains,
                                     skip_missing=skip_missing, score_precision=score_precision, bootstrap=bootstrap,
                                     seed=seed, alpha=alpha, figure=figure, title=title, progress=bar)
    s, notes, results, figure = study.setting, study.notes, study.results, study.figure
    head = ["measure", "significant", "pairs", "power", "min_delta", "alpha", "bootstrap", "seed"]
    table = [[d.measure, d.significant, len(d.pair_asl), d.power, None if math.isnan(d.min_delta) else d.min_delta,
              alpha, bootstrap, seed] for d in results]

    cap = caption(f"Paired bootstrap, B = {bootstrap}, alpha = {alpha:g}, seed {seed}", s)
    md_head = ["Measure", "Significant pairs", "Discriminative power", "Minimum delta"]

    def md():
        return with_notes(cap + "\n\n" + markdown_table(md_head, study.rows), notes)

    def tables():
        from workbench.core.table import Cell, Table

        return [Table(md_head, [[name, Cell(d.significant, sig), Cell(d.power, power),
                                 Cell(None if math.isnan(d.min_delta) else d.min_delta, delta)]
                                for d, (name, sig, power, delta) in zip(results, study.rows)],
                      caption=cap, notes=notes)]

    obj = {"study": "discrimination", **s, "alpha": alpha, "bootstrap": bootstrap, "seed": seed,
           "rows": [dict(zip(head, row), asl_curve=d.asl,
                         pair_asl=[{"system_a": a, "system_b": b, "asl": x, "delta": y}
                                   for (a, b), x, y in zip(d.pairs, d.pair_asl, d.pair_delta)])
                    for row, d in zip(table, results)], "notes": notes}
    emit_table(fmt, output, md, lambda: csv_table(head, table), obj, figure, tables)
