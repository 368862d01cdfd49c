"""``workbench axioms``: axioms i-iv of a difference structure (seed 003 Def. 1), and its representation.

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
    param: Optional[str] = typer.Option(None, "--param", help="With --measure: exact regions of this parameter where the axioms hold."),
    method: str = typer.Option("enumeration", "--method", help="With --measure: enumeration (every run) or smt (z3, any depth, fixed parameter)."),
    axiom_timeout: float = typer.Option(30.0, "--axiom-timeout", help="--method smt: seconds per axiom before it is reported unknown."),
    as_json: bool = JsonOpt,
) -> None:
    """Check axioms i-iv of a difference structure (seed 003 Def. 1); exit 1 if one fails.

    With --param: the regions of the parameter and their verdicts (exit 1 if
    no region is a difference structure).  With --method smt: z3 at a fixed
    parameter value, three-valued per axiom (exit 1 if one fails).
    """
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
    if method not in ("enumeration", "smt"):
        raise WorkbenchError(f"--method {method!r}: choose enumeration or smt")
    if (param is not None or method == "smt") and measure is None:
        raise WorkbenchError(f"axioms: {'--param' if param is not None else '--method smt'} needs --measure NAME")
    if (param is not None or method == "smt") and compare is not None:
        raise WorkbenchError("axioms: --compare works with the enumeration at one parameter value (no --param, no --method smt)")
    if param is not None and method == "smt":
        raise WorkbenchError("axioms: --method smt checks a fixed parameter value (give it in the name, e.g. "
                             "'RBP(p=1/3)'); --param partitions the domain by enumeration")
    if param is not None:
        return _over_param(measure, param, order, depth, grades, gains, topic, as_json)
    if method == "smt":
        return _smt(measure, order, depth, grades, gains, topic, axiom_timeout, as_json)
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


def _over_param(measure, param, order, depth, grades, gains, topic, as_json) -> None:
    """``axioms --measure M --param p``: the regions table, or one JSON object."""
    from rich.markup import escape
    from rich.table import Table

    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.axioms_param import axioms_over_param

    depth, c, g, t = setting(depth, grades, gains, topic)
    m = parse_measure(measure)
    m.check_topic(t)
    o = get_order(order)
    space = make_space(o, depth, c, t)
    with progress_bar(label=f"axioms of {m} over {param}") as bar:
        res = axioms_over_param(m, param, space, g, order=o, progress=lambda phase: bar.phase(phase))
    if as_json:
        emit_json(res.to_json())
    else:
        stdout.print(
            f"[bold]difference structure[/bold] of {escape(res.measure)} in {param} {res.domain}: {res.kind}-based runs "
            f"({res.order} order), depth {depth}, {c} relevant grade(s), gains {g}" + (f", topic {t}" if t else "")
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


def _smt(measure, order, depth, grades, gains, topic, timeout, as_json) -> None:
    """``axioms --measure M --method smt``: per axiom holds / fails / unknown."""
    from rich.markup import escape

    from workbench.errors import WorkbenchError
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.axioms_smt import MAX_AXIOM_TIMEOUT, axioms_smt
    from workbench.space.runs import check_depth

    check_depth(depth)
    if not 0 < timeout <= MAX_AXIOM_TIMEOUT:
        raise WorkbenchError(f"--axiom-timeout {timeout:g}: must be a positive, finite number of seconds "
                             f"up to {MAX_AXIOM_TIMEOUT:,} (z3's limit, about 49 days)")
    _, c, g, t = setting(1, grades, gains, topic)
    m = parse_measure(measure)
    m.check_topic(t)
    o = get_order(order)
    with progress_bar(label=f"axioms of {m} with z3") as bar:
        bar.phase("solving")
        res = axioms_smt(m, o, depth, c, g, t, timeout=timeout)
    if as_json:
        emit_json(res.to_json())
    else:
        stdout.print(
            f"[bold]difference structure[/bold] of {escape(str(m))} (z3): {res.kind}-based runs, depth {depth}, "
            f"{c} relevant grade(s), gains {g}" + (f", topic {t}" if t else "") + f": [bold]{res.status}[/bold]"
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
