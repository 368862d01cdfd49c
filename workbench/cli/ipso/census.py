"""``workbench ipso census``: exact counts of the IPSO categories over all pairs of runs (Table 2).

One call of :func:`workbench.api.ipso.census` plus formatting.

References
----------
Moffat and Mackenzie, JASIST 2024.
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import JsonOpt, UnjudgedOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``census`` to ``app``."""
    app.command("census")(census_cmd)


def census_cmd(
    depth: int = typer.Option(4, "--depth", help="Run depth k (>= 1); any k, counted exactly (closed form for binary gains, dynamic programming otherwise)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Count only the runs a topic allows: relevant documents per grade, e.g. 3 or 2,1 (dynamic programming over per-grade counts)."),
    unjudged: int = UnjudgedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Exact counts of equal/ni/ns/nonsep over all ordered pairs of runs in {0..c}^k, or of those a topic allows (Moffat and Mackenzie 2024, Table 2)."""
    from workbench.api.ipso import census

    with progress_bar(label=f"census depth {depth}") as bar:
        result = census(depth, grades, gains, progress=bar, topic=topic, unjudged=unjudged)
    c, g = result.grades, result.gains
    if as_json:
        emit_json(result.to_json())
        return
    where = "" if result.topic is None else f", topic {result.topic} ({result.runs} runs)"
    if result.unjudged:
        where += f", at most {result.unjudged} unjudged ({result.runs} runs; a pair separable when all its completions are)"
    stdout.print(f"depth {depth}, {c} relevant grade(s), gains {g}{where}: {result.pairs} ordered pairs",
                 soft_wrap=True, highlight=False)
    share = result.to_json()
    for key in ("equal", "ni", "ns", "nonsep"):
        stdout.print(f"  {key:7s} {getattr(result, key)}  ({share[key + '_fraction']:.6%})",
                     soft_wrap=True, highlight=False)
    un = result.unordered()
    stdout.print(f"unordered pairs of distinct runs: {un['pairs']} ({un['separable']} separable, "
                 f"{un['nonsep']} non-separable)", soft_wrap=True, highlight=False)
