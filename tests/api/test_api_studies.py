"""The API entry points of the study, IPSO and Twist commands (workbench.api.experiments, .ipso, .twist).

The command line is parsing, one call into these functions and formatting;
here the calls are made from Python: refusals name the options as Python
spells them (``alpha=1.5``) where the command line writes ``--alpha 1.5``,
inputs are checked before any file is read, progress is reported to the
object passed, and a figure asked for is drawn by the call.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from cli_inputs import run_cli
from workbench import errors
from workbench.api import experiments, ipso, twist

ROOT = Path(__file__).resolve().parents[2]
TREC = ROOT / "examples" / "trec"
QRELS = TREC / "qrels.txt"
RUNS = [TREC / "run.good.txt", TREC / "run.fair.txt", TREC / "run.poor.txt"]

pytestmark = pytest.mark.slow          # each test reads and scores TREC files (seconds)


class Recorder:
    """A progress report that keeps what it is told."""

    def __init__(self) -> None:
        self.totals: list = []
        self.steps = 0
        self.phases: list[str] = []

    def label(self, text: str) -> None:
        pass

    def total(self, n) -> None:
        self.totals.append(n)

    def phase(self, text: str) -> None:
        self.phases.append(text)

    def advance(self, n: int = 1, text=None) -> None:
        self.steps += n


def test_refusals_spell_options_as_python_does_and_the_command_line_as_it_does(capsys):
    with pytest.raises(errors.WorkbenchError, match=r"^alpha=1\.5: must be in \(0, 1\)$"):
        experiments.significance_study(QRELS, RUNS, "AP,P", alpha=1.5)
    code, out, err = run_cli(capsys, "experiment", "significance", QRELS, *RUNS, "--measures", "AP,P",
                             "--alpha", "1.5")
    assert (code, out, err) == (2, "", "workbench: error: --alpha 1.5: must be in (0, 1)\n")

    with pytest.raises(errors.BadGainsError, match=r"give 3 values for grades=2$"):
        ipso.compare("01", "10", grades=2, gains="0,1")
    code, out, err = run_cli(capsys, "ipso", "compare", "01", "10", "--grades", "2", "--gains", "0,1")
    assert code == 2 and err.endswith("give 3 values for --grades 2\n")

    with pytest.raises(errors.WorkbenchError, match=r"^transform_depth= without transform=True"):
        experiments.correlation_study(QRELS, RUNS, "AP", transform_depth=[5])


def test_inputs_are_checked_before_the_files_are_read(tmp_path):
    missing = tmp_path / "no-such-qrels.txt"
    with pytest.raises(errors.WorkbenchError, match="one run file .*give at least two run files"):
        experiments.discrimination_study(missing, RUNS[:1], "AP")
    with pytest.raises(errors.WorkbenchError, match=r"^bootstrap=0: must be >= 1$"):
        experiments.discrimination_study(missing, RUNS, "AP", bootstrap=0)
    with pytest.raises(errors.WorkbenchError, match=r"^view='judged': use graded or binary$"):
        experiments.correlation_study(missing, RUNS, "AP,P", view="judged")
    with pytest.raises(errors.WorkbenchError, match=r"^fractions=: 'half' is not an integer"):
        experiments.downsampling_study(missing, RUNS, "AP", fractions="90,half")
    with pytest.raises(errors.WorkbenchError, match=r"^data='.*no-such': no such folder$"):
        experiments.robust_study(tmp_path / "no-such", tmp_path / "reports")
    assert not (tmp_path / "reports").exists()


def test_progress_is_reported_to_the_object_passed():
    bar = Recorder()
    study = experiments.downsampling_study(QRELS, RUNS, "AP", strategies="uniform", fractions="90,50",
                                           repetitions=1, progress=bar)
    # one strategy x one repetition x two pool sizes: two samples
    assert bar.totals == [2] and bar.steps == 2
    assert study.result.fractions == (90, 50) and study.result.strategies == ("uniform",)

    bar = Recorder()
    census = ipso.census(3, progress=bar)
    assert bar.totals == [3] and bar.steps == 3
    assert census.pairs == 2 ** 3 * 2 ** 3                      # ordered pairs of binary runs of depth 3

    bar = Recorder()
    ipso.agreement(RUNS, QRELS, depth=5, progress=bar)
    assert bar.totals == [3] and bar.steps == 3                  # three runs: three unordered pairs


def test_agreement_counts_every_pair_once_per_metric_and_test():
    study = ipso.agreement(RUNS, QRELS, depth=5)
    assert study.pairs == 3
    summary = study.result.summary()
    assert summary
    for counts in summary.values():
        assert sum(counts[k] for k in ipso.AGREEMENT) == 3
    assert set(ipso.AGREEMENT_NAMES) == set(ipso.AGREEMENT)


def test_a_figure_is_drawn_by_the_call_and_a_bad_one_refused_before(tmp_path):
    g = ipso.grid(2, "RBP(p=0.5)", "RR", figure=tmp_path / "grid.png")
    assert (tmp_path / "grid.png").stat().st_size > 0
    assert g.n == 4 and sum(g.counts.values()) == 16              # 2^2 binary runs, 4 x 4 ordered pairs
    with pytest.raises(errors.WorkbenchError, match="unknown format '.svg'"):
        ipso.grid(2, "RBP(p=0.5)", "RR", figure=tmp_path / "grid.svg")
    assert not (tmp_path / "grid.svg").exists()

    with pytest.raises(errors.WorkbenchError, match="unknown format"):
        twist.twist_curve(tmp_path / "no-such-qrels", RUNS[0], "401", figure=tmp_path / "crp.txt")


def test_twist_of_a_perfect_short_run():
    out = twist.twist("1", "1")
    # the only relevant document first: no crossing to recover from, and depth 1 < 2 RB leaves Twist undefined
    assert out["archetype"] == "ideal" and out["crossings"] == [] and out["twist"] is None
    assert out["undefined"]
