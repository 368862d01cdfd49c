"""The Robust 2003 study (workbench.papers.study.run_study): structure and determinism on a reduced configuration.

The study runs on 4 real runs restricted to 25 topics, depth 30, one
repetition of the pool samples, B = 50, and trimmed depths 6 (binary) and 4
(graded) for the enumerated interval transformations; it runs twice with the
same seed, and the Markdown must be byte-identical.  The full study is timed by
``benchmarks/study_robust03.py``.  Skips when the Robust 2003 data is missing.
"""
from __future__ import annotations

import gzip
import os
import re
from pathlib import Path

import pytest

import workbench.papers.study as study
from workbench.errors import WorkbenchError

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
ROBUST = DATA / "robust03"
RUNS = ("InexpC2", "MU03rob01", "NLPR03vb10", "aplrob03a")
needs_robust = pytest.mark.skipif(not (ROBUST / "qrels.txt").is_file(),
                                  reason=f"Robust 2003 data not found at {ROBUST} (set WORKBENCH_DATA)")
SECTIONS = ("## Setup", "## Ferrante et al. (2020), Table 1", "## Ferrante et al. (2020), Table 2",
            "## Ferrante et al. (2020), Tables 3-4", "## Ferrante et al. (2020), Fig. 1-2", "## Ferro et al. (2016), Tables 3-4",
            "## Ferro et al. (2016), Fig. 13", "## Ferro et al. (2016), Fig. 14", "## The interval transformation",
            "## Regenerate")
FIGURES = ("fig1-binary", "fig1-graded", "fig2-binary", "fig2-graded", "fig13", "fig14")


def _small_data(root: Path, topics: int = 25) -> Path:
    """qrels and 4 runs restricted to the first ``topics`` topics of the qrels."""
    lines = (ROBUST / "qrels.txt").read_text().splitlines()
    keep = list(dict.fromkeys(line.split()[0] for line in lines if line.strip()))[:topics]
    (root / "runs").mkdir(parents=True)
    (root / "qrels.txt").write_text("\n".join(x for x in lines if x.split() and x.split()[0] in keep) + "\n")
    for r in RUNS:
        with gzip.open(ROBUST / "runs" / f"input.{r}.gz", "rt") as fh:
            (root / "runs" / f"input.{r}").write_text("".join(x for x in fh if x.split() and x.split()[0] in keep))
    return root


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    if not (ROBUST / "qrels.txt").is_file():
        pytest.skip(f"Robust 2003 data not found at {ROBUST} (set WORKBENCH_DATA)")
    data = _small_data(tmp_path_factory.mktemp("robust-small"))
    mp = pytest.MonkeyPatch()
    mp.setattr(study, "BINARY_TRIM", 6)
    mp.setattr(study, "GRADED_TRIM", 4)
    out, calls = [], []
    try:
        for k in range(2):  # one process, then two worker processes (downsampling, significance tests)
            o = tmp_path_factory.mktemp(f"out{k}")
            out.append(study.run_study(data, o / "reports", repetitions=1, bootstrap=50, seed=3, depth=30,
                                       progress=lambda *a: calls.append(a), workers=k + 1))
    finally:
        mp.undo()
    return out, calls, data


@needs_robust
def test_same_seed_gives_identical_markdown(reports):
    """Same seed, 1 worker and 2 worker processes: the same Markdown and the same figures, byte for byte."""
    (a, b), _, _ = reports
    assert a.name == study.REPORT and a.read_bytes() == b.read_bytes()
    for name in FIGURES:
        fig = f"figures/experiments-robust03-{name}.png"
        assert (a.parent / fig).read_bytes() == (b.parent / fig).read_bytes(), name


@needs_robust
def test_every_section_table_and_figure(reports):
    (path, _), _, _ = reports
    text = path.read_text()
    pos = [text.index(s) for s in SECTIONS]
    assert pos == sorted(pos)
    for name in FIGURES:
        fig = path.parent / "figures" / f"experiments-robust03-{name}.png"
        assert fig.stat().st_size > 1000
        assert f"(figures/experiments-robust03-{name}.png)" in text
    for row in ("| P vs SBTO |", "| gP vs gR |", "| RBP(p=0.5) vs RBTO |", "| ERR vs RBTO |", "| RBTO vs RBTO W3 |",
                "| AP vs bpref |", "| Twist vs nDCG (log10) |", "| SBTO | ", "| DCG (log10) |", "| RBTO vs AP |",
                "| Twist | 0", "| AP | binary | 6 |", "| ERR | graded | 4 |", "| RBTO | graded | 30 |"):
        assert row in text, row
    # every "compared with the paper" section ends in computed verdicts
    assert len(re.findall(r"^- \*.*: (agrees|\*\*disagrees\*\*|not comparable)\.$", text, re.M)) >= 25
    assert "4 runs and 25 topics, depth 30" in text and "B = 50" in text


@needs_robust
def test_report_is_honest_and_portable(reports):
    (path, _), calls, data = reports
    text = path.read_text()
    assert str(data) not in text and "/tmp" not in text and str(Path.home()) not in text
    assert not re.search(r"\d+(\.\d+)? ?(seconds|ms|min)\b|\d+\.\d+ s\b", text)     # no timings
    assert not re.search(r"\d\.\d{7,}", text)                             # fixed precision, no raw float reprs
    stages = {c[0] for c in calls}
    assert {"scoring", "significance", "interval transformation", "figures"} <= stages
    assert all(len(c) == 3 for c in calls)


@needs_robust
def test_structure_matches_the_configuration(reports):
    (path, _), _, _ = reports
    text = path.read_text()
    assert "6 system pairs" in text
    assert "90 % | 70 % | 50 % | 30 % | 10 % | 5 % | mean |" in text
    assert "90 % | 70 % | 50 % | 30 % | 10 % | mean |" in text         # Ferro et al. 2016: no 5 %
    assert "1 seeded repetition(s)" in text and "seed 3" in text


def test_bad_arguments(tmp_path):
    with pytest.raises(WorkbenchError, match="repetitions"):
        study.run_study(tmp_path, tmp_path / "out", repetitions=0)
    with pytest.raises(WorkbenchError, match="workers 0"):
        study.run_study(tmp_path, tmp_path / "out", workers=0)
    with pytest.raises(WorkbenchError, match="qrels.txt"):
        study.run_study(tmp_path, tmp_path / "out")


def test_committed_report_is_complete():
    report = Path(__file__).resolve().parents[2] / "reports" / study.REPORT
    if not report.is_file():
        pytest.skip("reports/experiments-robust03.md not generated yet (workbench experiment study)")
    text = report.read_text()
    pos = [text.index(s) for s in SECTIONS]
    assert pos == sorted(pos)
    assert "17 runs and 100 topics, depth 250" in text and "5 seeded repetition(s)" in text and "B = 1000" in text
    for name in FIGURES:
        assert (report.parent / "figures" / f"experiments-robust03-{name}.png").stat().st_size > 1000
