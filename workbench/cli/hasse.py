"""The ``workbench hasse`` command: a Hasse diagram, its highlights, and its figure.

Registered on the main app by :mod:`workbench.cli.main`; one call of
:func:`workbench.api.figures.hasse` builds the diagram (or counts it, for a
statistics table beyond the diagram's limit) and the command writes it, with
the shared helpers of :mod:`workbench.cli.common`.  Without ``-o`` the text formats (json, dot,
tikz) go to stdout; with ``-o FILE`` any format of
:data:`workbench.figures.hasse_figure.FORMATS` is written to FILE atomically.
``--figure FILE`` additionally writes a figure whose format is given by
FILE's suffix; without ``-o``, ``--format`` or ``--json`` it prints one line
saying what it wrote (the file, its size, runs and covers), not the JSON
diagram.

References
----------
Moffat and Mackenzie, JASIST 2024, Fig. 1; docs/reference/cli.md (``hasse``).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, UnjudgedOpt, emit_json, progress_bar, write_tables

#: ``--format`` values that print the diagram's statistics as a table instead of the diagram.
TABLE_ONLY = ("md", "csv", "latex")


def register(app: typer.Typer) -> None:
    """Add the ``hasse`` command to ``app``."""
    app.command("hasse")(hasse)


def hasse(
    order: str = typer.Option("dominance", "--order", help="rank, set, dominance, ipso, replacement, swap, raise, lexiprecision, lexirecall or rpp."),
    depth: int = typer.Option(3, "--depth", help="Run depth N (>= 1)."),
    grades: Optional[int] = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains/--topic)."),
    gains: Optional[str] = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 or 0,1/2,1 (default g(i) = i)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 3 or 2,1."),
    unjudged: int = UnjudgedOpt,
    fmt: Optional[str] = typer.Option(None, "--format", help="The diagram: dot, svg, pdf, png, tikz or json (default: from the -o suffix, else json); or the table of the diagram's statistics (runs, covers, graded, lattice, width): md, csv or latex (to -o FILE if given)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the diagram to FILE (needed for svg, pdf, png)."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Also draw the diagram to FILE; its suffix picks the format (.pdf .svg .png .dot .tex .json)."),
    highlight: Optional[str] = typer.Option(None, "--highlight", help="Mark these runs, e.g. 100,011."),
    chain_runs: Optional[str] = typer.Option(None, "--chain", help="Mark a chain of runs (sorted upwards in the order), e.g. 000,011,111."),
    nonsep: bool = typer.Option(False, "--nonsep", help="Mark the non-separable (incomparable) pairs of the order."),
    violations: Optional[str] = typer.Option(None, "--violations", help="Mark the covers MEASURE scores lower > upper."),
    ties: bool = typer.Option(False, "--ties", help="With --violations: also mark the covers MEASURE ties (not strict)."),
    witness: Optional[str] = typer.Option(None, "--witness", help="Mark the witness of classify MEASURE on this order."),
    measure: Optional[str] = typer.Option(None, "--measure", help="Draw the weak order MEASURE induces (tied runs merged) instead of the order."),
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none, as a paper's figure has its caption); 'auto' names the order, depth and grades."),
    as_json: bool = JsonOpt,
    workers: Optional[int] = typer.Option(None, "--workers", help="With md, csv or latex beyond the diagram's limit: worker processes counting the covers (default: the machine's cores)."),
) -> None:
    """The Hasse diagram (cover relations) of an order, or of a measure's weak order, with highlights.

    --format picks the diagram's format (dot, svg, pdf, png, tikz, json: json is the --json object) or,
    with md, csv or latex, prints the statistics of the diagram as a table instead of the diagram.
    """
    from workbench.api.figures import hasse as diagram_of
    from workbench.core.table import Table
    from workbench.figures.hasse_figure import render_text, write_figure

    table_fmt, fmt, out_fmt = _formats(fmt, output, figure, as_json)
    with progress_bar(label="hasse", lazy=True) as bar:
        d = diagram_of(order=order, depth=depth, grades=grades, gains=gains, topic=topic, measure=measure,
                       highlight=highlight, chain=chain_runs, nonsep=nonsep, violations=violations, ties=ties,
                       witness=witness, statistics=table_fmt is not None, workers=workers, progress=bar,
                       unjudged=unjudged)
        if hasattr(d, "statistics"):  # a HasseCount: a diagram too large to build, counted in blocks
            caption = f"Hasse diagram of the {d.order} order, depth {d.depth} (counted in blocks of the space)"
            write_tables([Table.key_value(d.statistics, caption=caption)], table_fmt, output)
            return
        label = f"{d.meta['order']} order" if measure is None else f"{d.meta['measure']} weak order"
        if title == "auto":
            title = d.title
        bar.phase("properties")
        js = d.to_json()  # the setting, lattice, width, skipped, then the diagram (nodes, edges, ...)
        keys = list(js)
        head = keys[:keys.index("skipped") + 1]
        meta = {**{k: js[k] for k in head}, "output": None if output is None else str(output),
                "figure": None if figure is None else str(figure)}
        written = []
        for path, path_fmt in ((output, out_fmt), (figure, None)):
            if path is not None and not (path is output and table_fmt):
                bar.phase(f"writing {path}")
                written.append(write_figure(d.graph, path, path_fmt, highlights=d.highlights, title=title, meta=meta))
    for f in written:
        if f.note:
            sys.stderr.write(f"workbench: note: {f.note}\n")
    if as_json:
        emit_json({**meta, **{k: js[k] for k in keys if k not in head}})
    elif table_fmt is not None:
        caption = f"Hasse diagram of the {title or label}" + ("" if title else f", depth {meta['depth']}")
        write_tables([Table.key_value(_statistics(js, meta), caption=caption)], table_fmt, output)
    elif output is None and (figure is None or fmt is not None):
        sys.stdout.write(render_text(d.graph, out_fmt, d.highlights, title, meta))
    else:  # -o FILE, or --figure FILE alone: one line per file written, not the diagram (--json or --format prints it)
        G = d.graph
        nodes = f"{G.number_of_nodes():,} " + ("runs" if measure is None else "classes of tied runs")
        c = meta["grades"]
        what = f"Hasse diagram of the {label}, depth {meta['depth']}, {c} relevant grade{'' if c == 1 else 's'}"
        for f in written:
            sys.stdout.write(f"wrote {f.path} ({f.format}, {f.engine}), {_file_size(f.path)}: "
                             f"{what}: {nodes}, {G.number_of_edges():,} covers\n")


def _formats(fmt: Optional[str], output: Optional[Path], figure: Optional[Path], as_json: bool):
    """``(table format or None, diagram format or None, format of -o or stdout)``, every path checked.

    Every check that needs no computation comes first: bad input fails fast, before any file is touched.
    """
    from workbench.core.files import check_output_path
    from workbench.errors import WorkbenchError
    from workbench.figures.hasse_figure import TEXT_FORMATS, check_format, check_output, format_of

    table_fmt = None
    if fmt is not None and fmt.strip().lower() in TABLE_ONLY:
        table_fmt, fmt = fmt.strip().lower(), None
        if as_json:
            raise WorkbenchError(f"--json with --format {table_fmt}: give one of them")
    if fmt is not None:
        try:
            fmt = check_format(fmt)
        except WorkbenchError:
            raise WorkbenchError(f"--format {fmt!r}: use a diagram format (dot, svg, pdf, png, tikz, json) "
                                 f"or a table format ({', '.join(TABLE_ONLY)})") from None
    if table_fmt is not None:
        out_fmt = None
        if output is not None:
            check_output_path(output)
    elif output is not None:
        out_fmt = format_of(output, fmt)
        check_output(output)
    else:
        out_fmt = fmt or "json"
        if out_fmt not in TEXT_FORMATS:
            raise WorkbenchError(f"format {out_fmt!r} is binary: give -o FILE (stdout takes {', '.join(TEXT_FORMATS)})")
    if figure is not None:
        format_of(figure)
        check_output(figure)
    return table_fmt, fmt, out_fmt


def _statistics(js: dict, meta: dict) -> dict:
    """The row of ``--format md|csv|latex``: the setting, runs, covers, graded, lattice, width."""
    stats = {k: meta[k] for k in ("order", "measure", "depth", "grades")}
    stats.update(gains=",".join(meta["gains"]), topic=None if meta["topic"] is None else ",".join(map(str, meta["topic"])),
                 **({"unjudged": meta["unjudged"]} if meta.get("unjudged") else {}),
                 runs=len(js["nodes"]), covers=len(js["edges"]), graded=js.get("graded"), lattice=meta["lattice"],
                 width=meta["width"])
    return stats


def _file_size(path: Path) -> str:
    """``"12,345 bytes"``: the size of a file just written (``"?"`` when it cannot be read, e.g. /dev/stdout)."""
    try:
        return f"{Path(path).stat().st_size:,} bytes"
    except OSError:
        return "size unknown"
