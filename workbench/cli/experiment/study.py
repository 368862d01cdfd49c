"""``workbench experiment study``: the whole Robust 2003 study as one report.

One call of :func:`workbench.api.experiments.robust_study`.

References
----------
Ferrante, Ferro and Losiouk (2020), Tables 1-4, Fig. 1-2; Ferro, Silvello, Keskustalo, Pirkola and Järvelin (2016), Tables 3-4, Fig. 13-14.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, SeedOpt, emit_json, progress_bar


def register(app: typer.Typer) -> None:
    """Add ``study`` to ``app``."""
    app.command("study")(study_cmd)


def study_cmd(
    data: Optional[Path] = typer.Option(None, "--data", help="Folder with qrels.txt and runs/ (default: $WORKBENCH_DATA/robust03)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write experiments-robust03.md and its figures into (created if missing)."),
    repetitions: int = typer.Option(5, "--repetitions", help="Seeded repetitions of every pool sample (>= 1)."),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap samples B (>= 1)."),
    seed: int = SeedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """The whole Robust 2003 study (Ferrante et al. 2020, Tables 1-4, Fig. 1-2; Ferro et al. 2016, Tables 3-4, Fig. 13-14) as one report."""
    from workbench.api.experiments import robust_study

    with progress_bar(label="Robust 2003 study") as bar:
        path = robust_study(data, reports, repetitions=repetitions, bootstrap=bootstrap, seed=seed, progress=bar)
    if as_json:
        emit_json({"study": "robust03", "report": str(path), "repetitions": repetitions, "bootstrap": bootstrap,
                   "seed": seed})
        return
    sys.stdout.write(f"report: {path}\n")
