"""Unjudged documents of real runs: absent from the qrels is unjudged for the measures made for incomplete judgments.

* the two readings (:mod:`workbench.data.score_matrix`, "Unjudged documents"):
  a complete-judgment measure reads a document absent from the qrels (or judged
  below 0) as grade 0, a measure that reads unjudged positions as the code
  ``c + 1``; the topic carries ``n_0``, the documents judged 0;
* every value of a small in-memory collection (documents absent from the
  qrels, a negative grade, tied scores, a ranking shorter than the cut-off)
  equals pytrec_eval's and ir_measures';
* exact values against plain oracles written here from trec_eval's C code
  (``m_bpref.c``, ``m_infap.c``, ``-J``) with ``fractions.Fraction``, on
  random small collections;
* the fast exact kernels (:func:`workbench.data.fast_scores.fast_evaluate_unjudged`)
  against the families' generic evaluation, and the padding rule
  (:data:`workbench.data.exact_scores.PADDING_INVARIANT_UNJUDGED`,
  :data:`~workbench.data.exact_scores.OWN_LENGTH`) on every small run.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import ir_measures
import numpy as np
import pytest
import pytrec_eval

from workbench.data.exact_scores import (OWN_LENGTH, PADDING_INVARIANT_UNJUDGED, evaluate_measure, evaluate_rankings,
                                         reads_unjudged)
from workbench.data.fast_scores import fast_evaluate
from workbench.data.ir_measures_provider import ir_measure, per_query_values
from workbench.data.score_matrix import judge_runs, score_matrices
from workbench.data.trec import trec_order
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic

EPS = Fraction(1, 100000)  # trec_eval's INFAP_EPSILON

# A small collection: grades 0..2 and -1, documents absent from the qrels (z*), scores tied (b and z2 at 5.0),
# topic 2 with fewer documents than the cut-offs, topic 3 without a judged non-relevant document.
QRELS = {"1": {"a": 1, "b": 0, "c": 2, "d": 0, "e": 0, "f": 1, "g": -1},
         "2": {"x": 0, "y": 1, "w": 0},
         "3": {"p": 1, "q": 2}}
RUNS = {"r1": {"1": {"z1": 9.0, "b": 5.0, "z2": 5.0, "a": 4.0, "g": 3.5, "d": 3.0, "c": 2.0, "z3": 1.0, "f": 0.5},
               "2": {"q1": 3.0, "x": 2.0, "y": 1.0},
               "3": {"z": 2.0, "q": 1.5, "p": 1.0}},
        "r2": {"1": {"c": 3.0, "z9": 2.0, "e": 1.0},
               "2": {"y": 1.0},
               "3": {"p": 2.0, "u": 1.0}}}
CUT = 5


# ---------------------------------------------------------------- oracles (trec_eval's C code, in Fractions)
def _rel(g):
    """trec_eval's state of a document: 'nonpool' (absent), 'unjudged' (grade < 0), or its grade."""
    return "nonpool" if g is None else "unjudged" if g < 0 else g


def oracle_bpref(qrels: dict, ranking: list) -> Fraction:
    """m_bpref.c: judged relevant docs add 1 - min(nonrel above, R) / min(N, R); N counts grade 0 only."""
    R = sum(1 for g in qrels.values() if g >= 1)
    N = sum(1 for g in qrels.values() if g == 0)
    nonrel, total = 0, Fraction(0)
    for d in ranking:
        s = _rel(qrels.get(d))
        if s in ("nonpool", "unjudged"):
            continue
        if s == 0:
            nonrel += 1
        else:
            total += 1 - Fraction(min(nonrel, R), min(N, R)) if nonrel else 1
    return total / R


