"""The workbench's measures inside ir_measures (and PyTerrier): same values as the workbench's own, as floats.

Oracles: ``wb.score_matrix`` (the workbench's exact values) on ``examples/trec``;
ir_measures' own implementations (pytrec_eval's P@k, AP, nDCG@k, RR and
cwl_eval's RBP with ``rel=1``) to float rounding; and, on small hand-made
qrels and runs, a plain re-implementation in this file (trec_eval's order:
score descending, ties by docid descending; exact fractions).
"""
from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import ir_measures
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.data.ir_measures_provider import WorkbenchMeasure
from workbench.errors import BadParameterError, UnknownMeasureError

ROOT = Path(__file__).resolve().parents[2]
TREC = ROOT / "examples" / "trec"
GP = f"{ROOT / 'examples' / 'geometric_precision.py'}:gp(p=0.6)"
RUNS = sorted(TREC.glob("run.*.txt"))


def read(path):
    return list(ir_measures.read_trec_qrels(str(path))) if "qrels" in path.name else list(ir_measures.read_trec_run(str(path)))


@pytest.fixture(scope="module")
def qrels():
    return read(TREC / "qrels.txt")


@pytest.mark.parametrize("name", ["RBP(p=0.8)", "AP", "P@5", "nDCG@10", "RR", "SBTO", "gRBP(p=0.5)@10", GP])
def test_inside_ir_measures_equals_the_workbench_on_examples_trec(qrels, name):
    m = wb.ir_measure(name)
    for path in RUNS:
        run = read(path)
        exact = wb.score_matrix(str(TREC / "qrels.txt"), str(path), name)
        per_query = {x.query_id: x.value for x in ir_measures.iter_calc([m], qrels, run)}
        assert set(per_query) == set(exact.topics)  # every topic of examples/trec has a relevant document
        for k, t in enumerate(exact.topics):
            assert per_query[t] == exact.floats[k, 0]  # the workbench's own float copy
            value = exact.value(t, exact.systems[0])
            if isinstance(value, Fraction):
                assert per_query[t] == float(value)  # correctly rounded
            else:  # logarithms (nDCG): within float rounding of the exact value
                assert per_query[t] == pytest.approx(float(value.evalf(30)), rel=4e-16)
        assert ir_measures.calc_aggregate([m], qrels, run)[m] == pytest.approx(
            float(sum(Fraction(exact.value(t, exact.systems[0])) for t in exact.topics) / len(exact.topics))
            if exact.spec.family != "nDCG" else float(exact.means_float()[0]), rel=1e-15)


@pytest.mark.parametrize("ours,theirs", [
    ("RBP(p=0.8)", ir_measures.RBP(p=0.8, rel=1)),
    ("RBP(p=0.5)", ir_measures.RBP(p=0.5, rel=1)),
    ("P@5", ir_measures.P @ 5),
    ("P@10", ir_measures.P @ 10),
    ("AP", ir_measures.AP),
    ("nDCG@10", ir_measures.nDCG @ 10),
    ("RR", ir_measures.RR),
])
def test_equals_ir_measures_own_implementation(qrels, ours, theirs):
    m = wb.ir_measure(ours)
    for path in RUNS:
        run = read(path)
        mine = {x.query_id: x.value for x in ir_measures.iter_calc([m], qrels, run)}
        other = {x.query_id: x.value for x in ir_measures.iter_calc([theirs], qrels, run)}
        assert mine.keys() == other.keys()
        for t in mine:
            assert mine[t] == pytest.approx(other[t], rel=1e-12, abs=1e-15), (path.name, t)
        both = ir_measures.calc_aggregate([m, theirs], qrels, run)  # side by side: distinct names
        assert both[m] == pytest.approx(both[theirs], rel=1e-12)


# ---------------------------------------------------------------------------
# small hand-made qrels and runs against a plain oracle

def trec_order(scored: dict) -> list:
    """trec_eval's order: score descending, equal scores by docid descending."""
    return [d for d, _ in sorted(scored.items(), key=lambda x: (x[1], x[0]), reverse=True)]


