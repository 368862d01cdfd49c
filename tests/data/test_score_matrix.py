"""Score matrices of TREC runs (workbench.data.score_matrix) and their interval transformation (workbench.data.ranked_matrix).

Synthetic qrels and runs written in tmp_path, with every expected value
computed here independently: hand-written AP / P / RBTO / DCG oracles on
Fractions, ir_measures on the same data, brute-force enumeration of the
attainable values for the transformation.  The Robust 2003 tests check
structure only and skip when the data is missing.
"""
from __future__ import annotations

import gzip
import itertools
import math
import os
import random
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy

from workbench.data.exact_scores import evaluate_measure
from workbench.errors import (
    BadParameterError,
    SpaceTooLargeError,
    TrecFormatError,
    UnknownMeasureError,
    WorkbenchError,
)
from workbench.measures.names import parse_measure
from workbench.data.ranked_matrix import ranked_matrix
from workbench.space.runs import Gains, Topic
from workbench.data.score_matrix import (
    MissingTopicError,
    load_runs,
    resolve_measure,
    run_name,
    score_matrices,
)

DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
ROBUST = DATA / "robust03"
needs_robust = pytest.mark.skipif(not (ROBUST / "qrels.txt").is_file(),
                                  reason=f"Robust 2003 data not found at {ROBUST} (set WORKBENCH_DATA)")

QRELS = {
    "2": {"a": 2, "b": 1, "c": 1, "n1": 0, "n2": -1},
    "10": {"d": 1, "e": 2, "n3": 0},
    "3": {"x": 0},                                   # no relevant document: not scored
}


def write_qrels(path: Path, qrels: dict) -> Path:
    path.write_text("".join(f"{t} 0 {d} {g}\n" for t, q in qrels.items() for d, g in q.items()))
    return path


def write_run(path: Path, run: dict, gz: bool = False) -> Path:
    text = "".join(f"{t} Q0 {d} {i + 1} {len(docs) - i} tag\n" for t, docs in run.items() for i, d in enumerate(docs))
    path.write_bytes(gzip.compress(text.encode())) if gz else path.write_text(text)
    return path


def graded(qrels_topic, ranking, depth, binary=False):
    g = [max(qrels_topic.get(d, 0), 0) for d in ranking[:depth]]
    g = [min(x, 1) for x in g] if binary else g
    return g + [0] * (depth - len(g))


def ap_oracle(grades, rb):
    hits, s = 0, Fraction(0)
    for i, g in enumerate(grades, start=1):
        if g >= 1:
            hits += 1
            s += Fraction(hits, i)
    return s / rb


def random_runs(seed, n=5, extra=6):
    rng = random.Random(seed)
    out = {}
    for k in range(n):
        run = {}
        for t, q in QRELS.items():
            docs = list(q) + [f"u{t}_{i}" for i in range(extra)]
            rng.shuffle(docs)
            run[t] = docs[:rng.randint(1, len(docs))]
        out[f"s{k}"] = run
    return out


# ---------------------------------------------------------------- reading
def test_load_runs_names_gzip_and_errors(tmp_path):
    a = write_run(tmp_path / "input.A.gz", {"2": ["a", "b"]}, gz=True)
    b = write_run(tmp_path / "B.txt", {"2": ["b"]})
    runs = load_runs([a, b])
    assert list(runs) == ["A", "B.txt"] and runs["A"] == {"2": ["a", "b"]}
    assert run_name("x/input.input.gz") == "input"
    (tmp_path / "d").mkdir()
    dup = write_run(tmp_path / "d" / "input.A", {"2": ["a"]})
    with pytest.raises(TrecFormatError, match="run name 'A' already used"):
        load_runs([a, dup])
    empty = tmp_path / "input.E"
    empty.write_text("\n")
    with pytest.raises(TrecFormatError, match=r"input\.E: empty run"):
        load_runs([empty])
    bad = tmp_path / "bad"
    bad.write_text("2 Q0 a 1 1.0 t\n2 Q0 b 2 t\n")
    with pytest.raises(TrecFormatError, match=r"bad:2: run line needs 6 fields"):
        score_matrices(write_qrels(tmp_path / "q", QRELS), [bad], ["AP"])


