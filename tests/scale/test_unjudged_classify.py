"""Classify on spaces whose runs hold unjudged positions, against a brute-force oracle written here.

The oracle enumerates the runs itself (``itertools.product`` over ``0..c`` and ``?``, kept when
the topic's counts and the unjudged limit allow them), compares every ordered pair with the
order's ``compare`` and scores every run with a plain ``Fraction`` definition written here from
the papers (bpref as trec_eval's ``m_bpref.c``; RBP's base and top ends as Moffat and Zobel
2008: ``?`` read as non-relevant, or as relevant plus the unseen tail ``p^N``), then applies the
verdict words of docs/theory/scales.md.  The classification must agree, its witness must be a
genuine offending pair with the oracle's values, and the runs it prints must show ``?``.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from workbench.api.scale import classify
from workbench.errors import BadParameterError, BadRunError, BadTopicError, WorkbenchError
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.residual import ResidualClassification, classify_residual, ends_text
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import Space

Q = 2  # the code of ? in binary runs (c + 1)


def runs_of(depth: int, unjudged: int, topic: Topic | None) -> list[tuple]:
    """Every binary run of ``depth`` with at most ``unjudged`` ?, at most n_1 ones and n_0 zeros."""
    out = []
    for r in itertools.product((0, 1, Q), repeat=depth):
        if r.count(Q) > unjudged:
            continue
        if topic is not None and r.count(1) > topic.counts[0]:
            continue
        if topic is not None and topic.nonrelevant is not None and r.count(0) > topic.nonrelevant:
            continue
        out.append(r)
    return out


def bpref(run: tuple, R: int, N: int) -> Fraction:
    """trec_eval's bpref: each judged relevant document adds 1 - min(n, R)/min(N, R), n judged non-relevant above."""
    total, nonrel = Fraction(0), 0
    for g in run:
        if g == 1:
            total += 1 - Fraction(min(nonrel, R), min(N, R))
        elif g == 0:
            nonrel += 1
    return total / R


def rbp(run: tuple, p: Fraction, end: str) -> Fraction:
    """RBP with ? read as 0 (base) or as 1 plus the tail p^N (top)."""
    read = 1 if end == "top" else 0
    value = (1 - p) * sum(p**i * (read if g == Q else g) for i, g in enumerate(run))
    return value + (p ** len(run) if end == "top" else 0)


def oracle(order_name: str, runs: list[tuple], score) -> str:
    """The verdict from every ordered pair: violated, weak, then ordinal/strict (no order here is total)."""
    o = get_order(order_name)
    g = Gains.default(1)
    verdict = "strict"
    for r in runs:
        for s in runs:
            rel = o.compare(r, s, g)
            if rel == "~" and score(r) != score(s):
                return "violated"
            if rel == "<":
                if score(r) > score(s):
                    return "violated"
                if score(r) == score(s):
                    verdict = "weak"
    return verdict


def check_witness(c, order_name: str, score) -> None:
    """A violated/weak verdict's witness is an offending pair of the order with the oracle's values."""
    w = c.witness
    if c.verdict not in ("violated", "weak"):
        assert w is None
        return
    rel = get_order(order_name).compare(w.lower, w.upper, Gains.default(1))
    assert rel in ("<", "~")
    assert (w.lower_value, w.upper_value) == (score(w.lower), score(w.upper))
    if c.verdict == "weak":
        assert rel == "<" and w.lower_value == w.upper_value
    else:
        assert w.lower_value > w.upper_value or (rel == "~" and w.lower_value != w.upper_value)
    # printed with ?, in the text and the JSON
    js = c.to_json()["witness"]
    for run, shown in ((w.lower, js["lower"]), (w.upper, js["upper"])):
        assert shown == ["?" if g == Q else g for g in run]
        assert w.run_text(run) == "".join("?" if g == Q else str(g) for g in run)


BPREF_CASES = [  # (order, depth, unjudged, topic)
    ("condensed[rank]", 3, 1, "n0=3,2"),
    ("condensed[dominance]", 4, 2, "n0=2,2"),
    ("completions[rank]", 3, 2, "n0=2,2"),
    ("completions[dominance]", 3, 1, "n0=3,1"),
    ("bounds[rank]", 3, 1, "n0=3,2"),
    ("judging", 3, 2, "n0=2,2"),
]


@pytest.mark.parametrize("order,depth,unjudged,topic", BPREF_CASES)
def test_bpref_verdict_and_witness_match_the_oracle(order, depth, unjudged, topic):
    t = Topic.parse(topic)
    c = classify("Bpref", order=order, depth=depth, unjudged=unjudged, topic=topic, workers=1)
    runs = runs_of(depth, unjudged, t)
    assert c.runs == len(runs) and c.unjudged == unjudged

    def score(r):
        return bpref(r, t.counts[0], t.nonrelevant)

    assert c.verdict == oracle(order, runs, score)
    check_witness(c, order, score)
    assert f"at most {unjudged} unjudged" in repr(c) and json.loads(json.dumps(c.to_json()))["unjudged"] == unjudged


