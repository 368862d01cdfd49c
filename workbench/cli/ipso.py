"""The ``workbench ipso`` subcommands (seed 001): one library call plus formatting each.

Registered on the main app in :mod:`workbench.cli.main` as ``workbench ipso ...``;
the shared options and helpers (``setting``, ``emit_json``, ``progress_bar``)
come from there.

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 2024 (seed 001).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

ipso_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Innate pairwise SERP orderings (seed 001): compare, census, freedom, runs, agreement, grid.",
)

# Subcommands are added below, one function each.


@ipso_app.command("grid")
def grid(
    depth: int = typer.Option(4, "--depth", help="Run depth k (>= 1); the grid has (c+1)^k x (c+1)^k cells."),
    rows: str = typer.Option("RBP(p=1/2)", "--rows", help="Measure ordering the rows, e.g. 'RBP(p=0.5)'."),
    cols: str = typer.Option("AP", "--cols", help="Measure ordering the columns, e.g. AP (needs --topic)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains/--topic)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 4 or 2,1."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Draw the grid: .png or .pdf."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """The grid of pair categories (equal/ni/ns/nonsep), rows and columns ordered by two measures (seed 001 Fig. 2-3)."""
    from workbench.cli.main import emit_json, progress_bar, setting, stdout
    from workbench.errors import WorkbenchError
    from workbench.ipso.pairgrid import draw_pair_grid, pair_grid

    for option, name in (("--rows", rows), ("--cols", cols)):
        if not name.strip():
            raise WorkbenchError(f"{option} {name!r}: name a measure, e.g. 'RBP(p=1/2)' or AP")
    depth, c, g, t = setting(depth, grades, gains, topic)
    if figure is not None and figure.suffix.lower() not in (".png", ".pdf"):
        raise WorkbenchError(f"figure {str(figure)!r}: unknown format {figure.suffix!r} (use .png or .pdf)")
    with progress_bar(label=f"pair grid {rows} x {cols}") as bar:
        bar.phase("categories")
        result = pair_grid(depth, rows, cols, grades=c, gains=g, topic=t)
        if figure is not None:
            bar.phase("drawing")
            draw_pair_grid(result, figure)
    out = result.to_json()
    out["figure"] = None if figure is None else str(figure)
    if as_json:
        emit_json(out)
        return
    tau = "undefined (a measure is constant)" if result.kendall_tau is None else f"{result.kendall_tau:.4f}"
    stdout.print(
        f"depth {depth}, {c} relevant grade(s), gains {g}" + (f", topic {t}" if t is not None else "")
        + f": {result.n} runs, {result.n ** 2} ordered pairs"
    )
    stdout.print(f"rows by increasing {result.rows}, columns by increasing {result.cols} (ties by run index)")
    stdout.print("counts: " + ", ".join(f"{k} {v}" for k, v in result.counts.items()))
    stdout.print(f"Kendall tau-b between the two orderings: {tau}")
    if figure is not None:
        stdout.print(f"figure: {figure}")


@ipso_app.command("compare")
def compare_cmd(
    run_a: str = typer.Argument(..., help="First run, e.g. 1001 or 1,0,0,1."),
    run_b: str = typer.Argument(..., help="Second run."),
    depth: Optional[int] = typer.Option(None, "--depth", help="Depth k (default: the longer run; shorter runs are padded with zeros)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default: from --gains, else the largest grade present)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """IPSO category of RUN_A against RUN_B (equal/ni/ns/nonsep), the per-depth trace, dominance vs ipso."""
    from workbench.cli.main import emit_json, stdout
    from workbench.ipso.compare import compare
    from workbench.space.runs import Gains, format_run, parse_run

    g = _ipso_gains(grades, gains)
    a, b = parse_run(run_a), parse_run(run_b)
    if g is None:
        g = Gains.default(max(1, max(a), max(b)))
    result = compare(a, b, gains=g, depth=depth)
    if as_json:
        emit_json(result.to_json())
        return
    stdout.print(
        f"A = {format_run(result.run_a)}, B = {format_run(result.run_b)}, "
        f"depth {result.depth}, gains {result.gains}: [bold]{result.category}[/bold]"
    )
    for note in result.notes:
        stdout.print(f"  note: {note}")
    stdout.print("  depth  prefix A  prefix B  category")
    for i, (cat, pa, pb) in enumerate(zip(result.trace, result.prefix_a, result.prefix_b), start=1):
        stdout.print(f"  {i:5d}  {str(pa):>8}  {str(pb):>8}  {cat}")
    stdout.print(f"dominance (Rules 1-2 on grades): {result.dominance}; ipso (gains): {result.ipso}")
    if result.note:
        stdout.print(f"  differ: {result.note}")


def _ipso_gains(grades: Optional[int], gains: Optional[str]):
    """The gain mapping from --grades/--gains, or None when neither is given."""
    from workbench.errors import WorkbenchError
    from workbench.space.runs import Gains, check_grades

    if grades is not None:
        check_grades(grades)
    if gains is not None:
        g = Gains.parse(gains)
        if grades is not None and g.grades != grades:
            raise WorkbenchError(f"gains {g}: give {grades + 1} values for --grades {grades}")
        return g
    return Gains.default(grades) if grades is not None else None


@ipso_app.command("census")
def census_cmd(
    depth: int = typer.Option(4, "--depth", help="Run depth k (>= 1); any k, counted exactly by dynamic programming."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """Exact counts of equal/ni/ns/nonsep over all ordered pairs of runs in {0..c}^k (seed 001 Table 2)."""
    from workbench.cli.main import emit_json, progress_bar, setting, stdout
    from workbench.ipso.census import _float_fraction, census

    depth, c, g, _ = setting(depth, grades, gains, None)
    with progress_bar(total=depth, label=f"census depth {depth}") as bar:
        result = census(depth, c, g, progress=lambda i: bar.advance(1))
    if as_json:
        emit_json(result.to_json())
        return
    stdout.print(f"depth {depth}, {c} relevant grade(s), gains {g}: {result.pairs} ordered pairs",
                 soft_wrap=True, highlight=False)
    for key in ("equal", "ni", "ns", "nonsep"):
        stdout.print(f"  {key:7s} {getattr(result, key)}  ({_float_fraction(getattr(result, key), result.pairs):.6%})",
                     soft_wrap=True, highlight=False)


@ipso_app.command("freedom")
def freedom_cmd(
    run_a: str = typer.Argument(..., help="First run, e.g. 100."),
    run_b: str = typer.Argument(..., help="Second run, e.g. 011."),
    measures: str = typer.Option("RR,P,RBP(p=1/2)", "--measures", help="Comma-separated measures, e.g. 'RR,P@3,RBP(p=0.5),AP'."),
    param_measure: Optional[str] = typer.Option(None, "--param-measure", help="Measure(s) whose parameter is swept for exact ties, e.g. RBP (default: the parameterised ones in --measures)."),
    depth: Optional[int] = typer.Option(None, "--depth", help="Depth k (default: the longer run; shorter runs are padded with zeros)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default: from --gains, else the largest grade present)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 (default g(i) = i)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 2 (needed by AP, nDCG, R, ...)."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """Metric freedom of a pair (seed 001 Table 1): each measure's order, and exact parameter values where it ties."""
    from workbench.cli.main import emit_json, stdout
    from workbench.ipso.freedom import freedom
    from workbench.errors import WorkbenchError
    from workbench.space.runs import Topic

    if not measures.strip(" ,"):
        raise WorkbenchError(f"--measures {measures!r}: name at least one measure, e.g. 'RR,P@3,RBP(p=0.5),AP'")
    if param_measure is not None and not param_measure.strip(" ,"):
        raise WorkbenchError(f"--param-measure {param_measure!r}: name a measure with a parameter, e.g. RBP")
    g = _ipso_gains(grades, gains)
    t = Topic.parse(topic) if topic is not None else None
    if g is None and t is not None:
        from workbench.space.runs import Gains

        g = Gains.default(t.grades)
    result = freedom(run_a, run_b, measures, gains=g, topic=t, vary=param_measure, depth=depth)
    if as_json:
        emit_json(result.to_json())
        return
    js = result.to_json()
    stdout.print(f"A = {js['run_a']}, B = {js['run_b']}, depth {result.depth}, gains {result.gains}: "
                 f"IPSO [bold]{result.category}[/bold]"
                 + (" (measures are free to order the pair)" if result.category == "nonsep" else ""))
    for note in result.notes:
        stdout.print(f"  note: {note}")
    for m in js["orders"]:
        flag = "" if m["allowed"] else "  [red]violates IPSO[/red]"
        stdout.print(f"  {m['measure']:20s} {m['order']:4s}  {m['value_a']} vs {m['value_b']}{flag}")
    for s in js["sweeps"]:
        stdout.print(f"  {s['measure']} over {s['param']} in {s['domain']}: M(A) - M(B) = {s['difference']}")
        for r in s["regions"]:
            if "at" in r:
                stdout.print(f"    {s['param']} = {r['at']} (~{r['at_approx']:.6g}): tie")
            else:
                stdout.print(f"    {r['low']} < {s['param']} < {r['high']}: {r['order']}")


