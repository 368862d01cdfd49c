"""The ``workbench conformance-report`` command: regenerate ``reports/conformance.md`` and ``.json``.

Registered on the main app by :mod:`workbench.cli.main`; one call of
:func:`workbench.peers.real_runs.build_report` plus writing and a
summary.  Exit status 0 when every differing cell is explained by a named
convention, 1 when some cell is unexplained (the report lists it), 2 on bad
input.

References
----------
docs/howto/conformance.md; :mod:`workbench.peers.real_runs`; NIST trec_eval;
pytrec_eval (Van Gysel and de Rijke, SIGIR 2018); ir_measures (MacAvaney et
al., ECIR 2022); cwl-eval (Azzopardi, Thomas and Moffat, SIGIR 2019).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar


def register(app: typer.Typer) -> None:
    """Add ``conformance-report`` to ``app``."""
    app.command("conformance-report")(conformance_report)


def conformance_report(
    data: Optional[Path] = typer.Option(None, "--data", help="Data folder holding robust03/ (default: $WORKBENCH_DATA)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write conformance.md and .json into."),
    workers: int = typer.Option(2, "--workers", min=1, help="Processes comparing the runs."),
    as_json: bool = JsonOpt,
) -> None:
    """Compare every paired measure per topic with trec_eval, ir_measures and cwl-eval on the Robust 2003 runs
    and on synthetic stress runs; write reports/conformance.md and reports/conformance.json."""
    from workbench.api.peers import conformance_report as compare

    with progress_bar(label="conformance", lazy=True) as bar:
        summary = compare(data, reports, workers=workers, progress=bar)
    if as_json:
        emit_json({**summary, "seconds": round(summary["seconds"], 1)})
    else:
        typer.echo(f"{summary['cells']} cells: {summary['agree']} agree, {summary['explained']} explained by a "
                   f"convention, {summary['unexplained']} unexplained ({summary['seconds']:.1f} s)")
        for p in summary["reports"]:
            typer.echo(f"  -> {p}")
    if summary["unexplained"]:
        raise typer.Exit(1)
