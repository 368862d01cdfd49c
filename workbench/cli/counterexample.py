"""``workbench counterexample``: runs ordered one way and scored the other, or a proof there are none.

One call of :func:`workbench.scale.counterexample.find_counterexample` plus
formatting.  Its ``--timeout`` is the search budget; the command line stops
it a grace period after that (:mod:`workbench.cli.main`).

References
----------
SPEC section 6 (``counterexample``).
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import (
    GainsOpt, GradesOpt, JsonOpt, TopicOpt, emit_json, progress_bar, setting, stdout,
)


def register(app: typer.Typer) -> None:
    """Add ``counterexample`` to ``app``."""
    app.command("counterexample")(counterexample)


def counterexample(
    measure: str = typer.Argument(..., help="Measure name, e.g. 'gRBP(p=0.5)', ERR, AP (with --topic)."),
    order: str = typer.Option("rank", "--order", help="rank, set, dominance, ipso, replacement, swap or raise."),
    depth: Optional[int] = typer.Option(None, "--depth", help="Search this depth only."),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", help="Search depths 1..N; report the smallest violating one."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
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
    from workbench.scale.counterexample import find_counterexample
    from workbench.core.exact import exact_str
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.errors import WorkbenchError
    from workbench.space.runs import format_run

    from workbench.core.executors import check_connect_timeout, check_scheduler, check_workers, default_workers

    workers = default_workers() if workers is None else check_workers(workers)
    scheduler = check_scheduler(scheduler)
    connect_timeout = check_connect_timeout(connect_timeout)
    if (depth is None) == (max_depth is None):
        raise WorkbenchError("counterexample: give exactly one of --depth N and --max-depth N")
    m = parse_measure(measure)
    o = get_order(order)
    top, c, g, t = setting(depth if depth is not None else max_depth, grades, gains, topic)
    m.check_topic(t)
    n_depths = 1 if depth is not None else top
    with progress_bar(total=n_depths, label=f"counterexample for {m} on {o.name}") as bar:
        cx = find_counterexample(
            m, o, depth=depth, max_depth=max_depth, grades=c, gains=g, topic=t, method=method,
            param_range=param_range, timeout=timeout, progress=lambda d, s: bar.advance(1, f"depth {d}: {s}"),
            workers=workers, scheduler=scheduler, connect_timeout=connect_timeout,
        )
    if as_json:
        emit_json(cx.to_json())
        return
    where = f"{cx.measure} on {o.name} order, {c} relevant grade(s), gains {g}" + (f", topic {t}" if t else "")
    searched = f"depth {cx.depths[0]}" if len(cx.depths) == 1 else (
        f"depths {cx.depths[0]}..{cx.depths[-1]}" if cx.depths else "no depth")
    if cx.status == "found":
        at = "" if cx.param is None else f" at {', '.join(f'{k}={v}' for k, v in cx.param.items())}"
        stdout.print(f"[bold]found[/bold] ({cx.method}, depth {cx.depth}, {cx.seconds:.3g} s): {where}")
        stdout.print(
            f"  {format_run(cx.lower)} < {format_run(cx.upper)} in the order, but{at} "
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
        stdout.print(f"  {cx.reason}")
