"""``workbench experiment downsampling``: self Kendall tau between the full pool and nested samples of it.

One call of :func:`workbench.experiments.downsampling.self_tau_curves` plus
the table and the figure.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020 (seed 000), Fig. 1-2.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt,
    CutDepthOpt, FormatOpt, JsonOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SeedOpt, SkipOpt, StudyGainsOpt, ViewOpt,
    canonical_name, caption, check_range, csv_table, emit_table, fmt_number, prepare_study,
    progress_bar, scorer,
)


def register(app: typer.Typer) -> None:
    """Add ``downsampling`` to ``app``."""
    app.command("downsampling")(downsampling_cmd)


def _ints(text: str, name: str) -> list[int]:
    """Comma-separated integers, or a one-line error naming the bad item.

    >>> _ints("90, 50,5", "--fractions")
    [90, 50, 5]
    >>> _ints("90,half", "--fractions")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: --fractions: 'half' is not an integer (in '90,half')
    """
    from workbench.errors import WorkbenchError

    out = []
    for item in (x.strip() for x in text.split(",")):
        try:
            out.append(int(item))
        except ValueError:
            raise WorkbenchError(f"{name}: {item!r} is not an integer (in {text!r})") from None
    return out


def downsampling_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = CutDepthOpt,
    gains: Optional[str] = StudyGainsOpt,
    skip_missing: bool = SkipOpt,
    score_precision: str = ScorePrecisionOpt,
    strategies: str = typer.Option("stratified,uniform", "--strategies", help="Comma-separated: stratified, uniform."),
    fractions: str = typer.Option("90,70,50,30,10,5", "--fractions", help="Pool percentages (1..100), comma-separated."),
    repetitions: int = typer.Option(5, "--repetitions", help="Seeded repetitions of every sample (>= 1)."),
    seed: int = SeedOpt,
    figure: Optional[Path] = typer.Option(None, "--figure", help="Draw the curves: FIG.png or FIG.pdf."),
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none: a paper's figure has its caption)."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Self Kendall tau of each measure between the full pool and nested random samples of it (seed 000 Fig. 1-2)."""
    from dataclasses import replace

    from workbench.experiments.downsampling import curve_figure, self_tau_curves

    fr = _ints(fractions, "--fractions")
    st = [x.strip() for x in strategies.split(",")]
    if "" in st:
        from workbench.errors import WorkbenchError

        raise WorkbenchError(f"--strategies {strategies!r}: name {st.index('') + 1} of {len(st)} is empty "
                             "(a comma at the start or end, or two in a row); remove the extra comma")
    check_range("--repetitions", repetitions, 1)
    check_range("--seed", seed, 0)
    names, q, r, fmt, output, figure = prepare_study(qrels, runs, measures, view, depth, gains, skip_missing, fmt,
                                                output, figure, as_json=as_json, score_precision=score_precision)
    label = {n: canonical_name(n) for n in names}
    total = len(st) * repetitions * len(fr)
    with progress_bar(total=total, label="downsampling") as bar:
        from workbench.experiments.correlation import overall_tau

        result = self_tau_curves(q, r, names, score=scorer(view, depth, gains, skip_missing),
                                 tau=lambda a, b: float(overall_tau(a, b)), fractions=fr, strategies=st,
                                 repetitions=repetitions, seed=seed,
                                 progress=lambda stage, done, tot: bar.advance(1, stage))
        result = replace(result, measures=tuple(label[m] for m in result.measures),
                         cells=tuple(replace(c, measure=label[c.measure]) for c in result.cells))
        if figure is not None:
            bar.phase("figure")
            curve_figure(result, figure, title=title)
    rows = result.to_rows()
    s = {"view": view, "depth": depth, "topics": len({t for t in q if any(g >= 1 for g in q[t].values())}),
         "systems": list(r)}
    head = list(rows[0])

    cap = caption(f"Self Kendall's tau-b, mean ± sd over {repetitions} repetition(s), seed {seed}", s)

    def table():
        from workbench.core.table import Cell, Table

        body = [[m, strat] + [Cell(c.mean, f"{fmt_number(c.mean)} ± {fmt_number(c.sd)}") for c in
                              (result.cell(m, strat, p) for p in result.fractions)]
                for m in result.measures for strat in result.strategies]
        return Table(["Measure", "Sampling"] + [f"{p}%" for p in result.fractions], body, caption=cap, rule="spaced")

    def md():
        return table().to_markdown()

    obj = {"study": "downsampling", **s, "strategies": list(result.strategies), "fractions": list(result.fractions),
           "repetitions": repetitions, "seed": seed, "rows": rows}
    emit_table(fmt, output, md, lambda: csv_table(head, [[row.get(k) for k in head] for row in rows]), obj, figure,
               lambda: [table()])