def test_missing_topics(tmp_path):
    runs = {"full": {"2": ["a"], "10": ["d"]}, "half": {"2": ["b", "a"]}}
    ap, = score_matrices(QRELS, runs, ["AP"])
    assert ap.topics == ("2", "10")                       # numeric order, topic 3 has no relevant document
    assert ap.value("10", "half") == 0                   # the empty run, as trec_eval -c
    assert any("half" in n and "10" in n for n in ap.notes)
    stray = {"s": {"2": ["a"], "999": ["a"], "77": ["z"]}}
    with pytest.raises(MissingTopicError, match=r"run s: topic 77 \(and 1 more\) is not in the qrels"):
        score_matrices(QRELS, stray, ["AP"])
    m, = score_matrices(QRELS, stray, ["AP"], skip_missing=True)
    assert m.value("2", "s") == Fraction(1, 3) and any("77, 999" in n for n in m.notes)


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("view", ["graded", "binary"])
def test_values_against_oracles_and_ir_measures(tmp_path, view):
    runs = random_runs(1)
    paths = [write_run(tmp_path / f"input.{k}", r, gz=(k == "s0")) for k, r in runs.items()]
    depth = 4
    ms = score_matrices(write_qrels(tmp_path / "q", QRELS), paths,
                        ["AP", "P", "RBTO", "gP", "ir:AP@4", "ir:P@4"], view=view, depth=depth)
    ap, p, rbto, gp, irap, irp = ms
    assert ap.systems == tuple(runs) and ap.topics == ("2", "10") and ap.floats.shape == (2, 5)
    binary = view == "binary"
    c = 1 if binary else 2
    for t in ap.topics:
        rb = sum(1 for g in QRELS[t].values() if g >= 1)
        for s, run in runs.items():
            g = graded(QRELS[t], run[t], depth, binary)
            assert ap.value(t, s) == ap_oracle(g, rb)
            assert p.value(t, s) == Fraction(sum(1 for x in g if x >= 1), depth)
            assert gp.value(t, s) == Fraction(sum(g), depth * c)
            assert rbto.value(t, s) == sum(x * (c + 1) ** (depth - 1 - i) for i, x in enumerate(g))
            assert irap.value(t, s) == pytest.approx(float(ap_oracle(g, rb)), abs=1e-12)
            assert irp.value(t, s) == pytest.approx(sum(1 for x in g if x >= 1) / depth, abs=1e-12)
    assert np.array_equal(ap.floats, np.array([[float(ap.value(t, s)) for s in runs] for t in ap.topics]))
    if binary:       # lenient: gP is P once every grade >= 1 is 1
        assert all(gp.value(t, s) == p.value(t, s) for t in gp.topics for s in runs)


def test_trimming_pads_to_depth_and_uncut_rankings_keep_their_length():
    runs = {"x": {"2": ["n1", "n2", "a", "b"]}, "y": {"2": ["a"]}}
    m2, = score_matrices(QRELS, runs, ["P"], depth=2)   # every ranking a run of depth 2 (trec_eval P_2)
    assert m2.value("2", "x") == 0 and m2.value("2", "y") == Fraction(1, 2)
    full, = score_matrices(QRELS, runs, ["P"])
    assert full.judged.depth == 4 and full.depth is None
    # uncut: relevant retrieved over retrieved (trec_eval set_P); y's one document is not divided by x's four
    assert full.value("2", "x") == Fraction(2, 4) and full.value("2", "y") == Fraction(1, 1)


def test_exact_order_where_floats_tie():
    # gains 0, 1, 10^20: both runs hold the grade-2 document first; x has a grade-1 document at
    # rank 3 (+1/log2 4 = 1/2), y at rank 2 (+1/log2 3 > 1/2 since log2 3 < 2).  The floats agree.
    qrels = {"1": {"a": 2, "b": 1}}
    runs = {"x": {"1": ["a", "n", "b"]}, "y": {"1": ["a", "b"]}}
    m, = score_matrices(qrels, runs, ["DCG"], depth=3, gains=Gains((0, 1, 10 ** 20)))
    assert m.floats[0, 0] == m.floats[0, 1]
    assert m.topic_signs("1").tolist() == [[0, -1], [1, 0]]
    assert m.value("1", "y") - m.value("1", "x") == sympy.log(2) / sympy.log(3) - sympy.Rational(1, 2)


def test_exact_mean_tie_where_float_sums_differ():
    # P@10 of x is 1/10, 2/10, 3/10 on three topics, of y 3/10, 2/10, 1/10: equal means.
    qrels = {t: {f"r{t}{i}": 1 for i in range(3)} for t in ("1", "2", "3")}
    runs = {"x": {t: [f"r{t}{i}" for i in range(k)] for k, t in zip((1, 2, 3), ("1", "2", "3"))},
            "y": {t: [f"r{t}{i}" for i in range(k)] for k, t in zip((3, 2, 1), ("1", "2", "3"))}}
    m, = score_matrices(qrels, runs, ["P"], depth=10)
    assert sum(m.floats[:, 0].tolist()) != sum(m.floats[:, 1].tolist())      # 0.6000000000000001 vs 0.6
    assert m.mean_signs().tolist() == [[0, 0], [0, 0]]