def _rich_rows_table(result):
    """A rich table of the seed 001 Fig. 5 rows (groups separated by a rule)."""
    from rich.table import Table

    from workbench.ipso.trec_runs import METRICS, TIE

    table = Table(show_lines=False)
    for head in ["Grp", "Topic", "A", "B", "Relationship"] + [result.label(m) for m in METRICS]:
        table.add_column(head, justify="right" if head not in ("A", "B", "Relationship") else "left")
    colour = {"equal": "blue", "ni": "green", "ns": "cyan", "nonsep": "red"}
    prev = None
    for r in result.rows:
        if prev is not None and r.group != prev:
            table.add_section()
        prev = r.group
        diffs = []
        for m in METRICS:
            d = r.diffs[m]
            diffs.append("0.00" if abs(d) <= TIE else (f"[yellow]{d:+.2f}[/]" if d > 0 else f"[cyan]{d:+.2f}[/]"))
        table.add_row(str(r.group), r.topic, r.serp_a, r.serp_b, f"[{colour[r.category]}]{r.trace_str}[/]", *diffs)
    return table


@ipso_app.command("runs")
def runs_cmd(
    run_a: Path = typer.Argument(..., help="TREC run file of System A (plain or .gz)."),
    run_b: Path = typer.Argument(..., help="TREC run file of System B."),
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels file (topic iter docid grade)."),
    depth: int = typer.Option(10, "--depth", help="SERP depth k (>= 1)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Graded view with these gains, e.g. 0,1,2 (default: binary view)."),
    relevance_level: int = typer.Option(1, "--relevance-level", help="Binary view: relevant when grade >= this (also RR/P/AP)."),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level (p < alpha)."),
    table: Optional[Path] = typer.Option(None, "--table", help="Also write the Markdown table to this file (atomically; a missing folder is created)."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """IPSO per topic between two TREC runs: categories, counts, sign test on |ni| vs |ns|, seed 001 Fig. 5 table."""
    from rich.console import Console

    from workbench.cli.main import emit_json, stdout
    from workbench.errors import WorkbenchError
    from workbench.core.files import atomic_write, check_output_path
    from workbench.ipso.trec_runs import compare_runs

    if not 0 < alpha < 1:
        raise WorkbenchError(f"alpha {alpha}: must be in (0, 1)")
    if table is not None:
        check_output_path(table, "--table")
    result = compare_runs(run_a, run_b, qrels, depth, gains, relevance_level, alpha)
    if table is not None:
        atomic_write(table, result.markdown(), "--table")
    if as_json:
        out = result.to_dict()
        out["table"] = None if table is None else str(table)
        emit_json(out)
        return
    c, st = result.counts, result.test
    stdout.print(f"A = {result.name_a}, B = {result.name_b}, depth {depth}, {len(result.rows)} topics; {result.view.describe()}")
    wide = Console(width=max(stdout.width, 110 + 2 * depth), force_terminal=stdout.is_terminal)
    wide.print(_rich_rows_table(result))
    stdout.print(f"|ni| = {c['ni']}  |ns| = {c['ns']}  |equal| = {c['equal']}  |nonsep| = {c['nonsep']}")
    verdict = f"significant, favours {st.favours}" if st.significant else "not significant"
    stdout.print(f"two-tailed sign test on |ni| vs |ns|: p = {st.p:.4f} ({verdict} at alpha = {alpha})")
    stdout.print("unjudged documents in the top k (not relevant): "
                 + ", ".join(f"{k} {v}" for k, v in result.unjudged.items()))
    for name, missing in result.missing.items():
        if missing:
            stdout.print(f"topics missing from {name} (empty SERP): {', '.join(missing)}")
    for note in result.notes:
        stdout.print(note)
    if table is not None:
        stdout.print(f"table: {table}")


@ipso_app.command("agreement")
def agreement_cmd(
    runs: list[Path] = typer.Argument(..., help="Two or more TREC run files (plain or .gz)."),
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels file (topic iter docid grade)."),
    depth: int = typer.Option(10, "--depth", help="SERP depth k (>= 1)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Graded view with these gains, e.g. 0,1,2 (default: binary view)."),
    relevance_level: int = typer.Option(1, "--relevance-level", help="Binary view: relevant when grade >= this (also RR/P/AP)."),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level (p < alpha)."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Stacked bars (seed 001 Fig. 7): writes .png and .pdf (a missing folder is created)."),
    table: Optional[Path] = typer.Option(None, "--table", help="Also write the Markdown summary to this file (atomically; a missing folder is created)."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """IPSO sign test vs paired t / Wilcoxon / sign tests of six metrics, all unordered run pairs (seed 001 Fig. 7)."""
    from workbench.cli.main import emit_json, progress_bar, stdout
    from workbench.errors import WorkbenchError
    from workbench.core.files import atomic_write, check_output_path
    from workbench.ipso.agreement import AGREEMENT, AGREEMENT_NAMES, TEST_NAMES, agreement, agreement_figure

    if len(runs) < 2:
        raise WorkbenchError(f"agreement: give at least two runs, got {len(runs)}")
    if not 0 < alpha < 1:
        raise WorkbenchError(f"alpha {alpha}: must be in (0, 1)")
    if figure is not None and figure.suffix.lower() not in (".png", ".pdf"):
        raise WorkbenchError(f"figure {str(figure)!r}: unknown format {figure.suffix!r} (use .png or .pdf)")
    for path, what in ((figure, "--figure"), (table, "--table")):
        if path is not None:
            check_output_path(path, what)
    n_pairs = len(runs) * (len(runs) - 1) // 2
    with progress_bar(total=n_pairs, label="system pairs") as bar:
        def progress(stage: str, done: int, total: int) -> None:
            if stage == "runs":
                bar.phase(f"reading runs {done}/{total}")
            else:
                bar.advance(1, f"pair {done}/{total}")

        result = agreement(runs, qrels, depth, gains, relevance_level, alpha, progress=progress)
        written = agreement_figure(result, figure) if figure is not None else []
    if table is not None:
        atomic_write(table, result.markdown(), "--table")
    if as_json:
        out = result.to_dict()
        out["figure"] = [str(p) for p in written]
        out["table"] = None if table is None else str(table)
        emit_json(out)
        return
    from rich.console import Console
    from rich.table import Table

    tab = Table(title=f"{len(runs)} runs, {n_pairs} unordered pairs, depth {depth}, alpha {alpha}")
    for head in ["Metric", "Test"] + [AGREEMENT_NAMES[c] for c in AGREEMENT] + ["agree %"]:
        tab.add_column(head)
    for (m, t), c in result.summary().items():
        tab.add_row(result.label(m), TEST_NAMES[t], *[str(c[k]) for k in AGREEMENT],
                    f"{100 * (c['both_yes'] + c['both_no']) / n_pairs:.1f}")
    stdout.print(f"{result.view.describe()}; IPSO sign test significant for "
                 f"{sum(p.ipso.significant for p in result.pairs)} of {n_pairs} pairs")
    Console(width=max(stdout.width, 160), force_terminal=stdout.is_terminal).print(tab)
    for note in result.notes:
        stdout.print(note)
    for p in written:
        stdout.print(f"figure: {p}")
    if table is not None:
        stdout.print(f"table: {table}")
