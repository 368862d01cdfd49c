"""``workbench properties``: Moffat's numeric properties and Amigó et al.'s constraints of a measure.

One call of :func:`workbench.properties.check.properties` plus formatting:
a text table (``--format md`` for Markdown) or, with ``--json``, one JSON
object (SPEC section 6): ``measure``, ``grades``, ``gains``, ``depths``,
``topics`` and ``properties`` (one verdict each: ``property``, ``source``,
``verdict``, ``scope``, ``every_depth``, ``witness``, ``why``, ``detail``).

References
----------
Moffat, AIRS 2013; Amigó, Gonzalo, Verdejo, SIGIR 2013; SPEC sections 3 and 6.
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import GainsOpt, GradesOpt, JsonOpt, emit_json


def register(app: typer.Typer) -> None:
    """Add ``properties`` to ``app``."""
    app.command("properties")(properties)


def properties(
    measure: str = typer.Argument(..., help="Measure name, e.g. 'RBP(p=0.8)', AP, nDCG@5, or path/file.py:function."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    depths: str = typer.Option("1..5", "--depths", help="Depths enumerated, e.g. 1..5 or 3."),
    topics: Optional[str] = typer.Option(
        None, "--topics", help="Topics to check: 0,1,2 (binary) or '0,0;1,0' (graded); default: 0 (empty) and small ones."),
    which: Optional[str] = typer.Option(None, "--which", help="Only these properties, comma-separated, e.g. boundedness,completeness."),
    fmt: str = typer.Option("text", "--format", help="text or md."),
    as_json: bool = JsonOpt,
) -> None:
    """Decide MEASURE's named properties exactly: holds / fails (with a witness) / undefined (with why)."""
    import workbench.api as wb
    from workbench.errors import WorkbenchError

    if fmt not in ("text", "md"):
        raise WorkbenchError(f"--format {fmt!r}: must be text or md")
    names = None if which is None else [w.strip() for w in which.split(",")]
    table = wb.properties(measure, grades=grades, gains=gains, depths=depths, topics=topics, which=names)
    if as_json:
        emit_json(table.to_json())
    elif fmt == "md":
        typer.echo(table.markdown(), nl=False)
    else:
        typer.echo(repr(table))
