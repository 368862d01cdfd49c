"""The ``workbench reproduce`` command: regenerate the source papers' reproduction reports.

Registered on the main app by :mod:`workbench.cli.main`; one call of
:func:`workbench.papers.reproduce.reproduce` plus formatting.

References
----------
docs/references.md (the papers); :mod:`workbench.papers.reproduce`.
"""
from __future__ import annotations

from pathlib import Path

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar


def register(app: typer.Typer) -> None:
    """Add ``reproduce`` to ``app``."""
    app.command("reproduce")(reproduce)


def reproduce(
    paper: str = typer.Argument("all", help="all or a paper key: ferrante2019, moffat2024, ferro2016, giner2023."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write <paper>.md and figures/ into."),
    as_json: bool = JsonOpt,
) -> None:
    """Re-derive every checkable claim of a source paper: reports/<paper>.md with its figures."""
    from workbench.api.papers import reproduce as run

    with progress_bar(label="reproducing", lazy=True) as bar:
        rows = run(paper, reports, progress=bar)
    if as_json:
        emit_json({"reports": rows})
        return
    for row in rows:
        counts = ", ".join(f"{row[v]} {v}" for v in ("reproduced", "refuted", "differs"))
        typer.echo(f"{row['paper']:<14} {counts}  -> {row['report']}")
