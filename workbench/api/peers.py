"""Other implementations of the measures, checked against the workbench's exact values (``workbench conformance-report``).

:func:`conformance_report` compares every paired measure per topic with
trec_eval, ir_measures and cwl-eval on the Robust 2003 runs and on
synthetic stress runs, and writes the report.  (One implementation against
one measure, on generated cases: :func:`workbench.conformance`.)

References
----------
NIST trec_eval; pytrec_eval (Van Gysel and de Rijke, SIGIR 2018); ir_measures
(MacAvaney et al., ECIR 2022); cwl-eval (Azzopardi, Thomas and Moffat, SIGIR 2019).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from workbench.api.convert import option
from workbench.api.progress import reporter
from workbench.errors import WorkbenchError

__all__ = ["conformance_report"]


def conformance_report(data: Optional[Path] = None, reports: Path | str = "reports", workers: int = 2,
                       progress=None) -> dict:
    """Compare, write ``conformance.md`` and ``conformance.json`` into ``reports``, and summarise.

    ``data`` is the folder holding ``robust03/`` (default: ``$WORKBENCH_DATA``).

    Returns
    -------
    dict
        ``reports`` (the paths written), ``cells``, ``agree``, ``explained``
        (by a named convention), ``unexplained`` and ``seconds``.
    """
    import time

    from workbench.data.trec import data_dir
    from workbench.peers.real_runs import CHUNKS, build_report, report_dict, write_reports

    root = Path(data) if data is not None else data_dir()
    if not (root / "robust03" / "qrels.txt").is_file():
        raise WorkbenchError(f"{option('data', repr(str(root)))}: no robust03/qrels.txt there")
    if not Path(reports).is_dir():
        raise WorkbenchError(f"{option('reports', repr(str(reports)))}: no such folder")
    start = time.perf_counter()
    bar = reporter(progress)
    bar.label("conformance")
    bar.total(CHUNKS + 3)
    rep = build_report(root, progress=lambda text: bar.advance(text=text), workers=workers)
    paths = write_reports(rep, Path(reports))
    d = report_dict(rep)
    return {"reports": [str(p) for p in paths], **{k: d[k] for k in ("cells", "agree", "explained", "unexplained")},
            "seconds": time.perf_counter() - start}