def oracle_infap(qrels: dict, ranking: list) -> Fraction:
    """m_infap.c with INFAP_EPSILON exact: j the 0-based rank, pooled-unjudged counted in the pool fraction."""
    R = sum(1 for g in qrels.values() if g >= 1)
    rel = nonrel = unj = 0
    total = Fraction(0)
    for j, d in enumerate(ranking):
        s = _rel(qrels.get(d))
        if s == "nonpool":
            continue
        if s == "unjudged":
            unj += 1
            continue
        if s == 0:
            nonrel += 1
            continue
        rel += 1
        if j == 0:
            total += 1
        else:
            total += Fraction(1, j + 1) + Fraction(j, j + 1) * Fraction(rel - 1 + nonrel + unj, j) * (
                (rel - 1 + EPS) / (rel - 1 + nonrel + 2 * EPS))
    return total / R


def oracle_condensed(qrels: dict, ranking: list) -> list:
    """trec_eval -J: the judged documents (grade >= 0) in rank order, their binary relevance."""
    return [int(qrels[d] >= 1) for d in ranking if d in qrels and qrels[d] >= 0]


def oracle_ap_condensed(qrels: dict, ranking: list) -> Fraction:
    R = sum(1 for g in qrels.values() if g >= 1)
    rels = oracle_condensed(qrels, ranking)
    hits, total = 0, Fraction(0)
    for i, r in enumerate(rels, start=1):
        if r:
            hits += 1
            total += Fraction(hits, i)
    return total / R


def oracle_p_condensed(qrels: dict, ranking: list, k: int) -> Fraction:
    return Fraction(sum(oracle_condensed(qrels, ranking)[:k]), k)


def oracle_judged(qrels: dict, ranking: list, k: int) -> Fraction:
    """Judged@k as the workbench defines it: judged = listed with a grade >= 0; a shorter ranking at its length."""
    top = ranking[:k]
    return Fraction(sum(1 for d in top if d in qrels and qrels[d] >= 0), max(len(top), 1))


def oracle_rbp_ends(qrels: dict, ranking: list, p: Fraction) -> tuple:
    """RBP's base (unjudged as 0) and top (unjudged as relevant, plus p^n for the unseen tail) (Moffat and Zobel)."""
    base = top = Fraction(0)
    for i, d in enumerate(ranking):
        w = (1 - p) * p ** i
        g = qrels.get(d)
        if g is not None and g >= 1:
            base += w
            top += w
        elif g is None or g < 0:
            top += w
    return base, top + p ** len(ranking)


def _ranked(run: dict) -> dict:
    return {t: trec_order([(s, d) for d, s in docs.items()]) for t, docs in run.items()}


def _exact(names, view="binary", qrels=QRELS, runs=RUNS) -> dict:
    """``{(measure, run, topic): exact value}`` from score_matrices."""
    out = {}
    for name, mat in zip(names, score_matrices(qrels, runs, names, view=view)):
        for k, t in enumerate(mat.topics):
            for j, s in enumerate(mat.systems):
                out[(name, s, t)] = mat.value(t, s)
    return out


# ---------------------------------------------------------------- the readings
def test_judge_runs_marks_absent_and_negative_documents_unjudged_and_counts_n0():
    j = judge_runs(QRELS, {"r1": _ranked(RUNS["r1"])}, "binary", unjudged=True)
    k = j.topics.index("1")
    ranking = _ranked(RUNS["r1"])["1"]
    code = j.unjudged_code
    assert code == 2
    expected = [code if QRELS["1"].get(d, -1) < 0 else int(QRELS["1"][d] >= 1) for d in ranking]
    assert j.unjudged_arrays[k][0].tolist() == expected
    assert j.arrays[k][0].tolist() == [0 if x == code else x for x in expected]  # the complete-judgment reading
    assert j.unjudged_topics[k] == Topic((3,), 3)   # n0: the three documents judged 0, not the one judged -1
    assert j.topic_objs[k] == Topic((3,))
    # without unjudged=True nothing changes for the complete-judgment measures
    plain = judge_runs(QRELS, {"r1": _ranked(RUNS["r1"])}, "binary")
    assert plain.unjudged_arrays is None and plain.arrays[k].tolist() == j.arrays[k].tolist()


