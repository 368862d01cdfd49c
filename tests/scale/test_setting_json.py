"""The results carry one ``Setting``, and their JSON objects keep the contract byte for byte.

For classify, thresholds and counterexample (and the axioms results), the setting's part of
``to_json()`` -- and of the command's ``--json`` -- is compared, as JSON text, with a dict built
here from the inputs: the measure's name as given, the order, ``rank``/``set`` as the order
compares sequences or multisets, the depth, the grades, the gains as exact texts and the topic's
counts.  The full key lists are the published objects' keys, written out.
"""
from __future__ import annotations

import json
import pickle

import pytest

from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.axioms_param import axioms_over_param
from workbench.scale.axioms_smt import axioms_smt
from workbench.scale.classify import classify, classify_materialised
from workbench.scale.counterexample import find_counterexample
from workbench.scale.stream import job_for, setting
from workbench.scale.thresholds import thresholds
from workbench.space.runs import Gains, Topic
from workbench.space.setting import Setting
from workbench.space.spaces import Space

#: The orders on multisets of grades; every other order compares sequences.
SET_ORDERS = {"set", "replacement"}

CLASSIFY_KEYS = ["measure", "order", "space", "depth", "grades", "gains", "topic", "verdict", "witness", "gap_witness",
                 "affine", "intrinsic", "intrinsic_witness", "runs", "covers", "distinct_values", "ranked_values"]
THRESHOLDS_KEYS = ["measure", "param", "domain", "order", "space", "depth", "grades", "gains", "topic", "runs",
                   "covers", "distinct_differences", "degree_bound", "critical_points", "regions"]
COUNTEREXAMPLE_KEYS = ["found", "status", "measure", "order", "method", "depth", "depths", "searched", "grades",
                       "gains", "topic", "lower", "upper", "lower_value", "upper_value", "lower_value_float",
                       "upper_value_float", "param", "proof", "reason", "undecided_depths", "seconds"]


def expected(measure: str, order: str, depth: int, grades: int, gains: str | None, topic: str | None,
             keys=("measure", "order", "space", "depth", "grades", "gains", "topic")) -> dict:
    """The setting's part of a JSON object, from the inputs alone (gains default to 0, 1, ..., c)."""
    parts = {"measure": measure, "order": order, "space": "set" if order in SET_ORDERS else "rank", "depth": depth,
             "grades": grades,
             "gains": gains.split(",") if gains else [str(i) for i in range(grades + 1)],
             "topic": None if topic is None else [int(n) for n in topic.split(",")]}
    return {k: parts[k] for k in keys}


def same_text(js: dict, want: dict) -> None:
    """The setting's keys of ``js`` print exactly as ``want`` (order, types and values)."""
    assert json.dumps({k: js[k] for k in want}) == json.dumps(want)


# (measure, order, depth, grades, gains, topic)
CLASSIFY_CASES = [
    ("RBP(p=0.8)", "dominance", 4, 1, None, None),
    ("AP", "rank", 4, 1, None, "2"),
    ("P", "set", 3, 2, None, None),
    ("nDCG", "ipso", 3, 2, "0,1,3", "1,1"),
    ("DCG", "replacement", 3, 1, None, None),
    ("P", "raise", 3, 2, "0,1/2,1", None),
    ("RR", "swap", 3, 1, None, None),
]


def setting_of(order: str, depth: int, grades: int, gains: str | None, topic: str | None):
    g = Gains.parse(gains) if gains else Gains.default(grades)
    return Space("set" if order in SET_ORDERS else "rank", depth, grades, None if topic is None else Topic.parse(topic)), g


@pytest.mark.parametrize("measure, order, depth, grades, gains, topic", CLASSIFY_CASES)
def test_classify_json_keeps_the_setting_byte_for_byte(measure, order, depth, grades, gains, topic):
    space, g = setting_of(order, depth, grades, gains, topic)
    want = expected(measure, order, depth, grades, gains, topic)
    for run in (classify, classify_materialised):
        c = run(parse_measure(measure), get_order(order), space, g)
        js = c.to_json()
        assert list(js) == CLASSIFY_KEYS
        same_text(js, want)
        assert c.setting == Setting(measure, order, want["space"], depth, grades, g, space.topic)
        assert (c.measure, c.order, c.kind, c.depth, c.grades, c.gains, c.topic) == \
            (measure, order, want["space"], depth, grades, g, space.topic)


# (measure, param, order, depth, grades, gains, topic)
THRESHOLDS_CASES = [
    ("RBP", "p", "rank", 3, 1, None, None),
    ("RBP", "p", "set", 3, 1, None, None),
    ("gRBP", "p", "rank", 2, 2, "0,1,3", None),
    ("RBP", "p", "dominance", 3, 1, None, "2"),
]