RBP_CASES = [("judging", 3, 1), ("bounds[rank]", 3, 2), ("completions[dominance]", 3, 1), ("condensed[rank]", 2, 1)]


@pytest.mark.parametrize("order,depth,unjudged", RBP_CASES)
def test_residual_rbp_is_classified_at_both_ends_as_the_oracle_says(order, depth, unjudged):
    p = Fraction(1, 2)
    r = classify("RBP(p=1/2)", order=order, depth=depth, unjudged=unjudged, workers=1)
    assert isinstance(r, ResidualClassification)
    runs = runs_of(depth, unjudged, None)
    want = {end: oracle(order, runs, lambda x, e=end: rbp(x, p, e)) for end in ("base", "top")}
    assert r.ends == want
    for end, c in (("base", r.base), ("top", r.top)):
        check_witness(c, order, lambda x, e=end: rbp(x, p, e))
    strength = ["violated", "weak", "strict"]
    assert r.verdict == min(want.values(), key=strength.index)
    assert r.summary == ends_text(want["base"], want["top"])
    js = r.to_json()
    assert js["ends"] == want and js["summary"] in repr(r) and js["unjudged"] == unjudged
    assert js["verdict"] == r.verdict and js["end"] in ("base", "top")


def test_judging_breaks_rbp_at_the_top_end_only():
    # judging a ? as 0 lowers the top end's value (the ? was read as relevant): 0? above 00 at top,
    # while at the base end ? is read as 0 already, so judging it 0 ties (weak), 1 raises it
    r = classify("RBP(p=1/2)", order="judging", depth=2, unjudged=1, workers=1)
    assert r.ends == {"base": "weak", "top": "violated"}
    assert r.holds_at("weak") == "base" and r.holds_at("violated") == "top" and r.holds_at("strict") is None
    assert r.summary == "violated at the top end only (weak at the base end)"
    assert r.top.witness.run_text(r.top.witness.lower) == "0?"


def test_ends_text_reads_the_chain_of_verdicts():
    assert ends_text("interval", "ordinal") == "ordinal at both ends, interval at the base end only"
    assert ends_text("strict", "strict") == "strict at both ends"
    assert ends_text("weak", "violated") == "violated at the top end only (weak at the base end)"


def test_a_chosen_end_is_classified_alone():
    c = classify("RBP(p=1/2,end=base)", order="judging", depth=2, unjudged=1, workers=1)
    assert not isinstance(c, ResidualClassification) and c.verdict == "weak"
    # on fully judged runs RBP has one value: no ends
    assert classify("RBP(p=1/2)", depth=3, workers=1).verdict == "interval"
    with pytest.raises(BadParameterError, match="no residual"):
        classify_residual(parse_measure("AP"), get_order("judging"), Space("rank", 2, unjudged=1))


@pytest.mark.parametrize("kwargs,error,bad", [
    (dict(measure="AP", order="condensed[rank]", topic=2, unjudged=1), BadRunError, "AP(judged_only=True)"),
    (dict(measure="Bpref", order="rank", topic="n0=3,2", unjudged=1), WorkbenchError, "condensed[rank]"),
    (dict(measure="Bpref", order="judging", topic="n0=3,2", unjudged=4), BadParameterError, "larger than the depth 3"),
    (dict(measure="Bpref", order="judging", topic="n0=1,1", unjudged=0), BadTopicError, "n0=1,1"),
    (dict(measure="ir:Bpref", order="judging", unjudged=1), WorkbenchError, "exact measure Bpref"),
])
def test_bad_input_is_refused_with_a_typed_error(kwargs, error, bad):
    with pytest.raises(error) as info:
        classify(depth=3, workers=1, **kwargs)
    assert bad in str(info.value) and "\n" not in str(info.value)


def test_a_violated_end_settles_the_pair_and_an_unknown_end_does_not():
    import dataclasses

    r = classify("RBP(p=1/2)", order="judging", depth=2, unjudged=1, workers=1)
    undecided_base = dataclasses.replace(r, base=dataclasses.replace(r.base, verdict="unknown"))
    assert undecided_base.verdict == "violated"        # the top end's witness holds whatever the base end is
    assert undecided_base.summary == "violated at the top end only (unknown at the base end)"
    undecided_top = dataclasses.replace(r, top=dataclasses.replace(r.top, verdict="unknown"))
    assert undecided_top.verdict == "unknown"          # weak at the base end does not make the top end weak
    assert ends_text("unknown", "violated") == "violated at the top end only (unknown at the base end)"
