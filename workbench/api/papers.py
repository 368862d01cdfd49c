"""The reports, one call each: the tour, the atlas, the papers reproduced, the claims settled, the properties.

Each function takes what its ``workbench`` subcommand takes, checks it
through :mod:`workbench.api.convert`, computes (writing the report files
the command names) and returns a result: the object its ``--json`` prints,
or a small class with the texts the command prints or writes.
``progress`` is a report of :mod:`workbench.api.progress`.

Examples
--------
>>> import tempfile
>>> t = tour(2, tempfile.mkdtemp())
>>> sorted({row["verdict"] for row in t.report["classifications"]})[:1]
['interval']
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from workbench.api.convert import as_depth, as_int, as_measure_names, as_orders, as_range, option
from workbench.api.progress import reporter
from workbench.errors import BadTopicError, WorkbenchError

__all__ = ["Tour", "tour", "AtlasRun", "atlas", "disagreement_atlas", "reproduce", "ProofRun", "prove", "recheck",
           "PropertiesReport", "properties_report"]


@dataclass(frozen=True)
class Tour:
    """The tour's result: ``report`` (what ``workbench tour --json`` prints), its Markdown and its table rows."""

    report: dict

    def markdown(self) -> str:
        """The classifications as Markdown (``workbench tour --report``)."""
        from workbench.papers.tour import tour_markdown

        return tour_markdown(self.report)

    def rows(self, value_text: Callable[[str, float], str] = lambda exact, approx: exact) -> list[tuple[str, ...]]:
        """The terminal table's rows; ``value_text(exact, approx)`` writes a witness's values."""
        from workbench.papers.tour import tour_rows

        return tour_rows(self.report, value_text=value_text)


def tour(depth=4, out: Path | str = "out", progress=None) -> Tour:
    """Classify the papers' measures at ``depth`` and draw a Hasse diagram into the folder ``out``."""
    from workbench.papers.tour import TOUR_CASES, run_tour

    n = as_depth(depth)
    bar = reporter(progress)
    bar.label("tour")
    bar.total(len(TOUR_CASES) + 1)
    return Tour(run_tour(n, out, progress=lambda text: bar.advance(1, text)))


@dataclass(frozen=True)
class AtlasRun:
    """An atlas built: ``atlas`` (the library's :class:`~workbench.papers.atlas.Atlas`) and its texts."""

    atlas: Any

    def markdown(self) -> str:
        from workbench.papers.atlas_report import atlas_markdown

        return atlas_markdown(self.atlas)

    def json_text(self) -> str:
        """The JSON report (every cell, threshold row and witness)."""
        from workbench.papers.atlas_report import json_text

        return json_text(self.atlas)

    def to_json(self) -> dict:
        from workbench.papers.atlas_report import atlas_json

        return atlas_json(self.atlas)

    def summary(self) -> dict:
        """Counts: ``cells``, ``verdicts`` (per verdict), ``violations``, ``threshold_rows``, ``capped``."""
        counts: dict = {}
        for c in self.atlas.cells:
            counts[c.verdict] = counts.get(c.verdict, 0) + 1
        return {"cells": len(self.atlas.cells), "verdicts": dict(sorted(counts.items())),
                "violations": len(self.atlas.violations()), "threshold_rows": len(self.atlas.thresholds),
                "capped": sum(1 for r in self.atlas.thresholds if r.note.startswith("capped"))}


def atlas(measures=None, *, orders="rank,set,dominance,ipso,replacement", grades="1..3", depths="2..8",
          progress=None) -> AtlasRun:
    """The atlas of measure scales: every built-in measure (``measures`` None) or the ones named.

    ``orders`` ``"rank,dominance"`` or a list; ``grades`` and ``depths`` ``N``,
    ``"A..B"`` or a list (grades within 1..3).
    """
    from workbench.papers.atlas import BUILTIN_MEASURES, plan_atlas, run_atlas

    names = list(measures) if measures else list(BUILTIN_MEASURES)
    order_names = as_orders(orders)
    grade_list = as_range(grades, "grades", 1, 3)
    depth_list = as_range(depths, "depths", 1)
    bar = reporter(progress)
    bar.label("atlas")
    bar.phase("checking which measures are set-based")
    plan = plan_atlas(names, order_names, grade_list, depth_list)
    bar.total(len(plan.tasks))
    return AtlasRun(run_atlas(plan, progress=lambda text: bar.advance(1, text)))


