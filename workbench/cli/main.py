"""The ``workbench`` command line: one library call plus formatting per subcommand.

Every subcommand takes ``--json`` (exactly one JSON object on stdout).  Exit
status 0 on success, 2 on bad input with one line on stderr naming the bad
value (SPEC section 6).
"""
from __future__ import annotations

import functools
import inspect
import json
import signal
import sys
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from workbench.errors import TimeLimitError, WorkbenchError
from workbench.core.files import atomic_write, check_output_path
from workbench.space.runs import Gains, Topic, check_depth, check_grades, format_run

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Exact scale analysis of IR evaluation measures: scales, thresholds, counterexamples, Hasse diagrams, IPSO, Twist.",
)
stderr = Console(stderr=True)
stdout = Console()

DepthOpt = typer.Option(4, "--depth", help="Run depth N (>= 1).")
GradesOpt = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains/--topic).")
GainsOpt = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 or 0,1/2,1 (default g(i) = i).")
TopicOpt = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 3 or 2,1.")
JsonOpt = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.")


def setting(depth: int, grades: Optional[int], gains: Optional[str], topic: Optional[str]):
    """Validate the common options; return ``(depth, grades, Gains, Topic|None)``."""
    check_depth(depth)
    g = Gains.parse(gains) if gains is not None else None
    t = Topic.parse(topic) if topic is not None else None
    c = grades
    if c is None:
        c = g.grades if g is not None else (t.grades if t is not None else 1)
    check_grades(c)
    if g is None:
        g = Gains.default(c)
    elif g.grades != c:
        raise WorkbenchError(f"gains {g}: give {c + 1} values for --grades {c}")
    if t is not None:
        t.check_grades(c)
    return depth, c, g, t


def make_space(order, depth: int, grades: int, topic):
    from workbench.space.spaces import rank_space, set_space

    build = rank_space if order.space_kind == "rank" else set_space
    return build(depth, grades, topic)


@contextmanager
def progress_bar(total: Optional[int] = None, label: str = "working") -> Iterator:
    """A rich progress bar on stderr (silent when stderr is not a terminal)."""
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=stderr,
        transient=True,
        disable=not stderr.is_terminal,
    ) as prog:
        task = prog.add_task(label, total=total)

        class Ticker:
            def phase(self, text: str) -> None:
                prog.update(task, description=f"{label}: {text}")

            def advance(self, n: int = 1, text: Optional[str] = None) -> None:
                prog.update(task, advance=n, description=f"{label}: {text}" if text else label)

        yield Ticker()


def emit_json(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, sort_keys=False) + "\n")


