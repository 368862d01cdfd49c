"""Twist over TREC runs (workbench.experiments.twist_runs, `workbench twist-runs`, `workbench twist-curve`).

Synthetic qrels and runs where the answer is known by construction (ideal
runs, runs without a relevant document), every row checked against the
:func:`workbench.measures.crp.curves` oracle, gain measures against hand-written AP,
RBP and nDCG, and the effort/gain grid against brute-force counting.  The
Robust 2003 tests skip when the data is missing.
"""
from __future__ import annotations

import gzip
import json
import math
import os
import random
import statistics
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import cli_inputs
from workbench.measures.crp import TABLE2, curves
from workbench.errors import TrecFormatError, WorkbenchError
from workbench.space.runs import Topic
from workbench.figures.twist_plots import effort_gain_figure
from workbench.experiments.twist_runs import (
    GAIN_MEASURES,
    TABLE2_COLUMNS,
    effort_gain_grid,
    topic_curve,
    twist_table,
)

DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
ROBUST = DATA / "robust03"
needs_robust = pytest.mark.skipif(not (ROBUST / "qrels.txt").is_file(),
                                  reason=f"Robust 2003 data not found at {ROBUST} (set WORKBENCH_DATA)")
RUNS = sorted((ROBUST / "runs").glob("input.*.gz")) if ROBUST.is_dir() else []

# ---------------------------------------------------------------- synthetic collection
QRELS = {
    "1": {"a": 2, "b": 1, "c": 1, "n1": 0, "n2": 0},
    "2": {"d": 1, "e": 1, "n3": 0},
    "3": {"x": 0, "y": 0},                                    # no relevant document: skipped
    "4": {f"r{i}": 1 for i in range(6)} | {"n4": 0},          # RB 6: skipped when depth < 12
}
DEPTH = 11                                                    # < 2 RB of topic 4


def ideal_ranking(q: dict) -> list[str]:
    return sorted((d for d, g in q.items() if g >= 1), key=lambda d: (-q[d], d))


def write_qrels(path: Path, qrels: dict) -> Path:
    path.write_text("".join(f"{t} 0 {d} {g}\n" for t, q in qrels.items() for d, g in q.items()))
    return path


def write_run(path: Path, run: dict, tag: str = "t", gz: bool = False) -> Path:
    text = "".join(f"{t} Q0 {d} {i + 1} {len(docs) - i} {tag}\n" for t, docs in run.items() for i, d in enumerate(docs))
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


def random_run(rng: random.Random, depth: int) -> dict:
    out = {}
    for t, q in QRELS.items():
        docs = list(q) + [f"u{t}_{i}" for i in range(depth)]       # judged + unjudged documents
        rng.shuffle(docs)
        out[t] = docs[:rng.randint(1, depth + 3)]
    return out


IDEAL = {t: ideal_ranking(q) for t, q in QRELS.items()}
NONE = {t: [d for d, g in q.items() if g < 1] + ["zz1", "zz2"] for t, q in QRELS.items()}
PARTIAL = {"1": ["n1", "c", "n2", "b", "a"]}                     # answers topic 1 only


@pytest.fixture
def files(tmp_path):
    q = write_qrels(tmp_path / "qrels.txt", QRELS)
    runs = [write_run(tmp_path / "ideal.txt", IDEAL), write_run(tmp_path / "none.gz", NONE, gz=True),
            write_run(tmp_path / "partial.txt", PARTIAL)]
    rng = random.Random(7)
    runs += [write_run(tmp_path / f"rand{i}.txt", random_run(rng, DEPTH)) for i in range(4)]
    return q, runs


def oracle_block(qrels, rankings, topic_id, depth):
    """Judged, cut and padded grades of each ranking on one topic, written out here."""
    c = max(g for q in qrels.values() for g in q.values())
    rows = []
    for r in rankings:
        g = [max(qrels[topic_id].get(d, 0), 0) for d in r.get(topic_id, [])[:depth]]
        rows.append(g + [0] * (depth - len(g)))
    counts = tuple(sum(1 for v in qrels[topic_id].values() if v == j) for j in range(1, c + 1))
    return np.array(rows), Topic(counts)


