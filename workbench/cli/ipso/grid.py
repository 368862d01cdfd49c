"""``workbench ipso grid``: the grid of pair categories, rows and columns ordered by two measures (Fig. 2-3).

One call of :func:`workbench.api.ipso.grid` (the figure drawn on request) plus formatting.

References
----------
Moffat and Mackenzie, JASIST 2024.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, UnjudgedOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``grid`` to ``app``."""
    app.command("grid")(grid)


def grid(
    depth: int = typer.Option(4, "--depth", help="Run depth k (>= 1); the grid has (c+1)^k x (c+1)^k cells."),
    rows: str = typer.Option("RBP(p=0.5)", "--rows", help="Measure ordering the rows, e.g. 'RBP(p=0.5)'."),
    cols: str = typer.Option("AP", "--cols", help="Measure ordering the columns, e.g. AP (needs --topic)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains/--topic)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 4 or 2,1."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Draw the grid: .png or .pdf."),
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none: a paper's figure has its caption)."),
    unjudged: int = UnjudgedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """The grid of pair categories (equal/ni/ns/nonsep), rows and columns ordered by two measures (Moffat and Mackenzie 2024, Fig. 2-3)."""
    from workbench.api.ipso import grid as pair_grid

    with progress_bar(label=f"pair grid {rows} x {cols}") as bar:
        result = pair_grid(depth, rows, cols, grades=grades, gains=gains, topic=topic, figure=figure, title=title,
                           progress=bar, unjudged=unjudged)
    c, g, t = result.grades, result.gains, result.topic
    out = result.to_json()
    out["figure"] = None if figure is None else str(figure)
    if as_json:
        emit_json(out)
        return
    tau = "undefined (a measure is constant)" if result.kendall_tau is None else f"{result.kendall_tau:.4f}"
    stdout.print(
        f"depth {depth}, {c} relevant grade(s), gains {g}" + (f", topic {t}" if t is not None else "")
        + (f", at most {result.unjudged} unjudged (a pair separable when all its completions are)"
           if result.unjudged else "")
        + f": {result.n} runs, {result.n ** 2} ordered pairs"
    )
    stdout.print(f"rows by increasing {result.rows}, columns by increasing {result.cols} (ties by run index)")
    stdout.print("counts: " + ", ".join(f"{k} {v}" for k, v in result.counts.items()))
    stdout.print(f"Kendall tau-b between the two orderings: {tau}")
    if figure is not None:
        stdout.print(f"figure: {figure}")