@pytest.mark.parametrize("measure, param, order, depth, grades, gains, topic", THRESHOLDS_CASES)
def test_thresholds_json_keeps_the_setting_byte_for_byte(measure, param, order, depth, grades, gains, topic):
    space, g = setting_of(order, depth, grades, gains, topic)
    t = thresholds(parse_measure(measure), param, get_order(order), space, g)
    js = t.to_json()
    assert list(js) == THRESHOLDS_KEYS
    same_text(js, expected(measure, order, depth, grades, gains, topic))
    assert (js["param"], t.param) == (param, param)
    assert t.setting.space == space


# (keywords of find_counterexample, the depth the answer is about, gains, topic)
COUNTEREXAMPLE_CASES = [
    # M(011) = 0.2 (0.8 + 0.64) > M(100) = 0.2; nothing at depth 2: found at 3
    (dict(measure="RBP(p=0.8)", order="rank", max_depth=4), 3, None, None),
    (dict(measure="RR", order="rank", depth=2), 2, None, None),
    (dict(measure="AP", order="dominance", max_depth=4, topic=Topic((2,))), 4, None, "2"),
    # P counts the documents of grade >= 1: 11 < 20 in the set order, but P(11) = 1 > P(20) = 1/2
    (dict(measure="P", order="set", max_depth=3, grades=2, gains=Gains((0, 1, 3)), method="smt"), 2, "0,1,3", None),
]


@pytest.mark.parametrize("kw, depth, gains, topic", COUNTEREXAMPLE_CASES)
def test_counterexample_json_keeps_the_setting_byte_for_byte(kw, depth, gains, topic):
    cx = find_counterexample(**kw)
    js = cx.to_json()
    assert list(js) == COUNTEREXAMPLE_KEYS
    grades = kw.get("grades", 1)
    same_text(js, expected(kw["measure"], kw["order"], depth, grades, gains, topic,
                           keys=("measure", "order", "depth", "grades", "gains", "topic")))
    assert cx.setting.kind == ("set" if kw["order"] in SET_ORDERS else "rank")


def test_the_axioms_results_keep_the_setting_too():
    smt = axioms_smt("RBP(p=0.5)", "dominance", 2).to_json()
    assert list(smt)[:9] == ["method", "measure", "order", "space", "depth", "grades", "gains", "topic",
                             "timeout_per_axiom"]
    same_text(smt, expected("RBP(p=0.5)", "dominance", 2, 1, None, None))
    regions = axioms_over_param("RBP", "p", Space("rank", 3, 1, Topic((2,)))).to_json()
    assert list(regions)[:9] == ["measure", "param", "domain", "order", "space", "depth", "grades", "gains", "topic"]
    same_text(regions, expected("RBP", "rank", 3, 1, None, "2"))


@pytest.mark.parametrize("argv, want", [
    (["classify", "nDCG", "--order", "ipso", "--depth", "3", "--grades", "2", "--topic", "1,1", "--gains", "0,1,3"],
     expected("nDCG", "ipso", 3, 2, "0,1,3", "1,1")),
    (["thresholds", "RBP", "--param", "p", "--depth", "3", "--order", "dominance", "--topic", "2"],
     expected("RBP", "dominance", 3, 1, None, "2")),
    (["counterexample", "RBP(p=0.8)", "--order", "rank", "--max-depth", "4"],
     expected("RBP(p=0.8)", "rank", 3, 1, None, None, keys=("measure", "order", "depth", "grades", "gains", "topic"))),
])
def test_the_commands_json_keeps_the_setting(cli, argv, want):
    code, out, err = cli(*argv, "--json")
    assert code == 0, err
    same_text(json.loads(out), want)


def test_a_job_carries_the_setting_and_pickles_as_plain_data():
    space = Space("rank", 4, 2, Topic((2, 1)))
    job = job_for(parse_measure("RBP(p=0.8)"), get_order("ipso"), space, Gains((0, 1, 3)), distinct=False)
    assert job.setting == Setting("RBP(p=0.8)", "ipso", "rank", 4, 2, Gains((0, 1, 3)), Topic((2, 1)))
    back = pickle.loads(pickle.dumps(job))
    assert back == job and hash(back) == hash(job) and back.distinct is False
    measure, order, sp, g = setting(back)
    assert (str(measure), order.name, sp, g) == ("RBP(p=0.8)", "ipso", space, Gains((0, 1, 3)))