# ---------------------------------------------------------------- hand-written gain measures
def ap(grades, rb):
    hits, s = 0, 0.0
    for i, g in enumerate(grades, start=1):
        if g >= 1:
            hits += 1
            s += hits / i
    return s / rb


def rbp(grades, p=0.8):
    return (1 - p) * sum(p ** (i - 1) for i, g in enumerate(grades, start=1) if g >= 1)


def ndcg(grades, qrels_topic, depth):
    def dcg(gs):
        return sum(g / math.log2(i + 1) for i, g in enumerate(gs, start=1))

    ideal = sorted((g for g in qrels_topic.values() if g > 0), reverse=True)[:depth]
    return dcg(grades) / dcg(ideal)


# ---------------------------------------------------------------- synthetic tests
def test_rows_match_the_curves_oracle(files):
    q, runs = files
    tab = twist_table(q, runs, DEPTH)
    rankings = [{t: d for t, d in r.items()} for r in [IDEAL, NONE, PARTIAL]]
    from workbench.data.trec import read_run

    rankings += [read_run(p) for p in runs[3:]]
    assert tab.topics == ["1", "2"]
    assert len(tab.rows) == len(runs) * 2
    for t in tab.topics:
        block, topic = oracle_block(QRELS, rankings, t, DEPTH)
        c = curves(block, topic)
        rows = [r for r in tab.rows if r.topic == t]
        assert [r.run for r in rows] == tab.runs
        for i, r in enumerate(rows):
            assert r.twist == c.twist(i) and isinstance(r.twist, Fraction)
            assert r.recovery_ratio == c.recovery_ratio(i)
            assert r.space_ratio == c.space_ratios(i)[2]
            assert r.first_crossing == (int(c.first_crossing[i]) or None)
            assert r.archetype == c.archetype(i)
            assert r.recall_base == topic.recall_base
            assert r.relevant_retrieved == int((block[i] > 0).sum())


def test_known_answers_by_construction(files):
    q, runs = files
    tab = twist_table(q, runs, DEPTH)
    by = {(r.run, r.topic): r for r in tab.rows}
    for t in tab.topics:
        ideal = by[("ideal.txt", t)]
        assert (ideal.twist, ideal.archetype, ideal.recovery_ratio, ideal.space_ratio) == (1, "ideal", 1, 1)
        worst = by[("none.gz", t)]
        assert worst.archetype == "worst" and worst.relevant_retrieved == 0
        block, topic = oracle_block(QRELS, [NONE], t, DEPTH)
        assert worst.twist == curves(block, topic).twist(0)
    # the partial run does not answer topic 2: all grade 0, worst, and listed as missing
    assert by[("partial.txt", "2")].archetype == "worst" and by[("partial.txt", "2")].retrieved == 0
    assert tab.missing == {"partial.txt": ["2"]}
    assert tab.skipped == [{"topic": "3", "reason": "no relevant document (recall base 0)"},
                           {"topic": "4", "reason": tab.skipped[1]["reason"]}]
    assert "2 RB = 12" in tab.skipped[1]["reason"]
    # every run is padded to N = depth: shorter rankings are listed
    assert tab.short["ideal.txt"] == 2
    assert tab.grades == 2


def test_topic_skipped_only_below_twice_the_recall_base(files):
    q, runs = files
    tab = twist_table(q, runs[:2], 2 * 6 - 1, gain_measures=False)
    assert "4" not in tab.topics
    tab = twist_table(q, runs[:2], 2 * 6, gain_measures=False)
    assert tab.topics == ["1", "2", "4"] and [s["topic"] for s in tab.skipped] == ["3"]


def test_dicts_and_paths_give_the_same_table(files):
    q, runs = files
    a = twist_table(q, runs[:3], DEPTH, names=["i", "n", "p"])
    b = twist_table(QRELS, [IDEAL, NONE, PARTIAL], DEPTH, names=["i", "n", "p"])
    assert [r.to_dict() for r in a.rows] == [r.to_dict() for r in b.rows]


