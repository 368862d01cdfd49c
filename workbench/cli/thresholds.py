"""``workbench thresholds``: exact thresholds of a measure in one parameter, region by region.

One call of :func:`workbench.api.scale.thresholds` plus
a table (one row per region, or one per depth for a range ``A..B``); with
``--depth all`` the regions valid at every depth and their proofs.

References
----------
docs/reference/cli.md (``thresholds``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    GainsOpt, GradesOpt, JsonOpt, TopicOpt, UnjudgedOpt, emit_json, progress_bar, stdout,
)


def register(app: typer.Typer) -> None:
    """Add ``thresholds`` to ``app``."""
    app.command("thresholds")(thresholds)


def thresholds(
    measure: str = typer.Argument(..., help="Measure with a continuous parameter, e.g. RBP or gRBP."),
    param: Optional[str] = typer.Option(None, "--param", help="Parameter to vary (default: the measure's only rational one)."),
    order: str = typer.Option("rank", "--order", help="rank, set, dominance, ipso, replacement, swap, raise, lexiprecision, lexirecall or rpp."),
    depth: str = typer.Option("4", "--depth", help="Run depth N, a range A..B (one row per depth), or 'all' (or "
                              "'A..'): the regions valid at every depth, with their proofs."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    unjudged: int = UnjudgedOpt,
    as_json: bool = JsonOpt,
    certificate: Optional[Path] = typer.Option(None, "--certificate", help="With --depth all: write each obligation of the proofs into this folder (SMT-LIB2, unsat confirms it; identities.json)."),
) -> None:
    """Exact thresholds in a parameter: the verdict of every region of its domain, with witnesses."""
    from rich.markup import escape
    from rich.table import Table

    from workbench.api.scale import thresholds as run_thresholds
    from workbench.api.show import endpoint_text as endpoint_label
    from workbench.core.readable import joined, show_values

    with progress_bar(label="thresholds", lazy=True) as bar:
        result = run_thresholds(measure, param, order=order, depth=depth, grades=grades, gains=gains, topic=topic,
                                progress=bar, unjudged=unjudged, certificate=certificate)
    if as_json:
        emit_json(result.to_json())
        return
    if hasattr(result, "regions") and hasattr(result, "proof"):  # --depth all: regions valid at every depth
        stdout.print(escape(result.text()), highlight=False)
        return
    ranged = hasattr(result, "rows")  # a ThresholdSeries (a range A..B), else one ThresholdTable
    rows = list(result.rows) if ranged else [result]
    p = rows[0].param

    def witness_text(region) -> str:
        w = region.witness
        if w is None:
            return ""
        at = f"{p}={endpoint_label(region.at)}"
        if region.gap_witness is not None:
            w0, w1 = region.gap_witness
            g0, g1, *where = show_values([w0.upper_value - w0.lower_value, w1.upper_value - w1.lower_value])
            return (f"at {at}: {w0.run_text(w0.lower)}->{w0.run_text(w0.upper)} gains {g0}, "
                    f"{w1.run_text(w1.lower)}->{w1.run_text(w1.upper)} gains {g1}"
                    + "".join(f", where {x}" for x in where))
        rel = "tied with" if region.verdict == "weak" else "above"
        return (f"at {at}: {w.run_text(w.lower)} <= {w.run_text(w.upper)} but scores {rel} it: "
                f"{joined([w.lower_value, w.upper_value], ' vs ')}")

    head = rows[0]
    stdout.print(
        f"[bold]{escape(head.measure)}[/bold] in {p} {head.domain}, order [bold]{escape(head.order)}[/bold], {head.kind}-based runs, "
        f"{head.grades} relevant grade(s), gains {head.gains}" + (f", topic {head.topic}" if head.topic else "")
        + (f", at most {unjudged} unjudged" if unjudged else "")
    )
    if not ranged:
        table = Table("region", "verdict", "checked at", "witness",
                      title=f"depth {head.depth}: {head.runs} runs, {head.covers} covers, {head.groups} distinct differences")
        for r in head.regions:
            # cells are plain text: a label such as [root(p**2 + p - 1, 0.618034)] is not rich markup
            table.add_row(*map(escape, (r.label(), r.verdict, ", ".join(endpoint_label(ch.point) for ch in r.certificate),
                                        witness_text(r))))
    else:
        table = Table("depth", "regions of the domain and their verdicts", "distinct differences")
        for row in rows:
            table.add_row(str(row.depth), escape("\n".join(f"{r.label()}  {r.verdict}" for r in row.regions)), str(row.groups))
    stdout.print(table)
