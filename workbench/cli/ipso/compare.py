"""``workbench ipso compare``: the IPSO category of two runs with its per-depth trace.

One call of :func:`workbench.api.ipso.compare` plus formatting.

References
----------
Moffat and Mackenzie, JASIST 2024.
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, stdout


def register(app: typer.Typer) -> None:
    """Add ``compare`` to ``app``."""
    app.command("compare")(compare_cmd)


def compare_cmd(
    run_a: str = typer.Argument(..., help="First run, e.g. 1001 or 1,0,0,1."),
    run_b: str = typer.Argument(..., help="Second run."),
    depth: Optional[int] = typer.Option(None, "--depth", help="Depth k (default: the longer run; shorter runs are padded with zeros)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default: from --gains, else the largest grade present)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    as_json: bool = JsonOpt,
) -> None:
    """IPSO category of RUN_A against RUN_B (equal/ni/ns/nonsep), the per-depth trace, dominance vs ipso."""
    from workbench.api.ipso import compare

    result = compare(run_a, run_b, depth=depth, grades=grades, gains=gains)
    if as_json:
        emit_json(result.to_json())
        return
    shown = result.to_json()
    stdout.print(
        f"A = {shown['run_a']}, B = {shown['run_b']}, "
        f"depth {result.depth}, gains {result.gains}: [bold]{result.category}[/bold]"
    )
    for note in result.notes:
        stdout.print(f"  note: {note}")
    stdout.print("  depth  prefix A  prefix B  category")
    for i, (cat, pa, pb) in enumerate(zip(result.trace, result.prefix_a, result.prefix_b), start=1):
        stdout.print(f"  {i:5d}  {str(pa):>8}  {str(pb):>8}  {cat}")
    stdout.print(f"dominance (Rules 1-2 on grades): {result.dominance}; ipso (gains): {result.ipso}")
    if result.note:
        stdout.print(f"  differ: {result.note}")
