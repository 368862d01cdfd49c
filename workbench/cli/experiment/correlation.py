"""``workbench experiment correlation``: Kendall tau-b between measures, overall and topic by topic.

One call of :func:`workbench.api.experiments.correlation_study` (the runs
scored, tau-b of every pair of measures; with ``--transform``, each measure
against its interval transformation at each ``--transform-depth``) plus the
tables.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020, Tables 1-2; Ferrante,
Ferro, Fuhr, IEEE Access 2021 (a measure against its interval-scaled version).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt, CutDepthOpt, FormatOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SkipOpt, StudyGainsOpt,
    ViewOpt, caption, JsonOpt, emit_table, progress_bar, table_format, with_notes,
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
    transform: bool = typer.Option(
        False, "--transform", help="Add each measure M against its interval transformation rank[M]@N."),
    transform_depth: Optional[list[int]] = typer.Option(
        None, "--transform-depth",
        help="Depth N of rank[M]@N, M then scored on the rankings cut at N (repeatable; default: the rankings' depth)."),
    max_space: Optional[int] = typer.Option(
        None, "--max-space",
        help="Most runs enumerated per topic for an interval transformation (default 2**20 = 1048576)."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Overall and topic-by-topic Kendall tau-b of every pair of measures (Ferrante et al. 2020, Tables 1-2).

    With --transform, also each measure M against its interval transformation rank[M]@N
    (Ferrante, Ferro, Fuhr 2021), both on the rankings cut at N, for each --transform-depth N.
    """
    from workbench.api.experiments import correlation_study

    from workbench.core.files import check_output_path
    from workbench.core.table import format_of_path

    # --json is --format json; else the -o file's suffix, else Markdown
    fmt = table_format(fmt, as_json) or ("json" if as_json else format_of_path(output, "md") if output else "md")
    output = None if output is None else check_output_path(output)
    with progress_bar(label="correlation") as bar:
        study = correlation_study(qrels, runs, measures, view=view, depth=depth, gains=gains,
                                  skip_missing=skip_missing, score_precision=score_precision, transform=transform,
                                  transform_depth=transform_depth or [], max_space=max_space, progress=bar)
    s, notes, table, tables, t_table = study.setting, study.notes, study.table, study.transform, study.transformed
    cap = caption("Kendall's tau-b", s)
    t_cap = ("Kendall's tau-b of each measure M and its interval transformation rank[M]@N, "
             "M on the rankings cut at N")
    parts = ([table] if table.rows or not transform else []) + ([t_table] if transform else [])
    caps = ([cap] if table.rows or not transform else []) + ([t_cap] if transform else [])

    def md():
        return with_notes("\n".join(f"{c}\n\n{p.markdown()}" for c, p in zip(caps, parts)), notes)

    def csv_text():
        return "\n".join(p.csv() for p in parts)

    obj = {"study": "correlation", **s, **table.to_dict(per_topic)}
    if transform:
        obj["transform"] = [{"depth": n, **row.to_dict(per_topic)} for n, t in tables for row in t.rows]
    obj["notes"] = notes
    emit_table(fmt, output, md, csv_text, obj,
               tables=lambda: [p.table(caption=c, notes=notes if k == len(parts) - 1 else ())
                               for k, (c, p) in enumerate(zip(caps, parts))])
