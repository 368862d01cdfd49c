"""``workbench properties``: Moffat's numeric properties and Amigó et al.'s constraints of a measure.

One call of :func:`workbench.property.check.properties` plus formatting:
a text table (``--format md`` for Markdown) or, with ``--json``, one JSON
object (docs/reference/cli.md): ``measure``, ``grades``, ``gains``, ``depths``,
``topics`` and ``properties`` (one verdict each: ``property``, ``source``,
``verdict``, ``scope``, ``every_depth``, ``witness``, ``why``, ``detail``).

References
----------
Moffat, AIRS 2013; Amigó, Gonzalo, Verdejo, SIGIR 2013; docs/theory/scales.md and docs/reference/cli.md.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import GainsOpt, GradesOpt, JsonOpt, UnjudgedOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``properties`` to ``app``."""
    app.command("properties")(properties)


def properties(
    measure: Optional[str] = typer.Argument(None, help="Measure name, e.g. 'RBP(p=0.8)', AP, nDCG@5, or path/file.py:function (with --report: default every built-in measure)."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    depths: str = typer.Option("1..5", "--depths", help="Depths enumerated, e.g. 1..5 or 3; for a cut-off measure such as nDCG@5, 5..7 asks from the cut-off on."),
    topics: Optional[str] = typer.Option(
        None, "--topics", help="Topics to check: 0,1,2 (binary) or '0,0;1,0' (graded); 'n0=3,1;n0=3,2' with the judged non-relevant count (bpref); default: 0 (empty) and small ones. A measure that needs no topic is checked under each topic given only: runs with at most n_j documents of grade j."),
    unjudged: int = UnjudgedOpt,
    which: Optional[str] = typer.Option(None, "--which", help="Only these properties, comma-separated, e.g. boundedness,completeness."),
    fmt: str = typer.Option("text", "--format", help="text (the terminal view), md, csv, json (the --json object) or latex."),
    report: Optional[Path] = typer.Option(
        None, "--report", help="Write the report of every built-in measure (or of MEASURE) x grades 1-2 to this Markdown file and its .json."),
    certificate: Optional[Path] = typer.Option(
        None, "--certificate", help="Write the obligations of the arguments for every depth to this folder: one SMT-LIB2 file each (unsat confirms it) and identities.json (the sympy steps)."),
    as_json: bool = JsonOpt,
) -> None:
    """Decide MEASURE's named properties exactly: holds / fails (with a reason or witness) / unknown (with what was searched) / undefined (with why)."""
    import workbench.api as wb
    from workbench.errors import WorkbenchError

    fmt = fmt.strip().lower()
    if fmt not in ("text", "md", "csv", "json", "latex"):
        raise WorkbenchError(f"--format {fmt!r}: use text, md, csv, json or latex")
    if as_json and fmt not in ("text", "json"):
        raise WorkbenchError(f"--json with --format {fmt}: give one of them")
    as_json = as_json or fmt == "json"
    if report is not None:
        write_report(report, measure, as_json)
        return
    if measure is None:
        raise WorkbenchError("properties: give a MEASURE (e.g. RBP(p=0.8)) or --report FILE")
    table = wb.properties(measure, grades=grades, gains=gains, depths=depths, topics=topics, which=which,
                          unjudged=unjudged)
    written = None if certificate is None else table.write_certificates(certificate)
    if as_json:
        emit_json(table.to_json() | ({} if written is None else {"certificates": [str(p) for p in written]}))
    elif fmt != "text":
        typer.echo(table.table().render(fmt), nl=False)
    else:
        typer.echo(repr(table))
    if written is not None and not as_json:
        typer.echo(f"certificates: {len(written)} file(s) in {certificate}", err=fmt != "text")


def write_report(path: Path, measure: Optional[str], as_json: bool) -> None:
    """Build the properties report (every built-in measure, or ``measure``) and write it atomically."""
    from workbench.api.papers import properties_report
    from workbench.core.files import atomic_write, companion_path

    with progress_bar(label="properties report") as bar:
        result = properties_report(measure, progress=bar)
    json_path = companion_path(path, ".json", "--report")  # none beside a device or FIFO (/dev/null)
    atomic_write(path, result.markdown(), "--report")
    if json_path is not None:
        atomic_write(json_path, result.json_text(), "--report")
    if as_json:
        emit_json(result.to_json() | {"report": str(path),
                                      "json_report": None if json_path is None else str(json_path)})
    else:
        wrote = f"{path}" if json_path is None else f"{path} and {json_path}"
        stdout.print(f"{len(result.tables)} tables; wrote {wrote}", markup=False, highlight=False)
