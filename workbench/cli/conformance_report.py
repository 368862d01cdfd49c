"""The ``workbench conformance-report`` command: regenerate ``reports/conformance.md`` and ``.json``.

Registered on the main app by :mod:`workbench.cli.main`; one call of
:func:`workbench.peers.real_runs.build_report` plus writing and a
summary.  Exit status 0 when every differing cell is explained by a named
convention, 1 when some cell is unexplained (the report lists it), 2 on bad
input.

References
----------
Issue 23 part 2; :mod:`workbench.peers.real_runs`; NIST trec_eval;
pytrec_eval (Van Gysel and de Rijke, SIGIR 2018); ir_measures (MacAvaney et
al., ECIR 2022); cwl-eval (Azzopardi, Thomas and Moffat, SIGIR 2019).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar


def register(app: typer.Typer) -> None:
    """Add ``conformance-report`` to ``app``."""
    app.command("conformance-report")(conformance_report)


def conformance_report(
    data: Optional[Path] = typer.Option(None, "--data", help="Data folder holding robust03/ (default: $WORKBENCH_DATA, "
                                                            "else <repo>/../shared/data)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write conformance.md and .json into."),
    workers: int = typer.Option(2, "--workers", min=1, help="Processes comparing the runs."),
    as_json: bool = JsonOpt,
) -> None:
    """Compare every paired measure per topic with trec_eval, ir_measures and cwl-eval on the Robust 2003 runs
    and on synthetic stress runs; write reports/conformance.md and reports/conformance.json."""
    from workbench.peers.real_runs import CHUNKS, build_report, default_data_dir, report_dict, write_reports
    from workbench.errors import WorkbenchError

    root = data if data is not None else default_data_dir()
    if not (root / "robust03" / "qrels.txt").is_file():
        raise WorkbenchError(f"--data {str(root)!r}: no robust03/qrels.txt there")
    if not reports.is_dir():
        raise WorkbenchError(f"--reports {str(reports)!r}: no such folder")
    start = time.perf_counter()
    with progress_bar(total=CHUNKS + 3, label="conformance") as bar:
        rep = build_report(root, progress=lambda text: bar.advance(text=text), workers=workers)
    paths = write_reports(rep, reports)
    seconds = time.perf_counter() - start
    d = report_dict(rep)
    summary = {k: d[k] for k in ("cells", "agree", "explained", "unexplained")}
    if as_json:
        emit_json({"reports": [str(p) for p in paths], **summary, "seconds": round(seconds, 1)})
    else:
        typer.echo(f"{summary['cells']} cells: {summary['agree']} agree, {summary['explained']} explained by a "
                   f"convention, {summary['unexplained']} unexplained ({seconds:.1f} s)")
        for p in paths:
            typer.echo(f"  -> {p}")
    if summary["unexplained"]:
        raise typer.Exit(1)
