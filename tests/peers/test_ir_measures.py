"""Cross-checks against ir_measures (pytrec_eval, msmarco, gdeval) and trec_eval's test data.

ir_measures offline providers used here and what they compute:

* pytrec_eval (trec_eval in C): ``P@k``, ``R@k``, ``AP``, ``AP@k`` (map_cut),
  ``RR``, ``nDCG@k`` (ndcg_cut: gain = grade, 1/log2(i+1)), ``Success@k``;
* msmarco: ``RR@k``;
* gdeval (perl, needs ``perl``): ``ERR@k`` with ``x = (2^g - 1) / 2^4``, i.e. our
  ERR on the 0..4 scale with gains ``g(j) = j``.

trec_eval's own test collection (``WORKBENCH_DATA``/trec_eval_test) checks
``map``, ``map_cut_k``, ``P_k``, ``recall_k``, ``recip_rank``, ``ndcg``,
``ndcg_cut_k``, ``success_k`` and ``rbp`` (trec_eval's ``rbp`` uses p = 0.9)
for topics 301-303, to the 4 printed decimals.
"""
from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

import pytest

from workbench.core.exact import to_float
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic
from workbench.data.trec import TrecFormatError, judged_topics, read_qrels, read_run

ir_measures = pytest.importorskip("ir_measures")

DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
TREC_TEST = DATA / "trec_eval_test"


def synthetic(runs, extra_relevant: int, grades_of_extra: int = 1):
    """One query per run; doc d{i} at rank i has the run's grade; extra relevant docs are not retrieved."""
    qrels, scored = [], []
    topics = {}
    for q, run in enumerate(runs, start=1):
        qid = str(q)
        counts = {}
        for i, g in enumerate(run, start=1):
            qrels.append(ir_measures.Qrel(qid, f"d{i}", int(g)))
            scored.append(ir_measures.ScoredDoc(qid, f"d{i}", float(len(run) - i + 1)))
            if g:
                counts[g] = counts.get(g, 0) + 1
        for j in range(extra_relevant):
            qrels.append(ir_measures.Qrel(qid, f"u{j}", grades_of_extra))
            counts[grades_of_extra] = counts.get(grades_of_extra, 0) + 1
        c = max(max(run), grades_of_extra if extra_relevant else 0, 1)
        topics[qid] = Topic(tuple(counts.get(j, 0) for j in range(1, c + 1))) if counts else None
    return qrels, scored, topics


def compare(provider, names, runs, extra, gains, tol=1e-9, grade_extra=1):
    qrels, scored, topics = synthetic(runs, extra, grade_extra)
    ims = [ir_measures.parse_measure(n) for n in names]
    got = {}
    for metric in provider.evaluator(ims, qrels).iter_calc(scored):
        got[(metric.query_id, str(metric.measure))] = metric.value
    checked = 0
    for q, run in enumerate(runs, start=1):
        qid = str(q)
        topic = topics[qid]
        if topic is None:
            continue
        if gains.grades != topic.grades:
            topic = Topic(topic.counts + (0,) * (gains.grades - topic.grades))
        for im, name in zip(ims, names):
            ours = to_float(parse_measure(name).value(run, gains, topic))
            theirs = got[(qid, str(im))]
            assert abs(ours - theirs) < tol, (name, run, ours, theirs)
            checked += 1
    return checked


BINARY6 = list(itertools.product((0, 1), repeat=6))
PTE_NAMES = (
    [f"P@{k}" for k in (1, 2, 3, 5, 6, 10)]
    + [f"R@{k}" for k in (1, 3, 6, 10)]
    + ["AP", "AP@3", "AP@10", "RR"]
    + [f"nDCG@{k}" for k in (1, 2, 3, 5, 6, 10)]
    + [f"Success@{k}" for k in (1, 2, 5, 10)]
)


