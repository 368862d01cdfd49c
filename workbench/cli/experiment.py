"""The ``workbench experiment`` subcommands (issue 7): one library call plus formatting each.

Registered on the main app in :mod:`workbench.cli.main` as ``workbench experiment ...``;
the shared helpers (``emit_json``, ``progress_bar``) come from there.

Every study takes a qrels file and run files (plain or gzip), a comma-separated
``--measures`` list (parenthesised parameters may hold commas:
``RBP(p=0.8),DCG(discount=logb,b=2)``; names the workbench does not know go
to ir_measures, ``ir:`` forces it), the qrels view (``--view``), the run-length
cut (``--depth``) and ``--skip-missing`` (ignore run topics absent from the
qrels).  Tables come out as Markdown (default), CSV or JSON (``--format``),
printed on stdout or written atomically to ``-o FILE``; figures are PNG or PDF
by suffix; a missing output folder is created; progress bars go to stderr;
random draws are fixed by ``--seed``.  Every study compares systems, so it
needs at least two run files.  Bad input (a malformed line, an unknown
measure, a bad option value, one run, an output path under a file) is one
line on stderr and exit status 2, and nothing is written.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020 (seed 000), sec. 5, Tables 1-4, Fig. 1-2;
Ferro et al., JASIST 2016 (seed 002), Fig. 13-14; Sakai, SIGIR 2006.
"""
from __future__ import annotations

import csv
import io
import json
import math
import sys
from pathlib import Path
from typing import Optional

import numpy as np
import typer

from workbench.errors import WorkbenchError

experiment_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Studies on TREC runs (issue 7): correlation, significance, downsampling, discrimination, study.",
)

FORMATS = ("md", "csv", "json")

QrelsArg = typer.Argument(..., help="TREC qrels file (topic iter docid grade), plain or gzip.")
RunsArg = typer.Argument(..., help="Two or more TREC run files (topic Q0 docid rank score tag), plain or gzip.")
MeasuresOpt = typer.Option(..., "--measures", help="Comma-separated measures, e.g. 'AP,RBP(p=0.8),nDCG@10,ir:Bpref'.")
ViewOpt = typer.Option("graded", "--view", help="graded (grades as judged) or binary (lenient: grade >= 1 relevant).")
DepthOpt = typer.Option(None, "--depth", help="Cut every ranking to this many documents (seed 000: 250; default: no cut).")
GainsOpt = typer.Option(None, "--gains", help="Gains of the grades, e.g. 0,1,2 (default g(j) = j).")
SkipOpt = typer.Option(False, "--skip-missing", help="Ignore run topics absent from the qrels (default: error).")
FormatOpt = typer.Option("md", "--format", help="Table format: md, csv or json.")
OutputOpt = typer.Option(None, "-o", "--output", help="Write the table to FILE (atomically; a missing folder is created) instead of stdout.")
SeedOpt = typer.Option(0, "--seed", help="Seed of the random draws (>= 0); same seed, same output.")


# ---------------------------------------------------------------- checks and parsing
def _check_format(fmt: str) -> str:
    """The table format, or a one-line error naming it.

    >>> _check_format("CSV")
    'csv'
    >>> _check_format("xml")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: --format 'xml': use md, csv or json
    """
    f = fmt.strip().lower()
    if f not in FORMATS:
        raise WorkbenchError(f"--format {fmt!r}: use {', '.join(FORMATS[:-1])} or {FORMATS[-1]}")
    return f


def _check_range(name: str, value, low, high=None, open_interval: bool = False):
    """``value`` if ``low <= value (<= high)`` (strictly inside with ``open_interval``), else a one-line error."""
    bad = not (low < value < high) if open_interval else not (value >= low and (high is None or value <= high))
    if bad:
        where = f"in ({low}, {high})" if open_interval else (f"in {low}..{high}" if high is not None else f">= {low}")
        raise WorkbenchError(f"{name} {value!r}: must be {where}")
    return value


def _ints(text: str, name: str) -> list[int]:
    """Comma-separated integers, or a one-line error naming the bad item.

    >>> _ints("90, 50,5", "--fractions")
    [90, 50, 5]
    >>> _ints("90,half", "--fractions")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: --fractions: 'half' is not an integer (in '90,half')
    """
    out = []
    for item in (x.strip() for x in text.split(",")):
        try:
            out.append(int(item))
        except ValueError:
            raise WorkbenchError(f"{name}: {item!r} is not an integer (in {text!r})") from None
    return out


