"""``workbench twist-scale``: the scale of Twist and of each component on the rank and dominance orders.

One call of :func:`workbench.api.twist.twist_scale` plus the report
``reports/twist.md``, written atomically.

References
----------
Ferro et al., "The Twist measure for IR evaluation", JASIST 2016.
"""
from __future__ import annotations

from pathlib import Path

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``twist-scale`` to ``app``."""
    app.command("twist-scale")(twist_scale)


def twist_scale(
    output: Path = typer.Option(Path("reports/twist.md"), "-o", "--output", help="Where to write the report (atomically; a missing folder is created)."),
    as_json: bool = JsonOpt,
) -> None:
    """Settle the scale of Twist and each component on the rank and dominance orders (reports/twist.md)."""
    from workbench.api.twist import twist_scale as settle
    from workbench.core.files import atomic_write, check_output_path

    check_output_path(output)
    with progress_bar(label="Twist scale") as bar:
        result = settle(progress=bar)
    atomic_write(output, result.text)
    rows, counts = result.rows, result.verdicts
    if as_json:
        emit_json({"report": str(output), "classifications": len(rows), "verdicts": counts,
                   "summary": result.summary})
        return
    stdout.print(f"{len(rows)} classifications ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
                 f"wrote {output}", markup=False, highlight=False)
