"""``workbench ipso freedom-use``: how measures order the non-separable pairs against a reference measure.

One call of :func:`workbench.api.ipso.freedom_use` plus formatting (``--format md|csv|json|latex`` through
the result's table).

References
----------
Moffat and Mackenzie, JASIST 2024, sec. 4.
"""
from __future__ import annotations

import sys
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, TableFormatOpt, UnjudgedOpt, emit_json, progress_bar, stdout, table_format


def register(app: typer.Typer) -> None:
    """Add ``freedom-use`` to ``app``."""
    app.command("freedom-use")(freedom_use_cmd)


def freedom_use_cmd(
    measures: str = typer.Argument(..., help="Comma-separated measures, e.g. 'AP,RBP(p=0.8)'."),
    against: str = typer.Option("nDCG", "--against", help="The reference measure whose order each measure is compared with."),
    depth: int = typer.Option(6, "--depth", help="Run depth k (>= 1); every unordered pair of runs is compared (refused beyond the budget)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains/--topic)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 3 or 2,1: the space holds the runs it allows (needed by AP, nDCG, R, ...)."),
    within: str = typer.Option("nonsep", "--within", help="IPSO category of the unordered pairs compared: nonsep, separable or all."),
    unjudged: int = UnjudgedOpt,
    as_json: bool = JsonOpt,
    fmt: Optional[str] = TableFormatOpt,
) -> None:
    """How measures use their freedom (Moffat and Mackenzie 2024, sec. 4): the non-separable pairs each orders like the reference, oppositely, or tied."""
    fmt = table_format(fmt, as_json)
    as_json = as_json or fmt == "json"
    from workbench.api.ipso import freedom_use

    with progress_bar(label=f"pairs against {against}") as bar:
        result = freedom_use(measures, against=against, depth=depth, grades=grades, gains=gains, topic=topic,
                             within=within, progress=bar, unjudged=unjudged)
    if as_json:
        emit_json(result.to_json())
        return
    if fmt is not None:
        sys.stdout.write(result.table().render(fmt))
        return
    stdout.print(repr(result), soft_wrap=True, highlight=False, markup=False)
    for m in result.measures:
        w = m.witness
        if w is not None:
            stdout.print(f"  first pair {m.measure} orders opposite to {result.against}: {w['run_a']} vs {w['run_b']}: "
                         f"{m.measure} {_shown(w, 'measure')}, {result.against} {_shown(w, 'reference')}",
                         soft_wrap=True, highlight=False, markup=False)


#: Exact values longer than this are shown by their approximation (``--json`` has them exactly).
_LONG = 24


def _shown(witness: dict, key: str) -> str:
    """``23/60 vs 7/18``, or ``~0.534900 vs ~0.515459 (exact in --json)`` when an exact value is long."""
    a, b = witness[f"{key}_a"], witness[f"{key}_b"]
    if max(len(a), len(b)) <= _LONG:
        return f"{a} vs {b}"
    return f"~{witness[f'{key}_a_float']:.6f} vs ~{witness[f'{key}_b_float']:.6f} (exact in --json)"