def _measure_names(text: str) -> list[str]:
    from workbench.ipso.freedom import split_measures

    return split_measures(text)


def _canonical(name: str) -> str:
    """The matrix name :func:`workbench.data.score_matrix.score_matrices` gives measure ``name``."""
    from workbench.data.score_matrix import resolve_measure

    src, m = resolve_measure(name)
    return str(m) if src == "workbench" else f"ir:{m}"


# ---------------------------------------------------------------- reading and scoring
def _load(qrels: Path, runs: list[Path]):
    """``(qrels dict, runs dict)`` from the files; an empty qrels file is an error naming it."""
    from workbench.data.score_matrix import load_runs
    from workbench.data.trec import read_qrels

    q = read_qrels(qrels)
    if not q:
        raise WorkbenchError(f"{qrels}: empty qrels (no line 'topic iter docid grade')")
    return q, load_runs(runs)


def _scorer(view: str, depth: Optional[int], gains: Optional[str], skip_missing: bool, bar=None):
    """``score(qrels, runs, measures)`` with the command's view, depth, gains and missing-topic rule."""
    from workbench.errors import MissingTopicError
    from workbench.data.score_matrix import score_matrices

    def progress(stage: str, done: int, total: int) -> None:
        bar.phase(f"scoring {stage} {done}/{total}")

    def score(q, r, measures):
        try:
            return score_matrices(q, r, list(measures), view, depth, progress if bar else None,
                                  gains=gains, skip_missing=skip_missing)
        except MissingTopicError as e:
            raise MissingTopicError(f"{e} (--skip-missing ignores such topics)") from None

    return score


def _prepare(qrels, runs, measures, view, depth, gains, skip_missing, fmt, output, figure=None, least=1):
    """Validate the common options and read the files: ``(names, qrels dict, runs dict, fmt, output, figure)``."""
    from workbench.core.files import check_output_path
    from workbench.data.score_matrix import VIEWS
    from workbench.core.plotting import check_figure_path

    if len(runs) < 2:
        raise WorkbenchError(f"one run file ({runs[0]}): the studies compare systems, give at least two run files"
                             if runs else "give at least two run files")
    fmt = _check_format(fmt)
    output = None if output is None else check_output_path(output)
    figure = None if figure is None else check_figure_path(figure)
    if view not in VIEWS:
        raise WorkbenchError(f"--view {view!r}: use {' or '.join(VIEWS)}")
    if depth is not None:
        _check_range("--depth", depth, 1)
    names = _measure_names(measures)
    if len(names) < least:
        raise WorkbenchError(f"--measures {measures!r}: give at least {least} measures")
    for n in names:
        _canonical(n)                       # unknown measures fail before the files are read
    q, r = _load(qrels, runs)
    return names, q, r, fmt, output, figure


def _notes(matrices) -> list[str]:
    """Missing and skipped topics (once) and each matrix's dropped topics."""
    out = list(matrices[0].notes) if matrices else []
    for m in matrices:
        if m.dropped:
            out.append(f"{m.measure}: undefined on {len(m.dropped)} topic(s) "
                       f"({', '.join(t for t, _ in m.dropped[:5])}{' ...' if len(m.dropped) > 5 else ''}): left out")
    return out


def _setting(matrices, view: str, depth: Optional[int]) -> dict:
    j = matrices[0].judged
    return {"view": view, "depth": depth, "topics": len(j.topics), "systems": list(j.systems)}


def _caption(title: str, s: dict) -> str:
    cut = "uncut" if s["depth"] is None else f"cut at {s['depth']}"
    return f"{title} ({s['view']} view, rankings {cut}; {s['topics']} topics, {len(s['systems'])} systems)"


# ---------------------------------------------------------------- output
def _clean(obj):
    """``obj`` with numpy scalars as Python numbers and non-finite floats as None (valid JSON).

    >>> _clean({"a": float("nan"), "b": [np.float64(0.5), np.int64(2)], "c": (1, float("inf"))})
    {'a': None, 'b': [0.5, 2], 'c': [1, None]}
    """
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [_clean(v) for v in obj.tolist()]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None
    return obj


