"""``workbench prove``: settle every claim file in ``proofs/``, write the report, re-check certificates.

Calls of :func:`workbench.api.papers.prove` (and :func:`workbench.api.papers.recheck`)
plus a table; exit status 1 when an outcome differs from the one recorded in
its claim file, or when a solver refutes a certificate (answers ``sat``: the
certificate is wrong).

References
----------
docs/reference/cli.md (``prove``, "Certificates").
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from workbench.cli.common import JsonOpt, emit_json, progress_bar, stdout


def register(app: typer.Typer) -> None:
    """Add ``prove`` to ``app``."""
    app.command("prove")(prove)


def prove(
    certificates: Optional[Path] = typer.Argument(
        None, metavar="[DIR]", help="With --recheck: a folder of certificates to re-check (no claim is settled)."),
    folder: Path = typer.Option(Path("proofs"), "--dir", help="Folder of claim files (*.toml)."),
    report: Optional[Path] = typer.Option(Path("reports/proofs.md"), "--report", help="Markdown report to write."),
    certificate: Optional[Path] = typer.Option(
        None, "--certificate", metavar="DIR",
        help="Write each every-depth claim's certificates into DIR/<claim id>/: one SMT-LIB2 file per "
             "obligation (unsat confirms it) and identities.json."),
    recheck: bool = typer.Option(
        False, "--recheck",
        help="Re-check certificates with z3, cvc5 and sympy: those under DIR when given, else the claims' own "
             "(written to --certificate DIR or a temporary folder); exit 1 if a solver refutes one."),
    as_json: bool = JsonOpt,
) -> None:
    """Settle every claim in proofs/ and write the report; exit 1 if any outcome changed or a certificate is refuted."""
    from workbench.api.papers import prove as settle_all
    from workbench.api.papers import recheck as recheck_folder
    from workbench.errors import WorkbenchError

    if certificates is not None and not recheck:
        raise WorkbenchError(f"{certificates}: a folder of certificates is re-checked with --recheck "
                             "(write certificates with --certificate DIR)")
    if certificates is not None:
        if certificate is not None:
            raise WorkbenchError(f"--certificate {certificate} with --recheck {certificates}: the re-check of a "
                                 "folder settles no claim; give one of them")
        checks = recheck_folder(certificates)
        if as_json:
            emit_json({"recheck": {"folder": str(certificates), **checks.to_json()}})
        else:
            _print_checks(checks)
        if any(r.status == "refuted" for r in checks):
            raise typer.Exit(1)
        return

    from rich.table import Table

    from workbench.core.files import atomic_write

    with progress_bar(label="claims", lazy=True) as bar:
        result = settle_all(folder, progress=bar)
    if report is not None:
        atomic_write(report, result.markdown())
    if certificate is not None and not recheck:
        result.write_certificates(certificate)
    checks = result.recheck(certificate) if recheck else []  # into --certificate DIR, else a temporary folder
    if as_json:
        emit_json({**result.to_json(), "report": None if report is None else str(report),
                   "certificates": None if certificate is None else {"folder": str(certificate)},
                   "recheck": checks.to_json() if recheck else None})
    else:
        table = Table("claim", "method", "outcome", "scope", "as recorded", "certificates confirmed by")
        for x in result.settled:
            table.add_row(x.claim.id, x.claim.method, x.outcome.status,
                          x.outcome.bound or ("every depth" if x.claim.method == "symbolic" else ""),
                          "yes" if x.as_expected else f"NO (expected {x.claim.expect})",
                          x.outcome.confirmed_by() if x.claim.method == "every_depth" else "-")
        stdout.print(table)
        if report is not None:
            stdout.print(f"wrote {report}")
        if certificate is not None:
            stdout.print(f"wrote the certificates into {certificate}")
        if recheck:
            _print_checks(checks)
    if result.changed or any(r.status == "refuted" for r in checks):
        raise typer.Exit(1)


def _print_checks(checks) -> None:
    """Per certificate: its claim, status, which checkers confirmed it and every answer; then the counts."""
    if checks:
        sys.stdout.write(checks.text())
    refuted = len(checks.refuted)
    confirmed = sum(r.status == "confirmed" for r in checks)
    sys.stdout.write(f"re-checked {len(checks)} certificate(s): {confirmed} confirmed, {refuted} refuted, "
                     f"{len(checks) - confirmed - refuted} unknown\n")


def json_tables(obj: dict) -> list:
    """``--format``: a table of the claims (when settled) and one of the certificates re-checked (with --recheck)."""
    from workbench.core.table import Table

    tables = []
    if "claims" in obj:
        tables.append(Table(["claim", "method", "outcome", "expected", "scope", "certificates confirmed by"],
                            [[c["id"], c["method"], c["status"], c["expected"], c["bound"] or "",
                              c.get("confirmed_by") or "-"] for c in obj["claims"]]))
    if obj.get("recheck"):
        rows = obj["recheck"]["certificates"]
        tables.append(Table(["claim", "certificate", "status", "z3", "cvc5", "sympy"],
                            [[r["claim"], r["certificate"], r["status"],
                              *(r["answers"].get(k, "") for k in ("z3", "cvc5", "sympy"))] for r in rows]))
    return tables or [Table(["claim"], [])]
