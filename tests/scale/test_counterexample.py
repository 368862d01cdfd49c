"""Counterexample search: SMT against exhaustive enumeration on every small case.

The SMT encoding (workbench.scale.counterexample) is a fast method checked against a
slow oracle (classify by enumeration): on every case below both must find a
violation or neither, every pair found must re-check exactly (here, with the
order's compare and the measure's exact values), and an SMT "none" must agree
with classify.  An enumeration that finds nothing answers "unknown" with what
it searched: it settles those depths only.  Beyond enumeration (depth 30) the known answers of Ferrante, Ferro and Pontarollo (2019) are
checked.
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from cli_inputs import run_cli
from workbench.scale.counterexample import Counterexample, find_counterexample, parse_param_range
from workbench.errors import BadParameterError, NotExpressibleError, SpaceTooLargeError, WorkbenchError
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.space.runs import Gains, Topic
from workbench.scale.classify import classify
from workbench.space.spaces import rank_space, set_space

MEASURES = ["RBP(p=0.5)", "RBP(p=0.8)", "RBP(p=0.6)", "gRBP(p=1/3)", "gRBP(p=0.5)", "AP", "RR", "ERR", "P", "gP", "SBTO"]
ORDERS = ["rank", "set", "dominance", "ipso", "replacement"]
TOPICS = {1: [(2,), (3,)], 2: [(1, 1), (2, 1)]}


GAINS = {1: ["0,1"], 2: ["0,1,2", "0,1,3"]}  # unequal gaps matter for ipso and the graded measures


def cases():
    for grades in (1, 2):
        for gains in GAINS[grades]:
            for name in MEASURES:
                topics = TOPICS[grades] if parse_measure(name).needs_topic else [None, TOPICS[grades][0]]
                for topic in topics:
                    for order in ORDERS:
                        yield pytest.param(name, order, gains, topic, id=f"{name}-{order}-g{gains}-t{topic}")


def assert_genuine(cx: Counterexample, measure, order, gains, topic):
    """The pair is lower < upper in the order, in the space, and M(lower) > M(upper) exactly."""
    o = get_order(order)
    m = parse_measure(measure) if isinstance(measure, str) else measure
    if cx.param is not None:
        m = m.with_params(**cx.param)
    assert cx.status == "found" and cx.found
    assert len(cx.lower) == len(cx.upper) == cx.depth
    assert o.compare(cx.lower, cx.upper, gains) == "<"
    lo, up = m.value(cx.lower, gains, topic), m.value(cx.upper, gains, topic)
    assert lo == cx.lower_value and up == cx.upper_value
    assert lo > up
    space = (rank_space if o.space_kind == "rank" else set_space)(cx.depth, gains.grades, topic)
    assert cx.lower in space and cx.upper in space


@pytest.mark.parametrize("measure,order,gains,topic", list(cases()))
@pytest.mark.slow
def test_smt_agrees_with_enumeration_on_every_small_case(measure, order, gains, topic):
    g = Gains.parse(gains)
    grades = g.grades
    t = None if topic is None else Topic(topic)
    o = get_order(order)
    for depth in range(1, 5):
        enum = find_counterexample(measure, order, depth=depth, grades=grades, gains=g, topic=t)
        smt = find_counterexample(measure, order, depth=depth, grades=grades, gains=g, topic=t, method="smt")
        assert enum.status in ("found", "unknown")
        assert smt.found == enum.found, (depth, smt.reason)
        space = (rank_space if o.space_kind == "rank" else set_space)(depth, grades, t)
        verdict = classify(parse_measure(measure), o, space, g).verdict
        if smt.status == "found":
            assert_genuine(smt, measure, order, g, t)
            assert_genuine(enum, measure, order, g, t)
            assert verdict == "violated"
        else:
            assert smt.status == "unknown" and smt.proof == "unsat"
            assert enum.proof is None and enum.searched == f"depth {depth}, exhaustively; none found there"
            assert verdict != "violated"


@pytest.mark.parametrize("measure,order,grades", [
    ("RBP(p=0.8)", "rank", 1), ("gRBP(p=0.5)", "rank", 2), ("ERR", "dominance", 2), ("P", "rank", 1),
    ("RBP(p=0.5)", "rank", 1), ("SBTO", "replacement", 2),
])
@pytest.mark.slow
def test_max_depth_finds_the_same_smallest_depth(measure, order, grades):
    g = Gains.default(grades)
    enum = find_counterexample(measure, order, max_depth=5, grades=grades, gains=g)
    smt = find_counterexample(measure, order, max_depth=5, grades=grades, gains=g, method="smt")
    assert smt.found == enum.found
    assert smt.depth == enum.depth
    if enum.found:
        assert_genuine(smt, measure, order, g, None)
        assert enum.depths == smt.depths == tuple(range(1, enum.depth + 1))
    else:
        assert (enum.status, smt.status) == ("unknown", "unknown")
        assert enum.depths == smt.depths == (1, 2, 3, 4, 5)


def test_enumeration_reports_classifys_first_violating_cover():
    cx = find_counterexample("RBP(p=0.8)", "rank", max_depth=4)
    w = classify(parse_measure("RBP(p=0.8)"), get_order("rank"), rank_space(3)).witness
    assert (cx.depth, cx.lower, cx.upper) == (3, w.lower, w.upper) == (3, (0, 1, 1), (1, 0, 0))
    assert cx.proof == "exhaustive enumeration"  # depths 1 and 2 have none


# --- three values: a bounded enumeration settles only the depths it searched ----

@pytest.mark.parametrize("measure,order,kw", [
    ("RR", "rank", {"max_depth": 4}), ("P", "dominance", {"max_depth": 3}),
    ("RBP(p=0.5)", "rank", {"depth": 5}), ("AP", "dominance", {"max_depth": 4, "topic": Topic((2,))}),
])
def test_enumeration_finding_nothing_is_unknown_with_what_it_searched(measure, order, kw):
    cx = find_counterexample(measure, order, **kw)
    top = kw.get("depth") or kw["max_depth"]
    depths = (top,) if "depth" in kw else tuple(range(1, top + 1))
    # the oracle: classify each depth searched, none violated
    o = get_order(order)
    for d in depths:
        space = (rank_space if o.space_kind == "rank" else set_space)(d, 1, kw.get("topic"))
        assert classify(parse_measure(measure), o, space, Gains.default()).verdict != "violated"
    assert cx.status == "unknown" and not cx.found and cx.proof is None
    assert cx.depths == depths and cx.depth == top
    where = f"depth {top}" if len(depths) == 1 else f"depths 1..{top}"
    assert cx.searched == f"{where}, exhaustively; none found there"
    assert cx.reason.startswith(f"no violation at {where}; other depths not searched")
    obj = cx.to_json()
    assert obj["status"] == "unknown" and obj["found"] is False and obj["proof"] is None
    assert obj["searched"] == cx.searched and obj["depths"] == list(depths)
    assert repr(cx).startswith(f"Counterexample unknown (enumeration, searched {where}, exhaustively; none found there)")


def test_a_bounded_enumeration_is_not_a_verdict_for_deeper_depths():
    # RBP(p=0.6): nothing at depths 1..3, the violation 0111 < 1000 at depth 4, so
    # "none" at max_depth 3 would have been false for the measure
    shallow = find_counterexample("RBP(p=0.6)", "rank", max_depth=3)
    deep = find_counterexample("RBP(p=0.6)", "rank", depth=4)
    assert shallow.status == "unknown" and shallow.searched == "depths 1..3, exhaustively; none found there"
    assert_genuine(deep, "RBP(p=0.6)", "rank", Gains.default(), None)


@pytest.mark.parametrize("method", ["enumeration", "smt"])
def test_a_topic_without_relevant_documents_is_none_at_every_depth(method):
    t = Topic((0, 0))
    cx = find_counterexample("gRBP(p=0.8)", "rank", max_depth=3, grades=2, topic=t, method=method)
    assert cx.status == "none" and cx.depths == (1, 2, 3)
    if method == "enumeration":
        assert "one run (all zeros) at every depth" in cx.proof
    # a topic with one relevant document does not qualify: there the answer stays open
    cx = find_counterexample("gRBP(p=0.8)", "rank", max_depth=3, grades=2, topic=Topic((0, 1)))
    assert cx.status == "unknown"


# --- free parameter ---------------------------------------------------------

def rbp(p, run):
    return (1 - p) * sum(p**i * Fraction(int(x >= 1)) for i, x in enumerate(run))


def test_free_p_above_one_half_finds_a_rechecked_violation():
    cx = find_counterexample("RBP", "rank", depth=4, method="smt", param_range=("p", Fraction(1, 2), 1))
    assert cx.status == "found"
    p = cx.param["p"]
    assert isinstance(p, Fraction) and Fraction(1, 2) <= p < 1
    assert get_order("rank").compare(cx.lower, cx.upper) == "<"
    assert rbp(p, cx.lower) == cx.lower_value > cx.upper_value == rbp(p, cx.upper)
    assert_genuine(cx, "RBP", "rank", Gains.default(), None)
    assert cx.to_json()["param"]["value"] == str(p)


def test_free_p_up_to_one_half_is_proved_free_of_violations():
    # RBP(p) on the rank order is ordinal for p < 1/2 and interval at p = 1/2
    cx = find_counterexample("RBP", "rank", max_depth=4, method="smt", param_range="p=0..1/2")
    assert cx.status == "unknown" and cx.proof == "unsat" and cx.depths == (1, 2, 3, 4)


def test_free_p_smallest_violating_value_is_respected():
    # at depth 4 a violation needs p + p^2 + p^3 > 1, i.e. p > 0.5436...
    cx = find_counterexample("RBP", "rank", depth=4, method="smt", param_range="p=0.5..0.54")
    assert cx.status == "unknown" and cx.proof == "unsat"
    cx = find_counterexample("RBP", "rank", depth=4, method="smt", param_range="p=0.54..0.55")
    assert cx.status == "found" and Fraction(54, 100) < cx.param["p"] <= Fraction(55, 100)
    assert_genuine(cx, "RBP", "rank", Gains.default(), None)


# --- beyond enumeration -----------------------------------------------------

@pytest.mark.slow
def test_depth_30_two_grades_grbp_one_half_is_violated():
    g = Gains.default(2)
    cx = find_counterexample("gRBP(p=0.5)", "rank", depth=30, grades=2, method="smt")
    assert_genuine(cx, "gRBP(p=0.5)", "rank", g, None)
    assert cx.seconds < 30


@pytest.mark.slow
def test_depth_30_two_grades_grbp_one_third_has_none():
    cx = find_counterexample("gRBP(p=1/3)", "rank", depth=30, grades=2, method="smt")
    assert cx.status == "unknown" and cx.proof == "unsat" and cx.seconds < 30


@pytest.mark.slow
def test_depth_30_ap_with_a_topic_is_violated():
    t = Topic((3, 2))
    cx = find_counterexample("AP", "rank", depth=30, grades=2, topic=t, method="smt")
    assert_genuine(cx, "AP", "rank", Gains.default(2), t)


@pytest.mark.slow
def test_timeout_gives_unknown_never_none():
    cx = find_counterexample("SBTO", "rank", depth=30, grades=2, method="smt", timeout=0.5)
    assert cx.status == "unknown" and not cx.found and cx.proof is None
    assert "timeout" in cx.reason and cx.undecided_depths == (30,)
    assert cx.to_json()["status"] == "unknown"


# --- bad input ----------------------------------------------------------------

@pytest.mark.parametrize("kwargs,match", [
    (dict(measure="DCG", method="smt"), "enumeration"),
    (dict(measure="nDCG", topic=Topic((2,)), method="smt"), "logarithmic"),
    (dict(measure="RBP", method="smt", param_range="p=1..2"), "outside the domain"),
    (dict(measure="RBP", method="smt", param_range="q=0..1"), "'q'"),
    (dict(measure="RBP", method="smt", param_range="p=0.6..0.4"), "p=0.6..0.4"),
    (dict(measure="RBP", method="smt", param_range="p0.4"), "p0.4"),
    (dict(measure="RBP", method="smt", param_range="p=a..1"), "p=a..1"),
    (dict(measure="RBP", method="magic"), "magic"),
    (dict(measure="RBP", timeout=0), "timeout 0"),
    (dict(measure="AP"), "--topic"),
    (dict(measure="RBP", grades=0), "grades 0"),
    (dict(measure="RBP", gains=Gains.default(2)), "gains 0,1,2"),
])
def test_bad_input_raises_a_typed_error_naming_the_value(kwargs, match):
    kwargs = {"order": "rank", "depth": 3, **kwargs}
    with pytest.raises(WorkbenchError, match=match):
        find_counterexample(**kwargs)


def test_depth_arguments():
    with pytest.raises(WorkbenchError, match="exactly one"):
        find_counterexample("RBP", "rank")
    with pytest.raises(WorkbenchError, match="exactly one"):
        find_counterexample("RBP", "rank", depth=2, max_depth=3)
    with pytest.raises(WorkbenchError, match="depth 0"):
        find_counterexample("RBP", "rank", depth=0)
    with pytest.raises(SpaceTooLargeError, match="--method smt"):
        find_counterexample("RR", "rank", depth=30, grades=2)  # RBP would be decided by kind of cover
    with pytest.raises(NotExpressibleError):
        find_counterexample("DCG", "rank", depth=2, method="smt")
    with pytest.raises(BadParameterError):
        parse_param_range("p=1/0..1")


# --- command line -------------------------------------------------------------

def test_cli_json_contract_found(capsys):
    code, out, err = run_cli(capsys, "counterexample", "RBP(p=0.8)", "--max-depth", "4", "--json")
    assert code == 0
    obj = json.loads(out)
    for key in ("found", "depth", "lower", "upper", "lower_value", "upper_value", "method", "status", "proof", "seconds"):
        assert key in obj
    assert obj["found"] is True and obj["status"] == "found" and obj["method"] == "enumeration"
    assert obj["depth"] == 3 and obj["lower"] == [0, 1, 1] and obj["upper"] == [1, 0, 0]
    p = Fraction(4, 5)
    assert Fraction(obj["lower_value"]) == rbp(p, obj["lower"]) > rbp(p, obj["upper"]) == Fraction(obj["upper_value"])


@pytest.mark.slow
def test_cli_json_smt_none_and_free_param(capsys):
    code, out, _ = run_cli(capsys, "counterexample", "gRBP(p=1/3)", "--grades", "2", "--depth", "30",
                           "--method", "smt", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["found"] is False and obj["status"] == "unknown" and obj["proof"] == "unsat"
    code, out, _ = run_cli(capsys, "counterexample", "RBP", "--depth", "4", "--method", "smt",
                           "--param-range", "p=0.5..1", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["found"] is True and obj["param"]["name"] == "p"
    p = Fraction(obj["param"]["value"])
    assert rbp(p, obj["lower"]) > rbp(p, obj["upper"]) and obj["lower"] < obj["upper"]


@pytest.mark.slow
def test_cli_unknown_exits_0_with_status_unknown(capsys):
    code, out, _ = run_cli(capsys, "counterexample", "SBTO", "--grades", "2", "--depth", "30",
                           "--method", "smt", "--timeout", "0.5", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "unknown" and obj["found"] is False and obj["reason"]


def test_cli_text_output(capsys):
    code, out, _ = run_cli(capsys, "counterexample", "RR", "--max-depth", "3", "--method", "smt")
    assert code == 0 and out.startswith("unknown") and "unsat" in out
    code, out, _ = run_cli(capsys, "counterexample", "RR", "--max-depth", "3")
    text = " ".join(out.split())
    assert code == 0 and text.startswith("unknown (enumeration, searched depths 1..3, exhaustively; none found there")
    assert "none (" not in text and "proof" not in text


def test_cli_json_enumeration_finding_nothing(capsys):
    code, out, _ = run_cli(capsys, "counterexample", "RR", "--depth", "3", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "unknown" and obj["found"] is False and obj["proof"] is None
    assert obj["searched"] == "depth 3, exhaustively; none found there" and obj["depths"] == [3]


@pytest.mark.parametrize("argv,bad", [
    (["counterexample", "FOO", "--depth", "3"], "FOO"),
    (["counterexample", "RBP"], "--depth"),
    (["counterexample", "RBP", "--depth", "3", "--max-depth", "4"], "--max-depth"),
    (["counterexample", "RBP", "--depth", "0"], "depth 0"),
    (["counterexample", "RBP", "--depth", "3", "--order", "lex"], "lex"),
    (["counterexample", "RBP", "--depth", "3", "--method", "sat"], "sat"),
    (["counterexample", "DCG", "--depth", "3", "--method", "smt"], "enumeration"),
    (["counterexample", "RBP", "--depth", "3", "--method", "smt", "--param-range", "p=2..3"], "p=2..3"),
    (["counterexample", "RBP", "--depth", "3", "--timeout", "-1"], "timeout -1"),
    (["counterexample", "AP", "--depth", "3"], "--topic"),
    (["counterexample", "RR", "--depth", "30", "--grades", "2"], "--method smt"),
])
def test_cli_bad_input_is_one_line_exit_2(capsys, argv, bad):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and bad in err
