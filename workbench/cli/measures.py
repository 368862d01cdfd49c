"""``workbench measures``: the measures with their parameters, domains and references.

One call of :func:`workbench.measures.names.describe_families` plus a table.

References
----------
docs/reference/measures.md (the measures).
"""
from __future__ import annotations

import typer

from workbench.cli.common import JsonOpt, emit_json, stdout


def register(app: typer.Typer) -> None:
    """Add ``measures`` to ``app``."""
    app.command("measures")(measures)


def measures(as_json: bool = JsonOpt) -> None:
    """List the measures with their parameters, domains and whether they need a topic (and the ranked forms rank[M]@N)."""
    from rich.table import Table

    from workbench.api.measures import families

    fams = families()
    if as_json:
        emit_json({"measures": fams})
        return
    table = Table("name", "parameters", "topic", "z3", "reference")
    for f in fams:
        params = ", ".join(p["name"] + " " + p["domain"] + (f" = {p['default']}" if p.get("default") is not None else "") for p in f["params"])
        table.add_row(f["name"], params or "-", "yes" if f["needs_topic"] else "no", "yes" if f["z3_ok"] else "no", f["reference"])
    stdout.print(table)
    stdout.print(RANKED_NOTE, markup=False)


#: The other measure names accepted wherever a measure name is (after the table).
RANKED_NOTE = (
    "Also: path/file.py:function (your own measure), and rank[M]@N or unit-rank[M]@N for any measure M above: "
    "the interval transformation of M, a run's value replaced by its position among the values M takes on the "
    "topic's runs of depth N (unit-: divided by their number minus one). It needs a topic, is defined on runs "
    "of depth N only, has no parameter and no z3 form.")
