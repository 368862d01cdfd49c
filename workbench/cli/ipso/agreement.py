"""``workbench ipso agreement``: the IPSO sign test against the usual tests of six metrics (Fig. 7).

One call of :func:`workbench.api.ipso.agreement` (the figure drawn on request) plus the table.

References
----------
Moffat and Mackenzie, JASIST 2024.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, ScorePrecisionOpt, TableFormatOpt, table_format, write_table_file, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``agreement`` to ``app``."""
    app.command("agreement")(agreement_cmd)


def agreement_cmd(
    runs: list[Path] = typer.Argument(..., help="Two or more TREC run files (plain or .gz); - reads standard input."),
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels file (topic iter docid grade); - reads standard input."),
    depth: int = typer.Option(10, "--depth", help="SERP depth k (>= 1)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Graded view with these gains, e.g. 0,1,2 (default: binary view)."),
    relevance_level: int = typer.Option(1, "--relevance-level", help="Binary view: relevant when grade >= this (also RR/P/AP)."),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level (p < alpha)."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Stacked bars (Moffat and Mackenzie 2024, Fig. 7): writes .png and .pdf (a missing folder is created)."),
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none: a paper's figure has its caption)."),
    table: Optional[Path] = typer.Option(None, "--table", help="Also write the summary table to this file (atomically; a missing folder is created), in --format or as its suffix says (.md .csv .json .tex; default Markdown)."),
    score_precision: str = ScorePrecisionOpt,
    pairs: bool = typer.Option(False, "--pairs", help="Also show, pair by pair, each metric's tests (p, the run favoured, the agreement category) beside the IPSO sign test on the same pair."),
    as_json: bool = JsonOpt,
    fmt: Optional[str] = TableFormatOpt,
) -> None:
    """IPSO sign test vs paired t / Wilcoxon / sign tests of six metrics, all unordered run pairs (Moffat and Mackenzie 2024, Fig. 7)."""
    fmt = table_format(fmt, as_json)
    as_json = as_json or fmt == "json"
    from workbench.api.ipso import AGREEMENT, AGREEMENT_NAMES, TEST_NAMES, agreement
    from workbench.core.files import check_output_path

    if table is not None:
        check_output_path(table, "--table")
    with progress_bar(label="system pairs") as bar:
        study = agreement(runs, qrels, depth, gains, relevance_level, alpha, figure=figure, title=title,
                          score_precision=score_precision, progress=bar)
    result, written, n_pairs = study.result, study.figures, study.pairs
    if table is not None:
        write_table_file(table, fmt, result.markdown, lambda: [result.table()])
    if fmt in ("md", "csv", "latex"):
        sys.stdout.write(result.markdown() if fmt == "md" else result.table().render(fmt))
        if pairs:
            sys.stdout.write("\n" + result.pairs_table().render(fmt))
        return
    if as_json:
        out = result.to_dict()
        out["figure"] = [str(p) for p in written]
        out["table"] = None if table is None else str(table)
        emit_json(out)
        return
    from rich.console import Console
    from rich.table import Table

    tab = Table(title=f"{len(runs)} runs, {n_pairs} unordered pairs, depth {depth}, alpha {alpha}")
    for head in ["Metric", "Test"] + [AGREEMENT_NAMES[c] for c in AGREEMENT] + ["agree %"]:
        tab.add_column(head)
    for (m, t), c in result.summary().items():
        tab.add_row(result.label(m), TEST_NAMES[t], *[str(c[k]) for k in AGREEMENT],
                    f"{100 * (c['both_yes'] + c['both_no']) / n_pairs:.1f}")
    stdout.print(f"{result.view.describe()}; IPSO sign test significant for "
                 f"{sum(p.ipso.significant for p in result.pairs)} of {n_pairs} pairs")
    Console(width=max(stdout.width, 160), force_terminal=stdout.is_terminal).print(tab)
    for note in result.notes:
        stdout.print(note)
    if pairs:
        stdout.print(result.pairs_table().render("md"), soft_wrap=True, highlight=False, markup=False)
    for p in written:
        stdout.print(f"figure: {p}")
    if table is not None:
        stdout.print(f"table: {table}")
