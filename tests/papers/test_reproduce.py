"""Reproduction reports: the framework, every committed report regenerated, and seeds 003/000 checked."""
from __future__ import annotations

import functools
import itertools
from math import comb
from pathlib import Path

import pytest

from workbench.cli.main import main
from workbench.errors import WorkbenchError
from workbench.papers.reproduce import PAPERS, Finding, PaperReport, get_paper, report_markdown

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

REPORTS = Path(__file__).resolve().parents[2] / "reports"


@functools.lru_cache(maxsize=None)
def built(key: str, tmp: str) -> PaperReport:
    return PAPERS[key].build(Path(tmp))


@pytest.fixture(scope="module")
def figdir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("figures"))


# --- the framework ---------------------------------------------------------------


def test_paper_names_and_seed_numbers():
    assert {p.key for p in PAPERS.values()} == {"ferrante2019", "moffat2024", "ferro2018", "giner2023"}
    seeds = sorted(s for p in PAPERS.values() for s in p.seeds)
    assert seeds == ["000", "001", "002", "003", "004"]  # every seed has exactly one report
    for p in PAPERS.values():
        for s in p.seeds:
            assert get_paper(s) is p and get_paper(str(int(s))) is p and get_paper("seed" + s) is p
    with pytest.raises(WorkbenchError, match="'seed9'"):
        get_paper("seed9")


def test_findings_need_a_verdict_and_a_witness_unless_reproduced():
    with pytest.raises(ValueError, match="verdict"):
        Finding("x", "t", "p", "r", "confirmed")
    with pytest.raises(ValueError, match="no witness"):
        Finding("x", "t", "p", "r", "refuted")
    text = report_markdown(PaperReport("k", "T", ("009",), "intro", (
        Finding("eq. 1", "a", "p", "r", "reproduced"), Finding("eq. 2", "b", "p", "r", "differs", "1 vs 2"))))
    assert "1 reproduced, 0 refuted, 1 differs." in text
    assert "| eq. 2 | b | **differs** |" in text and "*Side by side*:\n\n1 vs 2" in text


def test_cli_rejects_unknown_paper_with_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["reproduce", "nosuchpaper"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'nosuchpaper'" in err[0]


def test_cli_writes_report_atomically_into_the_folder(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["reproduce", "003", "--reports", str(tmp_path), "--json"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert '"paper": "ferrante2019"' in out
    assert (tmp_path / "ferrante2019.md").read_text() == (REPORTS / "ferrante2019.md").read_text()
    assert (tmp_path / "figures" / "ferrante2019-rbp-limit.png").stat().st_size > 1000
    assert not list(tmp_path.glob("*.tmp"))


# --- every committed report regenerates byte for byte -------------------------------
# (seeds 001, 002, 004: in tests/papers/test_repro_moffat.py, test_repro_ferro.py, test_repro_giner.py, which
# build those reports once for their own checks too)


def test_every_paper_has_a_committed_report_and_a_regeneration_test():
    tests = REPORTS.parent / "tests"  # its subfolders mirror the package
    for key, paper in PAPERS.items():
        assert (REPORTS / f"{key}.md").is_file()
        own = list(tests.rglob(f"test_{paper.module}.py"))
        assert key == "ferrante2019" or (len(own) == 1 and "regenerates_identically" in own[0].read_text())


@pytest.mark.parametrize("key", ["ferrante2019"])
def test_committed_report_regenerates_identically(key, figdir):
    report = built(key, figdir)
    assert report_markdown(report) == (REPORTS / f"{key}.md").read_text()
    for f in report.findings:  # the figures the report links are written
        for fig in f.figures:
            assert (Path(figdir) / Path(fig).name).stat().st_size > 0
            assert (REPORTS / fig).exists()


# --- seeds 003 / 000: verdicts against independent oracles --------------------------


def _paper_set_order(n: int, c: int) -> list[tuple]:
    """R(N) of multisets sorted by eq. 1, written from the paper's definition."""
    runs = [tuple(sorted(m, reverse=True)) for m in itertools.combinations_with_replacement(range(c + 1), n)]

    def key(run):  # the count of the highest grade decides first, then the next one down
        return tuple(run.count(g) for g in range(c, 0, -1))

    return sorted(runs, key=key)


def _eq2(run, ascending: bool) -> int:
    n = len(run)
    return sum(comb(d + n - j, n - j + 1) for j, d in enumerate(sorted(run, reverse=not ascending), 1))


def _finding(key, figdir, title):
    return next(f for f in built(key, figdir).findings if f.title == title)


def test_eq2_is_the_rank_only_with_decreasing_grades(figdir):
    for n, c in itertools.product(range(1, 6), range(1, 4)):
        ranked = _paper_set_order(n, c)
        assert [_eq2(r, ascending=False) for r in ranked] == list(range(len(ranked)))
        assert ([_eq2(r, ascending=True) for r in ranked] == list(range(len(ranked)))) == (c == 1 or n == 1)
    f = _finding("ferrante2019", figdir, "the rank function SBTO")
    assert f.verdict == "refuted" and "N = 2, c = 2" in f.witness


def test_sec5_pair_and_its_threshold(figdir):
    from fractions import Fraction

    # ERR by its definition, x_k = (2^g - 1) / 2^2, for the paper's two runs
    def err(run):
        total, stay = Fraction(0), Fraction(1)
        for i, g in enumerate(run, 1):
            x = Fraction(2**g - 1, 4)
            total += stay * x / i
            stay *= 1 - x
        return total

    assert err((1, 0, 2, 0, 1)) == Fraction(1, 4) + Fraction(3, 16) + Fraction(3, 320)
    assert _finding("ferrante2019", figdir, "the counterexample pair for DCG, ERR, gRBP and AP").verdict == "reproduced"
    # the reversal threshold: (1-p)(1 + 2p^2 + p^4) - (1-p)(1+p) changes sign between 0.4533 and 0.4534
    d = lambda p: (1 - p) * (1 + 2 * p**2 + p**4) - (1 - p) * (1 + p)  # noqa: E731
    assert d(Fraction(4533, 10000)) < 0 < d(Fraction(4534, 10000))
    f = _finding("ferrante2019", figdir, "where the sec. 5 pair reverses gRBP")
    assert f.verdict == "differs" and "0.453398" in f.witness


def test_rbp_fixed_depth_limit_refutes_the_summary(figdir):
    from fractions import Fraction

    # RBP(13/25) keeps every adjacent pair of the rank order in order at depth 4, not at depth 5 (brute force)
    p = Fraction(13, 25)
    score = lambda r: sum((1 - p) * p**i for i, x in enumerate(r) if x)  # noqa: E731
    for depth, ordinal in ((4, True), (5, False)):
        runs = list(itertools.product((0, 1), repeat=depth))
        assert all(score(a) < score(b) for a, b in zip(runs, runs[1:])) == ordinal
    f = _finding("ferrante2019", figdir, "binary RBP by parameter and depth")
    assert f.verdict == "refuted" and "ordinal up to depth 4 and violated from depth 5" in f.witness
