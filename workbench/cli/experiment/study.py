"""``workbench experiment study``: the whole Robust 2003 study as one report.

One call of :func:`workbench.papers.study.run_study`.

References
----------
Seed 000 Tables 1-4, Fig. 1-2; seed 002 Tables 3-4, Fig. 13-14.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, SeedOpt, check_range, emit_json, progress_bar


def register(app: typer.Typer) -> None:
    """Add ``study`` to ``app``."""
    app.command("study")(study_cmd)


def study_cmd(
    data: Optional[Path] = typer.Option(None, "--data", help="Folder with qrels.txt and runs/ (default: <shared data>/robust03)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write experiments-robust03.md and its figures into (created if missing)."),
    repetitions: int = typer.Option(5, "--repetitions", help="Seeded repetitions of every pool sample (>= 1)."),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap samples B (>= 1)."),
    seed: int = SeedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """The whole Robust 2003 study (seed 000 Tables 1-4, Fig. 1-2; seed 002 Tables 3-4, Fig. 13-14) as one report."""
    from workbench.errors import WorkbenchError
    from workbench.ipso.trec_runs import data_dir

    from workbench.core.files import check_output_path

    check_output_path(reports / "experiments-robust03.md", "--reports")
    data = data_dir() / "robust03" if data is None else data
    if not data.is_dir():
        raise WorkbenchError(f"--data {str(data)!r}: no such folder")
    check_range("--repetitions", repetitions, 1)
    check_range("--bootstrap", bootstrap, 1)
    check_range("--seed", seed, 0)
    from workbench.papers.study import run_study

    with progress_bar(label="Robust 2003 study") as bar:
        def progress(*args) -> None:
            if len(args) == 3:
                bar.phase(f"{args[0]} {args[1]}/{args[2]}")
            else:
                bar.phase(" ".join(str(a) for a in args))

        path = run_study(data=data, out=reports, repetitions=repetitions, bootstrap=bootstrap, seed=seed,
                         progress=progress)
    if as_json:
        emit_json({"study": "robust03", "report": str(path), "repetitions": repetitions, "bootstrap": bootstrap,
                   "seed": seed})
        return
    sys.stdout.write(f"report: {path}\n")
