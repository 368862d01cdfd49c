"""The ``workbench atlas`` command: the atlas of measure scales, built-in or for your own measures.

``workbench atlas`` regenerates ``reports/atlas.md`` and ``reports/atlas.json``;
``workbench atlas --measure mine.py:half_life [--measure ...] [--orders rank,dominance]
[--grades 1..2] [--depths 2..6] [-o out.md] [--json]`` puts any measures through
the same atlas.  Registered on the main app by :mod:`workbench.cli.main`; the
shared helpers (``emit_json``, ``progress_bar``, ``stdout``) come from
:mod:`workbench.cli.common`.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019 (seed 003) sec. 4-6; SPEC section 6.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar, stdout


DEFAULT_REPORT = Path("reports/atlas.md")


def register(app: typer.Typer) -> None:
    """Add the ``atlas`` command to ``app``."""
    app.command("atlas")(atlas)


def parse_range(text: str, what: str, low: int, high: int | None = None) -> list[int]:
    """``"3"`` or ``"A..B"`` as the list of integers, each within ``low..high``.

    >>> parse_range("1..2", "grades", 1, 3), parse_range("5", "depths", 1)
    ([1, 2], [5])
    >>> parse_range("0..4", "grades", 1, 3)
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: grades '0..4': must lie in 1..3
    >>> parse_range("6..2", "depths", 1)
    Traceback (most recent call last):
    ...
    workbench.errors.BadDepthError: depths '6..2': the range A..B needs A <= B

    References
    ----------
    SPEC section 6 (common options).
    """
    from workbench.errors import BadDepthError, BadParameterError

    error = BadDepthError if what == "depths" else BadParameterError
    lo, sep, hi = str(text).strip().partition("..")
    try:
        a = int(lo)
        b = int(hi) if sep else a
    except ValueError:
        raise error(f"{what} {text!r}: write N or a range A..B such as {low}..{low + 2}") from None
    if a > b:
        raise error(f"{what} {text!r}: the range A..B needs A <= B")
    if a < low or (high is not None and b > high):
        raise error(f"{what} {text!r}: must lie in {low}..{high}" if high is not None else
                    f"{what} {text!r}: must be integers >= {low}")
    return list(range(a, b + 1))


def parse_orders(text: str) -> list[str]:
    """``"rank,dominance"`` as a list of order names (each checked).

    >>> parse_orders("rank, dominance")
    ['rank', 'dominance']
    >>> parse_orders("rank,lex")
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownOrderError: order 'lex' is unknown; valid orders: rank, set, dominance, ipso, replacement, swap, raise

    References
    ----------
    SPEC section 2 (the orders).
    """
    from workbench.errors import BadParameterError
    from workbench.order.orders import get_order

    names = [part.strip() for part in str(text).split(",")]
    if not any(names):
        raise BadParameterError(f"orders {text!r}: name at least one order, e.g. rank,dominance")
    return list(dict.fromkeys(get_order(n).name for n in names))


def _check_folder(path: Path) -> None:
    from workbench.errors import WorkbenchError

    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise WorkbenchError(f"output {str(path)!r}: folder {str(parent)!r} does not exist")


def atlas(
    measure: Optional[list[str]] = typer.Option(None, "--measure", help="A measure to put through the atlas (repeatable): a name such as 'RBP(p=0.6)' or path/file.py:function. Default: every built-in measure."),
    orders: str = typer.Option("rank,set,dominance,ipso,replacement", "--orders", help="Comma-separated orders."),
    grades: str = typer.Option("1..3", "--grades", help="Relevant grades c: N or A..B within 1..3."),
    depths: str = typer.Option("2..8", "--depths", help="Depths N: N or A..B (at most 65,536 runs per rank space)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", "--report", help="Markdown report (built-in atlas: default reports/atlas.md; with --measure: default stdout)."),
    json_report: Optional[Path] = typer.Option(None, "--json-report", help="JSON report (built-in atlas: default the Markdown path with .json)."),
    as_json: bool = JsonOpt,
) -> None:
    """The atlas of measure scales: verdicts per order, grades and depth, smallest violations, exact thresholds."""
    from workbench.papers.atlas import BUILTIN_MEASURES, plan_atlas, run_atlas
    from workbench.papers.atlas_report import atlas_json, atlas_markdown, json_text
    from workbench.core.files import atomic_write as write_atomic, companion_path

    own = bool(measure)
    names = list(measure) if own else list(BUILTIN_MEASURES)
    order_names = parse_orders(orders)
    grade_list = parse_range(grades, "grades", 1, 3)
    depth_list = parse_range(depths, "depths", 1)
    md_path = output if output is not None else (None if own else DEFAULT_REPORT)
    # the JSON twin of the Markdown report: none beside a device or FIFO (--report /dev/null writes no /dev/null.json)
    js_path = json_report if json_report is not None else (None if own else companion_path(md_path, ".json"))
    for path in (md_path, js_path):
        if path is not None:
            _check_folder(path)
    with progress_bar(label="atlas") as bar:
        bar.phase("checking which measures are set-based")
        plan = plan_atlas(names, order_names, grade_list, depth_list)
    with progress_bar(total=len(plan.tasks), label="atlas") as bar:
        result = run_atlas(plan, progress=lambda text: bar.advance(1, text))
    text = atlas_markdown(result)
    if md_path is not None:
        write_atomic(md_path, text)
    if js_path is not None:
        write_atomic(js_path, json_text(result))
    if as_json:
        out = atlas_json(result)
        if not own:  # the full atlas is in the JSON report: print where it went and a summary
            out = {key: out[key] for key in ("measures", "orders", "grades", "depths")}
            out |= _summary(result) | {"report": str(md_path), "json_report": str(js_path)}
        emit_json(out)
        return
    if own and md_path is None:
        stdout.print(text, markup=False, highlight=False, soft_wrap=True, end="")
        return
    s = _summary(result)
    written = " and ".join(str(p) for p in (md_path, js_path) if p is not None)
    stdout.print(f"{s['cells']} verdicts ({', '.join(f'{k} {v}' for k, v in s['verdicts'].items())}); "
                 f"{s['threshold_rows']} threshold rows ({s['capped']} capped); wrote {written}",
                 markup=False, highlight=False, soft_wrap=True)


def _summary(result) -> dict:
    counts: dict = {}
    for c in result.cells:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    return {"cells": len(result.cells), "verdicts": dict(sorted(counts.items())),
            "violations": len(result.violations()), "threshold_rows": len(result.thresholds),
            "capped": sum(1 for r in result.thresholds if r.note.startswith("capped"))}
