"""``workbench classify``: the scale of a measure relative to an order, with a witness.

One call of :func:`workbench.api.scale.classify` plus formatting.

References
----------
docs/reference/cli.md (``classify``); Ferrante, Ferro, Pontarollo, SEBD 2019.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    GainsOpt, GradesOpt, JsonOpt, TopicOpt, UnjudgedOpt, emit_json, progress_bar, stdout,
)


def register(app: typer.Typer) -> None:
    """Add ``classify`` to ``app``."""
    app.command("classify")(classify)


def classify(
    measure: str = typer.Argument(..., help="Measure name, e.g. 'RBP(p=0.8)', AP, nDCG@5, path/file.py:function, or rank[M]@N (M's interval transformation, runs of depth N, with --topic)."),
    order: str = typer.Option("rank", "--order", help="rank, set, dominance, ipso, replacement, swap, raise, lexiprecision, lexirecall or rpp."),
    depth: str = typer.Option("4", "--depth", help="Run depth N (>= 1); 'all' for every depth at once, with a "
                              "proof (or 'A..': every depth from A on)."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    unjudged: int = UnjudgedOpt,
    ranked_values: int = typer.Option(256, "--ranked-values", help="List the attained values (interval transformation) when at most this many; 0 lists all."),
    as_json: bool = JsonOpt,
    workers: Optional[int] = typer.Option(None, "--workers", help="Worker processes (default: the machine's cores; 1 works in this process)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Run the blocks on Dask: 'local' (a LocalCluster of --workers processes) or a scheduler address tcp://host:port (needs the dask extra)."),
    connect_timeout: float = typer.Option(10.0, "--connect-timeout", help="Seconds to reach the --scheduler address and hear a Dask scheduler answer there (checked whenever it is given)."),
    show_progress: bool = typer.Option(False, "--progress", help="Show the progress bar on stderr even when it is not a terminal."),
    certificate: Optional[Path] = typer.Option(None, "--certificate", help="With --depth all: write each obligation of the proof into this folder (SMT-LIB2, unsat confirms it; identities.json)."),
) -> None:
    """Classify MEASURE relative to an order: interval / ordinal / strict / weak / violated, with a witness."""
    from workbench.api.scale import classify as run_classify

    with progress_bar(label="classify", force=show_progress, lazy=True) as bar:
        result = run_classify(measure, order=order, depth=depth, grades=grades, gains=gains, topic=topic,
                              ranked_values=ranked_values, workers=workers, scheduler=scheduler,
                              connect_timeout=connect_timeout, progress=bar, unjudged=unjudged,
                              certificate=certificate)
    if as_json:
        emit_json(result.to_json())
        return
    if hasattr(result, "ranges"):  # --depth all: the verdict at every depth and its proof
        from rich.markup import escape

        stdout.print(escape(result.text()), highlight=False)
        return
    print_classification(result)


def print_classification(result) -> None:
    from workbench.api.show import affine_text, increments_text, short_int
    from workbench.core.readable import joined

    from rich.markup import escape

    if hasattr(result, "ends"):  # a residual measure classified at both ends
        print_residual(result)
        return
    stdout.print(
        f"[bold]{escape(result.measure)}[/bold] on {result.kind}-based runs, depth {result.depth}, "
        f"{result.grades} relevant grade(s), gains {result.gains}"
        + (f", topic {result.topic}" if result.topic else "")
        + (f", at most {result.unjudged} unjudged" if result.unjudged else "")
        + f", order [bold]{escape(result.order)}[/bold] ({short_int(result.runs)} runs, {short_int(result.covers)} covers)"
    )
    stdout.print(f"verdict: [bold]{result.verdict}[/bold]    intrinsic (Giner): {result.intrinsic_text}")
    if result.reason:
        stdout.print(f"  {result.reason}")
    if result.affine:
        a, b = result.affine
        stdout.print(f"  {affine_text(result.measure, a, b)}")
    if result.ranked_values is not None:
        gaps = [b - a for a, b in zip(result.ranked_values, result.ranked_values[1:4])]
        stdout.print(
            f"  interval transformation: {len(result.ranked_values)} attained values -> positions "
            f"0..{len(result.ranked_values) - 1}" + (f"; first gaps {joined(gaps, ', ')}" if gaps else "")
        )
    else:
        stdout.print(f"  interval transformation: {result.ranked_values_omitted}")
    if result.witness:
        w = result.witness
        rel = "tied with" if result.verdict == "weak" else "scores above"
        stdout.print(
            f"  witness: {w.run_text(w.lower)} <= {w.run_text(w.upper)} in the order, but "
            f"{w.run_text(w.lower)} {rel} it: {joined([w.lower_value, w.upper_value], ' vs ')}"
        )
    if result.gap_witness:
        stdout.print(f"  unequal increments: {increments_text(result.gap_witness)}")


def print_residual(result) -> None:
    """A residual measure's classification: the verdict at each end, each end's witness."""
    from rich.markup import escape

    from workbench.core.readable import joined

    s = result.setting
    stdout.print(
        f"[bold]{escape(result.measure)}[/bold] at both ends (end=base, end=top) on {s.kind}-based runs, depth {s.depth}, "
        f"{s.grades} relevant grade(s), gains {s.gains}" + (f", topic {s.topic}" if s.topic else "")
        + f", at most {s.unjudged} unjudged, order [bold]{escape(s.order)}[/bold] ({result.base.runs} runs, "
        f"{result.base.covers} covers)"
    )
    stdout.print(f"verdict: [bold]{result.summary}[/bold]")
    for end, c in (("base", result.base), ("top", result.top)):
        stdout.print(f"  {end} end, {escape(c.measure)}: {c.verdict}    intrinsic (Giner): {c.intrinsic_text}")
        if c.reason:
            stdout.print(f"    {c.reason}")
        w = c.witness
        if w:
            rel = "tied with" if c.verdict == "weak" else "scores above"
            stdout.print(f"    witness: {w.run_text(w.lower)} <= {w.run_text(w.upper)} in the order, but "
                         f"{w.run_text(w.lower)} {rel} it: {joined([w.lower_value, w.upper_value], ' vs ')}")