def test_ndcg_fast_path_equals_family_definition():
    rng = np.random.default_rng(3)
    arr = rng.integers(0, 3, size=(6, 9))
    topic = Topic((5, 2))
    for name in ("nDCG", "nDCG@4", "nDCG(discount=logb,b=3)"):
        m = parse_measure(name)
        fast, slow = evaluate_measure(m, arr, Gains.default(2), topic), m.evaluate(arr, Gains.default(2), topic)
        for a, b in zip(fast.values(), slow.values()):
            assert abs(sympy.N(a - b, 60)) < sympy.Float(10) ** -50


def test_mean_signs_with_different_scales_against_high_precision():
    # nDCG carries a different irrational scale per topic; means are compared with ball arithmetic.
    rng = random.Random(5)
    qrels = {str(t): {f"d{t}{i}": rng.choice([1, 2]) for i in range(rng.randint(2, 6))} for t in range(1, 6)}
    runs = {}
    for k in range(6):
        runs[f"s{k}"] = {t: rng.sample(list(q) + [f"u{j}" for j in range(5)], 5) for t, q in qrels.items()}
    runs["copy"] = runs["s0"]
    m, = score_matrices(qrels, runs, ["nDCG"], depth=5)
    assert len({b.scale for b in m.blocks}) > 1
    means = [sum((m.value(t, s) for t in m.topics), sympy.Integer(0)) for s in runs]
    hp = [sympy.N(v, 50) for v in means]
    expect = [[int(bool(hp[i] > hp[j])) - int(bool(hp[i] < hp[j])) if i != j and "copy" not in (s, r) else None
               for j, r in enumerate(runs)] for i, s in enumerate(runs)]
    got = m.mean_signs()
    for i in range(len(runs)):
        for j in range(len(runs)):
            if expect[i][j] is not None:
                assert got[i, j] == expect[i][j]
    assert got[0, len(runs) - 1] == 0                    # s0 and its copy tie exactly


def test_undefined_measure_drops_topic():
    # Twist needs N >= 2 RB: topic 2 has RB 3 (needs 6), topic 10 RB 2 (needs 4); depth 4.
    runs = {"x": {"2": ["a"], "10": ["e", "d"]}}
    tw, ap = score_matrices(QRELS, runs, ["Twist", "AP"], depth=4)
    assert tw.topics == ("10",) and [t for t, _ in tw.dropped] == ["2"] and "2 RB = 6" in tw.dropped[0][1]
    assert ap.topics == ("2", "10") and ap.dropped == ()


def test_measure_dispatch():
    assert resolve_measure("nDCG@10")[0] == "workbench"
    assert resolve_measure("ir:nDCG@10")[0] == resolve_measure("trec:ndcg_cut.10")[0] == "ir_measures"
    assert resolve_measure("Rprec")[0] == "ir_measures"
    with pytest.raises(BadParameterError, match="prefix ir:"):
        resolve_measure("P(rel=2)@10")
    with pytest.raises(UnknownMeasureError, match="nor an ir_measures name"):
        resolve_measure("NoSuchMeasure")
    m, = score_matrices(QRELS, {"x": {"2": ["a", "b"], "10": ["z"]}}, ["ir:P(rel=2)@2"])
    assert m.measure == "ir:P(rel=2)@2" and m.floats.tolist() == [[0.5], [0.0]] and not m.exact


# ---------------------------------------------------------------- interval transformation
def brute_positions(measure, runs_arr, topic, gains, depth):
    """Positions by enumerating every run the topic allows with itertools and sorting the distinct values.

    The values come from the workbench's measure (tested elsewhere); what is checked is the
    enumeration, the deduplication and the position lookup, done here the slow way.
    """
    c = gains.grades
    allowed = [r for r in itertools.product(range(c + 1), repeat=depth)
               if all(sum(1 for x in r if x == j) <= topic.counts[j - 1] for j in range(1, c + 1))]
    values = measure.evaluate(np.array(allowed), gains, topic).values()
    distinct = sorted(set(values), key=lambda v: sympy.N(v, 40))
    return [distinct.index(v) for v in measure.evaluate(np.asarray(runs_arr), gains, topic).values()]


