"""The ``workbench twist`` commands (seed 002): one library call plus formatting each.

Registered on the main app in :mod:`workbench.cli.main`; the shared helpers
(``setting``, ``emit_json``, ``progress_bar``) come from there.

References
----------
Ferro et al., "The Twist measure for IR evaluation", JASIST 2016 (seed 002).
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    """Add the Twist commands to ``app``."""
    app.command("twist")(twist)
    for command in EXTRA_COMMANDS:
        app.command(command.__name__.replace("_", "-"))(command)


def twist(
    run: str = typer.Argument(..., help="Judged run: digit string (0112) or comma-separated grades."),
    topic: str = typer.Option(..., "--topic", help="Relevant documents per grade, e.g. 3 or 3,2,2 (seed 002's example)."),
    crossing: str = typer.Option("literal", "--crossing", help="literal: Def. 3's formula; strict: the text's reading."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """RP, CRP, crossings, recovery and space ratios, Twist and archetype of one run (seed 002 Def. 1-6).

    Twist needs the depth N >= 2 RB (Def. 14): a shorter run, a run of depth 1
    included, gets its RP, CRP and recovery ratio (no crossing at depth 1:
    0), and the space ratios and Twist print as undefined with the reason.
    """
    from workbench.cli.main import emit_json, stdout
    from workbench.measure.crp import curves
    from workbench.space.runs import Topic, parse_run

    t = Topic.parse(topic)
    r = parse_run(run, t.grades)
    c = curves([r], t, crossing)
    row = c.row(0)
    out = {"run": list(r), "topic": list(t.counts), "depth": len(r), "recall_base": t.recall_base,
           "crossing": crossing, **row}
    if as_json:
        emit_json(out)
        return
    say = lambda text: stdout.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    for key in ("rp", "crp"):
        say(f"{key:<20} {' '.join(str(v) for v in out[key])}")
    say(f"{'crossings':<20} {' '.join(map(str, out['crossings'])) or 'none'}")
    say_ratios(say, out, 20)
    if out["undefined"]:
        say(f"note: {out['undefined']}")


def say_ratios(say, out: dict, width: int) -> None:
    """Print the balance point, the ratios, Twist and the archetype of one row (exact, with an approximation)."""
    beta = out["balance_point"]
    say(f"{'balance point':<{width}} {'+oo (no crossing)' if beta is None else beta}")
    for key in ("recovery_ratio", "forward_space", "backward_space", "forward_space_ratio",
                "backward_space_ratio", "space_ratio", "twist"):
        value = out[key]
        shown = "undefined" if value is None else value
        if isinstance(value, str) and "/" in value:
            shown = f"{value}  (~{float(Fraction(value)):.4f})"
        say(f"{key.replace('_', ' '):<{width}} {shown}")
    say(f"{'archetype':<{width}} {out['archetype']}")


# Further commands (real runs) are appended to this list below, one function each.
EXTRA_COMMANDS: list = []


def twist_runs(
    qrels: Path = typer.Argument(..., help="TREC qrels file (topic iter docid grade), plain or gzip."),
    runs: list[Path] = typer.Argument(..., help="One or more TREC run files (plain or .gz)."),
    depth: int = typer.Option(1000, "--depth", help="N: each ranking is cut to N and padded with grade 0 up to N."),
    crossing: str = typer.Option("literal", "--crossing", help="literal: Def. 3's formula; strict: the text's reading."),
    per_topic: bool = typer.Option(False, "--per-topic", help="Also list every (run, topic) row."),
    effort_gain: Optional[Path] = typer.Option(None, "--effort-gain", help="Draw the effort/gain scatter (seed 002 Fig. 7-10): FIG.png or FIG.pdf."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """Twist of TREC runs over the topics of the qrels: mean Twist per run, Table 2 archetypes, effort/gain grids (seed 002)."""
    from workbench.cli.main import emit_json, progress_bar, stdout
    from workbench.figures.twist_plots import check_figure_path, effort_gain_figure
    from workbench.experiments.twist_runs import twist_table

    if effort_gain is not None:
        check_figure_path(effort_gain)
    with progress_bar(total=len(runs), label="twist runs") as bar:
        def progress(stage: str, done: int, total: int) -> None:
            if stage == "runs":
                bar.advance(1, f"read, judged, scored run {done}/{total}")
            else:
                bar.phase(f"Twist of topic {done}/{total}")

        table = twist_table(qrels, runs, depth, crossing, progress=progress)
        if effort_gain is not None:
            bar.phase("drawing")
            effort_gain_figure(table, effort_gain)
    if as_json:
        out = table.to_dict(per_topic)
        out["effort_gain_figure"] = None if effort_gain is None else str(effort_gain)
        emit_json(out)
        return
    stdout.print(table.markdown(per_topic), markup=False, highlight=False, soft_wrap=True, end="")
    if effort_gain is not None:
        stdout.print(f"figure: {effort_gain}", markup=False, highlight=False, soft_wrap=True)


def twist_curve(
    qrels: Path = typer.Argument(..., help="TREC qrels file (topic iter docid grade), plain or gzip."),
    run: Path = typer.Argument(..., help="TREC run file (plain or .gz)."),
    topic_id: str = typer.Option(..., "--topic-id", help="Topic of the qrels to draw."),
    output: Path = typer.Option(..., "-o", "--output", help="Figure: FIG.png or FIG.pdf."),
    depth: int = typer.Option(1000, "--depth", help="N: the ranking is cut to N and padded with grade 0 up to N."),
    crossing: str = typer.Option("literal", "--crossing", help="literal: Def. 3's formula; strict: the text's reading."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """CRP and DCG curves of one run on one topic (seed 002 Fig. 11), with its Twist, archetype and crossings."""
    from workbench.cli.main import emit_json, stdout
    from workbench.figures.twist_plots import check_figure_path, curve_figure
    from workbench.experiments.twist_runs import topic_curve

    check_figure_path(output)
    tc = topic_curve(qrels, run, topic_id, depth, crossing)
    curve_figure(tc, output)
    out = {**tc.to_dict(), "figure": str(output)}
    if as_json:
        emit_json(out)
        return
    say = lambda text: stdout.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    say(f"{out['run']}, topic {out['topic_id']} (relevant per grade {','.join(map(str, out['topic']))}, "
        f"RB {out['recall_base']}), depth {out['depth']}, crossing {out['crossing']}")
    say(f"{'retrieved':<22} {out['retrieved']} ({out['relevant_retrieved']} relevant, {out['unjudged']} unjudged)")
    xs = out["crossings"]
    say(f"{'crossings':<22} {len(xs)}" + (f": {' '.join(map(str, xs[:12]))}{' ...' if len(xs) > 12 else ''}" if xs else ""))
    say_ratios(say, out, 22)
    for m, v in out["gains"].items():
        say(f"{m:<22} {v:.4f}")
    if out["undefined"]:
        say(f"note: {out['undefined']}")
    say(f"figure: {output}")


EXTRA_COMMANDS.extend([twist_runs, twist_curve])


def twist_scale(
    output: Path = typer.Option(Path("reports/twist.md"), "-o", "--output", help="Where to write the report (atomically; a missing folder is created)."),
    as_json: bool = typer.Option(False, "--json", help="Print exactly one JSON object on stdout."),
) -> None:
    """Settle the scale of Twist and each component on the rank and dominance orders (reports/twist.md)."""
    from workbench.cli.main import emit_json, progress_bar, stdout
    from workbench.core.files import atomic_write, check_output_path
    from workbench.papers.twist_scale import scale_rows, summary, surprises, twist_markdown, weight_rows

    check_output_path(output)
    with progress_bar(label="Twist scale") as bar:
        rows = scale_rows(progress=bar.phase)
        bar.phase("weights")
        weights = weight_rows()
    text = twist_markdown(rows, weights, surprises())
    atomic_write(output, text)
    counts: dict = {}
    for r in rows:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    if as_json:
        emit_json({"report": str(output), "classifications": len(rows), "verdicts": counts,
                   "summary": [{"measure": m, "order": o, "verdicts": sorted(v)} for m, o, v, _ in summary(rows)]})
        return
    stdout.print(f"{len(rows)} classifications ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
                 f"wrote {output}", markup=False, highlight=False)


EXTRA_COMMANDS.append(twist_scale)