def test_gain_measures_against_hand_written_formulas(files):
    q, runs = files
    from workbench.data.trec import read_run

    tab = twist_table(q, runs, DEPTH)
    rankings = dict(zip(tab.runs, [IDEAL, NONE, PARTIAL] + [read_run(p) for p in runs[3:]]))
    for r in tab.rows:
        docs = rankings[r.run].get(r.topic, [])[:DEPTH]
        grades = [max(QRELS[r.topic].get(d, 0), 0) for d in docs]
        rb = sum(1 for g in QRELS[r.topic].values() if g >= 1)
        assert r.gains["AP"] == pytest.approx(ap(grades, rb), abs=1e-9)
        assert r.gains["RBP(0.8)"] == pytest.approx(rbp(grades), abs=1e-9)
        assert r.gains["nDCG"] == pytest.approx(ndcg(grades, QRELS[r.topic], DEPTH), abs=1e-9)


def test_means_and_table2_distribution(files):
    q, runs = files
    tab = twist_table(q, runs, DEPTH)
    for d in tab.run_means():
        rs = [r for r in tab.rows if r.run == d["run"]]
        assert d["mean_twist"] == sum(r.twist for r in rs) / len(rs)
        assert d["topics"] == len(rs)
        assert sum(d["archetypes"].values()) == len(rs)
    dist = tab.distribution()
    assert dist["total"] == len(tab.rows)
    for col in TABLE2_COLUMNS:
        assert dist["counts"][col] == sum(1 for r in tab.rows if TABLE2[r.archetype] == col)
    assert sum(dist["percentages"].values()) == pytest.approx(100.0)
    assert dist["counts"]["ideal"] == 2 and dist["counts"]["worst"] >= 3


def brute_grid(gains, twists):
    q = statistics.quantiles(gains, n=4, method="inclusive")      # = numpy's linear interpolation
    counts = [[0] * 4 for _ in range(4)]
    for g, t in zip(gains, twists):
        row = 0
        while row < 3 and g > q[row]:                              # equal to a threshold: lower row
            row += 1
        if t < Fraction(1, 4):
            col = 0
        elif t < Fraction(1, 2):
            col = 1
        elif t < Fraction(3, 4):
            col = 2
        else:
            col = 3
        counts[row][col] += 1
    return q, counts


@pytest.mark.parametrize("seed", range(6))
def test_effort_gain_grid_against_brute_force(seed):
    rng = random.Random(seed)
    n = rng.randint(5, 60)
    twists = [rng.choice([Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1),
                          Fraction(rng.randint(0, 97), 97)]) for _ in range(n)]
    gains = [rng.choice([0.0, 0.5, 1.0, round(rng.random(), 2)]) for _ in range(n)]
    g = effort_gain_grid("AP", gains, twists)
    q, counts = brute_grid(gains, twists)
    assert g.thresholds == pytest.approx(tuple(q))
    assert [list(r) for r in g.counts] == counts
    assert g.total == n
    assert g.diagonal == sum(counts[i][i] for i in range(4))
    assert g.high_high == sum(counts[i][j] for i in (2, 3) for j in (0, 1))
    assert g.share("diagonal") == g.diagonal / n


def test_table_grids_use_every_point(files):
    q, runs = files
    tab = twist_table(q, runs, DEPTH)
    for m, g in tab.effort_gain().items():
        _, counts = brute_grid([r.gains[m] for r in tab.rows], [r.twist for r in tab.rows])
        assert [list(r) for r in g.counts] == counts


@pytest.mark.slow
def test_figures(files, tmp_path):
    q, runs = files
    tab = twist_table(q, runs, DEPTH)
    for suffix in (".png", ".pdf"):
        p = effort_gain_figure(tab, tmp_path / f"eg{suffix}")
        assert p.is_file() and p.stat().st_size > 0
    with pytest.raises(WorkbenchError, match="unknown format"):
        effort_gain_figure(tab, tmp_path / "eg.svg")
    assert not (tmp_path / "eg.svg").exists()


