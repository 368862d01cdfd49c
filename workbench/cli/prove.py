"""``workbench prove``: settle every claim file in ``proofs/`` and write the report.

Calls of :func:`workbench.scale.proofs.settle` plus a table; exit status 1
when an outcome differs from the one recorded in its claim file.

References
----------
SPEC section 6 (``prove``).
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

    from workbench.core.files import atomic_write
    from workbench.scale.proofs import load_claims, report_markdown, settle, Settled

    claims = load_claims(folder)
    settled = []
    with progress_bar(total=len(claims), label="claims") as bar:
        for claim in claims:
            settled.append(Settled(claim, settle(claim)))
            bar.advance(1, claim.id)
    if report is not None:
        atomic_write(report, report_markdown(settled))
    changed = [x for x in settled if not x.as_expected]
    if as_json:
        emit_json({
            "claims": [{"id": x.claim.id, "source": x.claim.source, "method": x.claim.method,
                        "status": x.outcome.status, "expected": x.claim.expect, "detail": x.outcome.detail,
                        "bound": x.outcome.bound, "witness": x.outcome.witness} for x in settled],
            "changed": [x.claim.id for x in changed],
            "report": None if report is None else str(report),
        })
    else:
        table = Table("claim", "method", "outcome", "scope", "as recorded")
        for x in settled:
            table.add_row(x.claim.id, x.claim.method, x.outcome.status,
                          x.outcome.bound or ("every depth" if x.claim.method == "symbolic" else ""),
                          "yes" if x.as_expected else f"NO (expected {x.claim.expect})")
        stdout.print(table)
        if report is not None:
            stdout.print(f"wrote {report}")
    if changed:
        raise typer.Exit(1)
