"""``workbench axioms``: axioms i-iv of a difference structure (seed 003 Def. 1), and its representation.

The structure is induced by a measure, by the rank function of an order or
read from a file (:mod:`workbench.scale.axioms`); exit status 1 when an
axiom fails.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019 (seed 003), Def. 1 and Theorem 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    DepthOpt, GainsOpt, GradesOpt, JsonOpt, TopicOpt, emit_json, make_space, progress_bar, setting, stdout,
)


def register(app: typer.Typer) -> None:
    """Add ``axioms`` to ``app``."""
    app.command("axioms")(axioms)


def axioms(
    measure: Optional[str] = typer.Option(None, "--measure", help="Structure induced by a measure: Δab ≾ Δcd iff M(b) - M(a) <= M(d) - M(c)."),
    rank: Optional[str] = typer.Option(None, "--rank", help="Structure induced by the rank function of a total order: rank or set."),
    file: Optional[Path] = typer.Option(None, "--file", help="Explicit weak order on intervals (format: workbench.scale.axioms docs)."),
    compare: Optional[str] = typer.Option(None, "--compare", help="Is this measure a positive affine transformation of the representation?"),
    order: str = typer.Option("rank", "--order", help="For --measure: the space of runs of this order (rank, set, ...)."),
    depth: int = DepthOpt,
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Check axioms i-iv of a difference structure (seed 003 Def. 1); exit 1 if one fails."""
    import numpy as np

    from workbench.scale.axioms import affine_fit, check_measure, check_rank, check_relation, read_structure
    from workbench.core.exact import exact_str, to_float
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.space.runs import parse_run
    from workbench.errors import WorkbenchError

    given = [x for x in (("--measure", measure), ("--rank", rank), ("--file", file)) if x[1] is not None]
    if len(given) != 1:
        raise WorkbenchError("axioms: give exactly one of --measure NAME, --rank ORDER, --file PATH")
    depth, c, g, t = setting(depth, grades, gains, topic)
    cm = parse_measure(compare) if compare is not None else None
    info: dict = {}
    runs = None
    if file is not None:
        rel = read_structure(file)
        report = check_relation(rel)
        info = {"source": str(file)}
        if cm is not None:
            rows = [parse_run(name, c) for name in rel.elements]
            if len({len(r) for r in rows}) != 1:
                raise WorkbenchError(f"--compare with --file {file}: elements must be runs of one depth")
            runs = np.array(rows, dtype=np.int64)
    else:
        o = get_order(rank if rank is not None else order)
        if measure is not None:
            m = parse_measure(measure)
            m.check_topic(t)
        space = make_space(o, depth, c, t)
        with progress_bar(label="axioms") as bar:
            bar.phase("checking")
            report = check_measure(m, space, g) if measure is not None else check_rank(o, space)
        info = {
            "source": str(m) if measure is not None else f"rank function of {o.name}",
            "order": o.name, "space": space.kind, "depth": depth, "grades": c,
            "gains": [str(x) for x in g.values], "topic": None if t is None else list(t.counts),
        }
        if cm is not None:
            runs = report.elements.runs
    affine = None
    if cm is not None:
        cm.check_topic(t)
        values = cm.evaluate(runs, g, t)
        if report.representation is not None:
            affine = affine_fit(report.representation, values)
    out = {**info, **report.to_json()}
    out["compare"] = None if cm is None else str(cm)
    out["affine"] = None if affine is None else {
        "alpha": exact_str(affine[0]), "beta": exact_str(affine[1]),
        "alpha_float": to_float(affine[0]), "beta_float": to_float(affine[1]),
    }
    out["is_affine"] = None if cm is None else affine is not None
    if as_json:
        emit_json(out)
    else:
        stdout.print(
            f"[bold]difference structure[/bold] of {out['source']}: {out['elements']} elements"
            + (f", {out['distinct_values']} distinct values" if out["distinct_values"] is not None else "")
        )
        for k, a in out["axioms"].items():
            word = "[green]holds[/green]" if a["holds"] else "[red]violated[/red]"
            stdout.print(f"  axiom {k:<3} {word}  {a['reason']}")
            if a["witness"]:
                wit = ", ".join(f"{k}={v}" for k, v in a["witness"].items() if not k.endswith("_float"))
                stdout.print(f"            witness: {wit}")
        if report.representation is not None:
            rep = report.representation
            stdout.print(f"representation (Theorem 1): values 0..{int(rep.max())} on {len(rep)} elements (verified)")
        elif report.holds:
            stdout.print("representation: not built (" + "; ".join(report.notes) + ")")
        if cm is not None:
            if affine is not None:
                stdout.print(f"{cm} = {exact_str(affine[0])} * representation + {exact_str(affine[1])} (positive affine)")
            else:
                stdout.print(f"{cm} is not a positive affine transformation of the representation")
    if not report.holds:
        raise typer.Exit(1)
