"""``workbench conformance`` / ``wb.conformance``: external implementations against the exact definitions (docs/howto/conformance.md).

Honest tests: a planted bug is found with the smallest witness and its cause,
a tie rule that differs from trec_eval's is named, pytrec_eval conforms where
it should, the layouts are what they claim (checked with numpy), and the
command line keeps its exit codes and its JSON.
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from cli_inputs import run_cli
import workbench as wb
from workbench.peers.check import check_conformance, ulps
from workbench.peers.implementations import parse_implementation
from workbench.peers.inputs import LAYOUTS, generated_inputs, space_batches, write_topic
from workbench.peers.reference import ranked, reference_values
from workbench.errors import BadDepthError, UnknownImplementationError, UnknownMeasureError
from workbench.space.runs import Topic

ROOT = Path(__file__).resolve().parents[2]
OFFBYONE = str(ROOT / "examples" / "conformance" / "offbyone_ndcg.py") + ":ndcg5"
CORRECT = str(ROOT / "examples" / "conformance" / "ndcg.py") + ":ndcg5"

DOCID_ASCENDING_RR = '''
def rr(qrels, run):
    """Reciprocal rank with ties broken by docid ascending (trec_eval: descending)."""
    out = {}
    for t, scores in run.items():
        ranking = sorted(sorted(scores), key=lambda d: -scores[d])
        out[t] = next((1.0 / i for i, d in enumerate(ranking, 1) if qrels[t].get(d, 0) > 0), 0.0)
    return out
'''

BROKEN = '''
def raises(qrels, run):
    raise RuntimeError("boom")

def not_a_dict(qrels, run):
    return [1.0]

def drops_topics(qrels, run):
    return {}
'''


# ---------------------------------------------------------------- inputs
def test_near_tie_layout_is_equal_in_float32_and_distinct_in_float64():
    for grades in [(1, 0, 1, 1, 0), (0,) * 12, (1,)]:
        _, run = write_topic(grades, "float32-ties", Topic((len(grades),)))
        scores = np.array(list(run.values()), dtype=np.float64)
        assert len(set(scores.tolist())) == len(grades)  # distinct as doubles
        assert len(set(scores.astype(np.float32).tolist())) == 1  # one value as 32-bit floats


def test_every_layout_ranks_as_the_judged_run_under_trec_eval():
    topic = Topic((2, 1))
    for batch in space_batches(3, 2, topic):
        for t, row in zip(batch.topic_ids, batch.runs.tolist()):
            q, r = batch.qrels[t], batch.run[t]
            assert [q[d] for d in ranked(r)] == row, (batch.layout, t)
            # the recall base is the space topic's, whatever the run retrieves
            assert sorted(g for g in q.values() if g >= 1) == [1, 1, 2]
    assert {b.layout for b in space_batches(1, 1, None)} == set(LAYOUTS)


def test_tie_layouts_really_differ_from_other_tie_rules():
    _, run = write_topic((1, 0, 0), "tied", Topic((1,)))
    assert ranked(run) == ["d3", "d2", "d1"]
    assert ranked(run, ties="docid ascending") == ranked(run, ties="file order") == ["d1", "d2", "d3"]
    _, run = write_topic((1, 0, 0), "float32-ties", Topic((1,)))
    assert ranked(run, precision="float64") == ["d1", "d2", "d3"]


def test_generated_inputs_are_deterministic_and_varied():
    a, b = generated_inputs(40, 3, grades=2), generated_inputs(40, 3, grades=2)
    assert a == b and a != generated_inputs(40, 4, grades=2)
    topics = [(q[t], r[t]) for q, r in a for t in r]
    assert any(not any(g >= 1 for g in q.values()) for q, _ in topics)  # topics without a relevant document
    assert any(len(r) >= 20 for _, r in topics)  # long rankings
    assert any(set(r) - set(q) for q, r in topics)  # unjudged documents
    assert any(len(set(r.values())) < len(r) for _, r in topics)  # repeated scores


def test_reference_topic_without_relevant_documents():
    ref = reference_values({"1": {"a": 0}, "2": {"b": 1}}, {"1": {"a": 1.0}, "2": {"b": 1.0}}, "RR")
    assert ref.values == {"2": Fraction(1), "1": Fraction(0)} and ref.empty_topics == {"1"}
    ref = reference_values({"1": {"a": 0}, "2": {"b": 1}}, {"1": {"a": 1.0}, "2": {"b": 1.0}}, "AP")
    assert ref.values["1"] is None and "1" in ref.undefined


def test_ulps():
    assert ulps(1.0, np.nextafter(1.0, 2.0)) == 1 and ulps(-1e-300, 1e-300) > 0 and ulps(2.0, 2.0) == 0


# ---------------------------------------------------------------- verdicts
@pytest.mark.slow
def test_planted_off_by_one_discount_is_found_with_a_minimal_witness():
    r = check_conformance(OFFBYONE, "nDCG@5", depth=3, examples=10, seed=0)
    assert not r.conforms and r.total.disagree > 0
    w = r.witness
    # the smallest disagreeing case: depth 1, the run "1" (the run "0" scores 0 either way), distinct scores
    assert (w.source, w.depth, w.judged, w.layout) == ("space", 1, "1", "distinct")
    assert w.cause.cause == "discount" and "log2(i + 2)" in w.cause.detail
    # its numbers are genuine: 1 / (1 + 1/log2 3 + 1/2) against 1/log2 3 / (1/log2 3 + 1/2 + 1/log2 5)
    import math
    assert math.isclose(float(w.reference), 1 / (1 + 1 / math.log2(3) + 0.5), rel_tol=1e-15)
    assert w.implementation == pytest.approx((1 / math.log2(3)) / (1 / math.log2(3) + 0.5 + 1 / math.log2(5)))
    assert r.layout_witnesses["generated"].cause.cause == "discount"


def test_correct_file_implementation_conforms():
    r = check_conformance(CORRECT, "nDCG@5", depth=3, grades=2, examples=10, seed=0)
    assert r.conforms and r.cells == r.agree > 0


def test_pytrec_eval_recip_rank_conforms_to_rr_at_depth_5():
    r = wb.conformance("pytrec_eval:recip_rank", "RR", depth=5, examples=20, seed=1)
    assert r.conforms
    assert r.total.cells == r.total.agree == 4 * (2 + 4 + 8 + 16 + 32) + r.generated.cells
    assert r.total.flips == 0 and r.witness is None


def test_pytrec_eval_ndcg_cut_5_conforms_to_ndcg_at_5_graded():
    r = wb.conformance("pytrec_eval:ndcg_cut_5", "nDCG@5", depth=3, grades=2, examples=10)
    assert r.conforms and r.total.max_abs <= 1e-15


@pytest.mark.slow
def test_docid_ascending_tie_rule_is_named(tmp_path):
    path = tmp_path / "asc.py"
    path.write_text(DOCID_ASCENDING_RR)
    r = check_conformance(f"{path}:rr", "RR", depth=3, examples=10, seed=0)
    assert not r.conforms
    assert r.layouts["distinct"].ok  # distinct scores: no tie to break, it agrees
    for layout in ("tied", "float32-ties", "paired-ties"):
        w = r.layout_witnesses[layout]
        assert w.cause.cause == "tie rule" and "docid ascending" in w.cause.detail, layout
        assert (w.depth, w.judged) == (2, "01")  # smallest: the reversed ranking puts the relevant document first
    assert r.total.reversed > 0 and r.flip_examples["order_reversed"]


def test_cut_off_cause(tmp_path):
    r = wb.conformance("pytrec_eval:P_5", "P@4", depth=2, examples=0)
    assert not r.conforms and r.witness.cause.cause == "cut-off or normalisation"
    assert "cut-off 5" in r.witness.cause.detail


def test_gain_cause():
    r = wb.conformance("pytrec_eval:ndcg_cut_3", "nDCG@3", depth=2, grades=2, gains="0,1,3", examples=0)
    assert not r.conforms and r.witness.cause.cause == "gain convention"


@pytest.mark.slow
def test_an_implementation_that_fails_is_non_conformance_not_bad_input(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(BROKEN)
    for fn, text in [("raises", "raised RuntimeError: boom"), ("not_a_dict", "returned list"),
                     ("drops_topics", None)]:
        r = check_conformance(f"{path}:{fn}", "RR", depth=1, examples=2, seed=0)
        assert not r.conforms and r.total.no_value == r.total.cells > 0, fn
        assert r.witness.cause.cause in ("no value", "topics without relevant documents")
        if text:
            assert any(text in e for e in r.errors), (fn, r.errors)


def test_bad_input_is_a_typed_error():
    with pytest.raises(UnknownImplementationError, match="'foo:bar'"):
        wb.conformance("foo:bar", "RR")
    with pytest.raises(UnknownImplementationError, match="ndcg_kut"):
        parse_implementation("pytrec_eval:ndcg_kut_5")
    with pytest.raises(UnknownImplementationError, match="missing.py"):
        wb.conformance("missing.py:f", "RR")
    with pytest.raises(UnknownImplementationError, match="no function 'nope'"):
        wb.conformance(OFFBYONE.replace(":ndcg5", ":nope"), "RR")
    with pytest.raises(UnknownMeasureError):
        wb.conformance("pytrec_eval:recip_rank", "Foo")
    with pytest.raises(BadDepthError):
        wb.conformance("pytrec_eval:recip_rank", "RR", depth=0)


# ---------------------------------------------------------------- command line
@pytest.mark.slow
def test_cli_exit_codes(capsys):
    code, out, _ = run_cli(capsys, "conformance", "pytrec_eval:recip_rank", "--against", "RR", "--depth", "3",
                           "--examples", "5")
    assert code == 0 and "conforms" in out
    code, out, _ = run_cli(capsys, "conformance", OFFBYONE, "--against", "nDCG@5", "--depth", "3", "--examples", "5")
    out = " ".join(out.split())  # the terminal view wraps long lines
    assert code == 1 and "does not conform" in out and "discount" in out and "depth 1 run 1" in out
    code, out, err = run_cli(capsys, "conformance", "nope:x", "--against", "RR")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "'nope:x'" in err
    code, out, err = run_cli(capsys, "conformance", "pytrec_eval:recip_rank", "--against", "RR", "--tolerance", "-1")
    assert code == 2 and "tolerance" in err


@pytest.mark.slow
def test_cli_json(capsys):
    code, out, _ = run_cli(capsys, "conformance", OFFBYONE, "--against", "nDCG@5", "--depth", "2", "--examples", "3",
                           "--json")
    assert code == 1
    obj = json.loads(out)  # exactly one JSON object
    for key in ("implementation", "measure", "conforms", "cells", "agree", "max_abs_diff", "max_ulp_diff", "flips",
                "layouts", "generated", "witness", "cause", "scope", "tolerance"):
        assert key in obj, key
    assert obj["conforms"] is False and obj["cause"] == "discount"
    assert isinstance(obj["witness"]["reference"], str) and "log" in obj["witness"]["reference"]
    assert [x["layout"] for x in obj["layouts"]] == list(LAYOUTS)


def test_cli_format_md(capsys):
    code, out, _ = run_cli(capsys, "conformance", "pytrec_eval:recip_rank", "--against", "RR", "--depth", "2",
                           "--examples", "2", "--format", "md")
    assert code == 0 and "| layout |" in out and "| float32-ties |" in out
