"""The ``workbench atlas`` command: the atlas of measure scales, built-in or for your own measures.

``workbench atlas`` regenerates ``reports/atlas.md`` and ``reports/atlas.json``;
``workbench atlas --measure mine.py:half_life [--measure ...] [--orders rank,dominance]
[--grades 1..2] [--depths 2..6] [-o out.md] [--json]`` puts any measures through
the same atlas.  ``workbench atlas --disagreement`` regenerates the disagreement
atlas (every pair of measures on the binary runs of depth 10):
``reports/disagreement.md``, ``reports/disagreement.json`` and the heatmap
``reports/figures/disagreement-depth10.pdf`` and ``.svg``; with ``--measure``
(repeatable), ``--depth N`` and ``--topic R`` it makes one's own matrix.
Registered on the main app by :mod:`workbench.cli.main`; the
shared helpers (``emit_json``, ``progress_bar``, ``stdout``) come from
:mod:`workbench.cli.common`.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 4-6; docs/reference/cli.md.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar, stdout


DEFAULT_REPORT = Path("reports/atlas.md")
DEFAULT_DISAGREEMENT_REPORT = Path("reports/disagreement.md")
#: The scale atlas' defaults of the options the disagreement atlas does not take.
_SCALE_DEFAULTS = {"orders": "rank,set,dominance,ipso,replacement", "grades": "1..3", "depths": "2..8"}


def register(app: typer.Typer) -> None:
    """Add the ``atlas`` command to ``app``."""
    app.command("atlas")(atlas)


def _check_folder(path: Path) -> None:
    from workbench.errors import WorkbenchError

    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise WorkbenchError(f"output {str(path)!r}: folder {str(parent)!r} does not exist")


def atlas(
    measure: Optional[list[str]] = typer.Option(None, "--measure", help="A measure to put through the atlas (repeatable): a name such as 'RBP(p=0.6)' or path/file.py:function. Default: every built-in measure."),
    orders: str = typer.Option("rank,set,dominance,ipso,replacement", "--orders", help="Comma-separated orders."),
    grades: str = typer.Option("1..3", "--grades", help="Relevant grades c: N or A..B within 1..3."),
    depths: str = typer.Option("2..8", "--depths", help="Depths N: N or A..B (at most 65,536 runs per rank space)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", "--report", help="Markdown report (built-in atlas: default reports/atlas.md; with --measure: default stdout)."),
    json_report: Optional[Path] = typer.Option(None, "--json-report", help="JSON report (built-in atlas: default the Markdown path with .json)."),
    disagreement: bool = typer.Option(False, "--disagreement", help="The disagreement atlas instead: every pair of measures on the binary runs of --depth (discordant pairs, tau-b, minimal witnesses, a heatmap). Default report reports/disagreement.md.", metavar=""),
    depth: Optional[str] = typer.Option(None, "--depth", help="With --disagreement: the depth of the runs (default 10)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="With --disagreement: relevant documents of the topic (default the depth: every binary run)."),
    figures: Optional[Path] = typer.Option(None, "--figures", help="With --disagreement: folder of the heatmap (PDF and SVG; default figures/ beside the report)."),
    as_json: bool = JsonOpt,
) -> None:
    """The atlas of measure scales: verdicts per order, grades and depth, smallest violations, exact thresholds; with --disagreement, every pair of measures against each other."""
    from workbench.api.papers import atlas as build
    from workbench.core.files import atomic_write as write_atomic, companion_path
    from workbench.errors import WorkbenchError

    given = {"orders": orders, "grades": grades, "depths": depths}
    if disagreement:
        for name, value in given.items():
            if value != _SCALE_DEFAULTS[name]:
                flag = "--depth" if name == "depths" else "--measure"
                raise WorkbenchError(f"--{name} {value}: the disagreement atlas compares binary runs of one depth; "
                                     f"it takes {flag}, --depth and --topic")
        _disagreement(measure, depth, topic, output, json_report, figures, as_json)
        return
    for name, value in (("depth", depth), ("topic", topic), ("figures", figures)):
        if value is not None:
            hint = " (the scale atlas takes --depths)" if name == "depth" else ""
            raise WorkbenchError(f"--{name} {value}: applies to atlas --disagreement only{hint}")
    own = bool(measure)
    md_path = output if output is not None else (None if own else DEFAULT_REPORT)
    # the JSON twin of the Markdown report: none beside a device or FIFO (--report /dev/null writes no /dev/null.json)
    js_path = json_report if json_report is not None else (None if own else companion_path(md_path, ".json"))
    for path in (md_path, js_path):
        if path is not None:
            _check_folder(path)
    with progress_bar(label="atlas", lazy=True) as bar:
        result = build(list(measure) if own else None, orders=orders, grades=grades, depths=depths, progress=bar)
    text = result.markdown()
    if md_path is not None:
        write_atomic(md_path, text)
    if js_path is not None:
        write_atomic(js_path, result.json_text())
    if as_json:
        out = result.to_json()
        if not own:  # the full atlas is in the JSON report: print where it went and a summary
            out = {key: out[key] for key in ("measures", "orders", "grades", "depths")}
            out |= result.summary() | {"report": str(md_path), "json_report": str(js_path)}
        emit_json(out)
        return
    if own and md_path is None:
        stdout.print(text, markup=False, highlight=False, soft_wrap=True, end="")
        return
    s = result.summary()
    written = " and ".join(str(p) for p in (md_path, js_path) if p is not None)
    stdout.print(f"{s['cells']} verdicts ({', '.join(f'{k} {v}' for k, v in s['verdicts'].items())}); "
                 f"{s['threshold_rows']} threshold rows ({s['capped']} capped); wrote {written}",
                 markup=False, highlight=False, soft_wrap=True)


def _disagreement(measure, depth, topic, output, json_report, figures, as_json) -> None:
    """``atlas --disagreement``: one API call, the report, its JSON twin and the heatmap written, a summary printed."""
    import os

    from workbench.api.papers import disagreement_atlas
    from workbench.core.files import atomic_write as write_atomic, check_output_path, companion_path

    own = bool(measure)
    md_path = output if output is not None else (None if own else DEFAULT_DISAGREEMENT_REPORT)
    js_path = json_report if json_report is not None else (None if md_path is None else companion_path(md_path, ".json"))
    for path in (md_path, js_path):
        if path is not None:
            _check_folder(path)
    if figures is None and md_path is not None and js_path is not None:   # a regular report: figures/ beside it
        figures = (md_path.parent if str(md_path.parent) else Path(".")) / "figures"
    with progress_bar(label="disagreement atlas", lazy=True) as bar:
        # the names and the space are checked before the figure paths: a bad measure is named first
        result = disagreement_atlas(list(measure) if own else None, depth=10 if depth is None else depth,
                                    topic=topic, progress=bar)
    fig_paths = [] if figures is None else [figures / result.figure_name(s) for s in (".pdf", ".svg")]
    for path in fig_paths:
        check_output_path(path, "figure")
    link = None
    if md_path is not None and fig_paths:
        base = md_path.parent if str(md_path.parent) else Path(".")
        link = Path(os.path.relpath(fig_paths[1], base)).as_posix()
    text = result.markdown(link)
    for path in fig_paths:
        result.save_figure(path)
    if js_path is not None:
        write_atomic(js_path, result.json_text())
    if md_path is not None:
        write_atomic(md_path, text)
    written = [str(p) for p in (md_path, js_path, *fig_paths) if p is not None]
    if as_json:
        emit_json(result.to_json() | {"report": None if md_path is None else str(md_path),
                                      "json_report": None if js_path is None else str(js_path),
                                      "figures": [str(p) for p in fig_paths]})
        return
    if md_path is None:
        stdout.print(text, markup=False, highlight=False, soft_wrap=True, end="")
        return
    worst = max(result.cells, key=lambda c: c.counts.discordant)   # the first of the most discordant
    stdout.print(f"{len(result.cells)} pairs of {len(result.measures)} measures over {result.runs:,} runs "
                 f"({result.pairs:,} pairs of runs); most discordant: {worst.m1} vs {worst.m2}, "
                 f"{worst.counts.discordant:,} pairs ({float(worst.discordant_fraction) * 100:.2f}%); "
                 f"wrote {', '.join(written)}", markup=False, highlight=False, soft_wrap=True)
