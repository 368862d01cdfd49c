"""The ``workbench reproduce`` command: regenerate the seed papers' reproduction reports.

Registered on the main app by :mod:`workbench.cli.main`; one call of
:func:`workbench.papers.reproduce.reproduce` plus formatting.

References
----------
Seeds 000-004; :mod:`workbench.papers.reproduce`.
"""
from __future__ import annotations

from pathlib import Path

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar


def register(app: typer.Typer) -> None:
    """Add ``reproduce`` to ``app``."""
    app.command("reproduce")(reproduce)


def reproduce(
    paper: str = typer.Argument("all", help="all, a paper key (ferrante2019, moffat2024, ferro2018, giner2023) "
                                            "or a seed number (000-004)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write <paper>.md and figures/ into."),
    as_json: bool = JsonOpt,
) -> None:
    """Re-derive every checkable claim of a seed paper: reports/<paper>.md with its figures."""
    from workbench.errors import WorkbenchError
    from workbench.papers.reproduce import PAPERS, get_paper, reproduce as run

    keys = list(PAPERS) if paper == "all" else [get_paper(paper).key]
    if not reports.is_dir():
        raise WorkbenchError(f"--reports {str(reports)!r}: no such folder")
    rows = []
    with progress_bar(total=len(keys), label="reproducing") as bar:
        for key in keys:
            bar.phase(key)
            rows += run(key, reports)
            bar.advance()
    if as_json:
        emit_json({"reports": rows})
        return
    for row in rows:
        counts = ", ".join(f"{row[v]} {v}" for v in ("reproduced", "refuted", "differs"))
        typer.echo(f"{row['paper']:<14} {counts}  -> {row['report']}")
