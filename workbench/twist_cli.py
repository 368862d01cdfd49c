"""The ``workbench twist`` commands (seed 002): one library call plus formatting each.

Registered on the main app in :mod:`workbench.cli`; the shared helpers
(``setting``, ``emit_json``, ``progress_bar``) come from there.

References
----------
Ferro et al., "The Twist measure for IR evaluation", JASIST 2016 (seed 002).
"""
from __future__ import annotations

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
    """RP, CRP, crossings, recovery and space ratios, Twist and archetype of one run (seed 002 Def. 1-6)."""
    from .cli import emit_json, stdout
    from .crp import curves
    from .runs import Topic, parse_run

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
    beta = out["balance_point"]
    say(f"{'balance point':<20} {'+oo (no crossing)' if beta is None else beta}")
    for key in ("recovery_ratio", "forward_space", "backward_space", "forward_space_ratio",
                "backward_space_ratio", "space_ratio", "twist"):
        value = out[key]
        shown = "undefined" if value is None else value
        if isinstance(value, str) and "/" in value:
            shown = f"{value}  (~{float(eval_fraction(value)):.4f})"
        say(f"{key.replace('_', ' '):<20} {shown}")
    say(f"{'archetype':<20} {out['archetype']}")
    if out["undefined"]:
        say(f"note: {out['undefined']}")


def eval_fraction(text: str):
    from fractions import Fraction

    return Fraction(text)


# Further commands (real runs) are appended to this list below, one function each.
EXTRA_COMMANDS: list = []
