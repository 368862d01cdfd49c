"""``workbench twist-curve``: CRP and DCG curves of one run on one topic (Ferro et al. 2016, Fig. 11).

One call of :func:`workbench.api.twist.twist_curve` (the curves, the
figure drawn) plus formatting.

References
----------
Ferro et al., "The Twist measure for IR evaluation", JASIST 2016.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, ScorePrecisionOpt, emit_json, say_ratios, stdout


def register(app: typer.Typer) -> None:
    """Add ``twist-curve`` to ``app``."""
    app.command("twist-curve")(twist_curve)


def twist_curve(
    qrels: Path = typer.Argument(..., help="TREC qrels file (topic iter docid grade), plain or gzip; - reads standard input."),
    run: Path = typer.Argument(..., help="TREC run file (plain or .gz); - reads standard input."),
    topic_id: str = typer.Option(..., "--topic-id", help="Topic of the qrels to draw."),
    output: Path = typer.Option(..., "-o", "--output", help="Figure: FIG.png or FIG.pdf."),
    title: Optional[str] = typer.Option(None, "--title", help="Title of the figure (default none: a paper's figure has its caption)."),
    depth: int = typer.Option(1000, "--depth", help="N: the ranking is cut to N and padded with grade 0 up to N."),
    crossing: str = typer.Option("literal", "--crossing", help="literal: Def. 3's formula; strict: the text's reading."),
    score_precision: str = ScorePrecisionOpt,
    as_json: bool = JsonOpt,
) -> None:
    """CRP and DCG curves of one run on one topic (Ferro et al. 2016, Fig. 11), with its Twist, archetype and crossings."""
    from workbench.api.twist import twist_curve as topic_curve

    tc = topic_curve(qrels, run, topic_id, depth, crossing, score_precision=score_precision, figure=output,
                     title=title)
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
