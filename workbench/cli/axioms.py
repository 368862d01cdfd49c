"""``workbench axioms``: axioms i-iv of a difference structure (Ferrante et al. 2019, Def. 1), and its representation.

The structure is induced by a measure, by the rank function of an order or
read from a file (:mod:`workbench.scale.axioms`); exit status 1 when an
axiom fails.

With ``--measure M --param p`` the parameter's whole domain is partitioned
into exact regions by the verdict of the axioms
(:func:`workbench.scale.axioms_param.axioms_over_param`); exit status 1 when
no value of the parameter gives a difference structure, 0 when some region
does.  A measure transcendental in the parameter (the power-law discount
``A.power(i + 1, -b)``) gets its regions by certified numerics
(:mod:`workbench.scale.axioms_certified`); a region they cannot decide is
``unknown`` (exit status 0 unless every region provably fails).  With ``--method smt`` z3 decides the axioms at the measure's fixed
parameter values on depths too large to enumerate
(:func:`workbench.scale.axioms_smt.axioms_smt`): per axiom ``holds``,
``fails`` (witness re-checked exactly) or ``unknown`` (time spent and
reason; ``--axiom-timeout`` seconds per axiom, while the common ``--timeout``
still bounds the whole command); exit status 1 when an axiom fails, 0
otherwise (read ``status`` for ``unknown``).

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, Def. 1 and Theorem 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    DepthOpt, GainsOpt, GradesOpt, JsonOpt, TopicOpt, emit_json, progress_bar, stdout,
)


def register(app: typer.Typer) -> None:
    """Add ``axioms`` to ``app``."""
    app.command("axioms")(axioms)


def axioms(
    measure: Optional[str] = typer.Option(None, "--measure", help="Structure induced by a measure: Δab ≾ Δcd iff M(b) - M(a) <= M(d) - M(c)."),
    rank: Optional[str] = typer.Option(None, "--rank", help="Structure induced by the rank function of a total order: rank, set, lexiprecision or lexirecall."),
    file: Optional[Path] = typer.Option(None, "--file", help="Explicit weak order on intervals (format: workbench.scale.axioms docs)."),
    compare: Optional[str] = typer.Option(None, "--compare", help="Is this measure a positive affine transformation of the representation?"),
    order: str = typer.Option("rank", "--order", help="For --measure: the space of runs of this order (rank, set, ...)."),
    depth: int = DepthOpt,
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    param: Optional[str] = typer.Option(None, "--param", help="With --measure: exact regions of this parameter where the axioms hold."),
    method: str = typer.Option("enumeration", "--method", help="With --measure: enumeration (every run) or smt (z3, any depth, fixed parameter)."),
    axiom_timeout: float = typer.Option(30.0, "--axiom-timeout", help="--method smt: seconds per axiom before it is reported unknown."),
    as_json: bool = JsonOpt,
) -> None:
    """Check axioms i-iv of a difference structure (Ferrante et al. 2019, Def. 1); exit 1 if one fails.

    With --param: the regions of the parameter and their verdicts (exit 1 if
    no region is a difference structure).  With --method smt: z3 at a fixed
    parameter value, three-valued per axiom (exit 1 if one fails).
    """
    from workbench.api.scale import axioms as check

    with progress_bar(label="axioms", lazy=True) as bar:
        result = check(measure, rank=rank, file=file, compare=compare, order=order, depth=depth, grades=grades,
                       gains=gains, topic=topic, param=param, method=method, axiom_timeout=axiom_timeout,
                       progress=bar)
    if param is not None:
        return _over_param(result, as_json)
    if method == "smt":
        return _smt(result, as_json)
    out = result.to_json()
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
        rep = result.report.representation
        if rep is not None:
            stdout.print(f"representation (Theorem 1): values 0..{int(rep.max())} on {len(rep)} elements (verified)")
        elif result.holds:
            stdout.print("representation: not built (" + "; ".join(result.report.notes) + ")")
        if result.compare is not None:
            if result.affine is not None:
                stdout.print(f"{result.compare} = {out['affine']['alpha']} * representation + {out['affine']['beta']} "
                             "(positive affine)")
            else:
                stdout.print(f"{result.compare} is not a positive affine transformation of the representation")
    if not result.holds:
        raise typer.Exit(1)


def _over_param(res, as_json) -> None:
    """``axioms --measure M --param p``: the regions table, or one JSON object."""
    from rich.markup import escape
    from rich.table import Table

    param = res.param
    if as_json:
        emit_json(res.to_json())
    else:
        stdout.print(
            f"[bold]difference structure[/bold] of {escape(res.measure)} in {param} {res.domain}: {res.kind}-based runs "
            f"({res.order} order), depth {res.depth}, {res.grades} relevant grade(s), gains {res.gains}"
            + (f", topic {res.topic}" if res.topic else "")
        )
        table = Table("region", "axioms", "checked at", "witness (axiom iv)",
                      title=(f"{res.runs} runs, {res.distinct_values} distinct value expressions, "
                             f"{res.polynomials} critical functions (transcendental in {param}: roots proven by "
                             f"interval arithmetic, verdicts by certified signs), {len(res.critical)} critical points"
                             if res.certified else
                             f"{res.runs} runs, {res.distinct_values} distinct value polynomials, "
                             f"{res.polynomials} critical polynomials, {len(res.critical)} critical points"))
        for r in res.regions:
            word = "i-iv hold" if r.holds else r.verdict()
            if r.verdict() == "unknown":
                word += ": " + r.axioms["iv"].reason.removeprefix("unknown: ")
            pts = [str(ch.point) for ch in r.certificate]
            shown = ", ".join(pts[:3]) + (f", ... ({len(pts)} points)" if len(pts) > 3 else "")
            table.add_row(*map(escape, (r.label(), word, shown, res.witness_text(r))))  # labels like [root(...)] are text
        stdout.print(table)
    if not res.holds_somewhere and not res.unknown_somewhere:
        raise typer.Exit(1)


def _smt(res, as_json) -> None:
    """``axioms --measure M --method smt``: per axiom holds / fails / unknown."""
    from rich.markup import escape

    if as_json:
        emit_json(res.to_json())
    else:
        stdout.print(
            f"[bold]difference structure[/bold] of {escape(res.measure)} (z3): {res.kind}-based runs, depth {res.depth}, "
            f"{res.grades} relevant grade(s), gains {res.gains}" + (f", topic {res.topic}" if res.topic else "")
            + f": [bold]{res.status}[/bold]"
        )
        for k, a in res.axioms.items():
            word = {"holds": "[green]holds[/green]", "fails": "[red]fails[/red]", "unknown": "[yellow]unknown[/yellow]"}[a.status]
            stdout.print(f"  axiom {k:<3} {word}  ({a.seconds:.2f} s) {a.reason}")
            if a.witness:
                wit = ", ".join(f"{key}={v}" for key, v in a.witness.items()
                                if not key.endswith("_float") and key != "needed_value_absent_by")
                stdout.print(f"            witness: {wit}")
    if res.status == "fails":
        raise typer.Exit(1)