def oracle(name: str, grades: list, recall_base: int):
    """RBP (binary), P@k and AP of one judged ranking, exact; None where undefined (AP without relevant documents)."""
    rel = [1 if g >= 1 else 0 for g in grades]
    if name.startswith("RBP"):
        p = Fraction(name[6:-1])
        return (1 - p) * sum(r * p**i for i, r in enumerate(rel))
    if name.startswith("P@"):
        k = int(name[2:])
        return Fraction(sum(rel[:k]), k)
    if name == "AP":
        if recall_base == 0:
            return None
        hits, total = 0, Fraction(0)
        for i, r in enumerate(rel):
            if r:
                hits += 1
                total += Fraction(hits, i + 1)
        return total / recall_base
    raise ValueError(name)


DOCS = "abcdef"


@st.composite
def collections(draw):
    topics = draw(st.lists(st.sampled_from("123"), min_size=1, max_size=3, unique=True))
    qrels = {t: draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2), min_size=1, max_size=5)) for t in topics}
    run_topics = draw(st.lists(st.sampled_from("1234"), max_size=4, unique=True))  # 4: never in the qrels
    run = {t: draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 3).map(float), min_size=1, max_size=6))
           for t in run_topics}
    return qrels, run


@settings(max_examples=60, deadline=None)
@given(collections())
@pytest.mark.slow
def test_hand_made_collections_against_the_oracle(data):
    qrels, run = data
    names = ["RBP(p=0.5)", "P@3", "AP"]
    ms = [wb.ir_measure(n) for n in names]
    got = {(x.query_id, str(x.measure)): x.value for x in ir_measures.iter_calc(ms, qrels, run)}
    for name, m in zip(names, ms):
        values = []
        for t, judged in qrels.items():
            ranking = trec_order(run.get(t, {}))
            grades = [judged.get(d, 0) for d in ranking]
            want = oracle(name, grades, sum(1 for g in judged.values() if g >= 1))
            want = 0.0 if want is None else float(want)  # undefined: ir_measures' default 0, as trec_eval
            assert got[(t, str(m))] == want, (name, t, ranking)
            values.append(want)
        assert set(t for t, mm in got if mm == str(m)) == set(qrels)  # every qrels topic, no other
        assert ir_measures.calc_aggregate([m], qrels, run)[m] == pytest.approx(sum(values) / len(values), abs=1e-15)


def test_undefined_with_relevant_documents_is_nan():
    # Twist needs N >= 2 RB: two relevant documents and a one-document run leave it undefined
    qrels = {"1": {"a": 1, "b": 1}, "2": {"c": 1}}
    run = {"1": {"a": 1.0}, "2": {"c": 1.0, "x": 0.5}}
    m = wb.ir_measure("Twist")
    values = {x.query_id: x.value for x in ir_measures.iter_calc([m], qrels, run)}
    assert math.isnan(values["1"]) and not math.isnan(values["2"])


def test_a_run_without_a_topic_of_the_qrels_scores_the_empty_run():
    qrels = {"1": {"a": 1}, "2": {"b": 0}}
    for run in ({"9": {"a": 1.0}}, {"2": {"b": 1.0}}):
        got = {x.query_id: x.value for x in ir_measures.iter_calc([wb.ir_measure("RBP(p=0.5)"), wb.ir_measure("AP")],
                                                                  qrels, run)}
        assert got == {"1": 0.0, "2": 0.0}


# ---------------------------------------------------------------------------
# names

@pytest.mark.parametrize("name", ["RBP(p=0.8)", "RBP(p=1/3)@10", "AP@5", "DCG(discount=logb,b=10)", GP, "SBTO"])
def test_names_round_trip_through_ir_measures(name):
    m = wb.ir_measure(name)
    back = ir_measures.parse_measure(str(m))
    assert back == m and isinstance(back, WorkbenchMeasure) and back.workbench_name == m.workbench_name
    assert wb.measure(m.workbench_name) == wb.measure(name)
    binary = wb.ir_measure(name, view="binary", gains="0,1")
    assert ir_measures.parse_measure(str(binary)) == binary != m


