"""``workbench ipso freedom``: the metric freedom of a pair of runs (Table 1).

One call of :func:`workbench.api.ipso.freedom` plus formatting.

References
----------
Moffat and Mackenzie, JASIST 2024.
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, stdout


def register(app: typer.Typer) -> None:
    """Add ``freedom`` to ``app``."""
    app.command("freedom")(freedom_cmd)


def freedom_cmd(
    run_a: str = typer.Argument(..., help="First run, e.g. 100."),
    run_b: str = typer.Argument(..., help="Second run, e.g. 011."),
    measures: str = typer.Option("RR,P,RBP(p=0.5)", "--measures", help="Comma-separated measures, e.g. 'RR,P@3,RBP(p=0.5),AP'."),
    param_measure: Optional[str] = typer.Option(None, "--param-measure", help="Measure(s) whose parameter is swept for exact ties, e.g. RBP (default: the parameterised ones in --measures)."),
    depth: Optional[int] = typer.Option(None, "--depth", help="Depth k (default: the longer run; shorter runs are padded with zeros)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default: from --gains, else the largest grade present)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 2 (needed by AP, nDCG, R, ...)."),
    as_json: bool = JsonOpt,
) -> None:
    """Metric freedom of a pair (Moffat and Mackenzie 2024, Table 1): each measure's order, and exact parameter values where it ties."""
    from rich.markup import escape

    from workbench.api.ipso import freedom

    result = freedom(run_a, run_b, measures, param_measure, depth=depth, grades=grades, gains=gains, topic=topic)
    if as_json:
        emit_json(result.to_json())
        return
    js = result.to_json()
    stdout.print(f"A = {js['run_a']}, B = {js['run_b']}, depth {result.depth}, gains {result.gains}: "
                 f"IPSO [bold]{result.category}[/bold]"
                 + (" (measures are free to order the pair)" if result.category == "nonsep" else ""))
    for note in result.notes:
        stdout.print(f"  note: {note}")
    for m in js["orders"]:
        flag = "" if m["allowed"] else "  [red]violates IPSO[/red]"
        stdout.print(f"  {m['measure']:20s} {m['order']:4s}  {m['value_a']} vs {m['value_b']}{flag}")
    for s in js["sweeps"]:
        stdout.print(f"  {s['measure']} over {s['param']} in {s['domain']}: M(A) - M(B) = {s['difference']}")
        if "method" in s:
            stdout.print(f"    ({escape(s['method'])})")
        for r in s["regions"]:
            if "at" in r:
                stdout.print(f"    {s['param']} = {escape(r['at'])} (~{r['at_approx']:.6g}): tie")
            else:
                lo = "-oo" if r["low"] is None else r["low"]
                hi = "oo" if r["high"] is None else r["high"]
                lsym = "<=" if r.get("low_closed") else "<"
                hsym = "<=" if r.get("high_closed") else "<"
                why = f" ({escape(r['reason'])})" if "reason" in r else ""
                stdout.print(f"    {escape(str(lo))} {lsym} {s['param']} {hsym} {escape(str(hi))}: {r['order']}{why}")