def _markdown(header, rows) -> str:
    """A Markdown table.

    >>> print(_markdown(["a", "b"], [[1, "x"]]), end="")
    | a | b |
    | --- | --- |
    | 1 | x |
    """
    lines = ["| " + " | ".join(str(h) for h in header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _csv(header, rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows([["" if c is None else c for c in row] for row in rows])
    return buf.getvalue()


def _fmt(v, spec: str = ".4f") -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def _with_notes(md: str, notes: list[str]) -> str:
    return md + ("\n" + "".join(f"- {n}\n" for n in notes) if notes else "")


def _emit(fmt: str, output: Optional[Path], md, csv_text, obj: dict, figure: Optional[Path] = None) -> None:
    """Print the table (or write it atomically to ``output``); files written are named on stderr."""
    from workbench.cli.main import emit_json

    if figure is not None:
        obj = {**obj, "figure": str(figure)}
    if output is None:
        if fmt == "json":
            emit_json(_clean(obj))
        else:
            sys.stdout.write(md() if fmt == "md" else csv_text())
    else:
        from workbench.core.files import atomic_write

        text = {"md": md, "csv": csv_text}.get(fmt)
        atomic_write(output, text() if text else json.dumps(_clean(obj), indent=2) + "\n")
        sys.stderr.write(f"table: {output}\n")
    if figure is not None:
        sys.stderr.write(f"figure: {figure}\n")


# ---------------------------------------------------------------- correlation
@experiment_app.command("correlation")
def correlation_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = DepthOpt,
    gains: Optional[str] = GainsOpt,
    skip_missing: bool = SkipOpt,
    per_topic: bool = typer.Option(False, "--per-topic", help="JSON: also every topic's tau-b and pair counts."),
    fmt: str = FormatOpt,
    output: Optional[Path] = OutputOpt,
) -> None:
    """Overall and topic-by-topic Kendall tau-b of every pair of measures (seed 000 Tables 1-2)."""
    from workbench.cli.main import progress_bar
    from workbench.experiments.correlation import correlation_table

    names, q, r, fmt, output, _ = _prepare(qrels, runs, measures, view, depth, gains, skip_missing, fmt, output,
                                           least=2)
    with progress_bar(label="correlation") as bar:
        matrices = _scorer(view, depth, gains, skip_missing, bar)(q, r, names)
        bar.phase("Kendall tau")
        table = correlation_table(matrices)
    s, notes = _setting(matrices, view, depth), _notes(matrices)
    _emit(fmt, output,
          lambda: _with_notes(_caption("Kendall's tau-b", s) + "\n\n" + table.markdown(), notes),
          table.csv, {"study": "correlation", **s, **table.to_dict(per_topic), "notes": notes})


# ---------------------------------------------------------------- significance
def _transform(m, transform_depth: Optional[int]):
    """The interval transformation of ``m`` (None for ir_measures floats); space limits as one CLI line."""
    from workbench.errors import SpaceTooLargeError

    if not m.exact:
        return None
    try:
        try:
            return m.transformed()
        except SpaceTooLargeError:
            if transform_depth is None:
                raise
            return m.transformed(depth=transform_depth)
    except SpaceTooLargeError as e:
        msg = str(e).replace("pass depth=", "give --transform-depth ").replace(" (or raise max_space)", "")
        raise WorkbenchError(f"--transform {m.measure}: {msg}") from None


def _comparisons(m, alpha: float):
    from workbench.experiments.significance import anova_tukey, kruskal_tukey

    try:
        return kruskal_tukey(m.floats, m.systems, alpha), anova_tukey(m.floats, m.systems, alpha)
    except WorkbenchError as e:
        raise type(e)(f"{m.measure}: {e}") from None


def _find(name: str, names: list[str]) -> int:
    """Index in ``names`` of measure ``name``, as typed or by canonical name (``RBP(p=0.8)`` is ``RBP(p=4/5)``)."""
    canon = [_canonical(n) for n in names]
    for k, n in enumerate(names):
        if name == n or _canonical_or_none(name) == canon[k]:
            return k
    raise WorkbenchError(f"--compare: measure {name!r} is not among --measures ({', '.join(names)})")


def _canonical_or_none(name: str) -> Optional[str]:
    try:
        return _canonical(name)
    except WorkbenchError:
        return None


def _mc(mc) -> dict:
    return {"significant": mc.significant, "pairs": mc.total, "ratio": mc.ratio,
            "omnibus_statistic": mc.omnibus_statistic, "omnibus_p": mc.omnibus_p}


SIG_HEAD = ["measure", "pairs", "kw_significant", "kw_ratio", "anova_significant", "anova_ratio"]
SIG_T_HEAD = ["transformed", "t_kw_significant", "t_kw_ratio", "t_anova_significant", "t_anova_ratio",
              "kw_changes", "anova_changes"]
CHANGE_HEAD = ["measure_a", "measure_b", "test", "system_a", "system_b", "kind", "p_first", "p_second"]


@experiment_app.command("significance")
def significance_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = DepthOpt,
    gains: Optional[str] = GainsOpt,
    skip_missing: bool = SkipOpt,
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level of the HSD decisions, in (0, 1)."),
    compare: Optional[list[str]] = typer.Option(
        None, "--compare", help="A,B: list the system pairs measures A and B decide differently (repeatable)."),
    transform: bool = typer.Option(
        False, "--transform", help="Add each measure's interval transformation and the decisions it changes."),
    transform_depth: Optional[int] = typer.Option(
        None, "--transform-depth", help="Transformation depth for measures whose full-depth space is too large."),
    fmt: str = FormatOpt,
    output: Optional[Path] = OutputOpt,
) -> None:
    """Significantly different system pairs per measure: Tukey HSD after Kruskal-Wallis and after ANOVA (seed 000 Tables 3-4).

    CSV: the counts table; with --compare, a blank line and then the table of pairs decided differently.
    """
    from workbench.cli.main import progress_bar
    from workbench.experiments.significance import decision_changes, format_count

    _check_range("--alpha", alpha, 0, 1, open_interval=True)
    if transform_depth is not None:
        _check_range("--transform-depth", transform_depth, 1)
    pairs = [_measure_names(text) for text in compare or []]
    for text, ab in zip(compare or [], pairs):
        if len(ab) != 2:
            raise WorkbenchError(f"--compare {text!r}: give two measures A,B")
    names, q, r, fmt, output, _ = _prepare(qrels, runs, measures, view, depth, gains, skip_missing, fmt, output)
    idx = [(_find(a, names), _find(b, names)) for a, b in pairs]
    rows = []
    with progress_bar(label="significance") as bar:
        matrices = _scorer(view, depth, gains, skip_missing, bar)(q, r, names)
        for m in matrices:
            bar.phase(f"Tukey HSD {m.measure}")
            row = dict(zip(("kw", "an"), _comparisons(m, alpha)), m=m, t=None)
            if transform:
                bar.phase(f"interval transformation {m.measure}")
            if transform and (tm := _transform(m, transform_depth)) is not None:
                row.update(zip(("tkw", "tan"), _comparisons(tm, alpha)), t=tm)
                row.update(ckw=decision_changes(row["kw"], row["tkw"]), can=decision_changes(row["an"], row["tan"]))
            rows.append(row)
    changes = [{"measure_a": rows[i]["m"].measure, "measure_b": rows[j]["m"].measure, "test": test,
                "system_a": c.a, "system_b": c.b, "kind": c.kind, "p_first": c.first.p_value,
                "p_second": c.second.p_value, "diff_first": c.first.diff, "diff_second": c.second.diff}
               for i, j in idx for key, test in (("kw", "kruskal-wallis+hsd"), ("an", "anova+hsd"))
               for c in decision_changes(rows[i][key], rows[j][key]).changes]
    s, notes = _setting(matrices, view, depth), _notes(matrices)

    def counts(a, b):
        return [a.significant, a.ratio, b.significant, b.ratio]

    table, md_rows = [], []
    for row in rows:
        kw, an, t = row["kw"], row["an"], row["t"]
        table.append([row["m"].measure, kw.total, *counts(kw, an)])
        md_rows.append([row["m"].measure, format_count(kw), format_count(an)])
        if transform and t is not None:
            table[-1] += [t.measure, *counts(row["tkw"], row["tan"]), row["ckw"].count, row["can"].count]
            md_rows[-1] += [t.measure, format_count(row["tkw"]), format_count(row["tan"]), row["ckw"].count,
                            row["can"].count]
        elif transform:
            table[-1] += [None] * len(SIG_T_HEAD)
            md_rows[-1] += ["n/a (ir_measures)", "-", "-", "-", "-"]

    def md():
        head = ["Measure", "Kruskal-Wallis + HSD", "ANOVA + HSD"]
        head += ["Interval version", "KW + HSD", "ANOVA + HSD", "KW changes", "ANOVA changes"] if transform else []
        text = _caption(f"System pairs significantly different at alpha = {alpha:g}", s) + "\n\n"
        text += _markdown(head, md_rows)
        if pairs:
            text += ("\nSystem pairs decided differently (kind: significant only under the first / second "
                     "measure, or under both in opposite directions)\n\n")
            text += _markdown(CHANGE_HEAD, [[_fmt(c[k], ".4g") if k.startswith("p_") else c[k] for k in CHANGE_HEAD]
                                            for c in changes]) if changes else "none\n"
        return _with_notes(text, notes)

    def csv_text():
        text = _csv(SIG_HEAD + (SIG_T_HEAD if transform else []), table)
        return text + ("\n" + _csv(CHANGE_HEAD, [[c[k] for k in CHANGE_HEAD] for c in changes]) if pairs else "")

    def as_json(row):
        d = {"measure": row["m"].measure, "topics": len(row["m"].topics), "kruskal_wallis_hsd": _mc(row["kw"]),
             "anova_hsd": _mc(row["an"])}
        if transform:
            t = row["t"]
            d["transformed"] = t and {"measure": t.measure, "topics": len(t.topics),
                                      "kruskal_wallis_hsd": _mc(row["tkw"]), "anova_hsd": _mc(row["tan"]),
                                      "kruskal_wallis_changes": row["ckw"].count, "anova_changes": row["can"].count}
        return d

    obj = {"study": "significance", **s, "alpha": alpha, "rows": [as_json(row) for row in rows],
           "compare": [{"measure_a": rows[i]["m"].measure, "measure_b": rows[j]["m"].measure} for i, j in idx],
           "changes": changes, "notes": notes}
    _emit(fmt, output, md, csv_text, obj)


# ---------------------------------------------------------------- downsampling
@experiment_app.command("downsampling")
def downsampling_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = DepthOpt,
    gains: Optional[str] = GainsOpt,
    skip_missing: bool = SkipOpt,
    strategies: str = typer.Option("stratified,uniform", "--strategies", help="Comma-separated: stratified, uniform."),
    fractions: str = typer.Option("90,70,50,30,10,5", "--fractions", help="Pool percentages (1..100), comma-separated."),
    repetitions: int = typer.Option(5, "--repetitions", help="Seeded repetitions of every sample (>= 1)."),
    seed: int = SeedOpt,
    figure: Optional[Path] = typer.Option(None, "--figure", help="Draw the curves: FIG.png or FIG.pdf."),
    fmt: str = FormatOpt,
    output: Optional[Path] = OutputOpt,
) -> None:
    """Self Kendall tau of each measure between the full pool and nested random samples of it (seed 000 Fig. 1-2)."""
    from dataclasses import replace

    from workbench.cli.main import progress_bar
    from workbench.experiments.downsampling import curve_figure, self_tau_curves

    fr = _ints(fractions, "--fractions")
    st = [x.strip() for x in strategies.split(",") if x.strip()]
    _check_range("--repetitions", repetitions, 1)
    _check_range("--seed", seed, 0)
    names, q, r, fmt, output, figure = _prepare(qrels, runs, measures, view, depth, gains, skip_missing, fmt,
                                                output, figure)
    label = {n: _canonical(n) for n in names}
    total = len(st) * repetitions * len(fr)
    with progress_bar(total=total, label="downsampling") as bar:
        from workbench.experiments.correlation import overall_tau

        result = self_tau_curves(q, r, names, score=_scorer(view, depth, gains, skip_missing),
                                 tau=lambda a, b: float(overall_tau(a, b)), fractions=fr, strategies=st,
                                 repetitions=repetitions, seed=seed,
                                 progress=lambda stage, done, tot: bar.advance(1, stage))
        result = replace(result, measures=tuple(label[m] for m in result.measures),
                         cells=tuple(replace(c, measure=label[c.measure]) for c in result.cells))
        if figure is not None:
            bar.phase("figure")
            curve_figure(result, figure)
    rows = result.to_rows()
    s = {"view": view, "depth": depth, "topics": len({t for t in q if any(g >= 1 for g in q[t].values())}),
         "systems": list(r)}
    head = list(rows[0])

    def md():
        body = [[m, strat] + [f"{_fmt(c.mean)} ± {_fmt(c.sd)}" for c in
                              (result.cell(m, strat, p) for p in result.fractions)]
                for m in result.measures for strat in result.strategies]
        cap = _caption(f"Self Kendall's tau-b, mean ± sd over {repetitions} repetition(s), seed {seed}", s)
        return cap + "\n\n" + _markdown(["Measure", "Sampling"] + [f"{p}%" for p in result.fractions], body)

    obj = {"study": "downsampling", **s, "strategies": list(result.strategies), "fractions": list(result.fractions),
           "repetitions": repetitions, "seed": seed, "rows": rows}
    _emit(fmt, output, md, lambda: _csv(head, [[row.get(k) for k in head] for row in rows]), obj, figure)


