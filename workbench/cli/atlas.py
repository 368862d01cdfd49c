"""The ``workbench atlas`` command: the atlas of measure scales, built-in or for your own measures.

``workbench atlas`` regenerates ``reports/atlas.md`` and ``reports/atlas.json``;
``workbench atlas --measure mine.py:half_life [--measure ...] [--orders rank,dominance]
[--grades 1..2] [--depths 2..6] [-o out.md] [--json]`` puts any measures through
the same atlas.  Registered on the main app by :mod:`workbench.cli.main`; the
shared helpers (``emit_json``, ``progress_bar``, ``stdout``) come from
:mod:`workbench.cli.common`.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 4-6; docs/reference/cli.md.
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
    from workbench.api.papers import atlas as build
    from workbench.core.files import atomic_write as write_atomic, companion_path

    own = bool(measure)
    md_path = output if output is not None else (None if own else DEFAULT_REPORT)
    # the JSON twin of the Markdown report: none beside a device or FIFO (--report /dev/null writes no /dev/null.json)
    js_path = json_report if json_report is not None else (None if own else companion_path(md_path, ".json"))
    for path in (md_path, js_path):
        if path is not None:
            _check_folder(path)
    with progress_bar(label="atlas", lazy=True) as bar:
        result = build(list(measure) if own else None, orders=orders, grades=grades, depths=depths, progress=bar)
    text = result.markdown()
    if md_path is not None:
        write_atomic(md_path, text)
    if js_path is not None:
        write_atomic(js_path, result.json_text())
    if as_json:
        out = result.to_json()
        if not own:  # the full atlas is in the JSON report: print where it went and a summary
            out = {key: out[key] for key in ("measures", "orders", "grades", "depths")}
            out |= result.summary() | {"report": str(md_path), "json_report": str(js_path)}
        emit_json(out)
        return
    if own and md_path is None:
        stdout.print(text, markup=False, highlight=False, soft_wrap=True, end="")
        return
    s = result.summary()
    written = " and ".join(str(p) for p in (md_path, js_path) if p is not None)
    stdout.print(f"{s['cells']} verdicts ({', '.join(f'{k} {v}' for k, v in s['verdicts'].items())}); "
                 f"{s['threshold_rows']} threshold rows ({s['capped']} capped); wrote {written}",
                 markup=False, highlight=False, soft_wrap=True)
