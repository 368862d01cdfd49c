"""``workbench twist``: RP, CRP, crossings, ratios, Twist and archetype of one judged run (Ferro et al. 2016).

One call of :func:`workbench.api.twist.twist` plus formatting.

References
----------
Ferro et al., "The Twist measure for IR evaluation", JASIST 2016.
"""
from __future__ import annotations

import typer

from workbench.cli.common import JsonOpt, emit_json, say_ratios, stdout


def register(app: typer.Typer) -> None:
    """Add ``twist`` to ``app``."""
    app.command("twist")(twist)


def twist(
    run: str = typer.Argument(..., help="Judged run: digit string (0112) or comma-separated grades."),
    topic: str = typer.Option(..., "--topic", help="Relevant documents per grade, e.g. 3 or 3,2,2 (the example of Ferro et al. 2016)."),
    crossing: str = typer.Option("literal", "--crossing", help="literal: Def. 3's formula; strict: the text's reading."),
    as_json: bool = JsonOpt,
) -> None:
    """RP, CRP, crossings, recovery and space ratios, Twist and archetype of one run (Ferro et al. 2016, Def. 1-6).

    Twist needs the depth N >= 2 RB (Def. 14): a shorter run, a run of depth 1
    included, gets its RP, CRP and recovery ratio (no crossing at depth 1:
    0), and the space ratios and Twist print as undefined with the reason.
    """
    from workbench.api.twist import twist as twist_row

    out = twist_row(run, topic, crossing)
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
