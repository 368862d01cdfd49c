"""``workbench conformance IMPL --against MEASURE``: does an implementation compute the measure as defined?

One call of :func:`workbench.api.conformance` plus formatting: a terminal
summary, ``--json`` (one JSON object; exact numbers as strings) or
``--format md|csv|json|latex`` (tables: the summary, one row per layout,
the witness).  Exit status 0 when the implementation conforms on every
case checked, 1 when it does not, 2 on bad input.

References
----------
NIST trec_eval; pytrec_eval (Van Gysel and de Rijke, SIGIR 2018).
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import GainsOpt, GradesOpt, JsonOpt, TopicOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``conformance`` to ``app``."""
    app.command("conformance")(conformance)


def conformance(
    impl: str = typer.Argument(..., help="pytrec_eval:NAME, ir_measures:NAME, ranx:NAME or path/file.py:function (pytrec_eval shape)."),
    against: str = typer.Option(..., "--against", help="The workbench measure, e.g. nDCG@5, RR, AP, 'RBP(p=0.8)', path/file.py:fn."),
    depth: int = typer.Option(4, "--depth", help="Every run of the space at depths 1..N, written as TREC topics."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    unjudged: int = typer.Option(0, "--unjudged", help="The space's runs hold up to U unjudged positions (?), each written as a retrieved document absent from the qrels."),
    examples: int = typer.Option(100, "--examples", help="Generated (qrels, run) cases beyond the space (0: none)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the generated cases (>= 0); same seed, same cases."),
    tolerance: float = typer.Option(1e-12, "--tolerance", help="Largest absolute difference that agrees."),
    as_json: bool = JsonOpt,
    show_progress: bool = typer.Option(False, "--progress", help="Show the progress bar on stderr even when it is not a terminal."),
) -> None:
    """Check IMPL against the exact MEASURE, topic by topic: exit 0 if it conforms, 1 if not."""
    from workbench.api import conformance as run_conformance

    with progress_bar(label=f"{impl} against {against}", force=show_progress) as bar:
        last = [0]

        def tick(done: int, total: int) -> None:
            bar.advance(done - last[0])
            last[0] = done

        result = run_conformance(impl, against, depth=depth, grades=grades, gains=gains, topic=topic,
                                 examples=examples, seed=seed, tolerance=tolerance, progress=tick, unjudged=unjudged)
    if as_json:
        emit_json(result.to_json())
    else:
        print_conformance(result)
    if not result.conforms:
        raise typer.Exit(1)


def print_conformance(result) -> None:
    t = result.total
    verdict = "[green]conforms[/green]" if result.conforms else "[red]does not conform[/red]"
    stdout.print(f"[bold]{result.implementation}[/bold] against [bold]{result.measure}[/bold]: {verdict}")
    stdout.print(f"  {t.agree}/{t.cells} cells agree within {result.tolerance:g}; {t.disagree} disagree, "
                 f"{t.no_value} without a value, {t.undefined} undefined (not compared)")
    stdout.print(f"  largest difference {t.max_abs:.3g} ({t.max_ulp} ulps); pairs flipped: {t.reversed} reversed, "
                 f"{t.ties_broken} ties broken, {t.ties_made} ties made"
                 + (f", {t.undecided_pairs} undecided" if t.undecided_pairs else ""))
    for name, tally in [*result.layouts.items(), ("generated", result.generated)]:
        w = result.layout_witnesses.get(name)
        stdout.print(f"  {name:<13} {tally.agree:>6}/{tally.cells:<6} agree"
                     + (f"   cause: {w.cause.cause}" if w else ""), highlight=False)
    if result.undefined_values:
        seen = ", ".join(f"{v} x{n}" for v, n in result.undefined_values.items())
        stdout.print(f"  where the measure is undefined the implementation gives: {seen}", highlight=False)
    for e in result.errors:
        stdout.print(f"  failed call: {e}", highlight=False)
    if result.witness:
        w = result.witness
        stdout.print(f"  witness: {w.summary()}", highlight=False)
        stdout.print(f"    qrels {w.qrels}", highlight=False)
        stdout.print(f"    scores {w.run}", highlight=False)
    if result.shrink_note:
        stdout.print(f"  note: {result.shrink_note}", highlight=False)
    stdout.print(f"  scope: {result.scope}", highlight=False)


def json_tables(obj) -> list:
    """``--format``: the summary (field/value), one row per layout, the witness (field/value)."""
    from workbench.core.table import Table

    keys = ("implementation", "measure", "conforms", "depth", "grades", "gains", "topic", "tolerance", "examples",
            "seed", "cells", "agree", "disagree", "no_value", "undefined", "max_abs_diff", "max_ulp_diff",
            "order_reversed", "ties_broken", "ties_made", "cause", "scope")
    summary = {k: (obj["flips"][k] if k in ("order_reversed", "ties_broken", "ties_made") else obj.get(k))
               for k in keys}
    rows = [{"layout": r["layout"], "cells": r["cells"], "agree": r["agree"], "disagree": r["disagree"],
             "no value": r["no_value"], "undefined": r["undefined"], "max |diff|": r["max_abs_diff"],
             "max ulps": r["max_ulp_diff"], "flips": r["order_reversed"] + r["ties_broken"] + r["ties_made"],
             "cause": r["witness"]["cause"] if r["witness"] else None} for r in obj["layouts"]]
    g = obj["generated"]
    rows.append({"layout": "generated", "cells": g["cells"], "agree": g["agree"], "disagree": g["disagree"],
                 "no value": g["no_value"], "undefined": g["undefined"], "max |diff|": g["max_abs_diff"],
                 "max ulps": g["max_ulp_diff"], "flips": 0, "cause": g["witness"]["cause"] if g["witness"] else None})
    tables = [Table.key_value(summary, caption=f"Conformance of {obj['implementation']} with {obj['measure']}"),
              Table.from_records(rows, caption="By layout", align=[None, "r", "r", "r", "r", "r", "r", "r", "r", None])]
    w = obj["witness"]
    if w:
        tables.append(Table.key_value({k: w[k] for k in ("source", "layout", "depth", "run", "topic", "reference",
                                                         "reference_float", "implementation", "cause", "detail")},
                                      caption="Smallest disagreeing case"))
    return tables
