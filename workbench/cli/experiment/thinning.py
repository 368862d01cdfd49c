"""``workbench experiment thinning``: thinning the judgments of Robust 2003, each measure against itself.

One call of :func:`workbench.api.experiments.thinning_study`, which writes
``reports/thinning.md``, ``reports/thinning.json`` and
``reports/figures/thinning.svg`` and ``.pdf``; this module prints where.

References
----------
Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, SeedOpt, emit_json, progress_bar


def register(app: typer.Typer) -> None:
    """Add ``thinning`` to ``app``."""
    app.command("thinning")(thinning_cmd)


def thinning_cmd(
    data: Optional[Path] = typer.Option(None, "--data", help="Folder with qrels.txt and runs/ (default: $WORKBENCH_DATA/robust03)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write thinning.md, thinning.json and figures/thinning.svg and .pdf into (created if missing)."),
    pools: str = typer.Option("10,20,50,100", "--pools", "--pool", help="Pool depths k (>= 1), comma-separated: the judgments of the documents some run ranks in its first k."),
    fractions: str = typer.Option("90,70,50,30,10", "--fractions", "--fraction", help="Percentages (1..99) of each topic's judgments kept at random, comma-separated."),
    seed: int = SeedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Thin the judgments of Robust 2003 (shallower pools, random fractions): each measure's tau-b against the full judgments, the significance conclusions that change, tau-b with rank[M]@10."""
    from workbench.api.experiments import thinning_study

    with progress_bar(label="thinning") as bar:
        study = thinning_study(data, reports, pools=pools, fractions=fractions, seed=seed, progress=bar)
    if as_json:
        emit_json(study.to_json() | {"written": list(study.written)})
        return
    worst = min((c for c in study.cells if c.tau is not None and c.tau.value is not None),
                key=lambda c: c.tau.value, default=None)
    low = "" if worst is None else f"; lowest tau-b {worst.tau.value:.3f} ({worst.measure}, {worst.judgments})"
    sys.stdout.write(f"{len(study.measures)} measures on {len(study.thinned)} thinned sets of judgments{low}; "
                     f"wrote {', '.join(study.written)}\n")
