"""The conformance report's pairings of the measures made for incomplete judgments, and their conventions.

On the stress collection (documents absent from the qrels, negative grades,
ties, short rankings): bpref and infAP against trec_eval (pytrec_eval) and
ir_measures, Judged@k, AP/P/nDCG with ``judged_only=True`` against
ir_measures, and cwl-eval's residuals against the workbench's ``end=top``
minus ``end=base``.  Every differing cell is explained by a named convention
whose own computation agrees with the peer; a wrong peer value is not.
"""
from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from workbench.peers.pairings import PAIRINGS, measure_parts, residual
from workbench.peers.real_runs import (CONVENTIONS_BY_KEY, Collection, classify, compare_collection,
                                         stress_collection, workbench_values)

NEW = ("Bpref|pytrec_eval|bpref", "infAP|pytrec_eval|infAP", "Bpref|ir_measures|Bpref", "infAP|ir_measures|infAP",
       "Judged@10|ir_measures|Judged@10", "AP(judged_only=True)|ir_measures|AP(judged_only=True)",
       "P(judged_only=True)@10|ir_measures|P(judged_only=True)@10",
       "nDCG(judged_only=True)@10|ir_measures|nDCG(judged_only=True)@10",
       residual("RBP(p=0.8)") + "|cwl-eval|RBPCWLMetric(theta=0.8):residual",
       residual("INSQ(T=3)", 100) + "|cwl-eval|INSQCWLMetric(T=3):residual")
UNJUDGED_CONVENTIONS = ("infap-pooled-unjudged", "infap-pooled-unjudged-ir", "cwl-negative-grades-judged",
                        "judged-provider")


@pytest.fixture(scope="module")
def report():
    pairs = [p for p in PAIRINGS if p.key in NEW]
    assert len(pairs) == len(NEW)
    return pairs, compare_collection(stress_collection(), pairs)


def test_new_pairings_are_in_the_table_and_compared_on_the_robust_runs():
    keys = {p.key for p in PAIRINGS}
    assert set(NEW) <= keys
    robust = {p.key for p in PAIRINGS if p.robust}
    assert {"Bpref|pytrec_eval|bpref", "infAP|pytrec_eval|infAP", "Judged@10|ir_measures|Judged@10"} <= robust
    assert measure_parts(residual("gRBP(p=0.8)")) == ("gRBP(end=top,p=0.8)", "gRBP(end=base,p=0.8)")


def test_nothing_unexplained_and_every_new_convention_exercised(report):
    _pairs, rep = report
    assert not [(r.pairing.key, r.witnesses) for r in rep.rows if r.unexplained]
    seen = {c.verdict for c in rep.cells}
    assert set(UNJUDGED_CONVENTIONS) <= seen
    # the cells that agree outright are most of them, on every pairing
    for r in rep.rows:
        assert r.agree >= r.cells // 4, r.pairing.key


def test_each_new_convention_rejects_a_wrong_value(report):
    pairs, rep = report
    from workbench.peers.real_runs import CONVENTIONS
    applicable = {p.key: [c for c in CONVENTIONS if c.applies(p)] for p in pairs}
    for key in UNJUDGED_CONVENTIONS:
        explained = [c for c in rep.cells if c.verdict == key]
        assert explained, key
        for cell in explained[:5]:
            wrong = copy.deepcopy(cell)
            wrong.peer = cell.peer + 1e-6
            assert classify(wrong, applicable[cell.pairing]) == "unexplained", (key, cell)


def test_negative_grades_are_unjudged_and_the_conventions_reread_them():
    """One topic, a document judged -1 above a relevant one: the workbench reads it as unjudged (trec_eval's bpref
    skips it too); cwl-eval and ir_measures' Judged read it as judged; trec_eval's infAP counts it in the pool."""
    coll = Collection("toy", {"1": {"a": 1, "n": 0, "x": -1, "b": 1}},
                      {"r": {"1": [("n", 4.0), ("x", 3.0), ("a", 2.0), ("u", 1.5), ("b", 1.0)]}})
    by_key = {p.key: p for p in PAIRINGS}
    judged = by_key["Judged@10|ir_measures|Judged@10"]
    res = by_key[residual("RBP(p=0.8)") + "|cwl-eval|RBPCWLMetric(theta=0.8):residual"]
    infap = by_key["infAP|pytrec_eval|infAP"]
    bpref = by_key["Bpref|pytrec_eval|bpref"]
    plain = workbench_values(coll, [judged, res, infap, bpref])
    reread = workbench_values(coll, [judged, res], "asc64", None, None, "judged")
    pooled = workbench_values(coll, [infap], "trec", None, None, "pooled")
    assert plain[(judged.key, "r", "1")] == 3 / 5 and reread[(judged.key, "r", "1")] == 4 / 5
    p = Fraction(4, 5)
    w = [(1 - p) * p ** i for i in range(5)]
    assert abs(plain[(res.key, "r", "1")] - float(w[1] + w[3] + p ** 5)) <= 1e-15   # x and u unjudged, and the tail
    assert abs(reread[(res.key, "r", "1")] - float(w[3] + p ** 5)) <= 1e-15
    # bpref: N = 1 (n), R = 2; a has n above: 1 - 1/1 = 0; b likewise: 0
    assert plain[(bpref.key, "r", "1")] == 0.0
    # infAP: a at rank 3 with n judged above, b at rank 5 with n, a judged; trec_eval also counts x in the pool
    eps = Fraction(1, 100000)
    ours = ((1 + 1 * eps / (1 + 2 * eps)) / 3 + (1 + 2 * (1 + eps) / (2 + 2 * eps)) / 5) / 2
    theirs = ((1 + 2 * eps / (1 + 2 * eps)) / 3 + (1 + 3 * (1 + eps) / (2 + 2 * eps)) / 5) / 2
    assert plain[(infap.key, "r", "1")] == float(ours) and pooled[(infap.key, "r", "1")] == float(theirs)
    assert CONVENTIONS_BY_KEY["infap-pooled-unjudged"].explains(float(theirs), float(theirs))
