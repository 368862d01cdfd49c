"""The ``workbench`` command line: one library call plus formatting per subcommand.

Every subcommand takes ``--json`` (exactly one JSON object on stdout).  Exit
status 0 on success, 2 on bad input with one line on stderr naming the bad
value (SPEC section 6).
"""
from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from .errors import SpaceTooLargeError, WorkbenchError
from .runs import Gains, Topic, check_depth, format_run

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Exact scale analysis of IR evaluation measures (SPEC: ../shared/SPEC.md).",
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
    if c < 1:
        raise WorkbenchError(f"grades {c}: need at least one relevant grade")
    if g is None:
        g = Gains.default(c)
    elif g.grades != c:
        raise WorkbenchError(f"gains {g}: give {c + 1} values for --grades {c}")
    if t is not None:
        t.check_grades(c)
    return depth, c, g, t


def make_space(order, depth: int, grades: int, topic):
    from .spaces import rank_space, set_space

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
    from .names import parse_measure
    from .orders import get_order
    from .scale import classify as run_classify

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
    from .exact import exact_str, to_float

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
def hasse(
    order: str = typer.Option("dominance", "--order", help="rank, set, dominance, ipso or replacement."),
    depth: int = typer.Option(3, "--depth", help="Run depth N (>= 1)."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    fmt: str = typer.Option("json", "--format", help="json or dot (printed on stdout)."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Also draw the diagram: .pdf, .svg, .png, .dot or .tex."),
    as_json: bool = JsonOpt,
) -> None:
    """The Hasse diagram (cover relations) of an order on a space of runs."""
    from .hasse import hasse_diagram, is_lattice, rank_function, width
    from .orders import get_order
    from .render import draw_hasse, node_label, to_dot

    if fmt not in ("json", "dot"):
        raise WorkbenchError(f"format {fmt!r}: use json or dot")
    o = get_order(order)
    depth, c, g, t = setting(depth, grades, gains, topic)
    space = make_space(o, depth, c, t)
    with progress_bar(label=f"Hasse diagram of {o.name}") as bar:
        bar.phase("covers")
        G = hasse_diagram(space, o, g)
        bar.phase("properties")
        rho = rank_function(G)
        try:
            lattice, w = is_lattice(G), width(G)
        except SpaceTooLargeError as exc:
            lattice = w = None  # quadratic properties: reported as unknown beyond their limit
            skipped = str(exc)
        else:
            skipped = None
        if figure is not None:
            bar.phase("drawing")
            draw_hasse(G, figure, title=f"{o.name}, depth {depth}, c = {c}")
    nodes = sorted(G.nodes, key=lambda v: G.nodes[v]["index"])

    def js(v):
        return [list(r) for r in v] if v and isinstance(v[0], tuple) else list(v)

    if as_json or fmt == "json":
        emit_json(
            {
                "order": o.name,
                "depth": depth,
                "grades": c,
                "gains": [str(x) for x in g.values],
                "topic": None if t is None else list(t.counts),
                "nodes": [js(v) for v in nodes],
                "edges": [[js(u), js(v)] for u, v in sorted(G.edges, key=lambda e: (G.nodes[e[0]]["index"], G.nodes[e[1]]["index"]))],
                "graded": rho is not None,
                "rank": None if rho is None else {node_label(v): rho[v] for v in nodes},
                "lattice": lattice,
                "width": w,
                "skipped": skipped,
                "figure": None if figure is None else str(figure),
            }
        )
        return
    sys.stdout.write(to_dot(G) + "\n")


@app.command()
def measures(as_json: bool = JsonOpt) -> None:
    """List the measures with their parameters, domains and whether they need a topic."""
    from .names import describe_families

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
    from .tour import TOUR_CASES, run_tour, tour_markdown, tour_rows

    check_depth(depth)
    with progress_bar(total=len(TOUR_CASES) + 1, label="tour") as bar:
        report = run_tour(depth, out, progress=lambda text: bar.advance(1, text))
    if report_path is not None:
        report_path.write_text(tour_markdown(report))
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


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: run the app, turning bad input into one line and exit status 2."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not args:
        args = ["--help"]
    try:
        code = app(args=args, prog_name="workbench", standalone_mode=False)
    except WorkbenchError as exc:
        fail(str(exc), 2)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except Exception as exc:
        # Usage errors of typer's (vendored) click: one line, their exit code.
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            fail(" ".join(exc.format_message().split()), exc.exit_code or 2)
        if type(exc).__name__ == "Abort":
            fail("interrupted", 130)
        raise
    raise SystemExit(code if isinstance(code, int) else 0)


def fail(message: str, status: int) -> None:
    """Print one line on stderr and exit with ``status``."""
    sys.stderr.write(f"workbench: error: {message}\n")
    raise SystemExit(status)


if __name__ == "__main__":  # pragma: no cover
    main()