@app.command()
def classify(
    measure: str = typer.Argument(..., help="Measure name, e.g. 'RBP(p=0.8)', AP, nDCG@5, or path/file.py:function."),
    order: str = typer.Option("rank", "--order", help="rank, set, dominance, ipso or replacement."),
    depth: int = DepthOpt,
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Classify MEASURE relative to an order: interval / ordinal / strict / weak / violated, with a witness."""
    from workbench.measure.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.classify import classify as run_classify

    m = parse_measure(measure)
    o = get_order(order)
    depth, c, g, t = setting(depth, grades, gains, topic)
    m.check_topic(t)
    space = make_space(o, depth, c, t)
    with progress_bar(label=f"{m} on {o.name}") as bar:
        result = run_classify(m, o, space, g, progress=bar.phase)
    if as_json:
        emit_json(result.to_json())
        return
    print_classification(result)


def print_classification(result) -> None:
    from workbench.core.exact import exact_str, to_float

    def show(v) -> str:
        text = exact_str(v)
        return text if "/" not in text or "log" not in text else f"{text} (~{to_float(v):.6g})"

    stdout.print(
        f"[bold]{result.measure}[/bold] on {result.kind}-based runs, depth {result.depth}, "
        f"{result.grades} relevant grade(s), gains {result.gains}"
        + (f", topic {result.topic}" if result.topic else "")
        + f", order [bold]{result.order}[/bold] ({result.runs} runs, {result.covers} covers)"
    )
    stdout.print(f"verdict: [bold]{result.verdict}[/bold]    intrinsic (Giner): {result.intrinsic.category}")
    if result.affine:
        a, b = result.affine
        stdout.print(f"  {result.measure} = {show(a)} * rank + {show(b)}")
    if result.ranked_values is not None:
        gaps = [exact_str(b - a) for a, b in zip(result.ranked_values, result.ranked_values[1:4])]
        stdout.print(
            f"  interval transformation: {len(result.ranked_values)} attained values -> positions "
            f"0..{len(result.ranked_values) - 1}" + (f"; first gaps {', '.join(gaps)}" if gaps else "")
        )
    else:
        stdout.print(f"  interval transformation: {result.intrinsic.distinct} attained values (too many to list)")
    if result.witness:
        w = result.witness
        rel = "tied with" if result.verdict == "weak" else "scores above"
        stdout.print(
            f"  witness: {format_run(w.lower)} <= {format_run(w.upper)} in the order, but "
            f"{format_run(w.lower)} {rel} it: {show(w.lower_value)} vs {show(w.upper_value)}"
        )
    if result.gap_witness:
        w1, w2 = result.gap_witness
        stdout.print(
            f"  unequal increments: {format_run(w1.lower)}->{format_run(w1.upper)} gains "
            f"{exact_str(w1.upper_value - w1.lower_value)}, {format_run(w2.lower)}->{format_run(w2.upper)} gains "
            f"{exact_str(w2.upper_value - w2.lower_value)}"
        )


@app.command()
def measures(as_json: bool = JsonOpt) -> None:
    """List the measures with their parameters, domains and whether they need a topic."""
    from workbench.measure.names import describe_families

    fams = describe_families()
    if as_json:
        emit_json({"measures": fams})
        return
    table = Table("name", "parameters", "topic", "z3", "reference")
    for f in fams:
        params = ", ".join(p["name"] + " " + p["domain"] + (f" = {p['default']}" if p.get("default") is not None else "") for p in f["params"])
        table.add_row(f["name"], params or "-", "yes" if f["needs_topic"] else "no", "yes" if f["z3_ok"] else "no", f["reference"])
    stdout.print(table)


@app.command()
def tour(
    depth: int = typer.Option(4, "--depth", help="Run depth N (>= 1)."),
    out: Path = typer.Option(Path("out"), "--out", help="Folder for the Hasse diagram figures."),
    report_path: Optional[Path] = typer.Option(None, "--report", help="Also write the classifications as Markdown."),
    as_json: bool = JsonOpt,
) -> None:
    """The main job on a small default: classify the papers' measures and draw a Hasse diagram."""
    from workbench.papers.tour import TOUR_CASES, run_tour, tour_markdown, tour_rows

    check_depth(depth)
    if report_path is not None:
        check_output_path(report_path, "--report")
    with progress_bar(total=len(TOUR_CASES) + 1, label="tour") as bar:
        report = run_tour(depth, out, progress=lambda text: bar.advance(1, text))
    if report_path is not None:
        atomic_write(report_path, tour_markdown(report))
    if as_json:
        emit_json(report)
        return
    def short(exact: str, approx: float) -> str:
        return exact if len(exact) <= 8 else f"{approx:.4g}"

    table = Table("measure", "order", "c", "topic", "verdict", "witness: lower < upper, values", "Giner",
                  title=f"Scales of the papers' measures, depth {depth} (exact values: --json)")
    for row in tour_rows(report, value_text=short):
        table.add_row(*row)
    stdout.print(table)
    for fig in report["figures"]:
        stdout.print(f"wrote {fig}")


@app.command()
def prove(
    folder: Path = typer.Option(Path("proofs"), "--dir", help="Folder of claim files (*.toml)."),
    report: Optional[Path] = typer.Option(Path("reports/proofs.md"), "--report", help="Markdown report to write."),
    as_json: bool = JsonOpt,
) -> None:
    """Settle every claim in proofs/ and write the report; exit 1 if any outcome changed."""
    from workbench.scale.proofs import load_claims, report_markdown, settle, Settled

    claims = load_claims(folder)
    settled = []
    with progress_bar(total=len(claims), label="claims") as bar:
        for claim in claims:
            settled.append(Settled(claim, settle(claim)))
            bar.advance(1, claim.id)
    if report is not None:
        atomic_write(report, report_markdown(settled))
    changed = [x for x in settled if not x.as_expected]
    if as_json:
        emit_json({
            "claims": [{"id": x.claim.id, "source": x.claim.source, "method": x.claim.method,
                        "status": x.outcome.status, "expected": x.claim.expect, "detail": x.outcome.detail,
                        "bound": x.outcome.bound, "witness": x.outcome.witness} for x in settled],
            "changed": [x.claim.id for x in changed],
            "report": None if report is None else str(report),
        })
    else:
        table = Table("claim", "method", "outcome", "scope", "as recorded")
        for x in settled:
            table.add_row(x.claim.id, x.claim.method, x.outcome.status,
                          x.outcome.bound or ("every depth" if x.claim.method == "symbolic" else ""),
                          "yes" if x.as_expected else f"NO (expected {x.claim.expect})")
        stdout.print(table)
        if report is not None:
            stdout.print(f"wrote {report}")
    if changed:
        raise typer.Exit(1)


@app.command()
def thresholds(
    measure: str = typer.Argument(..., help="Measure with a continuous parameter, e.g. RBP or gRBP."),
    param: Optional[str] = typer.Option(None, "--param", help="Parameter to vary (default: the measure's only rational one)."),
    order: str = typer.Option("rank", "--order", help="rank, set, dominance, ipso or replacement."),
    depth: str = typer.Option("4", "--depth", help="Run depth N, or a range A..B (one row per depth)."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Exact thresholds in a parameter: the verdict of every region of its domain, with witnesses."""
    from workbench.core.exact import exact_str
    from workbench.measure.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.space.runs import parse_depths
    from workbench.scale.thresholds import default_param, free_name, thresholds_over_depths

    m = parse_measure(measure)
    o = get_order(order)
    depths = parse_depths(depth)
    _, c, g, t = setting(depths[0], grades, gains, topic)
    p = param if param is not None else default_param(m)
    m.check_topic(t)
    with progress_bar(total=len(depths), label=f"thresholds of {free_name(m, p)} in {p}") as bar:
        rows = thresholds_over_depths(m, p, o, depths, c, g, t, progress=lambda d: bar.advance(1, f"depth {d} done"))
    ranged = ".." in depth
    if as_json:
        if not ranged:
            emit_json(rows[0].to_json())
            return
        head = rows[0].to_json()
        emit_json({key: head[key] for key in ("measure", "param", "domain", "order", "space", "grades", "gains", "topic")}
                  | {"depths": depths, "rows": [r.to_json() for r in rows]})
        return

    def witness_text(region) -> str:
        w = region.witness
        if w is None:
            return ""
        at = f"{p}={exact_str(region.at)}"
        if region.gap_witness is not None:
            w0, w1 = region.gap_witness
            return (f"at {at}: {format_run(w0.lower)}->{format_run(w0.upper)} gains {exact_str(w0.upper_value - w0.lower_value)}, "
                    f"{format_run(w1.lower)}->{format_run(w1.upper)} gains {exact_str(w1.upper_value - w1.lower_value)}")
        rel = "tied with" if region.verdict == "weak" else "above"
        return (f"at {at}: {format_run(w.lower)} <= {format_run(w.upper)} but scores {rel} it: "
                f"{exact_str(w.lower_value)} vs {exact_str(w.upper_value)}")

    head = rows[0]
    stdout.print(
        f"[bold]{head.measure}[/bold] in {p} {head.domain}, order [bold]{head.order}[/bold], {head.kind}-based runs, "
        f"{head.grades} relevant grade(s), gains {head.gains}" + (f", topic {head.topic}" if head.topic else "")
    )
    if not ranged:
        table = Table("region", "verdict", "checked at", "witness",
                      title=f"depth {head.depth}: {head.runs} runs, {head.covers} covers, {head.groups} distinct differences")
        for r in head.regions:
            table.add_row(r.label(), r.verdict, ", ".join(exact_str(ch.point) for ch in r.certificate), witness_text(r))
    else:
        table = Table("depth", "regions of the domain and their verdicts", "distinct differences")
        for row in rows:
            table.add_row(str(row.depth), "\n".join(f"{r.label()}  {r.verdict}" for r in row.regions), str(row.groups))
    stdout.print(table)


@app.command()
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
    from workbench.measure.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.space.runs import parse_run

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


from workbench.cli.ipso import ipso_app  # noqa: E402  (the ipso subcommands live in their own module)

app.add_typer(ipso_app, name="ipso")

from workbench.cli.twist import register as _register_twist  # noqa: E402  (the Twist commands live in their own module)

_register_twist(app)

from workbench.cli.hasse import register as _register_hasse  # noqa: E402  (the hasse command lives in its own module)

_register_hasse(app)

from workbench.cli.reproduce import register as _register_reproduce  # noqa: E402  (reports of the seed papers)

_register_reproduce(app)

from workbench.cli.atlas import register as _register_atlas  # noqa: E402  (the atlas of measure scales)

_register_atlas(app)

from workbench.cli.experiment import experiment_app  # noqa: E402  (studies on real TREC runs, issue 7)

app.add_typer(experiment_app, name="experiment")


@app.command()
def counterexample(
    measure: str = typer.Argument(..., help="Measure name, e.g. 'gRBP(p=1/2)', ERR, AP (with --topic)."),
    order: str = typer.Option("rank", "--order", help="rank, set, dominance, ipso or replacement."),
    depth: Optional[int] = typer.Option(None, "--depth", help="Search this depth only."),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", help="Search depths 1..N; report the smallest violating one."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    method: str = typer.Option("enumeration", "--method", help="enumeration (exhaustive; any measure) or smt (z3; no logarithms)."),
    param_range: Optional[str] = typer.Option(None, "--param-range", help="Free parameter in a closed range, e.g. p=0.4..0.6 (smt)."),
    timeout: float = typer.Option(60.0, "--timeout", help="Time budget of the whole search in seconds."),
    as_json: bool = JsonOpt,
) -> None:
    """Find runs r < s in the order with M(r) > M(s), or prove there are none.

    The answer has three values: found (the pair, re-checked exactly), none
    (proved: unsat, or exhaustive enumeration) or unknown (timeout or solver
    unknown, with the reason).  Exit status 0 for all three, since the search
    ran to an answer: read "status" (JSON) or the first line; "found": false
    alone does not mean none.  Exit status 2 on bad input.
    """
    from workbench.scale.counterexample import find_counterexample
    from workbench.core.exact import exact_str
    from workbench.measure.names import parse_measure
    from workbench.order.orders import get_order

    if (depth is None) == (max_depth is None):
        raise WorkbenchError("counterexample: give exactly one of --depth N and --max-depth N")
    m = parse_measure(measure)
    o = get_order(order)
    top, c, g, t = setting(depth if depth is not None else max_depth, grades, gains, topic)
    m.check_topic(t)
    n_depths = 1 if depth is not None else top
    with progress_bar(total=n_depths, label=f"counterexample for {m} on {o.name}") as bar:
        cx = find_counterexample(
            m, o, depth=depth, max_depth=max_depth, grades=c, gains=g, topic=t, method=method,
            param_range=param_range, timeout=timeout, progress=lambda d, s: bar.advance(1, f"depth {d}: {s}"),
        )
    if as_json:
        emit_json(cx.to_json())
        return
    where = f"{m} on {o.name} order, {c} relevant grade(s), gains {g}" + (f", topic {t}" if t else "")
    searched = f"depth {cx.depths[0]}" if len(cx.depths) == 1 else (
        f"depths {cx.depths[0]}..{cx.depths[-1]}" if cx.depths else "no depth")
    if cx.status == "found":
        at = "" if cx.param is None else f" at {', '.join(f'{k}={v}' for k, v in cx.param.items())}"
        stdout.print(f"[bold]found[/bold] ({cx.method}, depth {cx.depth}, {cx.seconds:.3g} s): {where}")
        stdout.print(
            f"  {format_run(cx.lower)} < {format_run(cx.upper)} in the order, but{at} "
            f"M = {exact_str(cx.lower_value)} > {exact_str(cx.upper_value)}"
        )
        if cx.depth is not None and len(cx.depths) > 1:
            stdout.print(f"  no violation at smaller depths ({cx.proof})")
    elif cx.status == "none":
        stdout.print(f"[bold]none[/bold] ({cx.method}, {searched}, {cx.seconds:.3g} s): {where}")
        stdout.print(f"  proof: {cx.proof}")
    else:
        stdout.print(f"[bold]unknown[/bold] ({cx.method}, {cx.seconds:.3g} s): {where}")
    if cx.reason:
        stdout.print(f"  {cx.reason}")


#: Seconds a ``counterexample`` search may overrun its own ``--timeout`` budget
#: (the budget is checked between depths) before it is stopped.
COUNTEREXAMPLE_GRACE = 10.0

_show_traceback = False


class _Terminated(BaseException):
    """SIGTERM, turned into an exception so that ``finally`` blocks (atomic writes) run."""


@contextmanager
def time_limit(seconds: Optional[float], command: str) -> Iterator[None]:
    """Raise :class:`~workbench.errors.TimeLimitError` if the body runs past ``seconds``.

    A real-time timer (SIGALRM) interrupts any Python code, a user's measure
    that never returns included.  ``None`` means no limit.
    """
    if seconds is None:
        yield
        return
    if not seconds > 0:
        raise WorkbenchError(f"--timeout {seconds:g}: must be a positive number of seconds")

    def expire(signum, frame):
        raise TimeLimitError(
            f"{command} stopped at its time limit (--timeout {seconds:g} s); "
            "a measure file that never returns? raise --timeout or check the file"
        )

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def with_run_options(callback, command: str):
    """Give a subcommand the options every subcommand has: ``--timeout`` and ``--traceback``.

    The options are added to the callback's signature (typer reads it), so
    they are declared here once instead of in every command.  A command with
    a ``--timeout`` of its own (``counterexample``: a search budget) keeps it,
    and is stopped :data:`COUNTEREXAMPLE_GRACE` seconds after it.
    """
    sig = inspect.signature(callback, eval_str=True)
    own_budget = "timeout" in sig.parameters
    extra = [inspect.Parameter(
        "show_traceback", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
        default=typer.Option(False, "--traceback", help="On an error, also print the Python traceback (for developers)."),
    )]
    if not own_budget:
        extra.append(inspect.Parameter(
            "time_limit", inspect.Parameter.KEYWORD_ONLY, annotation=Optional[float],
            default=typer.Option(None, "--timeout", help="Stop (exit 2) after this many seconds, e.g. a runaway measure file."),
        ))

    @functools.wraps(callback)
    def run(*args, **kwargs):
        global _show_traceback
        _show_traceback = kwargs.pop("show_traceback", False)
        if own_budget:
            budget = kwargs.get("timeout")
            limit = None if not isinstance(budget, (int, float)) or not budget > 0 else budget + COUNTEREXAMPLE_GRACE
        else:
            limit = kwargs.pop("time_limit", None)
        with time_limit(limit, command):
            return callback(*args, **kwargs)

    run.__signature__ = sig.replace(parameters=[*sig.parameters.values(), *extra])
    return run


def add_run_options(typer_app: typer.Typer, prefix: str = "") -> None:
    """Wrap every registered command of ``typer_app`` (and its sub-apps) with :func:`with_run_options`."""
    for info in typer_app.registered_commands:
        name = info.name or info.callback.__name__.replace("_", "-")
        info.callback = with_run_options(info.callback, f"{prefix}{name}")
    for group in typer_app.registered_groups:
        add_run_options(group.typer_instance, f"{prefix}{group.name} ")


add_run_options(app)


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: run the app, turning bad input into one line and exit status 2."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not args:
        args = ["--help"]
    # Exact integers of any size are printed (census counts, ranks at large depths).
    sys.set_int_max_str_digits(0)
    previous_term = signal.getsignal(signal.SIGTERM)

    def terminate(signum, frame):
        raise _Terminated()

    signal.signal(signal.SIGTERM, terminate)
    try:
        code = app(args=args, prog_name="workbench", standalone_mode=False)
    except WorkbenchError as exc:
        fail(str(exc), 2, exc)
    except TimeLimitError as exc:
        fail(str(exc), 2, exc)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except _Terminated:
        fail("terminated", 143)
    except MemoryError as exc:
        fail("out of memory: the request is larger than this machine holds; try a smaller depth or fewer grades", 2, exc)
    except RecursionError as exc:
        fail("recursion too deep (a measure that calls itself without end?); --traceback shows where", 2, exc)
    except OSError as exc:
        # A path the user gave cannot be read or written (missing folder, permissions, a full disk).
        where = f"{exc.filename}: " if exc.filename else ""
        fail(f"{where}{exc.strerror or exc}", 2, exc)
    except Exception as exc:
        # Usage errors of typer's (vendored) click: one line, their exit code.
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            fail(usage_message(exc), exc.exit_code or 2)
        if type(exc).__name__ == "Abort":
            # click turns both Ctrl-C and an EOFError into Abort: only the first is an interrupt.
            if isinstance(exc.__context__, EOFError):
                fail(f"unexpected end of input: {exc.__context__}", 2, exc.__context__)
            fail("interrupted", 130)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous_term)
    raise SystemExit(code if isinstance(code, int) else 0)


def usage_message(exc: Exception) -> str:
    """One line for a usage error of typer's click, naming the value it refused.

    Recent typer releases validate option values with pydantic, whose message
    ("Input should be a valid integer") no longer quotes the value; the value
    is then taken from the validation error and added.
    """
    message = " ".join(exc.format_message().split())
    cause = exc.__cause__ or exc.__context__
    errors = getattr(cause, "errors", None)
    if callable(errors):
        try:
            inputs = [e["input"] for e in errors() if "input" in e]
        except Exception:  # not pydantic's errors(): keep the message as it is
            inputs = []
        for value in inputs:
            if repr(value) not in message and f"{value}" not in message:
                message = f"{message.rstrip('.')} (got {value!r})"
    return message


def fail(message: str, status: int, exc: Optional[BaseException] = None) -> None:
    """Print one line on stderr (after the traceback, with ``--traceback``) and exit with ``status``."""
    if exc is not None and _show_traceback:
        traceback.print_exception(exc, file=sys.stderr)
    sys.stderr.write(f"workbench: error: {message}\n")
    raise SystemExit(status)


if __name__ == "__main__":  # pragma: no cover
    main()