# ---------------------------------------------------------------- discrimination
@experiment_app.command("discrimination")
def discrimination_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = DepthOpt,
    gains: Optional[str] = GainsOpt,
    skip_missing: bool = SkipOpt,
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap samples B (>= 1; Sakai: 1000)."),
    seed: int = SeedOpt,
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level, in (0, 1)."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Draw the ASL curves: FIG.png or FIG.pdf."),
    fmt: str = FormatOpt,
    output: Optional[Path] = OutputOpt,
) -> None:
    """Sakai's paired bootstrap over all system pairs: ASL curves, discriminative power, minimum delta (seed 002 Fig. 14)."""
    from workbench.cli.main import progress_bar
    from workbench.experiments.discrimination import asl_curve_figure, discrimination_rows, paired_bootstrap

    _check_range("--bootstrap", bootstrap, 1)
    _check_range("--seed", seed, 0)
    _check_range("--alpha", alpha, 0, 1, open_interval=True)
    names, q, r, fmt, output, figure = _prepare(qrels, runs, measures, view, depth, gains, skip_missing, fmt,
                                                output, figure)
    with progress_bar(label="discrimination") as bar:
        matrices = _scorer(view, depth, gains, skip_missing, bar)(q, r, names)
        results = []
        for m in matrices:
            bar.phase(f"bootstrap {m.measure}")
            try:
                results.append(paired_bootstrap(m.floats, m.systems, m.measure, alpha=alpha, B=bootstrap, seed=seed))
            except WorkbenchError as e:
                raise type(e)(f"{m.measure}: {e}") from None
        if figure is not None:
            bar.phase("figure")
            asl_curve_figure(results, figure)
    s, notes = _setting(matrices, view, depth), _notes(matrices)
    head = ["measure", "significant", "pairs", "power", "min_delta", "alpha", "bootstrap", "seed"]
    table = [[d.measure, d.significant, len(d.pair_asl), d.power, None if math.isnan(d.min_delta) else d.min_delta,
              alpha, bootstrap, seed] for d in results]

    def md():
        cap = _caption(f"Paired bootstrap, B = {bootstrap}, alpha = {alpha:g}, seed {seed}", s)
        return _with_notes(cap + "\n\n" + _markdown(["Measure", "Significant pairs", "Discriminative power",
                                                      "Minimum delta"], discrimination_rows(results)), notes)

    obj = {"study": "discrimination", **s, "alpha": alpha, "bootstrap": bootstrap, "seed": seed,
           "rows": [dict(zip(head, row), asl_curve=d.asl,
                         pair_asl=[{"system_a": a, "system_b": b, "asl": x, "delta": y}
                                   for (a, b), x, y in zip(d.pairs, d.pair_asl, d.pair_delta)])
                    for row, d in zip(table, results)], "notes": notes}
    _emit(fmt, output, md, lambda: _csv(head, table), obj, figure)