def test_complete_judgment_measures_read_absent_and_negative_as_zero():
    """AP and RBP (end=value) give a run the value of the same run with its unjudged documents judged 0."""
    filled = {t: {**docs, **{d: 0 for d in _ranked(RUNS["r1"]).get(t, []) if docs.get(d, -1) < 0}}
              for t, docs in QRELS.items()}
    names = ["AP", "RBP(p=0.8)", "P@5"]
    assert _exact(names) == _exact(names, qrels=filled)
    # ... and the unjudged-reading measures do not: bpref moves once the absent documents are judged
    assert _exact(["Bpref"]) != _exact(["Bpref"], qrels=filled)


@pytest.mark.parametrize("name, kind", [("AP", False), ("RBP(p=0.8)", False), ("nDCG@10", False), ("Bpref", True),
                                        ("infAP", True), ("Judged@10", True), ("AP(judged_only=True)", True),
                                        ("RBP(p=0.8,end=base)", True), ("INST(T=3,end=top)@10", True)])
def test_which_measures_read_unjudged(name, kind):
    assert reads_unjudged(parse_measure(name)) is kind


def test_values_equal_the_oracles_on_the_small_collection():
    names = ["Bpref", "infAP", "AP(judged_only=True)", "P(judged_only=True)@5", "Judged@5",
             "RBP(end=base,p=0.8)", "RBP(end=top,p=0.8)"]
    got = _exact(names)
    p = Fraction(4, 5)
    for s, run in RUNS.items():
        for t, ranking in _ranked(run).items():
            q = QRELS[t]
            base, top = oracle_rbp_ends(q, ranking, p)
            want = [oracle_bpref(q, ranking), oracle_infap(q, ranking) if t != "1" else None,
                    oracle_ap_condensed(q, ranking), oracle_p_condensed(q, ranking, CUT),
                    oracle_judged(q, ranking, CUT), base, top]
            for name, w in zip(names, want):
                if w is not None:
                    assert got[(name, s, t)] == w, (name, s, t)
    # topic 1 holds a document judged -1 above relevant ones: trec_eval counts it in infAP's pool, the
    # workbench's ? is outside the pool (a named convention of the conformance report)
    assert got[("infAP", "r1", "1")] != oracle_infap(QRELS["1"], _ranked(RUNS["r1"])["1"])


def test_values_equal_pytrec_eval_and_ir_measures():
    ev = pytrec_eval.RelevanceEvaluator(QRELS, {"bpref", "infAP"})
    names = {"Bpref": "Bpref", "AP(judged_only=True)": "AP(judged_only=True)",
             "P(judged_only=True)@5": "P(judged_only=True)@5", "Judged@5": "Judged@5"}
    got = _exact(list(names))
    graded = _exact(["nDCG(judged_only=True)@5"], view="graded")
    for s, run in RUNS.items():
        trec = ev.evaluate(run)
        for t in QRELS:
            assert abs(float(got[("Bpref", s, t)]) - trec[t]["bpref"]) <= 1e-12
        for name, im in names.items():
            for metric in ir_measures.iter_calc([ir_measures.parse_measure(im)], QRELS, run):
                w = got[(name, s, metric.query_id)]
                if im.startswith("Judged") and "g" in run[metric.query_id]:
                    continue  # ir_measures counts a negatively graded document as judged (a named convention)
                assert abs(float(w) - metric.value) <= 1e-12, (name, s, metric.query_id)
        for metric in ir_measures.iter_calc([ir_measures.parse_measure("nDCG(judged_only=True)@5")], QRELS, run):
            assert abs(float(graded[("nDCG(judged_only=True)@5", s, metric.query_id)]) - metric.value) <= 1e-12
    # infAP where no negative grade is retrieved: trec_eval's value
    for s, run in RUNS.items():
        trec = ev.evaluate(run)
        for t in ("2", "3"):
            assert abs(float(_exact(["infAP"])[("infAP", s, t)]) - trec[t]["infAP"]) <= 1e-12


