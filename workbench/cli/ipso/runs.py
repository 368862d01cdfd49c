"""``workbench ipso runs``: IPSO per topic between two TREC runs, with the sign test (Fig. 5).

One call of :func:`workbench.api.ipso.runs` plus the table.

References
----------
Moffat and Mackenzie, JASIST 2024.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, ScorePrecisionOpt, TableFormatOpt, table_format, write_table_file, emit_json, stdout


def register(app: typer.Typer) -> None:
    """Add ``runs`` to ``app``."""
    app.command("runs")(runs_cmd)


def runs_cmd(
    run_a: Path = typer.Argument(..., help="TREC run file of System A (plain or .gz); - reads standard input."),
    run_b: Path = typer.Argument(..., help="TREC run file of System B; - reads standard input."),
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels file (topic iter docid grade); - reads standard input."),
    depth: int = typer.Option(10, "--depth", help="SERP depth k (>= 1)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Graded view with these gains, e.g. 0,1,2 (default: binary view)."),
    relevance_level: int = typer.Option(1, "--relevance-level", help="Binary view: relevant when grade >= this (also RR/P/AP)."),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level (p < alpha)."),
    table: Optional[Path] = typer.Option(None, "--table", help="Also write the table to this file (atomically; a missing folder is created), in --format or as its suffix says (.md .csv .json .tex; default Markdown)."),
    score_precision: str = ScorePrecisionOpt,
    as_json: bool = JsonOpt,
    fmt: Optional[str] = TableFormatOpt,
) -> None:
    """IPSO per topic between two TREC runs: categories, counts, sign test on |ni| vs |ns|, Moffat and Mackenzie (2024), Fig. 5 table."""
    from rich.console import Console

    fmt = table_format(fmt, as_json)
    as_json = as_json or fmt == "json"
    from workbench.api.ipso import runs
    from workbench.core.files import check_output_path

    if table is not None:
        check_output_path(table, "--table")
    result = runs(run_a, run_b, qrels, depth, gains, relevance_level, alpha, score_precision=score_precision)
    if table is not None:
        write_table_file(table, fmt, result.markdown, lambda: [result.table()])
    if fmt in ("md", "csv", "latex"):
        sys.stdout.write(result.markdown() if fmt == "md" else result.table().render(fmt))
        return
    if as_json:
        out = result.to_dict()
        out["table"] = None if table is None else str(table)
        emit_json(out)
        return
    c, st = result.counts, result.test
    stdout.print(f"A = {result.name_a}, B = {result.name_b}, depth {depth}, {len(result.rows)} topics; {result.view.describe()}")
    wide = Console(width=max(stdout.width, 110 + 2 * depth), force_terminal=stdout.is_terminal)
    wide.print(_rich_rows_table(result))
    stdout.print(f"|ni| = {c['ni']}  |ns| = {c['ns']}  |equal| = {c['equal']}  |nonsep| = {c['nonsep']}")
    verdict = f"significant, favours {st.favours}" if st.significant else "not significant"
    stdout.print(f"two-tailed sign test on |ni| vs |ns|: p = {st.p:.4f} ({verdict} at alpha = {alpha})")
    stdout.print("unjudged documents in the top k (not relevant): "
                 + ", ".join(f"{k} {v}" for k, v in result.unjudged.items()))
    for name, missing in result.missing.items():
        if missing:
            stdout.print(f"topics missing from {name} (empty SERP): {', '.join(missing)}")
    for note in result.notes:
        stdout.print(note)
    if table is not None:
        stdout.print(f"table: {table}")


def _rich_rows_table(result):
    """A rich table of the Moffat and Mackenzie (2024), Fig. 5 rows (groups separated by a rule)."""
    from rich.table import Table

    from workbench.api.ipso import METRICS, TIE

    table = Table(show_lines=False)
    for head in ["Grp", "Topic", "A", "B", "Relationship"] + [result.label(m) for m in METRICS]:
        table.add_column(head, justify="right" if head not in ("A", "B", "Relationship") else "left")
    colour = {"equal": "blue", "ni": "green", "ns": "cyan", "nonsep": "red"}
    prev = None
    for r in result.rows:
        if prev is not None and r.group != prev:
            table.add_section()
        prev = r.group
        diffs = []
        for m in METRICS:
            d = r.diffs[m]
            diffs.append("0.00" if abs(d) <= TIE else (f"[yellow]{d:+.2f}[/]" if d > 0 else f"[cyan]{d:+.2f}[/]"))
        table.add_row(str(r.group), r.topic, r.serp_a, r.serp_b, f"[{colour[r.category]}]{r.trace_str}[/]", *diffs)
    return table