def test_topic_curve(files):
    q, runs = files
    tc = topic_curve(q, runs[2], "1", DEPTH)
    block, topic = oracle_block(QRELS, [PARTIAL], "1", DEPTH)
    assert tc.row == curves(block, topic).row(0)
    assert tc.dcg[-1] == pytest.approx(sum(g / math.log2(i + 1) for i, g in enumerate(block[0], start=1)))
    with pytest.raises(WorkbenchError, match="not in the qrels"):
        topic_curve(q, runs[2], "99", DEPTH)
    with pytest.raises(WorkbenchError, match="no relevant document"):
        topic_curve(q, runs[2], "3", DEPTH)
    small = topic_curve(q, runs[0], "4", 8, gain_measures=False)      # N < 2 RB: Twist undefined, curve defined
    assert small.row["twist"] is None and "2 RB" in small.row["undefined"]


def test_bad_input(files, tmp_path):
    q, runs = files
    with pytest.raises(TrecFormatError, match="no such file"):
        twist_table(q, [tmp_path / "missing.txt"], DEPTH)
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2\n")
    with pytest.raises(TrecFormatError, match="bad.txt:2"):
        twist_table(q, [bad], DEPTH)
    with pytest.raises(WorkbenchError, match="crossing"):
        twist_table(q, runs, DEPTH, crossing="sideways")


# ---------------------------------------------------------------- CLI
def run_cli(args, capsys):
    return cli_inputs.run_cli(capsys, *args)


def test_cli_twist_runs_json(files, tmp_path, capsys):
    q, runs = files
    fig = tmp_path / "eg.pdf"
    code, out, err = run_cli(["twist-runs", q, *runs, "--depth", DEPTH, "--per-topic", "--effort-gain", fig, "--json"],
                             capsys)
    assert code == 0, err
    d = json.loads(out)
    assert {"runs", "depth", "crossing", "topics", "skipped_topics", "per_run", "table2", "effort_gain",
            "rows", "effort_gain_figure", "missing_topics", "unjudged_in_top_depth"} <= set(d)
    assert set(d["table2"]["counts"]) == set(TABLE2_COLUMNS)
    assert set(d["effort_gain"]) == set(GAIN_MEASURES)
    assert {"counts", "diagonal_share", "high_high_share", "gain_thresholds"} <= set(d["effort_gain"]["AP"])
    assert len(d["rows"]) == len(runs) * 2 and d["depth"] == DEPTH
    assert fig.is_file() and fig.stat().st_size > 0


def test_cli_twist_runs_text_and_strict(files, capsys):
    q, runs = files
    code, out, _ = run_cli(["twist-runs", q, *runs[:3], "--depth", DEPTH, "--crossing", "strict"], capsys)
    assert code == 0
    assert "Crossing: strict" in out and "Mean Twist per run" in out and "Table 2" in out
    assert "diagonal" in out and "high-high" in out


@pytest.mark.slow
def test_cli_twist_curve(files, tmp_path, capsys):
    q, runs = files
    fig = tmp_path / "curve.png"
    code, out, err = run_cli(["twist-curve", q, runs[2], "--topic-id", "1", "-o", fig, "--depth", DEPTH, "--json"],
                             capsys)
    assert code == 0, err
    d = json.loads(out)
    assert {"twist", "archetype", "crossings", "first_crossing", "recovery_ratio", "space_ratio", "gains",
            "figure"} <= set(d)
    assert fig.is_file() and fig.stat().st_size > 0
    code, out, _ = run_cli(["twist-curve", q, runs[2], "--topic-id", "1", "-o", tmp_path / "c.pdf",
                            "--depth", DEPTH], capsys)
    assert code == 0 and "archetype" in out and (tmp_path / "c.pdf").stat().st_size > 0