def test_cwl_eval_residual_equals_top_minus_base():
    """cwl-eval's RBP residual (best case minus worst) is the workbench's end=top minus end=base, in file order."""
    from workbench.peers.pairings import PAIRINGS, peer_values, residual

    pair = next(p for p in PAIRINGS if p.measure == residual("RBP(p=0.8)"))
    qrels = {t: {d: max(g, 0) for d, g in docs.items()} for t, docs in QRELS.items()}  # cwl: -1 is judged
    for run in RUNS.values():
        file_run = {t: sorted(docs.items(), key=lambda x: -x[1]) for t, docs in run.items()}
        peer = peer_values([pair], qrels, file_run)
        for t, docs in file_run.items():
            base, top = oracle_rbp_ends(qrels[t], [d for d, _ in docs], Fraction(4, 5))
            assert abs(float(top - base) - peer[(pair.key, t)]) <= 1e-12


def test_topic_without_relevant_document_reads_the_run():
    """Judged@k and RBP's residual on a topic with no relevant document depend on which documents are judged."""
    qrels = {"1": {"a": 1}, "2": {"n": 0, "m": -2}}
    run = {"1": {"a": 1.0}, "2": {"n": 3.0, "x": 2.0, "m": 1.0}}
    ms = [ir_measure("Judged@10", view="binary"), ir_measure("RBP(p=1/2,end=top)", view="binary"),
          ir_measure("Bpref", view="binary")]
    vals = {(str(x.measure.workbench_name), x.query_id): x.value for x in per_query_values(qrels, run, ms, "binary")}
    assert vals[("Judged@10", "2")] == 1 / 3                 # n judged; x absent, m judged -2: unjudged
    assert vals[("RBP(end=top,p=0.5)", "2")] == 0.25 + 0.125 + 0.125   # ranks 2, 3 and the tail 1/8
    assert ("Bpref", "2") not in vals                         # undefined without a relevant document


# ---------------------------------------------------------------- random collections against the oracles
def test_random_collections_against_the_oracles():
    rnd = random.Random(34)
    for _ in range(40):
        pool = [f"d{i}" for i in range(12)]
        qrels = {}
        for t in ("1", "2"):
            judged = rnd.sample(pool, rnd.randint(2, 10))
            qrels[t] = {d: rnd.choice((0, 0, 1, 2)) for d in judged}
            qrels[t][judged[0]] = 1
        runs = {f"s{k}": {t: {d: float(rnd.randint(0, 5)) for d in rnd.sample(pool, rnd.randint(1, 12))}
                          for t in qrels} for k in range(2)}
        got = _exact(["Bpref", "infAP", "AP(judged_only=True)", "P(judged_only=True)@4", "Judged@4"], qrels=qrels,
                     runs=runs)
        for s, run in runs.items():
            for t, ranking in _ranked(run).items():
                q = qrels[t]
                assert got[("Bpref", s, t)] == oracle_bpref(q, ranking)
                assert got[("infAP", s, t)] == oracle_infap(q, ranking)
                assert got[("AP(judged_only=True)", s, t)] == oracle_ap_condensed(q, ranking)
                assert got[("P(judged_only=True)@4", s, t)] == oracle_p_condensed(q, ranking, 4)
                assert got[("Judged@4", s, t)] == oracle_judged(q, ranking, 4)


# ---------------------------------------------------------------- fast kernels and the padding rule
FAST = ["Bpref", "infAP", "Judged", "Judged@3", "RBP(p=0.8,end=top)", "RBP(p=1/3,end=base)", "gRBP(p=0.8,end=top)",
        "gRBP(p=1/2,end=base)@4", "RBP(p=1/2,end=top)@3", "AP(judged_only=True)", "P(judged_only=True)@3",
        "RBP(judged_only=True,p=0.8)", "AP(judged_only=True)@3"]


