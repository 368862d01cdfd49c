"""Reproduction reports: every checkable claim of a source paper, re-derived.

A paper's report is a list of :class:`Finding` objects, one per formal claim,
table, figure or worked example the workbench can check.  Each finding pairs
the paper's statement with the workbench's own result and a verdict:

``reproduced``
    the exact computation agrees with the paper;
``refuted``
    the exact computation contradicts the paper; the finding carries the
    witness (a pair of runs, a run, a parameter value) that shows it;
``differs``
    the paper reports numbers the workbench computes differently; the
    finding shows both side by side and names the likely cause.

The builders of the papers live in their own modules (``repro_*``) and are
registered in :data:`PAPERS`; :func:`reproduce` writes ``reports/<key>.md``
with the figures in ``reports/figures/``.  Reports hold exact values and
sorted data only, so a test regenerates each one and diffs it against the
committed copy.

Examples
--------
>>> f = Finding("Eq. 1", "a toy claim", paper="1 + 1 = 2", result="`1 + 1` is 2", verdict="reproduced")
>>> print(finding_markdown(f).splitlines()[0])
### Eq. 1: a toy claim

References
----------
Ferrante, Ferro and Pontarollo (2019); Ferrante, Ferro and Losiouk (2020); Moffat and Mackenzie (2024); Ferro, Silvello, Keskustalo, Pirkola and Järvelin (2016); Giner (2023) (docs/references.md).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence
import json

from workbench.errors import OutputPathError, WorkbenchError
from workbench.core.files import atomic_write, check_output_path
from workbench.core.table import Cell, Table
from workbench.scale.proofs import load_claims, settle

VERDICTS = ("reproduced", "refuted", "differs")


@dataclass(frozen=True)
class Finding:
    """One claim, table, figure or worked example of a paper, re-derived.

    Parameters
    ----------
    ref : str
        Where it is in the paper (``"sec. 4.1"``, ``"Table 2"``, ``"Fig. 1"``).
    title : str
        A short name.
    paper : str
        The paper's statement or values (Markdown).
    result : str
        The workbench's result (Markdown; tables welcome).
    verdict : str
        One of :data:`VERDICTS`.
    witness : str
        For ``refuted``: the witness; for ``differs``: the values side by
        side and the likely cause.  Empty for ``reproduced``.
    figures : tuple of str
        Figure files written beside the report, relative to ``reports/``.
    """

    ref: str
    title: str
    paper: str
    result: str
    verdict: str
    witness: str = ""
    figures: tuple[str, ...] = ()

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r}: use one of {', '.join(VERDICTS)}")
        if self.verdict != "reproduced" and not self.witness:
            raise ValueError(f"finding {self.ref!r} is {self.verdict} but has no witness")


@dataclass(frozen=True)
class PaperReport:
    """The report of one paper: its findings in the paper's order."""

    key: str
    title: str
    sources: tuple[str, ...]
    intro: str
    findings: tuple[Finding, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Paper:
    """A registered paper: its key, the papers it covers (author-year) and its builder module."""

    key: str
    sources: tuple[str, ...]
    module: str  # module under workbench with ``build(figures: Path) -> PaperReport``

    def build(self, figures: Path) -> PaperReport:
        return importlib.import_module(f".{self.module}", __package__).build(figures)


PAPERS: dict[str, Paper] = {
    p.key: p
    for p in (
        Paper("ferrante2019", ("Ferrante, Ferro and Pontarollo (2019)", "Ferrante, Ferro and Losiouk (2020)"), "repro_ferrante"),
        Paper("moffat2024", ("Moffat and Mackenzie (2024)",), "repro_moffat"),
        Paper("ferro2016", ("Ferro, Silvello, Keskustalo, Pirkola and Järvelin (2016)",), "repro_ferro"),
        Paper("giner2023", ("Giner (2023)",), "repro_giner"),
    )
}


PROOFS = Path(__file__).resolve().parents[2] / "proofs"
"""The claim files of ``workbench prove``; findings can be settled from them."""


def claim_finding(claim_id: str, ref: str, title: str, paper: str | None = None) -> Finding:
    """A finding settled by a claim file of ``proofs/`` (see :mod:`workbench.scale.proofs`).

    The claim's statement is the paper's (unless ``paper`` is given); an
    outcome ``proved`` reproduces it and ``refuted`` refutes it with the
    claim's witness.  An ``unknown`` outcome is an error: a report states
    only what was decided.

    Parameters
    ----------
    claim_id : str
        The ``id`` of a file in :data:`PROOFS`.
    ref, title : str
        As in :class:`Finding`.
    paper : str, optional
        The paper's statement, if it should read differently from the claim's.

    Examples
    --------
    >>> f = claim_finding("sec5-counterexample-pair", "sec. 5", "the gRBP counterexample")
    >>> f.verdict
    'reproduced'
    """
    claims = {c.id: c for c in load_claims(PROOFS)}
    if claim_id not in claims:
        raise WorkbenchError(f"claim {claim_id!r}: no such file in {PROOFS}")
    claim = claims[claim_id]
    outcome = settle(claim)
    if outcome.status == "unknown":
        raise WorkbenchError(f"claim {claim_id!r} is undecided: {outcome.detail}")
    scope = outcome.bound or ("every depth" if claim.method == "symbolic" else "")
    result = f"`{claim_id}` ({claim.method}): **{outcome.status}**. {outcome.detail}"
    if scope:
        result += f" Scope: {scope}."
    if claim.note:
        result += "\n\n" + claim.note.strip()
    witness = ""
    if outcome.status == "refuted":
        # z3's models may differ between solver versions: only the detail is deterministic
        witness = (claim.method != "smt" and _claim_witness(outcome.witness)) or outcome.detail
    return Finding(ref, title, paper or claim.statement, result,
                   "reproduced" if outcome.status == "proved" else "refuted", witness)


def _claim_witness(w) -> str:
    return "" if not w else "```\n" + json.dumps(w, indent=1, sort_keys=True) + "\n```"


def get_paper(name: str) -> Paper:
    """A paper by its key (``ferrante2019``, ``moffat2024``, ``ferro2016``, ``giner2023``).

    >>> get_paper("moffat2024").sources
    ('Moffat and Mackenzie (2024)',)
    >>> get_paper("004")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: paper '004': unknown; use all or one of ferrante2019 (Ferrante, Ferro and Pontarollo (2019); Ferrante, Ferro and Losiouk (2020)), moffat2024 (Moffat and Mackenzie (2024)), ferro2016 (Ferro, Silvello, Keskustalo, Pirkola and Järvelin (2016)), giner2023 (Giner (2023))
    """
    if name in PAPERS:
        return PAPERS[name]
    known = ", ".join(f"{k} ({'; '.join(p.sources)})" for k, p in PAPERS.items())
    raise WorkbenchError(f"paper {name!r}: unknown; use all or one of {known}")


def finding_markdown(f: Finding) -> str:
    """One finding as a Markdown section."""
    out = [f"### {f.ref}: {f.title}", "", f"**Verdict: {f.verdict}**", "", "*The paper*:", "", f.paper.strip(), "",
           "*The workbench*:", "", f.result.strip(), ""]
    if f.witness:
        out += ["*Witness*:" if f.verdict == "refuted" else "*Side by side*:", "", f.witness.strip(), ""]
    for fig in f.figures:
        name = Path(fig).name
        out += [f"![{name}]({fig})" if fig.endswith((".png", ".svg")) else f"Figure: [`{name}`]({fig})", ""]
    return "\n".join(out)


def findings_table(report: PaperReport) -> Table:
    """One row per finding: where in the paper, what, and the verdict (a :class:`~workbench.core.table.Table`)."""
    return Table(["where", "what", "verdict"],
                 [[f.ref, f.title, Cell(f.verdict, f"**{f.verdict}**")] for f in report.findings])


def report_markdown(report: PaperReport) -> str:
    """The whole report: a summary table of verdicts, then every finding."""
    counts = {v: sum(f.verdict == v for f in report.findings) for v in VERDICTS}
    out = [
        f"# {report.title}",
        "",
        f"{'; '.join(report.sources)}. Generated by `workbench reproduce {report.key}`; do not edit by hand.",
        "",
        report.intro.strip(),
        "",
        ", ".join(f"{counts[v]} {v}" for v in VERDICTS) + ".",
        "",
    ]
    out += findings_table(report).markdown_lines()
    out.append("")
    out += [finding_markdown(f) for f in report.findings]
    return "\n".join(out).rstrip("\n") + "\n"


def check_outputs(papers: Sequence[Paper], reports: Path) -> Path:
    """Refuse, before any report is built, a reports folder that cannot take the reports and figures.

    Returns the figures folder (``reports/figures``, created later if
    missing); raises :class:`~workbench.errors.OutputPathError` naming the path.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "figures").write_text("x")
    >>> check_outputs([get_paper("giner2023")], d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.OutputPathError: reports folder '...': '.../figures' is a file, not a folder (figures go there)

    References
    ----------
    docs/reference/cli.md (bad input: one line naming the bad value, nothing written).
    """
    for folder in (reports, *reports.parents):
        if folder.exists():
            if not folder.is_dir():
                raise OutputPathError(f"reports folder {str(reports)!r}: {str(folder)!r} is a file, not a folder")
            break
    figures = reports / "figures"
    if figures.exists() and not figures.is_dir():
        raise OutputPathError(f"reports folder {str(reports)!r}: {str(figures)!r} is a file, not a folder "
                              "(figures go there)")
    for paper in papers:
        check_output_path(reports / f"{paper.key}.md", "report")
    return figures


def reproduce(name: str, reports: str | Path = "reports",
              progress: Callable[[str], None] | None = None) -> list[dict]:
    """Regenerate the report of ``name`` (a paper key, a seed number or ``all``).

    Each report is written to ``reports/<key>.md`` only after it is complete
    (through a temporary file), so a failure leaves the committed copy intact.

    Returns
    -------
    list of dict
        Per paper: ``paper`` (key), ``report`` (path written) and the count
        of findings per verdict.
    """
    papers = list(PAPERS.values()) if name == "all" else [get_paper(name)]
    reports = Path(reports)
    figures = check_outputs(papers, reports)
    try:
        figures.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputPathError(f"reports folder {str(reports)!r}: cannot create {str(figures)!r} "
                              f"({exc.strerror or exc})") from None
    written = []
    for paper in papers:
        if progress:
            progress(paper.key)
        report = paper.build(figures)
        path = reports / f"{paper.key}.md"
        atomic_write(path, report_markdown(report))
        written.append({"paper": paper.key, "report": str(path),
                        **{v: sum(f.verdict == v for f in report.findings) for v in VERDICTS}})
    return written
