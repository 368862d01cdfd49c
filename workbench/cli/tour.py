"""``workbench tour``: the main job on a small default (the papers' measures and a Hasse diagram).

One call of :func:`workbench.papers.tour.run_tour` plus a table.

References
----------
docs/reference/cli.md (``tour``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``tour`` to ``app``."""
    app.command("tour")(tour)


def tour(
    depth: int = typer.Option(4, "--depth", help="Run depth N (>= 1)."),
    out: Path = typer.Option(Path("out"), "--out", help="Folder for the Hasse diagram figures."),
    report_path: Optional[Path] = typer.Option(None, "--report", help="Also write the classifications as Markdown."),
    as_json: bool = JsonOpt,
) -> None:
    """The main job on a small default: classify the papers' measures and draw a Hasse diagram."""
    from rich.table import Table

    from workbench.api.papers import tour as run_tour
    from workbench.core.files import atomic_write, check_output_path

    if report_path is not None:
        check_output_path(report_path, "--report")
    with progress_bar(label="tour", lazy=True) as bar:
        result = run_tour(depth, out, progress=bar)
    if report_path is not None:
        atomic_write(report_path, result.markdown())
    if as_json:
        emit_json(result.report)
        return
    def short(exact: str, approx: float) -> str:
        return exact if len(exact) <= 8 else f"{approx:.4g}"

    table = Table("measure", "order", "c", "topic", "verdict", "witness: lower < upper, values", "Giner",
                  title=f"Scales of the papers' measures, depth {depth} (exact values: --json)")
    for row in result.rows(value_text=short):
        table.add_row(*row)
    stdout.print(table)
    for fig in result.report["figures"]:
        stdout.print(f"wrote {fig}")
