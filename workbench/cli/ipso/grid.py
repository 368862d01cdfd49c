"""``workbench ipso grid``: the grid of pair categories, rows and columns ordered by two measures (Fig. 2-3).

One call of :func:`workbench.ipso.pairgrid.pair_grid` plus formatting and the figure.

References
----------
Moffat and Mackenzie, JASIST 2024 (seed 001).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar, setting, stdout


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
    as_json: bool = JsonOpt,
) -> None:
    """The grid of pair categories (equal/ni/ns/nonsep), rows and columns ordered by two measures (seed 001 Fig. 2-3)."""
    from workbench.errors import WorkbenchError
    from workbench.ipso.pairgrid import draw_pair_grid, pair_grid

    for option, name in (("--rows", rows), ("--cols", cols)):
        if not name.strip():
            raise WorkbenchError(f"{option} {name!r}: name a measure, e.g. 'RBP(p=0.5)' or AP")
    depth, c, g, t = setting(depth, grades, gains, topic)
    if figure is not None and figure.suffix.lower() not in (".png", ".pdf"):
        raise WorkbenchError(f"figure {str(figure)!r}: unknown format {figure.suffix!r} (use .png or .pdf)")
    with progress_bar(label=f"pair grid {rows} x {cols}") as bar:
        bar.phase("categories")
        result = pair_grid(depth, rows, cols, grades=c, gains=g, topic=t)
        if figure is not None:
            bar.phase("drawing")
            draw_pair_grid(result, figure, title=title)
    out = result.to_json()
    out["figure"] = None if figure is None else str(figure)
    if as_json:
        emit_json(out)
        return
    tau = "undefined (a measure is constant)" if result.kendall_tau is None else f"{result.kendall_tau:.4f}"
    stdout.print(
        f"depth {depth}, {c} relevant grade(s), gains {g}" + (f", topic {t}" if t is not None else "")
        + f": {result.n} runs, {result.n ** 2} ordered pairs"
    )
    stdout.print(f"rows by increasing {result.rows}, columns by increasing {result.cols} (ties by run index)")
    stdout.print("counts: " + ", ".join(f"{k} {v}" for k, v in result.counts.items()))
    stdout.print(f"Kendall tau-b between the two orderings: {tau}")
    if figure is not None:
        stdout.print(f"figure: {figure}")