# ---------------------------------------------------------------- the Robust 2003 study
@experiment_app.command("study")
def study_cmd(
    data: Optional[Path] = typer.Option(None, "--data", help="Folder with qrels.txt and runs/ (default: <shared data>/robust03)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="Folder to write experiments-robust03.md and its figures into (created if missing)."),
    repetitions: int = typer.Option(5, "--repetitions", help="Seeded repetitions of every pool sample (>= 1)."),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap samples B (>= 1)."),
    seed: int = SeedOpt,
) -> None:
    """The whole Robust 2003 study (seed 000 Tables 1-4, Fig. 1-2; seed 002 Tables 3-4, Fig. 13-14) as one report."""
    from workbench.cli.main import progress_bar
    from workbench.ipso.trec_runs import data_dir

    from workbench.core.files import check_output_path

    check_output_path(reports / "experiments-robust03.md", "--reports")
    data = data_dir() / "robust03" if data is None else data
    if not data.is_dir():
        raise WorkbenchError(f"--data {str(data)!r}: no such folder")
    _check_range("--repetitions", repetitions, 1)
    _check_range("--bootstrap", bootstrap, 1)
    _check_range("--seed", seed, 0)
    from workbench.papers.study import run_study

    with progress_bar(label="Robust 2003 study") as bar:
        def progress(*args) -> None:
            if len(args) == 3:
                bar.phase(f"{args[0]} {args[1]}/{args[2]}")
            else:
                bar.phase(" ".join(str(a) for a in args))

        path = run_study(data=data, out=reports, repetitions=repetitions, bootstrap=bootstrap, seed=seed,
                         progress=progress)
    sys.stdout.write(f"report: {path}\n")
