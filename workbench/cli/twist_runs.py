"""``workbench twist-runs``: Twist of TREC runs over the topics of a qrels file (Ferro et al. 2016, Table 2, Fig. 7-10).

One call of :func:`workbench.api.twist.twist_runs` (the effort/gain figure
drawn on request) plus formatting.

References
----------
Ferro et al., "The Twist measure for IR evaluation", JASIST 2016.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, ScorePrecisionOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``twist-runs`` to ``app``."""
    app.command("twist-runs")(twist_runs)


def twist_runs(
    qrels: Path = typer.Argument(..., help="TREC qrels file (topic iter docid grade), plain or gzip; - reads standard input."),
    runs: list[Path] = typer.Argument(..., help="One or more TREC run files (plain or .gz); - reads standard input."),
    depth: int = typer.Option(1000, "--depth", help="N: each ranking is cut to N and padded with grade 0 up to N."),
    crossing: str = typer.Option("literal", "--crossing", help="literal: Def. 3's formula; strict: the text's reading."),
    per_topic: bool = typer.Option(False, "--per-topic", help="Also list every (run, topic) row."),
    effort_gain: Optional[Path] = typer.Option(None, "--effort-gain", help="Draw the effort/gain scatter (Ferro et al. 2016, Fig. 7-10): FIG.png or FIG.pdf."),
    score_precision: str = ScorePrecisionOpt,
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none: a paper's figure has its caption)."),
    as_json: bool = JsonOpt,
) -> None:
    """Twist of TREC runs over the topics of the qrels: mean Twist per run, Table 2 archetypes, effort/gain grids (Ferro et al. 2016)."""
    from workbench.api.twist import twist_runs as twist_table

    with progress_bar(label="twist runs") as bar:
        table = twist_table(qrels, runs, depth, crossing, score_precision=score_precision, effort_gain=effort_gain,
                            title=title, progress=bar)
    if as_json:
        out = table.to_dict(per_topic)
        out["effort_gain_figure"] = None if effort_gain is None else str(effort_gain)
        emit_json(out)
        return
    stdout.print(table.markdown(per_topic), markup=False, highlight=False, soft_wrap=True, end="")
    if effort_gain is not None:
        stdout.print(f"figure: {effort_gain}", markup=False, highlight=False, soft_wrap=True)