@pytest.mark.parametrize("extra", [0, 3])
@pytest.mark.slow
def test_pytrec_eval_binary_depth6(extra):
    n = compare(ir_measures.pytrec_eval, PTE_NAMES, BINARY6, extra, Gains.default(1))
    assert n == (63 + extra // 3) * len(PTE_NAMES)


def test_pytrec_eval_graded():
    runs = list(itertools.product((0, 1, 2), repeat=4))
    names = ["nDCG@2", "nDCG@4", "nDCG@7", "AP", "P@3", "RR", "Success@2"]
    n = compare(ir_measures.pytrec_eval, names, runs, 2, Gains.default(2), grade_extra=2)
    assert n == len(runs) * len(names)


def test_msmarco_rr_at_k():
    names = ["RR@1", "RR@3", "RR@10"]
    assert compare(ir_measures.msmarco, names, BINARY6, 1, Gains.default(1)) == 64 * 3


@pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval (ERR) needs perl")
def test_gdeval_err():
    runs = [r for r in itertools.product(range(5), repeat=3)]
    # gdeval prints 5 decimals
    assert compare(ir_measures.gdeval, ["ERR@3", "ERR@2"], runs, 1, Gains.default(4), tol=5e-6, grade_extra=4) > 0


# ---------------------------------------------------------------------------
# trec_eval's test collection

TREC_MAP = {"map": "AP", "recip_rank": "RR", "ndcg": "nDCG", "rbp": "RBP(p=0.9)"}
for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000):
    TREC_MAP[f"P_{k}"] = f"P@{k}"
    TREC_MAP[f"recall_{k}"] = f"R@{k}"
    TREC_MAP[f"ndcg_cut_{k}"] = f"nDCG@{k}"
    TREC_MAP[f"map_cut_{k}"] = f"AP@{k}"
for k in (1, 5, 10):
    TREC_MAP[f"success_{k}"] = f"Succ@{k}"


@pytest.mark.skipif(not TREC_TEST.is_dir(), reason=f"trec_eval test data not found at {TREC_TEST} (set WORKBENCH_DATA)")
@pytest.mark.slow
def test_trec_eval_test_collection():
    qrels = read_qrels(TREC_TEST / "qrels.test")
    run = read_run(TREC_TEST / "results.test")
    expected = {}
    for line in (TREC_TEST / "out.test.aq").read_text().splitlines():
        measure, topic, value = line.split()
        expected[(measure, topic)] = value
    jts = judged_topics(qrels, run)
    assert [jt.topic_id for jt in jts] == ["301", "302", "303"]
    checked = 0
    for jt in jts:
        gains = Gains.default(jt.topic.grades)
        assert int(expected[("num_rel", jt.topic_id)]) == jt.topic.recall_base
        assert int(expected[("num_ret", jt.topic_id)]) == len(jt.run)
        # our plain nDCG normalises at the run depth; equal to trec_eval's ndcg when depth >= RB
        assert len(jt.run) >= jt.topic.recall_base
        for trec_name, ours in TREC_MAP.items():
            want = float(expected[(trec_name, jt.topic_id)])
            got = to_float(parse_measure(ours).value(jt.run, gains, jt.topic))
            assert abs(got - want) <= 5e-5 + 1e-12, (trec_name, jt.topic_id, got, want)
            checked += 1
    assert checked == 3 * len(TREC_MAP)


@pytest.mark.skipif(not TREC_TEST.is_dir(), reason=f"trec_eval test data not found at {TREC_TEST} (set WORKBENCH_DATA)")
def test_trec_run_order_and_gzip(tmp_path):
    import gzip

    raw = (TREC_TEST / "results.test").read_bytes()
    gz = tmp_path / "results.test.gz"
    gz.write_bytes(gzip.compress(raw))
    assert read_run(gz) == read_run(TREC_TEST / "results.test")
    # scores strictly descending, ties broken by docid descending
    lines = [l.split() for l in raw.decode().splitlines() if l.strip()]
    score = {(t, d): float(s) for t, _, d, _, s, _ in lines}
    for topic, docs in read_run(gz).items():
        keys = [(score[(topic, d)], d) for d in docs]
        assert keys == sorted(keys, reverse=True)


def test_trec_malformed(tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n1 0 b\n")
    with pytest.raises(TrecFormatError, match=r"q:2"):
        read_qrels(q)
    q.write_text("1 0 a x\n")
    with pytest.raises(TrecFormatError, match="'x'"):
        read_qrels(q)
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 high t\n")
    with pytest.raises(TrecFormatError, match=r"r:2.*'high'"):
        read_run(r)
    r.write_text("1 Q0 a 1 0.5 t\n1 Q0 a 2 0.4 t\n")
    with pytest.raises(TrecFormatError, match="twice"):
        read_run(r)
    with pytest.raises(TrecFormatError, match="nope"):
        read_run(tmp_path / "nope")


def test_trec_judging_negative_and_unjudged(tmp_path):
    q = tmp_path / "q"
    q.write_text("5 0 a 2\n5 0 b -1\n5 0 c 0\n5 0 e 1\n")
    r = tmp_path / "r"
    r.write_text("5 Q0 a 1 3 t\n5 Q0 b 2 2 t\n5 Q0 x 3 1 t\n5 Q0 c 4 0 t\n")
    (jt,) = judged_topics(read_qrels(q), read_run(r))
    assert jt.run == (2, 0, 0, 0) and jt.unjudged == 1 and jt.topic == Topic((1, 1))
