"""``workbench prove``: settle every claim file in ``proofs/`` and write the report.

Calls of :func:`workbench.scale.proofs.settle` plus a table; exit status 1
when an outcome differs from the one recorded in its claim file.

References
----------
docs/reference/cli.md (``prove``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``prove`` to ``app``."""
    app.command("prove")(prove)


def prove(
    folder: Path = typer.Option(Path("proofs"), "--dir", help="Folder of claim files (*.toml)."),
    report: Optional[Path] = typer.Option(Path("reports/proofs.md"), "--report", help="Markdown report to write."),
    as_json: bool = JsonOpt,
) -> None:
    """Settle every claim in proofs/ and write the report; exit 1 if any outcome changed."""
    from rich.table import Table

    from workbench.api.papers import prove as settle_all
    from workbench.core.files import atomic_write

    with progress_bar(label="claims", lazy=True) as bar:
        result = settle_all(folder, progress=bar)
    if report is not None:
        atomic_write(report, result.markdown())
    if as_json:
        emit_json({**result.to_json(), "report": None if report is None else str(report)})
    else:
        table = Table("claim", "method", "outcome", "scope", "as recorded")
        for x in result.settled:
            table.add_row(x.claim.id, x.claim.method, x.outcome.status,
                          x.outcome.bound or ("every depth" if x.claim.method == "symbolic" else ""),
                          "yes" if x.as_expected else f"NO (expected {x.claim.expect})")
        stdout.print(table)
        if report is not None:
            stdout.print(f"wrote {report}")
    if result.changed:
        raise typer.Exit(1)