def disagreement_atlas(measures=None, *, depth=10, topic=None, progress=None):
    """The disagreement atlas: every pair of ``measures`` against each other on the binary runs of ``depth``.

    Parameters
    ----------
    measures : str or list of str, optional
        ``"AP,RR"`` or a list of names (at least two); default the atlas' measures
        (:data:`workbench.papers.disagreement_atlas.ATLAS_MEASURES`).
    depth : int or str
        The depth of the runs (default 10, Jones et al.'s setting).
    topic : int or str, optional
        Relevant documents of the topic; default ``depth`` (every binary run of ``depth`` is in the space).
    progress : report, optional
        A progress report (:mod:`workbench.api.progress`).

    Returns
    -------
    DisagreementAtlas
        Counts, exact fractions, tau-b and minimal witnesses per pair of measures, with ``markdown()``,
        ``json_text()``, ``save_figure(path)`` (``.pdf`` or ``.svg``), ``to_json()`` and ``to_frame()``.

    Raises
    ------
    WorkbenchError
        An unknown or repeated measure, fewer than two, a bad depth or topic, a measure undefined on the
        space, a request beyond the budget (with the depth that fits).

    Examples
    --------
    >>> a = disagreement_atlas("RR,RBP(p=0.8)", depth=3)
    >>> c = a.cell("RR", "RBP(p=0.8)")
    >>> c.counts.discordant, str(c.tau_b), c.witness.text()
    (1, '19*sqrt(3)/42', '011 / 100: M1 1/2 vs 1, M2 36/125 vs 1/5')

    References
    ----------
    Jones, Thomas, Scholer and Sanderson, SIGIR 2015; Kendall, Biometrika 1945.
    """
    from workbench.papers.disagreement_atlas import ATLAS_MEASURES, build_disagreement_atlas

    names = None if measures is None else as_measure_names(measures)[0]
    n = as_depth(depth, option("depth"))
    t = None
    if topic is not None:
        t = as_int(topic, option("topic"), BadTopicError)
        if t < 1:
            raise BadTopicError(f"{option('topic', t)}: give the number of relevant documents, an integer >= 1")
    bar = reporter(progress)
    bar.label("disagreement atlas")
    k = len(names if names is not None else ATLAS_MEASURES)
    bar.total(k + k * (k - 1) // 2)
    return build_disagreement_atlas(names, depth=n, topic=t, progress=lambda text: bar.advance(1, text))


def reproduce(paper: str = "all", reports: Path | str = "reports", progress=None) -> list[dict]:
    """Re-derive every checkable claim of a paper (or ``all``): ``reports/<paper>.md`` with its figures.

    Returns one row per paper: ``paper``, ``report`` (the path written) and the count of findings per verdict.
    """
    from workbench.papers.reproduce import PAPERS, get_paper, reproduce as run

    keys = list(PAPERS) if paper == "all" else [get_paper(paper).key]
    if not Path(reports).is_dir():
        raise WorkbenchError(f"{option('reports', repr(str(reports)))}: no such folder")
    bar = reporter(progress)
    bar.label("reproducing")
    bar.total(len(keys))
    rows = []
    for key in keys:
        bar.phase(key)
        rows += run(key, Path(reports))
        bar.advance()
    return rows


@dataclass(frozen=True)
class ProofRun:
    """The claims settled: ``settled`` (claim and outcome each), those whose outcome ``changed``."""

    settled: list = field(default_factory=list)

    @property
    def changed(self) -> list:
        return [x for x in self.settled if not x.as_expected]

    def markdown(self) -> str:
        """The report (``reports/proofs.md``)."""
        from workbench.scale.proofs import report_markdown

        return report_markdown(self.settled)

    def write_certificates(self, folder) -> list:
        """Write each every-depth claim's certificates into ``folder/<claim id>/``; the paths written."""
        from workbench.scale.proofs import write_claim_certificates

        return write_claim_certificates(self.settled, folder)

    def recheck(self, folder=None):
        """Write the every-depth claims' certificates (into ``folder``, else a temporary folder) and re-check them.

        Returns a :class:`~workbench.scale.recheck.Rechecks`, empty when no claim has a certificate.
        """
        import tempfile

        from workbench.scale.recheck import Rechecks
        from workbench.scale.recheck import recheck as run

        if folder is not None:
            return run(Path(folder)) if self.write_certificates(folder) else Rechecks()
        with tempfile.TemporaryDirectory(prefix="workbench-certificates-") as tmp:
            return run(Path(tmp)) if self.write_certificates(tmp) else Rechecks()

    def to_json(self) -> dict:
        """``claims`` (id, source, method, status, expected, detail, bound, witness, confirmed_by) and ``changed``.

        ``confirmed_by``: for an ``every_depth`` claim the checkers that confirmed every
        certificate of its proof (``"z3, cvc5, sympy"``, ``"no certificate"``); None otherwise.
        """
        return {
            "claims": [{"id": x.claim.id, "source": x.claim.source, "method": x.claim.method,
                        "status": x.outcome.status, "expected": x.claim.expect, "detail": x.outcome.detail,
                        "bound": x.outcome.bound, "witness": x.outcome.witness,
                        "confirmed_by": x.outcome.confirmed_by() if x.claim.method == "every_depth" else None}
                       for x in self.settled],
            "changed": [x.claim.id for x in self.changed],
        }


def prove(folder: Path | str = "proofs", progress=None) -> ProofRun:
    """Settle every claim file (``*.toml``) of ``folder``."""
    from workbench.scale.proofs import load_claims, settle_claims

    claims = load_claims(Path(folder))
    bar = reporter(progress)
    bar.label("claims")
    bar.total(len(claims))
    return ProofRun(settle_claims(claims, progress=lambda claim_id: bar.advance(1, claim_id)))


def recheck(folder: Path | str):
    """Re-check every certificate under ``folder`` with z3, cvc5 and sympy (:func:`workbench.scale.recheck.recheck`).

    Returns a :class:`~workbench.scale.recheck.Rechecks` (a list of
    :class:`~workbench.scale.recheck.Recheck`, one per certificate); raises
    :class:`~workbench.scale.recheck.CertificateError` for a folder without certificates.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = open(os.path.join(folder, "01-false.smt2"), "w").write(
    ...     "(declare-fun x () Real)\\n(assert (not (> x 0)))\\n(check-sat)\\n")  # 'x > 0 for every x': false
    >>> [(r.status, [a.answer for a in r.answers]) for r in recheck(folder)]
    [('refuted', ['sat', 'sat'])]
    """
    from workbench.scale.recheck import recheck as run

    return run(Path(folder))


@dataclass(frozen=True)
class PropertiesReport:
    """The properties report: ``tables`` (one :class:`~workbench.property.table.PropertyTable` per measure and grades)."""

    tables: list

    def markdown(self) -> str:
        from workbench.papers.properties_report import properties_markdown

        return properties_markdown(self.tables)

    def json_text(self) -> str:
        from workbench.papers.properties_report import properties_json_text

        return properties_json_text(self.tables)

    def to_json(self) -> dict:
        from workbench.papers.properties_report import properties_json

        return properties_json(self.tables)


def properties_report(measure: Optional[str] = None, progress=None) -> PropertiesReport:
    """The properties of every built-in measure (or of ``measure``) at grades 1 and 2."""
    from workbench.papers.properties_report import REPORT_MEASURES, build_properties_report

    reporter(progress).label("properties report")
    return PropertiesReport(build_properties_report([measure] if measure else REPORT_MEASURES))