def test_cutoff_folds_into_the_workbench_name():
    assert wb.ir_measure("RBP(p=4/5)") @ 10 == wb.ir_measure("RBP(p=0.8)@10")
    assert str(wb.ir_measure("RBP(p=4/5)") @ 10) == "Workbench(measure='RBP(p=0.8)@10')"
    assert ir_measures.parse_measure("Workbench(measure='RBP(p=0.8)')@10") == wb.ir_measure("RBP(p=0.8)@10")


def test_bad_names():
    with pytest.raises(UnknownMeasureError, match="Foo"):
        wb.ir_measure("Foo")
    with pytest.raises(BadParameterError, match="p=1"):
        wb.ir_measure("RBP(p=1)")
    with pytest.raises(BadParameterError, match="colour"):
        WorkbenchMeasure(measure="AP", colour="red")
    with pytest.raises(UnknownMeasureError):
        wb.ir_measure(ir_measures.AP)
    with pytest.raises(UnknownMeasureError, match="Foo"):
        ir_measures.parse_measure("Workbench(measure='Foo')")


def test_other_measures_keep_their_providers(qrels):
    wb.register_ir_measures()
    provider = ir_measures.providers.registry["workbench"]
    assert not provider.supports(ir_measures.AP) and not provider.supports(ir_measures.RBP(p=0.8, rel=1))
    assert sum(p is provider for p in ir_measures.DefaultPipeline.providers) == 1
    wb.register_ir_measures()
    assert sum(p is provider for p in ir_measures.DefaultPipeline.providers) == 1


@pytest.mark.slow
def test_ir_measures_command_line():
    out = subprocess.run([sys.executable, "-m", "workbench.cli.ir_measures_cli", str(TREC / "qrels.txt"),
                          str(TREC / "run.fair.txt"), "Workbench(measure='P@5')", "P@5", "-q", "-o", "jsonl"],
                         capture_output=True, text=True, check=True).stdout
    import json

    rows = [json.loads(line) for line in out.splitlines()]
    mine = {r["query_id"]: r["value"] for r in rows if r["measure"] == "Workbench(measure='P@5')"}
    theirs = {r["query_id"]: r["value"] for r in rows if r["measure"] == "P@5"}
    assert mine.keys() == theirs.keys() and len(mine) == 9  # 8 topics and the summary 'all'
    assert all(mine[t] == pytest.approx(theirs[t]) for t in mine)


# ---------------------------------------------------------------------------
# DataFrames and PyTerrier (optional)

def test_dataframes(qrels):
    pd = pytest.importorskip("pandas")
    run = read(TREC / "run.poor.txt")
    m = wb.ir_measure("AP")
    frames = ir_measures.calc_aggregate([m], pd.DataFrame(qrels), pd.DataFrame(run))[m]
    assert frames == ir_measures.calc_aggregate([m], qrels, run)[m]


def test_pyterrier_experiment(qrels):
    pytest.importorskip("pandas")
    pt = pytest.importorskip("pyterrier", reason="python-terrier is not installed (optional)")
    import pandas as pd

    topics = pd.DataFrame({"qid": sorted({q.query_id for q in qrels}), "query": "q"})
    labels = pd.DataFrame([{"qid": q.query_id, "docno": q.doc_id, "label": q.relevance} for q in qrels])
    results = [pd.DataFrame([{"qid": r.query_id, "docno": r.doc_id, "score": r.score} for r in read(p)]) for p in RUNS]
    ms = [wb.ir_measure("RBP(p=0.8)"), wb.ir_measure("AP"), ir_measures.AP]
    try:
        table = pt.Experiment(results, topics, labels, eval_metrics=ms, names=[p.name for p in RUNS])
    except Exception as e:  # pragma: no cover - depends on the installed PyTerrier
        if "java" in str(e).lower() or "jvm" in str(e).lower():
            pytest.skip(f"pt.Experiment needs Java here: {e}")
        raise
    for path, row in zip(RUNS, table.to_dict("records")):
        run = read(path)
        for m in ms:
            assert row[str(m)] == pytest.approx(ir_measures.calc_aggregate([m], qrels, run)[m], rel=1e-12)
        assert row[str(ms[1])] == pytest.approx(row["AP"], rel=1e-12)
