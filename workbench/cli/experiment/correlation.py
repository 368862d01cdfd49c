"""``workbench experiment correlation``: Kendall tau-b between measures, overall and topic by topic.

Scores the runs (:mod:`workbench.data.score_matrix`), then one call of
:func:`workbench.experiments.correlation.correlation_table` plus the table;
with ``--transform``, one call of
:func:`workbench.experiments.correlation.transform_correlation` per
transformation depth ``N`` (the measures scored again on the rankings cut
at ``N`` when the study's cut is another), in a second table.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020 (seed 000), Tables 1-2; Ferrante,
Ferro, Fuhr, IEEE Access 2021 (a measure against its interval-scaled version).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt, check_range,
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
    transform: bool = typer.Option(
        False, "--transform", help="Add each measure M against its interval transformation rank[M]@N."),
    transform_depth: Optional[list[int]] = typer.Option(
        None, "--transform-depth",
        help="Depth N of rank[M]@N, M then scored on the rankings cut at N (repeatable; default: the rankings' depth)."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Overall and topic-by-topic Kendall tau-b of every pair of measures (seed 000 Tables 1-2).

    With --transform, also each measure M against its interval transformation rank[M]@N
    (Ferrante, Ferro, Fuhr 2021), both on the rankings cut at N, for each --transform-depth N.
    """
    from workbench.errors import WorkbenchError
    from workbench.experiments.correlation import CorrelationTable, correlation_table, transform_correlation
    from workbench.measures.names import parse_ranked

    if transform_depth and not transform:
        raise WorkbenchError("--transform-depth without --transform: add --transform")
    for n in transform_depth or []:
        check_range("--transform-depth", n, 1)
        if depth is not None and n > depth:
            raise WorkbenchError(f"--transform-depth {n}: beyond --depth {depth}, the rankings' cut")
    names, q, r, fmt, output, _ = prepare_study(qrels, runs, measures, view, depth, gains, skip_missing, fmt, output,
                                           least=1 if transform else 2, as_json=as_json,
                                           score_precision=score_precision)
    hint = "give --transform-depth "
    with progress_bar(label="correlation") as bar:
        matrices = scorer(view, depth, gains, skip_missing, bar)(q, r, names)
        bar.phase("Kendall tau")
        table = correlation_table(matrices) if len(matrices) > 1 else CorrelationTable((), matrices[0].view)
        tables, skipped = [], []
        for n in (transform_depth or [None]) if transform else []:
            bar.phase("interval transformation" + ("" if n is None else f" at depth {n}"))
            if n is None or n == depth:
                cut = matrices
            else:                     # the measures again, on the rankings cut at n (ranked ones have their depth)
                plain = [x for x in names if parse_ranked(x) is None]
                cut = scorer(view, n, gains, skip_missing, bar)(q, r, plain) if plain else []
                skipped_ranked = [f"{x} (ranked already)" for x in names if parse_ranked(x) is not None]
            t, skipped = transform_correlation(cut, hint=hint)
            if cut is not matrices:
                skipped += skipped_ranked
            tables.append((n if n is not None else matrices[0].judged.depth, t))
    s, notes = study_setting(matrices, view, depth), matrix_notes(matrices)
    notes += [f"{x}: no interval transformation" for x in skipped]
    cap = caption("Kendall's tau-b", s)
    t_cap = ("Kendall's tau-b of each measure M and its interval transformation rank[M]@N, "
             "M on the rankings cut at N")
    t_rows = [row for _, t in tables for row in t.rows]
    t_table = CorrelationTable(tuple(t_rows), table.view)
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