@pytest.mark.parametrize("name,view", [("AP", "binary"), ("AP", "graded"), ("RBTO", "graded"), ("RBP(p=0.5)", "graded"),
                                       ("gRBP(p=1/3)", "graded"), ("SBTO", "graded"), ("RBP(p=0.8)", "graded"),
                                       ("DCG", "graded"), ("gP", "graded"), ("Twist", "binary")])
def test_ranked_matrix_against_brute_force(name, view):
    qrels = {"1": {"a": 2, "b": 1, "c": 1, "n": 0}, "2": {"d": 1, "e": 1}}
    pools = {"1": ["a", "b", "c", "n", "u1", "u2"], "2": ["d", "e", "u3", "u4", "u5"]}
    rng = random.Random(9)
    runs = {f"s{k}": {t: rng.sample(pool, rng.randint(2, 5)) for t, pool in pools.items()} for k in range(8)}
    m, = score_matrices(qrels, runs, [name], view=view, depth=4)
    r = ranked_matrix(m)
    assert r.measure == f"rank[{m.measure}]@4"
    for k, t in enumerate(r.topics):
        j = m.judged.topics.index(t)
        expect = brute_positions(m.spec, m.judged.arrays[j].astype(np.int64), m.judged.topic_objs[j], m.judged.gains, 4)
        assert r.blocks[k].values() == [Fraction(x) for x in expect], (name, t)
    if name == "Twist":          # topic 1 has RB 3 > 4 / 2
        assert r.topics == ("2",) and "1" in [t for t, _ in r.dropped]


def test_ranked_matrix_closed_forms_deep_and_limits():
    rng = random.Random(4)
    qrels = {"1": {f"r{i}": 1 for i in range(20)} | {f"h{i}": 2 for i in range(20)}}
    docs = list(qrels["1"]) + [f"n{i}" for i in range(300)]
    runs = {f"s{k}": {"1": rng.sample(docs, 250)} for k in range(4)}
    p, rbp, ap = score_matrices(qrels, runs, ["P", "RBP(p=0.5)", "AP"], view="binary", depth=250)
    counts = [sum(1 for d in runs[s]["1"] if not d.startswith("n")) for s in runs]
    assert ranked_matrix(p).blocks[0].values() == [Fraction(x) for x in counts]     # P's positions: the counts
    bits = [[0 if d.startswith("n") else 1 for d in runs[s]["1"]] for s in runs]
    # binary RBP(1/2) in a space with at most 40 relevant documents: the number of such runs below
    # (lexicographically) each run, counted here digit by digit with binomials.
    def below(b):
        total, ones = 0, 0
        for i, x in enumerate(b):
            if x:
                rest = len(b) - i - 1
                total += sum(math.comb(rest, k) for k in range(0, 40 - ones + 1))
                ones += 1
        return total
    assert ranked_matrix(rbp).blocks[0].values() == [Fraction(below(b)) for b in bits]
    g_ap, = score_matrices(qrels, runs, ["AP"], view="graded", depth=250)
    # AP reads only [r_i >= 1]: in the graded view too it enumerates binary runs, 2^20 at depth 20 (not 3^12)
    with pytest.raises(SpaceTooLargeError, match="pass depth=20 or less"):
        ranked_matrix(g_ap)
    assert ranked_matrix(ap, depth=12).measure == "rank[AP]@12"
    with pytest.raises(WorkbenchError, match="exact workbench matrix"):
        ranked_matrix(score_matrices(qrels, runs, ["ir:AP"])[0])


# ---------------------------------------------------------------- Robust 2003 (structure)
@pytest.fixture(scope="module")
def robust():
    from workbench.data.trec import read_qrels

    t = time.time()
    q = read_qrels(ROBUST / "qrels.txt")
    runs = load_runs(sorted((ROBUST / "runs").glob("input.*.gz")))
    return q, runs, time.time() - t


@needs_robust
@pytest.mark.slow
def test_robust_structure(robust):
    from workbench.experiments.correlation import correlation_table

    q, runs, load = robust
    t = time.time()
    rbto, ap, irap, tw = score_matrices(q, runs, ["RBTO", "AP", "ir:AP@250", "Twist"], depth=250)
    took = time.time() - t
    print(f"\nRobust 2003: read {load:.1f} s; 17 runs x 100 topics x 4 measures at depth 250: {took:.1f} s")
    with_rel = sum(1 for v in q.values() if any(g >= 1 for g in v.values()))
    assert ap.shape == (with_rel, 17) == (100, 17) and ap.floats.dtype == np.float64
    assert "InexpC2" in ap.systems and ap.topics == tuple(sorted(ap.topics, key=int))
    digits = max(len(str(v.numerator)) for b in rbto.blocks for v in b.values())
    assert digits > 100 and all(v.denominator == 1 for v in rbto.blocks[0].values())
    assert np.max(np.abs(ap.means_float() - irap.means_float())) < 1e-9
    assert len(tw.topics) + len(tw.dropped) == 100
    tab = correlation_table([ap, irap, rbto])
    for r in tab.rows:
        assert -1 <= r.overall.value <= 1 and -1 <= r.topic_by_topic.mean <= 1
    assert tab.rows[0].topic_by_topic.mean > 0.99


