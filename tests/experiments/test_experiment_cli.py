"""``workbench experiment ...`` (workbench.cli.experiment) on synthetic runs whose answers are known by construction.

The synthetic collection has 20 topics, each with 4 relevant documents
``r1..r4`` (grade 1) and 12 judged non-relevant ``n00..n11``; every system
retrieves the same five documents on every topic:

* ``A``: ``r1 n00 n01 n02 n03`` -- RR 1, P@5 1/5, AP 1/4;
* ``B``: ``n00 r1 r2 r3 r4`` -- RR 1/2, P@5 4/5, AP (1/2 + 2/3 + 3/4 + 4/5) / 4;
* ``C``: ``n00 .. n04`` -- every measure 0;
* ``D``: the same ranking as ``A`` (written gzip-compressed), so A and D tie everywhere.

So RR orders ``A = D > B > C`` and P@5 orders ``B > A = D > C``: of the 6
pairs, A-B and B-D are discordant, A-C, B-C and C-D concordant, A-D tied in
both; tau-b = (3 - 2) / sqrt(5 * 5) = 0.2, on every topic and overall.  The
Robust 2003 test skips when the data is missing.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import math
import os
import sys
import types
from pathlib import Path

import pytest

import cli_inputs



DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
ROBUST = DATA / "robust03"

T = 20
RANKINGS = {
    "A": ["r1", "n00", "n01", "n02", "n03"],
    "B": ["n00", "r1", "r2", "r3", "r4"],
    "C": ["n00", "n01", "n02", "n03", "n04"],
    "D": ["r1", "n00", "n01", "n02", "n03"],
}
PAIRS = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D")]


def run_cli(capsys, *argv):
    """``workbench experiment ARGV``: ``(exit status, stdout, stderr)``."""
    return cli_inputs.run_cli(capsys, "experiment", *argv)


def write_qrels(path: Path, topics=range(1, T + 1), relevant: int = 4, nonrelevant: int = 12) -> Path:
    lines = [f"{t} 0 r{i} 1" for t in topics for i in range(1, relevant + 1)]
    lines += [f"{t} 0 n{i:02d} 0" for t in topics for i in range(nonrelevant)]
    path.write_text("\n".join(lines) + "\n")
    return path


def run_lines(name: str, ranking_of_topic) -> str:
    return "".join(f"{t} Q0 {d} {k + 1} {10 - k} {name}\n"
                   for t in range(1, T + 1) for k, d in enumerate(ranking_of_topic(t)))


@pytest.fixture
def coll(tmp_path):
    """qrels and the four runs A, B, C, D (D gzip-compressed)."""
    qrels = write_qrels(tmp_path / "qrels.txt")
    runs = []
    for name, ranking in RANKINGS.items():
        text = run_lines(name, lambda t, r=ranking: r)
        p = tmp_path / f"input.{name}"
        if name == "D":
            p = tmp_path / "input.D.gz"
            p.write_bytes(gzip.compress(text.encode()))
        else:
            p.write_text(text)
        runs.append(p)
    return qrels, runs


# ---------------------------------------------------------------- correlation
def test_correlation_json_taus_known_by_construction(capsys, coll):
    qrels, runs = coll
    code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", "RR,P@5,RR", "--format", "json")
    assert code == 0, err
    js = json.loads(out)
    assert js["systems"] == ["A", "B", "C", "D"] and js["topics"] == T
    rows = {(r["measure_a"], r["measure_b"]): r for r in js["rows"]}
    assert set(rows) == {("RR", "P@5"), ("RR", "RR"), ("P@5", "RR")}
    rr_p = rows[("RR", "P@5")]
    assert rr_p["overall"] == pytest.approx(0.2) and rr_p["topic_by_topic"] == pytest.approx(0.2)
    assert {k: rr_p["overall_counts"][k] for k in ("P", "Q", "T", "U", "tied_in_both")} == \
        {"P": 3, "Q": 2, "T": 0, "U": 0, "tied_in_both": 1}
    assert rows[("RR", "RR")]["overall"] == 1.0 and rows[("RR", "RR")]["topic_by_topic"] == 1.0


def test_correlation_csv_and_markdown(capsys, coll, tmp_path):
    qrels, runs = coll
    # RR puts A above B, AP puts B above A (1/4 < 0.679): with two systems tau is -1.
    code, out, _ = run_cli(capsys, "correlation", qrels, runs[0], runs[1], "--measures", "RR,AP", "--format", "csv")
    assert code == 0
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert (row["measure_a"], row["measure_b"]) == ("RR", "AP")
    assert float(row["overall"]) == -1.0 and float(row["topic_by_topic"]) == -1.0
    target = tmp_path / "tau.md"
    code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", "RR,P@5", "-o", target)
    assert code == 0 and out == "" and str(target) in err
    md = target.read_text()
    assert "| RR vs P@5 | 0.2000 | 0.2000 | 20 | 0 |" in md
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tau.md")]   # no temporary left


def test_gzip_qrels_read_like_plain(capsys, coll, tmp_path):
    qrels, runs = coll
    gz = tmp_path / "qrels.gz"
    gz.write_bytes(gzip.compress(qrels.read_bytes()))
    outs = [run_cli(capsys, "correlation", q, *runs, "--measures", "RR,P@5", "--format", "csv")[1] for q in (qrels, gz)]
    assert outs[0] == outs[1] and "RR,P@5" in outs[0]


# ---------------------------------------------------------------- significance
def test_significance_counts_compare_and_transform_json(capsys, coll):
    from scipy.stats import studentized_range

    qrels, runs = coll
    code, out, err = run_cli(capsys, "significance", qrels, *runs, "--measures", "RR,P@5,ir:P@5",
                             "--compare", "RR,P@5", "--transform", "--format", "json")
    assert code == 0, err
    js = json.loads(out)
    # Every system is constant over topics.  ANOVA: no error variance, so a pair is significant iff its
    # means differ: all pairs but A-D, 5 of 6.  Kruskal-Wallis + HSD on pooled ranks (N = 80): under RR the
    # tie groups are C (20 scores, mean rank 10.5), B (20, 30.5), A and D (40, 60.5); the smallest
    # nonzero difference of mean ranks is 20 and sigma^2 = N(N+1)/12 - sum(t^3 - t) / (12 (N - 1)).
    sigma2 = 80 * 81 / 12 - (2 * (20 ** 3 - 20) + (40 ** 3 - 40)) / (12 * 79)
    assert 20 / math.sqrt(sigma2 / T) > studentized_range.ppf(0.95, 4, math.inf)   # so all 5 are significant
    rows = {r["measure"]: r for r in js["rows"]}
    assert list(rows) == ["RR", "P@5", "ir:P@5"]
    for r in rows.values():
        assert r["kruskal_wallis_hsd"]["significant"] == 5 and r["anova_hsd"]["significant"] == 5
        assert r["anova_hsd"]["pairs"] == 6 and r["kruskal_wallis_hsd"]["ratio"] == pytest.approx(5 / 6)
    # the transformation keeps every topic's order and ties, and all topics are alike: nothing changes
    t = rows["RR"]["transformed"]
    assert t["measure"] == "rank[RR]@5" and t["kruskal_wallis_changes"] == 0 and t["anova_changes"] == 0
    assert t["anova_hsd"]["significant"] == 5
    assert rows["ir:P@5"]["transformed"] is None                     # ir_measures floats: no transformation
    # RR and P@5 both separate A-B and B-D, in opposite directions
    got = sorted((c["test"], c["system_a"], c["system_b"], c["kind"]) for c in js["changes"])
    assert got == sorted((test, a, b, "opposite") for test in ("anova+hsd", "kruskal-wallis+hsd")
                         for a, b in [("A", "B"), ("B", "D")])


def test_significance_markdown_and_csv(capsys, coll):
    qrels, runs = coll
    code, out, _ = run_cli(capsys, "significance", qrels, *runs, "--measures", "RR,P@5", "--compare", "RR,P@5")
    assert code == 0
    assert "| RR | 5 (83.33%) | 5 (83.33%) |" in out and "| P@5 | 5 (83.33%) | 5 (83.33%) |" in out
    assert "| RR | P@5 | anova+hsd | A | B | opposite |" in out
    code, out, _ = run_cli(capsys, "significance", qrels, *runs, "--measures", "RR,P@5", "--compare", "RR,P@5",
                           "--format", "csv")
    assert code == 0
    counts, changes = out.split("\n\n")
    counts = list(csv.DictReader(io.StringIO(counts)))
    assert [(r["measure"], int(r["kw_significant"]), int(r["anova_significant"]), int(r["pairs"])) for r in counts] \
        == [("RR", 5, 5, 6), ("P@5", 5, 5, 6)]
    changes = list(csv.DictReader(io.StringIO(changes)))
    assert len(changes) == 4 and {r["kind"] for r in changes} == {"opposite"}
    # canonical and typed names both find the measures
    code, out, _ = run_cli(capsys, "significance", qrels, *runs, "--measures", "RBP(p=0.5),RR",
                           "--compare", "RBP(p=0.5),RR", "--format", "json")
    assert code == 0 and json.loads(out)["compare"] == [{"measure_a": "RBP(p=0.5)", "measure_b": "RR"}]


def test_significance_kruskal_and_anova_differ_on_few_topics(capsys, coll, tmp_path):
    from scipy.stats import studentized_range

    _, runs = coll
    four = write_qrels(tmp_path / "four.txt", topics=range(1, 5))     # the runs' topics 5..20 are skipped
    code, out, err = run_cli(capsys, "significance", four, *runs, "--measures", "RR", "--skip-missing",
                             "--format", "json")
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    # ANOVA: constant systems, significant iff the means differ -> 5.  Kruskal-Wallis on N = 16 pooled RR
    # scores: mean ranks C 2.5, B 6.5, A = D 12.5 (tie groups of 4, 4, 8); a pair is significant iff
    # |R_i - R_j| / sqrt(sigma^2 / 4) exceeds the studentized range quantile q(0.95; 4, inf).
    sigma2 = 16 * 17 / 12 - (2 * (4 ** 3 - 4) + (8 ** 3 - 8)) / (12 * 15)
    q = studentized_range.ppf(0.95, 4, math.inf)
    mean_rank = {"A": 12.5, "B": 6.5, "C": 2.5, "D": 12.5}
    expected = sum(abs(mean_rank[a] - mean_rank[b]) / math.sqrt(sigma2 / 4) > q for a, b in PAIRS)
    assert expected == 2                                               # A-C and C-D only
    assert row["kruskal_wallis_hsd"]["significant"] == expected and row["anova_hsd"]["significant"] == 5


def test_transform_space_too_large_names_the_depth_then_works(capsys, coll, tmp_path):
    _, runs = coll
    big = write_qrels(tmp_path / "big.txt", relevant=25)    # 25 relevant documents: rank space ~ 2^30 at depth 30
    argv = ["significance", big, *runs[:3], "--measures", "AP", "--depth", "30", "--transform", "--format", "json"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "AP" in err and "--transform-depth" in err
    code, out, err = run_cli(capsys, *argv, "--transform-depth", "8")
    assert code == 0, err
    assert json.loads(out)["rows"][0]["transformed"]["measure"] == "rank[AP]@8"


def test_significance_transform_depth_names_the_version(capsys, coll):
    # the depth asked for is the depth used and printed (it was rank[P@5]@5: the full depth, the option ignored)
    qrels, runs = coll
    code, out, err = run_cli(capsys, "significance", qrels, *runs, "--measures", "P@5", "--transform",
                             "--transform-depth", "3", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["rows"][0]["transformed"]["measure"] == "rank[P@5]@3"
    code, out, err = run_cli(capsys, "significance", qrels, *runs, "--measures", "P@5", "--transform",
                             "--transform-depth", "9")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "rank[P@5]@9" in err


# ---------------------------------------------------------------- ranked measures rank[M]@N
@pytest.mark.slow
def test_ranked_measure_names_in_the_studies(capsys, coll):
    # RR at depth 3 with 4 relevant documents takes 0, 1/3, 1/2, 1: positions C 0, B 2, A = D 3 (RR's order)
    qrels, runs = coll
    code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", "RR, rank[ MRR ]@3,P@5",
                             "--format", "json")
    assert code == 0, err
    rows = {(r["measure_a"], r["measure_b"]): r for r in json.loads(out)["rows"]}
    assert set(rows) == {("RR", "rank[RR]@3"), ("RR", "P@5"), ("rank[RR]@3", "P@5")}
    assert rows[("RR", "rank[RR]@3")]["overall"] == 1.0
    assert rows[("rank[RR]@3", "P@5")]["overall"] == pytest.approx(0.2)      # as RR vs P@5
    code, out, err = run_cli(capsys, "significance", qrels, *runs, "--measures", "rank[RR]@3,RR",
                             "--compare", "rank[RR]@3,RR", "--transform", "--format", "json")
    assert code == 0, err
    js = json.loads(out)
    assert [r["measure"] for r in js["rows"]] == ["rank[RR]@3", "RR"]
    assert js["rows"][0]["transformed"] is None and js["rows"][1]["transformed"]["measure"] == "rank[RR]@5"
    assert js["changes"] == []
    code, out, err = run_cli(capsys, "significance", qrels, *runs, "--measures", "rank[RR]@3", "--transform")
    assert code == 0 and "n/a (ranked already)" in out
    for bad, word in (("rank[Foo]@3", "Foo"), ("rank[AP]@9", "rank[AP]@9"), ("rank[ir:P@5]@3", "ir:P@5"),
                      ("rank[AP]", "rank[M]@N")):
        code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", f"RR,{bad}")
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and word in err, (bad, err)


def test_correlation_transform_tables(capsys, coll, tmp_path):
    qrels, runs = coll
    code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", "RR,ir:P@5", "--transform",
                             "--transform-depth", "2", "--transform-depth", "3", "--format", "json")
    assert code == 0, err
    js = json.loads(out)
    assert [(r["measure_a"], r["measure_b"]) for r in js["rows"]] == [("RR", "ir:P@5")]
    assert [(r["measure_a"], r["measure_b"], r["depth"]) for r in js["transform"]] == \
        [("RR", "rank[RR]@2", 2), ("RR", "rank[RR]@3", 3)]
    # every topic alike and the transformation keeps each topic's order: tau 1 on every topic and overall
    assert all(r["overall"] == 1.0 and r["topic_by_topic"] == 1.0 for r in js["transform"])
    assert any("ir:P@5" in n and "no interval transformation" in n for n in js["notes"])
    # one measure is enough with --transform; the default depth is the rankings' (5 documents)
    code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", "RR", "--transform", "--format", "csv")
    assert code == 0, err
    assert out.splitlines()[0].startswith("measure_a,") and "RR,rank[RR]@5,1.0,1.0,20,0" in out
    code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", "RR,AP", "--transform")
    assert code == 0, err
    assert "| RR vs AP |" in out and "| AP vs rank[AP]@5 | 1.0000 | 1.0000 | 20 | 0 |" in out
    assert "interval transformation rank[M]@N" in out
    for extra in (["--transform-depth", "2"], ["--transform", "--depth", "3", "--transform-depth", "4"],
                  ["--transform", "--transform-depth", "0"]):
        code, out, err = run_cli(capsys, "correlation", qrels, *runs, "--measures", "RR", *extra)
        assert code == 2 and out == "" and "--transform" in err and len(err.strip().splitlines()) == 1, extra
    big = write_qrels(tmp_path / "big.txt", relevant=25)
    argv = ["correlation", big, *runs[:3], "--measures", "AP", "--depth", "30", "--transform", "--format", "json"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and "rank[AP]@30" in err and "--transform-depth" in err
    code, out, err = run_cli(capsys, *argv, "--transform-depth", "8")
    assert code == 0, err
    assert json.loads(out)["transform"][0]["measure_b"] == "rank[AP]@8"


# ---------------------------------------------------------------- downsampling
def test_downsampling_formats_figure_and_seed(capsys, coll, tmp_path):
    qrels, runs = coll
    fig = tmp_path / "tau.png"
    argv = ["downsampling", qrels, *runs, "--measures", "RR,AP", "--fractions", "100,50", "--repetitions", "2",
            "--seed", "3", "--format", "json"]
    code, out, err = run_cli(capsys, *argv, "--figure", fig)
    assert code == 0, err
    assert fig.stat().st_size > 0
    js = json.loads(out)
    assert js["fractions"] == [100, 50] and js["strategies"] == ["stratified", "uniform"] and js["figure"] == str(fig)
    assert len(js["rows"]) == 2 * 2 * 2
    for row in js["rows"]:
        assert set(row) >= {"measure", "strategy", "fraction", "mean", "sd", "tau_1", "tau_2"}
        if row["fraction"] == 100:          # the 100 % sample is the full pool: the ranking is unchanged
            assert row["tau_1"] == row["tau_2"] == row["mean"] == 1.0 and row["sd"] == 0.0
        else:
            assert -1 <= row["tau_1"] <= 1
    assert run_cli(capsys, *argv)[1] == out.replace(f',\n  "figure": "{fig}"', "")   # same seed, same numbers
    code, out, _ = run_cli(capsys, *argv[:-2], "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["measure"], r["strategy"], int(r["fraction"])) for r in rows] == \
        [(m, s, p) for m in ("RR", "AP") for s in ("stratified", "uniform") for p in (100, 50)]
    code, out, _ = run_cli(capsys, *argv[:-2])
    assert "| RR | stratified | 1.0000 ± 0.0000 |" in out


def test_downsampling_undefined_tau_is_null_not_a_crash(capsys, coll):
    qrels, runs = coll
    # A and D are identical: every ranking ties them, so tau-b is undefined at every percentage
    code, out, err = run_cli(capsys, "downsampling", qrels, runs[0], runs[3], "--measures", "RR",
                             "--fractions", "50", "--repetitions", "1", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert len(rows) == 2 and all(r["tau_1"] is None and r["mean"] is None for r in rows)


# ---------------------------------------------------------------- discrimination
def test_discrimination_degenerate_pairs_known(capsys, coll, tmp_path):
    qrels, runs = coll
    fig = tmp_path / "asl.pdf"
    code, out, err = run_cli(capsys, "discrimination", qrels, *runs, "--measures", "RR,AP", "--bootstrap", "50",
                             "--figure", fig, "--format", "json")
    assert code == 0, err
    assert fig.read_bytes()[:4] == b"%PDF"
    js = json.loads(out)
    for row in js["rows"]:
        # A and D are identical (ASL 1); every other pair differs by the same amount on every topic (ASL 0)
        asl = {(p["system_a"], p["system_b"]): p["asl"] for p in row["pair_asl"]}
        assert asl == {pair: (1.0 if pair == ("A", "D") else 0.0) for pair in PAIRS}
        assert row["significant"] == 5 and row["pairs"] == 6 and row["power"] == pytest.approx(5 / 6)
        assert row["min_delta"] is None                          # no pair has a bootstrap distribution
        assert row["asl_curve"] == [0.0] * 5 + [1.0]
    code, out, _ = run_cli(capsys, "discrimination", qrels, *runs, "--measures", "RR,AP", "--bootstrap", "50",
                           "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["measure"], int(r["significant"]), int(r["pairs"])) for r in rows] == [("RR", 5, 6), ("AP", 5, 6)]
    code, out, _ = run_cli(capsys, "discrimination", qrels, *runs, "--measures", "RR", "--bootstrap", "50")
    assert "| RR | 5 / 6 | 83.33% | nan |" in out


def test_discrimination_is_deterministic_given_the_seed(capsys, tmp_path):
    qrels = write_qrels(tmp_path / "q")
    runs = []
    for name, period in (("V1", 2), ("V2", 3), ("V3", 5)):
        p = tmp_path / f"input.{name}"          # the first relevant document moves with the topic
        p.write_text(run_lines(name, lambda t, k=period: [f"n{i:02d}" for i in range(t % k)] + ["r1"]))
        runs.append(p)
    argv = ["discrimination", qrels, *runs, "--measures", "RR", "--bootstrap", "200", "--seed", "7",
            "--format", "json"]
    first, second = run_cli(capsys, *argv), run_cli(capsys, *argv)
    assert first[0] == 0 and first[1] == second[1]
    asl = [p["asl"] for p in json.loads(first[1])["rows"][0]["pair_asl"]]
    assert all(0 <= a <= 1 for a in asl) and any(0 < a < 1 for a in asl)   # real bootstrap distributions


# ---------------------------------------------------------------- errors
def _bad_files(tmp_path: Path) -> dict:
    (tmp_path / "bad").mkdir()
    files = {
        "qrels_short": "1 0 r1 1\n1 0 r2\n",
        "qrels_grade": "1 0 r1 1\n1 0 r2 high\n",
        "run_short": "1 Q0 r1 1 2.0 X\n1 Q0 r2 2 1.0 X\n1 Q0 r3 3 X\n",
        "run_score": "1 Q0 r1 1 2.0 X\n1 Q0 r2 2 many X\n",
        "empty_run": "",
        "missing_run": "1 Q0 r1 1 2.0 M\n99 Q0 r1 1 2.0 M\n",
        "empty_qrels": "\n",
    }
    for name, text in files.items():
        (tmp_path / "bad" / name).write_text(text)
    return {k: tmp_path / "bad" / k for k in files}


CASES = [  # (id, argv with placeholders, words the one stderr line must hold)
    ("qrels-fields", ["correlation", "{qrels_short}", "{A}", "{B}", "--measures", "RR,AP"], ["qrels_short:2", "4 fields"]),
    ("qrels-grade", ["correlation", "{qrels_grade}", "{A}", "{B}", "--measures", "RR,AP"], ["qrels_grade:2", "'high'"]),
    ("qrels-empty", ["correlation", "{empty_qrels}", "{A}", "{B}", "--measures", "RR,AP"], ["empty_qrels", "empty qrels"]),
    ("run-fields", ["correlation", "{qrels}", "{A}", "{run_short}", "--measures", "RR,AP"], ["run_short:3", "6 fields"]),
    ("run-score", ["significance", "{qrels}", "{A}", "{run_score}", "--measures", "RR"], ["run_score:2", "'many'"]),
    ("run-empty", ["discrimination", "{qrels}", "{A}", "{empty_run}", "--measures", "RR"], ["empty_run", "empty run"]),
    ("missing-topic", ["correlation", "{qrels}", "{A}", "{missing_run}", "--measures", "RR,AP"], ["missing_run", "topic 99", "--skip-missing"]),
    ("unknown-measure", ["correlation", "{qrels}", "{A}", "{B}", "--measures", "RR,Foo"], ["'Foo'"]),
    ("bad-parameter", ["significance", "{qrels}", "{A}", "{B}", "--measures", "RBP(p=2)"], ["p=2"]),
    ("one-measure", ["correlation", "{qrels}", "{A}", "{B}", "--measures", "RR"], ["--measures 'RR'"]),
    ("fraction-0", ["downsampling", "{qrels}", "{A}", "{B}", "--measures", "RR", "--fractions", "90,0"], ["fraction", "0"]),
    ("fraction-101", ["downsampling", "{qrels}", "{A}", "{B}", "--measures", "RR", "--fractions", "101"], ["101"]),
    ("fraction-word", ["downsampling", "{qrels}", "{A}", "{B}", "--measures", "RR", "--fractions", "90,half"], ["'half'"]),
    ("strategy", ["downsampling", "{qrels}", "{A}", "{B}", "--measures", "RR", "--strategies", "random"], ["'random'"]),
    ("figure-suffix", ["downsampling", "{qrels}", "{A}", "{B}", "--measures", "RR", "--figure", "{tmp}/f.svg"], ["f.svg", "'.svg'"]),
    ("figure-folder", ["discrimination", "{qrels}", "{A}", "{B}", "--measures", "RR", "--figure", "{empty_run}/f.png"], ["empty_run/f.png", "is a file, not a folder"]),
    ("output-folder", ["correlation", "{qrels}", "{A}", "{B}", "--measures", "RR,AP", "-o", "{empty_run}/t.md"], ["empty_run/t.md", "is a file, not a folder"]),
    ("one-run", ["correlation", "{qrels}", "{A}", "--measures", "RR,AP"], ["input.A", "at least two run files"]),
    ("format", ["correlation", "{qrels}", "{A}", "{B}", "--measures", "RR,AP", "--format", "xml"], ["'xml'"]),
    ("view", ["correlation", "{qrels}", "{A}", "{B}", "--measures", "RR,AP", "--view", "lenient"], ["'lenient'"]),
    ("alpha", ["significance", "{qrels}", "{A}", "{B}", "--measures", "RR", "--alpha", "1.5"], ["--alpha 1.5"]),
    ("compare", ["significance", "{qrels}", "{A}", "{B}", "--measures", "RR,AP", "--compare", "RR,nDCG"], ["'nDCG'"]),
    ("bootstrap", ["discrimination", "{qrels}", "{A}", "{B}", "--measures", "RR", "--bootstrap", "0"], ["--bootstrap 0"]),
    ("seed", ["discrimination", "{qrels}", "{A}", "{B}", "--measures", "RR", "--seed", "-1"], ["--seed -1"]),
    ("same-run-name", ["correlation", "{qrels}", "{A}", "{A2}", "--measures", "RR,AP"], ["'A'", "already used"]),
    ("no-qrels", ["correlation", "{tmp}/nothing", "{A}", "{B}", "--measures", "RR,AP"], ["nothing", "no such file"]),
]


@pytest.mark.parametrize("argv, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
@pytest.mark.slow
def test_bad_input_exits_2_with_one_line_naming_it(capsys, coll, tmp_path, argv, words):
    qrels, runs = coll
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "input.A").write_text(runs[0].read_text())
    names = {**{k: str(v) for k, v in _bad_files(tmp_path).items()}, "qrels": str(qrels), "A": str(runs[0]),
             "B": str(runs[1]), "A2": str(tmp_path / "copy" / "input.A"), "tmp": str(tmp_path)}
    code, out, err = run_cli(capsys, *[a.format(**names) if "{" in a else a for a in argv])
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for w in words:
        assert w in lines[0], lines[0]


def test_skip_missing_ignores_the_extra_topic(capsys, coll, tmp_path):
    qrels, runs = coll
    extra = tmp_path / "input.M"
    extra.write_text(runs[0].read_text().replace(" A\n", " M\n") + "99 Q0 r1 1 2.0 M\n")   # A plus topic 99
    code, out, err = run_cli(capsys, "correlation", qrels, runs[0], runs[1], extra, "--measures", "RR,AP",
                             "--skip-missing", "--format", "json")
    assert code == 0, err
    js = json.loads(out)
    assert js["systems"] == ["A", "B", "M"] and any("99" in n for n in js["notes"])
    assert js["rows"][0]["overall_counts"]["tied_in_both"] == 1          # M is A on the qrels' topics


# ---------------------------------------------------------------- study
def test_study_passes_its_options_to_run_study(capsys, tmp_path, monkeypatch):
    calls = []

    def run_study(**kw):
        kw["progress"]("topics", 1, 2)                                    # the progress callback accepts calls
        calls.append(kw)
        return kw["out"] / "experiments-robust03.md"

    monkeypatch.setitem(sys.modules, "workbench.papers.study", types.SimpleNamespace(run_study=run_study))
    monkeypatch.setenv("WORKBENCH_DATA", str(tmp_path))
    (tmp_path / "robust03").mkdir()
    (tmp_path / "robust03" / "qrels.txt").write_text("")                # the layout WORKBENCH_DATA must hold
    (tmp_path / "rep").mkdir()
    code, out, err = run_cli(capsys, "study", "--reports", tmp_path / "rep", "--repetitions", "2",
                             "--bootstrap", "30", "--seed", "4")
    assert code == 0, err
    (kw,) = calls
    assert kw["data"] == tmp_path / "robust03" and kw["out"] == tmp_path / "rep"
    assert (kw["repetitions"], kw["bootstrap"], kw["seed"]) == (2, 30, 4)
    assert str(tmp_path / "rep" / "experiments-robust03.md") in out
    code, out, err = run_cli(capsys, "study", "--data", tmp_path / "none")
    assert code == 2 and "none" in err and len(err.strip().splitlines()) == 1 and len(calls) == 1


# ---------------------------------------------------------------- real data
@pytest.mark.skipif(not (ROBUST / "qrels.txt").is_file(), reason=f"Robust 2003 data not found at {ROBUST}")
@pytest.mark.slow
def test_robust03_correlation_structure(capsys):
    runs = [ROBUST / "runs" / "input.InexpC2.gz", ROBUST / "runs" / "input.Sel50.gz"]
    code, out, err = run_cli(capsys, "correlation", ROBUST / "qrels.txt", *runs,
                             "--measures", "AP,RBP(p=0.8),nDCG@10,ir:Bpref", "--depth", "250", "--format", "json")
    assert code == 0, err
    js = json.loads(out)
    judged = {}
    for line in (ROBUST / "qrels.txt").read_text().splitlines():
        t, _, _, g = line.split()
        judged[t] = judged.get(t, False) or int(g) >= 1
    assert js["systems"] == ["InexpC2", "Sel50"] and js["topics"] == sum(judged.values())
    names = ["AP", "RBP(p=0.8)", "nDCG@10", "ir:Bpref"]
    assert [(r["measure_a"], r["measure_b"]) for r in js["rows"]] == \
        [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    for r in js["rows"]:
        assert r["overall"] in (-1.0, 1.0, None)                          # two systems: concordant, discordant or tied
        assert -1 <= r["topic_by_topic"] <= 1 and r["topics"] == js["topics"]
