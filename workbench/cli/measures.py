"""``workbench measures``: the measures with their parameters, domains and references; one run's value.

``workbench measures`` is one call of :func:`workbench.api.measures.families`
plus a table; ``workbench measures value MEASURE RUN`` one call of
:func:`workbench.api.measures.value` (the exact value of a run, ``?`` for an
unjudged position, and a residual measure's interval ``[base, top]``).

References
----------
docs/reference/measures.md (the measures).
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import GainsOpt, GradesOpt, JsonOpt, emit_json, stdout


def register(app: typer.Typer) -> None:
    """Add ``measures`` to ``app``."""
    app.command("measures")(measures)


def measures(
    action: Optional[str] = typer.Argument(None, metavar="[value MEASURE RUN]", help="value: the exact value of RUN under MEASURE (nothing: the list of measures)."),
    measure: Optional[str] = typer.Argument(None, metavar="", help="With value: the measure, e.g. 'RBP(p=0.8)' or Bpref."),
    run: Optional[str] = typer.Argument(None, metavar="", help="With value: the run, e.g. 01?1 or 0,1,?,1 (? unjudged)."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 3 or 2,1; n0=5,3 also gives the judged non-relevant ones (bpref)."),
    as_json: bool = JsonOpt,
) -> None:
    """List the measures with their parameters, domains and whether they need a topic (and the ranked forms rank[M]@N); or, with value MEASURE RUN, the exact value of a run and a residual measure's interval [base, top]."""
    from rich.table import Table

    from workbench.api.measures import families
    from workbench.errors import WorkbenchError

    if action is not None:
        if action != "value":
            raise WorkbenchError(f"measures {action!r}: give nothing (the list of measures) or value MEASURE RUN")
        if measure is None or run is None:
            raise WorkbenchError("measures value: give MEASURE and RUN, e.g. workbench measures value 'RBP(p=0.8)' 01?1")
        print_value(measure, run, grades, gains, topic, as_json)
        return
    if grades is not None or gains is not None or topic is not None:
        raise WorkbenchError("measures: --grades, --gains and --topic go with value MEASURE RUN")

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


def print_value(measure: str, run: str, grades, gains, topic, as_json: bool) -> None:
    """``workbench measures value``: one call of :func:`workbench.api.measures.value`, printed or as JSON."""
    from workbench.api.measures import value

    result = value(measure, run, grades=grades, gains=gains, topic=topic)
    if as_json:
        emit_json(result.to_json())
        return
    for line in result.lines():
        stdout.print(line, markup=False, highlight=False)