@pytest.mark.parametrize("case", ["missing_qrels", "missing_run", "bad_qrels", "bad_run", "topic", "suffix"])
def test_cli_bad_input(case, files, tmp_path, capsys):
    q, runs = files
    badq = tmp_path / "badq.txt"
    badq.write_text("1 0 a\n")
    badr = tmp_path / "badr.txt"
    badr.write_text("1 Q0 a 1 high t\n")
    fig = tmp_path / ("out.svg" if case == "suffix" else "out.png")
    args = {
        "missing_qrels": ["twist-runs", tmp_path / "nope.txt", runs[0], "--effort-gain", fig],
        "missing_run": ["twist-runs", q, runs[0], tmp_path / "nope.gz", "--effort-gain", fig],
        "bad_qrels": ["twist-curve", badq, runs[0], "--topic-id", "1", "-o", fig],
        "bad_run": ["twist-runs", q, runs[0], badr, "--effort-gain", fig],
        "topic": ["twist-curve", q, runs[0], "--topic-id", "42", "-o", fig],
        "suffix": ["twist-runs", q, runs[0], "--effort-gain", fig],
    }[case]
    code, out, err = run_cli(args, capsys)
    assert code == 2
    assert out == "" and err.count("\n") == 1 and err.startswith("workbench: error:")
    assert not fig.exists() and not list(tmp_path.glob(".out*"))


# ---------------------------------------------------------------- Robust 2003
@pytest.fixture(scope="module")
def robust_all():
    return twist_table(ROBUST / "qrels.txt", RUNS, 1000, gain_measures=False)


@needs_robust
@pytest.mark.slow
def test_robust_all_runs_depth_1000(robust_all):
    tab = robust_all
    from workbench.data.trec import read_qrels, read_run

    assert len(tab.runs) == 17 and len(tab.topics) == 100 and tab.skipped == []
    assert len(tab.rows) == 1700 and tab.grades == 2
    assert tab.short["input.NLPR03vb10.gz"] == 100 and tab.short["input.humR03dc.gz"] == 100
    dist = tab.distribution()
    assert dist["total"] == 1700 and sum(dist["counts"].values()) == 1700
    assert dist["counts"]["ideal"] == 0 and dist["counts"]["full-scale"] == 0
    # two topics re-scored from scratch against the curves oracle
    qrels = read_qrels(ROBUST / "qrels.txt")
    rankings = [read_run(p) for p in RUNS[:4]]
    for t in ("303", "650"):
        block, topic = oracle_block(qrels, rankings, t, 1000)
        c = curves(block, topic)
        rows = [r for r in tab.rows if r.topic == t][:4]
        assert [r.twist for r in rows] == [c.twist(i) for i in range(4)]
        assert [r.archetype for r in rows] == [c.archetype(i) for i in range(4)]


@needs_robust
@pytest.mark.slow
def test_robust_cli_two_runs(tmp_path, capsys):
    fig = tmp_path / "eg.png"
    code, out, err = run_cli(["twist-runs", ROBUST / "qrels.txt", RUNS[13], RUNS[14], "--depth", 1000,
                              "--effort-gain", fig, "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["n_points"] == 200 and d["table2"]["total"] == 200
    for m in GAIN_MEASURES:
        g = d["effort_gain"][m]
        assert sum(map(sum, g["counts"])) == 200
        assert 0 <= g["diagonal_share"] <= 1 and 0 <= g["high_high_share"] <= 1
    assert fig.stat().st_size > 0


@needs_robust
@pytest.mark.slow
def test_robust_twist_curve(tmp_path, capsys):
    fig = tmp_path / "c.pdf"
    code, out, err = run_cli(["twist-curve", ROBUST / "qrels.txt", RUNS[13], "--topic-id", "303", "-o", fig, "--json"],
                             capsys)
    assert code == 0, err
    d = json.loads(out)
    from workbench.data.trec import read_qrels, read_run

    block, topic = oracle_block(read_qrels(ROBUST / "qrels.txt"), [read_run(RUNS[13])], "303", 1000)
    assert d["twist"] == str(curves(block, topic).twist(0)) and d["recall_base"] == topic.recall_base
    assert fig.stat().st_size > 0
