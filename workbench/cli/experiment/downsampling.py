"""``workbench experiment downsampling``: self Kendall tau between the full pool and nested samples of it.

One call of :func:`workbench.api.experiments.downsampling_study` (the
curves, drawn on request) plus the table.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020, Fig. 1-2.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt, CutDepthOpt, FormatOpt, JsonOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SeedOpt, SkipOpt,
    StudyGainsOpt, ViewOpt, caption, csv_table, emit_table, fmt_number, progress_bar, table_format,
)


def register(app: typer.Typer) -> None:
    """Add ``downsampling`` to ``app``."""
    app.command("downsampling")(downsampling_cmd)


def downsampling_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = CutDepthOpt,
    gains: Optional[str] = StudyGainsOpt,
    skip_missing: bool = SkipOpt,
    score_precision: str = ScorePrecisionOpt,
    strategies: str = typer.Option("stratified,uniform", "--strategies", help="Comma-separated: stratified, uniform."),
    fractions: str = typer.Option("90,70,50,30,10,5", "--fractions", help="Pool percentages (1..100), comma-separated."),
    repetitions: int = typer.Option(5, "--repetitions", help="Seeded repetitions of every sample (>= 1)."),
    seed: int = SeedOpt,
    figure: Optional[Path] = typer.Option(None, "--figure", help="Draw the curves: FIG.png or FIG.pdf."),
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none: a paper's figure has its caption)."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Self Kendall tau of each measure between the full pool and nested random samples of it (Ferrante et al. 2020, Fig. 1-2)."""
    from workbench.api.experiments import downsampling_study

    from workbench.core.files import check_output_path
    from workbench.core.table import format_of_path

    # --json is --format json; else the -o file's suffix, else Markdown
    fmt = table_format(fmt, as_json) or ("json" if as_json else format_of_path(output, "md") if output else "md")
    output = None if output is None else check_output_path(output)
    with progress_bar(label="downsampling") as bar:
        study = downsampling_study(qrels, runs, measures, view=view, depth=depth, gains=gains,
                                   skip_missing=skip_missing, score_precision=score_precision, strategies=strategies,
                                   fractions=fractions, repetitions=repetitions, seed=seed, figure=figure,
                                   title=title, progress=bar)
    result, s, figure = study.result, study.setting, study.figure
    rows = result.to_rows()
    head = list(rows[0])

    cap = caption(f"Self Kendall's tau-b, mean ± sd over {repetitions} repetition(s), seed {seed}", s)

    def table():
        from workbench.core.table import Cell, Table

        body = [[m, strat] + [Cell(c.mean, f"{fmt_number(c.mean)} ± {fmt_number(c.sd)}") for c in
                              (result.cell(m, strat, p) for p in result.fractions)]
                for m in result.measures for strat in result.strategies]
        return Table(["Measure", "Sampling"] + [f"{p}%" for p in result.fractions], body, caption=cap, rule="spaced")

    def md():
        return table().to_markdown()

    obj = {"study": "downsampling", **s, "strategies": list(result.strategies), "fractions": list(result.fractions),
           "repetitions": repetitions, "seed": seed, "rows": rows}
    emit_table(fmt, output, md, lambda: csv_table(head, [[row.get(k) for k in head] for row in rows]), obj, figure,
               lambda: [table()])
