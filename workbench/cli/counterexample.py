"""``workbench counterexample``: runs ordered one way and scored the other, or a proof there are none.

One call of :func:`workbench.api.scale.counterexample` plus
formatting.  Its ``--timeout`` is the search budget; the command line stops
it a grace period after that (:mod:`workbench.cli.main`).

References
----------
docs/reference/cli.md (``counterexample``).
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import (
    GainsOpt, GradesOpt, JsonOpt, TopicOpt, UnjudgedOpt, emit_json, progress_bar, stdout,
)


def register(app: typer.Typer) -> None:
    """Add ``counterexample`` to ``app``."""
    app.command("counterexample")(counterexample)


def counterexample(
    measure: str = typer.Argument(..., help="Measure name, e.g. 'gRBP(p=0.5)', ERR, AP (with --topic)."),
    order: str = typer.Option("rank", "--order", help="rank, set, dominance, ipso, replacement, swap, raise, lexiprecision, lexirecall or rpp."),
    depth: Optional[int] = typer.Option(None, "--depth", help="Search this depth only."),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", help="Search depths 1..N; report the smallest violating one."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    unjudged: int = UnjudgedOpt,
    method: str = typer.Option("enumeration", "--method", help="enumeration (exhaustive; any measure) or smt (z3; no logarithms)."),
    param_range: Optional[str] = typer.Option(None, "--param-range", help="Free parameter in a closed range, e.g. p=0.4..0.6: smt, or enumeration by exact threshold tables."),
    timeout: float = typer.Option(60.0, "--timeout", help="Time budget of the whole search in seconds."),
    workers: Optional[int] = typer.Option(None, "--workers", help="Worker processes enumerating each depth's blocks (default: the machine's cores; 1 works in this process)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Enumerate on Dask: 'local' (a LocalCluster of --workers processes) or a scheduler address tcp://host:port (needs the dask extra)."),
    connect_timeout: float = typer.Option(10.0, "--connect-timeout", help="Seconds to reach the --scheduler address and hear a Dask scheduler answer there (checked whenever it is given)."),
    as_json: bool = JsonOpt,
) -> None:
    """Find runs r < s in the order with M(r) > M(s), or prove there are none.

    The answer has three values: found (the pair, re-checked exactly), none
    (proved: z3 unsat at each depth asked, or an argument for every depth) or
    unknown (timeout, solver unknown, or an enumeration that found nothing at
    the depths it searched, which settles no other depth; "searched" says
    where it looked).  Exit status 0 for all three, since the search ran to
    an answer: read "status" (JSON) or the first line; "found": false alone
    does not mean none.  Exit status 2 on bad input.
    """
    from rich.markup import escape

    from workbench.api.scale import counterexample as search
    from workbench.api.show import exact_text as exact_str

    with progress_bar(label="counterexample", lazy=True) as bar:
        cx = search(measure, order=order, depth=depth, max_depth=max_depth, grades=grades, gains=gains, topic=topic,
                    method=method, param_range=param_range, timeout=timeout, workers=workers, scheduler=scheduler,
                    connect_timeout=connect_timeout, progress=bar, unjudged=unjudged)
    if as_json:
        emit_json(cx.to_json())
        return
    where = escape(f"{cx.measure} on {cx.order} order, {cx.grades} relevant grade(s), gains {cx.gains}") + (
        f", topic {cx.topic}" if cx.topic else "") + (f", at most {cx.unjudged} unjudged" if cx.unjudged else "")
    searched = f"depth {cx.depths[0]}" if len(cx.depths) == 1 else (
        f"depths {cx.depths[0]}..{cx.depths[-1]}" if cx.depths else "no depth")
    if cx.status == "found":
        at = "" if cx.param is None else f" at {', '.join(f'{k}={v}' for k, v in cx.param.items())}"
        stdout.print(f"[bold]found[/bold] ({cx.method}, depth {cx.depth}, {cx.seconds:.3g} s): {where}")
        stdout.print(
            f"  {cx.setting.format(cx.lower)} < {cx.setting.format(cx.upper)} in the order, but{at} "
            f"M = {exact_str(cx.lower_value)} > {exact_str(cx.upper_value)}"
        )
        if cx.depth is not None and len(cx.depths) > 1:
            stdout.print(f"  no violation at smaller depths ({cx.proof})")
    elif cx.status == "none":
        stdout.print(f"[bold]none[/bold] ({cx.method}, {searched}, {cx.seconds:.3g} s): {where}")
        stdout.print(f"  proof: {cx.proof}")
    elif cx.depths and cx.depth == cx.depths[-1] and not cx.undecided_depths:
        stdout.print(f"[bold]unknown[/bold] ({cx.method}, searched {cx.searched}, {cx.seconds:.3g} s): {where}")
    else:
        stdout.print(f"[bold]unknown[/bold] ({cx.method}, {cx.seconds:.3g} s): {where}")
    if cx.reason:
        stdout.print(f"  {escape(cx.reason)}")