@pytest.mark.parametrize("grades", [1, 2])
def test_fast_kernels_equal_the_generic_evaluation(grades):
    rng = np.random.default_rng(grades)
    gains = Gains.default(grades)
    for N in (1, 3, 7, 70):   # 70: past the sparse depth
        runs = rng.integers(0, grades + 2, size=(6, N)).astype(np.uint8)
        counts = tuple(int((runs == g).sum(axis=1).max()) + 1 for g in range(1, grades + 1))
        topic = Topic(counts, int((runs == 0).sum(axis=1).max()) + 1)
        for name in FAST:
            m = parse_measure(name)
            fast = fast_evaluate(m, runs, gains, topic)
            assert fast is not None, name
            assert fast.values() == m.evaluate(runs, gains, topic).values(), (name, N)


def _equal(a, b) -> bool:
    """Equal exact blocks: their difference has zero coordinates (over the same scale and a basis of logarithm
    ratios independent over the rationals), whatever form each value's sympy expression takes."""
    return a.scale == b.scale and not np.any((a - b).coords)


def test_padding_with_unjudged_changes_nothing_for_the_invariant_families():
    """Every run over {0, 1, ?} of depth 1..4 padded with ? to depth 6: same value for the families declared
    invariant, a different one somewhere for Judged (scored at each ranking's own length instead)."""
    gains = Gains.default(1)
    topic = Topic((4,), 4)
    names = ["Bpref", "infAP", "AP(judged_only=True)", "nDCG(judged_only=True)", "RBP(p=1/2,end=top)",
             "RBP(p=1/2,end=base)", "gRBP(p=1/2,end=top)", "Judged"]
    moved = set()
    for n in range(1, 5):
        runs = np.array(list(itertools.product((0, 1, 2), repeat=n)), dtype=np.uint8)
        padded = np.concatenate([runs, np.full((len(runs), 6 - n), 2, dtype=np.uint8)], axis=1)
        for name in names:
            m = parse_measure(name)
            alone = evaluate_measure(m, runs, gains, topic, ideal_depth=4)  # nDCG's ideal: the whole topic
            same = _equal(alone, evaluate_measure(m, padded, gains, topic, ideal_depth=4))
            assert same or m.family not in PADDING_INVARIANT_UNJUDGED or m.family == "Judged", name
            if not same:
                moved.add(m.family)
            # and evaluate_rankings scores each ranking at its own length whatever the padding
            assert _equal(evaluate_rankings(m, padded, [n] * len(runs), gains, topic, pad=2), alone), name
    assert moved == {"Judged"} and OWN_LENGTH == {"Judged"}


# ---------------------------------------------------------------- ranking {docid: score} dicts in numpy
def test_trec_order_dict_is_trec_order():
    """The numpy ranking of plain dicts equals trec_eval's order (trec_order) on random dicts with ties in float32
    only, exact ties, infinities after rounding, signed zeros, non-ASCII and NUL docids; anything else is None."""
    from workbench.data.trec import trec_order_dict

    rnd = random.Random(7)
    names = ["a", "b", "B", "é", "ab", "a\x00", "Z", "日本", "a b", "\U0001F600"]
    scores = [1.0, 2.0, 0.30000001, 0.3, 1e39, -1e39, 3, 0.5 + 1e-9, 0.5, 0.0, -0.0]
    for _ in range(1500):
        docs = {rnd.choice(names) + str(rnd.randint(0, 9)): rnd.choice(scores + [rnd.random()])
                for _ in range(rnd.randint(0, 30))}
        for precision in ("float32", "float64"):
            assert trec_order_dict(docs, precision) == trec_order([(s, d) for d, s in docs.items()], precision)
    for odd in ({"a": float("inf")}, {"a": True}, {"a": "1.0"}, {1: 1.0}, {"a": np.float64(1.0)}, {"a": 10 ** 400}):
        assert trec_order_dict(odd) is None


def test_interval_transformation_refuses_a_measure_that_reads_unjudged():
    from workbench.errors import WorkbenchError

    bpref, ap = score_matrices(QRELS, RUNS, ["Bpref", "AP"], view="binary")
    with pytest.raises(WorkbenchError, match="reads unjudged documents"):
        bpref.transformed(depth=2)
    assert ap.transformed(depth=2).shape == ap.shape   # a complete-judgment measure is transformed as before
