"""``workbench experiment significance``: significantly different system pairs per measure.

Tukey HSD after Kruskal-Wallis and after ANOVA
(:mod:`workbench.experiments.significance`), optionally on each measure's
interval transformation, plus the tables.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020 (seed 000), Tables 3-4.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import (
    ScorePrecisionOpt,
    CutDepthOpt, FormatOpt, JsonOpt, MeasuresOpt, OutputOpt, QrelsArg, RunsArg, SkipOpt, StudyGainsOpt, ViewOpt,
    canonical_name, caption, check_range, csv_table, emit_table, fmt_number, markdown_table, matrix_notes,
    measure_names, prepare_study, progress_bar, scorer, study_setting, with_notes,
)


def register(app: typer.Typer) -> None:
    """Add ``significance`` to ``app``."""
    app.command("significance")(significance_cmd)


def _transform(m, transform_depth: Optional[int]):
    """The interval transformation ``rank[M]@N`` of ``m``; None for ir_measures floats and ranked measures.

    ``N`` is ``--transform-depth`` when given, else the depth of the scored
    rankings; a space too large to enumerate is one CLI line naming the
    largest ``--transform-depth`` that fits.
    """
    from workbench.errors import WorkbenchError
    from workbench.experiments.ranked import ranked_version

    if not m.exact or m.spec is None:
        return None
    try:
        return ranked_version(m, transform_depth, hint="give --transform-depth ")
    except WorkbenchError as e:
        raise type(e)(f"--transform: {e}") from None


def _comparisons(m, alpha: float):
    from workbench.errors import WorkbenchError
    from workbench.experiments.significance import anova_tukey, kruskal_tukey

    try:
        return kruskal_tukey(m.floats, m.systems, alpha), anova_tukey(m.floats, m.systems, alpha)
    except WorkbenchError as e:
        raise type(e)(f"{m.measure}: {e}") from None


def _find(name: str, names: list[str]) -> int:
    """Index in ``names`` of measure ``name``, as typed or by canonical name (``RBP(p=0.8)`` is ``RBP(p=0.8)``)."""
    from workbench.errors import WorkbenchError

    canon = [canonical_name(n) for n in names]
    for k, n in enumerate(names):
        if name == n or _canonical_or_none(name) == canon[k]:
            return k
    raise WorkbenchError(f"--compare: measure {name!r} is not among --measures ({', '.join(names)})")


def _canonical_or_none(name: str) -> Optional[str]:
    from workbench.errors import WorkbenchError

    try:
        return canonical_name(name)
    except WorkbenchError:
        return None


def _mc(mc) -> dict:
    return {"significant": mc.significant, "pairs": mc.total, "ratio": mc.ratio,
            "omnibus_statistic": mc.omnibus_statistic, "omnibus_p": mc.omnibus_p}


SIG_HEAD = ["measure", "pairs", "kw_significant", "kw_ratio", "anova_significant", "anova_ratio"]
SIG_T_HEAD = ["transformed", "t_kw_significant", "t_kw_ratio", "t_anova_significant", "t_anova_ratio",
              "kw_changes", "anova_changes"]
CHANGE_HEAD = ["measure_a", "measure_b", "test", "system_a", "system_b", "kind", "p_first", "p_second"]


def significance_cmd(
    qrels: Path = QrelsArg,
    runs: list[Path] = RunsArg,
    measures: str = MeasuresOpt,
    view: str = ViewOpt,
    depth: Optional[int] = CutDepthOpt,
    gains: Optional[str] = StudyGainsOpt,
    skip_missing: bool = SkipOpt,
    score_precision: str = ScorePrecisionOpt,
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level of the HSD decisions, in (0, 1)."),
    compare: Optional[list[str]] = typer.Option(
        None, "--compare", help="A,B: list the system pairs measures A and B decide differently (repeatable)."),
    transform: bool = typer.Option(
        False, "--transform", help="Add each measure's interval transformation and the decisions it changes."),
    transform_depth: Optional[int] = typer.Option(
        None, "--transform-depth",
        help="Depth N of the transformation rank[M]@N (default: the rankings' depth; needed when that space is too large)."),
    fmt: Optional[str] = FormatOpt,
    output: Optional[Path] = OutputOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Significantly different system pairs per measure: Tukey HSD after Kruskal-Wallis and after ANOVA (seed 000 Tables 3-4).

    CSV: the counts table; with --compare, a blank line and then the table of pairs decided differently.
    LaTeX: the same tables; in the pairs table a dagger marks each p-value below alpha.
    """
    from workbench.errors import WorkbenchError
    from workbench.experiments.significance import decision_changes, format_count

    check_range("--alpha", alpha, 0, 1, open_interval=True)
    if transform_depth is not None:
        check_range("--transform-depth", transform_depth, 1)
    pairs = [measure_names(text) for text in compare or []]
    for text, ab in zip(compare or [], pairs):
        if len(ab) != 2:
            raise WorkbenchError(f"--compare {text!r}: give two measures A,B")
    names, q, r, fmt, output, _ = prepare_study(qrels, runs, measures, view, depth, gains, skip_missing, fmt, output,
                                                as_json=as_json, score_precision=score_precision)
    idx = [(_find(a, names), _find(b, names)) for a, b in pairs]
    rows = []
    with progress_bar(label="significance") as bar:
        matrices = scorer(view, depth, gains, skip_missing, bar)(q, r, names)
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
    s, notes = study_setting(matrices, view, depth), matrix_notes(matrices)

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
            md_rows[-1] += ["n/a (ranked already)" if row["m"].exact else "n/a (ir_measures)", "-", "-", "-", "-"]

    head = ["Measure", "Kruskal-Wallis + HSD", "ANOVA + HSD"]
    head += ["Interval version", "KW + HSD", "ANOVA + HSD", "KW changes", "ANOVA changes"] if transform else []
    cap = caption(f"System pairs significantly different at alpha = {alpha:g}", s)

    def tables():
        from workbench.core.table import Cell, Table

        # distinct names for the interval version's columns (a JSON row is an object)
        named = head[:3] + [f"{h} (interval)" if h in head[:3] else h for h in head[3:]]
        out = [Table(named, [[Cell(v, str(v)) if isinstance(v, str) else v for v in row] for row in md_rows],
                     caption=cap, notes=notes if not pairs else ())]
        if pairs:
            def p_cell(p):
                return Cell(p, fmt_number(p, ".4g"), ("dagger",) if p is not None and p < alpha else ())

            out.append(Table(CHANGE_HEAD, [[p_cell(c[k]) if k.startswith("p_") else c[k] for k in CHANGE_HEAD]
                                           for c in changes],
                             caption="System pairs decided differently (kind: significant only under the first / "
                                     "second measure, or under both in opposite directions)",
                             legend={"dagger": f"p < alpha = {alpha:g}"}, notes=notes))
        return out

    def md():
        text = cap + "\n\n"
        text += markdown_table(head, md_rows)
        if pairs:
            text += ("\nSystem pairs decided differently (kind: significant only under the first / second "
                     "measure, or under both in opposite directions)\n\n")
            text += markdown_table(CHANGE_HEAD, [[fmt_number(c[k], ".4g") if k.startswith("p_") else c[k] for k in CHANGE_HEAD]
                                            for c in changes]) if changes else "none\n"
        return with_notes(text, notes)

    def csv_text():
        text = csv_table(SIG_HEAD + (SIG_T_HEAD if transform else []), table)
        return text + ("\n" + csv_table(CHANGE_HEAD, [[c[k] for k in CHANGE_HEAD] for c in changes]) if pairs else "")

    def row_json(row):
        d = {"measure": row["m"].measure, "topics": len(row["m"].topics), "kruskal_wallis_hsd": _mc(row["kw"]),
             "anova_hsd": _mc(row["an"])}
        if transform:
            t = row["t"]
            d["transformed"] = t and {"measure": t.measure, "topics": len(t.topics),
                                      "kruskal_wallis_hsd": _mc(row["tkw"]), "anova_hsd": _mc(row["tan"]),
                                      "kruskal_wallis_changes": row["ckw"].count, "anova_changes": row["can"].count}
        return d

    obj = {"study": "significance", **s, "alpha": alpha, "rows": [row_json(row) for row in rows],
           "compare": [{"measure_a": rows[i]["m"].measure, "measure_b": rows[j]["m"].measure} for i, j in idx],
           "changes": changes, "notes": notes}
    emit_table(fmt, output, md, csv_text, obj, tables=tables)