@needs_robust
@pytest.mark.slow
def test_robust_untrimmed_ap_is_trec_eval_map(robust):
    q, runs, _ = robust
    some = {k: runs[k] for k in list(runs)[:3]}
    ap, irap = score_matrices(q, some, ["AP", "ir:AP"])
    assert ap.judged.depth == 1000 and ap.depth is None
    assert np.max(np.abs(ap.means_float() - irap.means_float())) < 1e-9


def test_unit_transformation_is_the_position_over_the_attainable_count():
    """unit=True divides each position by (number of attainable values - 1): brute force over all runs."""
    import itertools
    from fractions import Fraction

    qrels = {"1": {"a": 1, "b": 1, "c": 1}}
    runs = {"best": {"1": ["a", "b", "c"]}, "none": {"1": ["n", "m", "o"]}, "mid": {"1": ["n", "a", "b"]}}
    ap = score_matrices(qrels, runs, ["AP"], view="binary", depth=3)[0]

    def ap_of(bits):  # AP with RB = 3, from its definition
        hits, total = 0, Fraction(0)
        for i, b in enumerate(bits, 1):
            if b:
                hits += 1
                total += Fraction(hits, i)
        return total / 3

    attainable = sorted({ap_of(bits) for bits in itertools.product((0, 1), repeat=3)})
    unit = ap.transformed(unit=True)
    assert unit.measure == "unit-rank[AP]@3"
    expected = [Fraction(attainable.index(ap_of(b)), len(attainable) - 1) for b in ((1, 1, 1), (0, 0, 0), (0, 1, 1))]
    assert unit.blocks[0].values() == expected and expected[0] == 1 and expected[1] == 0


def test_uncut_judged_rankings_are_the_runs_lists_and_cut_ones_copies():
    """Uncut, JudgedRuns keeps each run's own ranking list (no copy of the docids); cut, a copy; same values."""
    import copy
    import gc

    from workbench.data.score_matrix import judge_runs

    qrels = {"1": {"a": 1, "b": 2}, "2": {"c": 1}, "3": {"e": 1}}
    runs = {"x": {"1": ["b", "z", "a"], "2": ["c"]}, "y": {"1": ("a", "b"), "2": ["n", "c"], "3": ["e"]}}
    j = judge_runs(qrels, runs)
    assert j.rankings["x"]["1"] is not runs["x"]["1"]  # dicts of lists are copied by as_runs
    ranked = j.rankings
    again = judge_runs(qrels, copy.deepcopy(ranked))
    assert again.rankings == ranked and again.rankings["x"]["1"] is not ranked["x"]["1"]
    from workbench.data.adapters import as_runs

    read = as_runs(runs)
    kept = judge_runs(qrels, read)
    assert kept.rankings["x"]["1"] is read["x"]["1"] and kept.rankings["x"]["3"] == []
    cut = judge_runs(qrels, read, depth=2)
    assert cut.rankings["x"]["1"] == ["b", "z"] and read["x"]["1"] == ["b", "z", "a"]
    assert [a.tolist() for a in kept.arrays] == [a.tolist() for a in again.arrays]
    assert gc.isenabled()


def test_score_matrices_turn_the_collector_back_on_even_on_an_error():
    """score_matrices pauses the cyclic collector while it judges and scores; after it, on again (or still off)."""
    import gc

    from workbench.errors import MissingTopicError

    qrels = {"1": {"a": 1}}
    assert gc.isenabled()
    score_matrices(qrels, {"x": {"1": ["a"]}}, ["AP"])
    assert gc.isenabled()
    with pytest.raises(MissingTopicError):
        score_matrices(qrels, {"x": {"9": ["a"]}}, ["AP"])
    assert gc.isenabled()
    gc.disable()
    try:
        score_matrices(qrels, {"x": {"1": ["a"]}}, ["AP"])
        assert not gc.isenabled()
    finally:
        gc.enable()
