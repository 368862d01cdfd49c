"""``workbench experiment correlation``: Kendall tau-b between measures, overall and topic by topic.

Scores the runs (:mod:`workbench.data.score_matrix`), then one call of
:func:`workbench.experiments.correlation.correlation_table` plus the table.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020 (seed 000), Tables 1-2.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt,
    CutDepthOpt, FormatOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SkipOpt, StudyGainsOpt, ViewOpt, caption,
    JsonOpt, emit_table, matrix_notes, prepare_study, progress_bar, scorer, study_setting, with_notes,
)


def register(app: typer.Typer) -> None:
    """Add ``correlation`` to ``app``."""
    app.command("correlation")(correlation_cmd)


def correlation_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = CutDepthOpt,
    gains: Optional[str] = StudyGainsOpt,
    skip_missing: bool = SkipOpt,
    score_precision: str = ScorePrecisionOpt,
    per_topic: bool = typer.Option(False, "--per-topic", help="JSON: also every topic's tau-b and pair counts."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Overall and topic-by-topic Kendall tau-b of every pair of measures (seed 000 Tables 1-2)."""
    from workbench.experiments.correlation import correlation_table

    names, q, r, fmt, output, _ = prepare_study(qrels, runs, measures, view, depth, gains, skip_missing, fmt, output,
                                           least=2, as_json=as_json, score_precision=score_precision)
    with progress_bar(label="correlation") as bar:
        matrices = scorer(view, depth, gains, skip_missing, bar)(q, r, names)
        bar.phase("Kendall tau")
        table = correlation_table(matrices)
    s, notes = study_setting(matrices, view, depth), matrix_notes(matrices)
    emit_table(fmt, output,
          lambda: with_notes(caption("Kendall's tau-b", s) + "\n\n" + table.markdown(), notes),
          table.csv, {"study": "correlation", **s, **table.to_dict(per_topic), "notes": notes},
          tables=lambda: [table.table(caption=caption("Kendall's tau-b", s), notes=notes)])
